//! scoresheet: a terminal chess scoresheet.
//!
//! The library is the whole engine without the terminal: positions and FEN
//! ([`position`]), every written form of a move ([`notation`]), the game tree
//! ([`game`]), PGN ([`pgn`]) and keeping games safe on disk ([`store`]: atomic
//! saves, the crash journal, recovery). The binary adds the command line and the screens.

pub mod app;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod engine;
pub mod game;
pub mod message;
pub mod names;
pub mod notation;
pub mod pgn;
pub mod plural;
pub mod position;
pub mod store;
pub mod study;
pub mod text;
pub mod tui;
pub mod ui;
