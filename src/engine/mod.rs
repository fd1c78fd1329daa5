//! Chess engines over UCI, without the terminal: the analysis pane, `scoresheet
//! annotate` and training all use this.
//!
//! # Public API
//!
//! - [`EngineConfig`]: program (`stockfish` on `PATH` or in `/usr/games` by default,
//!   [`find_program`]), `threads`,
//!   `hash_mb`, `multipv` (1–5), other options, `answer_timeout` (for `uciok`,
//!   `readyok` and the `bestmove` after `stop`), `silence_timeout` (a search that says
//!   nothing that long counts as hung).
//! - [`Engine`]: one process. [`Engine::start`] spawns it and does the handshake
//!   (`uci`/`uciok`, `setoption` for Threads/Hash/MultiPV when offered, `isready`/
//!   `readyok`); [`Engine::new_game`] (`ucinewgame`), [`Engine::search`] (blocking:
//!   `position … moves …`, `go` with a [`Limit`] — depth, nodes, movetime — then the
//!   lines and the best move as a [`SearchResult`]); the pieces for a caller that
//!   runs its own loop: [`Engine::set_position`], [`Engine::go`], [`Engine::stop`],
//!   [`Engine::next`] (with a timeout; [`Engine::waker`] interrupts it),
//!   [`Engine::wait_bestmove`]; [`Engine::quit`] (dropping does the same).
//! - [`Analysis`]: an engine in a thread for a screen. [`Analysis::start`] gives the
//!   handle and a receiver of [`Update`]s (or [`Analysis::start_with`] and a callback);
//!   [`Analysis::aim`] a [`Target`] (start + moves) with a [`Limit`]
//!   ([`Limit::Infinite`] to follow a cursor) returns an id that the updates carry;
//!   [`Analysis::stop`]; [`Analysis::shutdown`] (dropping shuts down without waiting).
//!   Updates: `Ready { name }`, `Lines { id, lines }` (when lines change, at most one
//!   per [`THROTTLE`], the last always sent),
//!   `Done { id, best, lines }` (a limited search ended), `Failed(EngineError)`
//!   (the analysis is over; start another to restart).
//! - [`Lines`] / [`PvLine`]: the best lines of a position (rank, depth, seldepth,
//!   score, bound, nodes, nps, time, legal moves). [`PvLine::white_score`],
//!   [`Score::white`]: scores from White's point of view. [`line_text`] writes a
//!   line with move numbers in any [`crate::notation::Style`] and
//!   [`crate::notation::Lang`]; [`line_moves`] the moves alone.
//! - [`uci`]: the protocol as text — [`parse_line`], [`parse_info`] (depth,
//!   seldepth, multipv, score cp/mate with lowerbound/upperbound, nodes, nps, time,
//!   pv, string), `bestmove`, [`position_command`], [`parse_uci_move`], [`uci_text`].
//! - [`judge`]: lichess's rules — win chances from centipawns, `?!`/`?`/`??` from
//!   the drop, per-move and per-game accuracy.
//! - [`EngineError`]: not found, not executable, died (with its exit status and last
//!   words on standard error), timeout (with what it last said), protocol
//!   (an illegal best move), bad setting. Lines that are not UCI are ignored.
//!
//! A scripted stand-in engine for tests lives in `tests/common/uci_standin.rs`.

mod analysis;
mod error;
pub mod judge;
mod lines;
mod pipe;
mod process;
mod program;
pub mod uci;

pub use analysis::{Analysis, Target, Update, THROTTLE};
pub use error::EngineError;
pub use lines::{legal_prefix, line_moves, line_text, Lines, PvLine};
pub use process::{Engine, EngineConfig, Event, SearchResult, Waker};
pub use program::find_program;
pub use uci::{
    parse_info, parse_line, parse_uci_move, position_command, uci_text, Bound, EngineLine, Info,
    Limit, Score,
};
