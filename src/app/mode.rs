//! The game screen's modes under `[keys] preset = "vim"`: in normal mode the
//! letters are keys (they run the actions whose vim keys they are); in insert
//! mode they type on the entry line, as they always do in the default preset;
//! the command line is insert mode entered with `:`, left again when its command
//! has run. Which keys act in which mode is the keymap's business
//! ([`super::Keymap::chars_act`]); this module owns the switches between modes
//! and the rule that keeps them honest: normal mode never holds typed text.

use super::{App, Effect, Overlay, Screen};

/// What characters do on the game screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// They type on the entry line (the only mode of the default preset).
    #[default]
    Insert,
    /// They are keys (vim preset).
    Normal,
    /// They type a `:` command; when it has run, back to normal (vim preset).
    Command,
}

impl Mode {
    /// Its name as the entry line shows it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Insert => "INSERT",
            Mode::Normal => "NORMAL",
            Mode::Command => "COMMAND",
        }
    }
}

impl App {
    /// Gives the app its keymap; with the vim preset the game screen starts in
    /// normal mode.
    pub fn set_keymap(&mut self, keymap: super::Keymap) {
        self.mode = if keymap.modal() {
            Mode::Normal
        } else {
            Mode::Insert
        };
        self.keymap = keymap;
    }

    /// True when the keymap has modes and the game screen is in normal mode.
    pub fn normal_mode(&self) -> bool {
        self.keymap.modal() && self.mode == Mode::Normal
    }

    /// Whether a character bound to an action runs it rather than typing: in
    /// normal mode (with no box open that takes characters as answers); in the
    /// default preset, on an empty line (`?`); on the list, while neither its filter
    /// nor a command is being typed.
    pub fn chars_act(&self) -> bool {
        match self.screen {
            Screen::List => self.entry.is_empty() && !self.list().is_some_and(|l| l.filtering),
            Screen::Game if self.keymap.modal() => {
                self.mode == Mode::Normal && matches!(self.overlay, Overlay::None | Overlay::Help)
            }
            Screen::Game => self.entry.is_empty(),
        }
    }

    /// `insert-mode`: characters type on the entry line until Esc.
    pub(super) fn insert_mode(&mut self) -> Effect {
        if !self.keymap.modal() {
            self.inform("characters always type here; modes come with [keys] preset = \"vim\"");
        }
        self.mode = Mode::Insert;
        Effect::None
    }

    /// `command-line`: `:` on the entry line; with modes, normal mode again once
    /// the command has run (or the line is emptied).
    pub(super) fn command_line(&mut self) -> Effect {
        if self.entry.is_empty() {
            self.entry.push(':');
        }
        if self.keymap.modal() {
            self.mode = Mode::Command;
        }
        Effect::None
    }

    /// Esc in insert or command mode: the line is dropped (as vim drops a
    /// command line) and normal mode comes back. False when there was no mode
    /// to leave, for Esc's other work.
    pub(super) fn leave_insert(&mut self) -> bool {
        if !self.keymap.modal() || self.mode == Mode::Normal {
            return false;
        }
        self.entry.clear();
        self.history_at = None;
        self.mode = Mode::Normal;
        true
    }

    /// After an update: a command line whose command ran (or was erased) goes
    /// back to normal mode, and text that reached the line in normal mode (a
    /// paste, an answer typed at the recovery box) is in insert mode, where it
    /// can be seen being edited.
    pub(super) fn settle_mode(&mut self) {
        if !self.keymap.modal() {
            return;
        }
        match self.mode {
            Mode::Command if self.entry.is_empty() => self.mode = Mode::Normal,
            Mode::Normal if !self.entry.is_empty() => {
                self.mode = if self.entry.starts_with(':') {
                    Mode::Command
                } else {
                    Mode::Insert
                };
            }
            _ => {}
        }
    }

    /// A character no action has in normal mode: nothing is typed; say how to.
    pub(super) fn refuse_in_normal_mode(&mut self, c: char) -> Effect {
        let typed = c.to_string();
        let shown = crate::message::shown(&typed);
        self.refuse(format!(
            "\"{shown}\" is not a key in normal mode: {} types a move, {} a command, {} lists the keys",
            self.key_for("insert-mode", ":help"),
            self.key_for("command-line", ":"),
            self.key_for("help", ":help"),
        ));
        Effect::None
    }
}
