//! The game list of a PGN file: one small [`Row`] per game, built from the byte-offset
//! index ([`crate::pgn::Indexer`]) without reading moves, streamed in from a background
//! [`Loader`], sorted by any [`Column`] and filtered by a [`Query`].
//!
//! The app owns a [`Catalog`] and feeds it what the loader sends ([`Catalog::apply`]); the
//! current sort and filter stay valid as rows arrive (new rows are merged in place), so
//! the list can be used while a large file is still being read. The screen asks for the
//! rows of a page ([`Catalog::page`]) and draws them (`ui::list`).
//!
//! Every game of the file is a row, numbered as the reader numbers games: one the index
//! cannot read (a game over the size limit) is a row marked with the reason
//! ([`Unreadable`]), never dropped. Each row keeps the game's byte offset and length in the
//! (decompressed) input, so the app loads game N by seeking to it.
//!
//! Memory: a row is 48 bytes and strings are interned (see [`strings`]), so 1.5 million
//! games take about 100 MB with their tables.

pub mod check;
mod filter;
mod id_table;
mod index;
mod loader;
pub mod query;
mod rewrite;
mod row;
mod sort;
pub mod strings;

use std::io;

use filter::Filter;
pub use loader::{Batch, LoadEvent, Loader};
pub use query::{parse as parse_query, position_key, Query, QueryError, QueryErrorKind};
pub(crate) use row::Row;
pub use row::{Column, Date, Eco, GameRow, Unreadable};
pub use sort::{Direction, Sort};
use strings::Strings;

/// The interned strings of the rows, a table per kind.
#[derive(Debug, Clone)]
pub struct Tables {
    pub(crate) players: Strings,
    pub(crate) events: Strings,
    pub(crate) sites: Strings,
    pub(crate) rounds: Strings,
    pub(crate) openings: Strings,
}

impl Tables {
    fn new() -> Self {
        Tables {
            players: Strings::new(),
            events: Strings::new(),
            sites: Strings::new(),
            rounds: Strings::new(),
            openings: Strings::new(),
        }
    }

    fn append(&mut self, more: Tables) {
        self.players.append(more.players);
        self.events.append(more.events);
        self.sites.append(more.sites);
        self.rounds.append(more.rounds);
        self.openings.append(more.openings);
    }

    fn heap_bytes(&self) -> usize {
        [
            &self.players,
            &self.events,
            &self.sites,
            &self.rounds,
            &self.openings,
        ]
        .iter()
        .map(|t| t.heap_bytes())
        .sum()
    }
}

/// How far reading the file has come.
#[derive(Debug)]
pub enum LoadStatus {
    /// Rows are still coming: `read` of `total` bytes of the file read so far (compressed
    /// bytes, for a compressed file; `total` is 0 when the size is not known).
    Loading {
        /// Bytes read.
        read: u64,
        /// The file's size.
        total: u64,
    },
    /// Every game is listed.
    Done,
    /// Reading stopped with an error after the rows listed.
    Failed(io::Error),
}

/// The game list of one file: its rows, and the sorted, filtered view the screen shows.
#[derive(Debug)]
pub struct Catalog {
    rows: Vec<Row>,
    /// Games written again by saves since the list was read (see [`rewrite`]).
    rewrites: Vec<rewrite::Rewrite>,
    /// Rows to show as a save wrote their games, waiting for the loader to finish.
    retags: Vec<rewrite::Retag>,
    /// Games added at the end of the file by saves, waiting for the loader to finish.
    adds: Vec<rewrite::Add>,
    /// Games added at the end of the file by saves that got no row: reading stopped
    /// short of the file's end, so the list cannot tell their numbers.
    unlisted: usize,
    /// Games the check found a problem in (row index → where and why).
    problems: std::collections::HashMap<u32, Box<str>>,
    /// While the games are checked again after a save moved their lines: what that check
    /// found so far, which replaces `problems` once it is done (see [`Catalog::recheck`]).
    rechecked: Option<std::collections::HashMap<u32, Box<str>>>,
    /// Rows whose games a save wrote again: the check's word on them is outdated.
    resaved: std::collections::HashSet<u32>,
    tables: Tables,
    /// Every row (index), in the sort order; file order when not sorted.
    order: Vec<u32>,
    /// The rows matching the filter, in the sort order; `None` without a filter.
    view: Option<Vec<u32>>,
    sort: Option<Sort>,
    filter: Option<Filter>,
    /// The position search's answers to `pos:` terms, by position (see [`Catalog::found`]).
    positions: std::collections::HashMap<String, filter::Reached>,
    /// The positions asked about and not answered yet.
    asked: std::collections::HashSet<String>,
    status: LoadStatus,
}

impl Default for Catalog {
    fn default() -> Self {
        Self::new()
    }
}

impl Catalog {
    /// An empty list, waiting for rows.
    pub fn new() -> Self {
        Catalog {
            rows: Vec::new(),
            rewrites: Vec::new(),
            retags: Vec::new(),
            adds: Vec::new(),
            unlisted: 0,
            problems: std::collections::HashMap::new(),
            rechecked: None,
            resaved: std::collections::HashSet::new(),
            tables: Tables::new(),
            order: Vec::new(),
            view: None,
            sort: None,
            filter: None,
            positions: std::collections::HashMap::new(),
            asked: std::collections::HashSet::new(),
            status: LoadStatus::Loading { read: 0, total: 0 },
        }
    }

    /// The list of every game of a PGN text, read on this thread (for small inputs; the
    /// screen uses a [`Loader`], which reads in the background).
    pub fn read(src: impl io::Read + Send) -> io::Result<Catalog> {
        let mut catalog = Catalog::new();
        loader::list_into(
            crate::pgn::Indexer::new(src),
            loader::BATCH_MAX,
            &mut catalog,
        )?;
        Ok(catalog)
    }

    /// Takes in what the loader sent: rows (merged into the current sort and filter), the
    /// end of the file, or the error that stopped reading.
    pub fn apply(&mut self, event: LoadEvent) {
        match event {
            LoadEvent::Batch(batch) => self.extend(*batch),
            LoadEvent::Done => {
                self.status = LoadStatus::Done;
                self.shrink();
                self.apply_retags();
            }
            LoadEvent::Failed(e) => {
                self.status = LoadStatus::Failed(e);
                self.apply_retags();
            }
        }
    }

    /// Adds a batch of rows (the games following those already listed).
    pub fn extend(&mut self, batch: Batch) {
        debug_assert_eq!(batch.first, self.rows.len() as u64 + 1, "batches in order");
        self.tables.append(batch.strings);
        let from = self.rows.len() as u32;
        self.rows
            .reserve(batch.parts.iter().map(Vec::len).sum::<usize>());
        for part in batch.parts {
            self.rows.extend(part);
        }
        for rewrite in &self.rewrites {
            for row in &mut self.rows[from as usize..] {
                rewrite.apply(row);
            }
        }
        let new: Vec<u32> = (from..self.rows.len() as u32).collect();
        if let Some(filter) = &mut self.filter {
            filter.refresh(&self.tables);
        }
        let matching: Option<Vec<u32>> = self.filter.as_ref().map(|f| {
            new.iter()
                .copied()
                .filter(|&r| f.matches(r, &self.rows[r as usize]))
                .collect()
        });
        let (rows, tables) = (&self.rows, &self.tables);
        match self.sort {
            Some(s) => {
                let cmp = |a, b| sort::compare(s, rows, tables, a, b);
                sort::merge(&mut self.order, new, cmp);
                if let (Some(view), Some(matching)) = (&mut self.view, matching) {
                    sort::merge(view, matching, cmp);
                }
            }
            None => {
                self.order.extend(new);
                if let (Some(view), Some(matching)) = (&mut self.view, matching) {
                    view.extend(matching);
                }
            }
        }
        if !matches!(self.status, LoadStatus::Failed(_)) {
            self.status = LoadStatus::Loading {
                read: batch.read,
                total: batch.total,
            };
        }
    }

    /// How many games saves added at the end of the file have no row, as reading stopped
    /// with an error before the file's end (see [`Catalog::added`]).
    pub fn unlisted(&self) -> usize {
        self.unlisted
    }

    /// How far reading the file has come.
    pub fn status(&self) -> &LoadStatus {
        &self.status
    }

    /// Reading progress in percent while loading (`None` once done, or when the size of
    /// the file is not known).
    pub fn percent(&self) -> Option<u8> {
        match self.status {
            LoadStatus::Loading { read, total } if total > 0 => {
                Some((read.saturating_mul(100) / total).min(99) as u8)
            }
            _ => None,
        }
    }

    /// Games in the file (so far, while loading).
    pub fn games(&self) -> usize {
        self.rows.len()
    }

    /// Games shown: those matching the filter, or all.
    pub fn matches(&self) -> usize {
        self.shown().len()
    }

    /// The shown rows (indices into the file's games, from 0), in order.
    fn shown(&self) -> &[u32] {
        self.view.as_deref().unwrap_or(&self.order)
    }

    /// The game at `position` in the shown list.
    pub fn get(&self, position: usize) -> Option<GameRow<'_>> {
        self.shown().get(position).map(|&r| self.game_row(r))
    }

    /// Game `number` (from 1), shown or not.
    pub fn game(&self, number: u64) -> Option<GameRow<'_>> {
        let index = u32::try_from(number.checked_sub(1)?).ok()?;
        ((index as usize) < self.rows.len()).then(|| self.game_row(index))
    }

    /// The number of the game whose text starts at byte `offset` of the file, if it is
    /// listed (yet): a game recovered from its journal knows its place, not its number.
    pub fn number_at(&self, offset: u64) -> Option<u64> {
        // Rows are in file order, so their offsets grow.
        let index = self.rows.partition_point(|row| row.offset() < offset);
        let row = self.rows.get(index)?;
        (row.offset() == offset).then_some(index as u64 + 1)
    }

    /// Where game `number` is in the shown list, if it is shown (to keep the selection on
    /// the same game when the sort or filter changes).
    pub fn position_of(&self, number: u64) -> Option<usize> {
        let index = u32::try_from(number.checked_sub(1)?).ok()?;
        self.shown().iter().position(|&r| r == index)
    }

    /// The shown games from `first` on, `count` at most: what a screen of the list draws.
    pub fn page(&self, first: usize, count: usize) -> Vec<GameRow<'_>> {
        let shown = self.shown();
        let first = first.min(shown.len());
        let last = first.saturating_add(count).min(shown.len());
        shown[first..last]
            .iter()
            .map(|&r| self.game_row(r))
            .collect()
    }

    fn game_row(&self, index: u32) -> GameRow<'_> {
        let row = &self.rows[index as usize];
        let t = &self.tables;
        let elo = |e: u16| (e != 0).then_some(e);
        GameRow {
            number: u64::from(index) + 1,
            offset: row.offset(),
            len: u64::from(row.len),
            white: t.players.get(row.white),
            white_elo: elo(row.white_elo),
            black: t.players.get(row.black),
            black_elo: elo(row.black_elo),
            result: row::outcome_of(row.result),
            date: row.date,
            event: t.events.get(row.event),
            round: t.rounds.get(row.round),
            site: t.sites.get(row.site),
            eco: Eco::unpack(row.eco),
            opening: t.openings.get(row.opening),
            plies: u32::from(row.plies),
            unreadable: Unreadable::of(row.state),
            problem: self.problems.get(&index).map(|p| &**p),
        }
    }

    /// Marks the games the check found a problem in: `(game number, where and why)`.
    /// A game written again since (by a save) was checked as it was then, and keeps no
    /// mark.
    pub fn mark_problems(&mut self, found: Vec<(u64, String)>) {
        for (number, what) in found {
            let Some(index) = number.checked_sub(1).and_then(|i| u32::try_from(i).ok()) else {
                continue;
            };
            if (index as usize) >= self.rows.len() {
                continue;
            }
            match &mut self.rechecked {
                // Read after the save: the file as it is.
                Some(fresh) => {
                    fresh.insert(index, what.into());
                }
                None if !self.resaved.contains(&index) => {
                    self.problems.insert(index, what.into());
                }
                None => {}
            }
        }
    }

    /// A save into the file moved the lines of the games after the one it wrote: the
    /// games are checked again, and what that check finds replaces the marks once it is
    /// done ([`Catalog::checked_all`]); meanwhile the marks stay as they were. Only once
    /// the file is listed whole (before, the first check is still to come).
    pub fn recheck(&mut self) {
        if matches!(self.status, LoadStatus::Done) {
            self.rechecked = Some(std::collections::HashMap::new());
        }
    }

    /// Whether the games are being checked again (see [`Catalog::recheck`]).
    pub fn rechecking(&self) -> bool {
        self.rechecked.is_some()
    }

    /// The check of every game is done: a check again replaces the marks. True for a
    /// check again.
    pub fn checked_all(&mut self) -> bool {
        match self.rechecked.take() {
            Some(fresh) => {
                self.problems = fresh;
                true
            }
            None => false,
        }
    }

    /// How many games are marked with a problem.
    pub fn problems(&self) -> usize {
        self.problems.len()
    }

    /// The current sort, if any (`None`: file order).
    pub fn sort(&self) -> Option<Sort> {
        self.sort
    }

    /// Sorts by `column`, stably (games that tie keep their order): the way a player first
    /// wants it (ratings and dates the highest and latest first, the rest ascending), or
    /// the other way round when the list is already sorted so by `column`.
    pub fn sort_by(&mut self, column: Column) {
        let first = match column {
            Column::WhiteElo | Column::BlackElo | Column::Date => Direction::Descending,
            _ => Direction::Ascending,
        };
        let direction = match self.sort {
            Some(s) if s.column == column && s.direction == first => match first {
                Direction::Ascending => Direction::Descending,
                Direction::Descending => Direction::Ascending,
            },
            _ => first,
        };
        self.sort_as(Sort { column, direction });
    }

    /// Sorts by `sort`, stably.
    pub fn sort_as(&mut self, s: Sort) {
        sort::sort(&mut self.order, &self.rows, &self.tables, s);
        self.sort = Some(s);
        self.rebuild_view();
    }

    /// Back to the order of the file.
    pub fn unsort(&mut self) {
        self.order = (0..self.rows.len() as u32).collect();
        self.sort = None;
        self.rebuild_view();
    }

    /// The current filter, if any.
    pub fn query(&self) -> Option<&Query> {
        self.filter.as_ref().map(|f| &f.query)
    }

    /// Filters the list by `text` (see [`query`] for the language); an empty text shows
    /// every game. A text that does not read leaves the list as it was and says why.
    pub fn set_filter(&mut self, text: &str) -> Result<(), QueryError> {
        let query = query::parse(text)?;
        self.set_query(query);
        Ok(())
    }

    /// Filters the list by `query`. When `query` can only have fewer candidates than the
    /// current one (a term, or a letter at the end of a word, typed: see
    /// [`filter::implies`]), only the strings that were candidates are checked.
    pub fn set_query(&mut self, query: Query) {
        if query.is_empty() {
            self.filter = None;
            self.view = None;
            return;
        }
        if self.filter.as_ref().is_some_and(|f| f.query == query) {
            return;
        }
        let mut filter = match (&self.filter, &self.view) {
            // The rows are all checked again (a few array reads each): the matches may
            // not narrow, only the candidates.
            (Some(old), Some(_)) if filter::implies(&old.query, &query) => {
                Filter::narrowed(old, query, &self.tables)
            }
            _ => Filter::new(query, &self.tables),
        };
        for (key, games) in &self.positions {
            filter.answer(key, games);
        }
        self.filter = Some(filter);
        self.rebuild_view();
    }

    /// The position search's answer for the position of a `pos:` term (its FEN, or the
    /// FEN's first four fields): the games reaching it, each with the ply it first does.
    /// The list narrows to them when the filter has that term; the answer is kept for
    /// when the term is typed again.
    pub fn found(&mut self, fen: &str, mut games: Vec<(u64, u32)>) {
        let Some(key) = position_key(fen) else {
            return;
        };
        games.sort_unstable();
        games.dedup_by_key(|g| g.0);
        let games = std::sync::Arc::new(games);
        self.asked.remove(&key);
        let used = self.filter.as_mut().is_some_and(|f| f.answer(&key, &games));
        self.positions.insert(key, games);
        if used {
            self.rebuild_view();
        }
    }

    /// The position search for `fen` failed (the caller says why): the filter's term of
    /// it lets no game through, and typing it again asks again.
    pub fn search_failed(&mut self, fen: &str) {
        let Some(key) = position_key(fen) else {
            return;
        };
        self.asked.remove(&key);
        let none = std::sync::Arc::new(Vec::new());
        if self.filter.as_mut().is_some_and(|f| f.answer(&key, &none)) {
            self.rebuild_view();
        }
    }

    /// The positions (FEN's first four fields) the filter's `pos:` terms wait for and
    /// that were not asked about yet: the caller runs the position search for each and
    /// hands the answers to [`Catalog::found`].
    pub fn position_requests(&mut self) -> Vec<String> {
        let Some(filter) = &self.filter else {
            return Vec::new();
        };
        let new: Vec<String> = filter
            .waiting()
            .filter(|key| !self.asked.contains(*key))
            .map(str::to_string)
            .collect();
        self.asked.extend(new.iter().cloned());
        new
    }

    /// Whether a `pos:` term of the filter waits for the search's answer (the list shows
    /// every game it lets through meanwhile).
    pub fn searching(&self) -> bool {
        self.filter
            .as_ref()
            .is_some_and(|f| f.waiting().next().is_some())
    }

    /// The ply at which game `number` reaches the position of the filter's `pos:` term,
    /// when the search found it: where opening the game goes.
    pub fn reached(&self, number: u64) -> Option<u32> {
        self.filter.as_ref()?.ply_of(number)
    }

    /// Forgets the position search's answers (a save changed the file: a game may reach
    /// other positions now); the filter's `pos:` terms are asked about again.
    fn forget_positions(&mut self) {
        self.positions.clear();
        self.asked.clear();
        if let Some(filter) = &mut self.filter {
            filter.forget_answers();
        }
    }

    fn rebuild_view(&mut self) {
        self.view = self.filter.as_ref().map(|f| {
            self.order
                .iter()
                .copied()
                .filter(|&r| f.matches(r, &self.rows[r as usize]))
                .collect()
        });
    }

    /// Gives back the room kept for more rows (once every row is in).
    fn shrink(&mut self) {
        self.rows.shrink_to_fit();
        self.order.shrink_to_fit();
        if let Some(view) = &mut self.view {
            view.shrink_to_fit();
        }
        for table in [
            &mut self.tables.players,
            &mut self.tables.events,
            &mut self.tables.sites,
            &mut self.tables.rounds,
            &mut self.tables.openings,
        ] {
            table.shrink();
        }
    }

    /// Bytes of memory the list holds (rows, strings and views), for the measurements.
    pub fn heap_bytes(&self) -> usize {
        self.rows.capacity() * size_of::<Row>()
            + self.tables.heap_bytes()
            + self.order.capacity() * 4
            + self.view.as_ref().map_or(0, |v| v.capacity() * 4)
    }
}

#[cfg(test)]
mod narrow_tests;
#[cfg(test)]
mod position_tests;
#[cfg(test)]
mod tests;
