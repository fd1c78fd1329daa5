//! Building an index: each game is made [`Compact`] (where the work is, so it can run on
//! the threads that read the games), then the [`Builder`] gathers them in file order and
//! lays out the file (see the format in the module above).

use super::format::{self, Header, GAME_LEN, HEADER_LEN, MAGIC, VERSION};
use crate::study::follow::{GameInfo, Walked};

/// What the index keeps of one game.
#[derive(Debug, Clone)]
pub struct Compact {
    /// Where the game starts in the file.
    pub offset: u64,
    /// Result, ratings and year.
    pub info: GameInfo,
    /// The FEN of its start position, when not the standard one.
    pub start: Option<String>,
    /// Each main-line move as its index among the legal moves in the `chess` crate's
    /// generation order ([`super::format::NULL_MOVE`] for a null move).
    pub moves: Vec<u8>,
    /// The keys of the positions it reaches, each once, sorted.
    pub keys: Vec<u64>,
    /// The game has problems (an illegal move, a result that disagrees, …).
    pub problems: bool,
}

impl Compact {
    /// The compact form of a game read by [`crate::study::follow::Follow`] with
    /// `indexing`, which started at `offset`.
    pub fn of(offset: u64, w: &Walked) -> Compact {
        let mut keys = w.keys.clone();
        keys.sort_unstable();
        keys.dedup();
        let standard = w.start == crate::position::Position::start();
        Compact {
            offset,
            info: w.tags.info(),
            start: (!standard).then(|| w.start.fen()),
            moves: w.codes.clone(),
            keys,
            problems: w.read.has_problems(),
        }
    }
}

/// The largest offset a game record holds (a terabyte).
const MAX_40: u64 = (1 << 40) - 1;

/// Gathers games in file order and writes the index.
#[derive(Default)]
pub struct Builder {
    games: Vec<u8>,
    count: u32,
    starts: Vec<u8>,
    moves: Vec<u8>,
    /// The top 32 bits of each key, game after game: all a bucket needs (at most 28 bits)
    /// and half the memory of whole keys.
    keys: Vec<u32>,
    key_counts: Vec<u32>,
    problems: u32,
    too_many: bool,
}

impl Builder {
    /// Adds the next game of the file.
    pub fn add(&mut self, g: Compact) {
        let Ok(moves_at) = u64::try_from(self.moves.len()) else {
            return;
        };
        if self.count == u32::MAX {
            self.too_many = true;
            return;
        }
        let game = self.count;
        self.count += 1;
        let mut rec = [0u8; GAME_LEN];
        rec[0..5].copy_from_slice(&g.offset.min(MAX_40).to_le_bytes()[..5]);
        rec[5..10].copy_from_slice(&moves_at.min(MAX_40).to_le_bytes()[..5]);
        let plies = g.moves.len().min(usize::from(u16::MAX));
        rec[10..12].copy_from_slice(&(plies as u16).to_le_bytes());
        rec[12..14].copy_from_slice(&g.info.white_elo.to_le_bytes());
        rec[14..16].copy_from_slice(&g.info.black_elo.to_le_bytes());
        rec[16..18].copy_from_slice(&g.info.year.to_le_bytes());
        rec[18] = g.info.result.code();
        rec[19] = u8::from(g.start.is_some());
        self.games.extend_from_slice(&rec);
        if let Some(fen) = &g.start {
            let fen = &fen.as_bytes()[..fen.len().min(u16::MAX as usize)];
            self.starts.extend_from_slice(&game.to_le_bytes());
            self.starts
                .extend_from_slice(&(fen.len() as u16).to_le_bytes());
            self.starts.extend_from_slice(fen);
        }
        if moves_at > MAX_40 || g.offset > MAX_40 {
            self.too_many = true;
        }
        let plies = g.moves.len().min(usize::from(u16::MAX));
        self.moves.extend_from_slice(&g.moves[..plies]);
        self.key_counts.push(g.keys.len() as u32);
        self.keys.extend(g.keys.iter().map(|k| (k >> 32) as u32));
        self.problems += u32::from(g.problems);
    }

    /// Games added so far.
    pub fn games(&self) -> u32 {
        self.count
    }

    /// Games with problems among them.
    pub fn problems(&self) -> u32 {
        self.problems
    }

    /// The index file's bytes, for a source of `size` bytes modified at `mtime` (seconds
    /// and nanoseconds) found at `path`; `None` when the file holds more positions than an
    /// index can (over four thousand million).
    pub fn finish(self, path: &str, size: u64, mtime: (i64, u32)) -> Option<Vec<u8>> {
        let entries = self.keys.len() as u64;
        if self.too_many || entries > u64::from(u32::MAX) {
            return None;
        }
        let shape = format::Shape::for_counts(self.count, entries);
        let buckets = 1usize << shape.bucket_bits;
        // Counting sort by bucket: the entries of a bucket stay in game order.
        let mut starts = vec![0u32; buckets + 1];
        for &k in &self.keys {
            starts[shape.bucket(u64::from(k) << 32) + 1] += 1;
        }
        for i in 0..buckets {
            starts[i + 1] += starts[i];
        }
        let table_len = shape.entries_len(entries)?;
        let mut table = vec![0u8; usize::try_from(table_len).ok()?];
        let mut fill = starts.clone();
        let mut at = 0;
        for (game, &n) in self.key_counts.iter().enumerate() {
            for &k in &self.keys[at..at + n as usize] {
                let b = shape.bucket(u64::from(k) << 32);
                let slot = fill[b];
                fill[b] += 1;
                shape.write_entry(&mut table, u64::from(slot), game as u32);
            }
            at += n as usize;
        }
        let header = Header {
            size,
            mtime,
            games: self.count,
            plies: self.moves.len() as u64,
            entries,
            shape,
            problems: self.problems,
            starts_len: self.starts.len() as u64,
            path_len: path.len() as u32,
            crc: 0,
        };
        let total = HEADER_LEN
            + path.len()
            + self.games.len()
            + self.starts.len()
            + starts.len() * 4
            + table.len()
            + self.moves.len();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(&header.to_bytes());
        out.extend_from_slice(path.as_bytes());
        out.extend_from_slice(&self.games);
        out.extend_from_slice(&self.starts);
        for s in &starts {
            out.extend_from_slice(&s.to_le_bytes());
        }
        out.extend_from_slice(&table);
        out.extend_from_slice(&self.moves);
        let crc = format::checksum(&out);
        out[format::CRC_AT..format::CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
        debug_assert_eq!(&out[..8], MAGIC);
        debug_assert_eq!(out[8..12], VERSION.to_le_bytes());
        Some(out)
    }
}
