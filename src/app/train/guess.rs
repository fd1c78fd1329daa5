//! Guess the move: the session over a game's moves, its answers and reveals.

use chess::Color;

use super::{points, Kind};
use crate::app::{App, Effect};
use crate::game::annotation::Score;
use crate::game::{Game, NodeId};
use crate::position::{color_name, Move};
use crate::study::train::{uci, Guess, GuessVerdict};

impl App {
    /// `:train guess [white|black]`: guess `side`'s moves of the game on the screen
    /// (by default the side to move), from the current move when it is inside the
    /// main line, else from the start.
    pub fn start_guess(&mut self, side: Option<Color>) -> Effect {
        if self.training() {
            self.refuse("training already (:train stop ends it)");
            return Effect::None;
        }
        if self.busy_annotating() {
            return Effect::None;
        }
        let line = self.game.mainline();
        let end = line.last().copied().unwrap_or(NodeId::ROOT);
        let from = if self.cursor != end && line.contains(&self.cursor) {
            self.cursor
        } else {
            NodeId::ROOT
        };
        let side = side.unwrap_or_else(|| self.game.position_at(from).side_to_move());
        let guess = Guess::new(&self.game, from, side);
        if guess.finished() {
            self.refuse("no moves to guess: open a game with moves (its main line is guessed)");
            return Effect::None;
        }
        let mut shown = Game::new(self.game.start);
        shown.tags = self.game.tags.clone();
        // The result would give the end away under the moves shown (the game set
        // aside keeps it).
        shown.set_tag("Result", "*");
        let mut at = NodeId::ROOT;
        if from != NodeId::ROOT {
            for &id in &line {
                let before = shown.position_at(at);
                at = shown.add_move(at, self.game.node(id).mv, &before);
                if id == from {
                    break;
                }
            }
        }
        self.begin(Kind::Guess(guess), shown, side == Color::Black);
        self.catch_up();
        if self.training() {
            self.inform(format!(
                "guess the move as {}: type each of {}'s moves (any notation); {} shows it",
                color_name(side),
                color_name(side),
                self.key_for("train-reveal", ":train reveal")
            ));
        }
        Effect::None
    }

    /// Plays the other side's moves of a guessed game up to the next hidden one, and
    /// ends the session at the end of the game.
    pub(super) fn catch_up(&mut self) {
        loop {
            let Some(Kind::Guess(guess)) = self.train.session.as_deref().map(|s| &s.kind) else {
                return;
            };
            if guess.finished() {
                let summary = guess.tally.summary();
                self.end_training();
                self.inform(format!("end of the game: {summary}"));
                return;
            }
            if guess.waiting() {
                return;
            }
            self.reveal_next();
        }
    }

    /// Shows the guessed game's next move on the board.
    pub(super) fn reveal_next(&mut self) {
        let Some(Kind::Guess(guess)) = self.train.session.as_deref_mut().map(|s| &mut s.kind)
        else {
            return;
        };
        if let Some((mv, _)) = guess.advance() {
            self.append(mv);
        }
    }

    pub(super) fn answer_guess(&mut self, mv: Move, san: &str) -> Effect {
        let Some(Kind::Guess(guess)) = self.train.session.as_deref().map(|s| &s.kind) else {
            return Effect::None;
        };
        let needs_engine = guess.hidden().is_some() && guess.needs_engine(mv);
        if let (Some(engine), Some(hidden)) = (&self.train.engine, guess.hidden()) {
            if needs_engine {
                let pos = self.game.position_at(self.cursor);
                let effect = Effect::Judge {
                    engine: engine.clone(),
                    fen: pos.fen(),
                    moves: vec![uci(hidden), uci(mv)],
                    best: false,
                };
                self.ask_engine(mv, san);
                return effect;
            }
        }
        self.finish_guess(mv, san, None);
        // Judged wrong for want of the engine that would have compared it: said, so that a
        // good move is not taken for a bad one unawares.
        if let Some(missing) = self.train.missing_engine.as_ref().filter(|_| needs_engine) {
            if self.message.error {
                let text = format!(
                    "{} (no engine compared it: {} was not found; see [engine] path)",
                    self.message.text,
                    missing.display()
                );
                self.refuse(text);
            }
        }
        Effect::None
    }

    pub(super) fn finish_guess(&mut self, mv: Move, san: &str, engine: Option<(Score, Score)>) {
        let Some(Kind::Guess(guess)) = self.train.session.as_deref_mut().map(|s| &mut s.kind)
        else {
            return;
        };
        let hidden = guess.hidden_san().unwrap_or("").to_string();
        let Some((verdict, scored)) = guess.judge(mv, engine) else {
            return;
        };
        let late = if scored {
            ""
        } else {
            " (not scored: not the first try)"
        };
        match verdict {
            GuessVerdict::GameMove => {
                self.reveal_next();
                self.inform(format!("✓ {san}: the game's move{late}"));
            }
            GuessVerdict::AsGood { lost } => {
                self.reveal_next();
                let by = if lost <= 0.05 {
                    "no worse by the evaluation".to_string()
                } else {
                    format!("{} worse, within the margin", points(lost))
                };
                self.inform(format!(
                    "✓ {san} is as good as the game's {hidden} ({by}){late}"
                ));
            }
            GuessVerdict::Wrong { lost } => {
                let why = match lost {
                    Some(lost) => format!(", and {} worse", points(lost)),
                    None => String::new(),
                };
                self.refuse(format!(
                    "✗ {san} is not the game's move{why}{late}: try again, or {} shows it",
                    self.key_for("train-reveal", ":train reveal")
                ));
                return;
            }
        }
        self.catch_up();
    }
}
