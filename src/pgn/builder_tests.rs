//! [`GameBuilder::play`]: the move and positions it hands a follower, line by line.

use chess::{ChessMove, Square};

use super::*;

/// What one move gave: the depth, the move, and the FENs before and after it.
type Seen = (usize, Option<ChessMove>, String, String);

/// Plays the movetext `text` through a validating builder, returning what each word gave
/// (`None`: no move played).
fn plays(text: &str) -> Vec<Option<Seen>> {
    let mut b = GameBuilder::new(false);
    b.begin_game(Pos::default());
    assert_eq!(b.begin_movetext(), Skip(false));
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        match word {
            "(" => assert_eq!(b.begin_variation(Pos::default()), Skip(false)),
            ")" => b.end_variation(Pos::default()),
            _ => out.push(
                b.play(word.as_bytes(), Pos::default())
                    .map(|p| (p.depth, p.mv, p.before.fen(), p.after.fen())),
            ),
        }
    }
    out
}

fn mv(from: Square, to: Square) -> Option<ChessMove> {
    Some(ChessMove::new(from, to, None))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
const AFTER_E4_C5: &str = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2";

#[test]
fn each_move_played_comes_with_its_line_depth_and_the_positions_around_it() {
    let got = plays("e4 e5 ( c5 Nf3 ) Nf3");
    assert_eq!(
        got[0],
        Some((1, mv(Square::E2, Square::E4), START.into(), AFTER_E4.into()))
    );
    assert_eq!(
        got[1],
        Some((
            1,
            mv(Square::E7, Square::E5),
            AFTER_E4.into(),
            AFTER_E4_E5.into()
        ))
    );
    // The variation replaces 1... e5: it starts from the position before it.
    assert_eq!(
        got[2],
        Some((
            2,
            mv(Square::C7, Square::C5),
            AFTER_E4.into(),
            AFTER_E4_C5.into()
        ))
    );
    let (depth, played, before, _) = got[3].clone().expect("2. Nf3 in the variation");
    assert_eq!(
        (depth, played, before.as_str()),
        (2, mv(Square::G1, Square::F3), AFTER_E4_C5)
    );
    // Back in the main line, after 1... e5.
    let (depth, played, before, _) = got[4].clone().expect("2. Nf3 in the main line");
    assert_eq!(
        (depth, played, before.as_str()),
        (1, mv(Square::G1, Square::F3), AFTER_E4_E5)
    );
}

#[test]
fn a_null_move_is_handed_over_as_none_and_what_is_not_played_as_nothing() {
    let got = plays("e4 -- d4 Ke8 Nf3");
    assert_eq!(
        got[1].as_ref().map(|p| (p.0, p.1)),
        Some((1, None)),
        "the null move"
    );
    assert!(got[2].is_some(), "2. d4 after the null move");
    // An illegal move is not played, and its line is dead: nothing after it either.
    assert_eq!(got[3], None);
    assert_eq!(got[4], None);
    // A mark written as a word of its own is no move.
    let got = plays("e4 d5 e5 f5 exf6 e.p.");
    assert!(got[4].is_some());
    assert_eq!(got[5], None);
}

/// A variation that repeats the move it replaces and goes on (`1... e5 (1... e5 2. Nf3)`)
/// is merged into the game's own move; the game's next move stays its main line, the
/// variation's becomes a variation there, at any depth.
#[test]
fn a_variation_repeating_its_move_leaves_the_main_line_as_played() {
    let main_line = |text: &str| -> Vec<String> {
        let game = crate::pgn::read_games(text.as_bytes()).remove(0).game;
        game.mainline()
            .iter()
            .map(|&id| game.node(id).san.clone())
            .collect()
    };
    for (text, main) in [
        ("1. e4 e5 (1... e5 2. Nf3) 2. Nc3 *", "e4 e5 Nc3"),
        (
            "1. e4 e5 (1... e5 2. Nf3 Nf6) 2. Nf3 Nc6 *",
            "e4 e5 Nf3 Nc6",
        ),
        ("1. e4 e5 2. Nf3 (2. Nf3 Nc6) Nf6 *", "e4 e5 Nf3 Nf6"),
        ("1. e4 (1. e4 e5 2. Nf3) (1. e4 c5) e6 2. d4 *", "e4 e6 d4"),
        (
            "1. e4 e5 (1... c5 2. Nf3 (2. Nc3) d6) 2. Nf3 *",
            "e4 e5 Nf3",
        ),
    ] {
        assert_eq!(main_line(text).join(" "), main, "{text}");
    }
    // The variation's moves are all still there, as a variation after the game's move;
    // two variations that start alike keep the order they were written in.
    let written = |text: &str| {
        let game = crate::pgn::read_games(text.as_bytes()).remove(0).game;
        let pgn = crate::pgn::write_game_to_string(&game);
        pgn.trim_end()
            .lines()
            .last()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        written("1. e4 e5 (1... e5 2. Nf3 {x}) 2. Nc3 *"),
        "1. e4 e5 2. Nc3 (2. Nf3 {x}) *"
    );
    assert_eq!(
        written("1. e4 e5 (1... c5 2. Nf3) (1... c5 2. Nc3) *"),
        "1. e4 e5 (1... c5 2. Nf3 (2. Nc3)) *"
    );
}
