#!/usr/bin/env python3
"""python-chess doing what `scoresheet check` does: read every game of the given
PGN files and every move, variations included (chess.pgn.read_game builds the
whole game tree and checks each move's legality), and report the games with
errors. Used by scripts/compare-peers.sh as a speed peer.

Usage: pychess_check.py FILE...
Prints "N games, M with errors"; exits 1 if any game had an error.
"""

import sys

import chess.pgn


def main(paths):
    games = bad = 0
    for path in paths:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                games += 1
                if game.errors:
                    bad += 1
                    print("%s: game %d: %s" % (path, games, game.errors[0]))
    print("%d games, %d with errors" % (games, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
