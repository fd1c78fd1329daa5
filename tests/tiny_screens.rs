//! Every window over the game drawn on tiny screens (20×2, the smallest the app draws
//! on, and 30×10): each shows what a user needs to go on — the text being typed with its
//! cursor, the tag chosen, the keys that decide (Enter, Esc), the pane's or the
//! training's gist — or says plainly that it needs a larger terminal; none is left
//! taking keys unseen, and none panics.

mod screen_text;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use ratatui::Terminal;
use scoresheet::app::engine::{engine_config, EngineView};
use scoresheet::app::{Action, App, Done, Msg, Overlay, RecoverBox};
use scoresheet::config::Config;
use scoresheet::engine::uci::parse_info;
use scoresheet::engine::{Lines, Update};
use scoresheet::game::Game;
use scoresheet::pgn::builder::read_games;
use scoresheet::position::Position;
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::{self, Look};
use screen_text::text;

const GAME: &str = "[White \"Anand, V.\"]\n[Black \"Carlsen, M.\"]\n[Result \"*\"]\n\n\
                    1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";

const SIZES: [(u16, u16); 2] = [(20, 2), (30, 10)];

fn app_on(game: Game) -> App {
    let config = Config::defaults();
    let mut app = App::new(settings(&config), game, Some("g.pgn".into()));
    describe_keys(&mut app, &config);
    app
}

fn app() -> App {
    app_on(read_games(GAME.as_bytes()).remove(0).game)
}

fn key(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
}

fn line(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
}

fn draw(app: &App, (w, h): (u16, u16)) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::render(app, &Look::default(), f.area(), f.buffer_mut()))
        .unwrap();
    term
}

/// True when some cell is drawn reversed (an editor's cursor, a chosen row).
fn reversed(buf: &Buffer) -> bool {
    buf.content
        .iter()
        .any(|c| c.modifier.contains(Modifier::REVERSED))
}

/// Asserts that each of `needles` is on the screen at every size.
fn shows(what: &str, app: &App, needles: &[&str]) {
    for size in SIZES {
        let screen = text(&draw(app, size));
        for needle in needles {
            assert!(
                screen.contains(needle),
                "{what} at {}×{}: {needle:?} is not on\n{screen}",
                size.0,
                size.1
            );
        }
    }
}

#[test]
fn the_comment_editor_shows_the_text_typed_and_its_cursor() {
    let mut app = app();
    app.update(Action::EditComment);
    typed(&mut app, "pin");
    shows("the comment editor", &app, &["pin", "comment after 3...a"]);
    for size in SIZES {
        assert!(reversed(draw(&app, size).backend().buffer()), "the cursor");
    }
    // What it says (a brace refused) takes the keys' row.
    typed(&mut app, "}");
    shows("the comment editor", &app, &["a PGN"]);
}

#[test]
fn the_tag_form_shows_the_chosen_tag_and_the_field_edited() {
    let mut app = app();
    app.update(Action::EditTags);
    shows("the tag form", &app, &["Event", "Enter edit"]);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Enter);
    typed(&mut app, "Wijk");
    shows("the tag form", &app, &["Site", "Wijk", "Enter keep"]);
}

#[test]
fn the_help_says_it_needs_room_or_shows_itself() {
    let mut app = app();
    app.update(Action::Help);
    let tiny = text(&draw(&app, (20, 2)));
    assert!(
        tiny.contains("enlarge to read") && tiny.contains("Esc closes"),
        "{tiny}"
    );
    let small = text(&draw(&app, (30, 10)));
    assert!(small.contains("Keys and commands"), "{small}");
}

#[test]
fn the_recovery_box_keeps_the_game_chosen_and_the_keys() {
    let mut app = app();
    app.overlay = Overlay::Recover(RecoverBox {
        games: vec!["Ann – Bob, 2026.11.21, 60 moves, last written 21:04".into(); 3],
        broken: Vec::new(),
        selected: 1,
        confirm_discard: false,
    });
    shows(
        "the recovery box",
        &app,
        &["> 2. Ann – Bob", "Enter recover"],
    );
    let small = text(&draw(&app, (30, 10)));
    for keys in ["Enter recover", "Delete discard", "Esc later"] {
        assert!(small.contains(keys), "{keys:?}:\n{small}");
    }
}

#[test]
fn the_promotion_choice_shows_its_keys() {
    let start = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    let mut app = app_on(Game::new(start));
    line(&mut app, "e8");
    assert!(matches!(app.overlay, Overlay::Promotion(_)));
    shows("the promotion choice", &app, &["promote to", "Q R"]);
}

#[test]
fn an_open_pane_says_its_gist() {
    let config = Config::defaults();
    let mut app = app();
    app.engine = EngineView::new(engine_config(&config.engine));
    app.update(Action::Engine);
    app.engine_orders();
    app.update(Done::Engine(Update::Ready {
        name: "Stockfish 17".into(),
    }));
    let mut lines = Lines::new(app.position());
    lines.update(&parse_info(
        "info depth 22 multipv 1 score cp 38 nodes 9000000 nps 1450000 pv b5a4 g8f6",
    ));
    app.update(Done::Engine(Update::Lines { id: 1, lines }));
    app.message = Default::default();
    shows("the engine pane", &app, &["Engine +0.38", "Ba4"]);
    // A screen of a few rows, where the moves have three: they keep their row (the last
    // move played) and the gist still shows, rather than an empty frame over the gist.
    for size in [(25, 6), (40, 6), (80, 6)] {
        let screen = text(&draw(&app, size));
        for needle in ["a6", "+0.38"] {
            assert!(
                screen.contains(needle),
                "{}×{}: {needle:?} is not on\n{screen}",
                size.0,
                size.1
            );
        }
    }

    let mut app = self::app();
    app.update(Action::TreePane);
    app.message = Default::default();
    shows("the tree pane", &app, &["Tree: reading"]);
}

#[test]
fn training_shows_what_is_trained() {
    let mut app = app();
    line(&mut app, ":train guess white");
    assert!(app.training());
    app.message = Default::default();
    shows("guessing the moves", &app, &["Guess the move"]);
}

/// The request to enlarge a screen too small is read whole at every size below the
/// smallest (one row of 1 to 19 columns, one column of any height, a row of any width):
/// never a word cut at the edge, the longest wording that fits, with the keys ignored
/// when there is room to say it.
#[test]
fn the_request_to_enlarge_is_read_whole_at_every_size() {
    let drawn = |width: u16, height: u16, ignored: usize| -> Vec<String> {
        let area = ratatui::layout::Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        ui::enlarge(area, ignored, &mut buf);
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .filter(|row| !row.is_empty())
            .collect()
    };
    let words = |rows: &[String]| rows.join(" ");
    let wordings = |ignored: usize| {
        let n = ignored.to_string();
        [
            "+".to_string(),
            "wider".to_string(),
            "enlarge".to_string(),
            format!("enlarge ({n} ignored)"),
            "enlarge to 20×2".to_string(),
            format!("enlarge to 20×2 ({n} ignored)"),
            format!("enlarge to 20×2 ({n} keys ignored)"),
            "enlarge to 20×2 at least: keys do nothing".to_string(),
            "enlarge to 20×2: keys do nothing".to_string(),
            format!("enlarge to 20×2: keys do nothing ({n} ignored)"),
            format!("enlarge to 20×2 at least: keys do nothing ({n} ignored)"),
        ]
    };
    let mut sizes: Vec<(u16, u16)> = (1..=19).map(|w| (w, 1)).collect();
    sizes.extend((1..=40).map(|h| (1, h)));
    sizes.extend([
        (20, 1),
        (40, 1),
        (90, 1),
        (200, 1),
        (12, 3),
        (19, 12),
        (5, 5),
    ]);
    for (width, height) in sizes {
        for ignored in [0, 4, 1234] {
            let rows = drawn(width, height, ignored);
            let said = words(&rows);
            let full = format!(
                "enlarge the terminal (20×2 at least; now {width}×{height}): until then keys do nothing"
            );
            let readable = wordings(ignored).contains(&said)
                || said == full
                || said == format!("{full} ({ignored} ignored)");
            assert!(readable, "{width}×{height}, {ignored} ignored: {rows:?}");
        }
    }
    // What each width of one row says: the most it can.
    let one_row = |width| words(&drawn(width, 1, 0));
    assert_eq!(one_row(1), "+");
    assert_eq!(one_row(4), "+");
    assert_eq!(one_row(5), "wider");
    assert_eq!(one_row(7), "enlarge");
    assert_eq!(one_row(15), "enlarge to 20×2");
    assert_eq!(one_row(19), "enlarge to 20×2");
    assert_eq!(words(&drawn(30, 1, 0)), "enlarge to 20×2");
    assert_eq!(words(&drawn(19, 1, 4)), "enlarge (4 ignored)");
    assert_eq!(words(&drawn(12, 3, 0)), "enlarge to 20×2: keys do nothing");
    assert_eq!(words(&drawn(12, 3, 4)), "enlarge to 20×2 (4 keys ignored)");
    assert!(words(&drawn(90, 1, 4)).ends_with("until then keys do nothing (4 ignored)"));
}
