//! Legality of one move, decided without generating the position's other moves.
//!
//! The `chess` crate's `Board::legal` generates every legal move and searches the
//! list; the notation engine asks about one or two candidate moves per move read,
//! so it uses this instead: pseudo-legality from the crate's attack tables, then
//! pins, checks, en passant and castling as the crate's own move generator does.

use chess::{
    between, get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_pawn_quiets,
    get_rook_moves, line, BitBoard, Board, ChessMove, Color, File, Piece, Square, EMPTY,
};

fn bb(sq: Square) -> BitBoard {
    BitBoard::from_square(sq)
}

/// The en-passant capture square of the side to move, if any.
pub(crate) fn ep_capture_square(board: &Board) -> Option<Square> {
    // The crate stores the square of the pawn that has just moved two squares.
    board
        .en_passant()
        .and_then(|pawn| pawn.forward(board.side_to_move()))
}

/// Is `mv` legal on `board`? Works on any move, legal or not.
pub(crate) fn is_legal(board: &Board, mv: ChessMove) -> bool {
    let side = board.side_to_move();
    let (from, to) = (mv.get_source(), mv.get_dest());
    let ours = *board.color_combined(side);
    if ours & bb(from) == EMPTY || ours & bb(to) != EMPTY {
        return false;
    }
    let Some(piece) = board.piece_on(from) else {
        return false;
    };
    let occupied = *board.combined();
    let promotion = mv.get_promotion();
    let reaches = match piece {
        Piece::Pawn => {
            let last_rank = to.get_rank() == side.to_their_backrank();
            let promotion_ok = match promotion {
                None => !last_rank,
                Some(p) => last_rank && !matches!(p, Piece::Pawn | Piece::King),
            };
            if !promotion_ok {
                return false;
            }
            let theirs = *board.color_combined(!side);
            let ep = ep_capture_square(board);
            if get_pawn_attacks(from, side, !EMPTY) & bb(to) != EMPTY {
                if ep == Some(to) {
                    return ep_is_legal(board, from, to);
                }
                theirs & bb(to) != EMPTY
            } else {
                get_pawn_quiets(from, side, occupied) & bb(to) != EMPTY
            }
        }
        _ if promotion.is_some() => false,
        Piece::Knight => get_knight_moves(from) & bb(to) != EMPTY,
        Piece::Bishop => get_bishop_moves(from, occupied) & bb(to) != EMPTY,
        Piece::Rook => get_rook_moves(from, occupied) & bb(to) != EMPTY,
        Piece::Queen => {
            (get_bishop_moves(from, occupied) | get_rook_moves(from, occupied)) & bb(to) != EMPTY
        }
        Piece::King => {
            if get_king_moves(from) & bb(to) != EMPTY {
                return king_step_is_safe(board, to);
            }
            return castle_is_legal(board, from, to);
        }
    };
    reaches && respects_pins_and_checks(board, from, to)
}

/// For a non-king move that the piece can make: does it leave the king safe?
pub(crate) fn respects_pins_and_checks(board: &Board, from: Square, to: Square) -> bool {
    let ksq = board.king_square(board.side_to_move());
    let checkers = *board.checkers();
    if checkers != EMPTY {
        if checkers.popcnt() > 1 {
            return false;
        }
        let checker = checkers.to_square();
        if (between(ksq, checker) | checkers) & bb(to) == EMPTY {
            return false;
        }
    }
    *board.pinned() & bb(from) == EMPTY || line(from, ksq) & bb(to) != EMPTY
}

/// Is the destination of a king step free of attack once the king has left its square?
pub(crate) fn king_step_is_safe(board: &Board, to: Square) -> bool {
    let side = board.side_to_move();
    let occupied = (*board.combined() ^ bb(board.king_square(side))) | bb(to);
    attackers(board, to, !side, occupied) == EMPTY
}

/// The pieces of `by` that attack `sq`, with `occupied` as the blockers.
pub(crate) fn attackers(board: &Board, sq: Square, by: Color, occupied: BitBoard) -> BitBoard {
    let theirs = *board.color_combined(by) & occupied;
    let queens = *board.pieces(Piece::Queen);
    let rooks = (*board.pieces(Piece::Rook) | queens) & theirs;
    let bishops = (*board.pieces(Piece::Bishop) | queens) & theirs;
    (get_rook_moves(sq, occupied) & rooks)
        | (get_bishop_moves(sq, occupied) & bishops)
        | (get_knight_moves(sq) & *board.pieces(Piece::Knight) & theirs)
        | (get_king_moves(sq) & *board.pieces(Piece::King) & theirs)
        | get_pawn_attacks(sq, !by, *board.pieces(Piece::Pawn) & theirs)
}

fn ep_is_legal(board: &Board, from: Square, to: Square) -> bool {
    let side = board.side_to_move();
    let captured = to.ubackward(side);
    let occupied = *board.combined() ^ bb(from) ^ bb(to) ^ bb(captured);
    let ksq = board.king_square(side);
    // Everything that would attack the king afterwards, the captured pawn excluded.
    let after = attackers(board, ksq, !side, occupied) & !bb(captured);
    after == EMPTY
}

fn castle_is_legal(board: &Board, from: Square, to: Square) -> bool {
    let side = board.side_to_move();
    let back = side.to_my_backrank();
    if from != Square::make_square(back, File::E) || to.get_rank() != back {
        return false;
    }
    let rights = board.my_castle_rights();
    let (allowed, rook_file, path) = match to.get_file() {
        File::G => (rights.has_kingside(), File::H, [File::F, File::G]),
        File::C => (rights.has_queenside(), File::A, [File::D, File::C]),
        _ => return false,
    };
    if !allowed || *board.checkers() != EMPTY {
        return false;
    }
    let rook = Square::make_square(back, rook_file);
    if between(from, rook) & *board.combined() != EMPTY {
        return false;
    }
    let occupied = *board.combined();
    path.iter().all(|f| {
        let sq = Square::make_square(back, *f);
        attackers(board, sq, !side, occupied) == EMPTY
    })
}

/// Positions that test move legality where it is easy to get wrong (castling, pins,
/// en passant, double check, promotions), for the tests of every legality path.
#[cfg(test)]
pub(crate) const TRICKY_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete: castling, pins, promotions, en passant.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
    // En passant that would expose the king along the rank.
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 1",
    // En passant that removes the checking pawn.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    // Double check: only king moves.
    "4k3/8/8/8/8/5n2/8/r3K2R w K - 0 1",
    // Promotions with capture, pinned pieces.
    "r3k2r/1P4P1/8/8/8/8/6p1/R3K2R w KQkq - 0 1",
    "4k3/8/8/q7/8/8/3B4/4K3 w - - 0 1",
    // Castling through attacked squares.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "2r1k2r/8/8/8/8/8/8/R3K1R1 b k - 0 1",
];

#[cfg(test)]
mod tests {
    use super::*;
    use chess::MoveGen;
    use std::str::FromStr;

    /// Every move from every square to every square, with and without promotion:
    /// the fast answer must equal the crate's full move generation.
    fn agrees_with_movegen(fen: &str) {
        let board = Board::from_str(fen).expect("test FEN");
        let legal: Vec<ChessMove> = MoveGen::new_legal(&board).collect();
        for from in chess::ALL_SQUARES {
            for to in chess::ALL_SQUARES {
                for promo in [
                    None,
                    Some(Piece::Queen),
                    Some(Piece::Knight),
                    Some(Piece::King),
                ] {
                    let mv = ChessMove::new(from, to, promo);
                    assert_eq!(
                        is_legal(&board, mv),
                        legal.contains(&mv),
                        "{fen}: {mv} (promotion {promo:?})"
                    );
                }
            }
        }
    }

    #[test]
    fn matches_the_crate_on_tricky_positions() {
        for fen in TRICKY_FENS {
            agrees_with_movegen(fen);
        }
    }
}
