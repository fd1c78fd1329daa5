//! Opening the index of a file, building it when there is none that fits: what `search`,
//! `tree` and the reviewer's study thread share. Reading the file goes on every core
//! exactly as `check` reads it; its problems are handed to the caller (who reports them or
//! not), in file order with absolute line and game numbers.

use std::fs::File;
use std::io;
use std::path::Path;

use super::build::{Builder, Compact};
use super::cache::{self, Found, Stamp};
use super::{Bytes, Damage, Index};
use crate::notation::Lang;
use crate::pgn::chunks::{self, Part, Until};
use crate::pgn::{GameError, Pos, Reader};
use crate::study::follow::{Follow, Walked};
use crate::study::key::Goal;

/// What happened on the way to an index, for the caller to say.
pub enum Event<'a> {
    /// The index in the cache was damaged: it is rebuilt.
    Damaged(&'a Damage),
    /// The index built could not be stored in the cache.
    NotStored(&'a io::Error),
    /// A game has a problem: line, game number, "White - Black", the problem.
    Problem(u64, u64, &'a str, &'a GameError),
}

/// An index opened or built.
pub struct Opened {
    /// The index.
    pub index: Index,
    /// Whether it was built now.
    pub built: bool,
    /// Games in the file.
    pub games: u64,
    /// Of those, games with problems.
    pub problems: u64,
    /// Whether it is kept in the cache (found there, or stored now).
    pub kept: bool,
}

/// One game read, with what is needed to report its problems.
pub struct Item<T> {
    /// Its number (counted from the range's start).
    pub number: u64,
    /// "White - Black" and its problems, when it has any.
    pub problems: Option<(String, Vec<GameError>)>,
    /// What the caller made of it.
    pub out: T,
}

/// The visitor for a read: searching for a target (with or without variations), or
/// (without one) keeping what an index needs.
pub fn follower(lang: &'static Lang, (target, variations): (Option<Goal>, bool)) -> Follow {
    let f = Follow::new(lang, target, variations);
    if target.is_none() {
        f.indexing()
    } else {
        f
    }
}

/// Reads every game of the regular file `file` through [`follower`] on `jobs` threads (one
/// reads it as a stream), maps each with `map` on the reading threads, and hands the
/// results to `sink` in file order with absolute game numbers, and each problem to
/// `problem` (line, game, players, problem). Returns (games, games with problems).
#[allow(clippy::too_many_arguments)]
pub fn read_file<T: Send>(
    file: &File,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    follow: (Option<Goal>, bool),
    map: impl Fn(Walked) -> T + Sync,
    mut sink: impl FnMut(u64, T),
    mut problem: impl FnMut(u64, u64, &str, &GameError) -> io::Result<()>,
) -> io::Result<(u64, u64)> {
    let mut bad = 0u64;
    let item = |w: Walked| Item {
        number: w.read.number,
        problems: w.read.has_problems().then(|| {
            let errors = w.read.problems().into_iter().cloned().collect();
            (w.read.players(), errors)
        }),
        out: map(w),
    };
    if jobs > 1 {
        let work = |file: &File, from: Pos, until: &mut Until| {
            read_range(file, from, until, lang, follow, &item)
        };
        let games = chunks::read_file(file, jobs, chunk, work, |items, shift, first| {
            for it in items.into_iter().filter(|it| it.number >= first) {
                let number = shift.game(it.number);
                if let Some((players, errors)) = &it.problems {
                    bad += 1;
                    for e in errors {
                        problem(shift.line(e.pos.line), number, players, e)?;
                    }
                }
                sink(number, it.out);
            }
            Ok(())
        })?;
        return Ok((games, bad));
    }
    let mut reader = Reader::new(file);
    let mut f = follower(lang, follow);
    let mut games = 0;
    while let Some(w) = reader.read_game_restarting(&mut f)? {
        games += 1;
        let it = item(w);
        if let Some((players, errors)) = &it.problems {
            bad += 1;
            for e in errors {
                problem(e.pos.line, it.number, players, e)?;
            }
        }
        sink(it.number, it.out);
    }
    Ok((games, bad))
}

/// Reads the games of `file` from `from` until `until` says stop (see [`chunks::read_file`]).
fn read_range<T>(
    file: &File,
    from: Pos,
    until: &mut Until,
    lang: &'static Lang,
    follow: (Option<Goal>, bool),
    item: &impl Fn(Walked) -> Item<T>,
) -> io::Result<Part<Vec<Item<T>>>> {
    let mut f = follower(lang, follow);
    chunks::read_range(file, from, until, &mut f, Vec::new(), |items, w| {
        items.push(item(w))
    })
}

/// Opens the index of `path` (a regular, uncompressed file), building and storing it when
/// missing, stale, damaged, or when `rebuild` says the one in the cache was found damaged
/// while answering. `event` hears what the caller may want to say.
pub fn open_or_build(
    path: &Path,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    rebuild: bool,
    mut event: impl FnMut(Event) -> io::Result<()>,
) -> io::Result<Opened> {
    let stamp = Stamp::of(path)?;
    match cache::find(&stamp) {
        Found::Fresh(index) if !rebuild => {
            let (games, problems) = (u64::from(index.games()), u64::from(index.header().problems));
            return Ok(Opened {
                index: *index,
                built: false,
                games,
                problems,
                kept: true,
            });
        }
        Found::Damaged(why) => event(Event::Damaged(&why))?,
        _ => {}
    }
    let mut builder = Builder::default();
    let file = File::open(path)?;
    let (games, problems) = read_file(
        &file,
        jobs,
        chunk,
        lang,
        (None, false),
        |w| Compact::of(w.read.start.offset, w),
        |_, c| builder.add(c),
        |line, game, players, e| event(Event::Problem(line, game, players, e)),
    )?;
    let Some(bytes) = builder.finish(&stamp.path_text(), stamp.size, stamp.mtime) else {
        return Err(io::Error::other(
            "the file holds too many positions to index",
        ));
    };
    // A file that changed while it was read is answered as read, but not stored.
    let mut kept = false;
    if Stamp::of(path).ok().as_ref() == Some(&stamp) {
        match cache::store(&stamp, &bytes) {
            Ok(()) => kept = true,
            Err(e) => event(Event::NotStored(&e))?,
        }
    }
    let index = Index::open(Bytes::Owned(bytes))
        .map_err(|e| io::Error::other(format!("the index just built is unreadable: {e}")))?;
    Ok(Opened {
        index,
        built: true,
        games,
        problems,
        kept,
    })
}
