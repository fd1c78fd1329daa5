//! The training's work outside the app: gathering a drill (the deck's due
//! exercises, your mistakes in a file: by its `[%eval]` annotations, or by the
//! engine for the games without them) in a thread of its own with its progress and
//! cancel ([`Gatherer`]; what it does is [`gather_with`], in `gather`), and
//! recording answers in the deck.

mod gather;
#[cfg(test)]
mod tests;

pub use gather::gather_with;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use crate::app::Done;
use crate::engine::EngineConfig;
use crate::study::train::cache::Cache;
use crate::study::train::deck::{self, Deck};
use crate::study::train::Exercise;

pub use crate::study::train::NEW_PER_DRILL;

/// What a drill is gathered from.
#[derive(Debug, Clone)]
pub struct Request {
    /// The file to look for mistakes in (none: the due exercises only).
    pub file: Option<PathBuf>,
    /// Your name in its games.
    pub name: String,
    /// How many of your games, newest first (`None`: all).
    pub last: Option<usize>,
    /// The engine that finds the mistakes of games without evaluations and judges
    /// answers, when one is installed.
    pub engine: Option<EngineConfig>,
}

/// A drill gathered in a thread of its own: it reports the engine's progress and the
/// exercises found while the engine works ([`Done::Gathering`], [`Done::Found`]) and,
/// at the end, the drill (as [`Done::Gathered`]); dropping it cancels the engine's
/// work (what it analysed by then stays in the cache).
pub struct Gatherer {
    reports: mpsc::Receiver<Done>,
    cancel: Arc<AtomicBool>,
}

impl Gatherer {
    /// Starts gathering `request` with the deck and the cache in their places.
    pub fn start(request: Request) -> Gatherer {
        Gatherer::start_with(request, deck::path(), Cache::standard())
    }

    /// [`Gatherer::start`] with the deck at `deck_path` and the cache given.
    pub fn start_with(request: Request, deck_path: PathBuf, cache: Cache) -> Gatherer {
        let (tx, reports) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&cancel);
        // A thread the system refuses takes its sender with it: the first look says
        // that it ended without an answer.
        let _ = std::thread::Builder::new()
            .name("drill".into())
            .spawn(move || {
                let report = |done: Done| {
                    let _ = tx.send(done);
                };
                let done = gather_with(
                    &deck_path,
                    &cache,
                    &request,
                    chrono::Utc::now(),
                    &report,
                    &stop,
                );
                if let Some(done) = done {
                    let _ = tx.send(Done::Gathered(Box::new(done)));
                }
            });
        Gatherer { reports, cancel }
    }

    /// What the thread reported since the last call, and whether it is over.
    pub fn take(&self) -> (Vec<Done>, bool) {
        let mut out = Vec::new();
        loop {
            match self.reports.try_recv() {
                Ok(done @ Done::Gathered(_)) => {
                    out.push(done);
                    return (out, true);
                }
                Ok(done) => out.push(done),
                Err(mpsc::TryRecvError::Empty) => return (out, false),
                // Ended without its last word: said, so that nothing waits for ever.
                Err(mpsc::TryRecvError::Disconnected) => {
                    out.push(Done::Gathered(Box::new(Done::refusal(
                        "the search for your mistakes stopped without an answer",
                    ))));
                    return (out, true);
                }
            }
        }
    }
}

impl Drop for Gatherer {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Records an answer in the deck; an error to show when it cannot.
pub fn review(exercise: &Exercise, passed: bool) -> Option<Done> {
    review_at(&deck::path(), exercise, passed, chrono::Utc::now())
}

/// [`review`] with the deck at `path` and the time given.
pub fn review_at(
    path: &Path,
    exercise: &Exercise,
    passed: bool,
    now: chrono::DateTime<chrono::Utc>,
) -> Option<Done> {
    let mut deck = match Deck::load(path) {
        Ok(deck) => deck,
        Err(e) => return Some(Done::refusal(format!("answer not recorded: {e}"))),
    };
    deck.review(exercise, passed, now);
    match deck.save(path) {
        Ok(()) => None,
        Err(e) => Some(Done::refusal(format!(
            "answer not recorded: cannot write {}: {e}",
            path.display()
        ))),
    }
}

/// Takes an exercise out of the deck; an error to show when it cannot.
pub fn forget(exercise: &Exercise) -> Option<Done> {
    forget_at(&deck::path(), exercise)
}

/// [`forget`] with the deck at `path`.
pub fn forget_at(path: &Path, exercise: &Exercise) -> Option<Done> {
    let mut deck = match Deck::load(path) {
        Ok(deck) => deck,
        Err(e) => {
            return Some(Done::refusal(format!(
                "exercise not taken out of the deck: {e}"
            )))
        }
    };
    if !deck.forget(&exercise.key()) {
        return None;
    }
    deck.save(path).err().map(|e| {
        Done::refusal(format!(
            "exercise not taken out of the deck: cannot write {}: {e}",
            path.display()
        ))
    })
}
