//! `scoresheet list FILE`: one line per game from the index, without reading moves:
//! number, White, Black, result, date, event, ECO, plies — separated by tabs.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use super::exit;
use crate::pgn::index_each;

/// Arguments of `list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PGN file.
    pub file: PathBuf,
}

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let name = args.file.display().to_string();
    let mut out = BufWriter::new(std::io::stdout().lock());
    fn or_q(s: &str) -> &str {
        if s.is_empty() {
            "?"
        } else {
            s
        }
    }
    // Each line is written as soon as its game is indexed: memory stays bounded.
    let listed = File::open(&args.file).and_then(|file| {
        index_each(file, |e| {
            writeln!(
                out,
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                e.number,
                or_q(e.white()),
                or_q(e.black()),
                or_q(e.result()),
                or_q(e.date()),
                or_q(e.event()),
                or_q(e.eco()),
                e.plies
            )
        })
    });
    let _ = out.flush();
    match listed {
        Ok(()) => exit::OK,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => exit::OK,
        Err(e) => {
            eprintln!("scoresheet list: cannot read {name}: {e}");
            exit::USAGE
        }
    }
}
