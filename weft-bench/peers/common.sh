# Shared by install.sh and run-peers.sh (sourced, not run).

PEERS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$PEERS_DIR/../.." && pwd)
JVM_MODULE="$REPO_ROOT/weft-bench-peers-jvm"
JRUBY_JAR="$JVM_MODULE/target/jruby/jruby-complete.jar"
# JRuby with Weft fibers (jruby-weft): the jars the reactor builds (./mvnw -pl weft-jruby -am package).
WEFT_JRUBY_MODULE="$REPO_ROOT/weft-jruby"
WEFT_JRUBY_CP="$REPO_ROOT/weft-core/target/weft-core-0.1.0-SNAPSHOT.jar:$WEFT_JRUBY_MODULE/target/weft-jruby-0.1.0-SNAPSHOT.jar"
VENV="$PEERS_DIR/.venv"
GO_BIN="$PEERS_DIR/go/bin/goroutines-peer"
# Every peer, in the order run-peers.sh runs them.
ALL_PEERS=(go-goroutines mri-fiber jruby-fiber jruby-weft python-greenlet kotlin-coroutines kilim)

# The feature release of the JDK at $1, or nothing.
java_feature_version() {
  local release="$1/release"
  [[ -x "$1/bin/java" && -f "$release" ]] || return 0
  sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release"
}

# Prints the java launcher of a JDK 21 or newer: $JAVA_HOME if it is one, else the newest under
# /usr/lib/jvm (as ./mvnw chooses). Prints nothing if there is none.
find_java() {
  local v best="" best_v=0 dir
  if [[ -n "${JAVA_HOME:-}" ]]; then
    v=$(java_feature_version "$JAVA_HOME")
    if [[ -n "$v" && "$v" -ge 21 ]]; then echo "$JAVA_HOME/bin/java"; return; fi
  fi
  for dir in /usr/lib/jvm/*; do
    v=$(java_feature_version "$dir")
    if [[ -n "$v" && "$v" -ge 21 && "$v" -gt "$best_v" ]]; then best="$dir"; best_v="$v"; fi
  done
  [[ -n "$best" ]] && echo "$best/bin/java"
  return 0
}
