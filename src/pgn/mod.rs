//! PGN in and out.
//!
//! - [`reader`]: [`SliceReader`] (whole buffer) and [`Reader`] (any `Read`, bounded memory)
//!   feed a [`Visitor`] with tags, SAN moves as raw bytes, NAGs, comments, variations and
//!   the outcome, every one positioned ([`Pos`]); lexical problems come as [`ReadError`].
//! - [`index`](mod@index): [`index()`], [`index_read`] and [`Indexer`] list the games of a
//!   file (offset, length, Seven Tag Roster, ECO, Elos, ply count) without lexing moves;
//!   an [`Indexer`] also indexes an input held in memory (a mapped file) without copying.
//! - [`builder`]: [`GameBuilder`], the visitor that resolves every move through the
//!   notation engine and builds a [`crate::game::Game`] (or only validates).
//! - [`split`]: cutting a stream into blocks of whole games, for `check --jobs` on a pipe.
//! - [`chunks`]: reading a regular file on several threads in chunks cut at guessed game
//!   boundaries (checked in order), with the results in file order; [`chunks::index_range`]
//!   indexes a chunk (`list` and the game list share it).
//!
//! The streaming [`Reader`] and [`Indexer`] can also start in the middle of an input, at a
//! point where a game starts or between games (`starting_at`), and say where the next game
//! starts before reading it (`next_start`); from a true game boundary they give exactly
//! what a read from the start gives there. Several threads read one file that way (the
//! `cli` splits a regular file at guessed boundaries and checks each guess against the
//! `next_start` of the chunk before).
//! - [`writer`]: PGN export format.
//!
//! Both find game boundaries with the same scanner, so they always agree on how many games a
//! file holds and where each starts and ends. The rules, in file order:
//!
//! - Between games, blanks, byte-order marks (files that each start with one may be
//!   concatenated) and `%` escape lines (a `%`
//!   first on its line) are skipped; any other byte starts a game.
//! - A game starts with its tag section: tag pairs (several may share a line, movetext may
//!   follow on the same line), comments, blank lines (ChessBase puts one inside the tags) and
//!   `%` lines. A second `[Event` tag in one tag section starts a new game (the previous one
//!   had tags only). Anything else starts the movetext.
//! - In the movetext, a `[` first on a line (after optional blanks) starts a new game, blank
//!   line or not; a result token outside variations ends the movetext.
//! - After the result, blanks, comments and `%` lines still belong to the game; anything else
//!   (a tag, or a move of a tagless game) starts the next one.
//! - Comments hide everything in them: `{` runs to the first `}` (comments do not nest, as in
//!   the PGN standard), `;` to the end of the line. A `{` left open ends its game at the
//!   next game start it meets: a blank line, then (after any more blank lines and `%` lines)
//!   a line starting with a well-formed tag pair; else it runs to the end of the input. The
//!   reader reports it at the brace.
//! - A game too large to hold (64 MiB by default) is skipped up to the next line starting
//!   with `[Event `, or with `[` after a blank line.
//!
//! A lexical error does not move a boundary: the reader skips the rest of the game as found
//! by these rules, which is how it resynchronises on the next game.

mod boundary;
pub mod builder;
pub mod chunks;
mod feed;
pub mod index;
mod lexer;
mod load;
mod read_game;
pub mod reader;
mod results;
mod run;
mod scan;
pub mod split;
mod tag;
pub mod tag_window;
pub mod writer;

pub use builder::{load_game, read_games, GameBuilder, GameError, Played, ReadGame};
pub use index::{
    index, index_each, index_read, ColumnPlaces, Entry, GameEntry, GameRef, Indexer, TagsAt,
};
pub use reader::{
    CommentKind, ErrorKind, Pos, ReadError, Reader, Skip, SliceReader, Visitor, MAX_GAME,
};
pub use scan::Outcome;
pub use writer::{
    clip_text, write_game, write_game_ending, write_game_to_string, write_game_with, Clip,
    WriteOptions,
};
