//! The game builder: a [`Visitor`] that turns what the reader finds into a [`Game`],
//! resolving every move (variations included) through the notation engine.
//!
//! A move that cannot be played stops its line: in the main line the game keeps the
//! moves before it and is marked incomplete; in a variation only that variation is
//! cut, and the main line goes on. Every problem is kept with its position. With
//! `keep_tree` off the builder only validates (what `check` needs), which spares
//! building the tree and writing SAN.

use chess::Color;

use super::reader::{CommentKind, Pos, ReadError, Skip, Visitor};
use super::results::{self, by_the_board, settled, Stated};
use super::scan::Outcome;
use crate::game::{Game, NodeId};
use crate::notation::{
    export_san, is_mark_word, languages_reading, named_languages, read_move_bytes, Lang,
};
use crate::position::{Move, Position};

// Named by this path by their callers.
pub use super::load::{load_game, mainline_moves, read_games};
pub use super::read_game::{Escapes, GameError, ReadGame};

/// A line being read: the main line or a variation.
#[derive(Debug, Clone)]
struct Frame {
    /// The node the next move follows.
    node: NodeId,
    /// The position after `node`.
    pos: Position,
    /// The node and position before the last move of this line, where a
    /// variation on that move starts.
    prev_node: NodeId,
    prev_pos: Position,
    /// This line hit a move it could not play: ignore the rest of it.
    dead: bool,
    /// Comments met at the start of a variation, before its first move.
    pending: Vec<String>,
    /// Moves read in this line.
    moves: u32,
    /// Moves of this line written but not played: the one that could not be, and those
    /// after it (marks written as words of their own left out, as `list` does).
    unplayed: u32,
    /// Whether this line is the first one through `node`: the move it plays next then
    /// comes first there, before the moves of a variation that repeated the move it
    /// replaces and went on (read earlier, from the same node).
    first: bool,
}

/// A move the builder just played ([`GameBuilder::play`]): what a follower of the positions
/// needs, handed over as it is played rather than read back from the builder afterwards.
#[derive(Debug, Clone, Copy)]
pub struct Played<'a> {
    /// The depth of its line: 1 for the main line, 2 for a variation of it, …
    pub depth: usize,
    /// The move (`None`: a null move).
    pub mv: Option<chess::ChessMove>,
    /// The position before it.
    pub before: &'a Position,
    /// The position after it.
    pub after: &'a Position,
}

/// The most moves one game's tree holds, variations included: far beyond any game of chess
/// (the longest possible is under 9,000 half-moves), and about 40 MB of tree. Past it the
/// rest of the game is not read (a problem says so), so a runaway file cannot take the
/// memory; `convert` then copies the game through as written.
pub const MAX_MOVES: usize = 200_000;

/// Builds (or only validates) games; reusable across the games of a file.
#[derive(Debug)]
pub struct GameBuilder {
    keep_tree: bool,
    /// The most moves a tree may hold ([`MAX_MOVES`]).
    max_moves: usize,
    /// The tree of this game is full: the rest of its moves are passed over.
    full: bool,
    /// The piece-letter language of the moves (PGN is English).
    lang: &'static Lang,
    game: Game,
    stack: Vec<Frame>,
    errors: Vec<GameError>,
    start: Pos,
    number: u64,
    fen: Option<(String, Pos)>,
    variant: Option<(String, Pos)>,
    skip_game: bool,
    result: Option<String>,
    /// The results the game states, for checking that they agree.
    stated: Stated,
    /// The `%` lines of this game (see [`GameBuilder::escapes`]).
    escapes: Escapes,
}

impl GameBuilder {
    /// A builder that keeps the move tree (`true`) or only validates (`false`).
    pub fn new(keep_tree: bool) -> Self {
        GameBuilder {
            keep_tree,
            max_moves: MAX_MOVES,
            full: false,
            lang: Lang::english(),
            game: Game::bare(Position::start()),
            stack: Vec::new(),
            errors: Vec::new(),
            start: Pos::default(),
            number: 0,
            fen: None,
            variant: None,
            skip_game: false,
            result: None,
            stated: Stated::default(),
            escapes: Default::default(),
        }
    }

    /// A builder whose trees hold at most `moves` moves (tests use a small number).
    pub fn with_max_moves(mut self, moves: usize) -> Self {
        self.max_moves = moves;
        self
    }

    /// Reads the moves in `lang` instead of English, for files written in another language
    /// (`Sf3` for German, `Cf3` for French).
    pub fn reading(mut self, lang: &'static Lang) -> Self {
        self.lang = lang;
        self
    }

    /// The main line as read so far, while a game is being read: the half-moves read and
    /// the position after them (so a caller can follow the positions without the tree);
    /// `None` before the movetext, or for a game that is refused.
    pub fn main_line_so_far(&self) -> Option<(u32, &Position)> {
        self.stack.first().map(|f| (f.moves, &f.pos))
    }

    /// The main line's moves as written so far, as `list` counts them: those played and
    /// those from the first that could not be on (marks written as words of their own,
    /// `e.p.` or `ch`, left out); `None` before the movetext, or for a game that is
    /// refused.
    pub fn main_line_written_so_far(&self) -> Option<u32> {
        self.stack.first().map(|f| f.moves + f.unplayed)
    }

    /// The `%` escape lines of the game last read (or being read), kept only with the tree:
    /// held here rather than in the [`ReadGame`], which every game moves around and most
    /// readers do not need them in.
    pub fn escapes(&self) -> &Escapes {
        &self.escapes
    }

    /// Reads the move `san` (what [`Visitor::san`] does) and, when it was played, hands
    /// back the move and the positions around it (a position search follows the games
    /// this way, without building their trees).
    pub fn play(&mut self, san: &[u8], at: Pos) -> Option<Played<'_>> {
        if self.keep_tree && self.game.len() > self.max_moves {
            if !self.full {
                self.full = true;
                let reason = format!(
                    "more than {} moves in one game, variations included, longer than any \
                     game of chess: reading stops here",
                    self.max_moves
                );
                self.problem(at, &crate::text::decode(san), reason);
            }
            return None;
        }
        let depth = self.stack.len();
        let lang = self.lang;
        // Export-format SAN is English: only then can a move take the fast path.
        let english = lang.code == "en";
        let Some(frame) = self.stack.last_mut().filter(|f| !f.dead) else {
            self.count_unplayed(san);
            return None;
        };
        // Export-format SAN, nearly every move of a file, goes the fast way.
        let fast = if english {
            export_san(san, &frame.pos)
        } else {
            None
        };
        let read = match fast {
            Some(m) => Ok((Move::Normal(m), None, false)),
            // `exd6 e.p.`, `Qh5 ch`: a mark written as a word of its own, after its move.
            None if frame.moves > 0 && is_mark_word(san) => return None,
            None => {
                read_move_bytes(san, &frame.pos, lang).map(|(mv, mt)| (mv, mt.nag, mt.draw_offer))
            }
        };
        let (mv, nag, draw_offer) = match read {
            Ok(found) => found,
            Err(e) => {
                frame.dead = true;
                // (A mark at the start of a line is read as a move, and fails.)
                frame.unplayed += u32::from(!is_mark_word(san));
                let mover = if frame.pos.side_to_move() == Color::White {
                    "White"
                } else {
                    "Black"
                };
                let hint = if e.is_malformed() {
                    other_languages(san, &frame.pos, lang)
                } else {
                    String::new()
                };
                let reason = format!(
                    "{e} (move {}, {mover} to play{}){hint}",
                    frame.pos.fullmove_number(),
                    if depth > 1 { ", in a variation" } else { "" }
                );
                self.problem(at, &crate::text::decode(san), reason);
                return None;
            }
        };
        match mv {
            Move::Normal(m) => {
                frame.prev_pos = frame.pos;
                frame.prev_pos.play_into(m, &mut frame.pos);
            }
            Move::Null => match frame.pos.play_null() {
                Some(p) => {
                    frame.prev_pos = std::mem::replace(&mut frame.pos, p);
                }
                None => {
                    frame.dead = true;
                    frame.unplayed += 1;
                    let reason = "a null move is impossible while in check".to_string();
                    self.problem(at, &crate::text::decode(san), reason);
                    return None;
                }
            },
        }
        frame.prev_node = frame.node;
        frame.moves += 1;
        if self.keep_tree {
            let id = self.game.add_move(frame.prev_node, mv, &frame.prev_pos);
            if frame.first {
                self.game.put_first(frame.prev_node, id);
            }
            frame.first = self.game.node(frame.prev_node).children.first() == Some(&id);
            let node = self.game.node_mut(id);
            node.comments_before.append(&mut frame.pending);
            node.nags.extend(nag);
            node.draw_offer |= draw_offer;
            frame.node = id;
        }
        // The frame again: a borrow handed out would keep it from the problems above.
        let frame = self.stack.last()?;
        Some(Played {
            depth,
            mv: match mv {
                Move::Normal(m) => Some(m),
                Move::Null => None,
            },
            before: &frame.prev_pos,
            after: &frame.pos,
        })
    }

    /// Stops following the main line, with no problem, for a reader that needs no more of
    /// the game and hands over no more of its moves (a position search, once the position
    /// is out of reach or the move played there is known): its results are then not
    /// compared with a board that is not the game's last, and problems further on are not
    /// found (`check` reads every move).
    pub fn leave(&mut self) {
        if let Some(main) = self.stack.first_mut() {
            main.dead = true;
        }
    }

    /// Counts a move of a line that died (see [`GameBuilder::main_line_written_so_far`]).
    /// Out of line: few lines die, and inlined into [`GameBuilder::play`] it cost every
    /// move played an instruction.
    #[cold]
    #[inline(never)]
    fn count_unplayed(&mut self, san: &[u8]) {
        if let Some(frame) = self.stack.last_mut() {
            frame.unplayed += u32::from(!is_mark_word(san));
        }
    }

    fn problem(&mut self, pos: Pos, token: &str, reason: String) {
        self.errors.push(GameError {
            pos,
            token: token.to_string(),
            reason,
            kind: None,
        });
    }

    fn frame(&mut self) -> Option<&mut Frame> {
        self.stack.last_mut().filter(|f| !f.dead)
    }

    fn comment_text(&mut self, text: String) {
        if !self.keep_tree {
            return;
        }
        let Some(frame) = self.stack.last_mut() else {
            self.game.node_mut(NodeId::ROOT).comments_after.push(text);
            return;
        };
        if frame.dead {
            return;
        }
        let at_start = frame.moves == 0;
        let node = frame.node;
        if at_start && self.stack.len() > 1 {
            if let Some(f) = self.stack.last_mut() {
                f.pending.push(text);
            }
        } else if text.trim() == "(=)" && node != NodeId::ROOT {
            self.game.node_mut(node).draw_offer = true;
        } else {
            self.game.node_mut(node).comments_after.push(text);
        }
    }
}

impl Visitor for GameBuilder {
    type Output = ReadGame;

    fn begin_game(&mut self, at: Pos) {
        // Tags come from the file: start with none; the roster is completed at the end.
        self.game = Game::bare(Position::start());
        self.stack.clear();
        self.errors.clear();
        self.start = at;
        self.number = at.game;
        self.fen = None;
        self.variant = None;
        self.skip_game = false;
        self.result = None;
        self.stated = Stated::default();
        self.full = false;
        self.escapes.within.clear();
        self.escapes.after.clear();
    }

    fn wants_tag(&mut self, name: &[u8]) -> bool {
        // Validating needs the start position, the variant, the players for messages, and
        // the result to compare with the movetext's.
        self.keep_tree || matches!(name, b"FEN" | b"Variant" | b"White" | b"Black" | b"Result")
    }

    fn tag(&mut self, name: &[u8], mut value: &str, at: Pos) {
        match name {
            b"FEN" => self.fen = Some((value.to_string(), at)),
            b"Variant" => self.variant = Some((value.to_string(), at)),
            b"Result" => {
                self.stated
                    .tag_given(Outcome::from_bytes(value.trim().as_bytes()), at);
                // A result with blanks or a carriage return around it is that result, and
                // is kept so: written as it stood, its blanks would make it no result on
                // the next read.
                if self.stated.tag.is_some() {
                    value = value.trim();
                }
            }
            _ => {}
        }
        let name = String::from_utf8_lossy(name);
        if self.keep_tree {
            self.game.tags.push((name.into_owned(), value.to_string()));
        } else if matches!(name.as_ref(), "White" | "Black") {
            self.game.set_tag(&name, value);
        }
    }

    fn begin_movetext(&mut self) -> Skip {
        if let Some((variant, at)) = self.variant.clone() {
            let v = variant.to_ascii_lowercase();
            if !matches!(
                v.as_str(),
                "" | "standard" | "chess" | "normal" | "from position"
            ) {
                self.problem(
                    at,
                    &variant,
                    format!("variant \"{variant}\" is not supported: only standard chess"),
                );
                self.skip_game = true;
                return Skip(true);
            }
        }
        let mut start = Position::start();
        if let Some((fen, at)) = self.fen.clone() {
            match Position::from_fen(&tolerant_fen(&fen)) {
                Ok(p) => start = p,
                Err(e) => {
                    self.problem(at, &fen, format!("FEN tag: {e}"));
                    self.skip_game = true;
                    return Skip(true);
                }
            }
        }
        self.game.start = start;
        self.stack.push(Frame {
            node: NodeId::ROOT,
            pos: start,
            prev_node: NodeId::ROOT,
            prev_pos: start,
            dead: false,
            pending: Vec::new(),
            moves: 0,
            unplayed: 0,
            first: true,
        });
        Skip(false)
    }

    fn san(&mut self, san: &[u8], at: Pos) {
        self.play(san, at);
    }

    fn nag(&mut self, nag: u8, _at: Pos) {
        if !self.keep_tree {
            return;
        }
        if let Some(node) = self.frame().map(|f| f.node) {
            if node != NodeId::ROOT {
                self.game.node_mut(node).nags.push(nag);
            }
        }
    }

    fn comment(&mut self, text: &str, kind: CommentKind, _at: Pos) {
        let _ = kind;
        if self.keep_tree {
            self.comment_text(text.to_string());
        }
    }

    fn begin_variation(&mut self, at: Pos) -> Skip {
        let Some(top) = self.stack.last() else {
            return Skip(true);
        };
        if !top.dead && top.moves == 0 {
            // Nothing to replace: its moves and comments have no place in the game, so the
            // game is a problem (`convert` then copies it as written, losing nothing).
            self.problem(
                at,
                "(",
                "a variation before any move of its line: it has no move to replace".into(),
            );
        }
        let Some(top) = self.stack.last() else {
            return Skip(true);
        };
        // A variation replaces the last move of the line it is in.
        let frame = Frame {
            node: top.prev_node,
            pos: top.prev_pos,
            prev_node: top.prev_node,
            prev_pos: top.prev_pos,
            dead: top.dead || top.moves == 0,
            pending: Vec::new(),
            moves: 0,
            unplayed: 0,
            first: false,
        };
        self.stack.push(frame);
        Skip(false)
    }

    fn end_variation(&mut self, _at: Pos) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    fn outcome(&mut self, result: Option<&str>, at: Pos) {
        self.stated.token = result
            .and_then(|r| Outcome::from_bytes(r.as_bytes()))
            .map(|r| (r, at));
        if self.keep_tree {
            self.result = result.map(str::to_string);
        }
    }

    fn escape(&mut self, line: &str, _at: Pos) {
        if self.keep_tree {
            // Only a result token is followed by more of the game (its after-result part).
            let to = match self.result {
                Some(_) => &mut self.escapes.after,
                None => &mut self.escapes.within,
            };
            to.push(line.to_string());
        }
    }

    fn error(&mut self, err: ReadError) {
        self.problem(err.pos, &err.token, err.reason.to_string());
        if let Some(e) = self.errors.last_mut() {
            e.kind = Some(err.reason);
        }
        if let Some(f) = self.stack.first_mut() {
            f.dead = true;
        }
        self.skip_game = true;
    }

    fn end_game(&mut self) -> ReadGame {
        let main = self.stack.first();
        let complete = !self.skip_game && !self.full && main.is_some_and(|f| !f.dead);
        let plies = main.map_or(0, |f| f.moves);
        // Results are compared only in a game read to its end: one with a reading error
        // has its problem already, and no known final position.
        let (result_problems, settled_result) = match main {
            Some(f) if !self.skip_game => {
                let board = if f.dead { None } else { by_the_board(&f.pos) };
                let found = results::problems(&self.stated, board);
                let settled = if found.is_empty() {
                    None
                } else {
                    settled(&self.stated, board)
                };
                (found, settled)
            }
            _ => (Vec::new(), None),
        };
        let mut game = std::mem::replace(&mut self.game, Game::bare(Position::start()));
        if self.keep_tree {
            // The roster the writer needs, where the file did not give it.
            let movetext_result = self.result.clone().unwrap_or_else(|| "*".into());
            for (i, name) in crate::game::SEVEN_TAG_ROSTER.iter().enumerate() {
                if game.tag(name).is_none() {
                    let value = match *name {
                        "Date" => "????.??.??".to_string(),
                        "Result" => movetext_result.clone(),
                        _ => "?".to_string(),
                    };
                    game.tags
                        .insert(i.min(game.tags.len()), (name.to_string(), value));
                }
            }
        }
        if let (true, Some((token, _))) = (self.keep_tree, self.stated.token) {
            // A result token that is not what the Result tag says is kept: the writer
            // would end the movetext with the tag's result instead, and the token's word
            // would be lost unseen. A `*` token says nothing (many files end every game
            // so): the tag's result is written.
            // The tag as the game keeps it (the last of several, as the writer writes).
            let tag = game
                .tag("Result")
                .and_then(|r| Outcome::from_bytes(r.trim().as_bytes()))
                .filter(|&r| r != Outcome::Unknown);
            match tag {
                _ if token == Outcome::Unknown => {}
                // A Result tag of another result: both kept (check reports them).
                Some(_) => game.keep_written_result(token.as_str()),
                // A tag of no result (`*`, `?`, anything): the token's result is known.
                None => game.set_tag("Result", token.as_str()),
            }
        }
        ReadGame {
            number: self.number,
            start: self.start,
            game,
            errors: std::mem::take(&mut self.errors),
            complete,
            plies,
            refused: self.stack.is_empty(),
            result_problems,
            settled_result,
            movetext_result: self.stated.token.map(|(r, _)| r),
        }
    }
}

/// For a move that is not a move in `lang`: the languages in which it is a legal move, as a
/// hint to read the file in one of them (`Sf3` is a knight move in German).
fn other_languages(san: &[u8], pos: &Position, lang: &Lang) -> String {
    let fits = languages_reading(san, pos, lang);
    match fits.first() {
        None => String::new(),
        Some(first) => format!(
            "; it is a legal move in {}: try --input-lang {}",
            named_languages(&fits),
            first.code
        ),
    }
}

/// Real files write the move number of a FEN as 0 (puzzle collections do): read it
/// as 1, the number the standard gives the first move, as other readers do.
pub(crate) fn tolerant_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() == 6 && fields[5] == "0" {
        format!("{} 1", fields[..5].join(" "))
    } else {
        fen.to_string()
    }
}

#[cfg(test)]
#[path = "builder_tests.rs"]
mod tests;
