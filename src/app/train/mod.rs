//! Training on the game screen: guess the move (`:train guess white|black`) and
//! the drill of your mistakes (F7, `:train mistakes`, `scoresheet train FILE`).
//! The judging lives in `study::train`; here is the session: which move or
//! exercise is up, what the board shows, what was said.
//!
//! While training, the board shows a game of its own (the moves revealed so far,
//! or the exercise's position): the game that was on the screen is set aside
//! untouched and comes back when training ends. Nothing the training shows is
//! journaled or saved, and the keys that would edit or save a game are refused.
//!
//! Here: the session, setting the game aside and back, what works while training,
//! the entry line's answers, the engine's judgements, the reveal key and the
//! panel's lines; `guess` and `drill` hold what is particular to each.

mod drill;
mod gather;
mod guess;
#[cfg(test)]
mod stream_tests;

use std::path::PathBuf;

use super::{Action, App, Effect};
use crate::game::annotation::Score;
use crate::game::{Game, NodeId};
use crate::position::{color_name, Move, Position};
use crate::study::train::{Exercise, Guess};
use drill::drill_summary;

/// Training's part of the app: your name (from the configuration) and the session
/// under way, if any.
#[derive(Debug, Default)]
pub struct Trainer {
    /// Your name as your games' tags write it (`[training] name`).
    pub name: String,
    /// The session under way.
    pub session: Option<Box<Session>>,
    /// The engine that judges answers no annotation judges, when there is one.
    pub engine: Option<PathBuf>,
    /// The engine the configuration names, when it was not found: a guess it would have
    /// judged says so.
    pub missing_engine: Option<PathBuf>,
    /// The answer the engine is judging.
    pending: Option<Pending>,
    /// The engine looks for the best move of the exercise on the board.
    solving: bool,
    /// A drill is being gathered (your mistakes looked for, by the engine too).
    pub gathering: Option<gather::Gathering>,
}

/// An answer waiting for the engine's judgement.
#[derive(Debug)]
struct Pending {
    mv: Move,
    san: String,
}

/// A training session.
#[derive(Debug)]
pub struct Session {
    /// What is trained.
    pub kind: Kind,
    /// The game on the screen before, with where it was.
    stash: Stash,
}

/// What a session trains.
#[derive(Debug)]
pub enum Kind {
    /// Guessing the moves of a game.
    Guess(Guess),
    /// Exercises from your mistakes.
    Drill(Drill),
}

/// The exercises of a drill, and how they went.
#[derive(Debug)]
pub struct Drill {
    /// The exercises: those due first, then new ones.
    pub exercises: Vec<Exercise>,
    /// How many of them came from the deck (due).
    pub due: usize,
    /// The one on the board.
    pub at: usize,
    /// The one on the board was graded (its first answer, or shown): passed or not.
    pub graded: Option<bool>,
    /// It is done with: solved or shown; the next key goes on.
    pub done: bool,
    /// Found at the first try.
    pub found: u32,
    /// Missed.
    pub missed: u32,
    /// Taken out: the engine finds the game's own move best there.
    pub dropped: u32,
    /// Answers go into the deck.
    pub record: bool,
    /// All of them are done with, and more are being found: the next joins here.
    pub waiting: bool,
    /// What the search for them found, said when the drill ends (it ended while the
    /// drill went on).
    pub note: Option<String>,
}

#[derive(Debug)]
struct Stash {
    game: Game,
    cursor: NodeId,
    flipped: bool,
    /// The screen training started from: a drill begun on the list ends there.
    screen: super::Screen,
}

/// The actions that work while training: answering, moving through what is shown,
/// the views, help and leaving. The others would edit or save the training's game.
pub(super) const ALLOWED: &[Action] = &[
    Action::Help,
    Action::PlayEntry,
    Action::EraseChar,
    Action::ClearEntry,
    Action::Cancel,
    Action::HistoryPrev,
    Action::HistoryNext,
    Action::MoveBack,
    Action::MoveForward,
    Action::PageBack,
    Action::PageForward,
    Action::GoStart,
    Action::GoEnd,
    Action::FlipBoard,
    Action::NextView,
    Action::CopyFen,
    Action::Quit,
    Action::TrainReveal,
    Action::Train,
    Action::InsertMode,
    Action::CommandLine,
];

/// The commands that work while training.
const COMMANDS: &[&str] = &["train", "q", "quit", "help", "h", "flip", "view", "copy"];

impl App {
    /// True while a training session is under way.
    pub fn training(&self) -> bool {
        self.train.session.is_some()
    }

    /// Refuses an action that does not work while training; true when it did.
    pub(super) fn refused_while_training(&mut self, action: Action) -> bool {
        if !self.training() || matches!(action, Action::Type(_)) || ALLOWED.contains(&action) {
            return false;
        }
        self.refuse(format!(
            "not while training ({} or :train stop ends it)",
            self.key_for("train", ":train stop")
        ));
        true
    }

    /// Refuses a command that does not work while training; true when it did.
    pub(super) fn command_refused_while_training(&mut self, line: &str) -> bool {
        let name = line.split_whitespace().next().unwrap_or("");
        if !self.training() || COMMANDS.contains(&name.trim_end_matches('!')) {
            return false;
        }
        self.refuse(format!(
            ":{name} does not work while training (:train stop ends it)"
        ));
        true
    }

    /// A paste while training: one line goes on the entry line, to be answered with
    /// Enter; a game, a position or several lines would replace what is trained.
    pub(super) fn train_paste(&mut self, text: &str) {
        let line = text.trim();
        if line.contains(['\n', '\r']) {
            self.refuse("not while training: paste one move as an answer (:train stop ends it)");
        } else {
            self.entry.push_str(line);
        }
    }

    /// Refuses to start training while `:annotate` works on the game on the screen
    /// (its result is for that game); true when it refused.
    pub(super) fn busy_annotating(&mut self) -> bool {
        if self.annotating.is_none() {
            return false;
        }
        self.refuse("the engine is annotating this game: wait for it, or Esc stops it, then train");
        true
    }

    /// Sets the game on the screen aside and shows `shown` in its place.
    fn begin(&mut self, kind: Kind, shown: Game, flipped: bool) {
        let stash = Stash {
            game: std::mem::replace(&mut self.game, shown),
            cursor: self.cursor,
            flipped: self.flipped,
            screen: self.screen,
        };
        self.train.session = Some(Box::new(Session { kind, stash }));
        self.flipped = flipped;
        self.cursor = self.line_end(NodeId::ROOT);
        self.entry.clear();
        self.clear_line_history();
    }

    fn unstash(&mut self, stash: Stash) {
        self.game = stash.game;
        self.cursor = stash.cursor;
        self.flipped = stash.flipped;
        if stash.screen == super::Screen::List && self.list.is_some() {
            self.screen = super::Screen::List;
        }
        self.clear_line_history();
    }

    /// Ends the session, the game set aside back on the screen; returns the session.
    pub(super) fn end_training(&mut self) -> Option<Box<Session>> {
        let mut session = self.train.session.take()?;
        self.train.pending = None;
        self.train.solving = false;
        let stash = std::mem::replace(
            &mut session.stash,
            Stash {
                game: Game::default(),
                cursor: NodeId::ROOT,
                flipped: false,
                screen: super::Screen::Game,
            },
        );
        self.unstash(stash);
        self.entry.clear();
        Some(session)
    }

    /// `:train stop` and the train key while training: the score so far. A drill
    /// stopped stops the search for more of its exercises too.
    pub fn stop_training(&mut self) -> Effect {
        match self.end_training().map(|s| s.kind) {
            Some(Kind::Guess(g)) => {
                self.inform(format!("guess the move stopped: {}", g.tally.summary()))
            }
            Some(Kind::Drill(d)) => {
                let engine = match self.train.gathering.take_if(|g| g.started) {
                    Some(_) => "; the engine stopped too (the games it finished are kept)",
                    None => "",
                };
                self.inform(format!("drill stopped: {}{engine}", drill_summary(&d)))
            }
            None => self.inform("not training"),
        }
        Effect::None
    }

    /// Adds `mv` after the last move of the training's game and goes there.
    fn append(&mut self, mv: Move) {
        let end = self.line_end(NodeId::ROOT);
        let before = self.game.position_at(end);
        self.cursor = self.game.add_move(end, mv, &before);
    }

    /// The position an answer is for: after the last move shown.
    fn training_position(&mut self) -> Position {
        self.cursor = self.line_end(NodeId::ROOT);
        self.game.position_at(self.cursor)
    }

    /// Enter while training: the entry line's move is an answer (a `:` command runs).
    pub(super) fn train_entry(&mut self) -> Effect {
        let text = self.entry.trim().to_string();
        if text.is_empty() {
            return Effect::None;
        }
        if let Some(command) = text.strip_prefix(':') {
            self.entry.clear();
            if self.command_refused_while_training(command) {
                return Effect::None;
            }
            return self.run_command(command);
        }
        if let Some(Kind::Drill(d)) = self.train.session.as_deref().map(|s| &s.kind) {
            if d.done {
                self.refuse(format!(
                    "this one is done: {} goes on to the next",
                    self.key_for("train-reveal", ":train reveal")
                ));
                return Effect::None;
            }
        }
        if self.train.solving {
            self.refuse("the engine is looking for the best move: a moment");
            return Effect::None;
        }
        if let Some(pending) = &self.train.pending {
            self.refuse(format!(
                "the engine is still judging {}: a moment",
                pending.san
            ));
            return Effect::None;
        }
        let pos = self.training_position();
        let unnumbered = text.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let mv = match crate::notation::read_move(unnumbered.trim(), &pos, self.settings.input_lang)
        {
            Ok((mv, _)) => mv,
            Err(e) => {
                // The text stays on the line to be fixed.
                self.refuse(e.to_string());
                return Effect::None;
            }
        };
        self.entry.clear();
        let san = self.san_in(&pos, mv);
        match self.train.session.as_deref().map(|s| &s.kind) {
            Some(Kind::Guess(_)) => self.answer_guess(mv, &san),
            Some(Kind::Drill(_)) => self.answer_drill(mv, &san),
            None => Effect::None,
        }
    }

    fn san_in(&self, pos: &Position, mv: Move) -> String {
        crate::notation::format(
            pos,
            mv,
            crate::notation::Style::San,
            self.settings.display_lang,
        )
    }

    /// Says that the engine is asked about `san`, and waits for it.
    fn ask_engine(&mut self, mv: Move, san: &str) {
        self.train.pending = Some(Pending {
            mv,
            san: san.to_string(),
        });
        self.inform(format!("asking the engine about {san}…"));
    }

    /// The engine's scores after the moves it was asked about (or why it could not
    /// say): the answer waiting is judged with them.
    pub(super) fn judged(&mut self, scores: Result<Vec<Score>, String>) -> Effect {
        let Some(Pending { mv, san }) = self.train.pending.take() else {
            return Effect::None;
        };
        let scores = match scores {
            Ok(scores) => scores,
            Err(why) => {
                self.refuse(format!("the engine could not judge {san}: {why}"));
                Vec::new()
            }
        };
        let error = self.message.error.then(|| self.message.text.clone());
        let effect = match self.train.session.as_deref().map(|s| &s.kind) {
            Some(Kind::Guess(_)) => {
                let pair = match scores[..] {
                    [game, answer] => Some((game, answer)),
                    _ => None,
                };
                self.finish_guess(mv, &san, pair);
                Effect::None
            }
            Some(Kind::Drill(d)) => {
                let exercise = &d.exercises[d.at];
                let verdict = match scores[..] {
                    [best, after] => exercise.judge_by_engine(mv, best, after),
                    _ => exercise.judge(mv, None),
                };
                self.finish_drill(mv, &san, verdict)
            }
            None => Effect::None,
        };
        if let Some(error) = error {
            self.refuse(format!("{error}; {}", self.message.text));
        }
        effect
    }

    /// The reveal key: the hidden move (guessing), the answer or the next exercise
    /// (drill).
    pub fn train_reveal(&mut self) -> Effect {
        // An answer still with the engine is given up: its judgement, when it comes,
        // would be about a position no longer asked.
        self.train.pending = None;
        match self.train.session.as_deref_mut().map(|s| &mut s.kind) {
            None => {
                self.refuse(format!(
                    "not training: {} drills your mistakes, :train guess white|black guesses a game's moves",
                    self.key_for("train", ":train mistakes")
                ));
                Effect::None
            }
            Some(Kind::Guess(guess)) => {
                let hidden = guess.hidden_san().unwrap_or("").to_string();
                self.training_position();
                self.reveal_next();
                self.inform(format!("the game's move: {hidden}"));
                self.catch_up();
                Effect::None
            }
            Some(Kind::Drill(drill)) if drill.done => {
                let more = self.train.gathering.as_ref().filter(|g| g.more_to_come());
                if drill.at + 1 < drill.exercises.len() {
                    drill.at += 1;
                    drill.done = false;
                    drill.graded = None;
                    self.show_exercise();
                } else if more.is_some() {
                    // The end of the drill is not the end of the exercises: the
                    // engine may find more in the games it is still on. (How far it is,
                    // the panel says as it goes: a count here would stand still.)
                    drill.waiting = true;
                    self.inform(
                        "that was the last exercise found so far: the engine goes on (the \
                         panel says how far); the next shows here once found (Esc ends the drill)",
                    );
                } else {
                    self.end_drill("");
                }
                Effect::None
            }
            Some(Kind::Drill(drill)) => {
                let answer = drill.exercises[drill.at]
                    .answers
                    .first()
                    .map(|a| a.uci.clone());
                let pos = self.training_position();
                let best = answer.and_then(|a| crate::study::train::from_uci(&a, &pos));
                match (self.train.engine.clone(), best) {
                    _ if self.train.solving => {
                        self.inform("the engine is still looking for the best move: a moment");
                        Effect::None
                    }
                    (Some(engine), None) => {
                        self.train.solving = true;
                        self.inform("asking the engine for the best move…");
                        Effect::Solve {
                            engine,
                            fen: pos.fen(),
                        }
                    }
                    (_, best) => self.show_answer(best),
                }
            }
        }
    }

    /// The training panel's lines, for the screen.
    pub fn training_lines(&self) -> Vec<String> {
        let Some(session) = self.train.session.as_deref() else {
            return Vec::new();
        };
        let reveal = self.key_for("train-reveal", ":train reveal");
        match &session.kind {
            Kind::Guess(g) => {
                let (at, all) = g.progress();
                let t = g.tally;
                vec![
                    format!("Guess the move: {}", color_name(g.side())),
                    format!("half-move {} of {}", (at + 1).min(all), all),
                    format!("score {} of {}", t.game + t.good, t.asked()),
                    format!("the game's move {}", t.game),
                    format!("as good {}, wrong {}", t.good, t.wrong),
                    format!("{reveal}: show the move"),
                ]
            }
            Kind::Drill(d) => {
                let e = &d.exercises[d.at];
                let engine = self.train.gathering.as_ref().filter(|g| g.started);
                let so_far = if engine.is_some_and(|g| g.more_to_come()) {
                    " so far"
                } else {
                    ""
                };
                // The game and the move on lines of their own: a narrow panel cuts the
                // game's name, never the move.
                let (game, played) = match e.source.rsplit_once(", ") {
                    Some((game, played)) => (game.to_string(), played.to_string()),
                    None => (e.source.clone(), e.played_san()),
                };
                // The most useful first: a short panel shows the first lines.
                let mut lines = vec![
                    format!(
                        "Mistake {} of {}{so_far} ({})",
                        d.at + 1,
                        d.exercises.len(),
                        if d.at < d.due { "due" } else { "new" }
                    ),
                    format!("played: {played}"),
                    format!("found {}, missed {}", d.found, d.missed),
                ];
                lines.extend(engine.map(|g| g.panel_line()));
                lines.push(game);
                lines.push(format!(
                    "{reveal}: {}",
                    if d.waiting {
                        "wait for the next"
                    } else if d.done {
                        "next"
                    } else {
                        "show the answer"
                    }
                ));
                lines
            }
        }
    }

    /// Forgets the positions cached for the line played: the game changed under them.
    fn clear_line_history(&mut self) {
        self.line_history = None;
    }
}

/// `1.5 points` of win percentage.
fn points(lost: f64) -> String {
    let lost = (lost * 10.0).round() / 10.0;
    if (lost - 1.0).abs() < f64::EPSILON {
        "1 point".to_string()
    } else {
        format!("{lost} points")
    }
}
