//! What a recorder writes beside a move: clock readings, elapsed times, the free
//! text of its comment and its move-quality glyph. Each change keeps everything
//! else in the comment (other commands, their order) as it was.

use super::annotation::{split_comment, split_comment_head, write_comment, Annotation};
use super::{Game, Node, NodeId};
use crate::notation::{write_move, Lang, Style};
use crate::position::Position;

/// The move-quality glyphs (`$1`–`$6`: `!`, `?`, `!!`, `??`, `!?`, `?!`); a move
/// carries at most one of them.
pub const MOVE_QUALITY: std::ops::RangeInclusive<u8> = 1..=6;

pub use super::nags::nag_glyph;

/// Which of a move's two comments: the one written before it or after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentPlace {
    /// Before the move (`{...} 12...Nf6`).
    Before,
    /// After the move (`12...Nf6 {...}`).
    After,
}

/// True when moves written in `style` and `lang` are the SAN each node keeps
/// (PGN's own notation), so that writing them needs no position.
pub fn is_kept_san(style: Style, lang: &Lang) -> bool {
    style == Style::San && lang.code == "en"
}

/// Appends the move of `node` as a reader wants it: in `style` and `lang`,
/// formatted from `before` (the position it was played in); the SAN the node keeps
/// when that is the notation asked for ([`is_kept_san`]) or when no position is
/// given. NAGs are not included (see [`write_nags`]).
pub fn write_move_text(
    out: &mut String,
    node: &Node,
    before: Option<&Position>,
    style: Style,
    lang: &Lang,
) {
    match before {
        Some(pos) if !is_kept_san(style, lang) => write_move(out, pos, node.mv, style, lang),
        _ => out.push_str(&node.san),
    }
}

/// True when the glyph of `nag` is written attached to its move, as books do:
/// a move assessment that has a glyph (`!`, `?!`, `□`); any other (`±`, `=`,
/// `⟳`, `$8`) stands after a space.
pub fn is_attached(nag: u8) -> bool {
    super::nags::NagClass::of(nag) == super::nags::NagClass::Move
        && super::nags::nag_info(nag).is_some()
}

/// Appends the glyphs of `nags` as they follow a move (see [`is_attached`]).
pub fn write_nags(out: &mut String, nags: &[u8]) {
    for &nag in nags {
        if !is_attached(nag) {
            out.push(' ');
        }
        out.push_str(&nag_glyph(nag));
    }
}

impl Game {
    /// The commands and the free text of the comments after `id`, read as one.
    fn comment_parts(&self, id: NodeId) -> (Vec<Annotation>, String) {
        let mut annotations = Vec::new();
        let mut texts = Vec::new();
        for comment in &self.node(id).comments_after {
            let (mut found, text) = split_comment(comment);
            annotations.append(&mut found);
            if !text.is_empty() {
                texts.push(text);
            }
        }
        (annotations, texts.join(" "))
    }

    fn set_comment_parts(&mut self, id: NodeId, annotations: &[Annotation], text: &str) {
        let comment = write_comment(annotations, text);
        let node = self.node_mut(id);
        node.comments_after.clear();
        if !comment.is_empty() {
            node.comments_after.push(comment);
        }
    }

    /// Where the comment `place` of `id` is kept. PGN writes a comment before a
    /// move only where a variation opens (`( {idea} 12...Nf6`); elsewhere the
    /// comment before a move is the one after the move before it, and before the
    /// first move it is the comment after the root (the game's opening comment).
    pub fn comment_home(&self, id: NodeId, place: CommentPlace) -> (NodeId, CommentPlace) {
        match (place, self.node(id).parent) {
            (CommentPlace::After, _) | (_, None) => (id, CommentPlace::After),
            (CommentPlace::Before, Some(parent)) => {
                if self.node(parent).children.first() == Some(&id) {
                    (parent, CommentPlace::After)
                } else {
                    (id, CommentPlace::Before)
                }
            }
        }
    }

    fn comments(&self, id: NodeId, place: CommentPlace) -> &[String] {
        match place {
            CommentPlace::Before => &self.node(id).comments_before,
            CommentPlace::After => &self.node(id).comments_after,
        }
    }

    /// The free text of the comment `place` of `id` (see [`Game::comment_home`]),
    /// without its commands (`[%clk]`, …), which an editor leaves alone.
    pub fn comment_at(&self, id: NodeId, place: CommentPlace) -> String {
        let (home, place) = self.comment_home(id, place);
        let texts: Vec<String> = self
            .comments(home, place)
            .iter()
            .map(|c| split_comment(c).1)
            .filter(|t| !t.is_empty())
            .collect();
        texts.join(" ")
    }

    /// Replaces the free text of the comment `place` of `id`, keeping its
    /// commands; several comments there become one. Returns true when the
    /// game changed.
    pub fn set_comment_at(&mut self, id: NodeId, place: CommentPlace, text: &str) -> bool {
        let (home, place) = self.comment_home(id, place);
        if place == CommentPlace::After {
            let before = self.node(home).comments_after.clone();
            self.set_comment_text(home, text);
            return self.node(home).comments_after != before;
        }
        let annotations: Vec<Annotation> = self
            .comments(home, place)
            .iter()
            .flat_map(|c| split_comment(c).0)
            .collect();
        let comment = write_comment(&annotations, text.trim());
        let new = if comment.is_empty() {
            Vec::new()
        } else {
            vec![comment]
        };
        let slot = &mut self.node_mut(home).comments_before;
        let changed = *slot != new;
        *slot = new;
        changed
    }

    /// The free text of the comment after `id`, without its commands.
    pub fn comment_text(&self, id: NodeId) -> String {
        self.comment_parts(id).1
    }

    /// [`Game::comment_text`] from the first `max` bytes of the comments (see
    /// [`split_comment_head`]), and whether some was left out.
    pub fn comment_text_head(&self, id: NodeId, max: usize) -> (String, bool) {
        self.comment_text_head_without(id, max, None)
    }

    /// [`Game::comment_text_head`] leaving out the comment at `skip` among those after
    /// `id`: one that a screen shows in another form (the moves a correction left
    /// waiting, which the scoresheet shows as such).
    pub fn comment_text_head_without(
        &self,
        id: NodeId,
        max: usize,
        skip: Option<usize>,
    ) -> (String, bool) {
        let mut texts = Vec::new();
        let mut left = max;
        for (i, comment) in self.node(id).comments_after.iter().enumerate() {
            if Some(i) == skip {
                continue;
            }
            let (_, text, cut) = split_comment_head(comment, left);
            if !text.is_empty() {
                texts.push(text);
            }
            if cut {
                return (texts.join(" "), true);
            }
            left -= comment.len();
        }
        (texts.join(" "), false)
    }

    /// Replaces the free text of the comment after `id`, keeping its commands.
    pub fn set_comment_text(&mut self, id: NodeId, text: &str) {
        let (annotations, _) = self.comment_parts(id);
        self.set_comment_parts(id, &annotations, text.trim());
    }

    /// Sets a command on the move `id`, replacing one of the same kind (a new
    /// `[%clk]` replaces the old one); the comment's other parts stay.
    pub fn set_annotation(&mut self, id: NodeId, annotation: Annotation) {
        let (mut annotations, text) = self.comment_parts(id);
        let same =
            |a: &Annotation| std::mem::discriminant(a) == std::mem::discriminant(&annotation);
        match annotations.iter_mut().find(|a| same(a)) {
            Some(slot) => *slot = annotation,
            None => annotations.push(annotation),
        }
        self.set_comment_parts(id, &annotations, &text);
    }

    /// Gives the move `id` the move-quality glyph `nag` (one of [`MOVE_QUALITY`]),
    /// replacing the one it had; giving it the glyph it already has removes it.
    /// Returns true when the glyph is now set.
    pub fn toggle_quality(&mut self, id: NodeId, nag: u8) -> bool {
        self.toggle_nag(id, nag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::annotation::ClockTime;
    use crate::notation::read_move;
    use crate::notation::Lang;

    fn one_move() -> (Game, NodeId) {
        let mut game = Game::default();
        let pos = game.start;
        let (mv, _) = read_move("e4", &pos, Lang::english()).unwrap();
        let id = game.add_move(NodeId::ROOT, mv, &pos);
        (game, id)
    }

    #[test]
    fn a_new_clock_replaces_the_old_and_keeps_the_rest() {
        let (mut game, id) = one_move();
        game.node_mut(id).comments_after =
            vec!["[%clk 1:00:00] [%eval 0.20] the usual".to_string()];
        game.set_annotation(id, Annotation::Clock(ClockTime::from_secs(83 * 60)));
        assert_eq!(
            game.node(id).comments_after,
            vec!["[%clk 1:23:00] [%eval 0.20] the usual".to_string()]
        );
        game.set_annotation(id, Annotation::Elapsed(ClockTime::from_secs(65)));
        assert_eq!(
            game.node(id).comments_after,
            vec!["[%clk 1:23:00] [%eval 0.20] [%emt 0:01:05] the usual".to_string()]
        );
    }

    #[test]
    fn comment_text_is_edited_around_the_commands() {
        let (mut game, id) = one_move();
        game.set_annotation(id, Annotation::Clock(ClockTime::from_secs(60)));
        game.set_comment_text(id, " best by test ");
        assert_eq!(game.comment_text(id), "best by test");
        assert_eq!(
            game.node(id).comments_after,
            vec!["[%clk 0:01:00] best by test".to_string()]
        );
        game.set_comment_text(id, "");
        assert_eq!(
            game.node(id).comments_after,
            vec!["[%clk 0:01:00]".to_string()]
        );
    }

    #[test]
    fn the_comment_before_a_move_lives_where_pgn_writes_it() {
        let (mut game, e4) = one_move();
        let pos = game.start;
        let (d4, _) = read_move("d4", &pos, Lang::english()).unwrap();
        let d4 = game.add_move(NodeId::ROOT, d4, &pos);
        let after_e4 = game.position_at(e4);
        let (e5, _) = read_move("e5", &after_e4, Lang::english()).unwrap();
        let e5 = game.add_move(e4, e5, &after_e4);

        // Before a main-line move: the comment after the move before it.
        assert!(game.set_comment_at(e5, CommentPlace::Before, "the classical reply"));
        assert_eq!(game.comment_text(e4), "the classical reply");
        assert_eq!(
            game.comment_at(e4, CommentPlace::After),
            "the classical reply"
        );
        // Before the first move: the game's opening comment, on the root.
        assert!(game.set_comment_at(e4, CommentPlace::Before, "a quiet game"));
        assert_eq!(
            game.node(NodeId::ROOT).comments_after,
            vec!["a quiet game".to_string()]
        );
        // Before the first move of a variation: its own comment before.
        assert!(game.set_comment_at(d4, CommentPlace::Before, "or\nclosed"));
        assert_eq!(
            game.node(d4).comments_before,
            vec!["or\nclosed".to_string()]
        );
        assert_eq!(game.comment_at(d4, CommentPlace::Before), "or\nclosed");
        assert!(!game.set_comment_at(d4, CommentPlace::Before, "or\nclosed"));
        assert!(game.set_comment_at(d4, CommentPlace::Before, "  "));
        assert!(game.node(d4).comments_before.is_empty());
    }

    #[test]
    fn editing_a_comment_before_keeps_its_commands() {
        let (mut game, e4) = one_move();
        let pos = game.start;
        let (d4, _) = read_move("d4", &pos, Lang::english()).unwrap();
        let d4 = game.add_move(NodeId::ROOT, d4, &pos);
        game.node_mut(d4).comments_before = vec!["[%csl Gd4] solid".into(), "too".into()];
        assert_eq!(game.comment_at(d4, CommentPlace::Before), "solid too");
        assert!(game.set_comment_at(d4, CommentPlace::Before, "sound"));
        assert_eq!(
            game.node(d4).comments_before,
            vec!["[%csl Gd4] sound".to_string()]
        );
        game.set_annotation(e4, Annotation::Clock(ClockTime::from_secs(60)));
        assert!(game.set_comment_at(e4, CommentPlace::After, "best"));
        assert!(!game.set_comment_at(e4, CommentPlace::After, "best"));
        assert_eq!(
            game.node(e4).comments_after,
            vec!["[%clk 0:01:00] best".to_string()]
        );
    }

    #[test]
    fn one_quality_glyph_at_a_time() {
        let (mut game, id) = one_move();
        game.node_mut(id).nags = vec![14];
        assert!(game.toggle_quality(id, 1));
        assert_eq!(game.node(id).nags, vec![1, 14]);
        assert!(game.toggle_quality(id, 5));
        assert_eq!(game.node(id).nags, vec![5, 14]);
        assert!(!game.toggle_quality(id, 5));
        assert_eq!(game.node(id).nags, vec![14]);
        assert_eq!(nag_glyph(5), "!?");
        assert_eq!(nag_glyph(200), "$200");
    }
}
