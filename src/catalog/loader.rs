//! Reading a file's game list on a thread of its own: the [`Loader`] indexes the file
//! (decompressing it when compressed) and sends rows in batches over a channel, with how
//! far it has read, so the first screenful is there at once and the rest streams in while
//! the keys work.
//!
//! Batches: the first after [`FIRST_BATCH`] games (a screenful, however tall), then one
//! every [`BATCH_EVERY`] or [`BATCH_MAX`] games, whichever comes first: often enough for
//! the count on the screen to move, seldom enough that merging them costs the app little.
//! The thread stops when the loader is dropped.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use super::row::{outcome_code, Date, Eco, Row, Unreadable};
use super::strings::Interner;
use super::Tables;
use crate::pgn::{GameRef, Indexer, Outcome};
use crate::store::decompress::{self, Compression};
use crate::store::unpacked::Unpacked;

/// Games in the first batch: more than a screen shows.
pub const FIRST_BATCH: usize = 200;
/// Time between batches after the first.
pub const BATCH_EVERY: Duration = Duration::from_millis(50);
/// Games in a batch at most.
pub const BATCH_MAX: usize = 1 << 16;

/// Rows of consecutive games, with the strings they use for the first time.
#[derive(Debug)]
pub struct Batch {
    /// Number of the first game of the batch.
    pub(crate) first: u64,
    pub(crate) rows: Vec<Row>,
    /// The strings new in this batch, in id order, to append to the catalog's tables.
    pub(crate) strings: Tables,
    /// Bytes of the file read so far.
    pub(crate) read: u64,
    /// The file's size (0 when not known).
    pub(crate) total: u64,
}

impl Batch {
    /// Games in the batch.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the batch has no game.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// What the loader sends.
#[derive(Debug)]
pub enum LoadEvent {
    /// More rows.
    Batch(Box<Batch>),
    /// The whole file is listed.
    Done,
    /// Reading stopped with this error, after the rows already sent.
    Failed(io::Error),
}

/// A file's game list being read on a background thread.
#[derive(Debug)]
pub struct Loader {
    rx: mpsc::Receiver<LoadEvent>,
    compression: Option<Compression>,
}

impl Loader {
    /// Starts reading `path`. Opening errors come back at once; later ones as
    /// [`LoadEvent::Failed`].
    pub fn open(path: &Path) -> io::Result<Loader> {
        Loader::start(path, false).map(|(loader, _)| loader)
    }

    /// [`Loader::open`], and for a compressed file a decoded copy of it, filled as the
    /// list is read (in [`crate::store::unpacked::cache_dir`]): the games are then loaded
    /// from the copy at once instead of decompressing the file up to each. No copy when
    /// the file is plain, or when the copy cannot be made (the games are then read from
    /// the file itself).
    pub fn open_copying(path: &Path) -> io::Result<(Loader, Option<Unpacked>)> {
        Loader::start(path, true)
    }

    fn start(path: &Path, copying: bool) -> io::Result<(Loader, Option<Unpacked>)> {
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(io::Error::other("is a directory"));
        }
        let head = decompress::head(&mut file)?;
        io::Seek::seek(&mut file, io::SeekFrom::Start(0))?;
        let compression = Compression::of(&head);
        let total = if meta.is_file() { meta.len() } else { 0 };
        let (tx, rx) = mpsc::channel();
        let mut copy = None;
        let source: Source = match compression {
            Some(c) => {
                let read = Arc::new(AtomicU64::new(0));
                let decoder = |file: File| {
                    c.decoder(Counted {
                        inner: file,
                        read: Arc::clone(&read),
                    })
                };
                let text = decoder(file)?;
                let text: Box<dyn Read + Send> = if copying {
                    match Unpacked::wrap(&crate::store::unpacked::cache_dir(), path, c, text) {
                        Ok((unpacked, tee)) => {
                            copy = Some(unpacked);
                            Box::new(tee)
                        }
                        // The decoder went with the failed copy: a new one.
                        Err(_) => Box::new(decoder(File::open(path)?)?),
                    }
                } else {
                    Box::new(text)
                };
                Source::Packed(text, read)
            }
            None => match map(&file) {
                Some(map) => Source::Mapped(map),
                None => Source::Plain(file),
            },
        };
        std::thread::Builder::new()
            .name("game list".into())
            .spawn(move || {
                let sent = match source {
                    Source::Packed(text, read) => {
                        let progress = move |_: u64| read.load(Ordering::Relaxed);
                        run(Indexer::new(text), total, progress, &tx)
                    }
                    Source::Mapped(map) => run(Indexer::in_memory(map), total, |at| at, &tx),
                    Source::Plain(file) => run(Indexer::new(file), total, |at| at, &tx),
                };
                let last = match sent {
                    Ok(()) => LoadEvent::Done,
                    Err(Stop::Failed(e)) => LoadEvent::Failed(e),
                    Err(Stop::Dropped) => return,
                };
                let _ = tx.send(last);
            })?;
        Ok((Loader { rx, compression }, copy))
    }

    /// The compression of the file, if compressed (game offsets are then offsets in the
    /// decompressed text).
    pub fn compression(&self) -> Option<Compression> {
        self.compression
    }

    /// What the loader sent since the last call, if anything (never waits).
    pub fn try_next(&self) -> Option<LoadEvent> {
        self.rx.try_recv().ok()
    }

    /// The next thing the loader sends, waiting `timeout` at most; `None` when nothing came
    /// (or the loader has finished).
    pub fn next_timeout(&self, timeout: Duration) -> Option<LoadEvent> {
        self.rx.recv_timeout(timeout).ok()
    }
}

/// What the loader's thread reads.
enum Source {
    /// A compressed file's text, and the count of its compressed bytes read.
    Packed(Box<dyn Read + Send>, Arc<AtomicU64>),
    /// A regular file, mapped.
    Mapped(memmap2::Mmap),
    /// Anything else.
    Plain(File),
}

/// Why the thread stopped early.
enum Stop {
    /// Nobody listens any more.
    Dropped,
    Failed(io::Error),
}

/// Maps a regular file into memory (faster to index than reading it: no copy out of the
/// page cache). As for `scoresheet list`: a file truncated by another program while mapped
/// makes this process fault when it touches the lost pages.
fn map(file: &File) -> Option<memmap2::Mmap> {
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    // SAFETY: the map is only read; see above for a file truncated meanwhile.
    unsafe { memmap2::Mmap::map(file) }.ok()
}

/// A reader that counts the bytes read through it (the compressed bytes of a compressed
/// file: how far the file has been read).
struct Counted<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The loader's side of the tables: an interner per table.
struct Interners {
    players: Interner,
    events: Interner,
    sites: Interner,
    rounds: Interner,
    openings: Interner,
    /// The name of each ECO code, by packed code (looked up once, not once per game).
    eco_names: Vec<&'static str>,
}

impl Interners {
    fn take(&mut self) -> Tables {
        Tables {
            players: self.players.take(),
            events: self.events.take(),
            sites: self.sites.take(),
            rounds: self.rounds.take(),
            openings: self.openings.take(),
        }
    }
}

/// Indexes every game and sends the rows over `tx`; `progress` turns the offset reached in
/// the (decompressed) input into bytes of the file read.
fn run<R: Read>(
    mut indexer: Indexer<R>,
    total: u64,
    progress: impl Fn(u64) -> u64,
    tx: &mpsc::Sender<LoadEvent>,
) -> Result<(), Stop> {
    let sizes = (FIRST_BATCH, BATCH_MAX);
    list(&mut indexer, total, progress, sizes, |batch| {
        tx.send(LoadEvent::Batch(Box::new(batch)))
            .map_err(|_| Stop::Dropped)
    })
}

/// Lists every game of a PGN text on this thread, into `catalog` (for small inputs, tests
/// and measurements; the screen uses a [`Loader`]).
/// `batch` games go in each batch (the time between batches aside).
pub(crate) fn list_into<R: Read>(
    indexer: &mut Indexer<R>,
    batch: usize,
    catalog: &mut super::Catalog,
) -> io::Result<()> {
    let listed = list(
        indexer,
        0,
        |at| at,
        (batch, batch),
        |batch| {
            catalog.extend(batch);
            Ok(())
        },
    );
    match listed {
        Ok(()) => {
            catalog.apply(LoadEvent::Done);
            Ok(())
        }
        Err(Stop::Failed(e)) => Err(e),
        Err(Stop::Dropped) => Ok(()),
    }
}

/// Indexes every game and hands the rows to `send` in batches.
fn list<R: Read>(
    indexer: &mut Indexer<R>,
    total: u64,
    progress: impl Fn(u64) -> u64,
    (first_batch, batch_max): (usize, usize),
    mut send_batch: impl FnMut(Batch) -> Result<(), Stop>,
) -> Result<(), Stop> {
    let mut interners = Interners {
        players: Interner::new(),
        events: Interner::new(),
        sites: Interner::new(),
        rounds: Interner::new(),
        openings: Interner::new(),
        eco_names: (0..=500u16)
            .map(|packed| {
                Eco::unpack(packed)
                    .and_then(|c| crate::study::eco::name_of_code(&c.to_string()))
                    .unwrap_or("")
            })
            .collect(),
    };
    let mut rows = Vec::with_capacity(first_batch);
    let mut first = 1;
    let mut at = 0;
    let mut limit = first_batch;
    let mut sent = Instant::now();
    let mut send = |rows: &mut Vec<Row>, first: &mut u64, at: u64, interners: &mut Interners| {
        let batch = Batch {
            first: *first,
            rows: std::mem::take(rows),
            strings: interners.take(),
            read: progress(at),
            total,
        };
        *first += batch.rows.len() as u64;
        send_batch(batch)
    };
    loop {
        let row = match indexer.next_game_ref() {
            Ok(Some(Some(game))) => {
                at = game.offset + game.len;
                row_of(&game, &mut interners)
            }
            Ok(Some(None)) => {
                at = indexer.oversized_offset();
                Row {
                    offset: at,
                    result: outcome_code(Outcome::Unknown),
                    state: Unreadable::TooLarge.code(),
                    ..Row::default()
                }
            }
            Ok(None) => break,
            Err(e) => {
                send(&mut rows, &mut first, at, &mut interners)?;
                return Err(Stop::Failed(e));
            }
        };
        rows.push(row);
        // The clock is read every 256 games only: reading it costs more than a game.
        if rows.len() >= limit || (rows.len() % 256 == 0 && sent.elapsed() >= BATCH_EVERY) {
            send(&mut rows, &mut first, at, &mut interners)?;
            sent = Instant::now();
            limit = batch_max;
        }
    }
    send(&mut rows, &mut first, at, &mut interners)
}

/// The row of an indexed game.
fn row_of(game: &GameRef, interners: &mut Interners) -> Row {
    let elo = |text: &str| text.trim().parse::<u16>().unwrap_or(0);
    let eco = Eco::parse(game.eco().trim());
    let opening = match game.opening().trim() {
        "" | "?" => interners.eco_names[usize::from(Eco::packed(eco))],
        tag => tag,
    };
    let result = Outcome::from_bytes(game.result().trim().as_bytes())
        .or(game.outcome)
        .unwrap_or(Outcome::Unknown);
    Row {
        offset: game.offset,
        len: u32::try_from(game.len).unwrap_or(u32::MAX),
        white: interners.players.intern(game.white()),
        black: interners.players.intern(game.black()),
        event: interners.events.intern(game.event()),
        site: interners.sites.intern(game.site()),
        round: interners.rounds.intern(game.round()),
        opening: interners.openings.intern(opening),
        date: Date::parse(game.date()),
        white_elo: elo(game.white_elo()),
        black_elo: elo(game.black_elo()),
        eco: Eco::packed(eco),
        plies: u16::try_from(game.plies).unwrap_or(u16::MAX),
        result: outcome_code(result),
        state: 0,
    }
}
