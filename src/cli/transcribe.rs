//! `scoresheet transcribe`: free move text in → PGN out, one game after another (a game
//! ends at its result; the next starts with its tags or with move 1).

use std::io::Write;
use std::path::PathBuf;

use super::input::Cut;
use super::{exit, read_input};
use crate::game::transcribe::transcribe_games;
use crate::pgn::write_game_to_string;
use crate::position::Position;

/// Arguments of `transcribe`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Start from this position (FEN) instead of the standard start.
    #[arg(long)]
    pub fen: Option<String>,
    /// Piece-letter language of the text: en, de, fr, es, it, pt, nl, pl, cs, sk,
    /// hu, sv, da, no, fi, ro, is, et, tr, ru, uk, bg (figurines, UCI and ICCF
    /// are read whatever the language).
    #[arg(
        long,
        visible_alias = "input-lang",
        default_value = "en",
        value_parser = super::input::parse_lang
    )]
    pub lang: &'static crate::notation::Lang,
    /// The text to read (at most 64 MiB; decompressed when it is gzip, bzip2, xz or
    /// zstd); standard input when absent or `-`.
    pub file: Option<PathBuf>,
}

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let lang = args.lang;
    let start = match &args.fen {
        Some(fen) => match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("scoresheet transcribe: --fen: {e}");
                return exit::USAGE;
            }
        },
        None => Position::start(),
    };
    let name = args
        .file
        .as_deref()
        .filter(|p| !super::input::is_stdin(p))
        .map_or("standard input".into(), |p| p.display().to_string());
    let (text, cut) = match read_input(args.file.as_deref()) {
        Ok(read) => read,
        Err(e) => {
            eprintln!("scoresheet transcribe: cannot read {name}: {e}");
            return exit::USAGE;
        }
    };
    if let Some(e) = cut.as_ref().filter(|_| text.trim().is_empty()) {
        // Compressed input that gives no text at all: nothing was read, not an empty game.
        eprintln!("{}", Cut::message("transcribe", &name, e, Some(0)));
        return exit::USAGE;
    }
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        // As `check` and `convert` do with a file that holds no game: said, not an
        // empty game written as if something had been read.
        eprintln!("scoresheet transcribe: {name} is empty: nothing to transcribe");
        return exit::OK;
    }
    // Each game is written as soon as it is read, so only one is held at a time.
    // A game with a move that cannot be read is written up to it, with the rest of its
    // text in a comment, and the games after it are read all the same.
    let mut out = super::output::Stdout::new();
    let mut problems = false;
    let mut games = 0;
    for t in transcribe_games(&text, start, lang, args.fen.is_some()) {
        games += 1;
        let pgn = write_game_to_string(&t.game);
        if out
            .write_all(pgn.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            // The output failed: `finish` below says why, if it is worth saying.
            break;
        }
        if let Some(e) = t.error {
            eprintln!("{e}");
            problems = true;
        }
    }
    let code = match cut {
        // A compressed file cut short: the games before the cut are written above.
        Some(e) if !out.has_failed() => {
            eprintln!("{}", Cut::message("transcribe", &name, &e, Some(games)));
            exit::USAGE
        }
        _ if problems => exit::PROBLEMS,
        _ => exit::OK,
    };
    out.finish("transcribe", code)
}
