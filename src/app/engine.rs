//! The engine pane's side of the app: what the engine should be doing (running or
//! not, which position it searches) and what it last said about the position at
//! the cursor.
//!
//! The engine runs in a thread the event loop owns (`tui::engine`). The loop asks
//! [`App::engine_orders`] after every batch of input what to change — start, aim at
//! a position, stop searching, shut down — the way it asks whether the journal is
//! due: every path that moves the cursor or changes the game (a key, a command, a
//! loaded game, an undo) is covered without each one returning an order. What the
//! engine says comes back through [`App::update`] as [`Done::Engine`](super::Done),
//! and lines about any other position than the one at the cursor are dropped there.

use super::entry::Typed;
use super::pane::Pane;
use super::{App, Effect, Inside, Screen};
use crate::engine::{EngineConfig, EngineError, Lines, Target, Update};
use crate::game::NodeId;
use crate::position::{Move, Status};

/// What the loop must do with the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineOrder {
    /// Start the engine (in its thread) with this configuration.
    Start(EngineConfig),
    /// Search this position until told otherwise, dropping the search under way.
    Aim(Target),
    /// Stop searching (the engine stays up: the list screen is shown, or the
    /// position has no move to search).
    Halt,
    /// Shut the engine down (the pane closed, or a restart).
    Shutdown,
}

/// Where the engine is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum EngineState {
    /// Not running (the pane is closed).
    #[default]
    Off,
    /// Started, not yet through its handshake.
    Starting,
    /// Running; its name.
    Ready(String),
    /// It could not start, died or spoke nonsense: why. It stays stopped until the
    /// pane is opened again or `:engine restart`.
    Failed(String),
}

/// The engine pane's state.
#[derive(Debug, Default)]
pub struct EngineView {
    /// How to run the engine (the configuration's `[engine]`).
    pub config: EngineConfig,
    /// Where the engine is.
    pub state: EngineState,
    /// The best lines for the position at the cursor, once the engine gave some.
    pub lines: Option<Lines>,
    /// The loop has an engine running (or starting) for us.
    running: bool,
    /// The position the engine searches (`None`: it is not searching).
    aimed: Option<Target>,
    /// Shut the running engine down and start it again.
    restart: bool,
}

impl EngineView {
    /// An engine pane that will run the engine so configured.
    pub fn new(config: EngineConfig) -> Self {
        EngineView {
            config,
            ..EngineView::default()
        }
    }
}

/// The engine configuration of the `[engine]` table.
pub fn engine_config(settings: &crate::config::EngineSettings) -> EngineConfig {
    EngineConfig {
        path: settings.path.clone().into(),
        threads: Some(settings.threads),
        hash_mb: Some(settings.hash),
        multipv: settings.lines,
        ..EngineConfig::default()
    }
}

impl App {
    /// What the loop must do with the engine now, given the pane, the screen and
    /// the position at the cursor. Each change is asked for once.
    pub fn engine_orders(&mut self) -> Vec<EngineOrder> {
        let mut orders = Vec::new();
        // While training the engine rests: its lines would give the answers away.
        let open = self.pane == Pane::Engine && !self.training();
        let wanted = (open && self.screen == Screen::Game)
            .then(|| self.engine_target())
            .flatten();
        let e = &mut self.engine;
        if e.running && (!open || e.restart) {
            orders.push(EngineOrder::Shutdown);
            e.running = false;
            e.aimed = None;
            e.lines = None;
            e.state = EngineState::Off;
        }
        e.restart = false;
        if open && !e.running && !matches!(e.state, EngineState::Failed(_)) {
            orders.push(EngineOrder::Start(e.config.clone()));
            e.running = true;
            e.state = EngineState::Starting;
        }
        if e.running && wanted != e.aimed {
            orders.push(match &wanted {
                Some(target) => EngineOrder::Aim(target.clone()),
                None => EngineOrder::Halt,
            });
            let end = wanted.as_ref().map(Target::end);
            if e.lines.as_ref().map(|l| l.position) != end {
                e.lines = None;
            }
            e.aimed = wanted;
        }
        orders
    }

    /// The position at the cursor as the engine is given it: the game's start and
    /// the moves to the cursor (so that it sees repetitions). `None` when there is
    /// nothing to search (mate, stalemate). A line with a null move is given as
    /// its position alone: an engine cannot be sent a null move.
    fn engine_target(&self) -> Option<Target> {
        let pos = self.position();
        if matches!(pos.status(), Status::Checkmate | Status::Stalemate) {
            return None;
        }
        let moves: Option<Vec<_>> = self
            .game
            .path_to(self.cursor)
            .into_iter()
            .map(|id| match self.game.node(id).mv {
                Move::Normal(m) => Some(m),
                Move::Null => None,
            })
            .collect();
        Some(match moves {
            Some(moves) => Target {
                start: self.game.start,
                moves,
            },
            None => Target::position(pos),
        })
    }

    /// Takes in what the engine said.
    pub(super) fn engine_said(&mut self, update: Update) {
        let e = &mut self.engine;
        if !e.running {
            // A word from an engine already shut down.
            return;
        }
        match update {
            Update::Ready { name } => e.state = EngineState::Ready(name),
            Update::Lines { lines, .. } | Update::Done { lines, .. } => {
                // Lines about a position the cursor has left are stale.
                if e.aimed.as_ref().map(Target::end) == Some(lines.position) {
                    e.lines = Some(lines);
                }
            }
            Update::Failed(error) => {
                e.running = false;
                e.aimed = None;
                e.lines = None;
                // Where to name another engine, when this one cannot be run at all.
                let why = match error {
                    EngineError::NotFound { .. }
                    | EngineError::NotExecutable { .. }
                    | EngineError::Spawn { .. } => {
                        format!("{error}; it is `path` in the configuration's [engine] table")
                    }
                    _ => error.to_string(),
                };
                e.state = EngineState::Failed(why.clone());
                let advice = format!(
                    "{} closes the pane, :engine restart tries again",
                    self.key_for("engine", ":engine")
                );
                self.refuse(format!("{why} ({advice})"));
            }
        }
    }

    /// Opens or closes the engine pane (on the game screen).
    pub(super) fn toggle_engine(&mut self) -> Effect {
        if self.pane == Pane::Engine {
            self.pane = Pane::None;
            self.inform("engine pane closed (the engine is stopped)");
        } else {
            self.open_engine();
        }
        Effect::None
    }

    fn open_engine(&mut self) {
        self.pane = Pane::Engine;
        // Opening the pane again is how a failed engine is tried again.
        if matches!(self.engine.state, EngineState::Failed(_)) {
            self.engine.state = EngineState::Off;
        }
        self.inform(format!(
            "engine pane: {} plays its best move, {} closes it",
            self.key_for("engine-play", ":engine play"),
            self.key_for("engine", ":engine"),
        ));
    }

    /// `:engine restart`: starts the engine again, opening the pane if needed.
    pub(super) fn restart_engine(&mut self) -> Effect {
        if self.pane != Pane::Engine {
            self.open_engine();
        }
        if matches!(self.engine.state, EngineState::Failed(_)) {
            self.engine.state = EngineState::Off;
        }
        self.engine.restart = true;
        self.inform(format!(
            "restarting the engine ({})",
            self.engine.config.path.display()
        ));
        Effect::None
    }

    /// Plays the engine's best move at the cursor: follows it when the game has
    /// it there, else adds it — as the next move at the end of a line, as a
    /// variation inside the game (never replacing a move of the game).
    pub(super) fn play_engine_move(&mut self) -> Effect {
        if self.pane != Pane::Engine {
            self.refuse(format!(
                "no engine running: {} opens the engine pane",
                self.key_for("engine", ":engine")
            ));
            return Effect::None;
        }
        let pos = self.position();
        let best = self
            .engine
            .lines
            .as_ref()
            .filter(|l| l.position == pos)
            .and_then(|l| l.best())
            .and_then(|line| line.pv.first().copied());
        let Some(best) = best else {
            let why = match (&self.engine.state, pos.status()) {
                (_, Status::Checkmate) => "checkmate: there is no move to play".to_string(),
                (_, Status::Stalemate) => "stalemate: there is no move to play".to_string(),
                (EngineState::Failed(why), _) => why.clone(),
                _ => "the engine has no move for this position yet".to_string(),
            };
            self.refuse(why);
            return Effect::None;
        };
        let at_end = self.game.node(self.cursor).children.is_empty();
        if at_end && self.cursor == self.line_end(NodeId::ROOT) {
            if let Some(result) = self.result() {
                self.refuse(format!(
                    "the game is over ({result}): type the move to play on and clear the result"
                ));
                return Effect::None;
            }
        }
        // The game's own move: go to it, changing nothing.
        let children = &self.game.node(self.cursor).children;
        if let Some(&id) = children
            .iter()
            .find(|&&c| self.game.node(c).mv == Move::Normal(best))
        {
            self.cursor = id;
            self.inform(format!(
                "the engine's move {} is the game's",
                self.numbered_move(id)
            ));
            return Effect::None;
        }
        let inside_game = !children.is_empty();
        let typed = Typed {
            mv: Move::Normal(best),
            nag: None,
            draw_offer: false,
            clock: None,
            comment: None,
        };
        // Inside the game it is a variation whatever typing does there: a player
        // asking for the engine's idea does not mean to replace the game's move.
        let inside = self.inside;
        self.inside = Inside::Variation;
        self.play(&typed);
        self.inside = inside;
        let played = self.numbered_move(self.cursor);
        let what = if inside_game {
            format!("the engine's move {played}, as a variation")
        } else {
            format!("the engine's move {played}")
        };
        self.inform(what.clone());
        self.change_label = Some(what);
        Effect::None
    }
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
