//! The engine pane driven through `update`, with a fake engine in place of the
//! loop's: it takes the app's orders and answers with lines the test writes.

use super::super::*;
use super::{EngineOrder, EngineState};
use crate::engine::uci::parse_info;
use crate::engine::{EngineError, Lines, Target, Update};
use crate::pgn::builder::read_games;

/// Stands in for the loop and its engine thread.
#[derive(Default)]
struct Fake {
    running: bool,
    starts: usize,
    aim: Option<Target>,
}

impl Fake {
    /// Carries out the app's orders as the loop does; the engine is ready at once.
    fn serve(&mut self, app: &mut App) -> Vec<EngineOrder> {
        let orders = app.engine_orders();
        for order in &orders {
            match order {
                EngineOrder::Start(_) => {
                    self.running = true;
                    self.starts += 1;
                    app.update(Done::Engine(Update::Ready {
                        name: "Fake 1.0".into(),
                    }));
                }
                EngineOrder::Aim(target) => self.aim = Some(target.clone()),
                EngineOrder::Halt => self.aim = None,
                EngineOrder::Shutdown => {
                    self.running = false;
                    self.aim = None;
                }
            }
        }
        orders
    }

    /// The engine says `info` about the position it was last aimed at.
    fn say(&self, app: &mut App, info: &str) {
        let target = self.aim.as_ref().expect("the engine is aimed");
        app.update(Done::Engine(Update::Lines {
            id: 1,
            lines: lines(target.end(), info),
        }));
    }
}

fn lines(pos: crate::position::Position, info: &str) -> Lines {
    let mut lines = Lines::new(pos);
    assert!(lines.update(&parse_info(info)), "{info}");
    lines
}

fn app_on(pgn: &str) -> App {
    let game = read_games(pgn.as_bytes())
        .into_iter()
        .next()
        .filter(|r| r.errors.is_empty())
        .expect("the test's game reads")
        .game;
    App::new(Settings::default(), game, None)
}

fn type_line(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
}

fn sans(app: &App) -> Vec<String> {
    app.game
        .mainline()
        .iter()
        .map(|&id| app.game.node(id).san.clone())
        .collect()
}

const GAME: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *";

#[test]
fn the_pane_starts_the_engine_and_follows_the_cursor() {
    let mut app = app_on(GAME);
    let mut fake = Fake::default();
    assert!(
        fake.serve(&mut app).is_empty(),
        "no engine while the pane is closed"
    );
    app.update(Action::Engine);
    assert_eq!(app.pane, pane::Pane::Engine);
    let orders = fake.serve(&mut app);
    assert!(
        matches!(orders[..], [EngineOrder::Start(_), EngineOrder::Aim(_)]),
        "{orders:?}"
    );
    assert_eq!(app.engine.state, EngineState::Ready("Fake 1.0".into()));
    let aimed = fake.aim.clone().expect("aimed");
    assert_eq!(aimed.end(), app.position());
    assert_eq!(
        aimed.moves.len(),
        6,
        "the game's moves go with it (repetitions)"
    );
    assert!(fake.serve(&mut app).is_empty(), "nothing new to ask");

    // Moving back re-aims it at the position the board shows.
    app.update(Action::MoveBack);
    let orders = fake.serve(&mut app);
    assert!(matches!(orders[..], [EngineOrder::Aim(_)]), "{orders:?}");
    assert_eq!(fake.aim.as_ref().map(Target::end), Some(app.position()));

    // Closing the pane stops the engine; opening it again starts a new one.
    app.update(Action::Engine);
    assert_eq!(fake.serve(&mut app), [EngineOrder::Shutdown]);
    assert!(!fake.running);
    app.run_command("engine");
    fake.serve(&mut app);
    assert!(fake.running);
    assert_eq!(fake.starts, 2);
}

#[test]
fn lines_about_a_position_the_cursor_left_are_dropped() {
    let mut app = app_on(GAME);
    let mut fake = Fake::default();
    app.update(Action::Engine);
    fake.serve(&mut app);
    // 3... a6 is on the board: White to move.
    fake.say(
        &mut app,
        "info depth 18 multipv 1 score cp 41 nps 900000 pv b5a4 g8f6",
    );
    assert_eq!(app.engine.lines.as_ref().map(|l| l.lines.len()), Some(1));
    let before = fake.aim.clone().expect("aimed");

    app.update(Action::MoveBack);
    fake.serve(&mut app);
    assert!(
        app.engine.lines.is_none(),
        "the old lines go with the old position"
    );
    // A late line about the position left comes in: it is not shown here.
    app.update(Done::Engine(Update::Lines {
        id: 1,
        lines: lines(before.end(), "info depth 19 score cp 44 pv b5a4"),
    }));
    assert!(app.engine.lines.is_none(), "stale lines are dropped");
    // Black to move after 3. Bb5: the engine says -0.20 for Black, +0.20 for White.
    fake.say(&mut app, "info depth 20 score cp -20 pv a7a6 b5a4");
    let shown = app.engine.lines.as_ref().expect("fresh lines are shown");
    let best = shown.best().expect("a line");
    assert_eq!(best.white_score(&app.position()).display(), "+0.20");
}

#[test]
fn an_engine_that_fails_says_why_and_can_be_restarted() {
    let mut app = app_on(GAME);
    let mut fake = Fake::default();
    app.update(Action::Engine);
    fake.serve(&mut app);
    app.update(Done::Engine(Update::Failed(EngineError::NotFound {
        path: "stockfish".into(),
    })));
    assert!(app.message.error);
    assert!(
        app.message.text.contains("engine not found: stockfish")
            && app.message.text.contains("[engine] table")
            && app.message.text.contains(":engine restart"),
        "{}",
        app.message.text
    );
    assert!(matches!(app.engine.state, EngineState::Failed(_)));
    // It is not started again and again by itself.
    fake.running = false;
    assert!(fake.serve(&mut app).is_empty());
    app.update(Action::MoveForward);
    assert!(fake.serve(&mut app).is_empty());
    // :engine restart does; so would closing and opening the pane.
    app.run_command("engine restart");
    let orders = fake.serve(&mut app);
    assert!(
        matches!(orders[..], [EngineOrder::Start(_), EngineOrder::Aim(_)]),
        "{orders:?}"
    );
    assert_eq!(app.engine.state, EngineState::Ready("Fake 1.0".into()));
    // A restart while running shuts the old engine down first.
    app.run_command("engine restart");
    let orders = fake.serve(&mut app);
    assert!(
        matches!(
            orders[..],
            [
                EngineOrder::Shutdown,
                EngineOrder::Start(_),
                EngineOrder::Aim(_)
            ]
        ),
        "{orders:?}"
    );
}

#[test]
fn the_best_move_is_a_variation_inside_the_game() {
    let mut app = app_on(GAME);
    app.inside = Inside::Variation;
    let mut fake = Fake::default();
    app.update(Action::Engine);
    app.update(Action::GoStart);
    app.update(Action::MoveForward);
    fake.serve(&mut app);
    // After 1. e4 the engine prefers 1... c5.
    fake.say(&mut app, "info depth 20 score cp -30 pv c7c5 g1f3");
    app.update(Action::EnginePlay);
    assert!(!app.message.error, "{}", app.message.text);
    assert_eq!(
        sans(&app),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"],
        "the game is kept"
    );
    assert_eq!(app.game.node(app.cursor).san, "c5");
    assert!(
        app.message.text.contains("as a variation"),
        "{}",
        app.message.text
    );
    // The pane follows onto the new move; undo takes it back.
    let orders = fake.serve(&mut app);
    assert!(matches!(orders[..], [EngineOrder::Aim(_)]), "{orders:?}");
    app.update(Action::Undo);
    assert_eq!(app.game.node(app.cursor).children.len(), 1);

    // When the engine's move is the game's, the cursor goes to it.
    fake.serve(&mut app);
    fake.say(&mut app, "info depth 20 score cp -30 pv e7e5");
    let versions = app.unsaved;
    app.update(Action::EnginePlay);
    assert_eq!(app.game.node(app.cursor).san, "e5");
    assert_eq!(app.game.node(NodeId::ROOT).children.len(), 1);
    assert!(
        app.message.text.contains("is the game's"),
        "{}",
        app.message.text
    );
    assert_eq!(app.unsaved, versions, "nothing changed");
}

#[test]
fn the_best_move_is_the_next_move_at_the_end_of_a_recorded_game() {
    let mut app = App::new(Settings::default(), Game::default(), None);
    assert_eq!(
        app.inside,
        Inside::Replace,
        "the recorder replaces by default"
    );
    type_line(&mut app, "e4 e5");
    let mut fake = Fake::default();
    app.run_command("engine");
    fake.serve(&mut app);
    fake.say(&mut app, "info depth 20 score cp 40 pv g1f3 b8c6");
    app.run_command("engine play");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    assert!(app.unsaved);
    // Inside the recorded game it never replaces a move: a variation.
    app.update(Action::MoveBack);
    app.update(Action::MoveBack);
    fake.serve(&mut app);
    fake.say(&mut app, "info depth 20 score cp -25 pv c7c5");
    app.update(Action::EnginePlay);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    assert_eq!(app.game.node(app.cursor).san, "c5");
}

#[test]
fn no_best_move_is_played_without_lines_for_this_position() {
    let mut app = app_on(GAME);
    app.update(Action::EnginePlay);
    assert!(app.message.error);
    assert!(app.message.text.contains("Ctrl-E"), "{}", app.message.text);
    let mut fake = Fake::default();
    app.update(Action::Engine);
    fake.serve(&mut app);
    app.update(Action::EnginePlay);
    assert!(app.message.error);
    assert!(app.message.text.contains("no move"), "{}", app.message.text);
    assert_eq!(sans(&app).len(), 6);
}

#[test]
fn the_engine_rests_on_the_list_and_at_mate() {
    let mut app = app_on("1. f3 e5 2. g4 Qh4# 0-1");
    let mut fake = Fake::default();
    app.update(Action::Engine);
    let orders = fake.serve(&mut app);
    assert!(
        matches!(orders[..], [EngineOrder::Start(_)]),
        "nothing to search at mate: {orders:?}"
    );
    app.update(Action::MoveBack);
    assert!(matches!(fake.serve(&mut app)[..], [EngineOrder::Aim(_)]));
    app.update(Action::MoveForward);
    assert_eq!(fake.serve(&mut app), [EngineOrder::Halt]);
    app.update(Action::MoveBack);
    fake.serve(&mut app);
    app.screen = Screen::List;
    assert_eq!(fake.serve(&mut app), [EngineOrder::Halt]);
}

#[test]
fn an_unknown_engine_argument_is_refused_with_the_choices() {
    let mut app = app_on(GAME);
    app.run_command("engine go");
    assert!(app.message.error);
    assert!(
        app.message.text.contains(":engine restart"),
        "{}",
        app.message.text
    );
    assert_eq!(app.pane, pane::Pane::None);
}

/// While training, the pane's engine rests: its lines would give the answers away.
/// Training over, it searches again.
#[test]
fn the_engine_rests_while_training() {
    let mut app = app_on(GAME);
    let mut fake = Fake::default();
    app.update(Action::Engine);
    fake.serve(&mut app);
    assert!(fake.running);
    app.run_command("train guess white");
    assert!(app.training(), "{}", app.message.text);
    assert_eq!(fake.serve(&mut app), [EngineOrder::Shutdown]);
    assert!(!fake.running);
    app.run_command("train stop");
    assert!(!app.training());
    let orders = fake.serve(&mut app);
    assert!(
        matches!(orders[..], [EngineOrder::Start(_), ..]),
        "{orders:?}"
    );
}

#[test]
fn a_bound_is_shown_as_one_from_whites_side() {
    let mut app = app_on(GAME);
    let mut fake = Fake::default();
    app.update(Action::Engine);
    fake.serve(&mut app);
    app.update(Action::MoveBack);
    fake.serve(&mut app);
    // Black to move: "at least +0.35 for Black" is "at most -0.35 for White".
    fake.say(
        &mut app,
        "info depth 12 multipv 1 score cp 35 lowerbound pv a7a6",
    );
    let pane = crate::ui::engine::view(&app, false, true);
    assert_eq!(pane.score.as_deref(), Some("≤-0.35"));
    assert!(pane.lines[0].0.starts_with("≤-0.35"), "{:?}", pane.lines);
    let ascii = crate::ui::engine::view(&app, true, false);
    assert_eq!(ascii.score.as_deref(), Some("<=-0.35"));
}
