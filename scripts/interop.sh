#!/usr/bin/env bash
# Interoperability check: what `scoresheet convert` writes must be read the same
# way by two independent PGN readers, python-chess and pgn-extract.
#
#   scripts/interop.sh                      # builds target/release/scoresheet first
#   SCORESHEET=path/to/scoresheet scripts/interop.sh
#
# Steps:
#   1. install the peers if missing (pgn-extract from apt, python-chess from pip);
#      if that is impossible, print "INTEROP CHECK SKIPPED: <why>" and exit 0 (1 under CI);
#   2. take a sample of real games: the first $INTEROP_GAMES_PER_FILE games (default
#      2000) of every shared/data/games/*.pgn.xz, plus the standard-chess games of
#      shared/data/nasty (chess variants are left out: the peers read them differently
#      or not at all);
#   3. `scoresheet convert` the sample into one PGN file;
#   4. read that file with python-chess and with pgn-extract (-Wuci) and compare, in
#      scripts/interop_check.py: same number of games, same start positions, same
#      main-line moves as UCI, no error from python-chess, an empty pgn-extract log.
#
# Prints "interop: N games, identical moves in python-chess and pgn-extract" and
# exits 0, or shows the first differing game and exits 1 (INTEROP_KEEP=DIR keeps
# the files for a look). Then, when stockfish is installed, 20 games annotated by
# `scoresheet annotate` are read back: an [%eval] after every move in python-chess,
# no complaint from pgn-extract.
#
# Runtime on 2 cores: about 70 s (23,000 games) when the release build is up to
# date or only the crate changed; a cold release build adds about 4.5 minutes.
# INTEROP_GAMES_PER_FILE=1000 halves the checking part.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shared/ sits beside the repository checkout.
data=${SCORESHEET_DATA:-"$repo/../shared/data"}
per_file=${INTEROP_GAMES_PER_FILE:-2000}
# Debian installs pgn-extract in /usr/games, which is not always on PATH.
export PATH="$PATH:/usr/games"
started=$(date +%s)

skip() {
    echo "INTEROP CHECK SKIPPED: $*"
    # CI has the data and the peers: there a skip is a failure, not a pass.
    if [ -n "${CI:-}" ]; then
        exit 1
    fi
    exit 0
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/interop.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- 1. peers -----------------------------------------------------------------
if ! command -v pgn-extract >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || skip "pgn-extract is missing and there is no apt-get"
    [ "$(id -u)" = 0 ] || skip "pgn-extract is missing and installing it needs root"
    echo "== installing pgn-extract (apt)"
    if ! { apt-get update -qq && apt-get install -y -qq pgn-extract; } >"$tmp/apt.log" 2>&1; then
        tail -5 "$tmp/apt.log"
        skip "apt-get could not install pgn-extract"
    fi
    command -v pgn-extract >/dev/null 2>&1 || skip "pgn-extract installed but not found on PATH"
fi
command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
if ! python3 -c 'import chess.pgn' >/dev/null 2>&1; then
    echo "== installing python-chess (pip)"
    if ! python3 -m pip install -q chess >"$tmp/pip.log" 2>&1; then
        tail -5 "$tmp/pip.log"
        skip "pip could not install python-chess (package 'chess')"
    fi
    python3 -c 'import chess.pgn' >/dev/null 2>&1 || skip "python-chess installed but cannot be imported"
fi
[ -d "$data/games" ] || skip "no real games at $data/games (shared/ is expected beside the repo)"

# --- 2. scoresheet binary ---------------------------------------------------------
if [ -n "${SCORESHEET:-}" ]; then
    bin=$SCORESHEET
else
    echo "== cargo build --release"
    (cd "$repo" && cargo build --release --quiet)
    bin="${CARGO_TARGET_DIR:-$repo/target}/release/scoresheet"
fi
[ -x "$bin" ] || { echo "interop: no scoresheet binary at $bin" >&2; exit 1; }

# --- 3. the sample ----------------------------------------------------------------
# awk filter over one PGN stream: keeps the first $n games and drops games whose
# [Variant] tag names something other than standard chess. A game starts at a tag
# line that follows a non-tag, non-blank line (or the start of the stream), so
# files without blank lines between games are split correctly.
pick_games='
function flush() { if (!variant) printf "%s", buf; buf = "" }
{
    line = $0; sub(/\r$/, "", line)
    is_tag = (line ~ /^\[/)
    if (is_tag && !in_tags) {
        flush(); variant = 0; in_tags = 1
        if (++games > n) { done = 1 }
    } else if (!is_tag && line != "") {
        in_tags = 0
    }
    if (is_tag && line ~ /^\[Variant "/ && tolower(line) !~ /^\[variant "(standard|chess)?"\]/)
        variant = 1
    if (!done) buf = buf $0 "\n"
}
END { flush() }'

mkdir "$tmp/in"
for f in "$data"/games/*.pgn.xz; do
    name=$(basename "$f" .xz)
    xz -dc "$f" | awk -v n="$per_file" "$pick_games" >"$tmp/in/1-$name"
done
if [ -d "$data/nasty" ]; then
    for f in "$data"/nasty/*.pgn; do
        name=$(basename "$f")
        if grep -qi '^\[Variant "' "$f"; then
            # Drop the chess-variant games, keep the standard ones.
            awk -v n=1000000000 "$pick_games" "$f" >"$tmp/in/2-$name"
        else
            # Copied byte for byte (keeps a byte-order mark, CRLF, odd layouts).
            cp "$f" "$tmp/in/2-$name"
        fi
        [ -s "$tmp/in/2-$name" ] || rm "$tmp/in/2-$name"
    done
fi
echo "== sample: $(ls "$tmp/in" | wc -l) files, $(du -sh "$tmp/in" | cut -f1)," \
    "first $per_file games of each real-games file plus standard nasty files"

# --- 4. convert -------------------------------------------------------------------
# Exit code 1 means some input games had problems (an illegal move, a truncated
# last game): convert still writes them, which is what we want to check. 2 is fatal.
rc=0
# --fix-results: by default convert keeps a Result tag and a movetext result that disagree
# both visible, as read (the sample has such games on purpose); export format wants one, and
# the peers are asked to read export format.
"$bin" convert --fix-results "$tmp"/in/*.pgn -o "$tmp/ours.pgn" 2>"$tmp/convert.err" || rc=$?
if [ "$rc" -gt 1 ]; then
    echo "interop: scoresheet convert failed (exit $rc):" >&2
    head -20 "$tmp/convert.err" >&2
    exit 1
fi
echo "== scoresheet convert: exit $rc, $(wc -l <"$tmp/convert.err") input problem line(s) reported"

# --- 5. read it back with both peers ------------------------------------------------
# Games convert could not read at all are copied through as written (after a
# "%" escape line): they are the input's bytes, not our output, so they are taken
# out here, with a count of them and their reasons.
python3 "$repo/scripts/interop_check.py" strip "$tmp/ours.pgn" "$tmp/converted.pgn"

# pgn-extract: -Wuci writes moves as UCI; -C -N -V drop comments, NAGs and
# variations so only the main line is left; -w keeps each game's moves on one
# line; --allownullmoves accepts the null moves ("--") some inputs have in their
# main line (pgn-extract's own extension); -s: no per-game chatter. Its
# diagnostics go to the -l log; standard error carries a "Games: N" progress
# count (even with --quiet), and anything else there is added to the log.
pe_rc=0
pgn-extract --quiet -s -Wuci -C -N -V -w 100000 --allownullmoves \
    -l "$tmp/pgn-extract.log" -o "$tmp/pgn-extract.uci" "$tmp/converted.pgn" \
    2>"$tmp/pgn-extract.err" || pe_rc=$?
tr '\r' '\n' <"$tmp/pgn-extract.err" | grep -Ev '^(Games: [0-9]+)?$' >>"$tmp/pgn-extract.log" || true
if [ "$pe_rc" -ne 0 ]; then
    echo "pgn-extract exited $pe_rc" >>"$tmp/pgn-extract.log"
fi

check_rc=0
python3 "$repo/scripts/interop_check.py" compare \
    "$tmp/converted.pgn" "$tmp/pgn-extract.uci" "$tmp/pgn-extract.log" || check_rc=$?
if [ "$check_rc" -ne 0 ] && [ -n "${INTEROP_KEEP:-}" ]; then
    # Keep the files for a closer look.
    cp -r "$tmp" "$INTEROP_KEEP"
    echo "interop: files kept in $INTEROP_KEEP"
fi
# --- 6. annotate: the evals it writes, read by python-chess --------------------------
# A few games annotated by the real engine (cheap searches): python-chess must read an
# [%eval] after every main-line move and no error; pgn-extract must read the games.
if [ "$check_rc" -eq 0 ] && { command -v stockfish >/dev/null 2>&1; }; then
    # The first games of what convert wrote: all read cleanly.
    awk -v n=20 "$pick_games" "$tmp/converted.pgn" >"$tmp/annotate-in.pgn"
    annotate_rc=0
    "$bin" annotate "$tmp/annotate-in.pgn" --nodes 2000 --jobs 2 -o "$tmp/annotated.pgn" \
        2>"$tmp/annotate.err" || annotate_rc=$?
    if [ "$annotate_rc" -eq 0 ]; then
        python3 - "$tmp/annotated.pgn" <<'PY' || check_rc=$?
import sys, chess.pgn
games = missing = 0
with open(sys.argv[1], encoding="utf-8") as f:
    while (game := chess.pgn.read_game(f)) is not None:
        games += 1
        if game.errors:
            sys.exit(f"annotate: python-chess: game {games}: {game.errors[0]}")
        missing += sum(node.eval() is None for node in game.mainline())
if games == 0 or missing:
    sys.exit(f"annotate: {games} games, {missing} moves without an eval")
print(f"interop: annotate: {games} games, an eval after every move in python-chess")
PY
        pgn-extract --quiet -s -l "$tmp/annotate-pe.log" -o /dev/null "$tmp/annotated.pgn" \
            2>/dev/null || check_rc=$?
        if [ -s "$tmp/annotate-pe.log" ]; then
            head -5 "$tmp/annotate-pe.log" >&2
            check_rc=1
        fi
    else
        echo "interop: scoresheet annotate failed (exit $annotate_rc):" >&2
        head -5 "$tmp/annotate.err" >&2
        check_rc=1
    fi
else
    echo "interop: annotate check SKIPPED (stockfish missing, or the convert check failed)"
fi
echo "interop: took $(($(date +%s) - started)) s"
exit "$check_rc"
