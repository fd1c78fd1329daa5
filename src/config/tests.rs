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
    assert_eq!(c.engine.path, "stockfish");
    assert_eq!(
        (c.engine.threads, c.engine.hash, c.engine.lines),
        (1, 64, 3)
    );
    assert!(c.keys.entries.is_empty());
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
fn example_is_the_defaults_with_every_option_commented() {
    // Everything but its [keys], which the app's tests check against the declarations.
    let without_keys = |c: Config| Config {
        keys: KeyTable::default(),
        ..c
    };
    assert_eq!(
        Config::from_toml_str(EXAMPLE).ok().map(without_keys),
        Some(Config::defaults())
    );
    let example = entries(EXAMPLE);
    let defaults = entries(DEFAULTS);
    let names = |e: &[(String, String, String)]| -> Vec<(String, String)> {
        e.iter().map(|(t, k, _)| (t.clone(), k.clone())).collect()
    };
    // The example's [keys] are the declared default keys: checked by the app's tests.
    let settings = |e: Vec<(String, String, String)>| -> Vec<(String, String, String)> {
        e.into_iter().filter(|(t, _, _)| t != "keys").collect()
    };
    let (example, defaults) = (settings(example), settings(defaults));
    assert_eq!(names(&example), names(&defaults));
    for (table, key, comment) in &example {
        assert!(!comment.is_empty(), "no comment above {table}.{key}");
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
        "engine.path",
        "engine.threads",
        "engine.hash",
        "engine.lines",
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
         [keys]\nhelp = [\"F2\"]\nsave = []\nflip-board = [\"Ctrl-f\", \"Alt-f\"]\n",
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
    assert_eq!(c.keys.entries.len(), 3);
    assert_eq!(c.keys.entries[0].action, "help");
    assert_eq!(c.keys.entries[0].keys, [(key("F2"), (10, 9))]);
    assert_eq!(c.keys.entries[1].action, "save");
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
            "unknown table [colour]: expected one of notation, board, recording, engine, training, keys",
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
    ];
    for (text, position, message) in cases {
        let e = error(text);
        assert_eq!(e.message(), *message, "{text:?}");
        assert_eq!(e.position(), Some(*position), "{text:?}");
    }
}

#[test]
fn engine_settings_are_read_and_out_of_range_numbers_refused() {
    let c = Config::from_toml_str("[engine]\npath = \"/opt/sf\"\nlines = 5\nthreads = 2\n")
        .expect("valid");
    assert_eq!(c.engine.path, "/opt/sf");
    assert_eq!(
        (c.engine.threads, c.engine.hash, c.engine.lines),
        (2, 64, 5)
    );
    let cases: &[(&str, (usize, usize), &str)] = &[
        (
            "[engine]\nlines = 9\n",
            (2, 9),
            "bad value 9 for engine.lines: expected a whole number from 1 to 5",
        ),
        (
            "[engine]\nthreads = 0\n",
            (2, 11),
            "bad value 0 for engine.threads: expected a whole number from 1 to 1024",
        ),
        (
            "[engine]\nhash = \"big\"\n",
            (2, 8),
            "bad value \"big\" for engine.hash: expected a whole number from 1 to 65536",
        ),
        (
            "[engine]\npath = \" \"\n",
            (2, 8),
            "bad value \" \" for engine.path: expected a program's name or path \
             (\"stockfish\", \"/usr/games/stockfish\"), not an empty one",
        ),
        (
            "[engine]\ndepth = 20\n",
            (2, 1),
            "unknown key \"depth\" in [engine]: expected one of path, threads, hash, lines",
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
    let loaded = Config::load_from(&missing).expect("a missing file is the defaults");
    assert_eq!(loaded.keys.path.as_deref(), Some(missing.as_path()));
    assert_eq!(
        Config {
            keys: KeyTable::default(),
            ..loaded
        },
        Config::defaults()
    );

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
}

#[test]
fn readme_example_is_valid() {
    let readme = include_str!("../../README.md");
    let section = &readme[readme.find("## Configuration").expect("section")..];
    let start = section.find("```toml\n").expect("toml block") + "```toml\n".len();
    let block = &section[start..start + section[start..].find("```").expect("block end")];
    let c = Config::from_toml_str(block).unwrap_or_else(|e| panic!("{e}"));
    assert!(!c.keys.entries.is_empty(), "the example sets keys");
}

#[test]
fn a_value_where_a_table_belongs_says_how_to_write_the_table() {
    let e = error("notation = 5\n");
    assert_eq!(e.position(), Some((1, 12)));
    assert_eq!(
        e.message(),
        "bad value 5 for notation: expected a table: write [notation] on a line of its own, \
         then its settings on the lines below it (input, display, lang), like [notation] then \
         input = \"de\""
    );
    assert!(!error("board = \"x\"\n").message().contains("struct"));
    assert!(error("keys = 3\n")
        .message()
        .contains("take-back = [\"Ctrl-z\"]"));
    // The settings listed are those the tables take (what an unknown key in them lists).
    for (table, listed) in [
        ("notation", "input, display, lang"),
        ("board", "style, theme, colors, square, coordinates"),
        ("recording", "autosave, timer, inside"),
    ] {
        let unknown = error(&format!("[{table}]\nzzz = 1\n")).message();
        assert!(
            unknown.ends_with(&format!("expected one of {listed}")),
            "{unknown}"
        );
        let e = error(&format!("{table} = 1\n")).message();
        assert!(e.contains(&format!("({listed})")), "{e}");
    }
    let unknown = error("[training]\nzzz = 1\n").message();
    assert!(unknown.ends_with("expected name"), "{unknown}");
    let e = error("training = 1\n").message();
    assert!(e.contains("(name)"), "{e}");
}

#[test]
fn a_table_or_key_written_twice_is_named_with_both_lines() {
    let e = error("[board]\ntheme = \"blue\"\n\n[board]\nsquare = \"large\"\n");
    assert_eq!(e.position(), Some((4, 2)));
    assert_eq!(
        e.message(),
        "table [board] is written twice, on line 1 and on line 4: put all its settings \
         under one [board]"
    );
    let e = error("[notation]\ninput = \"de\"\n[board]\ntheme = \"blue\"\ntheme = \"wood\"\n");
    assert_eq!(e.position(), Some((5, 1)));
    assert_eq!(
        e.message(),
        "key \"theme\" in [board] is set twice, on line 4 and on line 5: keep one"
    );
}

#[test]
fn a_file_named_by_the_environment_must_exist() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("typo.toml");
    let e = Config::load_named(Some(missing.clone().into_os_string())).expect_err("missing");
    assert_eq!(
        e.to_string(),
        format!(
            "cannot read {}: no such file (it is named by SCORESHEET_CONFIG; unset it to use \
             the defaults)",
            missing.display()
        )
    );
    std::fs::write(&missing, "[board]\nsquare = \"large\"\n").expect("write");
    let c = Config::load_named(Some(missing.into_os_string())).expect("read");
    assert_eq!(c.board.square, SquareSize::Large);
}

#[test]
fn control_characters_in_a_configuration_message_are_escaped() {
    let e = error("[board]\ntheme = \"\\u001b[2Jpink\"\n");
    let shown = e.to_string();
    assert!(!shown.contains('\u{1b}'), "{shown:?}");
    let e = error(&format!("[board]\ntheme = \"{}\"\n", "p".repeat(100_000)));
    assert!(e.to_string().len() < 400, "{}", e.to_string().len());
}

#[test]
fn the_key_preset_is_read_and_a_bad_one_is_refused_with_the_choices() {
    assert_eq!(Config::defaults().keys.preset, Preset::Default);
    let c = Config::from_toml_str("[keys]\npreset = \"vim\"\nhelp = [\"F1\"]\n").expect("valid");
    assert_eq!(c.keys.preset, Preset::Vim);
    assert_eq!(c.keys.entries.len(), 1, "preset is not an action");
    let e = error("[keys]\npreset = \"emacs\"\n");
    assert_eq!(
        e.message(),
        "bad value \"emacs\" for keys.preset: expected default or vim"
    );
    assert_eq!(e.position(), Some((2, 10)));
    // An action's list is still checked as a list.
    let e = error("[keys]\npreset = \"vim\"\nhelp = \"F1\"\n");
    assert!(
        e.message().starts_with("bad value \"F1\" for keys.help"),
        "{e}"
    );
}

#[test]
fn a_file_that_is_not_utf8_is_refused_where_it_stops_being_utf8() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("config.toml");
    std::fs::write(&file, b"[board]\ntheme = \"gr\xe9y\"\n").expect("write");
    let e = Config::load_from(&file).expect_err("not UTF-8");
    assert_eq!(e.position(), Some((2, 12)));
    assert_eq!(
        e.to_string(),
        format!(
            "{}:2:12: byte 0xE9 is not UTF-8 text: save the file as UTF-8 (TOML is UTF-8)",
            file.display()
        )
    );
}
