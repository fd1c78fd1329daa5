//! Windows over the screen: the help (generated from the key bindings, the
//! entry line's forms and the command table; it scrolls), the promotion choice
//! and the recovery question.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use super::text;
use crate::app::{App, RecoverBox};
use crate::notation::{format, Style as Notation};
use crate::position::Move;

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// The help's lines at `width`: each section's title, then its rows with the
/// labels in a column of their own and the docs wrapped beside them (a label too
/// long for the column gets a line of its own, its doc under it).
fn help_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let sections = app.help_sections();
    let key_style = Style::default()
        .fg(Color::Yellow)
        .add_modifier(Modifier::BOLD);
    let title_style = Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
    let mut lines = Vec::new();
    for section in sections {
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        lines.push(Line::styled(section.title, title_style));
        // Each section's labels get a column as wide as its widest, at most two
        // fifths of the width so that the docs keep room.
        let widest = section
            .entries
            .iter()
            .map(|e| text::width(&e.label))
            .max()
            .unwrap_or(4);
        let label_w = widest.min(width * 2 / 5).max(1);
        let doc_w = width.saturating_sub(label_w + 2).max(8);
        let indent = " ".repeat(label_w + 2);
        for entry in section.entries {
            let docs = text::wrap(&entry.doc, doc_w);
            let label_width = text::width(&entry.label);
            let mut docs = docs.into_iter();
            if label_width > label_w {
                for part in text::wrap(&entry.label, width) {
                    lines.push(Line::styled(part, key_style));
                }
            } else {
                let pad = " ".repeat(label_w - label_width + 2);
                let first = docs.next().unwrap_or_default();
                lines.push(Line::from(vec![
                    Span::styled(entry.label, key_style),
                    Span::raw(pad),
                    Span::raw(first),
                ]));
            }
            for rest in docs {
                lines.push(Line::from(vec![Span::raw(indent.clone()), Span::raw(rest)]));
            }
        }
    }
    lines
}

/// In normal mode, the letters that are Up and Down (`kj `), which scroll the help too.
fn scroll_letters(app: &App) -> String {
    if !app.normal_mode() {
        return String::new();
    }
    let letters: String = ["history-prev", "history-next"]
        .iter()
        .filter_map(|action| {
            app.keymap
                .keys_of(action)
                .iter()
                .find(|k| crate::app::keymap::types_text(k))
        })
        .map(ToString::to_string)
        .collect();
    if letters.is_empty() {
        letters
    } else {
        format!("{letters} ")
    }
}

/// The keys, the entry line's forms and the commands, scrolled.
pub fn help(app: &App, area: Rect, buf: &mut Buffer) {
    let window = centered(
        area,
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    );
    if window.height < 3 || window.width < 12 {
        // No row for a line of help: say so rather than hide it (a character typed
        // closes it and goes on the entry line, which is seen).
        cramped(area, "enlarge to read the help; Esc closes it", buf);
        scroll_page(app, 1);
        return;
    }
    Clear.render(window, buf);
    let block = Block::bordered()
        .title(format!(
            " Keys and commands — ↑↓ {}PgUp PgDn scroll, Esc closes ",
            scroll_letters(app)
        ))
        .border_style(Style::default().fg(Color::Yellow));
    let inner = block.inner(window);
    let lines = help_lines(app, usize::from(inner.width));
    let page = usize::from(inner.height);
    let scroll = &app.help_scroll;
    let top = scroll.top.get().min(lines.len().saturating_sub(page));
    scroll.top.set(top);
    scroll.page.set(page);
    let end = (top + page).min(lines.len());
    let block = block.title_bottom(
        Line::from(format!(" {}–{} of {} ", top + 1, end, lines.len())).right_aligned(),
    );
    block.render(window, buf);
    let shown: Vec<Line> = lines.into_iter().skip(top).take(page).collect();
    Paragraph::new(shown).render(inner, buf);
}

/// Clears `area` and says `text` there, wrapped, in bold: what a window too small
/// to be drawn says instead.
fn cramped(area: Rect, text: &str, buf: &mut Buffer) {
    Clear.render(area, buf);
    Paragraph::new(text)
        .wrap(Wrap { trim: true })
        .style(Style::default().add_modifier(Modifier::BOLD))
        .render(area, buf);
}

/// Tells the help's scrolling how many lines a page has.
fn scroll_page(app: &App, lines: usize) {
    app.help_scroll.page.set(lines);
}

/// Which piece the pawn becomes.
pub fn promotion(app: &App, choices: &[Move], area: Rect, buf: &mut Buffer) {
    let pos = app.position();
    let names: Vec<String> = choices
        .iter()
        .map(|&m| format(&pos, m, Notation::Figurine, app.settings.display_lang))
        .collect();
    if area.height < 4 || area.width < 52 {
        // The choice and its keys without the frame, at the bottom over the entry line.
        let text = format!("promote to {}: Q R B N, Esc back", names.join(" "));
        let rows = (text::wrap(&text, usize::from(area.width)).len() as u16).min(area.height);
        let at = Rect {
            y: area.bottom() - rows,
            height: rows,
            ..area
        };
        return cramped(at, &text, buf);
    }
    let window = centered(area, 50, 4);
    Clear.render(window, buf);
    let text = vec![
        Line::raw(names.join("   ")),
        Line::styled(
            "Q queen  R rook  B bishop  N knight  Esc back",
            Style::default().fg(Color::DarkGray),
        ),
    ];
    Paragraph::new(text)
        .block(
            Block::bordered()
                .title(" Promote to ")
                .border_style(Style::default().fg(Color::Yellow)),
        )
        .render(window, buf);
}

/// The unsaved games an earlier run left; `others` says what any other key does (it closes
/// the box and acts on what is under it: the list, a new game, the game shown, a drill).
pub fn recover(b: &RecoverBox, others: &str, area: Rect, buf: &mut Buffer) {
    let mut text: Vec<Line> = Vec::new();
    for (i, line) in b.games.iter().enumerate() {
        if i == b.selected {
            text.push(Line::styled(
                format!("> {}. {line}", i + 1),
                Style::default().add_modifier(Modifier::REVERSED),
            ));
        } else {
            text.push(Line::raw(format!("  {}. {line}", i + 1)));
        }
    }
    if !b.broken.is_empty() {
        if !b.games.is_empty() {
            text.push(Line::raw(""));
        }
        text.push(Line::styled(
            "Journals that cannot be read:",
            Style::default().fg(Color::Red),
        ));
        text.extend(b.broken.iter().map(|l| Line::raw(format!("  {l}"))));
    }
    text.push(Line::raw(""));
    let keys = if b.confirm_discard {
        Line::styled(
            format!(
                "Delete again or Enter: discard game {} for good    Esc: keep it",
                b.selected + 1
            ),
            Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
        )
    } else if b.games.is_empty() {
        Line::styled("Esc or any key: close", Style::default().fg(Color::Yellow))
    } else {
        Line::styled(
            format!(
                "Up/Down choose   Enter recover   Delete discard   Esc later (:recover)   {others}"
            ),
            Style::default().fg(Color::Yellow),
        )
    };
    text.push(keys.clone());
    let width = area.width.saturating_sub(4).min(76);
    let inner = usize::from(width.saturating_sub(2)).max(1);
    let rows: usize = text.iter().map(|l| l.width().div_ceil(inner).max(1)).sum();
    if rows + 2 > usize::from(area.height) || width < 16 {
        return recover_cramped(b, keys, area, buf);
    }
    let height = (rows as u16).saturating_add(2).min(area.height);
    let window = centered(area, width, height);
    Clear.render(window, buf);
    Paragraph::new(text)
        .wrap(Wrap { trim: false })
        .block(
            Block::bordered()
                .title(" Unsaved games found ")
                .border_style(Style::default().fg(Color::Red)),
        )
        .render(window, buf);
}

/// The box of unsaved games on a screen too small for it whole: no frame, and from the
/// bottom up the keys (what Enter and Delete do is never cut off), the game chosen, and
/// how many there are, as the rows allow.
fn recover_cramped(b: &RecoverBox, keys: Line, area: Rect, buf: &mut Buffer) {
    let width = usize::from(area.width).max(1);
    let mut rows = usize::from(area.height);
    // What decides first: on a row of twenty, Enter and Esc are read before the rest.
    let keys_text: String = if b.confirm_discard || b.games.is_empty() {
        keys.spans.iter().map(|s| s.content.as_ref()).collect()
    } else {
        "Enter recover · Esc later (:recover) · Delete discard · Up/Down choose · typing \
         starts a new game"
            .to_string()
    };
    let chosen = b
        .games
        .get(b.selected)
        .map(|g| format!("> {}. {g}", b.selected + 1));
    // The chosen game keeps a row; the keys take the rest they need.
    let keys_rows = text::wrap(&keys_text, width)
        .len()
        .min(rows.saturating_sub(usize::from(chosen.is_some())).max(1));
    rows -= keys_rows.min(rows);
    let mut lines: Vec<Line> = Vec::new();
    if rows >= 2 {
        lines.push(Line::styled(
            format!("Unsaved games found: {}", b.games.len() + b.broken.len()),
            Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
        ));
        rows -= 1;
    }
    if let (Some(chosen), true) = (chosen, rows >= 1) {
        lines.push(Line::styled(
            text::fit(&chosen, width),
            Style::default().add_modifier(Modifier::REVERSED),
        ));
    }
    for part in text::wrap(&keys_text, width).into_iter().take(keys_rows) {
        lines.push(Line::styled(part, keys.style));
    }
    let height = (lines.len() as u16).min(area.height);
    let at = Rect {
        y: area.bottom() - height,
        height,
        ..area
    };
    Clear.render(at, buf);
    Paragraph::new(lines).render(at, buf);
}
