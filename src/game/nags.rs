//! Numeric annotation glyphs: the ones a user sets by key, their glyphs and
//! names, and the PGN rules for setting one on a move.
//!
//! PGN (section 10 of the standard) gives NAGs meaning by number; a move carries
//! at most one *move assessment* ($1–$9: `!`, `?`, …) and at most one *position
//! evaluation* ($10–$21: `=`, `±`, …). The others (zugzwang, development,
//! initiative, attack, counterplay, time trouble, novelty) say different things
//! and can stand together.

use super::{Game, NodeId};

/// Which group a NAG belongs to: the rule of "one at a time" holds within the
/// first two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NagClass {
    /// How good the move is ($1–$9): one per move.
    Move,
    /// Who stands better ($10–$21): one per move.
    Evaluation,
    /// Anything else ($22 on): as many as apply.
    Other,
}

impl NagClass {
    /// The class of a NAG number.
    pub fn of(nag: u8) -> NagClass {
        match nag {
            1..=9 => NagClass::Move,
            10..=21 => NagClass::Evaluation,
            _ => NagClass::Other,
        }
    }
}

/// A NAG a user can set: its number, its glyph as players write it, and what it
/// means (for the help screen and the status line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NagInfo {
    /// The number written after `$`.
    pub nag: u8,
    /// The glyph shown after the move (`!?`, `±`, `⟳`).
    pub glyph: &'static str,
    /// What it means, in a few words.
    pub name: &'static str,
}

const fn info(nag: u8, glyph: &'static str, name: &'static str) -> NagInfo {
    NagInfo { nag, glyph, name }
}

/// The move assessments, in the order of their numbers.
pub const MOVE_NAGS: &[NagInfo] = &[
    info(1, "!", "good move"),
    info(2, "?", "mistake"),
    info(3, "!!", "brilliant move"),
    info(4, "??", "blunder"),
    info(5, "!?", "interesting move"),
    info(6, "?!", "dubious move"),
    info(7, "□", "only move"),
];

/// The position evaluations, from equal to decisive, White's before Black's.
pub const EVALUATION_NAGS: &[NagInfo] = &[
    info(10, "=", "equal position"),
    info(13, "∞", "unclear position"),
    info(14, "⩲", "White is slightly better"),
    info(15, "⩱", "Black is slightly better"),
    info(16, "±", "White is better"),
    info(17, "∓", "Black is better"),
    info(18, "+-", "White is winning"),
    info(19, "-+", "Black is winning"),
];

/// The other position NAGs worth a key, in White/Black pairs (the glyph is the
/// same for both sides, as in printed chess; the number tells them apart).
pub const OTHER_NAGS: &[NagInfo] = &[
    info(22, "⨀", "White is in zugzwang"),
    info(23, "⨀", "Black is in zugzwang"),
    info(32, "⟳", "White has a development advantage"),
    info(33, "⟳", "Black has a development advantage"),
    info(36, "↑", "White has the initiative"),
    info(37, "↑", "Black has the initiative"),
    info(40, "→", "White has the attack"),
    info(41, "→", "Black has the attack"),
    info(132, "⇆", "White has counterplay"),
    info(133, "⇆", "Black has counterplay"),
    info(138, "⊕", "White is in time trouble"),
    info(139, "⊕", "Black is in time trouble"),
    info(146, "N", "novelty"),
];

/// What a NAG number means, when it is one of the NAGs above.
pub fn nag_info(nag: u8) -> Option<&'static NagInfo> {
    MOVE_NAGS
        .iter()
        .chain(EVALUATION_NAGS)
        .chain(OTHER_NAGS)
        .find(|i| i.nag == nag)
}

/// The glyph of a NAG as players write it (`!`, `?!`, `=`, `+-`), or `$n` for a
/// NAG without one.
pub fn nag_glyph(nag: u8) -> String {
    nag_info(nag).map_or_else(|| format!("${nag}"), |i| i.glyph.to_string())
}

/// Where a NAG of `class` goes among `nags`: move assessments first, then the
/// evaluation, then the rest, as PGN tools write them.
fn slot_for(nags: &[u8], class: NagClass) -> usize {
    let rank = |c: NagClass| match c {
        NagClass::Move => 0,
        NagClass::Evaluation => 1,
        NagClass::Other => 2,
    };
    nags.iter()
        .position(|n| rank(NagClass::of(*n)) > rank(class))
        .unwrap_or(nags.len())
}

impl Game {
    /// Sets `nag` on the move `id`, or removes it when the move has it already.
    /// A move assessment replaces the move's other assessment and an evaluation
    /// its other evaluation (PGN allows one of each); other NAGs stand beside
    /// whatever is there. Returns true when the NAG is now set.
    pub fn toggle_nag(&mut self, id: NodeId, nag: u8) -> bool {
        let nags = &mut self.node_mut(id).nags;
        if nags.contains(&nag) {
            nags.retain(|n| *n != nag);
            return false;
        }
        let class = NagClass::of(nag);
        if class != NagClass::Other {
            nags.retain(|n| NagClass::of(*n) != class);
        }
        let at = slot_for(nags, class);
        nags.insert(at, nag);
        true
    }

    /// Steps the move `id` through `cycle` (e.g. `[14, 16, 18]`: ⩲, ±, +-): a move
    /// with none of them gets the first, one with a NAG of the cycle gets the next,
    /// and the last one is removed. Returns the NAG now set, if any.
    pub fn cycle_nag(&mut self, id: NodeId, cycle: &[u8]) -> Option<u8> {
        let nags = &self.node(id).nags;
        let next = match cycle.iter().position(|c| nags.contains(c)) {
            Some(i) => {
                let current = cycle[i];
                self.toggle_nag(id, current);
                cycle.get(i + 1).copied()
            }
            None => cycle.first().copied(),
        };
        next.inspect(|nag| {
            self.toggle_nag(id, *nag);
        })
    }

    /// Removes the NAGs of `class` from the move `id`; true when there were any.
    pub fn clear_nags(&mut self, id: NodeId, class: NagClass) -> bool {
        let nags = &mut self.node_mut(id).nags;
        let before = nags.len();
        nags.retain(|n| NagClass::of(*n) != class);
        nags.len() != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{read_move, Lang};

    fn one_move() -> (Game, NodeId) {
        let mut game = Game::default();
        let pos = game.start;
        let (mv, _) = read_move("e4", &pos, Lang::english()).unwrap();
        let id = game.add_move(NodeId::ROOT, mv, &pos);
        (game, id)
    }

    #[test]
    fn one_assessment_and_one_evaluation_at_a_time() {
        let (mut game, id) = one_move();
        assert!(game.toggle_nag(id, 16));
        assert!(game.toggle_nag(id, 1));
        assert_eq!(game.node(id).nags, vec![1, 16]);
        // Another evaluation replaces ±, another assessment replaces !.
        assert!(game.toggle_nag(id, 13));
        assert!(game.toggle_nag(id, 6));
        assert_eq!(game.node(id).nags, vec![6, 13]);
        // The same one again removes it.
        assert!(!game.toggle_nag(id, 13));
        assert_eq!(game.node(id).nags, vec![6]);
    }

    #[test]
    fn other_nags_stand_together_after_the_evaluation() {
        let (mut game, id) = one_move();
        assert!(game.toggle_nag(id, 36));
        assert!(game.toggle_nag(id, 138));
        assert!(game.toggle_nag(id, 14));
        assert!(game.toggle_nag(id, 5));
        assert_eq!(game.node(id).nags, vec![5, 14, 36, 138]);
        assert!(game.toggle_nag(id, 37));
        assert_eq!(game.node(id).nags, vec![5, 14, 36, 138, 37]);
        assert!(game.clear_nags(id, NagClass::Other));
        assert_eq!(game.node(id).nags, vec![5, 14]);
        assert!(!game.clear_nags(id, NagClass::Other));
        assert!(game.clear_nags(id, NagClass::Evaluation));
        assert_eq!(game.node(id).nags, vec![5]);
    }

    #[test]
    fn a_cycle_steps_up_then_clears() {
        let (mut game, id) = one_move();
        let white = [14, 16, 18];
        assert_eq!(game.cycle_nag(id, &white), Some(14));
        assert_eq!(game.cycle_nag(id, &white), Some(16));
        assert_eq!(game.node(id).nags, vec![16]);
        assert_eq!(game.cycle_nag(id, &white), Some(18));
        assert_eq!(game.cycle_nag(id, &white), None);
        assert!(game.node(id).nags.is_empty());
        // A cycle over Black's evaluations replaces White's.
        game.toggle_nag(id, 16);
        assert_eq!(game.cycle_nag(id, &[15, 17, 19]), Some(15));
        assert_eq!(game.node(id).nags, vec![15]);
        // White then Black then nothing, for the paired NAGs.
        assert_eq!(game.cycle_nag(id, &[32, 33]), Some(32));
        assert_eq!(game.cycle_nag(id, &[32, 33]), Some(33));
        assert_eq!(game.node(id).nags, vec![15, 33]);
        assert_eq!(game.cycle_nag(id, &[32, 33]), None);
        assert_eq!(game.node(id).nags, vec![15]);
    }

    #[test]
    fn every_listed_nag_has_its_class_glyph_and_name() {
        for (list, class) in [
            (MOVE_NAGS, NagClass::Move),
            (EVALUATION_NAGS, NagClass::Evaluation),
            (OTHER_NAGS, NagClass::Other),
        ] {
            for i in list {
                assert_eq!(NagClass::of(i.nag), class, "${}", i.nag);
                assert_eq!(nag_glyph(i.nag), i.glyph);
                assert!(!i.name.is_empty());
                // One cell per character, so the move list lines up.
                assert_eq!(
                    unicode_width::UnicodeWidthStr::width(i.glyph),
                    i.glyph.chars().count(),
                    "${}",
                    i.nag
                );
            }
        }
        assert_eq!(nag_glyph(14), "⩲");
        assert_eq!(nag_glyph(40), "→");
        assert_eq!(nag_glyph(200), "$200");
    }
}
