//! The one-row bars under the board: the opening and the file, the status
//! (the live feedback on the entry line, or the last message), and the hints.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::text::{fit, fit_left, width};
use crate::app::entry::Feedback;
use crate::app::App;
use crate::notation::{format, Style as Notation};
use crate::position::Move;

/// The opening's name on the left, the file on the right; the file wins the
/// room (a long opening name is cut, never the file).
pub fn opening_line(app: &App, area: Rect, buf: &mut Buffer) {
    if area.is_empty() {
        return;
    }
    let room = usize::from(area.width);
    // A drill's exercises come from many games, none of them the one set aside, whose
    // file and unsaved mark would name another game than the board's.
    let drilling = app
        .train
        .session
        .as_ref()
        .is_some_and(|s| matches!(s.kind, crate::app::train::Kind::Drill(_)));
    let file = match &app.file {
        _ if drilling => "training: your mistakes".to_string(),
        Some(path) => match which_game(app, path) {
            Some(game) => format!("{game} {}", path.display()),
            None => path.display().to_string(),
        },
        // The training's own game is never saved.
        None if app.training() => "training".to_string(),
        None => "no file yet (:w FILE)".to_string(),
    };
    let mark = if app.unsaved && !drilling { " [+]" } else { "" };
    let right = format!("{}{mark}", fit_left(&file, room.saturating_sub(mark.len())));
    let right_w = width(&right);
    if right_w <= room {
        let x = area.right() - right_w as u16;
        buf.set_string(x, area.y, &right, Style::default().fg(Color::DarkGray));
    }
    let name = app.opening.clone().unwrap_or_default();
    let name = fit(&name, room.saturating_sub(right_w + 2));
    buf.set_string(area.x, area.y, name, Style::default().fg(Color::Green));
}

/// Which game of its file the game on the screen is ("game 3 of 120 in"), so that a
/// reader always knows where they are: the status says it only until the next key. The
/// list's file says it, or a save that added the game to another file (`:w OTHER.pgn`)
/// and counted its games; a game opened alone (`:e FILE N`) knows its number only
/// ("game 3 in"): counting the games of a large file would mean reading it all.
fn which_game(app: &App, path: &std::path::Path) -> Option<String> {
    let of_list = app
        .list()
        .filter(|l| l.path == path || crate::store::target::same_file(&l.path, path))
        .and_then(|l| Some((l.open?, l.catalog.games())));
    let (number, games) = match of_list {
        Some((number, games)) => (number, Some(games)),
        None => (
            app.number?,
            app.games_in_file.and_then(|g| usize::try_from(g).ok()),
        ),
    };
    let number = crate::plural::grouped(usize::try_from(number).unwrap_or(usize::MAX));
    Some(match games {
        Some(games) => format!("game {number} of {} in", crate::plural::grouped(games)),
        None => format!("game {number} in"),
    })
}

/// Moves in the scoresheet's notation, for the feedback.
fn shown(app: &App, moves: &[chess::ChessMove]) -> String {
    let pos = app.position();
    let style = match app.settings.display {
        Notation::Lan => Notation::Lan,
        Notation::Figurine => Notation::Figurine,
        _ => Notation::San,
    };
    let mut names: Vec<String> = moves
        .iter()
        .take(12)
        .map(|&m| format(&pos, Move::Normal(m), style, app.settings.display_lang))
        .collect();
    if moves.len() > 12 {
        names.push(format!("… {} in all", moves.len()));
    }
    names.join(" ")
}

/// What the status line says, and how.
pub fn status(app: &App) -> (String, Style) {
    match &app.feedback {
        // The reason a line was refused stays on screen while the line is fixed: a
        // long line's note ("Enter reads it whole") would hide which move failed.
        Feedback::Empty | Feedback::Note(_)
            if !app.message.text.is_empty() && (app.entry.is_empty() || app.message.error) =>
        {
            (
                app.message.text.clone(),
                if app.message.error {
                    Style::default().fg(Color::Red).add_modifier(Modifier::BOLD)
                } else {
                    Style::default()
                },
            )
        }
        Feedback::Empty => (String::new(), Style::default()),
        Feedback::Partial(moves) => (
            format!("matches: {}", shown(app, moves)),
            Style::default().fg(Color::Cyan),
        ),
        Feedback::Ready(mv) => (
            format!(
                "Enter {} {}",
                if app.training() { "answers" } else { "plays" },
                shown(app, std::slice::from_ref(mv))
            ),
            Style::default().fg(Color::Green),
        ),
        Feedback::Ambiguous(_, sans) => (
            format!("ambiguous: {}", sans.join(" or ")),
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        ),
        Feedback::Promotion(_) => (
            "the pawn promotes: Enter, then Q, R, B or N".to_string(),
            Style::default().fg(Color::Yellow),
        ),
        Feedback::Illegal(why) => (why.clone(), Style::default().fg(Color::Red)),
        Feedback::Note(note) => (note.clone(), Style::default().fg(Color::Cyan)),
    }
}

/// The status, wrapped at spaces over the rows it was given; what still does not
/// fit ends in `…`.
pub fn status_line((text, style): &(String, Style), area: Rect, buf: &mut Buffer) {
    if area.is_empty() {
        return;
    }
    let lines = super::text::wrap(text, usize::from(area.width));
    let rows = usize::from(area.height);
    let mut shown: Vec<Line> = lines
        .iter()
        .take(rows)
        .map(|l| Line::styled(l.clone(), *style))
        .collect();
    if lines.len() > rows {
        let last = format!("{} {}", lines[rows - 1], lines[rows]);
        shown[rows - 1] = Line::styled(fit(&last, usize::from(area.width)), *style);
    }
    Paragraph::new(shown)
        .wrap(Wrap { trim: false })
        .render(area, buf);
}

/// As many of the hint keys as fit, whole.
pub fn hint_line(app: &App, area: Rect, buf: &mut Buffer) {
    if area.is_empty() {
        return;
    }
    let mut spans = Vec::new();
    let mut used = 0;
    for (keys, what) in app.hints() {
        let len = width(&keys) + width(what) + 3;
        if used + len > usize::from(area.width) + 2 {
            break;
        }
        spans.push(Span::styled(
            keys,
            Style::default().add_modifier(Modifier::REVERSED),
        ));
        spans.push(Span::raw(format!(" {what}  ")));
        used += len;
    }
    Line::from(spans).render(area, buf);
}
