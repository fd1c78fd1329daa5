//! `scoresheet convert FILE... [-o OUT] [--notation …] [--lang …]`: rewrites games in
//! PGN export format. Nothing is dropped: a game with any problem (an illegal move, a
//! chess variant, a comment or variation left open, a game over the size limit) is
//! copied through whole, as written, after a `%` line (an escape line, which PGN readers
//! skip) saying why, so that a second run over the output loses nothing more. The input's
//! own `%` lines are kept: those of a game converted come just before it (or, after its
//! result, just after it), the notes of an earlier run left out (each game copied through
//! gets a fresh one).

use std::io::{Read, Write};
use std::path::PathBuf;

use super::exit;
use super::input::{self, Cut, Input};
use crate::notation::{Lang, Style};
use crate::pgn::{
    write_game_ending, write_game_with, ErrorKind, GameBuilder, GameError, Outcome, ReadGame,
    Reader, WriteOptions,
};
use crate::store::target;
use crate::study::eco::{self, Fill};

/// Arguments of `convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// PGN files to convert (`-` for standard input).
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
    #[arg(long, default_value = "en", value_parser = super::input::parse_lang)]
    pub lang: &'static crate::notation::Lang,
    #[command(flatten)]
    pub reading: input::Reading,
    /// When a game's Result tag and movetext result disagree, or contradict a mate on the
    /// board, write one result in both places: the board's if it shows a mate, else the
    /// known one of the two (not `*`), else the tag's. Without it both are kept as read.
    #[arg(long)]
    pub fix_results: bool,
    /// Fill the ECO and Opening tags from the opening table, found by the positions of
    /// the main line (transpositions count); a tag the game has is kept.
    /// `--eco=overwrite` replaces the game's ECO and Opening with the ones found.
    #[arg(
        long,
        value_enum,
        value_name = "WHICH",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "missing"
    )]
    pub eco: Option<EcoFill>,
    /// Largest game in bytes; a larger one is copied through as written (for tests: the
    /// limit is 64 MiB).
    #[arg(long, hide = true, default_value_t = crate::pgn::MAX_GAME)]
    pub max_game: usize,
}

/// The values of `--eco`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EcoFill {
    /// Fill the tags a game lacks (what `--eco` alone does).
    Missing,
    /// Replace the game's ECO and Opening tags.
    Overwrite,
}

impl From<EcoFill> for Fill {
    fn from(e: EcoFill) -> Fill {
        match e {
            EcoFill::Missing => Fill::Missing,
            EcoFill::Overwrite => Fill::Overwrite,
        }
    }
}

/// Escapes the control characters of the game's tag values (a NUL, an ESC: PGN text
/// cannot hold them, and written raw they reach whoever prints the file) as `\u{..}`,
/// which reads back as the same visible text; returns one problem per tag so changed.
fn escape_tags(g: &mut ReadGame) -> Vec<GameError> {
    let mut problems = Vec::new();
    for (name, value) in &mut g.game.tags {
        if let Some(visible) = crate::message::escaped(value) {
            problems.push(GameError {
                pos: g.start,
                token: value.clone(),
                reason: format!(
                    "tag {name} holds control characters, which PGN text cannot hold: \
                     written escaped, as \"{}\"",
                    crate::message::shown_text(&visible)
                ),
                kind: None,
            });
            *value = visible;
        }
    }
    problems
}

/// Why converting one input stopped.
pub enum Failed {
    /// The input could not be read (the other inputs are still converted).
    Read(std::io::Error),
    /// The output could not be written (converting stops).
    Write(std::io::Error),
}

/// How to convert.
#[derive(Debug, Clone, Copy)]
pub struct How {
    /// The piece-letter language of the input's moves.
    pub input: &'static Lang,
    /// How to write the moves.
    pub options: WriteOptions,
    /// Settle results that disagree (`--fix-results`) instead of keeping both as read.
    pub fix_results: bool,
    /// Largest game in bytes; a larger one is streamed through as written.
    pub max_game: usize,
    /// Fill the `ECO` and `Opening` tags of the games written anew (`--eco`).
    pub eco: Option<Fill>,
}

/// What [`convert_stream`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Converted {
    /// Games read.
    pub games: u64,
    /// Games with a problem (reported; copied as written, or written with the problem
    /// kept visible).
    pub bad: u64,
    /// Games whose `ECO` tag `--eco` set.
    pub eco_set: u64,
    /// Games whose `Opening` tag `--eco` set.
    pub opening_set: u64,
}

/// Converts the games of one input into `out`, one game at a time (memory stays bounded
/// whatever the input's size). Problems are reported on `errors`.
pub fn convert_stream(
    src: impl Read,
    how: &How,
    name: &str,
    out: &mut dyn Write,
    errors: &mut impl Write,
) -> Result<Converted, Failed> {
    let How {
        input,
        ref options,
        fix_results,
        max_game,
        eco,
    } = *how;
    let mut reader = Reader::with_limits(src, crate::pgn::reader::BUFFER.min(max_game), max_game);
    let mut builder = GameBuilder::new(true).reading(input);
    let mut text = String::new();
    let mut done = Converted::default();
    // How the game just read is written, for the `%` lines of the next.
    let mut written = Before::Nothing;
    loop {
        // The `%` lines before the game, which belong to no game, are written at once.
        let mut failed = None;
        let read = reader.read_game_escaping(
            &mut builder,
            &mut noting(&mut failed, |line: &str| write_escape(out, line)),
        );
        if let Some(e) = failed {
            return Err(Failed::Write(e));
        }
        let Some(mut g) = read.map_err(Failed::Read)? else {
            break;
        };
        done.games += 1;
        text.clear();
        let before = std::mem::replace(&mut written, Before::after(&g, reader.last_game_text()));
        // Only a game written anew has its tags escaped; one copied as written stays so.
        let escaped = if g.errors.is_empty() {
            escape_tags(&mut g)
        } else {
            Vec::new()
        };
        for e in &escaped {
            let _ =
                super::check::write_problem(errors, name, e.pos.line, g.number, &g.players(), e);
        }
        // Only a game written anew gets opening tags; one copied as written stays as it was.
        if let (Some(fill), true) = (eco, g.errors.is_empty()) {
            let filled = eco::fill_tags(&mut g.game, fill);
            done.eco_set += u64::from(filled.eco);
            done.opening_set += u64::from(filled.opening);
        }
        let Some(first) = g.errors.first() else {
            if g.result_problems.is_empty() {
                done.bad += u64::from(!escaped.is_empty());
                write_game_with(&g.game, &mut text, options, None);
            } else if let (true, Some(fixed)) = (fix_results, g.settled_result) {
                // Asked for: one result in both places, and a word on what was changed.
                let players = g.players();
                for e in &g.result_problems {
                    let mut e = e.clone();
                    e.reason = format!("{}; written as {}", e.reason, fixed.as_str());
                    let _ = super::check::write_problem(
                        errors, name, e.pos.line, g.number, &players, &e,
                    );
                }
                g.game.set_tag("Result", fixed.as_str());
                done.bad += u64::from(!escaped.is_empty());
                write_game_with(&g.game, &mut text, options, None);
            } else {
                // Both kept as read, so the disagreement stays visible (and `check` sees it).
                done.bad += 1;
                let _ = super::check::report(errors, name, &g);
                let token = g.movetext_result.map(Outcome::as_str);
                write_game_ending(&g.game, &mut text, options, None, token);
            }
            place_escapes(&mut text, &builder.escapes().within, before);
            push_escapes(&mut text, &builder.escapes().after);
            out.write_all(text.as_bytes()).map_err(Failed::Write)?;
            continue;
        };
        // A game with a problem is copied through whole, as written: converting only its
        // readable part would drop the rest (the moves after an illegal one, a cut
        // variation, text after a stray brace), and a second run would lose more.
        done.bad += 1;
        let _ = super::check::report(errors, name, &g);
        text.push_str(&copy_note(&g, "converted"));
        if matches!(first.kind, Some(ErrorKind::GameTooLarge { .. })) {
            // Too large to hold: streamed through piece by piece, as read, but for the
            // notes of an earlier run at its end (see `without_trailing_notes`).
            out.write_all(text.as_bytes()).map_err(Failed::Write)?;
            let mut failed = None;
            let mut held = Vec::new();
            let copied = reader.copy_skipped(&mut noting(&mut failed, |bytes: &[u8]| {
                hold_back(&mut held, bytes, &mut *out)
            }));
            if let Some(e) = failed {
                return Err(Failed::Write(e));
            }
            copied.map_err(Failed::Read)?;
            out.write_all(without_trailing_notes(&held))
                .map_err(Failed::Write)?;
            out.write_all(b"\n\n").map_err(Failed::Write)?;
            continue;
        }
        // Decoded as the reader decodes: UTF-8, or Windows-1252 when not UTF-8.
        let raw = without_trailing_notes(reader.last_game_text());
        match raw.first() {
            // A game that began in the middle of a line (after the result of the one
            // before) starts a line here: a `%` there would make its first line an
            // escape, which the next run skips. A space keeps it the game's text.
            Some(b'%') => text.push(' '),
            // A comment after a result belongs to that game, unless something that is not
            // blank lies between them. A game that starts with one came after a
            // byte-order mark (nothing else parts them), or first in its file: a mark
            // before it keeps it from the game written before it (of this file or of
            // the one before), so that the next run reads the same games.
            Some(b'{' | b';') => text.push('\u{feff}'),
            _ => {}
        }
        text.push_str(&crate::text::decode(raw));
        text.push_str("\n\n");
        out.write_all(text.as_bytes()).map_err(Failed::Write)?;
    }
    Ok(done)
}

/// `write` as a callback for the reader, with its error kept in `failed`: the reader
/// returns a callback's error as its own, where it would pass for a read error.
fn noting<'a, T: ?Sized>(
    failed: &'a mut Option<std::io::Error>,
    mut write: impl FnMut(&T) -> std::io::Result<()> + 'a,
) -> impl FnMut(&T) -> std::io::Result<()> + 'a {
    move |x| {
        write(x).map_err(|e| {
            *failed = Some(e);
            std::io::Error::other("write")
        })
    }
}

/// Whether a `%` line is a note an earlier run wrote (see [`copy_note`]).
fn is_note(line: &str) -> bool {
    line.as_bytes().starts_with(NOTE)
}

/// Writes a `%` line of the input, but for an earlier run's note.
fn write_escape(out: &mut dyn Write, line: &str) -> std::io::Result<()> {
    if is_note(line) {
        return Ok(());
    }
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")
}

/// Adds the `%` lines of the input to `text`, but for an earlier run's notes.
pub(crate) fn push_escapes(text: &mut String, lines: &[String]) {
    for line in lines.iter().filter(|l| !is_note(l)) {
        text.push_str(line);
        text.push('\n');
    }
}

/// What was written before a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Before {
    /// Nothing (the game is the input's first) or `%` lines.
    Nothing,
    /// A game written anew.
    Converted,
    /// A game copied through as written.
    Copied,
    /// A game copied through as written, ending in a comment left open.
    CopiedOpen,
}

impl Before {
    /// What is written for `g`, whose text is `raw`: the game anew when it read cleanly,
    /// else as written.
    pub(crate) fn after(g: &ReadGame, raw: &[u8]) -> Before {
        let open = Some(ErrorKind::UnterminatedComment);
        match g.errors.first() {
            None => Before::Converted,
            // The game ends in a comment left open (it then runs to the game's end): one
            // reported, or one after the result, which is no problem of the game's.
            Some(_) if g.errors.iter().any(|e| e.kind == open) || ends_in_comment(raw) => {
                Before::CopiedOpen
            }
            Some(_) => Before::Copied,
        }
    }
}

/// Whether PGN text ends inside a `{` comment (`;` comments and `%` lines passed over).
fn ends_in_comment(raw: &[u8]) -> bool {
    let mut inside = false;
    let mut i = 0;
    while i < raw.len() {
        let at_line_start = i == 0 || raw[i - 1] == b'\n';
        match raw[i] {
            b'}' if inside => inside = false,
            b'{' if !inside => inside = true,
            b';' if !inside => i = memchr::memchr(b'\n', &raw[i..]).map_or(raw.len(), |k| i + k),
            b'%' if !inside && at_line_start => {
                i = memchr::memchr(b'\n', &raw[i..]).map_or(raw.len(), |k| i + k);
            }
            _ => {}
        }
        i += 1;
    }
    inside
}

/// Puts the `%` lines found in a game written anew into `text`, the game: before it, as a
/// reader skips them anywhere. After a game copied through, they are next read as that
/// game's last lines, and a copy ends with a blank line: so a blank line follows them, and
/// the next run writes them the same. After a comment left open, they go after the game's
/// first tag line instead: a reader takes such a comment to end before a blank line, then
/// `%` lines, then a tag line, unless a `}` comes first, and one on a `%` line written
/// before the tag line would close it and make the line comment text.
pub(crate) fn place_escapes(text: &mut String, lines: &[String], before: Before) {
    let mut kept = String::new();
    push_escapes(&mut kept, lines);
    if kept.is_empty() {
        return;
    }
    let at = match before {
        Before::Nothing | Before::Converted => 0,
        Before::Copied => {
            kept.push('\n');
            0
        }
        Before::CopiedOpen => text.find('\n').map_or(text.len(), |k| k + 1),
    };
    text.insert_str(at, &kept);
}

/// The `%` line written before a game copied through as written, saying why (its
/// first problem): `% scoresheet: game 3 copied as written, not converted: line …`.
pub(crate) fn copy_note(g: &ReadGame, not_what: &str) -> String {
    let Some(first) = g.errors.first() else {
        return String::new();
    };
    let why = format!(
        "line {} column {}: {}",
        first.pos.line,
        first.pos.column,
        crate::message::shown_text(&first.reason)
    );
    // The note must stay one `%` line, whatever the reason quotes, and hold no brace: a
    // `}` would close a comment left open in the game before (which reads on to here).
    let why = why
        .replace(['\n', '\r'], " ")
        .replace('{', "(")
        .replace('}', ")");
    format!(
        "% scoresheet: game {} copied as written, not {not_what}: {why}\n",
        g.number
    )
}

/// What starts the `%` line written before a game copied through.
const NOTE: &[u8] = b"% scoresheet: ";

/// Bytes kept back at the end of a game streamed through: more than the notes an earlier
/// run can have left after it (a line each, of a few hundred bytes).
const HELD: usize = 1 << 16;

/// Writes `bytes` of a game streamed through to `out`, all but its last [`HELD`] bytes so
/// far, which wait in `held` (for [`without_trailing_notes`] once the game is over).
fn hold_back(held: &mut Vec<u8>, bytes: &[u8], out: &mut dyn Write) -> std::io::Result<()> {
    held.extend_from_slice(bytes);
    if held.len() > 2 * HELD {
        let cut = held.len() - HELD;
        out.write_all(&held[..cut])?;
        held.drain(..cut);
    }
    Ok(())
}

/// A game's text without the notes at its end that a previous run wrote about the *next*
/// game (`%` lines after a result belong to the game before them): the next game gets a
/// fresh note, so running convert again does not pile them up.
pub(crate) fn without_trailing_notes(mut raw: &[u8]) -> &[u8] {
    loop {
        let text = raw.trim_ascii_end();
        let last = memchr::memrchr(b'\n', text).map_or(0, |k| k + 1);
        if last == 0 || !text[last..].starts_with(NOTE) {
            return text;
        }
        raw = &text[..last];
    }
}

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let style = match Style::by_name(&args.notation) {
        Some(s @ (Style::San | Style::Lan | Style::Figurine | Style::Uci)) => s,
        _ => {
            eprintln!(
                "scoresheet convert: unknown notation '{}' (san, lan, figurine, uci)",
                crate::message::shown(&args.notation)
            );
            return exit::USAGE;
        }
    };
    let lang = args.lang;
    let input = args.reading.input_lang;
    let how = How {
        input,
        options: WriteOptions { style, lang },
        fix_results: args.fix_results,
        max_game: args.max_game,
        eco: args.eco.map(Fill::from),
    };
    let (mut bad, mut unreadable) = (0u64, false);
    let (mut eco_set, mut opening_set, mut games) = (0u64, 0u64, 0u64);
    let stderr = std::io::stderr();
    let convert_all = |out: &mut dyn Write| -> std::io::Result<bool> {
        for path in &args.files {
            let name = input::name(path);
            let mut cut = Cut::default();
            let converted = Input::open(path).map_err(Failed::Read).and_then(|file| {
                cut = file.cut();
                convert_stream(file, &how, &name, out, &mut stderr.lock())
            });
            if let Some(e) = cut.take() {
                let read = converted.as_ref().ok().map(|done| done.games);
                eprintln!("{}", Cut::message("convert", &name, &e, read));
                unreadable = true;
            }
            match converted {
                Ok(done) => {
                    bad += done.bad;
                    games += done.games;
                    eco_set += done.eco_set;
                    opening_set += done.opening_set;
                }
                Err(Failed::Read(e)) => {
                    eprintln!("scoresheet convert: cannot read {name}: {e}");
                    unreadable = true;
                }
                Err(Failed::Write(e)) => return Err(e),
            }
        }
        Ok(!unreadable)
    };
    // What was there before, to say what a failed write left (a target that cannot
    // even be looked at is not written at all).
    let before = args
        .output
        .as_deref()
        .map(|path| target::kind(path).unwrap_or(target::Kind::Regular { read_only: false }));
    let written =
        super::output::write(args.output.as_deref(), args.force, &args.files, convert_all);
    if let Err(e) = written {
        match &args.output {
            Some(_) if target::is_read_only(&e) => {
                eprintln!("scoresheet convert: {e}: --force replaces it");
            }
            Some(path) => eprintln!(
                "scoresheet convert: cannot write {}: {}; {}",
                path.display(),
                crate::store::save::explain(&e, path),
                crate::store::save::left_after_failure(
                    before.unwrap_or(target::Kind::Missing),
                    path
                )
            ),
            None => {
                return super::output::failed("convert", &e, exit::of(unreadable, bad));
            }
        }
        return exit::USAGE;
    }
    if args.eco.is_some() {
        // A word on what --eco did: a file whose games already had their tags, or whose
        // games start from set-up positions, gets none, and should say so.
        eprintln!(
            "scoresheet convert: --eco set ECO in {} and Opening in {} of {}",
            eco_set,
            opening_set,
            crate::plural::count(games as usize, "game", "games")
        );
    }
    exit::of(unreadable, bad)
}
