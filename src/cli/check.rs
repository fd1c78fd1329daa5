//! `scoresheet check FILE...`: validates every move of every game, variations
//! included, in constant memory, one line per problem.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use super::exit;
use crate::notation::Lang;
use crate::pgn::{GameBuilder, GameError, ReadGame, Reader};

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// PGN files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Piece-letter language of the moves, for files not written in English (en, de, fr,
    /// es, …; figurines are read whatever the language).
    #[arg(long = "input-lang", value_name = "LANG", default_value = "en")]
    pub input_lang: String,
    /// Threads to use (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
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
        "{file}:{line}:{}: game {game} ({players}): \"{}\": {}",
        e.pos.column, e.token, e.reason
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
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let Some(lang) = super::parse_lang("check", &args.input_lang) else {
        return exit::USAGE;
    };
    let (mut games, mut bad, mut unreadable) = (0u64, 0u64, false);
    for path in &args.files {
        let name = path.display().to_string();
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("scoresheet check: cannot read {name}: {e}");
                unreadable = true;
                continue;
            }
        };
        let jobs = args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        });
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        let result = if jobs > 1 && regular {
            super::parallel::check_chunks(&file, jobs, args.chunk, lang, &name, &mut out)
        } else if jobs > 1 {
            super::parallel::check_stream(file, jobs, lang, &name, &mut out)
        } else {
            check_sequential(file, lang, &name, &mut out)
        };
        match result {
            Ok((n, b)) => {
                games += n;
                bad += b;
            }
            Err(e) => {
                eprintln!("scoresheet check: cannot read {name}: {e}");
                unreadable = true;
            }
        }
    }
    let games = crate::plural::count(games as usize, "game", "games");
    let _ = writeln!(out, "{games}, {bad} with errors");
    let _ = out.flush();
    exit::of(unreadable, bad)
}

/// Checks one file on this thread; returns (games, games with errors).
pub fn check_sequential(
    file: File,
    lang: &'static Lang,
    name: &str,
    out: &mut impl Write,
) -> std::io::Result<(u64, u64)> {
    let mut reader = Reader::new(file);
    let mut builder = GameBuilder::new(false).reading(lang);
    let (mut games, mut bad) = (0, 0);
    while let Some(g) = reader.read_game_restarting(&mut builder)? {
        games += 1;
        if g.has_problems() {
            bad += 1;
            report(out, name, &g)?;
        }
    }
    Ok((games, bad))
}
