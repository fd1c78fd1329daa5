//! A drill being gathered: the loop reads your games and, for those without
//! evaluations, has the engine find your mistakes, which can take minutes; the
//! status line shows how far it is, and Esc (or `:train stop`) stops it (what the
//! engine analysed by then is kept for next time).

use crate::app::{App, Screen};
use crate::study::train::analyse::Progress;

/// A drill being gathered, and how far the engine is (when it works).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Gathering {
    /// The engine's progress, once it reported.
    pub progress: Option<Progress>,
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
            "finding your mistakes: {} of {} games {}{} {}% (Esc stops; finished games are kept)",
            p.games_done,
            p.games,
            "█".repeat(part(WIDTH)),
            "░".repeat(WIDTH - part(WIDTH)),
            part(100)
        )
    }
}

impl App {
    /// The engine's progress in the games a drill looks through.
    pub(in crate::app) fn gather_progress(&mut self, progress: Progress) {
        if let Some(g) = &mut self.train.gathering {
            g.progress = Some(progress);
            let text = g.text();
            self.inform(text);
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
    pub fn stop_gathering(&mut self) -> bool {
        if self.train.gathering.take().is_none() {
            return false;
        }
        self.inform("stopped looking for your mistakes: the games the engine finished are kept for next time");
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
}
