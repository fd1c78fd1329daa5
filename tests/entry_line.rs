//! The entry line drawn into a test terminal: a line longer than the screen
//! scrolls so that its end, where the cursor is, stays in sight.

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use scoresheet::app::{Action, App};
use scoresheet::config::Config;
use scoresheet::game::Game;
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::{self, Look};

fn app() -> App {
    let config = Config::defaults();
    let mut app = App::new(settings(&config), Game::default(), None);
    describe_keys(&mut app, &config);
    app
}

/// The screen's rows as text.
fn screen_rows(app: &App, width: u16, height: u16) -> Vec<String> {
    let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
    term.draw(|f| ui::draw(f, app, &Look::default())).unwrap();
    let buf = term.backend().buffer();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect()
}

/// The row that holds the entry line's prompt and cursor.
fn entry_row(rows: &[String]) -> &str {
    rows.iter()
        .find(|r| r.contains('▏'))
        .expect("an entry line with its cursor")
}

#[test]
fn a_long_line_scrolls_to_keep_its_end_in_sight_at_80x24() {
    let mut app = app();
    let line = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Na5";
    assert!(line.chars().count() > 80);
    for c in line.chars() {
        app.update(Action::Type(c));
    }
    let rows = screen_rows(&app, 80, 24);
    let row = entry_row(&rows);
    // The prompt, the mark of the cut, the end of the text, the cursor.
    assert!(row.starts_with("1. …"), "{row:?}");
    assert!(row.contains("9. h3 Na5▏"), "{row:?}");
    assert!(!row.contains("1. e4"), "{row:?}");
    // Wide characters count two cells: the end still shows.
    app.update(Action::ClearEntry);
    let wide = format!("{{{}end", "象".repeat(60));
    for c in wide.chars() {
        app.update(Action::Type(c));
    }
    let rows = screen_rows(&app, 80, 24);
    let row = entry_row(&rows);
    // (the second cell of a wide character reads as a blank)
    assert!(row.contains("象 end▏"), "{row:?}");
    // A short line keeps the side to move on the right.
    app.update(Action::ClearEntry);
    for c in "Nf3".chars() {
        app.update(Action::Type(c));
    }
    let rows = screen_rows(&app, 80, 24);
    let row = entry_row(&rows);
    assert!(row.contains("1. Nf3▏"), "{row:?}");
    assert!(row.trim_end().ends_with("White to move"), "{row:?}");
}
