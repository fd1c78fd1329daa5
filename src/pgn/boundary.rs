//! The game-boundary scanner shared by the reader and the index: finds where each game
//! starts and ends, counts its main-line moves and finds its result, at memchr speed where
//! it can (comments, lines) and with one table lookup per byte elsewhere.
//!
//! The reader and the index must agree on where games start and end, so both use
//! [`scan_game`], which implements the rules listed in the `pgn` module documentation.

use std::ops::Range;

use super::run::{plain_run, prefetch};
use super::scan::{
    classify_word, digits_end, word_end, Core, Outcome, CLASS, LBRACE, LPAREN, NL, RPAREN, SEMI,
    WORD, WS,
};
use super::tag::{lex_tag, lex_tag_fast};
use crate::notation::is_mark_word;

/// Receives the tags the scanner sees.
pub(crate) trait TagSink {
    /// One tag pair; `value` is the range of the raw value (still escaped, undecoded) in the
    /// scanned buffer.
    fn tag(&mut self, name: &[u8], value: Range<usize>);

    /// Forget the tags seen so far: the game is about to be scanned again.
    fn reset(&mut self) {}
}

/// A sink that ignores tags, for the reader (which lexes tags again with positions).
pub(crate) struct NoTags;

impl TagSink for NoTags {
    #[inline]
    fn tag(&mut self, _: &[u8], _: Range<usize>) {}
}

/// One game found by [`scan_game`]; offsets are into the scanned buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Span {
    /// First byte of the game.
    pub start: usize,
    /// Just past the last non-blank byte of the game.
    pub end: usize,
    /// Where the next game (or the end of input) starts.
    pub next: usize,
    /// Moves in the main line: words with a SAN part outside variations, except marks
    /// written as words of their own (`e.p.`, `ch`).
    pub plies: u32,
    /// The result token ending the movetext, with its offset.
    pub result: Option<(usize, Outcome)>,
}

/// The scanner needs bytes past the end of the buffer; scanning may resume at the offset
/// given (everything before it was blank or already dealt with).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NeedMore(pub usize);

/// Whether byte `i` is first on its line; offset 0 counts as a line start because buffers
/// start at the input's start or one byte before the resume point (see `Feed::refill`).
/// So does the byte after a byte-order mark that starts a line (a file's first line,
/// written by a Windows tool, may be a `%` line); a resume point is never inside a mark
/// (see `seek_game`), so a buffer starting with one starts at the input's start.
#[inline]
fn line_start(buf: &[u8], i: usize) -> bool {
    i == 0 || buf[i - 1] == b'\n' || after_mark(buf, i)
}

/// Whether byte `i` follows a byte-order mark that starts a line.
#[inline]
fn after_mark(buf: &[u8], i: usize) -> bool {
    i >= BOM.len()
        && buf[i - BOM.len()..i] == *BOM
        && (i == BOM.len() || buf[i - BOM.len() - 1] == b'\n')
}

/// Offset of the line feed ending the line at `i` (`len` at end of input).
#[inline]
fn to_line_end(buf: &[u8], i: usize, eof: bool) -> Option<usize> {
    match memchr::memchr(b'\n', &buf[i..]) {
        Some(k) => Some(i + k),
        None if eof => Some(buf.len()),
        None => None,
    }
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Skips blanks, byte-order marks and `%` lines from `i`; returns where the next game starts,
/// `Ok(None)` when the buffer ends first (at end of input: no more games).
pub(crate) fn seek_game(buf: &[u8], mut i: usize, eof: bool) -> Result<Option<usize>, NeedMore> {
    let from = i;
    while i < buf.len() {
        match CLASS[buf[i] as usize] {
            WS | NL => i += 1,
            // A byte-order mark between games (files with one each, concatenated) is blank.
            _ if buf[i] == BOM[0] && (buf.len() - i < BOM.len() || buf[i..].starts_with(BOM)) => {
                if buf[i..].starts_with(BOM) {
                    // A mark that ends the buffer is read again with what follows it, since
                    // a `%` right after it starts an escape line (see `line_start`).
                    if i + BOM.len() == buf.len() && !eof {
                        return Err(NeedMore(i));
                    }
                    i += BOM.len();
                } else if eof {
                    return Ok(Some(i));
                } else {
                    return Err(NeedMore(i));
                }
            }
            _ if buf[i] == b'%' && line_start(buf, i) => match to_line_end(buf, i, eof) {
                Some(e) => i = e,
                // After a mark, more is read from the mark on, so that the `%` still
                // follows it in the next buffer (see `line_start`).
                None if after_mark(buf, i) && i - BOM.len() >= from => {
                    return Err(NeedMore(i - BOM.len()))
                }
                None => return Err(NeedMore(i)),
            },
            _ => return Ok(Some(i)),
        }
    }
    if eof {
        Ok(None)
    } else {
        Err(NeedMore(i))
    }
}

/// How the movetext loop stopped.
enum Stop {
    /// The next game starts here (or the input ends here).
    Next(usize),
    /// A result token at depth 0 starts here and ends at the second offset.
    Result(usize, usize, Outcome),
}

/// Finds the end of the game starting at `start` (a non-blank byte, as [`seek_game`] returns)
/// following the rules in the module documentation, counting main-line moves and passing
/// tags to `sink`. With `eof` false, running out of bytes gives [`NeedMore`] (and the sink
/// may have seen some tags already).
pub(crate) fn scan_game<S: TagSink>(
    buf: &[u8],
    start: usize,
    eof: bool,
    sink: &mut S,
) -> Result<Span, NeedMore> {
    let more = NeedMore(start);
    let mut plies = 0;
    let mut result = None;
    let mut i = tag_section(buf, start, eof, sink).ok_or(more)?;
    let mut next = i;
    // `tag_section` stops at a `[` only for a second `[Event`: the next game.
    if i < buf.len() && buf[i] != b'[' {
        match movetext(buf, i, eof, &mut plies).ok_or(more)? {
            Stop::Next(n) => next = n,
            Stop::Result(at, e, r) => {
                result = Some((at, r));
                i = e;
                next = after_result(buf, i, eof).ok_or(more)?;
            }
        }
    }
    let mut end = next;
    while end > start && matches!(CLASS[buf[end - 1] as usize], WS | NL) {
        end -= 1;
    }
    Ok(Span {
        start,
        end,
        next,
        plies,
        result,
    })
}

/// Skips the tag section (tags, blanks, comments, `%` lines); returns the offset of the
/// first movetext byte, of a second `[Event` tag, or the end of input. `None`: need more.
pub(crate) fn tag_section<S: TagSink>(
    buf: &[u8],
    mut i: usize,
    eof: bool,
    sink: &mut S,
) -> Option<usize> {
    let len = buf.len();
    let mut seen_event = false;
    loop {
        if i >= len {
            return eof.then_some(len);
        }
        let b = buf[i];
        // Tags first: they are most of what a tag section holds.
        if b == b'[' {
            prefetch(buf, i);
            let lexed = match lex_tag_fast(&buf[i..]) {
                Some(t) => Ok(t),
                None => lex_tag(&buf[i..to_line_end(buf, i, eof)?]),
            };
            match lexed {
                Ok(t) => {
                    let name = &buf[i + t.name.start..i + t.name.end];
                    if name == b"Event" {
                        if seen_event {
                            return Some(i);
                        }
                        seen_event = true;
                    }
                    sink.tag(name, i + t.value.start..i + t.value.end);
                    i += t.end;
                    // The line feed after a tag, the usual case, without a turn of the loop.
                    if buf.get(i) == Some(&b'\n') {
                        i += 1;
                    }
                }
                // The reader reports the bad tag; the rest of its line is skipped.
                Err(_) => i = to_line_end(buf, i, eof)?,
            }
            continue;
        }
        match CLASS[b as usize] {
            WS | NL => i += 1,
            LBRACE => match comment_end(buf, i, eof)? {
                CommentEnd::Closed(e) => i = e,
                // The next game's `[` (which `scan_game` takes as the next game), or `len`.
                CommentEnd::Open(next) => return Some(next),
            },
            SEMI => i = to_line_end(buf, i, eof)?,
            _ if b == b'%' && line_start(buf, i) => i = to_line_end(buf, i, eof)?,
            _ => return Some(i),
        }
    }
}

/// The main-line moves of the movetext starting at `i`, counted to the game's end as
/// [`scan_game`] counts them. `None`: need more input.
pub(crate) fn main_line_plies(buf: &[u8], i: usize, eof: bool) -> Option<u32> {
    let mut plies = 0;
    movetext(buf, i, eof, &mut plies)?;
    Some(plies)
}

/// Scans movetext from `i` until the next game or a result token outside variations,
/// counting main-line moves into `plies`. `None`: need more input.
#[inline]
fn movetext(buf: &[u8], mut i: usize, eof: bool, plies: &mut u32) -> Option<Stop> {
    let len = buf.len();
    let mut depth: u32 = 0;
    // Where the next attempt at the fast path (`plain_run`) may start.
    let mut retry_at = 0;
    loop {
        if i >= len {
            return eof.then_some(Stop::Next(len));
        }
        let b = buf[i];
        match CLASS[b as usize] {
            WORD => {
                let e = word_end(buf, i + 1);
                if e == len && !eof {
                    return None;
                }
                let word = &buf[i..e];
                if depth == 0 && b.is_ascii_alphabetic() && has_digit_or_dash(word) {
                    *plies += 1;
                } else if depth == 0 {
                    match classify_word(word).core {
                        // A mark written as a word of its own (`e.p.`, `ch`) is no move.
                        Core::San(san) if has_digit_or_dash(san) || !is_mark_word(san) => {
                            *plies += 1
                        }
                        Core::Result(r) => return Some(Stop::Result(i, e, r)),
                        Core::San(_) | Core::Empty | Core::Symbol(_) => {}
                    }
                }
                i = e;
            }
            WS => {
                if depth == 0 && i >= retry_at {
                    let (j, n, retry) = plain_run(buf, i);
                    *plies += n;
                    retry_at = retry;
                    if j > i {
                        i = j;
                        continue;
                    }
                }
                i += 1;
            }
            NL => {
                i += 1;
                if i < len && buf[i] == b'%' {
                    i = to_line_end(buf, i, eof)?;
                    continue;
                }
                while i < len && CLASS[buf[i] as usize] == WS {
                    i += 1;
                }
                if i < len && buf[i] == b'[' {
                    return Some(Stop::Next(i));
                }
            }
            LBRACE => match comment_end(buf, i, eof)? {
                CommentEnd::Closed(e) => i = e,
                CommentEnd::Open(next) => return Some(Stop::Next(next)),
            },
            SEMI => i = to_line_end(buf, i, eof)?,
            LPAREN => {
                depth += 1;
                i += 1;
            }
            RPAREN => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            // `$n`; a stray `]`, `}` or a `[` inside a line is the reader's to report.
            _ => i = digits_end(buf, i + 1),
        }
    }
}

/// Whether `word` holds a digit or a dash: a word starting with a letter is then a move (if
/// anything), never a mark written as a word of its own (`e.p.`, `ch`, `mate`).
#[inline]
fn has_digit_or_dash(word: &[u8]) -> bool {
    word.iter().any(|&c| c.is_ascii_digit() || c == b'-')
}

/// Skips what may follow a result in the same game (blanks, comments, `%` lines); returns
/// where the next game starts. `None`: need more input.
fn after_result(buf: &[u8], mut i: usize, eof: bool) -> Option<usize> {
    let len = buf.len();
    loop {
        if i >= len {
            return eof.then_some(len);
        }
        let b = buf[i];
        match CLASS[b as usize] {
            WS | NL => i += 1,
            LBRACE => match comment_end(buf, i, eof)? {
                CommentEnd::Closed(e) => i = e,
                CommentEnd::Open(next) => return Some(next),
            },
            SEMI => i = to_line_end(buf, i, eof)?,
            _ if b == b'%' && line_start(buf, i) => i = to_line_end(buf, i, eof)?,
            _ => return Some(i),
        }
    }
}

/// How a `{` comment ends (see [`comment_end`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CommentEnd {
    /// Closed by a `}`; the offset just past it.
    Closed(usize),
    /// Not closed: the offset where the next game starts (a tag pair line after a blank
    /// line), or the end of the input.
    Open(usize),
}

/// Where the `{` comment opening at `open` ends: at the first `}`, unless a blank line
/// followed by a tag pair line comes first (`%` lines may lie between them). That is the
/// signal other readers resynchronise on: an unclosed `{` then ends its game there instead
/// of swallowing the games after it. `None`: need more input.
///
/// Costs nothing more than a search for `}` on comments that hold no line feed, which is
/// most of them; each line feed in a comment is looked at once.
#[inline]
pub(crate) fn comment_end(buf: &[u8], open: usize, eof: bool) -> Option<CommentEnd> {
    let len = buf.len();
    let mut from = open + 1;
    loop {
        match memchr::memchr2(b'}', b'\n', &buf[from.min(len)..]) {
            Some(k) if buf[from + k] == b'}' => return Some(CommentEnd::Closed(from + k + 1)),
            Some(k) => match game_after_blank_line(buf, from + k, eof)? {
                Ok(next) => return Some(CommentEnd::Open(next)),
                Err(resume) => from = resume,
            },
            None => return eof.then_some(CommentEnd::Open(len)),
        }
    }
}

/// Looks past the line feed at `nl` for a blank line, then (after more blank lines and `%`
/// lines) a line starting with a well-formed tag pair: `Ok` with that line's `[`, or
/// `Err` with where to go on looking for the comment's end. `None`: need more input.
///
/// A `}` on a `%` line in between still closes the comment (inside a comment, a `%` line
/// is comment text): then the search goes on from that line.
#[inline(never)]
fn game_after_blank_line(buf: &[u8], nl: usize, eof: bool) -> Option<Result<usize, usize>> {
    let len = buf.len();
    let blanks = |mut i: usize| {
        while i < len && CLASS[buf[i] as usize] == WS {
            i += 1;
        }
        i
    };
    let mut i = blanks(nl + 1);
    if i == len {
        return if eof { Some(Err(i)) } else { None };
    }
    if buf[i] != b'\n' {
        return Some(Err(i));
    }
    // The first `%` line met, if any.
    let mut escapes = None;
    // Where to go on when no game starts here: past the blank lines and `%` lines (whose
    // line feeds would only lead here again), unless a `}` lies in those.
    let resume = |j: usize, escapes: Option<usize>| match escapes {
        Some(from) if memchr::memchr(b'}', &buf[from..j]).is_some() => from,
        _ => j,
    };
    loop {
        // At a line feed ending a blank line or a `%` line: look at the next line.
        let j = blanks(i + 1);
        if j == len {
            return if eof {
                Some(Err(resume(j, escapes)))
            } else {
                None
            };
        }
        match buf[j] {
            b'\n' => i = j,
            b'%' if j == i + 1 => {
                escapes.get_or_insert(j);
                i = to_line_end(buf, j, eof)?;
                if i == len {
                    return Some(Err(resume(i, escapes)));
                }
            }
            b'[' => {
                let e = to_line_end(buf, j, eof)?;
                let r = resume(j, escapes);
                return Some(if r == j && lex_tag(&buf[j..e]).is_ok() {
                    Ok(j)
                } else {
                    Err(r)
                });
            }
            _ => return Some(Err(resume(j, escapes))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a comment ends, with the input complete or not: a game start needs its whole
    /// tag line to be told apart, and a `}` first (even on a `%` line) closes the comment.
    #[test]
    fn comments_end_at_a_brace_or_before_the_next_game() {
        use CommentEnd::{Closed, Open};
        let cases: [(&str, bool, Option<CommentEnd>); 10] = [
            ("{ a } b", false, Some(Closed(5))),
            ("{ a\n\n b }", false, Some(Closed(9))),
            ("{ a\n\n[Event \"x\"]\n}", false, Some(Open(5))),
            ("{ a\n \r\n\n% x\n[Event \"x\"]\n", true, Some(Open(12))),
            ("{ a\n\n% x }\n[Event \"x\"]\n", true, Some(Closed(10))),
            ("{ a\n[Event \"x\"]\n}", true, Some(Closed(17))),
            ("{ a\n\n[not a tag\n}", true, Some(Closed(17))),
            ("{ a\n\n[Event \"x", false, None),
            ("{ a\n\n[Event \"x", true, Some(Open(14))),
            ("{ a\n\n", false, None),
        ];
        for (text, eof, want) in cases {
            assert_eq!(comment_end(text.as_bytes(), 0, eof), want, "{text:?} {eof}");
        }
    }

    /// The fast path must count exactly what classifying each word counts, and stop where
    /// the byte loop does: at a `[` first on a line, after skipping `%` lines.
    #[test]
    fn boundaries() {
        let starts = |text: &str| {
            let (buf, mut pos, mut out) = (text.as_bytes(), 0, Vec::new());
            while let Ok(Some(start)) = seek_game(buf, pos, true) {
                let span = scan_game(buf, start, true, &mut NoTags).expect("eof");
                out.push((span.start, span.end, span.plies));
                pos = span.next;
            }
            out
        };
        assert_eq!(
            starts("[A \"1\"]\n1. e4 *\n\n[A \"2\"]\n1. d4\n"),
            [(0, 15, 1), (17, 30, 1)]
        );
        assert_eq!(starts("1. e4 1-0 {c}\n2. d4 *"), [(0, 13, 1), (14, 21, 1)]);
        assert_eq!(
            starts("[Event \"a\"]\n\n[Event \"b\"]\n*"),
            [(0, 11, 0), (13, 26, 0)]
        );
        assert_eq!(
            starts("% x\n  \n1. e4 {\n[not a tag]} (e5\n[B \"c\"]"),
            [(7, 31, 1), (32, 39, 0)]
        );
    }
}
