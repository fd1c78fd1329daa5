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
use crate::study::index::open::{self, Event, Opened, Opening, WhenBusy};

/// Arguments of `index`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// PGN files on disk, not compressed (the files `search` and `tree` keep an index of).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub reading: input::Reading,
    #[command(flatten)]
    pub threads: input::Threads,
    /// Build quietly at the lowest priority, unless another process is already building
    /// the same index (how `search` and `tree` start it).
    #[arg(long, hide = true)]
    pub background: bool,
}

/// Opens the index of `path` (see [`open::open_or_build`]), waiting for another process
/// that builds it; says on standard error when one was damaged, could not be stored, or
/// is being built by another process, and writes the file's problems there in `check`'s
/// format.
pub(super) fn open_index(
    path: &Path,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    rebuild: bool,
) -> io::Result<Opened> {
    let name = input::name(path);
    let stamp = Stamp::of(path)?;
    let mut err = BufWriter::new(io::stderr().lock());
    let opening = open::open_or_build(
        &stamp,
        jobs,
        chunk,
        lang,
        rebuild,
        WhenBusy::Wait,
        |event| match event {
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
            Event::Waiting => {
                writeln!(
                    err,
                    "scoresheet: another scoresheet is building the index of {name}: waiting for it"
                )?;
                err.flush()
            }
        },
    )?;
    err.flush()?;
    match opening {
        Opening::Ready(opened) => Ok(*opened),
        Opening::BuiltElsewhere => Err(io::Error::other("another process builds its index")),
    }
}

/// Starts `scoresheet index --background` on the files of `stamps` in one process of its
/// own that outlives this one (it builds them one after the other). An error says that
/// it could not be started.
pub(super) fn in_background(stamps: &[Stamp], lang: &str) -> io::Result<()> {
    let mut command = Command::new(std::env::current_exe()?);
    command
        .args(["index", "--background", "--input-lang", lang, "--"])
        .args(stamps.iter().map(|s| &s.path))
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

/// Runs `index`; returns the exit code (as `check`'s: 1 when games have problems, 2 when a
/// file cannot be indexed or its index cannot be kept).
pub fn run(args: &Args) -> u8 {
    let lang = args.reading.input_lang;
    if args.background {
        lowest_priority();
    }
    let jobs = args.threads.count();
    let (mut unreadable, mut bad_total) = (false, 0u64);
    for path in &args.files {
        let name = input::name(path);
        let done = if args.background {
            in_the_background(path, jobs, lang)
        } else {
            now(path, jobs, lang)
        };
        match done {
            Ok(bad) => bad_total += bad,
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

/// Refuses what has no index: standard input, a pipe, a compressed file.
fn indexable(path: &Path) -> io::Result<()> {
    let input = Input::open(path)?;
    if input::is_stdin(path) || input.regular_file().is_none() {
        return Err(io::Error::other(
            "only a PGN file on disk, not compressed, has an index \
             (search and tree read the others through)",
        ));
    }
    Ok(())
}

/// Why an index built from the file `before` stamps was not kept, where the cache had
/// nothing to say: most often, the file changed while it was read (an index of what no
/// longer is would answer wrong), and the user need only run `index` again.
fn not_kept(before: &Stamp) -> String {
    if before.again().ok().as_ref() == Some(before) {
        "its index was built but not kept".to_string()
    } else {
        "the file changed while it was read, so its index was not kept: run scoresheet index \
         again once nothing writes to it"
            .to_string()
    }
}

/// Indexes one file now, saying what it did; returns the games with problems.
fn now(path: &Path, jobs: usize, lang: &'static Lang) -> io::Result<u64> {
    indexable(path)?;
    let before = Stamp::of(path)?;
    let opened = open_index(path, jobs, super::parallel::CHUNK, lang, false)?;
    if !opened.kept {
        return Err(io::Error::other(not_kept(&before)));
    }
    let games = crate::plural::count(opened.games as usize, "game", "games");
    let errors = match opened.problems {
        0 => String::new(),
        bad => format!(", {bad} with errors"),
    };
    let how = if opened.built {
        "indexed"
    } else {
        "already indexed"
    };
    eprintln!(
        "scoresheet index: {}: {games}{errors}, {how}",
        input::name(path)
    );
    Ok(opened.problems)
}

/// Indexes one file quietly, unless another process is at it; a failure is recorded for
/// the searches to say (see [`cache::failure`]). Returns the games with problems.
fn in_the_background(path: &Path, jobs: usize, lang: &'static Lang) -> io::Result<u64> {
    indexable(path)?;
    let stamp = Stamp::of(path)?;
    let chunk = super::parallel::CHUNK;
    match open::open_or_build(&stamp, jobs, chunk, lang, false, WhenBusy::GiveWay, |_| {
        Ok(())
    })? {
        Opening::Ready(opened) => Ok(opened.problems),
        Opening::BuiltElsewhere => Ok(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_not_kept_because_the_file_changed_says_so() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("games.pgn");
        std::fs::write(&file, "1. e4 e5 *\n").expect("write");
        let before = Stamp::of_in(&file, dir.path()).expect("stamp");
        assert_eq!(not_kept(&before), "its index was built but not kept");
        std::fs::write(&file, "1. e4 e5 2. Nf3 *\n").expect("write");
        assert!(
            not_kept(&before).starts_with("the file changed while it was read"),
            "{}",
            not_kept(&before)
        );
    }
}
