use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use scoresheet::app::{Action, App, Msg, Overlay, RecoverBox};
use scoresheet::config::Config;
use scoresheet::pgn::builder::read_games;
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::{self, Look};

const GAME: &str = "[White \"Anand, V.\"]\n[Black \"Carlsen, M.\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";

fn app() -> App {
    let config = Config::defaults();
    let game = read_games(GAME.as_bytes()).remove(0).game;
    let mut app = App::new(settings(&config), game, Some("g.pgn".into()));
    describe_keys(&mut app, &config);
    app
}
fn draw(app: &App, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::render(app, &Look::default(), f.area(), f.buffer_mut()))
        .unwrap();
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('|');
        out.push('\n');
    }
    out
}
fn key(app: &mut App, c: char) {
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )));
}

#[test]
fn show() {
    let mut states: Vec<(&str, App)> = Vec::new();
    let mut a = app();
    a.update(Action::EditComment);
    for c in "hello world".chars() {
        key(&mut a, c);
    }
    states.push(("comment", a));
    let mut a = app();
    a.update(Action::EditTags);
    states.push(("tags", a));
    let mut a = app();
    a.update(Action::EditTags);
    a.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    states.push(("tags editing", a));
    let mut a = app();
    a.update(Action::Help);
    states.push(("help", a));
    let mut a = app();
    a.overlay = Overlay::Recover(RecoverBox {
        games: vec!["Ann – Bob, 2026.11.21, 60 moves, last written 21:04".into(); 2],
        broken: vec![],
        selected: 0,
        confirm_discard: false,
    });
    states.push(("recover", a));
    let mut a = app();
    for c in ":train guess white".chars() {
        a.update(Action::Type(c));
    }
    a.update(Action::PlayEntry);
    states.push(("guess", a));
    let config = Config::defaults();
    let mut a = app();
    a.engine = scoresheet::app::engine::EngineView::new(scoresheet::app::engine::engine_config(
        &config.engine,
    ));
    a.update(Action::Engine);
    a.update(scoresheet::app::Done::Engine(
        scoresheet::engine::Update::Ready {
            name: "Stockfish 17".into(),
        },
    ));
    states.push(("engine", a));
    let mut a = app();
    a.update(Action::TreePane);
    states.push(("tree", a));
    let mut a = app();
    states.push(("plain", a));
    for (name, a) in &states {
        for (w, h) in [(20u16, 2u16), (30, 10), (40, 14)] {
            println!("== {name} {w}x{h}\n{}", draw(a, w, h));
        }
    }
}
