//! A fast index of the games in a PGN file: where each game is, its Seven Tag Roster, ECO,
//! Opening and Elo tags, and its main-line ply count, found without lexing moves into callbacks.
//!
//! Game boundaries come from the scanner the [reader](super::reader) uses, so entry `n` is
//! always the game the reader reports as game `n`.
//!
//! The ply count is counted, never taken from a `PlyCount` tag (which may be missing or
//! wrong): it is the number of words with a move in them in the main line, i.e. outside
//! comments, `;` comment lines, `%` lines and variations, not counting move numbers, NAGs,
//! glyphs, evaluation symbols, the result, or marks written as words of their own (`exd6
//! e.p.`, `Qh5 ch`, `Qg7 mate`). Glued forms (`1.e4`, `12...Nf3`) count once. It equals the
//! number of `san` callbacks the reader makes outside variations, those marks aside, in every
//! game the reader reads without error (tested on all the real games and on random input).
//!
//! An [`Indexer`] reads a `Read` through a bounded buffer, or an input already in memory
//! (`Indexer::in_memory`) through a window on it, which gives the same
//! entries without copying. [`Indexer::next_game_ref`] lends each entry ([`GameRef`]) until
//! the next call, which spares the allocation an owned [`GameEntry`] needs.

use std::io::{self, Read};
use std::ops::Range;

use super::boundary::{scan_game, seek_game, tag_section, Span, TagSink};
use super::feed::{Feed, Next, DEFAULT_BUFFER, DEFAULT_MAX_GAME};
use super::scan::{decode_value, Outcome};

/// One game of an indexed file. Tag values are unescaped and decoded (UTF-8, or Windows-1252
/// when not valid UTF-8); a missing tag reads as an empty string.
///
/// `T` holds the kept tag values: a [`GameEntry`] owns them, a [`GameRef`] borrows them
/// from the [`Indexer`] until its next call (which saves an allocation per game).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry<T> {
    /// 1-based game number, as the reader counts them.
    pub number: u64,
    /// Byte offset of the game's first byte in the input.
    pub offset: u64,
    /// Length in bytes, up to the last non-blank byte of the game.
    pub len: u64,
    /// Moves (half-moves) in the main line, counted from the movetext.
    pub plies: u32,
    /// The result token ending the movetext, if any (the `Result` tag may differ).
    pub outcome: Option<Outcome>,
    /// Text holding the kept tag values: one allocation per game, not ten.
    text: T,
    /// Where each kept value starts and ends in `text` (empty for a missing tag).
    spans: [(u32, u32); 11],
}

/// An index entry that owns its tag values.
pub type GameEntry = Entry<Box<str>>;

/// An index entry borrowing its tag values from the [`Indexer`] that made it.
pub type GameRef<'a> = Entry<&'a str>;

impl GameRef<'_> {
    /// The same entry, owning its tag values (and only those).
    pub fn to_entry(&self) -> GameEntry {
        let mut text = String::new();
        let mut spans = [(0, 0); 11];
        for (k, span) in spans.iter_mut().enumerate() {
            let start = text.len() as u32;
            text.push_str(self.tag(k));
            *span = (start, text.len() as u32);
        }
        Entry {
            number: self.number,
            offset: self.offset,
            len: self.len,
            plies: self.plies,
            outcome: self.outcome,
            text: text.into(),
            spans,
        }
    }
}

impl<T: AsRef<str>> Entry<T> {
    /// The value of kept tag number `k`, in the order of the accessors below.
    fn tag(&self, k: usize) -> &str {
        let (start, end) = self.spans[k];
        self.text
            .as_ref()
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// The columns of a line of `scoresheet list`, in its order: White, Black, Result,
    /// Date, Event, ECO (`search` prints the same; its index keeps them).
    pub fn list_columns(&self) -> [&str; 6] {
        [
            self.white(),
            self.black(),
            self.result(),
            self.date(),
            self.event(),
            self.eco(),
        ]
    }

    /// `Event` tag.
    pub fn event(&self) -> &str {
        self.tag(0)
    }
    /// `Site` tag.
    pub fn site(&self) -> &str {
        self.tag(1)
    }
    /// `Date` tag.
    pub fn date(&self) -> &str {
        self.tag(2)
    }
    /// `Round` tag.
    pub fn round(&self) -> &str {
        self.tag(3)
    }
    /// `White` tag.
    pub fn white(&self) -> &str {
        self.tag(4)
    }
    /// `Black` tag.
    pub fn black(&self) -> &str {
        self.tag(5)
    }
    /// `Result` tag (see also [`Entry::outcome`]).
    pub fn result(&self) -> &str {
        self.tag(6)
    }
    /// `ECO` tag.
    pub fn eco(&self) -> &str {
        self.tag(7)
    }
    /// `WhiteElo` tag.
    pub fn white_elo(&self) -> &str {
        self.tag(8)
    }
    /// `BlackElo` tag.
    pub fn black_elo(&self) -> &str {
        self.tag(9)
    }
    /// `Opening` tag.
    pub fn opening(&self) -> &str {
        self.tag(10)
    }
}

/// Remembers where the kept tags' raw values are while the scanner runs, then decodes them
/// all at once: in place when they need no decoding, else into a buffer reused from game to
/// game.
struct Roster {
    values: [Option<Range<usize>>; 11],
    /// Bytes covering every kept value seen (an overwritten one too, when a tag repeats):
    /// from the lowest start to the highest end; `NO_REGION` before the first.
    region: (usize, usize),
    /// The decoded values of the last game, when decoding changes them.
    decoded: String,
    bytes: Vec<u8>,
    text: String,
}

impl TagSink for Roster {
    #[inline]
    fn tag(&mut self, name: &[u8], value: Range<usize>) {
        // A match compiles to a switch on the length, then one comparison.
        let k = match name {
            b"Event" => 0,
            b"Site" => 1,
            b"Date" => 2,
            b"Round" => 3,
            b"White" => 4,
            b"Black" => 5,
            b"Result" => 6,
            b"ECO" => 7,
            b"WhiteElo" => 8,
            b"BlackElo" => 9,
            b"Opening" => 10,
            _ => return,
        };
        self.region = (self.region.0.min(value.start), self.region.1.max(value.end));
        self.values[k] = Some(value);
    }

    fn reset(&mut self) {
        self.values = Default::default();
        self.region = NO_REGION;
    }
}

impl Roster {
    fn new() -> Self {
        Roster {
            values: Default::default(),
            region: NO_REGION,
            decoded: String::new(),
            bytes: Vec::new(),
            text: String::new(),
        }
    }

    /// Builds the entry for `span` of `buf` (whose first byte is at absolute offset `base`).
    #[inline]
    fn finish<'a>(&'a mut self, number: u64, buf: &'a [u8], base: u64, span: &Span) -> GameRef<'a> {
        let Roster {
            values,
            region,
            decoded,
            bytes,
            text,
        } = self;
        let mut spans = [(0u32, 0u32); 11];
        let from = region.0.min(region.1);
        let to = region.1.max(from);
        *region = NO_REGION;
        let region = &buf[from..to];
        // Fast path: no escapes, and ASCII (then valid UTF-8; else checked). Values start
        // and end at quotes, which are character boundaries then, so every value is valid
        // UTF-8 by itself: decoding changes nothing, and the entry can borrow the values
        // where they are.
        let plain = match ascii_unescaped(region) {
            Some(all) => Some(all),
            None if memchr::memchr(b'\\', region).is_none() => std::str::from_utf8(region).ok(),
            None => None,
        };
        let all = match plain {
            Some(all) => {
                for (v, span) in values.iter().zip(&mut spans) {
                    if let Some(v) = v {
                        *span = ((v.start - from) as u32, (v.end - from) as u32);
                    }
                }
                all
            }
            _ => {
                // Escapes or text that is not UTF-8: decode value by value, as the reader does.
                decoded.clear();
                for (v, span) in values.iter().zip(&mut spans) {
                    if let Some(v) = v {
                        let start = decoded.len() as u32;
                        decoded.push_str(decode_value(&buf[v.clone()], bytes, text));
                        *span = (start, decoded.len() as u32);
                    }
                }
                decoded
            }
        };
        *values = Default::default();
        Entry {
            number,
            offset: base + span.start as u64,
            len: (span.end - span.start) as u64,
            plies: span.plies,
            outcome: span.result.map(|(_, r)| r),
            text: all,
            spans,
        }
    }
}

/// The region of a game without kept values (empty once the first one comes).
const NO_REGION: (usize, usize) = (usize::MAX, 0);

/// `bytes` as text if they are all ASCII and hold no backslash (no escape to undo), which
/// most tag sections are: checked sixteen bytes at a time, faster than UTF-8 validation.
fn ascii_unescaped(bytes: &[u8]) -> Option<&str> {
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= 16 {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8, _mm_setzero_si128,
        };
        // Each chunk's bytes with the top bit set when not ASCII or a backslash (whose
        // compare sets it), or-ed together; the last chunk overlaps the one before.
        let last = bytes.len() - 16;
        // SAFETY: SSE2 is part of the x86_64 baseline; each unaligned load reads sixteen
        // bytes from an offset at most `len - 16`.
        let m = unsafe {
            let flag = |at: usize| {
                let v = _mm_loadu_si128(bytes[at..].as_ptr().cast::<__m128i>());
                _mm_or_si128(v, _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8)))
            };
            let mut acc = _mm_setzero_si128();
            for at in (0..last).step_by(16) {
                acc = _mm_or_si128(acc, flag(at));
            }
            _mm_movemask_epi8(_mm_or_si128(acc, flag(last)))
        };
        // SAFETY: ASCII is valid UTF-8.
        return (m == 0).then(|| unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    if bytes.iter().any(|&b| !b.is_ascii() || b == b'\\') {
        return None;
    }
    // SAFETY: ASCII is valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// Indexes a whole PGN file held in memory.
pub fn index(bytes: &[u8]) -> Vec<GameEntry> {
    let mut out = Vec::new();
    let mut roster = Roster::new();
    let mut pos = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    while let Ok(Some(start)) = seek_game(bytes, pos, true) {
        roster.reset();
        // With the whole input at hand the scanner cannot run short.
        let Ok(span) = scan_game(bytes, start, true, &mut roster) else {
            break;
        };
        out.push(
            roster
                .finish(out.len() as u64 + 1, bytes, 0, &span)
                .to_entry(),
        );
        pos = span.next;
    }
    out
}

/// Reads the kept tags of single games of an input held in memory, without scanning their
/// movetext: for a caller that already knows where the games are (a position index does)
/// and shows `list`'s columns for some of them. The values are those [`Indexer`] gives.
pub struct TagsAt {
    roster: Roster,
}

impl Default for TagsAt {
    fn default() -> Self {
        TagsAt {
            roster: Roster::new(),
        }
    }
}

impl TagsAt {
    /// The tags of the game that starts at `bytes`' first byte (or after the blanks there),
    /// `bytes` ending at most where the next game starts, numbered `number`: an entry
    /// whose offset, length, plies and result are not read (0, 0, 0, none), borrowing its
    /// values until the next call.
    #[inline]
    pub fn read<'a>(&'a mut self, bytes: &'a [u8], number: u64) -> GameRef<'a> {
        // With the whole game at hand the tag section always ends (`None`: never).
        let end = self.scan(bytes, true).unwrap_or(bytes.len());
        self.entry(bytes, number, end)
    }

    /// Reads the tag section of the game that starts at `bytes`' first byte (or after the
    /// blanks there), `bytes` ending at most where the next game starts: where the section
    /// ends, or `None` when `bytes` end first and are not `whole` (the rest of the game is
    /// still to come: scan again with more). Then [`TagsAt::entry`] gives its entry.
    #[inline]
    pub(crate) fn scan(&mut self, bytes: &[u8], whole: bool) -> Option<usize> {
        self.roster.reset();
        let start = match seek_game(bytes, 0, whole) {
            Ok(Some(start)) => start,
            Ok(None) | Err(_) if whole => bytes.len(),
            Ok(None) | Err(_) => return None,
        };
        tag_section(bytes, start, whole, &mut self.roster)
    }

    /// The entry of the tag section [`TagsAt::scan`] read last, which ends at `end`, from
    /// the bytes it was read from (or more of them: the same start).
    #[inline]
    pub(crate) fn entry<'a>(&'a mut self, bytes: &'a [u8], number: u64, end: usize) -> GameRef<'a> {
        let span = Span {
            start: end,
            end,
            next: end,
            plies: 0,
            result: None,
        };
        let mut entry = self.roster.finish(number, bytes, 0, &span);
        entry.offset = 0;
        entry
    }
}

/// Where the values of the tags `list` shows lie in one game's tag section, noted while a
/// reader reads the game (see [`crate::pgn::Visitor::tag_place`]), so that they can be read
/// later from the input without scanning the tag section again. Offsets
/// count from the game's first byte; `(0, 0)` for a tag not seen (no value starts at a
/// game's first byte, which is a `[`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ColumnPlaces([(u32, u32); 6]);

impl ColumnPlaces {
    /// Notes where the value of the tag `name` lies (absolute offsets), in a game whose
    /// first byte is at `start`, when it is one `list` shows; a later value of the same tag
    /// replaces it, as in [`TagsAt::read`]. `false` when it lies too far from the start to
    /// be noted: the places are then not to be used.
    #[inline]
    pub fn note(&mut self, name: &[u8], value: Range<u64>, start: u64) -> bool {
        let k = match name {
            b"White" => 0,
            b"Black" => 1,
            b"Result" => 2,
            b"Date" => 3,
            b"Event" => 4,
            b"ECO" => 5,
            _ => return true,
        };
        let from_start = |at: u64| at.checked_sub(start).and_then(|d| u32::try_from(d).ok());
        match (from_start(value.start), from_start(value.end)) {
            (Some(s), Some(e)) => {
                self.0[k] = (s, e);
                true
            }
            _ => false,
        }
    }

    /// How many bytes from the game's first the values take: [`ColumnPlaces::raw`] needs
    /// the game's bytes that far.
    pub fn end(&self) -> usize {
        self.0
            .iter()
            .map(|&(_, end)| end as usize)
            .max()
            .unwrap_or(0)
    }

    /// The values as written (not unescaped nor decoded) in the game whose first byte is
    /// `game`'s first, in the order of [`Entry::list_columns`]; empty for a tag not seen.
    /// `None` when a place lies beyond `game`: not this game's places.
    pub fn raw<'a>(&self, game: &'a [u8]) -> Option<[&'a [u8]; 6]> {
        let mut values = [&game[..0]; 6];
        for (value, &(start, end)) in values.iter_mut().zip(&self.0) {
            if start != 0 {
                *value = game.get(start as usize..end as usize)?;
            }
        }
        Some(values)
    }
}

/// Indexes a PGN file from any `Read`, with the reader's bounded buffer. A game larger than
/// 64 MiB gets no entry but still takes its number, as in the reader.
pub fn index_read<R: Read>(src: R) -> io::Result<Vec<GameEntry>> {
    let mut out = Vec::new();
    index_each(src, |entry| {
        out.push(entry);
        Ok(())
    })?;
    Ok(out)
}

/// Like [`index_read`], but hands each entry to `each` as soon as its game has been
/// scanned, so memory stays bounded whatever the number of games.
pub fn index_each<R: Read>(
    src: R,
    mut each: impl FnMut(GameEntry) -> io::Result<()>,
) -> io::Result<()> {
    let mut indexer = Indexer::new(src);
    while let Some(entry) = indexer.next_game()? {
        if let Some(entry) = entry {
            each(entry)?;
        }
    }
    Ok(())
}

/// Indexes the games of any `Read` one at a time, with the reader's bounded buffer; can
/// start in the middle of an input and say where the next game starts before indexing it
/// (`list` indexes the chunks of a file on several threads that way).
pub struct Indexer<R> {
    feed: Feed<R>,
    roster: Roster,
    number: u64,
    /// Where the last game too large to index starts (absolute offset).
    oversized: u64,
}

impl Indexer<io::Empty> {
    /// An indexer over an input held in memory, `bytes` being the
    /// input from its start: it gives the same entries as [`Indexer::new`] over a `Read` of
    /// the same bytes, without copying them.
    pub fn in_memory(bytes: impl AsRef<[u8]> + Send + Sync + 'static) -> Self {
        Indexer {
            feed: Feed::in_memory(
                io::empty(),
                Box::new(bytes),
                DEFAULT_BUFFER,
                DEFAULT_MAX_GAME,
            ),
            roster: Roster::new(),
            number: 0,
            oversized: 0,
        }
    }
}

impl<R: Read> Indexer<R> {
    /// An indexer over a whole input.
    pub fn new(src: R) -> Self {
        Self::with_buffer(src, DEFAULT_BUFFER)
    }

    /// An indexer with an initial buffer of `buffer` bytes (it grows for a larger game).
    pub fn with_buffer(src: R, buffer: usize) -> Self {
        Indexer {
            feed: Feed::new(src, buffer, DEFAULT_MAX_GAME),
            roster: Roster::new(),
            number: 0,
            oversized: 0,
        }
    }

    /// An indexer with an initial buffer of `buffer` bytes and games limited to `max_game`
    /// bytes (instead of the reader's 64 MiB: tests make oversized games so).
    pub fn with_limits(src: R, buffer: usize, max_game: usize) -> Self {
        Indexer {
            feed: Feed::new(src, buffer, max_game),
            roster: Roster::new(),
            number: 0,
            oversized: 0,
        }
    }

    /// Makes a new indexer start at absolute offset `offset` of an input, a point where a
    /// game starts or that lies between games, and number the games from `number`. As for
    /// [`super::Reader::starting_at`], the source must give the input from `offset - 1` on
    /// (from 0 when `offset` is 0); an input held in memory is given whole. Entry offsets
    /// stay absolute. Call it before indexing.
    pub fn starting_at(mut self, offset: u64, number: u64) -> Self {
        self.feed.start_at(offset);
        self.number = number.saturating_sub(1);
        self
    }

    /// Absolute offset where the next game starts, without indexing it; `Ok(None)` at the
    /// end of the input.
    pub fn next_start(&mut self) -> io::Result<Option<u64>> {
        let start = self.feed.seek(0, None, None)?;
        Ok(start.map(|s| self.feed.base() + s as u64))
    }

    /// The next game: `Ok(None)` at the end of the input, `Some(None)` for a game larger
    /// than 64 MiB, which gets no entry but still takes its number, as in the reader.
    pub fn next_game(&mut self) -> io::Result<Option<Option<GameEntry>>> {
        Ok(self.next_game_ref()?.map(|e| e.map(|e| e.to_entry())))
    }

    /// [`Indexer::next_game`] without copying the tag values: they are borrowed until the
    /// next call.
    #[inline]
    pub fn next_game_ref(&mut self) -> io::Result<Option<Option<GameRef<'_>>>> {
        Ok(match self.feed.next(&mut self.roster, None, None)? {
            Next::End => None,
            Next::Game(span) => {
                self.number += 1;
                let (buf, base) = (self.feed.buf(), self.feed.base());
                Some(Some(self.roster.finish(self.number, buf, base, &span)))
            }
            Next::TooLarge(start) => {
                self.number += 1;
                self.oversized = self.feed.base() + start as u64;
                Some(None)
            }
        })
    }

    /// Where the game that [`Indexer::next_game`] last gave as too large starts (an
    /// absolute offset); meaningless before such a game.
    pub fn oversized_offset(&self) -> u64 {
        self.oversized
    }

    /// The number the next game gets.
    pub fn next_number(&self) -> u64 {
        self.number + 1
    }
}

#[cfg(test)]
#[path = "index_tests.rs"]
pub(crate) mod tests;
