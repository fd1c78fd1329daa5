//! The game list at scale: a file of about 1.5 million games (1.2 GB), made by repeating
//! the real games of `../shared/data/games` with the names, events and sites of each copy
//! made distinct (so the string tables are as large as a real database's, not 47 times
//! smaller). Prints:
//!
//! - first batch: time from opening the file to the first rows in hand (target ≤ 100 ms);
//! - whole list: time to list every game into a catalog, beside `scoresheet list` on the
//!   same file (all cores, and one);
//! - memory: the catalog's heap bytes, and the process's anonymous memory (target ≤ 200 MB);
//! - filter keystrokes: each prefix of `carlsen` typed, and a few whole queries (target
//!   ≤ 50 ms each);
//! - sorting by a few columns; a page of the list drawn (a navigation keystroke, ≤ 1 ms).
//!
//! `cargo bench --bench catalog` runs it at full size; `cargo test --benches` runs it
//! once on two copies, quickly. Without the data it says so and exits with status 2.
//!
//! `SCORESHEET_BENCH_ONLY=load` only lists the file (`SCORESHEET_BIG`) into a catalog, and
//! `=filter` lists it and types the filters: one part at a time, for counting instructions
//! (`valgrind --tool=callgrind`, with `--toggle-collect='*set_filter*'` for the filters).

#[path = "common/mod.rs"]
mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use scoresheet::catalog::{Catalog, Column, LoadEvent, Loader};
use scoresheet::ui::list::{self, ListView};

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Writes `copies` copies of `corpus` to `out`, each with its tag values of players,
/// events and sites prefixed by the copy's number.
fn write_copies(corpus: &[u8], copies: usize, out: &mut impl Write) {
    let tags: [&[u8]; 4] = [b"[White \"", b"[Black \"", b"[Event \"", b"[Site \""];
    for k in 0..copies {
        let prefix = format!("{k} ");
        let mut copy = Vec::with_capacity(corpus.len() + corpus.len() / 20);
        for line in corpus.split_inclusive(|&b| b == b'\n') {
            match tags.iter().find(|t| line.starts_with(t)) {
                Some(tag) if k > 0 => {
                    copy.extend_from_slice(tag);
                    copy.extend_from_slice(prefix.as_bytes());
                    copy.extend_from_slice(&line[tag.len()..]);
                }
                _ => copy.extend_from_slice(line),
            }
        }
        out.write_all(&copy).expect("write the big file");
    }
}

/// Anonymous memory of this process (heap, not the mapped file), in bytes.
fn anonymous_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("RssAnon:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Lists the whole file into a catalog through the loader; the time to the first batch and
/// to the end.
fn load(path: &Path) -> (Catalog, Duration, Duration) {
    let started = Instant::now();
    let loader = Loader::open(path).expect("open the big file");
    let mut catalog = Catalog::new();
    let mut first = None;
    loop {
        match loader.next_timeout(Duration::from_secs(600)) {
            Some(LoadEvent::Done) => break,
            Some(event @ LoadEvent::Batch(_)) => {
                first.get_or_insert_with(|| started.elapsed());
                catalog.apply(event);
            }
            Some(LoadEvent::Failed(e)) => panic!("reading the big file: {e}"),
            None => panic!("the loader went silent"),
        }
    }
    catalog.apply(LoadEvent::Done);
    (catalog, first.unwrap_or_default(), started.elapsed())
}

fn time_list(path: &Path, jobs: &[&str]) -> Duration {
    let started = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .arg("list")
        .args(jobs)
        .arg(path)
        .stdout(Stdio::null())
        .status()
        .expect("run scoresheet list");
    assert!(status.success());
    started.elapsed()
}

/// Filter keystrokes: typing `carlsen` a letter at a time, then other queries, each
/// timed.
fn filters(catalog: &mut Catalog) {
    let typed = "carlsen";
    for n in 1..=typed.len() {
        let started = Instant::now();
        catalog.set_filter(&typed[..n]).expect("query");
        println!(
            "filter {:<28} {:>9}  {} matches",
            format!("{:?}", &typed[..n]),
            ms(started.elapsed()),
            catalog.matches()
        );
    }
    // A new word after a space is matched over the whole tables (nothing to narrow from).
    for query in [
        "carlsen w",
        "carlsen wi",
        "carlsen wijk",
        "carlsn",
        "anand",
        "player:anand",
        "carlsen white:carlsen",
        "nepomniachtchi",
        "white:kasparov black:karpov",
        "year:1990..1995",
        "elo:>2600",
        "plies:<40 result:1-0",
        "sicilian najdorf",
        "",
    ] {
        let started = Instant::now();
        catalog.set_filter(query).expect("query");
        println!(
            "filter {:<28} {:>9}  {} matches",
            format!("{query:?}"),
            ms(started.elapsed()),
            catalog.matches()
        );
    }
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/games");
    if std::env::var_os("SCORESHEET_GAMES").is_none() && !data.is_dir() {
        eprintln!(
            "catalog bench: no benchmark data: {} is missing (or set SCORESHEET_GAMES)",
            data.display()
        );
        std::process::exit(2);
    }
    let copies = if full { 47 } else { 2 };
    let dir = tempfile::tempdir().expect("a temporary directory");
    // `SCORESHEET_BIG` keeps the big file between runs: written there when missing.
    let path = match std::env::var_os("SCORESHEET_BIG") {
        Some(p) => std::path::PathBuf::from(p),
        None => dir.path().join("big.pgn"),
    };
    if !path.exists() {
        let corpus = common::corpus();
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        write_copies(&corpus, copies, &mut out);
        out.flush().expect("flush");
    }
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "file: {copies} copies, {:.0} MB (numbers from a loaded, shared machine)",
        size as f64 / 1e6
    );

    match std::env::var("SCORESHEET_BENCH_ONLY").as_deref() {
        Ok("load") => {
            let (catalog, _, whole) = load(&path);
            println!("whole list: {} games in {}", catalog.games(), ms(whole));
            return;
        }
        Ok("filter") => {
            let (mut catalog, ..) = load(&path);
            filters(&mut catalog);
            return;
        }
        _ => {}
    }

    // First batch, several times (the file is in the page cache after the first).
    let runs = if full { 5 } else { 1 };
    let mut firsts = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let loader = Loader::open(&path).expect("open");
        match loader.next_timeout(Duration::from_secs(60)) {
            Some(LoadEvent::Batch(batch)) => {
                firsts.push(started.elapsed());
                assert!(batch.len() >= 100);
            }
            _ => panic!("no first batch"),
        }
    }
    println!("first batch: median {} of {runs}", ms(median(firsts)));

    let before = anonymous_memory();
    let (mut catalog, first, whole) = load(&path);
    let after = anonymous_memory();
    println!(
        "whole list: {} games in {} (first batch after {})",
        catalog.games(),
        ms(whole),
        ms(first)
    );
    println!(
        "scoresheet list: {} (all cores), {} (-j1)",
        ms(time_list(&path, &[])),
        ms(time_list(&path, &["-j", "1"]))
    );
    println!(
        "memory: catalog heap {:.0} MB; process anonymous memory {:.0} MB (before loading {:.0} MB)",
        catalog.heap_bytes() as f64 / 1e6,
        after.unwrap_or(0) as f64 / 1e6,
        before.unwrap_or(0) as f64 / 1e6,
    );

    filters(&mut catalog);

    for column in [Column::White, Column::Date, Column::WhiteElo, Column::White] {
        let started = Instant::now();
        catalog.sort_by(column);
        println!("sort by {:<10} {:>9}", column.name(), ms(started.elapsed()));
    }

    // A navigation keystroke: the next page taken from the catalog and drawn.
    let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let mut times = Vec::new();
    for k in 0..200 {
        let started = Instant::now();
        let first = k * 997 % catalog.matches().max(1);
        let rows = catalog.page(first, list::page_rows(40));
        let view = ListView {
            rows: &rows,
            selected: Some(0),
            sort: catalog.sort(),
            games: catalog.games(),
            matches: None,
            indexing: None,
            color: true,
        };
        term.draw(|f| list::render(&view, f.area(), f.buffer_mut()))
            .unwrap();
        times.push(started.elapsed());
    }
    println!("page drawn (120×40): median {}", ms(median(times)));
}
