//! A game: its tags, its start position and a tree of moves (first child = main
//! line, later children = variations), each move with its SAN, NAGs and comments.
//!
//! The tree is an arena of nodes addressed by [`NodeId`]; node 0 is the root,
//! which stands for the start position and holds no move.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::notation::san;
use crate::position::{Move, Position, START_FEN};

/// The source of [`Game::version`] stamps: one counter for every game of the
/// process, so that no two different move trees ever carry the same stamp.
static NEXT_VERSION: AtomicU64 = AtomicU64::new(1);

fn fresh_version() -> u64 {
    NEXT_VERSION.fetch_add(1, Ordering::Relaxed)
}

/// The Seven Tag Roster, in the order PGN writes it.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Index of a node in a [`Game`]'s tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root: the start position, before any move.
    pub const ROOT: NodeId = NodeId(0);
}

/// One move of the tree with what is written around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The move (meaningless on the root).
    pub mv: Move,
    /// The move in SAN, computed when the move was added.
    pub san: String,
    /// The node before this one; `None` only on the root.
    pub parent: Option<NodeId>,
    /// The moves that follow; the first is the main line.
    pub children: Vec<NodeId>,
    /// Numeric annotation glyphs (`$1` = `!`, …) in the order written.
    pub nags: Vec<u8>,
    /// Comments written before the move (only used at the start of a variation).
    pub comments_before: Vec<String>,
    /// Comments written after the move (on the root: before the first move).
    pub comments_after: Vec<String>,
    /// FIDE's draw-offer mark `(=)` was written with this move.
    pub draw_offer: bool,
}

impl Node {
    /// The embedded commands of the comments after this move (`[%clk]`, `[%emt]`,
    /// `[%eval]`, `[%csl]`, `[%cal]`, others kept raw). The comment text itself is
    /// kept as written; this reads it.
    pub fn annotations(&self) -> Vec<annotation::Annotation> {
        self.comments_after
            .iter()
            .flat_map(|c| annotation::split_comment(c).0)
            .collect()
    }

    /// [`Node::annotations`] from the first `max` bytes of the comments after this move
    /// (see [`annotation::split_comment_head`]): what a screen shows of a comment of
    /// megabytes, read at a cost that does not grow with it.
    pub fn annotations_within(&self, max: usize) -> Vec<annotation::Annotation> {
        let mut found = Vec::new();
        let mut left = max;
        for comment in &self.comments_after {
            let (mut annotations, _, cut) = annotation::split_comment_head(comment, left);
            found.append(&mut annotations);
            if cut {
                break;
            }
            left -= comment.len();
        }
        found
    }

    /// The squares and arrows the comments after this move draw on the board
    /// (`[%csl]`, `[%cal]`); on the root, those of the start position.
    pub fn marks(&self) -> annotation::BoardMarks {
        annotation::BoardMarks::from_annotations(&self.annotations())
    }

    fn new(mv: Move, san: String, parent: Option<NodeId>) -> Self {
        Node {
            mv,
            san,
            parent,
            children: Vec::new(),
            nags: Vec::new(),
            comments_before: Vec::new(),
            comments_after: Vec::new(),
            draw_offer: false,
        }
    }
}

/// A whole game.
#[derive(Debug, Clone)]
pub struct Game {
    /// Tags in their order; the Seven Tag Roster is kept among them.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    nodes: Vec<Node>,
    /// See [`Game::version`].
    version: u64,
    /// The result token that ended the movetext as read, when the `Result` tag says
    /// another result: the disagreement is kept as written (the writer ends the movetext
    /// with this token) until the result is set ([`Game::set_tag`] of `Result`).
    written_result: Option<String>,
}

/// Two games are equal when their tags, start, trees and results as written are; the
/// version stamp says where a tree came from, not what it holds, so it is left out.
impl PartialEq for Game {
    fn eq(&self, other: &Self) -> bool {
        self.tags == other.tags
            && self.start == other.start
            && self.nodes == other.nodes
            && self.written_result == other.written_result
    }
}

impl Eq for Game {}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::start())
    }
}

impl Game {
    /// A game with no moves from `start`, its Seven Tag Roster unknown (`?`).
    pub fn new(start: Position) -> Self {
        let mut tags: Vec<(String, String)> = SEVEN_TAG_ROSTER
            .iter()
            .map(|t| (t.to_string(), "?".to_string()))
            .collect();
        tags[2].1 = "????.??.??".into();
        tags[6].1 = "*".into();
        Game {
            tags,
            start,
            nodes: vec![Node::new(Move::Null, String::new(), None)],
            version: fresh_version(),
            written_result: None,
        }
    }

    /// A game with no tags at all and no moves: what a reader starts from before it
    /// has seen a game's tag section.
    pub fn bare(start: Position) -> Self {
        Game {
            tags: Vec::new(),
            start,
            nodes: vec![Node::new(Move::Null, String::new(), None)],
            version: fresh_version(),
            written_result: None,
        }
    }

    /// A tag's value. A tag given twice in a file (which a file should not do, but some
    /// do) has the value given last, as every reader of the file takes it (`list`, the
    /// game list, `check`); the writer keeps the earlier ones too, before it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, keeping its place if it exists. A tag given twice becomes one, with
    /// this value, in the place of the first.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if name == "Result" {
            // The result is set: the one the movetext ended with as read goes.
            self.written_result = None;
        }
        match self.tags.iter().position(|(n, _)| n == name) {
            Some(first) => {
                self.tags[first].1 = value.to_string();
                let mut k = 0;
                self.tags.retain(|(n, _)| {
                    k += 1;
                    k - 1 <= first || n != name
                });
            }
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The result token the movetext ended with as read, when the `Result` tag says
    /// another result (both are kept as written until the result is set).
    pub fn written_result(&self) -> Option<&str> {
        self.written_result.as_deref()
    }

    /// Keeps `token`, the result that ended the movetext as read, as the one to write
    /// there when it is not what the `Result` tag says (none when it is).
    pub fn keep_written_result(&mut self, token: &str) {
        self.written_result = (self.tag("Result") != Some(token)).then(|| token.to_string());
    }

    /// Sets a `PlyCount` tag, when the game has one, to the plies of its main line: the
    /// tag says how long the game is, and an edit that changed the moves must not leave
    /// it saying otherwise. (No tag is added.)
    pub fn refresh_ply_count(&mut self) {
        if self.tag("PlyCount").is_some() {
            let plies = self.mainline().len().to_string();
            self.set_tag("PlyCount", &plies);
        }
    }

    /// True when the game does not start from the standard position.
    pub fn has_setup(&self) -> bool {
        self.start.fen() != START_FEN
    }

    /// A node.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    /// A node, to edit its comments and NAGs.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        self.touch();
        &mut self.nodes[id.0 as usize]
    }

    /// A stamp of the move tree (moves, comments, NAGs) as it is now: every change
    /// to the tree gives a new stamp never used before by any game of the process,
    /// and a clone keeps its original's. So equal stamps mean equal trees, and a
    /// view laid out from the tree (the move list) stays valid while the stamp
    /// does — also across undo, which brings back an older clone with its stamp.
    /// Tags are not covered (they are a public field).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Marks the tree changed (see [`Game::version`]): called by everything that
    /// hands out or takes `&mut` to the nodes.
    fn touch(&mut self) {
        self.version = fresh_version();
    }

    /// Adds `mv` (legal in the position at `parent`) after `parent`: as the main
    /// line if `parent` has no continuation, else as a variation. If the move is
    /// already there, its node is returned instead.
    pub fn add_move(&mut self, parent: NodeId, mv: Move, before: &Position) -> NodeId {
        if let Some(existing) = self
            .node(parent)
            .children
            .iter()
            .copied()
            .find(|c| self.node(*c).mv == mv)
        {
            return existing;
        }
        let id = NodeId(self.nodes.len() as u32);
        self.touch();
        self.nodes
            .push(Node::new(mv, san(before, mv), Some(parent)));
        self.node_mut(parent).children.push(id);
        id
    }

    /// Makes `child` the first of `parent`'s moves (the line that goes on there), the
    /// others keeping their order; whether it moved.
    pub fn put_first(&mut self, parent: NodeId, child: NodeId) -> bool {
        let at = self.node(parent).children.iter().position(|&c| c == child);
        let Some(at @ 1..) = at else {
            return false;
        };
        self.node_mut(parent).children[..=at].rotate_right(1);
        true
    }

    /// The main line, as node ids from the first move on.
    pub fn mainline(&self) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = NodeId::ROOT;
        while let Some(next) = self.node(at).children.first() {
            line.push(*next);
            at = *next;
        }
        line
    }

    /// The moves from the root to `id` (inclusive).
    pub fn path_to(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = id;
        while let Some(parent) = self.node(at).parent {
            path.push(at);
            at = parent;
        }
        path.reverse();
        path
    }

    /// The position after the move of `id` (the start position for the root).
    pub fn position_at(&self, id: NodeId) -> Position {
        let mut pos = self.start;
        for step in self.path_to(id) {
            pos = pos.apply(self.node(step).mv).unwrap_or(pos);
        }
        pos
    }

    /// How many nodes the tree holds, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the game has no moves.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }
}
pub mod annotation;
pub mod edit;
pub mod history;
mod line;
pub mod nags;
pub mod notes;
pub mod tags;
pub mod transcribe;

#[cfg(test)]
mod version_tests {
    use super::*;
    use crate::notation::{read_move, Lang};

    fn play(game: &mut Game, at: NodeId, text: &str) -> NodeId {
        let pos = game.position_at(at);
        let (mv, _) = read_move(text, &pos, Lang::english()).unwrap();
        game.add_move(at, mv, &pos)
    }

    #[test]
    fn every_change_to_the_tree_gives_a_new_version_and_a_copy_keeps_it() {
        let mut game = Game::default();
        assert_ne!(game.version(), Game::default().version(), "two games");
        let v0 = game.version();
        let e4 = play(&mut game, NodeId::ROOT, "e4");
        let v1 = game.version();
        assert_ne!(v1, v0, "a move added");
        assert_eq!(play(&mut game, NodeId::ROOT, "e4"), e4);
        let copy = game.clone();
        assert_eq!(copy.version(), game.version(), "a copy");
        game.node_mut(e4).nags.push(1);
        let v2 = game.version();
        assert_ne!(v2, v1, "a glyph set");
        let d4 = play(&mut game, NodeId::ROOT, "d4");
        game.delete_variation(d4).unwrap();
        let v3 = game.version();
        game.compact();
        assert_ne!(game.version(), v3, "compacted");
        // Equality is about what the games hold, not their stamps.
        let mut same = Game::default();
        play(&mut same, NodeId::ROOT, "e4");
        assert_eq!(same, copy);
        assert_ne!(same.version(), copy.version());
    }
}
