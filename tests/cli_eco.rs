//! `convert --eco` through the real binary, on a file of our own (`tests/data/eco_games.pgn`):
//! which tags are filled, kept or replaced, transpositions, and the games left alone.

use assert_cmd::Command;

mod data_dirs;

/// Runs `convert` on the fixture with `extra` arguments; returns (stdout, stderr, code).
fn convert(extra: &[&str]) -> (String, String, i32) {
    let file = data_dirs::fixture("eco_games.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .arg("convert")
        .args(extra)
        .arg(&file)
        .output()
        .expect("run scoresheet");
    (
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
        out.status.code().unwrap_or(-1),
    )
}

/// The games of a PGN text, each as its text (a `%` note stays with the game after it).
fn games(pgn: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for block in pgn.split("\n\n").filter(|b| !b.trim().is_empty()) {
        match out.last_mut() {
            Some(game) if !block.starts_with(['[', '%']) => {
                game.push_str("\n\n");
                game.push_str(block);
            }
            _ => out.push(block.to_string()),
        }
    }
    out
}

/// A tag's value in one game's text.
fn tag<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("[{name} \"");
    let line = game.lines().find(|l| l.starts_with(&start))?;
    line.strip_prefix(&start)?.strip_suffix("\"]")
}

#[test]
fn eco_fills_missing_tags_and_keeps_the_games_own() {
    let (out, err, code) = convert(&["--eco"]);
    // The illegal game is reported and copied through: exit code 1.
    assert_eq!(code, 1, "{err}");
    let games = games(&out);
    assert_eq!(games.len(), 6, "{out}");
    assert_eq!(tag(&games[0], "ECO"), Some("C67"), "{}", games[0]);
    assert_eq!(
        tag(&games[0], "Opening"),
        Some("Ruy Lopez: Berlin Defense, l'Hermet Variation")
    );
    // Tags the game has are kept.
    assert_eq!(tag(&games[1], "ECO"), Some("C60"));
    assert_eq!(tag(&games[1], "Opening"), Some("Spanish"));
    // A transposition gets the name of the position, not of the move order.
    let direct = (tag(&games[2], "ECO"), tag(&games[2], "Opening"));
    assert!(direct.0.is_some() && direct.1.is_some(), "{}", games[2]);
    assert_eq!((tag(&games[3], "ECO"), tag(&games[3], "Opening")), direct);
    // A set-up position has no opening; a game copied as written is not touched.
    assert_eq!(tag(&games[4], "ECO"), None);
    assert_eq!(tag(&games[4], "Opening"), None);
    assert!(games[5].contains("copied as written"), "{}", games[5]);
    assert_eq!(tag(&games[5], "ECO"), None);
    assert_eq!(tag(&games[5], "Opening"), None);
    // And a word on what it did: both tags in the first, third and fourth games (the
    // second has its own, the fifth no opening, the sixth was copied as written).
    assert!(
        err.contains("--eco set ECO in 3 and Opening in 3 of 6 games"),
        "{err}"
    );
}

#[test]
fn eco_overwrite_replaces_the_games_tags() {
    let (out, _, code) = convert(&["--eco=overwrite"]);
    assert_eq!(code, 1);
    let games = games(&out);
    assert_eq!(tag(&games[1], "ECO"), Some("C65"), "{}", games[1]);
    assert_eq!(tag(&games[1], "Opening"), Some("Ruy Lopez: Berlin Defense"));
    // The tag keeps its place among the others.
    let eco_line = games[1]
        .lines()
        .position(|l| l.starts_with("[ECO "))
        .unwrap();
    let opening_line = games[1]
        .lines()
        .position(|l| l.starts_with("[Opening "))
        .unwrap();
    assert_eq!(opening_line, eco_line + 1);
}

#[test]
fn without_eco_no_tag_is_added() {
    let (out, _, _) = convert(&[]);
    let games = games(&out);
    assert_eq!(tag(&games[0], "ECO"), None);
    assert_eq!(tag(&games[3], "Opening"), None);
}

#[test]
fn eco_takes_its_value_only_after_an_equals_sign() {
    // `--eco FILE` is the flag and a file, not a value.
    let (out, _, code) = convert(&["--eco", "-"]);
    // Standard input is empty here: the fixture is still read and converted.
    assert_eq!(code, 1);
    assert_eq!(tag(&games(&out)[0], "ECO"), Some("C67"));
    let (_, err, code) = convert(&["--eco=sometimes"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("sometimes") && err.contains("overwrite"),
        "{err}"
    );
}
