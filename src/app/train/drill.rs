//! The drill of your mistakes: the exercises one after the other, their answers
//! (judged by the annotations or the engine), the answers shown, and the drill
//! asked of the loop.

use std::path::PathBuf;

use chess::Color;

use super::gather::Gathering;
use super::{points, Drill, Kind};
use crate::app::{App, Effect, Screen};
use crate::game::{Game, NodeId};
use crate::position::{color_name, Move};
use crate::study::train::exercise::Verdict;
use crate::study::train::mistakes::DEFAULT_LAST;
use crate::study::train::{uci, Exercise, NEW_PER_DRILL};

impl App {
    /// A drill over `exercises` (the first `due` of them from the deck).
    pub(in crate::app) fn start_drill(
        &mut self,
        exercises: Vec<Exercise>,
        due: usize,
        note: String,
        record: bool,
    ) {
        if exercises.is_empty() {
            self.inform(note);
            return;
        }
        if self.busy_annotating() {
            return;
        }
        if let Some(session) = self.train.session.take() {
            // A drill asked for again replaces the one under way.
            self.unstash(session.stash);
        }
        // The new ones newest game first (stable: a game's own in the order of its moves).
        let mut exercises = exercises;
        if let Some(new) = exercises.get_mut(due..) {
            new.sort_by_key(|e| e.recency.unwrap_or(u32::MAX));
        }
        exercises.truncate(due.saturating_add(NEW_PER_DRILL));
        let drill = Drill {
            exercises,
            due,
            at: 0,
            graded: None,
            done: false,
            found: 0,
            missed: 0,
            dropped: 0,
            record,
            waiting: false,
            note: None,
        };
        self.begin(Kind::Drill(drill), Game::default(), false);
        self.screen = Screen::Game;
        self.show_exercise();
        let first = std::mem::take(&mut self.message.text);
        self.inform(format!("{note} — {first}"));
    }

    pub(super) fn answer_drill(&mut self, mv: Move, san: &str) -> Effect {
        let Some(Kind::Drill(drill)) = self.train.session.as_deref_mut().map(|s| &mut s.kind)
        else {
            return Effect::None;
        };
        let exercise = &drill.exercises[drill.at];
        let verdict = exercise.judge(mv, None);
        // A move no annotation judges: the engine scores it against its own best play
        // in the position (the same engine's view of both, as lichess's margin wants).
        if let (Some(engine), Verdict::Wrong { lost: None }) = (&self.train.engine, &verdict) {
            let effect = Effect::Judge {
                engine: engine.clone(),
                fen: exercise.fen.clone(),
                moves: vec![uci(mv)],
                best: true,
            };
            self.ask_engine(mv, san);
            return effect;
        }
        self.finish_drill(mv, san, verdict)
    }

    pub(super) fn finish_drill(&mut self, mv: Move, san: &str, verdict: Verdict) -> Effect {
        let Some(Kind::Drill(drill)) = self.train.session.as_deref_mut().map(|s| &mut s.kind)
        else {
            return Effect::None;
        };
        let exercise = drill.exercises[drill.at].clone();
        let passed = verdict.passed();
        let effect = grade(drill, &exercise, passed);
        let next = self.key_for("train-reveal", ":train reveal");
        match verdict {
            Verdict::Best | Verdict::WithinMargin { .. } => {
                if let Some(Kind::Drill(d)) = self.train.session.as_deref_mut().map(|s| &mut s.kind)
                {
                    d.done = true;
                }
                self.append(mv);
                let how = match verdict {
                    Verdict::WithinMargin { lost } => {
                        format!("within lichess's margin of the best ({})", points(lost))
                    }
                    _ => "the best move known".to_string(),
                };
                self.inform(format!("✓ {san}: {how}; {next}: next"));
            }
            Verdict::Played => self.refuse(format!(
                "✗ {san} is the move played in the game, which lost {}: try again, or {next} shows the answer",
                points(exercise.lost)
            )),
            Verdict::Wrong { lost } => self.refuse(format!(
                "✗ {san} {}: try again, or {next} shows the answer",
                match lost {
                    Some(lost) => format!("loses {}", points(lost)),
                    None => "is not known to be better (no evaluation of it)".to_string(),
                }
            )),
        }
        effect
    }

    /// The engine's best move for the exercise on the board (or why it has none):
    /// shown as its answer.
    pub(in crate::app) fn solved(&mut self, best: Result<String, String>) -> Effect {
        if !std::mem::take(&mut self.train.solving) {
            return Effect::None;
        }
        let pos = self.training_position();
        let best = match best {
            Ok(uci) => crate::study::train::from_uci(&uci, &pos),
            Err(why) => {
                let effect = self.show_answer(None);
                self.refuse(format!(
                    "the engine could not find the best move: {why}; {}",
                    self.message.text
                ));
                return effect;
            }
        };
        self.show_answer(best)
    }

    /// Shows the answer to the exercise on the board (`best`, when known), which
    /// counts as a miss when it was not answered.
    pub(super) fn show_answer(&mut self, best: Option<Move>) -> Effect {
        let next_key = self.key_for("train-reveal", ":train reveal");
        let Some(Kind::Drill(drill)) = self.train.session.as_deref_mut().map(|s| &mut s.kind)
        else {
            return Effect::None;
        };
        let exercise = drill.exercises[drill.at].clone();
        // The engine finds the game's own move best: by its lights this was no mistake,
        // and the exercise leaves the deck instead of coming back as one missed.
        let no_mistake = best.is_some_and(|mv| crate::study::train::uci(mv) == exercise.played);
        let record = drill.record;
        let effect = if no_mistake {
            drop_exercise(drill, &exercise)
        } else {
            grade(drill, &exercise, false)
        };
        drill.done = true;
        let pos = self.training_position();
        {
            {
                match best {
                    // The annotations that made it a mistake and this engine disagree:
                    // saying "the best move known: Bxf7+ (the game's Bxf7+ lost …)"
                    // would read as nonsense.
                    Some(mv) if crate::study::train::uci(mv) == exercise.played => {
                        let san = self.san_in(&pos, mv);
                        self.append(mv);
                        let deck = if record { ", so it leaves your deck" } else { "" };
                        self.inform(format!(
                            "the engine's best move here is the game's own {san}: it does not \
                             find the {} the annotations say it lost{deck}; {next_key}: next",
                            points(exercise.lost)
                        ));
                    }
                    Some(mv) => {
                        let san = self.san_in(&pos, mv);
                        self.append(mv);
                        self.inform(format!(
                            "the best move known: {san} (the game's {} lost {}); {next_key}: next",
                            exercise.played_san(),
                            points(exercise.lost)
                        ));
                    }
                    None => self.inform(format!(
                        "no better move is known here (an engine finds one); the game's {} lost {}; {next_key}: next",
                        exercise.played_san(),
                        points(exercise.lost)
                    )),
                }
                effect
            }
        }
    }

    /// Shows the drill's exercise at its place.
    pub(super) fn show_exercise(&mut self) {
        let Some(Kind::Drill(drill)) = self.train.session.as_deref().map(|s| &s.kind) else {
            return;
        };
        let exercise = &drill.exercises[drill.at];
        let Some(pos) = exercise.position() else {
            return;
        };
        // The game's moves up to the position, for the context a player wants (the
        // mistake and what followed are not there); the position alone when they are
        // not known (an exercise recorded before they were kept).
        let mut game = match exercise.way_there() {
            Some((start, moves)) => {
                let mut game = Game::new(start);
                let mut at = NodeId::ROOT;
                for mv in moves {
                    let before = game.position_at(at);
                    at = game.add_move(at, mv, &before);
                }
                game
            }
            None => Game::new(pos),
        };
        game.set_tag("Event", &exercise.source);
        let side = pos.side_to_move();
        let more = self.train.gathering.as_ref();
        let text = format!(
            "exercise {} of {}{}: {} to play — find a better move than the game's (it lost {})",
            drill.at + 1,
            drill.exercises.len(),
            if more.is_some_and(|g| g.more_to_come()) {
                " so far"
            } else {
                ""
            },
            color_name(side),
            points(exercise.lost)
        );
        self.game = game;
        self.cursor = self.line_end(NodeId::ROOT);
        self.flipped = side == Color::Black;
        self.clear_line_history();
        self.inform(text);
    }

    /// Ends the drill with its score (after `before`), and what the search for its
    /// exercises found when it ended meanwhile.
    pub(super) fn end_drill(&mut self, before: &str) {
        let Some(Kind::Drill(drill)) = self.end_training().map(|s| s.kind) else {
            return;
        };
        let mut text = format!(
            "{before}drill done: {}; `scoresheet train` shows what is due",
            drill_summary(&drill)
        );
        if let Some(g) = &self.train.gathering {
            // The drill took all it takes; the engine goes on for the next one.
            text.push_str(&format!(
                "; the engine goes on with {} for next time (Esc stops it)",
                g.games_left()
            ));
        }
        if let Some(note) = drill.note {
            text.push_str(&format!(" — {note}"));
        }
        self.inform(text);
    }

    /// The file a drill reads new exercises from: the list's, else the game's.
    pub(in crate::app) fn training_file(&self) -> Option<PathBuf> {
        self.list
            .as_deref()
            .map(|l| l.path.clone())
            .or_else(|| self.file.clone())
    }

    /// F7 and `:train mistakes [FILE]`: a drill of the exercises due and of the
    /// mistakes in `file` (the open file by default) in your last
    /// [`DEFAULT_LAST`] games; while training, it stops.
    pub fn train_key(&mut self) -> Effect {
        if self.training() {
            return self.stop_training();
        }
        self.ask_drill(self.training_file(), Some(DEFAULT_LAST))
    }

    /// Asks the loop for a drill over the mistakes in the newest `last` of your games
    /// in `file` (all when `None`) and the due exercises.
    pub fn ask_drill(&mut self, file: Option<PathBuf>, last: Option<usize>) -> Effect {
        if self.busy_annotating() || self.busy_gathering() {
            return Effect::None;
        }
        let engine = self.train.engine.is_some();
        if file.is_some() && self.train.name.trim().is_empty() {
            self.refuse(
                "set your name in the configuration ([training] name = \"…\", as your games' \
                 White and Black tags write it) to find your mistakes; the exercises due are \
                 drilled without it",
            );
            let mut gathering = Gathering::default();
            gathering.no_name = true;
            self.train.gathering = Some(gathering);
            return Effect::Drill {
                file: None,
                name: String::new(),
                engine,
                last,
            };
        }
        if let Some(file) = &file {
            let games = match last {
                Some(n) => format!("the last {n} games of {}", self.train.name),
                None => format!("all the games of {}", self.train.name),
            };
            self.inform(format!(
                "looking for your mistakes in {games} in {}… (Esc stops)",
                file.display()
            ));
        }
        self.train.gathering = Some(Gathering::default());
        Effect::Drill {
            file,
            name: self.train.name.clone(),
            engine,
            last,
        }
    }
}

/// Records the first answer to an exercise: the tally, and the deck (through the loop).
pub(super) fn grade(drill: &mut Drill, exercise: &Exercise, passed: bool) -> Effect {
    if drill.graded.is_some() {
        return Effect::None;
    }
    drill.graded = Some(passed);
    if passed {
        drill.found += 1;
    } else {
        drill.missed += 1;
    }
    if !drill.record {
        return Effect::None;
    }
    Effect::Review {
        exercise: Box::new(exercise.clone()),
        passed,
    }
}

/// Counts an exercise the engine finds no mistake in as neither found nor missed (an
/// answer already graded is taken back), and takes it out of the deck.
pub(super) fn drop_exercise(drill: &mut Drill, exercise: &Exercise) -> Effect {
    match drill.graded.replace(false) {
        Some(true) => drill.found -= 1,
        Some(false) => drill.missed -= 1,
        None => {}
    }
    drill.dropped += 1;
    if !drill.record {
        return Effect::None;
    }
    Effect::Forget {
        exercise: Box::new(exercise.clone()),
    }
}

/// `3 found, 2 missed of 5`.
pub(super) fn drill_summary(d: &Drill) -> String {
    let dropped = match d.dropped {
        0 => String::new(),
        n => format!(", {n} taken out (the engine finds no mistake there)"),
    };
    format!(
        "{} found, {} missed of {}{dropped} (the missed ones come back on a schedule)",
        d.found,
        d.missed,
        d.exercises.len()
    )
}
