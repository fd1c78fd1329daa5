//! What the [`GameBuilder`](super::GameBuilder) makes of a game: [`ReadGame`], the game
//! with its problems ([`GameError`]) and what else the file said about it.

use super::reader::{ErrorKind, Pos};
use super::scan::Outcome;
use crate::game::Game;

/// One problem in a game, positioned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// Where the offending token starts.
    pub pos: Pos,
    /// The token as written.
    pub token: String,
    /// Why it was refused.
    pub reason: String,
    /// The reader's kind of error, for a lexical problem (`None` for a move that cannot
    /// be played, a refused tag, a result that disagrees).
    pub kind: Option<ErrorKind>,
}

/// A game as read: the tree (empty when only validating), its problems, and
/// whether the main line was read to its end.
#[derive(Debug, Clone)]
pub struct ReadGame {
    /// 1-based number of the game in its file.
    pub number: u64,
    /// Where the game starts.
    pub start: Pos,
    /// The game read (moves up to the first error of the main line).
    pub game: Game,
    /// Every problem found, in file order.
    pub errors: Vec<GameError>,
    /// False when the main line stopped early, or the game could not be read at all.
    pub complete: bool,
    /// Main-line moves read.
    pub plies: u32,
    /// The game could not be read at all (a chess variant, a bad FEN tag, a broken
    /// tag section): even its start position is unknown.
    pub refused: bool,
    /// Results that disagree (the `Result` tag and the movetext's result token, or either
    /// and a mate on the board), in file order: the game reads fine, but `check` reports
    /// these too.
    pub result_problems: Vec<GameError>,
    /// The result that settles [`ReadGame::result_problems`] (see `convert --fix-results`):
    /// the board's when it shows a mate, else the known one of tag and token, else the
    /// tag's. `None` when there is nothing to settle.
    pub settled_result: Option<Outcome>,
    /// The result token ending the movetext, if any (the `Result` tag may differ).
    pub movetext_result: Option<Outcome>,
}

impl ReadGame {
    /// Every problem: [`ReadGame::errors`] and [`ReadGame::result_problems`], in file order.
    pub fn problems(&self) -> Vec<&GameError> {
        let mut all: Vec<&GameError> = self.errors.iter().chain(&self.result_problems).collect();
        all.sort_by_key(|e| e.pos.offset);
        all
    }

    /// Whether the game has any problem to report.
    pub fn has_problems(&self) -> bool {
        !self.errors.is_empty() || !self.result_problems.is_empty()
    }

    /// "White - Black", for messages.
    pub fn players(&self) -> String {
        format!(
            "{} - {}",
            self.game.tag("White").unwrap_or("?"),
            self.game.tag("Black").unwrap_or("?")
        )
    }
}

/// The `%` escape lines of a game, in file order, as
/// [`Visitor::escape`](super::Visitor::escape) gives them (see
/// [`GameBuilder::escapes`](super::GameBuilder::escapes)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Escapes {
    /// Those in the game's tags and movetext.
    pub within: Vec<String>,
    /// Those after its result token: between this game and the next, they belong to this
    /// one by the boundary rules.
    pub after: Vec<String>,
}
