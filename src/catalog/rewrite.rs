//! A game of the listed file written again by a save: its row gets the game's new
//! bytes, and every later game's row moves by the difference, so that the list still
//! opens each game from where it now is. Rows the loader sends afterwards (read from
//! the file as it was when reading began) are moved the same way, rewrite after
//! rewrite, in the order they happened.

use super::row::Row;
use super::Catalog;

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
        self.rewrites.push(rewrite);
    }
}
