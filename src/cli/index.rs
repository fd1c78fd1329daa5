//! `scoresheet index FILE...`: builds the position index of each file now (see
//! [`crate::study::index`]), so that `search`, `tree` and the reviewer answer from it at
//! once. `search` and `tree` start the same command in the background, at the lowest
//! priority, after reading a file that has no index: [`in_background`].

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::exit;
use super::input::{self, Input};
use crate::notation::Lang;
use crate::study::index::cache::{self, Stamp};
use crate::study::index::open::{self, Event};
use crate::study::index::Index;

/// Arguments of `index`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// PGN files on disk, not compressed (the files `search` and `tree` keep an index of).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Piece-letter language of the moves, for files not written in English.
    #[arg(long = "input-lang", value_name = "LANG", default_value = "en")]
    pub input_lang: String,
    /// Threads to use, 1 or more (default: all cores).
    #[arg(long, short = 'j', value_parser = super::input::parse_jobs)]
    pub jobs: Option<usize>,
    /// Build quietly at the lowest priority, unless another process is already building
    /// the same index (how `search` and `tree` start it).
    #[arg(long, hide = true)]
    pub background: bool,
}

/// Opens the index of `path` (see [`open::open_or_build`]), saying on standard error when
/// one was damaged or could not be stored, and writing the file's problems there in
/// `check`'s format. Returns the index, whether it was built now, and (games, games with
/// problems).
pub(super) fn open_index(
    path: &Path,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    rebuild: bool,
) -> io::Result<(Index, bool, u64, u64)> {
    let name = input::name(path);
    let mut err = BufWriter::new(io::stderr().lock());
    let opened = open::open_or_build(path, jobs, chunk, lang, rebuild, |event| match event {
        Event::Damaged(why) => writeln!(
            err,
            "scoresheet: the index of {name} was damaged ({why}): rebuilding it"
        ),
        Event::NotStored(e) => writeln!(
            err,
            "scoresheet: the index of {name} could not be stored in {}: {e}",
            cache::dir().display()
        ),
        Event::Problem(line, game, players, e) => {
            super::check::write_problem(&mut err, &name, line, game, players, e)
        }
    })?;
    err.flush()?;
    Ok((opened.index, opened.built, opened.games, opened.problems))
}

/// Starts `scoresheet index --background` on the file of `stamp` in a process
/// of its own that outlives this one, unless one is at work on it already. An error says
/// that no index can be kept (the cache directory cannot be written), or that the
/// process could not be started.
pub(super) fn in_background(stamp: &Stamp, lang: &str) -> io::Result<()> {
    if cache::being_built(stamp)? {
        return Ok(());
    }
    let mut command = Command::new(std::env::current_exe()?);
    command
        .args(["index", "--background", "--input-lang", lang, "--"])
        .arg(&stamp.path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // Its own process group: Ctrl-C at the terminal stops the search, not the builder.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    command.spawn().map(drop)
}

/// Asks the system to run this process (the threads it starts from now on) at the lowest
/// priority: a background build gives way to whatever the user does meanwhile.
fn lowest_priority() {
    #[cfg(unix)]
    // SAFETY: setpriority only changes the scheduling priority of the calling thread
    // (Linux) or process; it reads no memory of ours. Failure leaves the priority as it was.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// Runs `index`; returns the exit code (as `check`'s: 1 when games have problems).
pub fn run(args: &Args) -> u8 {
    let Some(lang) = super::parse_lang("index", &args.input_lang) else {
        return exit::USAGE;
    };
    if args.background {
        lowest_priority();
    }
    let jobs = input::jobs(args.jobs);
    let (mut unreadable, mut bad_total) = (false, 0u64);
    for path in &args.files {
        let name = input::name(path);
        match index_one(path, jobs, lang, args.background) {
            Ok(Some((built, games, bad))) => {
                bad_total += bad;
                if !args.background {
                    let games = crate::plural::count(games as usize, "game", "games");
                    let errors = if bad > 0 {
                        format!(", {bad} with errors")
                    } else {
                        String::new()
                    };
                    let how = if built { "indexed" } else { "already indexed" };
                    eprintln!("scoresheet index: {name}: {games}{errors}, {how}");
                }
            }
            Ok(None) => {}
            Err(e) => {
                if !args.background {
                    eprintln!("scoresheet index: cannot index {name}: {e}");
                }
                unreadable = true;
            }
        }
    }
    exit::of(unreadable, bad_total)
}

/// Indexes one file: (built now, games, games with problems); `None` when in the
/// background another process is at it already.
fn index_one(
    path: &Path,
    jobs: usize,
    lang: &'static Lang,
    background: bool,
) -> io::Result<Option<(bool, u64, u64)>> {
    let input = Input::open(path)?;
    if input::is_stdin(path) || input.regular_file().is_none() {
        return Err(io::Error::other(
            "only a PGN file on disk, not compressed, has an index \
             (search and tree read the others through)",
        ));
    }
    drop(input);
    let stamp = Stamp::of(path)?;
    let lock = if background {
        match cache::lock_building(&stamp)? {
            Some(lock) => Some(lock),
            None => return Ok(None),
        }
    } else {
        None
    };
    let opened = if background {
        open::open_or_build(path, jobs, super::parallel::CHUNK, lang, false, |_| Ok(()))
            .map(|o| (o.built, o.games, o.problems))
    } else {
        open_index(path, jobs, super::parallel::CHUNK, lang, false).map(|o| (o.1, o.2, o.3))
    };
    if let Some(lock) = lock {
        cache::unlock_building(&stamp, lock);
    }
    opened.map(Some)
}
