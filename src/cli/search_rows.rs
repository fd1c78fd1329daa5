//! The result lines of `search` answered from an index: the tags of each game found are
//! read from the file at the game's offset (mapped into memory when it can be), on every
//! core for long answers, and written in file order.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

use crate::pgn::chunks::FileAt;
use crate::pgn::{Pos, Reader, Skip, Visitor};
use crate::study::follow::Tags;

/// A game found, as its line needs it.
pub struct Row {
    /// Where the game starts in the file.
    pub offset: u64,
    /// Where the next game starts (`u64::MAX` for the last).
    pub end: u64,
    /// Its number in the file.
    pub number: u64,
    /// Plies of its main line.
    pub plies: u32,
    /// The ply at which it reaches the position.
    pub ply: u32,
}

/// Games per batch shared among threads: enough to keep them busy, few enough that the
/// lines waiting to be written stay small.
const BATCH: usize = 1 << 14;

/// Writes the line of each row, in order, reading their tags from `path`.
pub fn write_rows(
    out: &mut impl Write,
    file: Option<&str>,
    path: &Path,
    rows: &[Row],
) -> io::Result<()> {
    let source = Source::open(path)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let lines = |part: &[Row]| -> io::Result<Vec<u8>> {
        let mut buf = Vec::with_capacity(part.len() * 96);
        for r in part {
            let tags = source.tags_at(r.offset, r.end)?;
            write_row(&mut buf, file, r.number, &tags, r.plies, r.ply)?;
        }
        Ok(buf)
    };
    if threads < 2 || rows.len() < 2048 {
        return out.write_all(&lines(rows)?);
    }
    for batch in rows.chunks(BATCH) {
        let per = batch.len().div_ceil(threads);
        let parts = std::thread::scope(|s| {
            let handles: Vec<_> = batch
                .chunks(per)
                .map(|part| s.spawn(move || lines(part)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(io::Error::other("a reading thread failed")))
                })
                .collect::<Vec<_>>()
        });
        for part in parts {
            out.write_all(&part?)?;
        }
    }
    Ok(())
}

/// Reads only the tags of a game (its movetext is skipped).
#[derive(Default)]
struct TagsOnly(Tags);

impl Visitor for TagsOnly {
    type Output = Tags;

    fn wants_tag(&mut self, name: &[u8]) -> bool {
        matches!(
            name,
            b"White" | b"Black" | b"Result" | b"Date" | b"Event" | b"ECO"
        )
    }

    fn tag(&mut self, name: &[u8], value: &str, _: Pos) {
        let t = &mut self.0;
        let field = match name {
            b"White" => &mut t.white,
            b"Black" => &mut t.black,
            b"Result" => &mut t.result,
            b"Date" => &mut t.date,
            b"Event" => &mut t.event,
            _ => &mut t.eco,
        };
        *field = value.to_string();
    }

    fn begin_movetext(&mut self) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) -> Tags {
        std::mem::take(&mut self.0)
    }
}

/// The file the index answered for, to read the tags of the games found: mapped into
/// memory when it can be (no system call per game), else read at each game's offset.
enum Source {
    Map(memmap2::Mmap),
    File(File),
}

impl Source {
    fn open(path: &Path) -> io::Result<Source> {
        let file = File::open(path)?;
        // SAFETY: only read; a file truncated meanwhile faults instead of giving a read
        // error, the caveat `list` documents for its own map.
        Ok(match unsafe { memmap2::Mmap::map(&file) } {
            Ok(map) => Source::Map(map),
            Err(_) => Source::File(file),
        })
    }

    /// The tags of the game starting at `offset`, the next one at `end`.
    fn tags_at(&self, offset: u64, end: u64) -> io::Result<Tags> {
        match self {
            Source::Map(map) => {
                let at = |o: u64| usize::try_from(o).unwrap_or(usize::MAX).min(map.len());
                let (at, end) = (at(offset), at(end));
                // Only the tags are read: the game's movetext is not even scanned.
                let mut reader = crate::pgn::SliceReader::new(&map[at..end.max(at)]);
                Ok(reader
                    .read_tags(&mut TagsOnly::default())
                    .unwrap_or_default())
            }
            Source::File(file) => {
                let at = Pos {
                    offset,
                    line: 1,
                    column: 1,
                    game: 1,
                };
                let mut reader = Reader::new(FileAt::for_reader_at(file, offset)).starting_at(at);
                Ok(reader
                    .read_game(&mut TagsOnly::default())?
                    .unwrap_or_default())
            }
        }
    }
}

/// Writes one result line: `list`'s columns (number, White, Black, result, date, event, ECO,
/// plies), then the ply at which the game reaches the position.
pub fn write_row(
    out: &mut impl Write,
    file: Option<&str>,
    number: u64,
    tags: &Tags,
    plies: u32,
    ply: u32,
) -> io::Result<()> {
    if let Some(file) = file {
        write!(out, "{}\t", crate::message::shown(file))?;
    }
    write!(out, "{number}")?;
    for field in [
        &tags.white,
        &tags.black,
        &tags.result,
        &tags.date,
        &tags.event,
        &tags.eco,
    ] {
        // As `list`: a tab, line feed or escape in a value would break the columns.
        match crate::message::escaped(field) {
            Some(escaped) => write!(out, "\t{escaped}")?,
            None if field.is_empty() => write!(out, "\t?")?,
            None => write!(out, "\t{field}")?,
        }
    }
    writeln!(out, "\t{plies}\t{ply}")
}
