//! `scoresheet fen FILE [--game N] [--ply K | --all]`: FEN snapshots of a game.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;

use super::exit;
use crate::pgn::{GameBuilder, Reader, Skip, Visitor};

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

/// Passes over a game without reading its tags or moves (the games before the one asked for).
struct PassOver;

impl Visitor for PassOver {
    type Output = ();

    fn wants_tag(&mut self, _: &[u8]) -> bool {
        false
    }

    fn begin_movetext(&mut self) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) {}
}

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let name = args.file.display().to_string();
    let Some(lang) = super::parse_lang("fen", &args.input_lang) else {
        return exit::USAGE;
    };
    let cannot_read = |e: std::io::Error| {
        eprintln!("scoresheet fen: cannot read {name}: {e}");
        exit::USAGE
    };
    // The file is read as a stream, in constant memory: the games before the one asked for
    // are passed over (their boundaries found, their moves not read), so line numbers stay
    // right; only the game asked for is built.
    let mut reader = match File::open(&args.file) {
        Ok(f) => Reader::new(f),
        Err(e) => return cannot_read(e),
    };
    let mut passed = 0;
    while passed + 1 < args.game {
        match reader.read_game(&mut PassOver) {
            Ok(Some(())) => passed += 1,
            Ok(None) => break,
            Err(e) => return cannot_read(e),
        }
    }
    let read = if args.game == 0 {
        Ok(None)
    } else {
        reader.read_game(&mut GameBuilder::new(true).reading(lang))
    };
    let g = match read {
        Ok(Some(g)) => g,
        Ok(None) => {
            // Count the rest, for the message.
            while let Ok(Some(())) = reader.read_game(&mut PassOver) {}
            eprintln!(
                "scoresheet fen: {name} has {}; there is no game {}",
                crate::plural::count(reader.games_read() as usize, "game", "games"),
                args.game
            );
            return exit::USAGE;
        }
        Err(e) => return cannot_read(e),
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
                    "scoresheet fen: game {} has {}; there is no ply {k}",
                    args.game,
                    crate::plural::count(positions.len() - 1, "half-move", "half-moves")
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
    if !g.has_problems() {
        exit::OK
    } else {
        exit::PROBLEMS
    }
}
