//! `check --jobs N`: the file is read in blocks, each block is cut at a game
//! boundary, and worker threads check the blocks while this thread reads on.
//! Results come back tagged with their block number and are written in file
//! order, with game numbers and line numbers made global again.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use crate::pgn::{GameBuilder, GameError, SliceReader};

/// Bytes read at a time; blocks in flight stay a few times this, whatever the file size.
const BLOCK: usize = 1 << 20;

struct Problem {
    game: u64,
    players: String,
    errors: Vec<GameError>,
}

struct Done {
    seq: u64,
    games: u64,
    newlines: u64,
    problems: Vec<Problem>,
}

/// Is the line starting at `at` a tag pair's start, `[Name "`?
fn is_tag_line(buf: &[u8], at: usize) -> bool {
    let rest = &buf[at..];
    if rest.first() != Some(&b'[') {
        return false;
    }
    let name = rest[1..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    name > 0
        && rest[1 + name..]
            .iter()
            .find(|c| !matches!(c, b' ' | b'\t'))
            .is_some_and(|c| *c == b'"')
}

/// The start of the line before the one starting at `at`, skipping blank lines.
fn previous_line(buf: &[u8], at: usize) -> Option<usize> {
    let mut end = at;
    loop {
        if end == 0 {
            return None;
        }
        let start = memchr::memrchr(b'\n', &buf[..end - 1]).map_or(0, |i| i + 1);
        if buf[start..end].iter().any(|c| !c.is_ascii_whitespace()) {
            return Some(start);
        }
        end = start;
    }
}

/// The last point in `buf` where a game's tag section starts: a tag line whose
/// previous non-blank line is not a tag line. 0 when there is none past the start.
fn last_cut(buf: &[u8]) -> usize {
    let mut end = buf.len();
    while let Some(nl) = memchr::memrchr(b'\n', &buf[..end]) {
        let at = nl + 1;
        if at < buf.len()
            && is_tag_line(buf, at)
            && previous_line(buf, at).is_some_and(|p| !is_tag_line(buf, p))
        {
            return at;
        }
        end = nl;
    }
    0
}

fn check_block(seq: u64, data: &[u8]) -> Done {
    let mut reader = SliceReader::new(data);
    let mut builder = GameBuilder::new(false);
    let mut problems = Vec::new();
    let mut games = 0;
    while let Some(g) = reader.read_game(&mut builder) {
        games += 1;
        if !g.errors.is_empty() {
            problems.push(Problem {
                game: g.number,
                players: g.players(),
                errors: g.errors,
            });
        }
    }
    Done {
        seq,
        games,
        newlines: memchr::memchr_iter(b'\n', data).count() as u64,
        problems,
    }
}

/// Checks one file with `jobs` threads; returns (games, games with errors).
pub fn check_file(
    mut file: impl Read,
    jobs: usize,
    name: &str,
    out: &mut impl Write,
) -> std::io::Result<(u64, u64)> {
    let (work_tx, work_rx) = mpsc::sync_channel::<(u64, Vec<u8>)>(jobs);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let mut totals = Totals::default();
    let mut pending = BTreeMap::new();
    std::thread::scope(|scope| -> std::io::Result<()> {
        for _ in 0..jobs {
            let rx = Arc::clone(&work_rx);
            let tx = done_tx.clone();
            scope.spawn(move || loop {
                let next = rx.lock().map(|r| r.recv());
                let Ok(Ok((seq, data))) = next else {
                    return;
                };
                if tx.send(check_block(seq, &data)).is_err() {
                    return;
                }
            });
        }
        drop(done_tx);
        let mut carry: Vec<u8> = Vec::new();
        let mut seq = 0u64;
        let mut eof = false;
        let result = (|| -> std::io::Result<()> {
            while !eof {
                let old = carry.len();
                carry.resize(old + BLOCK, 0);
                let n = read_full(&mut file, &mut carry[old..])?;
                carry.truncate(old + n);
                eof = n == 0;
                let cut = if eof { carry.len() } else { last_cut(&carry) };
                if cut == 0 && !eof {
                    continue; // one game larger than the block: read on
                }
                let rest = carry.split_off(cut);
                let block = std::mem::replace(&mut carry, rest);
                if !block.is_empty() {
                    if work_tx.send((seq, block)).is_err() {
                        break;
                    }
                    seq += 1;
                }
                while let Ok(done) = done_rx.try_recv() {
                    pending.insert(done.seq, done);
                    totals.flush(&mut pending, name, out)?;
                }
            }
            Ok(())
        })();
        drop(work_tx);
        for done in done_rx.iter() {
            pending.insert(done.seq, done);
            totals.flush(&mut pending, name, out)?;
        }
        result
    })?;
    Ok((totals.games, totals.bad))
}

fn read_full(file: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// What has been written so far: blocks are written strictly in order.
#[derive(Default)]
struct Totals {
    next: u64,
    games: u64,
    bad: u64,
    lines: u64,
}

impl Totals {
    fn flush(
        &mut self,
        pending: &mut BTreeMap<u64, Done>,
        name: &str,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        while let Some(done) = pending.remove(&self.next) {
            for p in &done.problems {
                for e in &p.errors {
                    writeln!(
                        out,
                        "{name}:{}:{}: game {} ({}): \"{}\": {}",
                        e.pos.line + self.lines,
                        e.pos.column,
                        p.game + self.games,
                        p.players,
                        e.token,
                        e.reason
                    )?;
                }
            }
            self.bad += done.problems.len() as u64;
            self.games += done.games;
            self.lines += done.newlines;
            self.next += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_only_where_a_tag_section_starts() {
        let text =
            b"[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n[Site \"d\"]\n\n1. d4 *\n";
        let cut = last_cut(text);
        assert_eq!(&text[cut..cut + 11], b"[Event \"c\"]");
        // A clock command at a line start inside a comment is not a tag.
        let text = b"[Event \"a\"]\n\n1. e4 {\n[%clk 0:01:00]} e5 *\n";
        assert_eq!(last_cut(text), 0);
    }
}
