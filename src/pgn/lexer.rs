//! Lexes one game, already delimited by the scanner, into [`Visitor`] callbacks.
//!
//! Works on bytes and never allocates per token: moves are slices of the input, comments
//! and tag values are borrowed when they are valid UTF-8 without escapes and otherwise
//! decoded into reused scratch buffers. Variations are tracked with a depth counter, not
//! recursion, so nesting depth costs nothing but the counter.
//!
//! Two modes share one loop (a const parameter, so each is compiled on its own):
//! [`lex_game`] lexes a game whose end the scanner has already found; [`lex_game_free`]
//! finds the end itself, sparing the separate scanning pass, and gives up (so that the caller
//! starts the game over the first way) on anything but a clean game ending in a result.

use super::boundary::{comment_end, main_line_plies, CommentEnd, Span};
use super::feed::Tracker;
use super::reader::{CommentKind, ErrorKind, Pos, ReadError, Skip, Visitor};
use super::scan::{
    classify_word, decode, decode_value, digits_end, glyph_nag, word_end, Core, CLASS, DOLLAR,
    LBRACE, LBRACKET, LPAREN, NL, RPAREN, SEMI, STRAY, WORD, WS,
};
use super::tag::{lex_tag, lex_tag_fast};

/// Buffers reused from game to game for text that cannot be borrowed from the input.
#[derive(Default)]
pub(crate) struct Scratch {
    text: String,
    bytes: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Tags,
    Movetext,
    After,
}

struct Lexer<'a, 't> {
    /// The input up to the end of the game.
    buf: &'a [u8],
    /// Absolute offset of `buf[0]`.
    base: u64,
    game: u64,
    tracker: &'t mut Tracker,
    /// A brace comment (which may hold line feeds) may lie between the tracker and the
    /// lexing position.
    comment_behind: bool,
    /// Whether `buf` ends at the end of the input (only looked at when finding the end).
    eof: bool,
}

impl Lexer<'_, '_> {
    #[inline]
    fn pos(&mut self, i: usize) -> Pos {
        self.tracker
            .advance_to(self.buf, self.base, self.base + i as u64);
        Pos {
            offset: self.base + i as u64,
            line: self.tracker.line,
            column: self.tracker.col,
            game: self.game,
        }
    }

    fn error(&mut self, reason: ErrorKind, i: usize, token_end: usize) -> ReadError {
        let pos = self.pos(i);
        self.error_at(pos, reason, i, token_end)
    }

    /// An error at `pos`, which is where byte `i` lies (already known: the tracker may
    /// have moved past it).
    fn error_at(&self, pos: Pos, reason: ErrorKind, i: usize, token_end: usize) -> ReadError {
        let end = token_end.clamp(i, self.buf.len()).min(i + 96);
        ReadError {
            pos,
            token: short_token(&self.buf[i.min(end)..end]),
            reason,
        }
    }

    /// Passes the line feed at `i`, so that the tracker's next gaps start at a line start
    /// and stay short (the fast case of [`Tracker::advance_to`]).
    #[inline]
    fn newline(&mut self, i: usize) {
        let at = self.base + i as u64;
        if self.tracker.at <= at {
            if self.comment_behind {
                self.tracker.advance_to(self.buf, self.base, at);
                self.comment_behind = false;
            }
            // Otherwise nothing between the tracker and `i` holds a line feed (only brace
            // comments span lines), and columns restart anyway.
            self.tracker.line += 1;
            self.tracker.col = 1;
            self.tracker.at = at + 1;
        }
    }

    /// Whether byte `i` is the first of its line (for `%` escape lines).
    #[inline]
    fn at_line_start(&self, i: usize) -> bool {
        if i == 0 {
            self.base == 0
        } else {
            self.buf[i - 1] == b'\n'
        }
    }

    /// The error to return: none when finding the end, where any problem means starting
    /// the game over with the scanner's help (which then reports it).
    #[inline]
    fn fail<const FREE: bool>(&mut self, reason: ErrorKind, i: usize, e: usize) -> Fail {
        if FREE {
            None
        } else {
            Some(self.error(reason, i, e))
        }
    }

    /// End of the line containing `i`: the offset of its line feed, or the end of the game.
    /// When finding the end, `Err(None)` (start over) if the line runs past what is
    /// buffered and the input goes on: a streaming buffer can end anywhere in a line, and
    /// what is lexed up to the line's end must not depend on where (a tag value with inner
    /// quotes ends at the line's last `"]`, a line comment at the line feed).
    #[inline]
    fn line_end<const FREE: bool>(&self, i: usize) -> Result<usize, Fail> {
        match memchr::memchr(b'\n', &self.buf[i..]) {
            Some(k) => Ok(i + k),
            None if FREE && !self.eof => Err(None),
            None => Ok(self.buf.len()),
        }
    }
}

/// Why lexing stopped early: a lexical error, or `None` when finding the end gave up.
type Fail = Option<ReadError>;

/// Lexes the game `span` of `buf` (whose first byte is at absolute offset `base`) into
/// `v`, which gets every callback up to and including `end_game`.
pub(crate) fn lex_game<V: Visitor>(
    buf: &[u8],
    base: u64,
    span: &Span,
    game: u64,
    tracker: &mut Tracker,
    scratch: &mut Scratch,
    v: &mut V,
) -> V::Output {
    let mut lx = Lexer {
        buf: &buf[..span.end.min(buf.len())],
        base,
        game,
        tracker,
        comment_behind: false,
        eof: true,
    };
    match run::<false, V>(&mut lx, span.start, scratch, v) {
        Err(Some(e)) => v.error(e),
        Err(None) => {
            // Only the visitor skipping the movetext stops the span-bounded loop this way.
            let _ = skip_movetext(&mut lx, span, v);
        }
        Ok(_) => {}
    }
    v.main_line_written(span.plies);
    v.end_game()
}

/// Lexes the tag pairs of the game starting at `start`, then ends the game without
/// reading its movetext or looking for its end (the visitor's `begin_movetext` is told to
/// skip, whatever it answers): for reading a game's tags where the index already knows
/// where games start. A problem in the tags goes to the visitor's `error`.
pub(crate) fn lex_tags<V: Visitor>(
    buf: &[u8],
    start: usize,
    tracker: &mut Tracker,
    scratch: &mut Scratch,
    v: &mut V,
) -> V::Output {
    /// Passes everything on, and skips the movetext.
    struct TagsOnly<'v, V>(&'v mut V);
    impl<V: Visitor> Visitor for TagsOnly<'_, V> {
        type Output = ();
        fn begin_game(&mut self, at: Pos) {
            self.0.begin_game(at);
        }
        fn tag_place(&mut self, name: &[u8], value: std::ops::Range<u64>) {
            self.0.tag_place(name, value);
        }
        fn wants_tag(&mut self, name: &[u8]) -> bool {
            self.0.wants_tag(name)
        }
        fn tag(&mut self, name: &[u8], value: &str, at: Pos) {
            self.0.tag(name, value, at);
        }
        fn begin_movetext(&mut self) -> Skip {
            Skip(true)
        }
        fn error(&mut self, err: ReadError) {
            self.0.error(err);
        }
        fn end_game(&mut self) {}
    }
    let mut lx = Lexer {
        buf,
        base: 0,
        game: 1,
        tracker,
        comment_behind: false,
        eof: true,
    };
    if let Err(Some(e)) = run::<false, _>(&mut lx, start, scratch, &mut TagsOnly(v)) {
        v.error(e);
    }
    v.end_game()
}

/// Lexes the game starting at `start` in one pass, finding where it ends as the scanner
/// would (the rules in the `pgn` module documentation). `buf` holds the input from absolute
/// offset `base` up to what has been read; `eof` says whether that is the end of the input.
///
/// Succeeds only for a game without lexical errors whose movetext ends in a result and is
/// followed by the next game (or the end of the input) within `buf`, nor skipped by the
/// visitor, and whose lines it had to read to their end (a `%` line, a line comment, a tag
/// pair it could not read the quick way) all end within `buf`: then returns where the next
/// game starts, `end_game` having been called. Otherwise returns `None` with the tracker as
/// it was, after some callbacks for the game: the caller must read the game again with
/// [`lex_game`], which starts with `begin_game`, so `v` must treat `begin_game` as a fresh
/// start.
#[allow(clippy::too_many_arguments)]
pub(crate) fn lex_game_free<V: Visitor>(
    buf: &[u8],
    base: u64,
    start: usize,
    eof: bool,
    game: u64,
    tracker: &mut Tracker,
    scratch: &mut Scratch,
    v: &mut V,
) -> Option<(usize, V::Output)> {
    let saved = tracker.clone();
    let mut lx = Lexer {
        buf,
        base,
        game,
        tracker,
        comment_behind: false,
        eof,
    };
    match run::<true, V>(&mut lx, start, scratch, v) {
        Ok(next) => Some((next, v.end_game())),
        Err(_) => {
            *lx.tracker = saved;
            None
        }
    }
}

/// Hands the visitor the `%` line starting at `i`; returns where it ends. Out of the
/// lexing loop, where it would cost every game, as few have such a line.
#[cold]
#[inline(never)]
fn escape_line<const FREE: bool, V: Visitor>(
    lx: &mut Lexer<'_, '_>,
    i: usize,
    scratch: &mut Scratch,
    v: &mut V,
) -> Result<usize, Fail> {
    let e = lx.line_end::<FREE>(i)?;
    let at = lx.pos(i);
    let line = &lx.buf[i..e];
    v.escape(
        decode(line.strip_suffix(b"\r").unwrap_or(line), &mut scratch.text),
        at,
    );
    Ok(e)
}

/// The lexing loop. With `FREE` it also finds the end of the game and returns where the
/// next one starts (see [`lex_game_free`]); without, `lx.buf` ends where the game ends.
/// `Err(None)`: the visitor skipped the movetext, or (with `FREE`) finding the end gave up.
fn run<const FREE: bool, V: Visitor>(
    lx: &mut Lexer<'_, '_>,
    start: usize,
    scratch: &mut Scratch,
    v: &mut V,
) -> Result<usize, Fail> {
    let buf = lx.buf;
    let end = buf.len();
    let at = lx.pos(start);
    v.begin_game(at);
    let mut phase = Phase::Tags;
    let mut depth: u32 = 0;
    // Depth of the variation the visitor asked to skip; callbacks are muted inside it.
    let mut skip_from: Option<u32> = None;
    // Whether an `[Event` tag has been seen (with `FREE`: a second one starts a new game).
    let mut seen_event = false;
    // Where the outermost open variation opened, to report it there if it is never closed.
    let mut opened = (Pos::default(), 0);
    let mut i = start;
    while i < end {
        let b = buf[i];
        let class = CLASS[b as usize];
        match class {
            WS => {
                i += 1;
                continue;
            }
            NL => {
                if FREE && phase == Phase::Movetext {
                    // A `[` first on a line (after blanks) starts the next game.
                    let mut j = i + 1;
                    while j < end && CLASS[buf[j] as usize] == WS {
                        j += 1;
                    }
                    if j == end || buf[j] == b'[' {
                        // No result before the next game, or not enough input to tell.
                        return Err(None);
                    }
                }
                lx.newline(i);
                i += 1;
                continue;
            }
            _ if b == b'%' && lx.at_line_start(i) => {
                i = escape_line::<FREE, V>(lx, i, scratch, v)?;
                continue;
            }
            LBRACE => {
                let close = if FREE {
                    // Finding the end: a comment left open ends the game at the next game
                    // (a blank line, then a tag pair line), which the scanner handles.
                    match comment_end(buf, i, lx.eof) {
                        Some(CommentEnd::Closed(e)) => Some(e - i - 2),
                        _ => return Err(None),
                    }
                } else {
                    // The scanner ended the game before the next game, so a `}` within it
                    // is the one the scanner found.
                    memchr::memchr(b'}', &buf[i + 1..])
                };
                let Some(k) = close else {
                    return Err(lx.fail::<FREE>(ErrorKind::UnterminatedComment, i, end));
                };
                if skip_from.is_none() {
                    let at = lx.pos(i);
                    v.comment(
                        decode(&buf[i + 1..i + 1 + k], &mut scratch.text),
                        CommentKind::Brace,
                        at,
                    );
                }
                lx.comment_behind = true;
                i += k + 2;
                continue;
            }
            SEMI => {
                let e = lx.line_end::<FREE>(i)?;
                if skip_from.is_none() {
                    let text = buf[i + 1..e].strip_suffix(b"\r").unwrap_or(&buf[i + 1..e]);
                    if FREE && text.last().is_some_and(|&b| CLASS[b as usize] == WS) {
                        // On the game's last line, the blanks ending the game are not part
                        // of the comment: only the game's end tells, so leave it to the scanner.
                        return Err(None);
                    }
                    let at = lx.pos(i);
                    v.comment(decode(text, &mut scratch.text), CommentKind::Line, at);
                }
                i = e;
                continue;
            }
            LBRACKET if phase == Phase::Tags => {
                let rest = &buf[i..];
                let lexed = match lex_tag_fast(rest) {
                    Some(t) => t,
                    None => {
                        let e = lx.line_end::<FREE>(i)?;
                        match lex_tag(&buf[i..e]) {
                            Ok(t) => t,
                            Err(_) => return Err(lx.fail::<FREE>(ErrorKind::BadTag, i, e)),
                        }
                    }
                };
                if FREE && &rest[lexed.name.clone()] == b"Event" {
                    if seen_event {
                        // A tags-only game: left to the scanner.
                        return Err(None);
                    }
                    seen_event = true;
                }
                let name = &rest[lexed.name.clone()];
                let at = lx.base + i as u64;
                v.tag_place(
                    name,
                    at + lexed.value.start as u64..at + lexed.value.end as u64,
                );
                if v.wants_tag(name) {
                    let at = lx.pos(i);
                    let raw = &rest[lexed.value.clone()];
                    let value = decode_value(raw, &mut scratch.bytes, &mut scratch.text);
                    v.tag(name, value, at);
                }
                i += lexed.end;
                continue;
            }
            _ => {}
        }
        match phase {
            Phase::Tags => {
                phase = Phase::Movetext;
                if v.begin_movetext().0 {
                    return Err(None);
                }
                if v.wants_plies_ahead() {
                    // With `FREE`, a game running past what is buffered is read again
                    // (with the scanner's help), as when finding its end gives up.
                    match main_line_plies(buf, i, lx.eof) {
                        Some(plies) => v.plies_ahead(plies),
                        None => return Err(None),
                    }
                }
            }
            Phase::Movetext => {}
            // Anything but blanks and comments after the result starts the next game.
            Phase::After if FREE => return Ok(i),
            Phase::After => {
                let e = word_end(buf, i + 1);
                return Err(lx.fail::<FREE>(ErrorKind::AfterResult, i, e));
            }
        }
        match class {
            LPAREN => {
                depth += 1;
                if skip_from.is_none() {
                    let at = lx.pos(i);
                    if depth == 1 {
                        opened = (at, i);
                    }
                    if v.begin_variation(at).0 {
                        skip_from = Some(depth);
                    }
                }
                i += 1;
            }
            RPAREN => {
                if depth == 0 {
                    return Err(lx.fail::<FREE>(ErrorKind::UnmatchedParen, i, i + 1));
                }
                if skip_from == Some(depth) {
                    skip_from = None;
                } else if skip_from.is_none() {
                    let at = lx.pos(i);
                    v.end_variation(at);
                }
                depth -= 1;
                i += 1;
            }
            DOLLAR => {
                let e = digits_end(buf, i + 1);
                let digits = &buf[i + 1..e];
                let n = digits.iter().try_fold(0u32, |n, &d| {
                    let n = n * 10 + u32::from(d - b'0');
                    (n <= 255).then_some(n)
                });
                match n {
                    Some(n) if !digits.is_empty() => {
                        if skip_from.is_none() {
                            let at = lx.pos(i);
                            v.nag(n as u8, at);
                        }
                    }
                    _ => {
                        let e = word_end(buf, i + 1);
                        return Err(lx.fail::<FREE>(ErrorKind::BadNag, i, e));
                    }
                }
                i = e;
            }
            WORD => {
                let e = word_end(buf, i);
                let w = classify_word(&buf[i..e]);
                let muted = skip_from.is_some();
                match w.core {
                    Core::San(san) if !muted => {
                        let at = lx.pos(i + w.core_at);
                        v.san(san, at);
                    }
                    Core::Symbol(n) if !muted => {
                        let at = lx.pos(i + w.core_at);
                        v.nag(n, at);
                    }
                    // A result inside a variation says nothing about the game: ignored.
                    Core::Result(r) if depth == 0 => {
                        let at = lx.pos(i);
                        v.outcome(Some(r.as_str()), at);
                        phase = Phase::After;
                    }
                    _ => {}
                }
                if !w.glyphs.is_empty() {
                    let Some(n) = glyph_nag(w.glyphs) else {
                        return Err(lx.fail::<FREE>(ErrorKind::UnknownGlyph, i + w.glyphs_at, e));
                    };
                    if !muted {
                        let at = lx.pos(i + w.glyphs_at);
                        v.nag(n, at);
                    }
                }
                i = e;
            }
            LBRACKET | STRAY if b != b'}' => {
                return Err(lx.fail::<FREE>(ErrorKind::StrayBracket, i, i + 1))
            }
            _ => return Err(lx.fail::<FREE>(ErrorKind::StrayBrace, i, i + 1)),
        }
    }
    if FREE {
        // The input ran out: the game ends here only at the end of the input, and after its
        // result (a game without one needs its end position, which the scanner gives).
        return if lx.eof && phase == Phase::After {
            Ok(end)
        } else {
            Err(None)
        };
    }
    if phase == Phase::Tags {
        // No movetext at all: still announce it, so every game gets exactly one call.
        let _ = v.begin_movetext();
    }
    if depth > 0 {
        // Reported where it opened: that is where a `)` is missing, not at the game's end.
        let (at, i) = opened;
        let e = word_end(buf, i + 1);
        return Err(Some(lx.error_at(at, ErrorKind::UnclosedVariation, i, e)));
    }
    if phase != Phase::After {
        let at = lx.pos(end);
        v.outcome(None, at);
    }
    Ok(end)
}

/// The visitor skipped the movetext: report the outcome the scanner found, nothing else.
fn skip_movetext<V: Visitor>(
    lx: &mut Lexer<'_, '_>,
    span: &Span,
    v: &mut V,
) -> Result<(), ReadError> {
    match span.result {
        Some((at, r)) => {
            let at = lx.pos(at);
            v.outcome(Some(r.as_str()), at);
        }
        None => {
            let at = lx.pos(lx.buf.len());
            v.outcome(None, at);
        }
    }
    Ok(())
}

/// The start of a token for a message: its first line only (a message stays on one line),
/// at most 24 characters.
pub(crate) fn short_token(bytes: &[u8]) -> String {
    let line = memchr::memchr(b'\n', bytes).map_or(bytes, |k| &bytes[..k]);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    crate::text::decode(line).chars().take(24).collect()
}
