//! Learning from your mistakes in games that have no evaluations: the engine finds
//! them (the scripted stand-in, deterministic; the real stockfish when installed),
//! its analysis is kept in the cache so the next drill asks it nothing, a cancel
//! keeps nothing half done, an engine that is missing or dies is said; and in the
//! real binary, a file with no evaluations gives a drill whose answer is scored and
//! goes into the deck.

mod pty;
mod uci_standin;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use pty::{keys, Term};
use scoresheet::app::Done;
use scoresheet::engine::EngineConfig;
use scoresheet::study::train::analyse::Progress;
use scoresheet::study::train::cache::Cache;
use scoresheet::study::train::deck::Deck;
use scoresheet::tui::train::{gather_with, Request};
use uci_standin::StandIn;

/// A game of mine (Black) without a single evaluation: 3...Nf6?? walks into mate.
const MINE: &str = "[Event \"Club\"]\n[Date \"2026.11.01\"]\n[White \"Them\"]\n[Black \"Me\"]\n\
    [Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";

/// An engine that knows the game's positions (see [`knowing`]), written in `dir`.
fn engine(dir: &Path) -> PathBuf {
    knowing().write(dir)
}

/// An engine that knows the game's positions: scores from the side to move, as UCI
/// gives them; at 3.Qh5 it defends with 3...g6.
fn knowing() -> StandIn {
    let line = |moves: &str| {
        if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {moves}")
        }
    };
    let table = [
        ("", "info depth 12 score cp 30 pv e2e4", "e2e4"),
        ("e2e4", "info depth 12 score cp -30 pv e7e5", "e7e5"),
        ("e2e4 e7e5", "info depth 12 score cp 30 pv f1c4", "f1c4"),
        (
            "e2e4 e7e5 f1c4",
            "info depth 12 score cp -30 pv b8c6",
            "b8c6",
        ),
        (
            "e2e4 e7e5 f1c4 b8c6",
            "info depth 12 score cp 40 pv d1h5",
            "d1h5",
        ),
        (
            "e2e4 e7e5 f1c4 b8c6 d1h5",
            "info depth 12 score cp -40 pv g7g6 h5f3",
            "g7g6",
        ),
        (
            "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6",
            "info depth 12 score mate 1 pv h5f7",
            "h5f7",
        ),
    ];
    table.iter().fold(StandIn::new(), |s, (moves, info, best)| {
        s.on(&line(moves), &[info], best)
    })
}

/// How many searches the stand-in in `dir` was asked for.
fn searches(dir: &Path) -> usize {
    uci_standin::received(dir)
        .lines()
        .filter(|l| l.starts_with("go"))
        .count()
}

fn request(file: &Path, engine: Option<&Path>) -> Request {
    Request {
        file: Some(file.to_path_buf()),
        name: "Me".into(),
        last: None,
        engine: engine.map(|p| EngineConfig {
            path: p.to_path_buf(),
            ..EngineConfig::default()
        }),
    }
}

/// Gathers a drill, with what the progress said.
fn gather(dir: &Path, request: &Request, cancel_at_first: bool) -> (Option<Done>, Vec<Progress>) {
    let heard = Mutex::new(Vec::new());
    let cancel = AtomicBool::new(false);
    let done = gather_with(
        &dir.join("deck.json"),
        &Cache::at(dir.join("cache")),
        request,
        chrono::Utc::now(),
        &|done| {
            if let Done::Gathering(p) = done {
                heard.lock().unwrap().push(p);
                if cancel_at_first && p.positions_done > 0 {
                    cancel.store(true, Ordering::Relaxed);
                }
            }
        },
        &cancel,
    );
    (done, heard.into_inner().unwrap())
}

#[test]
fn the_engine_finds_the_mistake_and_the_second_drill_asks_it_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let program = engine(dir.path());
    let file = dir.path().join("mine.pgn");
    std::fs::write(&file, MINE).unwrap();
    let request = request(&file, Some(&program));
    let (done, heard) = gather(dir.path(), &request, false);
    let Some(Done::Drill {
        exercises, note, ..
    }) = done
    else {
        panic!("a drill: {done:?}")
    };
    assert_eq!(exercises.len(), 1, "{exercises:#?}");
    let e = &exercises[0];
    assert_eq!(e.played_san(), "Nf6");
    assert_eq!(e.best_san().as_deref(), Some("g6"));
    assert_eq!(e.source, "Them – Me, Club 2026.11.01, 3...Nf6");
    assert!(
        note.contains("1 analysed by the engine (0 kept from before)"),
        "{note}"
    );
    // The progress went from nothing to all: 8 positions (the last is a mate,
    // scored without asking).
    assert_eq!(heard.first().map(|p| p.positions_done), Some(0));
    let last = heard.last().copied().unwrap();
    assert_eq!(
        (
            last.games_done,
            last.games,
            last.positions_done,
            last.positions
        ),
        (1, 1, 8, 8)
    );
    assert_eq!(searches(dir.path()), 7);
    // The user's file is as it was: nothing written into it or beside it.
    assert_eq!(std::fs::read_to_string(&file).unwrap(), MINE);
    assert!(!dir.path().join("deck.json").exists());

    // Again: from the cache, without a search.
    let (done, heard) = gather(dir.path(), &request, false);
    let Some(Done::Drill {
        exercises: again,
        note,
        ..
    }) = done
    else {
        panic!("a drill: {done:?}")
    };
    assert_eq!(again, exercises);
    assert!(
        note.contains("1 analysed by the engine (1 kept from before)"),
        "{note}"
    );
    assert!(heard.is_empty(), "{heard:?}");
    assert_eq!(searches(dir.path()), 7);
}

#[test]
fn two_games_newest_first_and_the_same_mistake_once() {
    let dir = tempfile::tempdir().unwrap();
    let program = engine(dir.path());
    let file = dir.path().join("mine.pgn");
    // A later game where I fell for it again, unfinished.
    let again = "[Event \"Blitz\"]\n[Date \"2026.11.20\"]\n[White \"Them\"]\n[Black \"Me\"]\n\n\
        1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 *\n";
    std::fs::write(&file, format!("{MINE}\n{again}")).unwrap();
    let mut request = request(&file, Some(&program));
    let (done, _) = gather(dir.path(), &request, false);
    let Some(Done::Drill {
        exercises, note, ..
    }) = done
    else {
        panic!("a drill: {done:?}")
    };
    assert_eq!(exercises.len(), 1, "{exercises:#?}");
    // One exercise for both: the game the engines finished first (they work on the
    // two side by side) names it.
    assert!(
        [
            "Them – Me, Blitz 2026.11.20, 3...Nf6",
            "Them – Me, Club 2026.11.01, 3...Nf6"
        ]
        .contains(&exercises[0].source.as_str()),
        "{}",
        exercises[0].source
    );
    assert!(note.contains("your 2 games"), "{note}");
    assert!(note.contains("2 mistakes"), "{note}");
    assert!(note.contains("2 analysed by the engine"), "{note}");
    assert_eq!(searches(dir.path()), 7 + 7);
    // The newest one alone.
    request.last = Some(1);
    let (done, _) = gather(dir.path(), &request, false);
    let Some(Done::Drill { note, .. }) = done else {
        panic!("a drill: {done:?}")
    };
    assert!(note.contains("your last 1 of 2"), "{note}");
    assert!(
        note.contains("1 analysed by the engine (1 kept from before)"),
        "{note}"
    );
    assert_eq!(searches(dir.path()), 14);
}

#[test]
fn a_cancel_keeps_nothing_half_done_and_a_damaged_cache_is_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let program = engine(dir.path());
    let file = dir.path().join("mine.pgn");
    std::fs::write(&file, MINE).unwrap();
    let request = request(&file, Some(&program));
    let (done, _) = gather(dir.path(), &request, true);
    assert!(done.is_none(), "{done:?}");
    let cache = dir.path().join("cache");
    let entries = || {
        std::fs::read_dir(&cache)
            .map(|d| d.flatten().map(|e| e.path()).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    assert!(entries().is_empty(), "{:?}", entries());
    // Whole this time; then the entry is damaged: it is analysed again.
    let (done, _) = gather(dir.path(), &request, false);
    assert!(matches!(done, Some(Done::Drill { .. })), "{done:?}");
    assert_eq!(entries().len(), 1);
    let before = searches(dir.path());
    std::fs::write(&entries()[0], "{\"version\": 1, \"key\": ").unwrap();
    let (done, _) = gather(dir.path(), &request, false);
    let Some(Done::Drill { exercises, .. }) = done else {
        panic!("a drill: {done:?}")
    };
    assert_eq!(exercises[0].played_san(), "Nf6");
    assert_eq!(searches(dir.path()), before + 7);
    let (done, _) = gather(dir.path(), &request, false);
    assert!(matches!(done, Some(Done::Drill { .. })), "{done:?}");
    assert_eq!(searches(dir.path()), before + 7, "rebuilt, then used");
}

#[test]
fn no_engine_or_a_dying_one_is_said_and_nothing_hangs() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.pgn");
    std::fs::write(&file, MINE).unwrap();
    // No engine installed.
    let (done, _) = gather(dir.path(), &request(&file, None), false);
    let Some(Done::Notice { text, .. }) = done else {
        panic!("a notice: {done:?}")
    };
    assert!(
        text.contains(
            "1 game without [%eval] could not be analysed for want of an engine: install Stockfish"
        ),
        "{text}"
    );
    // An engine that dies on its third search.
    let dying = StandIn::new().die_after_go(3).write(dir.path());
    let (done, _) = gather(dir.path(), &request(&file, Some(&dying)), false);
    let Some(Done::Notice { text, .. }) = done else {
        panic!("a notice: {done:?}")
    };
    assert!(text.contains("the engine failed on 1 game ("), "{text}");
    assert!(
        text.contains("1 game without [%eval] not analysed"),
        "{text}"
    );
    // One that dies once, on two games: the game it died on is given up, a new engine
    // analyses the other, and the drill has its mistake.
    let two = dir.path().join("two.pgn");
    std::fs::write(
        &two,
        format!("{MINE}\n{}", MINE.replace("2026.11.01", "2026.11.02")),
    )
    .unwrap();
    let once_dir = dir.path().join("once");
    std::fs::create_dir(&once_dir).unwrap();
    let once = knowing().die_once_after_go(3).write(&once_dir);
    let (done, _) = gather(dir.path(), &request(&two, Some(&once)), false);
    let Some(Done::Drill {
        exercises, note, ..
    }) = done
    else {
        panic!("a drill: {done:?}")
    };
    assert_eq!(exercises.len(), 1, "{note}");
    assert_eq!(exercises[0].played, "g8f6");
    assert!(note.contains("1 analysed by the engine"), "{note}");
    assert!(note.contains("the engine failed on 1 game ("), "{note}");
    assert!(note.contains("a new one went on with the next"), "{note}");
    // A file with evaluations needs no engine at all.
    let annotated = dir.path().join("annotated.pgn");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/training_mine.pgn"),
        &annotated,
    )
    .unwrap();
    let (done, _) = gather(dir.path(), &request(&annotated, None), false);
    assert!(matches!(done, Some(Done::Drill { .. })), "{done:?}");
}

#[test]
fn a_file_without_evaluations_drilled_in_the_real_binary() {
    let dir = tempfile::tempdir().unwrap();
    let program = engine(dir.path());
    uci_standin::configure_me(dir.path(), &program);
    std::fs::write(dir.path().join("mine.pgn"), MINE).unwrap();
    let cache = dir.path().join("cache");
    let cache_env = [("SCORESHEET_CACHE_DIR", cache.to_str().unwrap())];
    let mut term = Term::spawn_with(dir.path(), &["train", "mine.pgn"], 100, 30, &cache_env);
    term.wait_for("exercise 1 of 1: Black to play");
    term.wait_for("Mistake 1 of 1 (new)");
    term.line("Nf6", "is the move played in the game");
    term.line("g6", "✓ g6: the best move known");
    term.send("\x1br");
    term.wait_for("drill done: 0 found, 1 missed of 1");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen());
    let deck = Deck::load(&dir.path().join("data/training/deck.json")).expect("the deck reads");
    assert_eq!(deck.entries.len(), 1);
    assert_eq!(deck.entries[0].exercise.played_san(), "Nf6");
    assert_eq!(deck.entries[0].card.reps, 1);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mine.pgn")).unwrap(),
        MINE
    );
    let asked = searches(dir.path());

    // Again, with `--last 1`: the analysis comes from the cache, and the exercise
    // tried is not new any more.
    let mut term = Term::spawn_with(
        dir.path(),
        &["train", "mine.pgn", "--last", "1"],
        100,
        30,
        &cache_env,
    );
    term.wait_for("nothing to drill: 0 exercises due");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    assert_eq!(searches(dir.path()), asked);
}

#[test]
fn esc_stops_a_search_for_mistakes_that_hangs() {
    let dir = tempfile::tempdir().unwrap();
    let program = StandIn::new().hang_on_go().write(dir.path());
    uci_standin::configure_me(dir.path(), &program);
    std::fs::write(dir.path().join("mine.pgn"), MINE).unwrap();
    let cache = dir.path().join("cache");
    let mut term = Term::spawn_with(
        dir.path(),
        &["train", "mine.pgn"],
        140,
        30,
        &[("SCORESHEET_CACHE_DIR", cache.to_str().unwrap())],
    );
    term.wait_for("finding your mistakes: 0 of 1 games ░░░░░░░░░░ 0%, 0 found (Esc stops");
    term.send(keys::ESC);
    term.wait_for("stopped looking for your mistakes");
    // The screen answers at once, and quits without waiting for the engine.
    term.line(":train stop", "not training");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen());
}

/// The real stockfish, when installed (under CI it must be).
fn stockfish() -> Option<PathBuf> {
    let found = scoresheet::engine::find_program("stockfish".as_ref());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none_or(|v| v.is_empty()),
            "stockfish is not installed, and CI must run the real-engine tests"
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: stockfish is not on PATH nor in /usr/games (install it to run this test)"
        );
    }
    found
}

#[test]
fn real_stockfish_finds_the_blunder() {
    let Some(program) = stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.pgn");
    std::fs::write(&file, MINE).unwrap();
    let (done, _) = gather(dir.path(), &request(&file, Some(&program)), false);
    let Some(Done::Drill { exercises, .. }) = done else {
        panic!("a drill: {done:?}")
    };
    // 3...Nf6?? is the one mistake of mine; any of Black's defences is the answer
    // (stockfish picks g6, Qe7 or Qf6).
    let nf6: Vec<_> = exercises
        .iter()
        .filter(|e| e.played_san() == "Nf6")
        .collect();
    assert_eq!(nf6.len(), 1, "{exercises:#?}");
    assert!(nf6[0].lost > 30.0, "{}", nf6[0].lost);
    let best = nf6[0].best_san().expect("a best move");
    assert!(["g6", "Qe7", "Qf6"].contains(&best.as_str()), "{best}");
}

#[test]
fn last_needs_a_file_and_a_count_above_zero() {
    let dir = tempfile::tempdir().unwrap();
    let out = pty::batch(dir.path())
        .args(["train", "--last", "5"])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("<FILE.pgn>"), "{stderr}");
    std::fs::write(dir.path().join("mine.pgn"), MINE).unwrap();
    let out = pty::batch(dir.path())
        .args(["train", "mine.pgn", "--last", "0"])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("\"0\": a number of games above 0, or all"),
        "{stderr}"
    );
}

#[test]
fn other_threads_or_hash_analyse_again_and_no_engine_uses_what_was_kept() {
    let dir = tempfile::tempdir().unwrap();
    let program = engine(dir.path());
    let file = dir.path().join("mine.pgn");
    std::fs::write(&file, MINE).unwrap();
    let with = |threads: Option<u32>, hash_mb: Option<u32>| Request {
        engine: Some(EngineConfig {
            path: program.clone(),
            threads,
            hash_mb,
            ..EngineConfig::default()
        }),
        ..request(&file, None)
    };
    let (done, _) = gather(dir.path(), &with(None, None), false);
    assert!(matches!(done, Some(Done::Drill { .. })), "{done:?}");
    assert_eq!(searches(dir.path()), 7);
    // The same engine on two threads, then with another hash: its answers may
    // differ, so the game is analysed again each time; then each is kept.
    for (threads, hash, asked) in [
        (Some(2), None, 14),
        (Some(2), Some(64), 21),
        (None, None, 21),
        (Some(2), None, 21),
        (Some(2), Some(64), 21),
    ] {
        let (done, _) = gather(dir.path(), &with(threads, hash), false);
        assert!(matches!(done, Some(Done::Drill { .. })), "{done:?}");
        assert_eq!(searches(dir.path()), asked, "{threads:?} {hash:?}");
    }
    assert!(uci_standin::received(dir.path()).contains("setoption name Threads value 2"));

    // Without an engine: the kept analysis still gives the exercise; a game never
    // analysed is counted as one that could not be, for want of an engine.
    let other = "[White \"Me\"]\n[Black \"Them\"]\n[Date \"2026.01.01\"]\n\n1. d4 d5 *\n";
    std::fs::write(&file, format!("{MINE}\n{other}")).unwrap();
    let (done, _) = gather(dir.path(), &request(&file, None), false);
    let Some(Done::Drill {
        exercises, note, ..
    }) = done
    else {
        panic!("a drill: {done:?}")
    };
    assert_eq!(exercises.len(), 1, "{exercises:#?}");
    assert_eq!(exercises[0].played_san(), "Nf6");
    assert_eq!(exercises[0].best_san().as_deref(), Some("g6"));
    assert!(
        note.contains("1 analysed by the engine (1 kept from before)"),
        "{note}"
    );
    assert!(
        note.contains("1 game without [%eval] could not be analysed for want of an engine"),
        "{note}"
    );
    assert_eq!(searches(dir.path()), 21, "no engine was asked");
}
