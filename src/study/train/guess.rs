//! Guess the move: a game's main line is replayed from a position on, the moves
//! of one side hidden; each is guessed before it is shown. A guess is the game's
//! move, as good as the game's move (within lichess's margin, by an evaluation of
//! both: an engine's, or the `[%eval]` of the game's move and of a variation
//! starting with the guess), or wrong. The first answer to each move is scored.

use chess::Color;

use super::mistakes::eval_at;
use super::win::{self, PASS_MARGIN};
use crate::game::annotation::Score;
use crate::game::{Game, NodeId};
use crate::position::{Move, Position};

/// One move of the line being guessed.
#[derive(Debug, Clone)]
struct Step {
    /// The position before it.
    before: Position,
    /// The game's move.
    mv: Move,
    /// The game's move in SAN.
    san: String,
    /// Its `[%eval]`, when written.
    eval: Option<Score>,
    /// The first moves of the variations at this move, with their `[%eval]`.
    others: Vec<(Move, Option<Score>)>,
}

/// How a guess was judged.
#[derive(Debug, Clone, PartialEq)]
pub enum GuessVerdict {
    /// The game's move.
    GameMove,
    /// Another move, as good as the game's (it loses at most the margin against it).
    AsGood {
        /// Win-percentage points it is worse than the game's move (may be negative: better).
        lost: f64,
    },
    /// Not the game's move, and not known to be as good.
    Wrong {
        /// Win-percentage points it is worse than the game's move, when both are evaluated.
        lost: Option<f64>,
    },
}

impl GuessVerdict {
    /// True when the guess counts as right.
    pub fn right(&self) -> bool {
        !matches!(self, GuessVerdict::Wrong { .. })
    }
}

/// The tally so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Guessed the game's move at the first try.
    pub game: u32,
    /// Guessed a move as good at the first try.
    pub good: u32,
    /// Wrong at the first try, or revealed without a guess.
    pub wrong: u32,
}

impl Tally {
    /// Moves scored.
    pub fn asked(&self) -> u32 {
        self.game + self.good + self.wrong
    }

    /// `7 of 10 (70%): 6 the game's move, 1 as good, 3 wrong`.
    pub fn summary(&self) -> String {
        let right = self.game + self.good;
        let asked = self.asked();
        let percent = (right * 100).checked_div(asked).unwrap_or(0);
        format!(
            "{right} of {asked} ({percent}%): {} the game's move, {} as good, {} wrong",
            self.game, self.good, self.wrong
        )
    }
}

/// A guess-the-move session over one game.
#[derive(Debug, Clone)]
pub struct Guess {
    side: Color,
    steps: Vec<Step>,
    at: usize,
    /// The move waiting was answered already (further tries are not scored).
    answered: bool,
    /// The score so far.
    pub tally: Tally,
}

impl Guess {
    /// A session over the main line of `game` after `from` (a main-line move, or
    /// the root), guessing `side`'s moves.
    pub fn new(game: &Game, from: NodeId, side: Color) -> Guess {
        let line = game.mainline();
        let skip = if from == NodeId::ROOT {
            0
        } else {
            line.iter().position(|&id| id == from).map_or(0, |i| i + 1)
        };
        let mut parent = if skip == 0 {
            NodeId::ROOT
        } else {
            line[skip - 1]
        };
        let mut steps = Vec::new();
        for &id in &line[skip..] {
            let node = game.node(id);
            steps.push(Step {
                before: game.position_at(parent),
                mv: node.mv,
                san: node.san.clone(),
                eval: eval_at(game, id),
                others: game
                    .node(parent)
                    .children
                    .iter()
                    .filter(|&&c| c != id)
                    .map(|&c| (game.node(c).mv, eval_at(game, c)))
                    .collect(),
            });
            parent = id;
        }
        Guess {
            side,
            steps,
            at: 0,
            answered: false,
            tally: Tally::default(),
        }
    }

    /// The side whose moves are guessed.
    pub fn side(&self) -> Color {
        self.side
    }

    /// Moves of the line shown so far, and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.at, self.steps.len())
    }

    /// The game's next move when it is the other side's, to be shown at once.
    pub fn their_move(&self) -> Option<Move> {
        let step = self.steps.get(self.at)?;
        (step.before.side_to_move() != self.side).then_some(step.mv)
    }

    /// True when a move of `side` waits to be guessed.
    pub fn waiting(&self) -> bool {
        self.steps
            .get(self.at)
            .is_some_and(|s| s.before.side_to_move() == self.side)
    }

    /// True when the whole line was shown.
    pub fn finished(&self) -> bool {
        self.at >= self.steps.len()
    }

    /// Shows the next move (the other side's, or the hidden one after a guess or a
    /// reveal); an unanswered hidden move counts as wrong. Returns it.
    pub fn advance(&mut self) -> Option<(Move, String)> {
        let step = self.steps.get(self.at)?;
        if step.before.side_to_move() == self.side && !self.answered {
            self.tally.wrong += 1;
        }
        self.at += 1;
        self.answered = false;
        Some((step.mv, step.san.clone()))
    }

    /// The game's hidden move in SAN (for the reveal).
    pub fn hidden_san(&self) -> Option<&str> {
        self.steps.get(self.at).map(|s| s.san.as_str())
    }

    /// True when only an engine can say whether `guess` is as good as the game's
    /// move: it is another move, and the game has no evaluations to compare.
    pub fn needs_engine(&self, guess: Move) -> bool {
        let Some(step) = self.steps.get(self.at).filter(|_| self.waiting()) else {
            return false;
        };
        guess != step.mv
            && !(step.eval.is_some() && step.others.iter().any(|(m, e)| *m == guess && e.is_some()))
    }

    /// The game's hidden move, while one waits.
    pub fn hidden(&self) -> Option<Move> {
        self.steps
            .get(self.at)
            .filter(|_| self.waiting())
            .map(|s| s.mv)
    }

    /// Judges `guess` for the move waiting; `engine` is an engine's score of the
    /// positions after the game's move and after the guess, when one is present.
    /// The first answer to a move is scored; returns the verdict and whether it was
    /// scored. `None` when no move waits.
    pub fn judge(
        &mut self,
        guess: Move,
        engine: Option<(Score, Score)>,
    ) -> Option<(GuessVerdict, bool)> {
        if !self.waiting() {
            return None;
        }
        let step = &self.steps[self.at];
        let verdict = if guess == step.mv {
            GuessVerdict::GameMove
        } else {
            let annotated = step
                .others
                .iter()
                .find(|(m, _)| *m == guess)
                .and_then(|(_, e)| Some((step.eval?, (*e)?)));
            match engine.or(annotated) {
                Some((game, other)) => {
                    let lost =
                        win::percent_for(game, self.side) - win::percent_for(other, self.side);
                    if lost <= PASS_MARGIN {
                        GuessVerdict::AsGood { lost }
                    } else {
                        GuessVerdict::Wrong { lost: Some(lost) }
                    }
                }
                None => GuessVerdict::Wrong { lost: None },
            }
        };
        let scored = !self.answered;
        if scored {
            self.answered = true;
            match verdict {
                GuessVerdict::GameMove => self.tally.game += 1,
                GuessVerdict::AsGood { .. } => self.tally.good += 1,
                GuessVerdict::Wrong { .. } => self.tally.wrong += 1,
            }
        }
        Some((verdict, scored))
    }

    /// The position the waiting move is played in.
    pub fn position(&self) -> Option<&Position> {
        self.steps.get(self.at).map(|s| &s.before)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pgn: &str) -> Game {
        crate::pgn::builder::read_games(pgn.as_bytes())
            .remove(0)
            .game
    }

    fn mv(pos: &Position, text: &str) -> Move {
        crate::notation::read_move(text, pos, crate::notation::Lang::english())
            .unwrap()
            .0
    }

    #[test]
    fn a_game_guessed_as_white() {
        let g = game(
            "1. e4 { [%eval 0.3] } ( 1. d4 { [%eval 0.25] } ) ( 1. h4 { [%eval -0.5] } ) 1... e5 \
             2. Nf3 Nc6 3. Bb5 a6 *\n",
        );
        let mut s = Guess::new(&g, NodeId::ROOT, Color::White);
        assert!(s.waiting());
        let pos = *s.position().unwrap();
        // d4 is as good by the annotations; h4 is not; the first answer is scored.
        let (v, scored) = s.judge(mv(&pos, "d4"), None).unwrap();
        assert!(matches!(v, GuessVerdict::AsGood { .. }) && scored, "{v:?}");
        let (v, scored) = s.judge(mv(&pos, "h4"), None).unwrap();
        assert!(matches!(v, GuessVerdict::Wrong { lost: Some(l) } if l > 2.0) && !scored);
        assert_eq!(s.advance().unwrap().1, "e4");
        // Black's reply is shown, not guessed.
        assert!(!s.waiting());
        assert!(s.their_move().is_some());
        s.advance();
        let pos = *s.position().unwrap();
        assert_eq!(
            s.judge(mv(&pos, "Nc3"), None).unwrap().0,
            GuessVerdict::Wrong { lost: None }
        );
        // An engine's scores judge any move.
        s.advance();
        s.advance();
        let pos = *s.position().unwrap();
        let (v, _) = s
            .judge(mv(&pos, "Bc4"), Some((Score::Pawns(40), Score::Pawns(35))))
            .unwrap();
        assert!(v.right());
        // Revealed without a guess: wrong.
        s.advance();
        s.advance();
        assert!(s.finished());
        assert_eq!(
            s.tally,
            Tally {
                game: 0,
                good: 2,
                wrong: 1
            }
        );
        assert_eq!(
            s.tally.summary(),
            "2 of 3 (66%): 0 the game's move, 2 as good, 1 wrong"
        );
    }

    #[test]
    fn starts_from_a_move_and_guesses_black() {
        let g = game("1. e4 e5 2. Nf3 Nc6 *\n");
        let first = g.mainline()[0];
        let mut s = Guess::new(&g, first, Color::Black);
        assert_eq!(s.progress(), (0, 3));
        let pos = *s.position().unwrap();
        assert_eq!(
            s.judge(mv(&pos, "e5"), None).unwrap().0,
            GuessVerdict::GameMove
        );
        s.advance();
        assert_eq!(
            s.their_move(),
            Some(mv(&g.position_at(g.mainline()[1]), "Nf3"))
        );
    }
}
