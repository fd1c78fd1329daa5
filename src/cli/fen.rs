//! `scoresheet fen FILE [--game N] [--ply K | --all]`: FEN snapshots of a game.

use std::io::Write;
use std::path::PathBuf;

use super::exit;
use crate::pgn::{index, GameBuilder, SliceReader};

/// Arguments of `fen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PGN file.
    pub file: PathBuf,
    /// Which game (1 is the first).
    #[arg(long, default_value_t = 1)]
    pub game: u64,
    /// The position after this many half-moves (0 is the start); default: the end.
    #[arg(long, conflicts_with = "all")]
    pub ply: Option<usize>,
    /// Every position of the main line, the start included, one per line.
    #[arg(long)]
    pub all: bool,
    /// Piece-letter language of the moves, for files not written in English (en, de, fr,
    /// es, …; figurines are read whatever the language).
    #[arg(long = "input-lang", value_name = "LANG", default_value = "en")]
    pub input_lang: String,
}

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let name = args.file.display().to_string();
    let data = match std::fs::read(&args.file) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("scoresheet fen: cannot read {name}: {e}");
            return exit::USAGE;
        }
    };
    let entries = index(&data);
    let Some(entry) = args
        .game
        .checked_sub(1)
        .and_then(|i| entries.get(i as usize))
    else {
        eprintln!(
            "scoresheet fen: {name} has {} games; there is no game {}",
            entries.len(),
            args.game
        );
        return exit::USAGE;
    };
    // Read the whole file up to that game so that line numbers stay right, but
    // build only the game asked for.
    let mut reader = SliceReader::new(&data[..(entry.offset + entry.len) as usize]);
    let Some(lang) = super::parse_lang("fen", &args.input_lang) else {
        return exit::USAGE;
    };
    let mut skip = GameBuilder::new(false).reading(lang);
    for _ in 1..args.game {
        reader.read_game(&mut skip);
    }
    let Some(g) = reader.read_game(&mut GameBuilder::new(true).reading(lang)) else {
        eprintln!("scoresheet fen: game {} could not be read", args.game);
        return exit::PROBLEMS;
    };
    let _ = super::check::report(&mut std::io::stderr(), &name, &g);
    if g.refused {
        return exit::PROBLEMS;
    }
    let line = g.game.mainline();
    let mut positions = vec![g.game.start];
    for id in &line {
        let last = *positions.last().unwrap_or(&g.game.start);
        positions.push(last.apply(g.game.node(*id).mv).unwrap_or(last));
    }
    let mut out = std::io::stdout().lock();
    let chosen: Vec<_> = if args.all {
        positions.iter().collect()
    } else if let Some(k) = args.ply {
        match positions.get(k) {
            Some(p) => vec![p],
            None => {
                eprintln!(
                    "scoresheet fen: game {} has {} half-moves; there is no ply {k}",
                    args.game,
                    positions.len() - 1
                );
                return exit::USAGE;
            }
        }
    } else {
        positions.last().into_iter().collect()
    };
    for p in chosen {
        let _ = writeln!(out, "{}", p.fen());
    }
    if g.errors.is_empty() {
        exit::OK
    } else {
        exit::PROBLEMS
    }
}
