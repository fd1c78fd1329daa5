//! The streaming PGN reader: finds each game, lexes it and reports what it finds to a
//! [`Visitor`]. Tolerant and byte-level: it checks no chess legality and passes moves on as
//! the SAN bytes written in the file, with their position.
//!
//! Two front ends share the same machinery: [`SliceReader`] over a whole `&[u8]` (zero copy)
//! and [`Reader`] over any `impl Read` with a bounded buffer (memory stays constant in the
//! number of games; a game larger than the buffer grows it, up to a cap per game).
//!
//! Where games start and end is decided by the scanner shared with the
//! [index](mod@super::index) (the rules are in the [`pgn`](super) module documentation), so
//! both always agree.
//! A lexical error is reported once, positioned, and the rest of that game is skipped; the
//! next game is read normally: a bad game never stops the file.
//!
//! Callbacks for one game come in file order:
//! `begin_game`, then tags and comments met before the movetext, then `begin_movetext`
//! (exactly once, also for a game without movetext), then moves, NAGs, comments and
//! variations, then `outcome` (the result token, or `None` if the game has none), then
//! comments after the result, then `end_game`. After `error` the only callback left for
//! the game is `end_game` (in particular `outcome` is not called). Positions grow in that
//! order, but for the error of a variation never closed, which points back to its `(`.
//! A `%` escape line of the game comes as `escape` in its place in that order (also in a
//! skipped variation); those between games, which belong to no game (in practice only
//! before the first: after a result they belong to the game before them), are left out,
//! but [`Reader::read_game_escaping`] hands them over.

use std::io::{self, Read};
use std::ops::Range;

use super::boundary::{scan_game, seek_game, NoTags};
use super::feed::{Between, Feed, Next, Tracker, DEFAULT_BUFFER, DEFAULT_MAX_GAME};
use super::lexer::{lex_game, lex_game_free, lex_tags, short_token, Scratch};

/// A position in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    /// Byte offset from the start of the input (a byte-order mark counts).
    pub offset: u64,
    /// 1-based line.
    pub line: u64,
    /// 1-based column, counted in characters (bytes that are not UTF-8 continuation
    /// bytes), not bytes.
    pub column: u32,
    /// 1-based number of the game this position belongs to.
    pub game: u64,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}",
            self.game, self.line, self.column
        )
    }
}

/// A visitor's answer to "shall I read this part?": `Skip(true)` skips it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Skip(pub bool);

/// Which kind of comment a comment was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `{ ... }`; the text is everything between the braces, exactly as written.
    Brace,
    /// `; ...` to the end of the line; the text excludes the `;` and the line ending.
    Line,
}

/// Why the reader rejected a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ErrorKind {
    /// A tag pair that is not `[Name "value"]`.
    #[error("malformed tag pair")]
    BadTag,
    /// A `{` comment with no `}` before the next game (a blank line, then a tag pair line)
    /// or the end of the input; reported at the `{`.
    // No brace in the words: `convert` quotes them on a `%` line, where a `}` would close
    // a comment left open in the game before.
    #[error("comment not closed before the next game or the end of the input")]
    UnterminatedComment,
    /// A `)` with no open variation.
    #[error("')' without a matching '('")]
    UnmatchedParen,
    /// A variation still open when the game ends; reported at the outermost `(` left open.
    #[error("variation not closed: no ')' before the end of the game")]
    UnclosedVariation,
    /// A `[` or `]` in the movetext.
    #[error("stray bracket in the movetext")]
    StrayBracket,
    /// A `}` outside a comment.
    #[error("closing brace outside a comment")]
    StrayBrace,
    /// A `$` not followed by a number from 0 to 255.
    #[error("NAG is not '$' followed by a number from 0 to 255")]
    BadNag,
    /// A run of `!`/`?` that is not one of `! ? !! ?? !? ?!`.
    #[error("unknown annotation glyph")]
    UnknownGlyph,
    /// Text after the result that the scanner should have left to the next game.
    #[error("text after the game result")]
    AfterResult,
    /// The game is larger than the reader's per-game limit (in bytes); it was skipped.
    #[error("game larger than the {} limit per game", size(*.limit))]
    GameTooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
}

/// A size for messages: in MiB when it is a whole number of them.
fn size(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes}-byte")
    }
}

/// A positioned lexical error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {reason} at {token:?}")]
pub struct ReadError {
    /// Where the offending token starts.
    pub pos: Pos,
    /// The start of the offending token (lossy UTF-8, at most 24 characters).
    pub token: String,
    /// What is wrong.
    pub reason: ErrorKind,
}

/// Receives what the reader finds in each game. Every method but [`Visitor::end_game`] has
/// a default that ignores its input. Slices and strings are borrowed for the call only.
pub trait Visitor {
    /// What [`Visitor::end_game`] makes of a game.
    type Output;

    /// A game starts at `at`.
    fn begin_game(&mut self, at: Pos) {
        let _ = at;
    }

    /// Where the value of a tag named `name` lies in the input, as written (between its
    /// quotes, escapes and encoding not undone), in absolute offsets: called for every tag,
    /// just before [`Visitor::wants_tag`]. A visitor that can read the input again later
    /// may note only this, which costs less than the value decoded.
    fn tag_place(&mut self, name: &[u8], value: Range<u64>) {
        let _ = (name, value);
    }

    /// Whether [`Visitor::tag`] should be called for a tag of this name (its value is then
    /// decoded); a visitor that needs only a few tags says `false` to the rest, which spares
    /// decoding them.
    fn wants_tag(&mut self, name: &[u8]) -> bool {
        let _ = name;
        true
    }

    /// A tag pair; `value` is unescaped and decoded (UTF-8, or Windows-1252 when not UTF-8).
    fn tag(&mut self, name: &[u8], value: &str, at: Pos) {
        let _ = (name, value, at);
    }

    /// The movetext starts; `Skip(true)` skips it (the outcome is still reported).
    fn begin_movetext(&mut self) -> Skip {
        Skip(false)
    }

    /// Whether the visitor wants to know, once the movetext starts, how many moves its main
    /// line holds ([`Visitor::plies_ahead`]): the reader then scans the movetext before
    /// lexing it. Asked once per game, right after [`Visitor::begin_movetext`].
    fn wants_plies_ahead(&self) -> bool {
        false
    }

    /// The moves of the main line as written, counted before any is handed over, as
    /// [`Visitor::main_line_written`] counts them (so never fewer than the `san` calls
    /// outside variations to come): for a position search, which leaves a game once it has
    /// too few moves left to take the men the target lacks.
    fn plies_ahead(&mut self, plies: u32) {
        let _ = plies;
    }

    /// A move exactly as written (`Nf3`, `e8=Q+`, `O-O`, `--`, `Z0`), without its move number
    /// and without `!`/`?` glyphs (those come as [`Visitor::nag`] right after).
    fn san(&mut self, san: &[u8], at: Pos) {
        let _ = (san, at);
    }

    /// A NAG: `$n`, a glyph `! ? !! ?? !? ?!` (1 to 6), or an evaluation symbol such as
    /// `+-` (18) or `=` (10).
    fn nag(&mut self, nag: u8, at: Pos) {
        let _ = (nag, at);
    }

    /// A comment, decoded like tag values (borrowed from the input when valid UTF-8).
    fn comment(&mut self, text: &str, kind: CommentKind, at: Pos) {
        let _ = (text, kind, at);
    }

    /// A `(` opens a variation; `Skip(true)` skips it, nested ones included (then no
    /// [`Visitor::end_variation`] comes for it).
    fn begin_variation(&mut self, at: Pos) -> Skip {
        let _ = at;
        Skip(false)
    }

    /// The `)` closing a variation that was not skipped.
    fn end_variation(&mut self, at: Pos) {
        let _ = at;
    }

    /// The result token closing the movetext (`1-0`, `0-1`, `1/2-1/2` — also for `½-½` —
    /// or `*`), or `None` if the game ends without one.
    fn outcome(&mut self, result: Option<&str>, at: Pos) {
        let _ = (result, at);
    }

    /// A `%` escape line of the game (a `%` first on its line: the PGN standard's way to
    /// put text that readers skip), decoded like comments, from its `%` on, without its
    /// line ending (`\n` or `\r\n`). Comes wherever the line lies (in the tags, in the
    /// movetext, after the result), even inside a skipped variation.
    fn escape(&mut self, line: &str, at: Pos) {
        let _ = (line, at);
    }

    /// A lexical error; the rest of the game is skipped.
    fn error(&mut self, err: ReadError) {
        let _ = err;
    }

    /// How many moves the game's main line holds as written — its words with a move in
    /// them outside variations, marks written as words of their own (`e.p.`, `ch`) left
    /// out: the plies `list` shows — as the scanner counted them before the game was
    /// lexed. Called just before [`Visitor::end_game`] when the reader scanned the game
    /// first, which it always does for a game with a lexical error or whose movetext was
    /// skipped: the moves that [`Visitor::san`] was then not given are counted too (not for
    /// a game too large to hold). Otherwise the `san` calls outside variations that are not
    /// such marks (see [`crate::notation::is_mark_word`]) count the same.
    fn main_line_written(&mut self, plies: u32) {
        let _ = plies;
    }

    /// The game is over; make something of it.
    fn end_game(&mut self) -> Self::Output;
}

/// Reads games from a byte slice holding a whole PGN file.
pub struct SliceReader<'a> {
    data: &'a [u8],
    pos: usize,
    game: u64,
    tracker: Tracker,
    scratch: Scratch,
}

impl<'a> SliceReader<'a> {
    /// A reader over `data` (a leading UTF-8 byte-order mark is skipped).
    pub fn new(data: &'a [u8]) -> Self {
        let mut tracker = Tracker::new();
        let pos = if data.starts_with(b"\xEF\xBB\xBF") {
            tracker.at = 3;
            3
        } else {
            0
        };
        SliceReader {
            data,
            pos,
            game: 0,
            tracker,
            scratch: Scratch::default(),
        }
    }

    /// A reader over `data`, a piece of a longer input that does not start it: a
    /// byte-order mark at its start is one between games (files concatenated), a
    /// character of its line as it is anywhere else, not the input's own mark.
    pub fn continuing(data: &'a [u8]) -> Self {
        SliceReader {
            data,
            pos: 0,
            game: 0,
            tracker: Tracker::new(),
            scratch: Scratch::default(),
        }
    }

    /// Reads the next game into `visitor`; `None` at the end of the input.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> Option<V::Output> {
        let start = seek_game(self.data, self.pos, true).ok()??;
        // With the whole input at hand the scanner cannot run short.
        let span = scan_game(self.data, start, true, &mut NoTags).ok()?;
        self.game += 1;
        self.tracker.advance_to(self.data, 0, start as u64);
        let out = lex_game(
            self.data,
            0,
            &span,
            self.game,
            &mut self.tracker,
            &mut self.scratch,
            visitor,
        );
        self.pos = span.next;
        Some(out)
    }

    /// Reads only the tags of the next game (its movetext is neither read nor scanned to
    /// its end; the reader does not move on): the fast way to read the tags of a game whose
    /// start and the next game's start are known, the reader's input being what lies
    /// between (the boundary rules that end a game of tags alone are not applied, as
    /// the input ends where the next game starts). `None` when there is no game.
    pub fn read_tags<V: Visitor>(&mut self, visitor: &mut V) -> Option<V::Output> {
        let start = seek_game(self.data, self.pos, true).ok()??;
        self.tracker.advance_to(self.data, 0, start as u64);
        let (t, s) = (&mut self.tracker, &mut self.scratch);
        Some(lex_tags(self.data, start, t, s, visitor))
    }

    /// Like [`SliceReader::read_game`], and faster, for a visitor that treats
    /// [`Visitor::begin_game`] as a fresh start, such as [`super::GameBuilder`]: the reader
    /// may start a game over, after some of its callbacks (those before a problem, or before
    /// the end of the input). Every game still ends with exactly one `end_game`, and its
    /// output is the same as from [`SliceReader::read_game`].
    pub fn read_game_restarting<V: Visitor>(&mut self, visitor: &mut V) -> Option<V::Output> {
        let start = seek_game(self.data, self.pos, true).ok()??;
        self.tracker.advance_to(self.data, 0, start as u64);
        // One pass that finds the game's end while lexing it; most games need no more.
        let (t, s) = (&mut self.tracker, &mut self.scratch);
        match lex_game_free(self.data, 0, start, true, self.game + 1, t, s, visitor) {
            Some((next, out)) => {
                self.game += 1;
                self.pos = next;
                Some(out)
            }
            None => self.read_game(visitor),
        }
    }

    /// Number of games read so far (plus the first game's number minus one, for a reader
    /// made with [`Reader::starting_at`]).
    pub fn games_read(&self) -> u64 {
        self.game
    }
}

/// The largest game, in bytes, that [`Reader::new`] and the index hold (64 MiB); a larger
/// one is reported as [`ErrorKind::GameTooLarge`] and skipped.
pub const MAX_GAME: usize = DEFAULT_MAX_GAME;

/// The initial buffer of [`Reader::new`], in bytes (256 KiB).
pub const BUFFER: usize = DEFAULT_BUFFER;

/// Input the one-pass lexer wants buffered past a game's start, so that it rarely runs out
/// of input in a game and has to start over.
const LOOKAHEAD: usize = 64 * 1024;

/// Reads games from any `impl Read` through a bounded buffer.
pub struct Reader<R> {
    feed: Feed<R>,
    /// Where the game last read by [`Reader::read_game`] lies in the feed's buffer.
    last: std::ops::Range<usize>,
    game: u64,
    tracker: Tracker,
    scratch: Scratch,
}

impl<R: Read> Reader<R> {
    /// A reader with a 256 KiB initial buffer and a 64 MiB limit per game.
    pub fn new(src: R) -> Self {
        Self::with_limits(src, DEFAULT_BUFFER, DEFAULT_MAX_GAME)
    }

    /// A reader with an initial buffer of `buffer` bytes and games limited to `max_game`
    /// bytes (a larger game is reported as [`ErrorKind::GameTooLarge`] and skipped up to the
    /// next line starting with `[Event `, or with `[` after a blank line). The buffer
    /// doubles when one game does not fit, so it never exceeds about twice `max_game` (or
    /// `buffer`, if larger).
    pub fn with_limits(src: R, buffer: usize, max_game: usize) -> Self {
        Reader {
            feed: Feed::new(src, buffer, max_game),
            last: 0..0,
            game: 0,
            tracker: Tracker::new(),
            scratch: Scratch::default(),
        }
    }

    /// Makes a new reader start in the middle of an input, at `at`: a point where a game
    /// starts or that lies between games (as [`Reader::next_start`] gives), so that it reads
    /// the same games, with the same positions, as a reader that read the input from its
    /// start. `at` gives the absolute offset, the line and column there, and the number the
    /// next game gets (any line and game numbers will do: positions then count from them).
    ///
    /// The reader's source must give the input from `at.offset - 1` on (from 0 when
    /// `at.offset` is 0): that byte says whether `at` is first on its line, which matters
    /// for `%` lines. No byte-order mark is skipped past offset 0. Call it before reading.
    pub fn starting_at(mut self, at: Pos) -> Self {
        self.feed.start_at(at.offset);
        (self.tracker.at, self.tracker.line) = (at.offset, at.line);
        self.tracker.col = at.column;
        self.game = at.game.saturating_sub(1);
        self
    }

    /// Where the next game starts (its first byte, with the number it will get), without
    /// reading it; `Ok(None)` at the end of the input. The next `read_game` reads that game.
    pub fn next_start(&mut self) -> io::Result<Option<Pos>> {
        let Some(start) = self.feed.seek(LOOKAHEAD, Some(&mut self.tracker), None)? else {
            return Ok(None);
        };
        let (buf, base) = (self.feed.buf(), self.feed.base());
        self.tracker.advance_to(buf, base, base + start as u64);
        let t = &self.tracker;
        Ok(Some(Pos {
            offset: t.at,
            line: t.line,
            column: t.col,
            game: self.game + 1,
        }))
    }

    /// Reads the next game into `visitor`; `Ok(None)` at the end of the input. Only I/O
    /// errors are returned as `Err`; problems in the PGN go to [`Visitor::error`].
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        self.read_game_from(visitor, None)
    }

    /// [`Reader::read_game`], handing `escapes` each `%` escape line met before the game
    /// (before the end of the input, when there is no game left) that belongs to no game,
    /// as [`Visitor::escape`] gives those of a game: in practice the lines before the
    /// first game. A `%` line longer than the limit per game is skipped unseen. An error
    /// from `escapes` stops the read and is returned.
    pub fn read_game_escaping<V: Visitor>(
        &mut self,
        visitor: &mut V,
        escapes: &mut dyn FnMut(&str) -> io::Result<()>,
    ) -> io::Result<Option<V::Output>> {
        // What lies between games is blanks, byte-order marks and `%` lines, so a piece of
        // it that starts with `%` is one of those lines, whole (see `Feed::seek`).
        let mut lines = |between: &[u8]| {
            for line in between.split(|&b| b == b'\n') {
                // A `%` line may follow a byte-order mark (see `boundary::line_start`).
                let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
                if line.first() == Some(&b'%') {
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    escapes(&crate::text::decode(line))?;
                }
            }
            Ok(())
        };
        self.read_game_from(visitor, Some(&mut lines))
    }

    /// [`Reader::read_game`], handing `between` the bytes passed over before the game.
    fn read_game_from<V: Visitor>(
        &mut self,
        visitor: &mut V,
        between: Option<&mut Between<'_>>,
    ) -> io::Result<Option<V::Output>> {
        let next = self
            .feed
            .next(&mut NoTags, Some(&mut self.tracker), between)?;
        let (buf, base) = (self.feed.buf(), self.feed.base());
        self.last = 0..0;
        match next {
            Next::End => Ok(None),
            Next::Game(span) => {
                self.game += 1;
                self.last = span.start..span.end;
                self.tracker.advance_to(buf, base, base + span.start as u64);
                Ok(Some(lex_game(
                    buf,
                    base,
                    &span,
                    self.game,
                    &mut self.tracker,
                    &mut self.scratch,
                    visitor,
                )))
            }
            Next::TooLarge(start) => {
                self.game += 1;
                self.tracker.advance_to(buf, base, base + start as u64);
                let t = &self.tracker;
                let pos = Pos {
                    offset: t.at,
                    line: t.line,
                    column: t.col,
                    game: self.game,
                };
                visitor.begin_game(pos);
                visitor.error(ReadError {
                    pos,
                    token: short_token(&buf[start..buf.len().min(start + 96)]),
                    reason: ErrorKind::GameTooLarge {
                        limit: self.feed.max_game() as u64,
                    },
                });
                Ok(Some(visitor.end_game()))
            }
        }
    }

    /// Right after [`Reader::read_game`] gave a game too large to hold
    /// ([`ErrorKind::GameTooLarge`]): skips that game now, handing its bytes, as written,
    /// to `copy` a piece at a time (memory stays bounded). The game ends where the reader
    /// goes on: at the next line starting with `[Event `, or with `[` after a blank line.
    /// Does nothing after any other game. An error from `copy` stops the copy and is
    /// returned.
    pub fn copy_skipped(
        &mut self,
        copy: &mut dyn FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        self.feed
            .skip_oversized(Some(&mut self.tracker), Some(copy))
    }

    /// The game the last [`Reader::read_game`] read, as written, up to its last non-blank
    /// byte (empty for a game too large to hold, or after [`Reader::read_game_restarting`]).
    pub fn last_game_text(&self) -> &[u8] {
        self.feed.buf().get(self.last.clone()).unwrap_or_default()
    }

    /// Like [`Reader::read_game`], and faster, for a visitor that treats
    /// [`Visitor::begin_game`] as a fresh start; see [`SliceReader::read_game_restarting`].
    pub fn read_game_restarting<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> io::Result<Option<V::Output>> {
        let Some(start) = self.feed.seek(LOOKAHEAD, Some(&mut self.tracker), None)? else {
            return Ok(None);
        };
        let (buf, base, eof) = (self.feed.buf(), self.feed.base(), self.feed.eof());
        self.tracker.advance_to(buf, base, base + start as u64);
        let (t, s) = (&mut self.tracker, &mut self.scratch);
        match lex_game_free(buf, base, start, eof, self.game + 1, t, s, visitor) {
            Some((next, out)) => {
                self.game += 1;
                self.last = 0..0;
                self.feed.skip_to(next);
                Ok(Some(out))
            }
            // The scanner finds the end, then the game is lexed again.
            None => self.read_game(visitor),
        }
    }

    /// Number of games read so far (plus the first game's number minus one, for a reader
    /// made with [`Reader::starting_at`]).
    pub fn games_read(&self) -> u64 {
        self.game
    }
}
