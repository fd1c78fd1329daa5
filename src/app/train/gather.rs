//! A drill being gathered: the loop reads your games and, for those without
//! evaluations, has the engine find your mistakes, which can take minutes. The drill
//! does not wait for it: it starts with the first exercises found and the others
//! join it as the engine finds them; meanwhile the status line (before the drill)
//! or the training panel (during it) shows how far the engine is, and Esc (or
//! `:train stop`) stops it, keeping what was found (and what the engine analysed, for
//! next time).

use crate::app::{App, Done, Screen};
use crate::plural::count;
use crate::study::train::analyse::Progress;
use crate::study::train::{Exercise, NEW_PER_DRILL};

use super::Kind;

/// A drill being gathered, and how far the engine is (when it works).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Gathering {
    /// The engine's progress, once it reported.
    pub progress: Option<Progress>,
    /// New exercises found so far.
    pub found: usize,
    /// A drill started with the first exercises found: the next join it.
    pub started: bool,
    /// That drill has all the new exercises it takes: only one of a newer game may
    /// still join it, in the place of one of an older game not shown yet (the engine
    /// goes on for the next drill).
    pub full: bool,
    /// Exercises reported while the drill could not start (`:annotate` at work on
    /// the game): they start it with the next; and how many of them are due.
    held: Vec<Exercise>,
    held_due: usize,
    /// Your mistakes are not looked for, for want of your name: the drill's summary
    /// says so (else the hint F7 gave is gone once the due exercises come).
    pub no_name: bool,
}

/// What a drill gathered without your name says of the mistakes it did not look for.
const NO_NAME: &str = "; your mistakes were not looked for: set [training] name in the \
     configuration, as your games' White and Black tags write it";

/// `done` with [`NO_NAME`] after what it says.
fn without_name(done: Done) -> Done {
    match done {
        Done::Drill {
            exercises,
            due,
            note,
            record,
        } => Done::Drill {
            exercises,
            due,
            note: format!("{note}{NO_NAME}"),
            record,
        },
        Done::Notice { text, error } => Done::Notice {
            text: format!("{text}{NO_NAME}"),
            error,
        },
        other => other,
    }
}

impl Gathering {
    /// The status line's text.
    pub fn text(&self) -> String {
        let Some(p) = self.progress else {
            return "looking for your mistakes… (Esc stops)".into();
        };
        // The count and the bar first: a narrow status line cuts the end.
        const WIDTH: usize = 10;
        let part = |width: usize| {
            (p.positions_done * width)
                .checked_div(p.positions)
                .unwrap_or(0)
                .min(width)
        };
        format!(
            "finding your mistakes: {} of {} games {}{} {}%, {} found (Esc stops; finished \
             games are kept)",
            p.games_done,
            p.games,
            "█".repeat(part(WIDTH)),
            "░".repeat(WIDTH - part(WIDTH)),
            part(100),
            self.found
        )
    }

    /// The training panel's line while the drill's exercises are still being found.
    pub fn panel_line(&self) -> String {
        let next_time = if self.full { " for next time" } else { "" };
        match self.progress {
            Some(p) => format!(
                "engine{next_time}: {} of {} games analysed",
                p.games_done, p.games
            ),
            None => format!("engine{next_time}: starting"),
        }
    }

    /// `3 more games` being analysed.
    pub fn games_left(&self) -> String {
        match self.progress {
            Some(p) => count(
                p.games.saturating_sub(p.games_done),
                "more game",
                "more games",
            ),
            None => "your other games".into(),
        }
    }

    /// More exercises may join the drill under way.
    pub fn more_to_come(&self) -> bool {
        self.started && !self.full
    }
}

impl App {
    /// The engine's progress in the games a drill looks through.
    pub(in crate::app) fn gather_progress(&mut self, progress: Progress) {
        let training = self.training();
        if let Some(g) = &mut self.train.gathering {
            g.progress = Some(progress);
            // While training, the panel shows it: the status line is the answers'.
            if !training {
                let text = g.text();
                self.inform(text);
            }
        }
    }

    /// Exercises found while the engine works on: the first start the drill, the
    /// next join it (and show at once when the drill was waiting for them).
    pub(in crate::app) fn found(
        &mut self,
        exercises: Vec<Exercise>,
        due: usize,
        record: bool,
        full: bool,
    ) {
        // Stopped meanwhile: not wanted.
        let Some(g) = &mut self.train.gathering else {
            return;
        };
        g.full = full;
        g.found += exercises.len() - due.min(exercises.len());
        if !g.started {
            // The held ones first: the due ones are among them.
            let due = std::mem::take(&mut g.held_due) + due;
            let mut exercises = exercises;
            if !g.held.is_empty() {
                let mut held = std::mem::take(&mut g.held);
                held.extend(exercises);
                exercises = held;
            }
            let new = exercises.len() - due.min(exercises.len());
            let due = match due {
                0 => String::new(),
                n => format!("{} due, ", count(n, "exercise", "exercises")),
            };
            // Short: the first exercise's question follows it on the status line, and the
            // panel says how far the engine is.
            let note =
                format!("drill: {due}{new} new found so far (the engine goes on; Esc stops it)");
            let due = exercises.len() - new;
            // Started before the drill shows its first exercise, which says that
            // more may come; not when the drill was refused.
            g.started = true;
            let kept = exercises.clone();
            self.start_drill(exercises, due, note, record);
            let drilling = self.drilling();
            if let Some(g) = &mut self.train.gathering {
                g.started = drilling;
                if !drilling {
                    g.held = kept;
                    g.held_due = due;
                }
            }
            return;
        }
        self.join(exercises);
    }

    /// Adds exercises found to the drill under way (shown at once when it was waiting
    /// for them). The drill was ended meanwhile: they wait in the cache for the next.
    fn join(&mut self, exercises: Vec<Exercise>) {
        let Some(Kind::Drill(drill)) = self.train.session.as_deref_mut().map(|s| &mut s.kind)
        else {
            return;
        };
        // Those it has (the end of the gathering brings them all again) are passed over.
        let exercises: Vec<Exercise> = exercises
            .into_iter()
            .filter(|e| !drill.exercises.iter().any(|x| x.key() == e.key()))
            .collect();
        if exercises.is_empty() {
            return;
        }
        // Each goes among those not shown yet, after those of newer games (and of its own
        // game found before it): the order the engines finish in is not the games'.
        let unshown = (drill.at + 1).max(drill.due);
        for e in exercises {
            let at = unshown
                + drill.exercises[unshown.min(drill.exercises.len())..]
                    .partition_point(|x| x.newer_or_same(&e));
            drill.exercises.insert(at, e);
        }
        // Over the limit of new exercises, those of the oldest games not shown yet make
        // way (as the gathering's own limit does): they wait for the next drill.
        while drill.exercises.len() - drill.due.min(drill.exercises.len()) > NEW_PER_DRILL
            && drill.exercises.len() > unshown
        {
            drill.exercises.pop();
        }
        // (All may have made way: then it goes on waiting.)
        if drill.waiting && drill.exercises.len() > drill.at + 1 {
            drill.waiting = false;
            drill.at += 1;
            drill.done = false;
            drill.graded = None;
            self.show_exercise();
            let text = std::mem::take(&mut self.message.text);
            self.inform(format!("found another: {text}"));
        }
    }

    /// The end of gathering a drill: the drill when none was started with what was
    /// found; else the exercises it has not had yet join it, and what was found is
    /// said (at once when the drill was waiting for more and none came, else when it
    /// ends).
    pub(in crate::app) fn gathered(&mut self, done: Done) {
        // Stopped meanwhile: what it found is not wanted.
        let Some(g) = self.train.gathering.take() else {
            return;
        };
        let done = if g.no_name { without_name(done) } else { done };
        if !g.started {
            self.done(done);
            return;
        }
        let (note, rest) = match done {
            // Those it has not had yet (`join` passes over the others).
            Done::Drill {
                note, exercises, ..
            } => (note, exercises),
            Done::Notice { text, .. } => (text, Vec::new()),
            _ => (String::new(), Vec::new()),
        };
        if !self.drilling() {
            self.inform(note);
            return;
        }
        self.join(rest);
        if let Some(Kind::Drill(drill)) = self.train.session.as_deref_mut().map(|s| &mut s.kind) {
            drill.note = Some(note);
            if drill.waiting {
                self.end_drill("");
            }
        }
    }

    /// Refuses a second drill while one is gathered; true when it refused.
    pub(in crate::app) fn busy_gathering(&mut self) -> bool {
        let Some(g) = &self.train.gathering else {
            return false;
        };
        let text = format!("already {}", g.text());
        self.refuse(text);
        true
    }

    /// Stops gathering a drill (the loop drops the engine's work); true when one was.
    /// The drill it started goes on with the exercises found (or ends, when it was
    /// waiting for more).
    pub fn stop_gathering(&mut self) -> bool {
        let Some(g) = self.train.gathering.take() else {
            return false;
        };
        let stopped = "stopped looking for your mistakes: the games the engine finished are kept for next time";
        match self.train.session.as_deref().map(|s| &s.kind) {
            Some(Kind::Drill(drill)) if g.started && drill.waiting => {
                self.end_drill(&format!("{stopped}; "));
            }
            Some(Kind::Drill(drill)) if g.started => {
                let text = format!(
                    "{stopped}; the drill goes on with the {} found",
                    count(drill.exercises.len(), "exercise", "exercises")
                );
                self.inform(text);
            }
            _ => self.inform(stopped),
        }
        true
    }

    /// Esc stops gathering a drill when it has nothing else to do: an empty entry
    /// line on the game screen, no filter on the list. True when it did.
    pub(in crate::app) fn esc_stops_gathering(&mut self) -> bool {
        if self.train.gathering.is_none() {
            return false;
        }
        let idle = match self.screen {
            Screen::List => self
                .list()
                .is_some_and(|l| !l.filtering && l.filter.is_empty()),
            _ => self.entry.is_empty(),
        };
        idle && self.stop_gathering()
    }

    /// True while a drill is under way.
    pub(in crate::app) fn drilling(&self) -> bool {
        matches!(
            self.train.session.as_deref().map(|s| &s.kind),
            Some(Kind::Drill(_))
        )
    }
}
