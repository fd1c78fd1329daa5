//! The file a save writes to, before anything is written: what kind of file it
//! is, the lock that keeps two scoresheets from saving into one directory at the
//! same moment, and the temporary files a killed save leaves behind.
//!
//! A regular file is replaced atomically (a temporary file and a rename); a device
//! or a pipe cannot be renamed over without breaking it, so it is written as a
//! stream; a read-only file is replaced only when the caller forces it.
//!
//! The lock is an advisory lock on the directory itself (no lock file is left
//! beside the user's games). It is held across read, modify and rename, so two
//! recorders saving into one file take turns and neither loses the other's game.
//! While it is held no other scoresheet has a temporary file in that directory,
//! so any `.scoresheet-*.tmp` found there is the leftover of a killed save.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The start of the names of temporary files (`.scoresheet-XXXXXX.tmp`).
pub(crate) const TEMP_PREFIX: &str = ".scoresheet-";
/// The end of the names of temporary files.
pub(crate) const TEMP_SUFFIX: &str = ".tmp";

/// How long a save waits for another scoresheet saving into the same directory.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(10);

/// What a save's target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Nothing there yet.
    Missing,
    /// A regular file; `read_only` when nobody may write it (no write bit set).
    Regular {
        /// No write permission bit is set.
        read_only: bool,
    },
    /// A directory.
    Directory,
    /// A device, a pipe (FIFO) or a socket: written as a stream, never replaced.
    Special,
}

/// What the file at `path` is (a symbolic link is followed).
pub fn kind(path: &Path) -> io::Result<Kind> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Kind::Missing),
        Err(e) => return Err(e),
    };
    let ty = meta.file_type();
    Ok(if ty.is_dir() {
        Kind::Directory
    } else if ty.is_file() {
        Kind::Regular {
            read_only: read_only(&meta),
        }
    } else {
        Kind::Special
    })
}

#[cfg(unix)]
fn read_only(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    // Root may write anything: the mode bits, not access(2), say what the owner meant.
    meta.permissions().mode() & 0o222 == 0
}

#[cfg(not(unix))]
fn read_only(meta: &std::fs::Metadata) -> bool {
    meta.permissions().readonly()
}

/// The error inside an [`io::Error`] for a read-only target that was not forced.
#[derive(Debug, thiserror::Error)]
#[error("{} is read-only; it was not replaced", .0.display())]
pub struct ReadOnly(pub PathBuf);

/// True when `e` is the refusal of a read-only target.
pub fn is_read_only(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<ReadOnly>())
}

/// The exclusive save lock of one directory, released when dropped.
#[must_use = "the lock is released when dropped"]
pub(crate) struct DirLock {
    _file: Option<File>,
}

/// Takes the save lock of `dir`, waiting for another scoresheet that holds it.
/// A directory that cannot be opened for locking (or a system without such
/// locks) is saved into without one, as before locks existed.
pub(crate) fn lock_dir(dir: &Path, wait: Duration) -> io::Result<DirLock> {
    #[cfg(unix)]
    {
        use fs4::fs_std::FileExt;
        let Ok(file) = File::open(dir) else {
            return Ok(DirLock { _file: None });
        };
        let deadline = Instant::now() + wait;
        loop {
            match FileExt::try_lock_exclusive(&file) {
                Ok(true) => return Ok(DirLock { _file: Some(file) }),
                Ok(false) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Ok(false) => {
                    return Err(io::Error::new(
                        io::ErrorKind::WouldBlock,
                        format!(
                            "another scoresheet has been saving into {} for {} s; try again",
                            dir.display(),
                            wait.as_secs()
                        ),
                    ))
                }
                // A file system without locks: save as before.
                Err(_) => return Ok(DirLock { _file: None }),
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (dir, wait, Instant::now());
        Ok(DirLock { _file: None })
    }
}

/// Deletes the temporary files killed saves left in `dir`; the caller holds the
/// directory's lock, so none of them is being written. Returns how many went.
pub(crate) fn remove_stale_temporaries(dir: &Path, _lock: &DirLock) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut gone = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let ours = name.starts_with(TEMP_PREFIX)
            && name.ends_with(TEMP_SUFFIX)
            && name.len() > TEMP_PREFIX.len() + TEMP_SUFFIX.len();
        let plain = entry.file_type().is_ok_and(|t| t.is_file());
        if ours && plain && std::fs::remove_file(entry.path()).is_ok() {
            gone += 1;
        }
    }
    gone
}

/// Deletes the temporary files killed saves left in `dir` (as the next save there
/// would), unless another scoresheet is saving there right now. Returns how many went.
pub fn clean_up(dir: &Path) -> usize {
    match lock_dir(dir, Duration::ZERO) {
        Ok(lock) if lock._file.is_some() => remove_stale_temporaries(dir, &lock),
        _ => 0,
    }
}

/// The temporary files being written now, for [`remove_live_temporaries`].
static LIVE: Mutex<Live> = Mutex::new(Live {
    paths: Vec::new(),
    closing: false,
});

/// The temporary files being written, and whether the process is ending.
struct Live {
    paths: Vec<PathBuf>,
    /// A signal is ending the process: a temporary file noted from now on is
    /// deleted at once (its save began before the signal was handled).
    closing: bool,
}

fn live() -> std::sync::MutexGuard<'static, Live> {
    // Nothing panics while holding it; a poisoned lock still holds good paths.
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Notes a temporary file being written (removed again by [`forget_live`]).
#[cfg(test)]
pub(crate) fn note_live(path: &Path) {
    live().paths.push(path.to_path_buf());
}

/// Creates a temporary file with `create` and notes it, both under the lock that
/// [`remove_live_temporaries`] takes: a signal handled before finds the process
/// closing (and no file is made), one handled after finds the file noted.
pub(crate) fn create_live(
    create: impl FnOnce() -> io::Result<tempfile::NamedTempFile>,
) -> io::Result<tempfile::NamedTempFile> {
    let mut live = live();
    if live.closing {
        return Err(io::Error::other("the program is ending"));
    }
    let tmp = create()?;
    live.paths.push(tmp.path().to_path_buf());
    Ok(tmp)
}

/// The temporary file is renamed into place or deleted.
pub(crate) fn forget_live(path: &Path) {
    live().paths.retain(|p| p != path);
}

/// Deletes the temporary files of saves in progress: for a process about to end on
/// a signal, which runs no destructors. The lock stays taken until the process
/// ends, so no save can make a new temporary file after this (see
/// [`create_live`]). Called from the signal thread, which then exits; the lock is
/// otherwise only held for creating a file, a push or a retain.
pub fn remove_live_temporaries() {
    let mut live = live();
    live.closing = true;
    for path in live.paths.drain(..) {
        let _ = std::fs::remove_file(path);
    }
    // Never released: the process exits next.
    std::mem::forget(live);
}

/// Deletes the temporary files of saves in progress that `which` picks.
#[cfg(test)]
fn remove_live_matching(which: impl Fn(&Path) -> bool) {
    let paths = live().paths.clone();
    for path in paths.iter().filter(|p| which(p)) {
        let _ = std::fs::remove_file(path);
    }
}

/// True when `a` and `b` name the same file (`f.pgn` and `./f.pgn`, or a link
/// and its target), whether or not it exists yet.
pub fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        // Not there (yet): the same name in the same directory.
        _ => {
            let dir = |p: &Path| match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => std::fs::canonicalize(d).ok(),
                _ => std::fs::canonicalize(".").ok(),
            };
            a.file_name() == b.file_name() && dir(a).is_some() && dir(a) == dir(b)
        }
    }
}

/// Opens a device or a pipe for writing (it is never truncated, created or renamed).
pub(crate) fn open_stream(path: &Path) -> io::Result<File> {
    std::fs::OpenOptions::new().write(true).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_removes_the_temporary_file_of_a_save_in_progress() {
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join(".scoresheet-Qw12Er.tmp");
        std::fs::write(&tmp, "half a file").unwrap();
        note_live(&tmp);
        // Only this test's file: other tests' saves run at the same time.
        remove_live_matching(|p| p == tmp);
        assert!(!tmp.exists());
        forget_live(&tmp);
    }

    #[test]
    fn kinds_of_targets() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f.pgn");
        assert_eq!(kind(&file).unwrap(), Kind::Missing);
        std::fs::write(&file, "").unwrap();
        assert_eq!(kind(&file).unwrap(), Kind::Regular { read_only: false });
        assert_eq!(kind(dir.path()).unwrap(), Kind::Directory);
        #[cfg(unix)]
        assert_eq!(kind(Path::new("/dev/null")).unwrap(), Kind::Special);
    }
}
