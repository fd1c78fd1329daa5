//! The bounded input buffer behind the streaming reader and index: refills from a `Read`,
//! finds each game with the shared scanner, grows for a game larger than the buffer up to a
//! cap, and past the cap gives up on that game and resynchronises at the next game start
//! it can see: a line starting with `[Event `, or with `[` after a blank line.
//! Also the line/column bookkeeping ([`Tracker`]) that has to survive buffer refills.
//!
//! When the whole input is already in memory (a mapped file), the buffer is a window on it
//! instead: refilling moves and widens the window exactly as reading would fill the buffer,
//! so both give the same games, but no byte is copied.

use std::io::{self, Read};

use super::boundary::{scan_game, seek_game, NeedMore, Span, TagSink};
use super::scan::{CLASS, WS};

/// Initial buffer size: large enough to amortise `read` calls, small enough to be cheap.
pub(crate) const DEFAULT_BUFFER: usize = 256 * 1024;
/// Largest game (in bytes) the streaming reader and index accept before skipping it.
pub(crate) const DEFAULT_MAX_GAME: usize = 64 * 1024 * 1024;

/// Line and column of an absolute offset, advanced incrementally (positions are asked for
/// in increasing order, so the total work is linear in the input).
#[derive(Debug, Clone)]
pub(crate) struct Tracker {
    /// Absolute offset the line and column below describe.
    pub at: u64,
    /// 1-based line of `at`.
    pub line: u64,
    /// 1-based column of `at`, in characters (bytes that are not UTF-8 continuation bytes).
    pub col: u32,
}

impl Tracker {
    /// At the start of the input.
    pub fn new() -> Self {
        Tracker {
            at: 0,
            line: 1,
            col: 1,
        }
    }

    /// Counts lines and characters in the first `n` (at most 8) bytes of `word`, which holds
    /// eight bytes.
    #[inline]
    fn count8(&mut self, word: &[u8], n: usize) {
        const LO: u64 = 0x0101_0101_0101_0101;
        let x = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        let x = if n >= 8 {
            x
        } else {
            x & ((1u64 << (8 * n)) - 1)
        };
        // Exact zero-byte test of `x ^ "\n\n.."` (masked-off bytes become 0x0a: never zero).
        let nl = x ^ (LO * u64::from(b'\n'));
        let zero = !(((nl & (LO * 0x7f)) + LO * 0x7f) | nl | (LO * 0x7f));
        // Continuation bytes are 0b10xxxxxx: top bit set, next bit clear.
        let cont = |x: u64| (x & !(x << 1) & (LO * 0x80)).count_ones();
        if zero == 0 {
            self.col = self.col.saturating_add(n as u32 - cont(x));
        } else {
            self.line += u64::from(zero.count_ones());
            // Characters after the last line feed start the new column count.
            let after = (63 - zero.leading_zeros()) / 8 + 1;
            let rest = x.checked_shr(8 * after).unwrap_or(0);
            self.col = 1 + (n as u32).saturating_sub(after) - cont(rest);
        }
    }

    /// Counts lines and characters in `bytes` one byte at a time.
    fn slow(&mut self, bytes: &[u8]) {
        let mut col = self.col;
        for &b in bytes {
            if b == b'\n' {
                self.line += 1;
                col = 1;
            } else {
                col = col.saturating_add(u32::from(b & 0xC0 != 0x80));
            }
        }
        self.col = col;
    }

    /// Moves to absolute offset `target`; `buf` holds the input from absolute offset `base`.
    /// Never moves backwards.
    #[inline(always)]
    pub fn advance_to(&mut self, buf: &[u8], base: u64, target: u64) {
        if target <= self.at {
            return;
        }
        // The common case, inline: a gap of a few ASCII bytes between tokens on one line.
        if target - self.at <= 8 {
            let from = self.at.wrapping_sub(base) as usize;
            if let Some(word) = buf.get(from..from.wrapping_add(8)) {
                const LO: u64 = 0x0101_0101_0101_0101;
                let n = (target - self.at) as usize;
                let x = u64::from_le_bytes(word.try_into().unwrap_or([b'\n'; 8]));
                let x = if n == 8 {
                    x
                } else {
                    x & ((1u64 << (8 * n)) - 1)
                };
                // Exact zero-byte test of `x ^ "\n\n.."` (masked-off bytes become 0x0a, never
                // zero); any byte with its top bit set may be a UTF-8 continuation byte.
                let nl = x ^ (LO * u64::from(b'\n'));
                let zero = !(((nl & (LO * 0x7f)) + LO * 0x7f) | nl | (LO * 0x7f));
                if zero == 0 && x & (LO * 0x80) == 0 {
                    self.col = self.col.saturating_add(n as u32);
                    self.at = target;
                    return;
                }
            }
        }
        self.advance_slow(buf, base, target);
    }

    /// [`Tracker::advance_to`] for gaps with line feeds or non-ASCII bytes, or long ones.
    #[inline(never)]
    fn advance_slow(&mut self, buf: &[u8], base: u64, target: u64) {
        if target <= self.at {
            return;
        }
        // Bytes before `base` are gone; they were accounted for before they were dropped.
        let from = self.at.saturating_sub(base) as usize;
        let to = ((target - base) as usize).min(buf.len());
        let bytes = &buf[from.min(to)..to];
        if bytes.len() > 256 {
            let tail = match memchr::memrchr(b'\n', bytes) {
                Some(last) => {
                    self.line += memchr::memchr_iter(b'\n', &bytes[..=last]).count() as u64;
                    self.col = 1;
                    &bytes[last + 1..]
                }
                None => bytes,
            };
            let chars = tail.iter().filter(|&&b| b & 0xC0 != 0x80).count();
            self.col = self.col.saturating_add(chars as u32);
        } else {
            // Gaps between tokens are short: count eight bytes at a time.
            let mut k = 0;
            while k < bytes.len() {
                let n = (bytes.len() - k).min(8);
                match buf.get(from + k..from + k + 8) {
                    Some(word) => self.count8(word, n),
                    None => self.slow(&bytes[k..]),
                }
                k += 8;
            }
        }
        self.at = target;
    }
}

/// Where the bytes of a skipped game go (see [`Feed::skip_oversized`]).
pub(crate) type CopyOut<'a> = &'a mut dyn FnMut(&[u8]) -> io::Result<()>;

/// Where the bytes between games go (see [`Feed::seek`]); a type of its own, as a reference
/// to it may be reborrowed for each game.
pub(crate) type Between<'a> = dyn FnMut(&[u8]) -> io::Result<()> + 'a;

/// The search for where to go on after a game too large to hold: the next line that
/// starts with `[Event `, or with `[` after a blank line (the signal for a game start
/// that the chunk guesses and other readers use; a bare `[` line would cut a multi-line
/// tag section into games). Its state survives refills, so memory stays bounded however
/// long the lines.
#[derive(Debug, Clone, Copy, Default)]
struct Resync {
    /// At the first byte of a line.
    line_start: bool,
    /// The line being scanned holds only blanks so far.
    line_blank: bool,
    /// The line before the current one was blank.
    prev_blank: bool,
}

impl Resync {
    /// Scans `buf` from `i` (where the last call stopped, or the first byte of what is
    /// skipped): `Ok` with the offset of the next game's `[`, or `Err` with where
    /// scanning stopped for want of input.
    fn find(&mut self, buf: &[u8], mut i: usize, eof: bool) -> Result<usize, usize> {
        const EVENT: &[u8] = b"[Event ";
        let len = buf.len();
        let blank = |bytes: &[u8]| bytes.iter().all(|&b| CLASS[b as usize] == WS);
        loop {
            if self.line_start {
                if i >= len {
                    return Err(i);
                }
                if buf[i] == b'[' {
                    if self.prev_blank {
                        return Ok(i);
                    }
                    let rest = &buf[i..];
                    if rest.len() < EVENT.len() && !eof {
                        return Err(i); // decided once more is read
                    }
                    if rest.starts_with(EVENT) {
                        return Ok(i);
                    }
                }
                (self.line_start, self.line_blank) = (false, true);
            }
            match memchr::memchr(b'\n', &buf[i..]) {
                Some(k) => {
                    self.prev_blank = self.line_blank && blank(&buf[i..i + k]);
                    self.line_start = true;
                    i += k + 1;
                }
                None => {
                    self.line_blank = self.line_blank && blank(&buf[i..]);
                    return Err(len);
                }
            }
        }
    }
}

/// What [`Feed::next`] found.
pub(crate) enum Next {
    /// A game; its offsets are into [`Feed::buf`], valid until the next call.
    Game(Span),
    /// A game starting at this buffer offset exceeds the size cap; the feed will skip to the
    /// next game start (see `Resync`) on the following call.
    TooLarge(usize),
    /// End of input.
    End,
}

/// The whole input, when it is in memory.
pub(crate) type Whole = Box<dyn AsRef<[u8]> + Send + Sync>;

/// A bounded buffer over a `Read` (or a window on an input in memory), yielding one game
/// span at a time.
pub(crate) struct Feed<R> {
    src: R,
    /// The whole input from offset 0, when it is in memory: the buffer is then
    /// `whole[base..base + filled]` and `store` stays empty.
    whole: Option<Whole>,
    /// The buffer; only `store[..filled]` holds input.
    store: Vec<u8>,
    filled: usize,
    /// Absolute offset of `buf[0]`.
    base: u64,
    /// Where scanning resumes.
    pos: usize,
    cap: usize,
    max_game: usize,
    eof: bool,
    started: bool,
    resync: bool,
    /// Where the search for the next game start stands (kept across refills).
    seek: Resync,
    /// Whether the input starts at absolute offset 0, where a byte-order mark is skipped.
    at_start: bool,
}

impl<R: Read> Feed<R> {
    /// A feed with an initial buffer of `buffer` bytes and a per-game cap of `max_game`.
    pub fn new(src: R, buffer: usize, max_game: usize) -> Self {
        Feed {
            src,
            whole: None,
            store: Vec::new(),
            filled: 0,
            base: 0,
            pos: 0,
            cap: buffer.max(64),
            max_game: max_game.max(64),
            eof: false,
            started: false,
            resync: false,
            seek: Resync::default(),
            at_start: true,
        }
    }

    /// A feed over an input held in memory (from its offset 0), read through a window of
    /// the size a buffer over a `Read` would have; `src` is never read.
    pub fn in_memory(src: R, whole: Whole, buffer: usize, max_game: usize) -> Self {
        Feed {
            whole: Some(whole),
            ..Self::new(src, buffer, max_game)
        }
    }

    /// Makes a new feed start at absolute offset `offset` of an input, where a game may
    /// begin (a game start, or a point between games). Its `src` must give the input from
    /// `offset - 1` on (from 0 when `offset` is 0): that one byte of history says whether
    /// `offset` is first on its line, as in a feed that read the input from its start.
    pub fn start_at(&mut self, offset: u64) {
        debug_assert!(!self.started, "a feed can only be moved before it reads");
        self.base = offset.saturating_sub(1);
        self.pos = usize::from(offset > 0);
        self.at_start = offset == 0;
    }

    /// The buffered bytes; spans returned by [`Feed::next`] index into this.
    #[inline]
    pub fn buf(&self) -> &[u8] {
        match &self.whole {
            Some(whole) => {
                let from = self.base as usize;
                let whole = (**whole).as_ref();
                whole.get(from..from + self.filled).unwrap_or_default()
            }
            None => &self.store[..self.filled],
        }
    }

    /// Absolute offset of `buf()[0]`.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Drops consumed bytes (keeping one byte of history, so that "first on its line" can
    /// still be decided at the new buffer start), grows the buffer if a game fills it, then
    /// reads until the buffer is full or the input ends.
    fn refill(&mut self) -> io::Result<()> {
        let keep = self.pos.saturating_sub(1);
        if keep > 0 {
            if self.whole.is_none() {
                self.store.copy_within(keep..self.filled, 0);
            }
            self.filled -= keep;
            self.base += keep as u64;
            self.pos -= keep;
        }
        if self.filled >= self.cap {
            self.cap = self.cap.saturating_mul(2);
        }
        if let Some(whole) = &self.whole {
            // What reading would do: fill the buffer, and find the end only when the
            // input stops short of filling it.
            let rest = ((**whole).as_ref().len() as u64).saturating_sub(self.base) as usize;
            self.filled = rest.min(self.cap);
            self.eof = rest < self.cap;
            return Ok(());
        }
        if self.store.len() < self.cap {
            // Zeroed once per growth, not per read.
            self.store.resize(self.cap, 0);
        }
        while self.filled < self.cap && !self.eof {
            match self.src.read(&mut self.store[self.filled..self.cap]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.filled += n.min(self.cap - self.filled),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Skips what `self.seek` started to skip (an oversized game, or `%` line) up to the
    /// next game start it can see, handing the bytes skipped to `copy` when given.
    fn resynchronise(
        &mut self,
        tracker: &mut Option<&mut Tracker>,
        mut copy: Option<CopyOut<'_>>,
    ) -> io::Result<()> {
        // Cleared first: should copying fail, the next read still goes on past the game.
        self.resync = false;
        loop {
            let from = self.pos;
            let mut seek = self.seek;
            let found = seek.find(self.buf(), from, self.eof);
            self.seek = seek;
            self.pos = match found {
                Ok(at) => at,
                Err(_) if self.eof => self.filled,
                Err(upto) => upto,
            };
            if let Some(copy) = copy.as_deref_mut() {
                if let Err(e) = copy(&self.buf()[from..self.pos]) {
                    self.resync = found.is_err() && !self.eof;
                    return Err(e);
                }
            }
            if found.is_ok() || self.eof {
                return Ok(());
            }
            if let Some(t) = tracker {
                t.advance_to(self.buf(), self.base, self.base + self.pos as u64);
            }
            self.refill()?;
        }
    }

    /// After [`Next::TooLarge`]: skips the oversized game now (instead of before the next
    /// game), handing its bytes to `copy`. Does nothing if no game is waiting to be skipped.
    pub fn skip_oversized(
        &mut self,
        mut tracker: Option<&mut Tracker>,
        copy: Option<CopyOut<'_>>,
    ) -> io::Result<()> {
        if self.resync {
            self.resynchronise(&mut tracker, copy)?;
        }
        Ok(())
    }

    /// The largest game accepted, in bytes.
    pub fn max_game(&self) -> usize {
        self.max_game
    }

    /// Whether the whole input has been read into the buffer.
    pub fn eof(&self) -> bool {
        self.eof
    }

    /// Moves on to buffer offset `next`, where the game after the one just read starts.
    pub fn skip_to(&mut self, next: usize) {
        self.pos = next;
    }

    /// Finds where the next game starts (a buffer offset, valid until the next call), with at
    /// least `lookahead` bytes buffered from there unless the input ends first; `None` at the
    /// end of input. `tracker`, if given, is kept up to date over bytes about to be dropped.
    /// `between`, if given, gets the bytes passed over on the way (blanks, byte-order marks,
    /// `%` lines), in pieces that never cut a `%` line; not those of a `%` line longer than
    /// the size cap, skipped like an oversized game.
    pub fn seek(
        &mut self,
        lookahead: usize,
        mut tracker: Option<&mut Tracker>,
        mut between: Option<&mut Between<'_>>,
    ) -> io::Result<Option<usize>> {
        if !self.started {
            self.refill()?;
            if self.at_start && self.buf().starts_with(b"\xEF\xBB\xBF") {
                // The mark is not a column of the first line; the scanner passes over it
                // (a `%` line right after it is an escape line: see `boundary::line_start`).
                if let Some(t) = tracker.as_deref_mut() {
                    t.at = 3;
                }
            }
            self.started = true;
        }
        if self.resync {
            self.resynchronise(&mut tracker, None)?;
        }
        loop {
            if let Some(t) = tracker.as_deref_mut() {
                t.advance_to(self.buf(), self.base, self.base + self.pos as u64);
            }
            let found = seek_game(self.buf(), self.pos, self.eof);
            if let Some(between) = between.as_deref_mut() {
                let upto = match found {
                    Ok(Some(at)) | Err(NeedMore(at)) => at,
                    Ok(None) => self.filled,
                };
                between(&self.buf()[self.pos..upto])?;
            }
            match found {
                Ok(Some(start)) => {
                    self.pos = start;
                    if !self.eof && self.filled - start < lookahead {
                        if let Some(t) = tracker.as_deref_mut() {
                            t.advance_to(self.buf(), self.base, self.base + start as u64);
                        }
                        // Keeps the bytes from `start` on, which moves them to the front.
                        self.refill()?;
                    }
                    return Ok(Some(self.pos));
                }
                Ok(None) => return Ok(None),
                Err(NeedMore(upto)) => {
                    self.pos = upto;
                    if let Some(t) = tracker.as_deref_mut() {
                        t.advance_to(self.buf(), self.base, self.base + upto as u64);
                    }
                    if self.filled - upto >= self.max_game {
                        // A `%` line longer than any game: skip it like an oversized game.
                        self.seek = Resync::default();
                        self.resynchronise(&mut tracker, None)?;
                    } else {
                        self.refill()?;
                    }
                }
            }
        }
    }

    /// Finds the next game. `sink` sees its tags (and is reset before a rescan); `tracker`,
    /// if given, is kept up to date over bytes that are about to be dropped; `between`, if
    /// given, gets the bytes passed over before the game (see [`Feed::seek`]).
    pub fn next<S: TagSink>(
        &mut self,
        sink: &mut S,
        mut tracker: Option<&mut Tracker>,
        mut between: Option<&mut Between<'_>>,
    ) -> io::Result<Next> {
        loop {
            let Some(start) = self.seek(0, tracker.as_deref_mut(), between.as_deref_mut())? else {
                return Ok(Next::End);
            };
            sink.reset();
            match scan_game(self.buf(), start, self.eof, sink) {
                // A game that fits in the buffer, grown or mapped, may still be over the
                // limit: the limit is the game's size, not the buffer's.
                Ok(span) if span.next - start <= self.max_game => {
                    self.pos = span.next;
                    return Ok(Next::Game(span));
                }
                Ok(_) => {
                    self.pos = start;
                    self.resync = true;
                    self.seek = Resync::default();
                    return Ok(Next::TooLarge(start));
                }
                Err(NeedMore(_)) if self.filled - start >= self.max_game => {
                    // Skipping finds the next "\n[" from the game's first byte, which is no
                    // line feed, so the game itself is never taken for the next one.
                    self.pos = start;
                    self.resync = true;
                    self.seek = Resync::default();
                    return Ok(Next::TooLarge(start));
                }
                Err(NeedMore(_)) => {
                    if let Some(t) = tracker.as_deref_mut() {
                        t.advance_to(self.buf(), self.base, self.base + start as u64);
                    }
                    self.pos = start;
                    self.refill()?;
                }
            }
        }
    }
}
