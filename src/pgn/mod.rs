//! PGN input at the byte level: a tolerant, streaming reader that reports each game to a
//! [`Visitor`] without checking chess legality, and a fast index of the games in a file.
//!
//! - [`reader`]: [`SliceReader`] (whole buffer) and [`Reader`] (any `Read`, bounded memory)
//!   feed a [`Visitor`] with tags, SAN moves as raw bytes, NAGs, comments, variations and
//!   the outcome, every one positioned ([`Pos`]); lexical problems come as [`ReadError`].
//! - [`index`]: [`index()`] and [`index_read`] list the games of a file (offset, length,
//!   Seven Tag Roster, ECO, Elos, ply count) without lexing moves.
//!
//! Both find game boundaries with the same scanner, so they always agree on how many games a
//! file holds and where each starts and ends.

mod boundary;
mod feed;
pub mod index;
mod lexer;
pub mod reader;
mod scan;

pub use index::{index, index_read, GameEntry};
pub use reader::{CommentKind, ErrorKind, Pos, ReadError, Reader, Skip, SliceReader, Visitor};
pub use scan::Outcome;
