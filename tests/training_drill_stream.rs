//! The drill of your mistakes starts before the engine is through with your games:
//! with the scripted stand-in holding its searches of an older game until the test
//! lets go, the newest game's mistake is reported (and, in the real binary, on the
//! screen to be answered) while the engine is still at work; the older game's joins
//! the drill when the engine is through with it (with the end of its work, the last
//! game's mistakes being the last found).

mod pty;
mod uci_standin;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use pty::{keys, Term};
use scoresheet::app::Done;
use scoresheet::engine::EngineConfig;
use scoresheet::study::train::cache::Cache;
use scoresheet::tui::train::{gather_with, Request};
use uci_standin::StandIn;

/// The newest of my games (Black): 3...Nf6?? walks into mate; 3...g6 defends.
const NEWEST: &str = "[Event \"Club\"]\n[Date \"2026.11.20\"]\n[White \"Them\"]\n[Black \"Me\"]\n\
    [Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";

/// An older one (White): 2.g4?? allows mate; 2.Nc3 holds.
const OLDER: &str = "[Event \"Blitz\"]\n[Date \"2026.10.01\"]\n[White \"Me\"]\n[Black \"Them\"]\n\
    [Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";

/// The file that lets the stand-in's searches of the older game go on.
fn gate(dir: &Path) -> PathBuf {
    dir.join("go-on")
}

/// An engine that knows both games' positions (scores from the side to move, as UCI
/// gives them) and is held on every position of the older game until [`gate`]
/// exists.
fn engine(dir: &Path) -> PathBuf {
    let table = [
        ("", "score cp 30 pv e2e4", "e2e4"),
        ("e2e4", "score cp -30 pv e7e5", "e7e5"),
        ("e2e4 e7e5", "score cp 30 pv f1c4", "f1c4"),
        ("e2e4 e7e5 f1c4", "score cp -30 pv b8c6", "b8c6"),
        ("e2e4 e7e5 f1c4 b8c6", "score cp 40 pv d1h5", "d1h5"),
        (
            "e2e4 e7e5 f1c4 b8c6 d1h5",
            "score cp -40 pv g7g6 h5f3",
            "g7g6",
        ),
        (
            "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6",
            "score mate 1 pv h5f7",
            "h5f7",
        ),
        ("f2f3", "score cp 20 pv e7e5", "e7e5"),
        ("f2f3 e7e5", "score cp -60 pv b1c3", "b1c3"),
        ("f2f3 e7e5 g2g4", "score mate 1 pv d8h4", "d8h4"),
    ];
    table
        .iter()
        .fold(StandIn::new(), |s, (moves, info, best)| {
            let line = match *moves {
                "" => "position startpos".to_string(),
                moves => format!("position startpos moves {moves}"),
            };
            s.on(&line, &[&format!("info depth 12 {info}")], best)
        })
        .hold("position startpos moves f2f3*", &gate(dir))
        .write(dir)
}

fn games(dir: &Path) -> PathBuf {
    let file = dir.join("mine.pgn");
    std::fs::write(&file, format!("{OLDER}\n{NEWEST}")).unwrap();
    file
}

/// What the gatherer reported, in order, as words to check.
#[derive(Debug, Clone, PartialEq)]
enum Heard {
    Progress { games_done: usize, games: usize },
    Found { played: Vec<String>, full: bool },
}

#[test]
fn the_newest_games_mistake_is_reported_while_the_engine_works_on() {
    let dir = tempfile::tempdir().unwrap();
    let program = engine(dir.path());
    let request = Request {
        file: Some(games(dir.path())),
        name: "Me".into(),
        last: None,
        engine: Some(EngineConfig {
            path: program,
            ..EngineConfig::default()
        }),
    };
    let heard = Mutex::new(Vec::new());
    let done = gather_with(
        &dir.path().join("deck.json"),
        &Cache::at(dir.path().join("cache")),
        &request,
        chrono::Utc::now(),
        &|done| {
            let mut heard = heard.lock().unwrap();
            match done {
                Done::Gathering(p) => {
                    // Only the games done: the positions' counts come in any order
                    // from the two engines.
                    let now = Heard::Progress {
                        games_done: p.games_done,
                        games: p.games,
                    };
                    if heard.last() != Some(&now) {
                        heard.push(now);
                    }
                }
                Done::Found {
                    exercises,
                    due,
                    full,
                    ..
                } => {
                    assert_eq!(due, 0);
                    heard.push(Heard::Found {
                        played: exercises.iter().map(|e| e.played_san()).collect(),
                        full,
                    });
                    // The older game's searches go on only now.
                    std::fs::write(gate(dir.path()), "").unwrap();
                }
                other => panic!("not a report: {other:?}"),
            }
        },
        &AtomicBool::new(false),
    );
    let heard = heard.into_inner().unwrap();
    let found: Vec<(usize, &Heard)> = heard
        .iter()
        .enumerate()
        .filter(|(_, h)| matches!(h, Heard::Found { .. }))
        .collect();
    assert_eq!(
        found.iter().map(|(_, h)| (*h).clone()).collect::<Vec<_>>(),
        [Heard::Found {
            played: vec!["Nf6".into()],
            full: false
        }],
        "{heard:#?}"
    );
    // It came while the engine was one game short of the end; the last game's come
    // with the answer.
    let before_first = &heard[..found[0].0];
    assert_eq!(
        before_first.last(),
        Some(&Heard::Progress {
            games_done: 1,
            games: 2
        }),
        "{heard:#?}"
    );
    assert!(
        heard.contains(&Heard::Progress {
            games_done: 2,
            games: 2
        }),
        "{heard:#?}"
    );
    // The whole drill at the end: both, newest game first.
    let Some(Done::Drill {
        exercises, note, ..
    }) = done
    else {
        panic!("a drill: {done:?}")
    };
    let played: Vec<String> = exercises.iter().map(|e| e.played_san()).collect();
    assert_eq!(played, ["Nf6", "g4"]);
    // Each knows its game's place (0 the newest): the drill orders those found later by it.
    let recency: Vec<Option<u32>> = exercises.iter().map(|e| e.recency).collect();
    assert_eq!(recency, [Some(0), Some(1)]);
    assert_eq!(
        exercises[1].best_san().as_deref(),
        Some("Nc3"),
        "{exercises:#?}"
    );
    assert!(
        note.contains("2 analysed by the engine (0 kept from before)"),
        "{note}"
    );
}

/// `scoresheet train mine.pgn` in a terminal, for "Me" with the gated stand-in as the
/// engine and a cache of its own, in `dir`.
fn drill(dir: &Path) -> Term {
    let program = engine(dir);
    uci_standin::configure_me(dir, &program);
    games(dir);
    let cache = dir.join("cache");
    Term::spawn_with(
        dir,
        &["train", "mine.pgn"],
        160,
        32,
        &[("SCORESHEET_CACHE_DIR", cache.to_str().unwrap())],
    )
}

#[test]
fn the_first_exercise_is_on_the_screen_before_the_engine_is_done() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = drill(dir.path());
    // The newest game's mistake, while the engine is held on the older game.
    term.wait_for("exercise 1 of 1 so far: Black to play");
    term.wait_for("Mistake 1 of 1 so far (new)");
    term.wait_for("engine: 1 of 2 games analysed");
    term.line("g6", "✓ g6: the best move known");
    term.send("\x1br");
    term.wait_for("that was the last exercise found so far: the engine goes on");
    // The engine is let go of: the older game's mistake joins, and shows at once.
    std::fs::write(gate(dir.path()), "").unwrap();
    term.wait_for("found another: exercise 2 of 2");
    term.wait_for("White to play");
    term.line("Nc3", "✓ Nc3: the best move known");
    term.send("\x1br");
    term.wait_for("drill done: 2 found, 0 missed of 2");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen());
}

#[test]
fn esc_stops_the_engine_and_the_drill_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = drill(dir.path());
    term.wait_for("Mistake 1 of 1 so far (new)");
    term.send(keys::ESC);
    term.wait_for("the drill goes on with the 1 exercise found");
    term.wait_for("Mistake 1 of 1 (new)");
    term.line("g6", "✓ g6: the best move known");
    term.send("\x1br");
    term.wait_for("drill done: 1 found, 0 missed of 1");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    // The newest game's analysis is kept; the older one, stopped, is not.
    let kept = std::fs::read_dir(dir.path().join("cache/analysis"))
        .map(|d| d.flatten().count())
        .unwrap_or(0);
    assert_eq!(kept, 1);
}
