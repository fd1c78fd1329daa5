//! The index's answers against reading the games through, with and without hot
//! positions, and its checksums.

use chess::{ChessMove, MoveGen};

use super::build::{Builder, Compact};
use super::open::{follower, Reading};
use super::{Bytes, Damage, Index};
use crate::notation::Lang;
use crate::pgn::SliceReader;
use crate::position::{Move, Position};
use crate::study::follow::{Follow, Walked};
use crate::study::key::key;
use crate::study::tree::{Next, Tree};

/// A game's line: the key of each position and what was played from it.
type Line = Vec<(u64, Next)>;

/// A small deterministic generator (a linear congruential one).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// `games` games of random legal moves whose openings repeat (few choices in the first
/// plies, so many games share them), with results, ratings and years; a few return to
/// an opening position late (knights out and back), one starts from a FEN, one holds a
/// null move. Also every position the games reach, and each game's line: the key of each
/// position and what was played from it.
pub(super) fn games(games: usize) -> (String, Vec<Position>, Vec<Line>) {
    let mut rng = Lcg(7);
    let mut pgn = String::new();
    let mut seen = Vec::new();
    let mut lines = Vec::new();
    for g in 0..games {
        let fen = (g == 5).then_some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let mut pos = fen.map_or(Position::start(), |f| Position::from_fen(f).expect("FEN"));
        let result = ["1-0", "0-1", "1/2-1/2", "*"][rng.next(4)];
        pgn.push_str(&format!(
            "[Event \"g{g}\"]\n[White \"w{g}\"]\n[Black \"b{g}\"]\n[Result \"{result}\"]\n\
             [Date \"{}.01.01\"]\n[WhiteElo \"{}\"]\n",
            1990 + rng.next(30),
            1500 + rng.next(800)
        ));
        if let Some(fen) = fen {
            pgn.push_str(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n"));
        }
        pgn.push('\n');
        let mut script: Vec<&str> = Vec::new();
        if g % 17 == 3 {
            // Knights out and back: the start, then 1. e4 e5 reached at ply 18.
            for _ in 0..4 {
                script.extend(["Nf3", "Nf6", "Ng1", "Ng8"]);
            }
            script.extend(["e4", "e5"]);
        }
        let plies = 10 + rng.next(50);
        seen.push(pos);
        let mut line = Vec::new();
        for ply in 0..plies {
            let text = if let Some(s) = script.get(ply) {
                s.to_string()
            } else if g == 9 && ply == 4 {
                "--".to_string()
            } else {
                let moves: Vec<ChessMove> = MoveGen::new_legal(pos.board()).collect();
                if moves.is_empty() {
                    break;
                }
                // Few choices early: openings repeat.
                let pick = if ply < 6 {
                    rng.next(2.min(moves.len()))
                } else {
                    rng.next(moves.len())
                };
                crate::notation::san(&pos, Move::Normal(moves[pick]))
            };
            if ply % 2 == 0 || ply == 0 {
                let n = pos.fullmove_number();
                if pos.side_to_move() == chess::Color::White {
                    pgn.push_str(&format!("{n}. "));
                } else {
                    pgn.push_str(&format!("{n}... "));
                }
            }
            let before = key(pos.board());
            if text == "--" {
                line.push((before, Next::Null));
                pos = pos.play_null().expect("not in check");
            } else {
                let (mv, _) =
                    crate::notation::read_move_bytes(text.as_bytes(), &pos, Lang::english())
                        .expect("a legal move");
                let Move::Normal(m) = mv else {
                    unreachable!("no null move here")
                };
                line.push((before, Next::Move(m)));
                pos = pos.play(m);
            }
            pgn.push_str(&text);
            pgn.push(' ');
            seen.push(pos);
        }
        line.push((key(pos.board()), Next::End));
        lines.push(line);
        pgn.push_str(result);
        pgn.push_str("\n\n");
    }
    (pgn, seen, lines)
}

/// An index of `pgn` in which positions are hot from `hot` games on.
pub(super) fn index(pgn: &str, hot: u32) -> Index {
    let mut reader = SliceReader::new(pgn.as_bytes());
    let mut f = follower(Lang::english(), Reading::index());
    let mut builder = Builder::with_hot_games(hot).with_run(500);
    while let Some(w) = reader.read_game_restarting(&mut f) {
        builder.add(Compact::of(w.read.start.offset, w));
    }
    let columns = super::columns::from_bytes(pgn.as_bytes(), &builder.offsets());
    let bytes = builder
        .finish("test.pgn", pgn.len() as u64, (0, 0), &columns)
        .expect("an index");
    Index::open(Bytes::Owned(bytes)).expect("opens")
}

/// The games that reach `pos`, from the lines the games were made of: (game number, first
/// ply, what it played there).
fn reached(lines: &[Line], pos: &Position) -> Vec<(u64, u32, Next)> {
    let target = key(pos.board());
    lines
        .iter()
        .enumerate()
        .filter_map(|(g, line)| {
            let ply = line.iter().position(|(k, _)| *k == target)?;
            Some((g as u64 + 1, ply as u32, line[ply].1))
        })
        .collect()
}

/// Reading through, as `search` does for files it cannot index: (game number, ply).
fn read_through(pgn: &str, pos: &Position) -> Vec<(u64, u32)> {
    let mut reader = SliceReader::new(pgn.as_bytes());
    let mut f = Follow::new(
        Lang::english(),
        Some(crate::study::key::Goal::of(pos.board())),
        false,
    );
    let walked: Vec<Walked> = std::iter::from_fn(|| reader.read_game_restarting(&mut f)).collect();
    walked
        .iter()
        .filter_map(|w| Some((w.read.number, w.reached?)))
        .collect()
}

#[test]
fn hot_positions_answer_exactly_as_reading_the_games_through() {
    let (pgn, positions, lines) = games(400);
    let hot = index(&pgn, 20);
    let cold = index(&pgn, u32::MAX);
    assert!(hot.header().hot > 5, "some positions are hot");
    assert_eq!(cold.header().hot, 0);
    assert!(hot.len() > 2 * super::format::BLOCK, "several blocks");
    let infos: Vec<_> = (0..hot.games())
        .map(|g| hot.game(g).expect("a game").info)
        .collect();
    let mut asked = 0;
    for (i, pos) in positions.iter().enumerate() {
        // Every position of the first games (the hot ones among them), then a sample.
        if i > 400 && i % 11 != 0 {
            continue;
        }
        asked += 1;
        let want = reached(&lines, pos);
        let found: Vec<(u64, u32)> = want.iter().map(|w| (w.0, w.1)).collect();
        if i % 150 == 0 {
            assert_eq!(read_through(&pgn, pos), found, "{}", pos.fen());
        }
        for index in [&hot, &cold] {
            let hits: Vec<(u64, u32)> = index
                .search(pos)
                .expect("search")
                .iter()
                .map(|h| (h.game.number, h.ply))
                .collect();
            assert_eq!(hits, found, "{}", pos.fen());
            let tree = Tree::build(pos, want.iter().map(|w| (w.2, infos[(w.0 - 1) as usize])));
            assert_eq!(index.tree(pos).expect("tree"), tree, "{}", pos.fen());
        }
    }
    assert!(asked > 400);
    // The opening reached again at ply 18 by the knights' games is hot, and they are
    // found at that ply.
    let e4e5 = Position::start()
        .play("e2e4".parse().expect("uci"))
        .play("e7e5".parse().expect("uci"));
    let late: Vec<u32> = hot
        .search(&e4e5)
        .expect("search")
        .iter()
        .filter(|h| h.game.number % 17 == 4)
        .map(|h| h.ply)
        .collect();
    assert!(
        !late.is_empty() && late.iter().all(|p| *p == 18),
        "{late:?}"
    );
}

#[test]
fn a_damaged_block_is_found_when_read_not_at_every_open() {
    let (pgn, positions, _) = games(600);
    let good = index(&pgn, 20);
    let mut bytes = good.bytes.to_vec();
    // The last byte of the moves section holds the moves of the last game.
    let last = good.at.columns - 1;
    bytes[last] ^= 0x5a;
    let damaged = Index::open(Bytes::Owned(bytes)).expect("opens: the block is not read yet");
    let last_game = damaged.games() - 1;
    assert!(damaged.len() > 3 * super::format::BLOCK);
    // What lies in other blocks reads as before.
    assert_eq!(damaged.game(0), good.game(0));
    // The last game's final position is not: replaying it reads the damaged block.
    let end = *positions.last().expect("positions");
    assert_eq!(damaged.search(&end), Err(Damage::Checksum));
    assert!(good
        .search(&end)
        .expect("good")
        .iter()
        .any(|h| h.game.number == u64::from(last_game) + 1));
    // Damage in the columns (the last section) is found when they are asked for, and
    // only then.
    let mut bytes = good.bytes.to_vec();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x5a;
    let damaged = Index::open(Bytes::Owned(bytes)).expect("opens: the block is not read yet");
    assert_eq!(damaged.search(&end), good.search(&end));
    assert!(matches!(damaged.columns(), Err(Damage::Checksum)));
    assert!(good.columns().is_ok());
}
