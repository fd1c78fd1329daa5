//! Draw-only: the tag form. A framed list of the game's tags, names in a
//! column, values beside them; the chosen row marked with `›` (and reversed
//! where colour is allowed), the field being edited drawn as a one-line editor
//! with its cursor; the roster tags bold, `FEN`/`SetUp` dim, the last row
//! inviting a new tag. Under the list: why a value was refused (or what the
//! form has to say), then the keys. The list scrolls to keep the chosen row in
//! view. Any size draws without panicking; below three rows the frame goes and the
//! chosen tag (its field, while edited) stays in view.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

use super::text::{fit, width, wrap};
use crate::app::tagform::{Field, RowKind, TagForm};

/// The keys shown while no field is open.
pub const LIST_KEYS: &str = "Enter edit · Del remove · Ctrl-S done · Esc cancel";
/// The keys shown while a field is open.
pub const FIELD_KEYS: &str = "Enter keep · Tab/↑↓ keep and move · Esc undo the edit";

/// The tag form over a [`TagForm`].
#[derive(Debug, Clone, Copy)]
pub struct TagFormView<'a> {
    /// The form.
    pub form: &'a TagForm,
    /// Colours allowed (false under `NO_COLOR`).
    pub color: bool,
}

impl TagFormView<'_> {
    /// The rows the form would like at `width` columns: one per tag, its
    /// message wrapped and the keys under them, the frame.
    pub fn rows_wanted(&self, width: u16) -> u16 {
        let room = usize::from(width.saturating_sub(2));
        let message = self
            .form
            .message()
            .map_or(0, |m| wrap(m, room).len().min(3));
        u16::try_from(self.form.rows().len() + message + 3).unwrap_or(u16::MAX)
    }

    fn styled(&self, color: Style, plain: Style) -> Style {
        if self.color {
            color
        } else {
            plain
        }
    }
}

impl Widget for TagFormView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        if area.width < 8 || area.height < 3 {
            return self.render_cramped(area, buf);
        }
        Clear.render(area, buf);
        let block = Block::bordered().title(" Tags ");
        let inner = block.inner(area);
        block.render(area, buf);
        let form = self.form;
        let rows = form.rows();

        // Under the list: the message wrapped (up to three rows), then the keys;
        // at least one row stays for the list.
        let room = usize::from(inner.width);
        let message_style = self.styled(
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            Style::default().add_modifier(Modifier::BOLD),
        );
        let keys = if form.editing().is_some() {
            FIELD_KEYS
        } else {
            LIST_KEYS
        };
        let mut footer: Vec<Line> = form
            .message()
            .map(|m| wrap(m, room))
            .unwrap_or_default()
            .into_iter()
            .take(3)
            .map(|part| Line::styled(part, message_style))
            .collect();
        footer.push(Line::styled(fit(keys, room), Style::default()));
        footer.truncate(usize::from(inner.height.saturating_sub(1)));
        let footer_rows = u16::try_from(footer.len()).unwrap_or(0);
        let list_height = usize::from(inner.height - footer_rows);
        let top = (form.selected() + 1).saturating_sub(list_height);
        let name_w = rows
            .iter()
            .map(|r| width(&r.name))
            .max()
            .unwrap_or(0)
            .clamp(6, 16)
            .min(usize::from(inner.width) / 3);
        // `› ` then the name column then a space.
        let value_x = inner.x + u16::try_from(name_w + 3).unwrap_or(inner.width);
        let value_w = inner.right().saturating_sub(value_x);
        let dim = self.styled(Style::default().fg(Color::DarkGray), Style::default());
        let chosen = self.styled(
            Style::default().add_modifier(Modifier::REVERSED),
            Style::default().add_modifier(Modifier::BOLD),
        );

        for (i, row) in rows.iter().enumerate().skip(top).take(list_height) {
            let y = inner.y + u16::try_from(i - top).unwrap_or(0);
            let line_area = Rect::new(inner.x, y, inner.width, 1);
            let selected = i == form.selected();
            let editing = form.editing().filter(|_| selected);
            let name_style = match row.kind {
                RowKind::Roster => Style::default().add_modifier(Modifier::BOLD),
                RowKind::Fixed | RowKind::New => dim,
                RowKind::Other => Style::default(),
            };
            let (name, value) = match row.kind {
                RowKind::New => ("+".to_string(), "add a tag".to_string()),
                _ => (row.name.clone(), row.value.clone()),
            };
            let mut spans = vec![
                Span::raw(if selected { "› " } else { "  " }),
                Span::styled(format!("{:<name_w$} ", fit(&name, name_w)), name_style),
            ];
            if editing.is_none() {
                let value_style = if row.kind == RowKind::New || row.kind == RowKind::Fixed {
                    dim
                } else {
                    Style::default()
                };
                spans.push(Span::styled(fit(&value, usize::from(value_w)), value_style));
            }
            let mut line = Line::from(spans);
            if selected && editing.is_none() {
                line = line.style(chosen);
            }
            line.render(line_area, buf);

            if let Some((field, editor)) = editing {
                let field_area = match field {
                    Field::Name => Rect::new(
                        inner.x + 2,
                        y,
                        u16::try_from(name_w).unwrap_or(0).min(inner.width - 2),
                        1,
                    ),
                    Field::Value => Rect::new(value_x, y, value_w, 1),
                };
                if field_area.width > 0 {
                    Clear.render(field_area, buf);
                    editor.textarea().render(field_area, buf);
                }
            }
        }

        for (i, line) in footer.into_iter().enumerate() {
            let y = inner.bottom() - footer_rows + u16::try_from(i).unwrap_or(0);
            line.render(Rect::new(inner.x, y, inner.width, 1), buf);
        }
    }
}

impl TagFormView<'_> {
    /// The form on a screen too small for its frame: the chosen tag (its field with
    /// the cursor while edited) on the last row, and what the form has to say, or the
    /// keys, on the row above when there is one.
    fn render_cramped(self, area: Rect, buf: &mut Buffer) {
        Clear.render(area, buf);
        let form = self.form;
        let room = usize::from(area.width);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        if area.height >= 2 {
            let keys = if form.editing().is_some() {
                FIELD_KEYS
            } else {
                LIST_KEYS
            };
            let text = form.message().unwrap_or(keys);
            buf.set_stringn(area.x, area.y, fit(text, room), room, bold);
        }
        let y = area.bottom() - 1;
        let Some(row) = form.rows().get(form.selected()) else {
            return;
        };
        let name = match row.kind {
            RowKind::New => "+".to_string(),
            _ => row.name.clone(),
        };
        match form.editing() {
            Some((Field::Name, editor)) => {
                let x = area.x + 2.min(area.width);
                buf.set_stringn(area.x, y, "+ ", room, bold);
                editor
                    .textarea()
                    .render(Rect::new(x, y, area.right() - x, 1), buf);
            }
            Some((Field::Value, editor)) => {
                // The name keeps a third of the row at most: the value is what is typed.
                let label = format!("{}: ", fit(&name, room / 3));
                let x = area.x + u16::try_from(width(&label)).unwrap_or(0).min(area.width);
                buf.set_stringn(area.x, y, &label, room, bold);
                editor
                    .textarea()
                    .render(Rect::new(x, y, area.right() - x, 1), buf);
            }
            None => {
                let value = match row.kind {
                    RowKind::New => "add a tag".to_string(),
                    _ => row.value.clone(),
                };
                let line = format!("› {name}: {value}");
                buf.set_stringn(area.x, y, fit(&line, room), room, bold);
            }
        }
    }
}

/// The tag form's width on a screen of `screen_width` columns.
pub fn tag_form_width(screen_width: u16) -> u16 {
    screen_width.min(72)
}

/// Where the tag form goes on a screen: centred, [`tag_form_width`] wide and
/// as high as its rows want (see [`TagFormView::rows_wanted`]).
pub fn tag_form_area(screen: Rect, wanted: u16) -> Rect {
    let width = tag_form_width(screen.width);
    let height = screen.height.min(wanted);
    Rect::new(
        screen.x + (screen.width - width) / 2,
        screen.y + (screen.height - height) / 2,
        width,
        height,
    )
}
