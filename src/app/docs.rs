//! The user's documents written from the declarations: the `[keys]` table of
//! `config.example.toml` and the README's tables of keys and commands. Tests
//! keep the files equal to these texts (`SCORESHEET_BLESS=1 cargo test docs`
//! rewrites them after a declaration changed).

use super::action::ACTIONS;
use super::command::COMMANDS;

/// The `[keys]` table: the preset, then every action with its description as
/// a comment and its default keys as the value (and, when the vim preset adds
/// keys, the line to write with that preset).
pub fn keys_toml() -> String {
    let mut out = String::from(
        "[keys]\n\
         # The keys to start from: \"default\", or \"vim\" (modes on the game screen: in normal\n\
         # mode letters are keys, h/l back and forward, i types a move, Esc comes back; see\n\
         # the README). An action listed below gets exactly the keys listed, in either preset:\n\
         # with \"vim\", write the line given under it, or leave the action out.\n\
         preset = \"default\"\n",
    );
    let list = |keys: &mut dyn Iterator<Item = &&str>| {
        keys.map(|k| format!("{k:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for d in ACTIONS {
        out.push_str(&format!(
            "# {}\n{} = [{}]\n",
            d.doc,
            d.name,
            list(&mut d.keys.iter())
        ));
        if !d.vim.is_empty() {
            out.push_str(&format!(
                "#   with preset = \"vim\": {} = [{}]\n",
                d.name,
                list(&mut d.keys.iter().chain(d.vim))
            ));
        }
    }
    out
}

/// A table cell: `|` escaped, code spans for what the user types.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The README's key table: keys (as the help shows them), action, screen, what it does.
pub fn keys_markdown() -> String {
    let keymap = super::Keymap::default();
    let mut out = String::from(
        "| Keys | Vim preset adds | Action | Screen | It does |\n|---|---|---|---|---|\n",
    );
    for d in ACTIONS {
        let keys = keymap.shown(d.name);
        let vim: Vec<String> = d
            .vim
            .iter()
            .map(|k| crate::config::Key::parse(k).map_or_else(|_| k.to_string(), |k| k.to_string()))
            .collect();
        out.push_str(&format!(
            "| {} | {} | `{}` | {} | {} |\n",
            if keys.is_empty() {
                "(none)".to_string()
            } else {
                cell(&keys)
            },
            cell(&vim.join(", ")),
            d.name,
            d.screens.name(),
            cell(d.doc)
        ));
    }
    out
}

/// The README's command table: each command with its arguments, what it does,
/// its other names and its `!` form.
pub fn commands_markdown() -> String {
    let mut out = String::from("| Command | It does |\n|---|---|\n");
    for c in COMMANDS {
        let call = if c.args.is_empty() {
            format!("`:{}`", c.name)
        } else {
            format!("`:{} {}`", c.name, c.args)
        };
        let mut doc = cell(c.doc);
        if !c.bang.is_empty() {
            doc.push_str(&format!("; `:{}!`: {}", c.name, cell(c.bang)));
        }
        if !c.aliases.is_empty() {
            let also: Vec<String> = c.aliases.iter().map(|a| format!("`:{a}`")).collect();
            doc.push_str(&format!(" (also {})", also.join(", ")));
        }
        out.push_str(&format!("| {} | {doc} |\n", cell(&call)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of `file` between the markers `<!-- NAME -->` and `<!-- /NAME -->`
    /// (or, for TOML, from `[keys]` to the end) is `expected`; with
    /// `SCORESHEET_BLESS` set, the file is rewritten instead.
    fn check_section(file: &str, start: &str, end: Option<&str>, expected: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = std::fs::read_to_string(&path).expect("the file is in the repository");
        let from = text
            .find(start)
            .unwrap_or_else(|| panic!("{file} lacks {start}"));
        let body = from + start.len();
        let to = match end {
            Some(end) => {
                body + text[body..]
                    .find(end)
                    .unwrap_or_else(|| panic!("{file} lacks {end}"))
            }
            None => text.len(),
        };
        let found = &text[body..to];
        if found == expected {
            return;
        }
        if std::env::var_os("SCORESHEET_BLESS").is_some() {
            let new = format!("{}{expected}{}", &text[..body], &text[to..]);
            std::fs::write(&path, new).expect("rewrite");
            return;
        }
        panic!(
            "{file} is not what the declarations say; run SCORESHEET_BLESS=1 cargo test docs \
             to rewrite it. Expected:\n{expected}"
        );
    }

    #[test]
    fn docs_example_config_lists_every_action_with_its_default_keys() {
        check_section(
            "config.example.toml",
            "\n[keys]\n",
            None,
            &keys_toml()["[keys]\n".len()..],
        );
        // And what it says is what the app runs with.
        let example =
            crate::config::Config::from_toml_str(include_str!("../../config.example.toml"))
                .expect("the example is valid");
        assert_eq!(
            super::super::Keymap::new(&example.keys).ok(),
            Some(super::super::Keymap::default())
        );
    }

    #[test]
    fn docs_readme_configuration_example_builds_a_keymap() {
        let readme = include_str!("../../README.md");
        let section = &readme[readme.find("## Configuration").expect("section")..];
        let start = section.find("```toml\n").expect("toml block") + "```toml\n".len();
        let block = &section[start..start + section[start..].find("```").expect("block end")];
        let config = crate::config::Config::from_toml_str(block).unwrap_or_else(|e| panic!("{e}"));
        let keys = super::super::Keymap::new(&config.keys).unwrap_or_else(|e| panic!("{e}"));
        let key = |k: &str| crate::config::Key::parse(k).expect("a key");
        let on_game = |k: &str| keys.lookup(super::super::Screen::Game, &key(k));
        assert_eq!(on_game("Ctrl-t"), Some(super::super::Action::MoveBack));
        assert_eq!(on_game("?"), None);
    }

    /// Every `cargo run --example NAME` the README shows can be run: its example is
    /// there (`examples/screen.rs` was once deleted with an unrelated change).
    #[test]
    fn docs_readme_examples_exist() {
        let readme = include_str!("../../README.md");
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut named = 0;
        for part in readme.split("--example ").skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let file = root.join("examples").join(format!("{name}.rs"));
            assert!(
                file.is_file(),
                "the README runs {name}: no {}",
                file.display()
            );
            named += 1;
        }
        assert!(named > 0, "the README names no example");
    }

    #[test]
    fn docs_readme_key_table_is_the_declarations() {
        check_section(
            "README.md",
            "<!-- keys -->\n",
            Some("<!-- /keys -->"),
            &keys_markdown(),
        );
    }

    #[test]
    fn docs_readme_command_table_is_the_declarations() {
        check_section(
            "README.md",
            "<!-- commands -->\n",
            Some("<!-- /commands -->"),
            &commands_markdown(),
        );
    }
}
