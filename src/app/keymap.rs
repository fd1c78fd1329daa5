//! The keymap: which key runs which action on each screen, built from the
//! default keys declared with each action ([`ACTIONS`]) — with the vim preset,
//! their vim keys too — and the user's `[keys]` table laid over them. An action
//! the user's file names gets exactly the keys written there (`[]` unbinds it).
//! With the vim preset a character bound on the game screen acts in normal
//! mode only (see [`super::mode`]); in insert mode it types.

use std::collections::HashMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Action, ACTIONS};
use super::Screen;
use crate::config::{ConfigError, Key, KeyTable, Preset};

/// Which action each key runs on each screen, and which keys each action has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    /// The keys of each action, indexed like [`ACTIONS`].
    keys: Vec<Vec<Key>>,
    by_key: HashMap<(Screen, Key), Action>,
    preset: Preset,
}

impl Default for Keymap {
    fn default() -> Keymap {
        Keymap::new(&KeyTable::default()).expect("the declared default keys do not clash")
    }
}

/// A key as the user's file wrote it, with its line and column.
type Written = (Key, (usize, usize));

/// Whether a key types text (a character without Ctrl or Alt).
pub fn types_text(key: &Key) -> bool {
    matches!(key.code(), KeyCode::Char(_))
        && !key
            .modifiers()
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

impl Keymap {
    /// The declared keys of the table's preset with the user's `[keys]` laid
    /// over them. Refused, with where: an unknown action, a plain character
    /// bound on the game screen in the default preset (where it types moves;
    /// `?` is the exception, acting only on an empty entry line), and a key
    /// bound to two actions of one screen.
    pub fn new(table: &KeyTable) -> Result<Keymap, ConfigError> {
        let vim = table.preset == Preset::Vim;
        let mut keys: Vec<Vec<Key>> = ACTIONS
            .iter()
            .map(|d| {
                let extra: &[&str] = if vim { d.vim } else { &[] };
                d.keys
                    .iter()
                    .chain(extra)
                    .map(|k| Key::parse(k).expect("a declared key is a valid key name"))
                    .collect()
            })
            .collect();
        let mut written: Vec<Option<&[Written]>> = vec![None; ACTIONS.len()];
        for entry in &table.entries {
            let Some(i) = ACTIONS.iter().position(|d| d.name == entry.action) else {
                let names: Vec<&str> = ACTIONS.iter().map(|d| d.name).collect();
                return Err(table.error(
                    Some(entry.at),
                    format!(
                        "unknown action \"{}\" in [keys]: expected one of {}",
                        entry.action,
                        names.join(", ")
                    ),
                ));
            };
            for (key, at) in &entry.keys {
                let on_game = ACTIONS[i].screens.has(Screen::Game);
                // In normal mode (vim preset) characters type nothing: any may be a key.
                // `?` and `:` act only on an empty entry line, where `:` starts what it
                // would have typed anyway.
                let plain_ok = vim
                    || matches!(key.code(), KeyCode::Char('?'))
                    || (key.code() == KeyCode::Char(':')
                        && ACTIONS[i].action == Action::CommandLine);
                if on_game && types_text(key) && !plain_ok {
                    return Err(table.error(
                        Some(*at),
                        format!(
                            "key \"{}\" for keys.{} is a plain character, which types moves and \
                             commands on the entry line: bind a Ctrl-, Alt- or F-key instead \
                             ({}); only \"?\" may be bound plain (it acts on an empty entry line), \
                             unless [keys] preset = \"vim\" (letters are keys in its normal mode)",
                            crate::message::shown(&key.to_string()),
                            entry.action,
                            match key.code() {
                                KeyCode::Char(c) if c.is_ascii_alphanumeric() => {
                                    let c = c.to_ascii_lowercase();
                                    format!("like \"Ctrl-{c}\", \"Alt-{c}\" or \"F2\"")
                                }
                                _ => "like \"F2\"".to_string(),
                            }
                        ),
                    ));
                }
            }
            keys[i] = entry.keys.iter().map(|(k, _)| *k).collect();
            written[i] = Some(&entry.keys);
        }
        let mut by_key: HashMap<(Screen, Key), Action> = HashMap::new();
        for (i, decl) in ACTIONS.iter().enumerate() {
            for key in &keys[i] {
                for screen in [Screen::Game, Screen::List] {
                    if !decl.screens.has(screen) {
                        continue;
                    }
                    match by_key.insert((screen, *key), decl.action) {
                        Some(first) if first != decl.action => {
                            let first_name = first.name().unwrap_or("?");
                            // Point at the user's binding when the clash involves one.
                            let at = [
                                i,
                                ACTIONS.iter().position(|d| d.action == first).unwrap_or(i),
                            ]
                            .iter()
                            .find_map(|&j| {
                                written[j]?
                                    .iter()
                                    .find(|(k, _)| k == key)
                                    .map(|(_, at)| *at)
                            });
                            return Err(table.error(
                                at,
                                format!(
                                    "key {key} is bound to both {first_name} and {} (on the {} screen)",
                                    decl.name,
                                    screen.name()
                                ),
                            ));
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(Keymap {
            keys,
            by_key,
            preset: table.preset,
        })
    }

    /// True when the game screen has modes (the vim preset).
    pub fn modal(&self) -> bool {
        self.preset == Preset::Vim
    }

    /// The action a key runs on a screen.
    pub fn lookup(&self, screen: Screen, key: &Key) -> Option<Action> {
        self.by_key.get(&(screen, *key)).copied()
    }

    /// The keys of an action (empty for an unbound or unknown action).
    pub fn keys_of(&self, action: &str) -> &[Key] {
        ACTIONS
            .iter()
            .position(|a| a.name == action)
            .map_or(&[], |i| &self.keys[i])
    }

    /// The keys of an action as the help writes them (`F1, ?`), empty when unbound.
    pub fn shown(&self, action: &str) -> String {
        self.keys_of(action)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The action a key event asks for on a screen: a binding, else the
    /// character it types. A bound character acts only when `chars_act`
    /// (normal mode; in the default preset, nothing typed on the line that
    /// takes text: the entry line, the list's filter).
    pub fn action_of(&self, screen: Screen, event: &KeyEvent, chars_act: bool) -> Option<Action> {
        let key = Key::from_event(event);
        let bound = self.lookup(screen, &key);
        let plain_char = match event.code {
            KeyCode::Char(c)
                if !event
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                Some(c)
            }
            _ => None,
        };
        match (bound, plain_char) {
            // A character bound to an action (`?` for help) acts only on an empty
            // line; inside a move (`Nf3?`) it is text.
            (Some(action), Some(_)) if chars_act => Some(action),
            (_, Some(c)) => Some(Action::Type(c)),
            (bound, None) => bound,
        }
    }
}
