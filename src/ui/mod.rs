//! Draw-only: the recorder's screen from `&App`. Board and tags on the left,
//! the scoresheet on the right, then the opening line, the status line, the
//! entry line and the hint line; overlays (help, promotion, recovery) on top.
//! Usable from 80×24; the board's squares grow with the terminal.

pub mod board;
pub mod entry;
pub mod look;
mod overlay;
pub mod sheet;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};
use ratatui::Frame;

use crate::app::entry::Feedback;
use crate::app::{App, Overlay};
use crate::notation::{format, Style as Notation};
use crate::position::Move;
pub use look::{Look, SquareSize, Theme};

/// Rows the tags panel wants under the board (with its frame).
const TAGS_ROWS: u16 = 9;
/// Columns the scoresheet needs at least.
const SHEET_COLUMNS: u16 = 34;

/// Draws the whole screen into a frame.
pub fn draw(frame: &mut Frame, app: &App, look: &Look) {
    let area = frame.area();
    render(app, look, area, frame.buffer_mut());
}

/// The largest square size that leaves room for the tags and the scoresheet.
pub fn square_size(look: &Look, main: Rect) -> SquareSize {
    if look.square != SquareSize::Auto {
        return look.square;
    }
    [SquareSize::Large, SquareSize::Medium, SquareSize::Small]
        .into_iter()
        .find(|&size| {
            let (w, h) = board::board_extent(size, look.coordinates);
            main.width >= w + SHEET_COLUMNS && main.height >= h + TAGS_ROWS
        })
        .unwrap_or(SquareSize::Small)
}

/// Draws the whole screen into a buffer (the frame's, or a test's).
pub fn render(app: &App, look: &Look, area: Rect, buf: &mut Buffer) {
    let [main, opening, status, entry, hints] = Layout::vertical([
        Constraint::Min(9),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let size = square_size(look, main);
    let (board_w, board_h) = board::board_extent(size, look.coordinates);
    let left_w = board_w.max(28).min(main.width);
    let [left, right] =
        Layout::horizontal([Constraint::Length(left_w + 1), Constraint::Min(0)]).areas(main);
    let [board_area, tags_area] =
        Layout::vertical([Constraint::Length(board_h), Constraint::Min(0)]).areas(left);
    board::render(app, look, size, board_area, buf);
    tags(
        app,
        Rect {
            width: left_w,
            ..tags_area
        },
        buf,
    );
    sheet::render(app, right, buf);
    opening_line(app, opening, buf);
    status_line(app, status, buf);
    entry::render(app, entry, buf);
    hint_line(app, hints, buf);
    match &app.overlay {
        Overlay::None => {}
        Overlay::Help => overlay::help(app, area, buf),
        Overlay::Promotion(choices) => overlay::promotion(app, choices, area, buf),
        Overlay::Recover(b) => overlay::recover(b, area, buf),
    }
}

fn label(name: &str) -> Span<'static> {
    Span::styled(format!("{name:<6} "), Style::default().fg(Color::DarkGray))
}

fn tags(app: &App, area: Rect, buf: &mut Buffer) {
    if area.height < 3 {
        return;
    }
    let game = &app.game;
    let tag = |name: &str| game.tag(name).unwrap_or("?").to_string();
    let player = |side: &str| {
        let elo = game
            .tag(&format!("{side}Elo"))
            .filter(|e| !e.is_empty() && *e != "?");
        match elo {
            Some(elo) => format!("{} ({elo})", tag(side)),
            None => tag(side),
        }
    };
    let round = match game.tag("Board") {
        Some(board) => format!("{}  board {board}", tag("Round")),
        None => tag("Round"),
    };
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![
        Line::from(vec![label("White"), Span::styled(player("White"), bold)]),
        Line::from(vec![label("Black"), Span::styled(player("Black"), bold)]),
        Line::from(vec![label("Event"), Span::raw(tag("Event"))]),
        Line::from(vec![label("Site"), Span::raw(tag("Site"))]),
        Line::from(vec![label("Date"), Span::raw(tag("Date"))]),
        Line::from(vec![label("Round"), Span::raw(round)]),
    ];
    if let Some(tc) = game.tag("TimeControl") {
        lines.push(Line::from(vec![label("Time"), Span::raw(tc.to_string())]));
    }
    lines.push(Line::from(vec![
        label("Result"),
        Span::styled(tag("Result"), bold),
    ]));
    Paragraph::new(lines)
        .block(Block::bordered().title(" Game "))
        .render(area, buf);
}

fn opening_line(app: &App, area: Rect, buf: &mut Buffer) {
    let name = app.opening.clone().unwrap_or_default();
    let file = match &app.file {
        Some(path) => path.display().to_string(),
        None => "no file yet (:w FILE)".to_string(),
    };
    let mark = if app.unsaved { " [+]" } else { "" };
    let right = format!("{file}{mark}");
    buf.set_string(area.x, area.y, &name, Style::default().fg(Color::Green));
    let x = area.right().saturating_sub(right.chars().count() as u16);
    if x > area.x + name.chars().count() as u16 {
        buf.set_string(x, area.y, right, Style::default().fg(Color::DarkGray));
    }
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

fn status_line(app: &App, area: Rect, buf: &mut Buffer) {
    let (text, style) = match &app.feedback {
        Feedback::Empty | Feedback::Note(_)
            if !app.message.text.is_empty() && app.entry.is_empty() =>
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
            format!("Enter plays {}", shown(app, std::slice::from_ref(mv))),
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
    };
    buf.set_stringn(area.x, area.y, text, usize::from(area.width), style);
}

fn hint_line(app: &App, area: Rect, buf: &mut Buffer) {
    let mut spans = Vec::new();
    let mut used = 0;
    for (keys, what) in &app.hints {
        let len = keys.chars().count() + what.chars().count() + 3;
        if used + len > usize::from(area.width) {
            break;
        }
        spans.push(Span::styled(
            keys.clone(),
            Style::default().add_modifier(Modifier::REVERSED),
        ));
        spans.push(Span::raw(format!(" {what}  ")));
        used += len;
    }
    Line::from(spans).render(area, buf);
}
