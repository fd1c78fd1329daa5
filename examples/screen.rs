//! Draws the recorder's screen after some typed lines, for a look while
//! developing: as text, or (`--json`) as cells with their colours, which
//! `scripts/screenshot.py` turns into a PNG.
//!
//! `cargo run --example screen -- [--json] WIDTH HEIGHT [LINE…]` — a line ending
//! in `…` is typed but not entered; `@move-back` (any action's name) runs the action.
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;
use scoresheet::app::{Action, App};
use scoresheet::config::Config;
use scoresheet::game::Game;
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::{self, Look};

fn hex(color: Color, default: &str) -> String {
    match color {
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Reset => default.to_string(),
        Color::Black => "#000000".into(),
        Color::Red => "#cc3333".into(),
        Color::Green => "#33aa33".into(),
        Color::Yellow => "#cccc33".into(),
        Color::Cyan => "#33bbbb".into(),
        Color::Gray => "#bbbbbb".into(),
        Color::DarkGray => "#808080".into(),
        Color::White => "#ffffff".into(),
        other => format!("{other:?}"),
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.first().is_some_and(|a| a == "--json");
    if json {
        args.remove(0);
    }
    let (w, h) = (args[0].parse().unwrap(), args[1].parse().unwrap());
    let config = Config::defaults();
    let mut app = App::new(settings(&config), Game::default(), None);
    describe_keys(&mut app, &config);
    for line in &args[2..] {
        let named = line.strip_prefix('@').and_then(Action::from_name);
        if let Some(action) = named {
            app.update(action);
            continue;
        }
        let (text, enter) = match line.strip_suffix('…') {
            Some(text) => (text, false),
            None => (line.as_str(), true),
        };
        for c in text.chars() {
            app.update(Action::Type(c));
        }
        if enter {
            app.update(Action::PlayEntry);
        }
    }
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    let look = Look {
        color: !ui::look::colour_refused(),
        ..Look::default()
    };
    term.draw(|f| ui::draw(f, &app, &look)).unwrap();
    let buf = term.backend().buffer();
    if !json {
        // The rows as a terminal shows them (the backend's own Display quotes each).
        for y in 0..h {
            let row: String = (0..w).map(|x| buf[(x, y)].symbol()).collect();
            println!("{}", row.trim_end());
        }
        return;
    }
    let mut rows = Vec::new();
    for y in 0..h {
        let mut cells = Vec::new();
        for x in 0..w {
            let cell = &buf[(x, y)];
            let (mut fg, mut bg) = (hex(cell.fg, "#d0d0d0"), hex(cell.bg, "#1e1e1e"));
            if cell.modifier.contains(Modifier::REVERSED) {
                std::mem::swap(&mut fg, &mut bg);
            }
            let bold = cell.modifier.contains(Modifier::BOLD);
            let sym = cell.symbol().replace('\\', "\\\\").replace('"', "\\\"");
            cells.push(format!("[\"{sym}\",\"{fg}\",\"{bg}\",{bold}]"));
        }
        rows.push(format!("[{}]", cells.join(",")));
    }
    println!("[{}]", rows.join(",\n"));
}
