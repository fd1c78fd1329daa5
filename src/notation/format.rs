//! A legal move → text: SAN exactly as PGN requires, long algebraic, figurine,
//! UCI, ICCF numeric, in any piece-letter language.

use std::fmt::Write;

use chess::{BitBoard, ChessMove, Color, MoveGen, Piece, EMPTY};

use super::lang::{figurine, Lang};
use super::resolve::piece_sources;
use crate::position::{Move, Position};

/// How to write a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Style {
    /// Short algebraic (SAN): `Nbd7`, `exd5`, `e8=Q+`, `O-O`.
    San,
    /// Long algebraic: `Ng1-f3`, `e4xd5`, `b2-b1=Q`.
    Lan,
    /// SAN with figurines instead of letters: `♘f3`.
    Figurine,
    /// UCI: `e2e4`, `e7e8q`, `e1g1`.
    Uci,
    /// ICCF numeric: `5254`, `57581`.
    Iccf,
}

impl Style {
    /// Every style, for tests and menus.
    pub const ALL: [Style; 5] = [
        Style::San,
        Style::Lan,
        Style::Figurine,
        Style::Uci,
        Style::Iccf,
    ];

    /// Reads a style name as given on the command line.
    pub fn by_name(name: &str) -> Option<Style> {
        Some(match name.to_ascii_lowercase().as_str() {
            "san" => Style::San,
            "lan" | "long" => Style::Lan,
            "figurine" | "fan" => Style::Figurine,
            "uci" => Style::Uci,
            "iccf" | "numeric" => Style::Iccf,
            _ => return None,
        })
    }
}

/// English SAN, as PGN requires.
pub fn san(pos: &Position, mv: Move) -> String {
    format(pos, mv, Style::San, Lang::english())
}

/// Writes a legal move of `pos` in a style and language.
pub fn format(pos: &Position, mv: Move, style: Style, lang: &Lang) -> String {
    let mut out = String::with_capacity(8);
    write_move(&mut out, pos, mv, style, lang);
    out
}

/// Appends a legal move of `pos` to `out`.
pub fn write_move(out: &mut String, pos: &Position, mv: Move, style: Style, lang: &Lang) {
    let Move::Normal(m) = mv else {
        out.push_str(if style == Style::Uci { "0000" } else { "--" });
        return;
    };
    let board = pos.board();
    let (from, to) = (m.get_source(), m.get_dest());
    let piece = board.piece_on(from).unwrap_or(Piece::Pawn);
    match style {
        Style::Uci => {
            let _ = write!(out, "{from}{to}");
            if let Some(p) = m.get_promotion() {
                out.push(crate::position::piece_char(p));
            }
            return;
        }
        Style::Iccf => {
            for sq in [from, to] {
                out.push((b'1' + sq.get_file().to_index() as u8) as char);
                out.push((b'1' + sq.get_rank().to_index() as u8) as char);
            }
            if let Some(p) = m.get_promotion() {
                out.push(match p {
                    Piece::Queen => '1',
                    Piece::Rook => '2',
                    Piece::Bishop => '3',
                    _ => '4',
                });
            }
            return;
        }
        _ => {}
    }
    let white = board.side_to_move() == Color::White;
    let letter = |out: &mut String, p: Piece| {
        if style == Style::Figurine {
            out.push(figurine(p, white));
        } else {
            out.push_str(lang.letter(p));
        }
    };
    let file_delta = from
        .get_file()
        .to_index()
        .abs_diff(to.get_file().to_index());
    let capture = board.piece_on(to).is_some() || (piece == Piece::Pawn && file_delta == 1);
    if piece == Piece::King && file_delta == 2 {
        out.push_str(if to.get_file() > from.get_file() {
            "O-O"
        } else {
            "O-O-O"
        });
    } else if style == Style::Lan {
        if piece != Piece::Pawn {
            letter(out, piece);
        }
        let _ = write!(out, "{from}{}{to}", if capture { 'x' } else { '-' });
    } else {
        if piece == Piece::Pawn {
            if capture {
                out.push((b'a' + from.get_file().to_index() as u8) as char);
            }
        } else {
            letter(out, piece);
            disambiguate(out, pos, m, piece);
        }
        if capture {
            out.push('x');
        }
        let _ = write!(out, "{to}");
    }
    if let Some(p) = m.get_promotion() {
        out.push('=');
        letter(out, p);
    }
    let after = board.make_move_new(m);
    if *after.checkers() != EMPTY {
        let mated = MoveGen::new_legal(&after).len() == 0;
        out.push(if mated { '#' } else { '+' });
    }
}

/// SAN disambiguation among the other pieces of the same kind that can legally
/// reach the square: the file if it tells them apart, else the rank, else both.
fn disambiguate(out: &mut String, pos: &Position, m: ChessMove, piece: Piece) {
    if piece == Piece::King {
        return;
    }
    let (from, to) = (m.get_source(), m.get_dest());
    let others = (piece_sources(pos.board(), piece, to) & !BitBoard::from_square(from))
        .filter(|sq| pos.is_legal(ChessMove::new(*sq, to, None)))
        .fold(EMPTY, |acc, sq| acc | BitBoard::from_square(sq));
    if others == EMPTY {
        return;
    }
    let file = (b'a' + from.get_file().to_index() as u8) as char;
    let rank = (b'1' + from.get_rank().to_index() as u8) as char;
    if others & chess::get_file(from.get_file()) == EMPTY {
        out.push(file);
    } else if others & chess::get_rank(from.get_rank()) == EMPTY {
        out.push(rank);
    } else {
        out.push(file);
        out.push(rank);
    }
}
