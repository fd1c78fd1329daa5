//! Key names: what the user writes in `[keys]` (`Ctrl-z`, `F1`, `?`), the normalised form a
//! terminal key event is compared in, and the `[keys]` table as written. The actions
//! themselves, with their default keys, are declared once in `app::action`, which builds the
//! keymap from them and this table.

use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

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

/// The keys the keymap starts from, before the user's own (`[keys] preset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// One mode: every character types on the entry line; actions are on the
    /// navigation, Ctrl-, Alt- and F-keys.
    #[default]
    Default,
    /// Vim's modes on the game screen: in normal mode letters are keys (`h` `l`
    /// back and forward, `i` to type a move), in insert mode they type.
    Vim,
}

/// The `[keys]` table of the user's file as written: the preset, and which keys
/// the file gives each action it names, with where. The app checks it against
/// its actions (the names, the screens, the clashes) when it builds its keymap,
/// and words its errors with these positions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyTable {
    /// The file the table is from (`None` for a text given directly).
    pub path: Option<std::path::PathBuf>,
    /// The keys to start from (`preset = "vim"`).
    pub preset: Preset,
    /// The actions named, in the order written.
    pub entries: Vec<KeyEntry>,
}

/// One `action = [keys]` line of `[keys]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyEntry {
    /// The action's name as written.
    pub action: String,
    /// Line and column of the name.
    pub at: (usize, usize),
    /// The keys, each with its line and column (duplicates dropped).
    pub keys: Vec<(Key, (usize, usize))>,
}

impl KeyTable {
    /// An error about this table, at a line and column of its file.
    pub fn error(&self, at: Option<(usize, usize)>, message: String) -> super::ConfigError {
        super::ConfigError::Invalid(super::Invalid {
            path: self.path.clone(),
            position: at,
            message,
        })
    }
}
