//! The vim preset's modes, through the real keymap: normal mode's letters, insert
//! mode's typing, the command line, and the default preset left as it was.

use super::undo::press;
use super::*;
use crate::config::Config;

/// A recorder configured with `toml` (its keymap and settings).
fn configured(toml: &str) -> (App, Config) {
    let config = Config::from_toml_str(toml).unwrap_or_else(|e| panic!("{e}"));
    let mut app = App::new(crate::tui::settings(&config), Game::default(), None);
    crate::tui::describe_keys(&mut app, &config);
    (app, config)
}

fn vim() -> (App, Config) {
    configured("[keys]\npreset = \"vim\"\n")
}

#[test]
fn the_vim_preset_starts_in_normal_mode_where_letters_type_nothing() {
    let (mut app, config) = vim();
    assert_eq!(app.mode, Mode::Normal);
    press(&mut app, &config, "e");
    assert_eq!(app.entry, "");
    assert!(app.game.mainline().is_empty());
    assert_eq!(
        app.message.text,
        "\"e\" is not a key in normal mode: i types a move, : a command, ? lists the keys"
    );
    assert!(app.message.error);
}

#[test]
fn i_types_moves_and_enter_stays_in_insert_mode_until_esc() {
    let (mut app, config) = vim();
    // A recorder types many moves in a row: Enter does not leave insert mode.
    press(&mut app, &config, "ie4<ret>e5<ret>Nf3<ret>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    assert_eq!(app.mode, Mode::Insert);
    // Every character types there, the vim keys too.
    press(&mut app, &config, "hl?");
    assert_eq!(app.entry, "hl?");
    assert_eq!(app.overlay, Overlay::None);
    // Esc drops the unplayed text, as vim drops a command line, and comes back.
    press(&mut app, &config, "<esc>");
    assert_eq!((app.mode, app.entry.as_str()), (Mode::Normal, ""));
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    // `a` types too.
    press(&mut app, &config, "aNc6<ret><esc>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
}

#[test]
fn h_and_l_step_and_0_dollar_g_and_capital_g_jump_in_normal_mode() {
    let (mut app, config) = vim();
    press(&mut app, &config, "ie4<ret>e5<ret>Nf3<ret><esc>");
    let line = app.game.mainline();
    press(&mut app, &config, "h");
    assert_eq!(app.cursor, line[1]);
    press(&mut app, &config, "hh");
    assert_eq!(app.cursor, NodeId::ROOT);
    press(&mut app, &config, "l");
    assert_eq!(app.cursor, line[0]);
    press(&mut app, &config, "$");
    assert_eq!(app.cursor, line[2]);
    press(&mut app, &config, "0");
    assert_eq!(app.cursor, NodeId::ROOT);
    press(&mut app, &config, "G");
    assert_eq!(app.cursor, line[2]);
    press(&mut app, &config, "g");
    assert_eq!(app.cursor, NodeId::ROOT);
    // The arrows still work in normal mode, and nothing was typed on the way.
    press(&mut app, &config, "<right>");
    assert_eq!(app.cursor, line[0]);
    assert_eq!(app.entry, "");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
}

#[test]
fn j_and_k_choose_at_a_fork_and_l_follows_the_choice() {
    let (mut app, config) =
        configured("[recording]\ninside = \"variation\"\n[keys]\npreset = \"vim\"\n");
    press(&mut app, &config, "ie4<ret>e5<ret><esc>hic5<ret><esc>");
    let e4 = app.game.mainline()[0];
    let replies: Vec<NodeId> = app.game.node(e4).children.clone();
    assert_eq!(replies.len(), 2, "a fork after 1.e4");
    press(&mut app, &config, "hjl");
    assert_eq!(app.cursor, replies[1]);
    press(&mut app, &config, "hjjl");
    assert_eq!(app.cursor, replies[0]);
    press(&mut app, &config, "hkl");
    assert_eq!(app.cursor, replies[1]);
    // L and H go into and out of the variation.
    press(&mut app, &config, "hL");
    assert_eq!(app.cursor, replies[1]);
    press(&mut app, &config, "H");
    assert_eq!(app.cursor, e4);
    // Away from a fork, j recalls nothing onto the line (normal mode has none).
    press(&mut app, &config, "0j");
    assert_eq!(app.entry, "");
    assert_eq!(app.mode, Mode::Normal);
    assert_eq!(app.message.text, "no other move was played here");
}

#[test]
fn u_undoes_ctrl_r_redoes_and_capital_d_deletes_from_here() {
    let (mut app, config) = vim();
    press(&mut app, &config, "ie4<ret>e5<ret>Nf3<ret><esc>h");
    press(&mut app, &config, "D");
    assert_eq!(sans(&app), ["e4"]);
    assert!(
        app.message.text.ends_with(": u to undo"),
        "{}",
        app.message.text
    );
    press(&mut app, &config, "u");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    press(&mut app, &config, "<C-r>");
    assert_eq!(sans(&app), ["e4"]);
    // Ctrl-Z works in both modes; in insert mode the message names it, not `u`.
    press(&mut app, &config, "i<C-z>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    press(&mut app, &config, "<del>");
    assert!(
        app.message.text.ends_with(": Ctrl-Z to undo"),
        "{}",
        app.message.text
    );
}

#[test]
fn colon_opens_the_command_line_and_normal_mode_comes_back_after_the_command() {
    let (mut app, config) = vim();
    press(&mut app, &config, ":");
    assert_eq!((app.mode, app.entry.as_str()), (Mode::Command, ":"));
    press(&mut app, &config, "flip<ret>");
    assert!(app.flipped);
    assert_eq!((app.mode, app.entry.as_str()), (Mode::Normal, ""));
    // Backspace over the colon leaves the command line, as in vim.
    press(&mut app, &config, ":<bs>");
    assert_eq!((app.mode, app.entry.as_str()), (Mode::Normal, ""));
    // A command that fails says why and normal mode comes back, as in vim; `:`
    // then Up brings the line back to fix.
    press(&mut app, &config, ":view nosuch<ret>");
    assert!(app.message.error, "{}", app.message.text);
    assert_eq!((app.mode, app.entry.as_str()), (Mode::Normal, ""));
    press(&mut app, &config, ":");
    app.update(Action::HistoryPrev);
    assert_eq!(
        (app.mode, app.entry.as_str()),
        (Mode::Command, ":view nosuch")
    );
    press(&mut app, &config, "<esc>");
    assert_eq!((app.mode, app.entry.as_str()), (Mode::Normal, ""));
    // f flips too.
    press(&mut app, &config, "f");
    assert!(!app.flipped);
}

#[test]
fn text_pasted_in_normal_mode_is_on_a_line_that_can_be_edited() {
    let (mut app, _) = vim();
    app.update(Msg::Paste {
        text: ":w".into(),
        whole: true,
    });
    assert_eq!((app.mode, app.entry.as_str()), (Mode::Command, ":w"));
    // Moves pasted are played, and normal mode stays.
    let (mut app, _) = vim();
    app.update(Msg::Paste {
        text: "e4 e5".into(),
        whole: true,
    });
    assert_eq!(sans(&app), ["e4", "e5"]);
    assert_eq!(app.mode, Mode::Normal);
}

#[test]
fn the_default_preset_has_no_modes_and_types_every_character() {
    let (mut app, config) = configured("");
    assert_eq!(app.mode, Mode::Insert);
    press(&mut app, &config, "e4<ret><esc>hi");
    assert_eq!(sans(&app), ["e4"]);
    assert_eq!(app.entry, "hi");
    assert_eq!(app.mode, Mode::Insert);
    assert!(!app.help_sections()[0].title.contains("Modes"));
}

#[test]
fn the_help_and_the_hints_say_the_mode_and_its_keys() {
    let (mut app, config) = vim();
    let sections = app.help_sections();
    assert_eq!(sections[0].title, "Modes (vim preset)");
    assert_eq!(sections[0].entries[0].label, "NORMAL (now)");
    let move_back = sections[1]
        .entries
        .iter()
        .find(|e| e.doc == "Go back one move")
        .expect("move-back in the help");
    assert_eq!(move_back.label, "Left, h");
    let hints = app.hints();
    assert!(hints.contains(&("h".into(), "back")), "{hints:?}");
    assert!(hints.contains(&("i".into(), "type")), "{hints:?}");
    assert!(hints.contains(&("?".into(), "help")), "{hints:?}");
    press(&mut app, &config, "i");
    assert_eq!(app.help_sections()[0].entries[1].label, "INSERT (now)");
    let hints = app.hints();
    assert_eq!(hints[0], ("Esc".into(), "normal"));
    assert!(hints.contains(&("Left".into(), "back")), "{hints:?}");
    assert!(hints.iter().all(|(_, what)| *what != "type"), "{hints:?}");
}

#[test]
fn in_normal_mode_the_help_scrolls_with_j_and_k() {
    let (mut app, config) = vim();
    press(&mut app, &config, "?");
    assert_eq!(app.overlay, Overlay::Help);
    press(&mut app, &config, "jj");
    assert_eq!(app.help_scroll.top.get(), 2);
    press(&mut app, &config, "k");
    assert_eq!(app.help_scroll.top.get(), 1);
    press(&mut app, &config, "<esc>");
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!(app.mode, Mode::Normal);
    // i closes it and types, as a character closes it in the default preset.
    press(&mut app, &config, "?ie4");
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!((app.mode, app.entry.as_str()), (Mode::Insert, "e4"));
}
