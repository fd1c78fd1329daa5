#!/usr/bin/env bash
# `scoresheet search` and `scoresheet tree` checked against python-chess on the real games
# of ../shared/data/games (see scripts/search_check.py for what is compared).
#
#   scripts/search_check.sh                 # builds target/release/scoresheet first
#   SCORESHEET=path/to/scoresheet scripts/search_check.sh
#
# Takes the first $SEARCH_GAMES_PER_FILE games (default 1500) of every
# shared/data/games/*.pgn.xz, cut at game boundaries, and checks $SEARCH_TARGETS (default
# 30) positions in each: searches answered from the file's index (built first with
# `scoresheet index`) and by reading the file through, which must agree. Prints
# "SEARCH CHECK SKIPPED: <why>" and exits 0 when the data or
# python-chess is missing (1 under CI, which has both); exits 1 at the first difference.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
data=${SCORESHEET_DATA:-"$repo/../shared/data"}
per_file=${SEARCH_GAMES_PER_FILE:-1500}
targets=${SEARCH_TARGETS:-30}

skip() {
    echo "SEARCH CHECK SKIPPED: $*"
    # CI has the data and the peers: there a skip is a failure, not a pass.
    if [ -n "${CI:-}" ]; then
        exit 1
    fi
    exit 0
}
[ -d "$data/games" ] || skip "no $data/games (the real games are not beside this checkout)"
python3 -c 'import chess.pgn' 2>/dev/null || pip install --quiet chess 2>/dev/null ||
    skip "python-chess is not installed and cannot be"
python3 -c 'import chess.pgn' 2>/dev/null || skip "python-chess cannot be imported"

if [ -z "${SCORESHEET:-}" ]; then
    (cd "$repo" && cargo build --release --quiet)
    SCORESHEET="$repo/target/release/scoresheet"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The index goes to a cache of this run's own.
export SCORESHEET_CACHE_DIR="$work/cache"

for xz in "$data"/games/*.pgn.xz; do
    sample="$work/$(basename "$xz" .xz)"
    # Cut after the first $per_file games: a game starts with a tag line after a blank line.
    # (xz is cut short by awk's exit: its broken pipe is no failure.)
    # Runs of blank lines become one: python-chess ends a game's movetext at a second
    # blank line after its tags, where scoresheet (and the PGN standard) reads on.
    { xz -dc "$xz" || true; } | awk -v max="$per_file" '
        /^\[/ && blank { games++; if (games > max) exit }
        { was = blank; blank = ($0 ~ /^[ \t\r]*$/); if (!(blank && was)) print }
        NR == 1 && /^\[/ { games = 1 }' > "$sample"
    python3 "$repo/scripts/search_check.py" "$SCORESHEET" "$sample" "$targets"
done
echo "search_check: every file agrees with python-chess"
