//! Crash, restart and recover in the real binary, in a pseudo-terminal: the box of
//! unsaved games, the signals that end the recorder from outside.

mod pty;

use std::path::Path;

use pty::{keys, unsaved, Term};
use scoresheet::game::annotation::{Annotation, ClockTime};
use scoresheet::pgn::builder::read_games;

/// Records `moves` (one per line) and kills the recorder as a crash would.
fn crash_with(dir: &Path, moves: &[&str]) {
    let mut term = Term::spawn(dir, &["new"], 100, 30);
    term.wait_for("White to move");
    // Close the box of earlier unsaved games, if any, without touching them.
    if term.text().contains("Unsaved games found") {
        term.escape("Unsaved games found");
    }
    record(&mut term, moves);
    term.signal("KILL");
    term.wait_exit();
}

/// Types `moves` from the start, one per line, each confirmed on the screen.
fn record(term: &mut Term, moves: &[&str]) {
    for (ply, m) in moves.iter().enumerate() {
        let next = if ply % 2 == 0 {
            format!("{}... ▏", ply / 2 + 1)
        } else {
            format!("{}. ▏", ply / 2 + 2)
        };
        term.line(m, &next);
    }
}

#[test]
fn a_move_typed_at_the_recovery_box_starts_the_new_game() {
    let dir = tempfile::tempdir().unwrap();
    crash_with(dir.path(), &["e4", "e5"]);
    let mut term = Term::spawn(dir.path(), &[], 100, 30);
    term.wait_for("Unsaved games found");
    // The user types the first move at once: `d` neither discards nor recovers.
    term.line("d4", "1... ▏");
    let screen = term.wait_for("1. d4");
    assert!(!screen.contains("Unsaved games found"), "{screen}");
    term.line(":q!", "");
    term.wait_exit();
    assert_eq!(unsaved(dir.path()), [vec!["e4", "e5"]]);
}

#[test]
fn two_games_recovered_one_after_the_other_are_both_kept() {
    let dir = tempfile::tempdir().unwrap();
    crash_with(dir.path(), &["e4", "e5"]);
    crash_with(dir.path(), &["d4"]);
    let mut term = Term::spawn(dir.path(), &[], 100, 30);
    term.wait_for("Unsaved games found");
    term.send(keys::ENTER);
    term.wait_for("recovered 1 move: :w FILE.pgn to save the game");
    term.line(":recover", "Unsaved games found");
    term.send(keys::ENTER);
    term.wait_for("recovered 1 move:");
    term.signal("KILL");
    term.wait_exit();
    assert_eq!(unsaved(dir.path()), [vec!["d4"], vec!["e4", "e5"]]);
}

#[test]
fn discarding_asks_once_more() {
    let dir = tempfile::tempdir().unwrap();
    crash_with(dir.path(), &["c4"]);
    crash_with(dir.path(), &["Nf3"]);
    let mut term = Term::spawn(dir.path(), &[], 100, 30);
    term.wait_for("Unsaved games found");
    term.send(keys::DOWN);
    term.send(keys::DELETE);
    term.wait_for("discard game 2 for good");
    term.send(keys::DELETE);
    term.wait_for("discarded");
    // The other game is still offered.
    term.wait_for("Unsaved games found");
    term.escape("Unsaved games found");
    term.line(":q", "");
    term.wait_exit();
    assert_eq!(unsaved(dir.path()), [vec!["c4"]]);
}

#[test]
fn sigint_and_sigquit_from_outside_restore_the_terminal() {
    for (signal, code) in [("INT", 2), ("QUIT", 3)] {
        let dir = tempfile::tempdir().unwrap();
        let mut term = Term::spawn(dir.path(), &[], 80, 24);
        term.wait_for("White to move");
        term.line("e4", "1... ▏");
        assert!(term.on_alternate_screen());
        term.signal(signal);
        assert_eq!(term.wait_exit(), 128 + code, "SIG{signal}");
        assert!(!term.on_alternate_screen(), "SIG{signal} left the screen");
        assert_eq!(unsaved(dir.path()), [vec!["e4"]], "SIG{signal}");
    }
}

#[test]
fn saved_extended_crashed_recovered_and_saved_again_is_in_the_file_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.pgn"), "[White \"Other\"]\n\n1. c4 *\n").unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "f.pgn"], 100, 30);
    term.wait_for("White to move");
    term.line("e4", "1... ▏");
    term.line(":w", "saved to");
    term.line("e5", "2. ▏");
    term.signal("KILL");
    term.wait_exit();

    let mut term = Term::spawn(dir.path(), &[], 100, 30);
    term.wait_for("Unsaved games found");
    term.send(keys::ENTER);
    term.wait_for("recovered 1 move:");
    // Another spelling of the same file.
    term.line(":w ./f.pgn", "saved to");
    term.line(":q", "");
    term.wait_exit();
    let games: Vec<Vec<String>> = read_games(&std::fs::read(dir.path().join("f.pgn")).unwrap())
        .iter()
        .map(|g| {
            g.game
                .mainline()
                .iter()
                .map(|&id| g.game.node(id).san.clone())
                .collect()
        })
        .collect();
    assert_eq!(games, [vec!["c4"], vec!["e4", "e5"]]);
}

/// Moves waiting after a correction when the recorder is killed: recovered, they still
/// wait, and the right move brings them back with the clock written beside them.
#[test]
fn moves_waiting_after_a_correction_still_wait_after_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new"], 100, 30);
    term.wait_for("White to move");
    let written = [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O", "Be7", "d3", "d6", "c3", "O-O", "Bb3", "a6",
    ];
    record(&mut term, &written);
    term.line("+1:23:00", "clock 1:23:00");
    // Back to 2...Nc6: 3.Bc4 was wrong, it was 3.Bb5; 7.Bb3 then no longer fits.
    for _ in 0..10 {
        term.send(keys::LEFT);
    }
    term.wait_for("3. ▏");
    term.line("Bb5", "waiting:");
    term.signal("KILL");
    term.wait_exit();

    let mut term = Term::spawn(dir.path(), &[], 100, 30);
    term.wait_for("Unsaved games found");
    term.send(keys::ENTER);
    term.wait_for("waiting: 7.Bb3 a6 (type the right move)");
    term.line("Ba4", "corrected");
    term.line(":w game.pgn", "saved to");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
    let games = pty::games_in(&dir.path().join("game.pgn"));
    let game = &games[0];
    let mut played = written.to_vec();
    played[4] = "Bb5";
    played[12] = "Ba4";
    assert_eq!(pty::sans(game), played);
    let a6 = *game.mainline().last().unwrap();
    assert_eq!(
        game.node(a6).annotations(),
        [Annotation::Clock(ClockTime::from_secs(3600 + 23 * 60))]
    );
}
