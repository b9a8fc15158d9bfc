#!/usr/bin/env bash
# Runs Weft's benchmark peers on the workloads of weft-bench/peers/README.md and writes
# OUTDIR/peers.tsv: the header "peer workload parameter metric value unit note" (tab-separated),
# then one row per peer, workload and parameter. Every expected row is there: a peer or workload
# that could not run (missing tool, failed install, crash, time-out) gets the metric `unavailable`,
# the value NA and the reason in the note.
#
# usage: run-peers.sh [--quick] OUTDIR
#   --quick   switch and memory at 100 and 1,000 only, short runs: a smoke test, under a minute
#
# Calls install.sh first (it installs only what is missing). Logs go to OUTDIR/logs/.
set -uo pipefail

usage() { echo "usage: $0 [--quick] OUTDIR" >&2; exit 2; }
quick=false
outdir=""
for arg in "$@"; do
  case "$arg" in
    --quick) quick=true ;;
    -h|--help) usage ;;
    -*) usage ;;
    *) [[ -z "$outdir" ]] || usage; outdir="$arg" ;;
  esac
done
[[ -n "$outdir" ]] || usage

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

mkdir -p "$outdir/logs" || exit 1
outdir=$(cd "$outdir" && pwd)
logs="$outdir/logs"
tsv="$outdir/peers.tsv"
printf 'peer\tworkload\tparameter\tmetric\tvalue\tunit\tnote\n' > "$tsv"

if [[ $quick == true ]]; then
  counts=(100 1000)
  bench_timeout=30; switch_timeout=20; memory_timeout=20
  quick_flag=(--quick)
  jvm_memory_repeats=2
else
  counts=(100 1000 5000 10000 20000 30000 40000 50000)
  bench_timeout=300; switch_timeout=120; memory_timeout=90
  quick_flag=()
  jvm_memory_repeats=5
fi
bench_expected=("fiber-chain 5" "fiber-chain 5000" "same-fringe 1000" "same-fringe 100000")

started=$(date +%s)
say() { echo "run-peers: $*" >&2; }

say "install.sh (log: $logs/install.log)"
"$PEERS_DIR/install.sh" --status "$logs/install-status.tsv" > /dev/null 2> "$logs/install.log"

java=$(find_java)
jvm_cp="$JVM_MODULE/target/classes:$JVM_MODULE/target/lib/*"
# A dynamic CDS archive halves JRuby's start-up (it is made by the first run); JVM logging goes
# to stderr so that nothing but rows reaches stdout.
jruby_cmd=("$java" -XX:+AutoCreateSharedArchive "-XX:SharedArchiveFile=$JRUBY_JAR.jsa"
           -Xlog:disable -Xlog:all=warning:stderr -jar "$JRUBY_JAR" "$PEERS_DIR/ruby/fiber_peer.rb")
# JRuby with Weft fibers: the same JRuby and Ruby file, with `-r weft/fiber` replacing ::Fiber. The
# options are those jruby-complete's manifest gives `java -jar`, plus the one Weft needs; its own
# class-data archive, since its class path differs.
jruby_weft_cmd=("$java" -XX:+AutoCreateSharedArchive "-XX:SharedArchiveFile=$JRUBY_JAR.weft.jsa"
                -Xlog:disable -Xlog:all=warning:stderr --add-exports java.base/jdk.internal.vm=ALL-UNNAMED
                --enable-native-access=ALL-UNNAMED --add-opens java.base/java.io=ALL-UNNAMED
                --add-opens java.base/java.nio.channels=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED
                --add-opens java.management/sun.management=ALL-UNNAMED
                -cp "$JRUBY_JAR:$WEFT_JRUBY_CP" org.jruby.main.Main -r weft/fiber "$PEERS_DIR/ruby/fiber_peer.rb")
# JVM options of the JVM peers' next run: empty, or the fixed heap of a memory run.
jvm_opts=()
# The fixed heap in MiB of a JVM peer's memory run with $1 coroutines, by weft-bench's rule for its
# own memory probes (ProcessMemory.fixedHeapOptions): 128 MiB + 2 KiB per coroutine, at least 256.
fixed_heap_mib() {
  local mib=$((128 + ($1 * 2048 + 1048575) / 1048576))
  echo $((mib > 256 ? mib : 256))
}
# The same for JRuby's memory runs: 256 MiB + 16 KiB per fiber (JRuby's own fibers' virtual threads
# keep their stacks in the heap, ~4.3 KB each; a Weft fiber ~2.3 KB; JRuby itself ~20 MiB).
jruby_heap_mib() {
  echo $((256 + ($1 * 16384 + 1048575) / 1048576))
}
# The command that runs each peer; the arguments MODE [--quick] [N...] follow it.
peer_cmd() {
  case "$1" in
    go-goroutines) cmd=("$GO_BIN") ;;
    mri-fiber) cmd=(ruby "$PEERS_DIR/ruby/fiber_peer.rb") ;;
    jruby-fiber) cmd=("$java" "${jvm_opts[@]}" "${jruby_cmd[@]:1}") ;;
    jruby-weft) cmd=("$java" "${jvm_opts[@]}" "${jruby_weft_cmd[@]:1}") ;;
    python-greenlet) cmd=("$VENV/bin/python" "$PEERS_DIR/python/greenlet_peer.py") ;;
    kotlin-coroutines) cmd=("$java" "${jvm_opts[@]}" -cp "$jvm_cp" dev.weft.bench.peers.kotlin.KotlinPeerKt) ;;
    kilim) cmd=("$java" "${jvm_opts[@]}" -cp "$jvm_cp" dev.weft.bench.peers.kilim.KilimPeer) ;;
  esac
}

# The line of a failed run's stderr that says what went wrong: the last one naming an error or an
# exception (not a stack frame, not a JVM warning), else the last line.
error_line() {
  local text
  text=$(grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*at ' -e '^WARNING' -e '^\[' -e '^###')
  { grep -i -E 'error|exception|panic|killed|fatal' <<< "$text" || echo "$text"; } | tail -n 1 | cut -c1-300
}

unavailable() { # peer workload parameter reason
  printf '%s\t%s\t%s\tunavailable\tNA\t-\t%s\n' "$1" "$2" "$3" "$(printf '%s' "$4" | tr '\t\n' '  ' | cut -c1-400)" >> "$tsv"
}

# run PEER TIMEOUT "EXPECTED..." -- ARGS...: runs the peer once, keeps its well-formed rows, and
# writes an unavailable row for each expected "workload parameter" it did not print.
run() {
  local peer="$1" limit="$2"; shift 2
  local expected=()
  while [[ "$1" != "--" ]]; do expected+=("$1"); shift; done
  shift
  peer_cmd "$peer"
  local out="$logs/$peer.out" err="$logs/$peer.err" t0 rc first
  echo "### ${cmd[*]} $*" >> "$err"
  first=$(($(wc -l < "$err") + 1))
  t0=$(date +%s%N)
  timeout -k 5 "$limit" "${cmd[@]}" "$@" > "$out.last" 2>> "$err" < /dev/null
  rc=$?
  cat "$out.last" >> "$out"
  awk -F'\t' -v p="$peer" 'NF == 7 && $1 == p' "$out.last" >> "$tsv"
  local reason
  if [[ $rc -eq 124 || $rc -eq 137 ]]; then
    reason="timed out after ${limit}s"
  elif [[ $rc -ne 0 ]]; then
    reason="exit status $rc: $(tail -n "+$first" "$err" | error_line)"
  else
    reason="the program printed no row for it"
  fi
  local e w p
  for e in "${expected[@]}"; do
    w=${e% *}; p=${e#* }
    if ! awk -F'\t' -v p="$peer" -v w="$w" -v n="$p" 'NF == 7 && $1 == p && $2 == w && $3 == n {f = 1} END {exit !f}' "$out.last"; then
      unavailable "$peer" "$w" "$p" "$reason"
    fi
  done
  rm -f "$out.last"
  say "$(printf '%-18s %-26s %6d ms  exit %s' "$peer" "$*" $((($(date +%s%N) - t0) / 1000000)) "$rc")"
}

for peer in "${ALL_PEERS[@]}"; do
  reason=$(awk -F'\t' -v p="$peer" '$1 == p {print $2; exit}' "$logs/install-status.tsv" 2> /dev/null)
  if [[ "$reason" != ok ]]; then
    reason=${reason:-"install.sh reported nothing for it (see logs/install.log)"}
    say "$peer: unavailable: $reason"
    for e in "${bench_expected[@]}"; do unavailable "$peer" "${e% *}" "${e#* }" "$reason"; done
    for n in "${counts[@]}"; do unavailable "$peer" switch "$n" "$reason"; done
    for n in "${counts[@]}"; do unavailable "$peer" memory "$n" "$reason"; done
    continue
  fi
  : > "$logs/$peer.err"
  : > "$logs/$peer.out"
  if [[ $quick == true ]]; then
    # One process for the chain, the fringe and the few switch counts: JRuby starts in seconds.
    switch_expected=()
    for n in "${counts[@]}"; do switch_expected+=("switch $n"); done
    run "$peer" "$bench_timeout" "${bench_expected[@]}" "${switch_expected[@]}" -- bench --quick "${counts[@]}"
  else
    run "$peer" "$bench_timeout" "${bench_expected[@]}" -- bench
    # Each ring in a fresh process, so that no count inherits the garbage or stacks of another.
    for n in "${counts[@]}"; do
      run "$peer" "$switch_timeout" "switch $n" -- switch "$n"
    done
  fi
  if [[ $quick == true && $peer == jruby-weft ]]; then
    # Two more JRuby start-ups would take ./bench --quick's peers past its 45 s budget.
    for n in "${counts[@]}"; do unavailable "$peer" memory "$n" "not run in quick mode (JRuby start-up time)"; done
    continue
  fi
  for n in "${counts[@]}"; do
    if [[ $peer == kotlin-coroutines || $peer == kilim || $peer == jruby-fiber || $peer == jruby-weft ]]; then
      # Measured as weft-bench measures its own JVM rows: a fixed, pre-touched heap, so that the
      # resident set grows by native memory only, and several fresh JVMs (the report takes the
      # median of their rows). JRuby: three JVMs per count, one in a quick run (a JRuby JVM takes
      # 5 to 13 s to start and fill; five would add ten minutes to the full run).
      case $peer in
        jruby-*) mib=$(jruby_heap_mib "$n"); repeats=$([[ $quick == true ]] && echo 1 || echo 3) ;;
        *) mib=$(fixed_heap_mib "$n"); repeats=$jvm_memory_repeats ;;
      esac
      jvm_opts=("-Xms${mib}m" "-Xmx${mib}m" -XX:+AlwaysPreTouch)
      for ((r = 1; r <= repeats; r++)); do
        run "$peer" "$memory_timeout" "memory $n" -- memory "$n" "${quick_flag[@]}"
      done
      jvm_opts=()
    else
      run "$peer" "$memory_timeout" "memory $n" -- memory "$n" "${quick_flag[@]}"
    fi
  done
done

say "wrote $tsv ($(($(tail -n +2 "$tsv" | wc -l))) rows) in $(($(date +%s) - started))s"
