//! Moving through the game: one move, to a move, at a fork (the move chosen with
//! Up/Down), into and out of variations, and the entries typed before.

use super::{App, Effect, Screen};
use crate::game::NodeId;

impl App {
    /// At a fork, the moves played next, the one chosen in brackets, and the keys.
    pub(super) fn fork_note(&self) -> Option<String> {
        let children = &self.game.node(self.cursor).children;
        if children.len() < 2 || self.screen != Screen::Game {
            return None;
        }
        let moves: Vec<String> = children
            .iter()
            .enumerate()
            .map(|(i, &id)| {
                let san = &self.game.node(id).san;
                if i == self.fork {
                    format!("[{san}]")
                } else {
                    san.clone()
                }
            })
            .collect();
        // Short enough for one row of 80 columns with three moves to choose from: a
        // second row would take one from the board and the moves at every fork.
        Some(format!(
            "next: {} — {}/{} choose, {} plays it, {} enters it",
            moves.join(" "),
            self.key_for("history-prev", "Up"),
            self.key_for("history-next", "Down"),
            self.key_for("move-forward", "Right"),
            self.key_for("enter-variation", "Shift-Right"),
        ))
    }

    /// Up (`back`) and Down through the entries typed before, as a shell does: what is
    /// typed is kept aside while they are recalled, and Down past the last gives it back
    /// (Down with nothing recalled changes nothing).
    pub(super) fn recall(&mut self, back: bool) {
        if self.history.is_empty() {
            return;
        }
        let last = self.history.len() - 1;
        let at = match (self.history_at, back) {
            (None, true) => {
                self.history_draft = std::mem::take(&mut self.entry);
                Some(last)
            }
            (None, false) => return,
            (Some(i), true) => Some(i.saturating_sub(1)),
            (Some(i), false) if i < last => Some(i + 1),
            (Some(_), false) => None,
        };
        self.history_at = at;
        self.entry = match at {
            Some(i) => self.history[i].clone(),
            None => std::mem::take(&mut self.history_draft),
        };
    }

    pub(super) fn remember(&mut self, text: &str) {
        if self.history.last().map(String::as_str) != Some(text) {
            self.history.push(text.to_string());
        }
        self.history_at = None;
        self.history_draft.clear();
    }

    pub(super) fn go(&mut self, id: NodeId) -> Effect {
        self.cursor = id;
        Effect::None
    }

    pub(super) fn walk(&mut self, steps: i32) -> Effect {
        // Forward from a fork takes the move chosen there with Up/Down; then first choices.
        let mut chosen = self.fork;
        for _ in 0..steps.unsigned_abs() {
            let node = self.game.node(self.cursor);
            let next = if steps < 0 {
                node.parent
            } else {
                node.children
                    .get(std::mem::take(&mut chosen))
                    .or(node.children.first())
                    .copied()
            };
            match next {
                Some(id) => self.cursor = id,
                None => break,
            }
        }
        Effect::None
    }

    /// Up and Down: at a fork (more than one move played after the current
    /// one) with nothing typed, they choose among its moves; otherwise they
    /// recall the entries typed before.
    pub(super) fn up_down(&mut self, up: bool) -> Effect {
        let count = self.game.node(self.cursor).children.len();
        if count > 1 && self.entry.is_empty() {
            self.fork = if up {
                (self.fork + count - 1) % count
            } else {
                (self.fork + 1) % count
            };
            return Effect::None;
        }
        // Normal mode has no line to recall entries onto.
        if self.normal_mode() {
            self.inform("no other move was played here");
            return Effect::None;
        }
        self.recall(up);
        Effect::None
    }

    /// Goes into a variation at the current move: the one chosen at the fork,
    /// else the first side line.
    pub(super) fn enter_variation(&mut self) -> Effect {
        let children = &self.game.node(self.cursor).children;
        let pick = if self.fork > 0 { self.fork } else { 1 };
        match children.get(pick) {
            Some(&id) => {
                self.cursor = id;
                Effect::None
            }
            None => {
                self.inform("no variation starts here");
                Effect::None
            }
        }
    }

    /// Leaves the variation the current move is in: back to the move it
    /// branches from (the move before the variation's first move).
    pub(super) fn leave_variation(&mut self) -> Effect {
        let mut at = self.cursor;
        while let Some(parent) = self.game.node(at).parent {
            if self.game.node(parent).children.first() != Some(&at) {
                self.fork = self
                    .game
                    .node(parent)
                    .children
                    .iter()
                    .position(|&c| c == at)
                    .unwrap_or(0);
                self.cursor = parent;
                return Effect::None;
            }
            at = parent;
        }
        self.inform("not in a variation");
        Effect::None
    }

    pub(super) fn next_variation(&mut self) -> Effect {
        let siblings = self.game.variations_at(self.cursor);
        if siblings.len() < 2 {
            self.inform("no other move was played here");
            return Effect::None;
        }
        let i = siblings.iter().position(|&s| s == self.cursor).unwrap_or(0);
        self.cursor = siblings[(i + 1) % siblings.len()];
        Effect::None
    }
}
