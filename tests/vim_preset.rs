//! The vim preset as a user meets it: the real binary in a pseudo-terminal, with
//! `[keys] preset = "vim"` in its configuration file.

mod pty;

use pty::{games_in, keys, sans, Term};

#[test]
fn vim_preset_records_in_insert_mode_navigates_in_normal_mode_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.toml"), "[keys]\npreset = \"vim\"\n").unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "game.pgn"], 80, 24);
    // The game screen starts in normal mode, which says so.
    term.wait_for(" NORMAL ");
    // A letter types nothing there: it says how to type.
    term.send("e");
    term.wait_for("\"e\" is not a key in normal mode: i types a move");
    // i: insert mode; the moves typed one after another, Enter staying there.
    term.send("i");
    term.wait_for(" INSERT ");
    term.line("e4", "1... ▏");
    term.line("e5", "2. ▏");
    term.line("Nf3", "2... ▏");
    term.wait_for(" INSERT ");
    // A lone Escape: normal mode again.
    term.escape(" INSERT ");
    term.wait_for(" NORMAL  2... ");
    // h back twice: the prompt follows the cursor; l forward once.
    term.send("hh");
    term.wait_for(" NORMAL  1... ");
    term.send("l");
    term.wait_for(" NORMAL  2. ");
    // D deletes from here (2.Nf3), u brings it back.
    term.send("G");
    term.wait_for(" NORMAL  2... ");
    term.send("D");
    term.wait_for("u to undo");
    term.send("u");
    term.wait_for("2. Nf3");
    // : opens the command line; after :w, normal mode again.
    term.send(":w");
    term.wait_for(" COMMAND ");
    term.send(keys::ENTER);
    term.wait_for("saved to");
    term.wait_for(" NORMAL ");
    term.send(":q");
    term.send(keys::ENTER);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen(), "the terminal was not restored");
    let games = games_in(&dir.path().join("game.pgn"));
    assert_eq!(games.len(), 1);
    assert_eq!(sans(&games[0]), ["e4", "e5", "Nf3"]);
}
