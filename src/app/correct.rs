//! Corrections while recording: a move replaced and the rest replayed, the moves that
//! wait after one that no longer fits, taking back, deleting from a move on.

use super::entry::Typed;
use super::record::{movetext, number_moves, numbered};
use super::{App, CutMove, Effect, Pending};
use crate::game::edit::{quoted_comment, NOT_REPLAYED};
use crate::game::NodeId;
use crate::notation::{read_move, Lang};
use crate::plural::count;
use crate::position::Position;

impl App {
    /// The moves after `id` along first choices, with what is written beside them.
    fn line_after(&self, id: NodeId) -> Vec<(NodeId, CutMove)> {
        let mut line = Vec::new();
        let mut at = id;
        while let Some(&next) = self.game.node(at).children.first() {
            let node = self.game.node(next);
            line.push((
                next,
                CutMove {
                    san: node.san.clone(),
                    nags: node.nags.clone(),
                    comments: node.comments_after.clone(),
                    draw_offer: node.draw_offer,
                },
            ));
            at = next;
        }
        line
    }

    /// Replaces the move `target` and replays the rest; the first move that no
    /// longer fits waits, with the moves after it, for the right move, and the
    /// cursor goes to where it is to be typed. When all fits, the cursor goes to
    /// the end of the line, where recording goes on.
    pub(super) fn replace(&mut self, target: NodeId, typed: &Typed) {
        let old = numbered(&self.game, target);
        let line = self.line_after(target);
        let verdict = self.board_verdict();
        let report = match self.game.replace_move(target, typed.mv) {
            Ok(report) => report,
            Err(e) => {
                self.refuse(e.to_string());
                return;
            }
        };
        let new = numbered(&self.game, target);
        self.mark_typed(target, typed);
        self.changed();
        match report.not_replayed {
            Some(cut) => {
                let first = line.iter().position(|(id, _)| *id == cut.id).unwrap_or(0);
                let waiting: Vec<CutMove> = line[first..].iter().map(|(_, m)| m.clone()).collect();
                let count_waiting = waiting.len();
                self.pending = Some(Pending {
                    at: cut.after,
                    moves: waiting,
                });
                self.cursor = cut.after;
                self.refuse(format!(
                    "{old} is now {new}; {} replayed; {} no longer fits: type the right move ({} wait), or {}",
                    count(report.replayed, "move", "moves"),
                    cut.san,
                    count(count_waiting, "move", "moves"),
                    self.undo_hint()
                ));
                self.recheck_result(verdict);
                self.change_label = Some(format!("{old} is now {new}"));
            }
            None => {
                self.cursor = self.line_end(target);
                let replayed = match report.replayed {
                    0 => String::new(),
                    1 => ", the move after it replayed".to_string(),
                    n => format!(", all {n} later moves replayed"),
                };
                self.inform(format!(
                    "{old} is now {new}{replayed}: {}",
                    self.undo_hint()
                ));
                self.recheck_result(verdict);
                self.change_label = Some(format!("{old} is now {new}"));
                self.after_move(self.cursor);
            }
        }
    }

    /// Plays the moves that waited after a correction behind the new move `id`,
    /// until one no longer fits. Returns where the cursor goes.
    pub(super) fn replay_waiting(&mut self, id: NodeId, waiting: Pending) -> NodeId {
        if let Some(parent) = self.game.node(id).parent {
            self.game
                .node_mut(parent)
                .comments_after
                .retain(|c| !c.starts_with(NOT_REPLAYED) || holds_variation(c));
        }
        let mut at = id;
        let mut pos = self.game.position_at(id);
        for (i, cut) in waiting.moves.iter().enumerate().skip(1) {
            match read_move(&cut.san, &pos, Lang::english()) {
                Ok((mv, _)) => {
                    let next = self.game.add_move(at, mv, &pos);
                    let node = self.game.node_mut(next);
                    node.nags = cut.nags.clone();
                    node.comments_after = cut.comments.clone();
                    node.draw_offer = cut.draw_offer;
                    pos = pos.apply(mv).unwrap_or(pos);
                    at = next;
                }
                Err(_) => {
                    let rest: Vec<CutMove> = waiting.moves[i..].to_vec();
                    let sans: Vec<String> = rest.iter().map(|m| m.san.clone()).collect();
                    self.game
                        .node_mut(at)
                        .comments_after
                        .push(format!("{NOT_REPLAYED}{}", waiting_movetext(&pos, &rest)));
                    self.refuse(format!(
                        "{} replayed; {} no longer fits either: type the right move ({} wait)",
                        count(i - 1, "move", "moves"),
                        movetext(&pos, &sans[..1]),
                        count(rest.len(), "move", "moves")
                    ));
                    self.pending = Some(Pending { at, moves: rest });
                    return at;
                }
            }
        }
        self.inform(format!(
            "corrected; {} replayed",
            match waiting.moves.len() - 1 {
                0 => "no waiting move".to_string(),
                1 => "the 1 waiting move".to_string(),
                n => format!("all {n} waiting moves"),
            }
        ));
        self.after_move(at);
        at
    }

    pub(super) fn on_main_line(&self, id: NodeId) -> bool {
        let mut at = id;
        while let Some(parent) = self.game.node(at).parent {
            if self.game.node(parent).children.first() != Some(&at) {
                return false;
            }
            at = parent;
        }
        true
    }

    pub(super) fn take_back(&mut self) -> Effect {
        let last = self.line_end(self.cursor);
        if last == NodeId::ROOT {
            self.refuse("no move to take back");
            return Effect::None;
        }
        let what = numbered(&self.game, last);
        self.delete_saying(last, format!("took back {what}"));
        Effect::None
    }

    pub(super) fn delete_from_here(&mut self) -> Effect {
        if self.cursor == NodeId::ROOT {
            self.refuse("go to a move first: this deletes it and everything after it");
            return Effect::None;
        }
        let what = numbered(&self.game, self.cursor);
        let what = match self.moves_after(self.cursor) {
            0 => what,
            1 => format!("{what} and the move after it"),
            n => format!("{what} and {n} moves after it"),
        };
        self.delete_saying(self.cursor, format!("deleted {what}"));
        Effect::None
    }

    /// Deletes `from` and what follows it (the cursor, when on it, goes to the move
    /// before), says `done` with the way to undo it, and checks the result again.
    fn delete_saying(&mut self, from: NodeId, done: String) {
        let verdict = self.board_verdict();
        match self.game.delete_from(from) {
            Ok(parent) => {
                if self.cursor == from {
                    self.cursor = parent;
                }
                self.inform_undoable(done);
                self.recheck_result(verdict);
                self.changed();
            }
            Err(e) => self.refuse(e.to_string()),
        }
    }

    /// How many moves follow `id`, in every line after it.
    fn moves_after(&self, id: NodeId) -> usize {
        let mut count = 0;
        let mut todo = self.game.node(id).children.clone();
        while let Some(next) = todo.pop() {
            count += 1;
            todo.extend_from_slice(&self.game.node(next).children);
        }
        count
    }
}

/// The moves still waiting, as the comment that keeps them writes them: numbered, with
/// their glyphs, draw offers and comments (clocks too), so that a save or a crash while
/// they wait loses nothing written beside them (the game core writes the first cut so).
fn waiting_movetext(pos: &Position, moves: &[CutMove]) -> String {
    number_moves(pos, moves, " ", |out, cut| {
        out.push_str(&cut.san);
        for nag in &cut.nags {
            out.push_str(&format!(" ${nag}"));
        }
        let draw_offer = cut.draw_offer.then_some("(=)");
        let beside: Vec<&str> = draw_offer
            .into_iter()
            .chain(cut.comments.iter().map(String::as_str))
            .collect();
        for comment in &beside {
            out.push(' ');
            out.push_str(&quoted_comment(comment));
        }
        !beside.is_empty()
    })
}

/// Whether the comment keeping cut moves holds a variation (a `(` outside the moves'
/// quoted comments): the waiting moves are only the line, so such a comment stays when
/// they are replayed, or the variation would be lost.
fn holds_variation(comment: &str) -> bool {
    let mut quoted = 0usize;
    for c in comment.chars() {
        match c {
            '«' => quoted += 1,
            '»' => quoted = quoted.saturating_sub(1),
            '(' if quoted == 0 => return true,
            _ => {}
        }
    }
    false
}
