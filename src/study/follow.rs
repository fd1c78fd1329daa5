//! Reading games for position search and the opening tree: a [`Visitor`] that plays each
//! game through the [`GameBuilder`] (moves are resolved by the one notation engine, and
//! problems are found as `check` finds them) while following its positions, without building
//! a move tree. An index reads every game to its end; a search of main lines reads each
//! game only as far as its answer needs (see [`Follow::leave`]), so problems after that point
//! are not looked for.
//!
//! For each game it gives a [`Walked`]: what the tree needs of its tags, the main line
//! (start position and moves), and — when a target position is given — the first ply at
//! which any line, variations included, reaches it, with the tags a search result line
//! shows for the games that reach it.

use chess::{ChessMove, Color};

use crate::notation::is_mark_word;
use crate::pgn::{ColumnPlaces, CommentKind, GameBuilder, Pos, ReadError, ReadGame, Skip, Visitor};
use crate::position::Position;
use crate::study::key::Goal;
use crate::study::tree::Next;

pub use super::game_tags::{elo_of, GameInfo, GameResult, Tags};

/// One game as followed.
#[derive(Debug)]
pub struct Walked {
    /// The game as the builder read it (its number, start and problems).
    pub read: ReadGame,
    /// Its tags, without a target or for a game that reaches the target; else (and for
    /// an index, which keeps `info`, or without the tags) none. Boxed, as the start: a
    /// search hands on every game read, and most have neither.
    pub tags: Option<Box<Tags>>,
    /// What the opening tree needs of its tags.
    pub info: GameInfo,
    /// Where the values of its tags a result line shows lie in the input
    /// ([`TagsRead::Places`]), for a game that reaches the target; none when its tag
    /// section did not end as it should (a lexical error in it).
    pub places: Option<ColumnPlaces>,
    /// Half-moves of its main line as written, those after an illegal move or a lexical
    /// error included: the plies `list` shows (see [`Visitor::main_line_written`]).
    pub plies: u32,
    /// The position before the first move when it is not the standard one (a FEN tag's).
    pub start: Option<Box<Position>>,
    /// The moves of the main line as far as they could be played (`None`: a null move):
    /// without a target, or for an index (else empty: a search needs only `next`).
    pub moves: Vec<Option<ChessMove>>,
    /// The first ply (counted from the start of the game) at which any line reaches the
    /// target position; only looked for when a target was given.
    pub reached: Option<u32>,
    /// What the main line played at ply `reached` (its end when it has no move there,
    /// or when the target was not reached).
    pub next: Next,
    /// For an index ([`Follow::indexing`]): the main line's moves in the index's move
    /// codes ([`super::index::code`]), and the keys of its positions, the start included
    /// (both for the first [`MAX_INDEXED_PLIES`] moves).
    pub codes: Vec<u8>,
    /// See `codes`.
    pub keys: Vec<u64>,
}

/// Which tags a follower reads, besides those the game builder needs (see
/// [`Follow::reading_tags`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagsRead {
    /// Those a search result line and the tree show: [`Walked::tags`] and
    /// [`Walked::info`].
    All,
    /// Only what the tree keeps of a game, [`Walked::info`] (Result, the ratings, Date):
    /// for a tree read through, which would otherwise read the tags of every game found
    /// a second time, from the file.
    Info,
    /// Only where the values of a result line's tags lie, [`Walked::places`] (none is
    /// decoded: [`Walked::tags`] and [`Walked::info`] stay empty): for a search that reads
    /// the tags of the games it finds afterwards, from the file still in memory.
    Places,
}

/// How many men fewer than the standard start a target must have for a search to count
/// each game's moves first (see [`Follow::ahead`]).
const PLIES_WORTH_COUNTING: u32 = 8;

/// Moves of a main line an index keeps (its game records count plies in 16 bits).
pub const MAX_INDEXED_PLIES: usize = u16::MAX as usize;

/// The visitor (see the module documentation). Reusable across games.
pub struct Follow {
    builder: GameBuilder,
    target: Option<Goal>,
    variations: bool,
    tags: Tags,
    start: Option<Position>,
    /// The main line's moves: kept without a target, for an index, and by a search inside
    /// variations (where a variation may reach the target at a ply whose main-line move
    /// was played before); a search of main lines keeps only `next`.
    moves: Vec<Option<ChessMove>>,
    reached: Option<u32>,
    /// For a search of main lines: the move played at the target once it was reached.
    next: Option<Next>,
    indexing: bool,
    /// Whether the main line's moves are kept (see `moves`).
    keeps_moves: bool,
    /// Whether a game is left as soon as it can no longer reach the target (a search of
    /// main lines only: a variation starts from an earlier position, and an index follows
    /// every move; nor for kings alone, which every game may still reach).
    prunes: bool,
    /// Whether this game is still followed: it may yet reach the target, or the move played
    /// there is still to come (a search of main lines leaves a game once it has both, or
    /// once the target is out of reach). Once not, its moves are only counted (see
    /// [`Follow::leave`]).
    watching: bool,
    /// Moves to come whose positions cannot be the target (a search of main lines): the
    /// board has more men than the target, more than these moves can take (see
    /// [`Goal::men_over`]). Only checked meanwhile.
    far: u32,
    /// Whether `far` is worth working out again once it runs out: the target was more than
    /// one move away by that count last time (men are never added, so once it is not, it
    /// never is again).
    counting: bool,
    /// Which tags are read (see [`Follow::reading_tags`]).
    reads: TagsRead,
    /// Where the game being read starts (absolute offset).
    game_start: u64,
    /// The places of its tags' values noted so far ([`TagsRead::Places`]; none once one
    /// could not be noted).
    noting: Option<ColumnPlaces>,
    /// The same, once its tag section ended as it should (its movetext began).
    places: Option<ColumnPlaces>,
    codes: Vec<u8>,
    keys: Vec<u64>,
    /// The reader's count of the plies as written, when it gives one (see
    /// [`Walked::plies`]).
    written: Option<u32>,
    /// Moves of the main line passed over once the game was left (see [`Follow::leave`]),
    /// marks written as words of their own left out, as the builder counts them.
    passed: u32,
    /// The moves the main line holds, counted by the reader before they come (a search of
    /// main lines asks for it: see [`Visitor::plies_ahead`]): a move takes one man at most,
    /// so a game with fewer moves left than the men the board has over the target's can
    /// no longer reach it, and is left.
    ahead: Option<u32>,
    /// Whether the reader is asked for [`Follow::ahead`]: see [`Follow::new`].
    counts_ahead: bool,
}

impl Follow {
    /// A follower that reads moves in `lang`; with `target`, the main line (and every
    /// variation too with `variations`) is searched for that position (see
    /// [`super::key::Goal`]).
    pub fn new(
        lang: &'static crate::notation::Lang,
        target: Option<Goal>,
        variations: bool,
    ) -> Self {
        Follow {
            builder: GameBuilder::new(false).reading(lang),
            target,
            variations,
            tags: Tags::default(),
            start: None,
            moves: Vec::new(),
            reached: None,
            next: None,
            indexing: false,
            keeps_moves: target.is_none() || variations,
            // Kings alone are never out of reach: asking would only cost.
            prunes: target.is_some_and(|goal| !goal.always_reachable()) && !variations,
            watching: true,
            far: 0,
            counting: false,
            reads: TagsRead::All,
            game_start: 0,
            noting: None,
            places: None,
            codes: Vec::new(),
            keys: Vec::new(),
            written: None,
            passed: 0,
            ahead: None,
            // A search of main lines, for a target far from the start that no pawn's first
            // move nor castling puts out of reach (an endgame): a search for another leaves
            // most games within their first moves anyway, and counting every game's moves
            // first cost one of a middlegame position 6% more.
            counts_ahead: target.is_some_and(|goal| {
                !goal.out_of_reach_early() && goal.men() + PLIES_WORTH_COUNTING <= 32
            }) && !variations,
        }
    }

    /// Reads these tags (all by default): see [`TagsRead`].
    pub fn reading_tags(mut self, reads: TagsRead) -> Self {
        self.reads = reads;
        self
    }

    /// Also keeps what an index needs of the main line (see [`Walked::codes`]).
    pub fn indexing(mut self) -> Self {
        self.indexing = true;
        self.keeps_moves = true;
        self.prunes = false;
        self.counts_ahead = false;
        self
    }

    /// Takes the start position of the game, once its movetext begins.
    fn start(&mut self) {
        let Some((_, &pos)) = self.builder.main_line_so_far() else {
            return;
        };
        self.start = Some(pos);
        if let Some(goal) = &self.target {
            if goal.is(pos.board()) {
                self.reached = Some(0);
            } else if !self.keeps_moves {
                self.count_far(goal.men_over(pos.board()));
            }
        }
        if self.indexing {
            self.keys.push(super::key::key(pos.board()));
        }
    }

    /// Reads the move `san` of a game followed by a follower that keeps the main line's
    /// moves (see [`Follow::keeps_moves`]). Out of the reader's loop: inlined there, it
    /// made the loop cost more for every move of a search, those of the games left
    /// included.
    #[inline(never)]
    fn watch(&mut self, san: &[u8], at: Pos) {
        // The builder hands over the move it played and the positions around it: reading
        // them back from its stack after each move cost a tenth of the reading.
        let Some(played) = self.builder.play(san, at) else {
            return;
        };
        if played.depth == 1 {
            if self.indexing && self.moves.len() < MAX_INDEXED_PLIES {
                super::index::code::encode(played.before.board(), played.mv, &mut self.codes);
                self.keys.push(super::key::key(played.after.board()));
            }
            self.moves.push(played.mv);
        }
        if let Some(goal) = &self.target {
            // Inside variations too: a variation may reach the target at an earlier ply.
            if goal.is(played.after.board()) {
                let start = self.start.as_ref().unwrap_or(played.after);
                let ply = ply_of(start, played.after);
                self.reached = Some(self.reached.map_or(ply, |r| r.min(ply)));
            }
        }
    }

    /// Leaves the game being read: a search of main lines has all it needs of it (the
    /// target is out of reach, or the move played there is known). The builder then only
    /// counts its moves as written, as `list` does, without playing them: playing them is
    /// nearly all of the cost of reading a game, and most games of a search are left within
    /// a few moves (a pawn moved or a man taken that the target still has). The builder is
    /// told, so that it compares no result with a board that is not the game's last.
    fn leave(&mut self) {
        self.watching = false;
        self.builder.leave();
    }

    /// Sets [`Follow::far`] from the men the board has over the target's: with `over` more,
    /// the positions after the next `over - 1` moves cannot be the target. With the moves
    /// left known ([`Follow::ahead`]), a game with fewer than `over` is left; else it is
    /// asked again after the moves it can pass without taking a man (`left - over`), as
    /// then it must take one with every move.
    fn count_far(&mut self, over: u32) {
        let Some(ahead) = self.ahead else {
            self.far = over.saturating_sub(1);
            self.counting = over > 1;
            return;
        };
        let played = self.builder.main_line_written_so_far().unwrap_or(0);
        let left = ahead.saturating_sub(played);
        if over > left {
            self.leave();
            return;
        }
        self.far = over.saturating_sub(1).min(left - over);
        self.counting = true;
    }
}

/// The ply of `pos` in a game that starts at `start`, from the move counters (a variation's
/// positions get the ply they stand at in the game).
fn ply_of(start: &Position, pos: &Position) -> u32 {
    let half = |p: &Position| {
        2 * u64::from(p.fullmove_number()) + u64::from(p.side_to_move() == Color::Black)
    };
    half(pos).saturating_sub(half(start)) as u32
}

impl Visitor for Follow {
    type Output = Walked;

    fn begin_game(&mut self, at: Pos) {
        self.tags.clear();
        self.start = None;
        self.moves.clear();
        self.reached = None;
        self.next = None;
        self.watching = true;
        self.far = 0;
        self.counting = false;
        self.codes.clear();
        self.keys.clear();
        self.written = None;
        self.passed = 0;
        self.ahead = None;
        self.game_start = at.offset;
        self.noting = (self.reads == TagsRead::Places).then(ColumnPlaces::default);
        self.places = None;
        self.builder.begin_game(at);
    }

    #[inline(always)]
    fn tag_place(&mut self, name: &[u8], value: std::ops::Range<u64>) {
        if let Some(places) = &mut self.noting {
            if !places.note(name, value, self.game_start) {
                self.noting = None;
            }
        }
    }

    fn wants_tag(&mut self, name: &[u8]) -> bool {
        // Asked of every tag of every game: plain matches (a closure shared by two was not
        // inlined, and cost the tree read through 0.2%).
        let ours = match self.reads {
            TagsRead::Places => return self.builder.wants_tag(name),
            TagsRead::Info => matches!(name, b"Result" | b"Date" | b"WhiteElo" | b"BlackElo"),
            TagsRead::All => matches!(
                name,
                b"Result"
                    | b"Date"
                    | b"WhiteElo"
                    | b"BlackElo"
                    | b"White"
                    | b"Black"
                    | b"Event"
                    | b"ECO"
            ),
        };
        ours || self.builder.wants_tag(name)
    }

    fn tag(&mut self, name: &[u8], value: &str, at: Pos) {
        let all = match self.reads {
            TagsRead::Places => return self.builder.tag(name, value, at),
            TagsRead::Info => false,
            TagsRead::All => true,
        };
        let t = &mut self.tags;
        match name {
            b"White" if all => value.clone_into(&mut t.white),
            b"Black" if all => value.clone_into(&mut t.black),
            b"Result" => value.clone_into(&mut t.result),
            b"Date" => value.clone_into(&mut t.date),
            b"Event" => value.clone_into(&mut t.event),
            b"ECO" => value.clone_into(&mut t.eco),
            b"WhiteElo" => t.white_elo = elo_of(value),
            b"BlackElo" => t.black_elo = elo_of(value),
            _ => {}
        }
        if self.builder.wants_tag(name) {
            self.builder.tag(name, value, at);
        }
    }

    fn begin_movetext(&mut self) -> Skip {
        let skip = self.builder.begin_movetext();
        // The tag section is over: every tag's place was noted.
        self.places = self.noting.take();
        self.start();
        skip
    }

    // Inlined into the reader's loop, as the builder's own `san` is for `check` (out of
    // it, the part for the games still watched cost more than it saved).
    #[inline(always)]
    fn san(&mut self, san: &[u8], at: Pos) {
        if !self.watching {
            // Left (see `leave`): only counted, for a reader that does not count the moves
            // itself (see `end_game`). A word with a digit is a move, not a mark, as
            // `is_mark_word` would say after a call (which cost a search 10%).
            self.passed += u32::from(san.iter().any(u8::is_ascii_digit) || !is_mark_word(san));
            return;
        }
        if self.far > 0 {
            // (Only in a search of main lines.) Too many men on the board for this move to
            // reach the target: only checked. Asked before anything else, as it is most
            // moves of an endgame search.
            self.far -= 1;
            self.builder.play(san, at);
            return;
        }
        // (The goal is borrowed: copied for every move, it cost an endgame search 2% more.)
        let goal = match &self.target {
            Some(goal) if !self.keeps_moves => goal,
            _ => return self.watch(san, at),
        };
        // A search of main lines (variations are passed over), the one path kept in the
        // loop: the first ply at which the game reaches the target is the one it gives,
        // and the move played there.
        let Some(played) = self.builder.play(san, at) else {
            return;
        };
        if self.reached.is_some() {
            // Nothing more to learn from this game.
            self.next = Some(played.mv.map_or(Next::Null, Next::Move));
            self.leave();
        } else if goal.is(played.after.board()) {
            let start = self.start.as_ref().unwrap_or(played.after);
            self.reached = Some(ply_of(start, played.after));
        } else if self.counting {
            // Asked when the count ran out: the moves it let pass were not asked whether
            // they put the target out of reach, so the board is asked.
            let (over, board) = (goal.men_over(played.after.board()), played.after.board());
            if self.prunes && !goal.reachable_from(board) {
                self.leave();
            }
            self.count_far(over);
        } else if let (true, Some(mv)) = (self.prunes, played.mv) {
            // Asked only after a move that may have put the target out of reach (not in a
            // closure: one was not inlined, and cost a move of an endgame search 24
            // instructions).
            if goal.may_put_out_of_reach(played.before.board(), mv)
                && !goal.reachable_from(played.after.board())
            {
                self.leave();
            }
        }
    }

    fn nag(&mut self, nag: u8, at: Pos) {
        self.builder.nag(nag, at);
    }

    fn comment(&mut self, text: &str, kind: CommentKind, at: Pos) {
        self.builder.comment(text, kind, at);
    }

    fn begin_variation(&mut self, at: Pos) -> Skip {
        if !self.variations {
            // Only a search with variations looks inside them.
            return Skip(true);
        }
        self.builder.begin_variation(at)
    }

    fn end_variation(&mut self, at: Pos) {
        self.builder.end_variation(at);
    }

    fn outcome(&mut self, result: Option<&str>, at: Pos) {
        self.builder.outcome(result, at);
    }

    fn error(&mut self, err: ReadError) {
        self.builder.error(err);
    }

    fn wants_plies_ahead(&self) -> bool {
        self.counts_ahead
    }

    fn plies_ahead(&mut self, plies: u32) {
        self.ahead = Some(plies);
        if let (Some(goal), Some(start), true, None) =
            (&self.target, &self.start, self.watching, self.reached)
        {
            let over = goal.men_over(start.board());
            self.count_far(over);
        }
    }

    fn main_line_written(&mut self, plies: u32) {
        // Counted to the game's end: after a lexical error, the moves not handed over too.
        self.written = Some(plies);
    }

    fn end_game(&mut self) -> Walked {
        // A search hands out the tags and moves of the games that reach its position only:
        // the others' buffers are kept for the next game instead of allocated anew.
        let wanted = self.target.is_none() || self.reached.is_some();
        // A search needs only the move played at the target: copying out every found
        // game's moves cost an allocation each.
        let keep_moves = self.target.is_none() || self.indexing;
        let next = match (
            self.next.take(),
            self.reached.map(|ply| self.moves.get(ply as usize)),
        ) {
            (Some(next), _) => next,
            (None, Some(Some(Some(mv)))) => Next::Move(*mv),
            (None, Some(Some(None))) => Next::Null,
            _ => Next::End,
        };
        // Counted by the reader to the game's end, or by the builder (the moves after an
        // illegal one too).
        let plies = self
            .written
            .or_else(|| Some(self.builder.main_line_written_so_far()? + self.passed))
            .unwrap_or(0);
        Walked {
            read: self.builder.end_game(),
            // Without the tags (see `reading_tags`) there is nothing to read.
            info: if self.reads == TagsRead::Places {
                GameInfo::default()
            } else {
                self.tags.info()
            },
            plies,
            places: if wanted { self.places.take() } else { None },
            tags: (wanted && self.reads == TagsRead::All && !self.indexing)
                .then(|| Box::new(self.tags.clone())),
            start: self
                .start
                .take()
                .filter(|p| *p != Position::start())
                .map(Box::new),
            moves: if keep_moves {
                copy_out(&mut self.moves)
            } else {
                self.moves.clear();
                Vec::new()
            },
            reached: self.reached.take(),
            next,
            codes: copy_out(&mut self.codes),
            keys: copy_out(&mut self.keys),
        }
    }
}

/// The items of `buf`, copied out at their size; `buf` is emptied but keeps its room for
/// the next game (taking it would grow a new buffer item by item, game after game).
fn copy_out<T: Copy>(buf: &mut Vec<T>) -> Vec<T> {
    let out = buf.to_vec();
    buf.clear();
    out
}

#[cfg(test)]
#[path = "follow_tests.rs"]
mod tests;
