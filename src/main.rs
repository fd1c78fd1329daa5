//! The `scoresheet` command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use scoresheet::cli;

/// A terminal chess scoresheet: record, review and study games as PGN.
#[derive(Debug, Parser)]
#[command(
    name = "scoresheet",
    version,
    about,
    after_help = config_help(),
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A PGN file to open (plain, or .gz .bz2 .xz .zst): one game opens that game, more open
    /// the list of its games; a name that does not exist yet opens the recorder saving to it.
    /// (A file named like a command: write ./check.pgn.)
    #[arg(value_name = "FILE.pgn")]
    file: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Record a new game on the screen (the default when no command is given).
    New(NewArgs),
    /// Read free move text (any notation, any mix) and write one PGN game.
    Transcribe(cli::transcribe::Args),
    /// Validate every move of every game; one line per problem.
    Check(cli::check::Args),
    /// Rewrite games in PGN export format (or another notation).
    Convert(cli::convert::Args),
    /// Annotate games with a UCI engine: evaluations, ?! ? ?? by lichess's rules,
    /// best lines after mistakes, accuracy tags.
    Annotate(cli::annotate::Args),
    /// Print FEN snapshots of a game.
    Fen(cli::fen::Args),
    /// List the games of a file: number, players, result, date, event, ECO, plies.
    List(cli::list::Args),
    /// Print unsaved games kept by the journal as PGN; --discard clears them.
    Recover(cli::recover::Args),
    /// List the games that reach a position (`list`'s columns, then the ply).
    Search(cli::search::SearchArgs),
    /// What was played from a position: move, games, White wins, draws, Black wins, Elo, year.
    Tree(cli::search::TreeArgs),
    /// Build the position index of files now, for search, tree and the reviewer.
    Index(cli::index::Args),
    /// Training: list the exercises due today; with FILE, drill them and your mistakes in FILE.
    Train(cli::train::Args),
}

/// `scoresheet new`: the recorder on a new game.
#[derive(Debug, clap::Args, Default)]
struct NewArgs {
    /// The PGN file `:w` writes (the game is added; the file's other games stay as they are).
    #[arg(long, short = 'o', value_name = "FILE.pgn")]
    out: Option<std::path::PathBuf>,
    /// Start from this position instead of the initial one.
    #[arg(long)]
    fen: Option<String>,
    /// White's name.
    #[arg(long)]
    white: Option<String>,
    /// Black's name.
    #[arg(long)]
    black: Option<String>,
    /// The event.
    #[arg(long)]
    event: Option<String>,
    /// Where it is played.
    #[arg(long)]
    site: Option<String>,
    /// The round.
    #[arg(long)]
    round: Option<String>,
    /// The board number.
    #[arg(long)]
    board: Option<String>,
}

/// Where the configuration is read from, for `--help`.
fn config_help() -> String {
    format!(
        "Configuration: {} (settings and keys; every one optional). Set {} to the path of \
         another file. config.example.toml in the source lists every setting.",
        scoresheet::config::path().display(),
        scoresheet::config::ENV_VAR
    )
}

fn record(args: NewArgs) -> u8 {
    let tags = [
        ("Event", args.event),
        ("Site", args.site),
        ("Round", args.round),
        ("White", args.white),
        ("Black", args.black),
        ("Board", args.board),
    ]
    .into_iter()
    .filter_map(|(name, value)| Some((name.to_string(), value?)))
    .collect();
    let new = scoresheet::tui::NewGame {
        // `--out=~/games.pgn` reaches us with its `~`: no shell expands it there.
        out: args.out.map(|p| scoresheet::app::command::expand_home(&p)),
        fen: args.fen,
        tags,
    };
    match scoresheet::tui::run(new) {
        Ok(code) => code,
        Err(e) => failed(&e),
    }
}

fn open(file: &std::path::Path) -> u8 {
    let file = scoresheet::app::command::expand_home(file);
    match scoresheet::tui::open(&file) {
        Ok(code) => code,
        Err(e) => failed(&e),
    }
}

fn drill(file: &std::path::Path, last: Option<usize>) -> u8 {
    let file = scoresheet::app::command::expand_home(file);
    match scoresheet::tui::train(&file, last) {
        Ok(code) => code,
        Err(e) => failed(&e),
    }
}

/// Says why the screen ended on an error. Not with `eprintln!`, which panics when
/// standard error is a terminal that was closed (the very error being reported).
fn failed(e: &anyhow::Error) -> u8 {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "scoresheet: {e:#}");
    cli::exit::PROBLEMS
}

fn main() -> ExitCode {
    // Past a file-size limit (`ulimit -f`) a write then fails with "File too large", which
    // a save reports and survives (the old file intact, the game on the screen), instead
    // of the signal killing the process mid-save with the terminal left raw.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore", before any thread is started.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::Transcribe(args)) => cli::transcribe::run(&args),
        Some(Command::Check(args)) => cli::check::run(&args),
        Some(Command::Convert(args)) => {
            cli::remove_temporaries_on_signal();
            cli::convert::run(&args)
        }
        Some(Command::Annotate(args)) => {
            cli::remove_temporaries_on_signal();
            cli::annotate::run(&args)
        }
        Some(Command::Fen(args)) => cli::fen::run(&args),
        Some(Command::List(args)) => cli::list::run(&args),
        Some(Command::Search(args)) => cli::search::run_search(&args),
        Some(Command::Tree(args)) => cli::search::run_tree(&args),
        Some(Command::Index(args)) => cli::index::run(&args),
        Some(Command::Recover(args)) => cli::recover::run(&args),
        Some(Command::Train(args)) => match &args.file {
            Some(file) => drill(file, args.last.games()),
            None => cli::train::run(&args),
        },
        Some(Command::New(args)) => record(args),
        None => match cli.file {
            Some(file) => open(&file),
            None => record(NewArgs::default()),
        },
    };
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own checks of the whole command line (two arguments of one name, a default a
    /// value parser refuses, …), which otherwise only fail when a user asks for that
    /// command's help.
    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
