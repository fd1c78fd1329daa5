//! `scoresheet check FILE...`: validates every move of every game, variations
//! included, in constant memory, one line per problem.

use std::io::{Read, Write};
use std::path::PathBuf;

use super::exit;
use super::input::{self, Cut, Input};
use crate::message::{shown, shown_text};
use crate::notation::Lang;
use crate::pgn::{GameBuilder, GameError, ReadGame, Reader};

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// PGN files to check (`-` for standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub reading: input::Reading,
    #[command(flatten)]
    pub threads: input::Threads,
    /// Bytes per chunk of a regular file for `--jobs` (for tests: any size gives the same
    /// output).
    #[arg(long, hide = true, default_value_t = super::parallel::CHUNK)]
    pub chunk: u64,
}

/// Writes one problem as `FILE:LINE:COL: game N (White - Black): "TOKEN": reason`;
/// `line` and `game` are given separately because `--jobs` shifts them.
pub fn write_problem(
    out: &mut impl Write,
    file: &str,
    line: u64,
    game: u64,
    players: &str,
    e: &GameError,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{file}:{line}:{}: game {game} ({}): \"{}\": {}",
        e.pos.column,
        shown_text(players),
        shown(&e.token),
        shown_text(&e.reason)
    )
}

/// Writes the problems of one game (reading errors and results that disagree), one line
/// each, in file order.
pub fn report(out: &mut impl Write, file: &str, g: &ReadGame) -> std::io::Result<()> {
    let players = g.players();
    for e in g.problems() {
        write_problem(out, file, e.pos.line, g.number, &players, e)?;
    }
    Ok(())
}

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let mut out = super::output::Stdout::new();
    let lang = args.reading.input_lang;
    let jobs = args.threads.count();
    let (mut games, mut bad, mut unreadable, mut read_any) = (0u64, 0u64, false, false);
    for path in &args.files {
        let name = input::name(path);
        let file = match Input::open(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("scoresheet check: cannot read {name}: {e}");
                unreadable = true;
                continue;
            }
        };
        let cut = file.cut();
        let result = match file.regular_file() {
            Some(regular) if jobs > 1 => {
                super::parallel::check_chunks(regular, jobs, args.chunk, lang, &name, &mut out)
            }
            _ if jobs > 1 => super::parallel::check_stream(file, jobs, lang, &name, &mut out),
            _ => check_sequential(file, lang, &name, &mut out),
        };
        match (result, cut.take()) {
            (Ok((n, b)), cut) => {
                games += n;
                bad += b;
                // A file that could not be read at all is not counted as "0 games".
                read_any |= n > 0 || cut.is_none();
                if let Some(e) = cut {
                    eprintln!("{}", Cut::message("check", &name, &e, Some(n)));
                    unreadable = true;
                }
            }
            // The output failed as a problem of this file was written (only problems are
            // written while reading): the rest, found or not, could be written nowhere.
            (Err(_), _) if out.has_failed() => {
                bad += 1;
                break;
            }
            (Err(e), _) => {
                eprintln!("scoresheet check: cannot read {name}: {e}");
                unreadable = true;
            }
        }
    }
    // The summary counts what was read: with nothing read, "0 games" would only mislead.
    if read_any {
        let games = crate::plural::count(games as usize, "game", "games");
        let _ = writeln!(out, "{games}, {bad} with errors");
    }
    out.finish("check", exit::of(unreadable, bad))
}

/// Checks one file on this thread; returns (games, games with errors).
pub fn check_sequential(
    file: impl Read,
    lang: &'static Lang,
    name: &str,
    out: &mut impl Write,
) -> std::io::Result<(u64, u64)> {
    check_reader(Reader::new(file), lang, name, out)
}

/// Checks the games a reader gives, on this thread; returns (games, games with errors).
pub fn check_reader(
    mut reader: Reader<impl Read>,
    lang: &'static Lang,
    name: &str,
    out: &mut impl Write,
) -> std::io::Result<(u64, u64)> {
    let mut builder = GameBuilder::new(false).reading(lang);
    let (mut games, mut bad) = (0, 0);
    while let Some(g) = reader.read_game_restarting(&mut builder)? {
        games += 1;
        if g.has_problems() {
            bad += 1;
            report(out, name, &g)?;
            // Said at once: on a stream that goes on (a pipe), a problem must not wait in
            // a buffer for the end.
            out.flush()?;
        }
    }
    Ok((games, bad))
}
