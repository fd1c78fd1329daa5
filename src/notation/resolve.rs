//! A [`MoveText`] against a position → the one legal move it names, or why not.
//!
//! Fast by construction: the pieces that could have made the move are found from
//! the attack tables around the target square, and only those candidates are
//! tested for legality; the position's other moves are never generated.

use chess::{
    get_file, get_king_moves, get_knight_moves, get_pawn_attacks, BitBoard, Board, ChessMove,
    Color, File, Piece, Rank, Square, EMPTY,
};

use super::format::san;
use super::parse::{name, Body, MoveText, Target};
use crate::position::{self, Move, Position};

/// Why a well-formed move cannot be played in the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No legal move matches; the text says why.
    #[error("illegal: {0}")]
    Illegal(String),
    /// Several legal moves match; they are listed in canonical SAN.
    #[error("ambiguous: {}", or_list(.0))]
    Ambiguous(Vec<String>),
    /// A pawn reaches the last rank and no piece was named; the choices in SAN.
    #[error("the pawn promotes: say to which piece ({})", or_list(.0))]
    PromotionNeeded(Vec<String>),
}

/// "a, b or c".
pub(crate) fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn bb(sq: Square) -> BitBoard {
    BitBoard::from_square(sq)
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The squares from which a `piece` of the side to move attacks `to` (geometry only:
/// pins and checks are not considered). Not for pawns.
///
/// Walks the pieces of that kind (one or two, as a rule) and asks each whether it
/// reaches `to`, with the small line and between tables rather than a slider
/// attack lookup from the target: the tables stay in cache.
pub(crate) fn piece_sources(board: &Board, piece: Piece, to: Square) -> BitBoard {
    let ours = *board.pieces(piece) & *board.color_combined(board.side_to_move());
    match piece {
        Piece::Knight => get_knight_moves(to) & ours,
        Piece::King => get_king_moves(to) & ours,
        Piece::Pawn => EMPTY,
        _ => {
            let occupied = *board.combined();
            let mut found = EMPTY;
            for from in ours {
                let df = from
                    .get_file()
                    .to_index()
                    .abs_diff(to.get_file().to_index());
                let dr = from
                    .get_rank()
                    .to_index()
                    .abs_diff(to.get_rank().to_index());
                let straight = (df == 0) != (dr == 0);
                let diagonal = df == dr && df != 0;
                let aligned = match piece {
                    Piece::Rook => straight,
                    Piece::Bishop => diagonal,
                    _ => straight || diagonal,
                };
                if aligned && chess::between(from, to) & occupied == EMPTY {
                    found |= bb(from);
                }
            }
            found
        }
    }
}

/// A handful of candidate moves, kept on the stack.
struct Candidates {
    moves: [ChessMove; 16],
    len: usize,
}

impl Candidates {
    fn new() -> Self {
        Candidates {
            moves: [ChessMove::default(); 16],
            len: 0,
        }
    }
    fn push(&mut self, mv: ChessMove) {
        if self.len < self.moves.len() {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }
    fn as_slice(&self) -> &[ChessMove] {
        &self.moves[..self.len]
    }
}

/// Resolves a move text in a position.
pub fn resolve(mt: &MoveText, pos: &Position) -> Result<Move, ResolveError> {
    match mt.body {
        Body::Null => {
            if pos.is_check() {
                Err(ResolveError::Illegal(
                    "a null move is impossible while in check".into(),
                ))
            } else {
                Ok(Move::Null)
            }
        }
        Body::Castle { long } => castle(pos, long).map(Move::Normal),
        Body::Move {
            piece,
            from_file,
            from_rank,
            capture,
            to,
            promotion,
        } => normal(pos, piece, from_file, from_rank, capture, to, promotion).map(Move::Normal),
    }
}

fn castle(pos: &Position, long: bool) -> Result<ChessMove, ResolveError> {
    let board = pos.board();
    let side = board.side_to_move();
    let back = side.to_my_backrank();
    let from = Square::make_square(back, File::E);
    let to = Square::make_square(back, if long { File::C } else { File::G });
    let mv = ChessMove::new(from, to, None);
    if pos.is_legal(mv) {
        return Ok(mv);
    }
    Err(ResolveError::Illegal(castle_refusal(pos, long)))
}

/// Why castling on the `long` wing (queenside when true) is not legal here, once it
/// is known not to be.
fn castle_refusal(pos: &Position, long: bool) -> String {
    let board = pos.board();
    let side = board.side_to_move();
    let back = side.to_my_backrank();
    let from = Square::make_square(back, File::E);
    let wing = if long { "queenside" } else { "kingside" };
    let rights = board.my_castle_rights();
    let has = if long {
        rights.has_queenside()
    } else {
        rights.has_kingside()
    };
    if !has {
        format!(
            "{} can no longer castle {wing} (the king or that rook has moved)",
            position::color_name(side)
        )
    } else if pos.is_check() {
        "castling is not allowed while in check".to_string()
    } else {
        let rook = Square::make_square(back, if long { File::A } else { File::H });
        if chess::between(from, rook) & *board.combined() != EMPTY {
            "pieces stand between the king and the rook".to_string()
        } else {
            "the king would cross or land on an attacked square".to_string()
        }
    }
}

/// The wing (`true` for queenside) of a king move of the side to move that has the
/// shape of castling: from the king's home square to the c- or g-file of its back
/// rank (`e1g1`, `Ke1-c1`), or, with `onto_rook`, to a corner of it (`e1h1`, as
/// Chess960-aware programs write castling in UCI: king takes own rook).
fn castling_wing(board: &Board, from: Square, to: Square, onto_rook: bool) -> Option<bool> {
    let back = board.side_to_move().to_my_backrank();
    if from != Square::make_square(back, File::E) || to.get_rank() != back {
        return None;
    }
    match (to.get_file(), onto_rook) {
        (File::C, false) | (File::A, true) => Some(true),
        (File::G, false) | (File::H, true) => Some(false),
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)]
fn normal(
    pos: &Position,
    piece: Option<Piece>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    capture: bool,
    to: Target,
    promotion: Option<Piece>,
) -> Result<ChessMove, ResolveError> {
    let board = pos.board();
    let side = board.side_to_move();
    let ours = *board.color_combined(side);
    let theirs = *board.color_combined(!side);
    let mut found = Candidates::new();
    let illegal = |s: String| Err(ResolveError::Illegal(s));

    match (from_file, from_rank, to) {
        (Some(ff), Some(fr), Target::Square(t)) => {
            // Long algebraic, UCI, ICCF: the from-square is given.
            let from = Square::make_square(fr, ff);
            let on_from = pos
                .piece_at(from)
                .filter(|(_, c)| *c == side)
                .map(|(p, _)| p);
            let Some(actual) = on_from else {
                return illegal(format!("no {} piece stands on {from}", color_word(side)));
            };
            if piece.is_some_and(|p| p != actual) {
                return illegal(format!(
                    "no {} {} stands on {from} (it holds a {})",
                    color_word(side),
                    name(piece.unwrap_or(actual)),
                    name(actual)
                ));
            }
            // UCI from Chess960-aware programs writes castling as king takes own rook.
            if actual == Piece::King
                && board.piece_on(t) == Some(Piece::Rook)
                && ours & bb(t) != EMPTY
            {
                if let Some(long) = castling_wing(board, from, t, true) {
                    return castle(pos, long);
                }
            }
            // As the short form says it: what the move cannot be is plainer than
            // what it would do to the king (`Ng1-e2` at the start).
            if ours & bb(t) != EMPTY {
                return illegal(format!("{t} holds a {} piece", color_word(side)));
            }
            // A move its piece cannot make at all is refused for that, before pins and
            // checks are looked at: `g1f4` is not a move that would expose the king.
            if let Some(why) = out_of_reach(board, actual, from, t) {
                return illegal(why);
            }
            found.push(ChessMove::new(from, t, None));
        }
        (_, _, Target::Square(t)) if piece != Some(Piece::Pawn) => {
            let piece = piece.unwrap_or(Piece::Pawn);
            if ours & bb(t) != EMPTY {
                return illegal(format!("{t} holds a {} piece", color_word(side)));
            }
            let mut sources = piece_sources(board, piece, t);
            if piece == Piece::King {
                // Castling written as a king move: Kg1, Ke1-g1.
                sources |= *board.pieces(Piece::King) & ours;
            }
            for from in sources.filter(|s| matches_from(*s, from_file, from_rank)) {
                found.push(ChessMove::new(from, t, None));
            }
            if found.len == 0 {
                let have = *board.pieces(piece) & ours != EMPTY;
                return illegal(if have {
                    format!("no {} {} can reach {t}", color_word(side), name(piece))
                } else {
                    format!("{} has no {}", position::color_name(side), name(piece))
                });
            }
        }
        (_, _, Target::Square(t)) => {
            let pawns = *board.pieces(Piece::Pawn) & ours;
            let diagonal = capture || from_file.is_some_and(|f| f != t.get_file());
            if diagonal {
                let ep = ep_square(board);
                if theirs & bb(t) == EMPTY && ep != Some(t) {
                    return illegal(format!("there is nothing to capture on {t}"));
                }
                let from_sqs = get_pawn_attacks(t, !side, pawns);
                for from in from_sqs.filter(|s| matches_from(*s, from_file, from_rank)) {
                    found.push(ChessMove::new(from, t, None));
                }
                if found.len == 0 {
                    return illegal(format!("no {} pawn can capture on {t}", color_word(side)));
                }
            } else {
                if ours & bb(t) != EMPTY {
                    // `e4` with a pawn of one's own on e4: no capture hint, it
                    // would name a move that cannot exist.
                    let own = board.piece_on(t).map_or("piece", name);
                    return illegal(format!(
                        "{t} holds a {} {own} of your own",
                        color_word(side)
                    ));
                }
                if *board.combined() & bb(t) != EMPTY {
                    return illegal(format!(
                        "{t} is occupied; a pawn captures diagonally (write the capture, e.g. dx{t})"
                    ));
                }
                let mut push_from = None;
                if let Some(one) = t.backward(side) {
                    if pawns & bb(one) != EMPTY {
                        push_from = Some(one);
                    } else if *board.combined() & bb(one) == EMPTY
                        && t.get_rank() == side.to_fourth_rank()
                    {
                        push_from = one.backward(side).filter(|s| pawns & bb(*s) != EMPTY);
                    }
                }
                if let Some(from) = push_from.filter(|s| matches_from(*s, from_file, from_rank)) {
                    found.push(ChessMove::new(from, t, None));
                }
                if found.len == 0 {
                    return illegal(format!("no {} pawn can move to {t}", color_word(side)));
                }
            }
        }
        (_, _, Target::File(tf)) => {
            // Minimal pawn captures: exd, ed.
            let ep = ep_square(board);
            let victims = (theirs | ep.map(bb).unwrap_or(EMPTY)) & get_file(tf);
            let pawns = *board.pieces(Piece::Pawn) & ours;
            for from in pawns.filter(|s| matches_from(*s, from_file, from_rank)) {
                for t in get_pawn_attacks(from, side, victims) {
                    found.push(ChessMove::new(from, t, None));
                }
            }
            if found.len == 0 {
                return illegal(format!(
                    "no {} pawn can capture on the {}-file",
                    color_word(side),
                    file_char(tf)
                ));
            }
        }
    }

    let geometric = !(from_file.is_some() && from_rank.is_some());
    choose(pos, found.as_slice(), promotion, geometric)
}

/// Why the `piece` of the side to move on `from` cannot go to `to` whatever stands
/// around its king (it does not move that way, or its way is blocked); `None` when it
/// can, as far as its own move goes. Kings are left to [`why_illegal`], which knows
/// castling.
fn out_of_reach(board: &Board, piece: Piece, from: Square, to: Square) -> Option<String> {
    let side = board.side_to_move();
    let who = format!("the {} {} on {from}", color_word(side), name(piece));
    match piece {
        Piece::King => None,
        Piece::Pawn => pawn_out_of_reach(board, &who, from, to),
        _ if piece_sources(board, piece, to) & bb(from) != EMPTY => None,
        Piece::Knight => Some(format!("{who} cannot reach {to}")),
        _ => {
            let line = chess::line(from, to) != EMPTY
                && match piece {
                    Piece::Rook => {
                        from.get_file() == to.get_file() || from.get_rank() == to.get_rank()
                    }
                    Piece::Bishop => {
                        from.get_file() != to.get_file() && from.get_rank() != to.get_rank()
                    }
                    _ => true,
                };
            Some(if line {
                format!("{who} cannot reach {to}: pieces stand in the way")
            } else {
                format!("{who} cannot reach {to}")
            })
        }
    }
}

/// [`out_of_reach`] for a pawn, `who` naming it: a step or two ahead onto empty
/// squares, or a capture one step aside.
fn pawn_out_of_reach(board: &Board, who: &str, from: Square, to: Square) -> Option<String> {
    let side = board.side_to_move();
    let occupied = *board.combined();
    let one = from.forward(side);
    let two = one
        .filter(|_| from.get_rank() == side.to_second_rank())
        .and_then(|s| s.forward(side));
    let aside = one.map_or(EMPTY, |s| {
        get_king_moves(s) & chess::get_rank(s.get_rank()) & !get_file(s.get_file())
    });
    if aside & bb(to) != EMPTY {
        let theirs = *board.color_combined(!side);
        let takes = theirs & bb(to) != EMPTY || ep_square(board) == Some(to);
        return (!takes).then(|| format!("there is nothing to capture on {to}"));
    }
    if one != Some(to) && two != Some(to) {
        return Some(format!("{who} cannot go to {to}"));
    }
    let way = one.filter(|s| *s != to && occupied & bb(*s) != EMPTY);
    match way {
        Some(blocked) => Some(format!("{who} cannot go to {to}: {blocked} is occupied")),
        None if occupied & bb(to) != EMPTY => {
            Some(format!("{to} is occupied; a pawn captures diagonally"))
        }
        None => None,
    }
}

/// Picks the one legal candidate, completing promotions.
/// `geometric`: every candidate is known to be a move its piece can make (found
/// from the attack tables), so only pins and checks remain to be tested, except for
/// the king and en passant.
fn choose(
    pos: &Position,
    candidates: &[ChessMove],
    promotion: Option<Piece>,
    geometric: bool,
) -> Result<ChessMove, ResolveError> {
    if let Some(p @ (Piece::Pawn | Piece::King)) = promotion {
        return Err(ResolveError::Illegal(format!(
            "a pawn cannot promote to a {}",
            name(p)
        )));
    }
    let board = pos.board();
    let side = board.side_to_move();
    let mut legal = Candidates::new();
    let mut needs_promotion = false;
    let king = board.king_square(side);
    let ep = ep_square(board);
    let quiet = *board.checkers() == EMPTY;
    for mv in candidates {
        let is_pawn = *board.pieces(Piece::Pawn) & bb(mv.get_source()) != EMPTY;
        let last_rank = is_pawn && mv.get_dest().get_rank() == side.to_their_backrank();
        let mv = match (last_rank, promotion) {
            (true, Some(p)) => ChessMove::new(mv.get_source(), mv.get_dest(), Some(p)),
            (true, None) => {
                needs_promotion = true;
                ChessMove::new(mv.get_source(), mv.get_dest(), Some(Piece::Queen))
            }
            (false, Some(_)) => {
                return Err(ResolveError::Illegal(
                    "only a pawn reaching the last rank promotes".into(),
                ))
            }
            (false, None) => *mv,
        };
        let simple = geometric
            && quiet
            && mv.get_source() != king
            && *board.pinned() & bb(mv.get_source()) == EMPTY
            && !(is_pawn && ep == Some(mv.get_dest()));
        if simple || pos.is_legal(mv) {
            legal.push(mv);
        }
    }
    match legal.as_slice() {
        [one] if needs_promotion => Err(ResolveError::PromotionNeeded(
            [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight]
                .iter()
                .map(|p| {
                    san(
                        pos,
                        Move::Normal(ChessMove::new(one.get_source(), one.get_dest(), Some(*p))),
                    )
                })
                .collect(),
        )),
        [one] => Ok(*one),
        [] => Err(ResolveError::Illegal(why_illegal(pos, candidates))),
        many => {
            let mut sans: Vec<String> = many.iter().map(|m| san(pos, Move::Normal(*m))).collect();
            sans.sort();
            Err(ResolveError::Ambiguous(sans))
        }
    }
}

/// Why every candidate fails, in a player's words.
fn why_illegal(pos: &Position, candidates: &[ChessMove]) -> String {
    let board = pos.board();
    let side = board.side_to_move();
    let king = candidates
        .first()
        .is_some_and(|m| board.piece_on(m.get_source()) == Some(Piece::King));
    if king {
        let (from, to) = (candidates[0].get_source(), candidates[0].get_dest());
        // `e1g1`, `Kg1`: castling written as a king move fails for castling's reason.
        if let Some(long) = castling_wing(board, from, to, false) {
            return castle_refusal(pos, long);
        }
        if get_king_moves(from) & bb(to) == EMPTY {
            return format!("the {} king cannot reach {to}", color_word(side));
        }
        return format!("the {} king would be in check on {to}", color_word(side));
    }
    if pos.is_check() {
        return format!(
            "the {} king is in check and this move does not parry it",
            color_word(side)
        );
    }
    if let Some(m) = candidates
        .iter()
        .find(|m| *board.pinned() & bb(m.get_source()) != EMPTY)
    {
        let p = board.piece_on(m.get_source()).unwrap_or(Piece::Pawn);
        return format!(
            "the {} on {} is pinned: moving it would expose the {} king",
            name(p),
            m.get_source(),
            color_word(side)
        );
    }
    format!("it would leave the {} king in check", color_word(side))
}

fn matches_from(sq: Square, file: Option<File>, rank: Option<Rank>) -> bool {
    file.is_none_or(|f| sq.get_file() == f) && rank.is_none_or(|r| sq.get_rank() == r)
}

fn ep_square(board: &Board) -> Option<Square> {
    board
        .en_passant()
        .and_then(|pawn| pawn.forward(board.side_to_move()))
}

fn file_char(f: File) -> char {
    (b'a' + f.to_index() as u8) as char
}
