//! The `scoresheet` command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use scoresheet::cli;

/// A terminal chess scoresheet: record, review and study games as PGN.
#[derive(Debug, Parser)]
#[command(name = "scoresheet", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Read free move text (any notation, any mix) and write one PGN game.
    Transcribe(cli::transcribe::Args),
    /// Validate every move of every game; one line per problem.
    Check(cli::check::Args),
    /// Rewrite games in PGN export format (or another notation).
    Convert(cli::convert::Args),
    /// Print FEN snapshots of a game.
    Fen(cli::fen::Args),
    /// List the games of a file: number, players, result, date, event, ECO, plies.
    List(cli::list::Args),
    /// Print unsaved games kept by the journal as PGN; --discard clears them.
    Recover(cli::recover::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::Transcribe(args)) => cli::transcribe::run(&args),
        Some(Command::Check(args)) => cli::check::run(&args),
        Some(Command::Convert(args)) => cli::convert::run(&args),
        Some(Command::Fen(args)) => cli::fen::run(&args),
        Some(Command::List(args)) => cli::list::run(&args),
        Some(Command::Recover(args)) => cli::recover::run(&args),
        None => {
            eprintln!(
                "scoresheet: the recording screen is not built yet; try `scoresheet transcribe --help`"
            );
            cli::exit::USAGE
        }
    };
    ExitCode::from(code)
}
