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
pub(crate) fn plain_run(buf: &[u8], i: usize) -> (usize, u32, usize) {
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
        prefetch(buf, i);
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
pub(crate) fn plain_run(buf: &[u8], i: usize) -> (usize, u32, usize) {
    (i, 0, buf.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::boundary::{scan_game, NoTags};
    use crate::pgn::scan::{classify_word, Core, CLASS, WS};

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
}
