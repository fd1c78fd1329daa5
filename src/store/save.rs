//! Saving one game into a PGN file without touching the file's other games.
//!
//! A [`Slot`] says where a game's text is in its file (from its first byte to its
//! last non-blank byte, as the [index](crate::pgn::index()) counts it) with a hash
//! of those bytes. [`append_game`] adds a game at the end and gives its slot;
//! [`replace_game`] puts a new text in the slot after checking the bytes there are
//! still the ones it describes, so a file changed by someone else is never
//! clobbered. Every other byte of the file stays as it was, and new text follows
//! the file's habits: CRLF line ends when the file uses them, Windows-1252 (which
//! covers Latin-1) when the file is not UTF-8 (and the game's text fits in it).
//!
//! Every write is atomic ([`write_atomically`]): a temporary file in the same
//! directory, synced, renamed over the old one, and the directory synced. A failed
//! save leaves the old file exactly as it was.
//!
//! A game still at its slot is put back by copying the file around it as a stream
//! (little memory whatever the file's size); a moved game, or one added at the end,
//! is spliced into the whole file read into memory. A compressed file
//! ([`super::packed`]) is decoded, spliced and compressed again in its format; offsets
//! then count bytes of its text.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::packed::Compression;
use super::target::{self, Kind};
use super::{fnv1a, sync_dir};

// Loading lived here first; `save::load_game` and friends still name it.
pub use super::load::{game_number_at, load_game, load_game_for_repair, LoadError, Unread};
use super::splice::{appended, find, replace_streaming, replace_streaming_packed, replaced};
pub use super::splice::{still_there, Spliced};

/// Where a game's text is in its file, and a hash of that text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slot {
    /// Byte offset of the game's first byte.
    pub offset: u64,
    /// Length in bytes, up to the game's last non-blank byte.
    pub len: u64,
    /// FNV-1a 64 of those bytes.
    pub digest: u64,
}

impl Slot {
    /// The slot of the `len` bytes of `file` at `offset`.
    pub fn of(file: &[u8], offset: usize, len: usize) -> Slot {
        Slot {
            offset: offset as u64,
            len: len as u64,
            digest: fnv1a(&file[offset..offset + len]),
        }
    }

    /// True when `file` holds at this slot the bytes it was made from.
    pub(crate) fn matches(&self, file: &[u8]) -> bool {
        let (Ok(start), Ok(len)) = (usize::try_from(self.offset), usize::try_from(self.len)) else {
            return false;
        };
        start
            .checked_add(len)
            .and_then(|end| file.get(start..end))
            .is_some_and(|bytes| fnv1a(bytes) == self.digest)
    }
}

/// Why a game could not be saved. Whatever the reason, the file was not changed.
/// Shown as "cannot save to FILE: " and [`SaveError::reason`]; a message that names the
/// game and its file already says the reason alone.
#[derive(Debug, thiserror::Error)]
#[error("cannot save to {}: {}", self.path().display(), self.reason())]
pub enum SaveError {
    /// The file exists but could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// The new file could not be written or put in place.
    Write {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// The file is read-only (no write permission bit): replaced only when forced.
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// The target is a device, a pipe or a socket, not a file games can be saved in.
    NotRegular {
        /// The target.
        path: PathBuf,
    },
    /// The game's text in the file is no longer what was read from it.
    ChangedOnDisk {
        /// The file.
        path: PathBuf,
        /// Where the game was.
        offset: u64,
        /// How long it was.
        len: u64,
        /// What happened to it.
        change: Change,
    },
    /// The file is of a kind scoresheet reads but does not write (UTF-16 text).
    Unwritable {
        /// The file.
        path: PathBuf,
        /// How its text is held.
        format: Compression,
    },
}

impl SaveError {
    /// The file the save was for.
    pub fn path(&self) -> &Path {
        match self {
            SaveError::Read { path, .. }
            | SaveError::Write { path, .. }
            | SaveError::ReadOnly { path }
            | SaveError::NotRegular { path }
            | SaveError::ChangedOnDisk { path, .. }
            | SaveError::Unwritable { path, .. } => path,
        }
    }

    /// Why the save was refused, and what to do, without naming the file.
    pub fn reason(&self) -> String {
        match self {
            SaveError::Read { path, source } => format!("cannot read it: {}", why(source, path)),
            SaveError::Write { path, source } => format!(
                "{}; the file was not changed: :w OTHER.pgn saves the game elsewhere",
                why(source, path)
            ),
            SaveError::ReadOnly { .. } => {
                "the file is read-only; the file was not changed".to_string()
            }
            SaveError::NotRegular { .. } => {
                "it is not a regular file (a device, a pipe or a socket); save to a file"
                    .to_string()
            }
            SaveError::ChangedOnDisk { change, .. } => format!(
                "{change}; the file was not changed: :w OTHER.pgn saves your game \
                 elsewhere, :e! FILE reads the file again (the journal keeps your game)"
            ),
            SaveError::Unwritable { format, .. } => format!(
                "it is {}, which scoresheet reads but does not write; the file was not \
                 changed: save the game to another file (:w OTHER.pgn)",
                format.name()
            ),
        }
    }
}

/// What happened to a game's text in its file since it was read, when a save into
/// its place is refused. Edits elsewhere in the file are no reason to refuse: the
/// game is put back among the file as it is now, and others' edits stay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The file now ends before where the game began: cut short, or replaced by
    /// another file.
    Shorter {
        /// Its size now (of its text, when compressed).
        size: u64,
    },
    /// The game's bytes are not there any more, nor anywhere else in the file: the
    /// game was edited or deleted by another program.
    Edited,
    /// The game moved (text before it changed) and is now in the file more than once:
    /// which copy is meant cannot be told.
    Copies {
        /// How many there are.
        count: usize,
    },
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Change::Shorter { .. } => {
                f.write_str("the file was cut short or replaced since the game was read")
            }
            Change::Edited => {
                f.write_str("another program changed or deleted this game in the file")
            }
            Change::Copies { count } => write!(
                f,
                "the file was changed and now holds this game {count} times: which is \
                 yours is unclear"
            ),
        }
    }
}

/// The system's reason for a failed write of `path`, with a hint at the usual
/// causes that names the directory (for messages).
pub fn explain(e: &io::Error, path: &Path) -> String {
    why(e, path)
}

/// The system's reason in plain words, with a hint at the usual causes.
pub(crate) fn why(e: &io::Error, path: &Path) -> String {
    let dir = parent(path).display().to_string();
    let hint = match e.kind() {
        io::ErrorKind::PermissionDenied => format!("permission denied (is {dir} read-only?)"),
        io::ErrorKind::ReadOnlyFilesystem => "the file system is read-only".into(),
        io::ErrorKind::StorageFull => "the disk is full".into(),
        io::ErrorKind::QuotaExceeded => "the disk quota is used up".into(),
        io::ErrorKind::FileTooLarge => {
            "the file would be larger than the system lets this program write (ulimit -f)".into()
        }
        io::ErrorKind::NotFound => format!("no such file or directory (does {dir} exist?)"),
        io::ErrorKind::NotADirectory => format!("{dir} is not a directory"),
        io::ErrorKind::IsADirectory => "it is a directory".into(),
        _ => return e.to_string(),
    };
    // The system's own words for these say what the hint says ("No such file or
    // directory (os error 2)", also when tempfile passed them on as text): only an error
    // of this program's own keeps its text.
    if e.raw_os_error().is_some() || e.to_string().contains("(os error ") {
        hint
    } else {
        format!("{hint}: {e}")
    }
}

/// What a failed [`write_file`] left at its target, as the end of a message: a file that
/// was there is as it was, a missing one was not made, a device or pipe (written as a
/// stream) may have had part of the text. `before` is the target's kind before the write.
pub fn left_after_failure(before: Kind, path: &Path) -> String {
    match before {
        Kind::Regular { .. } | Kind::Directory => format!("{} was not changed", path.display()),
        Kind::Missing => format!("no file {} was made", path.display()),
        Kind::Special => "part of the text may have been written to it".into(),
    }
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Adds a game (PGN text, as [`write_game_to_string`](crate::pgn::write_game_to_string)
/// gives it) at the end of the file at `path`, creating the file if it does not
/// exist, after a blank line when the file does not end with one. Returns where the
/// game now is. A read-only file is refused ([`save_game`] can force it).
pub fn append_game(path: &Path, pgn: &str) -> Result<Slot, SaveError> {
    save_game(path, None, pgn, false)
}

/// Replaces the game at `slot` of the file at `path` by `pgn`, leaving every other
/// byte of the file as it was. The file is read again first: when the bytes at the
/// slot are no longer the game (the file was edited elsewhere), the game is looked
/// for by its hash among the file's games, and if it is not found exactly once
/// nothing is written ([`SaveError::ChangedOnDisk`], with what happened: a
/// [`Change`]). Edits to other games are kept. A file that is gone is written anew
/// with the game. Returns the game's new slot.
pub fn replace_game(path: &Path, slot: &Slot, pgn: &str) -> Result<Slot, SaveError> {
    save_game(path, Some(slot), pgn, false)
}

/// After a save of `pgn` into the file at `path`: the first character of the game that
/// Windows-1252 has no byte for, when the file's other text is not UTF-8 (so it is
/// Windows-1252, and the game went in as UTF-8 rather than lose that character: a
/// program that reads the file as Windows-1252 shows it wrong). `None` otherwise, or
/// when the file cannot be read. Reads the file through only when the game holds such
/// a character.
pub fn utf8_among_windows_1252(path: &Path, pgn: &str) -> Option<char> {
    let c = crate::text::outside_windows_1252(pgn)?;
    let file = std::fs::File::open(path).ok()?;
    let mut text: Box<dyn io::Read> = match Compression::of_file_written(path).ok()? {
        Some(p) if p.writable() => Box::new(p.decoder(file).ok()?),
        Some(_) => return None,
        None => Box::new(file),
    };
    (!super::splice::is_utf8(&mut text).ok()?).then_some(c)
}

/// Saves a game into the file at `path`: in place of the game at `slot` when
/// given (see [`replace_game`]), else at the end (see [`append_game`]). A target
/// that is not a regular file is refused; a read-only one unless `force`. The
/// directory's save lock is held from reading the file to renaming the new one
/// into place, so two scoresheets saving into one file at once both keep their
/// game.
pub fn save_game(
    path: &Path,
    slot: Option<&Slot>,
    pgn: &str,
    force: bool,
) -> Result<Slot, SaveError> {
    save_game_spliced(path, slot, pgn, force).map(|(slot, _)| slot)
}

/// [`save_game`], also saying what changed in the file when the game was put in place
/// in a plain file copied around it (a [`Spliced`]); `None` for every other save (a
/// game added, a compressed file, a file read whole because the game had moved).
pub fn save_game_spliced(
    path: &Path,
    slot: Option<&Slot>,
    pgn: &str,
    force: bool,
) -> Result<(Slot, Option<Spliced>), SaveError> {
    let write_error = |source| SaveError::Write {
        path: path.to_path_buf(),
        source,
    };
    let target = resolve(path).map_err(write_error)?;
    match target::kind(&target).map_err(write_error)? {
        Kind::Special => {
            return Err(SaveError::NotRegular {
                path: path.to_path_buf(),
            })
        }
        Kind::Regular { read_only: true } if !force => {
            return Err(SaveError::ReadOnly {
                path: path.to_path_buf(),
            })
        }
        _ => {}
    }
    let dir = parent(&target);
    let lock = target::lock_dir(dir, target::LOCK_WAIT).map_err(write_error)?;
    target::remove_stale_temporaries(dir, &lock);
    // A game still at its place in a plain file: the rest of the file is copied as a
    // stream. Anything else (moved, changed, compressed): the whole file is read.
    if let Some(slot) = slot {
        let packing = Compression::of_file_written(&target).map_err(write_error)?;
        let streamed = match packing {
            None => replace_streaming(&target, slot, pgn),
            Some(p) if p.writable() => replace_streaming_packed(&target, p, slot, pgn)
                .map(|new| new.map(|slot| (slot, None))),
            Some(_) => Ok(None),
        };
        if let Some(new) = streamed.map_err(write_error)? {
            return Ok(new);
        }
    }
    let old = match std::fs::read(&target) {
        Ok(bytes) => Some(bytes),
        // A vanished file is written anew.
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(SaveError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let read_error = |source| SaveError::Read {
        path: path.to_path_buf(),
        source,
    };
    // A compressed file: the game goes into its text, which is compressed again. A new
    // (or empty) file is compressed as its name says (`games.pgn.gz`).
    let packing = match old.as_deref() {
        Some(bytes) if !bytes.is_empty() => {
            Compression::of_bytes_written(bytes).map_err(read_error)?
        }
        _ => Compression::of_name(&target),
    };
    let old = match (packing, old) {
        (Some(p), _) if !p.writable() => {
            return Err(SaveError::Unwritable {
                path: path.to_path_buf(),
                format: p,
            })
        }
        (Some(p), Some(bytes)) => Some(p.decode(&bytes).map_err(read_error)?),
        (_, old) => old,
    };
    let splice = match (old.as_deref(), slot) {
        (Some(old), Some(slot)) => {
            let at = find(old, slot).map_err(|change| SaveError::ChangedOnDisk {
                path: path.to_path_buf(),
                offset: slot.offset,
                len: slot.len,
                change,
            })?;
            replaced(old, &at, pgn)
        }
        (old, _) => appended(old.unwrap_or_default(), pgn),
    };
    let old = old.unwrap_or_default();
    write_locked(&target, |w| match packing {
        Some(p) => {
            let mut encoder = p.encoder(w)?.ok_or(io::ErrorKind::Unsupported)?;
            splice.write(&old, &mut encoder)?;
            encoder.finish()
        }
        None => splice.write(&old, w),
    })
    .map_err(write_error)?;
    Ok((splice.slot(), None))
}

/// Writes a file through a temporary file in the same directory and a rename, so
/// the old file is either replaced whole or left as it was; then syncs the
/// directory so the rename itself survives a crash. The file keeps its
/// permissions (a new one gets the usual `0644`); a symbolic link is followed, so
/// the file it points to is replaced and the link stays. A device or a pipe is
/// written as a stream instead (never replaced by a file); a read-only file is
/// refused ([`target::is_read_only`] tells that error).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, |w| w.write_all(bytes))
}

/// [`write_atomically`] for content written piece by piece: `write` gets the temporary file
/// (buffered); if it fails, the temporary file is removed and the old file stays as it was.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write_file(path, false, write)
}

/// [`write_atomically_with`], replacing a read-only file too when `force`.
pub fn write_file(
    path: &Path,
    force: bool,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let target = resolve(path)?;
    match target::kind(&target)? {
        Kind::Special => {
            let mut out = io::BufWriter::with_capacity(1 << 16, target::open_stream(&target)?);
            write(&mut out)?;
            return out.flush();
        }
        Kind::Regular { read_only: true } if !force => {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                target::ReadOnly(path.to_path_buf()),
            ))
        }
        _ => {}
    }
    let dir = parent(&target);
    let lock = target::lock_dir(dir, target::LOCK_WAIT)?;
    target::remove_stale_temporaries(dir, &lock);
    write_locked(&target, write).map(|_| ())
}

/// The file a write replaces: a symbolic link's target, else `path` itself.
fn resolve(path: &Path) -> io::Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path),
        _ => Ok(path.to_path_buf()),
    }
}

/// The atomic write itself, into the regular (or missing) file `target` of a
/// directory whose lock the caller holds. Returns the new file's metadata as written
/// (before it took the old one's place).
pub(crate) fn write_locked(
    target: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<std::fs::Metadata> {
    let dir = parent(target);
    let mut tmp = target::create_live(|| {
        #[cfg(test)]
        if tests::READ_ONLY_DIR.with(|f| f.get()) {
            return Err(io::Error::from(io::ErrorKind::PermissionDenied));
        }
        tempfile::Builder::new()
            .prefix(target::TEMP_PREFIX)
            .suffix(target::TEMP_SUFFIX)
            .tempfile_in(dir)
    })
    .map_err(without_temp_name)?;
    let live = tmp.path().to_path_buf();
    let result = (|| {
        #[cfg(test)]
        if tests::DISK_FULL.with(|f| f.get()) {
            return Err(io::Error::new(
                io::ErrorKind::StorageFull,
                "no space left on device",
            ));
        }
        let mut buffered = io::BufWriter::with_capacity(1 << 16, tmp.as_file_mut());
        write(&mut buffered)?;
        buffered.flush()?;
        drop(buffered);
        // The temporary file is private (0600); the result keeps the old file's
        // permissions, or gets the usual ones for a new file.
        if let Some(permissions) = target_permissions(target) {
            tmp.as_file().set_permissions(permissions)?;
        }
        tmp.as_file().sync_all()?;
        let written = tmp.as_file().metadata()?;
        tmp.persist(target).map_err(|e| e.error)?;
        sync_dir(dir)?;
        Ok(written)
    })();
    target::forget_live(&live);
    result
}

/// The system's error without the temporary file's name, which means nothing to
/// the reader (tempfile adds it to the message).
fn without_temp_name(e: io::Error) -> io::Error {
    if e.raw_os_error().is_some() {
        return e;
    }
    let text = e.to_string();
    match text.rfind(" at path ") {
        Some(end) => io::Error::new(e.kind(), &text[..end]),
        None => e,
    }
}

fn target_permissions(path: &Path) -> Option<std::fs::Permissions> {
    if let Ok(old) = std::fs::metadata(path) {
        return Some(old.permissions());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o644))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
#[path = "save_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "save_packed_tests.rs"]
mod packed_tests;
