//! Training with an engine, through the scripted stand-in (deterministic): the
//! scores it gives after each answer, and a guess judged "as good" by it in the real
//! binary, in the background, while the screen goes on.

mod pty;
mod uci_standin;

use pty::Term;
use scoresheet::engine::Limit;
use scoresheet::game::annotation::Score;
use scoresheet::position::Position;
use scoresheet::study::train::judge::scores_after;
use uci_standin::StandIn;

/// An engine that likes 1.e4 and 1.d4 about as much, and 1.h4 not at all (its scores
/// are from Black's side after White's move, as UCI gives them).
fn engine(dir: &std::path::Path) -> std::path::PathBuf {
    StandIn::new()
        .on(
            "position startpos moves e2e4",
            &["info depth 12 score cp -30 pv e7e5"],
            "e7e5",
        )
        .on(
            "position startpos moves d2d4",
            &["info depth 12 score cp -25 pv d7d5"],
            "d7d5",
        )
        .on(
            "position startpos moves h2h4",
            &["info depth 12 score cp 120 pv e7e5"],
            "e7e5",
        )
        .write(dir)
}

#[test]
fn the_scores_after_each_answer_are_white_s() {
    let dir = tempfile::tempdir().unwrap();
    let program = engine(dir.path());
    let scores = scores_after(
        &program,
        &Position::start().fen(),
        &["e2e4".into(), "h2h4".into()],
        Limit::Depth(12),
    )
    .unwrap();
    assert_eq!(scores, [Score::Pawns(30), Score::Pawns(-120)]);
    // With the position's own score first (the stand-in's default: 0.00).
    let with_best = scoresheet::study::train::judge::scores(
        &program,
        &Position::start().fen(),
        &["e2e4".into()],
        true,
        Limit::Depth(12),
    )
    .unwrap();
    assert_eq!(with_best, [Score::Pawns(0), Score::Pawns(30)]);
    // A mate on the board is scored by the rules, without asking.
    let mate = scores_after(
        &program,
        "rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
        &["d1h5".into()],
        Limit::Depth(12),
    )
    .unwrap();
    assert_eq!(mate, [Score::Pawns(100_000)]);
    // An engine that cannot start: said.
    let err = scores_after(
        &dir.path().join("no-such-engine"),
        &Position::start().fen(),
        &["e2e4".into()],
        Limit::Depth(12),
    )
    .unwrap_err();
    assert!(err.contains("no-such-engine"), "{err}");
}

#[test]
fn a_guess_judged_by_the_engine_in_the_real_binary() {
    let dir = tempfile::tempdir().unwrap();
    let program = engine(dir.path());
    std::fs::write(
        dir.path().join("config.toml"),
        format!("[engine]\npath = \"{}\"\n", program.display()),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("game.pgn"),
        "[White \"Me\"]\n[Black \"Them\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
    )
    .unwrap();
    let mut term = Term::spawn(dir.path(), &["game.pgn"], 100, 30);
    term.wait_for("Them");
    term.line(":train guess white", "guess the move as White");
    term.line("h4", "✗ h4 is not the game's move, and");
    term.line("d4", "✓ d4 is as good as the game's e4");
    term.wait_for("score 0 of 1");
    term.send(pty::keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen());
}

#[test]
fn the_best_move_is_the_engine_s() {
    let dir = tempfile::tempdir().unwrap();
    let program = StandIn::new()
        .on(
            "position startpos",
            &["info depth 12 score cp 30 pv d2d4"],
            "d2d4",
        )
        .write(dir.path());
    let best = scoresheet::study::train::judge::best_move(
        &program,
        &Position::start().fen(),
        Limit::Depth(12),
    );
    assert_eq!(best.as_deref(), Ok("d2d4"));
}
