//! `check --jobs N`, two ways.
//!
//! - A regular file ([`check_chunks`]) is split speculatively by byte offset and its chunks
//!   are checked by worker threads that read the file themselves (see [`super::chunks`]);
//!   this thread only writes, in file order.
//! - Any other input, such as a pipe ([`check_stream`]), is read in blocks by this thread,
//!   each block cut at a game boundary, while worker threads check the blocks; results
//!   come back tagged with their block number and are written in file order.
//!
//! Either way game numbers and line numbers are made global again, so the output is the
//! sequential output.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use super::input::{no_threads, spawn_worker};
use crate::notation::Lang;
use crate::pgn::chunks::{self, Part, Until};
use crate::pgn::split::whole_games_end;
use crate::pgn::{GameBuilder, GameError, Pos, Reader, SliceReader, MAX_GAME};

/// Bytes per chunk of a regular file (see [`crate::pgn::chunks::CHUNK`]).
pub const CHUNK: u64 = crate::pgn::chunks::CHUNK;

/// Checks a regular file with `jobs` threads, in chunks of `chunk` bytes; returns (games,
/// games with errors).
pub fn check_chunks(
    file: &File,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    name: &str,
    out: &mut impl Write,
) -> io::Result<(u64, u64)> {
    let mut bad = 0;
    let work = |file: &File, from: Pos, until: &mut Until| check_range(file, from, until, lang);
    let games = chunks::read_file(file, jobs, chunk, work, |problems, shift, first| {
        for p in problems.iter().filter(|p| p.game >= first) {
            bad += 1;
            for e in &p.errors {
                let (line, game) = (shift.line(e.pos.line), shift.game(p.game));
                super::check::write_problem(out, name, line, game, &p.players, e)?;
            }
        }
        Ok(())
    })?;
    Ok((games, bad))
}

/// Checks the games of `file` from `from` until `until` says stop (see
/// [`chunks::read_file`]).
fn check_range(
    file: &File,
    from: Pos,
    until: &mut Until,
    lang: &'static Lang,
) -> io::Result<Part<Vec<Problem>>> {
    let mut builder = GameBuilder::new(false).reading(lang);
    chunks::read_range(
        file,
        from,
        until,
        &mut builder,
        Vec::new(),
        |problems, g| {
            if g.has_problems() {
                problems.push(Problem {
                    game: g.number,
                    players: g.players(),
                    errors: g.problems().into_iter().cloned().collect(),
                });
            }
        },
    )
}

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

fn check_block(seq: u64, data: &[u8], lang: &'static Lang) -> Done {
    // Only the first block starts the stream (and may have its byte-order mark).
    let mut reader = if seq == 0 {
        SliceReader::new(data)
    } else {
        SliceReader::continuing(data)
    };
    let mut builder = GameBuilder::new(false).reading(lang);
    let mut problems = Vec::new();
    let mut games = 0;
    while let Some(g) = reader.read_game_restarting(&mut builder) {
        games += 1;
        if g.has_problems() {
            problems.push(Problem {
                game: g.number,
                players: g.players(),
                errors: g.problems().into_iter().cloned().collect(),
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

/// Checks a stream with `jobs` threads (as many as the system grants); returns (games,
/// games with errors).
///
/// Memory stays bounded: blocks in flight are a few per thread, and a game that grows past
/// [`MAX_GAME`] without ending (a pipe that never stops, or one huge game) is not
/// gathered further: the rest of the stream, from that game on, is checked on this thread by
/// the streaming reader, which reports the game as too large and goes on after it.
pub fn check_stream(
    mut file: impl Read,
    jobs: usize,
    lang: &'static Lang,
    name: &str,
    out: &mut impl Write,
) -> std::io::Result<(u64, u64)> {
    let (work_tx, work_rx) = mpsc::sync_channel::<(u64, Vec<u8>)>(jobs);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let mut totals = Totals::default();
    let mut pending = BTreeMap::new();
    let mut carry: Vec<u8> = Vec::new();
    let mut seq = 0u64;
    let mut too_large = false;
    std::thread::scope(|scope| -> std::io::Result<()> {
        let mut workers = 0;
        for _ in 0..jobs {
            let rx = Arc::clone(&work_rx);
            let tx = done_tx.clone();
            let started = spawn_worker(scope, move || loop {
                let next = rx.lock().map(|r| r.recv());
                let Ok(Ok((seq, data))) = next else {
                    return;
                };
                if tx.send(check_block(seq, &data, lang)).is_err() {
                    return;
                }
            });
            if !started {
                break;
            }
            workers += 1;
        }
        drop(done_tx);
        if workers == 0 {
            return Err(no_threads());
        }
        let mut eof = false;
        let result = (|| -> std::io::Result<()> {
            while !eof {
                let old = carry.len();
                // A game longer than a block: read as much again as is held (so finding its
                // end costs time linear in its size), up to just past the limit.
                let grow = BLOCK.max(old).min(MAX_GAME.saturating_sub(old) + 1);
                carry.resize(old + grow, 0);
                let n = read_full(&mut file, &mut carry[old..])?;
                carry.truncate(old + n);
                eof = n == 0;
                let cut = whole_games_end(&carry, eof);
                if cut == 0 && !eof {
                    if carry.len() > MAX_GAME {
                        too_large = true;
                        break;
                    }
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
    if too_large {
        // `carry` starts where a game may begin, at a line start (or at the very start).
        let at = Pos {
            offset: 1,
            line: totals.lines + 1,
            column: 1,
            game: totals.games + 1,
        };
        let (games, bad) = if seq == 0 {
            let rest = io::Cursor::new(carry).chain(file);
            super::check::check_reader(Reader::new(rest), lang, name, out)?
        } else {
            // One byte of history before `at`: the line feed that ends the last block.
            let mut history = Vec::with_capacity(carry.len() + 1);
            history.push(b'\n');
            history.append(&mut carry);
            let rest = io::Cursor::new(history).chain(file);
            let reader = Reader::new(rest).starting_at(at);
            super::check::check_reader(reader, lang, name, out)?
        };
        return Ok((totals.games + games, totals.bad + bad));
    }
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
                    let (line, game) = (e.pos.line + self.lines, p.game + self.games);
                    super::check::write_problem(out, name, line, game, &p.players, e)?;
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
    fn cuts_only_between_games_never_inside_a_comment() {
        let text = b"[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n[Site \"d\"]\n\n1. d4 *\n\n[Event \"e\"]\n";
        let cut = whole_games_end(text, false);
        assert_eq!(&text[cut..cut + 11], b"[Event \"e\"]");
        let text = b"[Event \"a\"]\n\n1. e4 {\n[Event \"fake\"]\n} e5 *\n\n[Event \"b\"]\n\n1. d4";
        let cut = whole_games_end(text, false);
        assert_eq!(&text[cut..cut + 11], b"[Event \"b\"]");
    }
}
