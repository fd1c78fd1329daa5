//! The entry line: the vim preset's mode (`NORMAL`, `INSERT`), the move-number
//! prompt (how the game ended, after a mate or a stalemate), the text being typed with its cursor (none in normal mode, where
//! nothing types), and on the right what typing inside the game does, the move
//! timer and the side to move.
//! A line longer than the screen scrolls so that its end, where the cursor is,
//! stays in sight (measured in display cells, not characters).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::app::{App, Inside};

/// Marks the start of a line scrolled out of sight.
const CUT: &str = "…";

/// The end of `text` that fits in `room` cells, and whether it was cut.
pub fn visible_tail(text: &str, room: usize) -> (&str, bool) {
    if text.width() <= room {
        return (text, false);
    }
    let room = room.saturating_sub(CUT.width());
    let mut used = 0;
    let mut start = text.len();
    for (i, c) in text.char_indices().rev() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        start = i;
    }
    (&text[start..], true)
}

/// Draws the entry line of `app` into `area`.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let pos = app.position();
    let white = pos.side_to_move() == chess::Color::White;
    // Where no move can follow, the line says how the game ended, not whose move it is.
    let over = crate::app::entry::game_over(&pos);
    let prompt = match over {
        Some(over) => format!("{over} "),
        None => format!(
            "{}{} ",
            pos.fullmove_number(),
            if white { "." } else { "..." }
        ),
    };
    let mut right = Vec::new();
    if !app.game.node(app.cursor).children.is_empty() {
        right.push(match app.inside {
            Inside::Variation => "[variation]".to_string(),
            Inside::Replace => "[replace]".to_string(),
        });
    }
    if let Some(started) = app.timer {
        let secs = started.elapsed().as_secs();
        right.push(format!("⏱ {}:{:02}", secs / 60, secs % 60));
    }
    right.push(match over {
        Some(_) => "game over".to_string(),
        None => format!("{} to move", if white { "White" } else { "Black" }),
    });
    let right = right.join("  ");
    // The mode stands first, where the eye looks when it types.
    let mode = if app.keymap.modal() && app.screen == crate::app::Screen::Game {
        format!(" {} ", app.mode.name())
    } else {
        String::new()
    };
    let cursor = if app.normal_mode() { "" } else { "▏" };
    let width = usize::from(area.width);
    let fixed = mode.width() + usize::from(!mode.is_empty()) + prompt.width() + cursor.width();
    // The text and the right side side by side when both fit; else the text
    // has the whole line (the prompt still says whose move it is).
    let (room, right) = if fixed + app.entry.width() + 1 + right.width() <= width {
        (width - fixed - 1 - right.width(), right)
    } else {
        (width.saturating_sub(fixed), String::new())
    };
    let (text, cut) = visible_tail(&app.entry, room);
    let dim = Style::default().fg(Color::DarkGray);
    let mut spans = Vec::new();
    if !mode.is_empty() {
        spans.push(Span::styled(
            mode,
            Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD),
        ));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(prompt, dim));
    if cut {
        spans.push(Span::styled(CUT, dim));
    }
    spans.push(Span::styled(
        text,
        Style::default().add_modifier(Modifier::BOLD),
    ));
    spans.push(Span::styled(cursor, Style::default().fg(Color::Gray)));
    if !right.is_empty() {
        let used: usize = spans.iter().map(|s| s.width()).sum();
        let gap = width.saturating_sub(used + right.width());
        spans.push(Span::raw(" ".repeat(gap)));
        spans.push(Span::styled(right, dim));
    }
    Line::from(spans).render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_that_fits_in_cells() {
        assert_eq!(visible_tail("e4 e5", 10), ("e4 e5", false));
        assert_eq!(
            visible_tail("1. e4 e5 2. Nf3", 6),
            ("2. Nf3"[1..].as_ref(), true)
        );
        // Wide characters take two cells each: 3 of them and the mark fit in 7.
        assert_eq!(visible_tail("象象象象象", 7), ("象象象", true));
    }

    /// The entry line of `app` at 80 columns, as text.
    fn line(app: &App) -> String {
        let area = Rect::new(0, 0, 80, 1);
        let mut buf = Buffer::empty(area);
        render(app, area, &mut buf);
        (0..area.width).map(|x| buf[(x, 0)].symbol()).collect()
    }

    /// After a mate or a stalemate the line says the game is over and how, where it
    /// would ask for a move; a move back, it asks again.
    #[test]
    fn after_a_mate_or_a_stalemate_the_line_says_how_the_game_ended() {
        use crate::app::{Action, Settings};
        use crate::game::Game;
        use crate::position::Position;
        let mut app = App::new(Settings::default(), Game::default(), None);
        for c in "f3 e5 g4 Qh4#".chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::PlayEntry);
        let shown = line(&app);
        assert!(shown.starts_with("checkmate: 0-1 ▏"), "{shown}");
        assert!(shown.trim_end().ends_with("game over"), "{shown}");
        assert!(!shown.contains("to move"), "{shown}");
        app.update(Action::MoveBack);
        let shown = line(&app);
        assert!(shown.starts_with("2... ▏"), "{shown}");
        assert!(shown.trim_end().ends_with("Black to move"), "{shown}");

        let start = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        let app = App::new(Settings::default(), Game::new(start), None);
        let shown = line(&app);
        assert!(shown.starts_with("stalemate: ½-½ ▏"), "{shown}");
        assert!(shown.trim_end().ends_with("game over"), "{shown}");
    }
}
