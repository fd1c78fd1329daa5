//! Undo on the real binary in a pseudo-terminal: what Delete removed comes back
//! with Ctrl-Z and is saved.

mod pty;

use pty::{keys, Term};
use scoresheet::pgn::builder::read_games;

const CTRL_Y: &str = "\x19";

#[test]
fn delete_then_ctrl_z_then_save_keeps_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "game.pgn"], 80, 24);
    term.wait_for("White to move");
    let moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"];
    // The entry line's prompt after each move: Black's after White's move and so on.
    let prompts = ["1... ▏", "2. ▏", "2... ▏", "3. ▏", "3... ▏", "4. ▏"];
    for (mv, prompt) in moves.iter().zip(prompts) {
        term.line(mv, prompt);
    }
    term.send(keys::HOME);
    term.send(&keys::RIGHT.repeat(3));
    term.wait_for("2... ▏");
    term.send(keys::DELETE);
    term.wait_for("deleted 2.Nf3 and 3 moves after it: Ctrl-Z to undo");
    term.send(keys::CTRL_Z);
    term.wait_for("undid: deleted 2.Nf3 and 3 moves after it");
    // Redo and undo once more: the game is whole at the end.
    term.send(CTRL_Y);
    term.wait_for("redid: deleted 2.Nf3");
    term.send(keys::CTRL_Z);
    term.wait_for("undid: deleted 2.Nf3");
    term.line(":w", "saved to");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);

    let bytes = std::fs::read(dir.path().join("game.pgn")).unwrap();
    let games = read_games(&bytes);
    assert_eq!(games.len(), 1);
    let game = &games[0].game;
    let sans: Vec<&str> = game
        .mainline()
        .iter()
        .map(|&id| game.node(id).san.as_str())
        .collect();
    assert_eq!(sans, moves);
}

#[test]
fn an_undo_is_in_the_journal_before_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new"], 80, 24);
    term.wait_for("White to move");
    term.line("e4 e5 Nf3 Nc6", "3. ▏");
    term.send(keys::HOME);
    term.send(keys::RIGHT);
    term.wait_for("1... ▏");
    term.send(keys::DELETE);
    term.wait_for("deleted 1.e4 and 3 moves after it");
    term.send(keys::CTRL_Z);
    term.wait_for("undid: deleted 1.e4");
    term.signal("KILL");
    term.wait_exit();

    let mut recover = assert_cmd::Command::cargo_bin("scoresheet").unwrap();
    for (name, value) in pty::env_for(dir.path()) {
        recover.env(name, value);
    }
    let out = recover.arg("recover").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let games = read_games(&out.stdout);
    assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(&out.stdout));
    let game = &games[0].game;
    assert_eq!(game.mainline().len(), 4);
}
