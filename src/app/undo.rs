//! Undo and redo. Every update that changes the game (it calls `changed`, which the
//! journal needs anyway) leaves a version in the game's [`History`], with the
//! cursor from before the change and from after it, and the moves waiting after a
//! correction. Undo and redo are changes too: the journal records the game they
//! leave, and the game is saved only when it is the version in the file.

use super::{App, Effect, Message, Pending};
use crate::game::history::History;
use crate::game::NodeId;

/// What the history keeps beside each version of the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Mark {
    /// The current move.
    pub cursor: NodeId,
    /// Moves cut off by a correction, waiting for the right move.
    pub pending: Option<Pending>,
}

/// The history of a game that starts as `app`'s.
pub(super) fn fresh(app: &App) -> History<Mark> {
    History::new(
        app.game.clone(),
        Mark {
            cursor: app.cursor,
            pending: app.pending.clone(),
        },
        !app.unsaved,
    )
}

/// The first part of a status message, before its advice: what was done.
fn what_was_done(text: &str) -> &str {
    text.split("; ").next().unwrap_or(text)
}

impl App {
    /// The first key bound to `action`, as the help screen writes it, or the
    /// `command` that does the same when no key is (or the keys are not known).
    pub(super) fn key_for(&self, action: &str, command: &'static str) -> String {
        self.key_named(action)
            .map_or_else(|| command.to_string(), ToString::to_string)
    }

    /// The key to name for `action` where the user is: its first key; with the
    /// vim preset on the game screen, a character key first in normal mode (the
    /// letters are the keys there) and never one in insert mode (it types).
    pub(super) fn key_named(&self, action: &str) -> Option<&crate::config::Key> {
        let keys = self.keymap.keys_of(action);
        if !self.keymap.modal() || self.screen != super::Screen::Game {
            return keys.first();
        }
        let is_char = super::keymap::types_text;
        if self.normal_mode() {
            keys.iter().find(|k| is_char(k)).or(keys.first())
        } else {
            keys.iter().find(|k| !is_char(k))
        }
    }

    /// How to undo, for the message of a key that removes something: `Ctrl-Z to undo`.
    pub(super) fn undo_hint(&self) -> String {
        format!("{} to undo", self.key_for("undo", ":undo"))
    }

    /// Says what a change that removed something did and how to take it back; the
    /// undo and redo messages name the change the same way.
    pub(super) fn inform_undoable(&mut self, done: String) {
        self.inform(format!("{done}: {}", self.undo_hint()));
        self.change_label = Some(done);
    }

    /// Runs `step` (an action, a paste) and, when it changed the game, keeps the
    /// new version in the history: every door into the state goes through here.
    pub(super) fn recorded(&mut self, step: impl FnOnce(&mut App) -> Effect) -> Effect {
        let cursor = self.cursor;
        let edits = self.edits;
        let message = self.message.clone();
        self.played.clear();
        self.change_label = None;
        let effect = step(self);
        if self.edits != edits {
            self.record_change(cursor, &message);
        }
        effect
    }

    /// After an update that called `changed`: keeps the new version of the game in
    /// the history. `cursor` was the current move before the update and `message`
    /// the status line.
    fn record_change(&mut self, cursor: NodeId, message: &Message) {
        let played = std::mem::take(&mut self.played);
        let label = self.change_label.take();
        let same =
            self.game == *self.versions.game() && self.pending == self.versions.mark().pending;
        if same {
            // Nothing changed after all (a tag set to the value it had).
            self.unsaved = !self.versions.is_saved();
            return;
        }
        let label = label
            .or_else(|| {
                let first = played.first()?;
                let last = played.last()?;
                Some(if first == last {
                    format!("played {}", self.numbered_move(*first))
                } else {
                    format!(
                        "played {} to {}",
                        self.numbered_move(*first),
                        self.numbered_move(*last)
                    )
                })
            })
            .or_else(|| {
                (self.message != *message && !self.message.text.is_empty())
                    .then(|| what_was_done(&self.message.text).to_string())
            })
            .unwrap_or_else(|| "the last change".to_string());
        let before = Mark {
            cursor,
            pending: self.versions.mark().pending.clone(),
        };
        let after = Mark {
            cursor: self.cursor,
            pending: self.pending.clone(),
        };
        self.versions
            .record(before, self.game.clone(), after, label);
    }

    /// Takes the last change back.
    pub(super) fn undo(&mut self) -> Effect {
        let redo = self.key_for("redo", ":redo");
        match self.versions.undo() {
            Some(step) => {
                let text = format!("undid: {}; {redo} to redo", step.label);
                let (game, mark) = (step.game.clone(), step.mark.clone());
                self.restore(game, mark);
                self.inform(text);
            }
            None => self.inform("nothing to undo"),
        }
        Effect::None
    }

    /// Makes the change last undone again.
    pub(super) fn redo(&mut self) -> Effect {
        let undo = self.key_for("undo", ":undo");
        match self.versions.redo() {
            Some(step) => {
                let text = format!("redid: {}; {undo} to undo", step.label);
                let (game, mark) = (step.game.clone(), step.mark.clone());
                self.restore(game, mark);
                self.inform(text);
            }
            None => self.inform("nothing to redo"),
        }
        Effect::None
    }

    fn restore(&mut self, game: crate::game::Game, mark: Mark) {
        self.game = game;
        // A mark always names a move of its own version; should a change ever
        // reach the game without passing `recorded`, the line's end is still safe.
        self.cursor = if self.game.is_live(mark.cursor) {
            mark.cursor
        } else {
            self.line_end(NodeId::ROOT)
        };
        self.pending = mark.pending;
        self.unsaved = !self.versions.is_saved();
        self.journal_due = true;
        self.refresh_opening();
    }
}
