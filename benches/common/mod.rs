//! What the benchmarks share: the real games of `../shared/data/games`, decompressed.

use std::path::Path;
use std::process::Command;

/// The corpus as one PGN text: `SCORESHEET_GAMES` names a file, else every
/// `../shared/data/games/*.pgn.xz` is decompressed with `xz -dc`.
pub fn corpus() -> Vec<u8> {
    if let Ok(path) = std::env::var("SCORESHEET_GAMES") {
        return std::fs::read(path).expect("SCORESHEET_GAMES file");
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/games");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("../shared/data/games")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "xz"))
        .collect();
    files.sort();
    Command::new("xz")
        .arg("-dc")
        .args(&files)
        .output()
        .expect("xz")
        .stdout
}
