//! The result lines of `search`: `list`'s columns and the ply. Answered from an index, the
//! columns are the index's own (see [`crate::study::index::columns`]); answered by reading
//! the file through, the tags of each game found are read from the file at its offset
//! afterwards (mapped into memory when it can be).

use std::fs::File;
use std::io::{self, Write};

use crate::pgn::{GameRef, TagsAt};
use crate::study::follow::Tags;
use crate::study::index::columns::{Columns, FIELDS};
use crate::study::index::{Damage, Hit};

/// Bytes of lines gathered before they are written.
pub const BATCH: usize = 64 << 10;

/// Writes the line of each game the index found, from the columns it keeps (the file
/// itself is not read). Each distinct value is put in `list`'s form once, then copied.
pub fn write_hits(
    out: &mut impl Write,
    file: Option<&str>,
    columns: &Columns,
    hits: &[Hit],
) -> io::Result<()> {
    let damaged = |e: Damage| io::Error::other(format!("the index: {e}"));
    let file = prefix(file);
    // Each field's values as the line shows them, by id: where in `shown` (unset: not
    // shown yet).
    const UNSET: (u32, u32) = (u32::MAX, 0);
    let mut memo: Vec<Vec<(u32, u32)>> = (0..FIELDS)
        .map(|f| vec![UNSET; columns.values(f)])
        .collect();
    let mut shown = Vec::new();
    let mut buf = Vec::with_capacity(BATCH + 1024);
    let mut digits = itoa::Buffer::new();
    for h in hits {
        let game = u32::try_from(h.game.number - 1).unwrap_or(u32::MAX);
        let ids = columns.ids(game).map_err(damaged)?;
        buf.extend_from_slice(&file);
        buf.extend_from_slice(digits.format(h.game.number).as_bytes());
        for (f, &id) in ids.iter().enumerate() {
            let slot = memo[f]
                .get_mut(id as usize)
                .ok_or_else(|| damaged(Damage::Length))?;
            if *slot == UNSET {
                let start = shown.len();
                push_field(&mut shown, columns.value(f, id).map_err(damaged)?);
                *slot = (start as u32, (shown.len() - start) as u32);
            }
            let (start, len) = (slot.0 as usize, slot.1 as usize);
            buf.push(b'\t');
            buf.extend_from_slice(&shown[start..start + len]);
        }
        buf.push(b'\t');
        buf.extend_from_slice(digits.format(h.game.plies).as_bytes());
        buf.push(b'\t');
        buf.extend_from_slice(digits.format(h.ply).as_bytes());
        buf.push(b'\n');
        if buf.len() >= BATCH {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

/// A file mapped into memory, to read the tags of the games a search read through found,
/// at their offsets, once the reading is done.
pub struct Mapped(memmap2::Mmap);

impl Mapped {
    /// The map of `file`; `None` when it cannot be mapped.
    pub fn of(file: &File) -> Option<Mapped> {
        // SAFETY: only read; a file truncated meanwhile faults instead of giving a read
        // error, the caveat `list` documents for its own map.
        unsafe { memmap2::Mmap::map(file) }.ok().map(Mapped)
    }

    /// The tags of the game numbered `number` that starts at `offset`, as `list` reads
    /// them. Its tag section ends where its movetext (or the next game, as the reader
    /// finds games) starts: the bytes after it need not be bounded.
    fn read<'a>(&'a self, reader: &'a mut TagsAt, offset: u64, number: u64) -> GameRef<'a> {
        let at = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.0.len());
        reader.read(&self.0[at..], number)
    }

    /// Adds the result line of the game numbered `number` that starts at `offset` (see
    /// [`push_row`]), its tags read from the map.
    #[allow(clippy::too_many_arguments)]
    pub fn push_line(
        &self,
        buf: &mut Vec<u8>,
        reader: &mut TagsAt,
        file: &[u8],
        offset: u64,
        number: u64,
        plies: u32,
        ply: u32,
    ) {
        let e = self.read(reader, offset, number);
        let [white, black, result, date, event, eco] = e.list_columns();
        push_row(
            buf,
            file,
            number,
            [white, black, result, date, event],
            eco,
            plies,
            ply,
        );
    }
}

/// Adds a tag's value as `list` shows it: `?` when empty; escaped when it holds a tab, a
/// line feed or an escape character (which would break the columns). Only a value with a
/// byte outside printable ASCII can hold one (checked branch-free over the bytes:
/// cheaper than an early exit on values this short).
fn push_field(buf: &mut Vec<u8>, field: &str) {
    let unusual = field
        .bytes()
        .fold(false, |seen, b| seen | !(0x20..0x7f).contains(&b));
    match unusual.then(|| crate::message::escaped(field)).flatten() {
        Some(escaped) => buf.extend_from_slice(escaped.as_bytes()),
        None if field.is_empty() => buf.push(b'?'),
        None => buf.extend_from_slice(field.as_bytes()),
    }
}

/// What starts each line: the file's name and a tab when there are several files (`file`),
/// else nothing.
pub fn prefix(file: Option<&str>) -> Vec<u8> {
    file.map_or(Vec::new(), |f| {
        format!("{}\t", crate::message::shown(f)).into_bytes()
    })
}

/// Adds one result line for a game with these tags (see [`push_row`]), after `file` (a
/// [`prefix`]).
pub fn push_tags(buf: &mut Vec<u8>, file: &[u8], number: u64, tags: &Tags, plies: u32, ply: u32) {
    let fields = [
        tags.white.as_str(),
        &tags.black,
        &tags.result,
        &tags.date,
        &tags.event,
    ];
    push_row(buf, file, number, fields, &tags.eco, plies, ply);
}

/// Adds one result line: `list`'s columns (number, White, Black, result, date, event, ECO,
/// plies), then the ply at which the game reaches the position; after `file` (a
/// [`prefix`]). Put together by hand: the formatting machinery cost more than reading the
/// tags.
fn push_row(
    buf: &mut Vec<u8>,
    file: &[u8],
    number: u64,
    fields: [&str; 5],
    eco: &str,
    plies: u32,
    ply: u32,
) {
    buf.extend_from_slice(file);
    let mut digits = itoa::Buffer::new();
    buf.extend_from_slice(digits.format(number).as_bytes());
    for field in fields.into_iter().chain([eco]) {
        buf.push(b'\t');
        push_field(buf, field);
    }
    buf.push(b'\t');
    buf.extend_from_slice(digits.format(plies).as_bytes());
    buf.push(b'\t');
    buf.extend_from_slice(digits.format(ply).as_bytes());
    buf.push(b'\n');
}
