//! Draw-only: the comment editor's box. Framed and titled with what it edits
//! (`comment after 12...Nf6`), the text wrapped at word boundaries (a word
//! longer than the box is cut between letters) with the cursor as a reversed
//! cell, and on the last row the keys, or what the editor has to say (a `}`
//! refused, "Esc again throws the changes away"). It scrolls to keep the cursor
//! in view. Any size draws without panicking; below three rows the frame goes and
//! the cursor's line of text stays, so nothing is typed unseen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Widget};

use super::text::{fit, wrap};
use crate::app::editor::TextEditor;

/// The keys shown under the text while nothing else is to be said.
pub const COMMENT_KEYS: &str = "Enter done · Alt-Enter or Ctrl-J new line · Esc cancel";

/// The comment editor's box over a [`TextEditor`].
#[derive(Debug, Clone, Copy)]
pub struct CommentBox<'a> {
    /// What is edited: `comment after 12...Nf6`.
    pub title: &'a str,
    /// The text and its cursor.
    pub editor: &'a TextEditor,
    /// Colours allowed (false under `NO_COLOR`: the notice is then bold only).
    pub color: bool,
}

impl CommentBox<'_> {
    /// The rows the box would like at `width` columns: its text wrapped, the
    /// key row and the frame, at least five and at most `max`. Only as much of the
    /// text is wrapped as fills `max` rows: a comment of megabytes would otherwise
    /// cost its whole wrap on every frame (a tenth of a second and more).
    pub fn rows_wanted(&self, width: u16, max: u16) -> u16 {
        let room = usize::from(width.saturating_sub(2)).max(1);
        let enough = usize::from(max);
        let mut text_rows = 0;
        for line in self.editor.lines() {
            let left = enough.saturating_sub(text_rows).max(1);
            text_rows += super::text::wrap_first(line, room, left).len().max(1);
            if text_rows >= enough {
                break;
            }
        }
        let wanted = u16::try_from(text_rows + 3).unwrap_or(u16::MAX);
        wanted.clamp(5, max.max(5)).min(max)
    }
}

impl Widget for CommentBox<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        if area.width < 4 || area.height < 3 {
            return self.render_cramped(area, buf);
        }
        Clear.render(area, buf);
        let room = usize::from(area.width).saturating_sub(4);
        let block = Block::bordered().title(format!(" {} ", fit(self.title, room)));
        let inner = block.inner(area);
        block.render(area, buf);
        // Under the text: the notice wrapped (up to two rows) or the keys; the
        // text keeps at least one row.
        let room = usize::from(inner.width);
        let footer: Vec<Line> = match self.editor.notice() {
            Some(notice) => {
                let style = if self.color {
                    Style::default()
                        .fg(Color::Yellow)
                        .add_modifier(Modifier::BOLD)
                } else {
                    Style::default().add_modifier(Modifier::BOLD)
                };
                wrap(notice, room)
                    .into_iter()
                    .take(2)
                    .map(|part| Line::styled(part, style))
                    .collect()
            }
            None => {
                let style = if self.color {
                    Style::default().fg(Color::DarkGray)
                } else {
                    Style::default()
                };
                vec![Line::styled(fit(COMMENT_KEYS, room), style)]
            }
        };
        let footer_rows = u16::try_from(footer.len())
            .unwrap_or(0)
            .min(inner.height.saturating_sub(1));
        let text_area = Rect {
            height: inner.height - footer_rows,
            ..inner
        };
        self.editor.textarea().render(text_area, buf);
        for (i, line) in footer
            .into_iter()
            .take(usize::from(footer_rows))
            .enumerate()
        {
            let y = text_area.bottom() + u16::try_from(i).unwrap_or(0);
            line.render(Rect::new(inner.x, y, inner.width, 1), buf);
        }
    }
}

impl CommentBox<'_> {
    /// The box on a screen too short for its frame (one or two rows): what is edited
    /// and the keys (or the editor's notice) on a row when there are two, and the
    /// cursor's line of text, with the cursor, on the last: what is typed is always
    /// seen.
    fn render_cramped(self, area: Rect, buf: &mut Buffer) {
        Clear.render(area, buf);
        let room = usize::from(area.width);
        if area.height >= 2 {
            let (text, style) = match self.editor.notice() {
                Some(notice) => (
                    notice.to_string(),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                None => (
                    format!("{} · Enter done · Esc cancel", self.title),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
            };
            buf.set_stringn(area.x, area.y, fit(&text, room), room, style);
        }
        let last = Rect::new(area.x, area.bottom() - 1, area.width, 1);
        self.editor.textarea().render(last, buf);
    }
}

/// Where the comment box goes on a screen: the whole width at the bottom,
/// over the status, entry and hint lines, `wanted` rows high but at most half
/// the screen (at least three rows), so the board and the moves above stay in
/// view while one writes about them.
pub fn comment_area(screen: Rect, wanted: u16) -> Rect {
    let height = wanted.min((screen.height / 2).max(3)).min(screen.height);
    Rect {
        y: screen.bottom() - height,
        height,
        ..screen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str, width: u16, max: u16) -> u16 {
        let editor = TextEditor::new(text, true);
        let boxed = CommentBox {
            title: "comment",
            editor: &editor,
            color: true,
        };
        boxed.rows_wanted(width, max)
    }

    /// The box grows with its text's wrapped rows (and the key row and frame), from five
    /// rows to `max`; a comment of megabytes, in words or in one line, fills `max`.
    #[test]
    fn the_box_wants_its_texts_rows_up_to_the_screen() {
        assert_eq!(rows("short", 40, 20), 5);
        assert_eq!(rows("one\ntwo\nthree\nfour", 40, 20), 4 + 3);
        // 38 columns of room: ten words of 8 cells take three rows.
        assert_eq!(rows(&"abcdefg ".repeat(10), 40, 20), 3 + 3);
        assert_eq!(rows(&"word ".repeat(2_000_000), 40, 20), 20);
        assert_eq!(rows(&"x".repeat(10_000_000), 40, 20), 20);
        assert_eq!(rows(&"line\n".repeat(100_000), 40, 20), 20);
    }
}
