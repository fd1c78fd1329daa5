//! One engine process: spawning it, the handshake, sending commands and reading
//! its answers with deadlines.
//!
//! The engine's standard output is read by a thread into a channel, so that every
//! wait can have a deadline ([`std::sync::mpsc::Receiver::recv_timeout`]) and so
//! that a [`Waker`] can interrupt a wait (the analysis thread is woken this way
//! when it is re-aimed). Standard error is read by another thread, keeping its last
//! lines for the message when the engine dies.

use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chess::ChessMove;

use super::error::EngineError;
use super::lines::{Lines, PvLine};
use super::pipe::{self, Backlog};
use super::program::{self, find_program, spawn};
use super::uci::{parse_line, parse_uci_move, position_command, EngineLine, Limit};
use crate::position::Position;

/// How to run an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// The program: a path, or a name looked up on `PATH` then in `/usr/games`
    /// (`stockfish` by default; see [`find_program`]).
    pub path: PathBuf,
    /// The `Threads` option, when set (the engine's default otherwise).
    pub threads: Option<u32>,
    /// The `Hash` option in MB, when set.
    pub hash_mb: Option<u32>,
    /// How many best lines to search (`MultiPV`), 1 to 5.
    pub multipv: u32,
    /// Other options, by name, sent as given.
    pub options: Vec<(String, String)>,
    /// How long the engine may take to answer `uci`, `isready` and `stop`.
    pub answer_timeout: Duration,
    /// How long a search may go on without a word from the engine before it counts
    /// as hung (`None`: wait as long as the search takes).
    pub silence_timeout: Option<Duration>,
    /// How long an endless analysis may stay quiet before the engine is asked
    /// `isready` (which it must answer at once, even while searching): a deep
    /// search can be silent for minutes, a hung engine does not answer.
    pub probe_after: Duration,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            path: PathBuf::from("stockfish"),
            threads: None,
            hash_mb: None,
            multipv: 1,
            options: Vec::new(),
            answer_timeout: Duration::from_secs(10),
            silence_timeout: Some(Duration::from_secs(120)),
            probe_after: Duration::from_secs(5),
        }
    }
}

impl EngineConfig {
    /// Checks the settings an engine cannot be asked for.
    pub fn validate(&self) -> Result<(), EngineError> {
        if !(1..=5).contains(&self.multipv) {
            return Err(EngineError::Config {
                name: "lines",
                value: self.multipv.to_string(),
                why: "the number of lines is 1 to 5",
            });
        }
        if self.threads == Some(0) {
            return Err(EngineError::Config {
                name: "threads",
                value: "0".into(),
                why: "at least 1 thread",
            });
        }
        if self.hash_mb == Some(0) {
            return Err(EngineError::Config {
                name: "hash",
                value: "0".into(),
                why: "at least 1 MB",
            });
        }
        Ok(())
    }
}

/// What comes through the engine's channel.
pub(super) enum Incoming {
    Line(String),
    Closed,
    Wake,
}

/// What a wait on the engine gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A line the engine said.
    Line(EngineLine),
    /// A [`Waker`] was used.
    Woken,
    /// Nothing came within the time given.
    Quiet,
}

/// Interrupts a wait in [`Engine::next`] from another thread.
#[derive(Debug, Clone)]
pub struct Waker(Sender<Incoming>);

impl std::fmt::Debug for Incoming {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Incoming")
    }
}

impl Waker {
    /// Makes the engine's current or next wait return [`Event::Woken`].
    pub fn wake(&self) {
        let _ = self.0.send(Incoming::Wake);
    }
}

/// What a finished search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The engine's best move; `None` when the position has no legal move.
    pub best: Option<ChessMove>,
    /// The best lines at the end of the search, best first.
    pub lines: Vec<PvLine>,
}

/// A running engine that has answered the handshake.
pub struct Engine {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Incoming>,
    tx: Sender<Incoming>,
    /// Lines in `rx` not yet taken (see [`pipe`]).
    backlog: Backlog,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The last line that was not UCI, for error messages.
    last_other: Option<String>,
    answer_timeout: Duration,
    silence_timeout: Option<Duration>,
    multipv: u32,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("name", &self.name).finish()
    }
}

/// How many lines of standard error are kept for the message when the engine dies.
const STDERR_LINES: usize = 5;

impl Engine {
    /// Starts the engine: spawns it, `uci` → `uciok`, the options, `isready` →
    /// `readyok`. The options `Threads`, `Hash` and `MultiPV` are sent only when the
    /// engine offers them.
    pub fn start(cfg: &EngineConfig) -> Result<Engine, EngineError> {
        cfg.validate()?;
        let shown = cfg.path.display().to_string();
        let program = find_program(&cfg.path).unwrap_or_else(|| cfg.path.clone());
        let mut child = spawn(&program).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => EngineError::NotFound {
                path: shown.clone(),
            },
            std::io::ErrorKind::PermissionDenied => EngineError::NotExecutable {
                path: shown.clone(),
            },
            // A file that is not a program (ENOEXEC) or a directory.
            _ if cfg.path.is_file() || cfg.path.is_dir() => EngineError::NotExecutable {
                path: shown.clone(),
            },
            _ => EngineError::Spawn {
                path: shown.clone(),
                reason: e.to_string(),
            },
        })?;
        let (tx, rx) = channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        let backlog = Backlog::default();
        pipe::read_output(stdout, tx.clone(), backlog.clone());
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(err) = child.stderr.take() {
            pipe::read_errors(err, Arc::clone(&stderr), STDERR_LINES);
        }
        let mut engine = Engine {
            name: shown,
            stdin: child.stdin.take(),
            child,
            rx,
            tx,
            backlog,
            stderr,
            last_other: None,
            answer_timeout: cfg.answer_timeout,
            silence_timeout: cfg.silence_timeout,
            multipv: cfg.multipv,
        };
        engine.handshake(cfg)?;
        Ok(engine)
    }

    fn handshake(&mut self, cfg: &EngineConfig) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = Instant::now() + self.answer_timeout;
        let mut offered: Vec<String> = Vec::new();
        loop {
            match self.next_until(deadline, "uciok")? {
                EngineLine::UciOk => break,
                EngineLine::Id { key, value } if key == "name" && !value.is_empty() => {
                    self.name = value;
                }
                EngineLine::Option(text) => {
                    if let Some(name) = option_name(&text) {
                        offered.push(name.to_ascii_lowercase());
                    }
                }
                _ => {}
            }
        }
        let offers = |name: &str| offered.iter().any(|o| o == &name.to_ascii_lowercase());
        let mut options: Vec<(String, String)> = Vec::new();
        if let Some(t) = cfg.threads.filter(|_| offers("Threads")) {
            options.push(("Threads".into(), t.to_string()));
        }
        if let Some(h) = cfg.hash_mb.filter(|_| offers("Hash")) {
            options.push(("Hash".into(), h.to_string()));
        }
        if offers("MultiPV") {
            options.push(("MultiPV".into(), cfg.multipv.to_string()));
        }
        options.extend(cfg.options.iter().cloned());
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.is_ready()
    }

    /// The engine's name (its `id name`, or the program when it gave none).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many lines it was asked to search.
    pub fn multipv(&self) -> u32 {
        self.multipv
    }

    /// A handle that interrupts [`Engine::next`] from another thread.
    pub fn waker(&self) -> Waker {
        Waker(self.tx.clone())
    }

    /// Sends one command line.
    pub fn send(&mut self, command: &str) -> Result<(), EngineError> {
        let ok = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{command}")
                .and_then(|_| stdin.flush())
                .is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.died())
        }
    }

    /// `isready`, waiting for `readyok`.
    pub fn is_ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.answer_timeout;
        while self.next_until(deadline, "readyok")? != EngineLine::ReadyOk {}
        Ok(())
    }

    /// `ucinewgame` then `isready`: before a position from another game.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.is_ready()
    }

    /// Sets the position: `start` then `moves`.
    pub fn set_position(
        &mut self,
        start: &Position,
        moves: &[ChessMove],
    ) -> Result<(), EngineError> {
        self.send(&position_command(start, moves))
    }

    /// Starts a search of the position set last.
    pub fn go(&mut self, limit: Limit) -> Result<(), EngineError> {
        self.send(&limit.go_command())
    }

    /// Asks the search to stop (the engine then answers `bestmove`).
    pub fn stop(&mut self) -> Result<(), EngineError> {
        self.send("stop")
    }

    /// Waits for the next line, at most `timeout` (`None`: until a line, a wake,
    /// or the engine's end). The engine's end is an error.
    pub fn next(&mut self, timeout: Option<Duration>) -> Result<Event, EngineError> {
        let got = match timeout {
            Some(t) => self.rx.recv_timeout(t),
            None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match got {
            Ok(Incoming::Line(line)) => {
                self.backlog.taken();
                let parsed = parse_line(&line);
                if let EngineLine::Other(text) = &parsed {
                    if !text.is_empty() {
                        self.last_other = Some(text.clone());
                    }
                }
                Ok(Event::Line(parsed))
            }
            Ok(Incoming::Wake) => Ok(Event::Woken),
            Err(RecvTimeoutError::Timeout) => Ok(Event::Quiet),
            Ok(Incoming::Closed) | Err(RecvTimeoutError::Disconnected) => Err(self.died()),
        }
    }

    /// The next line before `deadline`; a timeout naming `waiting_for` after it.
    /// Wakes are ignored here: these waits are short.
    fn next_until(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
    ) -> Result<EngineLine, EngineError> {
        loop {
            // An engine that keeps talking without the answer runs out of time too.
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return Err(self.timeout(waiting_for, self.answer_timeout));
            };
            match self.next(Some(left))? {
                Event::Line(line) => return Ok(line),
                Event::Woken => {}
                Event::Quiet => return Err(self.timeout(waiting_for, self.answer_timeout)),
            }
        }
    }

    /// Waits for `bestmove` after a `stop`, within the answer timeout; what it
    /// says is dropped.
    pub fn wait_bestmove(&mut self) -> Result<(), EngineError> {
        let deadline = Instant::now() + self.answer_timeout;
        while !matches!(
            self.next_until(deadline, "bestmove")?,
            EngineLine::BestMove(_)
        ) {}
        Ok(())
    }

    /// Searches `start` + `moves` within `limit` (not [`Limit::Infinite`], which
    /// never ends by itself) and waits for the answer. A search that stays silent
    /// longer than the silence timeout is stopped and reported.
    pub fn search(
        &mut self,
        start: &Position,
        moves: &[ChessMove],
        limit: Limit,
    ) -> Result<SearchResult, EngineError> {
        let mut pos = *start;
        for m in moves {
            pos = pos.play(*m);
        }
        self.set_position(start, moves)?;
        self.go(limit)?;
        let mut lines = Lines::new(pos);
        // Silence is counted from the last word on the search: lines of anything else
        // (`info string`, nonsense) do not keep a search that never ends alive.
        let mut heard = Instant::now();
        loop {
            let left = self
                .silence_timeout
                .map(|t| t.saturating_sub(heard.elapsed()));
            let line = match self.next(left)? {
                _ if left.is_some_and(|l| l.is_zero()) => None,
                Event::Line(line) => Some(line),
                Event::Woken => continue,
                Event::Quiet => None,
            };
            let Some(line) = line else {
                let after = self.silence_timeout.unwrap_or_default();
                return Err(self.timeout("bestmove", after));
            };
            match line {
                EngineLine::Info(info) => {
                    if info.string.is_none() {
                        heard = Instant::now();
                    }
                    lines.update(&info);
                }
                EngineLine::BestMove(best) => {
                    let best = match best.best {
                        None => None,
                        Some(text) => Some(parse_uci_move(&pos, &text).ok_or_else(|| {
                            EngineError::Protocol {
                                name: self.name.clone(),
                                what: format!(
                                    "answered bestmove {text}, not a legal move in {}",
                                    pos.fen()
                                ),
                            }
                        })?),
                    };
                    return Ok(SearchResult {
                        best,
                        lines: lines.into_vec(),
                    });
                }
                _ => {}
            }
        }
    }

    /// Says `quit` and gives the engine a moment to leave; kills it otherwise.
    pub fn quit(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|_| stdin.flush());
        }
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline && !program::exited(&mut self.child) {
            std::thread::sleep(Duration::from_millis(10));
        }
        // Then the whole process group, whether the engine quit or not: an engine run
        // by a wrapper script may have started processes that outlive the script (see
        // `spawn`). The engine is not reaped yet, so its group is still its own.
        program::kill_group(&mut self.child);
        let _ = self.child.wait();
    }

    /// The error for an engine whose output closed or whose input broke: how it
    /// ended (waiting a moment for the exit status) and its last words.
    fn died(&mut self) -> EngineError {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status.to_string()),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => break None,
            }
        };
        // Give the stderr reader a moment to catch the engine's last words.
        std::thread::sleep(Duration::from_millis(20));
        let stderr = self
            .stderr
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        EngineError::Died {
            name: self.name.clone(),
            status,
            stderr,
        }
    }

    /// How long the engine may take to answer `uci`, `isready` and `stop`.
    pub fn answer_timeout(&self) -> Duration {
        self.answer_timeout
    }

    pub(super) fn timeout(&self, waiting_for: &'static str, after: Duration) -> EngineError {
        EngineError::Timeout {
            name: self.name.clone(),
            waiting_for,
            after,
            last_line: self.last_other.clone(),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// The name in an `option name <name> type …` text (names may hold spaces).
fn option_name(text: &str) -> Option<&str> {
    let rest = text.trim().strip_prefix("name")?.trim_start();
    let end = rest.find(" type ").unwrap_or(rest.len());
    Some(rest[..end].trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_names_may_hold_spaces() {
        assert_eq!(
            option_name("name Skill Level type spin default 20 min 0 max 20"),
            Some("Skill Level")
        );
        assert_eq!(option_name("name MultiPV type spin"), Some("MultiPV"));
    }

    #[test]
    fn settings_out_of_range_are_refused() {
        let cfg = EngineConfig {
            multipv: 6,
            ..EngineConfig::default()
        };
        assert!(matches!(
            cfg.validate(),
            Err(EngineError::Config { name: "lines", .. })
        ));
    }

    #[test]
    fn a_missing_engine_is_named() {
        let cfg = EngineConfig {
            path: "/nonexistent/scoresheet-no-engine".into(),
            ..EngineConfig::default()
        };
        let err = Engine::start(&cfg).unwrap_err();
        assert!(matches!(err, EngineError::NotFound { .. }), "{err}");
        assert!(err
            .to_string()
            .contains("/nonexistent/scoresheet-no-engine"));
    }
}
