//! The position index of a PGN file, kept in the platform cache directory (never beside the
//! user's file): for every game its main line in one byte per move and its result, ratings
//! and year, and a hash table from position keys to the games that reach them. Searching a
//! position or building its opening tree then reads a few candidate games instead of the
//! file. The layout is in [`format`]; [`build`] makes one; [`cache`] finds, checks and
//! stores them (keyed by the file's canonical path, stamped with its size and modification
//! time, written atomically, checksummed: a stale or damaged index is rebuilt, not trusted).

pub mod build;
pub mod cache;
pub mod format;

use std::collections::HashMap;

use chess::{Board, MoveGen};

use self::format::{read_u32, read_u40, Header, GAME_LEN, HEADER_LEN, NULL_MOVE};
use super::follow::{GameInfo, GameResult};
use super::key::key;
use super::tree::Next;
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
    /// Plies of its main line.
    pub plies: u32,
    /// Result, ratings, year.
    pub info: GameInfo,
    moves_at: u64,
    custom_start: bool,
}

/// A game that reaches the position searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// The game.
    pub game: GameRecord,
    /// The first ply at which its main line reaches the position.
    pub ply: u32,
    /// What it played there.
    pub next: Next,
}

/// An index, checked and ready to answer.
pub struct Index {
    bytes: Bytes,
    header: Header,
    path: (usize, usize),
    games_at: usize,
    buckets_at: usize,
    entries_at: usize,
    moves_at: usize,
    starts: HashMap<u32, Board>,
}

/// Candidates above which the replays are shared among threads.
const PARALLEL_FROM: usize = 4096;

impl Index {
    /// Checks index bytes (header, lengths, checksum) and opens them.
    pub fn open(bytes: Bytes) -> Result<Index, Damage> {
        let header = Header::read(&bytes).ok_or(Damage::Header)?;
        let len = |n: u64, each: u64| n.checked_mul(each).ok_or(Damage::Length);
        let path_len = u64::from(header.path_len);
        let games_len = len(u64::from(header.games), GAME_LEN as u64)?;
        let buckets_len = len((1u64 << header.shape.bucket_bits) + 1, 4)?;
        let entries_len = header
            .shape
            .entries_len(header.entries)
            .ok_or(Damage::Length)?;
        let total = [
            path_len,
            games_len,
            header.starts_len,
            buckets_len,
            entries_len,
            header.plies,
        ]
        .iter()
        .try_fold(HEADER_LEN as u64, |sum, n| sum.checked_add(*n))
        .ok_or(Damage::Length)?;
        if total != bytes.len() as u64 {
            return Err(Damage::Length);
        }
        if format::checksum(&bytes) != header.crc {
            return Err(Damage::Checksum);
        }
        let path_at = HEADER_LEN;
        let games_at = path_at + path_len as usize;
        let starts_at = games_at + games_len as usize;
        let buckets_at = starts_at + header.starts_len as usize;
        let entries_at = buckets_at + buckets_len as usize;
        let moves_at = entries_at + entries_len as usize;
        let starts = read_starts(&bytes[starts_at..buckets_at])?;
        let index = Index {
            header,
            path: (path_at, games_at),
            games_at,
            buckets_at,
            entries_at,
            moves_at,
            starts,
            bytes,
        };
        // Offsets that point outside their sections would make answers wrong, not crash:
        // still, an index that holds such things is not one this code wrote.
        let last = (1usize << index.header.shape.bucket_bits) * 4;
        if read_u32(&index.bytes, index.buckets_at + last) as u64 != index.header.entries {
            return Err(Damage::Length);
        }
        Ok(index)
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The source's path as stored.
    pub fn source_path(&self) -> &[u8] {
        &self.bytes[self.path.0..self.path.1]
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

    /// Game `i` (0 is the first).
    pub fn game(&self, i: u32) -> GameRecord {
        let at = self.games_at + i as usize * GAME_LEN;
        let r = &self.bytes[at..at + GAME_LEN];
        let u16_at = |k: usize| u16::from_le_bytes([r[k], r[k + 1]]);
        GameRecord {
            offset: read_u40(r, 0),
            moves_at: read_u40(r, 5),
            number: u64::from(i) + 1,
            plies: u32::from(u16_at(10)),
            info: GameInfo {
                white_elo: u16_at(12),
                black_elo: u16_at(14),
                year: u16_at(16),
                result: GameResult::from_code(r[18]),
            },
            custom_start: r[19] & 1 != 0,
        }
    }

    /// The games whose main line reaches `pos` (same placement, side to move, castling
    /// rights, and en-passant square when the capture is legal), in file order, each with
    /// the first ply it does and the move it played there.
    pub fn find(&self, pos: &Position) -> Vec<Hit> {
        let target = key(pos.board());
        let candidates = self.candidates(target);
        let confirm = |games: &[u32]| -> Vec<Hit> {
            games
                .iter()
                .filter_map(|&g| self.replay(g, target))
                .collect()
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
            parts
                .into_iter()
                .flat_map(|p| p.join().unwrap_or_default())
                .collect()
        })
    }

    /// The games whose entries match `target`'s bucket and fingerprint, in file order.
    fn candidates(&self, target: u64) -> Vec<u32> {
        let shape = self.header.shape;
        let b = shape.bucket(target);
        let from = read_u32(&self.bytes, self.buckets_at + b * 4) as usize;
        let to = read_u32(&self.bytes, self.buckets_at + (b + 1) * 4) as usize;
        let fp = shape.fingerprint(target);
        let games = self.header.games;
        let packed = &self.bytes[self.entries_at..self.moves_at];
        let mut out: Vec<u32> = (from as u64..to as u64)
            .filter_map(|i| {
                let (game, f) = shape.split(shape.read_entry(packed, i));
                (f == fp && game < games).then_some(game)
            })
            .collect();
        // Entries of a bucket are in game order; two keys of one game may share both.
        out.dedup();
        out
    }

    /// Replays game `g` until it reaches `target`: the hit, or `None` if it never does.
    fn replay(&self, g: u32, target: u64) -> Option<Hit> {
        let game = self.game(g);
        let mut board = if game.custom_start {
            *self.starts.get(&g)?
        } else {
            Board::default()
        };
        let from = self
            .moves_at
            .checked_add(usize::try_from(game.moves_at).ok()?)?;
        let moves = self
            .bytes
            .get(from..from.checked_add(game.plies as usize)?)?;
        for (ply, &m) in moves.iter().enumerate() {
            if key(&board) == target {
                return Some(Hit {
                    game,
                    ply: ply as u32,
                    next: decode(&board, m).map_or(Next::End, |mv| match mv {
                        Some(mv) => Next::Move(mv),
                        None => Next::Null,
                    }),
                });
            }
            board = match decode(&board, m)? {
                Some(mv) => board.make_move_new(mv),
                None => board.null_move()?,
            };
        }
        (key(&board) == target).then_some(Hit {
            game,
            ply: game.plies,
            next: Next::End,
        })
    }
}

/// The move of a move byte on `board`: `Some(None)` for a null move, `None` for a byte
/// that names no legal move (a damaged index: the game is left out).
fn decode(board: &Board, m: u8) -> Option<Option<chess::ChessMove>> {
    if m == NULL_MOVE {
        return Some(None);
    }
    MoveGen::new_legal(board).nth(usize::from(m)).map(Some)
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
