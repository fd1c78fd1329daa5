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
