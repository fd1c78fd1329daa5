//! A game given on the command line opens as one opened from the list does (one function
//! opens every game): a finished game at its start, to be read, a typed move starting a
//! variation; an unfinished one (`*`) at its last move, to go on recording.

mod pty;

use pty::{keys, Term};

const FINISHED: &str = "[Event \"Club\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
                        1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n";
const UNFINISHED: &str = "[Event \"Club\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n\
                          1. d4 d5 2. c4 e6 *\n";

#[test]
fn a_file_of_one_game_opens_at_its_start_when_finished_and_at_its_end_when_not() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("won.pgn"), FINISHED).unwrap();
    std::fs::write(dir.path().join("adjourned.pgn"), UNFINISHED).unwrap();

    let mut term = Term::spawn(dir.path(), &["won.pgn"], 100, 30);
    term.wait_for("read from the start");
    // The entry line waits for White's first move, and a move typed is a variation
    // (waited for on its own: the message can be on the screen before the entry line
    // of the same frame is).
    let screen = term.wait_for("[variation]");
    assert!(screen.contains("1. ▏"), "{screen}");
    term.send(keys::RIGHT);
    term.line("c5", "new variation 1...c5");
    term.line(":q!", "");
    assert_eq!(term.wait_exit(), 0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("won.pgn")).unwrap(),
        FINISHED,
        "the file is as it was"
    );

    let mut term = Term::spawn(dir.path(), &["adjourned.pgn"], 100, 30);
    term.wait_for("to go on recording");
    // After 2...e6: White's third move is next, typed as on the scoresheet.
    let screen = term.wait_for("3. ▏");
    assert!(!screen.contains("[variation]"), "{screen}");
    term.line("Nc3", "3... ▏");
    term.line(":q!", "");
    assert_eq!(term.wait_exit(), 0);
}

/// `:e FILE N` opens game N alone; Ctrl-L then lists the file's games (as `:e FILE`
/// does), and Ctrl-L again goes back to the same game, its file untouched.
#[test]
fn ctrl_l_lists_the_file_of_a_game_opened_alone() {
    let dir = tempfile::tempdir().unwrap();
    let three = format!("{FINISHED}\n{UNFINISHED}\n{FINISHED}");
    std::fs::write(dir.path().join("three.pgn"), &three).unwrap();
    let mut term = Term::spawn(dir.path(), &[], 100, 30);
    term.wait_for("1. ▏");
    term.line(":e three.pgn 2", "game 2 of three.pgn");
    term.send(keys::CTRL_L);
    let screen = term.wait_for("3 games");
    assert!(
        screen.contains("d4 d5") || screen.contains("Ann"),
        "{screen}"
    );
    term.send(keys::CTRL_L);
    // The same game, now game 2 of the list's three.
    let screen = term.wait_for("game 2 of 3 in three.pgn");
    assert!(
        screen.contains("2. c4") && screen.contains("e6"),
        "{screen}"
    );
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("three.pgn")).unwrap(),
        three
    );
}
