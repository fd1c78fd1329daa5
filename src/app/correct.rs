//! Corrections while recording: a move replaced and the rest replayed, the moves that
//! wait after one that no longer fits, taking back, deleting from a move on.

use super::entry::Typed;
use super::record::{movetext, number_moves};
use super::{App, CutMove, Effect, Pending};
use crate::game::annotation::split_comment;
use crate::game::edit::{quoted_comment, unquoted_comment, NOT_REPLAYED};
use crate::game::{Game, NodeId};
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
        let old = self.numbered_move(target);
        let line = self.line_after(target);
        let verdict = self.board_verdict();
        let report = match self.game.replace_move(target, typed.mv) {
            Ok(report) => report,
            Err(e) => {
                self.refuse(e.to_string());
                return;
            }
        };
        let new = self.numbered_move(target);
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
        if let Some(wrong) = waiting.moves.first() {
            self.carry_over(id, wrong);
        }
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
        self.inform(match waiting.moves.len() - 1 {
            // The one move that waited was the wrong one: say what took its place.
            0 => format!(
                "corrected: {} in place of {}",
                self.game.node(id).san,
                waiting.moves[0].san
            ),
            1 => "corrected; the 1 waiting move replayed".to_string(),
            n => format!("corrected; all {n} waiting moves replayed"),
        });
        self.after_move(at);
        at
    }

    /// The first waiting move is the move `id` was played in place of, written wrong:
    /// what was written beside it (a clock, a remark, a draw offer, a glyph) is about the
    /// move played there, so `id` gets it; what was typed with `id` wins over it (a clock
    /// typed replaces the one written, a remark typed comes first).
    fn carry_over(&mut self, id: NodeId, wrong: &CutMove) {
        let node = self.game.node_mut(id);
        if node.nags.is_empty() {
            node.nags = wrong.nags.clone();
        }
        node.draw_offer |= wrong.draw_offer;
        if node.comments_after.is_empty() {
            node.comments_after = wrong.comments.clone();
            return;
        }
        for comment in &wrong.comments {
            let (annotations, text) = split_comment(comment);
            for annotation in annotations {
                let kind = std::mem::discriminant(&annotation);
                let there = self.game.node(id).annotations();
                if !there.iter().any(|a| std::mem::discriminant(a) == kind) {
                    self.game.set_annotation(id, annotation);
                }
            }
            if !text.is_empty() {
                let typed = self.game.comment_text(id);
                let both = [typed.as_str(), text.as_str()].join(" ");
                self.game.set_comment_text(id, both.trim());
            }
        }
    }

    /// For the message of a game that opens with moves waiting (see [`waiting_in`]):
    /// `; waiting: 10.Bb3 a6 (type the right move)`, else nothing.
    pub(super) fn waiting_note(&self) -> String {
        let Some(pending) = &self.pending else {
            return String::new();
        };
        let sans: Vec<String> = pending.moves.iter().map(|m| m.san.clone()).collect();
        let pos = self.game.position_at(pending.at);
        format!("; waiting: {} (type the right move)", movetext(&pos, &sans))
    }

    /// Where moves wait, when it is not the main line's last move (below which the
    /// scoresheet shows them): the move they wait after, as `3...cxd4`, so that moves
    /// waiting in a variation are not taken for the main line's.
    pub fn waiting_off_line(&self) -> Option<String> {
        let pending = self.pending.as_ref()?;
        (pending.at != self.line_end(NodeId::ROOT)).then(|| self.numbered_move(pending.at))
    }

    /// Which comment after `id` keeps the moves that wait there (its index among the
    /// move's comments), when moves wait there: the scoresheet shows them as waiting,
    /// and not a second time as that comment, which is there for the file (`:w` keeps
    /// them so). A comment that keeps variations too is shown: they are nowhere else.
    pub fn waiting_comment(&self, id: NodeId) -> Option<usize> {
        let pending = self.pending.as_ref().filter(|p| p.at == id)?;
        let comments = &self.game.node(id).comments_after;
        let (index, body) = comments
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, c)| c.strip_prefix(NOT_REPLAYED).map(|body| (i, body)))?;
        let kept = read_waiting(body, &self.game.position_at(id))?;
        let same = kept.len() == pending.moves.len()
            && kept.iter().zip(&pending.moves).all(|(k, p)| k.san == p.san);
        (same && !holds_variation(body)).then_some(index)
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
        let what = self.numbered_move(last);
        self.delete_saying(last, format!("took back {what}"));
        Effect::None
    }

    pub(super) fn delete_from_here(&mut self) -> Effect {
        if self.cursor == NodeId::ROOT {
            self.refuse("go to a move first: this deletes it and everything after it");
            return Effect::None;
        }
        let what = self.numbered_move(self.cursor);
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
    /// Moves waiting after a deleted move go with it, and are said to.
    fn delete_saying(&mut self, from: NodeId, done: String) {
        let verdict = self.board_verdict();
        match self.game.delete_from(from) {
            Ok(parent) => {
                if self.cursor == from {
                    self.cursor = parent;
                }
                let gone = self.pending.take_if(|p| !self.game.is_live(p.at));
                let done = match gone {
                    Some(p) => format!(
                        "{done}, with the {}",
                        count(p.moves.len(), "waiting move", "waiting moves")
                    ),
                    None => done,
                };
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

/// The moves that waited when the game was saved or journaled, read back from the comment
/// that keeps them on the last move of a line (the main line's, or a variation's when the
/// correction was made inside one), so that a game reopened (`:e`, `scoresheet FILE`) or
/// recovered after a crash offers them again as they were. Only the form this program
/// writes is read (see [`read_waiting`]); any other comment stays a comment, as written.
/// Only one set of moves waits at a time: the main line's first, else the first line's,
/// in the order the game is written.
pub(super) fn waiting_in(game: &Game) -> Option<Pending> {
    // Depth first, first choices first: the main line's end is the first line end met.
    // A stack, not recursion, so that no depth of variations can overflow the call stack.
    let mut todo = vec![NodeId::ROOT];
    while let Some(at) = todo.pop() {
        let children = &game.node(at).children;
        if !children.is_empty() {
            todo.extend(children.iter().rev());
            continue;
        }
        // The newest note is the one the moves waited under (an older one kept for its
        // variations can stand before it).
        let body = game
            .node(at)
            .comments_after
            .iter()
            .rev()
            .find_map(|c| c.strip_prefix(NOT_REPLAYED));
        if let Some(moves) = body.and_then(|body| read_waiting(body, &game.position_at(at))) {
            return Some(Pending { at, moves });
        }
    }
    None
}

/// The moves of a comment's text after [`NOT_REPLAYED`], numbered from `pos`: what
/// [`waiting_movetext`] and the game core write (moves with their numbers, glyphs, and
/// `«»` comments and draw offers; variations, which are skipped, as the comment stays
/// while it holds one), or the plain moves a repair keeps. `None` for anything else: a
/// number that is not the move's, a White move without its number, a comment with no
/// move before it or not quoted as [`quoted_comment`] quotes, a result before the end.
pub(super) fn read_waiting(body: &str, pos: &Position) -> Option<Vec<CutMove>> {
    let mut moves: Vec<CutMove> = Vec::new();
    let mut number = pos.fullmove_number();
    let mut white = pos.side_to_move() == chess::Color::White;
    let mut numbered = false;
    // What may follow the last move: glyphs until a comment is read.
    let mut glyphs_open = false;
    let mut rest = body.trim_start();
    while !rest.is_empty() {
        if numbered && rest.starts_with(['«', '(']) {
            // A number stands right before its move.
            return None;
        }
        if rest.starts_with('«') {
            let len = enclosed_len(rest, '«', '»')?;
            let (quoted, after) = rest.split_at(len);
            let text = unquoted_comment(quoted);
            if quoted_comment(&text) != quoted {
                return None;
            }
            let last = moves.last_mut()?;
            if text == "(=)" && !last.draw_offer && last.comments.is_empty() {
                last.draw_offer = true;
            } else {
                last.comments.push(text);
            }
            glyphs_open = false;
            rest = after.trim_start();
            continue;
        }
        if rest.starts_with('(') {
            rest = rest[enclosed_len(rest, '(', ')')?..].trim_start();
            glyphs_open = false;
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        rest = after.trim_start();
        if let Some(nag) = word.strip_prefix('$') {
            if !glyphs_open || numbered {
                return None;
            }
            moves.last_mut()?.nags.push(nag.parse().ok()?);
            continue;
        }
        if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
            // A repair keeps the game's text to its result: nothing comes after it.
            return rest.is_empty().then_some(moves);
        }
        let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let mut san = word;
        if digits > 0 && word[digits..].starts_with('.') {
            let dots = word[digits..].len() - word[digits..].trim_start_matches('.').len();
            let side_ok = if white { dots == 1 } else { dots == 3 };
            if !side_ok || word[..digits].parse::<u32>().ok()? != number || numbered {
                return None;
            }
            numbered = true;
            san = &word[digits + dots..];
            if san.is_empty() {
                continue;
            }
        }
        let plain = !san.is_empty()
            && !san.contains(['«', '»', '(', ')', '{', '}', '[', ']', ';', '%', '$', '.'])
            && !san.chars().all(|c| c.is_ascii_digit());
        if !plain || (white && !numbered) {
            return None;
        }
        moves.push(CutMove {
            san: san.to_string(),
            nags: Vec::new(),
            comments: Vec::new(),
            draw_offer: false,
        });
        glyphs_open = true;
        numbered = false;
        if !white {
            number += 1;
        }
        white = !white;
    }
    (!numbered && !moves.is_empty()).then_some(moves)
}

/// The length of the pair `text` starts with, from its `open` to the `close` that ends
/// it, nested pairs included; `None` when it does not end. In a variation (`(` `)`), the
/// brackets inside its `«»` comments do not count.
fn enclosed_len(text: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0usize;
    let mut quoted = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '«' if open != '«' => quoted += 1,
            '»' if open != '«' => quoted = quoted.checked_sub(1)?,
            _ if quoted > 0 => {}
            _ if c == open => depth += 1,
            _ if c == close => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + c.len_utf8());
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cut_move() -> impl Strategy<Value = CutMove> {
        let san = prop::sample::select(vec!["e4", "Nf3", "O-O", "a6", "Bxc6+", "e8=Q#", "--"]);
        // Comments as typed, trimmed (as `quoted_comment` writes them): clocks, brackets,
        // typed `[ %` that are no commands, and `«»` quotes of their own, balanced (a lone
        // `«` or `»` can make two comments read back as one, with the same characters).
        let piece = prop::sample::select(vec![
            "[%clk 1:00:00]",
            "[ %",
            "[  %x]",
            "[%",
            "[[ %",
            " see ",
        ]);
        let comment = (
            "[a-z(){}\\[\\]%$: 0-9]{0,12}",
            prop::collection::vec(piece, 0..3),
            0usize..3,
        )
            .prop_map(|(c, pieces, quoted)| {
                let c = format!("{c}{}", pieces.concat());
                let c = c.trim();
                let c = format!("{}{c}{}", "«".repeat(quoted), "»".repeat(quoted));
                c.replace("«»", "«x»")
            })
            .prop_filter("not empty, not a draw offer", |c| {
                !c.is_empty() && c != "(=)"
            });
        (
            san,
            prop::collection::vec(1u8..20, 0..2),
            prop::collection::vec(comment, 0..3),
            any::<bool>(),
        )
            .prop_map(|(san, nags, comments, draw_offer)| CutMove {
                san: san.to_string(),
                nags,
                comments,
                draw_offer,
            })
    }

    proptest! {
        /// The waiting moves' comment reads back as the same moves, or not at all (it then
        /// stays a comment); without `«»` in their comments, always.
        #[test]
        fn the_waiting_comment_reads_back_as_its_moves_or_not_at_all(
            moves in prop::collection::vec(cut_move(), 1..5),
            black in any::<bool>(),
        ) {
            let fen = if black {
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 10"
            } else {
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            };
            let pos = Position::from_fen(fen).unwrap();
            let text = waiting_movetext(&pos, &moves);
            let read = read_waiting(&text, &pos);
            if let Some(read) = &read {
                prop_assert_eq!(read, &moves, "{}", text);
            }
            let plain = moves.iter().flat_map(|m| &m.comments).all(|c| !c.contains(['«', '»']));
            prop_assert!(!plain || read.is_some(), "{}", text);
        }
    }
}
