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
