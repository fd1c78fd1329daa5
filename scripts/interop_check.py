#!/usr/bin/env python3
"""Interoperability check, the Python half of scripts/interop.sh.

Reads a PGN file written by `scoresheet convert` with python-chess, and the same
file as re-exported by pgn-extract in UCI notation (`pgn-extract -Wuci -C -N -V`),
and checks that both peers see the same games with identical main lines:

* python-chess reports no error for any game;
* pgn-extract's log (its diagnostics, written with -l) is empty;
* both see the same number of games;
* game by game, the same start position (FEN tag, if any) and the same main-line
  moves as UCI strings.

Games that `scoresheet convert` could not read at all are copied through as
written after a "% scoresheet: game N copied as written" escape line. They are
the input's bytes, not scoresheet's output, so they are taken out first (and
counted, with the reasons) by the `strip` step:

Usage: interop_check.py strip OURS.pgn CONVERTED_ONLY.pgn
       interop_check.py compare CONVERTED_ONLY.pgn PGN_EXTRACT_UCI.pgn PGN_EXTRACT_LOG

`compare` prints "interop: N games, identical moves in python-chess and
pgn-extract" and exits 0, or prints the first differing game and exits 1.
pgn-extract warnings that a Result disagrees with the game's end (mate or
stalemate) are about the games themselves, kept as written, and are only counted.
"""

import re
import sys

import chess
import chess.pgn

# A UCI move as pgn-extract writes it (promotion piece in lower case), or a null move.
UCI_MOVE = re.compile(r"^(?:[a-h][1-8][a-h][1-8][qrbnQRBN]?|0000|--)$")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
COPIED = re.compile(r"^% scoresheet: game \d+ copied as written, not converted: (?:line \d+ column \d+: )?(.*)$")
# pgn-extract's log: a "Warning: Result of ..." line, then the game's description
# and a "File ...: Line number: N" line.
RESULT_WARNING = re.compile(r"^Warning: Result of .* is inconsistent with ")
FILE_LINE = re.compile(r"^File .*: Line number: \d+$")


class MainLine(chess.pgn.BaseVisitor):
    """Collects the tags, the main-line moves (UCI) and the errors of one game.

    Cheaper than building a full chess.pgn.Game: variations are skipped, but every
    main-line move is still parsed and checked for legality by python-chess.
    """

    def begin_game(self):
        self.headers = {}
        self.moves = []
        self.errors = []

    def visit_header(self, tagname, tagvalue):
        self.headers[tagname] = tagvalue

    def begin_variation(self):
        return chess.pgn.SKIP

    def visit_move(self, board, move):
        self.moves.append(move.uci())

    def handle_error(self, error):
        self.errors.append(error)

    def result(self):
        return self


def read_python_chess(path):
    """Every game of `path` as read by python-chess: a list of dicts."""
    games = []
    with open(path, encoding="utf-8-sig") as f:
        while True:
            g = chess.pgn.read_game(f, Visitor=MainLine)
            if g is None:
                break
            games.append(
                {
                    "headers": g.headers,
                    "fen": g.headers.get("FEN"),
                    "moves": g.moves,
                    "errors": [str(e) for e in g.errors],
                }
            )
    return games


def read_pgn_extract(path):
    """Every game of pgn-extract's -Wuci output: a list of dicts.

    The output is PGN-shaped: a tag section, a blank line, then movetext made of
    UCI moves and a result (comments, NAGs and variations were dropped with
    -C -N -V). A tag line after movetext starts the next game.
    """
    games = []
    game = None
    in_moves = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.strip()
            if not line:
                continue
            tag = TAG.match(line)
            if tag and (game is None or in_moves):
                game = {"headers": {}, "moves": [], "junk": []}
                games.append(game)
                in_moves = False
            if tag and not in_moves:
                game["headers"][tag.group(1)] = tag.group(2)
                continue
            if game is None:  # movetext before any tag: pgn-extract always writes tags
                game = {"headers": {}, "moves": [], "junk": []}
                games.append(game)
            in_moves = True
            for token in line.split():
                if UCI_MOVE.match(token):
                    game["moves"].append("0000" if token == "--" else token.lower())
                elif token not in RESULTS:
                    game["junk"].append(token)
    for g in games:
        g["fen"] = g["headers"].get("FEN")
    return games


def describe(g):
    h = g["headers"]
    return "%s - %s (%s, %s)" % (
        h.get("White", "?"),
        h.get("Black", "?"),
        h.get("Site", "?"),
        h.get("Date", "?"),
    )


def first_difference(a, b):
    """Index of the first differing move of two move lists (or the shorter length)."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def strip(ours, out):
    """Writes `ours` without the games copied as written; reports how many and why."""
    reasons = {}
    skipping = False
    previous_blank = True
    kept = []
    with open(ours, encoding="utf-8", errors="surrogateescape", newline="") as f:
        for line in f:
            text = line.rstrip("\r\n")
            copied = COPIED.match(text)
            if copied:
                reason = copied.group(1)
                reasons[reason] = reasons.get(reason, 0) + 1
                skipping = True
            elif skipping and previous_blank and text.startswith("[Event "):
                # The next converted game (export format always starts with Event).
                skipping = False
            if not skipping:
                kept.append(line)
            previous_blank = text.strip() == ""
    with open(out, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
        f.writelines(kept)
    total = sum(reasons.values())
    print("interop: %d game(s) not converted by scoresheet (copied as written), left out" % total)
    for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print("    %5d  %s" % (n, reason))
    return 0


def read_log(path):
    """pgn-extract's diagnostics: (serious lines, number of result warnings)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    serious, warnings, i = [], 0, 0
    while i < len(lines):
        if RESULT_WARNING.match(lines[i]):
            warnings += 1
            i += 1
            # Skip the game description and the file/line reference.
            while i < len(lines) and not FILE_LINE.match(lines[i]):
                i += 1
            i += 1
            continue
        serious.append(lines[i])
        i += 1
    return serious, warnings


def compare(ours, extracted, log):
    failures = []

    py = read_python_chess(ours)
    pe = read_pgn_extract(extracted)
    serious, result_warnings = read_log(log)
    if result_warnings:
        print(
            "interop: pgn-extract warned %d time(s) that a game's Result tag disagrees "
            "with its final mate/stalemate (as in the input; not a reading problem)" % result_warnings
        )
    log_text = "\n".join(serious)

    bad_py = [(i, g) for i, g in enumerate(py, 1) if g["errors"]]
    if bad_py:
        i, g = bad_py[0]
        failures.append(
            "python-chess reports errors in %d game(s); first: game %d, %s: %s"
            % (len(bad_py), i, describe(g), "; ".join(g["errors"]))
        )
    if log_text:
        lines = log_text.splitlines()
        failures.append(
            "pgn-extract reported %d line(s) of diagnostics; first lines:\n    %s"
            % (len(lines), "\n    ".join(lines[:12]))
        )
    junk = [(i, g) for i, g in enumerate(pe, 1) if g["junk"]]
    if junk:
        i, g = junk[0]
        failures.append(
            "pgn-extract's UCI output has non-move tokens in %d game(s); first: game %d, %s: %s"
            % (len(junk), i, describe(g), " ".join(g["junk"][:10]))
        )
    if len(py) != len(pe):
        failures.append(
            "game count differs: python-chess reads %d games, pgn-extract %d" % (len(py), len(pe))
        )

    # Game-by-game comparison, stopping at the first difference: after a game is
    # lost by one peer every later pair would differ too.
    for i, (a, b) in enumerate(zip(py, pe), 1):
        if a["fen"] != b["fen"]:
            failures.append(
                "game %d, %s: start position differs\n    python-chess: FEN %r\n    pgn-extract:  FEN %r"
                % (i, describe(a), a["fen"], b["fen"])
            )
            break
        if a["moves"] != b["moves"]:
            k = first_difference(a["moves"], b["moves"])
            failures.append(
                "game %d, %s: main lines differ at ply %d (python-chess %d plies, pgn-extract %d)\n"
                "    python-chess: ... %s\n    pgn-extract:  ... %s"
                % (
                    i,
                    describe(a),
                    k + 1,
                    len(a["moves"]),
                    len(b["moves"]),
                    " ".join(a["moves"][max(0, k - 3) : k + 4]),
                    " ".join(b["moves"][max(0, k - 3) : k + 4]),
                )
            )
            break

    if failures:
        print("interop: MISMATCH between python-chess and pgn-extract reading %s" % ours)
        for f in failures:
            print("  - " + f)
        return 1
    plies = sum(len(g["moves"]) for g in py)
    print("interop: compared %d main-line plies" % plies)
    print("interop: %d games, identical moves in python-chess and pgn-extract" % len(py))
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "strip":
        return strip(argv[2], argv[3])
    if len(argv) == 5 and argv[1] == "compare":
        return compare(argv[2], argv[3], argv[4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
