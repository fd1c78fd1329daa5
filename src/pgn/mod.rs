//! PGN in and out.
//!
//! - [`reader`]: a tolerant, streaming reader at the byte level: [`SliceReader`] (whole
//!   buffer) and [`Reader`] (any `Read`, bounded memory) feed a [`Visitor`] with tags, SAN
//!   moves as raw bytes, NAGs, comments, variations and the outcome, every one positioned
//!   ([`Pos`]), without checking chess legality; lexical problems come as [`ReadError`].
//! - [`index`]: [`index()`] and [`index_read`] list the games of a file (offset, length,
//!   Seven Tag Roster, ECO, Elos, ply count) without lexing moves.
//! - [`writer`]: PGN export format.
//!
//! The reader and the index find game boundaries with the same scanner, so they always
//! agree on how many games a file holds and where each starts and ends.

mod boundary;
pub mod builder;
mod feed;
pub mod index;
mod lexer;
pub mod reader;
mod scan;
pub mod split;
pub mod writer;

pub use builder::{load_game, read_games, GameBuilder, GameError, ReadGame};
pub use index::{index, index_read, GameEntry};
pub use reader::{CommentKind, ErrorKind, Pos, ReadError, Reader, Skip, SliceReader, Visitor};
pub use scan::Outcome;
pub use writer::{write_game, write_game_to_string, write_game_with, WriteOptions};
