//! Windows over the screen: the help (generated from the key bindings and the
//! command table), the promotion choice and the recovery question.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use crate::app::command::COMMANDS;
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

fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// The keys (in as many columns as fit) and the commands.
pub fn help(app: &App, area: Rect, buf: &mut Buffer) {
    let window = centered(
        area,
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    );
    Clear.render(window, buf);
    let block = Block::bordered()
        .title(" Keys and commands — any key closes ")
        .border_style(Style::default().fg(Color::Yellow));
    let inner = block.inner(window);
    block.render(window, buf);
    let key_width = app
        .help
        .iter()
        .map(|r| r.keys.chars().count())
        .max()
        .unwrap_or(4);
    let columns = if inner.width >= 76 { 2 } else { 1 };
    let col_width = usize::from(inner.width) / columns;
    let per_column = app.help.len().div_ceil(columns);
    let key_style = Style::default()
        .fg(Color::Yellow)
        .add_modifier(Modifier::BOLD);
    let mut lines: Vec<Line> = Vec::new();
    for row in 0..per_column {
        let mut spans = Vec::new();
        for col in 0..columns {
            if let Some(r) = app.help.get(col * per_column + row) {
                let doc_width = col_width.saturating_sub(key_width + 3);
                spans.push(Span::styled(format!("{:<key_width$}  ", r.keys), key_style));
                spans.push(Span::raw(format!("{:<doc_width$} ", cut(r.doc, doc_width))));
            }
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    let mut commands = vec![Span::styled("Commands  ", key_style)];
    let room = usize::from(inner.height).saturating_sub(lines.len());
    if room > COMMANDS.len() {
        lines.push(Line::from(commands));
        for c in COMMANDS {
            let name = format!(":{} {}", c.name, c.args);
            lines.push(Line::from(vec![
                Span::styled(format!("{:<22}", name), key_style),
                Span::raw(cut(c.doc, usize::from(inner.width).saturating_sub(23))),
            ]));
        }
    } else {
        for c in COMMANDS {
            commands.push(Span::styled(format!(":{}", c.name), key_style));
            let args = if c.args.is_empty() {
                String::new()
            } else {
                format!(" {}", c.args)
            };
            commands.push(Span::raw(format!("{args}  ")));
        }
        lines.push(Line::from(commands));
        lines.push(Line::styled(
            "Moves in any notation; +1:23 clock, ! ? glyphs, (=) draw offer, {comment, 1-0 result",
            Style::default().fg(Color::DarkGray),
        ));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}

/// Which piece the pawn becomes.
pub fn promotion(app: &App, choices: &[Move], area: Rect, buf: &mut Buffer) {
    let pos = app.position();
    let names: Vec<String> = choices
        .iter()
        .map(|&m| format(&pos, m, Notation::Figurine, app.settings.display_lang))
        .collect();
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

/// The unsaved games an earlier run left.
pub fn recover(b: &RecoverBox, area: Rect, buf: &mut Buffer) {
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
            "Up/Down choose   Enter recover   Delete discard   Esc later (:recover)   \
             typing starts a new game",
            Style::default().fg(Color::Yellow),
        )
    };
    text.push(keys);
    let width = area.width.saturating_sub(4).min(76);
    let inner = usize::from(width.saturating_sub(2)).max(1);
    let rows: usize = text.iter().map(|l| l.width().div_ceil(inner).max(1)).sum();
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
