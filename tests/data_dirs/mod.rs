//! Where the suite's data lives. `tests/data/` is part of the repository, so every
//! clone has it: the fixtures, and `tests/data/quirks/` (awkward PGN of our own, one line
//! each in its `INDEX.txt`). `../shared/data/` (37,000 real games and the upstream awkward
//! files) exists only beside our own checkouts and in CI; the larger checks over it are
//! extras that say so on the terminal when they are skipped.

#![allow(dead_code)] // each test file uses some of these

use std::io::Write;
use std::path::{Path, PathBuf};

/// A file of the suite's own fixtures, `tests/data/<name>`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The awkward files of our own, `tests/data/quirks/`.
pub fn quirks_dir() -> PathBuf {
    fixture("quirks")
}

/// One awkward file of our own, `tests/data/quirks/<name>`.
pub fn quirk(name: &str) -> PathBuf {
    quirks_dir().join(name)
}

/// `../shared/data/<sub>` when it is there. When it is not, `check` is skipped: a line
/// on standard error says so, written past the test harness's capture so that
/// `cargo test` shows it. Under CI (`CI` set in the environment) the data must be
/// there, and a missing directory fails the test instead.
pub fn shared_data(sub: &str, check: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!(
            "{} is missing, and CI must run {check} over it",
            dir.display()
        );
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {check}: {} is not here (it exists beside our own checkouts and in CI)",
        dir.display()
    );
    None
}
