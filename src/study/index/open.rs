//! Opening the index of a file, building it when there is none that fits (one builder at
//! a time, see [`open_or_build`]): what `search`, `tree`, `index` and the reviewer's study
//! thread share; and answering by reading the file through meanwhile ([`read_through`]). Reading the file goes on every core
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
use crate::position::Position;
use crate::study::follow::{Follow, TagsRead, Walked};
use crate::study::key::Goal;
use crate::study::tree::{Tally, Tree};

/// What happened on the way to an index, for the caller to say.
pub enum Event<'a> {
    /// The index in the cache was damaged: it is rebuilt.
    Damaged(&'a Damage),
    /// The index built could not be stored in the cache.
    NotStored(&'a io::Error),
    /// A game has a problem: line, game number, "White - Black", the problem.
    Problem(u64, u64, &'a str, &'a GameError),
    /// Another process is building the index: waiting for it ([`WhenBusy::Wait`]).
    Waiting,
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

/// One game read that is kept: one the caller picked, or one with problems to report.
pub struct Item<T> {
    /// Its number (counted from the range's start).
    pub number: u64,
    /// "White - Black" and its problems, when it has any (boxed: few games have any, and
    /// a chunk's items are moved about).
    pub problems: Option<Box<(String, Vec<GameError>)>>,
    /// What the caller made of it, when it picked it.
    pub out: Option<T>,
}

/// What a read of games follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// The position looked for; none: what an index needs is kept.
    pub target: Option<Goal>,
    /// Whether the target is looked for inside variations too.
    pub variations: bool,
    /// Which tags are read (a search that reads the tags of the games it finds
    /// afterwards, from the file at each game's offset, does without: most games are not
    /// found, and their tags cost a tenth of the reading).
    pub tags: TagsRead,
}

impl Reading {
    /// Keeping what an index needs of every game.
    pub fn index() -> Reading {
        Reading {
            target: None,
            variations: false,
            tags: TagsRead::All,
        }
    }

    /// Looking for `target` (inside variations too with `variations`), with the tags.
    pub fn search(target: Goal, variations: bool) -> Reading {
        Reading {
            target: Some(target),
            variations,
            tags: TagsRead::All,
        }
    }

    /// The same, reading only these tags.
    pub fn reading_tags(self, tags: TagsRead) -> Reading {
        Reading { tags, ..self }
    }
}

/// The visitor for a read: searching for a target (with or without variations, with or
/// without the tags), or (without one) keeping what an index needs.
pub fn follower(lang: &'static Lang, reading: Reading) -> Follow {
    let f = Follow::new(lang, reading.target, reading.variations);
    let f = f.reading_tags(reading.tags);
    if reading.target.is_none() {
        f.indexing()
    } else {
        f
    }
}

/// Reads every game of the regular file `file` through [`follower`] on `jobs` threads (one
/// reads it as a stream), maps each with `map` on the reading threads, and hands what it
/// picked (`Some`) to `sink` in file order with absolute game numbers (an error from it
/// stops the reading), and each problem to `problem` (line, game, players, problem).
/// Returns (games, games with problems).
#[allow(clippy::too_many_arguments)]
pub fn read_file<T: Send>(
    file: &File,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    follow: Reading,
    map: impl Fn(Walked) -> Option<T> + Sync,
    mut sink: impl FnMut(u64, T) -> io::Result<()>,
    mut problem: impl FnMut(u64, u64, &str, &GameError) -> io::Result<()>,
) -> io::Result<(u64, u64)> {
    let mut bad = 0u64;
    // Only the games picked or with problems are kept: a search that finds few games
    // keeps little of a chunk.
    let item = |w: Walked| {
        let number = w.read.number;
        let problems = w.read.has_problems().then(|| {
            let errors = w.read.problems().into_iter().cloned().collect();
            Box::new((w.read.players(), errors))
        });
        let out = map(w);
        (out.is_some() || problems.is_some()).then_some(Item {
            number,
            problems,
            out,
        })
    };
    if jobs > 1 {
        let work = |file: &File, from: Pos, until: &mut Until| {
            read_range(file, from, until, lang, follow, &item)
        };
        let games = chunks::read_file(file, jobs, chunk, work, |items, shift, first| {
            for it in items.into_iter().filter(|it| it.number >= first) {
                let number = shift.game(it.number);
                if let Some(p) = &it.problems {
                    bad += 1;
                    for e in &p.1 {
                        problem(shift.line(e.pos.line), number, &p.0, e)?;
                    }
                }
                if let Some(out) = it.out {
                    sink(number, out)?;
                }
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
        let Some(it) = item(w) else {
            continue;
        };
        if let Some(p) = &it.problems {
            bad += 1;
            for e in &p.1 {
                problem(e.pos.line, it.number, &p.0, e)?;
            }
        }
        if let Some(out) = it.out {
            sink(it.number, out)?;
        }
    }
    Ok((games, bad))
}

/// Reads the games of `file` from `from` until `until` says stop (see [`chunks::read_file`]).
fn read_range<T>(
    file: &File,
    from: Pos,
    until: &mut Until,
    lang: &'static Lang,
    follow: Reading,
    item: &impl Fn(Walked) -> Option<Item<T>>,
) -> io::Result<Part<Vec<Item<T>>>> {
    let mut f = follower(lang, follow);
    chunks::read_range(file, from, until, &mut f, Vec::new(), |items, w| {
        items.extend(item(w))
    })
}

/// What a caller does when another process is building the index it wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenBusy {
    /// Waits for that build to end, then takes the index it left (or builds one, if it
    /// left none): `scoresheet index`, and a search that found its index damaged.
    Wait,
    /// Gives way at once ([`Opening::BuiltElsewhere`]): the background builder (the other
    /// one does its work) and the reviewer (which answers meanwhile, and looks again).
    GiveWay,
}

/// What [`open_or_build`] came to.
pub enum Opening {
    /// The index, found or built (boxed: it is large, and the other variant empty).
    Ready(Box<Opened>),
    /// Another process is building it now (only with [`WhenBusy::GiveWay`]).
    BuiltElsewhere,
}

/// Opens the index of `stamp`'s source (a regular, uncompressed file), building and
/// storing it when missing, stale, damaged, or when `rebuild` says the one in the cache
/// was found damaged while answering. A build happens only under the lock of
/// [`cache::lock_building`], and the cache is looked at again once the lock is held, so
/// that two processes never build one index at once and the one that waited takes the
/// other's index; `busy` says whether to wait for another process's build or give way to
/// it. A build records why it failed (see [`cache::failure`]), or clears an old record.
/// `event` hears what the caller may want to say.
pub fn open_or_build(
    stamp: &Stamp,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    rebuild: bool,
    busy: WhenBusy,
    event: impl FnMut(Event) -> io::Result<()>,
) -> io::Result<Opening> {
    let text = stamp.path.clone();
    open_or_build_from(stamp, &text, jobs, chunk, lang, rebuild, busy, event)
}

/// [`open_or_build`] for a source whose text is read from the file `text`: the whole
/// decoded copy of a compressed source (the reviewer's, once its list has read it all),
/// of the version `stamp` names. The index is the source's, kept in the cache as any
/// other (a search of the source as a batch command still reads it through).
#[allow(clippy::too_many_arguments)]
pub fn open_or_build_from(
    stamp: &Stamp,
    text: &Path,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    rebuild: bool,
    busy: WhenBusy,
    mut event: impl FnMut(Event) -> io::Result<()>,
) -> io::Result<Opening> {
    if !rebuild {
        match cache::find(stamp) {
            Found::Fresh(index) => return Ok(Opening::Ready(Box::new(found(*index)))),
            Found::Damaged(why) => event(Event::Damaged(&why))?,
            Found::Missing | Found::Stale => {}
        }
    }
    let (lock, waited) = match cache::lock_building(stamp) {
        Ok(Some(lock)) => (Some(lock), false),
        Ok(None) if busy == WhenBusy::GiveWay => return Ok(Opening::BuiltElsewhere),
        Ok(None) => {
            event(Event::Waiting)?;
            (Some(cache::wait_building(stamp)?), true)
        }
        // Where no lock can be taken no index can be kept either: this build only
        // answers its caller.
        Err(_) => (None, false),
    };
    // Another build may have ended between the look above and the lock: its index is
    // taken (even when this caller found the one before it damaged, if it waited).
    if lock.is_some() && (!rebuild || waited) {
        if let Found::Fresh(index) = cache::find(stamp) {
            return Ok(Opening::Ready(Box::new(found(*index))));
        }
    }
    let built = build(stamp, text, jobs, chunk, lang, &mut event);
    if lock.is_some() {
        match &built {
            Ok((opened, None)) if opened.kept => cache::clear_failure(stamp),
            Ok((_, Some(why))) => cache::record_failure(stamp, why),
            Ok(_) => {}
            Err(e) => cache::record_failure(stamp, &e.to_string()),
        }
    }
    drop(lock);
    built.map(|(opened, _)| Opening::Ready(Box::new(opened)))
}

/// An index found in the cache, opened.
fn found(index: Index) -> Opened {
    let (games, problems) = (u64::from(index.games()), u64::from(index.header().problems));
    Opened {
        index,
        built: false,
        games,
        problems,
        kept: true,
    }
}

/// Builds the index of `stamp`'s source, whose text is the file `text`, and stores it;
/// also says why it could not be stored, when it could not.
fn build(
    stamp: &Stamp,
    text: &Path,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    event: &mut impl FnMut(Event) -> io::Result<()>,
) -> io::Result<(Opened, Option<String>)> {
    let mut builder = Builder::default();
    let file = File::open(text)?;
    let (games, problems) = read_file(
        &file,
        jobs,
        chunk,
        lang,
        Reading::index(),
        |w| Some(Compact::of(w.read.start.offset, w)),
        |_, c| {
            builder.add(c);
            Ok(())
        },
        |line, game, players, e| event(Event::Problem(line, game, players, e)),
    )?;
    // What a search result line shows of each game, read from its bytes now that every
    // game's start is known (each tag section ends before the next game's start).
    let columns = super::columns::read(&file, &builder.offsets())?;
    let Some(bytes) = builder.finish(&stamp.path_text(), stamp.size, stamp.mtime, &columns) else {
        return Err(io::Error::other(
            "the file holds too many positions to index",
        ));
    };
    // A file that changed while it was read is answered as read, but not stored.
    let (mut kept, mut why) = (false, None);
    if stamp.again().ok().as_ref() == Some(stamp) {
        match cache::store(stamp, &bytes) {
            Ok(()) => kept = true,
            Err(e) => {
                why = Some(format!(
                    "it could not be stored in {}: {e}",
                    stamp.dir.display()
                ));
                event(Event::NotStored(&e))?;
            }
        }
    }
    let index = Index::open(Bytes::Owned(bytes))
        .map_err(|e| io::Error::other(format!("the index just built is unreadable: {e}")))?;
    Ok((
        Opened {
            index,
            built: true,
            games,
            problems,
            kept,
        },
        why,
    ))
}

/// The games of `file` that reach `pos` (number, and the first ply each does) and the
/// opening tree there, by reading the file through on `jobs` threads as the first search
/// does: how the reviewer answers while another process builds the file's index.
pub fn read_through(
    file: &File,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    pos: &Position,
) -> io::Result<(Vec<(u64, u32)>, Tree)> {
    let (mut hits, mut tallies) = (Vec::new(), Vec::new());
    let goal = Goal::of(pos.board());
    read_file(
        file,
        jobs,
        chunk,
        lang,
        Reading::search(goal, false),
        |w| w.reached.map(|ply| (ply, w.next, Tally::of(&w.info))),
        |number, (ply, next, tally)| {
            hits.push((number, ply));
            tallies.push((next, tally));
            Ok(())
        },
        |_, _, _, _| Ok(()),
    )?;
    Ok((hits, Tree::from_tallies(pos, tallies)))
}
