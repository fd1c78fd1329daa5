#!/usr/bin/env bash
# Speed comparison with peer PGN readers on the real games (shared/data/games):
#
#   1. single core, validating every move of every game:
#        scoresheet check --jobs 1   vs   pgn-extract -r -s   vs   python-chess
#      (pgn-extract -r reports errors without extracting, -s silences the per-game
#      chatter: it parses and plays every move and writes nothing; python-chess
#      reads every game and every move with scripts/pychess_check.py);
#   2. scoresheet check --jobs 2 vs --jobs 1;
#   3. scoresheet list vs grep -c '^\[Event ' on a ~500 MB file (20 copies of the
#      games; grep only counts the Event tags, which the lichess games lack), with all
#      cores and with one job, both pinned to one CPU;
#   4. peak memory (maximum resident set size) of check on the ~500 MB file.
#
# The Rust peer pgn-reader + shakmaty is run only when PEER_RUST=1: it is then
# fetched from crates.io and built (cargo build --release, under a minute) as a
# small program that plays every move of the main line and of the variations,
# and is timed right after scoresheet check --jobs 1. Without it the report
# quotes the issue's ~106 MB/s.
#
#   scripts/compare-peers.sh                   # builds target/release/scoresheet
#   SCORESHEET=path/to/scoresheet scripts/compare-peers.sh
#   PEER_RUST=1 scripts/compare-peers.sh       # also pgn-reader + shakmaty
#
# Uses hyperfine when installed (apt package hyperfine; installed if possible),
# else a loop timed with /usr/bin/time. Timings are means over RUNS runs after a
# warm-up run (python-chess: one run, it takes minutes).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
data=${SCORESHEET_DATA:-"$repo/../shared/data"}
runs=${RUNS:-5}
export PATH="$PATH:/usr/games"   # Debian's pgn-extract lives here

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-peers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

note() { echo "== $*" >&2; }

# --- tools ------------------------------------------------------------------------
apt_install() {  # apt_install PACKAGE: true if it is (now) installed
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
    { apt-get update -qq && apt-get install -y -qq "$1"; } >"$tmp/apt-$1.log" 2>&1
}
command -v hyperfine >/dev/null 2>&1 || apt_install hyperfine || true
command -v pgn-extract >/dev/null 2>&1 || apt_install pgn-extract ||
    note "pgn-extract UNAVAILABLE: it is left out"
have_pychess=1
python3 -c 'import chess.pgn' >/dev/null 2>&1 ||
    python3 -m pip install -q chess >"$tmp/pip.log" 2>&1 || {
    note "python-chess UNAVAILABLE: it is left out"
    have_pychess=0
}
[ -x /usr/bin/time ] || apt_install time || { echo "compare-peers: /usr/bin/time is needed" >&2; exit 1; }

if [ -n "${SCORESHEET:-}" ]; then
    bin=$SCORESHEET
else
    note "cargo build --release"
    (cd "$repo" && cargo build --release --quiet)
    bin="${CARGO_TARGET_DIR:-$repo/target}/release/scoresheet"
fi

# The Rust peer: pgn-reader + shakmaty, pinned to the versions that build with
# Rust 1.95 (pgn-reader 0.29.1 and shakmaty 0.30.2 need 1.97). Its visitor
# starts from the FEN tag when there is one, keeps a stack of positions for the
# variations, and plays every SAN with san.to_move(&pos).
peer_rust=""
if [ "${PEER_RUST:-0}" = 1 ]; then
    if ! command -v cargo >/dev/null 2>&1; then
        note "PEER_RUST=1 but cargo is missing: pgn-reader + shakmaty is left out"
    else
        mkdir -p "$tmp/peer-rust/src"
        cat >"$tmp/peer-rust/Cargo.toml" <<'EOF'
[package]
name = "peer-rust"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
pgn-reader = "=0.29.0"
shakmaty = "=0.30.1"
EOF
        cat >"$tmp/peer-rust/src/main.rs" <<'EOF'
// Validates every move (main line and variations) of every game of a PGN file
// with pgn-reader + shakmaty, and prints "N games, M with errors".
use std::{env, fs::File, io, ops::ControlFlow, process};

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

/// One line of play being followed: the current position and the one before
/// the last move (where a variation that starts here branches off).
struct Line {
    pos: Chess,
    before_last: Option<Chess>,
}

struct Game {
    lines: Vec<Line>, // [0] is the main line, then one per open variation
}

#[derive(Default)]
struct Checker {
    games: u64,
    bad: u64,
}

impl Visitor for Checker {
    type Tags = Option<Chess>; // the position of the FEN tag, if any
    type Movetext = Game;
    type Output = bool; // the game was clean

    fn begin_tags(&mut self) -> ControlFlow<bool, Option<Chess>> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, start: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<bool> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|fen| fen.into_position::<Chess>(CastlingMode::Standard).ok());
            match pos {
                Some(pos) => *start = Some(pos),
                None => return ControlFlow::Break(false),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, start: Option<Chess>) -> ControlFlow<bool, Game> {
        let pos = start.unwrap_or_default();
        ControlFlow::Continue(Game { lines: vec![Line { pos, before_last: None }] })
    }

    fn san(&mut self, game: &mut Game, san_plus: SanPlus) -> ControlFlow<bool> {
        let line = game.lines.last_mut().expect("the main line is never popped");
        match san_plus.san.to_move(&line.pos) {
            Ok(m) => {
                // to_move only gives legal moves: no second check is needed.
                line.before_last = Some(line.pos.clone());
                line.pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(false), // illegal or ambiguous
        }
    }

    fn begin_variation(&mut self, game: &mut Game) -> ControlFlow<bool, Skip> {
        let parent = game.lines.last().expect("the main line is never popped");
        match &parent.before_last {
            Some(pos) => {
                let pos = pos.clone();
                game.lines.push(Line { pos, before_last: None });
                ControlFlow::Continue(Skip(false))
            }
            None => ControlFlow::Break(false), // a variation before any move
        }
    }

    fn end_variation(&mut self, game: &mut Game) -> ControlFlow<bool> {
        if game.lines.len() > 1 {
            game.lines.pop();
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(false) // unmatched ')'
        }
    }

    fn end_game(&mut self, _game: Game) -> bool {
        true
    }
}

fn main() -> io::Result<()> {
    let Some(path) = env::args_os().nth(1) else {
        eprintln!("usage: peer-rust FILE.pgn");
        process::exit(2);
    };
    let mut reader = Reader::new(File::open(path)?);
    let mut checker = Checker::default();
    while let Some(clean) = reader.read_game(&mut checker)? {
        if !clean {
            checker.bad += 1;
        }
    }
    println!("{} games, {} with errors", checker.games, checker.bad);
    Ok(())
}
EOF
        note "cargo build --release of pgn-reader + shakmaty (from crates.io)"
        # Its own target directory, whatever CARGO_TARGET_DIR says.
        if (cd "$tmp/peer-rust" && CARGO_TARGET_DIR="$tmp/peer-rust/target" \\
                cargo build --release --quiet) >"$tmp/peer-rust.log" 2>&1; then
            peer_rust="$tmp/peer-rust/target/release/peer-rust"
        else
            note "pgn-reader + shakmaty did not build: it is left out ($(tail -3 "$tmp/peer-rust.log"))"
        fi
    fi
fi

# --- inputs -----------------------------------------------------------------------
note "decompressing the real games"
xz -dc "$data"/games/*.pgn.xz >"$tmp/all.pgn"
for _ in $(seq 20); do cat "$tmp/all.pgn"; done >"$tmp/all20.pgn"
size=$(stat -c %s "$tmp/all.pgn")
size20=$(stat -c %s "$tmp/all20.pgn")
echo "inputs: all.pgn $((size / 1000000)) MB ($(grep -c '^\[White ' "$tmp/all.pgn") games)," \
    "all20.pgn $((size20 / 1000000)) MB; $(nproc) cores; $(uname -m)"

# --- timing -----------------------------------------------------------------------
# bench NAME RUNS COMMAND: mean wall-clock seconds of COMMAND (a shell string,
# output discarded), printed on stdout; details go to standard error.
bench() {
    local name=$1 n=$2 cmd=$3
    if command -v hyperfine >/dev/null 2>&1; then
        local warmup=1
        [ "$n" -gt 1 ] || warmup=0
        # -i: a tool that finds problems in the input exits non-zero; still time it.
        hyperfine -i --style basic --warmup "$warmup" --runs "$n" \
            --command-name "$name" --export-json "$tmp/h.json" "$cmd" >&2
        python3 -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["mean"])' "$tmp/h.json"
    else
        [ "$n" -gt 1 ] && bash -c "$cmd" >/dev/null 2>&1 || true   # warm-up
        local total=0 t
        for _ in $(seq "$n"); do
            /usr/bin/time -f %e -o "$tmp/t" bash -c "$cmd" >/dev/null 2>&1 || true
            t=$(tail -1 "$tmp/t")
            total=$(python3 -c "print($total + $t)")
        done
        python3 -c "print('%.4f' % ($total / $n))"
        echo "$name: mean over $n runs: $(python3 -c "print('%.3f' % ($total / $n))") s" >&2
    fi
}
mbs() { python3 -c "v = $1 / 1e6 / $2; print('%.1f' % v if v >= 10 else '%.2f' % v)"; }  # mbs BYTES SECONDS
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }            # ratio A B

# 1. single core, every move validated.
note "1. check, one core: scoresheet vs pgn-extract vs python-chess"
t_ours=$(bench "scoresheet check --jobs 1" "$runs" "'$bin' check --jobs 1 '$tmp/all.pgn'")
t_rs=""
if [ -n "$peer_rust" ]; then
    # Both must read the same games: compare the counts before timing.
    n_ours=$("$bin" check --jobs 1 "$tmp/all.pgn" 2>/dev/null | grep -o '^[0-9]* games' || true)
    n_rs=$("$peer_rust" "$tmp/all.pgn" | grep -o '^[0-9]* games' || true)
    if [ -n "$n_rs" ] && [ "$n_rs" = "$n_ours" ]; then
        t_rs=$(bench "pgn-reader + shakmaty" "$runs" "'$peer_rust' '$tmp/all.pgn'")
    else
        note "pgn-reader + shakmaty read '${n_rs:-nothing}', scoresheet '${n_ours:-nothing}': it is left out"
    fi
fi
t_pe=""
if command -v pgn-extract >/dev/null 2>&1; then
    t_pe=$(bench "pgn-extract -r -s" "$((runs > 3 ? 3 : runs))" \
        "pgn-extract -r -s -l '$tmp/pe.log' '$tmp/all.pgn'")
    # The log must stay empty: pgn-extract found every game readable.
    if [ -s "$tmp/pe.log" ]; then
        note "pgn-extract reported problems: $(head -3 "$tmp/pe.log")"
    fi
fi
t_py=""
if [ "$have_pychess" = 1 ]; then
    # Exits 1 on this input: python-chess splits the concatenated files a little
    # differently (37,093 games, one of them flagged), which does not change its speed.
    t_py=$(bench "python-chess" 1 "python3 '$repo/scripts/pychess_check.py' '$tmp/all.pgn'")
fi

# 2. threads.
note "2. scoresheet check --jobs 2 vs --jobs 1"
t_j2=$(bench "scoresheet check --jobs 2" "$runs" "'$bin' check --jobs 2 '$tmp/all.pgn'")

# 3. listing a big file vs counting its Event tags.
note "3. scoresheet list vs grep -c on the 500 MB file"
r3=$((runs > 3 ? 3 : runs))
t_list=$(bench "scoresheet list" "$r3" "'$bin' list '$tmp/all20.pgn'")
# Into a file, not /dev/null: GNU grep stops at the first match when its output
# is /dev/null (where hyperfine sends it), which would time nothing.
t_grep=$(bench "grep -c '^\[Event '" "$r3" "grep -c '^\\[Event ' '$tmp/all20.pgn' >'$tmp/grep.out'")
# The issue measures on one core: both pinned to one CPU (when taskset is there), list
# with one job.
pin=""
if command -v taskset >/dev/null; then pin="taskset -c 0 "; fi
t_list1=$(bench "${pin}scoresheet list --jobs 1" "$r3" "$pin'$bin' list --jobs 1 '$tmp/all20.pgn'")
t_grep1=$(bench "${pin}grep -c '^\[Event '" "$r3" \
    "${pin}grep -c '^\\[Event ' '$tmp/all20.pgn' >'$tmp/grep.out'")

# 4. peak memory of check on the 500 MB file.
note "4. peak memory of check on the 500 MB file"
rss() {  # rss ARGS...: "SECONDS KB" of one scoresheet run
    /usr/bin/time -v -o "$tmp/v" "$bin" "$@" >/dev/null 2>&1 || true
    awk -F': ' '/Elapsed/ { wall = $2 } /Maximum resident set size/ { kb = $2 }
        END { n = split(wall, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]
              print s, kb }' "$tmp/v"
}
read -r w1 kb1 < <(rss check --jobs 1 "$tmp/all20.pgn")
read -r w2 kb2 < <(rss check "$tmp/all20.pgn")

# --- report -----------------------------------------------------------------------
echo
echo "results ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '  %-34s %8s s  %7s MB/s\n' "scoresheet check --jobs 1" "$t_ours" "$(mbs "$size" "$t_ours")"
if [ -n "$t_pe" ]; then
    printf '  %-34s %8s s  %7s MB/s  (scoresheet is %sx faster)\n' "pgn-extract -r -s" "$t_pe" \
        "$(mbs "$size" "$t_pe")" "$(ratio "$t_pe" "$t_ours")"
fi
if [ -n "$t_py" ]; then
    printf '  %-34s %8s s  %7s MB/s  (scoresheet is %sx faster)\n' "python-chess (read_game)" "$t_py" \
        "$(mbs "$size" "$t_py")" "$(ratio "$t_py" "$t_ours")"
fi
if [ -n "$t_rs" ]; then
    printf '  %-34s %8s s  %7s MB/s  (scoresheet takes %sx its time)\n' "pgn-reader + shakmaty (Rust)" \
        "$t_rs" "$(mbs "$size" "$t_rs")" "$(ratio "$t_ours" "$t_rs")"
else
    printf '  %-34s %8s    %7s MB/s  (quoted from the issue, not measured here: PEER_RUST=1)\n' \
        "pgn-reader + shakmaty (Rust)" "-" "~106"
fi
printf '  %-34s %8s s  %7s MB/s  (speed-up over --jobs 1: %sx)\n' "scoresheet check --jobs 2" "$t_j2" \
    "$(mbs "$size" "$t_j2")" "$(ratio "$t_ours" "$t_j2")"
printf '  %-34s %8s s  %7s MB/s  (%sx the time of grep)\n' "scoresheet list (500 MB)" "$t_list" \
    "$(mbs "$size20" "$t_list")" "$(ratio "$t_list" "$t_grep")"
printf '  %-34s %8s s  %7s MB/s\n' "grep -c '^\[Event ' (500 MB)" "$t_grep" "$(mbs "$size20" "$t_grep")"
printf '  %-34s %8s s  %7s MB/s  (%sx the time of grep, both %s)\n' \
    "scoresheet list --jobs 1 (500 MB)" "$t_list1" "$(mbs "$size20" "$t_list1")" \
    "$(ratio "$t_list1" "$t_grep1")" "${pin:+pinned to one CPU}"
printf '  %-34s %8s s  %7s MB/s\n' "grep -c, same conditions" "$t_grep1" "$(mbs "$size20" "$t_grep1")"
printf '  %-34s %8s s  %7s MB/s  peak RSS %s MB\n' "check --jobs 1 (500 MB, one run)" "$w1" \
    "$(mbs "$size20" "$w1")" "$((kb1 / 1024))"
printf '  %-34s %8s s  %7s MB/s  peak RSS %s MB  (speed-up over --jobs 1: %sx)\n' \
    "check, all $(nproc) cores (500 MB, one run)" "$w2" "$(mbs "$size20" "$w2")" "$((kb2 / 1024))" \
    "$(ratio "$w1" "$w2")"
