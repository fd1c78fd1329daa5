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

use chess::{BitBoard, Board, BoardBuilder, CastleRights, ChessMove, Color, File, Piece, EMPTY};

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
/// over almost every other position with one comparison before working out a key; and what
/// a line of play must still have to get there ([`Goal::reachable_from`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Goal {
    key: u64,
    occupied: BitBoard,
    /// The squares of the goal's pawns still on their first square (White's on the second
    /// rank, Black's on the seventh): no pawn ever comes back to those, so the squares must
    /// hold them all along the way.
    home_pawns: BitBoard,
    /// Per side, the castling rights (the crate's index: 1 king side, 2 queen side).
    castles: [u8; 2],
    /// Per side: the pawns, and the knights, bishops, rooks and queens.
    men: [Men; 2],
    /// The squares a move must leave or land on to break what the goal asks of the board
    /// besides its men: its pawns on their first square, and the king's and rooks' first
    /// squares of the castling rights it has (see [`Goal::may_put_out_of_reach`]).
    marked: BitBoard,
    /// Per side, whether the goal has men of it besides the king (then a man of that side
    /// taken, or promoted, may put the goal out of reach).
    counts: [bool; 2],
}

/// How many men of each kind one side has, but the king.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Men {
    pawns: u32,
    /// Knights, bishops, rooks, queens.
    pieces: [u32; 4],
}

/// Knights, bishops, rooks, queens: the order of [`Men::pieces`].
const PIECES: [Piece; 4] = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];

impl Men {
    fn of(board: &Board, color: Color) -> Men {
        let ours = *board.color_combined(color);
        let count = |piece| (board.pieces(piece) & ours).popcnt();
        Men {
            pawns: count(Piece::Pawn),
            pieces: PIECES.map(count),
        }
    }

    /// Whether `color`'s men on `board` can become these: men are only ever taken, pawns
    /// only taken or promoted, and a piece the side lacks can only come from a pawn's
    /// promotion. Only the kinds of men these have are counted: a count costs a dozen
    /// instructions (no popcnt instruction in the baseline x86-64 build), and a search of
    /// an endgame, which no game leaves early, asks this after every move of every game:
    /// counting everything cost a quarter of `check`'s instructions. (Fewer men than these
    /// need no count of their own: each of these but the king needs a man of its kind or a
    /// pawn.)
    fn reachable_by(&self, board: &Board, color: Color) -> bool {
        if self.pawns == 0 && self.pieces == [0; 4] {
            // A king alone: always there.
            return true;
        }
        let ours = *board.color_combined(color);
        let mut lacking = 0;
        for (piece, &want) in PIECES.iter().zip(&self.pieces) {
            if want > 0 {
                lacking += want.saturating_sub((board.pieces(*piece) & ours).popcnt());
            }
        }
        let pawns = self.pawns + lacking;
        pawns == 0 || (board.pieces(Piece::Pawn) & ours).popcnt() >= pawns
    }
}

/// The pawns of `board` on their first square: White's on the second rank, Black's on the
/// seventh.
fn home_pawns(board: &Board) -> BitBoard {
    let white = board.color_combined(Color::White) & BitBoard(0xff00);
    let black = board.color_combined(Color::Black) & BitBoard(0x00ff_0000_0000_0000);
    board.pieces(Piece::Pawn) & (white | black)
}

impl Goal {
    /// The goal of reaching `board`.
    pub fn of(board: &Board) -> Goal {
        let castles = [Color::White, Color::Black].map(|c| board.castle_rights(c).to_index() as u8);
        let men = [Color::White, Color::Black].map(|c| Men::of(board, c));
        // A right is lost when its side's king or rook leaves its square, or when a move
        // lands there (taking the rook): the crate's own table says which squares those are.
        let mut marked = home_pawns(board);
        for color in [Color::White, Color::Black] {
            for sq in chess::ALL_SQUARES {
                let lost = CastleRights::square_to_castle_rights(color, sq).to_index() as u8;
                if lost & castles[color.to_index()] != 0 {
                    marked |= BitBoard::from_square(sq);
                }
            }
        }
        Goal {
            key: key(board),
            occupied: *board.combined(),
            home_pawns: home_pawns(board),
            castles,
            men,
            marked,
            counts: men.map(|m| m != Men::default()),
        }
    }

    /// Whether `board` is the goal's position.
    pub fn is(&self, board: &Board) -> bool {
        *board.combined() == self.occupied && key(board) == self.key
    }

    /// Whether a line of play may still lead from `board` to the goal; `false` only when
    /// no line can, since play only ever takes away: men are taken, pawns never go back
    /// (nor come back to their first square), castling rights are lost for good. A game
    /// found `false` need not be followed any further (its moves are still checked).
    pub fn reachable_from(&self, board: &Board) -> bool {
        // The cheapest test first: the one that ends most games, at their first pawn move
        // away from where the goal still has it.
        if self.home_pawns & !*board.combined() != EMPTY {
            return false;
        }
        if self.home_pawns & !home_pawns(board) != EMPTY {
            return false;
        }
        [Color::White, Color::Black].into_iter().all(|c| {
            let rights = board.castle_rights(c).to_index() as u8;
            let goal = self.castles[c.to_index()];
            goal & !rights == 0 && self.men[c.to_index()].reachable_by(board, c)
        })
    }

    /// Whether the move `mv` from `before` may put the goal out of reach when it was not
    /// (see [`Goal::reachable_from`]): a move that leaves or lands on one of the squares it
    /// marks (a pawn it has on its first square, a castling right it has), a man taken from
    /// a side it counts the men of (and any move where an en-passant capture may be, which
    /// is rare), or a promotion by such a side. Any other move changes nothing the goal asks
    /// for: the follower of a game that may still reach it asks again only after these.
    /// (Kings alone: never; king and rook against king: only Black's captures and White's
    /// promotions.) Asked after every move of the games followed: a handful of
    /// instructions, inlined.
    #[inline(always)]
    pub fn may_put_out_of_reach(&self, before: &Board, mv: ChessMove) -> bool {
        let to = BitBoard::from_square(mv.get_dest());
        let touched = BitBoard::from_square(mv.get_source()) | to;
        let mover = before.side_to_move().to_index();
        touched & self.marked != EMPTY
            || (self.counts[mover ^ 1]
                && (before.combined() & to != EMPTY || before.en_passant().is_some()))
            || (self.counts[mover] && mv.get_promotion().is_some())
    }

    /// How many men `board` has more than the goal (none when it has as few or fewer). A
    /// move takes at most one man and never adds one, so a line of play from `board` can
    /// reach the goal at that many moves at the soonest: a follower need not compare the
    /// positions of the moves before (an endgame is far from most positions a game goes
    /// through, and comparing after every move of every game cost a search for one 5% of
    /// `check`'s instructions).
    pub fn men_over(&self, board: &Board) -> u32 {
        board
            .combined()
            .popcnt()
            .saturating_sub(self.occupied.popcnt())
    }

    /// The men the goal's position has.
    pub fn men(&self) -> u32 {
        self.occupied.popcnt()
    }

    /// Whether most games that cannot reach the goal are told so within their first moves:
    /// it has pawns on their first square or castling rights, which most games lose early
    /// (see [`Goal::may_put_out_of_reach`]).
    pub fn out_of_reach_early(&self) -> bool {
        self.marked != EMPTY
    }

    /// Whether no move can ever put the goal out of reach (kings alone): a follower then
    /// need not ask.
    pub fn always_reachable(&self) -> bool {
        self.marked == EMPTY && self.counts == [false; 2]
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

    fn play_fen(fen: &str, uci: &str) -> String {
        let pos = Position::from_fen(fen).expect("a valid FEN");
        pos.play(uci.parse().expect("a UCI move")).fen()
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
    fn a_goal_is_out_of_reach_once_a_pawn_left_its_first_square_or_a_man_was_taken() {
        // The goal: 1. e4 c5 2. Nf3 (every other pawn still on its first square).
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let goal = Goal::of(&play(&play_fen(&play_fen(start, "e2e4"), "c7c5"), "g1f3"));
        assert!(goal.reachable_from(&board(start)));
        assert!(goal.reachable_from(&board(&play_fen(start, "e2e4"))));
        // 1. d4: d2 is left for good.
        assert!(!goal.reachable_from(&board(&play_fen(start, "d2d4"))));
        // A piece on d7 does not stand for Black's pawn.
        let nd7 = "r1bqkbnr/pp1npppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1";
        assert!(!goal.reachable_from(&board(nd7)));
        // A man taken never comes back.
        let no_knight = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKB1R w KQkq - 0 1";
        assert!(!goal.reachable_from(&board(no_knight)));
        // Nor does a castling right.
        let no_castling = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1";
        assert!(!goal.reachable_from(&board(no_castling)));
    }

    #[test]
    fn a_piece_a_side_lacks_can_still_come_from_a_promotion() {
        // The goal has two white queens; from one queen and a pawn, a promotion gets there.
        let goal = Goal::of(&board("4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1"));
        assert!(goal.reachable_from(&board("4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1")));
        // Without the pawn, never; nor with the pawn but without the queen (one pawn,
        // two queens lacking).
        assert!(!goal.reachable_from(&board("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")));
        assert!(!goal.reachable_from(&board("4k3/P7/8/8/8/8/8/R3K3 w - - 0 1")));
    }

    #[test]
    fn an_endgame_goal_asks_only_for_the_men_it_has() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // Kings alone: any position may still get there.
        let kings = Goal::of(&board("8/8/8/4k3/8/8/4K3/8 w - - 0 1"));
        assert!(kings.reachable_from(&start));
        assert!(kings.reachable_from(&board("4k3/8/8/8/8/8/8/4K3 b - - 0 1")));
        // King and rook against king: a rook, or a pawn to promote, must be left.
        let rook = Goal::of(&board("8/8/8/4k3/8/8/4K3/R7 w - - 0 1"));
        assert!(rook.reachable_from(&start));
        assert!(rook.reachable_from(&board("4k3/8/8/8/8/8/P7/4K3 w - - 0 1")));
        assert!(!rook.reachable_from(&board("4k3/8/8/8/8/8/8/N3K3 w - - 0 1")));
        assert!(!rook.reachable_from(&board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")));
        // Two men for Black: a king alone cannot be them.
        let pawn = Goal::of(&board("8/8/8/4k3/4p3/8/4K3/8 w - - 0 1"));
        assert!(pawn.reachable_from(&start));
        assert!(!pawn.reachable_from(&board("4k3/8/8/8/8/8/P7/4K3 w - - 0 1")));
    }

    /// Random legal play from the start, `plies` moves: each position and the move played
    /// from it.
    fn random_line(seed: u64, plies: usize) -> Vec<(Board, ChessMove)> {
        let mut rng = seed;
        let mut board = Board::default();
        let mut line = Vec::new();
        for _ in 0..plies {
            let moves: Vec<ChessMove> = chess::MoveGen::new_legal(&board).collect();
            if moves.is_empty() {
                break;
            }
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let mv = moves[(rng >> 33) as usize % moves.len()];
            line.push((board, mv));
            board = board.make_move_new(mv);
        }
        line
    }

    /// A move a goal does not flag (`Goal::may_put_out_of_reach`) leaves it as reachable
    /// as it was: goals from random games (with castling rights, home pawns and men of
    /// every kind, early and late) and endgames, over the moves of other random games.
    #[test]
    fn only_the_moves_flagged_may_put_a_goal_out_of_reach() {
        let mut goals: Vec<Goal> = [
            "8/8/8/4k3/8/8/4K3/R7 w - - 0 1",
            "8/8/8/4k3/8/8/4K3/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1",
            "4k3/2p5/8/3n4/8/8/8/4K3 w - - 0 1",
            "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
        ]
        .iter()
        .map(|f| Goal::of(&board(f)))
        .collect();
        for seed in 0..20 {
            let line = random_line(seed, 80);
            for ply in [2, 6, 12, 25, 40, 79] {
                if let Some((b, _)) = line.get(ply) {
                    goals.push(Goal::of(b));
                }
            }
        }
        let (mut quiet, mut left) = (0, 0);
        for seed in 100..160 {
            for (before, mv) in random_line(seed, 120) {
                let after = before.make_move_new(mv);
                for goal in &goals {
                    if goal.may_put_out_of_reach(&before, mv) || !goal.reachable_from(&before) {
                        continue;
                    }
                    quiet += 1;
                    assert!(goal.reachable_from(&after), "{before} {mv}");
                }
                left += usize::from(
                    goals
                        .iter()
                        .any(|g| g.reachable_from(&before) && !g.reachable_from(&after)),
                );
            }
        }
        assert!(
            quiet > 10_000 && left > 100,
            "{quiet} quiet, {left} leaving"
        );
    }

    /// The moves that put an endgame out of reach without touching a square it marks: a
    /// man taken (en passant too), a promotion; and kings alone flag nothing.
    #[test]
    fn a_man_taken_or_promoted_is_flagged_for_a_side_the_goal_counts() {
        let cases = [
            // King and rook against king: Black takes the last rook.
            (
                "8/8/8/4k3/8/8/4K3/R7 w - - 0 1",
                "4k3/8/8/8/8/8/r7/R3K3 b - - 0 1",
                "a2a1",
            ),
            // A pawn each: Black takes White's only pawn en passant.
            (
                "4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1",
                "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
                "d4e3",
            ),
            // King and queen against king: the only pawn becomes a knight.
            (
                "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1",
                "4k3/P7/8/8/8/8/8/N3K3 w - - 0 1",
                "a7a8n",
            ),
        ];
        for (goal, before, uci) in cases {
            let (goal, before) = (Goal::of(&board(goal)), board(before));
            let mv: ChessMove = uci.parse().expect("a UCI move");
            let after = before.make_move_new(mv);
            assert!(
                goal.reachable_from(&before) && !goal.reachable_from(&after),
                "{uci}"
            );
            assert!(goal.may_put_out_of_reach(&before, mv), "{uci} is flagged");
        }
        let kings = Goal::of(&board("8/8/8/4k3/8/8/4K3/8 w - - 0 1"));
        assert!(kings.always_reachable());
        let start = Board::default();
        for mv in chess::MoveGen::new_legal(&start) {
            assert!(!kings.may_put_out_of_reach(&start, mv));
        }
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
