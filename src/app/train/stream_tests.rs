//! A drill that starts while the engine still looks for your mistakes, driven
//! through `update` as the loop and the keys would: the first exercises start it,
//! the next join it, its end waits for the engine, and Esc, `:train stop` and the
//! train key stop the engine without losing what was found.

use crate::app::{Action, App, Done, Effect, Settings};
use crate::study::train::analyse::Progress;
use crate::study::train::exercise::Answer;
use crate::study::train::Exercise;

fn type_line(app: &mut App, text: &str) -> Effect {
    for c in text.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry)
}

/// An app with your name, a file and an engine, asked for a drill.
fn asking() -> App {
    let mut app = App::new(Settings::default(), crate::game::Game::default(), None);
    app.take_journal_due();
    app.file = Some("games.pgn".into());
    app.train.name = "Me".into();
    app.train.engine = Some("stockfish".into());
    assert!(matches!(
        app.update(Action::Train),
        Effect::Drill { engine: true, .. }
    ));
    app
}

/// An exercise with the best move known: after 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4 White
/// played `played`; 4.Nxd4 was best.
fn exercise(played: &str) -> Exercise {
    Exercise {
        fen: "r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4".into(),
        played: played.into(),
        answers: vec![Answer {
            uci: "f3d4".into(),
            white_percent: Some(58.0),
        }],
        before: Some(58.0),
        lost: 21.7,
        source: format!("Me – Them, Club, 4.{played}"),
        line: Vec::new(),
        start: None,
        recency: None,
    }
}

fn found(exercises: Vec<Exercise>, full: bool) -> Done {
    Done::Found {
        exercises,
        due: 0,
        record: false,
        full,
    }
}

fn progress(games_done: usize, games: usize) -> Done {
    Done::Gathering(Progress {
        games_done,
        games,
        positions_done: games_done * 10,
        positions: games * 10,
    })
}

fn the_end(exercises: Vec<Exercise>) -> Done {
    Done::Gathered(Box::new(Done::Drill {
        exercises,
        due: 0,
        note: "drill: 0 exercises due, 2 new from games.pgn".into(),
        record: false,
    }))
}

fn text(app: &App) -> &str {
    &app.message.text
}

#[test]
fn the_drill_starts_with_the_first_mistake_and_the_next_join_it() {
    let mut app = asking();
    app.update(progress(1, 3));
    assert!(text(&app).contains("1 of 3 games"), "{}", text(&app));
    app.update(found(vec![exercise("f3e5")], false));
    assert!(app.training(), "the drill starts at once");
    assert!(text(&app).contains("1 new found so far"), "{}", text(&app));
    assert!(
        text(&app).contains("exercise 1 of 1 so far"),
        "{}",
        text(&app)
    );
    // The engine's progress goes to the panel: the status line is the answers'.
    type_line(&mut app, "Nxe5");
    let answer = text(&app).to_string();
    app.update(progress(2, 3));
    assert_eq!(text(&app), answer);
    let lines = app.training_lines();
    assert!(lines[0].contains("Mistake 1 of 1 so far"), "{lines:?}");
    assert!(
        lines.contains(&"engine: 2 of 3 games analysed".to_string()),
        "{lines:?}"
    );
    // A second one joins while the first is on the board.
    app.update(found(vec![exercise("e1g1")], false));
    assert!(app.training_lines()[0].contains("1 of 2 so far"));
    type_line(&mut app, "Nxd4");
    app.update(Action::TrainReveal);
    assert!(
        text(&app).contains("exercise 2 of 2 so far"),
        "{}",
        text(&app)
    );
    type_line(&mut app, "Nxd4");
    // The end of what was found is not the end of the drill: it waits for the engine.
    app.update(Action::TrainReveal);
    assert!(app.training());
    assert!(
        text(&app)
            .contains("last exercise found so far: the engine goes on (the panel says how far)"),
        "{}",
        text(&app)
    );
    assert!(app.training_lines().iter().any(|l| l.contains("wait")));
    // The third joins and shows at once.
    app.update(found(vec![exercise("d2d3")], false));
    assert!(
        text(&app).starts_with("found another: exercise 3 of 3 so far"),
        "{}",
        text(&app)
    );
    assert_eq!(app.game.start.fen(), exercise("d2d3").fen);
    type_line(&mut app, "Nxd4");
    app.update(Action::TrainReveal);
    assert!(app.training(), "the engine is not done");
    // The engine's end ends the waiting drill, with what it found.
    app.update(progress(3, 3));
    app.update(the_end(vec![
        exercise("f3e5"),
        exercise("e1g1"),
        exercise("d2d3"),
    ]));
    assert!(!app.training());
    assert!(
        text(&app).contains("drill done: 2 found, 1 missed of 3")
            && text(&app).contains("2 new from games.pgn"),
        "{}",
        text(&app)
    );
    assert!(app.train.gathering.is_none());
}

#[test]
fn the_engine_ending_mid_drill_lets_the_drill_end_as_usual() {
    let mut app = asking();
    app.update(found(vec![exercise("f3e5")], false));
    app.update(the_end(vec![exercise("f3e5")]));
    assert!(app.training());
    // No "so far" any more, no engine line.
    assert!(!app.training_lines()[0].contains("so far"));
    assert!(!app.training_lines().iter().any(|l| l.starts_with("engine")));
    app.update(Action::TrainReveal);
    app.update(Action::TrainReveal);
    assert!(!app.training());
    assert!(
        text(&app).contains("drill done: 0 found, 1 missed of 1")
            && text(&app).contains("2 new from games.pgn"),
        "{}",
        text(&app)
    );
}

#[test]
fn esc_stops_the_engine_and_the_drill_goes_on_with_what_was_found() {
    let mut app = asking();
    app.update(found(vec![exercise("f3e5"), exercise("e1g1")], false));
    app.update(Action::Cancel);
    assert!(app.train.gathering.is_none(), "the loop drops the engine");
    assert!(app.training());
    assert!(
        text(&app).contains("the drill goes on with the 2 exercises found"),
        "{}",
        text(&app)
    );
    // What the engine would still have said is not wanted.
    app.update(found(vec![exercise("d2d3")], false));
    app.update(the_end(vec![]));
    assert!(app.training_lines()[0].contains("Mistake 1 of 2 ("));
    for _ in 0..4 {
        app.update(Action::TrainReveal);
    }
    assert!(!app.training());
    assert!(
        text(&app).contains("drill done: 0 found, 2 missed of 2"),
        "{}",
        text(&app)
    );

    // Stopped while the drill waits for more: the drill ends.
    let mut app = asking();
    app.update(found(vec![exercise("f3e5")], false));
    app.update(Action::TrainReveal);
    app.update(Action::TrainReveal);
    assert!(app.training());
    type_line(&mut app, ":train stop");
    assert!(app.train.gathering.is_none());
    assert!(!app.training());
    assert!(
        text(&app).contains("stopped looking for your mistakes")
            && text(&app).contains("drill done: 0 found, 1 missed of 1"),
        "{}",
        text(&app)
    );
}

#[test]
fn the_train_key_stops_the_drill_and_the_engine() {
    let mut app = asking();
    app.update(found(vec![exercise("f3e5")], false));
    assert_eq!(app.update(Action::Train), Effect::None);
    assert!(!app.training());
    assert!(app.train.gathering.is_none());
    assert!(
        text(&app).contains("drill stopped") && text(&app).contains("the engine stopped too"),
        "{}",
        text(&app)
    );
    // Its late reports start nothing.
    app.update(found(vec![exercise("e1g1")], false));
    app.update(the_end(vec![exercise("f3e5")]));
    assert!(!app.training());
}

#[test]
fn a_full_drill_ends_and_the_engine_goes_on_for_next_time() {
    let mut app = asking();
    app.update(progress(1, 5));
    app.update(found(vec![exercise("f3e5")], true));
    assert!(!app.training_lines()[0].contains("so far"));
    assert!(
        app.training_lines()
            .contains(&"engine for next time: 1 of 5 games analysed".to_string()),
        "{:?}",
        app.training_lines()
    );
    app.update(Action::TrainReveal);
    app.update(Action::TrainReveal);
    assert!(!app.training());
    assert!(
        text(&app).contains("drill done")
            && text(&app).contains("the engine goes on with 4 more games for next time"),
        "{}",
        text(&app)
    );
    // Its progress shows on the status line again, then its end.
    app.update(progress(2, 5));
    assert!(
        text(&app).starts_with("finding your mistakes: 2 of 5 games"),
        "{}",
        text(&app)
    );
    app.update(the_end(vec![exercise("f3e5")]));
    assert!(!app.training());
    assert_eq!(text(&app), "drill: 0 exercises due, 2 new from games.pgn");
}

#[test]
fn due_exercises_come_first_and_count_as_due() {
    let mut app = asking();
    app.update(Done::Found {
        exercises: vec![exercise("a2a3"), exercise("f3e5")],
        due: 1,
        record: true,
        full: false,
    });
    assert!(
        text(&app).contains("1 exercise due, 1 new found so far"),
        "{}",
        text(&app)
    );
    assert!(app.training_lines()[0].contains("(due)"));
    assert!(app.train.gathering.as_ref().is_some_and(|g| g.found == 1));
}

#[test]
fn the_last_games_mistakes_come_with_the_end_and_join_the_drill() {
    let mut app = asking();
    app.update(found(vec![exercise("f3e5")], false));
    app.update(Action::TrainReveal);
    app.update(Action::TrainReveal);
    assert!(text(&app).contains("last exercise found so far"));
    // The answer brings the whole drill: the one not reported yet joins and shows.
    app.update(the_end(vec![exercise("f3e5"), exercise("e1g1")]));
    assert!(app.training());
    assert!(
        text(&app).starts_with("found another: exercise 2 of 2:"),
        "{}",
        text(&app)
    );
    assert!(!app.training_lines()[0].contains("so far"));
    app.update(Action::TrainReveal);
    app.update(Action::TrainReveal);
    assert!(
        text(&app).contains("drill done: 0 found, 2 missed of 2")
            && text(&app).contains("2 new from games.pgn"),
        "{}",
        text(&app)
    );
    // Not waiting: it joins the queue.
    let mut app = asking();
    app.update(found(vec![exercise("f3e5")], false));
    app.update(the_end(vec![exercise("f3e5"), exercise("e1g1")]));
    assert!(app.training_lines()[0].contains("Mistake 1 of 2 ("));
}

#[test]
fn exercises_found_while_annotate_works_wait_for_the_drill() {
    let game = crate::pgn::builder::read_games("[White \"Me\"]\n\n1. e4 e5 *\n".as_bytes())
        .remove(0)
        .game;
    let mut app = App::new(Settings::default(), game, None);
    app.take_journal_due();
    app.file = Some("games.pgn".into());
    app.train.name = "Me".into();
    app.train.engine = Some("stockfish".into());
    app.update(Action::Train);
    type_line(&mut app, ":annotate");
    assert!(app.annotating.is_some(), "{}", text(&app));
    app.update(Done::Found {
        exercises: vec![exercise("a2a3"), exercise("f3e5")],
        due: 1,
        record: true,
        full: false,
    });
    assert!(!app.training());
    assert!(
        text(&app).contains("annotating this game"),
        "{}",
        text(&app)
    );
    // Once the annotation is stopped, the next report starts the drill with all.
    type_line(&mut app, ":annotate stop");
    assert!(app.annotating.is_none(), "{}", text(&app));
    app.update(found(vec![exercise("e1g1")], false));
    assert!(app.training());
    let lines = app.training_lines();
    assert!(
        lines[0].contains("Mistake 1 of 3 so far (due)"),
        "{lines:?}"
    );
    assert!(
        text(&app).contains("1 exercise due, 2 new found so far"),
        "{}",
        text(&app)
    );
    // And the end adds only what it has not had.
    app.update(the_end(vec![
        exercise("a2a3"),
        exercise("f3e5"),
        exercise("e1g1"),
        exercise("d2d3"),
    ]));
    assert!(app.training_lines()[0].contains("Mistake 1 of 4 (due)"));
}

/// An exercise of your `recency`-th newest game (0 the newest).
fn of_game(played: &str, recency: u32) -> Exercise {
    Exercise {
        recency: Some(recency),
        ..exercise(played)
    }
}

/// The move of the mistake on the board, as the panel shows it.
fn shown(app: &App) -> String {
    let lines = app.training_lines();
    let played = lines.iter().find_map(|l| l.strip_prefix("played: 4."));
    played.expect("a mistake on the board").to_string()
}

#[test]
fn mistakes_found_later_come_newest_game_first_among_those_not_shown_yet() {
    let mut app = asking();
    // The first found starts the drill at once, whatever its game.
    app.update(found(vec![of_game("f3e5", 2)], false));
    assert_eq!(shown(&app), "f3e5");
    // The engines finish an old game, then newer ones: those go first.
    app.update(found(vec![of_game("e1g1", 4), of_game("d2d3", 1)], false));
    app.update(found(vec![of_game("b1c3", 0)], false));
    // Shown ones keep their place: one of the newest game found while the third is on
    // the board comes next, before the older game's.
    let mut order = vec![shown(&app)];
    for _ in 0..2 {
        app.update(Action::TrainReveal);
        app.update(Action::TrainReveal);
        order.push(shown(&app));
    }
    app.update(found(vec![of_game("a2a3", 0)], false));
    for _ in 0..2 {
        app.update(Action::TrainReveal);
        app.update(Action::TrainReveal);
        order.push(shown(&app));
    }
    assert_eq!(order, ["f3e5", "b1c3", "d2d3", "a2a3", "e1g1"]);
}

/// A drill that took its fill of an older game's mistakes makes room for one of a newer
/// game the engine found later: it comes next, the oldest not shown yet waits for the
/// next drill, and the end brings no second copy of any.
#[test]
fn a_full_drill_makes_way_for_a_newer_games_mistake() {
    let cap = crate::study::train::NEW_PER_DRILL;
    let mut app = asking();
    let old: Vec<Exercise> = (0..cap).map(|i| of_game(&format!("o{i}"), 3)).collect();
    app.update(found(old.clone(), true));
    assert_eq!(shown(&app), "o0");
    app.update(found(vec![of_game("new", 0)], true));
    let count = |app: &App| match app.train.session.as_deref().map(|s| &s.kind) {
        Some(super::Kind::Drill(d)) => d.exercises.len(),
        _ => 0,
    };
    assert_eq!(count(&app), cap, "the limit holds");
    app.update(Action::TrainReveal);
    app.update(Action::TrainReveal);
    assert_eq!(shown(&app), "new");
    // The gathering's answer: the newest game's, then the older one's but its last.
    let mut all = vec![of_game("new", 0)];
    all.extend(old[..cap - 1].iter().cloned());
    app.update(the_end(all));
    assert_eq!(count(&app), cap);
    let mut order = vec!["o0".to_string(), shown(&app)];
    for _ in 2..cap {
        app.update(Action::TrainReveal);
        app.update(Action::TrainReveal);
        order.push(shown(&app));
    }
    let mut want = vec!["o0".to_string(), "new".to_string()];
    want.extend((1..cap - 1).map(|i| format!("o{i}")));
    assert_eq!(order, want);
}
