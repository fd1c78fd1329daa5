//! Draws the engine pane's body: a header (score from White's point of view, a
//! bar of White's winning chances, depth, nodes per second, the engine's name),
//! then the best lines, each with its score, in the notation and piece letters
//! the user reads. Every row is cut to the width; what does not fit goes, the
//! header's parts from the last. Without colour the bar still reads: White's
//! share is solid, Black's shaded (`#` and `-` in ASCII).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::text;
use crate::app::engine::EngineState;
use crate::app::App;
use crate::engine::{judge, line_text, Score};
use crate::position::Status;

/// The engine pane as drawn: small data taken from the app.
#[derive(Debug, Clone, PartialEq)]
pub struct EnginePane {
    /// A sentence instead of lines (starting, thinking, failed, no move).
    pub note: Option<String>,
    /// The note is an error.
    pub error: bool,
    /// The best line's score from White's point of view (`+0.35`, `#3`, `#-2`).
    pub score: Option<String>,
    /// White's winning chances, 0…100, for the bar.
    pub white_percent: f64,
    /// The depth searched.
    pub depth: u32,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// The engine's name.
    pub name: String,
    /// The best lines: score from White's point of view, and the moves.
    pub lines: Vec<(String, String)>,
    /// Draw the bar in ASCII.
    pub ascii: bool,
    /// Colours allowed.
    pub color: bool,
}

/// The rows the pane wants inside its frame: the header and the lines asked for;
/// an engine's failure gets the rows to be read whole with what to do.
pub fn rows_wanted(app: &App) -> u16 {
    let lines = 1 + app.engine.config.multipv.clamp(1, 5) as u16;
    match app.engine.state {
        EngineState::Failed(_) => lines.max(4),
        _ => lines,
    }
}

/// The pane's data from the app.
pub fn view(app: &App, ascii: bool, color: bool) -> EnginePane {
    let mut v = EnginePane {
        note: None,
        error: false,
        score: None,
        white_percent: 50.0,
        depth: 0,
        nps: None,
        name: String::new(),
        lines: Vec::new(),
        ascii,
        color,
    };
    let engine = &app.engine;
    let pos = app.position();
    let path = engine.config.path.display().to_string();
    if app.training() {
        // Its lines would give the answers away.
        v.note = Some("resting while you train: its lines would give the answers away".into());
        return v;
    }
    match &engine.state {
        EngineState::Failed(why) => {
            v.error = true;
            v.note = Some(format!(
                "{why}. {} closes the pane, :engine restart tries again.",
                app.keymap
                    .keys_of("engine")
                    .first()
                    .map_or(":engine".to_string(), ToString::to_string)
            ));
            return v;
        }
        EngineState::Off | EngineState::Starting => {
            v.note = Some(format!("starting {path}…"));
            return v;
        }
        EngineState::Ready(name) => v.name = name.clone(),
    }
    match pos.status() {
        Status::Checkmate => {
            v.note = Some("checkmate: no move to search".into());
            return v;
        }
        Status::Stalemate => {
            v.note = Some("stalemate: no move to search".into());
            return v;
        }
        _ => {}
    }
    let Some(lines) = engine.lines.as_ref().filter(|l| l.position == pos) else {
        v.note = Some(format!("{}: thinking…", v.name));
        return v;
    };
    let settings = &app.settings;
    // A bound reads as one: `≥+0.40` while the engine's search fails high.
    let shown = |line: &crate::engine::PvLine| {
        let prefix = line.white_bound(&pos).prefix(ascii);
        format!("{prefix}{}", line.white_score(&pos).display())
    };
    for line in &lines.lines {
        let text = line_text(&pos, &line.pv, settings.display, settings.display_lang);
        v.lines.push((shown(line), text));
    }
    if let Some(best) = lines.best() {
        let white = best.white_score(&pos);
        v.score = Some(shown(best));
        v.white_percent = match white {
            // The side to move is mated: no engine line, the game says it.
            Score::Mate(0) | Score::MateGiven => 50.0,
            other => judge::win_percent(other),
        };
        v.depth = best.depth;
        v.nps = best.nps;
    }
    v
}

/// Nodes per second as a player reads them: `850k n/s`, `1.2M n/s`.
pub fn nps_text(nps: u64) -> String {
    match nps {
        0..1_000 => format!("{nps} n/s"),
        1_000..1_000_000 => format!("{}k n/s", nps / 1_000),
        _ => format!("{:.1}M n/s", nps as f64 / 1e6),
    }
}

/// The bar of White's winning chances, `cells` wide: White's share solid.
pub fn bar(white_percent: f64, cells: usize, ascii: bool) -> String {
    let white = ((white_percent / 100.0) * cells as f64).round() as usize;
    let white = white.min(cells);
    let (solid, shaded) = if ascii { ('#', '-') } else { ('█', '░') };
    let mut out = String::with_capacity(cells * 3);
    out.extend(std::iter::repeat_n(solid, white));
    out.extend(std::iter::repeat_n(shaded, cells - white));
    out
}

/// The header's parts, most important first; the caller keeps as many as fit.
fn header_parts(v: &EnginePane, width: usize) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(score) = &v.score {
        parts.push(score.clone());
    }
    let cells = match width {
        0..30 => 0,
        30..50 => 8,
        _ => 12,
    };
    if cells > 0 {
        parts.push(bar(v.white_percent, cells, v.ascii));
    }
    parts.push(format!("depth {}", v.depth));
    if let Some(nps) = v.nps {
        parts.push(nps_text(nps));
    }
    if !v.name.is_empty() {
        parts.push(v.name.clone());
    }
    parts
}

/// Draws the pane's body into `area` (inside its frame).
pub fn render(v: &EnginePane, area: Rect, buf: &mut Buffer) {
    if area.width == 0 || area.height == 0 {
        return;
    }
    let width = usize::from(area.width);
    if let Some(note) = &v.note {
        let style = if v.error && v.color {
            Style::default().fg(Color::Red)
        } else {
            Style::default()
        };
        Paragraph::new(note.as_str())
            .wrap(Wrap { trim: true })
            .style(style)
            .render(area, buf);
        return;
    }
    // The header: as many of its parts as fit, in order.
    let mut header = String::new();
    for part in header_parts(v, width) {
        let joined = if header.is_empty() {
            part.clone()
        } else {
            format!("{header}  {part}")
        };
        if text::width(&joined) > width {
            break;
        }
        header = joined;
    }
    let bold = Style::default().add_modifier(Modifier::BOLD);
    buf.set_stringn(area.x, area.y, text::fit(&header, width), width, bold);
    let score_width = v
        .lines
        .iter()
        .map(|(score, _)| text::width(score))
        .max()
        .unwrap_or(0);
    for (row, (score, moves)) in (1..area.height).zip(&v.lines) {
        let line = format!("{score:>score_width$} {moves}");
        buf.set_stringn(
            area.x,
            area.y + row,
            text::fit(&line, width),
            width,
            Style::default(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_per_second_read_in_thousands_and_millions() {
        assert_eq!(nps_text(950), "950 n/s");
        assert_eq!(nps_text(850_000), "850k n/s");
        assert_eq!(nps_text(1_250_000), "1.2M n/s");
    }

    #[test]
    fn the_bar_gives_white_its_share() {
        assert_eq!(bar(50.0, 8, true), "####----");
        assert_eq!(bar(100.0, 4, false), "████");
        assert_eq!(bar(0.0, 4, false), "░░░░");
    }
}
