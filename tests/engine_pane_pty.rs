//! The engine pane in the real binary, in a pseudo-terminal, with the scripted
//! stand-in engine: the pane opens, follows the cursor, plays the engine's best move
//! as a variation, and leaves no engine process behind at quit; an engine that dies
//! is explained on the screen, the keys keep working, and it can be restarted.

mod pty;
mod uci_standin;

use std::path::Path;
use std::time::{Duration, Instant};

use pty::{keys, Term};
use uci_standin::{received, StandIn};

const CTRL_E: &str = "\x05";
const ALT_M: &str = "\x1bm";

/// The game, and a configuration that runs `engine` in the pane.
fn set_up(dir: &Path, engine: &Path) {
    std::fs::write(
        dir.join("g.pgn"),
        "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("config.toml"),
        format!(
            "[engine]\npath = {:?}\nlines = 1\n",
            engine.display().to_string()
        ),
    )
    .unwrap();
}

/// The processes whose command line names `dir` (the stand-in's script lives there).
fn processes_in(dir: &Path) -> Vec<String> {
    let needle = dir.display().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(&needle))
        .collect()
}

#[test]
fn the_pane_follows_the_cursor_and_plays_the_best_move() {
    let dir = tempfile::tempdir().unwrap();
    let engine = StandIn::new()
        .name("StandIn 1")
        .on(
            "position startpos moves e2e4 e7e5 g1f3 b8c6",
            &["info depth 12 score cp 31 nodes 40000 nps 123000 pv f1b5 a7a6"],
            "f1b5",
        )
        .on(
            // Black to move: +0.30 for Black is -0.30 for White.
            "position startpos moves e2e4 e7e5 g1f3",
            &["info depth 11 score cp 30 nodes 40000 nps 123000 pv g8f6 f1c4"],
            "g8f6",
        )
        .on(
            "position startpos moves e2e4 e7e5 g1f3 g8f6",
            &["info depth 10 score cp 12 nodes 40000 nps 123000 pv b1c3 b8c6"],
            "b1c3",
        )
        .write(dir.path());
    set_up(dir.path(), &engine);
    let mut term = Term::spawn(dir.path(), &["g.pgn"], 80, 24);
    term.wait_for("Nc6");
    term.send(CTRL_E);
    let screen = term.wait_for("3. Bb5 a6");
    assert!(screen.contains("+0.31"), "{screen}");
    assert!(screen.contains("depth 12"), "{screen}");
    assert!(screen.contains("123k n/s"), "{screen}");

    // Back one move: the pane is about the position the board shows.
    term.send(keys::LEFT);
    let screen = term.wait_for("2... Nf6 3. Bc4");
    assert!(screen.contains("-0.30"), "{screen}");
    assert!(!screen.contains("3. Bb5 a6"), "{screen}");

    // The engine's move goes in as a variation; the pane follows onto it.
    term.send(ALT_M);
    term.wait_for("the engine's move 2...Nf6, as a variation");
    term.wait_for("3. Nc3 Nc6");

    term.line(":w", "saved to");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
    let saved = std::fs::read_to_string(dir.path().join("g.pgn")).unwrap();
    assert!(saved.contains("2. Nf3 Nc6 (2... Nf6)"), "{saved}");
    // The engine was told to quit and is gone.
    let said = received(dir.path());
    assert!(said.contains("go infinite"), "{said}");
    // The [engine] settings reach the engine (lines = 1 in this configuration).
    for option in [
        "setoption name Threads value 1",
        "setoption name Hash value 64",
        "setoption name MultiPV value 1",
    ] {
        assert!(said.contains(option), "{option}: {said}");
    }
    assert!(said.trim_end().ends_with("quit"), "{said}");
    assert_eq!(processes_in(dir.path()), Vec::<String>::new());
}

#[test]
fn an_engine_that_dies_is_explained_and_can_be_restarted() {
    let dir = tempfile::tempdir().unwrap();
    let engine = StandIn::new()
        .name("Fragile")
        .die_after_go(1)
        .write(dir.path());
    set_up(dir.path(), &engine);
    let mut term = Term::spawn(dir.path(), &["g.pgn"], 80, 24);
    term.wait_for("Nc6");
    term.send(CTRL_E);
    term.wait_for("tries again.");
    let screen = term.wait_for("engine Fragile stopped (exit status: 3): standin:");
    assert!(screen.contains("crashed"), "{screen}");

    // The screen goes on: the keys work and nothing waits on the engine.
    term.send(keys::LEFT);
    term.wait_for("2... ▏");
    term.send(":engine restart");
    term.send(keys::ENTER);
    // A second engine is started, and fails the same way.
    let deadline = Instant::now() + Duration::from_secs(10);
    while received(dir.path()).lines().filter(|l| *l == "uci").count() < 2 {
        assert!(Instant::now() < deadline, "{}", received(dir.path()));
        std::thread::sleep(Duration::from_millis(10));
    }
    term.wait_for("engine Fragile stopped (exit status: 3)");

    term.send(CTRL_E);
    term.wait_for("engine pane closed");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen());
    assert_eq!(processes_in(dir.path()), Vec::<String>::new());
}

#[test]
fn an_engine_that_speaks_nonsense_is_read_for_what_makes_sense() {
    let dir = tempfile::tempdir().unwrap();
    let engine = StandIn::new()
        .name("Babbler")
        .banner(&["Babbler 0.1 by nobody", "(c) lots of text that is not UCI"])
        .on(
            "position startpos moves e2e4 e7e5 g1f3 b8c6",
            &[
                "info string thinking hard",
                "info depth 3 score cp 10 pv e2e5 e7e5",
                "info depth banana score cp twelve pv",
                "nonsense from the engine",
                "info depth 4 score cp 15 nps 2000 pv f1c4 f8c5 e1e9",
            ],
            "f1c4",
        )
        .write(dir.path());
    set_up(dir.path(), &engine);
    let mut term = Term::spawn(dir.path(), &["g.pgn"], 80, 24);
    term.wait_for("Nc6");
    term.send(CTRL_E);
    // The illegal line is not shown; the good one is, cut at its first illegal move.
    let screen = term.wait_for("3. Bc4 Bc5");
    assert!(screen.contains("+0.15"), "{screen}");
    assert!(!screen.contains("+0.10"), "{screen}");
    assert!(!screen.contains("stopped"), "{screen}");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn the_real_stockfish_fills_the_pane_when_it_is_installed() {
    let Some(stockfish) = scoresheet::engine::find_program(Path::new("stockfish")) else {
        eprintln!("skipped: no stockfish on PATH or in /usr/games");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    set_up(dir.path(), &stockfish);
    let mut term = Term::spawn(dir.path(), &["g.pgn"], 80, 24);
    term.wait_for("Nc6");
    term.send(CTRL_E);
    let screen = term.wait_for("n/s");
    assert!(screen.contains("depth "), "{screen}");
    // Its best line starts with White's third move.
    term.wait_for(" 3. ");
    term.send(keys::LEFT);
    term.wait_for(" 2... ");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn annotate_runs_the_configured_engine() {
    let dir = tempfile::tempdir().unwrap();
    let engine = StandIn::new()
        .name("Annotator")
        .otherwise(&["info depth 5 score cp 20"], "(none)")
        .write(dir.path());
    set_up(dir.path(), &engine);
    let mut term = Term::spawn(dir.path(), &["g.pgn"], 80, 24);
    term.wait_for("Nc6");
    term.send(":annotate nodes 10");
    term.send(keys::ENTER);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !received(dir.path()).contains("go nodes 10") {
        assert!(Instant::now() < deadline, "{}", term.text());
        std::thread::sleep(Duration::from_millis(10));
    }
    let said = received(dir.path());
    assert!(said.contains("setoption name MultiPV value 1"), "{said}");
    term.send(":q!");
    term.send(keys::ENTER);
    assert_eq!(term.wait_exit(), 0);
}
