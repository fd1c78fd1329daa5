//! Loading one game of a PGN file for editing, with the [`Slot`] that
//! [`replace_game`](super::replace_game) needs to put it back: by its number (the
//! whole file is read and indexed), or by the byte range the game list's index gave
//! ([`load_range`]: only that range is read, so the last game of a 1 GB file loads as
//! fast as the first). Compressed and UTF-16 files are read through their decoder
//! ([`super::packed`]), and offsets count bytes of the decoded text.
//!
//! A game with a move that cannot be played is not refused by the `_for_repair`
//! functions: they give the part read and the rest of the text as [`Unread`].

use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::decompress::UpToCut;
use super::fnv1a;
use super::packed::{self, Compression};
use super::save::{why, Slot};
use crate::game::Game;
use crate::pgn::builder::GameBuilder;
use crate::pgn::{index, SliceReader};

/// Why a game could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read (or is not a file: a directory, a pipe, a device).
    #[error("cannot read {}: {}", .path.display(), why(.source, .path))]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// The file is compressed and its text ends at a decoder's error (a download
    /// that did not finish, a damaged end) before any game: nothing to open.
    #[error(
        "cannot read {}: {source}: it ends early, before its first game (the file is cut \
         short or damaged)",
        .path.display()
    )]
    Cut {
        /// The file.
        path: PathBuf,
        /// The decoder's error.
        source: io::Error,
    },
    /// The file is compressed and cut short in its only game, which cannot be read
    /// as far as it goes (its text ends in a comment, say).
    #[error("{game}; the file ends early, cut short ({source})")]
    CutGame {
        /// Why the game cannot be read.
        game: Box<LoadError>,
        /// The decoder's error.
        source: io::Error,
    },
    /// There is no game with that number.
    #[error("{}: no game {number}: the file has {}", .path.display(), games(*.count))]
    NoSuchGame {
        /// The file.
        path: PathBuf,
        /// The number asked for (1-based).
        number: usize,
        /// How many games the file has.
        count: usize,
    },
    /// The game has a move that cannot be played (or cannot be read at all); loading
    /// it would lose what follows, so it is refused.
    #[error("{}: game {number}, line {line} column {column}: \"{token}\": {reason}", .path.display())]
    Game {
        /// The file.
        path: PathBuf,
        /// The game's number (1-based).
        number: usize,
        /// Line of the problem in the file (1-based).
        line: u64,
        /// Column of the problem (1-based).
        column: u32,
        /// The token as written.
        token: String,
        /// Why it was refused.
        reason: String,
    },
    /// The bytes where the list saw the game are no longer that game: the file was
    /// changed since it was listed.
    #[error(
        "{}: game {number} is no longer at bytes {offset}..{}: the file changed since it \
         was listed; read it again (:e! {})",
        .path.display(), .offset + .len, .path.display()
    )]
    Moved {
        /// The file.
        path: PathBuf,
        /// The game's number (1-based).
        number: usize,
        /// Where the list saw it.
        offset: u64,
        /// Its length there.
        len: u64,
    },
}

fn games(n: usize) -> String {
    match n {
        0 => "no games".into(),
        1 => "1 game".into(),
        n => format!("{n} games"),
    }
}

/// What [`load_game_for_repair`] could not read of a game: where reading stopped,
/// why, and the game's text from there on, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    /// Line of the first problem in the file (1-based).
    pub line: u64,
    /// Its column (1-based).
    pub column: u32,
    /// The token as written.
    pub token: String,
    /// Why it could not be read.
    pub reason: String,
    /// The text from the token to the game's end (its result left out), as written.
    pub rest: String,
    /// The main line was read to its end (the problem was in a variation).
    pub complete: bool,
}

/// A game loaded for editing: the game (the part read, when `unread` says some was
/// not), where it is in its file, and what could not be read.
pub type Loaded = (Game, Slot, Option<Unread>);

/// Reads game `number` (1-based) of the file at `path`, with its slot for
/// [`replace_game`](super::replace_game). A game with a move that cannot be played is
/// refused, with the position of the first problem.
pub fn load_game(path: &Path, number: usize) -> Result<(Game, Slot), LoadError> {
    refuse_unread(path, number, load_game_for_repair(path, number)?)
}

fn refuse_unread(path: &Path, number: usize, loaded: Loaded) -> Result<(Game, Slot), LoadError> {
    match loaded {
        (game, slot, None) => Ok((game, slot)),
        (_, _, Some(unread)) => Err(LoadError::Game {
            path: path.to_path_buf(),
            number,
            line: unread.line,
            column: unread.column,
            token: unread.token,
            reason: unread.reason,
        }),
    }
}

/// The number (from 1) of the game that starts at byte `offset` of the text of the file
/// at `path` (decoded when packed): one more than the games before it. A save that adds
/// a game to a file knows where it went, not its number, which a `:snap` names.
pub fn game_number_at(path: &Path, offset: u64) -> io::Result<u64> {
    if offset == 0 {
        return Ok(1);
    }
    let (text, _) = packed::open_text(path)?;
    let mut indexer = crate::pgn::index::Indexer::new(text.take(offset));
    let mut before = 0;
    // A game too large to index still counts (its entry is `None`).
    while indexer.next_game()?.is_some() {
        before += 1;
    }
    Ok(before + 1)
}

/// The whole text of the file at `path` (decoded when packed), and its packing. Only a
/// regular file is read: a pipe would block the opening (and the screen with it) until
/// something writes to it, and a device may never end.
pub(crate) fn read_text(path: &Path) -> io::Result<(Vec<u8>, Option<Compression>)> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(packed::not_a_file(&meta));
    }
    let bytes = std::fs::read(path)?;
    match Compression::of(&bytes) {
        Some(p) => Ok((p.decode(&bytes)?, Some(p))),
        None => Ok((bytes, None)),
    }
}

/// [`load_game`] for a game that has a move that cannot be played: instead of
/// refusing it, gives the part read (the moves up to the problem) and the rest
/// of its text, so that it can be repaired. A game that cannot be read at all (a
/// chess variant, a bad FEN) is still refused.
pub fn load_game_for_repair(path: &Path, number: usize) -> Result<Loaded, LoadError> {
    // The games before it are scanned for their boundaries only, as a stream: a game
    // near the start of a large file opens without reading the rest.
    let (text, _) = packed::open_text(path).map_err(|e| read_error(path, e))?;
    let mut indexer = crate::pgn::index::Indexer::new(text);
    let mut count = 0;
    while let Some(entry) = indexer.next_game().map_err(|e| read_error(path, e))? {
        count += 1;
        if count != number {
            continue;
        }
        return match entry {
            Some(entry) => load_range_for_repair(path, number, entry.offset, entry.len),
            None => Err(read_error(
                path,
                io::Error::other(format!(
                    "game {number} is larger than the 64 MiB a game may have"
                )),
            )),
        };
    }
    Err(LoadError::NoSuchGame {
        path: path.to_path_buf(),
        number,
        count,
    })
}

/// Reads game `number` of the file at `path` from the byte range the game list's
/// index gave it (`offset`, `len`: of the decoded text when the file is compressed),
/// reading only that range of a plain file. The range must still hold exactly one
/// game, else the file changed since it was listed ([`LoadError::Moved`]). A move
/// that cannot be played is refused, as by [`load_game`].
pub fn load_range(
    path: &Path,
    number: usize,
    offset: u64,
    len: u64,
) -> Result<(Game, Slot), LoadError> {
    refuse_unread(
        path,
        number,
        load_range_for_repair(path, number, offset, len)?,
    )
}

/// [`load_range`] giving a game that has a move that cannot be played for repair, as
/// [`load_game_for_repair`] does.
pub fn load_range_for_repair(
    path: &Path,
    number: usize,
    offset: u64,
    len: u64,
) -> Result<Loaded, LoadError> {
    let moved = || LoadError::Moved {
        path: path.to_path_buf(),
        number,
        offset,
        len,
    };
    let (text, packing) = packed::open_text(path).map_err(|e| read_error(path, e))?;
    if packing.is_none() {
        // A plain file: only the range is read.
        drop(text);
        return load_plain_range(path, path, number, offset, len);
    }
    // Decoded from the start, up to a cut (a file cut short): a game before the cut,
    // even just before it, is read whole; the lines before are counted on the way.
    let mut text = UpToCut::new(text);
    let cut = text.cut();
    // The range not there: the decoder's error, when the text ended at one.
    let missing = || cut.take().map_or_else(moved, |e| read_error(path, e));
    let size = usize::try_from(len).map_err(|_| moved())?;
    let mut bytes = Vec::with_capacity(size.min(1 << 26));
    let mut lines = 0;
    skip_counting_lines(&mut text, offset, &mut lines).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => missing(),
        _ => read_error(path, e),
    })?;
    text.take(len.saturating_add(LOOKAHEAD))
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(path, e))?;
    check_range(&bytes, size).ok_or_else(missing)?;
    build(path, number, offset, &bytes[..size], || lines)
}

/// [`load_range_for_repair`] reading the plain text at `text` (the file itself, or
/// an [unpacked](super::unpacked) copy of it); messages name `path`.
pub(crate) fn load_plain_range(
    text: &Path,
    path: &Path,
    number: usize,
    offset: u64,
    len: u64,
) -> Result<Loaded, LoadError> {
    let moved = || LoadError::Moved {
        path: path.to_path_buf(),
        number,
        offset,
        len,
    };
    let size = usize::try_from(len).map_err(|_| moved())?;
    let mut bytes = Vec::with_capacity(size.min(1 << 26));
    let mut file = std::fs::File::open(text).map_err(|e| read_error(path, e))?;
    file.seek(SeekFrom::Start(offset))
        .map_err(|e| read_error(path, e))?;
    file.take(len.saturating_add(LOOKAHEAD))
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(path, e))?;
    check_range(&bytes, size).ok_or_else(moved)?;
    build(path, number, offset, &bytes[..size], || {
        lines_before(text, offset).unwrap_or(0)
    })
}

/// Bytes read past a listed game's end, to check that it ends there.
const LOOKAHEAD: u64 = 1 << 16;

/// `Some` when `bytes`, read from where a game was listed (with up to [`LOOKAHEAD`]
/// bytes after it), begin with that whole game: the index sees one game start there
/// and end `len` bytes on, not sooner (a game cut short) nor later (a game grown).
fn check_range(bytes: &[u8], len: usize) -> Option<()> {
    if bytes.len() < len {
        return None;
    }
    match index(bytes).first() {
        Some(first) if first.offset == 0 && first.len as usize == len => Some(()),
        _ => None,
    }
}

/// Reads and drops `n` bytes of `src`, counting the line ends among them into `lines`.
fn skip_counting_lines(src: &mut dyn Read, n: u64, lines: &mut u64) -> io::Result<()> {
    let mut buf = vec![0; 1 << 16];
    let mut left = n;
    while left > 0 {
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let got = match src.read(&mut buf[..want]) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(k) => k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        *lines += memchr::memchr_iter(b'\n', &buf[..got]).count() as u64;
        left -= got as u64;
    }
    Ok(())
}

/// The number of line ends in the first `offset` bytes of the (plain) file at `path`:
/// only needed to say where a problem is, so read only then.
fn lines_before(path: &Path, offset: u64) -> io::Result<u64> {
    let mut lines = 0;
    let mut file = std::fs::File::open(path)?;
    skip_counting_lines(&mut file, offset, &mut lines)?;
    Ok(lines)
}

fn read_error(path: &Path, source: io::Error) -> LoadError {
    LoadError::Read {
        path: path.to_path_buf(),
        source,
    }
}

/// Builds game `number` from its text `bytes`, found at `offset` of the file after
/// `lines()` line ends (asked only when a position must be given).
fn build(
    path: &Path,
    number: usize,
    offset: u64,
    bytes: &[u8],
    lines: impl FnOnce() -> u64,
) -> Result<Loaded, LoadError> {
    let problem = |line, column, token: &str, reason: &str| LoadError::Game {
        path: path.to_path_buf(),
        number,
        line,
        column,
        token: token.to_string(),
        reason: reason.to_string(),
    };
    let Some(read) = SliceReader::new(bytes).read_game(&mut GameBuilder::new(true)) else {
        return Err(problem(0u64, 0u32, "", "the game could not be read"));
    };
    let slot = Slot {
        offset,
        len: bytes.len() as u64,
        digest: fnv1a(bytes),
    };
    let Some(e) = read.errors.first() else {
        return Ok((read.game, slot, None));
    };
    // Positions in the file: the game's text starts at a line start.
    let line = e.pos.line + lines();
    if read.refused {
        return Err(problem(line, e.pos.column, &e.token, &e.reason));
    }
    let from = usize::try_from(e.pos.offset)
        .unwrap_or(usize::MAX)
        .min(bytes.len());
    let text = crate::text::decode(&bytes[from..]);
    // As written, line breaks and all (a `;` comment ends at its line's end), without the
    // result ending it.
    let mut rest = text.trim();
    if let Some(result) = rest
        .split_whitespace()
        .next_back()
        .filter(|w| matches!(*w, "1-0" | "0-1" | "1/2-1/2" | "*"))
    {
        rest = rest[..rest.len() - result.len()].trim_end();
    }
    let unread = Unread {
        line,
        column: e.pos.column,
        token: e.token.clone(),
        reason: e.reason.clone(),
        rest: rest.to_string(),
        complete: read.complete,
    };
    Ok((read.game, slot, Some(unread)))
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
