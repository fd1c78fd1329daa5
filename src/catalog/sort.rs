//! Ordering the list by a column: numbers as numbers, dates as dates, names by their
//! folded form (accents and case aside); unknown values (`?`, a missing tag) last in both
//! directions. Sorts are stable: games that tie keep the order they had, so sorting by
//! date then by White lists each player's games by date.

use std::cmp::Ordering;

use super::row::{Column, Row};
use super::strings::Strings;
use super::Tables;

/// Which way a column is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Smallest (earliest, first in the alphabet) first.
    Ascending,
    /// Largest first.
    Descending,
}

/// A column and a direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort {
    /// The column sorted by.
    pub column: Column,
    /// Which way.
    pub direction: Direction,
}

/// The result code the list takes as unknown (`*`, or no result at all).
const UNKNOWN_RESULT: u8 = 3;

/// A numeric key of `row` for `column`, ascending; `None` when the value is unknown.
/// Text columns have none: they compare as text.
fn number_key(column: Column, index: u32, row: &Row) -> Option<u32> {
    let known = |v: u32| (v != 0).then_some(v);
    match column {
        Column::Number => Some(index),
        Column::WhiteElo => known(row.white_elo.into()),
        Column::BlackElo => known(row.black_elo.into()),
        Column::Result => (row.result != UNKNOWN_RESULT).then_some(row.result.into()),
        Column::Date => known(row.date.packed()),
        Column::Eco => known(row.eco.into()),
        Column::Plies => (row.state == 0).then_some(row.plies.into()),
        _ => None,
    }
}

/// The table and id of a text column's value.
fn text_of<'a>(column: Column, row: &Row, tables: &'a Tables) -> Option<(&'a Strings, u32)> {
    Some(match column {
        Column::White => (&tables.players, row.white),
        Column::Black => (&tables.players, row.black),
        Column::Event => (&tables.events, row.event),
        Column::Round => (&tables.rounds, row.round),
        Column::Site => (&tables.sites, row.site),
        Column::Opening => (&tables.openings, row.opening),
        _ => return None,
    })
}

/// Text order: folded, then as written (so that `Muller` and `Müller` stay apart, next to
/// each other). Rounds are numbers as written (`2` before `10`, `1.2` before `1.10`): their
/// digits compare as numbers.
fn text_cmp(column: Column, table: &Strings, a: u32, b: u32) -> Ordering {
    let (fa, fb) = (table.folded(a), table.folded(b));
    match column {
        Column::Round => numbers_within(fa, fb),
        _ => Ordering::Equal,
    }
    .then_with(|| fa.cmp(fb))
    .then_with(|| table.get(a).cmp(table.get(b)))
}

/// `a` and `b` compared piece by piece, each run of digits as the number it writes and
/// the text between as text. (No allocation: it runs for every comparison of a sort by
/// round while rows stream in.)
fn numbers_within(a: &str, b: &str) -> Ordering {
    // The next run of digits, or of other bytes, at the start of `s`.
    fn run(s: &[u8]) -> (&[u8], &[u8]) {
        let digits = s.first().is_some_and(u8::is_ascii_digit);
        let end = s
            .iter()
            .position(|c| c.is_ascii_digit() != digits)
            .unwrap_or(s.len());
        s.split_at(end)
    }
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    while !a.is_empty() && !b.is_empty() {
        let ((ra, rest_a), (rb, rest_b)) = (run(a), run(b));
        let numbers = ra[0].is_ascii_digit() && rb[0].is_ascii_digit();
        let order = if numbers {
            let trim = |r: &[u8]| -> usize { r.iter().position(|&c| c != b'0').unwrap_or(r.len()) };
            let (ta, tb) = (&ra[trim(ra)..], &rb[trim(rb)..]);
            ta.len().cmp(&tb.len()).then_with(|| ta.cmp(tb))
        } else {
            ra.cmp(rb)
        };
        if order != Ordering::Equal {
            return order;
        }
        (a, b) = (rest_a, rest_b);
    }
    a.len().cmp(&b.len())
}

/// Compares rows `a` and `b` (indices into `rows`) in the order of `sort`, unknown values
/// last; `Equal` for a tie.
pub(crate) fn compare(sort: Sort, rows: &[Row], tables: &Tables, a: u32, b: u32) -> Ordering {
    let (ra, rb) = (&rows[a as usize], &rows[b as usize]);
    let ordered = match text_of(sort.column, ra, tables) {
        Some((table, ia)) => {
            let ib = text_of(sort.column, rb, tables).map_or(0, |(_, id)| id);
            match (ia, ib) {
                (0, 0) => return Ordering::Equal,
                (0, _) => return Ordering::Greater,
                (_, 0) => return Ordering::Less,
                _ => text_cmp(sort.column, table, ia, ib),
            }
        }
        None => match (
            number_key(sort.column, a, ra),
            number_key(sort.column, b, rb),
        ) {
            (None, None) => return Ordering::Equal,
            (None, _) => return Ordering::Greater,
            (_, None) => return Ordering::Less,
            (Some(x), Some(y)) => x.cmp(&y),
        },
    };
    match sort.direction {
        Direction::Ascending => ordered,
        Direction::Descending => ordered.reverse(),
    }
}

/// Sorts `order` (row indices) by `sort`, stably. Each row gets a number first (text
/// values their rank among the table's distinct strings), so the sort itself compares
/// numbers: a million rows sort in tens of milliseconds.
pub(crate) fn sort(order: &mut [u32], rows: &[Row], tables: &Tables, sort: Sort) {
    let rank = |table: &Strings| -> Vec<u32> {
        let mut ids: Vec<u32> = (1..table.len() as u32).collect();
        ids.sort_unstable_by(|&a, &b| text_cmp(sort.column, table, a, b));
        let mut rank = vec![0u32; table.len()];
        for (r, id) in ids.into_iter().enumerate() {
            rank[id as usize] = r as u32 + 1;
        }
        rank
    };
    let ranks = rows
        .first()
        .and_then(|r| text_of(sort.column, r, tables))
        .map(|(table, _)| rank(table));
    let flip = |k: u32| match sort.direction {
        Direction::Ascending => k,
        Direction::Descending => u32::MAX - 1 - k,
    };
    let keys: Vec<u32> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let key = match &ranks {
                Some(rank) => text_of(sort.column, row, tables)
                    .map(|(_, id)| rank[id as usize])
                    .filter(|&r| r != 0),
                None => number_key(sort.column, i as u32, row),
            };
            key.map_or(u32::MAX, flip)
        })
        .collect();
    order.sort_by_key(|&r| keys[r as usize]);
}

/// Inserts `new` (row indices, all larger than those in `into`) into `into`, which is in the
/// order `cmp` gives; a new row goes after the rows it ties with. Costs `new.len()` binary
/// searches and one pass of copying: cheap enough to run for every batch while a large
/// file streams in.
pub(crate) fn merge(into: &mut Vec<u32>, mut new: Vec<u32>, cmp: impl Fn(u32, u32) -> Ordering) {
    if new.is_empty() {
        return;
    }
    new.sort_by(|&a, &b| cmp(a, b));
    let mut merged = Vec::with_capacity(into.len() + new.len());
    let mut from = 0;
    for r in new {
        let at = from + into[from..].partition_point(|&e| cmp(e, r) != Ordering::Greater);
        merged.extend_from_slice(&into[from..at]);
        merged.push(r);
        from = at;
    }
    merged.extend_from_slice(&into[from..]);
    *into = merged;
}
