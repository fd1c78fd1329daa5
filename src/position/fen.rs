//! FEN reading and writing: all six fields, with errors that name the bad field.
//!
//! The `chess` crate parses FEN too, but it answers a bad string with a bare
//! "invalid" and forgets the two counters; users typing a FEN need to know which
//! field is wrong and why.

use chess::{Board, BoardBuilder, CastleRights, Color, File, Piece, Rank, Square};
use thiserror::Error;

use super::{color_name, Position};

/// Why a FEN string was refused; each variant names the field at fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// Not 6 fields (4 are accepted too, the counters then default to `0 1`).
    #[error("FEN has {}; it needs 6: placement, side to move, castling, en passant, half-move clock, move number", crate::plural::count(*.0, "field", "fields"))]
    FieldCount(usize),
    /// The placement does not have 8 ranks.
    #[error("placement: {} separated by '/', not 8", crate::plural::count(*.0, "rank", "ranks"))]
    RankCount(usize),
    /// One rank does not describe exactly 8 squares.
    #[error("placement: rank {rank} (\"{text}\") describes {squares} squares, not 8")]
    RankLength {
        /// The rank as numbered on the board (8 is the first in a FEN).
        rank: u8,
        /// The rank's text.
        text: String,
        /// How many squares it describes.
        squares: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-8.
    #[error("placement: '{0}' is not a piece letter (PNBRQK for White, pnbrqk for Black) or a count of empty squares (1-8)")]
    PieceLetter(char),
    /// A side has no king or more than one.
    #[error("placement: {color} has {count} kings; a position needs exactly one of each colour")]
    KingCount {
        /// "White" or "Black".
        color: &'static str,
        /// How many kings of that colour.
        count: u32,
    },
    /// More than 8 pawns or 16 men of one colour.
    #[error("placement: {color} has {count} {what}; at most {max} are possible")]
    TooMany {
        /// "White" or "Black".
        color: &'static str,
        /// How many.
        count: u32,
        /// "pawns" or "pieces".
        what: &'static str,
        /// The limit.
        max: u32,
    },
    /// A pawn on the first or last rank.
    #[error("placement: a pawn on {0}; pawns never stand on the first or last rank")]
    PawnOnBackRank(String),
    /// The side-to-move field is not `w` or `b`.
    #[error("side to move: '{0}' is not w or b")]
    Side(String),
    /// The side that has just moved is in check.
    #[error("side to move: {0} is in check although it is not their move")]
    OpponentInCheck(&'static str),
    /// The castling field is malformed.
    #[error("castling: '{0}' is not a castling field (letters KQkq in that order, or -)")]
    Castling(String),
    /// Chess960 castling letters.
    #[error(
        "castling: '{0}' names a rook file (Chess960 / X-FEN); only standard chess is supported"
    )]
    Chess960Castling(String),
    /// A castling right without the king and rook at home.
    #[error("castling: '{letter}' needs the {color} king on {king} and a rook on {rook}")]
    CastlingPieces {
        /// The castling letter.
        letter: char,
        /// "white" or "black".
        color: &'static str,
        /// The king's home square.
        king: &'static str,
        /// The rook's home square.
        rook: &'static str,
    },
    /// The en-passant field is not a square or `-`.
    #[error("en passant: '{0}' is not a square or -")]
    EnPassantSyntax(String),
    /// The en-passant square cannot follow a double pawn step.
    #[error("en passant: {square} is impossible: {why}")]
    EnPassant {
        /// The square as written.
        square: String,
        /// Why it cannot be.
        why: &'static str,
    },
    /// The half-move clock is not a number.
    #[error("half-move clock: '{0}' is not a whole number")]
    HalfMove(String),
    /// The move number is not a positive number.
    #[error("move number: '{0}' is not a positive whole number")]
    FullMove(String),
}

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

pub(super) fn parse(fen: &str) -> Result<Position, FenError> {
    // No field of a FEN holds a `;`, so a comment after one cannot hide a field.
    let fen = fen.split_once(';').map_or(fen, |(fen, _comment)| fen);
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() != 6 && fields.len() != 4 {
        return Err(FenError::FieldCount(fields.len()));
    }
    let mut builder = BoardBuilder::new();
    for sq in chess::ALL_SQUARES {
        builder.clear_square(sq);
    }
    parse_placement(fields[0], &mut builder)?;
    let side = match fields[1] {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        other => return Err(FenError::Side(other.to_string())),
    };
    builder.side_to_move(side);
    check_material(&builder)?;
    parse_castling(fields[2], &mut builder)?;
    let ep_target = parse_en_passant(fields[3], side, &builder)?;
    builder.en_passant(ep_target.map(|sq| sq.get_file()));
    let (halfmove, fullmove) = if fields.len() == 6 {
        let half = fields[4]
            .parse::<u32>()
            .map_err(|_| FenError::HalfMove(fields[4].to_string()))?;
        let full = fields[5]
            .parse::<u32>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| FenError::FullMove(fields[5].to_string()))?;
        (half, full)
    } else {
        (0, 1)
    };
    // Everything else has been checked, so the crate refuses the board only when
    // the side that has just moved is in check (kings touching included).
    let board =
        Board::try_from(&builder).map_err(|_| FenError::OpponentInCheck(color_name(!side)))?;
    Ok(Position {
        board,
        halfmove,
        fullmove,
        ep_target,
    })
}

fn parse_placement(text: &str, builder: &mut BoardBuilder) -> Result<(), FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::from_index(7 - i);
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
                continue;
            }
            let piece = match c.to_ascii_lowercase() {
                'p' => Piece::Pawn,
                'n' => Piece::Knight,
                'b' => Piece::Bishop,
                'r' => Piece::Rook,
                'q' => Piece::Queen,
                'k' => Piece::King,
                _ => return Err(FenError::PieceLetter(c)),
            };
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            if file < 8 {
                let sq = Square::make_square(rank, File::from_index(file));
                if piece == Piece::Pawn && (i == 0 || i == 7) {
                    return Err(FenError::PawnOnBackRank(sq.to_string()));
                }
                builder.piece(sq, piece, color);
            }
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: 8 - i as u8,
                text: rank_text.to_string(),
                squares: file,
            });
        }
    }
    Ok(())
}

fn count(builder: &BoardBuilder, piece: Option<Piece>, color: Color) -> u32 {
    chess::ALL_SQUARES
        .iter()
        .filter(|sq| match builder[**sq] {
            Some((p, c)) => c == color && piece.is_none_or(|want| want == p),
            None => false,
        })
        .count() as u32
}

fn check_material(builder: &BoardBuilder) -> Result<(), FenError> {
    for color in chess::ALL_COLORS {
        let name = color_name(color);
        let kings = count(builder, Some(Piece::King), color);
        if kings != 1 {
            return Err(FenError::KingCount {
                color: name,
                count: kings,
            });
        }
        let pawns = count(builder, Some(Piece::Pawn), color);
        if pawns > 8 {
            return Err(FenError::TooMany {
                color: name,
                count: pawns,
                what: "pawns",
                max: 8,
            });
        }
        let all = count(builder, None, color);
        if all > 16 {
            return Err(FenError::TooMany {
                color: name,
                count: all,
                what: "pieces",
                max: 16,
            });
        }
    }
    Ok(())
}

fn parse_castling(text: &str, builder: &mut BoardBuilder) -> Result<(), FenError> {
    let mut rights = [CastleRights::NoRights; 2];
    if text != "-" {
        if text.chars().any(|c| matches!(c, 'A'..='H' | 'a'..='h')) {
            return Err(FenError::Chess960Castling(text.to_string()));
        }
        let order = ['K', 'Q', 'k', 'q'];
        if !text.chars().all(|c| order.contains(&c)) {
            return Err(FenError::Castling(text.to_string()));
        }
        let mut last = None;
        for c in text.chars() {
            let idx = order
                .iter()
                .position(|o| *o == c)
                .ok_or_else(|| FenError::Castling(text.to_string()))?;
            if last.is_some_and(|l| l >= idx) {
                return Err(FenError::Castling(text.to_string()));
            }
            last = Some(idx);
            let (color, kingside) = match c {
                'K' => (Color::White, true),
                'Q' => (Color::White, false),
                'k' => (Color::Black, true),
                _ => (Color::Black, false),
            };
            let back = color.to_my_backrank();
            let king_sq = Square::make_square(back, File::E);
            let rook_sq = Square::make_square(back, if kingside { File::H } else { File::A });
            if builder[king_sq] != Some((Piece::King, color))
                || builder[rook_sq] != Some((Piece::Rook, color))
            {
                return Err(FenError::CastlingPieces {
                    letter: c,
                    color: if color == Color::White {
                        "white"
                    } else {
                        "black"
                    },
                    king: square_name(king_sq),
                    rook: square_name(rook_sq),
                });
            }
            let add = if kingside {
                CastleRights::KingSide
            } else {
                CastleRights::QueenSide
            };
            rights[color.to_index()] = rights[color.to_index()].add(add);
        }
    }
    for color in chess::ALL_COLORS {
        builder.castle_rights(color, rights[color.to_index()]);
    }
    Ok(())
}

fn parse_en_passant(
    text: &str,
    side: Color,
    builder: &BoardBuilder,
) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    let sq = super::parse_square(text).ok_or_else(|| FenError::EnPassantSyntax(text.into()))?;
    let bad = |why| {
        Err(FenError::EnPassant {
            square: text.to_string(),
            why,
        })
    };
    // The target lies behind a pawn of the side that has just moved.
    let expected_rank = if side == Color::White {
        Rank::Sixth
    } else {
        Rank::Third
    };
    if sq.get_rank() != expected_rank {
        return bad(if side == Color::White {
            "with White to move it must be on the 6th rank"
        } else {
            "with Black to move it must be on the 3rd rank"
        });
    }
    let mover = !side;
    let pawn_sq = sq.ubackward(side);
    if builder[pawn_sq] != Some((Piece::Pawn, mover)) {
        return bad("no pawn stands in front of it that could have just moved two squares");
    }
    if builder[sq].is_some() || builder[sq.ubackward(mover)].is_some() {
        return bad("the squares the pawn has just crossed are not empty");
    }
    Ok(Some(sq))
}

fn square_name(sq: Square) -> &'static str {
    const NAMES: [&str; 64] = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2",
        "h2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4",
        "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6",
        "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8",
        "e8", "f8", "g8", "h8",
    ];
    NAMES[sq.to_index()]
}

pub(super) fn write(pos: &Position) -> String {
    let board = &pos.board;
    let mut out = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::make_square(Rank::from_index(rank), File::from_index(file));
            match (board.piece_on(sq), board.color_on(sq)) {
                (Some(piece), Some(color)) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let c = super::piece_char(piece);
                    out.push(if color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
                _ => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(if board.side_to_move() == Color::White {
        'w'
    } else {
        'b'
    });
    out.push(' ');
    let mut any = false;
    for (color, upper) in [(Color::White, true), (Color::Black, false)] {
        let rights = board.castle_rights(color);
        for (has, c) in [(rights.has_kingside(), 'k'), (rights.has_queenside(), 'q')] {
            if has {
                out.push(if upper { c.to_ascii_uppercase() } else { c });
                any = true;
            }
        }
    }
    if !any {
        out.push('-');
    }
    out.push(' ');
    match pos.ep_target {
        Some(sq) => out.push_str(square_name(sq)),
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    out
}
