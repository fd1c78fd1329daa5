//! Finding what a crash left behind: journals whose last record was never saved and
//! whose recording process is gone.
//!
//! A journal whose last record is saved (or that never got a record) is deleted
//! silently: nothing would be lost. A journal that cannot be read is reported
//! ([`Broken`]) and left in place, never deleted without being asked.

use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::journal::{self, EXTENSION};
use crate::game::Game;
use crate::pgn::read_games;

/// An unsaved game kept by the journal of a recording that did not end cleanly.
#[derive(Debug, Clone)]
pub struct Recoverable {
    /// The journal file.
    pub path: PathBuf,
    /// The game as it was at the last confirmed move.
    pub game: Game,
    /// The file the game was to be saved to.
    pub out: Option<PathBuf>,
    /// When the journal was last written.
    pub modified: SystemTime,
    /// Moves (half-moves) in the game's main line.
    pub plies: usize,
    /// Where the game's text is in `out`, when it had been saved there before.
    pub slot: Option<crate::store::Slot>,
}

/// A journal that could not be read, with why; left in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken {
    /// The journal file.
    pub path: PathBuf,
    /// Why it could not be read.
    pub reason: String,
}

/// Everything a journal directory holds for recovery.
#[derive(Debug, Clone, Default)]
pub struct Scan {
    /// Unsaved games, oldest journal first.
    pub games: Vec<Recoverable>,
    /// Journals that could not be read.
    pub broken: Vec<Broken>,
    /// Journals that hold nothing unsaved (the last record was saved, or none was
    /// written): left in place by the scan, for [`Scan::tidy`].
    pub done: Vec<PathBuf>,
}

impl Scan {
    /// Deletes the journals that hold nothing unsaved, as the recorder does when it
    /// starts (printing the unsaved games deletes nothing). A journal that cannot be
    /// deleted stays: it is scanned again next time.
    pub fn tidy(&mut self) {
        for path in self.done.drain(..) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Where `out` holds `game` already, when the save that put it there came just before the
/// crash (after the journal's last record, before the record saying it was saved): in
/// place of the game at `slot` (whose bytes are no longer there), or last in the file for a
/// game that had no place yet. Its place, and its number in the file. `None` when the file
/// holds it nowhere there, or cannot be read: the game is then unsaved, as the journal
/// says. The file is read as a stream (a database of a gigabyte is not held in memory), up
/// to the slot or to its end; only the game found is read whole.
pub fn saved_there(
    out: &Path,
    slot: Option<&crate::store::Slot>,
    game: &Game,
) -> Option<(crate::store::Slot, u64)> {
    if slot.is_some_and(|slot| crate::store::save::still_there(out, slot)) {
        return None;
    }
    let (text, _) = super::packed::open_text(out).ok()?;
    let mut indexer = crate::pgn::index::Indexer::new(text);
    let (mut number, mut found) = (0, None);
    while let Ok(Some(entry)) = indexer.next_game() {
        number += 1;
        let Some(e) = entry else { continue };
        match slot {
            Some(slot) if e.offset < slot.offset => {}
            Some(slot) => {
                found = (e.offset == slot.offset).then_some((number, e.offset, e.len));
                break;
            }
            None => found = Some((number, e.offset, e.len)),
        }
    }
    let (number, offset, len) = found?;
    let (there, place) =
        super::load::load_range(out, usize::try_from(number).ok()?, offset, len).ok()?;
    let written = crate::pgn::write_game_to_string;
    (written(&there) == written(game)).then_some((place, number))
}

/// Looks through the journals in `dir` (none if it does not exist): unsaved games of
/// recordings whose process is gone, oldest first, and unreadable journals. Stale
/// journals with nothing unsaved are deleted on the way.
pub fn scan(dir: &Path) -> io::Result<Scan> {
    scan_with(dir, &is_running)
}

/// The unsaved games of [`scan`], oldest first (unreadable journals left out: use
/// [`scan`] to report them).
pub fn recoverable(dir: &Path) -> io::Result<Vec<Recoverable>> {
    Ok(scan(dir)?.games)
}

/// Deletes the journal of one recovered (or unwanted) game.
pub fn discard(game: &Recoverable) -> io::Result<()> {
    std::fs::remove_file(&game.path)?;
    if let Some(dir) = game.path.parent() {
        super::sync_dir(dir)?;
    }
    Ok(())
}

/// Deletes the journals of every recoverable game in `dir`; returns how many.
/// Unreadable journals stay.
pub fn discard_all(dir: &Path) -> io::Result<usize> {
    let games = recoverable(dir)?;
    for g in &games {
        discard(g)?;
    }
    Ok(games.len())
}

/// [`scan`] with a chosen test for "the process with this id is still recording".
pub(crate) fn scan_with(dir: &Path, running: &dyn Fn(u32) -> bool) -> io::Result<Scan> {
    let mut paths = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Scan::default()),
        Err(e) if dir.is_file() || e.kind() == io::ErrorKind::NotADirectory => {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is a file, not a directory", dir.display()),
            ))
        }
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            return Err(io::Error::new(
                e.kind(),
                format!("{}: permission denied", dir.display()),
            ))
        }
        Err(e) => return Err(e),
    };
    let mut scan = Scan::default();
    for entry in entries {
        let entry = entry?;
        let path = entry.path();
        if path.extension().is_none_or(|e| e != EXTENSION) {
            continue;
        }
        // Not followed: a link could point anywhere, and its target is not ours
        // to print or delete.
        match entry.file_type() {
            Ok(t) if t.is_file() => paths.push(path),
            Ok(t) if t.is_symlink() => scan.broken.push(Broken {
                path,
                reason: "it is a symbolic link, not a journal scoresheet wrote (not followed)"
                    .into(),
            }),
            _ => {}
        }
    }
    // Names start with the creation time.
    paths.sort();
    for path in paths {
        if journal::pid_of(&path).is_some_and(running) {
            continue;
        }
        match examine(&path) {
            Ok(Some(game)) => scan.games.push(game),
            Ok(None) => scan.done.push(path),
            Err(reason) => scan.broken.push(Broken { path, reason }),
        }
    }
    Ok(scan)
}

/// The unsaved game of the journal at `path` (whoever wrote it), `None` when it
/// has nothing unsaved; an error says why it cannot be read.
pub fn read_journal(path: &Path) -> Result<Option<Recoverable>, String> {
    examine(path)
}

/// A stale journal's unsaved game, `None` when it has nothing unsaved.
fn examine(path: &Path) -> Result<Option<Recoverable>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read it: {e}"))?;
    let modified = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH);
    let contents = journal::parse(&bytes)?;
    let Some(last) = contents.last else {
        if contents.torn {
            return Err(
                "it holds no complete record (damaged, or a crash during the first move)".into(),
            );
        }
        return Ok(None);
    };
    if last.saved {
        return Ok(None);
    }
    let Some(read) = read_games(last.pgn.as_bytes()).into_iter().next() else {
        return Err("its last record holds no game".into());
    };
    if let Some(e) = read.errors.first() {
        return Err(format!(
            "the game in its last record cannot be read back: line {} column {}: \"{}\": {}",
            e.pos.line, e.pos.column, e.token, e.reason
        ));
    }
    let plies = read.game.mainline().len();
    Ok(Some(Recoverable {
        path: path.to_path_buf(),
        game: read.game,
        out: last.out,
        modified,
        plies,
        slot: last.slot,
    }))
}

/// Whether the process that wrote a journal is still running (and so still owns
/// it). This process always is. On Linux, `/proc/PID` must exist and run a program
/// of the same name as this one, so that a process id reused after a reboot does
/// not hide a journal; when that cannot be told, the answer is yes (the journal
/// stays for a later run). Elsewhere, other processes are taken as gone.
pub fn is_running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(target_os = "linux")]
    {
        let proc_dir = Path::new("/proc").join(pid.to_string());
        if !proc_dir.exists() {
            return false;
        }
        // A process that has exited but not been reaped yet (a zombie, whose
        // parent went first) is gone for our purpose. The state follows the
        // name in parentheses in /proc/PID/stat.
        if let Ok(stat) = std::fs::read_to_string(proc_dir.join("stat")) {
            let state = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.trim_start().chars().next());
            if matches!(state, Some('Z' | 'X')) {
                return false;
            }
        }
        match (
            std::fs::read(proc_dir.join("comm")),
            std::fs::read("/proc/self/comm"),
        ) {
            (Ok(theirs), Ok(ours)) => theirs == ours,
            _ => true,
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

#[cfg(test)]
#[path = "recover_tests.rs"]
mod tests;
