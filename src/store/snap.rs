//! `:snap`: positions put aside while reading or recording, one per line, in a `.fen`
//! file beside the game's PGN file.
//!
//! # The line
//!
//! ```text
//! r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3 ; game 12, ply 5
//! ```
//!
//! The full six-field FEN, then ` ; ` and where it comes from: the game's number in its
//! file and the ply (half-moves from the game's start; in a variation, along that
//! variation). Readers that take the six fields and stop — Stockfish's `position fen`,
//! the `chess` crate, most engines — read the line as it is; so does this program's
//! own FEN reader ([`crate::position::Position::from_fen`]), for which a `;` starts a
//! comment as in PGN. Strict readers refuse anything after the sixth field
//! (python-chess's `chess.Board(fen)` says "fen string has more parts than expected",
//! and no trailing form, EPD's `c0` opcode included, gets past it): for them the FEN
//! is the text before the `;`, `line.split(';')[0]`. A separate comment line would
//! not help, since a reader taking the file line by line trips over it as well.
//!
//! # Writing
//!
//! The line is appended with one `write` on a file opened for appending (`O_APPEND`),
//! so lines written by two programs at once do not interleave, then synced. The lines
//! already there are never rewritten: if the write fails (a full disk), what it left
//! at the end is cut off again, and a file whose last line has no line break gets one
//! first, so the new line never joins the user's last line.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The file positions go to when the game has no file: `positions.fen`, in the
/// directory scoresheet was started from.
pub const DEFAULT_FILE: &str = "positions.fen";

/// Why a position was not put aside.
#[derive(Debug, thiserror::Error)]
#[error("cannot add the position to {}: {source}", path.display())]
pub struct SnapError {
    /// The `.fen` file.
    pub path: PathBuf,
    /// What went wrong.
    #[source]
    pub source: std::io::Error,
}

/// The `.fen` file for a game's PGN file: `NAME.fen` beside `NAME.pgn` (a compressed
/// `NAME.pgn.gz`, `.bz2`, `.xz` or `.zst` gives `NAME.fen` too), or [`DEFAULT_FILE`]
/// for a game without a file.
pub fn path_for(pgn: Option<&Path>) -> PathBuf {
    let Some(pgn) = pgn else {
        return PathBuf::from(DEFAULT_FILE);
    };
    let mut path = pgn.to_path_buf();
    let ext = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
    };
    if matches!(ext(&path).as_deref(), Some("gz" | "bz2" | "xz" | "zst")) {
        path.set_extension("");
    }
    if ext(&path).as_deref() == Some("pgn") {
        path.set_extension("");
    }
    // `set_extension` would cut a name such as `club.2024` at its dot.
    let mut name = path.into_os_string();
    name.push(".fen");
    PathBuf::from(name)
}

/// The line for a position: its FEN, then where it comes from (see the module's doc).
pub fn line(fen: &str, game: usize, ply: usize) -> String {
    format!("{fen} ; game {game}, ply {ply}\n")
}

/// Where a line says its position comes from: (game, ply); `None` for a line that
/// carries no such note (a bare FEN).
pub fn origin(line: &str) -> Option<(usize, usize)> {
    let (_, note) = line.split_once(';')?;
    let rest = note.trim().strip_prefix("game ")?;
    let (game, ply) = rest.split_once(", ply ")?;
    Some((game.parse().ok()?, ply.trim_end().parse().ok()?))
}

/// Appends the position `fen` (game number `game`, after `ply` half-moves) to the `.fen`
/// file of the PGN file `pgn_path` (see [`path_for`]); returns the file's path.
pub fn append(
    pgn_path: Option<&Path>,
    fen: &str,
    game: usize,
    ply: usize,
) -> Result<PathBuf, SnapError> {
    let path = path_for(pgn_path);
    append_line(&path, &line(fen, game, ply)).map_err(|source| SnapError {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// Appends `text` (whole lines) to the file at `path` in one write, creating it.
fn append_line(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)?;
    let len = file.metadata()?.len();
    let mut bytes = Vec::with_capacity(text.len() + 1);
    if len > 0 && file.metadata()?.is_file() {
        let mut last = [0u8];
        file.seek(SeekFrom::Start(len - 1))?;
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            bytes.push(b'\n');
        }
    }
    bytes.extend_from_slice(text.as_bytes());
    let written = file.write_all(&bytes).and_then(|()| file.sync_data());
    if written.is_err() && file.metadata().is_ok_and(|m| m.is_file() && m.len() > len) {
        // Cut off the part of the line that made it, so the file ends as it did.
        let _ = file.set_len(len);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

    #[test]
    fn the_file_is_beside_the_pgn_with_its_stem() {
        let cases = [
            ("games/club.pgn", "games/club.fen"),
            ("games/club.PGN", "games/club.fen"),
            ("lichess_2016-05.pgn.zst", "lichess_2016-05.fen"),
            ("db.pgn.gz", "db.fen"),
            ("club.2024.pgn", "club.2024.fen"),
            ("notes.txt", "notes.txt.fen"),
            ("noext", "noext.fen"),
        ];
        for (pgn, fen) in cases {
            assert_eq!(path_for(Some(Path::new(pgn))), PathBuf::from(fen), "{pgn}");
        }
        assert_eq!(path_for(None), PathBuf::from("positions.fen"));
    }

    #[test]
    fn the_line_is_read_back_by_the_fen_reader_and_says_where_it_comes_from() {
        let text = line(AFTER_E4, 3, 1);
        assert_eq!(text, format!("{AFTER_E4} ; game 3, ply 1\n"));
        let pos = Position::from_fen(text.trim_end()).expect("our reader takes the line");
        assert_eq!(pos.fen(), AFTER_E4);
        assert_eq!(origin(&text), Some((3, 1)));
        assert_eq!(origin(AFTER_E4), None);
        // For strict readers, the FEN is what comes before the `;`.
        assert_eq!(text.split(';').next().unwrap().trim(), AFTER_E4);
    }

    #[test]
    fn positions_are_appended_one_per_line() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("club.pgn");
        let first = append(Some(&pgn), Position::start().fen().as_str(), 1, 0).unwrap();
        assert_eq!(first, dir.path().join("club.fen"));
        append(Some(&pgn), AFTER_E4, 2, 1).unwrap();
        let text = std::fs::read_to_string(&first).unwrap();
        assert_eq!(
            text,
            format!(
                "{} ; game 1, ply 0\n{AFTER_E4} ; game 2, ply 1\n",
                Position::start().fen()
            )
        );
    }

    #[test]
    fn a_last_line_without_a_line_break_is_not_joined() {
        let dir = tempfile::tempdir().unwrap();
        let fen = dir.path().join("club.fen");
        std::fs::write(&fen, "8/8/8/8/8/8/8/K6k w - - 0 1 my own note").unwrap();
        append(Some(&dir.path().join("club.pgn")), AFTER_E4, 1, 1).unwrap();
        assert_eq!(
            std::fs::read_to_string(&fen).unwrap(),
            format!("8/8/8/8/8/8/8/K6k w - - 0 1 my own note\n{AFTER_E4} ; game 1, ply 1\n")
        );
    }

    #[test]
    fn a_failed_write_is_reported_with_the_file() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the file should be: nothing can be appended.
        std::fs::create_dir(dir.path().join("club.fen")).unwrap();
        let err = append(Some(&dir.path().join("club.pgn")), AFTER_E4, 1, 1).unwrap_err();
        assert_eq!(err.path, dir.path().join("club.fen"));
        let shown = err.to_string();
        assert!(shown.starts_with("cannot add the position to "), "{shown}");
        assert!(shown.contains("club.fen"), "{shown}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_is_an_error_not_a_silent_loss() {
        // /dev/full takes no byte: every write fails with "no space left".
        let err = append_line(Path::new("/dev/full"), "x\n").unwrap_err();
        assert_eq!(err.raw_os_error(), Some(28), "{err}");
    }
}
