//! Training with an engine: answers no annotation judges, the best move no annotation
//! gives, and an engine that is missing or busy.

use super::*;

/// A configured engine that was not found: a guess it would have compared is wrong, and
/// says why, so that a good move is not taken for a bad one unawares. The game's own
/// move needs no engine, and says nothing of it.
#[test]
fn a_guess_judged_without_the_missing_engine_says_so() {
    let mut app = opened(GAME);
    app.train.missing_engine = Some("/nonexistent/stockfish".into());
    type_line(&mut app, ":train guess white");
    type_line(&mut app, "d4");
    assert!(app.message.error);
    assert!(
        app.message.text.contains("✗ d4 is not the game's move")
            && app.message.text.contains(
                "no engine compared it: /nonexistent/stockfish was not found; see [engine] path"
            ),
        "{}",
        app.message.text
    );
    type_line(&mut app, "e4");
    assert!(!app.message.text.contains("engine"), "{}", app.message.text);
}

#[test]
fn an_engine_judges_what_no_annotation_does() {
    use crate::game::annotation::Score;
    let mut app = opened(GAME);
    app.train.engine = Some("stockfish".into());
    type_line(&mut app, ":train guess white");
    // d4 is not the game's move and the game has no evaluations: the engine is asked
    // about both moves, and answers are held until it says.
    let effect = type_line(&mut app, "d4");
    assert_eq!(
        effect,
        Effect::Judge {
            engine: "stockfish".into(),
            fen: crate::position::Position::start().fen(),
            moves: vec!["e2e4".into(), "d2d4".into()],
            best: false,
        }
    );
    assert!(
        app.message.text.contains("asking the engine about d4"),
        "{}",
        app.message.text
    );
    type_line(&mut app, "e4");
    assert!(
        app.message.text.contains("still judging d4"),
        "{}",
        app.message.text
    );
    app.update(Action::ClearEntry);
    // +0.30 after e4, +0.25 after d4: within the margin, as good.
    app.update(Done::Judged(Ok(vec![Score::Pawns(30), Score::Pawns(25)])));
    assert!(
        app.message
            .text
            .contains("✓ d4 is as good as the game's e4"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app), ["e4", "e5"]);
    // The opening follows the moves the answer revealed.
    assert_eq!(
        app.opening,
        crate::study::eco::of_line(&app.game, app.cursor).map(ToString::to_string)
    );
    assert!(app
        .opening
        .as_deref()
        .is_some_and(|o| o.contains("King's Pawn Game")));
    // An engine that fails: said, and the answer judged without it (wrong).
    type_line(&mut app, "Nc3");
    app.update(Done::Judged(Err("stockfish died".into())));
    assert!(app.message.error);
    assert!(
        app.message
            .text
            .contains("the engine could not judge Nc3: stockfish died")
            && app.message.text.contains("✗ Nc3 is not the game's move"),
        "{}",
        app.message.text
    );

    // Revealed while the engine judges: its late answer is dropped, not applied to the
    // next move.
    type_line(&mut app, "Nc3");
    app.update(Action::TrainReveal);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    app.update(Done::Judged(Ok(vec![Score::Pawns(30), Score::Pawns(30)])));
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    assert!(
        !app.message.text.contains("as good"),
        "{}",
        app.message.text
    );

    // A drill's answer no annotation knows: judged against the position before.
    type_line(&mut app, ":train stop");
    app.update(Done::Drill {
        exercises: vec![exercise()],
        due: 0,
        note: String::new(),
        record: true,
    });
    let effect = type_line(&mut app, "d3");
    assert!(
        matches!(effect, Effect::Judge { ref moves, best: true, .. } if moves == &["d2d3".to_string()])
    );
    // +0.80 after d3 against the engine's +0.90 for its best: within the margin, and
    // recorded.
    let effect = app.update(Done::Judged(Ok(vec![Score::Pawns(90), Score::Pawns(80)])));
    assert!(
        app.message.text.contains("within lichess's margin"),
        "{}",
        app.message.text
    );
    assert!(matches!(effect, Effect::Review { passed: true, .. }));
}

/// A drill, with an engine, of the exercise with no better move written.
fn drilling_without_answers() -> App {
    let mut app = opened(GAME);
    app.train.engine = Some("stockfish".into());
    let mut bare = exercise();
    bare.answers.clear();
    app.update(Done::Drill {
        exercises: vec![bare],
        due: 0,
        note: String::new(),
        record: true,
    });
    app
}

#[test]
fn the_engine_gives_the_answer_no_annotation_has() {
    let mut app = drilling_without_answers();
    let effect = app.update(Action::TrainReveal);
    assert_eq!(
        effect,
        Effect::Solve {
            engine: "stockfish".into(),
            fen: exercise().fen,
        }
    );
    assert!(app
        .message
        .text
        .contains("asking the engine for the best move"));
    // Answers wait for it.
    type_line(&mut app, "Nxd4");
    assert!(
        app.message.text.contains("a moment"),
        "{}",
        app.message.text
    );
    app.update(Action::ClearEntry);
    let effect = app.update(Done::Solved(Ok("f3d4".into())));
    assert!(matches!(effect, Effect::Review { passed: false, .. }));
    assert!(
        app.message.text.contains("the best move known: Nxd4"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app)[WAY_THERE.len()..], ["Nxd4"]);
}

#[test]
fn no_training_while_the_engine_annotates_the_game() {
    let mut app = opened(GAME);
    type_line(&mut app, ":annotate");
    assert!(app.annotating.is_some(), "{}", app.message.text);
    type_line(&mut app, ":train guess white");
    assert!(!app.training());
    assert!(
        app.message.text.contains("annotating this game"),
        "{}",
        app.message.text
    );
    assert_eq!(app.update(Action::Train), Effect::None);
    assert!(!app.training());
}

#[test]
fn a_drill_that_cannot_record_asks_for_no_review() {
    let mut app = opened(GAME);
    app.update(Done::Drill {
        exercises: vec![exercise()],
        due: 0,
        note: "drill: the deck cannot be read; answers are not recorded".into(),
        record: false,
    });
    assert_eq!(type_line(&mut app, "Nxd4"), Effect::None);
    assert!(app.message.text.contains("✓ Nxd4"), "{}", app.message.text);
}

/// When the engine's best move is the very move the annotations called a mistake, the
/// answer says so rather than "the best move known: Nxe5 (the game's Nxe5 lost …)".
#[test]
fn an_engine_that_prefers_the_games_move_says_so() {
    let mut app = drilling_without_answers();
    app.update(Action::TrainReveal);
    let effect = app.update(Done::Solved(Ok("f3e5".into())));
    // Not a miss to come back on a schedule: out of the deck.
    assert!(
        matches!(&effect, Effect::Forget { exercise } if exercise.played == "f3e5"),
        "{effect:?}"
    );
    assert!(
        app.message.text.starts_with(
            "the engine's best move here is the game's own Nxe5: it does not find the 21.7 \
             points the annotations say it lost, so it leaves your deck"
        ),
        "{}",
        app.message.text
    );
    assert!(
        !app.message.text.contains("best move known"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app)[WAY_THERE.len()..], ["Nxe5"]);
    // The drill's tally counts it as neither found nor missed.
    app.update(Action::TrainReveal);
    assert!(
        app.message
            .text
            .contains("0 found, 0 missed of 1, 1 taken out (the engine finds no mistake there)"),
        "{}",
        app.message.text
    );
}
