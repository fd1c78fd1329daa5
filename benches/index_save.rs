//! The first opening tree after the app's own save of one game in place, on a big file:
//! the index carried over the save (`study::index::patch::carry`, what the reviewer's
//! study thread does after `:w`) against the index built again from the saved file (what
//! the reviewer did before). The file is `SCORESHEET_BENCH_PGN` (copied to a temporary
//! folder first, never written itself), else the suite's small `search_games.pgn`; the
//! game in the middle of it is replaced by the text of the game after it. Prints the
//! times of each step (one run each: the build is what takes tens of seconds).

use std::path::PathBuf;
use std::time::Instant;

use scoresheet::notation::Lang;
use scoresheet::pgn::chunks::CHUNK;
use scoresheet::position::Position;
use scoresheet::store::save::{save_game_spliced, Slot};
use scoresheet::study::index::cache::Stamp;
use scoresheet::study::index::open::{open_or_build, Opening, WhenBusy};
use scoresheet::study::index::patch::{carry, Replaced};
use scoresheet::study::index::Index;

/// Seconds of processor time this process has used so far (all its threads), from
/// `/proc/self/stat` (0 where there is none).
fn cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's name (which may hold spaces) end with ')'.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the name), in
    // clock ticks of 1/100 s on Linux.
    (ticks(11) + ticks(12)) / 100.0
}

/// Opens (or builds, with `rebuild` always) the index of `stamp`'s file.
fn open(stamp: &Stamp, rebuild: bool) -> Index {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let opening = open_or_build(
        stamp,
        jobs,
        CHUNK,
        Lang::english(),
        rebuild,
        WhenBusy::Wait,
        |_| Ok(()),
    )
    .expect("the index");
    let Opening::Ready(opened) = opening else {
        unreachable!("a caller that waits gets the index")
    };
    opened.index
}

fn main() {
    let source = std::env::var_os("SCORESHEET_BENCH_PGN").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/search_games.pgn"),
        PathBuf::from,
    );
    let dir = tempfile::tempdir_in(std::env::var_os("TMPDIR").unwrap_or("/tmp".into()))
        .expect("a temporary folder");
    let path = dir.path().join("games.pgn");
    std::fs::copy(&source, &path).expect("copy the file");
    let cache = dir.path().join("index");
    let secs = |t: Instant| t.elapsed().as_secs_f64();
    let load = || std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load: {}", load().trim());
    let start = Position::start();

    let before = Stamp::of_in(&path, &cache).expect("a stamp");
    let t = Instant::now();
    let index = open(&before, false);
    println!("index built: {:.2} s, {} games", secs(t), index.games());

    // The game in the middle replaced by the one after it, as `:w` writes it.
    let text = std::fs::read(&path).expect("read the file");
    let games = scoresheet::pgn::index(&text);
    let (e, next) = (&games[games.len() / 2], &games[games.len() / 2 + 1]);
    let slot = Slot::of(&text, e.offset as usize, e.len as usize);
    let pgn =
        String::from_utf8_lossy(&text[next.offset as usize..][..next.len as usize]).into_owned();
    drop(text);
    let t = Instant::now();
    let (_, spliced) = save_game_spliced(&path, Some(&slot), &pgn, false).expect("saved");
    let spliced = spliced.expect("saved in place");
    println!("save: {:.2} s", secs(t));

    let after = Stamp::of_in(&path, &cache).expect("a stamp");
    let r = Replaced {
        offset: spliced.offset,
        old: &spliced.old,
        new: &spliced.new,
    };
    let (t, c) = (Instant::now(), cpu());
    let carried = carry(Some(&index), &before, &after, &r, Lang::english())
        .expect("stored")
        .expect("carried over");
    let (carrying, carrying_cpu) = (secs(t), cpu() - c);
    let t = Instant::now();
    let tree = carried.tree(&start).expect("a tree");
    let first = secs(t);
    println!(
        "carried over: {carrying:.2} s ({carrying_cpu:.2} s of processor), then the tree: {:.1} ms ({} moves)",
        first * 1000.0,
        tree.branches.len()
    );
    drop((index, carried));

    let (t, c) = (Instant::now(), cpu());
    let rebuilt = open(&after, true);
    let (building, building_cpu) = (secs(t), cpu() - c);
    let t = Instant::now();
    let again = rebuilt.tree(&start).expect("a tree");
    println!(
        "built again: {building:.2} s ({building_cpu:.2} s of processor), then the tree: {:.1} ms",
        secs(t) * 1000.0
    );
    assert_eq!(tree, again, "the same tree either way");
    let size = std::fs::metadata(after.index_file()).map_or(0, |m| m.len());
    println!("index: {} MB; load: {}", size >> 20, load().trim());
}
