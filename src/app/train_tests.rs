//! Training driven through `update`, as the keys would drive it.

use super::*;
use crate::study::train::exercise::Answer;
use crate::study::train::Exercise;

fn type_line(app: &mut App, text: &str) -> Effect {
    for c in text.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry)
}

fn sans(app: &App) -> Vec<String> {
    app.game
        .mainline()
        .iter()
        .map(|&id| app.game.node(id).san.clone())
        .collect()
}

fn opened(pgn: &str) -> App {
    let game = crate::pgn::builder::read_games(pgn.as_bytes())
        .remove(0)
        .game;
    let mut app = App::new(Settings::default(), game, None);
    app.take_journal_due();
    app
}

const GAME: &str = "[White \"Me\"]\n[Black \"Them\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n";

#[test]
fn guess_the_move_as_white_to_the_score() {
    let mut app = opened(GAME);
    let before = app.game.clone();
    type_line(&mut app, ":train guess white");
    assert!(app.training());
    // Nothing of the game is shown yet: White's first move is hidden.
    assert!(app.game.is_empty());
    assert!(
        app.message.text.contains("guess the move as White"),
        "{}",
        app.message.text
    );
    // The game's move, in another notation: right, and Black's reply is shown.
    type_line(&mut app, "e2e4");
    assert!(!app.message.error, "{}", app.message.text);
    assert!(
        app.message.text.contains("✓ e4: the game's move"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app), ["e4", "e5"]);
    // A wrong guess is scored wrong and leaves the move hidden; a second try is not scored.
    type_line(&mut app, "Nc3");
    assert!(app.message.error);
    assert!(
        app.message.text.contains("✗ Nc3 is not the game's move"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app), ["e4", "e5"]);
    type_line(&mut app, "Nf3");
    assert!(
        app.message.text.contains("not scored"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    // A pasted game would replace what is trained: refused; a pasted move is an answer.
    app.update(Msg::Paste {
        text: "[White \"A\"]\n\n1. d4 *\n".into(),
        whole: true,
    });
    assert!(
        app.message.text.contains("not while training"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    // Keys that would edit the game are refused while training.
    app.update(Action::TakeBack);
    assert!(
        app.message.text.contains("not while training"),
        "{}",
        app.message.text
    );
    type_line(&mut app, ":w");
    assert!(app.message.text.contains("does not work while training"));
    // The reveal shows the last move without a guess (wrong), and the game ends.
    app.update(Action::TrainReveal);
    assert!(!app.training());
    assert!(
        app.message
            .text
            .contains("end of the game: 1 of 3 (33%): 1 the game's move, 0 as good, 2 wrong"),
        "{}",
        app.message.text
    );
    // The game on the screen is back as it was, and nothing was journaled.
    assert_eq!(app.game, before);
    assert!(!app.take_journal_due());
    assert!(!app.unsaved);
}

#[test]
fn guess_black_from_the_current_move() {
    let mut app = opened(GAME);
    app.update(Action::GoStart);
    app.update(Action::MoveForward);
    app.update(Action::MoveForward);
    type_line(&mut app, ":train guess black");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    assert!(app.flipped);
    type_line(&mut app, ":train stop");
    assert!(!app.training());
    assert!(app.message.text.contains("0 of 0"), "{}", app.message.text);
    assert!(!app.flipped);
    type_line(&mut app, ":train guess green");
    assert!(app.message.error);
}

/// The moves of the game up to the exercise's position.
const WAY_THERE: [&str; 6] = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4"];

fn exercise() -> Exercise {
    // After 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4 White played 4.Nxe5?; 4.Nxd4 was best.
    Exercise {
        fen: "r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4".into(),
        played: "f3e5".into(),
        answers: vec![
            Answer {
                uci: "f3d4".into(),
                white_percent: Some(58.0),
            },
            Answer {
                uci: "c2c3".into(),
                white_percent: Some(57.0),
            },
        ],
        before: Some(58.0),
        lost: 21.7,
        source: "Me – Them, Club, 4.Nxe5".into(),
        line: ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "c6d4"]
            .map(String::from)
            .to_vec(),
        start: None,
        recency: None,
    }
}

#[test]
fn a_drill_grades_the_first_answer_and_goes_on() {
    let mut app = opened(GAME);
    let before = app.game.clone();
    let mut second = exercise();
    second.played = "e1g1".into();
    app.update(Done::Drill {
        exercises: vec![exercise(), second.clone()],
        due: 1,
        note: "drill: 1 exercise due, 1 new".into(),
        record: true,
    });
    assert!(app.training());
    // The board shows the exercise's position, after the game's moves that led there
    // (the mistake, 4.Nxe5, and what followed are not shown).
    assert_eq!(app.position().fen(), exercise().fen);
    assert_eq!(sans(&app), WAY_THERE);
    assert_eq!(app.cursor, app.line_end(NodeId::ROOT));
    assert!(app.training_lines()[0].contains("1 of 2 (due)"));
    // The move of the game: a miss, recorded once.
    let effect = type_line(&mut app, "Nxe5");
    assert!(
        app.message.text.contains("is the move played in the game"),
        "{}",
        app.message.text
    );
    assert_eq!(
        effect,
        Effect::Review {
            exercise: Box::new(exercise()),
            passed: false
        }
    );
    // Found at the second try: not graded again.
    assert_eq!(type_line(&mut app, "Nxd4"), Effect::None);
    assert!(
        app.message.text.contains("✓ Nxd4: the best move known"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app)[WAY_THERE.len()..], ["Nxd4"]);
    app.update(Action::TrainReveal);
    // The second: within the margin of the best at the first try.
    assert!(
        app.message.text.contains("exercise 2 of 2"),
        "{}",
        app.message.text
    );
    let effect = type_line(&mut app, "c3");
    assert!(
        app.message.text.contains("within lichess's margin"),
        "{}",
        app.message.text
    );
    assert_eq!(
        effect,
        Effect::Review {
            exercise: Box::new(second),
            passed: true
        }
    );
    app.update(Action::TrainReveal);
    assert!(!app.training());
    assert!(
        app.message
            .text
            .contains("drill done: 1 found, 1 missed of 2"),
        "{}",
        app.message.text
    );
    assert_eq!(app.game, before);
}

#[test]
fn the_reveal_shows_the_answer_and_counts_a_miss() {
    let mut app = opened(GAME);
    app.update(Done::Drill {
        exercises: vec![exercise()],
        due: 0,
        note: String::new(),
        record: true,
    });
    let effect = app.update(Action::TrainReveal);
    assert!(matches!(effect, Effect::Review { passed: false, .. }));
    assert!(
        app.message.text.contains("the best move known: Nxd4"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app)[WAY_THERE.len()..], ["Nxd4"]);
    // Quitting while training leaves the game set aside on the screen for the loop.
    let effect = app.update(Action::Quit);
    assert_eq!(effect, Effect::Quit { discard: false });
    assert!(!app.training());
    assert!(app.game.start == crate::position::Position::start());
}

#[test]
fn the_train_key_asks_for_a_drill_and_needs_a_name_for_a_file() {
    let mut app = opened(GAME);
    app.file = Some("games.pgn".into());
    let effect = app.update(Action::Train);
    assert!(
        app.message.text.contains("[training] name"),
        "{}",
        app.message.text
    );
    assert_eq!(
        effect,
        Effect::Drill {
            file: None,
            name: String::new(),
            engine: false,
            last: Some(50),
        }
    );
    // The due exercises come back: nothing to drill, and why no mistake was looked for
    // (the hint above is gone by then).
    app.update(Done::Gathered(Box::new(Done::notice("nothing to drill"))));
    assert!(
        app.message.text.starts_with(
            "nothing to drill; your mistakes were not looked for: set [training] name"
        ),
        "{}",
        app.message.text
    );
    app.train.name = "Me".into();
    // By default, your last fifty games.
    assert_eq!(
        app.update(Action::Train),
        Effect::Drill {
            file: Some("games.pgn".into()),
            name: "Me".into(),
            engine: false,
            last: Some(50),
        }
    );
    assert!(
        app.message
            .text
            .contains("the last 50 games of Me in games.pgn"),
        "{}",
        app.message.text
    );
    // One drill at a time.
    assert_eq!(app.update(Action::Train), Effect::None);
    assert!(
        app.message.text.starts_with("already looking"),
        "{}",
        app.message.text
    );
    app.update(Done::Gathered(Box::new(Done::notice("nothing to drill"))));
    assert_eq!(
        type_line(&mut app, ":train mistakes 10 other.pgn"),
        Effect::Drill {
            file: Some("other.pgn".into()),
            name: "Me".into(),
            engine: false,
            last: Some(10),
        }
    );
    app.update(Done::Gathered(Box::new(Done::notice("nothing to drill"))));
    assert!(matches!(
        type_line(&mut app, ":train mistakes all"),
        Effect::Drill {
            last: None,
            file: Some(_),
            ..
        }
    ));
    app.update(Done::Gathered(Box::new(Done::notice("nothing to drill"))));
    assert_eq!(type_line(&mut app, ":train mistakes 0"), Effect::None);
    assert!(app.message.error, "{}", app.message.text);
}

#[test]
fn the_search_for_mistakes_shows_its_progress_and_esc_stops_it() {
    let mut app = opened(GAME);
    app.file = Some("games.pgn".into());
    app.train.name = "Me".into();
    app.train.engine = Some("stockfish".into());
    assert!(matches!(
        app.update(Action::Train),
        Effect::Drill { engine: true, .. }
    ));
    app.update(Done::Gathering(crate::study::train::analyse::Progress {
        games_done: 3,
        games: 50,
        positions_done: 400,
        positions: 4000,
    }));
    assert!(
        app.message
            .text
            .starts_with("finding your mistakes: 3 of 50 games █░░░░░░░░░ 10%, 0 found (Esc stops"),
        "{}",
        app.message.text
    );
    // Esc on an empty line stops it; what it would have found is not wanted any more.
    app.update(Action::Cancel);
    assert!(app.train.gathering.is_none());
    assert!(
        app.message
            .text
            .starts_with("stopped looking for your mistakes"),
        "{}",
        app.message.text
    );
    app.update(Done::Gathered(Box::new(Done::Drill {
        exercises: vec![exercise()],
        due: 0,
        note: "drill".into(),
        record: true,
    })));
    assert!(!app.training());
    // :train stop stops it too.
    app.update(Action::Train);
    type_line(&mut app, ":train stop");
    assert!(app.train.gathering.is_none());
    // And a drill that arrives while it is wanted starts.
    app.update(Action::Train);
    app.update(Done::Gathered(Box::new(Done::Drill {
        exercises: vec![exercise()],
        due: 0,
        note: "drill".into(),
        record: true,
    })));
    assert!(app.training());
}

#[path = "train_engine_tests.rs"]
mod engine;

/// A drill begun on the list (as `scoresheet train FILE` of a file of many games begins,
/// or the train key there) ends back on the list, the game set aside as it was.
#[test]
fn a_drill_begun_on_the_list_ends_there() {
    let mut app = opened(GAME);
    app.update(Done::ListOpened {
        path: "games.pgn".into(),
    });
    assert_eq!(app.screen, Screen::List);
    let before = app.game.clone();
    app.update(Done::Drill {
        exercises: vec![exercise()],
        due: 0,
        note: "drill: 1 new".into(),
        record: false,
    });
    assert!(app.training());
    assert_eq!(app.screen, Screen::Game, "the exercise is on the board");
    app.update(Action::Train);
    assert!(!app.training());
    assert_eq!(app.screen, Screen::List);
    assert_eq!(app.game, before);
}
