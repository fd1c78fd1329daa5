//! Study aids that work on games and positions: opening names, annotating games
//! with an engine, and training.

pub mod annotate;
pub mod eco;
pub mod train;
