//! All the real games of `../shared/data/games/*.pgn.xz` (37,086 games): every one reads
//! without error, and read → write → read gives the identical game (tags, start position,
//! every node of the tree), with a stable written form.
//!
//! The files are decompressed in memory with `xz -dc`. The directory exists beside our own
//! checkouts and in CI only: elsewhere the tests say on the terminal that they were skipped.

mod common;
mod data_dirs;
use common::same_game;

use std::path::PathBuf;
use std::process::Command;

use scoresheet::pgn::{index, read_games, write_game, GameBuilder, Reader};

/// Games in the corpus, as its SOURCE.md counts them.
const CORPUS_GAMES: usize = 37_086;

/// The decompressed files, by name; `None` when the directory is not beside the
/// checkout (the skip is said on the terminal; under CI it fails instead).
fn corpus() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = data_dirs::shared_data("games", "the round trip of the 37,086 real games")?;
    let entries = std::fs::read_dir(&dir).expect("readable directory");
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".pgn.xz"))
        .collect();
    paths.sort();
    let mut files = Vec::new();
    for path in paths {
        let out = Command::new("xz")
            .arg("-dc")
            .arg(&path)
            .output()
            .expect("xz runs (it comes with the data: install it beside the data)");
        assert!(
            out.status.success(),
            "xz -dc {} failed: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        files.push((name, out.stdout));
    }
    Some(files)
}

/// Round-trips one file; returns the number of games.
fn round_trip_file(name: &str, data: &[u8]) -> usize {
    let games = read_games(data);
    let bad: Vec<String> = games
        .iter()
        .filter(|g| !g.errors.is_empty() || !g.complete)
        .take(5)
        .map(|g| format!("game {}: {:?}", g.number, g.errors))
        .collect();
    assert!(
        bad.is_empty(),
        "{name}: games with errors:\n{}",
        bad.join("\n")
    );
    assert_eq!(
        index(data).len(),
        games.len(),
        "{name}: index and reader disagree"
    );
    // Write every game, read the whole text back, compare game by game.
    let mut text = String::new();
    for g in &games {
        write_game(&g.game, &mut text);
    }
    let again = read_games(text.as_bytes());
    assert_eq!(again.len(), games.len(), "{name}: games after a round trip");
    let mut rewritten = String::new();
    for (g, r) in games.iter().zip(&again) {
        assert!(
            r.errors.is_empty() && r.complete,
            "{name} game {}: the written game does not read cleanly: {:?}",
            g.number,
            r.errors
        );
        if let Err(e) = same_game(&g.game, &r.game) {
            let mut one = String::new();
            write_game(&g.game, &mut one);
            panic!(
                "{name} game {}: not the same after a round trip: {e}\n{one}",
                g.number
            );
        }
        write_game(&r.game, &mut rewritten);
    }
    assert!(
        rewritten == text,
        "{name}: writing the re-read games gives other text"
    );
    games.len()
}

#[test]
fn every_real_game_round_trips() {
    let Some(files) = corpus() else { return };
    // Two threads: the files are independent.
    let half = files.len() / 2;
    let (left, right) = files.split_at(half);
    let total: usize = std::thread::scope(|s| {
        let a = s.spawn(|| {
            left.iter()
                .map(|(n, d)| round_trip_file(n, d))
                .sum::<usize>()
        });
        let b: usize = right.iter().map(|(n, d)| round_trip_file(n, d)).sum();
        a.join().expect("round-trip thread") + b
    });
    assert_eq!(total, CORPUS_GAMES);
}

/// What `check` does (validate only, streaming): every real game is clean.
#[test]
fn check_finds_every_real_game_clean() {
    let Some(files) = corpus() else { return };
    let mut total = 0;
    for (name, data) in &files {
        let mut reader = Reader::new(data.as_slice());
        let mut builder = GameBuilder::new(false);
        while let Some(g) = reader.read_game(&mut builder).expect("reading memory") {
            total += 1;
            assert!(
                g.errors.is_empty() && g.complete,
                "{name} game {}: {:?}",
                g.number,
                g.errors
            );
        }
    }
    assert_eq!(total, CORPUS_GAMES);
}
