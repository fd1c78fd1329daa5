//! Undo and redo through the real keymap, and take-back.

use super::*;

/// A recorder with the built-in configuration: its keymap, key names and settings.
fn configured() -> (App, crate::config::Config) {
    let config = crate::config::Config::defaults();
    let mut app = App::new(crate::tui::settings(&config), Game::default(), None);
    crate::tui::describe_keys(&mut app, &config);
    (app, config)
}

/// Presses keys written helix-style through the real keymap: characters stand for
/// themselves; `<ret>`, `<del>`, `<ins>`, `<esc>`, `<left>`, `<right>`, `<home>`,
/// `<end>`, `<tab>`, `<bs>` and `<C-z>`, `<A-1>` for the others.
pub(super) fn press(app: &mut App, config: &crate::config::Config, keys: &str) {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut rest = keys;
    while let Some(c) = rest.chars().next() {
        let (code, modifiers, len) = match rest.strip_prefix('<').and_then(|r| r.split_once('>')) {
            Some((raw, _)) => {
                let (modifiers, name) = match raw.split_once('-') {
                    Some(("C", key)) => (KeyModifiers::CONTROL, key),
                    Some(("A", key)) => (KeyModifiers::ALT, key),
                    _ => (KeyModifiers::NONE, raw),
                };
                let code = match name {
                    "ret" => KeyCode::Enter,
                    "del" => KeyCode::Delete,
                    "ins" => KeyCode::Insert,
                    "esc" => KeyCode::Esc,
                    "left" => KeyCode::Left,
                    "right" => KeyCode::Right,
                    "home" => KeyCode::Home,
                    "end" => KeyCode::End,
                    "tab" => KeyCode::Tab,
                    "bs" => KeyCode::Backspace,
                    one if one.chars().count() == 1 => KeyCode::Char(one.chars().next().unwrap()),
                    f if f.starts_with('F') && f[1..].parse::<u8>().is_ok() => {
                        KeyCode::F(f[1..].parse().unwrap())
                    }
                    other => panic!("no key <{other}> in the test's key strings"),
                };
                (code, modifiers, raw.len() + 2)
            }
            None => (KeyCode::Char(c), KeyModifiers::NONE, c.len_utf8()),
        };
        rest = &rest[len..];
        let event = KeyEvent::new(code, modifiers);
        let _ = config;
        if let Some(action) = crate::tui::action_of(app, &event) {
            app.update(action);
        }
    }
}

const RUY: &str = "e4<ret>e5<ret>Nf3<ret>Nc6<ret>Bb5<ret>a6<ret>";

#[test]
fn delete_says_what_it_removed_and_ctrl_z_brings_it_back_ctrl_y_again() {
    let (mut app, config) = configured();
    press(&mut app, &config, RUY);
    assert!(app.take_journal_due());
    press(&mut app, &config, "<home><right><right><right>");
    let nf3 = app.cursor;
    assert_eq!(app.game.node(nf3).san, "Nf3");
    press(&mut app, &config, "<del>");
    assert_eq!(sans(&app), ["e4", "e5"]);
    assert_eq!(
        app.message.text,
        "deleted 2.Nf3 and 3 moves after it: Ctrl-Z to undo"
    );
    assert!(app.take_journal_due());

    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(app.cursor, nf3, "the cursor is back where the change was");
    assert_eq!(
        app.message.text,
        "undid: deleted 2.Nf3 and 3 moves after it; Ctrl-Y to redo"
    );
    assert!(app.take_journal_due(), "the journal records the undo");
    assert!(app.unsaved);

    press(&mut app, &config, "<C-y>");
    assert_eq!(sans(&app), ["e4", "e5"]);
    assert_eq!(app.game.node(app.cursor).san, "e5");
    assert!(app.message.text.starts_with("redid: deleted 2.Nf3"));
    assert!(app.take_journal_due());
    press(&mut app, &config, "<C-y>");
    assert_eq!(app.message.text, "nothing to redo");
}

#[test]
fn the_undo_key_in_messages_follows_the_bindings() {
    let config =
        crate::config::Config::from_toml_str("[keys]\nundo = [\"F9\"]\nredo = []\n").unwrap();
    let mut app = App::new(crate::tui::settings(&config), Game::default(), None);
    crate::tui::describe_keys(&mut app, &config);
    press(&mut app, &config, "d4<ret>d5<ret><del>");
    assert_eq!(app.message.text, "deleted 1...d5: F9 to undo");
    press(&mut app, &config, "<F9>");
    assert_eq!(app.message.text, "undid: deleted 1...d5; :redo to redo");
    type_line(&mut app, ":redo");
    assert_eq!(sans(&app), ["d4"]);
    type_line(&mut app, ":undo");
    assert_eq!(sans(&app), ["d4", "d5"]);
}

#[test]
fn every_move_is_undone_one_by_one_and_redone() {
    let (mut app, config) = configured();
    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
    ];
    for mv in moves {
        press(&mut app, &config, &format!("{mv}<ret>"));
    }
    type_line(&mut app, "{the Breyer}");
    type_line(&mut app, "+1:05:30");
    // The clock, the comment, then the moves from the last one back.
    press(&mut app, &config, "<C-z>");
    assert_eq!(app.game.comment_text(app.cursor), "the Breyer");
    press(&mut app, &config, "<C-z>");
    assert_eq!(app.game.comment_text(app.cursor), "");
    for n in (0..moves.len()).rev() {
        press(&mut app, &config, "<C-z>");
        assert_eq!(sans(&app), moves[..n], "after undoing move {}", n + 1);
        assert_eq!(app.cursor, app.line_end(NodeId::ROOT));
    }
    assert!(app.game.is_empty());
    assert!(!app.unsaved, "back to the untouched new game");
    press(&mut app, &config, "<C-z>");
    assert_eq!(app.message.text, "nothing to undo");
    for _ in 0..moves.len() + 2 {
        press(&mut app, &config, "<C-y>");
    }
    assert_eq!(sans(&app), moves);
    assert_eq!(app.game.comment_text(app.cursor), "the Breyer");
    assert_eq!(
        app.game.node(app.cursor).annotations(),
        [Annotation::Clock(ClockTime::from_secs(3600 + 5 * 60 + 30))]
    );
}

#[test]
fn typing_inside_the_game_replaces_by_default_and_insert_gives_a_variation() {
    let (mut app, config) = configured();
    press(&mut app, &config, RUY);
    press(&mut app, &config, "<left><left>Bc4<ret>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6", "Bc4", "a6"]);
    assert!(
        app.message.text.contains("Ctrl-Z to undo"),
        "{}",
        app.message.text
    );
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(
        app.message.text,
        "undid: 3.Bb5 is now 3.Bc4; Ctrl-Y to redo"
    );
    press(&mut app, &config, "<ins>Bc4<ret>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(app.game.node(app.cursor).san, "Bc4");
    press(&mut app, &config, "<C-z>");
    assert_eq!(
        app.message.text,
        "undid: new variation 3.Bc4; Ctrl-Y to redo"
    );
    assert_eq!(app.game.variations_at(app.game.mainline()[4]).len(), 1);
}

#[test]
fn a_replacement_with_waiting_moves_is_undone_and_redone_waiting_moves_and_all() {
    let (mut app, config) = configured();
    // 3.Bc4 written for 3.Bb5; 10.Bb3 only fits after Bc4.
    type_line(
        &mut app,
        "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7 d3 d6 c3 O-O h3 h6 Re1 Re8 Nbd2 Bf8 Bb3 a6",
    );
    let typed = app.game.clone();
    let nc6 = app.game.mainline()[3];
    press(
        &mut app,
        &config,
        "<home><right><right><right><right>Bb5<ret>",
    );
    let waiting = app.pending.clone().expect("moves wait");
    assert_eq!(waiting.moves.len(), 2);
    let at = app.cursor;

    press(&mut app, &config, "<C-z>");
    assert_eq!(app.game, typed);
    assert_eq!(app.pending, None);
    assert_eq!(app.cursor, nc6);
    press(&mut app, &config, "<C-y>");
    assert_eq!(app.pending, Some(waiting.clone()));
    assert_eq!(app.cursor, at);

    // The right move replays the waiting ones; undoing it makes them wait again.
    press(&mut app, &config, "Ba4<ret>");
    assert!(app.pending.is_none());
    assert_eq!(sans(&app)[18..], ["Ba4", "a6"]);
    press(&mut app, &config, "<C-z>");
    assert_eq!(app.pending, Some(waiting));
    assert_eq!(app.cursor, at);
    assert_eq!(sans(&app).len(), 18);
    assert!(write_game_to_string(&app.game).contains("not replayed"));
}

#[test]
fn tags_and_results_are_undone() {
    let (mut app, config) = configured();
    press(&mut app, &config, "e4<ret>e5<ret>");
    type_line(&mut app, ":tag White Ann");
    // Setting the same value again changes nothing and is no level of its own.
    type_line(&mut app, ":tag White Ann");
    type_line(&mut app, ":result 1-0 resign");
    assert_eq!(app.game.tag("Termination"), Some("normal"));
    assert_eq!(app.game.comment_text(app.cursor), "Black resigns");
    press(&mut app, &config, "<C-z>");
    assert!(
        app.message.text.starts_with("undid: result 1-0"),
        "{}",
        app.message.text
    );
    assert_eq!(app.game.tag("Result"), Some("*"));
    assert_eq!(app.game.tag("Termination"), None);
    assert_eq!(app.game.comment_text(app.cursor), "");
    press(&mut app, &config, "<C-z>");
    assert_eq!(app.message.text, "undid: White = Ann; Ctrl-Y to redo");
    assert_eq!(app.game.tag("White"), Some("?"));
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4"]);
}

#[test]
fn take_back_has_its_own_key_and_is_undone_like_the_rest() {
    let (mut app, config) = configured();
    press(&mut app, &config, "e4<ret>e5<ret><C-t>");
    assert_eq!(sans(&app), ["e4"]);
    assert_eq!(app.message.text, "took back 1...e5: Ctrl-Z to undo");
    press(&mut app, &config, "<A-4><C-z>");
    assert_eq!(app.game.node(app.cursor).nags, [] as [u8; 0]);
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4", "e5"]);
}

#[test]
fn undo_after_a_save_makes_the_game_unsaved_and_redo_saved_again() {
    let (mut app, config) = configured();
    press(&mut app, &config, "e4<ret>e5<ret>");
    app.saved("club.pgn".into(), Placed::InPlace);
    app.take_journal_due();
    assert!(!app.unsaved);
    press(&mut app, &config, "<C-z>");
    assert!(app.unsaved);
    assert!(app.take_journal_due());
    press(&mut app, &config, "<C-y>");
    assert!(!app.unsaved, "the game is the one in the file again");
}

#[test]
fn starting_from_a_fen_drops_the_moves_until_undone() {
    let (mut app, config) = configured();
    press(&mut app, &config, "e4<ret>");
    type_line(&mut app, ":fen! 8/8/8/8/8/8/k7/4K2R w K - 0 1");
    assert!(app.game.is_empty());
    assert!(
        app.message.text.ends_with("Ctrl-Z to undo"),
        "{}",
        app.message.text
    );
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4"]);
    assert_eq!(app.game.start, Position::start());
}

#[test]
fn pasted_moves_are_one_change_to_undo() {
    let (mut app, config) = configured();
    press(&mut app, &config, "e4<ret>");
    app.paste("e5 2. Nf3 Nc6", true);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    press(&mut app, &config, "Bb5<ret>");
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4"]);
    assert_eq!(
        app.message.text,
        "undid: played 1...e5 to 2...Nc6; Ctrl-Y to redo"
    );
    press(&mut app, &config, "<C-z>");
    assert!(app.game.is_empty());
}
