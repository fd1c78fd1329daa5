//! The keys of the box of unsaved games ([`RecoverBox`]), and which game of its file's
//! list a recovered game is.
//!
//! A user who starts typing a move at once must not act on the box by accident:
//! so no letter acts in it. Typed text closes the box (the games stay for
//! `:recover`, the next start and `scoresheet recover`) and lands on the entry
//! line (over the game list, acts on the list); Up and Down choose a game, Enter recovers it, Delete asks to discard it
//! and a second Delete (or Enter) does, Esc leaves them all for later.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Action, App, Effect, Overlay, RecoverBox, Recovery, Screen};

impl App {
    /// The action a key asks for: its binding on the screen shown, else the
    /// character it types. The box of unsaved games answers to the game screen's
    /// keys wherever it opens: over the list (a file of many games opened after a
    /// crash) Enter would be the list's `open-game` and Delete nothing at all.
    pub fn action_of(&self, event: &KeyEvent) -> Option<Action> {
        let screen = match self.overlay {
            Overlay::Recover(_) => Screen::Game,
            _ => self.screen,
        };
        let chars_act = self.chars_act();
        let action = self.keymap.action_of(screen, event, chars_act);
        if action.is_none() && is_line_feed(event) {
            // Ctrl-J is the line feed some terminals (and a paste without
            // bracketed paste) end a line with: where it is not bound, it is Enter.
            let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
            return self.keymap.action_of(screen, &enter, chars_act);
        }
        action
    }

    /// Opens the box of unsaved games (or replaces its lines, keeping the
    /// selection where it can).
    pub fn offer_recovery(&mut self, games: Vec<String>, broken: Vec<String>) {
        let selected = match &self.overlay {
            Overlay::Recover(b) => b.selected.min(games.len().saturating_sub(1)),
            _ => 0,
        };
        if games.is_empty() && broken.is_empty() {
            if matches!(self.overlay, Overlay::Recover(_)) {
                self.overlay = Overlay::None;
            }
            return;
        }
        self.overlay = Overlay::Recover(RecoverBox {
            games,
            broken,
            selected,
            confirm_discard: false,
        });
    }

    pub(super) fn answer_recover(&mut self, action: Action) -> Effect {
        let Overlay::Recover(b) = &mut self.overlay else {
            return Effect::None;
        };
        let count = b.games.len();
        match action {
            Action::HistoryPrev | Action::MoveBack if count > 0 => {
                b.selected = (b.selected + count - 1) % count;
                b.confirm_discard = false;
                Effect::None
            }
            Action::HistoryNext | Action::MoveForward if count > 0 => {
                b.selected = (b.selected + 1) % count;
                b.confirm_discard = false;
                Effect::None
            }
            Action::DeleteFromHere if count > 0 && !b.confirm_discard => {
                b.confirm_discard = true;
                Effect::None
            }
            Action::DeleteFromHere | Action::PlayEntry if count > 0 && b.confirm_discard => {
                let i = b.selected;
                self.overlay = Overlay::None;
                Effect::Recovery(Recovery::Discard(i))
            }
            Action::PlayEntry if count > 0 => {
                let i = b.selected;
                self.overlay = Overlay::None;
                Effect::Recovery(Recovery::Recover(i))
            }
            Action::Cancel if b.confirm_discard => {
                b.confirm_discard = false;
                Effect::None
            }
            Action::Cancel | Action::PlayEntry => self.recovery_later(),
            // Text is the new game's: the box goes, the character stays. Over the list
            // the key does what it does there once the box has gone (`/` starts the
            // filter, a letter sorts), so that keys typed at once are not lost.
            // `:` (and the vim preset's `i`) start typing as a character does: the box
            // goes and the key does its work, or `:e FILE` typed at once would lose its
            // colon and be read as a move.
            Action::CommandLine | Action::InsertMode => {
                let effect = self.recovery_later();
                match action {
                    Action::CommandLine => self.command_line(),
                    _ => self.insert_mode(),
                };
                effect
            }
            Action::Type(c) => {
                let effect = self.recovery_later();
                if self.screen == Screen::Game {
                    self.entry.push(c);
                    return effect;
                }
                let shift = if c.is_uppercase() {
                    KeyModifiers::SHIFT
                } else {
                    KeyModifiers::NONE
                };
                match self.action_of(&KeyEvent::new(KeyCode::Char(c), shift)) {
                    Some(action) => self.update(action),
                    None => effect,
                }
            }
            _ => Effect::None,
        }
    }

    fn recovery_later(&mut self) -> Effect {
        let Overlay::Recover(b) = std::mem::replace(&mut self.overlay, Overlay::None) else {
            return Effect::None;
        };
        match b.games.len() {
            0 => {}
            1 => self.inform("the unsaved game is kept: :recover shows it again"),
            n => self.inform(format!(
                "the {n} unsaved games are kept: :recover shows them again"
            )),
        }
        Effect::Recovery(Recovery::Later)
    }

    /// The file and place of a recovered game whose number no list will tell (its file's
    /// list is not open): the loop counts the games before it in the background and
    /// answers with [`super::Done::Numbered`], so that the status corner says "game 3 in
    /// club.pgn" and `:snap` names the game.
    pub fn number_wanted(&self) -> Option<(std::path::PathBuf, u64)> {
        let (offset, file) = (self.unnumbered?, self.file.as_deref()?);
        let listed = self
            .list
            .as_deref()
            .is_some_and(|l| crate::store::same_file(&l.path, file));
        (!listed).then(|| (file.to_path_buf(), offset))
    }

    /// The number of the recovered game at `offset` of `path`, counted: its number,
    /// unless another game or file is on the screen by now.
    pub(super) fn numbered(&mut self, path: &std::path::Path, offset: u64, number: Option<u64>) {
        let ours = self.unnumbered == Some(offset)
            && self
                .file
                .as_deref()
                .is_some_and(|file| crate::store::same_file(file, path));
        if !ours {
            return;
        }
        self.unnumbered = None;
        // Not counted (the file cannot be read now): the corner names the file only, as
        // before, and a `:save` or `:snap` says what is wrong with it.
        if number.is_some() {
            self.number = number;
        }
    }

    /// A game recovered from its journal is one of the list's games when the list's
    /// file has a game where the journal says the game's text is: it gets that game's
    /// number, and is the list's open game (selected there, the next game after it).
    pub(super) fn number_recovered(&mut self) {
        let (Some(offset), Some(file)) = (self.unnumbered, self.file.as_deref()) else {
            return;
        };
        let Some(list) = self
            .list
            .as_deref_mut()
            .filter(|l| crate::store::same_file(&l.path, file))
        else {
            return;
        };
        let Some(number) = list.catalog.number_at(offset) else {
            return;
        };
        self.unnumbered = None;
        self.number = Some(number);
        list.open = Some(number);
        list.select_open = true;
        list.select_open_when_listed();
    }
}

/// Ctrl-J: the byte a line feed sends.
fn is_line_feed(event: &KeyEvent) -> bool {
    event.code == KeyCode::Char('j') && event.modifiers == KeyModifiers::CONTROL
}
