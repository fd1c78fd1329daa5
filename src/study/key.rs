//! The identity of a position for search and the opening tree: two positions are the same
//! when they have the same placement, side to move, castling rights, and en-passant square
//! *only when an en-passant capture is legal* (the rule of FIDE's repetition article and of
//! python-chess's transposition key).
//!
//! The `chess` crate's `Board::get_hash` is a Zobrist hash of placement, side, castling
//! rights and its en-passant square; but the crate sets that square after every double step
//! that lands beside an enemy pawn, whether or not the capture is legal (the capturing
//! pawn may be pinned, or the capture may leave the king in check). Such a position would
//! then differ from the same position reached by another move order. [`key`] drops the
//! square in that case.

use chess::{Board, BoardBuilder, ChessMove, File};

use crate::position::legal;

/// The position key: equal for equal positions (as above), and different for different
/// ones except with the odds of a 64-bit hash collision.
pub fn key(board: &Board) -> u64 {
    match board.en_passant() {
        Some(_) if !ep_capture_is_legal(board) => without_ep(board).get_hash(),
        _ => board.get_hash(),
    }
}

/// A position looked for while games are read: its key, and its occupied squares to pass
/// over almost every other position with one comparison before working out a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Goal {
    key: u64,
    occupied: chess::BitBoard,
}

impl Goal {
    /// The goal of reaching `board`.
    pub fn of(board: &Board) -> Goal {
        Goal {
            key: key(board),
            occupied: *board.combined(),
        }
    }

    /// Whether `board` is the goal's position.
    pub fn is(&self, board: &Board) -> bool {
        *board.combined() == self.occupied && key(board) == self.key
    }
}

/// Whether the side to move has a legal en-passant capture (the crate's square is set).
pub fn ep_capture_is_legal(board: &Board) -> bool {
    let (Some(pawn), Some(target)) = (board.en_passant(), legal::ep_capture_square(board)) else {
        return false;
    };
    let side = board.side_to_move();
    let ours = board.pieces(chess::Piece::Pawn) & board.color_combined(side);
    [pawn.left(), pawn.right()]
        .into_iter()
        .flatten()
        .filter(|from| ours & chess::BitBoard::from_square(*from) != chess::EMPTY)
        .any(|from| legal::is_legal(board, ChessMove::new(from, target, None)))
}

/// The board without its en-passant square (rare: only when the capture is illegal).
fn without_ep(board: &Board) -> Board {
    let mut builder = BoardBuilder::from(board);
    builder.en_passant(None::<File>);
    Board::try_from(builder).unwrap_or(*board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn board(fen: &str) -> Board {
        *Position::from_fen(fen).expect("a valid FEN").board()
    }

    fn play(fen: &str, uci: &str) -> Board {
        let pos = Position::from_fen(fen).expect("a valid FEN");
        let mv: ChessMove = uci.parse().expect("a UCI move");
        *pos.play(mv).board()
    }

    #[test]
    fn a_legal_en_passant_capture_makes_a_different_position() {
        // After 1. e4 ... d5 2. e5 f5: exf6 is legal, so the position differs from the same
        // placement without the en-passant right.
        let with = play(
            "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
            "f7f5",
        );
        assert!(with.en_passant().is_some());
        assert!(ep_capture_is_legal(&with));
        let without = board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
        assert_ne!(key(&with), key(&without));
    }

    #[test]
    fn an_illegal_en_passant_capture_does_not_count() {
        // White king a5, white pawn b5, black rook h5: after ...c7-c5 the capture bxc6
        // would expose the king along the fifth rank, so it is illegal: the position is the
        // same as with no en-passant square at all.
        let with = play("7k/2p5/8/KP5r/8/8/8/8 b - - 0 1", "c7c5");
        assert!(with.en_passant().is_some(), "the crate sets the square");
        assert!(!ep_capture_is_legal(&with));
        let without = board("7k/8/8/KPp4r/8/8/8/8 w - - 0 2");
        assert_eq!(key(&with), key(&without));
        assert_ne!(
            with.get_hash(),
            without.get_hash(),
            "the crate's hash differs"
        );
    }

    #[test]
    fn side_to_move_and_castling_rights_count() {
        let a = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let b = board("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        let c = board("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
        assert_ne!(key(&a), key(&b));
        assert_ne!(key(&a), key(&c));
        // Counters are not part of the position.
        let d = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30");
        assert_eq!(key(&a), key(&d));
    }
}
