//! When the loop draws a frame: only when what the screen shows may have changed since
//! the last one. Laying a screen out is the loop's dearest work (a game with a long
//! comment, a list of a million games), and an idle program should cost nothing.
//!
//! What the screen shows changes with the app's state, which changes only through
//! [`App::update`] (keys, pasted text, and what background work sends: rows of the list,
//! an engine's lines, a search's answer — all come in as updates), with the terminal's
//! size, with the keys ignored on a screen too small (it counts them), and by time alone
//! only through the move timer on the entry line, which shows seconds.

use crate::app::App;

/// What a frame shows, in the terms that decide whether another is needed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shown {
    /// The app's updates so far ([`App::changes`]).
    pub changes: u64,
    /// The terminal's size (columns, rows).
    pub size: (u16, u16),
    /// The seconds the running move timer shows, if it runs.
    pub timer: Option<u64>,
    /// Keys ignored while the screen was too small.
    pub ignored: usize,
}

impl Shown {
    /// What a frame drawn now would show.
    pub fn now(app: &App, size: (u16, u16), ignored: usize) -> Shown {
        Shown {
            changes: app.changes(),
            size,
            timer: app.timer.map(|t| t.elapsed().as_secs()),
            ignored,
        }
    }
}

/// The last frame drawn.
#[derive(Debug, Default)]
pub struct Redraw {
    last: Option<Shown>,
}

impl Redraw {
    /// Whether a frame showing `now` is needed: none was drawn yet, or something it
    /// shows differs from the last one.
    pub fn due(&self, now: &Shown) -> bool {
        self.last.as_ref() != Some(now)
    }

    /// A frame showing `now` was drawn.
    pub fn drawn(&mut self, now: Shown) {
        self.last = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Action, Done, Settings};
    use crate::game::Game;

    fn shown(app: &App) -> Shown {
        Shown::now(app, (80, 24), 0)
    }

    #[test]
    fn a_frame_is_drawn_first_then_only_when_something_shown_changed() {
        let mut app = App::new(Settings::default(), Game::default(), None);
        let mut redraw = Redraw::default();
        let first = shown(&app);
        assert!(redraw.due(&first), "the first frame");
        redraw.drawn(first);
        // Idle: nothing changed, however often the loop comes round.
        assert!(!redraw.due(&shown(&app)));
        assert!(!redraw.due(&shown(&app)));
        // A key that acts.
        app.update(Action::Type('e'));
        let typed = shown(&app);
        assert!(redraw.due(&typed), "a key");
        redraw.drawn(typed);
        assert!(!redraw.due(&shown(&app)));
        // Something a background task sent (here, a message of a job done).
        app.update(Done::notice("the games of the list are checked"));
        let told = shown(&app);
        assert!(redraw.due(&told), "a result from a background task");
        redraw.drawn(told);
        // The terminal resized.
        let resized = Shown::now(&app, (100, 30), 0);
        assert!(redraw.due(&resized), "a resize");
        redraw.drawn(resized);
        // A key ignored on a screen too small: the count on the screen grows.
        let ignored = Shown::now(&app, (100, 30), 1);
        assert!(redraw.due(&ignored), "a key ignored");
        redraw.drawn(ignored);
        assert!(!redraw.due(&Shown::now(&app, (100, 30), 1)));
    }

    #[test]
    fn a_running_move_timer_asks_for_a_frame_each_second() {
        let mut app = App::new(Settings::default(), Game::default(), None);
        let mut redraw = Redraw::default();
        let now = std::time::Instant::now();
        app.timer = Some(now);
        let at = |secs: u64| Shown {
            timer: Some(secs),
            ..shown(&app)
        };
        redraw.drawn(at(0));
        assert!(!redraw.due(&at(0)), "the same second shown");
        assert!(redraw.due(&at(1)), "the next second");
        // The timer is read from the app: running, it says how long it ran.
        assert_eq!(shown(&app).timer, Some(now.elapsed().as_secs()));
        app.timer = None;
        assert_eq!(shown(&app).timer, None);
    }
}
