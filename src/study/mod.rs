//! Study aids that work on games and positions: opening names and annotating
//! games with an engine.

pub mod annotate;
pub mod eco;
