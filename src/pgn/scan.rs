//! Lexical atoms shared by the game-boundary scanner, the lexer and the index: byte
//! classes, word classification and text decoding (tag pairs are in [`super::tag`]).
//! Sharing them is what makes the reader and the index read a word the same way.

/// Byte class: ASCII blank or control byte other than a line feed (control bytes are
/// garbage in PGN; treating them as blanks keeps them out of moves).
pub(crate) const WS: u8 = 0;
/// Byte class: line feed.
pub(crate) const NL: u8 = 1;
/// Byte class: `{`.
pub(crate) const LBRACE: u8 = 2;
/// Byte class: `;`.
pub(crate) const SEMI: u8 = 3;
/// Byte class: `[`.
pub(crate) const LBRACKET: u8 = 4;
/// Byte class: `(`.
pub(crate) const LPAREN: u8 = 5;
/// Byte class: `)`.
pub(crate) const RPAREN: u8 = 6;
/// Byte class: `$`.
pub(crate) const DOLLAR: u8 = 7;
/// Byte class: `}` or `]`, which never belong to a word and are stray in movetext.
pub(crate) const STRAY: u8 = 8;
/// Byte class: anything else, i.e. part of a word (SAN, move number, result, glyph).
pub(crate) const WORD: u8 = 9;

/// Class of every byte; one table lookup per byte keeps the hot loops branch-light.
pub(crate) static CLASS: [u8; 256] = {
    let mut t = [WORD; 256];
    let mut c = 0;
    while c <= 0x20 {
        t[c] = WS;
        c += 1;
    }
    t[b'\n' as usize] = NL;
    t[b'{' as usize] = LBRACE;
    t[b';' as usize] = SEMI;
    t[b'[' as usize] = LBRACKET;
    t[b'(' as usize] = LPAREN;
    t[b')' as usize] = RPAREN;
    t[b'$' as usize] = DOLLAR;
    t[b'}' as usize] = STRAY;
    t[b']' as usize] = STRAY;
    t
};

/// End of the word starting at `i`: the first byte at or after `i` that is not a word byte.
#[inline]
pub(crate) fn word_end(buf: &[u8], mut i: usize) -> usize {
    // Sixteen bytes at a time: a byte loop mispredicts its exit once per (short) word.
    #[cfg(target_arch = "x86_64")]
    while let Some(chunk) = buf
        .get(i..i + 16)
        .and_then(|c| <&[u8; 16]>::try_from(c).ok())
    {
        let m = delimiters16(chunk);
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
        i += 16;
    }
    while i < buf.len() && CLASS[buf[i] as usize] == WORD {
        i += 1;
    }
    i
}

/// Bit `k` set when `chunk[k]` is not a [`WORD`] byte.
#[cfg(target_arch = "x86_64")]
#[inline]
fn delimiters16(chunk: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    // SAFETY: SSE2 is part of the x86_64 baseline; the unaligned load reads the sixteen
    // bytes of `chunk`.
    unsafe {
        let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
        let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
        let space = _mm_set1_epi8(0x20);
        // Unsigned `v <= 0x20`: blanks, line feeds and control bytes.
        let blank = _mm_cmpeq_epi8(_mm_max_epu8(v, space), space);
        let open = _mm_or_si128(
            _mm_or_si128(eq(b'{'), eq(b'(')),
            _mm_or_si128(eq(b'['), eq(b';')),
        );
        let close = _mm_or_si128(
            _mm_or_si128(eq(b'}'), eq(b')')),
            _mm_or_si128(eq(b']'), eq(b'$')),
        );
        _mm_movemask_epi8(_mm_or_si128(blank, _mm_or_si128(open, close))) as u32
    }
}

/// End of the run of ASCII digits starting at `i`.
#[inline]
pub(crate) fn digits_end(buf: &[u8], mut i: usize) -> usize {
    while i < buf.len() && buf[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// A game result, as written at the end of the movetext (or in the `Result` tag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2` (also read from `½-½`).
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    Unknown,
}

impl Outcome {
    /// The standard PGN spelling: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// Reads a result token; `None` if `word` is not one.
    pub fn from_bytes(word: &[u8]) -> Option<Outcome> {
        match word {
            b"1-0" => Some(Outcome::WhiteWins),
            b"0-1" => Some(Outcome::BlackWins),
            // `½-½` in UTF-8, and in Windows-1252 (see `crate::text`).
            b"1/2-1/2" | b"\xC2\xBD-\xC2\xBD" | b"\xBD-\xBD" => Some(Outcome::Draw),
            b"*" => Some(Outcome::Unknown),
            _ => None,
        }
    }
}

/// What the main part of a word is, once its move number and glyphs are split off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Core<'a> {
    /// Nothing but a move number and/or dots (`12.`, `3...`, `...`) or only glyphs.
    Empty,
    /// A move as written, with check and mate marks but without `!`/`?` glyphs.
    San(&'a [u8]),
    /// A result token.
    Result(Outcome),
    /// A standalone evaluation symbol such as `+-` or `=`, mapped to its NAG.
    Symbol(u8),
}

/// A movetext word split into its parts; offsets are relative to the start of the word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Word<'a> {
    /// The main part.
    pub core: Core<'a>,
    /// Where the main part starts.
    pub core_at: usize,
    /// Trailing `!`/`?` glyphs (maybe empty).
    pub glyphs: &'a [u8],
    /// Where the glyphs start.
    pub glyphs_at: usize,
}

const ELLIPSIS: &[u8] = "…".as_bytes();

/// `…` in Windows-1252 (see `crate::text`). Where [`dots_end`] looks (after digits, dots or
/// a whole `…`), the byte cannot be part of a UTF-8 character.
const ELLIPSIS_1252: u8 = 0x85;

/// Skips dots and `…` starting at `i`.
#[inline]
fn dots_end(w: &[u8], mut i: usize) -> usize {
    loop {
        if matches!(w.get(i), Some(&(b'.' | ELLIPSIS_1252))) {
            i += 1;
        } else if w[i.min(w.len())..].starts_with(ELLIPSIS) {
            i += ELLIPSIS.len();
        } else {
            return i;
        }
    }
}

/// Maps a `!`/`?` suffix to its NAG (1..=6); `None` for other combinations.
pub(crate) fn glyph_nag(g: &[u8]) -> Option<u8> {
    match g {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    }
}

/// Maps a standalone evaluation symbol to its NAG, so that files written with symbols
/// instead of `$n` do not produce bogus moves.
fn symbol_nag(w: &[u8]) -> Option<u8> {
    Some(match w {
        b"=" => 10,
        b"+=" | b"+/=" => 14,
        b"=+" | b"=/+" => 15,
        b"+/-" => 16,
        b"-/+" => 17,
        b"+-" => 18,
        b"-+" => 19,
        _ if w == "∞".as_bytes() => 13,
        // `±` in UTF-8, and in Windows-1252.
        _ if w == "±".as_bytes() || w == b"\xB1" => 16,
        _ if w == "∓".as_bytes() => 17,
        _ => return None,
    })
}

/// Splits a non-empty movetext word (a maximal run of [`WORD`] bytes) into move number,
/// main part and glyphs. Glued forms like `1.e4`, `12...Nf3` and `e4!?` are split here.
#[inline]
pub(crate) fn classify_word(w: &[u8]) -> Word<'_> {
    if w.first().is_some_and(u8::is_ascii_alphabetic) {
        // Most words are moves: only glyphs to split off.
        let mut g = w.len();
        while g > 1 && matches!(w[g - 1], b'!' | b'?') {
            g -= 1;
        }
        return Word {
            core: Core::San(&w[..g]),
            core_at: 0,
            glyphs: &w[g..],
            glyphs_at: g,
        };
    }
    // Next most common: a move number (`12.`, `3...`), maybe glued to its move.
    let d = digits_end(w, 0);
    if d > 0 && w.get(d) == Some(&b'.') {
        let mut j = d;
        while j < w.len() && w[j] == b'.' {
            j += 1;
        }
        if j == w.len() {
            return Word {
                core: Core::Empty,
                core_at: j,
                glyphs: &[],
                glyphs_at: j,
            };
        }
        if w[j].is_ascii_alphabetic() {
            // A move number glued to its move (`1.e4`).
            let mut g = w.len();
            while g > j + 1 && matches!(w[g - 1], b'!' | b'?') {
                g -= 1;
            }
            return Word {
                core: Core::San(&w[j..g]),
                core_at: j,
                glyphs: &w[g..],
                glyphs_at: g,
            };
        }
    }
    classify_other(w)
}

/// [`classify_word`] for words not starting with a letter.
fn classify_other(w: &[u8]) -> Word<'_> {
    let mut i = 0;
    let first = w.first().copied().unwrap_or(b' ');
    if !first.is_ascii_alphabetic() {
        let d = digits_end(w, 0);
        if d > 0 && w.get(d) == Some(&b'.') {
            // The common case, a move number: no result has a dot.
            i = dots_end(w, d);
        } else if let Some(r) = Outcome::from_bytes(w) {
            return Word {
                core: Core::Result(r),
                core_at: 0,
                glyphs: &[],
                glyphs_at: w.len(),
            };
        } else if d > 0 {
            // Bare digits are a move number missing its dot; digits followed by anything
            // else (`0-0`, castling with zeros) are a move.
            let j = dots_end(w, d);
            if j > d || d == w.len() {
                i = j;
            }
        }
        i = dots_end(w, i);
        if i < w.len() && !w[i].is_ascii_alphabetic() {
            if let Some(n) = symbol_nag(&w[i..]) {
                return Word {
                    core: Core::Symbol(n),
                    core_at: i,
                    glyphs: &[],
                    glyphs_at: w.len(),
                };
            }
        }
    }
    let mut g = w.len();
    while g > i && matches!(w[g - 1], b'!' | b'?') {
        g -= 1;
    }
    let core = if g > i {
        Core::San(&w[i..g])
    } else {
        Core::Empty
    };
    Word {
        core,
        core_at: i,
        glyphs: &w[g..],
        glyphs_at: g,
    }
}

/// Decodes text from a PGN file: UTF-8 when valid, otherwise Windows-1252 (see
/// [`crate::text`]).
pub(crate) fn decode<'a>(raw: &'a [u8], scratch: &'a mut String) -> &'a str {
    crate::text::decode_into(raw, scratch)
}

/// Unescapes (`\"` and `\\`) and decodes a raw tag value, borrowing when it can.
pub(crate) fn decode_value<'a>(
    raw: &'a [u8],
    tmp: &'a mut Vec<u8>,
    scratch: &'a mut String,
) -> &'a str {
    if memchr::memchr(b'\\', raw).is_none() {
        return decode(raw, scratch);
    }
    tmp.clear();
    let mut it = raw.iter();
    while let Some(&b) = it.next() {
        if b == b'\\' {
            match it.next() {
                Some(&n @ (b'"' | b'\\')) => tmp.push(n),
                // Not an escape PGN knows: keep the backslash, lose nothing.
                Some(&n) => tmp.extend_from_slice(&[b'\\', n]),
                None => tmp.push(b'\\'),
            }
        } else {
            tmp.push(b);
        }
    }
    decode(tmp, scratch)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (word, main part, glyphs) for the shapes movetext words come in.
    #[test]
    fn words_split_into_number_move_and_glyphs() {
        let san = |s: &'static str| Core::San(s.as_bytes());
        let table: &[(&str, Core<'_>, &str)] = &[
            ("e4", san("e4"), ""),
            ("Nf3!?", san("Nf3"), "!?"),
            ("e8=Q+", san("e8=Q+"), ""),
            ("1.e4", san("e4"), ""),
            ("12...Nf3?", san("Nf3"), "?"),
            ("3…Bb5", san("Bb5"), ""),
            ("12.", Core::Empty, ""),
            ("12", Core::Empty, ""),
            ("...", Core::Empty, ""),
            ("!!", Core::Empty, "!!"),
            ("0-0", san("0-0"), ""),
            ("--", san("--"), ""),
            ("Z0", san("Z0"), ""),
            ("1-0", Core::Result(Outcome::WhiteWins), ""),
            ("0-1", Core::Result(Outcome::BlackWins), ""),
            ("1/2-1/2", Core::Result(Outcome::Draw), ""),
            ("½-½", Core::Result(Outcome::Draw), ""),
            ("*", Core::Result(Outcome::Unknown), ""),
            ("+-", Core::Symbol(18), ""),
            ("=", Core::Symbol(10), ""),
            ("±", Core::Symbol(16), ""),
        ];
        for (word, core, glyphs) in table {
            let w = classify_word(word.as_bytes());
            assert_eq!((w.core, w.glyphs), (*core, glyphs.as_bytes()), "{word}");
        }
    }

    /// A Windows-1252 file writes `…`, `½` and `±` as one byte each: read as they are in
    /// UTF-8.
    #[test]
    fn windows_1252_marks_read_as_their_utf8_forms() {
        let table: &[(&[u8], Core<'_>)] = &[
            (b"3\x85Bb5", Core::San(b"Bb5")),
            (b"12.\x85", Core::Empty),
            (b"\x85", Core::Empty),
            (b"\xBD-\xBD", Core::Result(Outcome::Draw)),
            (b"\xB1", Core::Symbol(16)),
        ];
        for (word, core) in table {
            assert_eq!(classify_word(word).core, *core, "{word:?}");
        }
        // The same bytes inside UTF-8 characters are left alone.
        assert_eq!(
            classify_word("Å".as_bytes()).core,
            Core::San("Å".as_bytes())
        );
        assert_eq!(
            classify_word("ñ".as_bytes()).core,
            Core::San("ñ".as_bytes())
        );
    }

    #[test]
    fn text_that_is_not_utf8_is_windows_1252() {
        let (mut tmp, mut text) = (Vec::new(), String::new());
        assert_eq!(
            decode_value(b"J\xf6rg \\\"x\\\"", &mut tmp, &mut text),
            "Jörg \"x\""
        );
        // ChessBase's "Šimun Žagar": 0x8A and 0x8E are letters, not control characters.
        assert_eq!(
            decode_value(b"\x8aimun \x8eagar", &mut tmp, &mut text),
            "Šimun Žagar"
        );
        assert_eq!(decode(b"caf\xc3\xa9", &mut text), "café");
    }
}
