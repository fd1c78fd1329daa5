//! The index file's layout, written here once. All numbers little-endian.
//!
//! ```text
//! header (HEADER_LEN bytes)
//!   0  magic "SCSHIDX1"            8  format version (u32)
//!  12  source size (u64)          20  source mtime: seconds (i64), 28 nanoseconds (u32)
//!  32  games (u32)                36  bytes of move codes (u64)   44  entries (u64)
//!  52  bucket bits, fingerprint bits, game bits (u8 each), 55 zero
//!  56  games with problems (u32)  60  length of the starts section (u64)
//!  68  length of the path (u32)   72  hot positions (u32)   76  hot rows (u32)
//!  80  bytes of hot postings (u64)
//!  88  CRC-32 of the header (these 4 bytes zero) and the block checksums
//!  92  bytes of the columns section (u64); 100.. zero
//! block checksums: the CRC-32 of each BLOCK bytes of everything after them (the last
//!   block may be shorter): a section is checked when it is first read, so a damaged
//!   index is found without reading all of it at every start
//! the source's canonical path (UTF-8, lossy)
//! games: GAME_LEN bytes each (game i is the file's game i + 1): offset in the source
//!   (u40), where its move codes start (u40), plies its codes hold (u16: those played, up
//!   to an illegal move), White's and Black's rating (u16 each, 0 unknown), year (u16,
//!   0 unknown), result (u8: 0 unknown, 1 1-0, 2 draw, 3 0-1), flags (u8: 1 = the game
//!   starts from a FEN given in the starts section), plies of its main line as written,
//!   as `list` counts them (u32)
//! starts: for each game with its own start: game (u32), FEN length (u16), FEN
//! hot positions, HOT_LEN bytes each, by key: key (u64), first row (u32), rows (u32),
//!   where its postings start in the postings (u64), postings (u32), 4 zero
//! hot rows, ROW_LEN bytes each: the move (u16, see `next_code`), 2 zero, games, White
//!   wins, draws, Black wins, ratings known (u32 each), sum of the ratings (u64), last
//!   year (u16), 2 zero
//! hot postings: for each game that reaches the position in its first HOT_PLIES
//!   plies, in file order: game minus the previous one's (LEB128), ply (LEB128)
//! buckets: 2^bucket_bits + 1 entry offsets (u32): bucket b holds entries
//!   [offsets[b], offsets[b + 1])
//! entries: `game bits + fingerprint bits` each, packed (entry i at bit i × that, in
//!   little-endian order), then 8 bytes of zeros: the game index in the low bits, and
//!   above it the fingerprint, the key's bits right after the bucket's
//! moves: each game's main line in the codes of [`super::code`]
//! columns: what a search result line shows of each game (see [`super::columns`])
//! ```
//!
//! A position's key is first looked up among the hot positions — those that many games
//! reach early, whose tree rows and postings are kept ready (for the games that reach
//! them in their first HOT_PLIES plies; those games have no entry for them). Then the key
//! picks its bucket (the top bits) and fingerprint (the next bits); the games of the
//! entries that match are candidates, and each is confirmed by replaying its moves until
//! the position comes (which also gives the ply and the move played next). A candidate
//! that never reaches it (two keys sharing bucket and fingerprint) is dropped.

use chess::{ChessMove, Piece, ALL_SQUARES};

use crate::study::tree::{Next, Tally};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"SCSHIDX1";
/// The layout's version: an index of another version is rebuilt.
pub const VERSION: u32 = 5;
/// Bytes of the header.
pub const HEADER_LEN: usize = 128;
/// Where the header's checksum sits.
pub const CRC_AT: usize = 88;
/// Bytes per game record.
pub const GAME_LEN: usize = 24;
/// Bytes per hot position.
pub const HOT_LEN: usize = 32;
/// Bytes per hot row.
pub const ROW_LEN: usize = 36;
/// Bytes checked by each block checksum.
pub const BLOCK: usize = 16 << 10;
/// Positions reached by at least this many games within their first [`HOT_PLIES`]
/// plies are hot: replaying that many games costs milliseconds, more would not.
pub const HOT_GAMES: u32 = 1024;
/// Plies from the start of a game within which its positions may count as hot (the
/// positions many games reach are openings; counting every ply would cost the build).
pub const HOT_PLIES: usize = 16;

/// The 16-bit form of what a game played from a position (hot rows keep it).
pub fn next_code(next: Next) -> u16 {
    match next {
        Next::End => 0xFFFF,
        Next::Null => 0xFFFE,
        Next::Move(mv) => {
            let promo = match mv.get_promotion() {
                None => 0,
                Some(Piece::Knight) => 1,
                Some(Piece::Bishop) => 2,
                Some(Piece::Rook) => 3,
                Some(_) => 4,
            };
            (mv.get_source().to_index() | mv.get_dest().to_index() << 6 | promo << 12) as u16
        }
    }
}

/// The move of a [`next_code`], `None` for a code no move has.
pub fn next_of(code: u16) -> Option<Next> {
    match code {
        0xFFFF => Some(Next::End),
        0xFFFE => Some(Next::Null),
        _ => {
            let promo = match code >> 12 {
                0 => None,
                1 => Some(Piece::Knight),
                2 => Some(Piece::Bishop),
                3 => Some(Piece::Rook),
                4 => Some(Piece::Queen),
                _ => return None,
            };
            let (from, to) = (usize::from(code & 63), usize::from(code >> 6 & 63));
            Some(Next::Move(ChessMove::new(
                ALL_SQUARES[from],
                ALL_SQUARES[to],
                promo,
            )))
        }
    }
}

/// The bytes of a hot row: what was played (a [`next_code`]) and the tally of the games
/// that played it.
pub fn write_row(next: u16, t: &Tally) -> [u8; ROW_LEN] {
    let mut r = [0u8; ROW_LEN];
    r[0..2].copy_from_slice(&next.to_le_bytes());
    let counts = [t.games, t.white_wins, t.draws, t.black_wins, t.elo_count];
    for (i, c) in counts.iter().enumerate() {
        let c = u32::try_from(*c).unwrap_or(u32::MAX);
        r[4 + 4 * i..8 + 4 * i].copy_from_slice(&c.to_le_bytes());
    }
    r[24..32].copy_from_slice(&t.elo_sum.to_le_bytes());
    r[32..34].copy_from_slice(&t.last_year.to_le_bytes());
    r
}

/// A hot row read back: its [`next_code`] and tally (`r` holds [`ROW_LEN`] bytes).
pub fn read_row(r: &[u8]) -> (u16, Tally) {
    let n = |i: usize| u64::from(read_u32(r, 4 + 4 * i));
    let tally = Tally {
        games: n(0),
        white_wins: n(1),
        draws: n(2),
        black_wins: n(3),
        elo_count: n(4),
        elo_sum: read_u64(r, 24),
        last_year: u16::from_le_bytes([r[32], r[33]]),
    };
    (u16::from_le_bytes([r[0], r[1]]), tally)
}

/// The `count` postings of a hot position at the start of `b`: (game, ply) each, in file
/// order; `None` when they do not read.
pub fn read_postings(b: &[u8], count: u32) -> Option<Vec<(u64, u64)>> {
    let (mut at, mut game) = (0usize, 0u64);
    let mut out = Vec::with_capacity((count as usize).min(b.len() / 2));
    for _ in 0..count {
        game = game.checked_add(get_varint(b, &mut at)?)?;
        out.push((game, get_varint(b, &mut at)?));
    }
    Some(out)
}

/// Appends postings (game, ply), in file order, as [`read_postings`] reads them.
pub fn put_postings(out: &mut Vec<u8>, postings: impl IntoIterator<Item = (u64, u64)>) {
    let mut last = 0;
    for (game, ply) in postings {
        put_varint(out, game - last);
        put_varint(out, ply);
        last = game;
    }
}

/// Appends `v` in LEB128.
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a LEB128 number at `*at`, moving `*at` past it.
pub fn get_varint(b: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b.get(*at)?;
        *at += 1;
        v |= u64::from(byte & 0x7F) << shift;
        if byte < 0x80 {
            return Some(v);
        }
    }
    None
}

/// How keys map to entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Bits of the key that choose the bucket.
    pub bucket_bits: u8,
    /// Bits of the key kept in each entry.
    pub fp_bits: u8,
    /// Bits of the game index in each entry.
    pub game_bits: u8,
}

impl Shape {
    /// The shape for `games` games and `entries` positions: about 32 entries per bucket
    /// (the bucket table costs an eighth of a byte per entry) and no fingerprint: a
    /// candidate that is not a match costs one game replayed (some microseconds), so the
    /// thirty or so of a bucket cost well under a millisecond, while a fingerprint would
    /// cost bits in every entry.
    pub fn for_counts(games: u32, entries: u64) -> Shape {
        let game_bits = (32 - games.max(1).leading_zeros()).max(1) as u8;
        let per_bucket = (entries / 32).max(1);
        let bucket_bits = (64 - per_bucket.leading_zeros()).clamp(1, 28) as u8;
        // (The builder relies on this: it keeps only the bits a bucket needs.)
        Shape {
            bucket_bits,
            fp_bits: 0,
            game_bits,
        }
    }

    /// Whether a shape read from a file is one this code could have written.
    pub fn is_sane(&self) -> bool {
        (1..=28).contains(&self.bucket_bits)
            && (1..=32).contains(&self.game_bits)
            && self.bits() <= 32
    }

    /// Bits per entry.
    pub fn bits(&self) -> u32 {
        u32::from(self.fp_bits) + u32::from(self.game_bits)
    }

    /// Bytes of the entries section for `entries` entries (with its padding).
    pub fn entries_len(&self, entries: u64) -> Option<u64> {
        Some(entries.checked_mul(u64::from(self.bits()))?.div_ceil(8) + 8)
    }

    /// The bucket of a key.
    pub fn bucket(&self, key: u64) -> usize {
        (key >> (64 - u32::from(self.bucket_bits))) as usize
    }

    /// The fingerprint of a key.
    pub fn fingerprint(&self, key: u64) -> u32 {
        if self.fp_bits == 0 {
            return 0;
        }
        let shifted = key << self.bucket_bits;
        (shifted >> (64 - u32::from(self.fp_bits))) as u32
    }

    /// The entry for `key` in game `game`.
    pub fn entry(&self, key: u64, game: u32) -> u32 {
        if self.fp_bits == 0 {
            return game;
        }
        (self.fingerprint(key) << self.game_bits) | game
    }

    /// The game of an entry, and its fingerprint.
    pub fn split(&self, entry: u32) -> (u32, u32) {
        if self.game_bits >= 32 {
            return (entry, 0);
        }
        (entry & ((1 << self.game_bits) - 1), entry >> self.game_bits)
    }

    /// Entry `i` of a packed entries section.
    pub fn read_entry(&self, packed: &[u8], i: u64) -> u32 {
        let bit = i * u64::from(self.bits());
        let at = (bit / 8) as usize;
        let word = packed.get(at..at + 8).map_or(0, |b| read_u64(b, 0));
        let mask = (1u64 << self.bits()) - 1;
        ((word >> (bit % 8)) & mask) as u32
    }

    /// Writes entry `i` into a packed entries section (zeroed beforehand).
    pub fn write_entry(&self, packed: &mut [u8], i: u64, value: u32) {
        let bit = i * u64::from(self.bits());
        let at = (bit / 8) as usize;
        let mut word = read_u64(&packed[at..at + 8], 0);
        word |= u64::from(value) << (bit % 8);
        packed[at..at + 8].copy_from_slice(&word.to_le_bytes());
    }
}

/// The header's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The source's size when indexed.
    pub size: u64,
    /// The source's modification time when indexed (seconds, nanoseconds).
    pub mtime: (i64, u32),
    /// Games indexed.
    pub games: u32,
    /// Bytes of the moves section.
    pub move_bytes: u64,
    /// Entries (positions, each once per game, but for hot ones).
    pub entries: u64,
    /// How keys map to entries.
    pub shape: Shape,
    /// Games with problems.
    pub problems: u32,
    /// Bytes of the starts section.
    pub starts_len: u64,
    /// Bytes of the path.
    pub path_len: u32,
    /// Hot positions.
    pub hot: u32,
    /// Hot rows.
    pub hot_rows: u32,
    /// Bytes of hot postings.
    pub postings_len: u64,
    /// Bytes of the columns section.
    pub columns_len: u64,
    /// The header's checksum.
    pub crc: u32,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

impl Header {
    /// The header's bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(MAGIC);
        b[8..12].copy_from_slice(&VERSION.to_le_bytes());
        b[12..20].copy_from_slice(&self.size.to_le_bytes());
        b[20..28].copy_from_slice(&self.mtime.0.to_le_bytes());
        b[28..32].copy_from_slice(&self.mtime.1.to_le_bytes());
        b[32..36].copy_from_slice(&self.games.to_le_bytes());
        b[36..44].copy_from_slice(&self.move_bytes.to_le_bytes());
        b[44..52].copy_from_slice(&self.entries.to_le_bytes());
        b[52] = self.shape.bucket_bits;
        b[53] = self.shape.fp_bits;
        b[54] = self.shape.game_bits;
        b[56..60].copy_from_slice(&self.problems.to_le_bytes());
        b[60..68].copy_from_slice(&self.starts_len.to_le_bytes());
        b[68..72].copy_from_slice(&self.path_len.to_le_bytes());
        b[72..76].copy_from_slice(&self.hot.to_le_bytes());
        b[76..80].copy_from_slice(&self.hot_rows.to_le_bytes());
        b[80..88].copy_from_slice(&self.postings_len.to_le_bytes());
        b[CRC_AT..CRC_AT + 4].copy_from_slice(&self.crc.to_le_bytes());
        b[92..100].copy_from_slice(&self.columns_len.to_le_bytes());
        b
    }

    /// Reads a header; `None` when the bytes are not one of this version.
    pub fn read(b: &[u8]) -> Option<Header> {
        if b.len() < HEADER_LEN || &b[0..8] != MAGIC || u32_at(b, 8) != VERSION {
            return None;
        }
        let shape = Shape {
            bucket_bits: b[52],
            fp_bits: b[53],
            game_bits: b[54],
        };
        Some(Header {
            size: u64_at(b, 12),
            mtime: (u64_at(b, 20) as i64, u32_at(b, 28)),
            games: u32_at(b, 32),
            move_bytes: u64_at(b, 36),
            entries: u64_at(b, 44),
            shape: shape.is_sane().then_some(shape)?,
            problems: u32_at(b, 56),
            starts_len: u64_at(b, 60),
            path_len: u32_at(b, 68),
            hot: u32_at(b, 72),
            hot_rows: u32_at(b, 76),
            postings_len: u64_at(b, 80),
            columns_len: u64_at(b, 92),
            crc: u32_at(b, CRC_AT),
        })
    }
}

/// Blocks of a body of `len` bytes.
pub fn blocks(len: u64) -> u64 {
    len.div_ceil(BLOCK as u64)
}

/// The CRC-32 of the header (its checksum taken as zero) and the block checksums that
/// follow it (`head` holds both).
pub fn header_checksum(head: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&head[..CRC_AT]);
    h.update(&[0; 4]);
    h.update(&head[CRC_AT + 4..]);
    h.finalize()
}

/// The block checksums of a body.
pub fn block_checksums(body: &[u8]) -> Vec<u32> {
    body.chunks(BLOCK).map(crc32fast::hash).collect()
}

/// Reads a little-endian u32 at `at`.
pub fn read_u32(b: &[u8], at: usize) -> u32 {
    u32_at(b, at)
}

/// Reads a little-endian u64 at `at`.
pub fn read_u64(b: &[u8], at: usize) -> u64 {
    u64_at(b, at)
}

/// Reads a little-endian u40 at `at`.
pub fn read_u40(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x[..5].copy_from_slice(&b[at..at + 5]);
    u64::from_le_bytes(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_entries_read_back_whatever_their_width() {
        for game_bits in [1u8, 7, 13, 20, 24, 31, 32] {
            let shape = Shape {
                bucket_bits: 4,
                fp_bits: 0,
                game_bits,
            };
            let max = if game_bits == 32 {
                u32::MAX
            } else {
                (1 << game_bits) - 1
            };
            let values: Vec<u32> = (0..100u32)
                .map(|i| i.wrapping_mul(2_654_435_761) & max)
                .collect();
            let len = shape.entries_len(values.len() as u64).expect("len") as usize;
            let mut packed = vec![0u8; len];
            for (i, v) in values.iter().enumerate() {
                shape.write_entry(&mut packed, i as u64, *v);
            }
            for (i, v) in values.iter().enumerate() {
                assert_eq!(
                    shape.read_entry(&packed, i as u64),
                    *v,
                    "{game_bits} bits, entry {i}"
                );
            }
        }
    }
}
