//! The indexing side of the [`Loader`](super::Loader): games indexed into [`Raw`] rows
//! (numbers read, strings interned for their chunk), in file order, handed to the
//! interning thread as [`Stage`]s. Two producers: [`index`] reads one stream on one thread (a compressed
//! file, a pipe-like source, or one core); [`index_chunks`] reads a regular file in chunks
//! on every core with the splitter `list` and `check` use ([`crate::pgn::chunks`]), and
//! hands the chunks over in file order, so the rows are the same as one thread's.

use std::fs::File;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, LazyLock};

use super::row::{outcome_code, Date, Eco, Row, Unreadable};
use super::strings::Local;
use crate::pgn::chunks::{self, Indexed};
use crate::pgn::{GameRef, Indexer, Outcome};
use crate::study::game_tags::elo_of;

/// Games indexed, their strings interned for the chunk only: their rows, whose string
/// fields hold ids into the chunk's tables (see [`Local`]), which the loader's thread turns
/// into ids of the whole file.
pub(super) struct Raw {
    pub(super) rows: Vec<Row>,
    pub(super) players: Local,
    pub(super) events: Local,
    pub(super) sites: Local,
    pub(super) rounds: Local,
    pub(super) openings: Local,
    /// Offset reached in the input.
    pub(super) at: u64,
    /// The chunk id of the name of each packed ECO code (`u32::MAX`: not interned yet).
    eco_openings: Box<[u32; 501]>,
    /// Whether every game indexed is still here (none dropped): the chunk's strings are
    /// then all used, and in each table their ids follow the order the rows first use
    /// them in.
    pub(super) whole: bool,
}

/// Games per [`Raw`] after the first (which is a first batch's worth).
const RAW_GAMES: usize = 2048;

/// Bytes per chunk when a file is indexed on several threads (as `list` does): the first
/// rows wait for the first chunk, so it is small (a millisecond or two); the others are
/// `list`'s size, as each chunk's distinct names cost a lookup in the file's tables (the
/// larger the chunk, the more of its names it has already seen).
pub(super) const CHUNKS: chunks::Sizes = chunks::Sizes {
    first: 1 << 20,
    rest: 4 << 20,
};

/// What the indexing side hands to the interning one.
pub(super) enum Stage {
    Games(Box<Raw>),
    Failed(io::Error),
}

/// The name of each packed ECO code (empty when it has none), to stand for a missing
/// `Opening` tag.
pub(super) static ECO_NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    (0..=500u16)
        .map(|packed| {
            Eco::unpack(packed)
                .and_then(|c| crate::study::eco::name_of_code(&c.to_string()))
                .unwrap_or("")
        })
        .collect()
});

/// The tables of chunks already interned, handed back by the loader's thread for the next
/// chunks: their memory is used again instead of fresh pages (a fault each) per chunk.
// Boxed as they travel between threads (a `Raw` is some 600 bytes).
#[allow(clippy::vec_box)]
#[derive(Default)]
pub(super) struct Spare(std::sync::Mutex<Vec<Box<Raw>>>);

impl Spare {
    /// An empty [`Raw`] with room for `games` games: a spare one when there is.
    fn take(&self, games: usize) -> Box<Raw> {
        let spare = self.0.lock().ok().and_then(|mut spare| spare.pop());
        match spare {
            Some(mut raw) => {
                raw.rows = Vec::with_capacity(games);
                raw.at = 0;
                raw.whole = true;
                raw.eco_openings.fill(u32::MAX);
                for table in raw.tables_mut() {
                    table.clear();
                }
                raw
            }
            None => Box::new(Raw::with_room(games)),
        }
    }

    /// Keeps `raw`'s tables for a chunk to come (its rows are gone).
    pub(super) fn give(&self, raw: Box<Raw>) {
        if let Ok(mut spare) = self.0.lock() {
            spare.push(raw);
        }
    }
}

impl Raw {
    fn tables_mut(&mut self) -> [&mut Local; 5] {
        [
            &mut self.players,
            &mut self.events,
            &mut self.sites,
            &mut self.rounds,
            &mut self.openings,
        ]
    }

    fn with_room(games: usize) -> Raw {
        Raw {
            rows: Vec::with_capacity(games),
            // Players and sites (in lichess's files, a game's address) are the most
            // varied. The tables start smaller than they may become: a table made for
            // every name of the chunk being different was spread over more memory than the
            // processor's nearest cache, and most files repeat names within a chunk.
            players: Local::with_room(games / 2, games * 8),
            events: Local::with_room(64, 4096),
            sites: Local::with_room(games / 4, games * 6),
            rounds: Local::with_room(64, 1024),
            openings: Local::with_room(256, 8192),
            at: 0,
            eco_openings: Box::new([u32::MAX; 501]),
            whole: true,
        }
    }

    /// Adds an indexed game.
    fn push(&mut self, game: &GameRef) {
        self.at = game.offset + game.len;
        let (mut row, opening) = numbers(game);
        row.white = self.players.intern(game.white());
        row.black = self.players.intern(game.black());
        row.event = self.events.intern(game.event());
        row.site = self.sites.intern(game.site());
        row.round = self.rounds.intern(game.round());
        row.opening = match opening {
            Opening::Tag(tag) => self.openings.intern(tag),
            // Most files have no `Opening` tag: the name of the code is interned once.
            Opening::OfEco => match self.eco_openings.get_mut(usize::from(row.eco)) {
                Some(id) if *id != u32::MAX => *id,
                Some(id) => {
                    *id = self.openings.intern(ECO_NAMES[usize::from(row.eco)]);
                    *id
                }
                None => 0,
            },
        };
        self.rows.push(row);
    }

    /// Adds a game too large to index, starting at `at`: a row marked so.
    fn push_too_large(&mut self, at: u64) {
        self.at = at;
        let mut row = Row {
            result: outcome_code(Outcome::Unknown),
            state: Unreadable::TooLarge.code(),
            ..Row::default()
        };
        row.set_offset(at);
        self.rows.push(row);
    }

    /// Drops the first `games` games (read again from a true boundary by the splitter).
    /// Their strings stay in the chunk's tables: the loader only interns those a row uses.
    fn drop_first(&mut self, games: usize) {
        let games = games.min(self.rows.len());
        self.rows.drain(..games);
        self.whole &= games == 0;
    }

    /// Bytes of text in the chunk's tables.
    fn text_len(&self) -> usize {
        [
            &self.players,
            &self.events,
            &self.sites,
            &self.rounds,
            &self.openings,
        ]
        .iter()
        .map(|t| t.text_len())
        .sum()
    }
}

/// The indexing thread for one stream: indexes every game into [`Raw`]s (the first
/// `first` games long, so the first batch comes at once) until the end, an error, or
/// nobody listens.
pub(super) fn index<R: Read>(indexer: &mut Indexer<R>, first: usize, tx: &mpsc::SyncSender<Stage>) {
    let mut limit = first;
    let mut raw = Raw::with_room(limit);
    loop {
        match indexer.next_game_ref() {
            Ok(Some(Some(game))) => raw.push(&game),
            Ok(Some(None)) => raw.push_too_large(indexer.oversized_offset()),
            Ok(None) => break,
            Err(e) => {
                let _ = tx.send(Stage::Games(Box::new(raw)));
                let _ = tx.send(Stage::Failed(e));
                return;
            }
        }
        // A game's strings are short; a chunk of text stays well under 4 GiB.
        if raw.rows.len() >= limit || raw.text_len() > 1 << 24 {
            limit = RAW_GAMES;
            if tx
                .send(Stage::Games(Box::new(std::mem::replace(
                    &mut raw,
                    Raw::with_room(limit),
                ))))
                .is_err()
            {
                return;
            }
        }
    }
    let _ = tx.send(Stage::Games(Box::new(raw)));
}

/// Indexes a regular file in chunks of `sizes` on `jobs` threads and hands each
/// chunk's games to `tx` in file order, until the end, an error, `cancel`, or nobody
/// listens. The rows are those [`index`] gives, whatever `jobs` and `sizes` (the
/// splitter's guarantee). Each thread reads its chunk with `pread` into a buffer of its own:
/// side by side with a map of the file, on 1.74 million games, reading took 7% less time
/// and 2% less processor time (the pages of a map cost a fault each few pages, and undoing
/// a large map takes a while), and a file cut short by another program meanwhile is an
/// error to report, not a fault that stops the process.
pub(super) fn index_chunks(
    file: &File,
    jobs: usize,
    sizes: chunks::Sizes,
    tx: &mpsc::SyncSender<Stage>,
    spare: &Spare,
    cancel: &AtomicBool,
) {
    let work = |file: &File, from: crate::pgn::Pos, until: &mut chunks::Until| {
        let room = (sizes.rest / 512).min(1 << 16) as usize;
        let raw = spare.take(room);
        let each = |raw: &mut Box<Raw>, _, game: Indexed| match game {
            Indexed::Game(e) => raw.push(&e),
            Indexed::TooLarge(at) => raw.push_too_large(at),
        };
        chunks::index_range(file, from, until, raw, each)
    };
    let read = chunks::read_file_sized(file, jobs, sizes, work, |mut raw, _, first| {
        if cancel.load(Ordering::Relaxed) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        // Games before `first` were read again from the true position, and handed over.
        raw.drop_first(usize::try_from(first.saturating_sub(1)).unwrap_or(usize::MAX));
        if raw.rows.is_empty() {
            return Ok(());
        }
        tx.send(Stage::Games(raw))
            .map_err(|_| io::ErrorKind::BrokenPipe.into())
    });
    if let Err(e) = read {
        let _ = tx.send(Stage::Failed(e));
    }
}

/// The row of an indexed game, its strings aside (their ids come later), and the opening's
/// name: the `Opening` tag, else the name of the ECO code.
pub(super) fn numbers_of<'a, T: AsRef<str>>(
    game: &'a crate::pgn::index::Entry<T>,
    eco_names: &[&'static str],
) -> (Row, &'a str) {
    let (row, opening) = numbers(game);
    let opening = match opening {
        Opening::Tag(tag) => tag,
        Opening::OfEco => eco_names[usize::from(row.eco)],
    };
    (row, opening)
}

/// Where a game's opening name comes from.
enum Opening<'a> {
    /// Its `Opening` tag.
    Tag(&'a str),
    /// The name of its ECO code (none without a code).
    OfEco,
}

/// The row of an indexed game, its strings aside, and where its opening's name comes
/// from. Run for every game of the file, so the usual forms are read without detours
/// (the value as it is when nothing is around it, four digits) before the general way.
fn numbers<'a, T: AsRef<str>>(game: &'a crate::pgn::index::Entry<T>) -> (Row, Opening<'a>) {
    let eco = Eco::parse(trimmed(game.eco()));
    let opening = match trimmed(game.opening()) {
        "" | "?" => Opening::OfEco,
        tag => Opening::Tag(tag),
    };
    let result = Outcome::from_bytes(trimmed(game.result()).as_bytes())
        .or(game.outcome)
        .unwrap_or(Outcome::Unknown);
    let mut row = Row {
        len: u32::try_from(game.len).unwrap_or(u32::MAX),
        date: Date::parse(game.date()),
        white_elo: elo_of(game.white_elo()),
        black_elo: elo_of(game.black_elo()),
        eco: Eco::packed(eco),
        plies: u16::try_from(game.plies).unwrap_or(u16::MAX),
        result: outcome_code(result),
        ..Row::default()
    };
    row.set_offset(game.offset);
    (row, opening)
}

/// `text` without the whitespace around it, as [`str::trim`] gives it; a value that starts
/// and ends with a visible ASCII character (nearly all) is given back as it is.
#[inline]
fn trimmed(text: &str) -> &str {
    match text.as_bytes() {
        [] => text,
        [first, .., last] | [first @ last]
            if first.is_ascii_graphic() && last.is_ascii_graphic() =>
        {
            text
        }
        _ => text.trim(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick ways give what the general ones give.
    #[test]
    fn numbers_read_as_the_general_way_reads_them() {
        for text in [
            "",
            "?",
            "-",
            "0",
            "7",
            "2850",
            "9999",
            "10000",
            "65535",
            "65536",
            " 2700 ",
            "\u{a0}2700",
            "2700\u{3000}",
            "+2700",
            "27x0",
            "２７００",
            " ",
            "\t",
        ] {
            assert_eq!(
                elo_of(text),
                text.trim().parse::<u16>().unwrap_or(0),
                "{text:?}"
            );
            assert_eq!(trimmed(text), text.trim(), "{text:?}");
        }
        for text in ["B90", " B90", "Sicilian\u{a0}", "\u{a0}", "é", "a é", "x"] {
            assert_eq!(trimmed(text), text.trim(), "{text:?}");
        }
    }
}
