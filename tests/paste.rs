//! Input that must never stall, through the real binary in a pseudo-terminal:
//! a burst longer than one read, bracketed pastes of moves and of a PGN, and a
//! paste whose end mark never comes; and ^H, which erases.

mod pty;

use pty::{games_in, keys, sans, Term};

const PASTE_START: &str = "\x1b[200~";
const PASTE_END: &str = "\x1b[201~";

/// Ends the recorder with `:q!` and checks the terminal was given back.
fn quit(term: &mut Term) {
    term.send(":q!");
    term.send(keys::ENTER);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen(), "the terminal was not restored");
    assert!(!term.bracketed_paste(), "bracketed paste was left on");
}

#[test]
fn a_3000_byte_line_and_its_enter_are_read_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "g.pgn"], 80, 24);
    term.wait_for("White to move");
    // Knights out and back, 188 rounds: 3,008 bytes, 752 half-moves, then
    // Enter, in one write as a terminal without bracketed paste sends a paste.
    let line = "Nf3 Nf6 Ng1 Ng8 ".repeat(188);
    assert!(line.len() > 3000);
    term.send(&format!("{line}\r"));
    // After 752 half-moves, White's 377th move is next.
    term.wait_for("377. ▏");
    term.line(":w", "saved to");
    let games = games_in(&dir.path().join("g.pgn"));
    assert_eq!(games[0].mainline().len(), 752);
    quit(&mut term);
}

#[test]
fn a_bracketed_paste_of_moves_is_played_like_a_typed_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "g.pgn"], 80, 24);
    term.wait_for("White to move");
    assert!(term.bracketed_paste(), "bracketed paste is not on");
    // Line breaks inside a paste are not Enter: the lines are one entry.
    term.send(&format!(
        "{PASTE_START}1. e4 e5\r2. Nf3 Nc6\r3. Bb5{PASTE_END}"
    ));
    term.wait_for("3... ▏");
    term.line(":w", "saved to");
    let games = games_in(&dir.path().join("g.pgn"));
    assert_eq!(sans(&games[0]), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    quit(&mut term);
}

#[test]
fn a_bracketed_paste_of_a_pgn_opens_it_as_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "g.pgn"], 100, 30);
    term.wait_for("White to move");
    let pgn = "[Event \"Club\"]\r[White \"Ann Pasted\"]\r[Black \"Bob\"]\r[Result \"1-0\"]\r\r\
               1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\r";
    term.send(&format!("{PASTE_START}{pgn}{PASTE_END}"));
    term.wait_for("7 half-moves");
    term.wait_for("Qxf7#");
    // A second pasted game would replace moves not saved yet: refused.
    term.send(&format!("{PASTE_START}1. d4 d5 *{PASTE_END}"));
    term.wait_for("unsaved moves");
    term.line(":w", "saved to");
    let games = games_in(&dir.path().join("g.pgn"));
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("White"), Some("Ann Pasted"));
    assert_eq!(sans(&games[0]).last().map(String::as_str), Some("Qxf7#"));
    quit(&mut term);
}

#[test]
fn a_paste_whose_end_never_comes_does_not_stop_the_keys() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new"], 80, 24);
    term.wait_for("White to move");
    term.send(&format!("{PASTE_START}e4"));
    // After a second without input the paste is closed, and not played.
    term.wait_for("cut off");
    assert!(term.text().contains("1. ▏"), "{}", term.text());
    term.send(":q!");
    term.send(keys::ENTER);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen(), "the terminal was not restored");
}

#[test]
fn ctrl_h_erases_like_backspace() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new"], 80, 24);
    term.wait_for("White to move");
    // ^H is what Ctrl-H sends, and what many terminals send for Backspace.
    term.send("e5\x08");
    term.wait_for("1. e▏");
    term.send("4");
    term.wait_for("Enter plays e4");
    term.send(keys::CTRL_U);
    term.wait_for("1. ▏");
    quit(&mut term);
}

#[test]
fn sigterm_turns_bracketed_paste_off_with_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new"], 80, 24);
    term.wait_for("White to move");
    assert!(term.bracketed_paste(), "bracketed paste is not on");
    term.signal("TERM");
    term.wait_exit();
    assert!(!term.on_alternate_screen(), "the terminal was not restored");
    assert!(!term.bracketed_paste(), "bracketed paste was left on");
}

/// Pastes of 100 KB: a PGN whose comment is most of it opens as the game, and a text
/// pasted into the comment box joins the comment there; saved, both are whole.
#[test]
fn pastes_of_a_hundred_kilobytes_are_kept_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "g.pgn"], 100, 30);
    term.wait_for("White to move");
    let long = "lorem ipsum ".repeat(8_500);
    let pgn = format!(
        "[White \"Paste\"]\n\n1. e4 e5 {{{}}} 2. Nf3 *\n",
        long.trim()
    );
    assert!(pgn.len() > 100_000);
    term.send(&format!("{PASTE_START}{pgn}{PASTE_END}"));
    term.wait_for("pasted game");
    // The comment box on 1...e5 (Ctrl-K after the move), and 100 KB more pasted there.
    term.send(keys::LEFT);
    term.wait_for("2. ▏");
    term.send(keys::CTRL_K);
    term.wait_for("Enter done");
    let more = "dolor sit ".repeat(10_000);
    term.send(&format!("{PASTE_START} {}{PASTE_END}", more.trim()));
    // Enter once the paste is in, as a person presses it: a key sent with a paste, in the
    // same read as its end, is pasted text (so that a paste never runs a command).
    term.wait_for("dolor sit");
    term.send(keys::ENTER);
    term.wait_for("comment after 1...e5");
    term.line(":w", "saved to");
    let games = games_in(&dir.path().join("g.pgn"));
    let e5 = games[0].mainline()[1];
    let comment = games[0].comment_text(e5);
    assert_eq!(comment, format!("{} {}", long.trim(), more.trim()));
    assert_eq!(sans(&games[0]), ["e4", "e5", "Nf3"]);
    quit(&mut term);
}

/// A pasted text that holds an end mark of its own, then a command (what a terminal that
/// passes ESC through sends, as tmux's `paste-buffer -p` does): the command after the mark
/// is pasted text too, never run. The recorder is still there with its move.
#[test]
fn a_paste_with_an_end_mark_inside_never_runs_the_command_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "g.pgn"], 80, 24);
    term.wait_for("White to move");
    term.line("d4", "1... ▏");
    term.send(&format!("{PASTE_START}e6{PASTE_END}:q!\r"));
    // Pasted onto the entry line, `e6:q!`, and left there: nothing is played or run.
    term.wait_for("1... e6:q!▏");
    term.send("\x15"); // Ctrl-U empties the line.
    term.wait_for("1... ▏");
    term.line(":w", "saved to");
    let games = games_in(&dir.path().join("g.pgn"));
    assert_eq!(sans(&games[0]), ["d4"]);
    quit(&mut term);
}
