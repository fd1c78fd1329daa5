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
        loop {
            let report = match self.reports.try_recv() {
                Ok(report) => report,
                // The thread ended without its last word (it panicked): said, so that
                // the app does not ask for another at once.
                Err(mpsc::TryRecvError::Disconnected) => {
                    if !over {
                        out.push(Done::AnnotateFailed(
                            "the annotation's thread stopped without an answer".into(),
                        ));
                    }
                    over = true;
                    break;
                }
                Err(mpsc::TryRecvError::Empty) => break,
            };
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
        (out, over)
    }
}

impl Drop for Annotator {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine that cannot be run ends the annotation with its reason, once.
    #[test]
    fn an_engine_that_cannot_run_ends_it_with_the_reason() {
        let config = EngineConfig {
            path: "/nonexistent/engine".into(),
            ..EngineConfig::default()
        };
        let game = crate::pgn::builder::read_games(&b"1. e4 e5 *\n"[..])
            .remove(0)
            .game;
        let annotator = Annotator::start(config, game, Limit::Depth(1));
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let mut said = Vec::new();
        loop {
            let (reports, over) = annotator.take();
            said.extend(reports);
            if over {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "no end: {said:?}");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let failures: Vec<_> = said
            .iter()
            .filter_map(|d| match d {
                Done::AnnotateFailed(why) => Some(why),
                _ => None,
            })
            .collect();
        assert_eq!(failures.len(), 1, "{said:?}");
        assert!(
            failures[0].contains("/nonexistent/engine"),
            "{}",
            failures[0]
        );
    }
}
