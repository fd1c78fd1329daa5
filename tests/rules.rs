//! The rules a club scoresheet knows, seen through the real binary: the date
//! it writes is the local date where the game is played.

mod pty;

use pty::Term;
use scoresheet::pgn::builder::read_games;

/// A POSIX `TZ` (no time zone database needed) whose date differs from UTC's
/// right now, and that date as PGN writes it.
fn zone_off_utc_date() -> (&'static str, jiff::tz::TimeZone) {
    let hour = jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .hour();
    // Before noon UTC it is still yesterday twelve hours west; after noon it
    // is already tomorrow thirteen hours east.
    if hour < 12 {
        ("XYZ+12", jiff::tz::TimeZone::posix("XYZ+12").unwrap())
    } else {
        ("XYZ-13", jiff::tz::TimeZone::posix("XYZ-13").unwrap())
    }
}

fn date_in(tz: &jiff::tz::TimeZone) -> String {
    jiff::Timestamp::now()
        .to_zoned_datetime(tz.clone())
        .strftime("%Y.%m.%d")
        .to_string()
}

#[test]
fn the_date_tag_is_the_local_date_not_utc() {
    let dir = tempfile::tempdir().unwrap();
    let (tz_text, tz) = zone_off_utc_date();
    let before = date_in(&tz);
    let utc = date_in(&jiff::tz::TimeZone::UTC);
    assert_ne!(before, utc, "the chosen zone must date today differently");
    let mut term = Term::spawn_with(
        dir.path(),
        &["new", "--out", "game.pgn"],
        100,
        30,
        &[("TZ", tz_text)],
    );
    term.wait_for("White to move");
    term.line("e4", "1... ▏");
    term.line(":w", "saved");
    term.line(":q", "");
    term.wait_exit();
    let after = date_in(&tz);
    let bytes = std::fs::read(dir.path().join("game.pgn")).unwrap();
    let games = read_games(&bytes);
    assert_eq!(games.len(), 1);
    let date = games[0].game.tag("Date").unwrap().to_string();
    // The date may turn over while the test runs: either side of it is right.
    assert!(
        date == before || date == after,
        "Date {date}, local date {before} (UTC {utc})"
    );
}

#[test]
fn out_with_a_tilde_writes_in_the_home_directory() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    // No shell between: the program sees the ~ itself, as with --out=~/g.pgn.
    let mut term = Term::spawn_with(
        dir.path(),
        &["new", "--out", "~/g.pgn"],
        100,
        30,
        &[("HOME", home.to_str().unwrap())],
    );
    term.wait_for("White to move");
    term.line("e4", "1... ▏");
    term.line(":w", "saved");
    term.line(":q", "");
    term.wait_exit();
    let bytes = std::fs::read(home.join("g.pgn")).expect("the game is in HOME");
    assert_eq!(read_games(&bytes).len(), 1);
    assert!(!dir.path().join("~").exists());
}
