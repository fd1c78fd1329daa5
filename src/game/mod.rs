//! A game: its tags, its start position and a tree of moves (first child = main
//! line, later children = variations), each move with its SAN, NAGs and comments.
//!
//! The tree is an arena of nodes addressed by [`NodeId`]; node 0 is the root,
//! which stands for the start position and holds no move.

use crate::notation::san;
use crate::position::{Move, Position, START_FEN};

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Tags in their order; the Seven Tag Roster is kept among them.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    nodes: Vec<Node>,
}

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
        }
    }

    /// A game with no tags at all and no moves: what a reader starts from before it
    /// has seen a game's tag section.
    pub fn bare(start: Position) -> Self {
        Game {
            tags: Vec::new(),
            start,
            nodes: vec![Node::new(Move::Null, String::new(), None)],
        }
    }

    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, keeping its place if it exists.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
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
        &mut self.nodes[id.0 as usize]
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
        self.nodes
            .push(Node::new(mv, san(before, mv), Some(parent)));
        self.node_mut(parent).children.push(id);
        id
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
pub mod nags;
pub mod notes;
pub mod tags;
pub mod transcribe;
