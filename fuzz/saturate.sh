#!/usr/bin/env bash
# Runs one fuzz target until its coverage stops growing: one process, at the lowest
# priority, with a corpus kept between runs (fuzz/corpus/TARGET), until `cov:` has not
# grown for STALL seconds of the fuzzer's own processor time (default 600; counted so, a
# busy machine, which lends the fuzzer less of each second, does not stop it early) or
# MAX seconds of the run have passed (default 7200). Every line the fuzzer prints is kept with the second it came, in
# fuzz/logs/TARGET.log, and a summary (time, executions, final cov, when it last grew)
# is printed at the end. A crashing input stops the run: it is in fuzz/artifacts/TARGET/.
#
# Build the targets first, without a sanitizer (safe Rust's bugs are panics, which
# libFuzzer catches all the same, and the run is several times faster):
#   cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz build -s none -O
# then: fuzz/saturate.sh pgn_readers [STALL] [MAX]
# An empty corpus starts from fuzz/kept/TARGET.tar.zst, the corpus a run kept (fuzz/keep.sh).
set -euo pipefail
target=${1:?usage: saturate.sh TARGET [STALL_SECONDS] [MAX_SECONDS]}
stall=${2:-600}
max=${3:-7200}
here=$(cd "$(dirname "$0")" && pwd)
bin="$here/target/x86_64-unknown-linux-gnu/release/$target"
[ -x "$bin" ] || { echo "no $bin: build the targets first (see the top of $0)" >&2; exit 2; }
mkdir -p "$here/corpus/$target" "$here/artifacts/$target" "$here/logs"
# A fresh clone has no corpus: start from the one kept in the repository (fuzz/keep.sh).
kept="$here/kept/$target.tar.zst"
if [ -z "$(ls -A "$here/corpus/$target")" ] && [ -f "$kept" ]; then
  tar --zstd -xf "$kept" -C "$here/corpus/$target"
fi
log="$here/logs/$target.log"
: >"$log"
args=(-print_final_stats=1 -max_total_time="$max" -artifact_prefix="$here/artifacts/$target/")
seeds=()
case $target in
  pgn_*|convert_*)
    args+=(-dict="$here/pgn.dict" -max_len=4096)
    seeds+=("$here/../tests/data/quirks")
    ;;
  app_update)
    args+=(-max_len=512)
    # Each input writes a journal in a temporary directory and syncs it: on a busy disk
    # the target waited on the syncs (40 inputs a second, not 500). In memory, when the
    # machine has it, the same code runs without the wait.
    if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
    ;;
esac
# pgn_differential starts threads: nothing to add without a sanitizer (no leak checker).
seeds+=("$here/../tests/data/fuzz-regressions/$target")
existing=()
for s in "${seeds[@]}"; do [ -d "$s" ] && existing+=("$s"); done

start=$EPOCHSECONDS
(
  nice -n 19 "$bin" "${args[@]}" "$here/corpus/$target" "${existing[@]}" 2>&1 &
  echo $! >"$here/logs/$target.pid"
  wait
) | while IFS= read -r line; do printf '%s %s\n' "$((EPOCHSECONDS - start))" "$line"; done >>"$log" &
reader=$!
sleep 2
pid=$(cat "$here/logs/$target.pid")

# The fuzzer's processor time in seconds (user and system, from /proc).
ticks=$(getconf CLK_TCK)
cpu_of() { awk -v t="$ticks" '{ print int(($14 + $15) / t) }' "/proc/$1/stat" 2>/dev/null || echo 0; }

best=-1
grew=0
grew_cpu=0
cpu=0
while kill -0 "$pid" 2>/dev/null; do
  sleep 15
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  now=$((EPOCHSECONDS - start))
  # (Once the fuzzer has ended there is nothing to read: the last figure stays.)
  c=$(cpu_of "$pid")
  [ "$c" -gt 0 ] && cpu=$c
  if [ -n "$cov" ] && [ "$cov" -gt "$best" ]; then
    best=$cov
    grew=$now
    grew_cpu=$cpu
  fi
  if [ $((cpu - grew_cpu)) -ge "$stall" ]; then
    kill -INT "$pid" 2>/dev/null || true
    break
  fi
done
wait "$reader" || true
end=$((EPOCHSECONDS - start))
execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | cut -d' ' -f2 || true)
# The second the final coverage was first printed (the checks above look every 15 s).
grew=$(grep -m1 "cov: $best " "$log" | cut -d' ' -f1 || echo "$grew")
crash=$(grep -E 'Test unit written to|deadly signal|panicked' "$log" | head -3 || true)
echo "$target: ran ${end}s (${cpu}s of processor time), ${execs:-?} executions, final cov $best, last grew at ${grew}s (${grew_cpu}s of processor time)"
[ -z "$crash" ] || echo "$target: FOUND $crash"
