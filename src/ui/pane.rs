//! Draws the study pane (see `app::pane`): a framed box under the moves with the
//! engine's analysis or the opening tree. Each pane's body is drawn by its own
//! function from the app's state.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Block, Paragraph, Widget};

use super::Look;
use crate::app::pane::Pane;
use crate::app::App;

/// The fewest rows the pane is drawn in (frame included).
pub const MIN_ROWS: u16 = 4;

/// The rows the open pane would like in a column of `area` (frame included).
pub fn rows_wanted(app: &App, area: Rect) -> u16 {
    let _ = area;
    match app.pane {
        Pane::None => 0,
        Pane::Engine => 2 + super::engine::rows_wanted(app),
        Pane::Tree => 9,
    }
}

/// The open pane in one line, for a screen too short for its frame: the engine's
/// score and best line (or what it says), the opening tree's chosen move (or what it
/// is doing). Empty when no pane is open.
pub fn line(app: &App, look: &Look) -> String {
    match app.pane {
        Pane::None => String::new(),
        Pane::Engine => {
            let v = super::engine::view(app, look.ascii, look.color);
            match (&v.note, v.lines.first()) {
                (Some(note), _) => format!("Engine: {note}"),
                (None, Some((score, moves))) => format!("Engine {score} {moves}"),
                (None, None) => "Engine: starting…".to_string(),
            }
        }
        Pane::Tree => match app.current_tree() {
            Some(tree) => match tree.branches.get(app.tree.selected) {
                Some(b) => format!(
                    "Tree: {} in {} of {} (Enter plays it)",
                    b.san,
                    b.games,
                    crate::plural::count_grouped(tree.games as usize, "game", "games")
                ),
                None => "Tree: no move played from here".to_string(),
            },
            None if app.tree.status.is_empty() => "Tree: reading the file…".to_string(),
            None => format!("Tree: {}", app.tree.status),
        },
    }
}

/// Draws the open pane into `area`.
pub fn render(app: &App, look: &Look, area: Rect, buf: &mut Buffer) {
    let block = Block::bordered().title(app.pane.title());
    let inner = block.inner(area);
    block.render(area, buf);
    match app.pane {
        Pane::Engine => super::engine::render(
            &super::engine::view(app, look.ascii, look.color),
            inner,
            buf,
        ),
        Pane::Tree => {
            let lines = super::tree::TreeLines {
                tree: app.current_tree(),
                selected: app.tree.selected,
                status: if app.tree.status.is_empty() {
                    "reading the file…"
                } else {
                    &app.tree.status
                },
                note: &app.tree.note,
            };
            super::tree::render(&lines, inner, buf);
        }
        Pane::None => Paragraph::new("").render(inner, buf),
    }
}
