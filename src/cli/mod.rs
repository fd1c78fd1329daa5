//! The batch commands: each reads files or standard input, writes to standard
//! output (through [`output::Stdout`]), reports problems on standard error, and answers
//! with an exit code (0 clean, 1 problems found in the input, 2 bad arguments, unreadable
//! input or output that could not be written).

pub mod annotate;
pub mod check;
pub mod convert;
pub mod fen;
pub mod index;
pub mod input;
pub mod list;
pub mod output;
pub mod parallel;
pub mod recover;
pub mod search;
mod search_rows;
pub mod train;
pub mod transcribe;

use std::io::Read;
use std::path::Path;

/// Makes SIGTERM (a shutdown), SIGHUP (a closed terminal), SIGINT (Ctrl-C) and SIGQUIT
/// end a batch command that writes `-o OUT` without leaving the temporary file of its
/// write beside OUT: a signal's default action runs no destructors, so the file the
/// write was going into would stay (OUT itself is only replaced by a finished write).
/// The process then exits with 128 + the signal's number, as the shell reports a
/// process killed by it.
pub fn remove_temporaries_on_signal() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])
    else {
        // Without the handler the signals keep their default action: the command
        // still stops, only a temporary file may stay (the next save removes it).
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            crate::store::target::remove_live_temporaries();
            std::process::exit(128 + signal);
        }
    });
}

/// Exit codes shared by the batch commands.
pub mod exit {
    /// Everything read cleanly.
    pub const OK: u8 = 0;
    /// The input had problems (reported on standard error).
    pub const PROBLEMS: u8 = 1;
    /// Bad arguments, input that cannot be read, or standard output that cannot be
    /// written (a closed pipe aside: see [`super::output::failed`]).
    pub const USAGE: u8 = 2;

    /// The code for a run over several inputs: unreadable input wins over problems.
    pub fn of(unreadable: bool, problems: u64) -> u8 {
        if unreadable {
            USAGE
        } else if problems > 0 {
            PROBLEMS
        } else {
            OK
        }
    }
}

/// Bytes per chunk when a regular file is read on several threads (`check`'s).
pub fn parallel_chunk() -> u64 {
    parallel::CHUNK
}

/// Reads a whole file, or standard input for `None` or `-`, as text: UTF-8, UTF-16 with
/// a byte-order mark, or else Windows-1252 (see [`crate::text`]), never mangled; input
/// compressed with gzip, bzip2, xz or zstd is decompressed first, as every other command
/// reads it. At most [`crate::pgn::MAX_GAME`] are read: a larger input (a pipe that never
/// ends) is an error, not memory without end. Beside the text comes what ended a
/// compressed input early (a file cut short), when something did: the text before the
/// cut is all there, for the caller to use and then say where it ends.
pub fn read_input(path: Option<&Path>) -> std::io::Result<(String, Option<std::io::Error>)> {
    let limit = crate::pgn::MAX_GAME;
    let mut bytes = Vec::new();
    let src = input::Input::open(path.unwrap_or(Path::new("-")))?;
    let cut = src.cut();
    src.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(std::io::Error::other(format!(
            "it holds more than {} MiB, the most read as free text \
             (convert and check read PGN files of any size)",
            limit >> 20
        )));
    }
    Ok((crate::text::decode_file(bytes), cut.take()))
}
