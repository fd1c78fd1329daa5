//! The journal: a crash-safe record of the game being recorded, one file per
//! recording session in [`journal_dir`](super::journal_dir).
//!
//! Every confirmed move appends one record holding the whole game as PGN, and the
//! record is synced to disk before [`Journal::record`] returns: a move the screen
//! has confirmed survives a crash, a kill or a power cut. Whole games rather than
//! single moves keep recovery trivial (the last good record is the game) and make
//! corrections (take-backs, replaced moves, edited tags) need no special records.
//!
//! # File format
//!
//! The name is `YYYYMMDD-HHMMSS-mmm-PID.journal` (UTC creation time to the
//! millisecond, then the process id; `-N` is added before `.journal` in the
//! unlikely case of a clash), so names sort by creation time. The content:
//!
//! ```text
//! scoresheet journal 2 OUT\n
//! record LEN SAVED OUT SLOT HASH\n
//! <LEN bytes: the game as PGN export format>
//! record LEN SAVED OUT SLOT HASH\n
//! ...
//! ```
//!
//! `OUT` is the file the game is to be saved to: `-` for none, else the path's
//! bytes with `%`, blanks, control and non-ASCII bytes (and a leading `-`)
//! written `%XX`. `SAVED` is `1` when the game as recorded had been saved to `OUT`,
//! else `0`. `SLOT` is where the game's text is in `OUT` (`-` when it is not there
//! yet): `OFFSET:LEN:DIGEST`, decimal byte offset and length and the 16 hex digits
//! of the text's FNV-1a 64, so that a recovered game's `:w` replaces its earlier
//! text instead of adding a second copy. `HASH` is 16 hex digits of FNV-1a 64 over
//! the record line up to and including the space before `HASH`, followed by the
//! `LEN` bytes of PGN. Version 1 journals (records without `SLOT`) are read too.
//!
//! A record is complete when its line ends in a newline, its `LEN` bytes are all
//! there and the hash matches. Reading stops at the first record that is not: that
//! is the torn tail a crash in the middle of a write leaves, and the previous record
//! wins. When the file grows past [`COMPACT_AT`] it is rewritten (atomically) with
//! only its last record.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::save::Slot;
use super::{fnv1a, fnv1a_continue, sync_dir, utc_fields};
use crate::game::Game;
use crate::pgn::write_game_to_string;

/// The first line of every journal, before its `OUT` field.
const MAGIC: &str = "scoresheet journal 2";

/// The first line of the journals of earlier versions, still read.
const MAGIC_V1: &str = "scoresheet journal 1";

/// The size past which a journal is rewritten with only its last record.
pub const COMPACT_AT: u64 = 1 << 20;

/// The extension of journal files.
pub const EXTENSION: &str = "journal";

/// An open journal, appended to on every confirmed move. Dropping it leaves the
/// file in place (as a crash would): only [`Journal::finish`] deletes it.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    dir: PathBuf,
    file: File,
    /// The bytes known good: the header and every complete record.
    len: u64,
    /// A write failed after `len`: cut the file back before the next one.
    dirty: bool,
    /// The first line, kept for compaction.
    header: Vec<u8>,
    /// Where the last record starts, for compaction.
    last_record: u64,
    /// The size past which to compact ([`COMPACT_AT`]; smaller in tests).
    compact_at: u64,
}

impl Journal {
    /// Creates a new journal in `dir` (created if missing) for a game to be saved to
    /// `out`, and syncs the file and the directory so the journal itself survives a
    /// crash.
    pub fn create(dir: &Path, out: Option<&Path>) -> io::Result<Journal> {
        make_dir(dir)?;
        let (path, mut file) = new_name(dir, open_new)?;
        let mut header = format!("{MAGIC} ").into_bytes();
        encode_out(out, &mut header);
        header.push(b'\n');
        file.write_all(&header)?;
        file.sync_all()?;
        sync_dir(dir)?;
        Ok(Journal {
            path,
            dir: dir.to_path_buf(),
            file,
            len: header.len() as u64,
            dirty: false,
            last_record: header.len() as u64,
            header,
            compact_at: COMPACT_AT,
        })
    }

    /// Takes over the journal at `path` of a recording that ended without saving
    /// (a crash): it is renamed to a name of this process, so that no other
    /// scoresheet offers it while this one records in it, and later records are
    /// appended to it. The file gets a second name before its first goes, and
    /// nothing is copied, so adopting needs no disk space and cannot lose the
    /// journal's game.
    pub fn adopt(path: &Path) -> io::Result<Journal> {
        let bytes = std::fs::read(path)?;
        let contents =
            parse(&bytes).map_err(|why| io::Error::new(io::ErrorKind::InvalidData, why))?;
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let linked = new_name(&dir, |new| {
            // A hard link fails when the name exists, where a rename would replace it.
            std::fs::hard_link(path, new)
        });
        let new_path = match linked {
            Ok((new_path, ())) => {
                // Only one of two recorders taking the journal over at once removes the
                // old name: the other finds it gone, and so has not taken it over. Two
                // names for one journal would offer its game twice.
                if let Err(e) = std::fs::remove_file(path) {
                    let _ = std::fs::remove_file(&new_path);
                    return Err(e);
                }
                new_path
            }
            // A file system without hard links: rename onto a name checked to be free.
            Err(_) => {
                new_name(&dir, |new| {
                    if new.exists() {
                        return Err(io::Error::from(io::ErrorKind::AlreadyExists));
                    }
                    std::fs::rename(path, new)
                })?
                .0
            }
        };
        sync_dir(&dir)?;
        let file = OpenOptions::new().read(true).write(true).open(&new_path)?;
        let header = bytes[..contents.header_len].to_vec();
        let mut journal = Journal {
            path: new_path,
            dir,
            file,
            len: contents.good_len as u64,
            // A torn tail is cut off before the next record.
            dirty: contents.good_len < bytes.len(),
            last_record: contents.last_at as u64,
            header,
            compact_at: COMPACT_AT,
        };
        if journal.dirty && journal.file.set_len(journal.len).is_ok() {
            journal.dirty = false;
        }
        Ok(journal)
    }

    /// The journal's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True when the journal's file is no longer where it was (deleted or
    /// replaced by someone else): records written now would be lost in a crash.
    pub fn is_gone(&self) -> bool {
        let Ok(there) = std::fs::metadata(&self.path) else {
            return true;
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match self.file.metadata() {
                Ok(ours) => ours.dev() != there.dev() || ours.ino() != there.ino(),
                Err(_) => true,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = there;
            false
        }
    }

    /// Appends the whole `game` with its target file and whether it has been saved
    /// there, and syncs it to disk before returning. On an error the journal keeps
    /// its previous records (a partial write is cut off or ignored on recovery).
    /// `slot` is where the game's text is in `out`, when it is there.
    pub fn record(
        &mut self,
        game: &Game,
        out: Option<&Path>,
        saved: bool,
        slot: Option<&Slot>,
    ) -> io::Result<()> {
        let bytes = encode_record(&write_game_to_string(game), out, saved, slot);
        if let Err(e) = self.append(&bytes) {
            self.dirty = true;
            let _ = self.file.set_len(self.len);
            return Err(e);
        }
        self.last_record = self.len;
        self.len += bytes.len() as u64;
        if self.len > self.compact_at {
            // The record is safe already; a failed compaction only leaves a big file.
            let _ = self.compact();
        }
        Ok(())
    }

    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        #[cfg(test)]
        if tests::FAIL_WRITES.with(|f| f.get()) {
            return Err(io::Error::new(
                io::ErrorKind::StorageFull,
                "no space left on device",
            ));
        }
        if self.dirty {
            self.file.set_len(self.len)?;
            self.dirty = false;
        }
        self.file.seek(SeekFrom::Start(self.len))?;
        self.file.write_all(bytes)?;
        self.file.sync_data()
    }

    /// Rewrites the file with only its header and last record.
    fn compact(&mut self) -> io::Result<()> {
        let mut last = vec![0; (self.len - self.last_record) as usize];
        self.file.seek(SeekFrom::Start(self.last_record))?;
        io::Read::read_exact(&mut self.file, &mut last)?;
        let mut tmp = tempfile::Builder::new()
            .suffix(".compact")
            .tempfile_in(&self.dir)?;
        tmp.write_all(&self.header)?;
        tmp.write_all(&last)?;
        tmp.as_file().sync_all()?;
        // The handle persist gives back is the new file itself: keep writing there.
        let file = tmp.persist(&self.path).map_err(|e| e.error)?;
        self.file = file;
        self.last_record = self.header.len() as u64;
        self.len = self.last_record + last.len() as u64;
        sync_dir(&self.dir)
    }

    /// Deletes the journal: the game is saved, or explicitly thrown away.
    pub fn finish(self) -> io::Result<()> {
        let Journal {
            path, dir, file, ..
        } = self;
        drop(file);
        std::fs::remove_file(&path)?;
        sync_dir(&dir)
    }
}

/// Creates `dir` if missing, with an error that names it and says what is wrong
/// (a file in its place, no permission) instead of the bare system message.
fn make_dir(dir: &Path) -> io::Result<()> {
    if let Ok(meta) = std::fs::metadata(dir) {
        if !meta.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!(
                    "{} is a file, not a directory (move it away, or set {} to another directory)",
                    dir.display(),
                    super::DATA_DIR_ENV
                ),
            ));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        let why = match e.kind() {
            io::ErrorKind::PermissionDenied => "permission denied".to_string(),
            io::ErrorKind::NotADirectory => "a part of the path is a file".to_string(),
            _ => e.to_string(),
        };
        io::Error::new(
            e.kind(),
            format!("cannot create the directory {}: {why}", dir.display()),
        )
    })
}

/// A fresh journal name in `dir` (`STAMP-PID.journal`, `-N` added on a clash),
/// given to `make` until it does not fail with "already exists".
fn new_name<T>(
    dir: &Path,
    mut make: impl FnMut(&Path) -> io::Result<T>,
) -> io::Result<(PathBuf, T)> {
    let (y, mo, d, h, mi, s, ms) = utc_fields(std::time::SystemTime::now());
    let pid = std::process::id();
    let stem = format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}-{ms:03}-{pid}");
    let mut n = 0u32;
    loop {
        let name = if n == 0 {
            format!("{stem}.{EXTENSION}")
        } else {
            format!("{stem}-{n}.{EXTENSION}")
        };
        let path = dir.join(name);
        match make(&path) {
            Ok(made) => return Ok((path, made)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("cannot write in {}: permission denied", dir.display()),
                ))
            }
            Err(e) => return Err(e),
        }
    }
}

fn open_new(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create_new(true);
    // Games in progress are nobody else's business.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// The process id in a journal's file name, if the name is one of ours.
pub(crate) fn pid_of(path: &Path) -> Option<u32> {
    let name = path.file_name()?.to_str()?;
    let stem = name.strip_suffix(&format!(".{EXTENSION}"))?;
    stem.split('-').nth(3)?.parse().ok()
}

/// One record, ready to append.
pub(crate) fn encode_record(
    pgn: &str,
    out: Option<&Path>,
    saved: bool,
    slot: Option<&Slot>,
) -> Vec<u8> {
    let mut line = format!("record {} {} ", pgn.len(), u8::from(saved)).into_bytes();
    encode_out(out, &mut line);
    match slot {
        Some(s) => {
            line.extend_from_slice(format!(" {}:{}:{:016x} ", s.offset, s.len, s.digest).as_bytes())
        }
        None => line.extend_from_slice(b" - "),
    }
    let mut hash = fnv1a(&line);
    hash = fnv1a_continue(hash, pgn.as_bytes());
    line.extend_from_slice(format!("{hash:016x}\n").as_bytes());
    line.extend_from_slice(pgn.as_bytes());
    line
}

fn encode_out(out: Option<&Path>, to: &mut Vec<u8>) {
    let Some(path) = out else {
        to.push(b'-');
        return;
    };
    for (i, b) in path_bytes(path).iter().enumerate() {
        let plain = b.is_ascii_graphic() && *b != b'%' && !(i == 0 && *b == b'-');
        if plain {
            to.push(*b);
        } else {
            to.extend_from_slice(format!("%{b:02X}").as_bytes());
        }
    }
}

fn decode_out(field: &[u8]) -> Option<Option<PathBuf>> {
    if field == b"-" {
        return Some(None);
    }
    let mut bytes = Vec::with_capacity(field.len());
    let mut i = 0;
    while i < field.len() {
        if field[i] == b'%' {
            let hex = std::str::from_utf8(field.get(i + 1..i + 3)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            bytes.push(field[i]);
            i += 1;
        }
    }
    Some(Some(path_from_bytes(bytes)))
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Vec<u8> {
    std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()).to_vec()
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Vec<u8> {
    path.to_string_lossy().into_owned().into_bytes()
}

#[cfg(unix)]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(<std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

/// The last complete record of a journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Record {
    /// The game, as PGN.
    pub pgn: String,
    /// The file it is to be saved to.
    pub out: Option<PathBuf>,
    /// It had been saved there.
    pub saved: bool,
    /// Where its text is in `out`, when it is there.
    pub slot: Option<Slot>,
}

/// What a journal holds: its last complete record (none in a journal that never got
/// one), and whether a torn record followed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Contents {
    pub last: Option<Record>,
    pub records: usize,
    pub torn: bool,
    /// The length of the first line.
    pub header_len: usize,
    /// The length of the header and every complete record.
    pub good_len: usize,
    /// Where the last complete record starts (the header's end when none).
    pub last_at: usize,
}

/// Reads a journal's bytes. An error means the file is not a journal (or not one
/// this version can read).
pub(crate) fn parse(bytes: &[u8]) -> Result<Contents, String> {
    let mut contents = Contents {
        last: None,
        records: 0,
        torn: false,
        header_len: 0,
        good_len: 0,
        last_at: 0,
    };
    let Some(nl) = memchr::memchr(b'\n', bytes) else {
        // A crash before the first line reached the disk.
        if MAGIC.as_bytes().starts_with(bytes) || bytes.starts_with(MAGIC.as_bytes()) {
            return Ok(contents);
        }
        return Err("not a scoresheet journal (bad first line)".into());
    };
    let first = &bytes[..nl];
    let known = [MAGIC, MAGIC_V1]
        .iter()
        .any(|m| first.starts_with(m.as_bytes()) && first.get(m.len()) == Some(&b' '));
    if !known {
        return Err(format!(
            "not a scoresheet journal, or one of a newer version (first line: {:?})",
            String::from_utf8_lossy(&first[..first.len().min(60)])
        ));
    }
    let mut at = nl + 1;
    contents.header_len = at;
    contents.last_at = at;
    while at < bytes.len() {
        match parse_record(&bytes[at..]) {
            Some((record, used)) => {
                contents.last = Some(record);
                contents.records += 1;
                contents.last_at = at;
                at += used;
            }
            None => {
                contents.torn = true;
                break;
            }
        }
    }
    contents.good_len = at;
    Ok(contents)
}

/// One complete record at the start of `bytes`, and its length; `None` when it is
/// torn or damaged.
fn parse_record(bytes: &[u8]) -> Option<(Record, usize)> {
    let nl = memchr::memchr(b'\n', bytes)?;
    let line = &bytes[..nl];
    let mut fields = line.split(|b| *b == b' ');
    if fields.next()? != b"record" {
        return None;
    }
    let len: usize = std::str::from_utf8(fields.next()?).ok()?.parse().ok()?;
    let saved = match fields.next()? {
        b"0" => false,
        b"1" => true,
        _ => return None,
    };
    let out = decode_out(fields.next()?)?;
    let mut hash_field = fields.next()?;
    let mut slot = None;
    if let Some(last) = fields.next() {
        // Version 2: the slot comes before the hash.
        slot = decode_slot(hash_field)?;
        hash_field = last;
    }
    if fields.next().is_some() || hash_field.len() != 16 {
        return None;
    }
    let hash = u64::from_str_radix(std::str::from_utf8(hash_field).ok()?, 16).ok()?;
    let body = bytes.get(nl + 1..(nl + 1).checked_add(len)?)?;
    let covered = &line[..line.len() - 16];
    if fnv1a_continue(fnv1a(covered), body) != hash {
        return None;
    }
    let pgn = String::from_utf8(body.to_vec()).ok()?;
    Some((
        Record {
            pgn,
            out,
            saved,
            slot,
        },
        nl + 1 + len,
    ))
}

/// A record's `SLOT` field: `-`, or `OFFSET:LEN:DIGEST`. `None` when malformed.
fn decode_slot(field: &[u8]) -> Option<Option<Slot>> {
    if field == b"-" {
        return Some(None);
    }
    let text = std::str::from_utf8(field).ok()?;
    let mut parts = text.split(':');
    let offset = parts.next()?.parse().ok()?;
    let len = parts.next()?.parse().ok()?;
    let digest = parts.next()?;
    if digest.len() != 16 || parts.next().is_some() {
        return None;
    }
    let digest = u64::from_str_radix(digest, 16).ok()?;
    Some(Some(Slot {
        offset,
        len,
        digest,
    }))
}

#[cfg(test)]
#[path = "journal_tests.rs"]
pub(crate) mod tests;
