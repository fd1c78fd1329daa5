//! The game-boundary scanner shared by the reader and the index: finds where each game
//! starts and ends, counts its main-line moves and finds its result, at memchr speed where
//! it can (comments, lines) and with one table lookup per byte elsewhere.
//!
//! The reader and the index must agree on where games start and end, so both use
//! [`scan_game`], which implements the rules listed in the `pgn` module documentation.

use std::ops::Range;

use super::scan::{
    classify_word, digits_end, word_end, Core, Outcome, CLASS, LBRACE, LBRACKET, LPAREN, NL,
    RPAREN, SEMI, WORD, WS,
};
use super::tag::{lex_tag, lex_tag_fast};

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
    /// Moves in the main line (words with a SAN part outside variations).
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
#[inline]
fn line_start(buf: &[u8], i: usize) -> bool {
    i == 0 || buf[i - 1] == b'\n'
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
    while i < buf.len() {
        match CLASS[buf[i] as usize] {
            WS | NL => i += 1,
            // A byte-order mark between games (files with one each, concatenated) is blank.
            _ if buf[i] == BOM[0] && (buf.len() - i < BOM.len() || buf[i..].starts_with(BOM)) => {
                if buf[i..].starts_with(BOM) {
                    i += BOM.len();
                } else if eof {
                    return Ok(Some(i));
                } else {
                    return Err(NeedMore(i));
                }
            }
            _ if buf[i] == b'%' && line_start(buf, i) => match to_line_end(buf, i, eof) {
                Some(e) => i = e,
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
fn tag_section<S: TagSink>(buf: &[u8], mut i: usize, eof: bool, sink: &mut S) -> Option<usize> {
    let len = buf.len();
    let mut seen_event = false;
    loop {
        if i >= len {
            return eof.then_some(len);
        }
        let b = buf[i];
        match CLASS[b as usize] {
            WS | NL => i += 1,
            LBRACE => {
                i = memchr::memchr(b'}', &buf[i + 1..])
                    .map_or(eof.then_some(len), |k| Some(i + k + 2))?
            }
            SEMI => i = to_line_end(buf, i, eof)?,
            _ if b == b'%' && line_start(buf, i) => i = to_line_end(buf, i, eof)?,
            LBRACKET => {
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
                    }
                    // The reader reports the bad tag; the rest of its line is skipped.
                    Err(_) => i = to_line_end(buf, i, eof)?,
                }
            }
            _ => return Some(i),
        }
    }
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
                if depth == 0 {
                    if b.is_ascii_alphabetic() {
                        *plies += 1;
                    } else {
                        match classify_word(&buf[i..e]).core {
                            Core::San(_) => *plies += 1,
                            Core::Result(r) => return Some(Stop::Result(i, e, r)),
                            Core::Empty | Core::Symbol(_) => {}
                        }
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
            LBRACE => {
                i = memchr::memchr(b'}', &buf[i + 1..])
                    .map_or(eof.then_some(len), |k| Some(i + k + 2))?
            }
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
            LBRACE => {
                i = memchr::memchr(b'}', &buf[i + 1..])
                    .map_or(eof.then_some(len), |k| Some(i + k + 2))?
            }
            SEMI => i = to_line_end(buf, i, eof)?,
            _ if b == b'%' && line_start(buf, i) => i = to_line_end(buf, i, eof)?,
            _ => return Some(i),
        }
    }
}

/// Counts the moves in plain movetext sixty-four bytes at a time, starting at the blank at
/// `i` (a [`WS`] byte, not a line feed).
///
/// "Plain" is what most movetext is: words made of letters, digits and `.+#=!?-` separated
/// by blanks, where each word is a move (starting with a letter), a move number (`12.`,
/// `3...`) or a move number glued to a move (`1.e4`). For those, [`classify_word`] finds one
/// move per word starting with a letter and one per letter right after a move number's dots,
/// which is what this counts, with bit masks. Anything else (comments, variations, NAGs,
/// results, castling with zeros, `--`, tags, any other shape of word) is a "problem": the
/// words before the first problem are counted and the byte loop takes over there. So does
/// a line feed, as the byte loop must see what starts the next line (a `[` there starts a
/// new game, a `%` an escape line).
///
/// Returns where to resume (a blank past every word counted: `i` itself when nothing could
/// be counted), the number of moves counted, and the offset before which the fast path is
/// not worth trying again (past the first problem, or 0 when there was none).
#[cfg(target_arch = "x86_64")]
#[inline]
fn plain_run(buf: &[u8], i: usize) -> (usize, u32, usize) {
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
    {
        // SAFETY: the processor has AVX2 and POPCNT, checked just above.
        unsafe { plain_run_avx2(buf, i) }
    } else {
        plain_windows(buf, i, window_masks)
    }
}

/// [`plain_run`] with AVX2 (thirty-two bytes per instruction, no register copies) and a
/// one-instruction bit count.
///
/// # Safety
///
/// The processor must have AVX2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn plain_run_avx2(buf: &[u8], i: usize) -> (usize, u32, usize) {
    plain_windows(buf, i, |window| {
        // SAFETY: this closure inherits the enclosing function's AVX2.
        unsafe { window_masks_avx2(window) }
    })
}

/// The loop behind [`plain_run`], over 64-byte windows whose masks `masks` computes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn plain_windows(
    buf: &[u8],
    mut i: usize,
    masks: impl Fn(&[u8; 64]) -> [u64; 7],
) -> (usize, u32, usize) {
    let mut plies = 0;
    while let Some(window) = buf
        .get(i..i + 64)
        .and_then(|w| <&[u8; 64]>::try_from(w).ok())
    {
        let [letter, digit, blank, newline, dot, dash, plain] = masks(window);
        // Only words that end inside the window are looked at: those before its last
        // blank (bit 0, the blank at `i`, is always set).
        let last = 63 - blank.leading_zeros();
        let m = (1u64 << last) - 1;
        let starts = !blank & (blank << 1) & m;
        let number_starts = starts & digit;
        // Just past each move number's digits: must be dots, or a blank (a bare number).
        let after_digits = digit.wrapping_add(number_starts) & !digit & m;
        let dot_starts = (after_digits & dot) | (starts & dot);
        // Just past the dots: a glued move (a letter) or a blank.
        let after_dots = dot.wrapping_add(dot_starts) & !dot & m;
        // Words starting with `-` (`--`, `-+`) or dashes after digits (results, `0-0`) are
        // not plain; nor are words starting with anything but a letter, a digit or a dot.
        // Each problem bit is on a byte of a word, and the masks above are computed from a
        // word's own bytes (carries run towards later bytes only), so the words before the
        // first problem are counted right whatever follows.
        let problems = (!plain
            | (starts & !(letter | digit | dot))
            | (dash & ((blank | digit) << 1))
            | (after_digits & !(dot | blank))
            | (after_dots & !(letter | blank)))
            & m;
        let (mut stop, retry) = if problems == 0 {
            (last, 0)
        } else {
            let p = problems.trailing_zeros();
            let before = blank & ((1u64 << p) - 1);
            (63 - before.leading_zeros(), i + p as usize + 1)
        };
        // A line feed followed by blanks and a byte that was checked is harmless: that byte
        // is plain, so neither a `[` nor a `%`. But one in the run of blanks ending at `stop`
        // is followed by bytes not checked yet: stop there, for the byte loop.
        let words = !blank & ((1u64 << stop) - 1);
        let before_run = u64::MAX.checked_shr(words.leading_zeros()).unwrap_or(0);
        let run = (u64::MAX >> (63 - stop)) & !before_run;
        let newlines = newline & run;
        if newlines != 0 {
            stop = 63 - newlines.leading_zeros();
        }
        // Word starts and letters after dots are different bytes: one count covers both.
        plies += ((starts | after_dots) & letter & ((1u64 << stop) - 1)).count_ones();
        if stop == 0 || newlines != 0 || problems != 0 {
            return (i + stop as usize, plies, retry);
        }
        i += stop as usize;
    }
    (i, plies, buf.len())
}

/// Byte masks of a 64-byte window (bit `k` for byte `k`): letters, digits, blanks (every
/// byte up to a space, as [`CLASS`] has it), line feeds, dots, dashes, and plain bytes
/// (those of the previous masks and `+#=!?`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn window_masks(window: &[u8; 64]) -> [u64; 7] {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_max_epu8,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always
    // available; each load reads sixteen bytes of `window`, unaligned loads being allowed.
    let sixteen = |at: usize| unsafe {
        let v = _mm_loadu_si128(window[at..].as_ptr().cast::<__m128i>());
        let mask = |m: __m128i| u64::from(_mm_movemask_epi8(m) as u16) << at;
        let is = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
        // Range checks with signed compares: shift the range's start to -128.
        let in_range = |x: __m128i, lo: u8, n: i8| {
            let shifted = _mm_add_epi8(x, _mm_set1_epi8(0x80u8.wrapping_sub(lo) as i8));
            _mm_cmplt_epi8(shifted, _mm_set1_epi8(-128 + n))
        };
        let letter = in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), b'a', 26);
        let digit = in_range(v, b'0', 10);
        // Unsigned `v <= 0x20`.
        let space = _mm_set1_epi8(0x20);
        let blank = _mm_cmpeq_epi8(_mm_max_epu8(v, space), space);
        let (dot, dash) = (is(b'.'), is(b'-'));
        let marks = _mm_or_si128(
            _mm_or_si128(is(b'+'), is(b'#')),
            _mm_or_si128(_mm_or_si128(is(b'='), is(b'!')), is(b'?')),
        );
        let plain = _mm_or_si128(
            _mm_or_si128(_mm_or_si128(letter, digit), _mm_or_si128(blank, dot)),
            _mm_or_si128(dash, marks),
        );
        [letter, digit, blank, is(b'\n'), dot, dash, plain].map(mask)
    };
    let (a, b, c, d) = (sixteen(0), sixteen(16), sixteen(32), sixteen(48));
    std::array::from_fn(|k| a[k] | b[k] | c[k] | d[k])
}

/// [`window_masks`] with AVX2.
///
/// # Safety
///
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn window_masks_avx2(window: &[u8; 64]) -> [u64; 7] {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi8, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
        _mm256_max_epu8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
    };
    let mut out = [0u64; 7];
    for at in [0, 32] {
        // SAFETY: the load reads thirty-two bytes of `window` (64 long) from `at`,
        // unaligned loads being allowed.
        let v = unsafe { _mm256_loadu_si256(window[at..].as_ptr().cast::<__m256i>()) };
        let is = |c: u8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(c as i8));
        // Range checks with signed compares: shift the range's start to -128.
        let in_range = |x: __m256i, lo: u8, n: i8| {
            let shifted = _mm256_add_epi8(x, _mm256_set1_epi8(0x80u8.wrapping_sub(lo) as i8));
            _mm256_cmpgt_epi8(_mm256_set1_epi8(-128 + n), shifted)
        };
        let letter = in_range(_mm256_or_si256(v, _mm256_set1_epi8(0x20)), b'a', 26);
        let digit = in_range(v, b'0', 10);
        // Unsigned `v <= 0x20`.
        let space = _mm256_set1_epi8(0x20);
        let blank = _mm256_cmpeq_epi8(_mm256_max_epu8(v, space), space);
        let (dot, dash) = (is(b'.'), is(b'-'));
        let marks = _mm256_or_si256(
            _mm256_or_si256(is(b'+'), is(b'#')),
            _mm256_or_si256(_mm256_or_si256(is(b'='), is(b'!')), is(b'?')),
        );
        let plain = _mm256_or_si256(
            _mm256_or_si256(_mm256_or_si256(letter, digit), _mm256_or_si256(blank, dot)),
            _mm256_or_si256(dash, marks),
        );
        let masks = [letter, digit, blank, is(b'\n'), dot, dash, plain];
        for (o, m) in out.iter_mut().zip(masks) {
            *o |= u64::from(_mm256_movemask_epi8(m) as u32) << at;
        }
    }
    out
}

/// No fast path off x86_64: the byte loop does all the work.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn plain_run(buf: &[u8], i: usize) -> (usize, u32, usize) {
    (i, 0, buf.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path must count exactly what classifying each word counts, and stop where
    /// the byte loop does: at a `[` first on a line, after skipping `%` lines.
    #[test]
    fn fast_path_counts_like_the_word_classifier() {
        const WORDS: &[&str] = &[
            "e4", "Nf3", "1.", "12...", "1.e4", "O-O", "0-0", "--", "e8=Q+", "!?", "Nf3!", "12",
            "...", "a", "-+", "+-", "x", "1.2", "12Nf3", "e4.e5", ".", "1...e5", "Z0", "h1=N#",
            "é4", "Nf3é", "a/b", "1-0", "Bb5+", "exd5", "1.-",
        ];
        const GAPS: &[&str] = &[" ", "  ", "\n", "\r\n", " \n ", "\t", "\x0c", " \n\n  "];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..20_000 {
            let mut text = String::from("e4 ");
            let mut want = 1;
            let (mut ended, mut next_game) = (false, None);
            // Enough words for several of the fast path's windows, then enough blanks for
            // a window to fit anywhere in them.
            for _ in 0..next(60) {
                match next(20) {
                    // The next game, whose tags start a line (after blanks or not).
                    0 => {
                        text.push_str(["\n", "\n  ", "\n\t"][next(3)]);
                        if !ended {
                            (ended, next_game) = (true, Some(text.len()));
                        }
                        text.push_str("[E \"x\"] ");
                    }
                    // An escape line: none of its words count.
                    1 => text.push_str("\n%e4 Nf3 d5\n"),
                    _ => {}
                }
                let w = WORDS[next(WORDS.len())];
                text.push_str(w);
                text.push_str(GAPS[next(GAPS.len())]);
                match classify_word(w.as_bytes()).core {
                    Core::San(_) if !ended => want += 1,
                    Core::Result(_) => ended = true,
                    _ => {}
                }
            }
            text.push_str(&" ".repeat(next(80)));
            let span = scan_game(text.as_bytes(), 0, true, &mut NoTags).expect("eof");
            assert_eq!(span.plies, want, "{text:?}");
            // Both versions of the fast path (SSE2 only, and AVX2 where the machine has it)
            // see the same masks.
            #[cfg(target_arch = "x86_64")]
            for (i, &b) in text.as_bytes().iter().enumerate() {
                if CLASS[b as usize] == WS {
                    let sse2 = plain_windows(text.as_bytes(), i, window_masks);
                    assert_eq!(sse2, plain_run(text.as_bytes(), i), "{text:?} at {i}");
                }
            }
            if let Some(n) = next_game {
                assert_eq!(span.next, n, "{text:?}");
            }
        }
    }

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
