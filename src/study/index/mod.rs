//! The position index of a PGN file, kept in the platform cache directory (never beside the
//! user's file): for every game its main line in one byte per move and its result, ratings
//! and year, and a hash table from position keys to the games that reach them. Searching a
//! position or building its opening tree then reads a few candidate games instead of the
//! file. The layout is in [`format`]; [`build`] makes one; [`cache`] finds, checks and
//! stores them (keyed by the file's canonical path, stamped with its size and modification
//! time, written atomically, checksummed: a stale or damaged index is rebuilt, not trusted).

pub mod build;
pub mod cache;
pub mod code;
pub mod columns;
pub mod format;
pub mod open;
#[cfg(test)]
mod open_tests;
pub mod patch;
#[cfg(test)]
mod patch_tests;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use chess::Board;

use self::code::{decode, Decoded};
use self::columns::Columns;
use self::format::{
    next_of, read_postings, read_row, read_u32, read_u40, read_u64, Header, BLOCK, GAME_LEN,
    HEADER_LEN, HOT_LEN, HOT_PLIES, ROW_LEN,
};
use super::follow::{GameInfo, GameResult};
use super::key::key;
use super::tree::{Next, Tally, Tree};
use crate::position::Position;

/// The bytes of an index: mapped from its file, or held in memory (just built).
pub enum Bytes {
    /// A mapped file.
    Map(memmap2::Mmap),
    /// Bytes in memory.
    Owned(Vec<u8>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Map(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// Why index bytes were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Damage {
    /// Not an index of this version, or a header that cannot be.
    #[error("not an index of this version")]
    Header,
    /// The sections do not add up to the file's length.
    #[error("its length does not match its header")]
    Length,
    /// The checksum differs.
    #[error("its checksum does not match")]
    Checksum,
    /// A start position cannot be read.
    #[error("a start position in it cannot be read")]
    Start,
}

/// One game of the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRecord {
    /// Where it starts in the source.
    pub offset: u64,
    /// Its number in the file.
    pub number: u64,
    /// Plies of its main line as written: those `list` shows.
    pub plies: u32,
    /// Result, ratings, year.
    pub info: GameInfo,
    moves_at: u64,
    /// Plies its move codes hold: those played (an illegal move ends them).
    coded: u32,
    custom_start: bool,
}

/// A game that reaches the position searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// The game.
    pub game: GameRecord,
    /// The first ply at which its main line reaches the position.
    pub ply: u32,
}

/// A game replayed to the position: the hit and what it played there.
struct Replayed {
    hit: Hit,
    next: Next,
}

/// A hot position's record.
struct Hot {
    rows: (usize, usize),
    postings_at: usize,
    postings: u32,
}

/// Where the sections are.
struct Layout {
    body_at: usize,
    path: usize,
    games: usize,
    hot: usize,
    rows: usize,
    postings: usize,
    buckets: usize,
    entries: usize,
    moves: usize,
    columns: usize,
    end: usize,
}

/// An index, checked and ready to answer.
pub struct Index {
    bytes: Bytes,
    header: Header,
    at: Layout,
    starts: HashMap<u32, Board>,
    /// Blocks whose checksum has been found right.
    checked: Vec<AtomicBool>,
}

/// Candidates above which the replays are shared among threads.
const PARALLEL_FROM: usize = 4096;

impl Index {
    /// Checks index bytes (header, lengths, the checksums of the sections read at every
    /// question) and opens them; the other sections are checked when first read.
    pub fn open(bytes: Bytes) -> Result<Index, Damage> {
        let header = Header::read(&bytes).ok_or(Damage::Header)?;
        let len = |n: u64, each: u64| n.checked_mul(each).ok_or(Damage::Length);
        let sections = [
            u64::from(header.path_len),
            len(u64::from(header.games), GAME_LEN as u64)?,
            header.starts_len,
            len(u64::from(header.hot), HOT_LEN as u64)?,
            len(u64::from(header.hot_rows), ROW_LEN as u64)?,
            header.postings_len,
            len((1u64 << header.shape.bucket_bits) + 1, 4)?,
            header
                .shape
                .entries_len(header.entries)
                .ok_or(Damage::Length)?,
            header.move_bytes,
            header.columns_len,
        ];
        let body = sections
            .iter()
            .try_fold(0u64, |sum, n| sum.checked_add(*n))
            .ok_or(Damage::Length)?;
        let body_at = (HEADER_LEN as u64)
            .checked_add(len(format::blocks(body), 4)?)
            .ok_or(Damage::Length)?;
        if body_at.checked_add(body) != Some(bytes.len() as u64) {
            return Err(Damage::Length);
        }
        let body_at = body_at as usize;
        if format::header_checksum(&bytes[..body_at]) != header.crc {
            return Err(Damage::Checksum);
        }
        let mut starts_of = [0usize; 11];
        starts_of[0] = body_at;
        for (i, n) in sections.iter().enumerate() {
            starts_of[i + 1] = starts_of[i] + *n as usize;
        }
        let [path, games, starts, hot, rows, postings, buckets, entries, moves, columns, end] =
            starts_of;
        let blocks = format::blocks(body) as usize;
        let mut index = Index {
            header,
            at: Layout {
                body_at,
                path,
                games,
                hot,
                rows,
                postings,
                buckets,
                entries,
                moves,
                columns,
                end,
            },
            starts: HashMap::new(),
            checked: (0..blocks).map(|_| AtomicBool::new(false)).collect(),
            bytes,
        };
        index.check(path, games)?;
        index.check(starts, rows)?;
        index.starts = read_starts(&index.bytes[starts..hot])?;
        // Offsets that point outside their sections would make answers wrong, not crash:
        // still, an index that holds such things is not one this code wrote.
        let last = buckets + (1usize << index.header.shape.bucket_bits) * 4;
        index.check(last, last + 4)?;
        if u64::from(read_u32(&index.bytes, last)) != index.header.entries {
            return Err(Damage::Length);
        }
        Ok(index)
    }

    /// Checks the blocks that hold bytes `from..to` (once each).
    fn check(&self, from: usize, to: usize) -> Result<(), Damage> {
        if to <= from {
            return Ok(());
        }
        let body = self.at.body_at;
        for b in (from - body) / BLOCK..=(to - 1 - body) / BLOCK {
            if self.checked[b].load(Ordering::Relaxed) {
                continue;
            }
            let start = body + b * BLOCK;
            let block = &self.bytes[start..(start + BLOCK).min(self.at.end)];
            if crc32fast::hash(block) != read_u32(&self.bytes, HEADER_LEN + 4 * b) {
                return Err(Damage::Checksum);
            }
            self.checked[b].store(true, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Bytes `from..to`, checked.
    fn read(&self, from: usize, to: usize) -> Result<&[u8], Damage> {
        self.check(from, to)?;
        Ok(&self.bytes[from..to])
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The source's path as stored.
    pub fn source_path(&self) -> &[u8] {
        &self.bytes[self.at.path..self.at.games]
    }

    /// Bytes of the whole index.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the index has no bytes (never: a header is always there).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Games indexed.
    pub fn games(&self) -> u32 {
        self.header.games
    }

    /// What a search result line shows of each game (checked once, when first asked).
    pub fn columns(&self) -> Result<Columns<'_>, Damage> {
        let section = self.read(self.at.columns, self.at.end)?;
        Columns::parse(section, self.header.games)
    }

    /// Game `i` (0 is the first).
    pub fn game(&self, i: u32) -> Result<GameRecord, Damage> {
        let at = self.at.games + i as usize * GAME_LEN;
        let r = self.read(at, at + GAME_LEN)?;
        let u16_at = |k: usize| u16::from_le_bytes([r[k], r[k + 1]]);
        Ok(GameRecord {
            offset: read_u40(r, 0),
            moves_at: read_u40(r, 5),
            number: u64::from(i) + 1,
            coded: u32::from(u16_at(10)),
            plies: read_u32(r, 20),
            info: GameInfo {
                white_elo: u16_at(12),
                black_elo: u16_at(14),
                year: u16_at(16),
                result: GameResult::from_code(r[18]),
            },
            custom_start: r[19] & 1 != 0,
        })
    }

    /// The games whose main line reaches `pos` (same placement, side to move, castling
    /// rights, and en-passant square when the capture is legal), in file order, each with
    /// the first ply it does.
    pub fn search(&self, pos: &Position) -> Result<Vec<Hit>, Damage> {
        let target = key(pos.board());
        let mut hits = Vec::new();
        let hot = self.hot(target)?;
        if let Some(h) = &hot {
            let b = self.read(h.postings_at, self.at.buckets)?;
            let postings = read_postings(b, h.postings).ok_or(Damage::Length)?;
            hits.reserve(postings.len());
            for (game, ply) in postings {
                let g = u32::try_from(game).map_err(|_| Damage::Length)?;
                if g >= self.header.games {
                    return Err(Damage::Length);
                }
                hits.push(Hit {
                    game: self.game(g)?,
                    ply: ply as u32,
                });
            }
        }
        let replayed = self.replayed(target, hot.is_some())?;
        if replayed.is_empty() {
            return Ok(hits);
        }
        hits.extend(replayed.into_iter().map(|r| r.hit));
        hits.sort_by_key(|h| h.game.number);
        Ok(hits)
    }

    /// The opening tree at `pos` over the games of the index.
    pub fn tree(&self, pos: &Position) -> Result<Tree, Damage> {
        let target = key(pos.board());
        let mut groups: Vec<(Next, Tally)> = Vec::new();
        let hot = self.hot(target)?;
        if let Some(h) = &hot {
            let rows = self.read(h.rows.0, h.rows.1)?;
            for r in rows.chunks_exact(ROW_LEN) {
                let (next, tally) = read_row(r);
                groups.push((next_of(next).ok_or(Damage::Length)?, tally));
            }
        }
        for r in self.replayed(target, hot.is_some())? {
            groups.push((r.next, Tally::of(&r.hit.game.info)));
        }
        Ok(Tree::from_tallies(pos, groups))
    }

    /// The hot position of `target`, if it is one.
    fn hot(&self, target: u64) -> Result<Option<Hot>, Damage> {
        let n = self.header.hot as usize;
        if n == 0 {
            return Ok(None);
        }
        let keys = self.read(self.at.hot, self.at.rows)?;
        let key_of = |i: usize| read_u64(keys, i * HOT_LEN);
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if key_of(mid) < target {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == n || key_of(lo) != target {
            return Ok(None);
        }
        let h = &keys[lo * HOT_LEN..(lo + 1) * HOT_LEN];
        let first = read_u32(h, 8) as usize;
        let rows = read_u32(h, 12) as usize;
        let row_at = |r: usize| {
            r.checked_mul(ROW_LEN)
                .and_then(|b| b.checked_add(self.at.rows))
        };
        let (from, to) = (
            row_at(first).ok_or(Damage::Length)?,
            row_at(first + rows).ok_or(Damage::Length)?,
        );
        let postings_at = usize::try_from(read_u64(h, 16))
            .ok()
            .and_then(|p| p.checked_add(self.at.postings))
            .ok_or(Damage::Length)?;
        if to > self.at.postings || postings_at > self.at.buckets {
            return Err(Damage::Length);
        }
        Ok(Some(Hot {
            rows: (from, to),
            postings_at,
            postings: read_u32(h, 24),
        }))
    }

    /// The games of the hash table that reach `target`, replayed, in file order; for a
    /// hot position (`hot`) only those that reach it later than its hot postings cover.
    fn replayed(&self, target: u64, hot: bool) -> Result<Vec<Replayed>, Damage> {
        let candidates = self.candidates(target)?;
        let confirm = |games: &[u32]| -> Result<Vec<Replayed>, Damage> {
            let mut out = Vec::new();
            for &g in games {
                if let Some(r) = self.replay(g, target)? {
                    if !(hot && (r.hit.ply as usize) < HOT_PLIES) {
                        out.push(r);
                    }
                }
            }
            Ok(out)
        };
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        if candidates.len() < PARALLEL_FROM || threads < 2 {
            return confirm(&candidates);
        }
        let per = candidates.len().div_ceil(threads);
        std::thread::scope(|s| {
            let parts: Vec<_> = candidates
                .chunks(per)
                .map(|part| s.spawn(move || confirm(part)))
                .collect();
            let mut all = Vec::new();
            for p in parts {
                all.extend(p.join().unwrap_or(Ok(Vec::new()))?);
            }
            Ok(all)
        })
    }

    /// The games whose entries match `target`'s bucket and fingerprint, in file order.
    fn candidates(&self, target: u64) -> Result<Vec<u32>, Damage> {
        let shape = self.header.shape;
        let b = shape.bucket(target);
        let at = self.at.buckets + b * 4;
        let offsets = self.read(at, at + 8)?;
        let (from, to) = (read_u32(offsets, 0) as u64, read_u32(offsets, 4) as u64);
        let bits = u64::from(shape.bits());
        let (lo, hi) = (
            (from * bits / 8) as usize,
            (to * bits).div_ceil(8) as usize + 8,
        );
        let packed_len = self.at.moves - self.at.entries;
        self.check(
            self.at.entries + lo.min(packed_len),
            self.at.entries + hi.min(packed_len),
        )?;
        let fp = shape.fingerprint(target);
        let games = self.header.games;
        let packed = &self.bytes[self.at.entries..self.at.moves];
        let mut out: Vec<u32> = (from..to)
            .filter_map(|i| {
                let (game, f) = shape.split(shape.read_entry(packed, i));
                (f == fp && game < games).then_some(game)
            })
            .collect();
        // Entries of a bucket are in game order; two keys of one game may share both.
        out.dedup();
        Ok(out)
    }

    /// Replays game `g` until it reaches `target`: the hit, or `None` if it never does.
    fn replay(&self, g: u32, target: u64) -> Result<Option<Replayed>, Damage> {
        let game = self.game(g)?;
        let mut board = if game.custom_start {
            match self.starts.get(&g) {
                Some(b) => *b,
                None => return Ok(None),
            }
        } else {
            Board::default()
        };
        let Some(from) = usize::try_from(game.moves_at)
            .ok()
            .and_then(|m| m.checked_add(self.at.moves))
            .filter(|m| *m <= self.at.columns)
        else {
            return Err(Damage::Length);
        };
        // A code takes at most five bytes.
        let to = from
            .saturating_add(game.coded as usize * 5)
            .min(self.at.columns);
        let moves = self.read(from, to)?;
        let mut at = 0;
        for ply in 0..game.coded {
            let step = decode(&board, &moves[at..]);
            if key(&board) == target {
                let next = match step {
                    Some((Decoded::Move(mv), _)) => Next::Move(mv),
                    Some((Decoded::Null, _)) => Next::Null,
                    None => Next::End,
                };
                let hit = Hit { game, ply };
                return Ok(Some(Replayed { hit, next }));
            }
            // A code that names no legal move (it cannot be, the blocks were checked)
            // leaves the game out.
            let Some((step, used)) = step else {
                return Ok(None);
            };
            at += used;
            board = match step {
                Decoded::Move(mv) => board.make_move_new(mv),
                Decoded::Null => match board.null_move() {
                    Some(b) => b,
                    None => return Ok(None),
                },
            };
        }
        Ok((key(&board) == target).then_some(Replayed {
            hit: Hit {
                game,
                ply: game.coded,
            },
            next: Next::End,
        }))
    }
}

fn read_starts(mut b: &[u8]) -> Result<HashMap<u32, Board>, Damage> {
    let mut starts = HashMap::new();
    while !b.is_empty() {
        if b.len() < 6 {
            return Err(Damage::Start);
        }
        let game = read_u32(b, 0);
        let n = usize::from(u16::from_le_bytes([b[4], b[5]]));
        let fen = b.get(6..6 + n).ok_or(Damage::Start)?;
        let fen = std::str::from_utf8(fen).map_err(|_| Damage::Start)?;
        let pos = Position::from_fen(fen).map_err(|_| Damage::Start)?;
        starts.insert(game, *pos.board());
        b = &b[6 + n..];
    }
    Ok(starts)
}
