//! Editing the move tree: reorder lines, delete them, and replace a move with the
//! rest of its line replayed. These are the operations the recorder and reviewer
//! screens offer; they live here so they can be tested without a terminal.
//!
//! # Node ids after an edit
//!
//! The arena is never shrunk by an edit. A deleted node is unlinked from its
//! parent's `children` and left where it is, unreachable: [`Game::mainline`], the
//! children lists and the PGN writer never reach it, and its data stays readable
//! through [`Game::node`] (so a report can point at what was removed). Every id
//! that was live before an edit and not deleted by it stays valid and means the same
//! move. [`Game::is_live`] tells a live id from a deleted one; [`Game::compact`]
//! drops the dead nodes (before saving, or to compare games) and returns the remap.
//!
//! # Replacing a move
//!
//! [`Game::replace_move`] mends the paper-scoresheet mistake "move twelve was
//! written wrong": the move changes in place (its comments and NAGs stay, as they
//! describe that moment of the game) and everything after it is replayed with fresh
//! SAN. Where a line can no longer be played, it is cut off — and, since this crate
//! never loses a move, the cut moves are written as a comment on the last move that
//! still stands (`moves not replayed: 14. Nf3 Nc6 15. Bb5`), where the player sees
//! them in every view and in the saved PGN, and are also returned in the report.

use std::fmt::Write as _;

use super::{Game, NodeId};
use crate::notation::san;
use crate::position::{Move, Position};

/// Why an edit could not be made. The game is unchanged when one is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The id is out of range or names a deleted node.
    #[error("no such move in this game ({0:?})")]
    NoSuchNode(NodeId),
    /// The root stands for the start position and holds no move.
    #[error("the start position holds no move")]
    Root,
    /// The operation needs a variation and the move is on the main line.
    #[error("this move is on the main line, not in a variation")]
    OnMainLine,
    /// The new move cannot be played in the position before the replaced one.
    #[error("{0} is not legal here")]
    Illegal(String),
    /// The new move is already one of the alternatives at that point; promote
    /// that line instead of making a second copy of it.
    #[error("{san} is already here as another line")]
    AlreadyThere {
        /// The existing node with that move.
        id: NodeId,
        /// Its SAN.
        san: String,
    },
}

/// A piece of the tree that [`Game::replace_move`] could not replay and removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    /// The first node that could not be replayed (now deleted, still readable).
    pub id: NodeId,
    /// Its SAN as it was written before the replacement.
    pub san: String,
    /// The node the moves were cut from; its `comments_after` keep `movetext`.
    pub after: NodeId,
    /// The removed moves in PGN movetext with move numbers, NAGs, variations and their
    /// comments, each in `«»` (a comment cannot hold another one: see
    /// [`quoted_comment`]).
    pub movetext: String,
}

/// What [`Game::replace_move`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplaceReport {
    /// The SAN of the move that was replaced.
    pub old_san: String,
    /// How many moves after the replaced one, along its line, were replayed.
    pub replayed: usize,
    /// Where the line itself stopped: its first move that is no longer legal, with
    /// everything after it and the alternatives to it. `None` when all was replayed.
    pub not_replayed: Option<Cut>,
    /// Variations (off the line or off each other) that are no longer legal.
    pub dropped: Vec<Cut>,
    /// Replayed moves whose SAN changed (a disambiguation or check mark appeared
    /// or went away), with the old SAN.
    pub renamed: Vec<(NodeId, String)>,
}

/// The comment that keeps the line's cut moves.
pub const NOT_REPLAYED: &str = "moves not replayed: ";
/// The comment that keeps a dropped variation.
const VARIATION_NOT_REPLAYED: &str = "variation not replayed: ";

impl Game {
    /// True when `id` is a node of the tree: in range, and linked to the root.
    pub fn is_live(&self, id: NodeId) -> bool {
        if id.0 as usize >= self.nodes.len() {
            return false;
        }
        let mut at = id;
        while let Some(parent) = self.node(at).parent {
            if !self.node(parent).children.contains(&at) {
                return false;
            }
            at = parent;
        }
        at == NodeId::ROOT
    }

    /// How many half-moves lead from the start position to the position after
    /// `id` (0 for the root, 1 for the first move).
    pub fn ply_of(&self, id: NodeId) -> usize {
        let mut ply = 0;
        let mut at = id;
        while let Some(parent) = self.node(at).parent {
            ply += 1;
            at = parent;
        }
        ply
    }

    /// The moves that could be played instead of `id`, `id` among them, main line
    /// first: its parent's children. Empty for the root, which is no move.
    pub fn variations_at(&self, id: NodeId) -> &[NodeId] {
        match self.node(id).parent {
            Some(parent) => &self.node(parent).children,
            None => &[],
        }
    }

    /// Moves the line containing `id` one step up where it branches off (the
    /// nearest point above `id` where it is not the first choice): it swaps with
    /// the line before it. `Ok(false)` when the line is already the main line.
    pub fn promote_variation(&mut self, id: NodeId) -> Result<bool, EditError> {
        self.check_live(id)?;
        let Some((parent, index)) = self.branch(id, |i, _| i > 0) else {
            return Ok(false);
        };
        self.node_mut(parent).children.swap(index - 1, index);
        Ok(true)
    }

    /// Moves the line containing `id` one step down at the nearest point above
    /// `id` where another line follows it: it swaps with that line. `Ok(false)`
    /// when no line comes after it anywhere up to the root.
    pub fn demote_variation(&mut self, id: NodeId) -> Result<bool, EditError> {
        self.check_live(id)?;
        let Some((parent, index)) = self.branch(id, |i, len| i + 1 < len) else {
            return Ok(false);
        };
        self.node_mut(parent).children.swap(index, index + 1);
        Ok(true)
    }

    /// Makes the line containing `id` the main line all the way up to the root.
    /// At each branch point the lines it passes keep their order behind it, so the
    /// old main line becomes the first variation. `Ok(false)` if nothing moved.
    pub fn promote_to_main(&mut self, id: NodeId) -> Result<bool, EditError> {
        self.check_live(id)?;
        let mut changed = false;
        let mut at = id;
        while let Some(parent) = self.node(at).parent {
            changed |= self.put_first(parent, at);
            at = parent;
        }
        Ok(changed)
    }

    /// Deletes the variation that `id` is in, from the point where it branches off
    /// (the nearest point above `id` where its line is not the first choice), with
    /// everything after it. Returns the node before the deleted variation, where a
    /// cursor on it should go.
    pub fn delete_variation(&mut self, id: NodeId) -> Result<NodeId, EditError> {
        self.check_live(id)?;
        let (parent, index) = self.branch(id, |i, _| i > 0).ok_or(EditError::OnMainLine)?;
        self.node_mut(parent).children.remove(index);
        Ok(parent)
    }

    /// Deletes `id` and everything after it. If `id` was the first choice at its
    /// point, the next alternative there becomes the first. Returns the node before
    /// `id`, where a cursor on a deleted move should go.
    pub fn delete_from(&mut self, id: NodeId) -> Result<NodeId, EditError> {
        let parent = self.check_move(id)?;
        self.node_mut(parent).children.retain(|c| *c != id);
        Ok(parent)
    }

    /// Replaces the move at `id` by `new_move`, which must be legal in the position
    /// before `id`, and replays everything after it (see the module docs). The
    /// replaced node keeps its id, comments and NAGs. Every later move is checked
    /// in its new position and gets fresh SAN. Where the first choice at a point
    /// is no longer legal, that point's alternatives go with it (they were
    /// alternatives to a move that is no longer there) and the whole cut is
    /// written as a comment on the move before; a later alternative that is no
    /// longer legal is cut alone and noted the same way.
    pub fn replace_move(&mut self, id: NodeId, new_move: Move) -> Result<ReplaceReport, EditError> {
        let parent = self.check_move(id)?;
        let before = self.position_at(parent);
        let after = play_if_legal(&before, new_move).ok_or_else(|| {
            EditError::Illegal(match new_move {
                Move::Normal(m) => m.to_string(),
                Move::Null => "--".to_string(),
            })
        })?;
        if let Some(&twin) = self
            .node(parent)
            .children
            .iter()
            .find(|c| **c != id && self.node(**c).mv == new_move)
        {
            return Err(EditError::AlreadyThere {
                id: twin,
                san: self.node(twin).san.clone(),
            });
        }
        let node = self.node_mut(id);
        node.mv = new_move;
        let old_san = std::mem::replace(&mut node.san, san(&before, new_move));
        let mut report = ReplaceReport {
            old_san,
            ..ReplaceReport::default()
        };
        // An explicit stack, not recursion, so no length of line can overflow the call stack.
        let mut stack = vec![(id, after, true)];
        while let Some((at, pos, on_line)) = stack.pop() {
            let children = self.node(at).children.clone();
            let mut keep = Vec::with_capacity(children.len());
            for (index, child) in children.iter().copied().enumerate() {
                let mv = self.node(child).mv;
                let fits = play_if_legal(&pos, mv)
                    .filter(|_| still_as_written(&self.node(child).san, &san(&pos, mv)));
                let Some(next) = fits else {
                    // The first choice gone: it and all its alternatives go together.
                    let cut_all = index == 0;
                    let others = if cut_all { &children[1..] } else { &[][..] };
                    let cut = Cut {
                        id: child,
                        san: self.node(child).san.clone(),
                        after: at,
                        movetext: self.movetext(child, others, &pos),
                    };
                    let label = if cut_all && on_line {
                        NOT_REPLAYED
                    } else {
                        VARIATION_NOT_REPLAYED
                    };
                    let comment = format!("{label}{}", cut.movetext);
                    self.node_mut(at).comments_after.push(comment);
                    if cut_all && on_line {
                        report.not_replayed = Some(cut);
                    } else {
                        report.dropped.push(cut);
                    }
                    if cut_all {
                        break;
                    }
                    continue;
                };
                let fresh = san(&pos, mv);
                let node = self.node_mut(child);
                if node.san != fresh {
                    let old = std::mem::replace(&mut node.san, fresh);
                    report.renamed.push((child, old));
                }
                keep.push(child);
                let continues_line = on_line && index == 0;
                report.replayed += usize::from(continues_line);
                stack.push((child, next, continues_line));
            }
            self.node_mut(at).children = keep;
        }
        report.renamed.sort();
        report.dropped.sort_by_key(|c| c.id);
        Ok(report)
    }

    /// Drops the deleted nodes from the arena, keeping the live ones in their
    /// order. Returns, for every old id, its new id (`None` for a deleted node).
    pub fn compact(&mut self) -> Vec<Option<NodeId>> {
        let mut live = vec![false; self.nodes.len()];
        let mut stack = vec![NodeId::ROOT];
        while let Some(at) = stack.pop() {
            live[at.0 as usize] = true;
            stack.extend(self.node(at).children.iter().copied());
        }
        let mut remap = vec![None; self.nodes.len()];
        let mut next = 0;
        for (slot, is_live) in remap.iter_mut().zip(&live) {
            if *is_live {
                *slot = Some(NodeId(next));
                next += 1;
            }
        }
        let map = |id: NodeId| remap[id.0 as usize];
        self.touch();
        let old = std::mem::take(&mut self.nodes);
        self.nodes = old
            .into_iter()
            .zip(&live)
            .filter(|(_, is_live)| **is_live)
            .map(|(mut node, _)| {
                node.parent = node.parent.and_then(map);
                node.children = node.children.iter().filter_map(|c| map(*c)).collect();
                node
            })
            .collect();
        remap
    }

    /// `Ok` for a live id.
    fn check_live(&self, id: NodeId) -> Result<(), EditError> {
        if self.is_live(id) {
            Ok(())
        } else {
            Err(EditError::NoSuchNode(id))
        }
    }

    /// The parent of a live node that holds a move.
    fn check_move(&self, id: NodeId) -> Result<NodeId, EditError> {
        self.check_live(id)?;
        self.node(id).parent.ok_or(EditError::Root)
    }

    /// The nearest node from `id` up whose place among its siblings satisfies
    /// `wanted(index, sibling count)`, as (parent, index).
    fn branch(&self, id: NodeId, wanted: impl Fn(usize, usize) -> bool) -> Option<(NodeId, usize)> {
        let mut at = id;
        while let Some(parent) = self.node(at).parent {
            let children = &self.node(parent).children;
            let index = children.iter().position(|c| *c == at)?;
            if wanted(index, children.len()) {
                return Some((parent, index));
            }
            at = parent;
        }
        None
    }

    /// PGN movetext of the line starting at `first` (with `others` as its
    /// alternatives), numbered as if played from `pos`. Moves are taken as written
    /// (their SAN), not replayed, so this works for lines that are not legal.
    fn movetext(&self, first: NodeId, others: &[NodeId], pos: &Position) -> String {
        enum Step {
            Move {
                id: NodeId,
                ply: u32,
                alts: Vec<NodeId>,
            },
            Open,
            Close,
        }
        let white_first = pos.side_to_move() == chess::Color::White;
        // Count half-moves from White's move of `pos`'s move number.
        let base = 2 * pos.fullmove_number() + u32::from(!white_first);
        let mut out = String::new();
        let mut need_number = true;
        let mut stack = vec![Step::Move {
            id: first,
            ply: base,
            alts: others.to_vec(),
        }];
        while let Some(step) = stack.pop() {
            let (id, ply, alts) = match step {
                Step::Open => {
                    out.push_str(" (");
                    need_number = true;
                    continue;
                }
                Step::Close => {
                    out.push(')');
                    need_number = true;
                    continue;
                }
                Step::Move { id, ply, alts } => (id, ply, alts),
            };
            if !out.is_empty() && !out.ends_with('(') {
                out.push(' ');
            }
            let node = self.node(id);
            for comment in &node.comments_before {
                let _ = write!(out, "{} ", quoted_comment(comment));
                need_number = true;
            }
            if ply % 2 == 0 {
                let _ = write!(out, "{}. ", ply / 2);
            } else if need_number {
                let _ = write!(out, "{}... ", ply / 2);
            }
            need_number = false;
            out.push_str(&node.san);
            for nag in &node.nags {
                let _ = write!(out, " ${nag}");
            }
            // What was written beside the move (a draw offer, a clock, a remark) goes
            // with it, or saving while the moves wait would lose it.
            if node.draw_offer {
                let _ = write!(out, " {}", quoted_comment("(=)"));
                need_number = true;
            }
            for comment in &node.comments_after {
                let _ = write!(out, " {}", quoted_comment(comment));
                need_number = true;
            }
            // Pushed in reverse: the continuation comes out after the variations.
            if let Some((main, rest)) = node.children.split_first() {
                stack.push(Step::Move {
                    id: *main,
                    ply: ply + 1,
                    alts: rest.to_vec(),
                });
            }
            for alt in alts.iter().rev() {
                stack.push(Step::Close);
                stack.push(Step::Move {
                    id: *alt,
                    ply,
                    alts: Vec::new(),
                });
                stack.push(Step::Open);
            }
        }
        out
    }
}

/// A comment of a move cut off by a replacement, as the comment that keeps the cut moves
/// holds it: between `«` and `»`, with each `[%` command opened as `[ %`, so that the
/// clock or evaluation of a move that no longer stands is not read as one of the move
/// the keeping comment is on (which would show it there). So that the player's own text
/// comes back exactly ([`unquoted_comment`]), every `[`, blanks, `%` gets one more blank:
/// a typed `[ %` is kept as `[  %`.
pub fn quoted_comment(text: &str) -> String {
    format!("«{}»", shift_command_blanks(text.trim(), true))
}

/// The comment [`quoted_comment`] quoted, from its `«»` form (which must start with `«`
/// and end with `»`): each `[`, blanks, `%` has one blank fewer, so that commands are
/// commands again and the rest is as typed. `quoted_comment` of the result gives
/// `quoted` back unless `quoted` held a `[%`, which `quoted_comment` never writes.
pub fn unquoted_comment(quoted: &str) -> String {
    let inner = &quoted['«'.len_utf8()..quoted.len() - '»'.len_utf8()];
    shift_command_blanks(inner, false)
}

/// `text` with one blank more (`more`) or fewer (when it has one) between each `[` and
/// a `%` that follows it after nothing but blanks.
fn shift_command_blanks(text: &str, more: bool) -> String {
    let mut out = String::with_capacity(text.len() + if more { 8 } else { 0 });
    let mut rest = text;
    while let Some(at) = rest.find('[') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let blanks = rest.len() - rest.trim_start_matches(' ').len();
        if rest[blanks..].starts_with('%') {
            if more {
                out.push(' ');
            } else if blanks > 0 {
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The position after `mv`, or `None` when it is not legal in `pos`.
fn play_if_legal(pos: &Position, mv: Move) -> Option<Position> {
    match mv {
        Move::Normal(m) if pos.is_legal(m) => Some(pos.play(m)),
        Move::Normal(_) => None,
        Move::Null => pos.play_null(),
    }
}

/// Whether a move replayed in a new position is still the move written, `old`, now
/// `fresh`: the same piece, taking a man or not as written. A check mark or a
/// disambiguation may come or go; but `Bxf7+` that would now take nothing, or `Nf3` that
/// another piece would now make, is not the move the scoresheet says (typed by hand, it
/// would be refused), so it waits for the right move instead of being replayed.
fn still_as_written(old: &str, fresh: &str) -> bool {
    let castles = |san: &str| san.starts_with("O-O") || san.starts_with("0-0");
    let shape = |san: &str| {
        let piece = san.chars().next().filter(|c| "KQRBN".contains(*c));
        (piece, san.contains('x'))
    };
    (castles(old) && castles(fresh)) || shape(old) == shape(fresh)
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;
