//! An exercise: a position from one of your games where the move played lost
//! ground, the moves known to be better, and how an answer is judged.

use serde::{Deserialize, Serialize};

use super::win::{self, PASS_MARGIN};
use crate::game::annotation::Score;
use crate::position::{Move, Position};

/// A known better move: what was written for it in the game (an annotator's or an
/// engine's variation), with its evaluation when the variation carries one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The move, in UCI.
    pub uci: String,
    /// White's win chance after it (percent), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_percent: Option<f64>,
}

// The percentages are finite (computed from scores capped at ±1000 centipawns), so
// equality is an equivalence.
impl Eq for Answer {}

/// A position to find a better move in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exercise {
    /// The position, as FEN.
    pub fen: String,
    /// The move played in the game (UCI): the mistake.
    pub played: String,
    /// Better moves known from the game's annotations (first the best).
    #[serde(default)]
    pub answers: Vec<Answer>,
    /// White's win chance before the mistake (percent), when known: an answer that
    /// keeps it within lichess's margin passes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<f64>,
    /// Win-percentage points the move played lost.
    pub lost: f64,
    /// Where it comes from, for people: `Smith – Jones, Club ch 2024, 14...Qxb2`.
    pub source: String,
    /// The game's main-line moves (UCI) from its start up to the position: the way
    /// there, shown with the exercise (empty in exercises recorded before it was kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    /// The game's start position (FEN), when it is not the usual one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// Where its game stands among the games a drill looked through, 0 the newest (not
    /// kept in the deck): the drill shows newer games' mistakes first, however late the
    /// engine finds them. `None` when not known.
    #[serde(skip)]
    pub recency: Option<u32>,
}

// See `Answer`'s `Eq`.
impl Eq for Exercise {}

/// How an answer was judged.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// One of the known better moves.
    Best,
    /// Within lichess's margin of the position before the mistake (by an evaluation
    /// of the answer: an annotated variation's, or an engine's).
    WithinMargin {
        /// Win-percentage points below the position before the mistake (≤ the margin).
        lost: f64,
    },
    /// The move played in the game again.
    Played,
    /// Not good enough, or not known to be (no evaluation of it).
    Wrong {
        /// Win-percentage points it loses, when an evaluation of it is known.
        lost: Option<f64>,
    },
}

impl Verdict {
    /// True when the answer passes.
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Best | Verdict::WithinMargin { .. })
    }
}

impl Exercise {
    /// A stable key for the deck: the position and the mistake played in it.
    pub fn key(&self) -> String {
        format!("{} {}", self.fen, self.played)
    }

    /// Whether this one comes before `other` in a drill: from a newer game, or the
    /// same one (a game not known, `recency` `None`, comes last).
    pub fn newer_or_same(&self, other: &Exercise) -> bool {
        self.recency.unwrap_or(u32::MAX) <= other.recency.unwrap_or(u32::MAX)
    }

    /// The position, when its FEN reads.
    pub fn position(&self) -> Option<Position> {
        Position::from_fen(&self.fen).ok()
    }

    /// The game's start and its moves up to the position, when they are known and
    /// lead there.
    pub fn way_there(&self) -> Option<(Position, Vec<Move>)> {
        if self.line.is_empty() {
            return None;
        }
        let start = match &self.start {
            Some(fen) => Position::from_fen(fen).ok()?,
            None => Position::start(),
        };
        let mut pos = start;
        let mut moves = Vec::with_capacity(self.line.len());
        for text in &self.line {
            let mv = match text.as_str() {
                "0000" => Move::Null,
                _ => super::from_uci(text, &pos)?,
            };
            pos = pos.apply(mv)?;
            moves.push(mv);
        }
        (pos.fen() == self.fen).then_some((start, moves))
    }

    /// The side to find a move for.
    pub fn side(&self) -> chess::Color {
        self.position()
            .map_or(chess::Color::White, |p| p.side_to_move())
    }

    /// The best move known, in SAN, if any.
    pub fn best_san(&self) -> Option<String> {
        let pos = self.position()?;
        self.answers.first().map(|a| super::san(&pos, &a.uci))
    }

    /// The move played in the game, in SAN.
    pub fn played_san(&self) -> String {
        match self.position() {
            Some(pos) => super::san(&pos, &self.played),
            None => self.played.clone(),
        }
    }

    /// Judges `answer` by an engine: `best` is its score of the position (its best
    /// play), `after` its score after the answer, both from White's side. The answer
    /// passes within lichess's margin of the best, as the same engine sees both.
    pub fn judge_by_engine(&self, answer: Move, best: Score, after: Score) -> Verdict {
        let uci = super::uci(answer);
        if uci == self.played {
            return Verdict::Played;
        }
        if self.answers.first().is_some_and(|a| a.uci == uci) {
            return Verdict::Best;
        }
        let side = self.side();
        let lost = win::percent_for(best, side) - win::percent_for(after, side);
        if lost <= PASS_MARGIN {
            Verdict::WithinMargin {
                lost: lost.max(0.0),
            }
        } else {
            Verdict::Wrong { lost: Some(lost) }
        }
    }

    /// Judges `answer`; `after` is an evaluation of the position after it (from an
    /// engine), when there is one. Without one, an answer passes when it is a known
    /// better move, or a move whose annotated evaluation is within the margin.
    pub fn judge(&self, answer: Move, after: Option<Score>) -> Verdict {
        let uci = super::uci(answer);
        if uci == self.played {
            return Verdict::Played;
        }
        let known = self.answers.iter().find(|a| a.uci == uci);
        let after_percent = after
            .map(win::white_percent)
            .or_else(|| known.and_then(|a| a.white_percent));
        let side = self.side();
        let lost = match (self.before, after_percent) {
            (Some(before), Some(after)) => Some(match side {
                chess::Color::White => before - after,
                chess::Color::Black => after - before,
            }),
            _ => None,
        };
        match (known, lost) {
            // The annotator's (or engine's) best line is right by definition.
            (Some(a), _) if self.answers.first() == Some(a) => Verdict::Best,
            (_, Some(lost)) if lost <= PASS_MARGIN => Verdict::WithinMargin {
                lost: lost.max(0.0),
            },
            _ => Verdict::Wrong { lost },
        }
    }
}

#[cfg(test)]
impl Exercise {
    /// An exercise at `fen` where e2e4 was played and lost 12 points, for tests.
    pub(crate) fn at(fen: &str) -> Exercise {
        Exercise {
            fen: fen.into(),
            played: "e2e4".into(),
            answers: Vec::new(),
            before: None,
            lost: 12.0,
            source: "test".into(),
            line: Vec::new(),
            start: None,
            recency: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise() -> Exercise {
        // White to move after 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4: the game went 4.Nxe5?,
        // the annotation gives 4.Nxd4 as best and 4.c3 as nearly as good.
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
                .unwrap();
        Exercise {
            fen: pos.fen(),
            played: "f3e5".into(),
            answers: vec![
                Answer {
                    uci: "f3d4".into(),
                    white_percent: Some(55.0),
                },
                Answer {
                    uci: "c2c3".into(),
                    white_percent: Some(53.5),
                },
                Answer {
                    uci: "b1c3".into(),
                    white_percent: Some(50.0),
                },
            ],
            before: Some(55.0),
            lost: 20.0,
            source: "test".into(),
            line: Vec::new(),
            start: None,
            recency: None,
        }
    }

    fn mv(ex: &Exercise, uci: &str) -> Move {
        super::super::from_uci(uci, &ex.position().unwrap()).unwrap()
    }

    /// A deck written before the way there was kept still reads: the exercise shows
    /// its position alone.
    #[test]
    fn an_exercise_without_its_way_there_still_reads() {
        let old =
            r#"{"fen":"8/8/8/8/8/8/4P3/4K2k w - - 0 1","played":"e2e4","lost":12.0,"source":"x"}"#;
        let e: Exercise = serde_json::from_str(old).expect("reads");
        assert!(e.line.is_empty());
        assert_eq!(e.way_there(), None);
        // And a new one does not write the fields it has not.
        assert!(!serde_json::to_string(&e).unwrap().contains("line"));
    }

    #[test]
    fn best_margin_played_wrong() {
        let ex = exercise();
        assert_eq!(ex.judge(mv(&ex, "f3d4"), None), Verdict::Best);
        assert_eq!(
            ex.judge(mv(&ex, "c2c3"), None),
            Verdict::WithinMargin { lost: 1.5 }
        );
        assert_eq!(
            ex.judge(mv(&ex, "b1c3"), None),
            Verdict::Wrong { lost: Some(5.0) }
        );
        assert_eq!(ex.judge(mv(&ex, "f3e5"), None), Verdict::Played);
        // A move nobody evaluated is not known to be good.
        assert_eq!(
            ex.judge(mv(&ex, "a2a3"), None),
            Verdict::Wrong { lost: None }
        );
        assert_eq!(ex.best_san().as_deref(), Some("Nxd4"));
        assert_eq!(ex.played_san(), "Nxe5");
    }

    #[test]
    fn an_engine_score_judges_any_move() {
        let ex = exercise();
        // +0.40 for White is about 53.7%: within 2 points of 55.
        assert!(ex.judge(mv(&ex, "a2a3"), Some(Score::Pawns(40))).passed());
        assert!(!ex.judge(mv(&ex, "a2a3"), Some(Score::Pawns(-150))).passed());
        // Against the engine's own view of the position's best play, not the annotation's:
        // 0.1 pawn below a best of -0.50 passes, though far below the annotated 55 %.
        assert!(matches!(
            ex.judge_by_engine(mv(&ex, "a2a3"), Score::Pawns(-50), Score::Pawns(-60)),
            Verdict::WithinMargin { .. }
        ));
        assert_eq!(
            ex.judge_by_engine(mv(&ex, "f3e5"), Score::Pawns(0), Score::Pawns(0)),
            Verdict::Played
        );
        assert_eq!(
            ex.judge_by_engine(mv(&ex, "f3d4"), Score::Pawns(0), Score::Pawns(-500)),
            Verdict::Best
        );
        assert!(!ex
            .judge_by_engine(mv(&ex, "a2a3"), Score::Pawns(90), Score::Pawns(0))
            .passed());
    }
}
