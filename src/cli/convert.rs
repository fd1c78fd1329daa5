//! `scoresheet convert FILE... [-o OUT] [--notation …] [--lang …]`: rewrites games in
//! PGN export format. Nothing is dropped: a game with an error keeps its readable
//! part and a comment saying where reading stopped; a game that cannot be read at
//! all (a chess variant, a broken tag section) is copied through as written, after
//! a `%` line (an escape line, which PGN readers skip) saying why.

use std::io::Write;
use std::path::PathBuf;

use super::{exit, parse_lang};
use crate::notation::{Lang, Style};
use crate::pgn::{index, write_game_with, GameBuilder, ReadGame, SliceReader, WriteOptions};
use crate::store::write_atomically;

/// Arguments of `convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// PGN files to convert.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write to this file (atomically: the old file stays intact if anything fails)
    /// instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Move notation: san (PGN), lan, figurine, uci.
    #[arg(long, default_value = "san")]
    pub notation: String,
    /// Piece-letter language for san, lan and figurine (PGN itself is English).
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// Piece-letter language of the moves, for files not written in English (en, de, fr,
    /// es, …; figurines are read whatever the language).
    #[arg(long = "input-lang", value_name = "LANG", default_value = "en")]
    pub input_lang: String,
}

/// The comment written after the last move of a game whose reading stopped early.
fn stop_comment(g: &ReadGame) -> Option<String> {
    let e = g.errors.first()?;
    let what = if g.complete {
        "a variation was cut"
    } else {
        "reading stopped"
    };
    Some(format!(
        "scoresheet: {what} at line {} column {}: \"{}\": {}",
        e.pos.line, e.pos.column, e.token, e.reason
    ))
}

/// Converts the games of one file into `out`; returns (games, games with errors).
pub fn convert_bytes(
    data: &[u8],
    input: &'static Lang,
    options: &WriteOptions,
    name: &str,
    out: &mut String,
    errors: &mut impl Write,
) -> (u64, u64) {
    let entries = index(data);
    let mut reader = SliceReader::new(data);
    let mut builder = GameBuilder::new(true).reading(input);
    let (mut games, mut bad) = (0u64, 0u64);
    while let Some(g) = reader.read_game(&mut builder) {
        games += 1;
        if g.errors.is_empty() {
            write_game_with(&g.game, out, options, None);
            continue;
        }
        bad += 1;
        let _ = super::check::report(errors, name, &g);
        let entry = entries.get(g.number as usize - 1);
        let nothing_read = g.refused || (g.plies == 0 && !g.complete);
        match entry {
            Some(e) if nothing_read => {
                let first = &g.errors[0];
                out.push_str(&format!(
                    "% scoresheet: game {} copied as written, not converted: line {} column {}: {}\n",
                    g.number, first.pos.line, first.pos.column, first.reason
                ));
                let raw = &data[e.offset as usize..(e.offset + e.len) as usize];
                out.push_str(&String::from_utf8_lossy(raw));
                out.push_str("\n\n");
            }
            _ => write_game_with(&g.game, out, options, stop_comment(&g).as_deref()),
        }
    }
    (games, bad)
}

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let style = match Style::by_name(&args.notation) {
        Some(s @ (Style::San | Style::Lan | Style::Figurine | Style::Uci)) => s,
        _ => {
            eprintln!(
                "scoresheet convert: unknown notation '{}' (san, lan, figurine, uci)",
                args.notation
            );
            return exit::USAGE;
        }
    };
    let Some(lang) = parse_lang("convert", &args.lang) else {
        return exit::USAGE;
    };
    let Some(input) = parse_lang("convert", &args.input_lang) else {
        return exit::USAGE;
    };
    let options = WriteOptions { style, lang };
    let mut text = String::new();
    let (mut bad, mut unreadable) = (0u64, false);
    let stderr = std::io::stderr();
    for path in &args.files {
        let name = path.display().to_string();
        match std::fs::read(path) {
            Ok(data) => {
                let (_, b) =
                    convert_bytes(&data, input, &options, &name, &mut text, &mut stderr.lock());
                bad += b;
            }
            Err(e) => {
                eprintln!("scoresheet convert: cannot read {name}: {e}");
                unreadable = true;
            }
        }
    }
    let written = match &args.output {
        Some(path) => write_atomically(path, text.as_bytes()),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|_| out.flush())
        }
    };
    if let Err(e) = written {
        let to = args
            .output
            .as_ref()
            .map_or("standard output".into(), |p| p.display().to_string());
        eprintln!("scoresheet convert: cannot write {to}: {e}");
        return exit::USAGE;
    }
    exit::of(unreadable, bad)
}
