//! Whether a game's results agree: the `Result` tag, the result token ending the movetext,
//! and a mate on the board after the last move of the main line.
//!
//! Disagreements are problems of their own (the game reads fine, but one of its results is
//! wrong): `check` reports them, `convert` writes both as read unless asked to settle them
//! ([`settled`]). A `*` (unknown) contradicts nothing, as many collections write it after
//! every game, finished or not; a missing token contradicts nothing either.

use chess::Color;

use super::builder::GameError;
use super::reader::Pos;
use super::scan::Outcome;
use crate::position::{Position, Status};

/// What a game states about its result, and where.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Stated {
    /// The `Result` tag, when it holds one of the four results (the last one given).
    pub tag: Option<(Outcome, Pos)>,
    /// An earlier `Result` tag of the same game that holds another known result.
    pub earlier_tag: Option<Outcome>,
    /// The result token ending the movetext.
    pub token: Option<(Outcome, Pos)>,
}

impl Stated {
    /// Notes a `Result` tag (`said` is `None` when it holds no result): the last one
    /// given counts, and an earlier one of another known result is kept, to be reported
    /// (a file should give the tag once; both values stay in the game).
    pub fn tag_given(&mut self, said: Option<Outcome>, at: Pos) {
        if let (Some((earlier, _)), Some(now)) = (self.tag, said) {
            if earlier != now && earlier != Outcome::Unknown {
                self.earlier_tag = Some(earlier);
            }
        }
        self.tag = said.map(|r| (r, at));
    }
}

/// The result a checkmate on the board decides, if the side to move is mated.
pub(crate) fn by_the_board(pos: &Position) -> Option<Outcome> {
    // Only a side in check can be mated: most final positions are settled by this test.
    if pos.board().checkers().popcnt() == 0 || pos.status() != Status::Checkmate {
        return None;
    }
    Some(match pos.side_to_move() {
        Color::White => Outcome::BlackWins,
        Color::Black => Outcome::WhiteWins,
    })
}

/// The problems with the results `stated`, given the result `board` decides (from
/// [`by_the_board`], when the main line was read to its end), in file order.
pub(crate) fn problems(stated: &Stated, board: Option<Outcome>) -> Vec<GameError> {
    let mut out = Vec::new();
    let problem = |at: Pos, said: Outcome, reason: String| GameError {
        pos: at,
        token: said.as_str().to_string(),
        reason,
        kind: None,
    };
    let known = |r: Outcome| r != Outcome::Unknown;
    if let (Some(earlier), Some((tag, at))) = (stated.earlier_tag, stated.tag) {
        if known(tag) && earlier != tag {
            out.push(problem(
                at,
                tag,
                format!(
                    "the Result tag is given twice: {} and then {}",
                    earlier.as_str(),
                    tag.as_str()
                ),
            ));
        }
    }
    if let (Some((tag, _)), Some((token, at))) = (stated.tag, stated.token) {
        // A `*` says the result is not known: it contradicts nothing.
        if tag != token && known(tag) && known(token) {
            out.push(problem(
                at,
                token,
                // No line number of the tag here: messages are shifted by the chunked
                // readers through their positions only.
                format!(
                    "the movetext ends in {} but the Result tag says {}",
                    token.as_str(),
                    tag.as_str()
                ),
            ));
        }
    }
    if let Some(board) = board {
        let mated = if board == Outcome::WhiteWins {
            "Black"
        } else {
            "White"
        };
        let contradicts = |said: Outcome| known(said) && said != board;
        let reason = |said: Outcome, what: &str| {
            format!(
                "{what} says {} but {mated} is checkmated after the last move: the result is {}",
                said.as_str(),
                board.as_str()
            )
        };
        if let Some((tag, at)) = stated.tag {
            // Said once is enough when the token says the same.
            if contradicts(tag) && stated.token.is_none_or(|(t, _)| t != tag) {
                out.push(problem(at, tag, reason(tag, "the Result tag")));
            }
        }
        if let Some((token, at)) = stated.token {
            if contradicts(token) {
                out.push(problem(at, token, reason(token, "the movetext")));
            }
        }
    }
    out.sort_by_key(|e| e.pos.offset);
    out
}

/// The result `convert --fix-results` writes for a game whose results disagree: the
/// board's when it shows a mate; else the one of tag and token that is known (not `*`);
/// else the tag's, which is what game lists and databases show.
pub(crate) fn settled(stated: &Stated, board: Option<Outcome>) -> Option<Outcome> {
    let tag = stated.tag.map(|(r, _)| r);
    let token = stated.token.map(|(r, _)| r);
    board.or(match (tag, token) {
        (Some(Outcome::Unknown), Some(t)) => Some(t),
        (Some(t), _) => Some(t),
        (None, t) => t,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(offset: u64, line: u64) -> Pos {
        Pos {
            offset,
            line,
            column: 1,
            game: 1,
        }
    }

    #[test]
    fn disagreements_are_found_and_settled_as_documented() {
        use Outcome::*;
        let stated = |tag: Option<Outcome>, token: Option<Outcome>| Stated {
            tag: tag.map(|r| (r, at(0, 1))),
            token: token.map(|r| (r, at(100, 9))),
            earlier_tag: None,
        };
        // (tag, token, board) → problems, settled result.
        let cases = [
            (Some(WhiteWins), Some(WhiteWins), None, 0, Some(WhiteWins)),
            (Some(WhiteWins), Some(BlackWins), None, 1, Some(WhiteWins)),
            // `*` says the result is not known: it contradicts nothing, tag or token.
            (Some(Unknown), Some(BlackWins), None, 0, Some(BlackWins)),
            (Some(WhiteWins), Some(Unknown), None, 0, Some(WhiteWins)),
            (Some(Draw), None, None, 0, Some(Draw)),
            (None, Some(Draw), None, 0, Some(Draw)),
            // A mate decides; `*` contradicts nothing.
            (
                Some(WhiteWins),
                Some(WhiteWins),
                Some(BlackWins),
                1,
                Some(BlackWins),
            ),
            (
                Some(Draw),
                Some(WhiteWins),
                Some(BlackWins),
                3,
                Some(BlackWins),
            ),
            (
                Some(Unknown),
                Some(Unknown),
                Some(BlackWins),
                0,
                Some(BlackWins),
            ),
            (Some(BlackWins), None, Some(BlackWins), 0, Some(BlackWins)),
            (Some(WhiteWins), None, Some(BlackWins), 1, Some(BlackWins)),
        ];
        for (tag, token, board, n, fixed) in cases {
            let s = stated(tag, token);
            let found = problems(&s, board);
            assert_eq!(found.len(), n, "{tag:?} {token:?} {board:?}: {found:?}");
            assert!(found.windows(2).all(|w| w[0].pos.offset <= w[1].pos.offset));
            assert_eq!(settled(&s, board), fixed, "{tag:?} {token:?} {board:?}");
        }
        let found = problems(&stated(Some(WhiteWins), Some(BlackWins)), None);
        assert_eq!(found[0].token, "0-1");
        assert_eq!(
            found[0].reason,
            "the movetext ends in 0-1 but the Result tag says 1-0"
        );
    }

    #[test]
    fn the_board_decides_only_a_mate() {
        let mated =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .expect("fen");
        assert_eq!(by_the_board(&mated), Some(Outcome::BlackWins));
        let check =
            Position::from_fen("rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2")
                .expect("fen");
        assert_eq!(by_the_board(&check), None);
        assert_eq!(by_the_board(&Position::start()), None);
    }
}
