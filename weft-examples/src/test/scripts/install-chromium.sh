#!/bin/sh
# Installs Debian's chromium and chromium-driver where they are missing, for the web demo's
# browser test (WebDemoBrowserTest). Exits 0 when both are there, non-zero when they cannot be
# installed (not root, no apt-get): then the test is skipped, and says why.
set -e
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "chromium and chromium-driver are missing, and only root with apt-get can install them here" >&2
    exit 1
fi
echo "installing Debian's chromium and chromium-driver for the browser test" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium chromium-driver >/dev/null
command -v chromium >/dev/null && command -v chromedriver >/dev/null
