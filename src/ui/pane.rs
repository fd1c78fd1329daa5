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
