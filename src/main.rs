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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::Transcribe(args)) => cli::transcribe::run(&args),
        None => {
            eprintln!(
                "scoresheet: the recording screen is not built yet; try `scoresheet transcribe --help`"
            );
            cli::exit::USAGE
        }
    };
    ExitCode::from(code)
}
