//! Keeping games safe on disk: the crash-safe `journal` of the game being recorded,
//! `recover`ing what a crash left behind, and [`save`]: writing one game into a PGN
//! file atomically without touching the file's other games.
//!
//! Nothing here knows about the terminal; paths are the only thing it adds to the
//! `&str`/`&[u8]` world of [`crate::pgn`].

pub mod save;

use std::path::PathBuf;

pub use save::{
    append_game, load_game, replace_game, write_atomically, LoadError, SaveError, Slot,
};

/// The environment variable that overrides [`data_dir`] (used by tests).
pub const DATA_DIR_ENV: &str = "SCORESHEET_DATA_DIR";

/// Where scoresheet keeps its data: `$SCORESHEET_DATA_DIR` when set (and not empty),
/// else the platform data directory (`~/.local/share/scoresheet` on Linux), else
/// `./.scoresheet` when the platform gives none (no home directory).
pub fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    directories::ProjectDirs::from("", "", "scoresheet")
        .map(|p| p.data_dir().to_path_buf())
        .unwrap_or_else(|| PathBuf::from(".scoresheet"))
}

/// Where journals live: `<data_dir>/journal`.
pub fn journal_dir() -> PathBuf {
    data_dir().join("journal")
}

/// FNV-1a, 64 bits: a stable hash (the same in every build and version, unlike
/// `std`'s hasher) for checking that bytes are still what they were. Not for
/// adversarial input.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_continue(0xcbf2_9ce4_8422_2325, bytes)
}

/// [`fnv1a`] of the bytes hashed into `h` followed by `bytes`.
pub(crate) fn fnv1a_continue(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Flushes a directory's entries (a new, renamed or deleted file) to disk. Only
/// Unix can open a directory for this; elsewhere it does nothing.
pub(crate) fn sync_dir(dir: &std::path::Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_stable() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
