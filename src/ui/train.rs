//! The training panel under the board, in the tags' place while training: what
//! is trained, how far, the score, and the key that goes on. Draw-only, over the
//! lines the app gives.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget};

use super::text::fit;

/// Draws `lines` framed and titled ` Training ` (the first line bold); each line
/// cut to the panel's width.
pub fn render(lines: &[String], area: Rect, buf: &mut Buffer) {
    if area.height < 3 || area.width < 4 {
        return;
    }
    let room = usize::from(area.width).saturating_sub(2);
    let shown: Vec<Line> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let style = if i == 0 {
                Style::default().add_modifier(Modifier::BOLD)
            } else {
                Style::default()
            };
            Line::styled(fit(l, room), style)
        })
        .collect();
    Paragraph::new(shown)
        .block(Block::bordered().title(" Training "))
        .render(area, buf);
}
