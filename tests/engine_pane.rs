//! The engine pane as the whole app draws it (`ui::render` over an `App` fed what an
//! engine says, the way the loop feeds it), snapshotted at 80×24 and 120×40: the
//! score from White's side, the bar, depth, speed and three lines in the user's
//! notation; an engine that failed; no colour; and every small size without a panic.

mod screen_text;

use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;
use scoresheet::app::engine::{engine_config, EngineOrder, EngineView};
use scoresheet::app::{Action, App, Done};
use scoresheet::config::Config;
use scoresheet::engine::uci::parse_info;
use scoresheet::engine::{EngineError, Lines, Update};
use scoresheet::notation::Lang;
use scoresheet::pgn::builder::read_games;
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::{self, Look};
use screen_text::text;

/// A Ruy Lopez after 3... a6, White to move.
const GAME: &str = "[White \"Anand, V.\"]\n[Black \"Carlsen, M.\"]\n[Result \"*\"]\n\n\
                    1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";

/// The app on the game with the engine pane open, the engine aimed at the last
/// position; the aim's position is returned for the lines.
fn app_with_pane(lang: &str) -> App {
    let config = Config::defaults();
    let game = read_games(GAME.as_bytes()).remove(0).game;
    let mut app = App::new(settings(&config), game, None);
    describe_keys(&mut app, &config);
    app.engine = EngineView::new(engine_config(&config.engine));
    app.settings.display_lang = Lang::by_code(lang).expect("a language");
    app.update(Action::Engine);
    let orders = app.engine_orders();
    assert!(
        matches!(orders[..], [EngineOrder::Start(_), EngineOrder::Aim(_)]),
        "{orders:?}"
    );
    app.update(Done::Engine(Update::Ready {
        name: "Stockfish 17".into(),
    }));
    app
}

/// The engine's three lines after 3... a6.
fn think(app: &mut App) {
    let mut lines = Lines::new(app.position());
    for info in [
        "info depth 22 seldepth 30 multipv 1 score cp 38 nodes 9000000 nps 1450000 pv b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6",
        "info depth 22 seldepth 28 multipv 2 score cp 21 nodes 9000000 nps 1450000 pv b5c6 d7c6 e1g1 f7f6 d2d4",
        "info depth 22 seldepth 27 multipv 3 score cp -5 nodes 9000000 nps 1450000 pv b5c4 g8f6 d2d3 f8c5",
    ] {
        lines.update(&parse_info(info));
    }
    app.update(Done::Engine(Update::Lines { id: 1, lines }));
}

fn draw(app: &App, look: &Look, (w, h): (u16, u16)) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::render(app, look, f.area(), f.buffer_mut()))
        .unwrap();
    term
}

#[test]
fn the_pane_shows_score_bar_depth_speed_and_lines() {
    let mut app = app_with_pane("en");
    think(&mut app);
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, &Look::default(), (w, h));
        let screen = text(&term);
        assert!(screen.contains("+0.38"), "{screen}");
        assert!(screen.contains("depth 22"), "{screen}");
        assert!(screen.contains("4. Ba4 Nf6 5. O-O"), "{screen}");
        assert!(screen.contains("-0.05 4. Bc4"), "{screen}");
        insta::assert_snapshot!(format!("engine_pane_{w}x{h}"), term.backend());
    }
}

#[test]
fn the_lines_use_the_piece_letters_the_user_reads() {
    let mut app = app_with_pane("de");
    think(&mut app);
    let term = draw(&app, &Look::default(), (80, 24));
    let screen = text(&term);
    assert!(screen.contains("4. La4 Sf6 5. O-O"), "{screen}");
    assert!(screen.contains("4. Lxc6 dxc6"), "{screen}");
}

#[test]
fn before_the_first_lines_the_pane_says_it_is_thinking() {
    let app = app_with_pane("en");
    let screen = text(&draw(&app, &Look::default(), (80, 24)));
    assert!(screen.contains("Stockfish 17: thinking…"), "{screen}");
}

#[test]
fn an_engine_that_failed_is_explained_in_the_pane() {
    let mut app = app_with_pane("en");
    app.update(Done::Engine(Update::Failed(EngineError::Died {
        name: "Stockfish 17".into(),
        status: Some("signal: 9 (SIGKILL)".into()),
        stderr: Vec::new(),
    })));
    let term = draw(&app, &Look::default(), (80, 24));
    let screen = text(&term);
    assert!(screen.contains("engine Stockfish 17 stopped"), "{screen}");
    assert!(screen.contains(":engine restart"), "{screen}");
    insta::assert_snapshot!("engine_pane_failed_80x24", term.backend());
}

#[test]
fn without_colour_the_pane_still_reads() {
    let mut app = app_with_pane("en");
    think(&mut app);
    let look = Look {
        color: false,
        ..Look::default()
    };
    let term = draw(&app, &look, (80, 24));
    let buf = term.backend().buffer();
    let screen = text(&term);
    // White's share of the bar is solid, Black's shaded: readable in any colour.
    assert!(screen.contains("+0.38  ████░░░░  depth 22"), "{screen}");
    for y in 0..24 {
        for x in 0..80 {
            assert_eq!(buf[(x, y)].fg, Color::Reset);
            assert_eq!(buf[(x, y)].bg, Color::Reset);
        }
    }
    let ascii = Look {
        ascii: true,
        ..look
    };
    assert!(text(&draw(&app, &ascii, (80, 24))).contains("+0.38  ####----  depth 22"));
}

#[test]
fn every_small_size_draws_without_a_panic() {
    let mut app = app_with_pane("en");
    think(&mut app);
    for w in 1..=90 {
        for h in 1..=26 {
            draw(&app, &Look::default(), (w, h));
        }
    }
    // On a short screen the moves keep their rows and the pane goes.
    let screen = text(&draw(&app, &Look::default(), (40, 12)));
    assert!(!screen.contains("depth 22"), "{screen}");
}

#[test]
fn at_mate_the_pane_says_there_is_nothing_to_search() {
    let config = Config::defaults();
    let game = read_games("1. f3 e5 2. g4 Qh4# 0-1".as_bytes())
        .remove(0)
        .game;
    let mut app = App::new(settings(&config), game, None);
    describe_keys(&mut app, &config);
    app.update(Action::Engine);
    assert!(matches!(app.engine_orders()[..], [EngineOrder::Start(_)]));
    app.update(Done::Engine(Update::Ready {
        name: "Stockfish 17".into(),
    }));
    let screen = text(&draw(&app, &Look::default(), (80, 24)));
    assert!(screen.contains("checkmate: no move to search"), "{screen}");
}
