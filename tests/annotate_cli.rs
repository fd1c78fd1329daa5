//! `scoresheet annotate` end to end, driven by the scripted stand-in engine (and by
//! the real stockfish when it is installed).

mod uci_standin;

use std::path::{Path, PathBuf};
use std::process::Output;

use uci_standin::{received, StandIn};

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/annotate_games.pgn");

const S: &str = "position startpos moves ";

/// The stand-in's answers for every position of games 1 and 3 of the fixture,
/// scores from the side to move (as UCI gives them).
fn scripted() -> StandIn {
    let p = |moves: &str| format!("{S}{moves}");
    StandIn::new()
        .on(
            "position startpos",
            &["info depth 12 score cp 20 pv e2e4 e7e5"],
            "e2e4",
        )
        .on(&p("e2e4"), &["info depth 12 score cp -30 pv e7e5"], "e7e5")
        .on(
            &p("e2e4 e7e5"),
            &["info depth 12 score cp 25 pv g1f3"],
            "g1f3",
        )
        // After 2. Qh5 Black stands +0.60: White's drop from +0.25 is an inaccuracy.
        .on(
            &p("e2e4 e7e5 d1h5"),
            &["info depth 12 score cp 60 pv b8c6"],
            "b8c6",
        )
        .on(
            &p("e2e4 e7e5 d1h5 b8c6"),
            &["info depth 12 score cp -50 pv f1c4"],
            "f1c4",
        )
        .on(
            &p("e2e4 e7e5 d1h5 b8c6 f1c4"),
            &[
                "info depth 11 score cp 35 lowerbound pv g7g6",
                "info depth 12 score cp 40 pv g7g6 h5f3 g8f6",
            ],
            "g7g6",
        )
        // After 3... Nf6 White mates in one: a blunder.
        .on(
            &p("e2e4 e7e5 d1h5 b8c6 f1c4 g8f6"),
            &["info depth 12 score mate 1 pv h5f7"],
            "h5f7",
        )
        .on(&p("d2d4"), &["info depth 12 score cp -10 pv d7d5"], "d7d5")
        .on(
            &p("d2d4 d7d5"),
            &["info depth 12 score cp 10 pv c2c4"],
            "c2c4",
        )
        .on(
            &p("d2d4 d7d5 c2c4"),
            &["info depth 12 score cp -15 pv e7e6"],
            "e7e6",
        )
}

fn annotate(engine: &Path, args: &[&str]) -> Output {
    assert_cmd::Command::cargo_bin("scoresheet")
        .unwrap()
        .arg("annotate")
        .arg("--engine")
        .arg(engine)
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The text with every run of white space made one space (the writer wraps lines).
fn flat(bytes: &[u8]) -> String {
    text(bytes).split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn evals_judgements_best_lines_and_tags_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let engine = scripted().write(dir.path());
    let out = annotate(&engine, &[GAMES, "--nodes", "1234"]);
    let (pgn, err) = (flat(&out.stdout), text(&out.stderr));
    // Game 2 has an illegal move: copied as written, reported, exit code 1.
    assert_eq!(out.status.code(), Some(1), "{err}");
    // An eval after every move of game 1, from White's point of view.
    for eval in [
        "1. e4 $1 {[%eval 0.30]} {the usual}",
        "1... e5 {[%eval 0.25]}",
        "2. Qh5 $6 {[%eval -0.60]}",
        "2... Nc6 {[%eval -0.50]}",
        "3. Bc4 {[%eval -0.40]}",
        "3... Nf6 $4 {[%eval #1]}",
        "4. Qxf7# {[%eval #0]}",
    ] {
        assert!(pgn.contains(eval), "{eval:?} missing in\n{pgn}");
    }
    // The engine's line after the blunder; the user's variation kept.
    assert!(pgn.contains("(3... g6 4. Qf3 Nf6)"), "{pgn}");
    assert!(pgn.contains("(3. Nf3 {calmer}"), "{pgn}");
    // No line after the inaccuracy.
    assert!(!pgn.contains("(2. Nf3"), "{pgn}");
    for tag in [
        "[WhiteInaccuracies \"1\"]",
        "[WhiteMistakes \"0\"]",
        "[WhiteBlunders \"0\"]",
        "[BlackInaccuracies \"0\"]",
        "[BlackBlunders \"1\"]",
        "[WhiteAccuracy \"",
        "[BlackAccuracy \"",
    ] {
        assert!(pgn.contains(tag), "{tag} missing in\n{pgn}");
    }
    // Game 2 as written, after a note; game 3 annotated.
    assert!(
        pgn.contains("% scoresheet: game 2 copied as written, not annotated: line"),
        "{pgn}"
    );
    assert!(pgn.contains("1. e4 e5 2. Ke3 Nc6 *"), "{pgn}");
    assert!(pgn.contains("2. c4 {[%eval 0.15]} 1/2-1/2"), "{pgn}");
    let order: Vec<usize> = ["Fool, A", "Broken, C", "Queen, E"]
        .iter()
        .map(|p| pgn.find(p).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "games kept in order");
    // Standard error: the problem, a summary per game, and the run's.
    assert!(
        err.contains("game 2 (Broken, C - Game, D)") && err.contains("Ke3"),
        "{err}"
    );
    assert!(
        err.contains("game 1 (Fool, A - Mate, B): White ") && err.contains("1 blunder"),
        "{err}"
    );
    assert!(
        err.contains("2 games annotated, 1 copied as written, 1 with problems"),
        "{err}"
    );
    // What the engine was told.
    let log = received(dir.path());
    for sent in [
        "setoption name Threads value 1",
        "setoption name MultiPV value 1",
        "ucinewgame",
        "position startpos moves e2e4 e7e5 d1h5",
        "go nodes 1234",
    ] {
        assert!(log.lines().any(|l| l == sent), "{sent:?} not sent:\n{log}");
    }
}

#[test]
fn several_engines_keep_the_games_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let engine = scripted().write(dir.path());
    // The fixture three times: nine games over three engines.
    let one = annotate(&engine, &[GAMES, GAMES, GAMES, "--depth", "5"]);
    let three = annotate(
        &engine,
        &[GAMES, GAMES, GAMES, "--depth", "5", "--jobs", "3"],
    );
    assert_eq!(text(&one.stdout), text(&three.stdout));
    assert_eq!(text(&one.stderr), text(&three.stderr));
    assert_eq!(text(&three.stdout).matches("[WhiteAccuracy").count(), 6);
    // Three engines did start.
    let log = received(dir.path());
    assert!(log.lines().filter(|l| *l == "uci").count() >= 4, "{log}");
    assert!(log.lines().any(|l| l == "go depth 5"));
}

#[test]
fn an_engine_that_dies_is_reported_and_its_game_kept() {
    let dir = tempfile::tempdir().unwrap();
    // Each engine dies on its third search: no game gets through.
    let engine = scripted().die_after_go(3).write(dir.path());
    let out = annotate(&engine, &[GAMES, "--movetime", "10"]);
    let (pgn, err) = (flat(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("game 1 (Fool, A - Mate, B): engine StandIn stopped"),
        "{err}"
    );
    assert!(err.contains("standin: crashed"), "{err}");
    assert!(
        err.contains("the game is written without annotations"),
        "{err}"
    );
    // Every game is still there, unannotated, in order.
    assert!(
        pgn.contains("1. e4 $1 {the usual} 1... e5 2. Qh5 Nc6"),
        "{pgn}"
    );
    assert!(pgn.contains("1. d4 d5 2. c4 1/2-1/2"), "{pgn}");
    assert!(!pgn.contains("[%eval"), "{pgn}");
}

#[test]
fn no_engine_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("out.pgn");
    let out = annotate(
        &dir.path().join("no-such-engine"),
        &[GAMES, "-o", out_file.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("engine not found") && err.contains("no-such-engine"),
        "{err}"
    );
    assert!(!out_file.exists());
}

#[test]
fn the_output_file_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let engine = scripted().write(dir.path());
    let out_file = dir.path().join("out.pgn");
    let out = annotate(&engine, &[GAMES, "-o", out_file.to_str().unwrap()]);
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(written.contains("[BlackBlunders \"1\"]"), "{written}");
    // Annotating the output again changes nothing: evals are replaced, lines reused
    // (only the note before the game copied through names its new line).
    let again = annotate(&engine, &[out_file.to_str().unwrap()]);
    let games = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with("% scoresheet:"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(games(&text(&again.stdout)), games(&written));
}

#[test]
fn limits_are_one_of_three() {
    let dir = tempfile::tempdir().unwrap();
    let engine = scripted().write(dir.path());
    let out = annotate(&engine, &[GAMES, "--depth", "3", "--nodes", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot be used with"));
}

/// The real engine, when installed: plainly skipped otherwise (and a failure under
/// CI, which installs it).
fn stockfish() -> Option<PathBuf> {
    let found = scoresheet::engine::find_program("stockfish".as_ref());
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "stockfish is not installed, and CI must run the real-engine tests"
        );
        eprintln!(
            "SKIPPED: stockfish is not on PATH nor in /usr/games (install it to run this test)"
        );
    }
    found
}

#[test]
fn real_stockfish_annotates_reproducibly_with_nodes() {
    let Some(engine) = stockfish() else { return };
    let a = annotate(&engine, &[GAMES, "--nodes", "20000", "--jobs", "2"]);
    let b = annotate(&engine, &[GAMES, "--nodes", "20000"]);
    let pgn = flat(&a.stdout);
    assert_eq!(
        pgn,
        flat(&b.stdout),
        "--nodes gives the same output every run"
    );
    // The fool's mate is found and judged: 3... Nf6 allows mate in one.
    assert!(pgn.contains("3... Nf6 $4 {[%eval #1]}"), "{pgn}");
    assert!(pgn.contains("4. Qxf7# {[%eval #0]}"), "{pgn}");
    assert_eq!(pgn.matches("[WhiteAccuracy").count(), 2);
}

#[test]
fn a_game_from_a_set_up_position_is_sent_as_a_fen() {
    let dir = tempfile::tempdir().unwrap();
    let fen = "6k1/5ppp/8/8/8/8/8/R6K w - - 0 1";
    let engine = StandIn::new()
        .on(
            &format!("position fen {fen}"),
            &["info depth 3 score mate 1 pv a1a8"],
            "a1a8",
        )
        .write(dir.path());
    let game = dir.path().join("fen.pgn");
    std::fs::write(
        &game,
        format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Result \"1-0\"]\n\n1. Ra8# 1-0\n"),
    )
    .unwrap();
    let out = annotate(&engine, &[game.to_str().unwrap()]);
    let pgn = flat(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(pgn.contains("1. Ra8# {[%eval #0]} 1-0"), "{pgn}");
    // One move by White, none by Black.
    assert!(pgn.contains("[WhiteAccuracy \"100.0\"]"), "{pgn}");
    assert!(!pgn.contains("[BlackAccuracy"), "{pgn}");
    assert!(received(dir.path()).contains(&format!("position fen {fen}\n")));
}

#[test]
fn after_an_engine_dies_the_next_game_gets_a_fresh_one() {
    let dir = tempfile::tempdir().unwrap();
    let engine = scripted().die_once_after_go(2).write(dir.path());
    let out = annotate(&engine, &[GAMES, "--depth", "4"]);
    let (pgn, err) = (flat(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{err}");
    // Game 1 lost its engine and is written without annotations...
    assert!(
        err.contains("game 1 (Fool, A - Mate, B): engine StandIn stopped"),
        "{err}"
    );
    assert!(
        pgn.contains("1. e4 $1 {the usual} 1... e5 2. Qh5 Nc6"),
        "{pgn}"
    );
    // ...game 3 is annotated by the engine started after it.
    assert!(pgn.contains("2. c4 {[%eval 0.15]} 1/2-1/2"), "{pgn}");
    assert!(
        err.contains("game 3 (Queen, E - Gambit, F): White "),
        "{err}"
    );
    assert!(
        err.contains("1 game annotated, 1 copied as written, 2 with problems"),
        "{err}"
    );
}

#[test]
fn an_output_that_fails_stops_the_run_without_hanging() {
    if !Path::new("/dev/full").exists() {
        eprintln!("SKIPPED: no /dev/full on this system");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let engine = scripted().write(dir.path());
    // Enough games (over 64 KiB written) that writing fails while the reader is
    // still handing games out.
    let many = [GAMES; 80];
    let out = assert_cmd::Command::cargo_bin("scoresheet")
        .unwrap()
        .arg("annotate")
        .arg("--engine")
        .arg(&engine)
        .args(many)
        .args(["--depth", "2", "-o", "/dev/full"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("cannot write /dev/full"),
        "{}",
        text(&out.stderr)
    );
}

/// The `%` lines of the input are written as `convert` writes them: before the first game,
/// between games, and a game's own lines just before it; none is lost, in any order of the
/// games' engines.
#[test]
fn escape_lines_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let engine = scripted().write(dir.path());
    let file = dir.path().join("escaped.pgn");
    std::fs::write(
        &file,
        "% exported by the club\n\
         [Event \"A\"]\n\n1. e4 e5 *\n\n\
         % between the games\n\
         [Event \"B\"]\n\n1. d4 d5\n% inside the moves\n2. c4 *\n\n\
         % at the end\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    for jobs in ["1", "2"] {
        let out = annotate(&engine, &[file, "--depth", "5", "--jobs", jobs]);
        let out = text(&out.stdout);
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with('%')).collect();
        assert_eq!(
            lines,
            [
                "% exported by the club",
                "% between the games",
                "% inside the moves",
                "% at the end"
            ],
            "{out}"
        );
        // Each before its game: the club's line first, the game's own before game B.
        let at = |s: &str| out.find(s).unwrap();
        assert!(at("% exported by the club") < at("[Event \"A\"]"), "{out}");
        assert!(at("[Event \"A\"]") < at("% between the games"), "{out}");
        assert!(at("% inside the moves") < at("[Event \"B\"]"), "{out}");
        assert!(at("[Event \"B\"]") < at("% at the end"), "{out}");
        assert_eq!(out.matches("[%eval").count(), 5, "{out}");
    }
}
