//! Counting the moves of plain movetext sixty-four bytes at a time, with bit masks: the
//! fast path of the game-boundary scanner's movetext loop (see [`plain_run`]).

#[cfg(doc)]
use super::scan::{classify_word, CLASS};

/// Asks the processor to start loading the bytes 2 KiB past offset `i`, as scanning gets
/// there soon: its own prefetcher stops at each 4 KiB page, and the pages of a mapped file
/// are not in the cache yet (`list` on one core ran about 5% faster with it).
#[inline(always)]
pub(crate) fn prefetch(buf: &[u8], i: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of the x86_64 baseline, and a prefetch never faults, whatever the
    // address (it may lie past the buffer's end).
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(buf.as_ptr().wrapping_add(i + 2048).cast());
    }
}

/// Counts the moves in plain movetext sixty-four bytes at a time, starting at the blank at
/// `i` (a [`WS`](super::scan::WS) byte, not a line feed).
///
/// "Plain" is what most movetext is: words made of letters, digits and `.+#=!?-` separated
/// by blanks, where each word is a move (starting with a letter), a move number (`12.`,
/// `3...`) or a move number glued to a move (`1.e4`). For those, [`classify_word`] finds one
/// move per word starting with a letter and one per letter right after a move number's dots,
/// which is what this counts, with bit masks. Anything else (comments, variations, NAGs,
/// results, castling with zeros, `--`, tags, any other shape of word, and a move with
/// neither a digit nor a dash, which may be no move but a mark written as a word of its
/// own, `e.p.` or `ch`) is a "problem": the words before the first problem are counted and
/// the byte loop takes over there. So does a line feed, as the byte loop must see what
/// starts the next line (a `[` there starts a new game, a `%` an escape line).
///
/// Returns where to resume (a blank past every word counted: `i` itself when nothing could
/// be counted), the number of moves counted, and the offset before which the fast path is
/// not worth trying again: past the first problem, the buffer's length when fewer than
/// sixty-four bytes were left, or 0 otherwise.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn plain_run(buf: &[u8], i: usize) -> (usize, u32, usize) {
    use std::arch::is_x86_feature_detected as has;
    if has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("popcnt") {
        // SAFETY: the processor has every feature the function enables, checked just above.
        unsafe { plain_run_avx2(buf, i) }
    } else {
        plain_windows(buf, i, window_masks)
    }
}

/// [`plain_run`] with AVX2 (thirty-two bytes per instruction, classified by table lookups),
/// and the bit counts, scans and masks of POPCNT, LZCNT and BMI.
///
/// # Safety
///
/// The processor must have AVX2, BMI1, BMI2, LZCNT and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn plain_run_avx2(buf: &[u8], i: usize) -> (usize, u32, usize) {
    plain_windows(buf, i, |window| {
        // SAFETY: this closure inherits the enclosing function's AVX2.
        unsafe { window_masks_avx2(window) }
    })
}

/// Byte masks of a 64-byte window, bit `k` for byte `k`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Masks {
    /// `A-Z` and `a-z`.
    letter: u64,
    /// `0-9`.
    digit: u64,
    /// Every byte up to a space, as [`CLASS`] has it.
    blank: u64,
    /// `.`
    dot: u64,
    /// Line feeds and dashes, told apart by `blank`.
    line_or_dash: u64,
    /// The bytes that are not plain: all but letters, digits, blanks and `.+#=!?-`.
    odd: u64,
}

/// The loop behind [`plain_run`], over 64-byte windows whose masks `masks` computes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn plain_windows(
    buf: &[u8],
    mut i: usize,
    masks: impl Fn(&[u8; 64]) -> Masks,
) -> (usize, u32, usize) {
    let mut plies = 0;
    let last_window = buf.len().checked_sub(64);
    while last_window.is_some_and(|last| i <= last) {
        let window: &[u8; 64] = buf[i..i + 64].try_into().unwrap();
        prefetch(buf, i);
        let Masks {
            letter,
            digit,
            blank,
            dot,
            line_or_dash,
            odd,
        } = masks(window);
        // Only words that end inside the window are looked at: those before its last
        // blank (bit 0, the blank at `i`, is always set), whose bits `to_last` keeps. The
        // masks below keep bits past it, as carries run towards later bytes only: they
        // change no bit before it, and `problems` and the count drop them.
        let lead = blank.leading_zeros() as usize;
        let to_last = u64::MAX >> lead;
        let starts = !blank & (blank << 1);
        // A word starting with a digit or a dot starts with a move number: its digits and
        // dots. Adding the word's first bit carries through them to the byte just past
        // them, and clears them in `carried`. (`+` is `|` for masks of different bytes;
        // with `|`, LLVM redoes such unions on the vectors, with two more `movemask`s.)
        let number = digit + dot;
        let carried = number.wrapping_add(starts & number);
        let after_number = carried & !number;
        let after_dot = dot << 1;
        // Problems: bytes that are not plain; words starting with anything but a letter,
        // a digit or a dot (`--`, `-+`); dashes after digits (results, `0-0`); a move
        // number's digits after its dots (`1.2`); and past a move number, anything but a
        // blank, or a letter after dots (a glued move). Each problem bit is on a byte of a
        // word, and the masks above are computed from a word's own bytes, so the words
        // before the first problem are counted right whatever follows.
        //
        // And a move with neither a digit nor a dash, which may be no move but a mark
        // written as a word of its own (`e.p.`, `ch`, `mate`): the byte loop knows those.
        // Adding a move's first bit carries through its bytes up to the first digit or
        // dash, or else to the blank after it: the problem bit is there, past the word.
        let dash = line_or_dash & !blank;
        let lettered = !(blank | digit | dash);
        let landing = lettered.wrapping_add((starts | after_number) & letter) & !lettered;
        let problems = (odd
            | (starts & !(letter + number))
            | (dash & (digit << 1))
            | (digit & after_dot & !carried)
            | (after_number & !(blank | (letter & after_dot)))
            | (landing & blank))
            & to_last;
        // Where the fast path stops, given the mask of the bytes up to the stop (a blank,
        // so neither a problem nor a move), and the moves before it. Word starts and
        // letters past move numbers are different bytes: one count covers both.
        let end = |to_stop: u64| i + 63 - to_stop.leading_zeros() as usize;
        let moves = |to_stop: u64| ((starts | after_number) & letter & to_stop).count_ones();
        // A line feed followed by blanks and a byte that was checked is harmless: that byte
        // is plain, so neither a `[` nor a `%`. But one in the run of blanks ending at the
        // stop is followed by bytes not checked yet: stop there instead, for the byte loop.
        // The highest line feed up to the stop is in that run when it lies past every word
        // byte up to the stop, that is when the line feeds' mask exceeds the word bytes' one
        // (given the bits up to the stop, and the blanks among them).
        let to_line = |to_stop: u64, blanks: u64| {
            let newlines = line_or_dash & blanks;
            (newlines > blanks ^ to_stop).then(|| u64::MAX >> newlines.leading_zeros())
        };
        if problems != 0 {
            let p = problems.trailing_zeros();
            let to_stop = u64::MAX >> (blank & ((1u64 << p) - 1)).leading_zeros();
            let to_stop = to_line(to_stop, blank & to_stop).unwrap_or(to_stop);
            return (end(to_stop), plies + moves(to_stop), i + p as usize + 1);
        }
        // Every blank is up to the last.
        if let Some(to_stop) = to_line(to_last, blank) {
            return (end(to_stop), plies + moves(to_stop), 0);
        }
        plies += moves(to_last);
        if lead == 63 {
            // The window's only blank is its first byte.
            return (i, plies, 0);
        }
        i += 63 - lead;
    }
    (i, plies, buf.len())
}

/// The [`Masks`] of a 64-byte window, with SSE2 compares.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn window_masks(window: &[u8; 64]) -> Masks {
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
        let line_or_dash = _mm_or_si128(is(b'\n'), dash);
        [letter, digit, blank, dot, line_or_dash, plain].map(mask)
    };
    let (a, b, c, d) = (sixteen(0), sixteen(16), sixteen(32), sixteen(48));
    let [letter, digit, blank, dot, line_or_dash, plain] =
        std::array::from_fn(|k| a[k] | b[k] | c[k] | d[k]);
    Masks {
        letter,
        digit,
        blank,
        dot,
        line_or_dash,
        odd: !plain,
    }
}

/// The [`Masks`] of a 64-byte window, with AVX2: the class of each byte is looked up from
/// its nibbles (see `CLASSES`), and line feeds and dashes from the low nibble alone.
///
/// # Safety
///
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn window_masks_avx2(window: &[u8; 64]) -> Masks {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
        _mm256_max_epu8, _mm256_movemask_epi8, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_slli_epi16, _mm256_srli_epi16,
    };
    // The classes of plain bytes told apart, a bit each: the bytes whose low nibble is in
    // the first set and high nibble in the second (sets of nibbles as bit masks), once
    // every blank is read as a space. A byte is in one class at most, and in none when it
    // is not plain. The two letter classes have the highest bits after the space's.
    const SPACE: u8 = 1 << 7;
    const LETTERS_A_O: u8 = 1 << 5;
    const DIGIT: u8 = 1 << 4;
    const DOT: u8 = 1 << 3;
    const CLASSES: [(u8, u16, u16); 7] = [
        (SPACE, 1 << 0, 1 << 2),
        (1 << 6, 0x07ff, 1 << 5 | 1 << 7), // `P-Z`, `p-z`
        (LETTERS_A_O, 0xfffe, 1 << 4 | 1 << 6),
        (DIGIT, 0x03ff, 1 << 3),
        (DOT, 1 << 0xe, 1 << 2),
        (1 << 2, 1 << 1 | 1 << 3 | 1 << 0xb | 1 << 0xd, 1 << 2), // `!#+-`
        (1 << 1, 1 << 0xd | 1 << 0xf, 1 << 3),                   // `=?`
    ];
    // The lookup table of `CLASSES` for low nibbles (`high == false`) or high nibbles,
    // twice, as `_mm256_shuffle_epi8` looks up each 128-bit half in its own half.
    const fn nibble_table(high: bool) -> [u8; 32] {
        let mut t = [0; 32];
        let mut n = 0;
        while n < 32 {
            let mut k = 0;
            while k < CLASSES.len() {
                let (bit, lows, highs) = CLASSES[k];
                if (if high { highs } else { lows }) >> (n % 16) & 1 == 1 {
                    t[n] |= bit;
                }
                k += 1;
            }
            n += 1;
        }
        t
    }
    const LOW: [u8; 32] = nibble_table(false);
    const HIGH: [u8; 32] = nibble_table(true);
    // The byte a low nibble is a line feed or a dash with, or else 0x80: a byte that equals
    // no byte it is looked up for (those from 0x80 look up 0).
    const LINE_OR_DASH: [u8; 32] = {
        let mut t = [0x80; 32];
        (t[0xa], t[0xd], t[0x1a], t[0x1d]) = (b'\n', b'-', b'\n', b'-');
        t
    };
    // SAFETY: each load reads the 32 bytes of a table.
    let table = |t: &[u8; 32]| unsafe { _mm256_loadu_si256(t.as_ptr().cast::<__m256i>()) };
    let (low, high, line_or_dash) = (table(&LOW), table(&HIGH), table(&LINE_OR_DASH));
    let (space, nibble) = (_mm256_set1_epi8(0x20), _mm256_set1_epi8(0x0f));
    let below_letters = _mm256_set1_epi8(LETTERS_A_O as i8 - 1);
    let mut out = [0u64; 6];
    for at in [0, 32] {
        // SAFETY: the load reads thirty-two bytes of `window` (64 long) from `at`,
        // unaligned loads being allowed.
        let v = unsafe { _mm256_loadu_si256(window[at..].as_ptr().cast::<__m256i>()) };
        let w = _mm256_max_epu8(v, space);
        // Bytes from 0x80 look up 0 in `low`, as their top bit is set.
        let class = _mm256_and_si256(
            _mm256_shuffle_epi8(low, w),
            _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16::<4>(w), nibble)),
        );
        // Each mask in the top bit of its bytes, where `movemask` reads it: the letters as
        // the classes above the others but the space's (negative as a signed byte).
        let masks = [
            _mm256_cmpgt_epi8(class, below_letters),
            _mm256_slli_epi16::<{ DIGIT.leading_zeros() as i32 }>(class),
            class,
            _mm256_slli_epi16::<{ DOT.leading_zeros() as i32 }>(class),
            _mm256_cmpeq_epi8(_mm256_shuffle_epi8(line_or_dash, v), v),
            _mm256_cmpeq_epi8(class, _mm256_setzero_si256()),
        ];
        for (o, m) in out.iter_mut().zip(masks) {
            *o |= u64::from(_mm256_movemask_epi8(m) as u32) << at;
        }
    }
    let [letter, digit, blank, dot, line_or_dash, odd] = out;
    Masks {
        letter,
        digit,
        blank,
        dot,
        line_or_dash,
        odd,
    }
}

/// No fast path off x86_64: the byte loop does all the work.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(crate) fn plain_run(buf: &[u8], i: usize) -> (usize, u32, usize) {
    (i, 0, buf.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::is_mark_word;
    use crate::pgn::boundary::{scan_game, NoTags};
    use crate::pgn::scan::{classify_word, Core, CLASS, NL, WS};

    /// The reference for [`plain_windows`]: each rule as a mask of its own (from [`Masks`]),
    /// and the rule for moves with neither a digit nor a dash by a byte loop.
    #[cfg(target_arch = "x86_64")]
    fn rule_by_rule(buf: &[u8], mut i: usize) -> (usize, u32, usize) {
        let mut plies = 0;
        while let Some(window) = buf.get(i..i + 64).and_then(|w| w.try_into().ok()) {
            let Masks {
                letter,
                digit,
                blank,
                dot,
                line_or_dash,
                odd,
            } = window_masks(window);
            let (newline, dash) = (line_or_dash & blank, line_or_dash & !blank);
            let last = 63 - blank.leading_zeros();
            let m = (1u64 << last) - 1;
            let starts = !blank & (blank << 1) & m;
            let number_starts = starts & digit;
            // Just past each move number's digits: must be dots, or a blank.
            let after_digits = digit.wrapping_add(number_starts) & !digit & m;
            let dot_starts = (after_digits & dot) | (starts & dot);
            // Just past the dots: a glued move (a letter) or a blank.
            let after_dots = dot.wrapping_add(dot_starts) & !dot & m;
            // The blank after each move with neither a digit nor a dash.
            let mut digitless = 0u64;
            for k in 0..64 {
                if ((starts | after_dots) & letter) >> k & 1 == 1 {
                    let mut j = k;
                    while j < 64 && (blank | digit | dash) >> j & 1 == 0 {
                        j += 1;
                    }
                    if j < 64 && blank >> j & 1 == 1 {
                        digitless |= 1 << j;
                    }
                }
            }
            let problems = (odd
                | (starts & !(letter | digit | dot))
                | (dash & ((blank | digit) << 1))
                | (after_digits & !(dot | blank))
                | (after_dots & !(letter | blank))
                | digitless)
                & ((1u64 << last) | m);
            let (mut stop, retry) = if problems == 0 {
                (last, 0)
            } else {
                let p = problems.trailing_zeros();
                let before = blank & ((1u64 << p) - 1);
                (63 - before.leading_zeros(), i + p as usize + 1)
            };
            // Line feeds in the run of blanks ending at `stop`.
            let words = !blank & ((1u64 << stop) - 1);
            let before_run = u64::MAX.checked_shr(words.leading_zeros()).unwrap_or(0);
            let newlines = newline & (u64::MAX >> (63 - stop)) & !before_run;
            if newlines != 0 {
                stop = 63 - newlines.leading_zeros();
            }
            plies += ((starts | after_dots) & letter & ((1u64 << stop) - 1)).count_ones();
            if stop == 0 || newlines != 0 || problems != 0 {
                return (i + stop as usize, plies, retry);
            }
            i += stop as usize;
        }
        (i, plies, buf.len())
    }

    #[test]
    fn fast_path_counts_like_the_word_classifier() {
        const WORDS: &[&str] = &[
            "e4", "Nf3", "1.", "12...", "1.e4", "O-O", "0-0", "--", "e8=Q+", "!?", "Nf3!", "12",
            "...", "a", "-+", "+-", "x", "1.2", "12Nf3", "e4.e5", ".", "1...e5", "Z0", "h1=N#",
            "é4", "Nf3é", "a/b", "1-0", "Bb5+", "exd5", "1.-", "e4-", "1..", "3.-e4", "1.1", "1=",
            "1.=", "--e4", "e4.5", "1a", "1.e4.", "ch", "ep", "e.p.", "e.p", "mate", "dis", "dbl",
            "matt", "mat", "Kh", "1.ch", "ch!", "exd6e.p.", "O-O-O",
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
                    // A mark written as a word of its own is no move.
                    Core::San(san) if !ended && !is_mark_word(san) => want += 1,
                    Core::Result(_) => ended = true,
                    _ => {}
                }
            }
            text.push_str(&" ".repeat(next(80)));
            let span = scan_game(text.as_bytes(), 0, true, &mut NoTags).expect("eof");
            assert_eq!(span.plies, want, "{text:?}");
            // Both versions of the fast path (SSE2 only, and AVX2 where the machine has it)
            // return what the rules one by one give.
            #[cfg(target_arch = "x86_64")]
            for (i, &b) in text.as_bytes().iter().enumerate() {
                if CLASS[b as usize] == WS {
                    let want = rule_by_rule(text.as_bytes(), i);
                    let sse2 = plain_windows(text.as_bytes(), i, window_masks);
                    assert_eq!(sse2, want, "{text:?} at {i}");
                    assert_eq!(plain_run(text.as_bytes(), i), want, "{text:?} at {i}");
                }
            }
            if let Some(n) = next_game {
                assert_eq!(span.next, n, "{text:?}");
            }
        }
    }

    /// Both versions of [`Masks`], byte by byte against their definitions, on windows of
    /// every byte value and random ones (mostly of plain bytes).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn masks_are_what_they_say() {
        let want = |w: &[u8; 64]| {
            let mask = |f: fn(u8) -> bool| (0..64).filter(|&k| f(w[k])).map(|k| 1 << k).sum();
            Masks {
                letter: mask(|b| b.is_ascii_alphabetic()),
                digit: mask(|b| b.is_ascii_digit()),
                blank: mask(|b| matches!(CLASS[b as usize], WS | NL)),
                dot: mask(|b| b == b'.'),
                line_or_dash: mask(|b| b == b'\n' || b == b'-'),
                odd: mask(|b| !(b.is_ascii_alphanumeric() || b <= b' ' || b".+#=!?-".contains(&b))),
            }
        };
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        const PLAIN: &[u8] = b" \n\t.-+#=!?019aAzZoOpP";
        let mut windows: Vec<[u8; 64]> = (0..4)
            .map(|k| std::array::from_fn(|j| (64 * k + j) as u8))
            .collect();
        for _ in 0..20_000 {
            windows.push(std::array::from_fn(|_| match next(4) {
                0 => next(256) as u8,
                _ => PLAIN[next(PLAIN.len())],
            }));
        }
        let avx2 = std::arch::is_x86_feature_detected!("avx2");
        for w in &windows {
            assert_eq!(window_masks(w), want(w), "{w:?}");
            if avx2 {
                // SAFETY: the processor has AVX2, checked above.
                assert_eq!(unsafe { window_masks_avx2(w) }, want(w), "{w:?}");
            }
        }
    }
}
