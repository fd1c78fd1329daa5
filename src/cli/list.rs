//! `scoresheet list FILE`: one line per game from the index, without reading moves:
//! number, White, Black, result, date, event, ECO, plies — separated by tabs.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use super::exit;
use crate::pgn::index_read;

/// Arguments of `list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PGN file.
    pub file: PathBuf,
}

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let name = args.file.display().to_string();
    let entries = match File::open(&args.file).and_then(index_read) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("scoresheet list: cannot read {name}: {e}");
            return exit::USAGE;
        }
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    for e in &entries {
        let or_q = |s: &str| {
            if s.is_empty() {
                "?".to_string()
            } else {
                s.to_string()
            }
        };
        let _ = writeln!(
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
        );
    }
    let _ = out.flush();
    exit::OK
}
