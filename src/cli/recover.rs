//! `scoresheet recover [--discard]`: prints the unsaved games the journal kept after
//! a recording that did not end cleanly (a crash, a kill, a power cut) as PGN on
//! standard output, one note per game on standard error; `--discard` deletes them.
//! Journals that cannot be read are reported and left in place.

use std::io::Write;

use super::exit;
use crate::pgn::write_game_to_string;
use crate::store::{self, format_time, Recoverable};

/// Arguments of `recover`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Delete the unsaved games instead of printing them.
    #[arg(long)]
    pub discard: bool,
}

fn note(g: &Recoverable) -> String {
    let target = g.out.as_ref().map_or("no file named yet".into(), |p| {
        format!("meant for {}", p.display())
    });
    format!(
        "{} ({}, last written {}; {target})",
        g.path.display(),
        crate::plural::moves_of(g.plies),
        format_time(g.modified)
    )
}

/// Runs the command; returns the exit code (0, or 1 when a journal could not be read).
pub fn run(args: &Args) -> u8 {
    let dir = store::journal_dir();
    let mut scan = match store::scan(&dir) {
        Ok(scan) => scan,
        Err(e) => {
            eprintln!("scoresheet recover: cannot read {}: {e}", dir.display());
            return exit::USAGE;
        }
    };
    for b in &scan.broken {
        eprintln!(
            "scoresheet recover: cannot read journal {}: {} (left in place: it is text, each \
             record line followed by the game as PGN; copy what you need, then delete it)",
            b.path.display(),
            b.reason
        );
    }
    // Printing deletes nothing; discarding also clears the journals that hold nothing.
    if args.discard {
        scan.tidy();
    }
    let code = if scan.broken.is_empty() {
        exit::OK
    } else {
        exit::PROBLEMS
    };
    if scan.games.is_empty() {
        eprintln!("scoresheet recover: no unsaved games in {}", dir.display());
        return code;
    }
    if args.discard {
        let mut gone = 0;
        for g in &scan.games {
            match store::discard(g) {
                Ok(()) => gone += 1,
                Err(e) => {
                    eprintln!(
                        "scoresheet recover: cannot delete {}: {e}",
                        g.path.display()
                    );
                    return exit::USAGE;
                }
            }
        }
        let games = crate::plural::count(gone, "unsaved game", "unsaved games");
        eprintln!("scoresheet recover: discarded {games}");
        return code;
    }
    let mut out = super::output::Stdout::new();
    for g in &scan.games {
        eprintln!("scoresheet recover: {}", note(g));
        let pgn = write_game_to_string(&g.game);
        if out
            .write_all(pgn.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            // `finish` says why, if it is worth saying.
            break;
        }
    }
    out.finish("recover", code)
}
