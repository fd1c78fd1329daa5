#!/usr/bin/env python3
"""Position search and opening tree checked against python-chess.

    search_check.py SCORESHEET SAMPLE.pgn [TARGETS]

Reads SAMPLE.pgn with python-chess, follows every game's main line, and keys each
position by python-chess's transposition key (placement, side to move, castling rights,
en-passant square only when an en-passant capture is legal). Picks TARGETS positions
(default 40: positions at plies 0..40 of games spread over the file), then for each runs
`SCORESHEET search SAMPLE.pgn --fen FEN` and `SCORESHEET tree SAMPLE.pgn --fen FEN` and
compares: the games reaching it with the first ply each does, and per move played there
the games, White wins, draws, Black wins, average rating and last year.
Exits 1 at the first difference, printing it; prints one summary line otherwise.
"""
import subprocess
import sys

import chess
import chess.pgn


def key(board):
    return board._transposition_key()


def year_of(date):
    y = (date or "")[:4]
    return int(y) if len(y) == 4 and y.isdigit() else 0


def elo_of(value):
    try:
        v = int((value or "").strip())
        return v if 0 < v < 65536 else 0
    except ValueError:
        return 0


def read(path):
    games = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            board = g.board()
            seen = {}
            plies = []
            moves = list(g.mainline_moves())
            for ply, mv in enumerate(moves + [None]):
                k = key(board)
                if k not in seen:
                    seen[k] = ply
                plies.append(board.copy(stack=False))
                if mv is not None:
                    board.push(mv)
            h = g.headers
            games.append({
                "first": seen,
                "boards": plies,
                "moves": moves,
                "result": h.get("Result", "*"),
                "elos": [elo_of(h.get("WhiteElo")), elo_of(h.get("BlackElo"))],
                "year": year_of(h.get("Date")),
            })
    return games


def run(cmd, stdin=None):
    if stdin is None:
        p = subprocess.run(cmd, capture_output=True, text=True)
    else:
        with open(stdin, "rb") as f:
            p = subprocess.run(cmd, stdin=f, capture_output=True)
        p.stdout = p.stdout.decode("utf-8")
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr}")
    return p.stdout


def main():
    exe, sample = sys.argv[1], sys.argv[2]
    wanted = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    games = read(sample)
    if not games:
        sys.exit(f"{sample}: no games")
    targets = []
    step = max(1, len(games) // wanted)
    for i in range(0, len(games), step):
        boards = games[i]["boards"]
        ply = (i * 7) % 41
        if ply < len(boards):
            targets.append(boards[ply])
        if len(targets) >= wanted:
            break
    # And endgames: the last position of a few long games (a search then counts each
    # game's moves first, and leaves those with too few left to take the men it lacks).
    long_games = [g for g in games if len(g["boards"]) > 80]
    for g in long_games[:: max(1, len(long_games) // 5)][:5]:
        targets.append(g["boards"][-1])
    # Searches answer from the index (built now), and are compared with reading through.
    subprocess.run([exe, "index", sample], capture_output=True)
    checked = 0
    for board in targets:
        k = key(board)
        fen = board.fen()
        expect = {}
        branches = {}
        for n, g in enumerate(games, 1):
            ply = g["first"].get(k)
            if ply is None:
                continue
            expect[n] = ply
            if ply < len(g["moves"]):
                san = g["boards"][ply].san(g["moves"][ply])
                b = branches.setdefault(san, [0, 0, 0, 0, 0, 0, 0])
                b[0] += 1
                r = g["result"]
                b[1] += r == "1-0"
                b[2] += r == "1/2-1/2"
                b[3] += r == "0-1"
                for e in g["elos"]:
                    if e:
                        b[4] += e
                        b[5] += 1
                b[6] = max(b[6], g["year"])
        got = {}
        indexed = run([exe, "search", sample, "--fen", fen])
        through = run([exe, "search", "-", "--fen", fen], stdin=sample)
        if indexed != through:
            sys.exit(f"search {fen}: the index and reading through differ")
        for line in indexed.splitlines():
            cols = line.split("\t")
            got[int(cols[0])] = int(cols[-1])
        if got != expect:
            only_ours = sorted(set(got) - set(expect))[:5]
            only_theirs = sorted(set(expect) - set(got))[:5]
            plies = [(n, got[n], expect[n]) for n in got if n in expect and got[n] != expect[n]][:5]
            sys.exit(f"search {fen}: {len(got)} games here, {len(expect)} by python-chess; "
                     f"only here {only_ours}, only python-chess {only_theirs}, "
                     f"plies differ (game, ours, theirs) {plies}")
        rows = []
        for san, b in branches.items():
            elo = str((b[4] + b[5] // 2) // b[5]) if b[5] else "?"
            year = str(b[6]) if b[6] else "?"
            rows.append((san, b[0], b[1], b[2], b[3], elo, year))
        rows.sort(key=lambda r: (-r[1], r[0]))
        want = ["\t".join(str(c) for c in r) for r in rows]
        tree = run([exe, "tree", sample, "--fen", fen]).splitlines()
        if tree != want:
            sys.exit(f"tree {fen}:\n ours:\n  " + "\n  ".join(tree[:8]) +
                     "\n python-chess:\n  " + "\n  ".join(want[:8]))
        checked += 1
    print(f"search_check: {sample}: {len(games)} games, {checked} positions: "
          "same games, plies and tree as python-chess")


if __name__ == "__main__":
    main()
