//! `scoresheet train`: what the training deck has due today, one exercise per line
//! on standard output (when, where from, the position's FEN), a summary on
//! standard error. `scoresheet train FILE` opens the screen on a drill of the
//! exercises due and of your mistakes in FILE (see `tui::train`).

use std::io::Write;

use super::exit;
use crate::study::train::deck::{self, Deck};
use crate::study::train::mistakes::DEFAULT_LAST;

/// Arguments of `train`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A PGN file of your games: drill the exercises due, then your mistakes in it (your
    /// name is `[training] name` in the configuration). Without it: list what is due today.
    #[arg(value_name = "FILE.pgn")]
    pub file: Option<std::path::PathBuf>,
    /// With FILE: look through your N newest games (by their Date tag), or `all`.
    /// Games without [%eval] are analysed by the engine first (kept for next time).
    #[arg(long, value_name = "N|all", default_value_t = Last::Games(DEFAULT_LAST), value_parser = parse_last, requires = "file")]
    pub last: Last,
}

/// How many of your games a drill looks through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Last {
    /// The newest so many.
    Games(usize),
    /// All of them.
    All,
}

impl std::fmt::Display for Last {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Last::Games(n) => write!(f, "{n}"),
            Last::All => f.write_str("all"),
        }
    }
}

impl Last {
    /// The count, `None` for all.
    pub fn games(self) -> Option<usize> {
        match self {
            Last::Games(n) => Some(n),
            Last::All => None,
        }
    }
}

fn parse_last(text: &str) -> Result<Last, String> {
    if text == "all" {
        return Ok(Last::All);
    }
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(Last::Games(n)),
        _ => Err(format!("\"{text}\": a number of games above 0, or all")),
    }
}

/// Lists what is due today; returns the exit code (2 when the deck cannot be read).
pub fn run(_: &Args) -> u8 {
    let path = deck::path();
    let deck = match Deck::load(&path) {
        Ok(deck) => deck,
        Err(e) => {
            eprintln!("scoresheet train: {e}");
            return exit::USAGE;
        }
    };
    let until = deck::end_of_day(chrono::Utc::now());
    let due = deck.due(until);
    let mut out = super::output::Stdout::new();
    for entry in &due {
        let e = &entry.exercise;
        let _ = writeln!(
            out,
            "{}\t{}\t{} to play\t{}",
            entry.card.due.format("%Y-%m-%d %H:%M"),
            e.source,
            crate::position::color_name(e.side()),
            e.fen
        );
    }
    // Written before the summary on standard error, as the lines come before it.
    let _ = out.flush();
    let next = deck
        .next_due(until)
        .map(|d| format!("; the next after today is due {}", d.format("%Y-%m-%d")))
        .unwrap_or_default();
    eprintln!(
        "{} due today, of {} in the deck ({}){next}",
        crate::plural::count(due.len(), "exercise", "exercises"),
        deck.entries.len(),
        path.display()
    );
    if !due.is_empty() {
        eprintln!("`scoresheet train FILE` drills them, then your mistakes in FILE (F7 in the game screen too)");
    } else if deck.entries.is_empty() {
        // A new user's first run: say how the deck fills, not just that it is empty.
        eprintln!(
            "the deck fills as you drill: `scoresheet train FILE` (or F7 on a file's games) \
             finds your mistakes in FILE, by your name in the configuration's [training] name"
        );
    }
    out.finish("train", exit::OK)
}
