//! Runs `:annotate`'s engine in a thread of its own, so that the screen never waits
//! for it: the thread reports each position done and, at the end, the scores (or why
//! it failed); dropping the [`Annotator`] cancels it (the engine stops after the
//! position it is on and quits).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use crate::app::Done;
use crate::engine::{Engine, EngineConfig, EngineError, Limit};
use crate::game::Game;
use crate::study::annotate::{analyse_with, PositionEval};

/// What the thread says.
enum Report {
    Progress(usize, usize),
    Finished(Result<Option<Vec<PositionEval>>, EngineError>),
}

/// An annotation running in its thread.
pub struct Annotator {
    reports: mpsc::Receiver<Report>,
    cancel: Arc<AtomicBool>,
}

impl Annotator {
    /// Starts the engine `config` names on `game`'s main line.
    pub fn start(config: EngineConfig, game: Game, limit: Limit) -> Annotator {
        let (tx, reports) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&cancel);
        std::thread::spawn(move || {
            let result = Engine::start(&config).and_then(|mut engine| {
                analyse_with(&game, &mut engine, limit, &mut |done, total| {
                    let _ = tx.send(Report::Progress(done, total));
                    !stop.load(Ordering::Relaxed)
                })
            });
            let _ = tx.send(Report::Finished(result));
        });
        Annotator { reports, cancel }
    }

    /// What the thread reported since the last call, as the app takes it, and
    /// whether it is over (the annotator can then be dropped).
    pub fn take(&self) -> (Vec<Done>, bool) {
        let mut out = Vec::new();
        let mut over = false;
        while let Ok(report) = self.reports.try_recv() {
            match report {
                Report::Progress(done, total) => out.push(Done::Annotating { done, total }),
                Report::Finished(Ok(Some(evals))) => {
                    out.push(Done::Annotated(evals));
                    over = true;
                }
                Report::Finished(Ok(None)) => over = true,
                Report::Finished(Err(e)) => {
                    out.push(Done::AnnotateFailed(e.to_string()));
                    over = true;
                }
            }
        }
        if matches!(
            self.reports.try_recv(),
            Err(mpsc::TryRecvError::Disconnected)
        ) {
            over = true;
        }
        (out, over)
    }
}

impl Drop for Annotator {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}
