use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::notation::Lang;

const EXAMPLE: &str = include_str!("../../config.example.toml");

fn key(text: &str) -> Key {
    Key::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn error(user: &str) -> ConfigError {
    match Config::from_toml_str(user) {
        Ok(_) => panic!("accepted {user:?}"),
        Err(e) => e,
    }
}

#[test]
fn defaults_are_the_documented_ones() {
    let c = Config::defaults();
    assert_eq!(c.notation.input, Lang::english());
    assert_eq!(c.notation.display, MoveNotation::San);
    assert_eq!(c.notation.lang, Lang::english());
    assert_eq!(c.board.style, BoardStyle::Unicode);
    assert_eq!(c.board.theme, Theme::Wood);
    assert_eq!(c.board.colors, Colors::Auto);
    assert_eq!(c.board.square, SquareSize::Auto);
    assert!(c.board.coordinates);
    assert!(!c.recording.autosave);
    assert!(!c.recording.timer);
    assert_eq!(c.recording.inside, Inside::Replace);
    let expected = [
        ("play-entry", "Enter"),
        ("erase-char", "Backspace"),
        ("clear-entry", "Ctrl-U"),
        ("cancel", "Esc"),
        ("history-prev", "Up"),
        ("history-next", "Down"),
        ("move-back", "Left"),
        ("move-forward", "Right"),
        ("page-back", "PageUp"),
        ("page-forward", "PageDown"),
        ("go-start", "Home"),
        ("go-end", "End"),
        ("next-variation", "Tab"),
        ("undo", "Ctrl-Z"),
        ("redo", "Ctrl-Y"),
        ("take-back", "Ctrl-T"),
        ("delete-from-here", "Delete"),
        ("promote-variation", "Ctrl-P"),
        ("toggle-replace", "Insert"),
        ("flip-board", "Ctrl-F"),
        ("help", "F1 ?"),
        ("nag-good", "Alt-1"),
        ("nag-mistake", "Alt-2"),
        ("nag-brilliant", "Alt-3"),
        ("nag-blunder", "Alt-4"),
        ("nag-interesting", "Alt-5"),
        ("nag-dubious", "Alt-6"),
        ("nag-clear", "Alt-0"),
        ("toggle-draw-offer", "Alt-d"),
        ("edit-comment", "Ctrl-K"),
        ("toggle-timer", "F5"),
        ("save", "Ctrl-S"),
        ("quit", "Ctrl-C"),
    ];
    assert_eq!(expected.len(), ACTIONS.len());
    for ((name, keys), (info, bound)) in expected.iter().zip(c.keys.bindings()) {
        assert_eq!(*name, info.name);
        let shown: Vec<String> = bound.iter().map(Key::to_string).collect();
        assert_eq!(*keys, shown.join(" "), "{name}");
    }
    assert_eq!(Config::default(), c);
}

/// The `key = ` lines of each table, with the comment line right above each.
fn entries(text: &str) -> Vec<(String, String, String)> {
    let mut table = String::new();
    let mut comment = String::new();
    let mut found = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.to_string();
        } else if let Some(c) = line.strip_prefix("# ") {
            comment = c.to_string();
        } else if let Some((key, _)) = line.split_once(" = ") {
            found.push((table.clone(), key.to_string(), std::mem::take(&mut comment)));
        } else {
            comment.clear();
        }
    }
    found
}

#[test]
fn embedded_defaults_list_every_action_with_its_description() {
    let keys: Vec<(String, String)> = entries(DEFAULTS)
        .into_iter()
        .filter(|(table, _, _)| table == "keys")
        .map(|(_, key, comment)| (key, comment))
        .collect();
    let actions: Vec<(String, String)> = ACTIONS
        .iter()
        .map(|a| (a.name.to_string(), a.doc.to_string()))
        .collect();
    assert_eq!(keys, actions);
}

#[test]
fn example_is_the_defaults_with_every_option_commented() {
    assert_eq!(
        Config::from_toml_str(EXAMPLE).ok(),
        Some(Config::defaults())
    );
    let example = entries(EXAMPLE);
    let defaults = entries(DEFAULTS);
    let names = |e: &[(String, String, String)]| -> Vec<(String, String)> {
        e.iter().map(|(t, k, _)| (t.clone(), k.clone())).collect()
    };
    assert_eq!(names(&example), names(&defaults));
    for (table, key, comment) in &example {
        assert!(!comment.is_empty(), "no comment above {table}.{key}");
    }
    for action in ACTIONS {
        assert!(
            example
                .iter()
                .any(|(t, k, c)| t == "keys" && k == action.name && c == action.doc),
            "{} missing or its comment differs",
            action.name
        );
    }
    for setting in [
        "notation.input",
        "notation.display",
        "notation.lang",
        "board.style",
        "board.theme",
        "board.colors",
        "board.square",
        "board.coordinates",
        "recording.autosave",
        "recording.timer",
        "recording.inside",
    ] {
        assert!(
            example
                .iter()
                .any(|(t, k, _)| format!("{t}.{k}") == setting),
            "{setting} missing"
        );
    }
}

#[test]
fn user_file_overrides_only_what_it_sets() {
    let c = Config::from_toml_str(
        "[notation]\ninput = \"de\"\ndisplay = \"figurine\"\n\
         [board]\ntheme = \"green\"\ncolors = 256\n\
         [recording]\ninside = \"variation\"\n\
         [keys]\nhelp = [\"h\"]\nsave = []\nflip-board = [\"Ctrl-f\", \"Alt-f\"]\n",
    )
    .expect("valid");
    let d = Config::defaults();
    assert_eq!(c.notation.input.code, "de");
    assert_eq!(c.notation.display, MoveNotation::Figurine);
    assert_eq!(c.notation.lang, d.notation.lang);
    assert_eq!(c.board.theme, Theme::Green);
    assert_eq!(c.board.colors, Colors::Ansi256);
    assert_eq!(c.board.style, d.board.style);
    assert_eq!(c.recording.inside, Inside::Variation);
    assert_eq!(c.recording.autosave, d.recording.autosave);
    assert_eq!(c.keys.keys_of("help"), &[key("h")]);
    assert_eq!(c.keys.lookup(&key("?")), None);
    assert_eq!(c.keys.lookup(&key("F1")), None);
    assert_eq!(c.keys.lookup(&key("h")), Some("help"));
    assert_eq!(c.keys.keys_of("save"), &[] as &[Key]);
    assert_eq!(c.keys.lookup(&key("Ctrl-s")), None);
    assert_eq!(c.keys.keys_of("flip-board").len(), 2);
    assert_eq!(c.keys.lookup(&key("Alt-f")), Some("flip-board"));
    assert_eq!(c.keys.keys_of("take-back"), d.keys.keys_of("take-back"));
    assert_eq!(c.keys.lookup(&key("Ctrl-t")), Some("take-back"));
    assert_eq!(c.keys.lookup(&key("Ctrl-z")), Some("undo"));
    assert_eq!(c.keys.keys_of("no-such-action"), &[] as &[Key]);
}

#[test]
fn a_key_can_move_to_another_action_when_the_first_gives_it_up() {
    let c = Config::from_toml_str("[keys]\nmove-back = [\"Ctrl-t\"]\ntake-back = [\"Alt-z\"]\n")
        .expect("valid");
    assert_eq!(c.keys.lookup(&key("Ctrl-t")), Some("move-back"));
    assert_eq!(c.keys.lookup(&key("Alt-z")), Some("take-back"));
}

#[test]
fn errors_quote_the_bad_key_or_value_and_say_where() {
    let cases: &[(&str, (usize, usize), &str)] = &[
        (
            "[board]\ncolour = \"red\"\n",
            (2, 1),
            "unknown key \"colour\" in [board]: expected one of style, theme, colors, square, \
             coordinates",
        ),
        (
            "[board]\ntheme = \"pink\"\n",
            (2, 9),
            "bad value \"pink\" for board.theme: expected one of wood, blue, green, grey",
        ),
        (
            "[notation]\ndisplay = 3\n",
            (2, 11),
            "bad value 3 for notation.display: expected one of san, figurine, lan",
        ),
        (
            "[board]\ncoordinates = \"yes\"\n",
            (2, 15),
            "bad value \"yes\" for board.coordinates: expected true or false",
        ),
        (
            "[colour]\n",
            (1, 2),
            "unknown table [colour]: expected one of notation, board, recording, keys",
        ),
        (
            "board.colour = 1\n",
            (1, 7),
            "unknown key \"colour\" in [board]: expected one of style, theme, colors, square, \
             coordinates",
        ),
        (
            "[keys]\nhelp = \"F1\"\n",
            (2, 8),
            "bad value \"F1\" for keys.help: expected a list of keys, like [\"F1\", \"?\"]",
        ),
        (
            "[keys]\nmove-back = [\"Ctrl-t\"]\n",
            (2, 14),
            "key Ctrl-T is bound to both move-back and take-back",
        ),
        (
            "[keys]\nsave = [\"F2\"]\nquit = [\"f2\"]\n",
            (3, 9),
            "key F2 is bound to both save and quit",
        ),
    ];
    for (text, position, message) in cases {
        let e = error(text);
        assert_eq!(e.message(), *message, "{text:?}");
        assert_eq!(e.position(), Some(*position), "{text:?}");
    }
}

#[test]
fn errors_in_keys_and_languages_list_the_choices() {
    let e = error("[keys]\nflip = [\"F2\"]\n");
    assert!(
        e.message()
            .starts_with("unknown action \"flip\" in [keys]: expected one of play-entry, "),
        "{e}"
    );
    assert_eq!(e.position(), Some((2, 1)));
    let e = error("[keys]\ntake-back = [\"Ctrl-Foo\"]\n");
    assert!(
        e.message()
            .starts_with("bad key \"Ctrl-Foo\" for keys.take-back: unknown key name \"Foo\""),
        "{e}"
    );
    assert_eq!(e.position(), Some((2, 14)));
    let e = error("[notation]\ninput = \"xx\"\n");
    assert!(
        e.message().starts_with(
            "bad value \"xx\" for notation.input: expected a language code, one of en, de,"
        ),
        "{e}"
    );
    let e = error("[board\n");
    assert_eq!(e.position(), Some((1, 7)));
    assert!(e.message().contains("expected `]`"), "{e}");
}

#[test]
fn load_reads_the_file_and_names_it_in_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("none.toml");
    assert_eq!(Config::load_from(&missing).ok(), Some(Config::defaults()));

    let file = dir.path().join("config.toml");
    std::fs::write(&file, "[board]\nsquare = \"large\"\n").expect("write");
    let c = Config::load_from(&file).expect("valid");
    assert_eq!(c.board.square, SquareSize::Large);

    std::fs::write(&file, "\n[board]\ntheme = \"pink\"\n").expect("write");
    let e = Config::load_from(&file).expect_err("bad theme");
    assert_eq!(
        e.to_string(),
        format!(
            "{}:3:9: bad value \"pink\" for board.theme: expected one of wood, blue, green, grey",
            file.display()
        )
    );

    let e = Config::load_from(dir.path()).expect_err("a directory");
    assert!(matches!(e, ConfigError::Read { .. }), "{e}");
}

#[test]
fn path_follows_the_environment_variable() {
    // The only test that touches the variable.
    std::env::set_var(ENV_VAR, "/tmp/elsewhere/my.toml");
    assert_eq!(path(), std::path::PathBuf::from("/tmp/elsewhere/my.toml"));
    std::env::remove_var(ENV_VAR);
    let p = path();
    assert!(
        p.ends_with("config.toml") || p.ends_with("scoresheet.toml"),
        "{p:?}"
    );
}

#[test]
fn keys_parse_and_display_round_trip() {
    let cases = [
        ("Ctrl-z", "Ctrl-Z"),
        ("ctrl-Z", "Ctrl-Z"),
        ("CTRL-z", "Ctrl-Z"),
        ("Alt-1", "Alt-1"),
        ("alt-d", "Alt-d"),
        ("Alt-D", "Alt-D"),
        ("F1", "F1"),
        ("f12", "F12"),
        ("?", "?"),
        ("A", "A"),
        ("Shift-a", "A"),
        ("pageup", "PageUp"),
        ("Shift-Tab", "BackTab"),
        ("backtab", "BackTab"),
        ("Space", "Space"),
        (" ", "Space"),
        ("Ctrl-Space", "Ctrl-Space"),
        ("Shift-Up", "Shift-Up"),
        ("Ctrl-Alt-Delete", "Ctrl-Alt-Delete"),
        ("Alt-Ctrl-x", "Ctrl-Alt-X"),
        ("-", "-"),
        ("Ctrl--", "Ctrl--"),
        ("é", "é"),
    ];
    for (text, shown) in cases {
        let k = key(text);
        assert_eq!(k.to_string(), shown, "{text}");
        assert_eq!(key(shown), k, "{shown}");
    }
    for (_, bound) in Config::defaults().keys.bindings() {
        for k in bound {
            assert_eq!(key(&k.to_string()), *k);
        }
    }
    for bad in ["", "Ctrl-", "Ctrl-Foo", "F0", "F13", "F01", "Hyper-x", "ab"] {
        assert!(Key::parse(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn events_are_normalised_like_bindings() {
    let event = |code, modifiers| Key::from_event(&KeyEvent::new(code, modifiers));
    let (none, shift, ctrl, alt) = (
        KeyModifiers::NONE,
        KeyModifiers::SHIFT,
        KeyModifiers::CONTROL,
        KeyModifiers::ALT,
    );
    assert_eq!(event(KeyCode::Char('?'), shift), key("?"));
    assert_eq!(event(KeyCode::Char('?'), none), key("?"));
    assert_eq!(event(KeyCode::Char('A'), shift), key("A"));
    assert_eq!(event(KeyCode::Char('A'), none), key("A"));
    assert_eq!(event(KeyCode::Char('z'), ctrl), key("Ctrl-z"));
    assert_eq!(event(KeyCode::Char('Z'), ctrl | shift), key("Ctrl-z"));
    assert_eq!(event(KeyCode::Char('1'), alt), key("Alt-1"));
    assert_eq!(event(KeyCode::BackTab, shift), key("BackTab"));
    assert_eq!(event(KeyCode::Tab, shift), key("Shift-Tab"));
    assert_eq!(event(KeyCode::F(1), none), key("F1"));
    assert_eq!(event(KeyCode::Up, shift), key("Shift-Up"));
    assert_ne!(event(KeyCode::Up, shift), key("Up"));
    assert_eq!(event(KeyCode::Enter, KeyModifiers::SUPER), key("Enter"));
    let keys = Config::defaults().keys;
    assert_eq!(keys.lookup(&event(KeyCode::Char('?'), shift)), Some("help"));
    assert_eq!(keys.lookup(&event(KeyCode::Char('s'), ctrl)), Some("save"));
    assert_eq!(keys.lookup(&event(KeyCode::Char('s'), none)), None);
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
        assert_eq!(keys::action_info(a.name), Some(a));
    }
}

#[test]
fn readme_example_is_valid() {
    let readme = include_str!("../../README.md");
    let section = &readme[readme.find("## Configuration").expect("section")..];
    let start = section.find("```toml\n").expect("toml block") + "```toml\n".len();
    let block = &section[start..start + section[start..].find("```").expect("block end")];
    let c = Config::from_toml_str(block).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.keys.lookup(&key("Ctrl-t")), Some("move-back"));
    assert_eq!(c.keys.lookup(&key("?")), None);
}

#[test]
fn readme_key_table_names_every_action_with_its_default_keys() {
    let readme = include_str!("../../README.md");
    let section = &readme[readme.find("### Keys").expect("keys section")..];
    let section = &section[..section[4..].find("\n#").map_or(section.len(), |i| i + 4)];
    let defaults = Config::defaults();
    for info in ACTIONS {
        assert!(
            section.contains(&format!("`{}`", info.name)),
            "README's key table lacks `{}`",
            info.name
        );
    }
    // Rows of one action: the keys column is its default keys, as the help shows them.
    let mut checked = 0;
    for row in section.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = row
            .split(" | ")
            .map(|c| c.trim_matches(['|', ' ']))
            .collect();
        let Some(name) = cells
            .get(1)
            .and_then(|c| c.strip_prefix('`')?.strip_suffix('`'))
        else {
            continue;
        };
        if name.contains('`') || keys::action_info(name).is_none() {
            continue;
        }
        let shown: Vec<String> = defaults
            .keys
            .keys_of(name)
            .iter()
            .map(Key::to_string)
            .collect();
        // A note in brackets (`Backspace (also Ctrl-H)`) is about the terminal.
        let keys = cells[0].split(" (").next().unwrap_or("").replace('`', "");
        assert_eq!(keys, shown.join(", "), "README's row of {name}");
        checked += 1;
    }
    assert!(checked > 20, "only {checked} rows read");
}
