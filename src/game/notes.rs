//! What a recorder writes beside a move: clock readings, elapsed times, the free
//! text of its comment and its move-quality glyph. Each change keeps everything
//! else in the comment (other commands, their order) as it was.

use super::annotation::{split_comment, write_comment, Annotation};
use super::{Game, Node, NodeId};
use crate::notation::{write_move, Lang, Style};
use crate::position::Position;

/// The move-quality glyphs (`$1`–`$6`: `!`, `?`, `!!`, `??`, `!?`, `?!`); a move
/// carries at most one of them.
pub const MOVE_QUALITY: std::ops::RangeInclusive<u8> = 1..=6;

/// The glyph of a NAG as players write it (`!`, `?!`, `=`, `+-`), or `$n`.
pub fn nag_glyph(nag: u8) -> String {
    let glyph = match nag {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        10 => "=",
        13 => "∞",
        14 => "⩲",
        15 => "⩱",
        16 => "±",
        17 => "∓",
        18 => "+-",
        19 => "-+",
        _ => return format!("${nag}"),
    };
    glyph.to_string()
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

/// Appends the glyphs of `nags` as they follow a move: a move-quality glyph
/// (`!`, `?!`, …) attached, any other (`±`, `=`, `$22`) after a space.
pub fn write_nags(out: &mut String, nags: &[u8]) {
    for &nag in nags {
        if !MOVE_QUALITY.contains(&nag) {
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

    /// The free text of the comment after `id`, without its commands.
    pub fn comment_text(&self, id: NodeId) -> String {
        self.comment_parts(id).1
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
        let nags = &mut self.node_mut(id).nags;
        let had = nags.contains(&nag);
        nags.retain(|n| !MOVE_QUALITY.contains(n));
        if !had {
            nags.insert(0, nag);
        }
        !had
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
