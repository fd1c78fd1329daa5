//! Training from your own games, without the terminal: guessing the moves of a
//! game ([`guess`]), the positions where a player lost ground as exercises
//! ([`mistakes`], judged by [`exercise`]), lichess's win chances that measure
//! the loss ([`win`]), the engine's analysis of games without evaluations
//! ([`analyse`], kept in [`cache`]), and the spaced-repetition deck that brings
//! missed positions back (FSRS, [`deck`]); which games are yours ([`name`]).

pub mod analyse;
pub mod cache;
pub mod deck;
pub mod exercise;
pub mod guess;
pub mod judge;
pub mod mistakes;
/// How names are matched lives in the core (the game list's filter matches names the same way).
pub use crate::names as name;
pub mod win;

pub use deck::{Deck, DeckError};
pub use exercise::{Exercise, Verdict};
pub use guess::{Guess, GuessVerdict};

use crate::position::{Move, Position};

/// The most new exercises one drill takes from a file (the rest wait for the next):
/// those of the newest games.
pub const NEW_PER_DRILL: usize = 20;

/// A move in UCI (`e2e4`, `e7e8q`), the form exercises keep their moves in: it
/// does not depend on piece letters or on the other pieces of the position.
pub fn uci(mv: Move) -> String {
    match mv {
        Move::Normal(m) => m.to_string(),
        Move::Null => "0000".to_string(),
    }
}

/// The move `text` (UCI) stands for in `pos`, when it is legal there.
pub fn from_uci(text: &str, pos: &Position) -> Option<Move> {
    pos.legal_moves()
        .into_iter()
        .find(|m| m.to_string() == text)
        .map(Move::Normal)
}

/// A move in SAN in `pos`, for messages (English letters; UCI if it is not legal).
pub fn san(pos: &Position, text: &str) -> String {
    match from_uci(text, pos) {
        Some(mv) => crate::notation::format(
            pos,
            mv,
            crate::notation::Style::San,
            crate::notation::Lang::english(),
        ),
        None => text.to_string(),
    }
}
