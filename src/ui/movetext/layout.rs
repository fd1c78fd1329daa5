//! The move text laid out in lines of a given width, without drawing: which
//! piece of text (move number, move, glyph, clock, eval, comment word,
//! parenthesis) goes on which line and where, and which move is on which line.
//! No terminal types here, so the layout is testable and measurable on its own.
//!
//! The walk over the tree uses an explicit stack (as the PGN writer does), so no
//! depth of nesting can overflow; the text of every piece lives in one string and
//! the pieces in one vector, so a game of thousands of moves lays out with a
//! handful of allocations.

use std::ops::Range;

use chess::Color;

use super::super::text;
use crate::game::annotation::{split_comment_head, Annotation, ClockTime, Eval, Score};
use crate::game::notes::{is_attached, is_kept_san, nag_glyph, write_move_text};
use crate::game::{Game, NodeId};
use crate::notation::{Lang, Style};
use crate::position::Position;

/// How variations are placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MoveLayout {
    /// In parentheses within the flow of the text, as PGN writes them.
    Inline,
    /// Each variation on its own lines, indented by its depth (as lichess and
    /// ChessBase show them); variations deeper than the width allows stay inline
    /// within their parent.
    #[default]
    Indented,
}

/// Everything the layout depends on besides the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutOptions {
    /// How moves are written (SAN, LAN, figurine, …).
    pub style: Style,
    /// The piece letters.
    pub lang: &'static Lang,
    /// Inline or indented variations.
    pub layout: MoveLayout,
    /// The width in cells to fill.
    pub width: u16,
}

/// Columns of indentation per level of variation.
pub const INDENT: usize = 2;

/// What a piece of the text is, for its look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A move number: `12.` or `12...`.
    Number,
    /// A move.
    Move,
    /// A move assessment attached to its move (`!`, `?!`, `□`); holds the NAG.
    Quality(u8),
    /// Any other NAG (`±`, `=`, `∞`, `$22`).
    Glyph,
    /// A clock reading (`1:23:45`) or, with a `+`, the time a move took.
    Clock,
    /// An engine's evaluation (`+0.35`, `#-3`).
    Eval,
    /// FIDE's draw-offer mark `(=)`.
    DrawOffer,
    /// A word of a comment.
    Comment,
    /// The parenthesis that opens a variation.
    Open,
    /// The game's result, after the last move of the main line (`1-0`, `0-1`, `½-½`).
    Result,
    /// The parenthesis that closes a variation.
    Close,
}

/// One piece of text on a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    text: (u32, u32),
    /// Its width in cells.
    pub width: u16,
    /// What it is.
    pub kind: Kind,
    /// The move it belongs to (a comment or clock belongs to the move before it;
    /// a comment before a variation's first move to that move); `None` for the
    /// comments before the first move.
    pub node: Option<NodeId>,
    /// The variation depth: 0 on the main line.
    pub depth: u16,
    /// True when a space separates it from the piece before on the same line.
    pub gap: bool,
}

/// One line of the layout.
#[derive(Debug, Clone, PartialEq, Eq)]
struct LineRec {
    indent: u16,
    pieces: Range<u32>,
}

/// A game's move text laid out for one width and look: lines of pieces, and
/// for every move the line it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Laid {
    text: String,
    pieces: Vec<Piece>,
    lines: Vec<LineRec>,
    /// For each node id, its line (`u32::MAX` for the root and deleted nodes).
    node_line: Vec<u32>,
}

const NO_LINE: u32 = u32::MAX;

impl Laid {
    /// How many lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// True when there is nothing to show (no moves, no comment).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The line the move `id` is on; `None` for the root (before the first move:
    /// the caller shows the top) and for nodes no longer in the tree.
    pub fn line_of(&self, id: NodeId) -> Option<usize> {
        match self.node_line.get(id.0 as usize) {
            Some(&line) if line != NO_LINE => Some(line as usize),
            _ => None,
        }
    }

    /// The indentation of line `line` in cells.
    pub fn indent(&self, line: usize) -> usize {
        self.lines.get(line).map_or(0, |l| usize::from(l.indent))
    }

    /// The pieces of line `line`, each with its text.
    pub fn pieces(&self, line: usize) -> impl Iterator<Item = (&Piece, &str)> + '_ {
        let range = self
            .lines
            .get(line)
            .map_or(0..0, |l| l.pieces.start as usize..l.pieces.end as usize);
        self.pieces[range]
            .iter()
            .map(|p| (p, &self.text[p.text.0 as usize..p.text.1 as usize]))
    }

    /// The pieces of line `line` with the column each starts at (relative to
    /// the area's left edge, indentation included).
    pub fn placed(&self, line: usize) -> impl Iterator<Item = (usize, &Piece, &str)> + '_ {
        let mut x = self.indent(line);
        let mut first = true;
        self.pieces(line).map(move |(piece, text)| {
            if piece.gap && !first {
                x += 1;
            }
            first = false;
            let at = x;
            x += usize::from(piece.width);
            (at, piece, text)
        })
    }

    /// The move shown at `column` of line `line` (for a click): the move the
    /// piece under it belongs to, or the nearest one before it on the line.
    pub fn node_at(&self, line: usize, column: usize) -> Option<NodeId> {
        let mut found = None;
        for (x, piece, _) in self.placed(line) {
            if x > column {
                break;
            }
            if piece.node.is_some() {
                found = piece.node;
            }
        }
        found
    }

    /// Line `line` as plain text, indentation included (for tests and copying).
    pub fn line_text(&self, line: usize) -> String {
        let mut out = String::new();
        for (x, _, text) in self.placed(line) {
            while text::width(&out) < x {
                out.push(' ');
            }
            out.push_str(text);
        }
        out
    }
}

/// A step of the walk over the tree.
enum Step {
    /// Go on with the line after `parent`, whose first child is played at `ply`
    /// from `pos` (known only when the notation needs positions).
    Line {
        parent: NodeId,
        ply: u32,
        pos: Option<Position>,
        depth: u16,
    },
    /// Open a variation: the move `id` at `ply`.
    Variation {
        id: NodeId,
        ply: u32,
        pos: Option<Position>,
        depth: u16,
    },
    /// Close a variation of depth `depth`.
    Close { depth: u16 },
}

/// Lays out `game`'s whole move text for `options`.
pub fn lay_out(game: &Game, options: &LayoutOptions) -> Laid {
    let mut out = Flow::new(game.len(), options);
    let positions = !is_kept_san(options.style, options.lang);
    let root = game.node(NodeId::ROOT);
    for comment in root.comments_before.iter().chain(&root.comments_after) {
        out.comment(comment, None, 0);
    }
    let black_first = u32::from(game.start.side_to_move() == Color::Black);
    let first_number = game.start.fullmove_number();
    let mut need_number = true;
    let mut stack = vec![Step::Line {
        parent: NodeId::ROOT,
        ply: 0,
        pos: positions.then_some(game.start),
        depth: 0,
    }];
    let mut word = String::new();
    while let Some(step) = stack.pop() {
        let (id, ply, pos, depth) = match step {
            Step::Close { depth } => {
                out.close(depth);
                need_number = true;
                continue;
            }
            Step::Variation {
                id,
                ply,
                pos,
                depth,
            } => {
                out.open(depth);
                for comment in &game.node(id).comments_before {
                    out.comment(comment, Some(id), depth);
                }
                need_number = true;
                (id, ply, pos, depth)
            }
            Step::Line {
                parent,
                ply,
                pos,
                depth,
            } => match game.node(parent).children.first() {
                Some(&first) => (first, ply, pos, depth),
                None => continue,
            },
        };
        let node = game.node(id);
        let half = ply + black_first;
        let number = first_number + half / 2;
        let white = half % 2 == 0;
        if white || need_number {
            word.clear();
            word.push_str(itoa::Buffer::new().format(number));
            word.push_str(if white { "." } else { "..." });
            out.push(&word, Kind::Number, Some(id), depth, true);
            word.clear();
            write_move_text(&mut word, node, pos.as_ref(), options.style, options.lang);
            out.push(&word, Kind::Move, Some(id), depth, false);
        } else {
            word.clear();
            write_move_text(&mut word, node, pos.as_ref(), options.style, options.lang);
            out.push(&word, Kind::Move, Some(id), depth, true);
        }
        need_number = false;
        for &nag in &node.nags {
            let attached = is_attached(nag);
            let kind = if attached {
                Kind::Quality(nag)
            } else {
                Kind::Glyph
            };
            out.push(&nag_glyph(nag), kind, Some(id), depth, !attached);
        }
        // Clock and evaluation first, as compact values, then the free text.
        let mut clock = None;
        let mut elapsed = None;
        let mut eval = None;
        let mut texts: Vec<String> = Vec::new();
        let mut left = text::COMMENT_SHOWN;
        let mut cut = false;
        for comment in &node.comments_after {
            if cut {
                break;
            }
            let (annotations, free, more) = split_comment_head(comment, left);
            left = left.saturating_sub(comment.len());
            cut = more;
            for annotation in annotations {
                match annotation {
                    Annotation::Clock(t) => clock = clock.or(Some(t)),
                    Annotation::Elapsed(t) => elapsed = elapsed.or(Some(t)),
                    Annotation::Eval(e) => eval = eval.or(Some(e)),
                    _ => {}
                }
            }
            texts.push(free);
        }
        if let Some(t) = clock {
            out.push(&compact_clock(t), Kind::Clock, Some(id), depth, true);
        } else if let Some(t) = elapsed {
            let text = format!("+{}", compact_clock(t));
            out.push(&text, Kind::Clock, Some(id), depth, true);
        }
        if let Some(e) = eval {
            out.push(&compact_eval(e), Kind::Eval, Some(id), depth, true);
        }
        if node.draw_offer {
            out.push("(=)", Kind::DrawOffer, Some(id), depth, true);
        }
        if texts.iter().any(|t| !t.trim().is_empty()) {
            for text in &texts {
                out.words(text, Some(id), depth);
            }
            if cut {
                out.words("…", Some(id), depth);
            }
            need_number = true;
        }
        let next = pos.map(|p| p.apply(node.mv).unwrap_or(p));
        stack.push(Step::Line {
            parent: id,
            ply: ply + 1,
            pos: next,
            depth,
        });
        // The alternatives to this move come right after it, as PGN writes them.
        if let Some(parent) = node.parent {
            let siblings = &game.node(parent).children;
            if siblings.first() == Some(&id) && siblings.len() > 1 {
                for &alt in siblings[1..].iter().rev() {
                    stack.push(Step::Close { depth: depth + 1 });
                    stack.push(Step::Variation {
                        id: alt,
                        ply,
                        pos,
                        depth: depth + 1,
                    });
                }
                need_number = true;
            }
        }
    }
    // A finished game ends with its result, as a printed game does.
    if let Some(result) = shown_result(game) {
        out.push(result, Kind::Result, None, 0, true);
    }
    out.finish()
}

/// A finished game's result as a reader writes it (`1-0`, `0-1`, `½-½`); `None` for a
/// game not finished (`*`) or without a result.
pub fn shown_result(game: &Game) -> Option<&'static str> {
    match game.tag("Result").map(str::trim) {
        Some("1-0") => Some("1-0"),
        Some("0-1") => Some("0-1"),
        Some("1/2-1/2") => Some("½-½"),
        _ => None,
    }
}

/// A clock as a reader wants it: `1:23:45`, or `3:12` under an hour; tenths kept.
pub fn compact_clock(t: ClockTime) -> String {
    let secs = t.tenths() / 10;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let mut out = if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    };
    if t.has_tenths() {
        out.push_str(&format!(".{}", t.tenths() % 10));
    }
    out
}

/// An evaluation as a reader wants it: `+0.35`, `-1.20`, `0.00`, `#3`, `#-3`
/// (the depth left out).
pub fn compact_eval(e: Eval) -> String {
    match e.score {
        Score::Pawns(cp) => {
            let sign = match cp.signum() {
                1 => "+",
                -1 => "-",
                _ => "",
            };
            let abs = cp.unsigned_abs();
            format!("{sign}{}.{:02}", abs / 100, abs % 100)
        }
        Score::Mate(n) => format!("#{n}"),
    }
}

/// Fills lines: pieces come in order, glued to the one before or after a gap; a
/// line breaks only at a gap, so a move stays with its number and glyphs.
struct Flow {
    width: usize,
    indented: bool,
    /// Variations up to this depth get their own lines (in the indented layout).
    own_lines: u16,
    laid: Laid,
    /// The pieces of the word being built (from its gap on), not yet placed.
    word: Vec<Piece>,
    word_width: usize,
    /// Cells used on the last line.
    used: usize,
    /// False after a forced break: the next word starts a new line (but a
    /// closing parenthesis may still join the last one).
    open_line: bool,
    indent: usize,
    /// The next piece is glued to the one before (after an opening parenthesis).
    glue: bool,
}

impl Flow {
    fn new(nodes: usize, options: &LayoutOptions) -> Self {
        let width = usize::from(options.width.max(1));
        // Indentation takes at most a third of the width.
        let own_lines = (width / 3 / INDENT).clamp(1, 8) as u16;
        Flow {
            width,
            indented: options.layout == MoveLayout::Indented,
            own_lines,
            laid: Laid {
                text: String::with_capacity(nodes * 8),
                pieces: Vec::with_capacity(nodes * 2),
                lines: Vec::new(),
                node_line: vec![NO_LINE; nodes],
            },
            word: Vec::new(),
            word_width: 0,
            used: 0,
            open_line: false,
            indent: 0,
            glue: false,
        }
    }

    /// Adds a piece; `gap` when a space may separate it from the piece before
    /// (and so the line may break there).
    fn push(&mut self, text: &str, kind: Kind, node: Option<NodeId>, depth: u16, gap: bool) {
        let gap = gap && !std::mem::take(&mut self.glue);
        if gap {
            self.place_word();
        }
        let start = self.laid.text.len() as u32;
        self.laid.text.push_str(text);
        let width = text::width(text);
        self.word.push(Piece {
            text: (start, self.laid.text.len() as u32),
            width: width.min(usize::from(u16::MAX)) as u16,
            kind,
            node,
            depth,
            gap,
        });
        // Only a word's first piece can have a gap (a gap places the word before).
        self.word_width += width;
    }

    /// Adds the free text of a comment word by word (its commands are shown
    /// elsewhere or not at all). A comment of spaces alone adds nothing.
    /// Only the start of a comment longer than [`text::COMMENT_SHOWN`] is laid out.
    fn comment(&mut self, comment: &str, node: Option<NodeId>, depth: u16) {
        let (_, free, cut) = split_comment_head(comment, text::COMMENT_SHOWN);
        self.words(&free, node, depth);
        if cut {
            self.words("…", node, depth);
        }
    }

    /// Adds free text word by word.
    fn words(&mut self, free: &str, node: Option<NodeId>, depth: u16) {
        for word in free.split_whitespace() {
            let room = self.width.saturating_sub(self.indent).max(1);
            if text::width(word) <= room {
                self.push(word, Kind::Comment, node, depth, true);
            } else {
                // A word wider than a line is cut where the line ends.
                for (i, part) in text::wrap(word, room).iter().enumerate() {
                    if i > 0 {
                        self.place_word();
                        self.new_line();
                    }
                    self.push(part, Kind::Comment, node, depth, true);
                }
            }
        }
    }

    fn open(&mut self, depth: u16) {
        if self.indented && depth <= self.own_lines {
            self.place_word();
            self.new_line();
            self.indent = usize::from(depth) * INDENT;
        }
        self.push("(", Kind::Open, None, depth, true);
        self.glue = true;
    }

    fn close(&mut self, depth: u16) {
        self.glue = false;
        if self.word.is_empty() && !self.open_line && self.used < self.width {
            // Right after a nested variation closed on its own line: the
            // parenthesis joins that line rather than standing alone.
            self.open_line = true;
        }
        self.push(")", Kind::Close, None, depth, false);
        if self.indented && depth <= self.own_lines {
            self.place_word();
            self.new_line();
            self.indent = usize::from(depth - 1) * INDENT;
        }
    }

    /// Ends the current line: the next word starts a new one.
    fn new_line(&mut self) {
        self.open_line = false;
    }

    /// Places the word built so far: on the current line if it fits, else on a
    /// new one.
    fn place_word(&mut self) {
        if self.word.is_empty() {
            return;
        }
        let gap = usize::from(self.word[0].gap);
        let fits = self.used + gap + self.word_width <= self.width;
        if !self.open_line || !fits {
            let start = self.laid.pieces.len() as u32;
            self.laid.lines.push(LineRec {
                indent: self.indent as u16,
                pieces: start..start,
            });
            self.used = self.indent;
            self.open_line = true;
        } else {
            self.used += gap;
        }
        let line = (self.laid.lines.len() - 1) as u32;
        for piece in &self.word {
            if piece.kind == Kind::Move {
                if let Some(node) = piece.node {
                    self.laid.node_line[node.0 as usize] = line;
                }
            }
        }
        self.used += self.word_width;
        self.laid.pieces.append(&mut self.word);
        if let Some(last) = self.laid.lines.last_mut() {
            last.pieces.end = self.laid.pieces.len() as u32;
        }
        self.word_width = 0;
    }

    fn finish(mut self) -> Laid {
        self.place_word();
        self.laid
    }
}
