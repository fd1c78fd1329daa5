//! Reading a regular file on several threads by speculative splitting, for whatever goes
//! through every game of a file (`check --jobs N`, `list`, the game list's index). Pipes
//! keep their one-stream paths.
//!
//! The file is cut by byte offset into chunks of `chunk` bytes. No thread scans the game
//! boundaries ahead of the workers; instead each chunk's first game is *guessed*: the first
//! line starting with `[Event `, or with `[` after a blank line, at or after the chunk's
//! nominal start (chunk 0 starts at 0).
//! A chunk with no such line before the next chunk's nominal start is empty (its games go
//! to the chunk before). A worker reads its chunk with positioned reads, as a stream from the
//! guess to the end of the file ([`crate::pgn::Reader::starting_at`]), handles the games
//! that start before its *end* (the next chunk's guess, found the same way from the next
//! nominal start), and reports where the first game at or after the end really
//! starts, with its results numbered from 1 and lines counted from 1.
//!
//! The writer (the calling thread) takes the reports in chunk order and keeps the true
//! position reached so far (offset, line, column, next game number). A chunk whose guess is
//! that position started on a real game boundary, in the same state as a reader of the
//! whole file, so its results are exactly the sequential ones: they are shifted and written.
//! Otherwise the guess was wrong (a tag line inside a comment, a blank line inside a tag
//! section, or games the guesses do not see, such as tagless ones): the
//! writer reads from the true position itself, up to the chunk's end or up to the first
//! game start that the speculative read also found, whichever comes first. From a game
//! start both reads agree, so in the second case the speculative results are kept from
//! that game on (a tag section starting with `Site` costs one game read twice, not a
//! chunk). Either way the position moves on to a true stop, which is the next chunk's
//! guess whenever the guesses are right. The output is therefore the sequential output,
//! byte for byte, whatever the input and the chunk size.
//!
//! Memory stays bounded: chunks are handed out at most a few times `jobs` ahead of the one
//! being written.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use super::index::GameRef;
use super::{Indexer, Pos, Reader, Visitor};

/// Bytes per chunk of a regular file: small enough that the last chunks keep every thread
/// busy, large enough that finding each chunk's start costs nothing.
pub const CHUNK: u64 = 1 << 20;

/// Offset of a stop at the end of the input.
pub const END: u64 = u64::MAX;

/// What one range of the file gave.
pub struct Part<T> {
    /// The results, with line and game numbers counted from the range's start (1 and 1).
    pub out: T,
    /// Where the first game at or after the range's end starts: absolute offset ([`END`] at
    /// the end of the input), line counted from the range's start, absolute column, and
    /// the number that game gets counting from 1 at the range's start (so the range held
    /// `stop.game - 1` games). Commands without positions may give any line and column.
    pub stop: Pos,
    /// Where each game of the range starts: absolute offset and line counted from the
    /// range's start (any line, for commands without positions), in file order.
    pub starts: Vec<(u64, u64)>,
}

/// How much to add to the line and game numbers of a [`Part`] to make them absolute, with
/// wrapping arithmetic (a shift may be "negative": see [`read_file`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shift {
    /// Added to line numbers.
    pub lines: u64,
    /// Added to game numbers.
    pub games: u64,
}

impl Shift {
    /// Line `line` of a part, made absolute.
    pub fn line(&self, line: u64) -> u64 {
        line.wrapping_add(self.lines)
    }

    /// Game `game` of a part, made absolute.
    pub fn game(&self, game: u64) -> u64 {
        game.wrapping_add(self.games)
    }
}

/// Where reading a range stops: at the first game starting at or after `end`, or at a game
/// start listed in `resync` (a start of a speculative read, from which that read's results
/// are the true ones).
pub struct Until<'a> {
    end: u64,
    resync: &'a [(u64, u64)],
}

impl<'a> Until<'a> {
    fn new(end: u64, resync: &'a [(u64, u64)]) -> Self {
        Until { end, resync }
    }

    /// Whether reading stops before the game starting at `offset`; asked for each game, in
    /// file order.
    pub fn stops_at(&mut self, offset: u64) -> bool {
        if offset >= self.end {
            return true;
        }
        let skip = self.resync.iter().take_while(|s| s.0 < offset).count();
        self.resync = &self.resync[skip..];
        self.resync.first().is_some_and(|s| s.0 == offset)
    }
}

/// Reads a file from an offset on with positioned reads, so that threads can share a file.
pub struct FileAt<'a> {
    file: &'a File,
    pos: u64,
}

impl<'a> FileAt<'a> {
    /// The source for a reader starting at `offset` of `file` (see
    /// [`crate::pgn::Reader::starting_at`]): the file from `offset - 1` on.
    pub fn for_reader_at(file: &'a File, offset: u64) -> Self {
        FileAt {
            file,
            pos: offset.saturating_sub(1),
        }
    }
}

impl Read for FileAt<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read_at(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

/// The first offset in `from..to` at which a line starts that probably opens a game: a line
/// starting with `[Event `, or with `[` right after a blank line (lichess exports have no
/// Event tag). `from` > 0. A wrong guess costs time, never correctness.
fn game_line(file: &File, from: u64, to: u64) -> io::Result<Option<u64>> {
    const EVENT: &[u8] = b"[Event ";
    // Windows overlap by this much, so a candidate cut off at a window's end is looked at
    // again in the next window with its context: two bytes before its line feed, and
    // the tag name after it.
    const OVERLAP: usize = EVENT.len() + 3;
    let finder = memchr::memmem::Finder::new(b"\n[");
    // Small windows first: the line is usually a few hundred bytes away.
    let mut window = vec![0u8; 8 << 10];
    // The first window starts early enough to show what precedes the first candidate.
    let mut at = from.saturating_sub(3);
    loop {
        let n = read_full_at(file, &mut window, at)?;
        let w = &window[..n];
        for k in finder.find_iter(w) {
            let found = at + k as u64 + 1;
            if found < from {
                continue;
            }
            if found >= to {
                return Ok(None);
            }
            let Some(tag) = w.get(k + 1..k + 1 + EVENT.len()) else {
                if n < window.len() {
                    return Ok(None); // the input ends within the tag name
                }
                break; // seen again in the next window
            };
            let after_blank =
                (k >= 1 && w[k - 1] == b'\n') || (k >= 2 && w[k - 1] == b'\r' && w[k - 2] == b'\n');
            if tag == EVENT || after_blank {
                return Ok(Some(found));
            }
        }
        if n < window.len() {
            return Ok(None);
        }
        at += (n - OVERLAP) as u64;
        if at + 1 >= to {
            return Ok(None);
        }
        if window.len() < 1 << 20 {
            window.resize(window.len() * 2, 0);
        }
    }
}

pub(crate) fn read_full_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read_at(&mut buf[n..], at + n as u64) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Starts a worker thread in `scope`; `false` when the system grants no more threads (the
/// caller then goes on with the workers it has, instead of panicking as
/// `Scope::spawn` does).
pub fn spawn_worker<'scope, 'env, F>(scope: &'scope std::thread::Scope<'scope, 'env>, f: F) -> bool
where
    F: FnOnce() + Send + 'scope,
{
    std::thread::Builder::new().spawn_scoped(scope, f).is_ok()
}

/// The error of a parallel read that could not start a single worker thread.
pub fn no_threads() -> io::Error {
    io::Error::other("the system grants no thread to read with (try --jobs 1)")
}

/// A game met by [`index_range`]: its entry, or, for a game too large to index, where it
/// starts.
pub enum Indexed<'a> {
    /// The game's entry (tags borrowed until the next game).
    Game(GameRef<'a>),
    /// A game over the size limit, starting at this absolute offset: it keeps its number.
    TooLarge(u64),
}

/// Indexes the games of `file` from `from` until `until` says stop, handing each to
/// `each` with its number counted from the range's start: the `work` of [`read_file`] for
/// whatever only needs the tags (`list`, the game list). `out` starts empty and is what
/// `each` fills.
pub fn index_range<T>(
    file: &File,
    from: Pos,
    until: &mut Until,
    out: T,
    each: impl FnMut(&mut T, u64, Indexed),
) -> io::Result<Part<T>> {
    let src = FileAt::for_reader_at(file, from.offset);
    index_range_with(Indexer::new(src), from, until, out, each)
}

/// [`index_range`] with the indexer given, not started yet: its source is what
/// [`Indexer::starting_at`] asks for at `from` (an input held in memory, see
/// [`Indexer::in_memory`], is whole); it is moved to `from` here.
pub fn index_range_with<R: Read, T>(
    indexer: Indexer<R>,
    from: Pos,
    until: &mut Until,
    mut out: T,
    mut each: impl FnMut(&mut T, u64, Indexed),
) -> io::Result<Part<T>> {
    let mut indexer = indexer.starting_at(from.offset, from.game);
    let mut starts = Vec::new();
    let stop = loop {
        let offset = match indexer.next_start()? {
            Some(next) if !until.stops_at(next) => {
                starts.push((next, 0));
                match indexer.next_game_ref()? {
                    Some(Some(e)) => {
                        let number = e.number;
                        each(&mut out, number, Indexed::Game(e));
                    }
                    Some(None) => {
                        let at = indexer.oversized_offset();
                        each(&mut out, indexer.next_number() - 1, Indexed::TooLarge(at));
                    }
                    None => {}
                }
                continue;
            }
            Some(next) => next,
            None => END,
        };
        break Pos {
            offset,
            game: indexer.next_number(),
            ..from
        };
    };
    Ok(Part { out, stop, starts })
}

/// A worker's report on one chunk.
enum Report<T> {
    /// No guess in the chunk: its games belong to the chunk before.
    Empty,
    /// The guessed start, the end, and what reading from the guess gave.
    Read(u64, u64, io::Result<Part<T>>),
    /// The range could not be guessed (a read error, or a worker that panicked).
    Failed(io::Error),
}
/// Guesses chunk `seq`'s range and reads it.
fn read_chunk<T>(
    file: &File,
    seq: u64,
    sizes: Sizes,
    work: &(impl Fn(&File, Pos, &mut Until) -> io::Result<Part<T>> + Sync),
) -> Report<T> {
    let nominal = sizes.start(seq);
    let next = sizes.start(seq + 1);
    let start = if seq == 0 {
        Ok(Some(0))
    } else {
        game_line(file, nominal, next)
    };
    let start = match start {
        Ok(Some(s)) => s,
        Ok(None) => return Report::Empty,
        Err(e) => return Report::Failed(e),
    };
    let end = match game_line(file, next, END) {
        Ok(end) => end.unwrap_or(END),
        Err(e) => return Report::Failed(e),
    };
    let from = Pos {
        offset: start,
        line: 1,
        column: 1,
        game: 1,
    };
    Report::Read(start, end, work(file, from, &mut Until::new(end, &[])))
}

/// Reads `file` in chunks of `chunk` bytes on `jobs` threads: `work(file, from, until)`
/// reads the games from `from` (a reader's start point, see
/// [`crate::pgn::Reader::starting_at`]; line and game 1) until [`Until::stops_at`] says
/// stop, and `write(out, shift, first)` gets the results in file order, with the [`Shift`]
/// that makes their numbers absolute, to be written from game `first` of the part on
/// (earlier ones were read again). Returns the number of games.
///
/// `work` must behave like one reader of the whole file that is asked, before each game,
/// where the game starts: results are then identical to a sequential read (see the module
/// documentation). When a guess was wrong, the true read from the position reached stops
/// at the first game start that the speculative read also found, and the speculative
/// results are kept from there on: their game numbers may then need a "negative" shift.
pub fn read_file<T: Send>(
    file: &File,
    jobs: usize,
    chunk: u64,
    work: impl Fn(&File, Pos, &mut Until) -> io::Result<Part<T>> + Sync,
    write: impl FnMut(T, Shift, u64) -> io::Result<()>,
) -> io::Result<u64> {
    let sizes = Sizes {
        first: chunk,
        rest: chunk,
    };
    read_file_sized(file, jobs, sizes, work, write)
}

/// Sizes of the chunks [`read_file_sized`] cuts a file into: the first one's, and the
/// others'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    /// Bytes of the first chunk: the first results wait for it alone.
    pub first: u64,
    /// Bytes of every other chunk.
    pub rest: u64,
}

impl Sizes {
    /// Where chunk `seq` nominally starts.
    fn start(self, seq: u64) -> u64 {
        match seq {
            0 => 0,
            _ => (seq - 1)
                .saturating_mul(self.rest)
                .saturating_add(self.first),
        }
    }

    /// How many chunks a file of `len` bytes is cut into (one at least).
    fn count(self, len: u64) -> u64 {
        1 + len.saturating_sub(self.first).div_ceil(self.rest)
    }
}

/// [`read_file`] with a first chunk of its own size (a small one, for the first results
/// to come at once, then larger ones, which cost less each).
pub fn read_file_sized<T: Send>(
    file: &File,
    jobs: usize,
    sizes: Sizes,
    work: impl Fn(&File, Pos, &mut Until) -> io::Result<Part<T>> + Sync,
    mut write: impl FnMut(T, Shift, u64) -> io::Result<()>,
) -> io::Result<u64> {
    let sizes = Sizes {
        first: sizes.first.max(1),
        rest: sizes.rest.max(1),
    };
    let chunks = sizes.count(file.metadata()?.len());
    // Chunks handed out ahead of the one to write: enough that a slow chunk (one that
    // holds the games of empty chunks after it) does not leave the other workers idle.
    let mut ahead = 4 * jobs as u64 + 4;
    let (work_tx, work_rx) = mpsc::channel::<u64>();
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = mpsc::channel::<(u64, Report<T>)>();
    let stop = AtomicBool::new(false);
    // The true position reached: absolute offset, line, column and next game number.
    let mut at = Pos {
        offset: 0,
        line: 1,
        column: 1,
        game: 1,
    };
    // Writes `part` from its game `k + 1` on, which starts at `at`, and moves `at` on.
    let mut absorb = |at: &mut Pos, part: Part<T>, k: usize| -> io::Result<()> {
        let line = if k == 0 { 1 } else { part.starts[k].1 };
        let first = k as u64 + 1;
        let shift = Shift {
            lines: at.line.wrapping_sub(line),
            games: at.game.wrapping_sub(first),
        };
        write(part.out, shift, first)?;
        *at = Pos {
            offset: part.stop.offset,
            line: shift.line(part.stop.line),
            column: part.stop.column,
            game: shift.game(part.stop.game),
        };
        Ok(())
    };
    std::thread::scope(|scope| -> io::Result<()> {
        let mut workers = 0u64;
        for _ in 0..jobs.max(1) {
            let (rx, tx, stop, work) = (Arc::clone(&work_rx), done_tx.clone(), &stop, &work);
            // The system may grant fewer threads than asked: go on with those it gives.
            let started = spawn_worker(scope, move || loop {
                let next = rx.lock().map(|r| r.recv());
                let Ok(Ok(seq)) = next else { return };
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let read = || read_chunk(file, seq, sizes, work);
                let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(read))
                    .unwrap_or_else(|_| Report::Failed(io::Error::other("a worker panicked")));
                if tx.send((seq, report)).is_err() {
                    return;
                }
            });
            if !started {
                break;
            }
            workers += 1;
        }
        drop(done_tx);
        if workers == 0 {
            return Err(no_threads());
        }
        ahead = ahead.min(4 * workers + 4);
        let result = (|| -> io::Result<()> {
            let (mut sent, mut written) = (0u64, 0u64);
            let mut pending = BTreeMap::new();
            while written < chunks {
                while sent < chunks && sent < written + ahead {
                    // The workers outlive this loop, so the channel is open.
                    let _ = work_tx.send(sent);
                    sent += 1;
                }
                let Ok((seq, report)) = done_rx.recv() else {
                    return Err(io::Error::other("the worker threads died"));
                };
                pending.insert(seq, report);
                while let Some(report) = pending.remove(&written) {
                    written += 1;
                    let (guess, end, part) = match report {
                        Report::Empty => continue, // its games are the chunk before's
                        Report::Failed(e) => return Err(e),
                        Report::Read(guess, end, part) => (guess, end, part),
                    };
                    if guess == at.offset {
                        absorb(&mut at, part?, 0)?;
                    } else if at.offset < end {
                        // A wrong guess: read from the true position here, up to the chunk's
                        // end or to a game start of the speculative read, whose results are
                        // then the true ones from there on. (A chunk wholly inside one game
                        // is simply dropped.)
                        let guessed = part.ok();
                        let redo = {
                            let starts = guessed.as_ref().map_or(&[][..], |p| &p.starts[..]);
                            let from = Pos {
                                line: 1,
                                game: 1,
                                ..at
                            };
                            work(file, from, &mut Until::new(end, starts))?
                        };
                        absorb(&mut at, redo, 0)?;
                        if let Some(p) = guessed {
                            if let Ok(k) = p.starts.binary_search_by_key(&at.offset, |s| s.0) {
                                absorb(&mut at, p, k)?;
                            }
                        }
                    }
                }
            }
            debug_assert_eq!(at.offset, END, "the last chunk reads to the end");
            Ok(())
        })();
        stop.store(true, Ordering::Relaxed);
        drop(work_tx);
        result
    })?;
    Ok(at.game - 1)
}

/// Reads the games of `file` from `from` until `until` says stop, each into `visitor`,
/// handing what it gives to `each` (which gathers it in `out`): the range reader of the
/// commands that read a file in chunks with the full reader (`check`, `search`, `tree`;
/// see [`read_file`]).
pub fn read_range<V: Visitor, T>(
    file: &File,
    from: Pos,
    until: &mut Until,
    visitor: &mut V,
    mut out: T,
    mut each: impl FnMut(&mut T, V::Output),
) -> io::Result<Part<T>> {
    let mut reader = Reader::new(FileAt::for_reader_at(file, from.offset)).starting_at(from);
    let mut starts = Vec::new();
    let at_end = |reader: &Reader<_>| Pos {
        offset: END,
        game: reader.games_read() + 1,
        ..from
    };
    let stop = loop {
        match reader.next_start()? {
            Some(next) if until.stops_at(next.offset) => break next,
            Some(next) => starts.push((next.offset, next.line)),
            None => break at_end(&reader),
        }
        let Some(game) = reader.read_game_restarting(visitor)? else {
            break at_end(&reader);
        };
        each(&mut out, game);
    };
    Ok(Part { out, stop, starts })
}

#[cfg(test)]
mod tests {
    use super::Sizes;

    /// The chunks cover the file once, end to end, whatever the sizes.
    #[test]
    fn chunks_cover_the_file_once() {
        for (first, rest) in [(1, 1), (3, 3), (1, 4), (5, 2), (10, 3)] {
            let sizes = Sizes { first, rest };
            for len in 0..40 {
                let count = sizes.count(len);
                assert_eq!(sizes.start(0), 0);
                assert!(sizes.start(count) >= len, "{sizes:?} {len}");
                assert!(
                    count == 1 || sizes.start(count - 1) < len,
                    "{sizes:?} {len}"
                );
                for seq in 0..count {
                    assert!(sizes.start(seq) < sizes.start(seq + 1));
                }
            }
        }
    }
}
