//! PGN: the writer of export format (the reader arrives with the PGN engine).

pub mod writer;

pub use writer::{write_game, write_game_to_string};
