//! Draw-only: a whole game's move text for reading, as a chess book or an
//! analysis board shows it — every variation nested to any depth, inline in
//! parentheses or indented on lines of their own ([`MoveLayout`]); move numbers
//! where a reader needs them (`12...Nf6` after a comment or a variation);
//! comments word-wrapped by display width; NAGs as glyphs (`!`, `?!`, `□`
//! attached, `±`, `=`, `⟳` apart); clocks and evaluations as compact dim values (`1:23:45`,
//! `+0.35`, `#-3`), the commands themselves never shown; the current move in
//! reverse video and kept in view.
//!
//! The widget is over small data ([`MoveText`]: the game, the cursor, the
//! notation, the layout). Laying out is done once per game version, width and
//! notation and kept in [`MoveTextState`] (see [`Game::version`]), so a
//! navigation keystroke only finds the cursor's line and draws the rows shown.
//!
//! Without colour (`color: false`) the look rests on modifiers only: bold main
//! line, italic comments, dim numbers, clocks and parentheses, reverse video for
//! the current move.
//!
//! Use: keep a [`MoveTextState`] per view beside the cursor (drawing takes
//! `&mut` to it: a `RefCell` in a state drawn through `&`, or a view state
//! passed to the draw), and draw with
//! `StatefulWidget::render(MoveText { game, cursor, style, lang, layout, color }, area, buf, &mut state)`.
//! For a click at row `r`, column `c` of the area: [`MoveTextState::node_at`]
//! (it reads the layout last drawn, so it finds what the user saw); for the
//! line of a move (to page, or to scroll by hand): [`Laid::line_of`].

mod layout;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{StatefulWidget, Widget};

pub use layout::{
    compact_clock, compact_eval, lay_out, shown_result, Kind, Laid, LayoutOptions, MoveLayout,
    Piece, INDENT,
};

use crate::game::{Game, NodeId};
use crate::notation::{Lang, Style as Notation};

/// The move text widget.
#[derive(Debug, Clone, Copy)]
pub struct MoveText<'a> {
    /// The game to show.
    pub game: &'a Game,
    /// The current move (the root for the start position).
    pub cursor: NodeId,
    /// How moves are written.
    pub style: Notation,
    /// Piece letters.
    pub lang: &'static Lang,
    /// Inline or indented variations.
    pub layout: MoveLayout,
    /// Colours at all (else modifiers only).
    pub color: bool,
}

/// What the widget keeps between draws: the scroll position and the last
/// layout. Keep one per view; `Default` starts at the top.
#[derive(Debug, Clone, Default)]
pub struct MoveTextState {
    /// The first line shown. Drawing moves it only as far as needed to show
    /// the current move with a line of context above and below it.
    pub top: usize,
    cache: Option<Cached>,
}

#[derive(Debug, Clone)]
struct Cached {
    version: u64,
    start: crate::position::Position,
    options: LayoutOptions,
    laid: Laid,
}

impl MoveTextState {
    /// The layout of `game` for `options`, laid out again only when the game's
    /// version, start position or the options changed since the last call.
    pub fn laid(&mut self, game: &Game, options: LayoutOptions) -> &Laid {
        let fresh = self.cache.as_ref().is_some_and(|c| {
            c.version == game.version() && c.start == game.start && c.options == options
        });
        if !fresh {
            self.cache = Some(Cached {
                version: game.version(),
                start: game.start,
                options,
                laid: lay_out(game, &options),
            });
        }
        match &self.cache {
            Some(cached) => &cached.laid,
            None => unreachable!("the cache was just filled"),
        }
    }
}

impl MoveTextState {
    /// The layout last drawn, as it is on the screen.
    pub fn drawn(&self) -> Option<&Laid> {
        self.cache.as_ref().map(|c| &c.laid)
    }

    /// The move shown at `row`, `column` of the area last drawn into (for a
    /// click): the move the piece there belongs to, or the nearest before it
    /// on its line.
    pub fn node_at(&self, row: usize, column: usize) -> Option<NodeId> {
        self.drawn()?.node_at(self.top + row, column)
    }
}

impl MoveLayout {
    /// Reads a layout's name as a setting gives it: `inline` or `indented`.
    pub fn by_name(name: &str) -> Option<MoveLayout> {
        match name.to_ascii_lowercase().as_str() {
            "inline" => Some(MoveLayout::Inline),
            "indented" | "indent" => Some(MoveLayout::Indented),
            _ => None,
        }
    }
}

impl MoveText<'_> {
    /// The layout options for an area `width` cells wide.
    pub fn options(&self, width: u16) -> LayoutOptions {
        LayoutOptions {
            style: self.style,
            lang: self.lang,
            layout: self.layout,
            width,
        }
    }
}

/// The first line to show so that `cursor_line` is in view with `margin` lines
/// around it, moving from `top` as little as possible, and never leaving empty
/// rows at the bottom that lines above could fill.
pub fn scroll_top(top: usize, cursor_line: usize, height: usize, lines: usize) -> usize {
    if height == 0 {
        return 0;
    }
    let margin = ((height - 1) / 2).min(1);
    let mut top = top;
    if cursor_line < top + margin {
        top = cursor_line.saturating_sub(margin);
    }
    let last_shown = top + height - 1;
    if cursor_line + margin > last_shown {
        top = (cursor_line + margin + 1).saturating_sub(height);
    }
    top.min(lines.saturating_sub(height))
}

impl StatefulWidget for MoveText<'_> {
    type State = MoveTextState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut MoveTextState) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let cursor = self.cursor;
        let color = self.color;
        let mut top = state.top;
        let laid = state.laid(self.game, self.options(area.width));
        if laid.is_empty() {
            buf.set_stringn(
                area.x,
                area.y,
                "no moves",
                usize::from(area.width),
                dim(color),
            );
            state.top = 0;
            return;
        }
        let height = usize::from(area.height);
        top = match laid.line_of(cursor) {
            Some(line) => scroll_top(top, line, height, laid.len()),
            // At the start: the comments before the first move, from the top.
            None if cursor == NodeId::ROOT => 0,
            None => top.min(laid.len().saturating_sub(height)),
        };
        for row in 0..height.min(laid.len() - top) {
            let y = area.y + row as u16;
            for (x, piece, text) in laid.placed(top + row) {
                let Some(room) = usize::from(area.width).checked_sub(x) else {
                    break;
                };
                if room == 0 {
                    break;
                }
                let style = piece_style(piece, cursor, color);
                buf.set_stringn(area.x + x as u16, y, text, room, style);
            }
        }
        state.top = top;
    }
}

impl Widget for MoveText<'_> {
    /// Draws without a kept state: laid out afresh, scrolled so that the
    /// current move shows.
    fn render(self, area: Rect, buf: &mut Buffer) {
        StatefulWidget::render(self, area, buf, &mut MoveTextState::default());
    }
}

fn dim(color: bool) -> Style {
    if color {
        Style::new().fg(Color::DarkGray)
    } else {
        Style::new().add_modifier(Modifier::DIM)
    }
}

/// The look of a piece; the current move in reverse video.
fn piece_style(piece: &Piece, cursor: NodeId, color: bool) -> Style {
    let fg = |c: Color| {
        if color {
            Style::new().fg(c)
        } else {
            Style::new()
        }
    };
    let style = match piece.kind {
        Kind::Number | Kind::Clock | Kind::Eval | Kind::Open | Kind::Close => dim(color),
        Kind::Move | Kind::Result if piece.depth == 0 => Style::new().add_modifier(Modifier::BOLD),
        Kind::Move | Kind::Result => Style::new(),
        Kind::Quality(nag) => fg(match nag {
            1 | 3 => Color::Green,
            2 => Color::LightRed,
            4 => Color::Red,
            5 => Color::Magenta,
            _ => Color::Yellow,
        })
        .add_modifier(Modifier::BOLD),
        Kind::Glyph => Style::new(),
        Kind::DrawOffer => fg(Color::Yellow),
        Kind::Comment => fg(Color::Cyan).add_modifier(Modifier::ITALIC),
    };
    if piece.kind == Kind::Move && piece.node == Some(cursor) {
        style.add_modifier(Modifier::REVERSED | Modifier::BOLD)
    } else {
        style
    }
}

#[cfg(test)]
mod tests;
