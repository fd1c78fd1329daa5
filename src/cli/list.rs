//! `scoresheet list FILE`: one line per game from the index, without reading moves:
//! number, White, Black, result, date, event, ECO, plies — separated by tabs.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::mpsc;

use super::exit;
use crate::pgn::{index_each, GameEntry};

/// Arguments of `list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PGN file.
    pub file: PathBuf,
}

/// Entries handed to the writing thread at a time (one channel message per batch).
const BATCH: usize = 512;

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let name = args.file.display().to_string();
    // This thread indexes; a second one writes the lines, in file order. The channel holds
    // a few batches at most, so memory stays bounded whatever the number of games.
    let (tx, rx) = mpsc::sync_channel::<Vec<GameEntry>>(4);
    let listed = std::thread::scope(|scope| {
        let writer = scope.spawn(move || write_lines(rx));
        let indexed = File::open(&args.file).and_then(|file| {
            let mut batch = Vec::with_capacity(BATCH);
            index_each(file, |e| {
                batch.push(e);
                if batch.len() == BATCH {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                    // The writer stops only on a write error, which it reports below.
                    if tx.send(full).is_err() {
                        return Err(std::io::ErrorKind::BrokenPipe.into());
                    }
                }
                Ok(())
            })?;
            let _ = tx.send(batch);
            Ok(())
        });
        drop(tx);
        let written = writer.join().unwrap_or(Ok(()));
        // A write error (a closed pipe) comes first: it is why indexing stopped.
        written.and(indexed)
    });
    match listed {
        Ok(()) => exit::OK,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => exit::OK,
        Err(e) => {
            eprintln!("scoresheet list: cannot read {name}: {e}");
            exit::USAGE
        }
    }
}

/// Writes one line per entry. Lines are put together by hand in one reused buffer: the
/// formatting machinery cost more than indexing the tags.
fn write_lines(rx: mpsc::Receiver<Vec<GameEntry>>) -> std::io::Result<()> {
    fn or_q(s: &str) -> &str {
        if s.is_empty() {
            "?"
        } else {
            s
        }
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut line = Vec::with_capacity(256);
    for batch in rx {
        for e in batch {
            line.clear();
            push_number(&mut line, e.number);
            for field in [
                e.white(),
                e.black(),
                e.result(),
                e.date(),
                e.event(),
                e.eco(),
            ] {
                line.push(b'\t');
                line.extend_from_slice(or_q(field).as_bytes());
            }
            line.push(b'\t');
            push_number(&mut line, u64::from(e.plies));
            line.push(b'\n');
            out.write_all(&line)?;
        }
    }
    // A failed final flush is not reported (as before): a closed pipe is no error.
    let _ = out.flush();
    Ok(())
}

/// Appends `n` in decimal, as `{}` would write it.
fn push_number(line: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    line.extend_from_slice(&digits[k..]);
}
