//! A decoded copy of a compressed PGN file in the cache directory, so that loading
//! game N of a big `.bz2` reads a range of a plain file instead of decompressing
//! everything before the game again (seconds for each game of a 500 MB file).
//!
//! The copy is made once, while the game list's index reads the file ([`Unpacked::tee`]
//! gives the reader that fills it as it goes) or at once ([`Unpacked::create`]). It is
//! a temporary file, deleted when the [`Unpacked`] is dropped; a copy left by a
//! killed scoresheet is deleted by the next one that makes a copy. While a copy is in
//! use it is locked, which is how a later scoresheet tells a live copy from a leftover.
//! A copy whose source changed (size or modification time) is not used.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::SystemTime;

use super::load::{load_plain_range, load_range_for_repair, LoadError, Loaded};
use super::packed::{self, Compression};

/// The environment variable that overrides [`cache_dir`] (used by tests).
pub const CACHE_DIR_ENV: &str = "SCORESHEET_CACHE_DIR";

/// Where decoded copies go: `$SCORESHEET_CACHE_DIR` when set (and not empty), else the
/// platform cache directory (`~/.cache/scoresheet/unpacked` on Linux), else the system
/// temporary directory.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(CACHE_DIR_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    directories::ProjectDirs::from("", "", "scoresheet")
        .map(|p| p.cache_dir().join("unpacked"))
        .unwrap_or_else(|| std::env::temp_dir().join("scoresheet-unpacked"))
}

/// The start of the copies' names.
const PREFIX: &str = "unpacked-";

/// A decoded copy of a compressed file, deleted when dropped.
pub struct Unpacked {
    source: PathBuf,
    packing: Compression,
    /// The source's size and modification time when the copy was started.
    stamp: Option<(u64, SystemTime)>,
    copy: tempfile::NamedTempFile,
    /// Bytes of text in the copy so far (all of it once the reader reached the end).
    written: Arc<AtomicU64>,
    /// Whether the copy holds the whole text (see [`Unpacked::mark_whole`]).
    whole: bool,
}

/// Reads the decoded text of the source and writes it into its [`Unpacked`] copy as
/// it goes (give it to the game list's indexer).
pub struct Tee<R = Box<dyn Read + Send>> {
    text: R,
    copy: File,
    written: Arc<AtomicU64>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.text.read(buf)?;
        self.copy.write_all(&buf[..n])?;
        // Written before counted: a range below the count is in the file.
        self.written.fetch_add(n as u64, Ordering::Release);
        Ok(n)
    }
}

impl Unpacked {
    /// Starts a copy of the packed file at `source` in `dir` (created if missing): the
    /// copy, and the reader of the source's text that fills it. `Ok(None)` when the file
    /// is plain text (no copy is needed: read it directly).
    pub fn tee_in(dir: &Path, source: &Path) -> io::Result<Option<(Unpacked, Tee)>> {
        let (text, format) = packed::open_text(source)?;
        let Some(format) = format else {
            return Ok(None);
        };
        Unpacked::wrap(dir, source, format, text).map(Some)
    }

    /// A copy in `dir` of the text of `source` (compressed as `format`) that `text`
    /// gives as it is read: for a reader the caller made (the game list's loader, which
    /// counts the compressed bytes read for its progress).
    pub fn wrap<R: Read>(
        dir: &Path,
        source: &Path,
        format: Compression,
        text: R,
    ) -> io::Result<(Unpacked, Tee<R>)> {
        std::fs::create_dir_all(dir)?;
        clean_up(dir);
        let copy = tempfile::Builder::new()
            .prefix(PREFIX)
            .suffix(".pgn")
            .tempfile_in(dir)?;
        // Held as long as the copy lives (the lock goes with the last handle).
        fs4::fs_std::FileExt::lock_exclusive(copy.as_file())?;
        let written = Arc::new(AtomicU64::new(0));
        let tee = Tee {
            text,
            copy: copy.reopen()?,
            written: written.clone(),
        };
        let unpacked = Unpacked {
            source: source.to_path_buf(),
            packing: format,
            stamp: stamp(source),
            copy,
            written,
            whole: false,
        };
        Ok((unpacked, tee))
    }

    /// [`Unpacked::tee_in`] in [`cache_dir`].
    pub fn tee(source: &Path) -> io::Result<Option<(Unpacked, Tee)>> {
        Unpacked::tee_in(&cache_dir(), source)
    }

    /// A whole copy of the packed file at `source` in `dir`, made now (as long as
    /// decompressing it takes); `Ok(None)` for plain text.
    pub fn create_in(dir: &Path, source: &Path) -> io::Result<Option<Unpacked>> {
        let Some((mut unpacked, mut tee)) = Unpacked::tee_in(dir, source)? else {
            return Ok(None);
        };
        io::copy(&mut tee, &mut io::sink())?;
        tee.copy.flush()?;
        unpacked.mark_whole();
        Ok(Some(unpacked))
    }

    /// How the source is packed.
    pub fn packing(&self) -> Compression {
        self.packing
    }

    /// The compressed file this is a copy of.
    pub fn source(&self) -> &Path {
        &self.source
    }

    /// Where the decoded copy is (a temporary file, deleted with this).
    pub fn text_path(&self) -> &Path {
        self.copy.path()
    }

    /// Bytes of text in the copy so far.
    pub fn len(&self) -> u64 {
        self.written.load(Ordering::Acquire)
    }

    /// Says that the reader of the source's text reached its end: the copy holds all of it
    /// (a position search or an opening tree may then read it as the source's text).
    pub fn mark_whole(&mut self) {
        self.whole = true;
    }

    /// The copy's whole text, with the version of the source it is of (its size and
    /// modification time when the copy was started), once [`Unpacked::mark_whole`] said
    /// the copy is whole; `None` before, and when the source's version was not known.
    pub fn whole_text(&self) -> Option<(&Path, u64, SystemTime)> {
        let (size, modified) = self.stamp.filter(|_| self.whole)?;
        Some((self.text_path(), size, modified))
    }

    /// True when nothing is in the copy yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Loads game `number` from the range of the source's text the index gave it, as
    /// [`load_range_for_repair`] does: from the copy when the range is in it and the
    /// source has not changed since, else from the source itself (decompressing it).
    pub fn load_range_for_repair(
        &self,
        number: usize,
        offset: u64,
        len: u64,
    ) -> Result<Loaded, LoadError> {
        let copied = offset.checked_add(len).is_some_and(|end| end <= self.len());
        if copied && stamp(&self.source) == self.stamp && self.stamp.is_some() {
            load_plain_range(self.copy.path(), &self.source, number, offset, len)
        } else {
            load_range_for_repair(&self.source, number, offset, len)
        }
    }
}

fn stamp(path: &Path) -> Option<(u64, SystemTime)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// Deletes the copies in `dir` that no live scoresheet holds (left by one that was
/// killed). Returns how many went.
pub fn clean_up(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut gone = 0;
    for entry in entries.flatten() {
        let ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(PREFIX) && n.ends_with(".pgn"));
        if !ours {
            continue;
        }
        let Ok(file) = File::open(entry.path()) else {
            continue;
        };
        // Locked by its owner while in use; a lock taken here means nobody holds it.
        if fs4::fs_std::FileExt::try_lock_exclusive(&file).is_ok_and(|got| got)
            && std::fs::remove_file(entry.path()).is_ok()
        {
            gone += 1;
        }
    }
    gone
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xz(text: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = Compression::Xz.encoder(&mut out).unwrap().unwrap();
        enc.write_all(text).unwrap();
        enc.finish().unwrap();
        out
    }

    #[test]
    fn games_load_from_the_copy_and_the_copy_goes_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let text = b"[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 d5 *\n";
        let source = dir.path().join("two.pgn.xz");
        std::fs::write(&source, xz(text)).unwrap();
        let unpacked = Unpacked::create_in(&cache, &source).unwrap().unwrap();
        assert_eq!(unpacked.packing(), Compression::Xz);
        assert_eq!(unpacked.len(), text.len() as u64);
        let copies = || std::fs::read_dir(&cache).unwrap().count();
        assert_eq!(copies(), 1);
        let entries = crate::pgn::index(text);
        let (game, slot, _) = unpacked
            .load_range_for_repair(2, entries[1].offset, entries[1].len)
            .unwrap();
        assert_eq!(game.tag("White"), Some("B"));
        assert_eq!(slot.offset, entries[1].offset);
        // A live copy is not a leftover.
        assert_eq!(clean_up(&cache), 0);
        drop(unpacked);
        assert_eq!(copies(), 0);
    }

    /// The index reads the file through the tee: one decompression gives both the
    /// list's entries and the copy, and a game is loaded from the copy once its range
    /// is in it (from the source before).
    #[test]
    fn the_copy_fills_while_the_index_reads() {
        let dir = tempfile::tempdir().unwrap();
        let text = b"[White \"A\"]\n\n1. e4 *\n\n".repeat(20_000);
        let source = dir.path().join("many.pgn.xz");
        std::fs::write(&source, xz(&text)).unwrap();
        let (unpacked, tee) = Unpacked::tee_in(dir.path(), &source).unwrap().unwrap();
        assert_eq!(unpacked.len(), 0);
        let last = crate::pgn::index(&text).pop().unwrap();
        // Not copied yet: read from the source.
        let (game, _, _) = unpacked
            .load_range_for_repair(20_000, last.offset, last.len)
            .unwrap();
        assert_eq!(game.tag("White"), Some("A"));
        let entries = crate::pgn::index::index_read(tee).unwrap();
        assert_eq!(entries.len(), 20_000);
        assert_eq!(unpacked.len(), text.len() as u64);
        let copy = std::fs::read(unpacked.copy.path()).unwrap();
        assert_eq!(copy, text);
        let (game, slot, _) = unpacked
            .load_range_for_repair(20_000, last.offset, last.len)
            .unwrap();
        assert_eq!((game.tag("White"), slot.offset), (Some("A"), last.offset));
    }

    #[test]
    fn a_leftover_copy_is_deleted_and_plain_files_need_none() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("unpacked-x1.pgn"), "old").unwrap();
        std::fs::write(dir.path().join("mine.pgn"), "kept").unwrap();
        assert_eq!(clean_up(dir.path()), 1);
        assert!(dir.path().join("mine.pgn").exists());
        let plain = dir.path().join("p.pgn");
        std::fs::write(&plain, "1. e4 *\n").unwrap();
        assert!(Unpacked::create_in(dir.path(), &plain).unwrap().is_none());
    }

    /// A source changed since the copy was made is read again, not the stale copy.
    #[test]
    fn a_changed_source_is_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("g.pgn.xz");
        std::fs::write(&source, xz(b"1. e4 *\n\n1. d4 *\n")).unwrap();
        let unpacked = Unpacked::create_in(dir.path(), &source).unwrap().unwrap();
        std::fs::write(&source, xz(b"1. e4 *\n\n1. c4 e5 *\n")).unwrap();
        let f = File::options().write(true).open(&source).unwrap();
        f.set_modified(SystemTime::UNIX_EPOCH).unwrap();
        let err = unpacked.load_range_for_repair(2, 9, 7).unwrap_err();
        assert!(matches!(err, LoadError::Moved { .. }), "{err}");
    }
}
