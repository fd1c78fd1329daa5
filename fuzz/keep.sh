#!/usr/bin/env bash
# Keeps a target's corpus in the repository, so that the next run, on any machine, starts where
# this one stopped instead of from the seeds: libFuzzer's merge keeps the smallest set of inputs
# of fuzz/corpus/TARGET with the same coverage, and it is packed into fuzz/kept/TARGET.tar.zst
# (which fuzz/saturate.sh unpacks into an empty corpus). Build the targets first, as for
# saturate.sh. Usage: fuzz/keep.sh TARGET
set -euo pipefail
target=${1:?usage: keep.sh TARGET}
here=$(cd "$(dirname "$0")" && pwd)
bin="$here/target/x86_64-unknown-linux-gnu/release/$target"
[ -x "$bin" ] || { echo "no $bin: build the targets first (see saturate.sh)" >&2; exit 2; }
[ -d "$here/corpus/$target" ] || { echo "no corpus in $here/corpus/$target" >&2; exit 2; }
min=$(mktemp -d)
trap 'rm -rf "$min"' EXIT
args=()
case $target in
  pgn_*|convert_*) args+=(-max_len=4096) ;;
  app_update) args+=(-max_len=512) ;;
esac
nice -n 19 "$bin" -merge=1 "${args[@]}" "$min" "$here/corpus/$target" 2>&1 | grep -E '^MERGE-OUTER: [0-9]+ new files' || true
mkdir -p "$here/kept"
# Sorted names and fixed owner and times: the same corpus packs to the same bytes.
(cd "$min" && ls | sort | tar --zstd --owner=0 --group=0 --mtime=@0 -cf "$here/kept/$target.tar.zst" -T -)
echo "$target: kept $(ls "$min" | wc -l) inputs in fuzz/kept/$target.tar.zst ($(du -h "$here/kept/$target.tar.zst" | cut -f1))"
