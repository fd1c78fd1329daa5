//! Carrying an index over the app's own save: when one game of a plain file was put in
//! place (its text replaced, every other byte the same, those after it shifted by the
//! difference), the index of the file before becomes an index of the file after without
//! reading the file again: the game rows after it are shifted, the game's row, main line,
//! start, columns, hot postings and tallies are replaced, and its entries in the hash
//! table are taken out and put in again for its new positions. The hot positions stay
//! those of the index before (a position is hot or not by the count of games reaching it
//! early; one game more or less changes no answer, only where the answer is kept), and so
//! does the table's shape.
//!
//! Nothing is trusted that is not checked: every block of the old index is checked, the
//! old text must read as exactly what the index holds of that game (its record, main
//! line, start, postings and entries), and the sizes must add up; anything else gives
//! `None`, and the caller builds the index from the file as before.

use std::io;

use hashbrown::HashMap;

use super::build::{lay_out, put_start, record, seal, Compact, MAX_40};
use super::cache::{self, Found, Stamp};
use super::columns::{ColumnsBuilder, FIELDS};
use super::format::{
    next_code, put_postings, read_postings, read_row, read_u32, read_u40, read_u64, write_row,
    Header, GAME_LEN, HOT_LEN, ROW_LEN,
};
use super::open::{follower, Reading};
use super::{Bytes, Index};
use crate::notation::Lang;
use crate::pgn::{SliceReader, TagsAt};
use crate::study::tree::Tally;

/// One game replaced in place in the source: its offset, its text before and after.
#[derive(Debug, Clone, Copy)]
pub struct Replaced<'a> {
    /// Where the game starts in the file (the same before and after).
    pub offset: u64,
    /// Its text before (exactly the bytes that were there).
    pub old: &'a [u8],
    /// Its text now.
    pub new: &'a [u8],
}

/// What the index keeps of the one game of `text` (which starts at `offset` in its file),
/// and the columns a search result line shows of it; `None` unless `text` holds exactly
/// one game.
fn read_one(text: &[u8], offset: u64, lang: &'static Lang) -> Option<(Compact, [String; FIELDS])> {
    let mut reader = SliceReader::new(text);
    let mut follow = follower(lang, Reading::index());
    let walked = reader.read_game_restarting(&mut follow)?;
    if reader.read_game_restarting(&mut follow).is_some() {
        return None;
    }
    let columns = TagsAt::default()
        .read(text, 1)
        .list_columns()
        .map(str::to_string);
    Some((Compact::of(offset, walked), columns))
}

/// The game of `index` that starts at `offset`.
fn game_at(index: &Index, offset: u64) -> Option<u32> {
    let (mut lo, mut hi) = (0u32, index.games());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if index.game(mid).ok()?.offset < offset {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    (lo < index.games() && index.game(lo).ok()?.offset == offset).then_some(lo)
}

/// Adds `delta` to the u40 at `at` of `b`; `None` when the result does not fit.
fn shift_u40(b: &mut [u8], at: usize, delta: i64) -> Option<()> {
    let v = read_u40(b, at).checked_add_signed(delta)?;
    if v > MAX_40 {
        return None;
    }
    b[at..at + 5].copy_from_slice(&v.to_le_bytes()[..5]);
    Some(())
}

/// `t` without one game's facts `one` (the latest year is worked out by the caller).
fn without(t: &Tally, one: &Tally) -> Option<Tally> {
    Some(Tally {
        games: t.games.checked_sub(one.games)?,
        white_wins: t.white_wins.checked_sub(one.white_wins)?,
        draws: t.draws.checked_sub(one.draws)?,
        black_wins: t.black_wins.checked_sub(one.black_wins)?,
        elo_sum: t.elo_sum.checked_sub(one.elo_sum)?,
        elo_count: t.elo_count.checked_sub(one.elo_count)?,
        last_year: t.last_year,
    })
}

/// The latest year among the games of `postings` (those reaching the hot position `key`
/// early) but `skip` that played `next` there: each candidate, latest first, is replayed
/// to the position until one played `next`.
fn last_year(
    index: &Index,
    key: u64,
    next: u16,
    postings: &[(u64, u64)],
    skip: u32,
) -> Option<u16> {
    let mut by_year = Vec::new();
    for &(game, _) in postings {
        let game = u32::try_from(game).ok()?;
        let year = index.game(game).ok()?.info.year;
        if game != skip && year > 0 {
            by_year.push((year, game));
        }
    }
    by_year.sort_unstable_by(|a, b| b.cmp(a));
    for (year, game) in by_year {
        let replayed = index.replay(game, key).ok()??;
        if next_code(replayed.next) == next {
            return Some(year);
        }
    }
    Some(0)
}

/// The bytes of an index of the source after `r` (found at `path`, now `size` bytes
/// modified at `mtime`), made from `index`, the index of the source before; `None` when
/// that cannot be done with certainty (see the module's notes).
pub fn patch(
    index: &Index,
    r: &Replaced,
    lang: &'static Lang,
    path: &str,
    size: u64,
    mtime: (i64, u32),
) -> Option<Vec<u8>> {
    let h = index.header().clone();
    let at = &index.at;
    // Every block once: nothing damaged is carried into an index checksummed anew.
    index.check(at.body_at, at.end).ok()?;
    let delta = i64::try_from(r.new.len()).ok()? - i64::try_from(r.old.len()).ok()?;
    if h.size.checked_add_signed(delta)? != size {
        return None;
    }
    let (old, _) = read_one(r.old, r.offset, lang)?;
    let (new, values) = read_one(r.new, r.offset, lang)?;
    let n = h.games;
    let g = game_at(index, r.offset)?;
    let rec = index.game(g).ok()?;
    let next = (g + 1 < n).then(|| index.game(g + 1)).transpose().ok()?;
    // The old text lies within the game's bytes (up to the next game's start).
    let end = next.map_or(h.size, |x| x.offset);
    if r.offset.checked_add(r.old.len() as u64)? > end {
        return None;
    }
    let moves_end = next.map_or(h.move_bytes, |x| x.moves_at);
    let moves = &index.bytes[at.moves..at.columns];
    let (from, to) = (
        usize::try_from(rec.moves_at).ok()?,
        usize::try_from(moves_end).ok()?,
    );
    let game_bytes = |i: u32| {
        let a = at.games + i as usize * GAME_LEN;
        &index.bytes[a..a + GAME_LEN]
    };
    // What the index holds of the game is what its old text reads as.
    if record(&old, rec.moves_at) != game_bytes(g) || moves.get(from..to)? != old.moves {
        return None;
    }
    let moves_delta = new.moves.len() as i64 - old.moves.len() as i64;

    // Games: those after it shifted, its own record anew.
    let mut games = index.bytes[at.games..at.games + n as usize * GAME_LEN].to_vec();
    for i in g as usize + 1..n as usize {
        shift_u40(&mut games, i * GAME_LEN, delta)?;
        shift_u40(&mut games, i * GAME_LEN + 5, moves_delta)?;
    }
    if new.offset > MAX_40 || rec.moves_at > MAX_40 {
        return None;
    }
    games[g as usize * GAME_LEN..][..GAME_LEN].copy_from_slice(&record(&new, rec.moves_at));

    // Starts: the game's own, if it has one, in its place.
    let starts = patch_starts(&index.bytes[at.games + games.len()..at.hot], g, &old, &new)?;

    // Hot positions: postings and tallies.
    let hot = patch_hot(index, g, &old, &new)?;

    // The hash table: the game's entries out, its new ones in (in game order in each
    // bucket, as a build puts them).
    let shape = h.shape;
    let entry_keys = |c: &Compact| -> Vec<u64> {
        let early = c.early.iter().map(|e| e.key).filter(|k| !hot.is_hot(*k));
        c.keys.iter().copied().chain(early).collect()
    };
    let gone = entry_keys(&old).len() as u64;
    let mut adds: Vec<(usize, u32)> = entry_keys(&new)
        .into_iter()
        .map(|k| (shape.bucket(k), shape.entry(k, g)))
        .collect();
    adds.sort_by_key(|a| a.0);
    let entries = (h.entries.checked_sub(gone)?).checked_add(adds.len() as u64)?;
    if entries > u64::from(u32::MAX) {
        return None;
    }
    let table_len = usize::try_from(shape.entries_len(entries)?).ok()?;

    let mut new_moves = Vec::with_capacity(moves.len() + new.moves.len());
    new_moves.extend_from_slice(&moves[..from]);
    new_moves.extend_from_slice(&new.moves);
    new_moves.extend_from_slice(&moves[to..]);
    let columns = patch_columns(index, g, &values)?;
    let problems = (h.problems.checked_sub(u32::from(old.problems))?) + u32::from(new.problems);
    let header = Header {
        size,
        mtime,
        games: n,
        move_bytes: new_moves.len() as u64,
        entries,
        shape,
        problems,
        starts_len: starts.len() as u64,
        path_len: path.len() as u32,
        hot: h.hot,
        hot_rows: (hot.rows.len() / ROW_LEN) as u32,
        postings_len: hot.postings.len() as u64,
        columns_len: columns.len() as u64,
        crc: 0,
    };
    let buckets = 1usize << shape.bucket_bits;
    let sections: [&[u8]; 6] = [
        path.as_bytes(),
        &games,
        &starts,
        &hot.keys,
        &hot.rows,
        &hot.postings,
    ];
    let tail = new_moves.len() + columns.len();
    let offsets = vec![0u32; buckets + 1];
    let (mut out, body_at, table_at) = lay_out(&header, &sections, &offsets, table_len, tail);
    drop((games, starts, hot.keys, hot.rows, hot.postings));
    let old_offsets = &index.bytes[at.buckets..at.entries];
    let old_table = &index.bytes[at.entries..at.moves];
    let (head, table) = out.split_at_mut(table_at);
    let new_offsets = &mut head[table_at - 4 * (buckets + 1)..];
    let (mut slot, mut added, mut removed) = (0u64, 0usize, 0u64);
    for b in 0..buckets {
        new_offsets[4 * b..4 * b + 4].copy_from_slice(&(slot as u32).to_le_bytes());
        let (from, to) = (
            u64::from(read_u32(old_offsets, 4 * b)),
            u64::from(read_u32(old_offsets, 4 * b + 4)),
        );
        let mut pending = true;
        for i in from..=to {
            let e = (i < to).then(|| shape.read_entry(old_table, i));
            let game = e.map_or(u32::MAX, |e| shape.split(e).0);
            // The game's new entries go before the first entry of a later game.
            if pending && game >= g {
                while added < adds.len() && adds[added].0 == b {
                    shape.write_entry(table, slot, adds[added].1);
                    slot += 1;
                    added += 1;
                }
                pending = false;
            }
            match e {
                Some(_) if game == g => removed += 1,
                Some(e) => {
                    shape.write_entry(table, slot, e);
                    slot += 1;
                }
                None => {}
            }
        }
    }
    // The game's entries were all where the old text says they were.
    if removed != gone || slot != entries {
        return None;
    }
    new_offsets[4 * buckets..4 * buckets + 4].copy_from_slice(&(slot as u32).to_le_bytes());
    out.extend_from_slice(&new_moves);
    out.extend_from_slice(&columns);
    seal(&mut out, body_at);
    Some(out)
}

/// The starts section with game `g`'s start that of `new` (checked to be that of `old`
/// first).
fn patch_starts(b: &[u8], g: u32, old: &Compact, new: &Compact) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(b.len() + 100);
    let mut rest = b;
    let mut old_start = None;
    let put_new = |out: &mut Vec<u8>| {
        if let Some(fen) = &new.start {
            put_start(out, g, fen);
        }
    };
    let mut placed = false;
    while !rest.is_empty() {
        let game = read_u32(rest.get(..6)?, 0);
        let len = 6 + usize::from(u16::from_le_bytes([rest[4], rest[5]]));
        let entry = rest.get(..len)?;
        if game >= g && !placed {
            put_new(&mut out);
            placed = true;
        }
        if game == g {
            old_start = Some(&entry[6..]);
        } else {
            out.extend_from_slice(entry);
        }
        rest = &rest[len..];
    }
    if !placed {
        put_new(&mut out);
    }
    let mut was = Vec::new();
    if let Some(fen) = &old.start {
        put_start(&mut was, g, fen);
    }
    (old_start.map(<[u8]>::to_vec) == was.get(6..).map(<[u8]>::to_vec)).then_some(out)
}

/// The hot sections of a patched index.
struct Hot {
    /// The keys of the hot positions, in order.
    hot_keys: Vec<u64>,
    keys: Vec<u8>,
    rows: Vec<u8>,
    postings: Vec<u8>,
}

impl Hot {
    fn is_hot(&self, key: u64) -> bool {
        self.hot_keys.binary_search(&key).is_ok()
    }
}

/// The hot sections with game `g`'s early visits those of `new` (those of `old` checked
/// to be there first).
fn patch_hot(index: &Index, g: u32, old: &Compact, new: &Compact) -> Option<Hot> {
    let at = &index.at;
    let n = index.header().hot as usize;
    let keys_in = &index.bytes[at.hot..at.rows];
    let rows_in = &index.bytes[at.rows..at.postings];
    let postings_in = &index.bytes[at.postings..at.buckets];
    let hot_keys: Vec<u64> = (0..n).map(|i| read_u64(keys_in, i * HOT_LEN)).collect();
    let early = |c: &Compact| -> HashMap<u64, (u64, u16)> {
        let hot = c
            .early
            .iter()
            .filter(|e| hot_keys.binary_search(&e.key).is_ok());
        hot.map(|e| (e.key, (u64::from(e.ply), e.next))).collect()
    };
    let (was, now) = (early(old), early(new));
    let (old_tally, new_tally) = (Tally::of(&old.info), Tally::of(&new.info));
    let mut out = Hot {
        hot_keys: Vec::new(),
        keys: Vec::with_capacity(keys_in.len()),
        rows: Vec::with_capacity(rows_in.len() + ROW_LEN),
        postings: Vec::with_capacity(postings_in.len() + 16),
    };
    for (i, key) in hot_keys.iter().enumerate() {
        let h = &keys_in[i * HOT_LEN..(i + 1) * HOT_LEN];
        let (first, count) = (read_u32(h, 8) as usize, read_u32(h, 12) as usize);
        let p_at = usize::try_from(read_u64(h, 16)).ok()?;
        let p_count = read_u32(h, 24);
        let p_end = match keys_in.get((i + 1) * HOT_LEN..(i + 2) * HOT_LEN) {
            Some(next) => usize::try_from(read_u64(next, 16)).ok()?,
            None => postings_in.len(),
        };
        let rows = rows_in.get(first * ROW_LEN..(first + count) * ROW_LEN)?;
        let postings = postings_in.get(p_at..p_end)?;
        let (row_at, postings_at) = (out.rows.len() / ROW_LEN, out.postings.len());
        let (mut row_count, mut posting_count) = (count, p_count);
        let (before, after) = (was.get(key), now.get(key));
        if before.is_none() && after.is_none() {
            out.rows.extend_from_slice(rows);
            out.postings.extend_from_slice(postings);
        } else {
            let mut list = read_postings(postings, p_count)?;
            let mut tallies: Vec<(u16, Tally)> = rows.chunks_exact(ROW_LEN).map(read_row).collect();
            if let Some(&(ply, next)) = before {
                let p = list.iter().position(|p| *p == (u64::from(g), ply))?;
                list.remove(p);
                let t = tallies.iter().position(|t| t.0 == next)?;
                let mut left = without(&tallies[t].1, &old_tally)?;
                if left.games == 0 {
                    tallies.remove(t);
                } else {
                    if old_tally.last_year >= left.last_year {
                        left.last_year = last_year(index, *key, next, &list, g)?;
                    }
                    tallies[t].1 = left;
                }
            }
            if let Some(&(ply, next)) = after {
                let p = list.partition_point(|p| p.0 < u64::from(g));
                list.insert(p, (u64::from(g), ply));
                match tallies.binary_search_by_key(&next, |t| t.0) {
                    Ok(t) => tallies[t].1.add(&new_tally),
                    Err(t) => tallies.insert(t, (next, new_tally)),
                }
            }
            for (next, t) in &tallies {
                out.rows.extend_from_slice(&write_row(*next, t));
            }
            put_postings(&mut out.postings, list.iter().copied());
            row_count = tallies.len();
            posting_count = list.len() as u32;
        }
        let mut rec = [0u8; HOT_LEN];
        rec[0..8].copy_from_slice(&key.to_le_bytes());
        rec[8..12].copy_from_slice(&(row_at as u32).to_le_bytes());
        rec[12..16].copy_from_slice(&(row_count as u32).to_le_bytes());
        rec[16..24].copy_from_slice(&(postings_at as u64).to_le_bytes());
        rec[24..28].copy_from_slice(&posting_count.to_le_bytes());
        out.keys.extend_from_slice(&rec);
    }
    out.hot_keys = hot_keys;
    Some(out)
}

/// The columns section with game `g`'s values `values`, laid out as a build lays them out.
fn patch_columns(index: &Index, g: u32, values: &[String; FIELDS]) -> Option<Vec<u8>> {
    let columns = index.columns().ok()?;
    let mut out = ColumnsBuilder::default();
    for i in 0..index.games() {
        if i == g {
            out.push(values.each_ref().map(String::as_str));
        } else {
            out.push(columns.game(i).ok()?);
        }
    }
    Some(out.to_bytes())
}

/// Carries the index of `before`'s source over the game replaced `r`, which made it
/// `after`'s: the index of `before` (`index` when it is that, else the one in the cache)
/// is patched, stored in the cache for `after` and returned. `Ok(None)` when there is
/// none to start from, it does not fit, or the file is no longer `after`: the next
/// question builds the index as before. (No builders' lock is taken: nothing is read
/// from the file, and the store replaces the index whole, as a build would.)
pub fn carry(
    index: Option<&Index>,
    before: &Stamp,
    after: &Stamp,
    r: &Replaced,
    lang: &'static Lang,
) -> io::Result<Option<Index>> {
    if before.path != after.path || before.dir != after.dir {
        return Ok(None);
    }
    let found;
    let index = match index {
        Some(index) => index,
        None => match cache::find(before) {
            Found::Fresh(index) => {
                found = index;
                &found
            }
            _ => return Ok(None),
        },
    };
    let h = index.header();
    if (h.size, h.mtime) != (before.size, before.mtime)
        || index.source_path() != before.path_text().as_bytes()
    {
        return Ok(None);
    }
    let path = after.path_text();
    let Some(bytes) = patch(index, r, lang, &path, after.size, after.mtime) else {
        return Ok(None);
    };
    if after.again().ok().as_ref() != Some(after) {
        return Ok(None);
    }
    cache::store(after, &bytes)?;
    // The stored index is mapped rather than kept in memory, as one found is.
    Ok(Some(match cache::find(after) {
        Found::Fresh(index) => *index,
        _ => Index::open(Bytes::Owned(bytes)).map_err(io::Error::other)?,
    }))
}
