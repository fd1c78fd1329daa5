//! Study aids that work on games and positions: opening names, training.

pub mod eco;
pub mod train;
