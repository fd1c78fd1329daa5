//! A fast index of the games in a PGN file: where each game is, its Seven Tag Roster, ECO and
//! Elo tags, and its main-line ply count, found without lexing moves into callbacks.
//!
//! Game boundaries come from the scanner the [reader](super::reader) uses, so entry `n` is
//! always the game the reader reports as game `n`.
//!
//! The ply count is counted, never taken from a `PlyCount` tag (which may be missing or
//! wrong): it is the number of words with a move in them in the main line, i.e. outside
//! comments, `;` comment lines, `%` lines and variations, not counting move numbers, NAGs,
//! glyphs, evaluation symbols or the result. Glued forms (`1.e4`, `12...Nf3`) count once.
//! It equals the number of `san` callbacks the reader makes outside variations, in every
//! game the reader reads without error (tested on all the real games and on random input).

use std::io::{self, Read};

use super::boundary::{scan_game, seek_game, Span, TagSink};
use super::feed::{Feed, Next, DEFAULT_BUFFER, DEFAULT_MAX_GAME};
use super::scan::{decode_value, Outcome};

/// One game of an indexed file. Missing tags are empty strings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameEntry {
    /// 1-based game number, as the reader counts them.
    pub number: u64,
    /// Byte offset of the game's first byte in the input.
    pub offset: u64,
    /// Length in bytes, up to the last non-blank byte of the game.
    pub len: u64,
    /// `Event` tag.
    pub event: String,
    /// `Site` tag.
    pub site: String,
    /// `Date` tag.
    pub date: String,
    /// `Round` tag.
    pub round: String,
    /// `White` tag.
    pub white: String,
    /// `Black` tag.
    pub black: String,
    /// `Result` tag (see also [`GameEntry::outcome`]).
    pub result: String,
    /// `ECO` tag.
    pub eco: String,
    /// `WhiteElo` tag.
    pub white_elo: String,
    /// `BlackElo` tag.
    pub black_elo: String,
    /// Moves (half-moves) in the main line, counted from the movetext.
    pub plies: u32,
    /// The result token ending the movetext, if any.
    pub outcome: Option<Outcome>,
}

/// Collects the tags an entry keeps, decoding values (unescaped; UTF-8 or else Latin-1).
struct Roster {
    entry: GameEntry,
    bytes: Vec<u8>,
    text: String,
}

impl TagSink for Roster {
    #[inline]
    fn tag(&mut self, name: &[u8], raw: &[u8]) {
        let e = &mut self.entry;
        let field = match name {
            b"Event" => &mut e.event,
            b"Site" => &mut e.site,
            b"Date" => &mut e.date,
            b"Round" => &mut e.round,
            b"White" => &mut e.white,
            b"Black" => &mut e.black,
            b"Result" => &mut e.result,
            b"ECO" => &mut e.eco,
            b"WhiteElo" => &mut e.white_elo,
            b"BlackElo" => &mut e.black_elo,
            _ => return,
        };
        field.clear();
        field.push_str(decode_value(raw, &mut self.bytes, &mut self.text));
    }

    fn reset(&mut self) {
        self.entry = GameEntry::default();
    }
}

impl Roster {
    fn new() -> Self {
        Roster {
            entry: GameEntry::default(),
            bytes: Vec::new(),
            text: String::new(),
        }
    }

    /// Completes the entry with what the scanner found and hands it over.
    fn finish(&mut self, number: u64, base: u64, span: &Span) -> GameEntry {
        let mut e = std::mem::take(&mut self.entry);
        e.number = number;
        e.offset = base + span.start as u64;
        e.len = (span.end - span.start) as u64;
        e.plies = span.plies;
        e.outcome = span.result.map(|(_, r)| r);
        e
    }
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
        out.push(roster.finish(out.len() as u64 + 1, 0, &span));
        pos = span.next;
    }
    out
}

/// Indexes a PGN file from any `Read`, with the reader's bounded buffer. A game larger than
/// 64 MiB gets no entry but still takes its number, as in the reader.
pub fn index_read<R: Read>(src: R) -> io::Result<Vec<GameEntry>> {
    let mut feed = Feed::new(src, DEFAULT_BUFFER, DEFAULT_MAX_GAME);
    let mut out = Vec::new();
    let mut roster = Roster::new();
    let mut number = 0;
    loop {
        match feed.next(&mut roster, None)? {
            Next::End => return Ok(out),
            Next::Game(span) => {
                number += 1;
                out.push(roster.finish(number, feed.base(), &span));
            }
            Next::TooLarge(_) => number += 1,
        }
    }
}
