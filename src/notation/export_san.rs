//! The fastest path, for the PGN reader: SAN exactly as PGN export format writes it
//! (`Nbd7`, `exd5`, `e8=Q+`, `O-O`, English letters), read and resolved in one go,
//! straight from bytes.
//!
//! It answers only when the text has that form and exactly one legal move matches;
//! `None` sends the caller down the general path ([`super::read_move_bytes`]), which reads
//! every other form and explains every failure. So whenever this path answers, the
//! general path would give the same move; a test checks that over many positions.

use chess::{get_king_moves, get_knight_moves, ChessMove, File, Piece, Square, EMPTY};

use super::plain::{file, rank};
use super::resolve::piece_sources;
use crate::position::{legal, Position};

/// The one legal move that `san` (export-format SAN, check marks allowed) names in
/// `pos`, or `None`: another form, no such move, or more than one.
#[inline]
pub fn export_san(san: &[u8], pos: &Position) -> Option<ChessMove> {
    let board = pos.board();
    let side = board.side_to_move();
    let b = match san {
        [rest @ .., b'+' | b'#'] => rest,
        _ => san,
    };
    let piece = match *b.first()? {
        b'a'..=b'h' => Piece::Pawn,
        b'N' => Piece::Knight,
        b'B' => Piece::Bishop,
        b'R' => Piece::Rook,
        b'Q' => Piece::Queen,
        b'K' => Piece::King,
        b'O' => {
            let back = side.to_my_backrank();
            let to = match b {
                b"O-O" => File::G,
                b"O-O-O" => File::C,
                _ => return None,
            };
            let from = Square::make_square(back, File::E);
            let mv = ChessMove::new(from, Square::make_square(back, to), None);
            return legal::is_legal(board, mv).then_some(mv);
        }
        _ => return None,
    };
    let rest = if piece == Piece::Pawn { b } else { &b[1..] };
    let (rest, promotion) = match rest {
        [r @ .., b'=', p] => (r, Some(promotion_piece(*p)?)),
        _ => (rest, None),
    };
    let [head @ .., f, r] = rest else {
        return None;
    };
    let to = Square::make_square(rank(*r)?, file(*f)?);
    let (head, capture) = match head {
        [h @ .., b'x'] => (h, true),
        _ => (head, false),
    };
    let (from_file, from_rank) = match head {
        [] => (None, None),
        [c @ b'1'..=b'8'] => (None, rank(*c)),
        [c] => (Some(file(*c)?), None),
        [c, d] => (Some(file(*c)?), Some(rank(*d)?)),
        _ => return None,
    };
    let ours = *board.color_combined(side);
    let target = chess::BitBoard::from_square(to);
    if ours & target != EMPTY {
        return None;
    }
    if piece == Piece::Pawn {
        let last_rank = to.get_rank() == side.to_their_backrank();
        if last_rank != promotion.is_some() || from_rank.is_some() {
            return None;
        }
        let pawns = *board.pieces(Piece::Pawn) & ours;
        let behind = to.backward(side)?;
        let from = if capture {
            let ff = from_file?;
            if ff.to_index().abs_diff(to.get_file().to_index()) != 1 {
                return None;
            }
            let from = Square::make_square(behind.get_rank(), ff);
            if legal::ep_capture_square(board) == Some(to) {
                // En passant: the full test knows about the pawn that disappears.
                let mv = ChessMove::new(from, to, None);
                return (pawns & chess::BitBoard::from_square(from) != EMPTY
                    && legal::is_legal(board, mv))
                .then_some(mv);
            }
            if *board.color_combined(!side) & target == EMPTY {
                return None;
            }
            from
        } else {
            if from_file.is_some() || *board.combined() & target != EMPTY {
                return None;
            }
            let one = chess::BitBoard::from_square(behind);
            if pawns & one != EMPTY {
                behind
            } else if *board.combined() & one == EMPTY && to.get_rank() == side.to_fourth_rank() {
                behind.backward(side)?
            } else {
                return None;
            }
        };
        if pawns & chess::BitBoard::from_square(from) == EMPTY
            || !legal::respects_pins_and_checks(board, from, to)
        {
            return None;
        }
        return Some(ChessMove::new(from, to, promotion));
    }
    if promotion.is_some() {
        return None;
    }
    let fits = |s: &Square| {
        from_file.is_none_or(|f| s.get_file() == f) && from_rank.is_none_or(|r| s.get_rank() == r)
    };
    if piece == Piece::King {
        let king = get_king_moves(to) & *board.pieces(Piece::King) & ours;
        let from = king.into_iter().find(fits)?;
        return legal::king_step_is_safe(board, to).then(|| ChessMove::new(from, to, None));
    }
    let sources = match piece {
        Piece::Knight => get_knight_moves(to) & *board.pieces(Piece::Knight) & ours,
        _ => piece_sources(board, piece, to),
    };
    let mut found = None;
    for from in sources.into_iter().filter(fits) {
        if legal::respects_pins_and_checks(board, from, to) {
            if found.is_some() {
                return None; // ambiguous: the general path says so
            }
            found = Some(ChessMove::new(from, to, None));
        }
    }
    found
}

fn promotion_piece(c: u8) -> Option<Piece> {
    Some(match c {
        b'Q' => Piece::Queen,
        b'R' => Piece::Rook,
        b'B' => Piece::Bishop,
        b'N' => Piece::Knight,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{read_move, san, Lang};
    use crate::position::Move;

    /// Every legal move of each position, written as SAN (and with its check mark
    /// dropped, over-specified, or with a capture mark added): where the fast path
    /// answers, it gives the move the general path gives.
    fn agrees(fen: &str) {
        let pos = Position::from_fen(fen).expect("test FEN");
        let mut texts: Vec<String> = Vec::new();
        for mv in pos.legal_moves() {
            let s = san(&pos, Move::Normal(mv));
            let from = mv.get_source().to_string();
            texts.push(s.clone());
            texts.push(s.trim_end_matches(['+', '#']).to_string());
            if let Some(rest) = s.strip_prefix(['N', 'B', 'R', 'Q', 'K']) {
                texts.push(format!("{}{from}{rest}", &s[..1]));
                texts.push(format!("{}{}{rest}", &s[..1], &from[..1]));
                texts.push(format!("{}{}{rest}", &s[..1], &from[1..]));
            }
            texts.push(format!("{from}{}", mv.get_dest()));
        }
        // Texts that name no move, or several, or are malformed.
        for t in [
            "Nf3", "exd6", "e8Q", "e8=K", "O-O", "O-O-O", "Kg1", "Qd1", "bxc3", "Bb5",
        ] {
            texts.push(t.to_string());
        }
        for text in &texts {
            let fast = export_san(text.as_bytes(), &pos);
            let general = read_move(text, &pos, Lang::english()).ok().map(|(m, _)| m);
            if let Some(mv) = fast {
                assert_eq!(Some(Move::Normal(mv)), general, "{fen}: {text}");
            }
        }
        // And it answers for every canonical SAN.
        for mv in pos.legal_moves() {
            let s = san(&pos, Move::Normal(mv));
            assert_eq!(export_san(s.as_bytes(), &pos), Some(mv), "{fen}: {s}");
        }
    }

    #[test]
    fn agrees_with_the_general_path() {
        // Three queens able to reach one square; four knights around one; a pawn that
        // promotes by moving or by capturing.
        let more = [
            "k7/8/8/2Q1Q3/8/2Q5/8/4K3 w - - 0 1",
            "4k3/8/8/1N3N2/8/1N3N2/8/4K3 w - - 0 1",
            "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        ];
        for fen in legal::TRICKY_FENS.iter().chain(&more) {
            agrees(fen);
        }
    }

    #[test]
    fn agrees_along_random_games() {
        // A small deterministic generator: the same games on every run.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..12 {
            let mut pos = Position::start();
            for _ in 0..80 {
                agrees(&pos.fen());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves[(seed % moves.len() as u64) as usize]);
            }
        }
    }
}
