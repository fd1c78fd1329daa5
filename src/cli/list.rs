//! `scoresheet list FILE`: one line per game from the index, without reading moves:
//! number, White, Black, result, date, event, ECO, plies — separated by tabs.
//!
//! A regular file is indexed in chunks on every core (see `pgn::chunks`): workers index
//! and format, this thread writes in file order. With one job, or for any other input (a
//! pipe), this thread indexes and formats while a second one writes.
//!
//! A regular file is read with reads into buffers of this process, never through a memory
//! map: should another process cut the file short meanwhile, a map's lost pages would kill
//! this process (SIGBUS) when touched. Read, the file just ends early; its length is
//! compared afterwards with the length it had when opened, and a file found shorter is an
//! error after the lines of the games read.

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::mpsc;

use super::exit;
use super::input::{self, Cut, Input};
use super::output::Stdout;
use crate::pgn::chunks::{self, Indexed, Part, Shift, Until};
use crate::pgn::{GameRef, Indexer, Pos};

/// Arguments of `list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PGN file (`-` for standard input).
    pub file: PathBuf,
    /// Bytes per chunk of a regular file read on several threads (for tests: any size
    /// gives the same output).
    #[arg(long, hide = true, default_value_t = CHUNK)]
    pub chunk: u64,
    #[command(flatten)]
    pub threads: input::Threads,
}

/// Bytes per chunk of a regular file: indexing is fast, so chunks are larger than
/// `check`'s to keep the cost of starting one small.
const CHUNK: u64 = 4 << 20;

/// Lines handed to the writing thread at a time (one channel message per batch): waking
/// it up costs a system call, so not too often.
const BATCH: usize = 4096;

/// Bytes a line usually takes at most: a batch's text seldom grows past `BATCH` of them
/// (growing copies it).
const LINE: usize = 128;

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let name = input::name(&args.file);
    let jobs = args.threads.count();
    let mut cut = Cut::default();
    let mut out = Stdout::with_capacity(1 << 16);
    let listed = Input::open(&args.file).and_then(|file| {
        cut = file.cut();
        let Some(regular) = file.regular_file() else {
            return list_stream(file, &mut out);
        };
        let length = regular.metadata()?.len();
        // Another handle on the file, to see its length once the reading has taken it.
        let again = regular.try_clone()?;
        if jobs > 1 {
            list_chunks(regular, jobs, args.chunk, &mut out)?;
        } else {
            list_stream(file, &mut out)?;
        }
        if again.metadata()?.len() < length {
            return Err(crate::pgn::tag_window::cut_short());
        }
        Ok(())
    });
    let code = if let Some(e) = cut.take() {
        eprintln!("{}", Cut::message("list", &name, &e, None));
        exit::USAGE
    } else {
        match listed {
            Ok(()) => exit::OK,
            // The output failed, which is why listing stopped: `finish` says so.
            Err(_) if out.has_failed() => exit::OK,
            Err(e) => {
                eprintln!("scoresheet list: cannot read {name}: {e}");
                exit::USAGE
            }
        }
    };
    out.finish("list", code)
}

/// The lines of some games, one after the other in `text`, and each one's game number and
/// end in `ends`. A line read in chunks has no number in `text`, as only the writer knows
/// it for sure; one read in order (`numbered`) starts with it.
#[derive(Default)]
struct Lines {
    text: Vec<u8>,
    ends: Vec<(u64, usize)>,
    numbered: bool,
}

impl Lines {
    /// Room for a batch of numbered lines, whose text starts with their game number.
    fn numbered() -> Self {
        Lines {
            text: Vec::with_capacity(BATCH * LINE),
            ends: Vec::with_capacity(BATCH),
            numbered: true,
        }
    }

    /// Adds the line of `e`: its fields (after the number when `numbered`), tab-separated,
    /// and a line feed. Lines are put together by hand: the formatting machinery cost more
    /// than indexing.
    fn push(&mut self, e: &GameRef) {
        fn or_q(s: &str) -> &str {
            if s.is_empty() {
                "?"
            } else {
                s
            }
        }
        let fields = e.list_columns();
        let line = &mut self.text;
        // Room for the fields, their tabs or question marks, two numbers and a line feed.
        line.reserve(fields.iter().map(|f| f.len() + 2).sum::<usize>() + 48);
        let mut number = itoa::Buffer::new();
        if self.numbered {
            line.extend_from_slice(number.format(e.number).as_bytes());
        }
        for field in fields {
            line.push(b'\t');
            // A tab, a line feed or an escape sequence in a tag value would break the
            // columns or reach the terminal: such a value is shown escaped.
            // Branch-free over the bytes (cheaper than an early exit on values this short).
            let unusual = field
                .bytes()
                .fold(false, |seen, b| seen | !(0x20..0x7f).contains(&b));
            match unusual.then(|| crate::message::escaped(field)).flatten() {
                Some(escaped) => line.extend_from_slice(escaped.as_bytes()),
                None => line.extend_from_slice(or_q(field).as_bytes()),
            }
        }
        line.push(b'\t');
        line.extend_from_slice(number.format(e.plies).as_bytes());
        line.push(b'\n');
        self.ends.push((e.number, line.len()));
    }

    /// Adds the line of game `number`, which could not be indexed (a game over the size
    /// limit): every field `?`, so that the game is not missing from the list; standard
    /// error says why.
    fn push_unreadable(&mut self, number: u64) {
        let mut digits = itoa::Buffer::new();
        if self.numbered {
            self.text
                .extend_from_slice(digits.format(number).as_bytes());
        }
        self.text.extend_from_slice(b"\t?\t?\t?\t?\t?\t?\t?\n");
        self.ends.push((number, self.text.len()));
        eprintln!(
            "scoresheet list: game {number}: larger than the {} MiB limit per game: listed with ? for every column",
            crate::pgn::MAX_GAME >> 20
        );
    }

    /// Writes the lines from game `first` on, with their numbers made absolute by `shift`
    /// (numbered lines: all of them, as they are).
    fn write(&self, shift: Shift, first: u64, out: &mut impl Write) -> io::Result<()> {
        if self.numbered {
            debug_assert!(
                shift.games == 0 && first == 0,
                "numbered lines are written whole"
            );
            return out.write_all(&self.text);
        }
        let mut number = itoa::Buffer::new();
        let mut start = 0;
        for &(n, end) in &self.ends {
            if n >= first {
                out.write_all(number.format(shift.game(n)).as_bytes())?;
                out.write_all(&self.text[start..end])?;
            }
            start = end;
        }
        Ok(())
    }
}

/// Lists a regular file: worker threads index its chunks and format the lines, this thread
/// writes them in file order (see [`chunks::read_file`]).
fn list_chunks(file: &File, jobs: usize, chunk: u64, out: &mut Stdout) -> io::Result<()> {
    chunks::read_file(file, jobs, chunk, list_range, |lines, shift, first| {
        lines.write(shift, first, out)
    })?;
    Ok(())
}

/// Indexes the games of `file` from `from` until `until` says stop.
fn list_range(file: &File, from: Pos, until: &mut Until) -> io::Result<Part<Lines>> {
    chunks::index_range(
        file,
        from,
        until,
        Lines::default(),
        |lines, number, game| match game {
            Indexed::Game(e) => lines.push(&e),
            Indexed::TooLarge(_) => lines.push_unreadable(number),
        },
    )
}

/// Lists a stream (or a regular file on one thread): this thread indexes and formats the
/// lines, a second one writes them, in file order. The channel holds a few batches at most,
/// so memory stays bounded whatever the number of games.
fn list_stream(file: Input, out: &mut Stdout) -> io::Result<()> {
    let mut indexer = Indexer::new(file);
    let (tx, rx) = mpsc::sync_channel::<Lines>(4);
    std::thread::scope(|scope| {
        let writer = std::thread::Builder::new()
            .spawn_scoped(scope, move || write_lines(rx, out))
            .map_err(|_| input::no_threads())?;
        let indexed = (|| {
            let mut lines = Lines::numbered();
            while let Some(entry) = indexer.next_game_ref()? {
                match entry {
                    Some(e) => lines.push(&e),
                    None => lines.push_unreadable(indexer.next_number() - 1),
                }
                if lines.ends.len() == BATCH {
                    // The writer stops only on a write error, which it reports below.
                    if tx
                        .send(std::mem::replace(&mut lines, Lines::numbered()))
                        .is_err()
                    {
                        return Err(io::ErrorKind::BrokenPipe.into());
                    }
                }
            }
            let _ = tx.send(lines);
            Ok(())
        })();
        drop(tx);
        let written = writer.join().unwrap_or(Ok(()));
        // A write error (a closed pipe) comes first: it is why indexing stopped.
        written.and(indexed)
    })
}

/// Writes the (numbered) lines it receives (flushed by [`run`], which reports a failure).
fn write_lines(rx: mpsc::Receiver<Lines>, out: &mut Stdout) -> io::Result<()> {
    for lines in rx {
        lines.write(Shift { lines: 0, games: 0 }, 0, out)?;
    }
    Ok(())
}
