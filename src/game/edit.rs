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
    /// The removed moves in PGN movetext with move numbers, NAGs and variations
    /// (comments inside them are left out: a comment cannot hold another one).
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
const NOT_REPLAYED: &str = "moves not replayed: ";
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
            let children = &mut self.node_mut(parent).children;
            if let Some(index) = children.iter().position(|c| *c == at) {
                if index > 0 {
                    children[..=index].rotate_right(1);
                    changed = true;
                }
            }
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
                let Some(next) = play_if_legal(&pos, mv) else {
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

/// The position after `mv`, or `None` when it is not legal in `pos`.
fn play_if_legal(pos: &Position, mv: Move) -> Option<Position> {
    match mv {
        Move::Normal(m) if pos.is_legal(m) => Some(pos.play(m)),
        Move::Normal(_) => None,
        Move::Null => pos.play_null(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{read_move, Lang};

    /// Plays `moves` (SAN; move numbers such as `3.` or `3...` are skipped) after
    /// `from`, returning the nodes in order.
    fn line(game: &mut Game, from: NodeId, moves: &str) -> Vec<NodeId> {
        let mut at = from;
        let mut pos = game.position_at(from);
        let mut ids = Vec::new();
        for word in moves.split_whitespace().filter(|w| !w.ends_with('.')) {
            let mv = read(&pos, word);
            at = game.add_move(at, mv, &pos);
            pos = pos.apply(mv).expect("a legal test move");
            ids.push(at);
        }
        ids
    }

    fn read(pos: &Position, text: &str) -> Move {
        match read_move(text, pos, Lang::english()) {
            Ok((mv, _)) => mv,
            Err(e) => panic!("{text}: {e}"),
        }
    }

    /// The move `text` in the position after `at`.
    fn move_after(game: &Game, at: NodeId, text: &str) -> Move {
        read(&game.position_at(at), text)
    }

    fn sans(game: &Game, ids: &[NodeId]) -> String {
        let words: Vec<&str> = ids.iter().map(|id| game.node(*id).san.as_str()).collect();
        words.join(" ")
    }

    fn main_sans(game: &Game) -> String {
        sans(game, &game.mainline())
    }

    /// 1. e4 e5 (1... c5 2. Nf3 d6) (1... e6 2. d4) 2. Nf3
    fn three_replies() -> (Game, Vec<NodeId>, Vec<NodeId>, Vec<NodeId>) {
        let mut game = Game::default();
        let main = line(&mut game, NodeId::ROOT, "1. e4 e5 2. Nf3");
        let c5 = line(&mut game, main[0], "1... c5 2. Nf3 d6");
        let e6 = line(&mut game, main[0], "1... e6 2. d4");
        (game, main, c5, e6)
    }

    #[test]
    fn promote_and_demote_step_by_step() {
        let (mut game, main, c5, e6) = three_replies();
        assert_eq!(sans(&game, game.variations_at(main[1])), "e5 c5 e6");
        // From inside the line: the swap happens where it branches off.
        assert_eq!(game.promote_variation(e6[1]), Ok(true));
        assert_eq!(sans(&game, game.variations_at(main[1])), "e5 e6 c5");
        assert_eq!(game.promote_variation(e6[1]), Ok(true));
        assert_eq!(main_sans(&game), "e4 e6 d4");
        assert_eq!(game.promote_variation(e6[1]), Ok(false));

        assert_eq!(game.demote_variation(e6[0]), Ok(true));
        assert_eq!(sans(&game, game.variations_at(main[1])), "e5 e6 c5");
        // c5 is last at its point and nothing else branches above it.
        assert_eq!(game.demote_variation(c5[2]), Ok(false));
        // The main line's 2. Nf3 is alone, so demoting it demotes 1... e5.
        assert_eq!(game.demote_variation(main[2]), Ok(true));
        assert_eq!(main_sans(&game), "e4 e6 d4");
    }

    #[test]
    fn promoting_a_subvariation_stays_inside_its_variation() {
        let (mut game, main, c5, _) = three_replies();
        let nc3 = line(&mut game, c5[0], "2. Nc3 Nc6");
        assert_eq!(game.promote_variation(nc3[1]), Ok(true));
        assert_eq!(sans(&game, &game.node(c5[0]).children), "Nc3 Nf3");
        assert_eq!(sans(&game, game.variations_at(main[1])), "e5 c5 e6");
        assert_eq!(main_sans(&game), "e4 e5 Nf3");
    }

    #[test]
    fn promote_to_main_goes_all_the_way_up() {
        let (mut game, main, c5, _) = three_replies();
        let nc3 = line(&mut game, c5[0], "2. Nc3 Nc6");
        assert_eq!(game.promote_to_main(nc3[1]), Ok(true));
        assert_eq!(main_sans(&game), "e4 c5 Nc3 Nc6");
        // The lines passed keep their order behind it.
        assert_eq!(sans(&game, game.variations_at(main[1])), "c5 e5 e6");
        assert_eq!(sans(&game, &game.node(c5[0]).children), "Nc3 Nf3");
        assert_eq!(game.promote_to_main(nc3[0]), Ok(false));
        assert_eq!(game.ply_of(nc3[1]), 4);
        assert_eq!(game.ply_of(NodeId::ROOT), 0);
    }

    #[test]
    fn delete_variation_removes_the_whole_line_from_its_branch_point() {
        let (mut game, main, c5, e6) = three_replies();
        assert_eq!(game.delete_variation(main[2]), Err(EditError::OnMainLine));
        assert_eq!(game.delete_variation(c5[2]), Ok(main[0]));
        assert_eq!(sans(&game, game.variations_at(main[1])), "e5 e6");
        assert!(c5.iter().all(|id| !game.is_live(*id)));
        assert!(game.is_live(e6[1]) && game.is_live(main[2]));
        assert_eq!(main_sans(&game), "e4 e5 Nf3");
        // A deleted id is refused, not silently reused.
        assert_eq!(
            game.delete_variation(c5[1]),
            Err(EditError::NoSuchNode(c5[1]))
        );
        assert_eq!(
            game.promote_variation(NodeId(999)),
            Err(EditError::NoSuchNode(NodeId(999)))
        );
    }

    #[test]
    fn delete_from_truncates_and_lets_the_next_line_take_over() {
        let (mut game, main, _, _) = three_replies();
        assert_eq!(game.delete_from(NodeId::ROOT), Err(EditError::Root));
        assert_eq!(game.delete_from(main[2]), Ok(main[1]));
        assert_eq!(main_sans(&game), "e4 e5");
        assert_eq!(game.delete_from(main[1]), Ok(main[0]));
        assert_eq!(main_sans(&game), "e4 c5 Nf3 d6");
        assert!(!game.is_live(main[1]));
    }

    #[test]
    fn compact_drops_dead_nodes_and_remaps_the_rest() {
        let mut game = Game::default();
        let main = line(&mut game, NodeId::ROOT, "1. e4 e5 2. Nf3 Nc6");
        let c5 = line(&mut game, main[0], "1... c5 2. Nf3");
        let nc3 = line(&mut game, main[1], "2. Nc3");
        game.delete_variation(c5[1]).expect("a variation");
        let remap = game.compact();
        assert_eq!(remap[c5[0].0 as usize], None);
        assert_eq!(remap[main[3].0 as usize], Some(main[3]));
        assert_eq!(remap[nc3[0].0 as usize], Some(NodeId(5)));

        let mut fresh = Game::default();
        let again = line(&mut fresh, NodeId::ROOT, "1. e4 e5 2. Nf3 Nc6");
        line(&mut fresh, again[1], "2. Nc3");
        assert_eq!(game, fresh);
    }

    /// A quiet Italian game; 3. Bc4 was really 3. Bb5.
    const ITALIAN: &str = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. d3 d6 5. c3 Nf6 6. O-O O-O \
        7. h3 h6 8. Re1 a6 9. a4 Ba7 10. Nbd2 Re8 11. Nf1 Be6 12. Ng3 Qd7 13. Nh2 Rad8 \
        14. Qf3 Kh7 15. Bxe6 fxe6 16. Ng4 Nxg4";

    #[test]
    fn replace_a_move_twelve_moves_back_replays_until_a_move_is_illegal() {
        let mut game = Game::default();
        let ids = line(&mut game, NodeId::ROOT, ITALIAN);
        let bc4 = ids[4];
        game.node_mut(bc4).nags.push(1);
        game.node_mut(bc4)
            .comments_after
            .push("[%clk 1:58:00]".into());
        let bb5 = move_after(&game, ids[3], "Bb5");

        let report = game.replace_move(bc4, bb5).expect("Bb5 is legal");
        assert_eq!(report.old_san, "Bc4");
        assert_eq!(game.node(bc4).san, "Bb5");
        assert_eq!(game.node(bc4).nags, [1]);
        assert_eq!(game.node(bc4).comments_after, ["[%clk 1:58:00]"]);
        // 3... Bc5 to 14... Kh7 still stand; 15. Bxe6 was the c4 bishop's move.
        assert_eq!(report.replayed, 23);
        let kh7 = ids[27];
        let cut = report.not_replayed.expect("a cut");
        assert_eq!(
            (cut.id, cut.san.as_str(), cut.after),
            (ids[28], "Bxe6", kh7)
        );
        assert_eq!(cut.movetext, "15. Bxe6 fxe6 16. Ng4 Nxg4");
        assert_eq!(
            game.node(kh7).comments_after,
            ["moves not replayed: 15. Bxe6 fxe6 16. Ng4 Nxg4"]
        );
        assert_eq!(game.mainline(), ids[..28]);
        assert!(report.dropped.is_empty() && report.renamed.is_empty());
        // The cut nodes are gone from the tree but still readable.
        assert!(!game.is_live(cut.id));
        assert_eq!(game.node(ids[31]).san, "Nxg4");
    }

    #[test]
    fn replace_recomputes_san_when_disambiguation_appears_or_goes() {
        let mut game = Game::default();
        let ids = line(&mut game, NodeId::ROOT, "1. e4 e5 2. Nc3 Nc6 3. Nge2");
        let na3 = move_after(&game, ids[1], "Na3");
        let report = game.replace_move(ids[2], na3).expect("Na3 is legal");
        assert_eq!(report.replayed, 2);
        assert_eq!(report.renamed, [(ids[4], "Nge2".to_string())]);
        assert_eq!(main_sans(&game), "e4 e5 Na3 Nc6 Ne2");

        let nc3 = move_after(&game, ids[1], "Nc3");
        let report = game.replace_move(ids[2], nc3).expect("Nc3 is legal");
        assert_eq!(report.renamed, [(ids[4], "Ne2".to_string())]);
        assert_eq!(main_sans(&game), "e4 e5 Nc3 Nc6 Nge2");
    }

    #[test]
    fn replace_keeps_legal_variations_and_notes_the_dropped_ones() {
        let mut game = Game::default();
        let ids = line(
            &mut game,
            NodeId::ROOT,
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4",
        );
        let ng5 = line(&mut game, ids[3], "3. Ng5 d5");
        let nf6 = line(&mut game, ids[4], "3... Nf6");
        line(&mut game, ids[5], "4. d3");
        let nc3 = move_after(&game, ids[1], "Nc3");

        let report = game.replace_move(ids[2], nc3).expect("Nc3 is legal");
        assert_eq!(report.replayed, 3);
        assert_eq!(main_sans(&game), "e4 e5 Nc3 Nc6 Bc4 Bc5");
        assert!(game.is_live(nf6[0]));
        assert_eq!(sans(&game, game.variations_at(ids[5])), "Bc5 Nf6");

        // 3. Ng5 was the f3 knight's move.
        assert_eq!(report.dropped.len(), 1);
        let dropped = &report.dropped[0];
        assert_eq!((dropped.id, dropped.after), (ng5[0], ids[3]));
        assert_eq!(dropped.movetext, "3. Ng5 d5");
        assert_eq!(
            game.node(ids[3]).comments_after,
            ["variation not replayed: 3. Ng5 d5"]
        );
        // 4. c3 is blocked by the knight; 4. d3 was an alternative to it and goes too.
        let cut = report.not_replayed.expect("a cut");
        assert_eq!((cut.id, cut.san.as_str()), (ids[6], "c3"));
        assert_eq!(cut.movetext, "4. c3 (4. d3) 4... Nf6 5. d4");
        assert!(game.node(ids[5]).children.is_empty());
    }

    #[test]
    fn replace_refuses_illegal_duplicate_and_root() {
        let (mut game, main, c5, _) = three_replies();
        let before = game.clone();
        let e4 = move_after(&game, NodeId::ROOT, "e4");
        assert_eq!(
            game.replace_move(main[1], e4),
            Err(EditError::Illegal("e2e4".into()))
        );
        let c5_move = game.node(c5[0]).mv;
        assert_eq!(
            game.replace_move(main[1], c5_move),
            Err(EditError::AlreadyThere {
                id: c5[0],
                san: "c5".into()
            })
        );
        assert_eq!(game.replace_move(NodeId::ROOT, e4), Err(EditError::Root));
        assert_eq!(game, before);
    }
}
