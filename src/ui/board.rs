//! The board: filled glyphs for both sides (or letters in ASCII mode), coloured
//! on mid-tone squares, with the last move, a king in check and the moves that
//! match the entry line highlighted, coordinates, and squares that grow with the
//! terminal.
//!
//! Without colour the sides differ by shape, outline glyphs (♔) for White and
//! filled ones (♚) for Black, or by case in ASCII mode (`K`, `k`); empty squares
//! show a dot, and the marks are brackets beside the piece: `[ ]` the last move,
//! `( )` the moves matching the entry line, `> <` a king in check (also in
//! reverse video).
//!
//! An annotator's marks (`[%csl]` squares, `[%cal]` arrows, see [`BoardMarks`])
//! tint their squares in the mark's colour; an arrow tints its two ends and
//! puts a dot (`<` in ASCII mode) to the right of the piece on its target, since
//! a terminal cannot draw the line between them. Without colour a marked square
//! shows `* *` around its piece and an arrow's start a `-` to its right; on a square
//! of the last move, the mark keeps the right side and `[` the left (`[♗*`), or both
//! show whole on wider squares (`*[♗]*`).

use chess::{Color as Side, Piece, Square};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::look::{Look, SquareSize};
use crate::app::App;
use crate::game::annotation::BoardMarks;
use crate::position::Position;

/// Cells per square, across and down.
pub fn square_cells(size: SquareSize) -> (u16, u16) {
    match size {
        SquareSize::Small | SquareSize::Auto => (3, 1),
        SquareSize::Medium => (5, 2),
        SquareSize::Large => (7, 3),
    }
}

/// The room a board with squares of `size` takes, coordinates included.
pub fn board_extent(size: SquareSize, coordinates: bool) -> (u16, u16) {
    let (w, h) = square_cells(size);
    let extra = u16::from(coordinates);
    (8 * w + 2 * extra, 8 * h + extra)
}

/// The character of a piece: a letter (uppercase White) in ASCII mode; else a
/// chess glyph, filled for both sides in colour, outline for White without it.
fn glyph(piece: Piece, ascii: bool, white: bool, color: bool) -> char {
    let (letter, filled, outline) = match piece {
        Piece::King => ('K', '♚', '♔'),
        Piece::Queen => ('Q', '♛', '♕'),
        Piece::Rook => ('R', '♜', '♖'),
        Piece::Bishop => ('B', '♝', '♗'),
        Piece::Knight => ('N', '♞', '♘'),
        Piece::Pawn => ('P', '♟', '♙'),
    };
    match (ascii, white) {
        (true, true) => letter,
        (true, false) => letter.to_ascii_lowercase(),
        (false, true) if !color => outline,
        (false, _) => filled,
    }
}

impl Mark {
    /// The characters drawn left and right of the piece when there is no colour
    /// to show the mark (a space leaves the cell blank).
    fn brackets(self, ascii: bool) -> Option<(char, char)> {
        match self {
            Mark::Check => Some(('>', '<')),
            Mark::Hint => Some(('(', ')')),
            Mark::Noted(_, Noted::Square) => Some(('*', '*')),
            Mark::Noted(_, Noted::From) => Some((' ', '-')),
            Mark::Noted(_, Noted::To) => Some((' ', target_dot(ascii))),
            Mark::Last => Some(('[', ']')),
            Mark::Plain => None,
        }
    }
}

/// The marker right of the piece on an arrow's target.
fn target_dot(ascii: bool) -> char {
    if ascii {
        '<'
    } else {
        '•'
    }
}

/// What an annotator's mark on a square is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Noted {
    /// The target of an arrow.
    To,
    /// A highlighted square.
    Square,
    /// The start of an arrow.
    From,
}

/// What a square is marked with, strongest first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Check,
    Hint,
    /// An annotator's mark, with its colour letter.
    Noted(char, Noted),
    Last,
    Plain,
}

/// The annotator's mark on `sq`, if any: an arrow's target first, then a
/// highlighted square, then an arrow's start.
fn noted(marks: &BoardMarks, sq: Square) -> Option<(char, Noted)> {
    let to = marks.arrows.iter().find(|(_, _, to)| *to == sq);
    let square = marks.squares.iter().find(|(_, s)| *s == sq);
    let from = marks.arrows.iter().find(|(_, from, _)| *from == sq);
    to.map(|(c, _, _)| (*c, Noted::To))
        .or(square.map(|(c, _)| (*c, Noted::Square)))
        .or(from.map(|(c, _, _)| (*c, Noted::From)))
}

/// Draws the position after the current move into `area`, with an annotator's
/// `marks` on it (those of the current move: `app.game.node(app.cursor).marks()`).
pub fn render(
    app: &App,
    look: &Look,
    size: SquareSize,
    marks: &BoardMarks,
    area: Rect,
    buf: &mut Buffer,
) {
    let pos: Position = app.position();
    let board = pos.board();
    let (w, h) = square_cells(size);
    let coords = look.coordinates;
    let left = area.x + if coords { 2 } else { 0 };
    let last = app
        .game
        .node(app.cursor)
        .parent
        .and_then(|_| match app.game.node(app.cursor).mv {
            crate::position::Move::Normal(mv) => Some(mv),
            crate::position::Move::Null => None,
        });
    let checked = pos
        .is_check()
        .then(|| board.king_square(board.side_to_move()));
    let hints: Vec<Square> = app
        .feedback
        .moves()
        .iter()
        .flat_map(|m| [m.get_source(), m.get_dest()])
        .collect();
    let palette = look.palette();
    for row in 0..8u8 {
        for col in 0..8u8 {
            let (file, rank) = if app.flipped {
                (7 - col, row)
            } else {
                (col, 7 - row)
            };
            let sq = Square::make_square(
                chess::Rank::from_index(rank as usize),
                chess::File::from_index(file as usize),
            );
            let light = (file + rank) % 2 == 1;
            let on_last = last.is_some_and(|m| m.get_source() == sq || m.get_dest() == sq);
            let mark = if Some(sq) == checked {
                Mark::Check
            } else if hints.contains(&sq) {
                Mark::Hint
            } else if let Some((letter, kind)) = noted(marks, sq) {
                Mark::Noted(letter, kind)
            } else if on_last {
                Mark::Last
            } else {
                Mark::Plain
            };
            let bg = match mark {
                Mark::Check => palette.check,
                Mark::Hint if light => palette.hint_light,
                Mark::Hint => palette.hint_dark,
                Mark::Noted(letter, _) => palette.mark(letter),
                Mark::Last if light => palette.last_light,
                Mark::Last => palette.last_dark,
                Mark::Plain if light => palette.light,
                Mark::Plain => palette.dark,
            };
            let x0 = left + u16::from(col) * w;
            let y0 = area.y + u16::from(row) * h;
            if x0 + w > area.right() || y0 + h > area.bottom() {
                continue;
            }
            let square = Rect::new(x0, y0, w, h);
            buf.set_style(square, Style::default().bg(look.color(bg)));
            for y in square.top()..square.bottom() {
                for x in square.left()..square.right() {
                    buf[(x, y)].set_symbol(" ");
                }
            }
            let (cx, cy) = (x0 + w / 2, y0 + h / 2);
            if let (Some(piece), Some(side)) = (board.piece_on(sq), board.color_on(sq)) {
                let white = side == Side::White;
                let fg = if white {
                    palette.white_piece
                } else {
                    palette.black_piece
                };
                let cell = &mut buf[(cx, cy)];
                cell.set_char(glyph(piece, look.ascii, white, look.color));
                cell.set_style(
                    Style::default()
                        .fg(look.color(fg))
                        .add_modifier(Modifier::BOLD),
                );
            } else if !look.color {
                buf[(cx, cy)].set_char(if look.ascii { '.' } else { '·' });
            }
            if look.color && matches!(mark, Mark::Noted(_, Noted::To)) {
                let dot = &mut buf[(cx + 1, cy)];
                dot.set_char(target_dot(look.ascii));
                dot.set_style(
                    Style::default()
                        .fg(look.color(palette.white_piece))
                        .add_modifier(Modifier::BOLD),
                );
            }
            if !look.color {
                if let Some((open, close)) = mark.brackets(look.ascii) {
                    buf[(cx - 1, cy)].set_char(open);
                    buf[(cx + 1, cy)].set_char(close);
                }
                // An annotator's mark on a square of the last move (a `[%csl]` on the
                // piece just moved, often): no colour tells the two apart, so both show,
                // the last move's brackets inside and the mark outside when the square
                // has room (`*[♗]*`), else the last move's left one and the mark's right
                // one (`[♗*`).
                if on_last && matches!(mark, Mark::Noted(..)) {
                    let (open, close) = mark.brackets(look.ascii).unwrap_or((' ', ' '));
                    if w >= 5 {
                        buf[(cx - 2, cy)].set_char(open);
                        buf[(cx - 1, cy)].set_char('[');
                        buf[(cx + 1, cy)].set_char(']');
                        buf[(cx + 2, cy)].set_char(close);
                    } else {
                        buf[(cx - 1, cy)].set_char('[');
                    }
                }
                if mark == Mark::Check {
                    buf.set_style(
                        Rect::new(cx - 1, cy, 3, 1),
                        Style::default().add_modifier(Modifier::REVERSED),
                    );
                }
            }
        }
    }
    if coords {
        let dim = Style::default().fg(Color::DarkGray);
        for row in 0..8u16 {
            let rank = if app.flipped { row + 1 } else { 8 - row };
            let y = area.y + row * h + h / 2;
            if y < area.bottom() {
                buf.set_string(area.x, y, rank.to_string(), dim);
            }
        }
        let y = area.y + 8 * h;
        if y < area.bottom() {
            for col in 0..8u16 {
                let file = if app.flipped { 7 - col } else { col };
                let letter = char::from(b'a' + file as u8).to_string();
                buf.set_string(left + col * w + w / 2, y, letter, dim);
            }
        }
    }
}
