//! Building an index: each game is made [`Compact`] (where the work is, so it can run on
//! the threads that read the games), then the [`Builder`] gathers them in file order and
//! lays out the file (see the format in the module above): it finds the hot positions
//! among what games reach in their first plies, keeps their tree rows and postings ready,
//! and puts every other position of every game in the hash table.

use hashbrown::HashMap;

use super::columns::ColumnsBuilder;
use super::format::{
    self, next_code, put_postings, write_row, Header, GAME_LEN, HEADER_LEN, HOT_GAMES, HOT_LEN,
    HOT_PLIES,
};
use crate::study::follow::{GameInfo, Walked};
use crate::study::tree::{Next, Tally};

/// A position a game reaches within its first [`HOT_PLIES`] plies (its first visit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Early {
    /// The position's key.
    pub key: u64,
    /// The ply of the first visit.
    pub ply: u16,
    /// What the game played there ([`format::next_code`]).
    pub next: u16,
}

/// What the index keeps of one game.
#[derive(Debug, Clone)]
pub struct Compact {
    /// Where the game starts in the file.
    pub offset: u64,
    /// Result, ratings and year.
    pub info: GameInfo,
    /// The FEN of its start position, when not the standard one.
    pub start: Option<String>,
    /// The main line in the index's move codes ([`super::code`]).
    pub moves: Vec<u8>,
    /// Plies of the main line the codes hold: those played, up to
    /// [`crate::study::follow::MAX_INDEXED_PLIES`].
    pub coded: u32,
    /// Plies of the main line as written, as `list` shows them (an illegal move stops the
    /// codes, not this count).
    pub plies: u32,
    /// The positions it first reaches within its first [`HOT_PLIES`] plies, in ply order.
    pub early: Vec<Early>,
    /// The keys of the positions after its first [`HOT_PLIES`] plies, in ply order.
    pub keys: Vec<u64>,
    /// The game has problems (an illegal move, a result that disagrees, …).
    pub problems: bool,
}

impl Compact {
    /// The compact form of a game read by [`crate::study::follow::Follow`] with
    /// `indexing`, which started at `offset`.
    pub fn of(offset: u64, w: Walked) -> Compact {
        let coded = w.keys.len().saturating_sub(1);
        let mut early: Vec<Early> = Vec::with_capacity(HOT_PLIES);
        for (ply, &key) in w.keys.iter().enumerate().take(HOT_PLIES) {
            if early.iter().any(|e| e.key == key) {
                continue;
            }
            let next = match w.moves.get(ply) {
                _ if ply == coded => Next::End,
                Some(Some(mv)) => Next::Move(*mv),
                _ => Next::Null,
            };
            early.push(Early {
                key,
                ply: ply as u16,
                next: next_code(next),
            });
        }
        let mut keys = w.keys;
        // Later positions go to the hash table as they come: one the game reached before
        // gives a second entry of the same game in the same bucket, which a search reads
        // as one (and the replay finds its first visit). Sorting each game's positions to
        // drop those few cost more than they weigh.
        keys.drain(..keys.len().min(HOT_PLIES));
        Compact {
            offset,
            info: w.info,
            start: w.start.map(|p| p.fen()),
            moves: w.codes,
            coded: coded as u32,
            plies: w.plies,
            early,
            keys,
            problems: w.read.has_problems(),
        }
    }
}

/// Entries sorted by part of the table at a time when the table is written (32 MB).
const RUN: usize = 1 << 22;

/// The largest offset a game record holds (a terabyte).
pub(super) const MAX_40: u64 = (1 << 40) - 1;

/// The record of game `g` whose move codes start at `moves_at` in the moves section (see
/// the layout; offsets past [`MAX_40`] are cut to it, the caller refuses them).
pub(super) fn record(g: &Compact, moves_at: u64) -> [u8; GAME_LEN] {
    let mut rec = [0u8; GAME_LEN];
    rec[0..5].copy_from_slice(&g.offset.min(MAX_40).to_le_bytes()[..5]);
    rec[5..10].copy_from_slice(&moves_at.min(MAX_40).to_le_bytes()[..5]);
    let coded = g.coded.min(u32::from(u16::MAX));
    rec[10..12].copy_from_slice(&(coded as u16).to_le_bytes());
    rec[12..14].copy_from_slice(&g.info.white_elo.to_le_bytes());
    rec[14..16].copy_from_slice(&g.info.black_elo.to_le_bytes());
    rec[16..18].copy_from_slice(&g.info.year.to_le_bytes());
    rec[18] = g.info.result.code();
    rec[19] = u8::from(g.start.is_some());
    rec[20..24].copy_from_slice(&g.plies.to_le_bytes());
    rec
}

/// Appends to the starts section game `game`'s own start position.
pub(super) fn put_start(starts: &mut Vec<u8>, game: u32, fen: &str) {
    let fen = &fen.as_bytes()[..fen.len().min(u16::MAX as usize)];
    starts.extend_from_slice(&game.to_le_bytes());
    starts.extend_from_slice(&(fen.len() as u16).to_le_bytes());
    starts.extend_from_slice(fen);
}

/// The start of an index file: `header` (its checksum to come), room for the block
/// checksums, the sections from the path to the postings (`sections`), the bucket offsets
/// `buckets`, then `table_len` zero bytes for the entries to be written in place; with
/// room for `tail` more bytes (the moves and the columns, appended next). Returns the
/// bytes and where the body and the entries start. [`seal`] finishes the file.
pub(super) fn lay_out(
    header: &Header,
    sections: &[&[u8]],
    buckets: &[u32],
    table_len: usize,
    tail: usize,
) -> (Vec<u8>, usize, usize) {
    let body_len =
        sections.iter().map(|s| s.len()).sum::<usize>() + buckets.len() * 4 + table_len + tail;
    let body_at = HEADER_LEN + format::blocks(body_len as u64) as usize * 4;
    let mut out = Vec::with_capacity(body_at + body_len);
    out.extend_from_slice(&header.to_bytes());
    out.resize(body_at, 0);
    for s in sections {
        out.extend_from_slice(s);
    }
    for b in buckets {
        out.extend_from_slice(&b.to_le_bytes());
    }
    let table_at = out.len();
    out.resize(table_at + table_len, 0);
    (out, body_at, table_at)
}

/// Writes the block checksums and the header's checksum of a whole index file whose body
/// starts at `body_at`.
pub(super) fn seal(out: &mut [u8], body_at: usize) {
    let crcs = format::block_checksums(&out[body_at..]);
    for (i, c) in crcs.iter().enumerate() {
        out[HEADER_LEN + 4 * i..HEADER_LEN + 4 * i + 4].copy_from_slice(&c.to_le_bytes());
    }
    let crc = format::header_checksum(&out[..body_at]);
    out[format::CRC_AT..format::CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
}

/// An early visit, with its game, as the builder keeps it.
#[derive(Clone, Copy)]
struct EarlyAt {
    key: u64,
    game: u32,
    ply: u16,
    next: u16,
}

/// Gathers games in file order and writes the index.
pub struct Builder {
    games: Vec<u8>,
    infos: Vec<GameInfo>,
    count: u32,
    starts: Vec<u8>,
    moves: Vec<u8>,
    /// The top 32 bits of each later key, game after game: all a bucket needs (at most
    /// 28 bits) and half the memory of whole keys.
    keys: Vec<u32>,
    key_counts: Vec<u32>,
    early: Vec<EarlyAt>,
    problems: u32,
    too_many: bool,
    hot_games: u32,
    /// Entries sorted at a time when the table is written ([`RUN`]; tests use few).
    run: usize,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::with_hot_games(HOT_GAMES)
    }
}

impl Builder {
    /// A builder for which a position is hot from `games` games on (tests use few).
    pub fn with_hot_games(games: u32) -> Self {
        Builder {
            games: Vec::new(),
            infos: Vec::new(),
            count: 0,
            starts: Vec::new(),
            moves: Vec::new(),
            keys: Vec::new(),
            key_counts: Vec::new(),
            early: Vec::new(),
            problems: 0,
            too_many: false,
            hot_games: games.max(1),
            run: RUN,
        }
    }

    /// The same, writing the table a few entries at a time (tests: every path taken).
    #[cfg(test)]
    pub fn with_run(mut self, entries: usize) -> Self {
        self.run = entries.max(1);
        self
    }

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
        self.games.extend_from_slice(&record(&g, moves_at));
        self.infos.push(g.info);
        if let Some(fen) = &g.start {
            put_start(&mut self.starts, game, fen);
        }
        if moves_at > MAX_40 || g.offset > MAX_40 {
            self.too_many = true;
        }
        self.moves.extend_from_slice(&g.moves);
        self.key_counts.push(g.keys.len() as u32);
        self.keys.extend(g.keys.iter().map(|k| (k >> 32) as u32));
        self.early.extend(g.early.iter().map(|e| EarlyAt {
            key: e.key,
            game,
            ply: e.ply,
            next: e.next,
        }));
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

    /// Where each game added starts in the file, in file order (to read their
    /// [`ColumnsBuilder`] columns).
    pub fn offsets(&self) -> Vec<u64> {
        self.games
            .chunks_exact(GAME_LEN)
            .map(|r| format::read_u40(r, 0))
            .collect()
    }

    /// The hot positions, by key: the early visits that reach each, in file order; and
    /// which early visits are to hot positions.
    fn hot(&self) -> (Vec<(u64, Vec<EarlyAt>)>, Vec<bool>) {
        // Counting every key exactly would cost a hash table of millions; a sketch of
        // counters first leaves only the few keys that may be hot to count exactly.
        let bits = (64 - (self.early.len() as u64).leading_zeros()).clamp(8, 20);
        let slot = |k: u64| (k >> (64 - bits)) as usize;
        let mut sketch = vec![0u32; 1 << bits];
        for e in &self.early {
            sketch[slot(e.key)] += 1;
        }
        let mut exact: HashMap<u64, Vec<EarlyAt>> = HashMap::new();
        for e in &self.early {
            if sketch[slot(e.key)] >= self.hot_games {
                exact.entry(e.key).or_default().push(*e);
            }
        }
        exact.retain(|_, v| v.len() >= self.hot_games as usize);
        let is_hot = self
            .early
            .iter()
            .map(|e| sketch[slot(e.key)] >= self.hot_games && exact.contains_key(&e.key))
            .collect();
        let mut hot: Vec<(u64, Vec<EarlyAt>)> = exact.into_iter().collect();
        hot.sort_unstable_by_key(|h| h.0);
        (hot, is_hot)
    }

    /// The index file's bytes, for a source of `size` bytes modified at `mtime` (seconds
    /// and nanoseconds) found at `path`, whose games have the `columns` given (one row
    /// per game added, see [`Builder::offsets`]); `None` when the file holds more
    /// positions than an index can (over four thousand million).
    pub fn finish(
        mut self,
        path: &str,
        size: u64,
        mtime: (i64, u32),
        columns: &ColumnsBuilder,
    ) -> Option<Vec<u8>> {
        if self.too_many || columns.games() != self.count as usize {
            return None;
        }
        let columns = columns.to_bytes();
        let (hot, is_hot) = self.hot();
        // The hot sections.
        let (mut hot_keys, mut rows, mut postings) = (Vec::new(), Vec::new(), Vec::new());
        let mut row_count = 0u32;
        for (key, visits) in &hot {
            let mut tallies: HashMap<u16, Tally> = HashMap::new();
            let postings_at = postings.len() as u64;
            let each = visits.iter().map(|v| (u64::from(v.game), u64::from(v.ply)));
            put_postings(&mut postings, each);
            for v in visits {
                let info = &self.infos[v.game as usize];
                tallies.entry(v.next).or_default().add(&Tally::of(info));
            }
            let mut tallies: Vec<(u16, Tally)> = tallies.into_iter().collect();
            tallies.sort_unstable_by_key(|t| t.0);
            let mut h = [0u8; HOT_LEN];
            h[0..8].copy_from_slice(&key.to_le_bytes());
            h[8..12].copy_from_slice(&row_count.to_le_bytes());
            h[12..16].copy_from_slice(&(tallies.len() as u32).to_le_bytes());
            h[16..24].copy_from_slice(&postings_at.to_le_bytes());
            h[24..28].copy_from_slice(&(visits.len() as u32).to_le_bytes());
            hot_keys.extend_from_slice(&h);
            for (next, t) in tallies {
                rows.extend_from_slice(&write_row(next, &t));
                row_count += 1;
            }
        }
        // The other early visits join the hash table, in game order.
        let rest: Vec<(u32, u32)> = self
            .early
            .iter()
            .zip(&is_hot)
            .filter(|(_, hot)| !**hot)
            .map(|(e, _)| (e.game, (e.key >> 32) as u32))
            .collect();
        drop(is_hot);
        // What is laid out below no longer needs the early visits: their memory goes
        // before the file's bytes are allocated.
        let hot_count = hot.len() as u32;
        drop(hot);
        self.early = Vec::new();
        let entries = self.keys.len() as u64 + rest.len() as u64;
        if entries > u64::from(u32::MAX) {
            return None;
        }
        let shape = format::Shape::for_counts(self.count, entries);
        let buckets = 1usize << shape.bucket_bits;
        let bucket = |top: u32| shape.bucket(u64::from(top) << 32);
        // Counting sort by bucket: the entries of a bucket stay in game order.
        let mut starts = vec![0u32; buckets + 1];
        for &k in self.keys.iter().chain(rest.iter().map(|r| &r.1)) {
            starts[bucket(k) + 1] += 1;
        }
        for i in 0..buckets {
            starts[i + 1] += starts[i];
        }
        let table_len = usize::try_from(shape.entries_len(entries)?).ok()?;
        let header = Header {
            size,
            mtime,
            games: self.count,
            move_bytes: self.moves.len() as u64,
            entries,
            shape,
            problems: self.problems,
            starts_len: self.starts.len() as u64,
            path_len: path.len() as u32,
            hot: hot_count,
            hot_rows: row_count,
            postings_len: postings.len() as u64,
            columns_len: columns.len() as u64,
            crc: 0,
        };
        let sections: [&[u8]; 6] = [
            path.as_bytes(),
            &self.games,
            &self.starts,
            &hot_keys,
            &rows,
            &postings,
        ];
        // The entries are written in place (the table is the largest section).
        let tail = self.moves.len() + columns.len();
        let (mut out, body_at, table_at) = lay_out(&header, &sections, &starts, table_len, tail);
        let table = &mut out[table_at..];
        let mut fill = starts;
        let mut put = |top: u32, game: u32| {
            let b = bucket(top);
            let slot = fill[b];
            fill[b] += 1;
            shape.write_entry(table, u64::from(slot), game);
        };
        // Writing the entries game after game would land each in a random place of the
        // table (most of the build's time went to waiting for memory). Instead the entries
        // of a run of games are first sorted by the part of the table they go to, then
        // written part after part: each part is small enough to stay in the cache, and the
        // entries of a bucket still come in game order.
        let part_bits = u32::from(shape.bucket_bits).min(10);
        let part = |top: u32| (top >> (32 - part_bits)) as usize;
        let mut parts: Vec<Vec<(u32, u32)>> = vec![Vec::new(); 1 << part_bits];
        let mut pending = 0usize;
        let mut flush = |parts: &mut Vec<Vec<(u32, u32)>>| {
            for p in parts.iter_mut() {
                for &(top, game) in p.iter() {
                    put(top, game);
                }
                p.clear();
            }
        };
        let (mut at, mut r) = (0usize, 0usize);
        for (game, &n) in self.key_counts.iter().enumerate() {
            let game = game as u32;
            for &k in &self.keys[at..at + n as usize] {
                parts[part(k)].push((k, game));
            }
            at += n as usize;
            pending += n as usize;
            while r < rest.len() && rest[r].0 == game {
                parts[part(rest[r].1)].push((rest[r].1, game));
                r += 1;
                pending += 1;
            }
            if pending >= self.run {
                flush(&mut parts);
                pending = 0;
            }
        }
        flush(&mut parts);
        drop(parts);
        drop((rest, self.keys, self.key_counts));
        out.extend_from_slice(&self.moves);
        drop(self.moves);
        out.extend_from_slice(&columns);
        seal(&mut out, body_at);
        Some(out)
    }
}
