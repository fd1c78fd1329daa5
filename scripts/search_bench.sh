#!/usr/bin/env bash
# Position search and the opening tree, timed against `check` on the same file.
#
#   scripts/search_bench.sh FILE.pgn        # builds target/release/scoresheet first
#   SCORESHEET=path/to/scoresheet RUNS=5 scripts/search_bench.sh FILE.pgn
#
# Prints, with a fresh index cache of its own:
#   - `check FILE` (all cores) against the first `search` (which reads the file through on
#     all cores): wall times and their ratio; then how long the index took to be built in
#     the background after it;
#   - later searches and trees answered from the index, for positions from the start to the
#     middlegame: the median of RUNS runs each (the whole process: start, checking the
#     index, answering, printing);
#   - the index's size against the PGN's.
# A benchmark, not a test: figures vary with the machine and its load.
set -euo pipefail

file=${1:?usage: search_bench.sh FILE.pgn}
runs=${RUNS:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${SCORESHEET:-}" ]; then
    (cd "$repo" && cargo build --release --quiet)
    SCORESHEET="$repo/target/release/scoresheet"
fi
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export SCORESHEET_CACHE_DIR="$cache"

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }
# Median wall time of RUNS runs of a command (output discarded).
median() {
    local times=()
    for _ in $(seq "$runs"); do
        local t0 t1
        t0=$(now)
        "$@" > /dev/null 2>&1 || true
        t1=$(now)
        times+=("$(secs "$t0" "$t1")")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}

t0=$(now); "$SCORESHEET" check "$file" > /dev/null || true; t1=$(now)
check=$(secs "$t0" "$t1")
t0=$(now); "$SCORESHEET" search "$file" --moves "1. e4" > /dev/null 2>&1 || true; t1=$(now)
first=$(secs "$t0" "$t1")
printf 'check (all cores):            %6.2f s\n' "$check"
printf 'first search (reads through): %6.2f s  = %.2f x check\n' "$first" "$(echo "$first / $check" | bc -l)"
# The first search started the index's build in the background (lowest priority): wait
# for it, without searching meanwhile (a search would read the file through again).
# The builder holds a lock (flock) on its `.building` file while it works.
until ls "$cache"/index/*.idx > /dev/null 2>&1 &&
    flock --nonblock "$(ls "$cache"/index/*.building)" true; do
    sleep 0.1
done
t2=$(now)
printf 'index ready (background):     %6.2f s after the first search ended\n' "$(secs "$t1" "$t2")"

for moves in "" "1. e4 c5" "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4" \
    "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6" \
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7"; do
    found=$("$SCORESHEET" search "$file" --moves "$moves" 2>/dev/null | wc -l)
    s=$(median "$SCORESHEET" search "$file" --moves "$moves")
    t=$(median "$SCORESHEET" tree "$file" --moves "$moves")
    printf 'tree %6.3f s, search %6.3f s (%6d games): %s\n' "$t" "$s" "$found" "${moves:-start}"
done
index=$(du -b "$cache"/index/*.idx | cut -f1)
pgn=$(stat -c %s "$file")
printf 'index %d bytes, PGN %d bytes: %.3f of the PGN\n' "$index" "$pgn" "$(echo "$index / $pgn" | bc -l)"
