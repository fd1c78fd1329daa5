//! Prints the recorder's screen for a few moves as text (a quick look while developing).
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use scoresheet::app::{Action, App, Settings};
use scoresheet::game::Game;
use scoresheet::ui::{self, Look};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (w, h) = (args[0].parse().unwrap(), args[1].parse().unwrap());
    let mut app = App::new(Settings::default(), Game::default(), None);
    for line in &args[2..] {
        for c in line.chars() {
            app.update(Action::Type(c));
        }
        if !line.ends_with('…') {
            app.update(Action::PlayEntry);
        }
    }
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::draw(f, &app, &Look::default())).unwrap();
    println!("{}", term.backend());
}
