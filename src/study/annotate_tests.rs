//! [`apply`] on evaluations written by hand: what lands in the game.

use super::*;
use crate::engine::parse_uci_move;
use crate::pgn::{read_games, write_game_to_string};

const GAME: &str = "[Event \"t\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
    1. e4 {[%clk 0:05:00]} e5 {[%eval 9.99] kept text} 2. Qh5 Nc6 3. Bc4 Nf6! \
    (3... g6 {a defence}) 4. Qxf7# 1-0\n";

/// The evaluations: `(score, best move in UCI)` per position, start first.
fn evals(game: &Game, table: &[(Score, &str)]) -> Vec<PositionEval> {
    let mut pos = game.start;
    let moves = main_moves(game);
    table
        .iter()
        .enumerate()
        .map(|(i, (score, best))| {
            let mut pv = Vec::new();
            let mut p = pos;
            for text in best.split_whitespace() {
                let m = parse_uci_move(&p, text).expect("a legal move in the table");
                pv.push(m);
                p = p.play(m);
            }
            if let Some(m) = moves.get(i) {
                pos = pos.play(*m);
            }
            PositionEval { score: *score, pv }
        })
        .collect()
}

fn annotated() -> (Game, Report) {
    let mut game = read_games(GAME.as_bytes()).remove(0).game;
    let report = apply(&mut game, &annotated_evals());
    (game, report)
}

#[test]
fn judgements_follow_lichess_and_are_counted() {
    let (game, report) = annotated();
    let [w, b] = report.sides;
    assert_eq!((w.inaccuracies, w.mistakes, w.blunders), (1, 0, 0));
    assert_eq!((b.inaccuracies, b.mistakes, b.blunders), (0, 0, 1));
    assert_eq!(report.moves, 7);
    let line = game.mainline();
    // 2. Qh5 gets ?! ($6).
    assert_eq!(game.node(line[2]).nags, [6]);
    // 3... Nf6! keeps its own assessment: no second glyph.
    assert_eq!(game.node(line[5]).nags, [1]);
    // The engine's best moves (1. e4, 4. Qxf7#) are never judged.
    assert!(game.node(line[0]).nags.is_empty());
}

#[test]
fn evals_go_after_every_move_beside_what_was_there() {
    let (game, _) = annotated();
    let text = write_game_to_string(&game);
    assert!(
        text.contains("1. e4 {[%eval 0.30] [%clk 0:05:00]}"),
        "{text}"
    );
    // A previous eval is replaced, the comment's text kept.
    assert!(text.contains("1... e5 {[%eval 0.25] kept text}"), "{text}");
    assert!(!text.contains("9.99"), "{text}");
    assert!(text.contains("2. Qh5 $6\n{[%eval -0.60]}"), "{text}");
    assert!(text.contains("3... Nf6 $1\n{[%eval #1]}"), "{text}");
    assert!(text.contains("4. Qxf7# {[%eval #0]}"), "{text}");
}

#[test]
fn the_best_line_is_added_after_a_blunder_only() {
    let (game, _) = annotated();
    let text = write_game_to_string(&game);
    // The existing variation starting 3... g6 is reused and extended with the
    // engine's line; no second 3... g6.
    assert!(text.contains("(3... g6 {a defence} 4. Qf3 Nf6)"), "{text}");
    assert_eq!(text.matches("3... g6").count(), 1, "{text}");
    // No variation for the inaccuracy.
    assert!(!text.contains("(2. Nf3"), "{text}");
}

#[test]
fn tags_name_each_figure() {
    let (game, report) = annotated();
    assert_eq!(game.tag("WhiteInaccuracies"), Some("1"));
    assert_eq!(game.tag("BlackBlunders"), Some("1"));
    assert_eq!(game.tag("WhiteBlunders"), Some("0"));
    let white: f64 = game.tag("WhiteAccuracy").unwrap().parse().unwrap();
    let black: f64 = game.tag("BlackAccuracy").unwrap().parse().unwrap();
    assert!((white - report.sides[0].accuracy.unwrap()).abs() < 0.05);
    assert!(
        black < white,
        "the blunderer is less accurate: {black} vs {white}"
    );
    assert!(side_summary(&report.sides[1]).contains("1 blunder"));
}

#[test]
fn annotating_twice_gives_the_same_game() {
    let (mut game, _) = annotated();
    let once = write_game_to_string(&game);
    // The same evaluations again, on the annotated game.
    apply(&mut game, &annotated_evals());
    assert_eq!(write_game_to_string(&game), once);
}

fn annotated_evals() -> Vec<PositionEval> {
    let game = read_games(GAME.as_bytes()).remove(0).game;
    evals(
        &game,
        &[
            (Score::Cp(20), "e2e4"),
            (Score::Cp(30), "e7e5"),
            (Score::Cp(25), "g1f3"),
            // 2. Qh5: +0.25 → -0.60 drops 0.156 in winning chances: ?! (not the best move).
            (Score::Cp(-60), "b8c6"),
            (Score::Cp(-50), "f1c4"),
            (Score::Cp(-40), "g7g6 h5f3 g8f6"),
            // 3... Nf6: from -0.40 into a mate in 1: a mate created from an equal
            // position is a blunder.
            (Score::Mate(1), "h5f7"),
            (Score::MateGiven, ""),
        ],
    )
}
