//! `scoresheet convert FILE... [-o OUT] [--notation …] [--lang …]`: rewrites games in
//! PGN export format. Nothing is dropped: a game with an error keeps its readable
//! part and a comment saying where reading stopped; a game that cannot be read at
//! all (a chess variant, a broken tag section) is copied through as written, after
//! a `%` line (an escape line, which PGN readers skip) saying why.

use std::fs::File;
use std::io::{Read, Write};
use std::path::PathBuf;

use super::{exit, parse_lang};
use crate::notation::{Lang, Style};
use crate::pgn::{write_game_with, GameBuilder, ReadGame, Reader, WriteOptions};
use crate::store::{target, write_file};

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
    /// Replace the output file even when it is read-only. (A device or a pipe given
    /// as the output is written as a stream, never replaced.)
    #[arg(long)]
    pub force: bool,
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

/// Why converting one input stopped.
pub enum Failed {
    /// The input could not be read (the other inputs are still converted).
    Read(std::io::Error),
    /// The output could not be written (converting stops).
    Write(std::io::Error),
}

/// Converts the games of one input into `out`, one game at a time (memory stays bounded
/// whatever the input's size); returns (games, games with errors). Problems are reported
/// on `errors`.
pub fn convert_stream(
    src: impl Read,
    input: &'static Lang,
    options: &WriteOptions,
    name: &str,
    out: &mut dyn Write,
    errors: &mut impl Write,
) -> Result<(u64, u64), Failed> {
    let mut reader = Reader::new(src);
    let mut builder = GameBuilder::new(true).reading(input);
    let mut text = String::new();
    let (mut games, mut bad) = (0u64, 0u64);
    while let Some(g) = reader.read_game(&mut builder).map_err(Failed::Read)? {
        games += 1;
        text.clear();
        if g.errors.is_empty() {
            write_game_with(&g.game, &mut text, options, None);
        } else {
            bad += 1;
            let _ = super::check::report(errors, name, &g);
            let nothing_read = g.refused || (g.plies == 0 && !g.complete);
            let raw = reader.last_game_text();
            if nothing_read && !raw.is_empty() {
                let first = &g.errors[0];
                text.push_str(&format!(
                    "% scoresheet: game {} copied as written, not converted: line {} column {}: {}\n",
                    g.number, first.pos.line, first.pos.column, first.reason
                ));
                // Decoded as the reader decodes: UTF-8, or Windows-1252 when not UTF-8.
                text.push_str(&crate::text::decode(raw));
                text.push_str("\n\n");
            } else {
                write_game_with(&g.game, &mut text, options, stop_comment(&g).as_deref());
            }
        }
        out.write_all(text.as_bytes()).map_err(Failed::Write)?;
    }
    Ok((games, bad))
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
    let (mut bad, mut unreadable) = (0u64, false);
    let stderr = std::io::stderr();
    let mut convert_all = |out: &mut dyn Write| -> std::io::Result<()> {
        for path in &args.files {
            let name = path.display().to_string();
            let converted = File::open(path).map_err(Failed::Read).and_then(|file| {
                convert_stream(file, input, &options, &name, out, &mut stderr.lock())
            });
            match converted {
                Ok((_, b)) => bad += b,
                Err(Failed::Read(e)) => {
                    eprintln!("scoresheet convert: cannot read {name}: {e}");
                    unreadable = true;
                }
                Err(Failed::Write(e)) => return Err(e),
            }
        }
        Ok(())
    };
    let written = match &args.output {
        Some(path) => write_file(path, args.force, convert_all),
        None => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            convert_all(&mut out).and_then(|()| out.flush())
        }
    };
    if let Err(e) = written {
        let to = args
            .output
            .as_ref()
            .map_or("standard output".into(), |p| p.display().to_string());
        match &args.output {
            Some(_) if target::is_read_only(&e) => {
                eprintln!("scoresheet convert: {e}: --force replaces it");
            }
            Some(path) => eprintln!(
                "scoresheet convert: cannot write {to}: {}",
                crate::store::save::explain(&e, path)
            ),
            None => eprintln!("scoresheet convert: cannot write {to}: {e}"),
        }
        return exit::USAGE;
    }
    exit::of(unreadable, bad)
}
