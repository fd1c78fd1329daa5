//! `scoresheet annotate FILE... [-o OUT] [--engine PATH] [--depth N | --nodes N |
//! --movetime MS] [--jobs N]`: every game annotated by an engine (see
//! [`crate::study::annotate`]), written in order; a summary per game and for the
//! run on standard error.
//!
//! Several engine processes work at once with `--jobs`: a reader thread hands games
//! out in file order, each worker owns an engine, and the writer puts the games back
//! in order. A game with a problem (an illegal move…) is copied through as written,
//! after a `%` note, as `convert` does. An engine that dies leaves its game written
//! without annotations and reported; the next game gets a fresh engine.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::convert::{copy_note, place_escapes, push_escapes, without_trailing_notes, Before};
use super::exit;
use super::input::{self, Cut, Input};
use crate::engine::{Engine, EngineConfig, Limit};
use crate::pgn::WriteOptions;
use crate::pgn::{write_game_ending, ErrorKind, GameBuilder, Outcome, ReadGame, Reader};
use crate::store::target;
use crate::study::annotate::{annotate, side_summary, Report};

/// The nodes per position when no limit is given: reproducible, and about a second
/// a position on one core of a laptop.
pub const DEFAULT_NODES: u64 = crate::study::annotate::DEFAULT_NODES;

/// Arguments of `annotate`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("limit").args(["depth", "nodes", "movetime"]))]
pub struct Args {
    /// PGN files to annotate (`-` for standard input).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write to this file (atomically: the old file stays intact if anything fails)
    /// instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Replace the output file even when it is read-only.
    #[arg(long)]
    pub force: bool,
    /// The UCI engine to run: a path, or a name found on PATH (or in /usr/games).
    #[arg(long, value_name = "PATH", default_value = "stockfish")]
    pub engine: PathBuf,
    /// Search each position to this depth.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Search each position this many nodes: the same output on every run (the
    /// default, 300000, with one thread per engine).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search each position this many milliseconds.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Engine processes working on different games at once (default 1).
    #[arg(long, short = 'j', value_parser = super::input::parse_jobs)]
    pub jobs: Option<usize>,
    /// Threads per engine (more than 1 makes the output vary from run to run).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: u32,
    /// Hash table per engine, in MB.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    pub hash: u32,
    #[command(flatten)]
    pub reading: input::Reading,
}

impl Args {
    fn limit(&self) -> Limit {
        match (self.depth, self.nodes, self.movetime) {
            (Some(d), _, _) => Limit::Depth(d),
            (_, _, Some(ms)) => Limit::MoveTime(Duration::from_millis(ms)),
            (_, n, _) => Limit::Nodes(n.unwrap_or(DEFAULT_NODES)),
        }
    }
}

/// One game handed to a worker, with its place in the output.
struct Job {
    seq: u64,
    work: Work,
}

enum Work {
    /// A game read cleanly, to annotate, with the `%` lines of the input that go with it.
    Annotate {
        game: Box<ReadGame>,
        file: Arc<str>,
        escapes: Escapes,
    },
    /// Text to write as it is, with messages (a game copied through, a file that
    /// could not be read).
    Verbatim(Done),
}

/// The `%` lines of a game's text (see `convert`, which places them the same way): those
/// within it, written just before it, and those after its result, just after it.
struct Escapes {
    within: Vec<String>,
    after: Vec<String>,
    /// What was written before the game.
    before: Before,
}

/// A game's output, back from a worker.
#[derive(Default)]
struct Done {
    text: String,
    messages: String,
    annotated: bool,
    /// Copied through as written (it did not read cleanly).
    copied: bool,
    problem: bool,
    unreadable: bool,
    report: Option<Report>,
}

/// What the run did, for the exit code and the last line.
#[derive(Default)]
struct Totals {
    annotated: u64,
    copied: u64,
    problems: u64,
    unreadable: bool,
    sides: Report,
}

impl Totals {
    fn add(&mut self, done: &Done) {
        self.annotated += u64::from(done.annotated);
        self.copied += u64::from(done.copied);
        self.problems += u64::from(done.problem);
        self.unreadable |= done.unreadable;
        if let Some(r) = &done.report {
            for (total, side) in self.sides.sides.iter_mut().zip(r.sides) {
                total.inaccuracies += side.inaccuracies;
                total.mistakes += side.mistakes;
                total.blunders += side.blunders;
            }
        }
    }
}

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let lang = args.reading.input_lang;
    let limit = args.limit();
    let cfg = EngineConfig {
        path: args.engine.clone(),
        threads: Some(args.threads),
        hash_mb: Some(args.hash),
        multipv: 1,
        silence_timeout: Some(match limit {
            Limit::MoveTime(t) => t + Duration::from_secs(120),
            _ => Duration::from_secs(120),
        }),
        ..EngineConfig::default()
    };
    // The first engine starts before anything is written: no engine, no output.
    let first = match Engine::start(&cfg) {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("scoresheet annotate: {e}");
            return exit::USAGE;
        }
    };
    let jobs = args.jobs.unwrap_or(1).min(input::jobs(args.jobs));
    let mut totals = Totals::default();
    // What was there before, to say what a failed write left.
    let before = args
        .output
        .as_deref()
        .map(|path| target::kind(path).unwrap_or(target::Kind::Regular { read_only: false }));
    let written = super::output::write(
        args.output.as_deref(),
        args.force,
        &args.files,
        |out: &mut dyn Write| {
            pipeline(args, lang, &cfg, limit, first, jobs, out, &mut totals)?;
            Ok(!totals.unreadable)
        },
    );
    if let Err(e) = written {
        match &args.output {
            Some(_) if target::is_read_only(&e) => {
                eprintln!("scoresheet annotate: {e}: --force replaces it");
            }
            Some(path) => eprintln!(
                "scoresheet annotate: cannot write {}: {}; {}",
                path.display(),
                crate::store::save::explain(&e, path),
                crate::store::save::left_after_failure(
                    before.unwrap_or(target::Kind::Missing),
                    path
                )
            ),
            None => {
                let code = exit::of(totals.unreadable, totals.problems);
                return super::output::failed("annotate", &e, code);
            }
        }
        return exit::USAGE;
    }
    let [w, b] = totals.sides.sides;
    eprintln!(
        "scoresheet annotate: {} annotated, {} copied as written, {} with problems; \
         White: {}; Black: {}",
        crate::plural::count(totals.annotated as usize, "game", "games"),
        totals.copied,
        totals.problems,
        counts(&w),
        counts(&b),
    );
    exit::of(totals.unreadable, totals.problems)
}

/// Reads, annotates on `jobs` workers and writes in order.
#[allow(clippy::too_many_arguments)]
fn pipeline(
    args: &Args,
    lang: &'static crate::notation::Lang,
    cfg: &EngineConfig,
    limit: Limit,
    first: Engine,
    jobs: usize,
    out: &mut dyn Write,
    totals: &mut Totals,
) -> std::io::Result<()> {
    let (job_tx, job_rx) = sync_channel::<Job>(jobs * 2);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = channel::<(u64, Done)>();
    let mut first = Some(first);
    std::thread::scope(move |scope| {
        let mut workers = 0;
        for _ in 0..jobs {
            let (rx, tx) = (Arc::clone(&job_rx), done_tx.clone());
            let engine = first.take();
            if !input::spawn_worker(scope, move || work(rx, tx, cfg, limit, engine)) {
                break;
            }
            workers += 1;
        }
        // Only the workers hold the jobs' end now: when they are gone (the output
        // failed, say), the reader's next hand-over fails and it stops too.
        drop(job_rx);
        drop(done_tx);
        if workers == 0 || !input::spawn_worker(scope, move || read_all(&args.files, lang, job_tx))
        {
            return Err(input::no_threads());
        }
        write_in_order(done_rx, out, totals)
    })
}

/// The reader: every game of every file, in order, as jobs.
fn read_all(
    files: &[PathBuf],
    lang: &'static crate::notation::Lang,
    jobs: std::sync::mpsc::SyncSender<Job>,
) {
    let mut seq = 0u64;
    let mut send = |work: Work| {
        seq += 1;
        jobs.send(Job { seq, work }).is_ok()
    };
    for path in files {
        let name: Arc<str> = input::name(path).into();
        let file = match Input::open(path) {
            Ok(f) => f,
            Err(e) => {
                let messages = format!("scoresheet annotate: cannot read {name}: {e}\n");
                if !send(Work::Verbatim(Done {
                    messages,
                    unreadable: true,
                    ..Done::default()
                })) {
                    return;
                }
                continue;
            }
        };
        let cut = file.cut();
        let mut reader = Reader::new(file);
        let mut builder = GameBuilder::new(true).reading(lang);
        let mut written = Before::Nothing;
        loop {
            // The `%` lines before a game that belong to no game go out at once.
            let mut outside = Vec::new();
            let read = reader.read_game_escaping(&mut builder, &mut |line: &str| {
                outside.push(line.to_string());
                Ok(())
            });
            let mut text = String::new();
            push_escapes(&mut text, &outside);
            if !text.is_empty()
                && !send(Work::Verbatim(Done {
                    text,
                    ..Done::default()
                }))
            {
                return;
            }
            let g = match read {
                Ok(Some(g)) => g,
                Ok(None) => break,
                Err(e) => {
                    let messages = format!("scoresheet annotate: cannot read {name}: {e}\n");
                    send(Work::Verbatim(Done {
                        messages,
                        unreadable: true,
                        ..Done::default()
                    }));
                    break;
                }
            };
            let before =
                std::mem::replace(&mut written, Before::after(&g, reader.last_game_text()));
            let work = if g.errors.is_empty() {
                let escapes = Escapes {
                    within: builder.escapes().within.clone(),
                    after: builder.escapes().after.clone(),
                    before,
                };
                Work::Annotate {
                    game: Box::new(g),
                    file: Arc::clone(&name),
                    escapes,
                }
            } else {
                Work::Verbatim(copied_through(&mut reader, &g, &name))
            };
            if !send(work) {
                return;
            }
        }
        if let Some(e) = cut.take() {
            let messages = format!("{}\n", Cut::message("annotate", &name, &e, None));
            if !send(Work::Verbatim(Done {
                messages,
                unreadable: true,
                ..Done::default()
            })) {
                return;
            }
        }
    }
}

/// A game that did not read cleanly: reported, and copied through whole as written
/// after a `%` note, as `convert` does.
fn copied_through<R: std::io::Read>(reader: &mut Reader<R>, g: &ReadGame, name: &str) -> Done {
    let mut messages = Vec::new();
    let _ = super::check::report(&mut messages, name, g);
    let mut text = copy_note(g, "annotated");
    if matches!(
        g.errors.first().and_then(|e| e.kind.as_ref()),
        Some(ErrorKind::GameTooLarge { .. })
    ) {
        let mut raw = Vec::new();
        let _ = reader.copy_skipped(&mut |bytes| {
            raw.extend_from_slice(bytes);
            Ok(())
        });
        text.push_str(&crate::text::decode(without_trailing_notes(&raw)));
    } else {
        text.push_str(&crate::text::decode(without_trailing_notes(
            reader.last_game_text(),
        )));
    }
    text.push_str("\n\n");
    Done {
        text,
        messages: String::from_utf8_lossy(&messages).into_owned(),
        problem: true,
        copied: true,
        ..Done::default()
    }
}

/// A worker: takes jobs until there are none, with its own engine (started at once,
/// and again after one dies).
fn work(
    jobs: Arc<Mutex<Receiver<Job>>>,
    done: Sender<(u64, Done)>,
    cfg: &EngineConfig,
    limit: Limit,
    mut engine: Option<Engine>,
) {
    // Each worker starts its engine at once, so that `--jobs N` runs N engines from
    // the first games on (one that cannot start is retried, and reported, per game).
    if engine.is_none() {
        engine = Engine::start(cfg).ok();
    }
    loop {
        let job = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok(Job { seq, work }) = job else { return };
        let result = match work {
            Work::Verbatim(d) => d,
            Work::Annotate {
                mut game,
                file,
                escapes,
            } => {
                let mut done = annotate_one(&mut game, &file, cfg, limit, &mut engine);
                place_escapes(&mut done.text, &escapes.within, escapes.before);
                push_escapes(&mut done.text, &escapes.after);
                done
            }
        };
        if done.send((seq, result)).is_err() {
            return;
        }
    }
}

fn annotate_one(
    g: &mut ReadGame,
    file: &str,
    cfg: &EngineConfig,
    limit: Limit,
    engine: &mut Option<Engine>,
) -> Done {
    let mut messages = Vec::new();
    let mut problem = false;
    if !g.result_problems.is_empty() {
        // Written as read, both results kept (as `convert` does), and reported.
        let _ = super::check::report(&mut messages, file, g);
        problem = true;
    }
    let who = format!("{file}: game {} ({})", g.number, g.players());
    let report = match engine.take().map_or_else(|| Engine::start(cfg), Ok) {
        Ok(mut e) => annotate(&mut g.game, &mut e, limit).inspect(|_| *engine = Some(e)),
        Err(err) => Err(err),
    };
    let report = match report {
        Ok(report) => {
            let [w, b] = report.sides;
            let _ = writeln!(
                messages,
                "{who}: White {}; Black {}",
                side_summary(&w),
                side_summary(&b)
            );
            Some(report)
        }
        Err(err) => {
            // The engine may be dead or stuck: the next game gets a fresh one.
            let _ = writeln!(
                messages,
                "{who}: {err}; the game is written without annotations"
            );
            problem = true;
            None
        }
    };
    let mut text = String::new();
    let token = if g.result_problems.is_empty() {
        None
    } else {
        g.movetext_result.map(Outcome::as_str)
    };
    write_game_ending(&g.game, &mut text, &WriteOptions::default(), None, token);
    let annotated = report.is_some();
    Done {
        text,
        messages: String::from_utf8_lossy(&messages).into_owned(),
        annotated,
        copied: false,
        problem,
        unreadable: false,
        report,
    }
}

/// The writer: games in input order, each with its messages on standard error.
fn write_in_order(
    done: Receiver<(u64, Done)>,
    out: &mut dyn Write,
    totals: &mut Totals,
) -> std::io::Result<()> {
    let mut waiting: BTreeMap<u64, Done> = BTreeMap::new();
    let mut next = 1u64;
    for (seq, d) in done {
        waiting.insert(seq, d);
        while let Some(d) = waiting.remove(&next) {
            next += 1;
            out.write_all(d.text.as_bytes())?;
            eprint!("{}", d.messages);
            totals.add(&d);
        }
    }
    Ok(())
}

/// A side's counts: `1 inaccuracy, 0 mistakes, 2 blunders`.
fn counts(side: &crate::study::annotate::SideReport) -> String {
    use crate::plural::count;
    format!(
        "{}, {}, {}",
        count(side.inaccuracies as usize, "inaccuracy", "inaccuracies"),
        count(side.mistakes as usize, "mistake", "mistakes"),
        count(side.blunders as usize, "blunder", "blunders")
    )
}
