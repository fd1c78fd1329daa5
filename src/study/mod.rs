//! Study aids that work on games and positions: opening names, annotating games with an
//! engine, training, and position search with the opening tree over whole files (a
//! position key, reading games while following their positions, and an index kept in the
//! cache directory).

pub mod annotate;
pub mod eco;
pub mod follow;
pub mod game_tags;
pub mod index;
pub mod key;
pub mod train;
pub mod tree;
