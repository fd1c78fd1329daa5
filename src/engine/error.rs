//! What can go wrong with an engine, worded once, here.

use std::time::Duration;

/// Why an engine could not be used. Every failure ends in one of these, never
/// in a hang: each wait on the engine has a deadline or ends when its output closes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The configuration asks for something no engine can do (MultiPV 9, 0 threads).
    #[error("engine setting {name} = {value}: {why}")]
    Config {
        /// The setting.
        name: &'static str,
        /// Its value as given.
        value: String,
        /// What is allowed.
        why: &'static str,
    },
    /// No such program (not on `PATH`, or no file at the path given).
    #[error("engine not found: {path} (install stockfish, or give the engine's path)")]
    NotFound {
        /// The program as given.
        path: String,
    },
    /// The file is there but cannot be run.
    #[error("engine {path} is not executable (check its permissions, or that it is a program)")]
    NotExecutable {
        /// The program as given.
        path: String,
    },
    /// Starting the process failed for another reason.
    #[error("could not start engine {path}: {reason}")]
    Spawn {
        /// The program as given.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// The engine's output closed: it exited or crashed.
    #[error("engine {name} stopped{}{}", status_text(.status), last_words(.stderr))]
    Died {
        /// The engine's name (its `id name`, or the program).
        name: String,
        /// How it ended (`exit status: 1`, `signal: 9`), when known.
        status: Option<String>,
        /// The last lines it wrote to standard error.
        stderr: Vec<String>,
    },
    /// The engine did not answer in time.
    #[error("engine {name} did not answer {waiting_for} within {} s{}", .after.as_secs_f32(), said(.last_line))]
    Timeout {
        /// The engine's name.
        name: String,
        /// The answer awaited (`uciok`, `readyok`, `bestmove`).
        waiting_for: &'static str,
        /// How long it was given.
        after: Duration,
        /// The last line it did say that was not UCI, if any (often the reason).
        last_line: Option<String>,
    },
    /// The engine answered something impossible (an illegal best move).
    #[error("engine {name} {what}")]
    Protocol {
        /// The engine's name.
        name: String,
        /// What it did wrong.
        what: String,
    },
}

fn status_text(status: &Option<String>) -> String {
    status
        .as_ref()
        .map(|s| format!(" ({s})"))
        .unwrap_or_default()
}

fn last_words(stderr: &[String]) -> String {
    match stderr.last() {
        Some(line) => format!(": {line}"),
        None => String::new(),
    }
}

fn said(line: &Option<String>) -> String {
    match line {
        Some(line) => format!(" (it said: {line:?})"),
        None => String::new(),
    }
}
