//! A game of the listed file written again by a save: its row gets the game's new
//! bytes, and every later game's row moves by the difference, so that the list still
//! opens each game from where it now is. Rows the loader sends afterwards (read from
//! the file as it was when reading began) are moved the same way, rewrite after
//! rewrite, in the order they happened.

use super::row::Row;
use super::{Catalog, LoadStatus};
use crate::pgn::index::GameEntry;

/// One game written again: where it was and where it is now (bytes of the text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Rewrite {
    /// Where the game began.
    offset: u64,
    /// Where it ended.
    end: u64,
    /// Where it begins now.
    new_offset: u64,
    /// Its length now.
    new_len: u64,
}

impl Rewrite {
    /// Where a game that began at `at` before this rewrite begins after it.
    pub(super) fn moved(&self, at: u64) -> u64 {
        if at == self.offset {
            self.new_offset
        } else if at >= self.end {
            at - self.end + self.new_offset + self.new_len
        } else {
            at
        }
    }

    /// Moves a row written before this rewrite to where its game is after it.
    pub(super) fn apply(&self, row: &mut Row) {
        let at = row.offset();
        if at == self.offset {
            row.set_offset(self.new_offset);
            // A game grown past what a row holds is too large to open, as when listed.
            row.len = u32::try_from(self.new_len).unwrap_or(0);
        } else if at >= self.end {
            row.set_offset(at - self.end + self.new_offset + self.new_len);
        }
    }
}

impl Catalog {
    /// The game that spanned `len` bytes from `offset` was written again (by a save)
    /// and now spans `new_len` bytes from `new_offset`: its row and those of the games
    /// after it follow, now and for the rows still to come from the loader.
    pub fn rewritten(&mut self, (offset, len): (u64, u64), (new_offset, new_len): (u64, u64)) {
        let rewrite = Rewrite {
            offset,
            end: offset.saturating_add(len),
            new_offset,
            new_len,
        };
        for row in &mut self.rows {
            rewrite.apply(row);
        }
        for (at, _) in &mut self.retags {
            *at = rewrite.moved(*at);
        }
        for add in &mut self.adds {
            // Written again before its row was made: its row takes the new span.
            if add.offset == rewrite.offset {
                add.len = new_len;
            }
            add.offset = rewrite.moved(add.offset);
        }
        self.rewrites.push(rewrite);
    }

    /// The game that begins at `offset` (where it is now) was written again as `text`:
    /// its row shows the players, event, date, result, opening and length written, and
    /// the sort and the filter take it where it now belongs. While the file is still
    /// being read this waits for the last rows (the loader numbers the strings it sends,
    /// so none may be added meanwhile).
    pub fn retag(&mut self, offset: u64, text: &str) {
        let Some(entry) = crate::pgn::index(text.as_bytes()).into_iter().next() else {
            return;
        };
        self.forget_positions();
        self.rebuild_view();
        self.retags.push((offset, entry));
        if !matches!(self.status, LoadStatus::Loading { .. }) {
            self.apply_retags();
        }
    }

    /// A save added a game at the end of the file: it spans `len` bytes from `offset`, as
    /// `text`. It is listed last, with the players, event, date, result, opening and
    /// length written, where the sort and the filter take it. While the file is still
    /// being read this waits for the last rows (the game is the file's last, and the
    /// loader numbers the strings it sends); a loader that reached the game itself has
    /// listed it already. When reading stopped with an error, the rows stop short of the
    /// file's end and a row added after them would take a wrong number: the game is
    /// counted in [`Catalog::unlisted`] instead, for the list to say so.
    pub fn added(&mut self, (offset, len): (u64, u64), text: &str) {
        let Some(entry) = crate::pgn::index(text.as_bytes()).into_iter().next() else {
            return;
        };
        self.forget_positions();
        self.rebuild_view();
        self.adds.push(Add { offset, len, entry });
        if !matches!(self.status, LoadStatus::Loading { .. }) {
            self.apply_retags();
        }
    }

    /// Carries out the additions and retags waiting (see [`Catalog::added`] and
    /// [`Catalog::retag`]).
    pub(super) fn apply_retags(&mut self) {
        if self.retags.is_empty() && self.adds.is_empty() {
            return;
        }
        let complete = matches!(self.status, LoadStatus::Done);
        for add in std::mem::take(&mut self.adds) {
            if self.rows.iter().any(|r| r.offset() == add.offset) {
                continue;
            }
            // After a failed read the rows stop short of the file's end: a row added
            // after them would take a wrong number.
            if !complete {
                self.unlisted += 1;
                continue;
            }
            let mut row = self.row_of(&add.entry, add.offset);
            // A game grown past what a row holds is too large to open, as when listed.
            row.len = u32::try_from(add.len).unwrap_or(0);
            let index = self.rows.len() as u32;
            self.rows.push(row);
            self.order.push(index);
            self.resaved.insert(index);
        }
        for (offset, entry) in std::mem::take(&mut self.retags) {
            let Some(index) = self.rows.iter().position(|r| r.offset() == offset) else {
                continue;
            };
            // Written anew by the program, the game has no problem the check saw.
            self.problems.remove(&(index as u32));
            self.resaved.insert(index as u32);
            let mut new = self.row_of(&entry, offset);
            let row = &mut self.rows[index];
            // Where the game's text ends is the save's word (see `rewritten`).
            (new.len, new.state) = (row.len, row.state);
            *row = new;
        }
        if let Some(filter) = &mut self.filter {
            filter.refresh(&self.tables);
        }
        match self.sort {
            Some(s) => self.sort_as(s),
            None => self.rebuild_view(),
        }
    }

    /// The row of the game `entry` tells of, at `offset`, its strings added to the
    /// tables.
    fn row_of(&mut self, entry: &GameEntry, offset: u64) -> Row {
        let (mut row, opening) = super::index::numbers_of(entry, &super::index::ECO_NAMES);
        let tables = &mut self.tables;
        row.white = tables.players.add(entry.white());
        row.black = tables.players.add(entry.black());
        row.event = tables.events.add(entry.event());
        row.site = tables.sites.add(entry.site());
        row.round = tables.rounds.add(entry.round());
        row.opening = tables.openings.add(opening);
        row.set_offset(offset);
        row
    }
}

/// Keeps a retag's game entry for when it is carried out.
pub(super) type Retag = (u64, GameEntry);

/// A game a save added at the end of the file, kept until its row can be made.
#[derive(Debug)]
pub(super) struct Add {
    /// Where it begins (bytes of the text).
    offset: u64,
    /// Its length.
    len: u64,
    /// Its tags, as written.
    entry: GameEntry,
}
