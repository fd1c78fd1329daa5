//! Key names and the keymap: what the user writes in `[keys]` (`Ctrl-z`, `F1`, `?`), the
//! normalised form a terminal key event is compared in, and the table of actions.
//!
//! The action names here are the stable, user-facing names; the app builds its `Action` enum
//! from them (and a test there checks the two lists agree).

use std::collections::HashMap;
use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// An action's stable name and its one-line description (shown on the help screen and written
/// above its line in the default configuration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionInfo {
    /// The kebab-case name used in `[keys]`.
    pub name: &'static str,
    /// One line saying what the action does.
    pub doc: &'static str,
}

const fn action(name: &'static str, doc: &'static str) -> ActionInfo {
    ActionInfo { name, doc }
}

/// Every action that can be bound to a key, in the order the help screen lists them.
pub const ACTIONS: &[ActionInfo] = &[
    action(
        "play-entry",
        "Play the move or run the command on the entry line",
    ),
    action("erase-char", "Erase the last character of the entry line"),
    action("clear-entry", "Clear the entry line"),
    action("cancel", "Close the overlay or clear the entry line"),
    action("history-prev", "Recall the previous entry"),
    action("history-next", "Recall the next entry"),
    action("move-back", "Go back one move"),
    action("move-forward", "Go forward one move"),
    action("page-back", "Go back ten moves"),
    action("page-forward", "Go forward ten moves"),
    action("go-start", "Go to the start of the game"),
    action("go-end", "Go to the end of the line"),
    action(
        "next-variation",
        "Switch to the next variation at this move",
    ),
    action("undo", "Undo the last change to the game"),
    action("redo", "Redo the change last undone"),
    action("take-back", "Take back the last move"),
    action(
        "delete-from-here",
        "Delete this move and everything after it",
    ),
    action(
        "promote-variation",
        "Promote this variation over its parent line",
    ),
    action(
        "toggle-replace",
        "Switch between adding a variation and replacing moves when typing inside the game",
    ),
    action("flip-board", "Turn the board around"),
    action("help", "Show the keys and commands"),
    action("nag-good", "Mark the move good (!)"),
    action("nag-mistake", "Mark the move a mistake (?)"),
    action("nag-brilliant", "Mark the move brilliant (!!)"),
    action("nag-blunder", "Mark the move a blunder (??)"),
    action("nag-interesting", "Mark the move interesting (!?)"),
    action("nag-dubious", "Mark the move dubious (?!)"),
    action("nag-clear", "Remove the move's marks"),
    action(
        "toggle-draw-offer",
        "Mark or unmark a draw offer (=) with this move",
    ),
    action("edit-comment", "Edit the comment after this move"),
    action("toggle-timer", "Start or stop the move timer"),
    action("save", "Write the game to its file"),
    action("quit", "Quit (asks again while the game is unsaved)"),
];

/// The action with this name, if there is one.
pub fn action_info(name: &str) -> Option<&'static ActionInfo> {
    ACTIONS.iter().find(|a| a.name == name)
}

/// Named keys, in the spelling [`Key`]'s `Display` uses (parsing ignores case).
const NAMES: &[(&str, KeyCode)] = &[
    ("Enter", KeyCode::Enter),
    ("Esc", KeyCode::Esc),
    ("Backspace", KeyCode::Backspace),
    ("Tab", KeyCode::Tab),
    ("BackTab", KeyCode::BackTab),
    ("Delete", KeyCode::Delete),
    ("Insert", KeyCode::Insert),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
    ("PageUp", KeyCode::PageUp),
    ("PageDown", KeyCode::PageDown),
    ("Up", KeyCode::Up),
    ("Down", KeyCode::Down),
    ("Left", KeyCode::Left),
    ("Right", KeyCode::Right),
    ("Space", KeyCode::Char(' ')),
];

/// The modifiers a binding can use; others (Super, Hyper, Meta) are dropped.
const MODIFIERS: KeyModifiers = KeyModifiers::CONTROL
    .union(KeyModifiers::ALT)
    .union(KeyModifiers::SHIFT);

/// A key with its modifiers, normalised so that a binding and a terminal event for the same
/// key compare equal: character keys never carry Shift (the character says it: `?`, `A`),
/// Ctrl letters are lowercase, Shift-Tab is `BackTab`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    code: KeyCode,
    modifiers: KeyModifiers,
}

/// Why a key name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyParseError(String);

impl Key {
    /// A normalised key from a code and modifiers.
    pub fn new(code: KeyCode, modifiers: KeyModifiers) -> Key {
        let mut modifiers = modifiers & MODIFIERS;
        let code = match code {
            KeyCode::Char(c) => {
                // Terminals disagree on whether `?` or `A` comes with Shift; the character
                // already says it. Shift with a letter is the capital letter.
                if modifiers.contains(KeyModifiers::SHIFT) && c.is_ascii_lowercase() {
                    modifiers.remove(KeyModifiers::SHIFT);
                    KeyCode::Char(c.to_ascii_uppercase())
                } else {
                    modifiers.remove(KeyModifiers::SHIFT);
                    KeyCode::Char(c)
                }
            }
            KeyCode::Tab if modifiers.contains(KeyModifiers::SHIFT) => {
                modifiers.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            KeyCode::BackTab => {
                modifiers.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            other => other,
        };
        // Ctrl-Z and Ctrl-z are the same key to a terminal.
        let code = match code {
            KeyCode::Char(c) if modifiers.contains(KeyModifiers::CONTROL) => {
                KeyCode::Char(c.to_ascii_lowercase())
            }
            other => other,
        };
        Key { code, modifiers }
    }

    /// The normalised key of a terminal key event (its kind, press or release, is ignored).
    pub fn from_event(event: &KeyEvent) -> Key {
        Key::new(event.code, event.modifiers)
    }

    /// The key code.
    pub fn code(&self) -> KeyCode {
        self.code
    }

    /// The modifiers (only Ctrl, Alt and Shift).
    pub fn modifiers(&self) -> KeyModifiers {
        self.modifiers
    }

    /// Reads a key as written in the configuration: optional `Ctrl-`, `Alt-`, `Shift-`
    /// prefixes (any case, any order), then a key name (`Enter`, `Esc`, `Backspace`, `Tab`,
    /// `BackTab`, `Delete`, `Insert`, `Home`, `End`, `PageUp`, `PageDown`, `Up`, `Down`,
    /// `Left`, `Right`, `F1`..`F12`, `Space`, any case) or a single character.
    pub fn parse(text: &str) -> Result<Key, KeyParseError> {
        let mut rest = text;
        let mut modifiers = KeyModifiers::NONE;
        loop {
            let mut stripped = false;
            for (prefix, modifier) in [
                ("ctrl-", KeyModifiers::CONTROL),
                ("alt-", KeyModifiers::ALT),
                ("shift-", KeyModifiers::SHIFT),
            ] {
                // A lone `-` after the prefixes is the minus key, not another prefix.
                if rest.len() > prefix.len()
                    && rest.is_char_boundary(prefix.len())
                    && rest[..prefix.len()].eq_ignore_ascii_case(prefix)
                {
                    rest = &rest[prefix.len()..];
                    modifiers |= modifier;
                    stripped = true;
                }
            }
            if !stripped {
                break;
            }
        }
        let code = name_code(rest).ok_or_else(|| {
            KeyParseError(if rest.is_empty() {
                "empty key name".to_string()
            } else {
                format!(
                    "unknown key name \"{rest}\": expected a single character, F1..F12 or one of {}",
                    NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                )
            })
        })?;
        Ok(Key::new(code, modifiers))
    }
}

/// The code of a key name or single character.
fn name_code(name: &str) -> Option<KeyCode> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Some(KeyCode::Char(c));
    }
    if let Some((_, code)) = NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
        return Some(*code);
    }
    let number = name.strip_prefix(['F', 'f'])?;
    match number.parse::<u8>() {
        Ok(n @ 1..=12) if !number.starts_with('0') && !number.starts_with('+') => {
            Some(KeyCode::F(n))
        }
        _ => None,
    }
}

impl fmt::Display for Key {
    /// The canonical spelling for the help screen: `Ctrl-Z`, `Alt-1`, `F1`, `?`, `PageUp`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.modifiers.contains(KeyModifiers::CONTROL) {
            f.write_str("Ctrl-")?;
        }
        if self.modifiers.contains(KeyModifiers::ALT) {
            f.write_str("Alt-")?;
        }
        if self.modifiers.contains(KeyModifiers::SHIFT) {
            f.write_str("Shift-")?;
        }
        if let Some((name, _)) = NAMES.iter().find(|(_, code)| *code == self.code) {
            return f.write_str(name);
        }
        match self.code {
            KeyCode::Char(c) if self.modifiers.contains(KeyModifiers::CONTROL) => {
                write!(f, "{}", c.to_ascii_uppercase())
            }
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "F{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// Which action each key runs, and which keys each action has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    /// The keys of each action, indexed like [`ACTIONS`].
    keys: Vec<Vec<Key>>,
    by_key: HashMap<Key, &'static str>,
}

/// Two actions bound to the same key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyConflict {
    /// The key.
    pub key: Key,
    /// The action listed first in [`ACTIONS`].
    pub first: &'static str,
    /// The other action.
    pub second: &'static str,
}

impl Keymap {
    /// A keymap from each action's keys (`keys` indexed like [`ACTIONS`]; missing entries
    /// mean no keys), refusing a key bound to two actions.
    pub fn new(keys: Vec<Vec<Key>>) -> Result<Keymap, KeyConflict> {
        let mut keys = keys;
        keys.resize(ACTIONS.len(), Vec::new());
        keys.truncate(ACTIONS.len());
        let mut by_key = HashMap::new();
        for (info, list) in ACTIONS.iter().zip(&keys) {
            for key in list {
                match by_key.insert(*key, info.name) {
                    Some(first) if first != info.name => {
                        return Err(KeyConflict {
                            key: *key,
                            first,
                            second: info.name,
                        })
                    }
                    _ => {}
                }
            }
        }
        Ok(Keymap { keys, by_key })
    }

    /// The action a key runs, by name.
    pub fn lookup(&self, key: &Key) -> Option<&'static str> {
        self.by_key.get(key).copied()
    }

    /// The keys of an action (empty for an unbound or unknown action).
    pub fn keys_of(&self, action: &str) -> &[Key] {
        ACTIONS
            .iter()
            .position(|a| a.name == action)
            .map_or(&[], |i| &self.keys[i])
    }

    /// Every action with its keys, in [`ACTIONS`] order: what the help screen lists.
    pub fn bindings(&self) -> impl Iterator<Item = (&'static ActionInfo, &[Key])> {
        ACTIONS.iter().zip(self.keys.iter().map(Vec::as_slice))
    }
}
