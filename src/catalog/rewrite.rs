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

    /// Carries out the retags waiting (see [`Catalog::retag`]).
    pub(super) fn apply_retags(&mut self) {
        if self.retags.is_empty() {
            return;
        }
        for (offset, entry) in std::mem::take(&mut self.retags) {
            let Some(index) = self.rows.iter().position(|r| r.offset() == offset) else {
                continue;
            };
            // Written anew by the program, the game has no problem the check saw.
            self.problems.remove(&(index as u32));
            self.resaved.insert(index as u32);
            let row = &mut self.rows[index];
            let (mut new, opening) = super::index::numbers_of(&entry, &super::index::ECO_NAMES);
            let tables = &mut self.tables;
            new.white = tables.players.add(entry.white());
            new.black = tables.players.add(entry.black());
            new.event = tables.events.add(entry.event());
            new.site = tables.sites.add(entry.site());
            new.round = tables.rounds.add(entry.round());
            new.opening = tables.openings.add(opening);
            new.set_offset(offset);
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
}

/// Keeps a retag's game entry for when it is carried out.
pub(super) type Retag = (u64, GameEntry);
