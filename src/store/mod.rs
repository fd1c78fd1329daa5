//! Keeping games safe on disk: the crash-safe [`journal`] of the game being recorded,
//! [`recover`]ing what a crash left behind, [`open`]ing a path (one game, many, or a
//! new file), [`load`]ing one game of a file (by the byte range its index gave), and
//! [`save`]: writing one game into a PGN file atomically without touching the file's
//! other games, into a [`target`] that is checked (kind, permissions) and locked
//! first. Compressed files ([`packed`]) are read through their decoder, with an
//! [`unpacked`] copy of their text in the cache directory for fast loading.
//!
//! Nothing here knows about the terminal; paths are the only thing it adds to the
//! `&str`/`&[u8]` world of [`crate::pgn`].

pub mod decompress;
pub mod journal;
pub mod load;
pub mod open;
pub mod packed;
pub mod recover;
pub mod save;
mod splice;
pub mod target;
pub mod unpacked;

use std::path::PathBuf;

pub use decompress::Compression;
pub use journal::Journal;
pub use load::{
    load_game, load_game_for_repair, load_range, load_range_for_repair, LoadError, Loaded, Unread,
};
pub use open::{probe, Opened};
pub use recover::{discard, discard_all, recoverable, scan, Broken, Recoverable, Scan};
pub use save::{
    append_game, replace_game, save_game, write_atomically, write_atomically_with, write_file,
    Change, SaveError, Slot,
};
pub use target::same_file;
pub use unpacked::Unpacked;

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

/// A time as `YYYY-MM-DD HH:MM:SS` UTC fields, without a date library:
/// (year, month, day, hour, minute, second, millisecond).
pub(crate) fn utc_fields(t: std::time::SystemTime) -> (i64, u32, u32, u32, u32, u32, u32) {
    let d = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (rem / 3600) as u32,
        (rem % 3600 / 60) as u32,
        (rem % 60) as u32,
        d.subsec_millis(),
    )
}

/// A time for messages: `2026-11-21 15:30:00 UTC`.
pub fn format_time(t: std::time::SystemTime) -> String {
    let (y, mo, d, h, mi, s, _) = utc_fields(t);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02} UTC")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn utc_dates() {
        assert_eq!(format_time(UNIX_EPOCH), "1970-01-01 00:00:00 UTC");
        let t = UNIX_EPOCH + Duration::from_millis(1_795_275_000_123);
        assert_eq!(format_time(t), "2026-11-21 15:30:00 UTC");
        assert_eq!(utc_fields(t).6, 123);
        // A leap day.
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(format_time(t), "2000-02-29 00:00:00 UTC");
    }

    #[test]
    fn fnv_is_stable() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
