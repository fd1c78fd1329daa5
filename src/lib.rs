//! scoresheet: a terminal chess scoresheet.
//!
//! The library is the whole engine without the terminal: positions and FEN
//! ([`position`]), every written form of a move ([`notation`]), the game tree
//! ([`game`]) and PGN ([`pgn`]). The binary adds the command line and the screens.

pub mod cli;
pub mod config;
pub mod game;
pub mod notation;
pub mod pgn;
pub mod position;
