//! `scoresheet search` and `scoresheet tree` through the real binary, on a file of our own
//! (`tests/data/search_games.pgn`): transpositions, the en-passant rule, `--variations`,
//! the index (built once, used after, rebuilt when the file changes or the index is
//! damaged, never beside the file), and errors.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

mod data_dirs;

struct Run {
    out: String,
    err: String,
    code: i32,
}

/// Runs scoresheet with `args`, its index cache in `cache`.
fn run(cache: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .env("SCORESHEET_CACHE_DIR", cache)
        .args(args)
        .output()
        .expect("run scoresheet");
    Run {
        out: String::from_utf8(out.stdout).expect("UTF-8"),
        err: String::from_utf8(out.stderr).expect("UTF-8"),
        code: out.status.code().unwrap_or(-1),
    }
}

/// A copy of the fixture in a fresh directory, with a cache directory of its own.
fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = dir.path().join("games").join("search_games.pgn");
    std::fs::create_dir_all(pgn.parent().expect("parent")).expect("mkdir");
    std::fs::copy(data_dirs::fixture("search_games.pgn"), &pgn).expect("copy");
    let cache = dir.path().join("cache");
    (dir, pgn, cache)
}

/// (game number, ply) of each result line.
fn found(out: &str) -> Vec<(u64, u32)> {
    out.lines()
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (
                cols[0].parse().expect("number"),
                cols[cols.len() - 1].parse().expect("ply"),
            )
        })
        .collect()
}

#[test]
fn transpositions_are_found_at_their_own_ply_in_list_columns() {
    let (_dir, pgn, cache) = setup();
    let pgn = pgn.to_str().expect("path");
    let r = run(
        &cache,
        &["search", pgn, "--moves", "1. d4 Nf6 2. c4 e6 3. Nc3"],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(found(&r.out), [(1, 5), (2, 5), (4, 5)]);
    // list's columns: number, White, Black, result, date, event, ECO, plies; then the ply.
    assert_eq!(
        r.out.lines().next(),
        Some("1\tQueen Pawn\tNimzo\t1-0\t2001.03.04\tSearch fixture\t?\t8\t5")
    );
    assert!(
        r.err.contains("3 of 8 games reach the position"),
        "{}",
        r.err
    );
    // The same through a FEN, whose counters do not matter.
    let fen = "rnbqkb1r/pppp1ppp/4pn2/8/2PP4/2N5/PP2PPPP/R1BQKBNR b KQkq - 7 40";
    let r = run(&cache, &["search", pgn, "--fen", fen]);
    assert_eq!(found(&r.out), [(1, 5), (2, 5), (4, 5)]);
}

#[test]
fn the_tree_counts_each_move_with_results_ratings_and_years() {
    let (_dir, pgn, cache) = setup();
    let pgn = pgn.to_str().expect("path");
    let r = run(
        &cache,
        &["tree", pgn, "--moves", "1. d4 Nf6 2. c4 e6 3. Nc3"],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        r.out,
        "Bb4\t2\t1\t1\t0\t2367\t2005\n\
         d5\t1\t0\t0\t1\t?\t2010\n"
    );
    let r = run(&cache, &["tree", pgn, "--moves", ""]);
    assert_eq!(r.out.lines().next(), Some("d4\t2\t1\t0\t1\t2300\t2010"));
    // A game that ends at the position played no move there: no line, and the summary
    // says so (read through, then from the index).
    let end = "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. Qc2 O-O";
    for _ in 0..2 {
        let r = run(&cache, &["tree", pgn, "--moves", end]);
        assert_eq!((r.code, r.out.as_str()), (0, ""), "{}", r.err);
        assert!(
            r.err.contains("1 of 8 games reaches the position")
                && r.err.contains(
                    "scoresheet tree: 1 game ends at the position (no move played there)"
                ),
            "{}",
            r.err
        );
        wait_for_the_index(&cache, pgn);
    }
}

#[test]
fn en_passant_counts_only_when_the_capture_is_legal() {
    let (_dir, pgn, cache) = setup();
    let pgn = pgn.to_str().expect("path");
    // exd6 is legal after ...d7-d5: not the same position as after ...d6-d5.
    let r = run(
        &cache,
        &["search", pgn, "--fen", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"],
    );
    assert_eq!(found(&r.out), [(5, 1)]);
    let r = run(
        &cache,
        &["search", pgn, "--fen", "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2"],
    );
    assert_eq!(found(&r.out), [(6, 1)]);
    // With the king on a5 and a rook on h5, exd6 would leave the king in check: the
    // double step gives the same position as the single one, whichever FEN asks.
    for fen in [
        "4k3/8/8/K2pP2r/8/8/8/8 w - - 0 2",
        "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2",
    ] {
        let r = run(&cache, &["search", pgn, "--fen", fen]);
        assert_eq!(found(&r.out), [(7, 1), (8, 1)], "{fen}");
    }
}

#[test]
fn variations_are_searched_only_when_asked() {
    let (_dir, pgn, cache) = setup();
    let pgn = pgn.to_str().expect("path");
    let moves = "1. e4 c5 2. Nf3";
    let r = run(&cache, &["search", pgn, "--moves", moves]);
    assert_eq!(found(&r.out), []);
    let r = run(&cache, &["search", pgn, "--moves", moves, "--variations"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(found(&r.out), [(3, 3)]);
}

#[test]
fn standard_input_and_several_files() {
    let (_dir, pgn, cache) = setup();
    let text = std::fs::read(&pgn).expect("read");
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .env("SCORESHEET_CACHE_DIR", &cache)
        .args(["search", "-", "--moves", "1. c4 e6"])
        .write_stdin(text)
        .output()
        .expect("run");
    assert_eq!(found(&String::from_utf8_lossy(&out.stdout)), [(2, 2)]);
    let pgn = pgn.to_str().expect("path");
    let r = run(&cache, &["search", pgn, pgn, "--moves", "1. c4 e6"]);
    // With several files, each line starts with its file.
    assert_eq!(r.out.lines().count(), 2);
    assert!(
        r.out.lines().all(|l| l.starts_with(&format!("{pgn}\t2\t"))),
        "{}",
        r.out
    );
}

/// A named pipe (`mkfifo`, or `<(…)` in a shell) is read once, as standard input is,
/// and never indexed: looking into it first ate its first bytes, and the search then
/// hung or read a game that is not in the file.
#[cfg(unix)]
#[test]
fn a_named_pipe_is_read_like_standard_input() {
    let (dir, pgn, cache) = setup();
    let fifo = dir.path().join("pipe.pgn");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let text = std::fs::read(&pgn).expect("read");
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, text).expect("write the pipe"))
    };
    let r = run(
        &cache,
        &[
            "search",
            fifo.to_str().expect("path"),
            "--moves",
            "1. c4 e6",
        ],
    );
    writer.join().expect("the writer");
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(found(&r.out), [(2, 2)], "{}", r.err);
    assert!(indexes(&cache).is_empty(), "a pipe is not indexed");
}

/// The index files in the cache.
fn indexes(cache: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(cache.join("index")) {
        Ok(dir) => dir
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "idx"))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Waits for the background build of `path`'s index to end: until a search answers from
/// the index (at most a minute; the files here take milliseconds).
fn wait_for_the_index(cache: &Path, path: &str) {
    let started = std::time::Instant::now();
    while !run(cache, &["search", path, "--moves", ""])
        .err
        .contains("from the index")
    {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "no index was built in the background within a minute"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

const BACKGROUND: &str = "its index is being built in the background";

#[test]
fn the_first_search_reads_the_file_and_indexes_it_in_the_background_for_the_next() {
    let (_dir, pgn, cache) = setup();
    let path = pgn.to_str().expect("path");
    let args = ["search", path, "--moves", "1. d4 Nf6"];
    let r = run(&cache, &args);
    assert_eq!(found(&r.out), [(1, 2), (4, 2)]);
    assert!(
        r.err.contains("read through") && r.err.contains(BACKGROUND),
        "{}",
        r.err
    );
    wait_for_the_index(&cache, path);
    assert_eq!(indexes(&cache).len(), 1);
    // Nothing was written beside the user's file.
    let beside: Vec<_> = std::fs::read_dir(pgn.parent().expect("dir"))
        .expect("list")
        .collect();
    assert_eq!(beside.len(), 1);
    let r = run(&cache, &args);
    assert!(r.err.contains("from the index"), "{}", r.err);
    assert_eq!(found(&r.out), [(1, 2), (4, 2)]);
    // A game added: the file's size and time change, the index no longer fits: the file
    // is read through again (finding the new game) and indexed anew.
    let mut text = std::fs::read_to_string(&pgn).expect("read");
    text.push_str("\n[Event \"Added\"]\n[Result \"*\"]\n\n1. d4 Nf6 *\n");
    std::fs::write(&pgn, text).expect("write");
    let r = run(&cache, &args);
    assert!(r.err.contains(BACKGROUND), "{}", r.err);
    assert_eq!(found(&r.out), [(1, 2), (4, 2), (9, 2)]);
    wait_for_the_index(&cache, path);
    let r = run(&cache, &args);
    assert!(r.err.contains("from the index"), "{}", r.err);
    assert_eq!(found(&r.out), [(1, 2), (4, 2), (9, 2)]);
    assert_eq!(indexes(&cache).len(), 1, "the old index is replaced");
}

#[test]
fn the_index_command_builds_it_now_and_says_what_it_did() {
    let (dir, pgn, cache) = setup();
    let path = pgn.to_str().expect("path");
    let r = run(&cache, &["index", path]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        r.err,
        format!("scoresheet index: {path}: 8 games, indexed\n")
    );
    assert_eq!(indexes(&cache).len(), 1);
    let r = run(&cache, &["index", path]);
    assert_eq!(
        r.err,
        format!("scoresheet index: {path}: 8 games, already indexed\n")
    );
    let r = run(&cache, &["search", path, "--moves", "1. d4 Nf6"]);
    assert!(r.err.contains("from the index"), "{}", r.err);
    // A file with problems: they are reported as check reports them, exit 1.
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "[White \"X\"]\n[Black \"Y\"]\n\n1. e4 e5 2. Ke3 *\n").expect("write");
    let bad = bad.to_str().expect("path");
    let r = run(&cache, &["index", bad]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains(&format!("{bad}:4:")) && r.err.contains("\"Ke3\""),
        "{}",
        r.err
    );
    assert!(
        r.err.contains("1 game, 1 with errors, indexed"),
        "{}",
        r.err
    );
    // What has no index is refused, with why.
    let gz = dir.path().join("games.pgn.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, &std::fs::read(&pgn).expect("read")).expect("gzip");
    std::fs::write(&gz, enc.finish().expect("gzip")).expect("write");
    let r = run(
        &cache,
        &["index", gz.to_str().expect("path"), "/no/such.pgn"],
    );
    assert_eq!(r.code, 2);
    assert!(r.err.contains("not compressed"), "{}", r.err);
    assert!(r.err.contains("cannot index /no/such.pgn"), "{}", r.err);
}

#[test]
fn with_a_cache_that_cannot_be_written_the_search_says_so_and_answers() {
    let (dir, pgn, _cache) = setup();
    // A file where the cache directory would be: nothing can be made inside it.
    let cache = dir.path().join("not-a-dir");
    std::fs::write(&cache, "").expect("write");
    let path = pgn.to_str().expect("path");
    let r = run(&cache, &["search", path, "--moves", "1. d4 Nf6"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(found(&r.out), [(1, 2), (4, 2)]);
    assert!(r.err.contains("no index can be kept in"), "{}", r.err);
}

#[test]
fn an_index_that_cannot_be_kept_is_said_once_not_built_again_at_every_search() {
    let (_dir, pgn, cache) = setup();
    let path = pgn.to_str().expect("path");
    // Where the index goes, a directory: the index can be built but not stored.
    let index = scoresheet::study::index::cache::Stamp::of_in(&pgn, &cache.join("index"))
        .expect("a stamp")
        .index_file();
    std::fs::create_dir_all(&index).expect("mkdir");
    // A search starts the build in the background once; when it has failed, searches say
    // why instead of starting it again.
    let args = ["search", path, "--moves", "1. d4 Nf6"];
    let r = run(&cache, &args);
    assert!(r.err.contains(BACKGROUND), "{}", r.err);
    let started = std::time::Instant::now();
    let failed = loop {
        let r = run(&cache, &args);
        assert_eq!(found(&r.out), [(1, 2), (4, 2)]);
        if r.err.contains("indexing it failed") {
            break r.err;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "{}",
            r.err
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(failed.contains("could not be stored"), "{failed}");
    assert!(
        failed.contains("`scoresheet index` tries again"),
        "{failed}"
    );
    // `index` tries again, says why it fails, and so do the searches after it.
    let r = run(&cache, &["index", path]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.err.contains("could not be stored"), "{}", r.err);
    assert!(r.err.contains("built but not kept"), "{}", r.err);
    let r = run(&cache, &args);
    assert!(r.err.contains("indexing it failed"), "{}", r.err);
    // Once the cache can hold it, `index` builds it and searches use it.
    std::fs::remove_dir(&index).expect("rmdir");
    let r = run(&cache, &["index", path]);
    assert_eq!(r.code, 0, "{}", r.err);
    let r = run(&cache, &args);
    assert!(r.err.contains("from the index"), "{}", r.err);
}

#[test]
fn one_search_over_several_files_indexes_each_of_them() {
    let (dir, pgn, cache) = setup();
    let other = dir.path().join("games").join("other.pgn");
    std::fs::copy(&pgn, &other).expect("copy");
    let (a, b) = (pgn.to_str().expect("path"), other.to_str().expect("path"));
    let r = run(&cache, &["search", a, b, "--moves", "1. d4 Nf6"]);
    assert_eq!(r.err.matches(BACKGROUND).count(), 2, "{}", r.err);
    wait_for_the_index(&cache, a);
    wait_for_the_index(&cache, b);
    assert_eq!(indexes(&cache).len(), 2);
}

#[test]
fn a_damaged_index_is_rebuilt_not_trusted() {
    let (_dir, pgn, cache) = setup();
    let path = pgn.to_str().expect("path");
    let args = ["search", path, "--moves", "1. d4 Nf6 2. c4 e6 3. Nc3"];
    run(&cache, &["index", path]);
    let index = indexes(&cache).pop().expect("an index");
    // One byte changed in the middle (where the moves and entries are).
    let mut bytes = std::fs::read(&index).expect("read index");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(&index, &bytes).expect("write index");
    let r = run(&cache, &args);
    assert!(r.err.contains("damaged"), "{}", r.err);
    assert_eq!(found(&r.out), [(1, 5), (2, 5), (4, 5)]);
    wait_for_the_index(&cache, path);
    let r = run(&cache, &args);
    assert!(r.err.contains("from the index"), "{}", r.err);
    // Cut short.
    let bytes = std::fs::read(&index).expect("read index");
    std::fs::write(&index, &bytes[..bytes.len() - 3]).expect("write index");
    let r = run(&cache, &args);
    assert!(r.err.contains("damaged"), "{}", r.err);
    assert_eq!(found(&r.out), [(1, 5), (2, 5), (4, 5)]);
    wait_for_the_index(&cache, path);
    let r = run(&cache, &args);
    assert!(r.err.contains("from the index"), "{}", r.err);
}

/// A search reads each game only as far as its answer needs: the problems it meets on the
/// way are reported as `check` reports them, those further on are left to `check`, and
/// neither changes the answer or its exit code.
#[test]
fn problems_met_are_reported_as_check_reports_them_and_the_answer_stands() {
    let (dir, _pgn, cache) = setup();
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "[White \"X\"]\n[Black \"Y\"]\n\n1. e4 e5 2. Ke3 *\n").expect("write");
    let bad = bad.to_str().expect("path");
    // Looking for 1. e4 e5: the game is read up to the move played there, Ke3.
    let r = run(&cache, &["search", bad, "--moves", "1. e4 e5"]);
    assert_eq!(r.code, 0, "answered: {}", r.err);
    assert!(
        r.err
            .contains("1 of 1 game reaches the position, 1 with errors met"),
        "{}",
        r.err
    );
    assert!(
        r.err
            .contains(&format!("{bad}:4:13: game 1 (X - Y): \"Ke3\"")),
        "{}",
        r.err
    );
    assert_eq!(found(&r.out), [(1, 2)]);
    // Looking for 1. e4: the game is left once 1... e5, the move played there, is known.
    // (From the index, if its background build is done, the summary counts the file's
    // games with errors.)
    let r = run(&cache, &["search", bad, "--moves", "1. e4"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!r.err.contains("\"Ke3\""), "{}", r.err);
    assert_eq!(found(&r.out), [(1, 1)]);
    let c = run(&cache, &["check", bad]);
    assert_eq!(c.code, 1, "check reads every move");
    assert!(
        c.out.contains("\"Ke3\"") || c.err.contains("\"Ke3\""),
        "{} {}",
        c.out,
        c.err
    );
    let r = run(&cache, &["search", "/no/such/file.pgn", "--moves", "1. e4"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("cannot read /no/such/file.pgn"), "{}", r.err);
    let r = run(&cache, &["search", bad, "--moves", "1. e4 e5 2. Nf9"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("column 13") && r.err.contains("Nf9"),
        "{}",
        r.err
    );
    let r = run(&cache, &["tree", bad, "--fen", "not a fen"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("--fen"), "{}", r.err);
}

#[test]
fn compressed_files_are_read_like_the_others() {
    let (dir, pgn, cache) = setup();
    let gz = dir.path().join("games.pgn.gz");
    let text = std::fs::read(&pgn).expect("read");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, &text).expect("gzip");
    std::fs::write(&gz, enc.finish().expect("gzip")).expect("write");
    let r = run(
        &cache,
        &["search", gz.to_str().expect("path"), "--moves", "1. c4 e6"],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(found(&r.out), [(2, 2)]);
}

#[test]
fn an_index_of_an_older_version_is_rebuilt_without_a_word() {
    let (_dir, pgn, cache) = setup();
    let path = pgn.to_str().expect("path");
    let args = ["search", path, "--moves", "1. d4 Nf6"];
    run(&cache, &["index", path]);
    let want = run(&cache, &args).out;
    let index = indexes(&cache).pop().expect("an index");
    // The version field (after the eight bytes of magic) of the layout before this one
    // (whose game records were shorter: read as this one, every game would be misread).
    let mut bytes = std::fs::read(&index).expect("read index");
    let older = scoresheet::study::index::format::VERSION - 1;
    bytes[8..12].copy_from_slice(&older.to_le_bytes());
    std::fs::write(&index, &bytes).expect("write index");
    let r = run(&cache, &args);
    assert!(r.err.contains(BACKGROUND), "{}", r.err);
    assert!(!r.err.contains("damaged"), "{}", r.err);
    assert_eq!(found(&r.out), [(1, 2), (4, 2)]);
    assert_eq!(r.out, want);
    wait_for_the_index(&cache, path);
    let r = run(&cache, &args);
    assert!(r.err.contains("from the index"), "{}", r.err);
    assert_eq!(r.out, want);
}

/// A file of 2,200 games on four lines (results, ratings and years vary): two share their
/// first six plies, so that the positions on the way are reached by more games than an
/// index replays (they are "hot": answered from rows kept ready); one reaches one of
/// those positions again at ply 20, after knights out and back.
fn many_games(dir: &Path) -> PathBuf {
    let lines = [
        "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3 Bxc3+ Qxc3 b6 Bg5 Bb7 f3 h6 Bh4 d5 e3 Nbd7",
        "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 Nf3 c5 O-O Nc6 a3 Bxc3 bxc3 dxc4 Bxc4 Qc7",
        "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O O-O-O Nbd7",
        "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 d4 Nf6 c4 e6 Nc3",
    ];
    let results = ["1-0", "0-1", "1/2-1/2", "*"];
    let mut text = String::new();
    for i in 0..2200usize {
        let moves: Vec<&str> = lines[i % 4].split(' ').collect();
        // Games end at different plies, some of them inside the hot plies.
        let plies = moves.len() - (i / 4) % 15;
        let result = results[(i / 4) % 4];
        text.push_str(&format!(
            "[Event \"Many\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"{result}\"]\n\
             [Date \"{}.01.01\"]\n[WhiteElo \"{}\"]\n\n",
            1990 + i % 30,
            2000 + i % 500
        ));
        for (k, mv) in moves[..plies].iter().enumerate() {
            if k % 2 == 0 {
                text.push_str(&format!("{}. ", k / 2 + 1));
            }
            text.push_str(mv);
            text.push(' ');
        }
        text.push_str(result);
        text.push_str("\n\n");
    }
    let pgn = dir.join("many.pgn");
    std::fs::write(&pgn, text).expect("write");
    pgn
}

/// Runs scoresheet with `args` and the file on standard input (read through, no index).
fn run_stdin(cache: &Path, args: &[&str], input: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .env("SCORESHEET_CACHE_DIR", cache)
        .args(args)
        .write_stdin(std::fs::read(input).expect("read"))
        .output()
        .expect("run");
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn positions_many_games_reach_are_answered_as_reading_the_file_through() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = many_games(dir.path());
    let cache = dir.path().join("cache");
    let path = pgn.to_str().expect("path");
    assert_eq!(run(&cache, &["index", path]).code, 0);
    for moves in [
        "",
        "1. d4",
        "1. d4 Nf6 2. c4 e6",
        "1. d4 Nf6 2. c4 e6 3. Nc3",
        "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O",
        "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6",
    ] {
        for command in ["search", "tree"] {
            let indexed = run(&cache, &[command, path, "--moves", moves]);
            assert_eq!(indexed.code, 0, "{}", indexed.err);
            assert!(indexed.err.contains("from the index"), "{}", indexed.err);
            let through = run_stdin(&cache, &[command, "-", "--moves", moves], &pgn);
            assert!(!through.is_empty(), "{command} {moves}");
            assert_eq!(indexed.out, through, "{command} \"{moves}\"");
        }
    }
    // The knights' games reach 1. d4 Nf6 2. c4 e6 at ply 20, the others at ply 4.
    let r = run(&cache, &["search", path, "--moves", "1. d4 Nf6 2. c4 e6"]);
    let plies: Vec<u32> = found(&r.out).iter().map(|f| f.1).collect();
    let knights = (0..2200usize)
        .filter(|i| i % 4 == 3 && 21 - (i / 4) % 15 >= 20)
        .count();
    assert!(knights > 0);
    assert_eq!(plies.iter().filter(|p| **p == 20).count(), knights);
    assert_eq!(plies.iter().filter(|p| **p == 4).count(), 1100);
}

#[test]
fn a_damage_found_while_answering_rebuilds_the_index() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = many_games(dir.path());
    let cache = dir.path().join("cache");
    let path = pgn.to_str().expect("path");
    // The position after the Najdorf line's 20 plies: the last games of the file reach it.
    let najdorf = "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 \
                   8. f3 Be7 9. Qd2 O-O 10. O-O-O Nbd7";
    let args = ["search", path, "--moves", najdorf];
    run(&cache, &["index", path]);
    let before = run(&cache, &args);
    assert!(before.err.contains("from the index"), "{}", before.err);
    assert!(!found(&before.out).is_empty());
    // The last byte lies in the columns the result lines show: a block that opening the
    // index does not read, and that this search does.
    let index = indexes(&cache).pop().expect("an index");
    let mut bytes = std::fs::read(&index).expect("read index");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x5a;
    std::fs::write(&index, &bytes).expect("write index");
    let r = run(&cache, &args);
    assert!(r.err.contains("damaged"), "{}", r.err);
    assert_eq!(r.out, before.out);
    let r = run(&cache, &args);
    assert!(r.err.contains("from the index"), "{}", r.err);
    assert_eq!(r.out, before.out);
}

/// The lines a search prints from the index are those it prints reading the file through
/// (as the first search does, and as standard input is read), whatever the tags hold:
/// accents, an escaped quote, a tab and an escape character (shown escaped, as `list`
/// shows them), empty and missing tags, a duplicated tag, a game without tags.
#[test]
fn lines_from_the_index_are_those_read_from_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = dir.path().join("cache");
    let pgn = dir.path().join("tags.pgn");
    let games = [
        "[Event \"Ståhlberg mem.\"]\n[White \"Ståhlberg, Gideon\"]\n[Black \"O\\\"Kelly\"]\n\
         [Result \"1-0\"]\n[Date \"1950.??.??\"]\n[ECO \"B90\"]\n\n1. e4 c5 1-0",
        "[Event \"Tab\there\"]\n[White \"Esc \u{1b}[31mred\"]\n[Black \"\"]\n[Result \"*\"]\n\n\
         1. e4 c5 2. Nf3 *",
        "[White \"First\"]\n[White \"Second\"]\n[Black \"B\"]\n\n1. e4 c5 0-1",
        "1. e4 c5 1/2-1/2",
        "[Event \"?\"]\n[White \"?\"]\n[Black \"Z\"]\n[Result \"0-1\"]\n[Date \"2024.01.02\"]\n\n1. d4 0-1",
    ];
    std::fs::write(&pgn, games.join("\n\n") + "\n").expect("write");
    let path = pgn.to_str().expect("path");
    let args = ["search", path, "--moves", "1. e4 c5"];
    let first = run(&cache, &args);
    assert!(first.err.contains("read through"), "{}", first.err);
    assert_eq!(run(&cache, &["index", path]).code, 0);
    let indexed = run(&cache, &args);
    assert!(indexed.err.contains("from the index"), "{}", indexed.err);
    let through = run_stdin(&cache, &["search", "-", "--moves", "1. e4 c5"], &pgn);
    assert_eq!(indexed.out, first.out);
    assert_eq!(indexed.out, through);
    let lines: Vec<&str> = indexed.out.lines().collect();
    assert_eq!(lines.len(), 4, "{}", indexed.out);
    assert_eq!(
        lines[0],
        "1\tStåhlberg, Gideon\tO\"Kelly\t1-0\t1950.??.??\tStåhlberg mem.\tB90\t2\t2"
    );
    assert!(
        lines[1].starts_with("2\tEsc \\u{1b}[31mred\t?\t*\t?\tTab"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[3], "4\t?\t?\t?\t?\t?\t?\t2\t2");
}

/// A first search keeps, of each chunk of the file, only the games it finds and those with
/// problems: every problem it meets must still be reported, at its own line and number,
/// whether the game is found or not, on one thread or several.
#[test]
fn problems_of_games_found_or_not_are_reported_at_their_place_on_any_number_of_threads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut text = String::new();
    let mut expected = Vec::new();
    for i in 1..=300usize {
        // Every 7th game has an illegal move where the search meets it: one in three of
        // those opens 1. e4 Nf6 (found, the illegal move is the one played there), the
        // others start with it (not found).
        let (first, second, column) = match (i % 3, i % 7) {
            (0, 0) => ("e4", "Ke3", Some(14)),
            (_, 0) => ("Ke3", "Nf3", Some(4)),
            (0, _) => ("e4", "Nf3", None),
            _ => ("d4", "Nf3", None),
        };
        let line = text.lines().count() + 4;
        text.push_str(&format!(
            "[White \"W{i}\"]\n[Black \"B{i}\"]\n\n1. {first} Nf6 2. {second} *\n\n"
        ));
        if let Some(column) = column {
            expected.push(format!(":{line}:{column}: game {i} (W{i} - B{i}): \"Ke3\""));
        }
    }
    let pgn = dir.path().join("mixed.pgn");
    std::fs::write(&pgn, &text).expect("write");
    let path = pgn.to_str().expect("path");
    let mut runs = Vec::new();
    for jobs in [["--jobs", "1"], ["--jobs", "2"]] {
        // A fresh cache each time: every run reads the file through.
        let cache = dir.path().join(format!("cache{}", jobs[1]));
        let args = [
            "search",
            path,
            "--moves",
            "1. e4 Nf6",
            jobs[0],
            jobs[1],
            "--chunk",
            "700",
        ];
        let r = run(&cache, &args);
        assert_eq!(r.code, 0, "{}", r.err);
        let problems: Vec<&str> = r.err.lines().filter(|l| l.contains("\"Ke3\"")).collect();
        assert_eq!(problems.len(), expected.len(), "{}", r.err);
        for (got, want) in problems.iter().zip(&expected) {
            assert!(got.contains(want), "{got} / {want}");
        }
        assert!(
            r.err.contains(&format!(
                "100 of 300 games reach the position, {} with errors met",
                expected.len()
            )),
            "{}",
            r.err
        );
        let numbers: Vec<u64> = found(&r.out).iter().map(|f| f.0).collect();
        assert_eq!(numbers, (1..=100).map(|k| 3 * k).collect::<Vec<u64>>());
        runs.push((r.out, problems.join("\n")));
    }
    assert_eq!(runs[0], runs[1]);
}

/// A search writes its lines as it finds the games: when the reader of its output has gone
/// (`| head`), the file is still read through and its index built in the background, as
/// when the lines were all written at the end.
#[test]
fn a_reader_of_the_output_gone_still_leaves_the_index_built_for_the_next_search() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = many_games(dir.path());
    let cache = dir.path().join("cache");
    let path = pgn.to_str().expect("path");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .env("SCORESHEET_CACHE_DIR", &cache)
        .args(["search", path, "--moves", ""])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    // Gone before the first line: every write fails.
    drop(child.stdout.take());
    child.wait().expect("wait");
    let started = std::time::Instant::now();
    while indexes(&cache).is_empty() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "no index was built in the background within a minute"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The games of [`search_lines_are_lists_lines_plus_the_ply`]: all but the second reach
/// the position after `1. e4 e5`; the third has an illegal move (12 plies written, 8
/// played), the fourth a stray brace (6 written, 3 read), the fifth an en-passant mark
/// written as a word of its own (not a move), the sixth an illegal move right at the
/// position.
const STOPPED: &str =
    "[White \"Whole\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n\
     [White \"Elsewhere\"]\n\n1. d4 d5 2. c4 *\n\n\
     [White \"Illegal\"]\n[Result \"0-1\"]\n\n\
     1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. Ke3 Be7 6. Re1 b5 0-1\n\n\
     [White \"Brace\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 } Nc6 3. Bb5 a6 1/2-1/2\n\n\
     [White \"Mark\"]\n\n1. e4 e5 2. d4 exd4 3. c4 dxc3 e.p. 4. Nxc3 *\n\n\
     [White \"At once\"]\n\n1. e4 e5 2. Ng5 Nc6 3. Bc4 *\n";

/// `search` prints `list`'s line of each game it finds, column for column, plus the ply:
/// the plies as written, also for a game that an illegal move or a lexical error stopped
/// (not as far as it could be played), whether the file is read through (on one thread
/// or several, or from standard input) or answered from its index; and the tree of the
/// position is the same both ways.
#[test]
fn search_lines_are_lists_lines_plus_the_ply() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = dir.path().join("stopped.pgn");
    std::fs::write(&pgn, STOPPED).expect("write");
    let path = pgn.to_str().expect("path");
    let list = run(&dir.path().join("unused"), &["list", path]);
    let plies: Vec<&str> = list
        .out
        .lines()
        .map(|l| l.rsplit('\t').next().expect("plies"))
        .collect();
    assert_eq!(plies, ["6", "3", "12", "6", "7", "5"], "{}", list.out);
    let want: String = list
        .out
        .lines()
        .filter(|l| !l.contains("Elsewhere"))
        .map(|l| format!("{l}\t2\n"))
        .collect();
    let moves = ["--moves", "1. e4 e5"];
    for (i, jobs) in [["--jobs", "1"], ["--jobs", "2"]].iter().enumerate() {
        // A fresh cache each time: the file is read through.
        let cache = dir.path().join(format!("fresh{i}"));
        let args = [
            "search", path, moves[0], moves[1], jobs[0], jobs[1], "--chunk", "90",
        ];
        let r = run(&cache, &args);
        assert!(r.err.contains("read through"), "{}", r.err);
        assert_eq!(r.out, want, "read through, {jobs:?}");
    }
    let cache = dir.path().join("cache");
    let through = run_stdin(&cache, &["search", "-", moves[0], moves[1]], &pgn);
    assert_eq!(through, want, "standard input");
    assert_eq!(run(&cache, &["index", path]).code, 1, "games with errors");
    let indexed = run(&cache, &["search", path, moves[0], moves[1]]);
    assert!(indexed.err.contains("from the index"), "{}", indexed.err);
    assert_eq!(indexed.out, want, "from the index");
    // The tree counts the moves played there: an illegal one is no move (that game
    // ends there).
    let tree = run(&cache, &["tree", path, moves[0], moves[1]]);
    assert!(tree.err.contains("from the index"), "{}", tree.err);
    let tree_through = run_stdin(&cache, &["tree", "-", moves[0], moves[1]], &pgn);
    assert_eq!(tree.out, tree_through);
    assert_eq!(tree.out, "Nf3\t3\t1\t1\t1\t?\t?\nd4\t1\t0\t0\t0\t?\t?\n");
}

/// `--input-lang` reads the piece letters of `--moves` as it reads the files': a German
/// file searched with German moves; without it, the German move is refused, and the
/// language that reads it is named.
#[test]
fn moves_are_read_in_the_input_language() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = dir.path().join("de.pgn");
    std::fs::write(&pgn, "[Event \"x\"]\n\n1. Sf3 d5 2. g3 Lg4 *\n").expect("write");
    let cache = dir.path().join("cache");
    let pgn = pgn.to_str().expect("UTF-8 path");
    let r = run(
        &cache,
        &["search", pgn, "--moves", "1. Sf3 d5", "--input-lang", "de"],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(found(&r.out), [(1, 2)], "{}", r.out);
    let r = run(
        &cache,
        &["tree", pgn, "--moves", "1. Sf3 d5", "--input-lang", "de"],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.starts_with("g3\t1\t"), "{}", r.out);
    let r = run(&cache, &["search", pgn, "--moves", "1. Sf3"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("try --input-lang de"), "{}", r.err);
}
