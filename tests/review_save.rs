//! A game of a many-game file, edited in the real binary: killed before it was saved,
//! recovered, and saved back into its place, the file's other games untouched.

mod pty;

use pty::{keys, main_lines, Term};

const FIVE: &str = "\
[Event \"G1\"]\r\n[White \"Anand\"]\r\n\r\n1. e4 e5 {open} 2. Nf3 *\r\n\r\n\
[Event \"G2\"]\r\n\r\n1. d4 d5 (1... Nf6) *\r\n\r\n\
[Event \"G3\"]\r\n[White \"Kasparov\"]\r\n\r\n1. c4 e5 *\r\n\r\n\
[Event \"G4\"]\r\n\r\n1. Nf3 *\r\n\r\n\
[Event \"G5\"]\r\n\r\n1. f4 d5 1-0";

/// Open game 3 of a 5-game file, add a move, kill the program; another program then
/// edits game 1 (so game 3 moves in the file). The recovered game saved with `:w`
/// replaces game 3 where it is now; every other byte of the file is as it was.
#[test]
fn an_edited_game_killed_recovered_and_saved_goes_back_into_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("five.pgn");
    std::fs::write(&file, FIVE).unwrap();

    let mut term = Term::spawn(dir.path(), &["new"], 100, 30);
    term.wait_for("White to move");
    term.line(":e five.pgn 3", "game 3 of five.pgn");
    term.line("Nc3", "2... ▏");
    term.signal("KILL");
    term.wait_exit();

    // Game 1 edited by another program: game 3 is further on now.
    let edited = FIVE.replace("{open}", "{the open game, edited elsewhere}");
    std::fs::write(&file, &edited).unwrap();

    let mut term = Term::spawn(dir.path(), &[], 100, 30);
    term.wait_for("Unsaved games found");
    term.send(keys::ENTER);
    term.wait_for("recovered 2 moves:");
    term.line(":w", "saved to");
    term.line(":q", "");
    term.wait_exit();

    let after = std::fs::read(&file).unwrap();
    let g3 = edited.find("[Event \"G3\"]").unwrap();
    let g4 = edited.find("\r\n\r\n[Event \"G4\"]").unwrap();
    let tail = &edited.as_bytes()[g4..];
    assert_eq!(after[..g3], edited.as_bytes()[..g3], "games 1 and 2");
    assert!(after.ends_with(tail), "games 4 and 5");
    let lines = main_lines(&after);
    assert_eq!(lines.len(), 5, "{}", String::from_utf8_lossy(&after));
    assert_eq!(lines[2], ["c4", "e5", "Nc3"]);
    let game3 = String::from_utf8_lossy(&after[g3..after.len() - tail.len()]).into_owned();
    assert!(
        game3.contains("Kasparov") && game3.contains("\r\n"),
        "{game3}"
    );
}
