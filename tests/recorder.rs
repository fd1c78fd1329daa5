//! The recorder as a user meets it: the real binary in a pseudo-terminal.

mod pty;

use pty::{batch as recover_cmd, games_in, keys, sans, Term};
use scoresheet::game::annotation::{Annotation, ClockTime};
use scoresheet::pgn::builder::read_games;

/// The prompt of the entry line before ply `ply` (0-based) of a game from the start.
fn prompt(ply: usize) -> String {
    let number = ply / 2 + 1;
    if ply.is_multiple_of(2) {
        format!("{number}. ▏")
    } else {
        format!("{number}... ▏")
    }
}

/// What the scorer wrote: 3.Bc4 where 3.Bb5 was played (legal, so nobody noticed
/// until move 15), in a mix of notations.
const TYPED: [&str; 30] = [
    "e4", "e7-e5", "♘f3", "Nc6", "f1c4", "g8f6", "0-0", "Be7", "d2-d3", "d6", "c3", "O-O", "h3",
    "h6", "Re1", "Re8", "Nbd2", "Bf8", "Bb3", "a6", "Nf1", "Be6", "Ng3", "Qd7", "Nh2", "Rad8",
    "Nf3", "Kh7", "Qe2", "Kg8",
];

/// The game as it was played.
const PLAYED: [&str; 30] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O", "Be7", "d3", "d6", "c3", "O-O", "h3", "h6",
    "Re1", "Re8", "Nbd2", "Bf8", "Ba4", "a6", "Nf1", "Be6", "Ng3", "Qd7", "Nh2", "Rad8", "Nf3",
    "Kh7", "Qe2", "Kg8",
];

#[test]
fn record_correct_twelve_moves_back_clock_draw_offer_save_and_reopen() {
    let dir = tempfile::tempdir().unwrap();
    // The file holds a game already, in its own style: it must stay byte for byte.
    let earlier = "[Event \"Club\"]\r\n[White \"Cy\"]\r\n[Black \"Di\"]\r\n\
        [Result \"1-0\"]\r\n\r\n1.f4 e5 {From's gambit} 1-0\r\n";
    std::fs::write(dir.path().join("game.pgn"), earlier).unwrap();
    let mut term = Term::spawn(
        dir.path(),
        &[
            "new", "--out", "game.pgn", "--white", "Ann", "--black", "Bob",
        ],
        100,
        30,
    );
    term.wait_for("White to move");
    // An illegal attempt first: refused with its reason, nothing played.
    term.send("Ke2");
    term.wait_for("Ke2: illegal: e2 holds a white piece");
    term.send(keys::ENTER);
    term.wait_for("Ke2: illegal: e2 holds a white piece");
    term.send(keys::CTRL_U);
    for (ply, text) in TYPED.iter().enumerate() {
        term.line(text, &prompt(ply + 1));
    }
    term.wait_for("15. Qe2");
    // Back to 2...Nc6 (26 half-moves back), type the move played.
    for _ in 0..26 {
        term.send(keys::LEFT);
    }
    term.wait_for(&prompt(4));
    // Replacing is what typing inside the game does by default.
    term.wait_for("[replace]");
    term.line("Bb5", "waiting:");
    // 10.Bb3 no longer fits; the bishop went to a4. The rest follows.
    term.line("Ba4", "corrected");
    term.send(keys::END);
    term.line("+1:23:45", "clock 1:23:45");
    term.line("(=)", "draw offered");
    // A save that cannot work says why and changes nothing.
    term.line(":w game.pgn/inner.pgn", "not saved");
    term.line(":q", "the game is not saved");
    term.line(":w", "saved to");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen(), "the terminal was not restored");

    let saved = std::fs::read(dir.path().join("game.pgn")).unwrap();
    assert!(saved.starts_with(earlier.as_bytes()));
    let games = games_in(&dir.path().join("game.pgn"));
    assert_eq!(games.len(), 2);
    let game = &games[1];
    assert_eq!(sans(game), PLAYED);
    assert_eq!(game.tag("White"), Some("Ann"));
    assert_eq!(game.tag("Black"), Some("Bob"));
    let last = *game.mainline().last().unwrap();
    assert!(game.node(last).draw_offer);
    assert_eq!(
        game.node(last).annotations(),
        vec![Annotation::Clock(ClockTime::from_secs(3600 + 23 * 60 + 45))]
    );
    // A saved and closed game leaves no journal behind.
    recover_cmd(dir.path())
        .arg("recover")
        .assert()
        .success()
        .stdout("");

    // Re-open it: the same moves are there, and saving again changes nothing.
    let before = std::fs::read(dir.path().join("game.pgn")).unwrap();
    let mut term = Term::spawn(dir.path(), &[], 100, 30);
    term.wait_for("White to move");
    term.line(":e game.pgn 2", "game 2 of game.pgn");
    term.wait_for("15. Qe2");
    term.wait_for("Ann");
    term.line(":w", "no changes");
    // The other game, written in its own style: unchanged, it stays as it was;
    // changed, it alone is rewritten.
    term.line(":e game.pgn 1", "game 1 of game.pgn");
    term.wait_for("Cy");
    term.line(":w", "no changes");
    assert_eq!(std::fs::read(dir.path().join("game.pgn")).unwrap(), before);
    // The game has a result (1-0), so it opened at its start to be read: at its end,
    // playing on asks first, Enter again plays.
    assert!(term.text().contains("[variation]"), "{}", term.text());
    term.send(keys::END);
    term.wait_for("2. ▏");
    term.send("Nf3");
    term.wait_for("the game is over (1-0): Enter asks");
    term.send(keys::ENTER);
    term.wait_for("Enter again to play on and clear the result");
    // Black to move after it: the prompt before it ("2. ") may still be on the screen.
    term.send(keys::ENTER);
    term.wait_for("2... ▏");
    term.line(":w", "saved to");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
    let after = std::fs::read(dir.path().join("game.pgn")).unwrap();
    let second_game = &before[earlier.len()..];
    assert!(
        after.ends_with(second_game),
        "the second game's bytes changed"
    );
    let games = games_in(&dir.path().join("game.pgn"));
    assert_eq!(sans(&games[0]), ["f4", "e5", "Nf3"]);
    assert_eq!(games[0].tag("Result"), Some("*"));
    assert_eq!(sans(&games[1]), PLAYED);
}

#[test]
fn a_killed_recorder_loses_no_confirmed_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "live.pgn"], 80, 24);
    term.wait_for("White to move");
    for (ply, text) in PLAYED[..10].iter().enumerate() {
        term.line(text, &prompt(ply + 1));
    }
    term.signal("KILL");
    term.wait_exit();

    let out = recover_cmd(dir.path()).arg("recover").output().unwrap();
    assert!(out.status.success());
    let recovered = read_games(&out.stdout);
    assert_eq!(recovered.len(), 1);
    assert_eq!(sans(&recovered[0].game), PLAYED[..10]);

    // The next start offers it; recovering it and saving writes every move.
    let mut term = Term::spawn(dir.path(), &[], 80, 24);
    term.wait_for("Unsaved games found");
    term.send(keys::ENTER);
    term.wait_for("recovered 5 moves");
    term.line(":w", "saved to");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
    let games = games_in(&dir.path().join("live.pgn"));
    assert_eq!(sans(&games[0]), PLAYED[..10]);
}

#[test]
fn sigterm_and_ctrl_c_restore_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &[], 80, 24);
    term.wait_for("White to move");
    assert!(term.on_alternate_screen());
    term.signal("TERM");
    assert_eq!(term.wait_exit(), 128 + 15);
    assert!(!term.on_alternate_screen());

    // A closed terminal (SIGHUP) ends it too, with every move in the journal.
    let mut term = Term::spawn(dir.path(), &[], 80, 24);
    term.wait_for("White to move");
    term.line("e4", &prompt(1));
    term.signal("HUP");
    assert_eq!(term.wait_exit(), 128 + 1);
    let out = recover_cmd(dir.path())
        .args(["recover", "--discard"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("discarded 1"),
        "{out:?}"
    );

    let mut term = Term::spawn(dir.path(), &[], 80, 24);
    term.wait_for("White to move");
    term.line("d4", &prompt(1));
    // Unsaved: the first Ctrl-C asks, the second quits; the journal keeps the move.
    term.send(keys::CTRL_C);
    term.wait_for("press again to quit");
    term.send(keys::CTRL_C);
    term.wait_exit();
    assert!(!term.on_alternate_screen());
    let out = recover_cmd(dir.path()).arg("recover").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("1. d4"));
}

#[test]
fn help_overlay_lists_the_bindings() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &[], 80, 24);
    term.wait_for("White to move");
    term.send(keys::F1);
    term.wait_for("Keys and commands");
    term.wait_for("Ctrl-Z");
    // It scrolls: PageDown to the rest of the keys, the commands and their ! forms,
    // End to the last.
    term.send("\x1b[6~");
    term.wait_for("Take back the last move");
    for _ in 0..8 {
        if term.text().contains(":q!") {
            break;
        }
        term.send("\x1b[6~");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    term.wait_for(":q!");
    term.send(keys::END);
    term.wait_for("(also :h)");
    term.escape("Keys and commands");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn without_a_terminal_the_recorder_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = recover_cmd(dir.path()).arg("new").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("needs a terminal"), "{said}");
    // It points to where every batch command is listed, not to a list that ages.
    assert!(said.contains("scoresheet --help"), "{said}");
}

#[test]
fn a_bad_configuration_is_refused_with_the_key_and_value() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        "[board]\ntheme = \"pink\"\n",
    )
    .unwrap();
    let out = recover_cmd(dir.path()).arg("new").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("config.toml:2:"), "{err}");
    assert!(err.contains(r#"bad value "pink" for board.theme"#), "{err}");
}

/// A correction made inside a variation, saved while moves wait at the variation's end:
/// reopened, they wait there again (said on the sheet and the status line), and the
/// right move brings them back into the variation.
#[test]
fn moves_waiting_in_a_variation_wait_there_after_save_and_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new", "--out", "v.pgn"], 100, 30);
    term.wait_for("White to move");
    for (ply, text) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
        term.line(text, &prompt(ply + 1));
    }
    term.send(keys::HOME);
    term.send(keys::RIGHT);
    term.wait_for("1... ▏");
    term.send(keys::INSERT);
    term.wait_for("[variation]");
    for (ply, text) in ["c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6"]
        .iter()
        .enumerate()
    {
        term.line(text, &prompt(ply + 2));
    }
    // Back to 1...c5: 2.Nf3 was 2.Nc3, and 4.Nxd4 then no longer fits.
    for _ in 0..6 {
        term.send(keys::LEFT);
    }
    term.wait_for("2. ▏");
    term.send(keys::INSERT);
    term.wait_for("[replace]");
    term.line("Nc3", "waiting after 3...cxd4: Nxd4 Nf6");
    term.line(":w", "saved to");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);

    let mut term = Term::spawn(dir.path(), &["v.pgn"], 100, 30);
    term.wait_for("waiting: 4.Nxd4 Nf6 (type the right");
    term.wait_for("waiting after 3...cxd4: Nxd4 Nf6");
    term.line("Qxd4", "corrected");
    term.line(":w", "saved to");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
    let games = games_in(&dir.path().join("v.pgn"));
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(sans(game), ["e4", "e5", "Nf3", "Nc6"]);
    let c5 = game.node(game.mainline()[0]).children[1];
    let mut line = vec![game.node(c5).san.clone()];
    let mut at = c5;
    while let Some(&next) = game.node(at).children.first() {
        line.push(game.node(next).san.clone());
        at = next;
    }
    assert_eq!(line, ["c5", "Nc3", "d6", "d4", "cxd4", "Qxd4", "Nf6"]);
    let text = std::fs::read_to_string(dir.path().join("v.pgn")).unwrap();
    assert!(!text.contains("not replayed"), "{text}");
}
