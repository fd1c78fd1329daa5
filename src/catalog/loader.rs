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
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use super::index::{self, Spare, Stage};
use super::row::Row;
use super::strings::{Interner, Local};
use super::Tables;
use crate::pgn::Indexer;
use crate::store::decompress::{self, Compression, UpToCut};
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
    /// The rows, in pieces (as the indexing threads made them).
    pub(crate) parts: Vec<Vec<Row>>,
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
        self.parts.iter().map(Vec::len).sum()
    }

    /// Whether the batch has no game.
    pub fn is_empty(&self) -> bool {
        self.parts.iter().all(Vec::is_empty)
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
    /// Set when the loader is dropped: the threads stop within a few thousand games.
    cancel: Arc<AtomicBool>,
}

impl Drop for Loader {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl Loader {
    /// Starts reading `path`. Opening errors come back at once; later ones as
    /// [`LoadEvent::Failed`].
    pub fn open(path: &Path) -> io::Result<Loader> {
        Loader::start(path, None).map(|(loader, _)| loader)
    }

    /// [`Loader::open`], and for a compressed file a decoded copy of it, filled as the
    /// list is read (in [`crate::store::unpacked::cache_dir`]): the games are then loaded
    /// from the copy at once instead of decompressing the file up to each. No copy when
    /// the file is plain, or when the copy cannot be made (the games are then read from
    /// the file itself).
    pub fn open_copying(path: &Path) -> io::Result<(Loader, Option<Unpacked>)> {
        Loader::open_copying_in(path, &crate::store::unpacked::cache_dir())
    }

    /// [`Loader::open_copying`] with the copy in `dir`.
    pub fn open_copying_in(path: &Path, dir: &Path) -> io::Result<(Loader, Option<Unpacked>)> {
        Loader::start(path, Some(dir))
    }

    fn start(path: &Path, copy_dir: Option<&Path>) -> io::Result<(Loader, Option<Unpacked>)> {
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        // Games are loaded later by seeking to them: a pipe or a device cannot be listed.
        if !meta.is_file() {
            return Err(io::Error::other(if meta.is_dir() {
                "is a directory, not a PGN file"
            } else {
                "is not a regular file (a pipe or a device): games are read back by seeking"
            }));
        }
        let head = decompress::head(&mut file)?;
        io::Seek::seek(&mut file, io::SeekFrom::Start(0))?;
        let compression = Compression::of(&head);
        let total = meta.len();
        // A compressed file is read through its decoder, counting the compressed bytes
        // read (the progress), and through the copy being made when asked.
        let mut copy = None;
        let source = match compression {
            None => Source::Plain(file),
            Some(c) => {
                let read = Arc::new(AtomicU64::new(0));
                let counted = Counted {
                    inner: file,
                    read: Arc::clone(&read),
                };
                let decoded = c.decoder(counted)?;
                let text: Box<dyn Read + Send> = match copy_dir {
                    None => Box::new(decoded),
                    Some(dir) => match Unpacked::wrap(dir, path, c, decoded) {
                        Ok((unpacked, tee)) => {
                            copy = Some(unpacked);
                            Box::new(tee)
                        }
                        Err(_) => {
                            // The decoder went into the failed copy: start again.
                            let file = File::open(path)?;
                            let counted = Counted {
                                inner: file,
                                read: Arc::clone(&read),
                            };
                            Box::new(c.decoder(counted)?)
                        }
                    },
                };
                Source::Decoded(Box::new(UpToCut::new(text)), read)
            }
        };
        let (tx, rx) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let cancelled = Arc::clone(&cancel);
        std::thread::Builder::new()
            .name("game list".into())
            .spawn(move || {
                let sent = match source {
                    Source::Decoded(text, read) => {
                        let progress = move |_: u64| read.load(Ordering::Relaxed);
                        let cut = text.cut();
                        let produce = stream(Indexer::new(text));
                        run(produce, total, progress, &tx, &cancelled)
                            .and_then(|()| cut.take().map_or(Ok(()), |e| Err(Stop::Failed(e))))
                    }
                    // Every core indexes a chunk of a plain file, as `list` does.
                    Source::Plain(file) if jobs() > 1 => {
                        let produce = |tx: &_, _: usize, spare: &Spare, cancel: &AtomicBool| {
                            index::index_chunks(&file, jobs(), index::CHUNKS, tx, spare, cancel)
                        };
                        run(produce, total, |at| at, &tx, &cancelled)
                    }
                    Source::Plain(file) => {
                        run(stream(Indexer::new(file)), total, |at| at, &tx, &cancelled)
                    }
                };
                let last = match sent {
                    Ok(()) => LoadEvent::Done,
                    Err(Stop::Failed(e)) => LoadEvent::Failed(e),
                    Err(Stop::Dropped) => return,
                };
                let _ = tx.send(last);
            })?;
        let loader = Loader {
            rx,
            compression,
            cancel,
        };
        Ok((loader, copy))
    }

    /// The compression of the file, if compressed (game offsets are then offsets in the
    /// decompressed text; for UTF-16 text, in its UTF-8 transcoding).
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
    /// A plain file (read in chunks with positioned reads on several threads, or as a
    /// stream on one).
    Plain(File),
    /// The text of a compressed file, and the count of compressed bytes read.
    /// It ends at the decoder's first error (a file cut short): the games before are all
    /// listed, as `list` lists them, and the error comes after the rows.
    Decoded(Box<UpToCut<Box<dyn Read + Send>>>, Arc<AtomicU64>),
}

/// Why the thread stopped early.
enum Stop {
    /// Nobody listens any more.
    Dropped,
    Failed(io::Error),
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

/// Ids of the whole file for a chunk's ids, one map per table (`u32::MAX`: not asked yet).
struct Map(Vec<u32>);

impl Map {
    fn new(local: &Local) -> Map {
        Map(vec![u32::MAX; local.len()])
    }

    /// Asks for every string of `local` at once, in id order: the lookups do not wait
    /// on each other (nor on the rows), so the processor overlaps their trips to memory.
    fn fill(&mut self, interner: &mut Interner, local: &Local) {
        interner.intern_all(local, &mut self.0);
    }

    #[inline]
    fn get(&mut self, interner: &mut Interner, local: &Local, id: u32) -> u32 {
        match self.0.get_mut(id as usize) {
            Some(slot) => {
                if *slot == u32::MAX {
                    *slot = interner.intern_local(local, id);
                }
                *slot
            }
            None => 0,
        }
    }
}

struct Maps {
    players: Map,
    events: Map,
    sites: Map,
    rounds: Map,
    openings: Map,
}

impl Maps {
    fn fill(&mut self, interners: &mut Interners, raw: &index::Raw) {
        self.players.fill(&mut interners.players, &raw.players);
        self.events.fill(&mut interners.events, &raw.events);
        self.sites.fill(&mut interners.sites, &raw.sites);
        self.rounds.fill(&mut interners.rounds, &raw.rounds);
        self.openings.fill(&mut interners.openings, &raw.openings);
    }

    fn new(raw: &index::Raw) -> Maps {
        Maps {
            players: Map::new(&raw.players),
            events: Map::new(&raw.events),
            sites: Map::new(&raw.sites),
            rounds: Map::new(&raw.rounds),
            openings: Map::new(&raw.openings),
        }
    }
}

/// The threads to index a plain file with: one per core.
fn jobs() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// What indexes the games, on a thread of its own: it hands them in file order to the
/// sender, the first `first` games in a [`Raw`] of their own, and stops when told to.
trait Produce: FnOnce(&mpsc::SyncSender<Stage>, usize, &Spare, &AtomicBool) + Send {}
impl<F: FnOnce(&mpsc::SyncSender<Stage>, usize, &Spare, &AtomicBool) + Send> Produce for F {}

/// Indexes one stream on one thread.
fn stream<R: Read + Send>(mut indexer: Indexer<R>) -> impl Produce {
    move |tx: &mpsc::SyncSender<Stage>, first: usize, _: &Spare, _: &AtomicBool| {
        index::index(&mut indexer, first, tx)
    }
}

/// Indexes every game and sends the rows over `tx`; `progress` turns the offset reached in
/// the (decompressed) input into bytes of the file read.
fn run(
    produce: impl Produce,
    total: u64,
    progress: impl Fn(u64) -> u64,
    tx: &mpsc::Sender<LoadEvent>,
    cancel: &AtomicBool,
) -> Result<(), Stop> {
    let sizes = (FIRST_BATCH, BATCH_MAX);
    list(produce, total, progress, sizes, cancel, |batch| {
        tx.send(LoadEvent::Batch(Box::new(batch)))
            .map_err(|_| Stop::Dropped)
    })
}

/// Lists every game of a PGN text on this thread, into `catalog` (for small inputs, tests
/// and measurements; the screen uses a [`Loader`]).
/// `batch` games go in each batch (the time between batches aside).
pub(crate) fn list_into<R: Read + Send>(
    indexer: Indexer<R>,
    batch: usize,
    catalog: &mut super::Catalog,
) -> io::Result<()> {
    list_with(stream(indexer), batch, catalog)
}

/// [`list_into`] for a regular file read in chunks of `chunk` bytes (the first one a
/// third of that) on `jobs` threads (the rows are the same: tests check it).
#[cfg(test)]
pub(crate) fn list_file_into(
    file: &File,
    (jobs, chunk): (usize, u64),
    batch: usize,
    catalog: &mut super::Catalog,
) -> io::Result<()> {
    let produce = |tx: &_, _: usize, spare: &Spare, cancel: &AtomicBool| {
        let sizes = crate::pgn::chunks::Sizes {
            first: chunk / 3,
            rest: chunk,
        };
        index::index_chunks(file, jobs, sizes, tx, spare, cancel)
    };
    list_with(produce, batch, catalog)
}

fn list_with(produce: impl Produce, batch: usize, catalog: &mut super::Catalog) -> io::Result<()> {
    let listed = list(
        produce,
        0,
        |at| at,
        (batch, batch),
        &AtomicBool::new(false),
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

/// Indexes every game and hands the rows to `send_batch` in batches. The indexing threads
/// read the numbers (dates, Elos, ECO codes) and intern the strings of their chunk; this
/// one gives each chunk string its id in the file (one lookup per distinct string of a
/// chunk) and makes the batches.
fn list(
    produce: impl Produce,
    total: u64,
    progress: impl Fn(u64) -> u64,
    (first_batch, batch_max): (usize, usize),
    cancel: &AtomicBool,
    mut send_batch: impl FnMut(Batch) -> Result<(), Stop>,
) -> Result<(), Stop> {
    // A batch holds a game at least (cutting a chunk's rows into empty batches would not end).
    let (first_batch, batch_max) = (first_batch.max(1), batch_max.max(1));
    let (tx, rx) = mpsc::sync_channel::<Stage>(16);
    let spare = Spare::default();
    std::thread::scope(|scope| {
        let spare = &spare;
        let indexing = std::thread::Builder::new()
            .name("game list index".into())
            .spawn_scoped(scope, move || produce(&tx, first_batch, spare, cancel));
        if indexing.is_err() {
            return Err(Stop::Failed(io::Error::other(
                "the system grants no thread to index the file with",
            )));
        }
        let mut interners = Interners {
            players: Interner::new(),
            events: Interner::new(),
            sites: Interner::new(),
            rounds: Interner::new(),
            openings: Interner::new(),
        };
        // The rows of the batch being made: the chunks' own vectors, their ids made the
        // file's in place, handed on as they are (no copy, no fresh memory per batch).
        let mut parts: Vec<Vec<Row>> = Vec::new();
        let mut pending = 0;
        let mut first = 1;
        let mut limit = first_batch;
        let mut sent = Instant::now();
        let mut send = |parts: &mut Vec<Vec<Row>>,
                        pending: &mut usize,
                        first: &mut u64,
                        at: u64,
                        interners: &mut Interners| {
            let batch = Batch {
                first: *first,
                parts: std::mem::take(parts),
                strings: interners.take(),
                read: progress(at),
                total,
            };
            *first += *pending as u64;
            *pending = 0;
            send_batch(batch)
        };
        let mut at = 0;
        // Dropping `rx` on the way out (an early return) stops the indexing thread.
        for stage in rx {
            if cancel.load(Ordering::Relaxed) {
                return Err(Stop::Dropped);
            }
            let mut raw = match stage {
                Stage::Games(raw) => raw,
                Stage::Failed(e) => {
                    send(&mut parts, &mut pending, &mut first, at, &mut interners)?;
                    return Err(Stop::Failed(e));
                }
            };
            at = raw.at;
            // Chunk id → id in the file, made the first time a row uses the string.
            let mut maps = Maps::new(&raw);
            if raw.whole {
                // Ids in the chunk follow the order of first use: asking for them in id
                // order gives the strings the ids the rows would.
                maps.fill(&mut interners, &raw);
            }
            let index::Raw {
                rows,
                players,
                events,
                sites,
                rounds,
                openings,
                ..
            } = &mut *raw;
            let mut rows = std::mem::take(rows);
            for row in &mut rows {
                row.white = maps.players.get(&mut interners.players, players, row.white);
                row.black = maps.players.get(&mut interners.players, players, row.black);
                row.event = maps.events.get(&mut interners.events, events, row.event);
                row.site = maps.sites.get(&mut interners.sites, sites, row.site);
                row.round = maps.rounds.get(&mut interners.rounds, rounds, row.round);
                row.opening = maps
                    .openings
                    .get(&mut interners.openings, openings, row.opening);
            }
            spare.give(raw);
            // Cut where a batch is full (the first, a screenful, is much smaller than a
            // chunk).
            while pending + rows.len() >= limit && !rows.is_empty() {
                let rest = rows.split_off(limit - pending);
                pending += rows.len();
                parts.push(std::mem::replace(&mut rows, rest));
                send(&mut parts, &mut pending, &mut first, at, &mut interners)?;
                sent = Instant::now();
                limit = batch_max;
            }
            if !rows.is_empty() {
                pending += rows.len();
                parts.push(rows);
            }
            if pending > 0 && sent.elapsed() >= BATCH_EVERY {
                send(&mut parts, &mut pending, &mut first, at, &mut interners)?;
                sent = Instant::now();
                limit = batch_max;
            }
        }
        send(&mut parts, &mut pending, &mut first, at, &mut interners)
    })
}
