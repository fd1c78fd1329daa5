//! Reading an engine's output, on threads of their own, within bounds: an engine that
//! floods its output (a loop printing `info string …`) or prints a line that never ends
//! costs a bounded amount of memory, not all of it.
//!
//! - A line is kept up to [`MAX_LINE`] bytes; the rest of a longer one is read and
//!   dropped. No UCI line comes near it: a principal variation of 500 moves is 3 KB.
//! - At most [`MAX_BACKLOG`] lines wait to be taken; the reader then waits, and so does
//!   the engine, once the pipe between them is full.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::process::Incoming;

/// The longest line kept from an engine, in bytes.
pub(super) const MAX_LINE: usize = 16 << 10;

/// Lines read from the engine's output and not yet taken, at most.
pub(super) const MAX_BACKLOG: usize = 1024;

/// The count of lines sent and not yet taken (see [`MAX_BACKLOG`]), shared by the reader
/// and the engine's side.
#[derive(Debug, Clone, Default)]
pub(super) struct Backlog(Arc<AtomicUsize>);

impl Backlog {
    /// One line was taken from the channel.
    pub(super) fn taken(&self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }

    /// Waits until a line may be sent; `false` when nobody is left to take it (the
    /// engine's side is gone).
    fn wait_for_room(&self) -> bool {
        while self.0.load(Ordering::Relaxed) >= MAX_BACKLOG {
            if Arc::strong_count(&self.0) == 1 {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.0.fetch_add(1, Ordering::Relaxed);
        true
    }
}

/// Reads the engine's standard output into `tx`, one [`Incoming::Line`] per line, then
/// [`Incoming::Closed`] at its end.
pub(super) fn read_output(
    output: impl Read + Send + 'static,
    tx: Sender<Incoming>,
    backlog: Backlog,
) {
    std::thread::spawn(move || {
        let ended = each_line(output, |line| {
            let line = String::from_utf8_lossy(line).into_owned();
            backlog.wait_for_room() && tx.send(Incoming::Line(line)).is_ok()
        });
        if ended {
            let _ = tx.send(Incoming::Closed);
        }
    });
}

/// Reads the engine's standard error, keeping its last `keep` lines in `tail` (for the
/// message when it dies).
pub(super) fn read_errors(
    errors: impl Read + Send + 'static,
    tail: Arc<Mutex<VecDeque<String>>>,
    keep: usize,
) {
    std::thread::spawn(move || {
        each_line(errors, |line| {
            let line = String::from_utf8_lossy(line).trim_end().to_string();
            let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
            if tail.len() == keep {
                tail.pop_front();
            }
            tail.push_back(line);
            true
        });
    });
}

/// Gives `take` each line of `input` (see [`read_line`]) until the input ends or fails
/// (`true`), or `take` says to stop (`false`).
fn each_line(input: impl Read, mut take: impl FnMut(&[u8]) -> bool) -> bool {
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_line(&mut reader, &mut buf, MAX_LINE) {
            Ok(0) | Err(_) => return true,
            Ok(_) if !take(&buf) => return false,
            Ok(_) => {}
        }
    }
}

/// Reads one line (up to and with its `\n`, or to the end of the input) into `buf`,
/// keeping at most `max` bytes of it. Returns the bytes read, kept or not: 0 at the end.
pub(super) fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<usize> {
    let mut read = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read);
        }
        let (used, done) = match memchr::memchr(b'\n', available) {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let room = max.saturating_sub(buf.len());
        buf.extend_from_slice(&available[..used.min(room)]);
        reader.consume(used);
        read += used;
        if done {
            return Ok(read);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_longer_than_the_limit_is_cut_and_the_next_line_read_whole() {
        let mut text = vec![b'x'; 100_000];
        text.extend_from_slice(b"\nreadyok\n");
        let mut reader = BufReader::with_capacity(4096, &text[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut reader, &mut buf, 1000).unwrap(), 100_001);
        assert_eq!(buf.len(), 1000);
        buf.clear();
        assert_eq!(read_line(&mut reader, &mut buf, 1000).unwrap(), 8);
        assert_eq!(buf, b"readyok\n");
        buf.clear();
        assert_eq!(read_line(&mut reader, &mut buf, 1000).unwrap(), 0);
    }

    #[test]
    fn the_reader_waits_while_the_backlog_is_full_and_stops_when_nobody_takes() {
        let (tx, rx) = std::sync::mpsc::channel();
        let backlog = Backlog::default();
        let lines = "info string flood\n".repeat(MAX_BACKLOG * 3);
        read_output(io::Cursor::new(lines.into_bytes()), tx, backlog.clone());
        std::thread::sleep(Duration::from_millis(200));
        // Not all 3,072 lines: the reader waits for them to be taken.
        assert_eq!(rx.try_iter().count(), MAX_BACKLOG);
        for _ in 0..MAX_BACKLOG {
            backlog.taken();
        }
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(rx.try_iter().count(), MAX_BACKLOG);
    }
}
