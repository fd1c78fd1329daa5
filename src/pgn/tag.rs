//! Tag pairs (`[Name "value"]`), lexed the same way by the game-boundary scanner, the lexer
//! and the index: a fast path for the simple, common form, and the line-based lexer that
//! decides everything else.

use std::ops::Range;

/// A lexed tag pair; ranges are relative to the line slice given to [`lex_tag`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TagLex {
    /// The tag name.
    pub name: Range<usize>,
    /// The value between the quotes, still escaped.
    pub value: Range<usize>,
    /// Just past the closing `]`.
    pub end: usize,
}

/// Lexes a well-formed tag pair at the start of `rest` (which starts with `[` and may run
/// past the end of its line) without first looking for the line end; `None` if the tag is
/// not simple, and then [`lex_tag`] on its line decides. Whatever this accepts, [`lex_tag`]
/// accepts the same way.
#[inline(always)]
pub(crate) fn lex_tag_fast(rest: &[u8]) -> Option<TagLex> {
    #[cfg(target_arch = "x86_64")]
    if let Some(t) = lex_tag_32(rest) {
        return Some(t);
    }
    let is = |i: usize, class: u8| rest.get(i).is_some_and(|&b| TAG[b as usize] & class != 0);
    let mut i = 1;
    while is(i, TAG_BLANK) {
        i += 1;
    }
    let name_start = i;
    i = name_end(rest, i);
    if i == name_start {
        return None;
    }
    let name = name_start..i;
    while is(i, TAG_BLANK) {
        i += 1;
    }
    if rest.get(i) != Some(&b'"') {
        return None;
    }
    let value_start = i + 1;
    // An escape or a line feed before the closing quote: not simple.
    let q = value_end(rest, value_start)?;
    if rest[q] != b'"' {
        return None;
    }
    let mut k = q + 1;
    while is(k, TAG_BLANK) {
        k += 1;
    }
    (rest.get(k) == Some(&b']')).then_some(TagLex {
        name,
        value: value_start..q,
        end: k + 1,
    })
}

/// The commonest tag pair, `[Name "value"]` ending within the first thirty-two bytes of
/// `rest` (exactly one space after the name, no escape, `]` right after the closing quote),
/// lexed with sixteen-byte compares and no byte loop; `None` for any other form, or with
/// fewer than thirty-two bytes at hand (the last tag of a file), which [`lex_tag_fast`]
/// then reads as before (giving the same answer where this one answers).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lex_tag_32(rest: &[u8]) -> Option<TagLex> {
    let chunk = <&[u8; 32]>::try_from(rest.get(..32)?).ok()?;
    let any_of32 = |set: &[u8]| {
        let (first, second) = chunk.split_at(16);
        let half = |h: &[u8]| h.try_into().map_or(0, |h| any_of16(h, set));
        half(first) | half(second) << 16
    };
    // Where the name ends, as `name_end` finds it (past the `[` at 0), and where a simple
    // value ends, as `value_end` finds it.
    let p = (any_of32(NAME_ENDS) & !1).trailing_zeros() as usize;
    let value_ends = any_of32(VALUE_ENDS);
    // A name of one byte at least, and room for ` "` before the end of the chunk (which
    // keeps the shift below under 32).
    if !(2..30).contains(&p) || chunk[p] != b' ' || chunk[p + 1] != b'"' {
        return None;
    }
    let q = p + 2 + (value_ends >> (p + 2)).trailing_zeros() as usize;
    (q < 32 && chunk[q] == b'"' && rest.get(q + 1) == Some(&b']')).then_some(TagLex {
        name: 1..p,
        value: p + 2..q,
        end: q + 2,
    })
}

/// The bytes ending a tag name (the [`TAG_NAME_END`] class), and a simple value
/// ([`TAG_VALUE_END`]), for the sixteen-byte compares.
#[cfg(target_arch = "x86_64")]
const NAME_ENDS: &[u8] = b" \t\r\"][\n";
#[cfg(target_arch = "x86_64")]
const VALUE_ENDS: &[u8] = b"\"\\\n";

/// [`TAG`] class: a blank inside a tag pair (space, tab, carriage return).
const TAG_BLANK: u8 = 1;
/// [`TAG`] class: a byte ending a tag name (a blank, `"`, `]`, `[` or a line feed).
const TAG_NAME_END: u8 = 2;
/// [`TAG`] class: a byte ending a simple tag value (`"`, `\` or a line feed).
const TAG_VALUE_END: u8 = 4;

/// Classes of bytes inside a tag pair, for [`lex_tag_fast`]: one lookup per byte.
static TAG: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b' ' as usize] = TAG_BLANK | TAG_NAME_END;
    t[b'\t' as usize] = TAG_BLANK | TAG_NAME_END;
    t[b'\r' as usize] = TAG_BLANK | TAG_NAME_END;
    t[b']' as usize] = TAG_NAME_END;
    t[b'[' as usize] = TAG_NAME_END;
    t[b'"' as usize] = TAG_NAME_END | TAG_VALUE_END;
    t[b'\n' as usize] = TAG_NAME_END | TAG_VALUE_END;
    t[b'\\' as usize] = TAG_VALUE_END;
    t
};

/// Offset of the first byte at or after `i` that ends a tag name (a blank, `"`, `]`, `[` or a
/// line feed), or the length of `rest`. Names are short, and where they end varies: a
/// byte loop mispredicts its exit once per tag, a sixteen-byte compare does not.
#[inline(always)]
fn name_end(rest: &[u8], i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(chunk) = rest
        .get(i..i + 16)
        .and_then(|c| <&[u8; 16]>::try_from(c).ok())
    {
        let m = any_of16(chunk, NAME_ENDS);
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
    }
    let mut i = i;
    while i < rest.len() && TAG[rest[i] as usize] & TAG_NAME_END == 0 {
        i += 1;
    }
    i
}

/// Offset of the first `"`, `\` or line feed at or after `i`: what `memchr3` finds, but
/// sixteen bytes at a time with no call, as tag values are short.
#[inline]
fn value_end(rest: &[u8], mut i: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    while let Some(chunk) = rest
        .get(i..i + 16)
        .and_then(|c| <&[u8; 16]>::try_from(c).ok())
    {
        let m = any_of16(chunk, VALUE_ENDS);
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
        i += 16;
    }
    while i < rest.len() {
        if TAG[rest[i] as usize] & TAG_VALUE_END != 0 {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Bit `k` set when `chunk[k]` is one of the bytes of `set` (a handful of constants: the
/// compares unroll).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn any_of16(chunk: &[u8; 16], set: &[u8]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_setzero_si128,
    };
    // SAFETY: SSE2 is part of the x86_64 baseline; the unaligned load reads the sixteen
    // bytes of `chunk`.
    unsafe {
        let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
        let mut m = _mm_setzero_si128();
        for &c in set {
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)));
        }
        _mm_movemask_epi8(m) as u32
    }
}

/// Lexes one tag pair from `line`, which starts with `[` and runs to the end of its line
/// (without the line feed). On failure returns the offset of the problem.
///
/// A value with unescaped inner quotes (`[White "A "B" C"]`, common in real files) is read
/// up to the last `"` before a closing `]` rather than rejected.
pub(crate) fn lex_tag(line: &[u8]) -> Result<TagLex, usize> {
    let blank = |b: u8| b == b' ' || b == b'\t' || b == b'\r';
    let mut i = 1;
    while i < line.len() && blank(line[i]) {
        i += 1;
    }
    let name_start = i;
    while i < line.len() && !blank(line[i]) && !matches!(line[i], b'"' | b']' | b'[') {
        i += 1;
    }
    if i == name_start {
        return Err(i);
    }
    let name = name_start..i;
    while i < line.len() && blank(line[i]) {
        i += 1;
    }
    if line.get(i) != Some(&b'"') {
        return Err(i);
    }
    let value_start = i + 1;
    let mut j = value_start;
    let close = loop {
        match memchr::memchr2(b'"', b'\\', &line[j..]) {
            Some(k) if line[j + k] == b'\\' => j = (j + k + 2).min(line.len()),
            Some(k) => break Some(j + k),
            None => break None,
        }
    };
    if let Some(q) = close {
        let mut k = q + 1;
        while k < line.len() && blank(line[k]) {
            k += 1;
        }
        if line.get(k) == Some(&b']') {
            return Ok(TagLex {
                name,
                value: value_start..q,
                end: k + 1,
            });
        }
    }
    // Fallback for inner unescaped quotes: the last `"` followed by blanks and `]`.
    let Some(rb) = memchr::memrchr(b']', &line[value_start..]).map(|k| k + value_start) else {
        return Err(line.len());
    };
    let mut q = rb;
    while q > value_start && blank(line[q - 1]) {
        q -= 1;
    }
    if q > value_start && line[q - 1] == b'"' {
        return Ok(TagLex {
            name,
            value: value_start..q - 1,
            end: rb + 1,
        });
    }
    Err(close.map_or(line.len(), |q| q + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_pairs_lex_or_point_at_the_problem() {
        let ok = |line: &str| {
            let t = lex_tag(line.as_bytes()).map_err(|e| format!("{line}: error at {e}"))?;
            Ok::<_, String>((line[t.name].to_string(), line[t.value].to_string(), t.end))
        };
        assert_eq!(ok("[Event \"x\"] e4"), Ok(("Event".into(), "x".into(), 11)));
        assert_eq!(ok("[ Site  \"\" ]"), Ok(("Site".into(), "".into(), 12)));
        assert_eq!(
            ok("[A \"a\\\"b\\\\\"]"),
            Ok(("A".into(), "a\\\"b\\\\".into(), 12))
        );
        assert_eq!(
            ok("[W \"A \"B\" C\"]"),
            Ok(("W".into(), "A \"B\" C".into(), 13))
        );
        // The fast lexer agrees wherever it answers.
        for line in [
            "[Event \"x\"] e4",
            "[ Site  \"\" ]",
            "[A \"a\\\"b\"]",
            "[W \"A \"B\" C\"]",
            "[E \"x\n\"]",
            "[Event\t\"x\"]",
            "[A\x01B\r\"v\"]",
            "[SixteenBytesLong \"v\"]",
            "[SeventeenBytesLong \"v\"]",
            "[Name[ \"v\"]",
            "[Name]\"v\"]",
            "[Name\"v\"]",
            "[Name\n\"v\"]",
            "[Name  \"v\"]",
            "[Name \"v\\\"w\"]",
            "[Name \"v\nw\"]",
            "[Name \"v\" ]",
            "[Name \"v\"x]",
            "[N \"\"]",
            "[ N \"v\"]",
            "[Name \"twenty-two bytes long\"]",
            "[Name \"twenty-three bytes long\"]",
            "[Name \"twenty-four bytes long!\"]",
            "[TwentySevenBytesLongName \"\"]",
            "[TwentyEightBytesLongNames \"\"]",
        ] {
            // Padded too, for the sixteen-byte compares.
            for line in [line.to_string(), format!("{line} {}", "x".repeat(40))] {
                if let Some(t) = lex_tag_fast(line.as_bytes()) {
                    let end = line.find('\n').unwrap_or(line.len());
                    assert_eq!(lex_tag(&line.as_bytes()[..end]), Ok(t), "{line}");
                }
            }
        }
        // Random tag-like lines, around the thirty-two bytes the commonest form is read in.
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let pieces: [&[u8]; 10] = [
            b"a",
            b"Name",
            b" ",
            b"\"",
            b"\\",
            b"\n",
            b"]",
            b"[",
            b"\t",
            b"\xc3\xa9",
        ];
        let mut short_form = 0;
        for _ in 0..200_000 {
            let mut line = b"[".to_vec();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut bits = seed;
            // Mostly the common form, with a random piece put in somewhere.
            let name = ["N", "Event", "WhiteElo", "SixteenBytesLong"][(bits % 4) as usize];
            bits /= 4;
            line.extend_from_slice(name.as_bytes());
            line.extend_from_slice(b" \"");
            line.extend(std::iter::repeat_n(b'v', (bits % 30) as usize));
            bits /= 30;
            line.extend_from_slice(b"\"]");
            let at = (bits % line.len() as u64) as usize;
            bits /= line.len() as u64;
            let piece = pieces[(bits % pieces.len() as u64) as usize];
            line.splice(at..at, piece.iter().copied());
            line.extend(std::iter::repeat_n(b'x', (bits / 10 % 40) as usize));
            let end = memchr::memchr(b'\n', &line).unwrap_or(line.len());
            let what = String::from_utf8_lossy(&line);
            if let Some(t) = lex_tag_fast(&line) {
                assert_eq!(lex_tag(&line[..end]), Ok(t), "{what:?}");
            }
            // The 32-byte form by itself, which must answer for many of these lines.
            #[cfg(target_arch = "x86_64")]
            if let Some(t) = lex_tag_32(&line) {
                short_form += 1;
                assert_eq!(lex_tag(&line[..end]), Ok(t), "{what:?}");
            }
        }
        #[cfg(target_arch = "x86_64")]
        assert!(
            short_form > 50_000,
            "the 32-byte form answered {short_form} times"
        );
        for bad in [
            "[",
            "[Event",
            "[Event x",
            "[Event \"x",
            "[Event \"x\" y",
            "[\"x\"]",
            "[A \"\\",
        ] {
            assert!(lex_tag(bad.as_bytes()).is_err(), "{bad}");
        }
    }
}
