//! A game's edit history: the versions it went through, for undo and redo.
//!
//! Each change keeps the whole game as it was before it. A snapshot cannot get a
//! change wrong the way a hand-written inverse can, and every kind of edit — moves,
//! take-backs, deletions, replacements, promotions, tags, comments, glyphs, clocks,
//! draw offers, results — is covered without each one knowing how to undo itself.
//! A game of a hundred moves is a few kilobytes, so a thousand levels are cheap.
//!
//! Beside each version the caller keeps a mark of its own (a screen's cursor, moves
//! waiting after a correction, …): undo gives back the mark from just before the
//! change, redo the one from just after it, so the cursor returns to where the
//! change was made.
//!
//! The history also knows which version is the one in the file, so that undoing
//! back to it makes the game saved again, and undoing past it unsaved.

use std::collections::VecDeque;

use super::Game;

/// How many changes back undo reaches at most.
pub const MAX_LEVELS: usize = 1000;

/// How many tree nodes the kept versions may hold together (a node takes some
/// 150–250 bytes, so about 50 MB): a huge annotated game keeps fewer levels
/// rather than filling the memory.
pub const MAX_NODES: usize = 250_000;

/// One version of the game with the caller's mark and what made it.
#[derive(Debug, Clone)]
struct Version<M> {
    game: Game,
    mark: M,
    /// The change that led to this version.
    label: String,
    id: u64,
}

/// The versions of a game: the current one, those before it (undo) and those
/// undone (redo).
#[derive(Debug, Clone)]
pub struct History<M> {
    current: Version<M>,
    undo: VecDeque<Version<M>>,
    redo: Vec<Version<M>>,
    /// Nodes held by `undo` and `redo` together.
    nodes: usize,
    next_id: u64,
    /// The id of the version in the file, if one is.
    saved: Option<u64>,
    max_levels: usize,
    max_nodes: usize,
}

/// A step back or forward: the game to show, the mark to restore and the change
/// that was undone or redone.
#[derive(Debug)]
pub struct Step<'a, M> {
    /// The game as it is after the step.
    pub game: &'a Game,
    /// The caller's mark for it.
    pub mark: &'a M,
    /// What the undone or redone change was, as the caller described it.
    pub label: &'a str,
}

impl<M: Clone> History<M> {
    /// A history that starts at `game`; `saved` when it is the file's version.
    pub fn new(game: Game, mark: M, saved: bool) -> Self {
        Self::with_limits(game, mark, saved, MAX_LEVELS, MAX_NODES)
    }

    /// [`History::new`] with other limits than [`MAX_LEVELS`] and [`MAX_NODES`].
    pub fn with_limits(
        game: Game,
        mark: M,
        saved: bool,
        max_levels: usize,
        max_nodes: usize,
    ) -> Self {
        History {
            current: Version {
                game,
                mark,
                label: String::new(),
                id: 0,
            },
            undo: VecDeque::new(),
            redo: Vec::new(),
            nodes: 0,
            next_id: 1,
            saved: saved.then_some(0),
            max_levels,
            max_nodes,
        }
    }

    /// The current version of the game, as last recorded or restored.
    pub fn game(&self) -> &Game {
        &self.current.game
    }

    /// The current version's mark.
    pub fn mark(&self) -> &M {
        &self.current.mark
    }

    /// Records a change: `game` (with `after`, the mark just after the change) is
    /// the new current version, made by `label`; the version it replaces is kept
    /// with `before`, the mark just before the change. What was undone can no
    /// longer be redone.
    pub fn record(&mut self, before: M, game: Game, after: M, label: impl Into<String>) {
        let new = Version {
            game,
            mark: after,
            label: label.into(),
            id: self.next_id,
        };
        self.next_id += 1;
        let mut old = std::mem::replace(&mut self.current, new);
        old.mark = before;
        for dropped in self.redo.drain(..) {
            self.nodes -= dropped.game.len();
        }
        self.nodes += old.game.len();
        self.undo.push_back(old);
        while self.undo.len() > self.max_levels
            || (self.nodes > self.max_nodes && !self.undo.is_empty())
        {
            if let Some(oldest) = self.undo.pop_front() {
                self.nodes -= oldest.game.len();
            }
        }
    }

    /// Goes back one version; `None` when there is none.
    pub fn undo(&mut self) -> Option<Step<'_, M>> {
        let previous = self.undo.pop_back()?;
        let undone = std::mem::replace(&mut self.current, previous);
        self.nodes += undone.game.len();
        self.nodes -= self.current.game.len();
        self.redo.push(undone);
        let label = self.redo.last().map_or("", |v| v.label.as_str());
        Some(Step {
            game: &self.current.game,
            mark: &self.current.mark,
            label,
        })
    }

    /// Goes forward to the version last undone; `None` when there is none.
    pub fn redo(&mut self) -> Option<Step<'_, M>> {
        let next = self.redo.pop()?;
        let left = std::mem::replace(&mut self.current, next);
        self.nodes += left.game.len();
        self.nodes -= self.current.game.len();
        self.undo.push_back(left);
        Some(Step {
            game: &self.current.game,
            mark: &self.current.mark,
            label: &self.current.label,
        })
    }

    /// How many changes undo can take back now.
    pub fn undo_levels(&self) -> usize {
        self.undo.len()
    }

    /// How many undone changes redo can bring back now.
    pub fn redo_levels(&self) -> usize {
        self.redo.len()
    }

    /// The current version is now the one in the file.
    pub fn mark_saved(&mut self) {
        self.saved = Some(self.current.id);
    }

    /// True when the current version is the one in the file.
    pub fn is_saved(&self) -> bool {
        self.saved == Some(self.current.id)
    }
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
