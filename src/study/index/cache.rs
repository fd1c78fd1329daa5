//! Where indexes live and how they are kept: one file per source in the platform cache
//! directory, named by a hash of the source's canonical path; the source's path, size and
//! modification time are stored in it and compared before it is used. Written to a
//! temporary file in the same directory and renamed, so a reader never sees half an index.
//! Every process that builds an index (`scoresheet index`, the one `search` starts in the
//! background, the reviewer's tree pane) holds a lock on a file beside it while it does
//! (the system lets go of it when the process ends, however it ends), and looks for the
//! index again once it holds it: so one file is never indexed twice at once, and a
//! builder that waited takes the index the other one left.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{Bytes, Damage, Index};

/// The environment variable that moves the cache (tests set it); the index goes in its
/// `index` folder.
pub const CACHE_DIR_ENV: &str = crate::store::unpacked::CACHE_DIR_ENV;

/// The folder of the indexes: `$SCORESHEET_CACHE_DIR/index` when set, else the platform
/// cache directory's (`~/.cache/scoresheet/index` on Linux), else one in the system's
/// temporary directory.
pub fn dir() -> PathBuf {
    if let Some(d) = std::env::var_os(CACHE_DIR_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("index");
    }
    directories::ProjectDirs::from("", "", "scoresheet")
        .map(|p| p.cache_dir().join("index"))
        .unwrap_or_else(|| std::env::temp_dir().join("scoresheet-index"))
}

/// What identifies a version of a source: its canonical path, size and modification time;
/// and the folder its index is kept in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// The canonical path.
    pub path: PathBuf,
    /// Bytes.
    pub size: u64,
    /// Modification time: seconds and nanoseconds since the epoch.
    pub mtime: (i64, u32),
    /// The folder of the indexes ([`dir`], unless a test chose another).
    pub dir: PathBuf,
}

impl Stamp {
    /// The stamp of `source` as it is now, its index in [`dir`].
    pub fn of(source: &Path) -> io::Result<Stamp> {
        Stamp::of_in(source, &dir())
    }

    /// The stamp of `source` as it is now, its index in the folder `dir`.
    pub fn of_in(source: &Path, dir: &Path) -> io::Result<Stamp> {
        let meta = fs::metadata(source)?;
        Stamp::at(source, meta.len(), meta.modified()?, dir)
    }

    /// The stamp of a version of `source` known by its size and modification time (one
    /// the caller wrote), its index in the folder `dir`.
    pub fn at(source: &Path, size: u64, modified: SystemTime, dir: &Path) -> io::Result<Stamp> {
        let mtime = match modified.duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
            Err(e) => (
                -(e.duration().as_secs() as i64),
                e.duration().subsec_nanos(),
            ),
        };
        Ok(Stamp {
            path: fs::canonicalize(source)?,
            size,
            mtime,
            dir: dir.to_path_buf(),
        })
    }

    /// The same source's stamp as it is now (it changed if this differs from `self`).
    pub fn again(&self) -> io::Result<Stamp> {
        Stamp::of_in(&self.path, &self.dir)
    }

    /// The path as the index stores it.
    pub fn path_text(&self) -> String {
        self.path.to_string_lossy().into_owned()
    }

    /// The index file for this source.
    pub fn index_file(&self) -> PathBuf {
        self.dir.join(self.index_name())
    }

    /// The name of the index file in its folder (a hash of the path: `….idx`); its lock
    /// is the file of the same name ending `.building`.
    pub fn index_name(&self) -> String {
        format!("{:016x}.idx", fnv1a(self.path_text().as_bytes()))
    }
}

/// A stable 64-bit hash (FNV-1a) for file names: the standard library's hasher may change
/// between releases, which would orphan every index.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What was found in the cache for a source.
pub enum Found {
    /// An index of this very version of the source.
    Fresh(Box<Index>),
    /// None yet.
    Missing,
    /// One of another version of the source (or of another file with the same hash).
    Stale,
    /// One that cannot be trusted.
    Damaged(Damage),
}

/// Looks for the index of `stamp`'s source.
pub fn find(stamp: &Stamp) -> Found {
    let Ok(file) = fs::File::open(stamp.index_file()) else {
        return Found::Missing;
    };
    // SAFETY: the map is only read, and index files are only ever replaced by renaming,
    // never written in place; one truncated by someone else is caught by the length
    // check, or at worst faults (the caveat `list` documents for its own maps).
    let bytes = match unsafe { memmap2::Mmap::map(&file) } {
        Ok(map) => Bytes::Map(map),
        Err(_) => return Found::Missing,
    };
    // An index of another version of this program is replaced without a word.
    let version = super::format::VERSION.to_le_bytes();
    if bytes.get(..8) == Some(super::format::MAGIC.as_slice())
        && bytes.get(8..12) != Some(version.as_slice())
    {
        return Found::Stale;
    }
    match Index::open(bytes) {
        Ok(index) => {
            let h = index.header();
            if h.size == stamp.size
                && h.mtime == stamp.mtime
                && index.source_path() == stamp.path_text().as_bytes()
            {
                Found::Fresh(Box::new(index))
            } else {
                Found::Stale
            }
        }
        Err(damage) => Found::Damaged(damage),
    }
}

/// Stores an index for `stamp`'s source, atomically.
pub fn store(stamp: &Stamp, bytes: &[u8]) -> io::Result<()> {
    let target = stamp.index_file();
    let dir = target.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".index-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    // No sync: the index is a cache, and one torn by a crash fails its checksums and is
    // rebuilt; waiting for hundreds of megabytes to reach the disk would double the
    // first search.
    tmp.persist(&target).map_err(|e| e.error)?;
    Ok(())
}

/// The lock file of a build of `stamp`'s index. It is never removed (it is empty):
/// removing a file another process may have just opened would let two builders each hold
/// a lock, one on a file without a name.
fn lock_file(stamp: &Stamp) -> PathBuf {
    stamp.index_file().with_extension("building")
}

/// Opens (creating) the lock file of `stamp`'s index.
fn open_lock(stamp: &Stamp) -> io::Result<fs::File> {
    let path = lock_file(stamp);
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
}

/// Takes the lock of a build of `stamp`'s index: `None` when another process holds it.
/// The lock is let go when the file is closed (dropped), or the process ends. (The lock
/// is the system's `flock`: two opens of the file exclude each other even in one
/// process.)
pub fn lock_building(stamp: &Stamp) -> io::Result<Option<fs::File>> {
    let file = open_lock(stamp)?;
    Ok(fs4::fs_std::FileExt::try_lock_exclusive(&file)?.then_some(file))
}

/// Takes the lock of a build of `stamp`'s index, waiting while another process holds it.
pub fn wait_building(stamp: &Stamp) -> io::Result<fs::File> {
    let file = open_lock(stamp)?;
    fs4::fs_std::FileExt::lock_exclusive(&file)?;
    Ok(file)
}

/// Whether another process (or another part of this one) is building `stamp`'s index now. An error says that the
/// cache directory cannot be written (so no index could be kept).
pub fn being_built(stamp: &Stamp) -> io::Result<bool> {
    Ok(lock_building(stamp)?.is_none())
}

/// The file that records why the last background build of an index failed.
fn failure_file(stamp: &Stamp) -> PathBuf {
    stamp.index_file().with_extension("failed")
}

/// The stamp's version of the source, as a failure record starts with it.
fn version_line(stamp: &Stamp) -> String {
    format!("{} {} {}", stamp.size, stamp.mtime.0, stamp.mtime.1)
}

/// Records why building `stamp`'s index failed, so that searches of this version of the
/// source say why instead of starting the same build again.
pub fn record_failure(stamp: &Stamp, why: &str) {
    let text = format!("{}\n{}\n", version_line(stamp), why.trim_end());
    let _ = fs::write(failure_file(stamp), text);
}

/// Forgets a failure recorded for `stamp`'s source.
pub fn clear_failure(stamp: &Stamp) {
    let _ = fs::remove_file(failure_file(stamp));
}

/// Why the last build of this very version of `stamp`'s source failed, if it did.
pub fn failure(stamp: &Stamp) -> Option<String> {
    let text = fs::read_to_string(failure_file(stamp)).ok()?;
    let (version, why) = text.split_once('\n')?;
    (version == version_line(stamp)).then(|| why.trim_end().to_string())
}
