#!/usr/bin/env bash
# Installs what the benchmark peers need, and only what is missing, so that a second run does
# nothing and takes a second:
#
#   mri-fiber          Debian's ruby (apt-get, as root)
#   jruby-fiber        jruby-complete from Maven Central, through ./mvnw (dependency:copy@fetch-jruby
#                      of weft-bench-peers-jvm) into weft-bench-peers-jvm/target/jruby
#   jruby-weft         the same JRuby, and the weft-core and weft-jruby jars built by the reactor
#                      (./mvnw -pl weft-jruby -am package; nothing goes to ~/.m2)
#   python-greenlet    greenlet (python/requirements.txt) in the venv weft-bench/peers/.venv
#   go-goroutines      go/bin/goroutines-peer, built offline (standard library only)
#   kotlin-coroutines  weft-bench-peers-jvm built with ./mvnw (classes plus target/lib)
#   kilim              the same build (Kilim's weaver runs in it)
#
# usage: install.sh [--status FILE]
# Writes one line per peer to FILE (default: stdout): "peer<TAB>ok", or "peer<TAB>reason" when it
# could not be installed. Exits 0 either way: a peer that cannot be installed is reported by
# run-peers.sh as unavailable, not hidden. The log of what was done goes to stderr.
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

status_file=/dev/stdout
if [[ "${1:-}" == "--status" && -n "${2:-}" ]]; then
  status_file="$2"
  : > "$status_file"
fi

log() { echo "install: $*" >&2; }
status() { printf '%s\t%s\n' "$1" "$2" >> "$status_file"; }
# The last non-empty line of a log, as a one-line reason.
last_line() { grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n 1 | tr '\t' ' ' | cut -c1-300; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- MRI Ruby -------------------------------------------------------------------------------------
install_ruby() {
  if command -v ruby > /dev/null 2>&1; then
    status mri-fiber ok
    return
  fi
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get > /dev/null 2>&1; then
    status mri-fiber "ruby is not installed, and apt-get as root is not available to install it"
    return
  fi
  log "apt-get install ruby"
  if apt-get update -qq > "$work/apt.log" 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ruby >> "$work/apt.log" 2>&1 &&
      command -v ruby > /dev/null 2>&1; then
    status mri-fiber ok
  else
    cat "$work/apt.log" >&2
    status mri-fiber "apt-get install ruby failed: $(last_line "$work/apt.log")"
  fi
}

# --- Python greenlet in a venv --------------------------------------------------------------------
install_greenlet() {
  local py="$VENV/bin/python" requirements="$PEERS_DIR/python/requirements.txt"
  if [[ -x "$py" && "$VENV/.installed" -nt "$requirements" ]] && "$py" -c 'import greenlet' 2> /dev/null; then
    status python-greenlet ok
    return
  fi
  local base
  base=$(command -v python3 || true)
  if [[ -z "$base" ]]; then
    status python-greenlet "python3 is not installed"
    return
  fi
  log "venv $VENV: pip install $(grep -v '^#' "$requirements" | tr '\n' ' ')"
  if { [[ -x "$py" ]] || "$base" -m venv "$VENV"; } > "$work/venv.log" 2>&1 &&
      "$VENV/bin/pip" install -q -r "$requirements" >> "$work/venv.log" 2>&1 &&
      "$py" -c 'import greenlet' >> "$work/venv.log" 2>&1; then
    touch "$VENV/.installed"
    status python-greenlet ok
  else
    cat "$work/venv.log" >&2
    status python-greenlet "venv or pip install greenlet failed: $(last_line "$work/venv.log")"
  fi
}

# --- Go -------------------------------------------------------------------------------------------
install_go() {
  if ! command -v go > /dev/null 2>&1; then
    status go-goroutines "go is not installed"
    return
  fi
  local stale
  stale=$(find "$PEERS_DIR/go" -maxdepth 1 \( -name '*.go' -o -name go.mod \) -newer "$GO_BIN" 2> /dev/null | head -n 1)
  if [[ -x "$GO_BIN" && -z "$stale" ]]; then
    status go-goroutines ok
    return
  fi
  log "go build $GO_BIN"
  # No third-party modules: the build needs no network. GOTOOLCHAIN=local keeps go from fetching
  # another toolchain; GOPROXY=off makes any attempt to fetch a module fail at once.
  if (cd "$PEERS_DIR/go" && GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod \
        go build -o "$GO_BIN" .) > "$work/go.log" 2>&1; then
    status go-goroutines ok
  else
    cat "$work/go.log" >&2
    status go-goroutines "go build failed: $(last_line "$work/go.log")"
  fi
}

# --- The JVM module and JRuby ---------------------------------------------------------------------
install_jvm() {
  if [[ -z "$(find_java)" ]]; then
    for p in kotlin-coroutines kilim jruby-fiber; do status "$p" "no JDK 21 or newer found (JAVA_HOME or /usr/lib/jvm)"; done
    return
  fi
  local stamp="$JVM_MODULE/target/peers-build.stamp" stale need_build=false goals=() reason=""
  stale=$(find "$JVM_MODULE/pom.xml" "$JVM_MODULE/src/main" -newer "$stamp" -type f 2> /dev/null | head -n 1)
  if [[ ! -f "$stamp" || -n "$stale" || ! -d "$JVM_MODULE/target/lib" || ! -d "$JVM_MODULE/target/classes" ]]; then
    need_build=true
    # clean: the Kotlin compiler has been seen to leave a stale class behind on a rebuild. It also
    # removes the JRuby jar from target/, so that is copied again (from the local repository).
    goals+=(clean package)
  fi
  if [[ $need_build == true || ! -s "$JRUBY_JAR" ]]; then
    goals+=(dependency:copy@fetch-jruby)
  fi
  if [[ ${#goals[@]} -gt 0 ]]; then
    log "./mvnw ${goals[*]} (weft-bench-peers-jvm)"
    if (cd "$REPO_ROOT" && ./mvnw -q -B -pl weft-bench-peers-jvm -DskipTests "${goals[@]}") > "$work/mvn.log" 2>&1; then
      touch "$stamp"
    else
      cat "$work/mvn.log" >&2
      reason="./mvnw ${goals[*]} failed: $( (grep -m1 '^\[ERROR\]' "$work/mvn.log" || last_line "$work/mvn.log") | cut -c1-300)"
      if [[ $need_build == true && ! -s "$JRUBY_JAR" ]]; then
        # The build failed before the copy: JRuby needs no build, so copy it on its own.
        log "./mvnw dependency:copy@fetch-jruby (weft-bench-peers-jvm)"
        (cd "$REPO_ROOT" && ./mvnw -q -B -pl weft-bench-peers-jvm dependency:copy@fetch-jruby) > "$work/mvn2.log" 2>&1 ||
          cat "$work/mvn2.log" >&2
      fi
    fi
  fi
  if [[ $need_build == true && -n "$reason" ]]; then
    status kotlin-coroutines "$reason"
    status kilim "$reason"
  else
    status kotlin-coroutines ok
    status kilim ok
  fi
  if [[ -s "$JRUBY_JAR" && ! -s "$JRUBY_JAR.jsa" ]]; then
    # JRuby's own start-up, once, so that the JVM writes the class-data archive run-peers.sh uses
    # (it halves the start-up of every later run; a failure here only costs that).
    log "JRuby class-data archive $JRUBY_JAR.jsa"
    "$(find_java)" -XX:+AutoCreateSharedArchive "-XX:SharedArchiveFile=$JRUBY_JAR.jsa" -Xlog:disable \
      -jar "$JRUBY_JAR" -e 'nil' > "$work/jsa.log" 2>&1 || cat "$work/jsa.log" >&2
  fi
  if [[ -s "$JRUBY_JAR" ]]; then
    status jruby-fiber ok
  else
    status jruby-fiber "${reason:-jruby-complete.jar is missing after ./mvnw dependency:copy@fetch-jruby}"
  fi
}

# --- JRuby with Weft fibers ---------------------------------------------------------------------------
install_weft_jruby() {
  if [[ ! -s "$JRUBY_JAR" ]]; then
    status jruby-weft "jruby-complete.jar is missing (see jruby-fiber)"
    return
  fi
  local jar stale=""
  for jar in ${WEFT_JRUBY_CP//:/ }; do
    [[ -s "$jar" ]] || stale=missing
  done
  if [[ -z "$stale" ]]; then
    stale=$(find "$REPO_ROOT/weft-core/src/main" "$WEFT_JRUBY_MODULE/src/main" "$WEFT_JRUBY_MODULE/pom.xml" \
      -newer "$WEFT_JRUBY_MODULE/target/weft-jruby-0.1.0-SNAPSHOT.jar" -type f 2> /dev/null | head -n 1)
  fi
  if [[ -n "$stale" ]]; then
    log "./mvnw -pl weft-jruby -am package (the weft-core and weft-jruby jars)"
    if ! (cd "$REPO_ROOT" && ./mvnw -q -B -pl weft-jruby -am -DskipTests package) > "$work/weft-jruby.log" 2>&1; then
      cat "$work/weft-jruby.log" >&2
      status jruby-weft "./mvnw -pl weft-jruby -am package failed: $( (grep -m1 '^\[ERROR\]' "$work/weft-jruby.log" || last_line "$work/weft-jruby.log") | cut -c1-300)"
      return
    fi
  fi
  status jruby-weft ok
}

install_go
install_ruby
install_greenlet
install_jvm
install_weft_jruby
exit 0
