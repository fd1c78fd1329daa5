//! The index's move codes: each main-line move in (nearly always) one byte, written and
//! read from a few attack-table lookups instead of generating the position's legal moves
//! (numbering each move among the legal ones was over half the cost of building an index).
//!
//! A move is named by its piece — the how-manieth of the mover's pieces counting squares
//! from a1 to h8 (`p`, 0 to 15 on a real board) — and its destination — the how-manieth
//! square of that piece's reach, a set that depends only on the piece and its square
//! (`d`): the squares a knight, bishop, rook, queen or king would reach on an empty
//! board, plus c1/g1 (c8/g8) for a king on e1 (e8); for a pawn, the squares one ahead,
//! two ahead from its first rank, and the two diagonals ahead, times four when it
//! promotes (knight, bishop, rook, queen). Bytes:
//!
//! ```text
//! p << 4 | d                  d < 15
//! p << 4 | 15, d              p < 15, d >= 15 (a queen's later squares)
//! 0xFF, 0                     a null move
//! 0xFF, 1, d                  p = 15, d >= 15
//! 0xFF, 2, from, to, promo    anything else (more than 16 pieces on a set-up board)
//! ```
//!
//! Reading back checks that the move is legal, so damaged bytes end the game's line
//! rather than play nonsense.

use chess::{
    get_bishop_rays, get_king_moves, get_knight_moves, get_rook_rays, BitBoard, Board, ChessMove,
    Color, Piece, Square, ALL_SQUARES, EMPTY,
};

use crate::position::legal::is_legal;

const PROMOTIONS: [Piece; 4] = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];

/// The squares a piece of the side to move on `from` may name as its destination (see the
/// module documentation), and whether its moves promote. Only the piece and its square
/// count, not the other pieces: small tables instead of the sliding pieces' large ones.
fn reach(board: &Board, from: Square, piece: Piece) -> (BitBoard, bool) {
    let side = board.side_to_move();
    let set = match piece {
        Piece::Knight => get_knight_moves(from),
        Piece::Bishop => get_bishop_rays(from),
        Piece::Rook => get_rook_rays(from),
        Piece::Queen => get_bishop_rays(from) | get_rook_rays(from),
        Piece::King => {
            let mut set = get_king_moves(from);
            let home = match side {
                Color::White => Square::E1,
                Color::Black => Square::E8,
            };
            if from == home {
                // Castling: the king's two-square moves (never adjacent, never overlapping).
                set |= BitBoard(CASTLING_SQUARES[side.to_index()]);
            }
            set
        }
        Piece::Pawn => {
            let bb = 1u64 << from.to_index();
            const NOT_A: u64 = !0x0101_0101_0101_0101;
            const NOT_H: u64 = !0x8080_8080_8080_8080;
            let set = match side {
                Color::White => {
                    (bb << 8) | ((bb & 0xFF00) << 16) | ((bb & NOT_A) << 7) | ((bb & NOT_H) << 9)
                }
                Color::Black => {
                    (bb >> 8)
                        | ((bb & 0x00FF_0000_0000_0000) >> 16)
                        | ((bb & NOT_H) >> 7)
                        | ((bb & NOT_A) >> 9)
                }
            };
            let promotes = from.get_rank() == side.to_seventh_rank();
            return (BitBoard(set), promotes);
        }
    };
    (set, false)
}

/// c1 and g1, c8 and g8: where a castling king goes.
const CASTLING_SQUARES: [u64; 2] = [1 << 2 | 1 << 6, 1 << 58 | 1 << 62];

/// How many squares of `set` come before `sq` (a1 first).
fn rank_in(set: BitBoard, sq: Square) -> u32 {
    (set.0 & ((1u64 << sq.to_index()) - 1)).count_ones()
}

/// The `n`th square of `set` (a1 first), if it has that many.
fn nth(set: BitBoard, n: u32) -> Option<Square> {
    let mut bits = set.0;
    for _ in 0..n {
        bits &= bits.wrapping_sub(1);
    }
    (bits != 0).then(|| ALL_SQUARES[bits.trailing_zeros() as usize])
}

/// Appends the code of `mv` (`None`: a null move), a move of `board`, to `out`.
pub fn encode(board: &Board, mv: Option<ChessMove>, out: &mut Vec<u8>) {
    let Some(mv) = mv else {
        out.extend_from_slice(&[0xFF, 0]);
        return;
    };
    let (from, to) = (mv.get_source(), mv.get_dest());
    let ours = *board.color_combined(board.side_to_move());
    let piece = board.piece_on(from);
    let p = rank_in(ours, from);
    let d = piece.and_then(|piece| {
        let (set, promotes) = reach(board, from, piece);
        if set & BitBoard::from_square(to) == EMPTY {
            return None;
        }
        let d = rank_in(set, to);
        match (promotes, mv.get_promotion()) {
            (false, None) => Some(d),
            (true, Some(promo)) => PROMOTIONS
                .iter()
                .position(|p| *p == promo)
                .map(|k| d * 4 + k as u32),
            _ => None,
        }
    });
    match d {
        Some(d) if p < 15 && d < 15 => out.push((p << 4 | d) as u8),
        Some(d) if p < 15 && d < 256 => out.extend_from_slice(&[(p << 4 | 15) as u8, d as u8]),
        Some(d) if p == 15 && d < 15 => out.push((15 << 4 | d) as u8),
        Some(d) if p == 15 && d < 256 => out.extend_from_slice(&[0xFF, 1, d as u8]),
        _ => {
            let promo = mv
                .get_promotion()
                .and_then(|promo| PROMOTIONS.iter().position(|p| *p == promo))
                .map_or(0, |k| k as u8 + 1);
            out.extend_from_slice(&[0xFF, 2, from.to_index() as u8, to.to_index() as u8, promo]);
        }
    }
}

/// What the next code of a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoded {
    /// A legal move.
    Move(ChessMove),
    /// A null move.
    Null,
}

/// Reads the code at the start of `bytes` on `board`: the move and the bytes it took, or
/// `None` when the bytes name no legal move (a damaged index).
pub fn decode(board: &Board, bytes: &[u8]) -> Option<(Decoded, usize)> {
    let b = *bytes.first()?;
    let (p, d, used) = match b {
        0xFF => match *bytes.get(1)? {
            0 => return Some((Decoded::Null, 2)),
            1 => (15, u32::from(*bytes.get(2)?), 3),
            2 => {
                let raw = bytes.get(2..5)?;
                let (from, to) = (raw[0], raw[1]);
                if from > 63 || to > 63 || raw[2] > 4 {
                    return None;
                }
                let promo = raw[2].checked_sub(1).map(|k| PROMOTIONS[usize::from(k)]);
                let (from, to) = (ALL_SQUARES[usize::from(from)], ALL_SQUARES[usize::from(to)]);
                let mv = ChessMove::new(from, to, promo);
                return is_legal(board, mv).then_some((Decoded::Move(mv), 5));
            }
            _ => return None,
        },
        _ if b & 15 == 15 => (u32::from(b >> 4), u32::from(*bytes.get(1)?), 2),
        _ => (u32::from(b >> 4), u32::from(b & 15), 1),
    };
    let ours = *board.color_combined(board.side_to_move());
    let from = nth(ours, p)?;
    let piece = board.piece_on(from)?;
    let (set, promotes) = reach(board, from, piece);
    let mv = if promotes {
        ChessMove::new(from, nth(set, d / 4)?, Some(PROMOTIONS[(d % 4) as usize]))
    } else {
        ChessMove::new(from, nth(set, d)?, None)
    };
    is_legal(board, mv).then_some((Decoded::Move(mv), used))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use chess::MoveGen;

    /// Every legal move of `fen` encodes and decodes back to itself, each code as short as
    /// the layout says.
    fn round_trip(fen: &str) -> usize {
        let board = *Position::from_fen(fen).expect("FEN").board();
        let mut moves = 0;
        for mv in MoveGen::new_legal(&board) {
            let mut out = Vec::new();
            encode(&board, Some(mv), &mut out);
            assert!(out.len() <= 5, "{fen} {mv}: {out:?}");
            let (got, used) = decode(&board, &out).expect("decodes");
            assert_eq!((got, used), (Decoded::Move(mv), out.len()), "{fen} {mv}");
            moves += 1;
        }
        let mut out = Vec::new();
        encode(&board, None, &mut out);
        assert_eq!(decode(&board, &out), Some((Decoded::Null, 2)));
        moves
    }

    #[test]
    fn every_legal_move_reads_back_from_its_code() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
            // Promotions, with captures, and under-promotions.
            "1n2k3/P1P5/8/8/8/8/5p1p/K5N1 w - - 0 1",
            "1n2k3/P1P5/8/8/8/8/5p1p/K5N1 b - - 0 1",
            // En passant.
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            // A queen in the open with far squares (codes of two bytes); as the 16th
            // piece (three bytes).
            "7k/8/8/3Q4/8/8/8/K7 w - - 0 1",
            "7k/8/8/3Q4/8/8/PPPPPPP1/KNNNNNNN w - - 0 1",
            "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1",
        ] {
            assert!(round_trip(fen) > 0, "{fen}");
        }
    }

    #[test]
    fn most_moves_take_one_byte_and_bad_bytes_read_as_nothing() {
        let board = Board::default();
        let mut out = Vec::new();
        for mv in MoveGen::new_legal(&board) {
            encode(&board, Some(mv), &mut out);
        }
        assert_eq!(out.len(), 20, "one byte for each of the twenty first moves");
        // The first piece (the rook on a1) has nowhere to go: no code names a move of it.
        for d in 0..15u8 {
            assert_eq!(decode(&board, &[d]), None);
        }
        assert_eq!(decode(&board, &[0xFF, 7]), None);
        assert_eq!(decode(&board, &[0xFF, 2, 0, 63, 0]), None);
        // The long form (for boards of more than 16 pieces a side, which a FEN may not
        // give but the layout allows).
        let e4 = ChessMove::new(Square::E2, Square::E4, None);
        assert_eq!(
            decode(&board, &[0xFF, 2, 12, 28, 0]),
            Some((Decoded::Move(e4), 5))
        );
        assert_eq!(decode(&board, &[]), None);
    }
}
