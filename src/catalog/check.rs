//! The check that follows a listing: every game of the file read move by move in a
//! thread of its own, as `scoresheet check` reads it, so that the list can mark the
//! games with an illegal move or text that does not read (the index reads only the
//! tags). It sends what it finds in batches and never holds up the screen.

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use crate::notation::Lang;
use crate::pgn::builder::{GameBuilder, ReadGame};
use crate::pgn::reader::Reader;

/// What the check sends.
#[derive(Debug)]
pub enum CheckEvent {
    /// Games with a problem: `(game number, where and why)`.
    Found(Vec<(u64, String)>),
    /// Every game was read: how many.
    Done(u64),
    /// Reading stopped.
    Failed(io::Error),
}

/// A check running in its thread; dropping it stops the thread.
pub struct Checker {
    events: mpsc::Receiver<CheckEvent>,
    stop: Arc<AtomicBool>,
}

/// Games with a problem sent at once, at most.
const BATCH: usize = 256;

impl Checker {
    /// Checks the games of the PGN text at `path` (plain, or packed: it is decoded).
    pub fn start(path: &Path) -> io::Result<Checker> {
        let (text, _) = crate::store::packed::open_text(path)?;
        let (tx, events) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        std::thread::Builder::new()
            .name("list-check".into())
            .spawn(move || {
                let mut reader = Reader::new(text);
                let mut builder = GameBuilder::new(false).reading(Lang::english());
                let mut found = Vec::new();
                let mut games = 0;
                loop {
                    if stopped.load(Ordering::Relaxed) {
                        return;
                    }
                    match reader.read_game_restarting(&mut builder) {
                        Ok(Some(g)) => {
                            games += 1;
                            if let Some(what) = problem(&g) {
                                found.push((g.number, what));
                            }
                            if found.len() >= BATCH
                                && tx
                                    .send(CheckEvent::Found(std::mem::take(&mut found)))
                                    .is_err()
                            {
                                return;
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            let _ = tx.send(CheckEvent::Found(found));
                            let _ = tx.send(CheckEvent::Failed(e));
                            return;
                        }
                    }
                }
                let _ = tx.send(CheckEvent::Found(found));
                let _ = tx.send(CheckEvent::Done(games));
            })?;
        Ok(Checker { events, stop })
    }

    /// What the check sent since the last call.
    pub fn try_next(&self) -> Option<CheckEvent> {
        self.events.try_recv().ok()
    }
}

impl Drop for Checker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The first problem of a game, as the list says it: where (line and column in the
/// file), why, and what Enter does with the game; `None` for a game that reads.
pub fn problem(g: &ReadGame) -> Option<String> {
    let first = g.problems().into_iter().next()?;
    let token = if first.token.is_empty() {
        String::new()
    } else {
        format!(" \"{}\"", crate::message::shown_text(&first.token))
    };
    let more = g.problems().len() - 1;
    let more = if more > 0 {
        format!(" (and {})", crate::plural::count(more, "more", "more"))
    } else {
        String::new()
    };
    // What Enter does with it: a game that does not read at all (its tags, a variant, a
    // bad FEN, too large) cannot be opened; one with a move that cannot be played opens
    // for repair; one whose results disagree opens as any other.
    let enter = if g.refused {
        "it cannot be opened here (`scoresheet convert` copies it as written)"
    } else if g.errors.is_empty() {
        "Enter opens it"
    } else {
        "Enter opens it to repair"
    };
    Some(format!(
        "line {} column {}{token}: {}{more}: {enter}",
        first.pos.line,
        first.pos.column,
        crate::message::shown_text(&first.reason)
    ))
}
