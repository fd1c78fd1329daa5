//! `scoresheet search FILE... (--fen FEN | --moves MOVES) [--variations]` and
//! `scoresheet tree FILE... (--fen FEN | --moves MOVES)`: which games reach a position, and
//! what was played there.
//!
//! A regular file is answered from its index (see [`crate::study::index`]) when the cache
//! holds one of this version of the file; later runs open it and read only the games that
//! reach the position. Otherwise the file is read through on every core as `check` reads
//! it, each game only as far as the answer needs (see [`crate::study::follow::Follow`]; the
//! problems met on the way are reported on standard error, in `check`'s format), and once every
//! file is answered `scoresheet index --background` is started on those without an index
//! (see [`super::index`]). Standard input, compressed files and `--variations` (the index
//! holds main lines only) are read through every time.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::exit;
use super::input::{self, Cut, Input};
use super::output::Stdout;
use super::search_rows as rows;
use crate::notation::Lang;
use crate::pgn::tag_window::cut_short;
use crate::pgn::{ColumnPlaces, GameError, Reader};
use crate::position::Position;
use crate::study::follow::{GameInfo, Tags, TagsRead, Walked};
use crate::study::index::cache::{self, Found, Stamp};
use crate::study::index::open::{self, follower, Reading};
use crate::study::index::{Damage, Index};
use crate::study::key::Goal;
use crate::study::tree::{Next, Tally, Tree};

/// The position asked for.
#[derive(Debug, clap::Args)]
#[group(required = true, multiple = false)]
pub struct Target {
    /// The position as a FEN (the move counters are ignored).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// The position after these moves from the start (`"1. e4 c5 2. Nf3"`).
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
}

/// Options shared by both commands.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// PGN files (`-` for standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub target: Target,
    #[command(flatten)]
    pub reading: input::Reading,
    #[command(flatten)]
    pub threads: input::Threads,
    /// Bytes per chunk of a regular file read on several threads (for tests).
    #[arg(long, hide = true, default_value_t = super::parallel::CHUNK)]
    pub chunk: u64,
}

/// Arguments of `search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    #[command(flatten)]
    pub common: Common,
    /// Look inside variations too (reads the files through: the index holds main lines).
    #[arg(long)]
    pub variations: bool,
}

/// Arguments of `tree`.
#[derive(Debug, clap::Args)]
pub struct TreeArgs {
    #[command(flatten)]
    pub common: Common,
}

/// The position of `--fen` or `--moves` (its moves read in `lang`, as the files are), or
/// the message saying why there is none.
pub fn target_position(target: &Target, lang: &'static Lang) -> Result<Position, String> {
    if let Some(fen) = &target.fen {
        return Position::from_fen(fen.trim())
            .map_err(|e| format!("--fen \"{}\": {e}", crate::message::shown(fen)));
    }
    let moves = target.moves.as_deref().unwrap_or("");
    position_after(moves, lang)
        .map_err(|e| format!("--moves \"{}\": {e}", crate::message::shown(moves)))
}

/// The position after the moves of `text` from the standard start: the main line, read as
/// PGN movetext (move numbers optional, any notation the reader takes, piece letters of
/// `lang`).
pub fn position_after(text: &str, lang: &'static Lang) -> Result<Position, String> {
    let mut reader = crate::pgn::SliceReader::new(text.as_bytes());
    let mut builder = crate::pgn::GameBuilder::new(true).reading(lang);
    let games: Vec<_> = std::iter::from_fn(|| reader.read_game(&mut builder)).collect();
    let Some(game) = games.first() else {
        return Ok(Position::start());
    };
    if games.len() > 1 {
        return Err("holds more than one game".into());
    }
    if let Some(e) = game.errors.first() {
        return Err(format!(
            "column {}: \"{}\": {}",
            e.pos.column,
            crate::message::shown(&e.token),
            crate::message::shown_text(&e.reason)
        ));
    }
    let g = &game.game;
    Ok(g.mainline().last().map_or(g.start, |id| g.position_at(*id)))
}

/// Reads every game of `input` through [`follower`] (on `jobs` threads for a regular
/// file), maps each with `map` (on the reading threads), and hands what it picked (`Some`)
/// to `sink` in file order with absolute game numbers (an error from it stops the reading);
/// problems go to standard error in `check`'s format. Returns (games, games with problems).
#[allow(clippy::too_many_arguments)]
fn read_games<T: Send>(
    input: Input,
    name: &str,
    jobs: usize,
    chunk: u64,
    lang: &'static Lang,
    follow: Reading,
    map: impl Fn(Walked) -> Option<T> + Sync,
    mut sink: impl FnMut(u64, T) -> io::Result<()>,
) -> io::Result<(u64, u64)> {
    let mut err = BufWriter::new(io::stderr().lock());
    let mut problem = |line: u64, game: u64, players: &str, e: &GameError| {
        super::check::write_problem(&mut err, name, line, game, players, e)
    };
    let counts = match input.regular_file() {
        Some(file) => open::read_file(file, jobs, chunk, lang, follow, map, sink, &mut problem)?,
        None => {
            let mut reader = Reader::new(input);
            let mut f = follower(lang, follow);
            let (mut games, mut bad) = (0, 0);
            while let Some(w) = reader.read_game_restarting(&mut f)? {
                games += 1;
                if w.read.has_problems() {
                    bad += 1;
                    let players = w.read.players();
                    for e in w.read.problems() {
                        problem(e.pos.line, w.read.number, &players, e)?;
                    }
                }
                let number = w.read.number;
                if let Some(out) = map(w) {
                    sink(number, out)?;
                }
            }
            (games, bad)
        }
    };
    err.flush()?;
    Ok(counts)
}

/// How a file was answered.
enum Answer {
    /// From its index.
    Indexed { index: Box<Index> },
    /// By reading it through: how many games reach the position, and for the tree what
    /// each played there (`search`'s lines were written as the games were found: `written`
    /// says whether that went well, apart from the reading, so that a reader of the output
    /// that has gone still leaves the file read and its index to build).
    Read {
        found: u64,
        tallies: Vec<(Next, Tally)>,
        written: io::Result<()>,
    },
}

/// What the games found by reading a file through are wanted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// `search`'s result lines.
    Lines,
    /// The opening tree.
    Tree,
}

/// What the reading threads make of a game found by reading a file through.
enum Found1 {
    /// For `search`, a game of a file on disk: where it starts, its plies, the ply at which
    /// it reaches the position, and where its tags' values lie (its line is made from the
    /// file, read again in file order).
    At(u64, u32, u32, Option<ColumnPlaces>),
    /// For `search`, a game of another input (a pipe, a compressed file): its tags, plies
    /// and ply.
    Tags(Box<Tags>, u32, u32),
    /// For `tree`: the move it played at the position, and its result, ratings and year.
    Tally(Next, GameInfo),
}

/// Adds a game that played `next` to its move's tally: one per move played (a few dozen)
/// rather than one per game (a whole file's, for the tree of the start position).
fn add_up(tallies: &mut Vec<(Next, Tally)>, next: Next, info: &GameInfo) {
    let game = Tally::of(info);
    match tallies.iter_mut().find(|(n, _)| *n == next) {
        Some((_, tally)) => tally.add(&game),
        None => tallies.push((next, game)),
    }
}

/// Asks the index of `path` with `ask`; an index found damaged while answering is
/// rebuilt (standard error says so) and asked again.
fn ask_index<T>(
    path: &Path,
    index: &mut Index,
    common: &Common,
    lang: &'static Lang,
    ask: impl Fn(&Index) -> Result<T, Damage>,
) -> io::Result<T> {
    match ask(index) {
        Ok(answer) => Ok(answer),
        Err(why) => {
            eprintln!(
                "scoresheet: the index of {} was damaged ({why}): rebuilding it",
                input::name(path)
            );
            let jobs = common.threads.count();
            *index = super::index::open_index(path, jobs, common.chunk, lang, true)?.index;
            ask(index).map_err(|e| io::Error::other(format!("the index just built: {e}")))
        }
    }
}

/// Whether a path names a regular file that is not compressed (one that can be indexed).
fn indexable(path: &Path) -> bool {
    // Only a regular file is looked into: opening a pipe to see would eat the start of
    // what it carries, which the reading through that follows then never sees.
    if input::is_stdin(path) || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    match Input::open(path) {
        Ok(input) => input.regular_file().is_some(),
        Err(_) => false,
    }
}

/// How an indexable file without a fresh index was answered: read through, and what
/// becomes of its index.
enum Indexing {
    /// Not a file that is indexed (standard input, compressed, `--variations`).
    No,
    /// Not indexed, and cut short: its decompressor stopped with this error.
    Cut(io::Error),
    /// To be built in the background, once every file is answered.
    Wanted(Stamp),
    /// Another process is building it.
    Busy,
    /// The last build of this version of the file failed, for this reason.
    Failed(String),
    /// No index can be kept: the cache directory cannot be written.
    Unwritable(io::Error),
}

/// Answers one file: from its index when there is a fresh one; else by reading it through
/// (on every core, as `check` reads; for `search`, each game's line is written to `out`,
/// after `file`'s name when given, as soon as the games before it are read), after which
/// a file on disk gets its index built in the background for the next searches.
#[allow(clippy::too_many_arguments)]
fn answer(
    path: &Path,
    common: &Common,
    lang: &'static Lang,
    pos: &Position,
    variations: bool,
    purpose: Purpose,
    out: &mut impl Write,
    file: Option<&str>,
) -> io::Result<(Answer, u64, u64, Indexing)> {
    let jobs = common.threads.count();
    let mut stamp = None;
    if !variations && indexable(path) {
        let s = Stamp::of(path)?;
        match cache::find(&s) {
            Found::Fresh(index) => {
                let (games, bad) = (u64::from(index.games()), u64::from(index.header().problems));
                return Ok((Answer::Indexed { index }, games, bad, Indexing::No));
            }
            Found::Damaged(why) => eprintln!(
                "scoresheet: the index of {} was damaged ({why}): reading the file through",
                input::name(path)
            ),
            Found::Missing | Found::Stale => {}
        }
        stamp = Some(s);
    }
    let name = input::name(path);
    let input = Input::open(path)?;
    let cut = input.cut();
    // A file on disk is read again for the tags of the games found, at the places noted
    // while reading, as their chunks of the file come in, instead of every game's tags
    // decoded while reading. (Through a handle of its own: the reading takes `input`.)
    let again = input.regular_file().map(File::try_clone).transpose()?;
    let mut reread = again.as_ref().map(rows::Reread::of).transpose()?;
    let (rereading, length) = (
        reread.is_some(),
        reread.as_ref().map(rows::Reread::file_len),
    );
    let reading = Reading::search(Goal::of(pos.board()), variations);
    let reading = match (&reread, purpose) {
        (None, _) => reading,
        (Some(_), Purpose::Lines) => reading.reading_tags(TagsRead::Places),
        // The tree keeps four tags of every game it finds: read with the game, as they
        // come, they cost less than reading again the tag section of most of the file.
        (Some(_), Purpose::Tree) => reading.reading_tags(TagsRead::Info),
    };
    let prefix = rows::prefix(file);
    let (mut found, mut tallies, mut lines) = (0u64, Vec::new(), Vec::new());
    // The lines go out a batch at a time as the games are found: kept until the end,
    // those of a search that finds most of a large file took memory (and its faults).
    let mut written = Ok(());
    let (games, bad) = read_games(
        input,
        &name,
        jobs,
        common.chunk,
        lang,
        reading,
        |w| {
            let ply = w.reached?;
            let offset = w.read.start.offset;
            Some(match (purpose, rereading) {
                (Purpose::Lines, true) => Found1::At(offset, w.plies, ply, w.places),
                (Purpose::Lines, false) => Found1::Tags(w.tags.unwrap_or_default(), w.plies, ply),
                (Purpose::Tree, _) => Found1::Tally(w.next, w.info),
            })
        },
        |number, f| {
            found += 1;
            match (f, &mut reread) {
                (Found1::At(offset, plies, ply, places), Some(rows)) => {
                    let game = rows::Found {
                        offset,
                        number,
                        plies,
                        ply,
                        places,
                    };
                    // The file cut short meanwhile stops the reading: the lines
                    // written so far stand, and the error says why no more follow.
                    if let Err(e) = rows.push_line(&mut lines, &prefix, &game) {
                        if written.is_ok() {
                            written = out.write_all(&lines);
                        }
                        return Err(e);
                    }
                }
                (Found1::Tags(tags, plies, ply), _) => {
                    rows::push_tags(&mut lines, &prefix, number, &tags, plies, ply)
                }
                (Found1::Tally(next, info), _) => add_up(&mut tallies, next, &info),
                (Found1::At(..), None) => {}
            }
            if lines.len() >= rows::BATCH {
                // Once the output fails (a reader gone), the rest is not kept either.
                if written.is_ok() {
                    written = out.write_all(&lines);
                }
                lines.clear();
            }
            Ok(())
        },
    )?;
    // A file cut short after the games in its lost part were read, or in the middle of
    // them, gave fewer games than it held, with no error from the reading.
    if let (Some(file), Some(length)) = (&again, length) {
        if file.metadata()?.len() < length {
            written?;
            return Err(cut_short());
        }
    }
    let written = written.and_then(|()| out.write_all(&lines));
    let indexing = match (stamp, cut.take()) {
        (_, Some(e)) => Indexing::Cut(e),
        (None, None) => Indexing::No,
        (Some(stamp), None) => match (cache::failure(&stamp), cache::being_built(&stamp)) {
            (Some(why), _) => Indexing::Failed(why),
            (None, Ok(false)) => Indexing::Wanted(stamp),
            (None, Ok(true)) => Indexing::Busy,
            (None, Err(e)) => Indexing::Unwritable(e),
        },
    };
    let answer = Answer::Read {
        found,
        tallies,
        written,
    };
    Ok((answer, games, bad, indexing))
}

/// Runs `search`; returns the exit code.
pub fn run_search(args: &SearchArgs) -> u8 {
    run(
        &args.common,
        "search",
        args.variations,
        Purpose::Lines,
        |out, file, path, answer| match answer {
            Answer::Indexed { mut index } => {
                let lang = args.common.reading.input_lang;
                // The columns are checked before a line is written: damage found then
                // rebuilds the index before any output, not halfway through it.
                let hits = ask_index(path, &mut index, &args.common, lang, |i| {
                    i.columns()?;
                    i.search(out.1)
                })?;
                let columns = index
                    .columns()
                    .map_err(|e| io::Error::other(format!("the index: {e}")))?;
                rows::write_hits(out.0, file, &columns, &hits)?;
                Ok(hits.len() as u64)
            }
            // Its lines were written as the games were found.
            Answer::Read { found, written, .. } => written.map(|()| found),
        },
    )
}

/// Runs `tree`; returns the exit code.
pub fn run_tree(args: &TreeArgs) -> u8 {
    let mut all: Vec<(Next, Tally)> = Vec::new();
    let mut at = Position::start();
    let mut found_any = false;
    let code = run(
        &args.common,
        "tree",
        false,
        Purpose::Tree,
        |out, _, path, answer| {
            at = *out.1;
            let found = match answer {
                Answer::Indexed { mut index } => {
                    let lang = args.common.reading.input_lang;
                    let tree = ask_index(path, &mut index, &args.common, lang, |i| i.tree(out.1))?;
                    for b in &tree.branches {
                        all.push((b.next, b.tally()));
                    }
                    if tree.ended > 0 {
                        let ended = Tally {
                            games: tree.ended,
                            ..Tally::default()
                        };
                        all.push((Next::End, ended));
                    }
                    tree.games
                }
                Answer::Read { found, tallies, .. } => {
                    all.extend(tallies);
                    found
                }
            };
            found_any |= found > 0;
            Ok(found)
        },
    );
    if code == exit::USAGE && !found_any && all.is_empty() {
        return code;
    }
    let tree = Tree::from_tallies(&at, all);
    // Games that end at the position played no move there: they have no line, and are
    // counted here, after the files' summaries.
    if tree.ended > 0 {
        let games = crate::plural::count_grouped(tree.ended as usize, "game", "games");
        let verb = if tree.ended == 1 { "ends" } else { "end" };
        eprintln!("scoresheet tree: {games} {verb} at the position (no move played there)");
    }
    let mut out = Stdout::new();
    for b in &tree.branches {
        let elo = b.average_elo().map_or("?".to_string(), |e| e.to_string());
        let year = match b.last_year {
            0 => "?".to_string(),
            y => y.to_string(),
        };
        let line = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{elo}\t{year}",
            b.san, b.games, b.white_wins, b.draws, b.black_wins
        );
        if line.is_err() {
            break;
        }
    }
    out.finish("tree", code)
}

/// What both commands do for each file: answer it, report, and add up the exit code.
fn run(
    common: &Common,
    command: &str,
    variations: bool,
    purpose: Purpose,
    mut each: impl FnMut((&mut Stdout, &Position), Option<&str>, &Path, Answer) -> io::Result<u64>,
) -> u8 {
    let lang = common.reading.input_lang;
    let pos = match target_position(&common.target, lang) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("scoresheet {command}: {e}");
            return exit::USAGE;
        }
    };
    let mut out = Stdout::new();
    let mut unreadable = false;
    let several = common.files.len() > 1;
    let mut to_index = Vec::new();
    for path in &common.files {
        let name = input::name(path);
        let mut cut = None;
        let file = several.then_some(name.as_str());
        let answered = answer(
            path, common, lang, &pos, variations, purpose, &mut out, file,
        );
        let done = answered.and_then(|(a, games, bad, i)| {
            let how = match (&a, i) {
                (Answer::Indexed { .. }, _) => FROM_INDEX.to_string(),
                (Answer::Read { .. }, Indexing::No) => String::new(),
                (Answer::Read { .. }, Indexing::Cut(e)) => {
                    cut = Some(e);
                    String::new()
                }
                (Answer::Read { .. }, Indexing::Wanted(stamp)) => {
                    to_index.push(stamp);
                    BACKGROUND.to_string()
                }
                (Answer::Read { .. }, Indexing::Busy) => BACKGROUND.to_string(),
                (Answer::Read { .. }, Indexing::Failed(why)) => format!(
                    " (read through; indexing it failed: {why}; `scoresheet index` tries again)"
                ),
                (Answer::Read { .. }, Indexing::Unwritable(e)) => format!(
                    " (read through; no index can be kept in {}: {e})",
                    cache::dir().display()
                ),
            };
            let found = each((&mut out, &pos), several.then_some(name.as_str()), path, a)?;
            Ok((found, games, bad, how))
        });
        match done {
            Ok((found, games, bad, how)) => {
                let games_text = crate::plural::count(games as usize, "game", "games");
                let errors = match (bad, &how) {
                    (0, _) => String::new(),
                    // The index read every game to its end.
                    (_, h) if h == FROM_INDEX => format!(
                        "; {} with errors (`scoresheet check` lists them)",
                        crate::plural::count(bad as usize, "game", "games")
                    ),
                    // Read through: the problems met on the way, reported above.
                    _ => format!(", {bad} with errors met"),
                };
                let reach = if found == 1 { "reaches" } else { "reach" };
                let _ = out.flush();
                eprintln!(
                    "scoresheet {command}: {name}: {found} of {games_text} {reach} the position{errors}{how}"
                );
                if let Some(e) = cut {
                    eprintln!("{}", Cut::message(command, &name, &e, Some(games)));
                    unreadable = true;
                }
                if out.has_failed() {
                    break;
                }
            }
            // The output failed (a reader gone, `| head`, or a full disk): the rest could
            // be written nowhere; `finish` below says why, if it is worth saying.
            Err(_) if out.has_failed() => break,
            Err(e) => {
                let _ = out.flush();
                eprintln!("scoresheet {command}: cannot read {name}: {e}");
                unreadable = true;
            }
        }
    }
    let _ = out.flush();
    if !to_index.is_empty() {
        if let Err(e) = super::index::in_background(&to_index, common.reading.input_lang.code) {
            eprintln!("scoresheet {command}: the indexing in the background could not start: {e}");
        }
    }
    // Problems in the games do not change the answer (see `Follow::leave`: a search reads
    // each game only as far as it needs), so they do not change the exit code either.
    let code = if unreadable { exit::USAGE } else { exit::OK };
    out.finish(command, code)
}

/// How a summary ends for a file answered from its index.
const FROM_INDEX: &str = ", from the index";

/// What the summary says of a file read through whose index is being built.
const BACKGROUND: &str =
    " (read through; its index is being built in the background, for the next searches)";
