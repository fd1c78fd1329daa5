//! The box of unsaved games drawn into a test terminal: every game has a line, the
//! chosen one is marked, the keys are named, and a discard asks before it acts.
//! Checked by text, not by snapshot, so that a restyling keeps passing as long as
//! the content is there.

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use scoresheet::app::{Action, App, Settings};
use scoresheet::game::Game;
use scoresheet::ui::{self, Look};

fn screen(app: &App, width: u16, height: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
    term.draw(|f| ui::draw(f, app, &Look::default())).unwrap();
    let buf = term.backend().buffer();
    let mut text = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            text.push_str(buf[(x, y)].symbol());
        }
        text.push('\n');
    }
    text
}

fn app_with_box() -> App {
    let mut app = App::new(Settings::default(), Game::default(), None);
    app.offer_recovery(
        vec![
            "Ann - Bob (Club), 12 moves for club.pgn, 3 min ago".into(),
            "Cy - Di (Club), 1 move, 2 h ago".into(),
        ],
        vec!["/data/journal/x.journal: not a scoresheet journal. Left in place.".into()],
    );
    app
}

#[test]
fn the_box_lists_the_games_marks_the_chosen_one_and_names_the_keys() {
    let mut app = app_with_box();
    let text = screen(&app, 80, 24);
    assert!(text.contains("Unsaved games found"), "{text}");
    assert!(text.contains("> 1. Ann - Bob (Club), 12 moves"), "{text}");
    assert!(text.contains("  2. Cy - Di (Club), 1 move"), "{text}");
    assert!(
        text.contains("x.journal: not a scoresheet journal"),
        "{text}"
    );
    assert!(
        text.contains("Enter recover") && text.contains("Delete discard"),
        "{text}"
    );
    app.update(Action::HistoryNext);
    app.update(Action::DeleteFromHere);
    let text = screen(&app, 80, 24);
    assert!(text.contains("> 2. Cy - Di"), "{text}");
    assert!(text.contains("discard game 2 for good"), "{text}");
}

#[test]
fn the_box_draws_at_every_size_without_panicking() {
    let app = app_with_box();
    for (w, h) in [(1, 1), (10, 3), (20, 5), (40, 12), (80, 24), (200, 60)] {
        screen(&app, w, h);
    }
}
