//! The recorder's screen drawn into a test terminal at 80×24 and 120×40, and
//! snapshotted; colours are checked by reading cells.

use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;
use scoresheet::app::{Action, App};
use scoresheet::config::Config;
use scoresheet::game::Game;
use scoresheet::position::Position;
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::{self, Look};

fn app_with(start: Position, lines: &[&str]) -> App {
    let config = Config::defaults();
    let mut game = Game::new(start);
    game.set_tag("Event", "Club Rapid");
    game.set_tag("Date", "2026.11.21");
    game.set_tag("White", "Ann");
    game.set_tag("Black", "Bob");
    let mut app = App::new(settings(&config), game, Some("club.pgn".into()));
    describe_keys(&mut app, &config);
    for line in lines {
        for c in line.chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::PlayEntry);
    }
    app
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Action::Type(c));
    }
}

fn draw(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
    term.draw(|f| ui::draw(f, app, &Look::default())).unwrap();
    term
}

const MIDDLEGAME: &str = "e4 +1:29:40 c5 +1:29:50 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O O-O-O Nbd7 g4 b5 g5 b4";

#[test]
fn start_position() {
    let app = app_with(Position::start(), &[]);
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, w, h);
        insta::assert_snapshot!(format!("start_{w}x{h}"), term.backend());
    }
}

#[test]
fn middlegame_with_the_matching_moves_highlighted() {
    let mut app = app_with(Position::start(), &[MIDDLEGAME]);
    typed(&mut app, "N");
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, w, h);
        insta::assert_snapshot!(format!("middlegame_{w}x{h}"), term.backend());
    }
    // The knights' squares are lit: c3 and its targets, in the hint colour.
    let term = draw(&app, 80, 24);
    let buf = term.backend().buffer();
    let palette = Look::default().palette();
    // With 3×1 squares and coordinates, c3 is at column 2 + 2*3 + 1, row 5.
    let (r, g, b) = palette.hint_light;
    let (rd, gd, bd) = palette.hint_dark;
    let bg = buf[(2 + 2 * 3 + 1, 5)].bg;
    assert!(
        bg == Color::Rgb(r, g, b) || bg == Color::Rgb(rd, gd, bd),
        "{bg:?}"
    );
    // The last move (…b4) is marked.
    let (lr, lg, lb) = palette.last_light;
    let (dr, dg, db) = palette.last_dark;
    let b4 = buf[(2 + 3 + 1, 4)].bg;
    assert!(
        b4 == Color::Rgb(lr, lg, lb) || b4 == Color::Rgb(dr, dg, db),
        "{b4:?}"
    );
}

#[test]
fn ambiguity_message() {
    let start = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
    let mut app = app_with(start, &[]);
    typed(&mut app, "Rd1");
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, w, h);
        insta::assert_snapshot!(format!("ambiguous_{w}x{h}"), term.backend());
    }
}

#[test]
fn help_overlay() {
    let mut app = app_with(Position::start(), &["e4 e5"]);
    app.update(Action::Help);
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, w, h);
        insta::assert_snapshot!(format!("help_{w}x{h}"), term.backend());
    }
}

#[test]
fn ascii_mode_and_the_256_colour_fallback() {
    let app = app_with(Position::start(), &["e4"]);
    let look = Look {
        ascii: true,
        truecolor: false,
        ..Look::default()
    };
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    term.draw(|f| ui::draw(f, &app, &look)).unwrap();
    let buf = term.backend().buffer();
    let row = |y: u16| {
        (0..28)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect::<String>()
    };
    assert_eq!(row(0).trim_end(), "8  r  n  b  q  k  b  n  r");
    assert_eq!(row(4).trim_end(), "4              P");
    assert!(
        matches!(buf[(3, 0)].bg, Color::Indexed(_)),
        "{:?}",
        buf[(3, 0)].bg
    );
}

#[test]
fn the_scoresheet_follows_the_cursor() {
    let moves = "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 \
        O-O-O Qe7 Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7 \
        Rhe1 d4 Nd5 Nbxd5 exd5 Qd6 Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7";
    let mut app = app_with(Position::start(), &[moves]);
    let text = |app: &App| draw(app, 80, 24).backend().to_string();
    let end = text(&app);
    assert!(end.contains("29. Ra7"), "{end}");
    assert!(!end.contains(" 1. e4"), "{end}");
    app.update(Action::GoStart);
    app.update(Action::MoveForward);
    let start = text(&app);
    assert!(start.contains(" 1. e4"), "{start}");
    assert!(!start.contains("29. Ra7"), "{start}");
}

#[test]
fn help_and_hints_follow_the_key_bindings() {
    let config = Config::from_toml_str("[keys]\nhelp = [\"F2\"]\nundo = [\"Alt-z\"]\n").unwrap();
    let mut app = App::new(settings(&config), Game::default(), None);
    describe_keys(&mut app, &config);
    app.update(Action::Help);
    let screen = draw(&app, 120, 40).backend().to_string();
    assert!(screen.contains("F2 help"), "{screen}");
    assert!(screen.contains("Alt-z undo"), "{screen}");
    assert!(!screen.contains("F1"), "{screen}");
}
