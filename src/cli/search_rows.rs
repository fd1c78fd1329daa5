//! The result lines of `search`: `list`'s columns and the ply. Answered from an index, the
//! tags of each game found are read from the file at the game's offset (mapped into
//! memory when it can be: only the tag section, with `list`'s tag scanner), on every core
//! for long answers, in ordered chunks that a writer takes in turn.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::mpsc;

use crate::pgn::chunks::FileAt;
use crate::pgn::{Pos, Reader, Skip, TagsAt, Visitor};
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

/// Rows per chunk a reading thread formats at a time: enough to make handing it over
/// cheap, few enough that the lines waiting to be written stay small.
const CHUNK: usize = 4096;

/// Chunks each reading thread may have ready before the writer takes them.
const AHEAD: usize = 2;

/// Rows below which one thread does it all (starting threads would cost more).
const PARALLEL_FROM: usize = 2048;

/// Bytes a line usually takes at most (the buffers' first size).
const LINE: usize = 128;

/// Writes the line of each row, in order, reading their tags from `path`.
pub fn write_rows(
    out: &mut impl Write,
    file: Option<&str>,
    path: &Path,
    rows: &[Row],
) -> io::Result<()> {
    let source = Source::open(path)?;
    let file = prefix(file);
    let file = file.as_slice();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads < 2 || rows.len() < PARALLEL_FROM {
        return out.write_all(&source.lines(file, rows)?);
    }
    // Thread `t` formats chunks t, t + threads, …; the writer takes them in turn from each
    // thread's channel, so they come out in file order, each thread at most `AHEAD`
    // chunks ahead of it.
    let chunks: Vec<&[Row]> = rows.chunks(CHUNK).collect();
    std::thread::scope(|s| {
        let source = &source;
        let chunks = &chunks;
        let readers: Vec<mpsc::Receiver<io::Result<Vec<u8>>>> = (0..threads)
            .map(|t| {
                let (tx, rx) = mpsc::sync_channel(AHEAD);
                s.spawn(move || {
                    for part in chunks.iter().skip(t).step_by(threads) {
                        // The writer has stopped (an error, a closed pipe): so do we.
                        if tx.send(source.lines(file, part)).is_err() {
                            return;
                        }
                    }
                });
                rx
            })
            .collect();
        for i in 0..chunks.len() {
            let lines = readers[i % threads]
                .recv()
                .unwrap_or_else(|_| Err(io::Error::other("a reading thread failed")))?;
            out.write_all(&lines)?;
        }
        Ok(())
    })
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
    pub fn tags(&self, reader: &mut TagsAt, offset: u64, number: u64) -> Tags {
        let at = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.0.len());
        let e = reader.read(&self.0[at..], number);
        Tags {
            white: e.white().to_string(),
            black: e.black().to_string(),
            result: e.result().to_string(),
            date: e.date().to_string(),
            event: e.event().to_string(),
            eco: e.eco().to_string(),
            white_elo: crate::study::follow::elo_of(e.white_elo()),
            black_elo: crate::study::follow::elo_of(e.black_elo()),
        }
    }
}

/// Reads only the tags of a game (its movetext is skipped): for a file that cannot be
/// mapped.
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

    /// The lines of `rows`, one after the other.
    fn lines(&self, file: &[u8], rows: &[Row]) -> io::Result<Vec<u8>> {
        let mut buf = Vec::with_capacity(rows.len() * LINE);
        match self {
            Source::Map(map) => {
                let mut tags = TagsAt::default();
                let at = |o: u64| usize::try_from(o).unwrap_or(usize::MAX).min(map.len());
                for r in rows {
                    let (from, to) = (at(r.offset), at(r.end));
                    // Only the tag section is read: the movetext is not even scanned.
                    let e = tags.read(&map[from..to.max(from)], r.number);
                    let fields = [e.white(), e.black(), e.result(), e.date(), e.event()];
                    push_row(&mut buf, file, r.number, fields, e.eco(), r.plies, r.ply);
                }
            }
            Source::File(f) => {
                for r in rows {
                    let at = Pos {
                        offset: r.offset,
                        line: 1,
                        column: 1,
                        game: 1,
                    };
                    let mut reader =
                        Reader::new(FileAt::for_reader_at(f, r.offset)).starting_at(at);
                    let tags = reader
                        .read_game(&mut TagsOnly::default())?
                        .unwrap_or_default();
                    push_tags(&mut buf, file, r.number, &tags, r.plies, r.ply);
                }
            }
        }
        Ok(buf)
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
        // As `list`: a tab, line feed or escape in a value would break the columns. Only
        // a value with a byte outside printable ASCII can hold one (branch-free over the
        // bytes: cheaper than an early exit on values this short).
        let unusual = field
            .bytes()
            .fold(false, |seen, b| seen | !(0x20..0x7f).contains(&b));
        match unusual.then(|| crate::message::escaped(field)).flatten() {
            Some(escaped) => buf.extend_from_slice(escaped.as_bytes()),
            None if field.is_empty() => buf.push(b'?'),
            None => buf.extend_from_slice(field.as_bytes()),
        }
    }
    buf.push(b'\t');
    buf.extend_from_slice(digits.format(plies).as_bytes());
    buf.push(b'\t');
    buf.extend_from_slice(digits.format(ply).as_bytes());
    buf.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` small games (one with a tab, an escape character and accents in its tags), and
    /// where each starts.
    fn games(n: usize) -> (String, Vec<u64>) {
        let (mut text, mut starts) = (String::new(), Vec::new());
        for i in 0..n {
            starts.push(text.len() as u64);
            let white = match i {
                7 => "Tab\there \u{1b}[31m".to_string(),
                8 => "Ståhlberg, Gideon".to_string(),
                _ => format!("W{i}"),
            };
            let date = if i % 3 == 0 {
                ""
            } else {
                "[Date \"2001.01.01\"]\n"
            };
            text.push_str(&format!(
                "[Event \"E\"]\n[White \"{white}\"]\n[Black \"B{i}\"]\n{date}\n1. e4 *\n\n"
            ));
        }
        (text, starts)
    }

    fn rows(starts: &[u64]) -> Vec<Row> {
        (0..starts.len())
            .map(|i| Row {
                offset: starts[i],
                end: starts.get(i + 1).copied().unwrap_or(u64::MAX),
                number: i as u64 + 1,
                plies: 1,
                ply: (i % 2) as u32,
            })
            .collect()
    }

    /// Lines written by the threads in turn come out in file order, each as one thread
    /// alone writes it, and as reading each game's tags with the reader gives them.
    #[test]
    fn many_rows_come_out_in_order_as_one_thread_writes_them() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("games.pgn");
        let (text, starts) = games(5 * CHUNK + 17);
        std::fs::write(&path, &text).expect("write the games");
        let rows = rows(&starts);
        let mut all = Vec::new();
        write_rows(&mut all, Some("f.pgn"), &path, &rows).expect("the lines");
        let source = Source::open(&path).expect("mapped");
        assert!(matches!(source, Source::Map(_)));
        let prefix = prefix(Some("f.pgn"));
        assert_eq!(all, source.lines(&prefix, &rows).expect("the lines"));
        // Read at each game's offset (a file that cannot be mapped): the same lines.
        let read = Source::File(File::open(&path).expect("open"));
        let some = &rows[..40];
        assert_eq!(
            source.lines(&prefix, some).expect("the lines"),
            read.lines(&prefix, some).expect("the lines")
        );
        let all = String::from_utf8(all).expect("UTF-8");
        let lines: Vec<&str> = all.lines().collect();
        assert_eq!(lines.len(), rows.len());
        assert_eq!(lines[0], "f.pgn\t1\tW0\tB0\t?\t?\tE\t?\t1\t0");
        assert_eq!(
            lines[7],
            "f.pgn\t8\tTab\\u{9}here \\u{1b}[31m\tB7\t?\t2001.01.01\tE\t?\t1\t1"
        );
        assert_eq!(
            lines[8],
            "f.pgn\t9\tStåhlberg, Gideon\tB8\t?\t2001.01.01\tE\t?\t1\t0"
        );
        let last = rows.len();
        assert!(lines[last - 1].starts_with(&format!("f.pgn\t{last}\tW{}\t", last - 1)));
    }
}
