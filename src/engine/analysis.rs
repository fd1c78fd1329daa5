//! A running analysis: an engine in its own thread that searches the position it
//! is aimed at and sends what it finds as [`Update`]s, so a screen never waits on it.
//!
//! Re-aiming stops the current search, waits for its `bestmove` (the protocol's
//! way to know the old search is over, so no stale line is taken for the new
//! position), then sets the new position and searches again. Updates carry the
//! number of the aim they belong to, so a receiver can drop late ones.

use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use chess::ChessMove;

use super::error::EngineError;
use super::lines::Lines;
use super::process::{Engine, EngineConfig, Event, Waker};
use super::uci::{parse_uci_move, EngineLine, Limit};
use crate::position::Position;

/// A position to search: a start and the moves played from it (sent as such, so
/// the engine knows the history and sees repetitions).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Target {
    /// The position before `moves`.
    pub start: Position,
    /// The moves played from `start`; each must be legal.
    pub moves: Vec<ChessMove>,
}

impl Target {
    /// A position with no history.
    pub fn position(pos: Position) -> Self {
        Target {
            start: pos,
            moves: Vec::new(),
        }
    }

    /// The position the moves lead to.
    pub fn end(&self) -> Position {
        self.moves.iter().fold(self.start, |pos, m| pos.play(*m))
    }
}

/// What the analysis thread reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Update {
    /// The engine answered the handshake; its name.
    Ready {
        /// The engine's `id name`.
        name: String,
    },
    /// The best lines changed (at most one such update per [`THROTTLE`]; the last
    /// lines of a search are always sent).
    Lines {
        /// The aim they belong to (as returned by [`Analysis::aim`]).
        id: u64,
        /// The lines so far.
        lines: Lines,
    },
    /// A search with a limit finished (an infinite one only ends when re-aimed or
    /// stopped, which reports nothing).
    Done {
        /// The aim it belongs to.
        id: u64,
        /// The best move; `None` when there is no legal move.
        best: Option<ChessMove>,
        /// The final lines.
        lines: Lines,
    },
    /// The engine could not start, died or misbehaved; the analysis is over (start
    /// a new one to restart).
    Failed(EngineError),
}

enum Command {
    Aim(u64, Target, Limit),
    Stop,
    Shutdown,
}

/// A handle on the analysis thread. Dropping it shuts the engine down (without
/// waiting for it).
pub struct Analysis {
    commands: Sender<Command>,
    waker: Arc<Mutex<Option<Waker>>>,
    next_id: u64,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Analysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analysis")
            .field("next_id", &self.next_id)
            .finish()
    }
}

impl Analysis {
    /// Starts the engine in a thread; updates arrive on the receiver. Returns at
    /// once: a failure to start comes as [`Update::Failed`].
    pub fn start(cfg: EngineConfig) -> (Analysis, Receiver<Update>) {
        let (tx, rx) = channel();
        let analysis = Analysis::start_with(cfg, move |u| {
            let _ = tx.send(u);
        });
        (analysis, rx)
    }

    /// [`Analysis::start`] with updates handed to `sink` (called on the analysis
    /// thread; an event loop passes them into its own channel and wakes itself).
    pub fn start_with(cfg: EngineConfig, sink: impl FnMut(Update) + Send + 'static) -> Analysis {
        let (commands, command_rx) = channel();
        let waker = Arc::new(Mutex::new(None));
        let slot = Arc::clone(&waker);
        // Shared so that a thread the system refuses can still be reported.
        let sink = Arc::new(Mutex::new(sink));
        let thread_sink = Arc::clone(&sink);
        let path = cfg.path.display().to_string();
        let thread = std::thread::Builder::new()
            .name("engine".into())
            .spawn(move || {
                run(cfg, command_rx, slot, |u| {
                    if let Ok(mut sink) = thread_sink.lock() {
                        sink(u);
                    }
                })
            });
        let thread = match thread {
            Ok(thread) => Some(thread),
            Err(e) => {
                if let Ok(mut sink) = sink.lock() {
                    sink(Update::Failed(EngineError::Spawn {
                        path,
                        reason: format!("no thread to run it in: {e}"),
                    }));
                }
                None
            }
        };
        Analysis {
            commands,
            waker,
            next_id: 1,
            thread,
        }
    }

    fn command(&self, command: Command) {
        let _ = self.commands.send(command);
        if let Some(waker) = self.waker.lock().ok().and_then(|w| w.clone()) {
            waker.wake();
        }
    }

    /// Searches `target` within `limit` (use [`Limit::Infinite`] to follow a
    /// cursor), replacing any search under way. Returns the aim's number, which
    /// its updates carry.
    pub fn aim(&mut self, target: Target, limit: Limit) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.command(Command::Aim(id, target, limit));
        id
    }

    /// Stops the search under way (the engine stays ready for the next aim).
    pub fn stop(&self) {
        self.command(Command::Stop);
    }

    /// Shuts the engine down and waits for the thread to end (at most the
    /// engine's answer timeout, when it is stuck in its handshake).
    pub fn shutdown(mut self) {
        self.command(Command::Shutdown);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Analysis {
    fn drop(&mut self) {
        self.command(Command::Shutdown);
    }
}

/// A search under way.
struct Searching {
    id: u64,
    lines: Lines,
    /// Lines changed since the last [`Update::Lines`] (held back by [`THROTTLE`]).
    unsent: bool,
    /// When the last [`Update::Lines`] went out.
    sent: Option<Instant>,
}

/// The least time between two [`Update::Lines`] of one search: an engine sends
/// hundreds of `info` lines a second at low depths, and a screen needs a few.
/// Lines held back go out when the time is up, or with the search's end.
pub const THROTTLE: Duration = Duration::from_millis(100);

impl Searching {
    /// Sends the lines if any are unsent and the throttle allows (or `now` is forced).
    fn flush(&mut self, sink: &mut impl FnMut(Update), force: bool) {
        let due = self.sent.is_none_or(|t| t.elapsed() >= THROTTLE);
        if self.unsent && (due || force) {
            sink(Update::Lines {
                id: self.id,
                lines: self.lines.clone(),
            });
            self.unsent = false;
            self.sent = Some(Instant::now());
        }
    }

    /// How long until held-back lines are due; `None` when nothing is held back.
    fn wait(&self) -> Option<Duration> {
        self.unsent
            .then(|| THROTTLE.saturating_sub(self.sent.map_or(THROTTLE, |t| t.elapsed())))
    }
}

fn run(
    cfg: EngineConfig,
    commands: Receiver<Command>,
    waker: Arc<Mutex<Option<Waker>>>,
    mut sink: impl FnMut(Update),
) {
    let mut engine = match Engine::start(&cfg) {
        Ok(engine) => engine,
        Err(e) => {
            sink(Update::Failed(e));
            return;
        }
    };
    if let Ok(mut slot) = waker.lock() {
        *slot = Some(engine.waker());
    }
    sink(Update::Ready {
        name: engine.name().to_string(),
    });
    if let Err(e) = serve(&mut engine, &commands, &mut sink, cfg.probe_after) {
        sink(Update::Failed(e));
    }
    // Dropping the engine says `quit` (or kills it).
}

/// Whether a search's engine is alive: after `probe_after` without a word it is
/// asked `isready`; no answer within the answer timeout means it is hung.
struct Liveness {
    probe_after: Duration,
    heard: Instant,
    asked: Option<Instant>,
}

impl Liveness {
    /// The engine said something (or a search began): all is well.
    fn heard(&mut self) {
        self.heard = Instant::now();
        self.asked = None;
    }

    /// How long until the next look.
    fn wait(&self, answer_timeout: Duration) -> Duration {
        match self.asked {
            Some(asked) => answer_timeout.saturating_sub(asked.elapsed()),
            None => self.probe_after.saturating_sub(self.heard.elapsed()),
        }
    }

    /// Asks `isready` when the engine has been quiet long enough, and fails when
    /// an earlier question went unanswered.
    fn look(&mut self, engine: &mut Engine) -> Result<(), EngineError> {
        match self.asked {
            Some(asked) if asked.elapsed() >= engine.answer_timeout() => {
                Err(engine.timeout("readyok", engine.answer_timeout()))
            }
            None if self.heard.elapsed() >= self.probe_after => {
                engine.send("isready")?;
                self.asked = Some(Instant::now());
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// The thread's loop: take commands, read the engine, report.
fn serve(
    engine: &mut Engine,
    commands: &Receiver<Command>,
    sink: &mut impl FnMut(Update),
    probe_after: Duration,
) -> Result<(), EngineError> {
    let mut searching: Option<Searching> = None;
    let mut alive = Liveness {
        probe_after,
        heard: Instant::now(),
        asked: None,
    };
    loop {
        // Take every waiting command; only the last aim (or stop) matters.
        let mut aim = None;
        let mut stop = false;
        loop {
            match commands.try_recv() {
                Ok(Command::Aim(id, target, limit)) => {
                    aim = Some((id, target, limit));
                    stop = false;
                }
                Ok(Command::Stop) => {
                    aim = None;
                    stop = true;
                }
                Ok(Command::Shutdown) | Err(TryRecvError::Disconnected) => return Ok(()),
                Err(TryRecvError::Empty) => break,
            }
        }
        // A search stopped or replaced ends with its `bestmove`, awaited here (within
        // the answer timeout) and not reported.
        if (stop || aim.is_some()) && searching.take().is_some() {
            engine.stop()?;
            engine.wait_bestmove()?;
        }
        if let Some((id, target, limit)) = aim {
            engine.set_position(&target.start, &target.moves)?;
            engine.go(limit)?;
            searching = Some(Searching {
                id,
                lines: Lines::new(target.end()),
                unsent: false,
                sent: None,
            });
            alive.heard();
        }
        // While searching, the engine is looked at now and then (see `Liveness`).
        let wait = searching.as_ref().map(|s| {
            let look = alive.wait(engine.answer_timeout());
            s.wait().map_or(look, |throttle| throttle.min(look))
        });
        let event = engine.next(wait)?;
        if matches!(event, Event::Line(_)) {
            alive.heard();
        }
        if searching.is_some() {
            alive.look(engine)?;
        }
        match event {
            Event::Woken => {}
            Event::Quiet => {
                if let Some(s) = searching.as_mut() {
                    s.flush(sink, false);
                }
            }
            Event::Line(EngineLine::Info(info)) => {
                if let Some(s) = searching.as_mut() {
                    s.unsent |= s.lines.update(&info);
                    s.flush(sink, false);
                }
            }
            Event::Line(EngineLine::BestMove(best)) => {
                let Some(mut s) = searching.take() else {
                    continue;
                };
                // The last lines before the end, so a screen showing lines sees them.
                s.flush(sink, true);
                let pos = s.lines.position;
                let best =
                    match best.best {
                        None => None,
                        Some(text) => Some(parse_uci_move(&pos, &text).ok_or_else(|| {
                            EngineError::Protocol {
                                name: engine.name().to_string(),
                                what: format!(
                                    "answered bestmove {text}, not a legal move in {}",
                                    pos.fen()
                                ),
                            }
                        })?),
                    };
                sink(Update::Done {
                    id: s.id,
                    best,
                    lines: s.lines,
                });
            }
            Event::Line(_) => {}
        }
    }
}
