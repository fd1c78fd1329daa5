//! The keymap built from the declarations and a user's `[keys]`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Action, ACTIONS};
use super::keymap::Keymap;
use super::Screen;
use crate::config::{Config, ConfigError, Key};

fn key(text: &str) -> Key {
    Key::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn keymap(user: &str) -> Keymap {
    let config = Config::from_toml_str(user).unwrap_or_else(|e| panic!("{e}"));
    Keymap::new(&config.keys).unwrap_or_else(|e| panic!("{e}"))
}

fn error(user: &str) -> ConfigError {
    let config = Config::from_toml_str(user).unwrap_or_else(|e| panic!("{e}"));
    match Keymap::new(&config.keys) {
        Ok(_) => panic!("accepted {user:?}"),
        Err(e) => e,
    }
}

fn game(keys: &Keymap, text: &str) -> Option<&'static str> {
    keys.lookup(Screen::Game, &key(text)).and_then(Action::name)
}

#[test]
fn action_names_are_unique_kebab_case_with_one_line_docs() {
    let mut names: Vec<&str> = ACTIONS.iter().map(|a| a.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), ACTIONS.len());
    for a in ACTIONS {
        assert!(
            a.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}",
            a.name
        );
        assert!(!a.doc.is_empty() && !a.doc.contains('\n'), "{}", a.name);
        assert_eq!(Action::from_name(a.name), Some(a.action));
        assert_eq!(a.action.name(), Some(a.name));
        for k in a.keys {
            // Every declared key reads, and reads back as it is shown.
            let parsed = key(k);
            assert_eq!(key(&parsed.to_string()), parsed, "{k}");
        }
    }
}

#[test]
fn user_keys_replace_only_the_actions_they_name() {
    let keys = keymap("[keys]\nhelp = [\"F4\"]\nsave = []\nflip-board = [\"Ctrl-f\", \"Alt-o\"]\n");
    assert_eq!(keys.keys_of("help"), &[key("F4")]);
    assert_eq!(game(&keys, "?"), None);
    assert_eq!(game(&keys, "F1"), None);
    assert_eq!(game(&keys, "F4"), Some("help"));
    assert_eq!(keys.keys_of("save"), &[] as &[Key]);
    assert_eq!(game(&keys, "Ctrl-s"), None);
    assert_eq!(keys.keys_of("flip-board").len(), 2);
    assert_eq!(game(&keys, "Alt-o"), Some("flip-board"));
    assert_eq!(game(&keys, "Ctrl-t"), Some("take-back"));
    assert_eq!(game(&keys, "Ctrl-z"), Some("undo"));
    assert_eq!(keys.keys_of("no-such-action"), &[] as &[Key]);
}

#[test]
fn a_key_can_move_to_another_action_when_the_first_gives_it_up() {
    let keys = keymap("[keys]\nmove-back = [\"Ctrl-t\"]\ntake-back = [\"Alt-x\"]\n");
    assert_eq!(game(&keys, "Ctrl-t"), Some("move-back"));
    assert_eq!(game(&keys, "Alt-x"), Some("take-back"));
}

#[test]
fn a_key_bound_twice_on_a_screen_is_refused_where_the_user_wrote_it() {
    let e = error("[keys]\nflip-board = [\"Ctrl-z\"]\n");
    assert_eq!(
        e.message(),
        "key Ctrl-Z is bound to both undo and flip-board (on the game screen)"
    );
    assert_eq!(e.position(), Some((2, 15)));
    let e = error("[keys]\nsave = [\"F9\"]\nquit = [\"f9\"]\n");
    assert_eq!(
        e.message(),
        "key F9 is bound to both save and quit (on the game screen)"
    );
    assert_eq!(e.position(), Some((3, 9)));
    let e = error("[keys]\nmove-back = [\"Ctrl-t\"]\n");
    assert_eq!(
        e.message(),
        "key Ctrl-T is bound to both move-back and take-back (on the game screen)"
    );
    assert_eq!(e.position(), Some((2, 14)));
}

#[test]
fn an_unknown_action_lists_the_choices() {
    let e = error("[keys]\nflip = [\"F2\"]\n");
    assert!(
        e.message()
            .starts_with("unknown action \"flip\" in [keys]: expected one of help, play-entry, "),
        "{e}"
    );
    assert_eq!(e.position(), Some((2, 1)));
}

#[test]
fn a_plain_character_cannot_be_bound_on_the_game_screen_but_question_mark_can() {
    for binding in ["\"f\"", "\"F\"", "\"Space\"", "\"Shift-x\""] {
        let e = error(&format!("[keys]\nflip-board = [{binding}]\n"));
        assert_eq!(e.position(), Some((2, 15)), "{binding}");
        assert!(
            e.message()
                .contains("is a plain character, which types moves"),
            "{e}"
        );
        assert!(e.message().contains("bind a Ctrl-, Alt- or F-key"), "{e}");
    }
    let keys = keymap("[keys]\nflip-board = [\"Alt-o\", \"Ctrl-f\"]\n");
    assert_eq!(game(&keys, "Alt-o"), Some("flip-board"));
    let keys = keymap("[keys]\nhelp = [\"?\"]\n");
    assert_eq!(game(&keys, "?"), Some("help"));
}

#[test]
fn events_find_their_bindings() {
    let keys = Keymap::default();
    let event = |code, modifiers| KeyEvent::new(code, modifiers);
    let shift = KeyModifiers::SHIFT;
    let on_game = |e: KeyEvent, empty| keys.action_of(Screen::Game, &e, empty);
    assert_eq!(
        on_game(event(KeyCode::Char('?'), shift), true),
        Some(Action::Help)
    );
    assert_eq!(
        on_game(event(KeyCode::Char('s'), KeyModifiers::CONTROL), false),
        Some(Action::Save)
    );
    assert_eq!(
        on_game(event(KeyCode::Char('s'), KeyModifiers::NONE), true),
        Some(Action::Type('s'))
    );
    assert_eq!(
        on_game(event(KeyCode::Right, shift), true),
        Some(Action::EnterVariation)
    );
}

#[test]
fn every_declared_key_is_the_default() {
    let keys = Keymap::default();
    for d in ACTIONS {
        let declared: Vec<Key> = d.keys.iter().map(|k| key(k)).collect();
        assert_eq!(keys.keys_of(d.name), declared.as_slice(), "{}", d.name);
    }
}

#[test]
fn the_vim_preset_adds_its_keys_and_the_default_has_none_of_them() {
    let default = Keymap::default();
    let vim = keymap("[keys]\npreset = \"vim\"\n");
    assert!(!default.modal());
    assert!(vim.modal());
    for (k, action) in [
        ("h", "move-back"),
        ("l", "move-forward"),
        ("j", "history-next"),
        ("k", "history-prev"),
        ("0", "go-start"),
        ("$", "go-end"),
        ("i", "insert-mode"),
        ("a", "insert-mode"),
        ("u", "undo"),
        ("Ctrl-r", "redo"),
        ("D", "delete-from-here"),
        ("f", "flip-board"),
    ] {
        assert_eq!(game(&default, k), None, "{k} in the default preset");
        assert_eq!(game(&vim, k), Some(action), "{k} in the vim preset");
    }
    // `:` starts a command in both (on the list too, where letters sort).
    assert_eq!(game(&default, ":"), Some("command-line"));
    assert_eq!(game(&vim, ":"), Some("command-line"));
    assert_eq!(
        default
            .lookup(Screen::List, &key(":"))
            .and_then(Action::name),
        Some("command-line")
    );
    // The default keys stay, and the list keeps its own letters.
    assert_eq!(game(&vim, "Left"), Some("move-back"));
    assert_eq!(game(&vim, "Ctrl-z"), Some("undo"));
    assert_eq!(vim.keys_of("move-back"), &[key("Left"), key("h")]);
    assert_eq!(
        vim.lookup(Screen::List, &key("j")).and_then(Action::name),
        Some("list-down")
    );
    // Every declared vim key reads back as it is shown.
    for d in ACTIONS {
        for k in d.vim {
            assert_eq!(key(&key(k).to_string()), key(k), "{k}");
        }
    }
}

#[test]
fn with_the_vim_preset_the_users_keys_still_replace_an_actions_keys() {
    let keys = keymap(
        "[keys]\npreset = \"vim\"\nmove-back = [\"Left\", \"Ctrl-t\"]\n\
         take-back = [\"Alt-x\"]\nflip-board = [\"F\"]\nundo = []\n",
    );
    assert_eq!(game(&keys, "h"), None, "move-back listed without h");
    assert_eq!(game(&keys, "Ctrl-t"), Some("move-back"));
    // A letter may be bound with the preset: it acts in normal mode.
    assert_eq!(game(&keys, "F"), Some("flip-board"));
    assert_eq!(game(&keys, "f"), None);
    assert_eq!(game(&keys, "u"), None);
    assert_eq!(game(&keys, "l"), Some("move-forward"));
    // A vim key taken by another action is a clash, said where the user wrote it.
    let e = error("[keys]\npreset = \"vim\"\nsave = [\"u\"]\n");
    assert_eq!(
        e.message(),
        "key u is bound to both undo and save (on the game screen)"
    );
    assert_eq!(e.position(), Some((3, 9)));
    // Without the preset, the same letter is refused, and the preset is named.
    let e = error("[keys]\nsave = [\"u\"]\n");
    assert!(e.message().contains("[keys] preset = \"vim\""), "{e}");
}

#[test]
fn a_bound_character_acts_only_where_characters_act() {
    let keys = keymap("[keys]\npreset = \"vim\"\n");
    let h = KeyEvent::new(KeyCode::Char('h'), KeyModifiers::NONE);
    let e = KeyEvent::new(KeyCode::Char('e'), KeyModifiers::NONE);
    let ctrl_r = KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL);
    // Normal mode: a vim key acts; an unbound letter comes as text (refused there).
    assert_eq!(
        keys.action_of(Screen::Game, &h, true),
        Some(Action::MoveBack)
    );
    assert_eq!(
        keys.action_of(Screen::Game, &e, true),
        Some(Action::Type('e'))
    );
    // Insert mode: every letter types; keys with Ctrl act in both.
    assert_eq!(
        keys.action_of(Screen::Game, &h, false),
        Some(Action::Type('h'))
    );
    assert_eq!(
        keys.action_of(Screen::Game, &ctrl_r, false),
        Some(Action::Redo)
    );
    assert_eq!(
        keys.action_of(Screen::Game, &ctrl_r, true),
        Some(Action::Redo)
    );
}
