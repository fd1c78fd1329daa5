//! Lexes one game, already delimited by the scanner, into [`Visitor`] callbacks.
//!
//! Works on bytes and never allocates per token: moves are slices of the input, comments
//! and tag values are borrowed when they are valid UTF-8 without escapes and otherwise
//! decoded into reused scratch buffers. Variations are tracked with a depth counter, not
//! recursion, so nesting depth costs nothing but the counter.

use super::boundary::Span;
use super::feed::Tracker;
use super::reader::{CommentKind, ErrorKind, Pos, ReadError, Visitor};
use super::scan::{
    classify_word, decode, decode_value, digits_end, glyph_nag, lex_tag, lex_tag_fast, word_end,
    Core, CLASS, DOLLAR, LBRACE, LBRACKET, LPAREN, NL, RPAREN, SEMI, STRAY, WORD, WS,
};

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
        let end = token_end.clamp(i, self.buf.len()).min(i + 96);
        let token = String::from_utf8_lossy(&self.buf[i.min(end)..end])
            .chars()
            .take(24)
            .collect();
        ReadError {
            pos: self.pos(i),
            token,
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

    /// End of the line containing `i` (the offset of its line feed, or the end of the game).
    #[inline]
    fn line_end(&self, i: usize) -> usize {
        memchr::memchr(b'\n', &self.buf[i..]).map_or(self.buf.len(), |k| i + k)
    }
}

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
    };
    if let Err(e) = run(&mut lx, span, scratch, v) {
        v.error(e);
    }
    v.end_game()
}

fn run<V: Visitor>(
    lx: &mut Lexer<'_, '_>,
    span: &Span,
    scratch: &mut Scratch,
    v: &mut V,
) -> Result<(), ReadError> {
    let buf = lx.buf;
    let end = buf.len();
    let at = lx.pos(span.start);
    v.begin_game(at);
    let mut phase = Phase::Tags;
    let mut depth: u32 = 0;
    // Depth of the variation the visitor asked to skip; callbacks are muted inside it.
    let mut skip_from: Option<u32> = None;
    let mut i = span.start;
    while i < end {
        let b = buf[i];
        let class = CLASS[b as usize];
        match class {
            WS => {
                i += 1;
                continue;
            }
            NL => {
                lx.newline(i);
                i += 1;
                continue;
            }
            _ if b == b'%' && lx.at_line_start(i) => {
                i = lx.line_end(i);
                continue;
            }
            LBRACE => {
                let Some(k) = memchr::memchr(b'}', &buf[i + 1..]) else {
                    return Err(lx.error(ErrorKind::UnterminatedComment, i, end));
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
                let e = lx.line_end(i);
                if skip_from.is_none() {
                    let text = buf[i + 1..e].strip_suffix(b"\r").unwrap_or(&buf[i + 1..e]);
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
                    None => match lex_tag(&buf[i..lx.line_end(i)]) {
                        Ok(t) => t,
                        Err(_) => {
                            let e = lx.line_end(i);
                            return Err(lx.error(ErrorKind::BadTag, i, e));
                        }
                    },
                };
                let at = lx.pos(i);
                let raw = &rest[lexed.value.clone()];
                let value = decode_value(raw, &mut scratch.bytes, &mut scratch.text);
                v.tag(&rest[lexed.name.clone()], value, at);
                i += lexed.end;
                continue;
            }
            _ => {}
        }
        match phase {
            Phase::Tags => {
                phase = Phase::Movetext;
                if v.begin_movetext().0 {
                    return skip_movetext(lx, span, v);
                }
            }
            Phase::Movetext => {}
            Phase::After => return Err(lx.error(ErrorKind::AfterResult, i, word_end(buf, i + 1))),
        }
        match class {
            LPAREN => {
                depth += 1;
                if skip_from.is_none() {
                    let at = lx.pos(i);
                    if v.begin_variation(at).0 {
                        skip_from = Some(depth);
                    }
                }
                i += 1;
            }
            RPAREN => {
                if depth == 0 {
                    return Err(lx.error(ErrorKind::UnmatchedParen, i, i + 1));
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
                    _ => return Err(lx.error(ErrorKind::BadNag, i, word_end(buf, i + 1))),
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
                        return Err(lx.error(ErrorKind::UnknownGlyph, i + w.glyphs_at, e));
                    };
                    if !muted {
                        let at = lx.pos(i + w.glyphs_at);
                        v.nag(n, at);
                    }
                }
                i = e;
            }
            LBRACKET | STRAY if b != b'}' => {
                return Err(lx.error(ErrorKind::StrayBracket, i, i + 1))
            }
            _ => return Err(lx.error(ErrorKind::StrayBrace, i, i + 1)),
        }
    }
    if phase == Phase::Tags {
        // No movetext at all: still announce it, so every game gets exactly one call.
        let _ = v.begin_movetext();
    }
    if depth > 0 {
        return Err(lx.error(ErrorKind::UnclosedVariation, end, end));
    }
    if phase != Phase::After {
        let at = lx.pos(end);
        v.outcome(None, at);
    }
    Ok(())
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
