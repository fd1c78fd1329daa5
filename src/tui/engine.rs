//! The engine of the analysis pane, run beside the screen: the loop hands it the
//! app's orders ([`App::engine_orders`]) and gives the app what the engine said,
//! without ever waiting on the engine. The engine itself lives in its own thread
//! (`engine::Analysis`); this side only sends commands and takes what arrived.

use std::sync::mpsc::{Receiver, TryRecvError};

use crate::app::engine::EngineOrder;
use crate::app::{App, Done};
use crate::engine::{Analysis, Limit, Update};

/// The running engine, if any.
#[derive(Default)]
pub struct EngineRunner {
    analysis: Option<Analysis>,
    updates: Option<Receiver<Update>>,
    /// The number of the last aim: lines of an earlier one are stale.
    aim: Option<u64>,
}

impl EngineRunner {
    /// True while an engine runs: the loop then comes back often enough to show
    /// its lines as they deepen.
    pub fn running(&self) -> bool {
        self.analysis.is_some()
    }

    /// Carries out the app's orders, then gives it what the engine said since the
    /// last call. Never blocks: a start, an aim and a shutdown are messages to the
    /// engine's thread.
    pub fn serve(&mut self, app: &mut App) {
        for order in app.engine_orders() {
            match order {
                EngineOrder::Start(config) => {
                    let (analysis, updates) = Analysis::start(config);
                    self.analysis = Some(analysis);
                    self.updates = Some(updates);
                    self.aim = None;
                }
                EngineOrder::Aim(target) => {
                    if let Some(analysis) = &mut self.analysis {
                        self.aim = Some(analysis.aim(target, Limit::Infinite));
                    }
                }
                EngineOrder::Halt => {
                    if let Some(analysis) = &self.analysis {
                        analysis.stop();
                    }
                    self.aim = None;
                }
                // Dropping the handle tells the thread to quit the engine; waiting
                // for it would hold the screen.
                EngineOrder::Shutdown => self.forget(),
            }
        }
        self.take_updates(app);
    }

    fn take_updates(&mut self, app: &mut App) {
        let Some(updates) = &self.updates else {
            return;
        };
        // Lines come many times a second while a search is shallow: only the
        // newest of a run is worth a frame.
        let mut newest: Option<Update> = None;
        let mut failed = false;
        loop {
            let update = match updates.try_recv() {
                Ok(update) => update,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    // The thread ended without a word (it cannot, but a silent end
                    // must not leave the pane waiting forever).
                    if !failed {
                        failed = true;
                        flush(app, &mut newest);
                        let name = app.engine.config.path.display().to_string();
                        app.update(Done::Engine(Update::Failed(
                            crate::engine::EngineError::Died {
                                name,
                                status: None,
                                stderr: Vec::new(),
                            },
                        )));
                    }
                    break;
                }
            };
            match update {
                Update::Lines { id, .. } | Update::Done { id, .. } if Some(id) != self.aim => {}
                Update::Lines { .. } => newest = Some(update),
                Update::Failed(_) => {
                    flush(app, &mut newest);
                    failed = true;
                    app.update(Done::Engine(update));
                    break;
                }
                other => {
                    flush(app, &mut newest);
                    app.update(Done::Engine(other));
                }
            }
        }
        flush(app, &mut newest);
        if failed {
            // The engine's thread is over: a restart starts a new one.
            self.forget();
        }
    }

    fn forget(&mut self) {
        self.analysis = None;
        self.updates = None;
        self.aim = None;
    }

    /// Shuts the engine down and waits for it to leave (at quit: no engine
    /// process outlives the app).
    pub fn close(&mut self) {
        self.updates = None;
        if let Some(analysis) = self.analysis.take() {
            analysis.shutdown();
        }
    }
}

fn flush(app: &mut App, newest: &mut Option<Update>) {
    if let Some(update) = newest.take() {
        app.update(Done::Engine(update));
    }
}
