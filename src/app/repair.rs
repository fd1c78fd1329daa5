//! Opening a game that has a move that cannot be played (`:e` of a file written by
//! hand, or by a program with a bug): the part read is opened for repair, and
//! nothing of the rest is lost. The rest's main-line moves wait for the right
//! move, as after a correction (type it, and those that fit follow); its whole
//! text is also kept in a comment, so a `:w` before the repair keeps it too.

use std::path::PathBuf;

use super::{App, CutMove, Pending};
use crate::game::edit::NOT_REPLAYED;
use crate::game::{Game, NodeId};

/// The label of the comment that keeps unread text holding more than moves.
pub const UNREAD: &str = "not read (kept as written): ";

impl App {
    /// Opens `game` (read up to a problem) from `file`, with `rest` the text from
    /// the problem on and `stop` a description of the problem. `rest_is_line`
    /// when the problem stopped the main line (its words then wait as moves).
    pub fn open_for_repair(
        &mut self,
        game: Game,
        file: PathBuf,
        stop: &str,
        rest: &str,
        rest_is_line: bool,
    ) {
        self.open_game(game, Some(file), None, true);
        let at = self.line_end(NodeId::ROOT);
        let moves = if rest_is_line {
            main_line_words(rest)
        } else {
            None
        };
        // Plain moves: the comment goes once they are all replayed. Anything more
        // (comments, variations) stays in a comment of its own.
        let label = if moves.is_some() {
            NOT_REPLAYED
        } else {
            UNREAD
        };
        if !rest.is_empty() {
            self.game
                .node_mut(at)
                .comments_after
                .push(format!("{label}{rest}"));
        }
        self.cursor = at;
        match moves {
            Some(moves) if !moves.is_empty() => {
                let count = moves.len();
                self.pending = Some(Pending {
                    at,
                    moves: moves
                        .into_iter()
                        .map(|san| CutMove {
                            san,
                            nags: Vec::new(),
                            comments: Vec::new(),
                            draw_offer: false,
                        })
                        .collect(),
                });
                self.refuse(format!(
                    "{stop}: opened up to there; type the right move and the {} after it \
                     follow ({count} moves wait; :w keeps them as a comment)",
                    count - 1
                ));
            }
            _ => {
                // Moves read back as waiting when the game opened cannot wait before
                // text that was never read: that text is where they were.
                self.pending = None;
                self.refuse(format!(
                    "{stop}: opened with the text from there kept in a comment"
                ));
            }
        }
        // The history starts with the game as opened for repair: undo never goes back
        // to it without the kept text and the waiting moves.
        self.versions = super::undo::fresh(self);
        self.refresh_feedback();
        self.refresh_opening();
    }
}

/// The main-line moves of `text` (movetext from a move on), when it holds nothing
/// but moves, move numbers, glyphs and results; `None` when it holds comments,
/// variations or anything else that waiting moves cannot carry.
fn main_line_words(text: &str) -> Option<Vec<String>> {
    let mut moves = Vec::new();
    for word in text.split_whitespace() {
        if word.starts_with(['{', '}', '(', ')', ';', '%', '[']) {
            return None;
        }
        if word.starts_with('$') || matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
            continue;
        }
        // Move numbers (`12.`, `12...`, and `12.e4` written together); `0-0` is a move.
        let after = word.trim_start_matches(|c: char| c.is_ascii_digit());
        let word = if after.len() < word.len() && after.starts_with('.') {
            after.trim_start_matches('.')
        } else {
            word
        };
        if word.is_empty() {
            continue;
        }
        if word.contains(['{', '}', '(', ')', ';']) {
            return None;
        }
        moves.push(word.to_string());
    }
    Some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_line_of_plain_moves() {
        assert_eq!(
            main_line_words("Qd4 6. Nxd4 Kd7 7.Nf5 $2 0-0 8... a6 1-0").unwrap(),
            ["Qd4", "Nxd4", "Kd7", "Nf5", "0-0", "a6"]
        );
        assert_eq!(main_line_words("Qd4 {why} Nxd4"), None);
        assert_eq!(main_line_words("Qd4 (5... Qe7) Nxd4"), None);
    }
}
