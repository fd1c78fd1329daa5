//! The columns a search result line shows of each game — `list`'s White, Black, Result,
//! Date, Event and ECO — kept in the index, so that a search answers without reading the
//! PGN file again: reading each found game's tag section from across a large file cost
//! more than everything else a search does (most of a second for every game of a 500 MB
//! file). Each distinct value is kept once, in a table; each game holds the ids of its
//! values, packed in as few bits as the tables need (about eight bytes a game on real
//! files, a few per cent of the index).
//!
//! The values are those [`TagsAt`] reads from the game's bytes in the file (from its
//! offset to the next game's, read again with positioned reads once the file has been
//! read through: see [`TagWindow`]), as `list` shows them and as a search shows them when
//! it reads the file through.
//!
//! ```text
//! widths: bits of an id of each table (u8 × 5), 3 zero
//! 5 tables (players, results, dates, events, ECO codes), each: strings n (u32), bytes
//!   of text m (u32), the end of each string in the text (u32 × n), the text (UTF-8)
//! ids: game i's at bits [i × W, (i + 1) × W) in little-endian order, W the sum of the
//!   widths of its fields' tables (White, Black, Result, Date, Event, ECO, in that
//!   order); then 8 zero bytes
//! ```

use std::fs::File;
use std::io;

use hashbrown::HashMap;

use super::format::read_u32;
use super::Damage;
use crate::pgn::tag_window::TagWindow;
use crate::pgn::TagsAt;

/// Fields of a game: White, Black, Result, Date, Event, ECO.
pub const FIELDS: usize = 6;

/// Tables: players (White's and Black's), results, dates, events, ECO codes.
const TABLES: usize = 5;

/// The table of each field.
const TABLE_OF: [usize; FIELDS] = [0, 0, 1, 2, 3, 4];

/// Bytes before the tables.
const WIDTHS_LEN: usize = 8;

/// The values of one table, each once, with their ids.
#[derive(Default)]
struct Interner {
    ids: HashMap<Box<str>, u32>,
    text: String,
    ends: Vec<u32>,
}

impl Interner {
    fn id(&mut self, value: &str) -> u32 {
        if let Some(&id) = self.ids.get(value) {
            return id;
        }
        let id = self.ends.len() as u32;
        self.text.push_str(value);
        self.ends.push(self.text.len() as u32);
        self.ids.insert(value.into(), id);
        id
    }

    /// Bits of an id.
    fn width(&self) -> u8 {
        (32 - (self.ends.len().max(1) as u32 - 1).leading_zeros()) as u8
    }
}

/// The columns of the games of a file, game after game, as a build gathers them.
#[derive(Default)]
pub struct ColumnsBuilder {
    tables: [Interner; TABLES],
    ids: Vec<[u32; FIELDS]>,
}

impl ColumnsBuilder {
    /// Adds the next game's values (White, Black, Result, Date, Event, ECO).
    pub fn push(&mut self, values: [&str; FIELDS]) {
        let mut ids = [0u32; FIELDS];
        for (f, v) in values.iter().enumerate() {
            ids[f] = self.tables[TABLE_OF[f]].id(v);
        }
        self.ids.push(ids);
    }

    /// Games added.
    pub fn games(&self) -> usize {
        self.ids.len()
    }

    /// The section's bytes (see the module's layout).
    pub fn to_bytes(&self) -> Vec<u8> {
        let widths: Vec<u8> = self.tables.iter().map(Interner::width).collect();
        let field_widths = TABLE_OF.map(|t| u32::from(widths[t]));
        let per_game = u64::from(field_widths.iter().sum::<u32>());
        let mut out = Vec::new();
        out.extend_from_slice(&widths);
        out.resize(WIDTHS_LEN, 0);
        for t in &self.tables {
            out.extend_from_slice(&(t.ends.len() as u32).to_le_bytes());
            out.extend_from_slice(&(t.text.len() as u32).to_le_bytes());
            for e in &t.ends {
                out.extend_from_slice(&e.to_le_bytes());
            }
            out.extend_from_slice(t.text.as_bytes());
        }
        let ids_at = out.len();
        let bits = self.ids.len() as u64 * per_game;
        out.resize(ids_at + bits.div_ceil(8) as usize + 8, 0);
        let packed = &mut out[ids_at..];
        let mut bit = 0u64;
        for ids in &self.ids {
            for (id, width) in ids.iter().zip(field_widths) {
                let at = (bit / 8) as usize;
                let mut word = u64::from_le_bytes(packed[at..at + 8].try_into().expect("8"));
                word |= u64::from(*id) << (bit % 8);
                packed[at..at + 8].copy_from_slice(&word.to_le_bytes());
                bit += u64::from(width);
            }
        }
        out
    }
}

/// The columns of the games of an index, read from its section.
pub struct Columns<'a> {
    tables: [Table<'a>; TABLES],
    /// Bits of each field's id, and where it starts in a game's bits.
    fields: [(u32, u32); FIELDS],
    per_game: u64,
    ids: &'a [u8],
    games: u32,
}

/// One table: its strings' ends in its text.
#[derive(Clone, Copy)]
struct Table<'a> {
    ends: &'a [u8],
    text: &'a str,
}

impl<'a> Table<'a> {
    fn get(&self, id: u32) -> Option<&'a str> {
        let n = self.ends.len() / 4;
        let id = id as usize;
        if id >= n {
            return None;
        }
        let end = read_u32(self.ends, id * 4) as usize;
        let start = match id {
            0 => 0,
            _ => read_u32(self.ends, id * 4 - 4) as usize,
        };
        self.text.get(start..end)
    }
}

impl<'a> Columns<'a> {
    /// Reads the section `b` of an index of `games` games.
    pub fn parse(b: &'a [u8], games: u32) -> Result<Columns<'a>, Damage> {
        let widths = b.get(..WIDTHS_LEN).ok_or(Damage::Length)?;
        if widths[..TABLES].iter().any(|w| *w > 32) {
            return Err(Damage::Length);
        }
        let mut at = WIDTHS_LEN;
        let mut tables = [Table {
            ends: &[],
            text: "",
        }; TABLES];
        for t in &mut tables {
            let head = b.get(at..at + 8).ok_or(Damage::Length)?;
            let (n, m) = (read_u32(head, 0) as usize, read_u32(head, 4) as usize);
            at += 8;
            let ends = b.get(at..at + n * 4).ok_or(Damage::Length)?;
            at += n * 4;
            let text = b.get(at..at + m).ok_or(Damage::Length)?;
            at += m;
            let text = std::str::from_utf8(text).map_err(|_| Damage::Length)?;
            *t = Table { ends, text };
        }
        let mut fields = [(0u32, 0u32); FIELDS];
        let mut offset = 0;
        for (f, field) in fields.iter_mut().enumerate() {
            let width = u32::from(widths[TABLE_OF[f]]);
            *field = (width, offset);
            offset += width;
        }
        let per_game = u64::from(offset);
        let ids = &b[at..];
        let want = (u64::from(games) * per_game).div_ceil(8) + 8;
        if ids.len() as u64 != want {
            return Err(Damage::Length);
        }
        Ok(Columns {
            tables,
            fields,
            per_game,
            ids,
            games,
        })
    }

    /// The values of game `i` (0 is the first): White, Black, Result, Date, Event, ECO.
    pub fn game(&self, i: u32) -> Result<[&'a str; FIELDS], Damage> {
        let ids = self.ids(i)?;
        let mut values = [""; FIELDS];
        for (f, value) in values.iter_mut().enumerate() {
            *value = self.value(f, ids[f])?;
        }
        Ok(values)
    }

    /// The ids of the values of game `i` (0 is the first), field by field: equal ids of
    /// a field are equal values (a writer of many lines formats each value once).
    pub fn ids(&self, i: u32) -> Result<[u32; FIELDS], Damage> {
        if i >= self.games {
            return Err(Damage::Length);
        }
        let base = u64::from(i) * self.per_game;
        let mut ids = [0u32; FIELDS];
        for (f, id) in ids.iter_mut().enumerate() {
            let (width, offset) = self.fields[f];
            let bit = base + u64::from(offset);
            let at = (bit / 8) as usize;
            let word = u64::from_le_bytes(self.ids[at..at + 8].try_into().expect("8 bytes"));
            *id = ((word >> (bit % 8)) & ((1u64 << width) - 1)) as u32;
        }
        Ok(ids)
    }

    /// The value of field `field` (see [`Columns::game`]) whose id is `id`.
    pub fn value(&self, field: usize, id: u32) -> Result<&'a str, Damage> {
        self.tables[TABLE_OF[field]].get(id).ok_or(Damage::Length)
    }

    /// How many ids field `field` has (ids are below it).
    pub fn values(&self, field: usize) -> usize {
        self.tables[TABLE_OF[field]].ends.len() / 4
    }
}

/// The columns of the games of `file` that start at `offsets` (in file order): each game's
/// tag section read with [`TagsAt`] from its offset to the next game's, through a
/// [`TagWindow`] (a file another program cuts short meanwhile is an error, not a fault).
pub fn read(file: &File, offsets: &[u64]) -> io::Result<ColumnsBuilder> {
    let mut columns = ColumnsBuilder::default();
    let mut window = TagWindow::new(file)?;
    let len = window.file_len();
    for (i, &offset) in offsets.iter().enumerate() {
        let end = offsets.get(i + 1).map_or(len, |&o| o.max(offset));
        let e = window.tags(offset, end, i as u64 + 1)?;
        columns.push(e.list_columns());
    }
    Ok(columns)
}

/// The same for a file held in memory (`bytes`, the whole of it).
pub fn from_bytes(bytes: &[u8], offsets: &[u64]) -> ColumnsBuilder {
    let mut columns = ColumnsBuilder::default();
    let mut tags = TagsAt::default();
    let at = |o: u64| usize::try_from(o).unwrap_or(usize::MAX).min(bytes.len());
    for (i, &offset) in offsets.iter().enumerate() {
        let end = offsets.get(i + 1).map_or(bytes.len(), |&o| at(o));
        let from = at(offset);
        let e = tags.read(&bytes[from..end.max(from)], i as u64 + 1);
        columns.push(e.list_columns());
    }
    columns
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values read back as pushed, whatever the widths (one value in a table: no bits).
    #[test]
    fn values_read_back_as_they_were_pushed() {
        for games in [0u32, 1, 3, 300] {
            let mut b = ColumnsBuilder::default();
            let mut want = Vec::new();
            for g in 0..games {
                let white = format!("W{}", g % 7);
                let black = format!("Ståhlberg {}", g % 131);
                let date = format!("20{:02}.01.01", g % 3);
                let eco = if g % 5 == 0 { "" } else { "B90" };
                let row = [
                    white,
                    black,
                    "1-0".to_string(),
                    date,
                    "E".to_string(),
                    eco.to_string(),
                ];
                b.push([&row[0], &row[1], &row[2], &row[3], &row[4], &row[5]]);
                want.push(row);
            }
            assert_eq!(b.games(), games as usize);
            let bytes = b.to_bytes();
            let c = Columns::parse(&bytes, games).expect("readable");
            for (g, row) in want.iter().enumerate() {
                assert_eq!(c.game(g as u32).expect("a game").map(str::to_string), *row);
            }
            assert!(c.game(games).is_err(), "no game past the last");
            // (With one value in each table the ids take no bits: any count of games fits.)
            if games > 1 {
                assert!(
                    Columns::parse(&bytes, games + 1).is_err(),
                    "lengths disagree"
                );
            }
        }
    }
}
