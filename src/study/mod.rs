//! Study aids that work on games and positions: opening names so far.

pub mod eco;
