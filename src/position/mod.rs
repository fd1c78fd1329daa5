//! A chess position as a scoresheet needs it: the `chess` crate's board plus what
//! that board lacks — the half-move clock, the move number, the en-passant target
//! square as FEN writes it — and the game-level facts a position alone cannot know
//! (threefold repetition, through [`History`]).

mod fen;
pub(crate) mod legal;

use chess::{Board, BoardStatus, ChessMove, Color, File, MoveGen, Piece, Rank, Square};

pub use fen::{FenError, START_FEN};

/// One move of a game: a real move or a null move (`--` in PGN, used in analysis).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A move on the board.
    Normal(ChessMove),
    /// A "pass": the side to move changes, nothing else does.
    Null,
}

/// A position with its counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    board: Board,
    halfmove: u32,
    fullmove: u32,
    /// The square behind a pawn that has just advanced two squares, as FEN writes it
    /// (the crate keeps it only when a capture is possible).
    ep_target: Option<Square>,
}

/// How a position stands, as far as the rules decide it by themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can possibly mate (K v K, K+minor v K, bishops all on one colour).
    InsufficientMaterial,
    /// Fifty moves by each side without a pawn move or a capture (half-move clock ≥ 100).
    FiftyMoves,
    /// The same position has occurred three times (needs the game's [`History`]).
    ThreefoldRepetition,
}

impl Default for Position {
    fn default() -> Self {
        Self::start()
    }
}

impl Position {
    /// The standard starting position.
    pub fn start() -> Self {
        // The crate builds its default board by parsing a FEN: do that once.
        static START: std::sync::LazyLock<Board> = std::sync::LazyLock::new(Board::default);
        Position {
            board: *START,
            halfmove: 0,
            fullmove: 1,
            ep_target: None,
        }
    }

    /// Reads a FEN (six fields; four are accepted with the counters defaulting to `0 1`).
    /// A `;` and what follows it is a comment, not part of the FEN: the form of the
    /// lines `:snap` writes (`FEN ; game 3, ply 12`), as in PGN, where `;` starts a
    /// comment that runs to the end of the line.
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        fen::parse(fen)
    }

    /// Writes the full six-field FEN. The en-passant square is given after every
    /// double pawn step, as the PGN standard's FEN section says.
    pub fn fen(&self) -> String {
        fen::write(self)
    }

    /// The underlying board of the `chess` crate.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose move it is.
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// Half-moves since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, as on a scoresheet: 1 for the first move of each side.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The FEN en-passant target square, if the last move was a double pawn step.
    pub fn ep_target(&self) -> Option<Square> {
        self.ep_target
    }

    /// Is the side to move in check?
    pub fn is_check(&self) -> bool {
        *self.board.checkers() != chess::EMPTY
    }

    /// Is this move legal here? Fast: tests the move itself, without generating the
    /// other moves of the position.
    pub fn is_legal(&self, mv: ChessMove) -> bool {
        legal::is_legal(&self.board, mv)
    }

    /// Every legal move, in the crate's generation order.
    pub fn legal_moves(&self) -> Vec<ChessMove> {
        MoveGen::new_legal(&self.board).collect()
    }

    /// Plays a legal move. The move must be legal (check with [`Position::is_legal`]
    /// or get it from the notation engine); an illegal one gives a nonsense position.
    pub fn play(&self, mv: ChessMove) -> Position {
        let mut after = *self;
        self.play_into(mv, &mut after);
        after
    }

    /// [`Position::play`], writing the position after the move into `after`: for loops
    /// that keep the position before the move anyway, this spares copies.
    #[inline]
    pub fn play_into(&self, mv: ChessMove, after: &mut Position) {
        let board = &self.board;
        let side = board.side_to_move();
        let from = chess::BitBoard::from_square(mv.get_source());
        let capture =
            *board.combined() & chess::BitBoard::from_square(mv.get_dest()) != chess::EMPTY;
        let pawn = *board.pieces(Piece::Pawn) & from != chess::EMPTY;
        let double_step = pawn
            && mv
                .get_source()
                .get_rank()
                .to_index()
                .abs_diff(mv.get_dest().get_rank().to_index())
                == 2;
        board.make_move(mv, &mut after.board);
        after.halfmove = if pawn || capture {
            0
        } else {
            self.halfmove + 1
        };
        after.fullmove = self.fullmove + u32::from(side == Color::Black);
        after.ep_target = if double_step {
            mv.get_source().forward(side)
        } else {
            None
        };
    }

    /// Plays a null move; `None` when the side to move is in check (a null move
    /// would leave its king capturable).
    pub fn play_null(&self) -> Option<Position> {
        let board = self.board.null_move()?;
        Some(Position {
            board,
            halfmove: self.halfmove + 1,
            fullmove: self.fullmove + u32::from(self.side_to_move() == Color::Black),
            ep_target: None,
        })
    }

    /// Plays a [`Move`]; `None` only for a null move in check.
    pub fn apply(&self, mv: Move) -> Option<Position> {
        match mv {
            Move::Normal(m) => Some(self.play(m)),
            Move::Null => self.play_null(),
        }
    }

    /// The status the position decides by itself (repetition needs [`History`]).
    /// Mate and stalemate come before the fifty-move rule.
    pub fn status(&self) -> Status {
        match self.board.status() {
            BoardStatus::Checkmate => Status::Checkmate,
            BoardStatus::Stalemate => Status::Stalemate,
            BoardStatus::Ongoing if self.insufficient_material() => Status::InsufficientMaterial,
            BoardStatus::Ongoing if self.halfmove >= 100 => Status::FiftyMoves,
            BoardStatus::Ongoing => Status::Ongoing,
        }
    }

    /// The status with the game's past taken into account: the rules' own ends
    /// (mate, stalemate, no mating material) first, then threefold repetition,
    /// then the fifty-move rule. `history` must end with this position.
    pub fn status_with(&self, history: &History) -> Status {
        match self.status() {
            Status::Ongoing | Status::FiftyMoves if history.is_threefold() => {
                Status::ThreefoldRepetition
            }
            status => status,
        }
    }

    /// True when no sequence of legal moves can end in mate: only kings, kings and
    /// one minor piece, or kings and bishops that all stand on squares of one colour.
    pub fn insufficient_material(&self) -> bool {
        let b = &self.board;
        let heavy = *b.pieces(Piece::Pawn) | *b.pieces(Piece::Rook) | *b.pieces(Piece::Queen);
        if heavy != chess::EMPTY {
            return false;
        }
        let knights = b.pieces(Piece::Knight).popcnt();
        let bishops = *b.pieces(Piece::Bishop);
        if knights + bishops.popcnt() <= 1 {
            return true;
        }
        if knights > 0 {
            return false;
        }
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        let dark = bishops.0 & DARK;
        dark == 0 || dark == bishops.0
    }

    /// The piece and colour on a square.
    pub fn piece_at(&self, sq: Square) -> Option<(Piece, Color)> {
        Some((self.board.piece_on(sq)?, self.board.color_on(sq)?))
    }

    /// A key identifying the position for repetition (placement, side, castling,
    /// en passant when a capture is possible).
    pub fn repetition_key(&self) -> u64 {
        self.board.get_hash()
    }
}

/// The positions of a game since its last irreversible move, to detect repetition.
#[derive(Debug, Clone, Default)]
pub struct History {
    keys: Vec<u64>,
}

impl History {
    /// A history that starts at `start`.
    pub fn new(start: &Position) -> Self {
        History {
            keys: vec![start.repetition_key()],
        }
    }

    /// Records the position reached by the next move. A pawn move or a capture
    /// (half-move clock 0) makes every earlier position unreachable, so they are dropped.
    pub fn push(&mut self, pos: &Position) {
        if pos.halfmove_clock() == 0 {
            self.keys.clear();
        }
        self.keys.push(pos.repetition_key());
    }

    /// How many times the latest position has occurred (1 for a new position).
    /// The key of the last position pushed.
    pub fn last_key(&self) -> Option<u64> {
        self.keys.last().copied()
    }

    /// How many times the last position pushed has occurred.
    pub fn repetitions(&self) -> usize {
        match self.keys.last() {
            Some(last) => self.keys.iter().filter(|k| *k == last).count(),
            None => 0,
        }
    }

    /// The latest position has occurred at least three times.
    pub fn is_threefold(&self) -> bool {
        self.repetitions() >= 3
    }
}

/// "White" or "Black".
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The lower-case English letter of a piece, `p` for a pawn.
pub fn piece_char(piece: Piece) -> char {
    match piece {
        Piece::Pawn => 'p',
        Piece::Knight => 'n',
        Piece::Bishop => 'b',
        Piece::Rook => 'r',
        Piece::Queen => 'q',
        Piece::King => 'k',
    }
}

/// Reads a square name such as `e4`.
pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(Square::make_square(
        Rank::from_index((b[1] - b'1') as usize),
        File::from_index((b[0] - b'a') as usize),
    ))
}

#[cfg(test)]
mod tests;
