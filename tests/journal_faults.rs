//! The journal directory failing under a recording, in the real binary: recording goes on,
//! the screen says nothing is journaled, `:w` still saves, and once the directory can be
//! written again the next change journals the whole game and says so.
//!
//! The fault is a regular file standing where the journal directory should be: no journal
//! can be made there, whoever runs the test (permission bits do not stop root).

mod pty;

use std::path::Path;

use pty::{main_lines, unsaved, Term};

/// The prompt of the entry line before ply `ply` (0-based).
fn prompt(ply: usize) -> String {
    if ply.is_multiple_of(2) {
        format!("{}. ▏", ply / 2 + 1)
    } else {
        format!("{}... ▏", ply / 2 + 1)
    }
}

const WARNING: &str = "nothing is journaled";
const AGAIN: &str = "journaled again";

/// Makes the journal directory of the runs in `dir` impossible to write: a file takes
/// its place (what was in it is gone, as on a disk that was unplugged).
fn break_journal_dir(dir: &Path) {
    let journals = dir.join("data").join("journal");
    if journals.is_dir() {
        std::fs::remove_dir_all(&journals).expect("the journal directory goes");
    }
    std::fs::create_dir_all(dir.join("data")).expect("the data directory");
    std::fs::write(&journals, "not a directory").expect("a file in its place");
}

/// Gives the journal directory back.
fn mend_journal_dir(dir: &Path) {
    std::fs::remove_file(dir.join("data").join("journal")).expect("the file goes");
}

/// Plays `mv` as ply `ply` and checks the warning is (or is not) on the screen after it.
fn play(term: &mut Term, mv: &str, ply: usize, warned: bool) {
    term.line(mv, &prompt(ply + 1));
    let screen = term.text();
    assert_eq!(
        screen.contains(WARNING),
        warned,
        "after {mv}: the warning should {}be shown:\n{screen}",
        if warned { "" } else { "not " }
    );
}

#[test]
fn a_journal_directory_lost_while_recording_warns_and_journals_again_when_it_is_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "game.pgn"], 120, 30);
    term.wait_for("White to move");
    play(&mut term, "e4", 0, false);

    break_journal_dir(dir.path());
    // Recording goes on, and every change says that it is not journaled.
    play(&mut term, "e5", 1, true);
    play(&mut term, "Nf3", 2, true);
    term.line(":w", "saved to");
    assert_eq!(
        main_lines(&std::fs::read(dir.path().join("game.pgn")).unwrap()),
        [vec!["e4", "e5", "Nf3"]],
        ":w saves every move"
    );
    play(&mut term, "Nc6", 3, true);

    // Writable again: the next change journals the whole game, the moves made
    // meanwhile too, and the player is told.
    mend_journal_dir(dir.path());
    term.line("Bb5", &prompt(5));
    term.wait_for(AGAIN);
    play(&mut term, "a6", 5, false);

    term.signal("KILL");
    term.wait_exit();
    assert_eq!(
        unsaved(dir.path()),
        [vec!["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]],
        "the journal gives back every move, those made while it could not be written too"
    );
}

#[test]
fn a_journal_directory_unwritable_at_start_warns_and_journals_again_when_it_is_back() {
    let dir = tempfile::tempdir().unwrap();
    break_journal_dir(dir.path());
    let mut term = Term::spawn(dir.path(), &["new", "--out", "game.pgn"], 120, 30);
    term.wait_for("White to move");
    play(&mut term, "d4", 0, true);
    play(&mut term, "d5", 1, true);
    term.line(":w", "saved to");
    assert_eq!(
        main_lines(&std::fs::read(dir.path().join("game.pgn")).unwrap()),
        [vec!["d4", "d5"]],
        ":w saves every move"
    );
    play(&mut term, "c4", 2, true);

    mend_journal_dir(dir.path());
    term.line("e6", &prompt(4));
    term.wait_for(AGAIN);

    term.signal("KILL");
    term.wait_exit();
    assert_eq!(
        unsaved(dir.path()),
        [vec!["d4", "d5", "c4", "e6"]],
        "the journal gives back the game once it can be written"
    );
}
