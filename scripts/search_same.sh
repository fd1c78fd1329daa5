#!/usr/bin/env bash
# Whether two builds of scoresheet answer `search` and `tree` alike, byte for byte: standard
# output, standard error and exit code, for several positions (found by many games, by one,
# by none), `--variations`, standard input, two files at once and the tree at three depths,
# read through (no index); and whether the index they build is the same file.
#
#   scripts/search_same.sh OLD_BINARY NEW_BINARY [FILE.pgn]
#
# Runs every case on FILE (default /tmp/all.pgn when it exists) and on one file made of
# every PGN fixture in tests/data (quirks and damaged games included). Prints each case
# that differs and exits 1 if any does. A check for the one making a change that must not
# change what is printed, not a test: it takes a minute on a 25 MB file.
set -uo pipefail

old=${1:?usage: search_same.sh OLD_BINARY NEW_BINARY [FILE.pgn]}
new=${2:?usage: search_same.sh OLD_BINARY NEW_BINARY [FILE.pgn]}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files=()
if [ -n "${3:-}" ]; then
    files+=("$3")
elif [ -f /tmp/all.pgn ]; then
    files+=(/tmp/all.pgn)
fi
find "$repo/tests/data" -name '*.pgn' | sort | while read -r f; do
    cat "$f"
    printf '\n\n'
done > "$work/fixtures.pgn"
files+=("$work/fixtures.pgn")

# A cache "directory" that is a file: no index is found or kept, so every run reads its
# files through and none starts a build in the background.
: > "$work/no-cache"
export SCORESHEET_CACHE_DIR="$work/no-cache"

positions=(
    "--moves="
    "--moves=1. e4"
    "--moves=1. d4"
    "--moves=1. e4 c5"
    "--moves=1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"
    "--fen=rnbqkb1r/pppppppp/7n/8/8/7N/PPPPPPPP/RNBQKBR1 b Qkq - 0 1"
    "--fen=r1b3k1/ppb1n2p/2n1pp1q/3p4/3P4/3Q1N2/PPBN1PPP/R4RK1 w - - 7 16"
    "--fen=8/8/8/4k3/8/8/4K3/8 w - - 0 1"
    "--fen=4r2k/4R3/5P1p/p3b1p1/1pB3P1/1P3K2/P7/8 b - - 1 52"
    "--fen=4q1k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 25"
)

differ=0
n=0
# Runs one case with both builds (the rest of the arguments) and compares.
same() {
    local input=$1
    shift
    n=$((n + 1))
    local b
    for b in old new; do
        local bin=$old
        [ "$b" = new ] && bin=$new
        if [ "$input" = - ]; then
            "$bin" "$@" > "$work/$b.out" 2> "$work/$b.err" < /dev/null
        else
            "$bin" "$@" > "$work/$b.out" 2> "$work/$b.err" < "$input"
        fi
        echo $? > "$work/$b.code"
        # The binary's own name appears in some messages.
        sed -i "s#$bin#scoresheet#g" "$work/$b.err"
    done
    local what
    for what in out err code; do
        if ! cmp -s "$work/old.$what" "$work/new.$what"; then
            echo "DIFFERS ($what): $*"
            diff "$work/old.$what" "$work/new.$what" | head -5
            differ=1
        fi
    done
}

for file in "${files[@]}"; do
    for p in "${positions[@]}"; do
        same - search "$file" "$p"
        same - search "$file" "$p" --variations
    done
    same "$file" search - "--moves=1. e4 c5"
    same "$file" search - "--moves=1. d4" --variations
    same - search "$file" "${files[-1]}" "--moves=1. e4"
    for p in "--moves=" "--moves=1. e4" "--moves=1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6"; do
        same - tree "$file" "$p"
    done
    same "$file" tree - "--moves=1. d4"
done

# The index each builds (into caches of their own), byte for byte.
for file in "${files[@]}"; do
    for b in old new; do
        bin=$old
        [ "$b" = new ] && bin=$new
        mkdir -p "$work/cache-$b"
        SCORESHEET_CACHE_DIR="$work/cache-$b" "$bin" index "$file" > /dev/null 2>&1
    done
    n=$((n + 1))
    if ! diff -r -q "$work/cache-old" "$work/cache-new" > /dev/null; then
        echo "DIFFERS (index): $file"
        diff -r -q "$work/cache-old" "$work/cache-new" | head -5
        differ=1
    fi
    rm -rf "$work/cache-old" "$work/cache-new"
done

if [ "$differ" = 0 ]; then
    echo "same: $n cases on ${files[*]}"
fi
exit "$differ"
