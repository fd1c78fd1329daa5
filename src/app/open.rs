//! The one way a game comes on the screen, whatever brought it: the list (Enter,
//! next/previous game), `:e FILE [N]`, `scoresheet FILE`, a pasted game, a recovered
//! one, a repair, `:new`. How it opens depends on the game, never on the path:
//!
//! - a **finished** game (its `Result` is `1-0`, `0-1` or `1/2-1/2`) is there to be
//!   read: it opens at its start, its moves shown as a book prints them (unless the
//!   user chose a view), and a move typed inside it starts a variation; but where moves
//!   wait after a correction, it opens there, on the scoresheet that shows them;
//! - an **unfinished** one (`*`, or no result) is a game to go on recording: it opens
//!   at its last move (or where moves wait after a correction, in a variation too), on
//!   the scoresheet (unless the user chose a view), and a move typed inside it does what
//!   the configuration's `recording.inside` says.

use std::path::PathBuf;

use super::{App, Inside, MovesView};
use crate::game::{Game, NodeId};

/// Whether `game` is over: its `Result` tag gives a result (not `*`).
pub fn finished(game: &Game) -> bool {
    matches!(game.tag("Result"), Some("1-0" | "0-1" | "1/2-1/2"))
}

impl App {
    /// Shows `game` (from `file`, where `:w` writes it; its `number` there when it
    /// was read from a file), as the module says. Its history starts here: undo does
    /// not go back into the game before.
    pub(crate) fn open_game(
        &mut self,
        game: Game,
        file: Option<PathBuf>,
        number: Option<u64>,
        unsaved: bool,
    ) {
        self.replace_game(game, file, unsaved);
        self.number = number;
        self.fork = 0;
        let read = finished(&self.game);
        // Moves waiting after a correction are the work left on the game, finished or
        // not: it opens where they wait, on the scoresheet, which shows them.
        let waiting = self.pending.is_some();
        if !self.view_chosen {
            self.moves_view = if read && !waiting {
                MovesView::Indented
            } else {
                MovesView::Sheet
            };
        }
        if read {
            self.cursor = match waiting {
                true => self.recording_point(),
                false => NodeId::ROOT,
            };
            // A move typed inside a game being read is a variation, not a correction
            // (the right move typed where moves wait replays them all the same).
            self.inside = Inside::Variation;
        } else {
            self.cursor = self.recording_point();
            self.inside = self.settings.inside;
        }
        self.refresh_feedback();
        self.refresh_opening();
    }

    /// A word for the status line on a game whose movetext ended with another result than
    /// its `Result` tag's (both kept as written), or nothing.
    pub(crate) fn results_note(&self) -> String {
        match self.game.written_result() {
            Some(token) => format!(
                "; its moves end {token} but its Result tag says {}: both kept as written \
                 (set the result to settle it)",
                self.game.tag("Result").unwrap_or("?")
            ),
            None => String::new(),
        }
    }

    /// How the game on the screen was opened, for the status line: `read from the
    /// start` or `at its last move, to go on recording` (or at the end of the variation
    /// where moves wait, which is not the game's last move).
    pub(crate) fn how_opened(&self) -> &'static str {
        if finished(&self.game) && self.pending.is_some() {
            "finished: where moves wait"
        } else if finished(&self.game) {
            "finished: read from the start"
        } else if self.cursor != self.line_end(NodeId::ROOT) {
            "unfinished: in the variation where moves wait"
        } else {
            "unfinished: at its last move, to go on recording"
        }
    }
}

#[cfg(test)]
#[path = "open_tests.rs"]
mod tests;
