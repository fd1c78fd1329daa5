//! Building an index: each game is made [`Compact`] (where the work is, so it can run on
//! the threads that read the games), then the [`Builder`] gathers them in file order and
//! lays out the file (see the format in the module above).

use chess::{Board, MoveGen};

use super::format::{self, Header, GAME_LEN, HEADER_LEN, MAGIC, NULL_MOVE, VERSION};
use crate::study::follow::{GameInfo, Walked};
use crate::study::key::key;

/// What the index keeps of one game.
#[derive(Debug, Clone)]
pub struct Compact {
    /// Where the game starts in the file.
    pub offset: u64,
    /// Its number in the file (1 is the first).
    pub number: u64,
    /// Result, ratings and year.
    pub info: GameInfo,
    /// The FEN of its start position, when not the standard one.
    pub start: Option<String>,
    /// Each main-line move as its index among the legal moves in the `chess` crate's
    /// generation order ([`NULL_MOVE`] for a null move).
    pub moves: Vec<u8>,
    /// The keys of the positions it reaches, each once, sorted.
    pub keys: Vec<u64>,
    /// The game has problems (an illegal move, a result that disagrees, …).
    pub problems: bool,
}

impl Compact {
    /// The compact form of a game read by [`crate::study::follow::Follow`], which started at
    /// `offset`.
    pub fn of(offset: u64, w: &Walked) -> Compact {
        let mut board: Board = *w.start.board();
        let mut moves = Vec::with_capacity(w.moves.len());
        let mut keys = Vec::with_capacity(w.moves.len() + 1);
        keys.push(key(&board));
        for mv in &w.moves {
            match mv {
                Some(mv) => {
                    let index = MoveGen::new_legal(&board).position(|m| m == *mv);
                    // The builder played the move, so it is legal; should it ever not be
                    // found, the line is cut there rather than stored wrong.
                    let Some(index) = index.and_then(|i| u8::try_from(i).ok()) else {
                        break;
                    };
                    moves.push(index);
                    board = board.make_move_new(*mv);
                }
                None => {
                    let Some(after) = board.null_move() else {
                        break;
                    };
                    moves.push(NULL_MOVE);
                    board = after;
                }
            }
            keys.push(key(&board));
        }
        keys.sort_unstable();
        keys.dedup();
        let standard = w.start == crate::position::Position::start();
        Compact {
            offset,
            number: w.read.number,
            info: w.tags.info(),
            start: (!standard).then(|| w.start.fen()),
            moves,
            keys,
            problems: w.read.has_problems(),
        }
    }
}

/// Gathers games in file order and writes the index.
#[derive(Default)]
pub struct Builder {
    games: Vec<u8>,
    count: u32,
    starts: Vec<u8>,
    moves: Vec<u8>,
    keys: Vec<u64>,
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
        rec[0..8].copy_from_slice(&g.offset.to_le_bytes());
        rec[8..16].copy_from_slice(&moves_at.to_le_bytes());
        rec[16..20].copy_from_slice(&(g.number.min(u64::from(u32::MAX)) as u32).to_le_bytes());
        rec[20..24].copy_from_slice(&(g.moves.len() as u32).to_le_bytes());
        rec[24..26].copy_from_slice(&g.info.white_elo.to_le_bytes());
        rec[26..28].copy_from_slice(&g.info.black_elo.to_le_bytes());
        rec[28..30].copy_from_slice(&g.info.year.to_le_bytes());
        rec[30] = g.info.result.code();
        rec[31] = u8::from(g.start.is_some());
        self.games.extend_from_slice(&rec);
        if let Some(fen) = &g.start {
            let fen = &fen.as_bytes()[..fen.len().min(u16::MAX as usize)];
            self.starts.extend_from_slice(&game.to_le_bytes());
            self.starts
                .extend_from_slice(&(fen.len() as u16).to_le_bytes());
            self.starts.extend_from_slice(fen);
        }
        self.moves.extend_from_slice(&g.moves);
        self.key_counts.push(g.keys.len() as u32);
        self.keys.extend_from_slice(&g.keys);
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
            starts[shape.bucket(k) + 1] += 1;
        }
        for i in 0..buckets {
            starts[i + 1] += starts[i];
        }
        let width = usize::from(shape.width);
        let mut table = vec![0u8; self.keys.len() * width];
        let mut fill = starts.clone();
        let mut at = 0;
        for (game, &n) in self.key_counts.iter().enumerate() {
            for &k in &self.keys[at..at + n as usize] {
                let b = shape.bucket(k);
                let slot = fill[b] as usize;
                fill[b] += 1;
                let value = shape.entry(k, game as u32);
                table[slot * width..slot * width + width]
                    .copy_from_slice(&value.to_le_bytes()[..width]);
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
