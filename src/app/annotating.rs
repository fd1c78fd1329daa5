//! `:annotate` on the game screen: the engine annotates the open game in the
//! background as `scoresheet annotate` does (an `[%eval]` after every main-line move,
//! `?!` `?` `??` by lichess's rules, the best line after each mistake, accuracy tags),
//! with its progress on the status line; `:annotate stop` or Esc cancels. The result is
//! one change of the game, undone by one Ctrl-Z. The loop runs the engine
//! (`tui::annotator`) while [`App::annotating`] says one is wanted, and stops it when
//! it no longer is.

use chess::ChessMove;

use super::{App, Effect};
use crate::engine::Limit;
use crate::study::annotate::{self, main_moves, PositionEval};

/// How long the engine thinks about each position when `:annotate` names no limit:
/// as long as `scoresheet annotate` does (about a second a position on one core).
pub const DEFAULT_LIMIT: Limit = Limit::Nodes(annotate::DEFAULT_NODES);

/// An annotation under way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotating {
    /// The main line's moves when it began: what the engine found fits the game only
    /// while they are the same.
    moves: Vec<ChessMove>,
    /// The search for each position.
    pub limit: Limit,
    /// Positions done.
    pub done: usize,
    /// Positions to do: the start and the position after every main-line move.
    pub total: usize,
}

impl Annotating {
    /// The status line's text: how far it is, as a count and a bar.
    pub fn progress(&self) -> String {
        const WIDTH: usize = 20;
        let filled = (self.done * WIDTH)
            .checked_div(self.total)
            .unwrap_or(0)
            .min(WIDTH);
        format!(
            "annotating: {} of {} positions {}{} (Esc or :annotate stop cancels)",
            self.done,
            self.total,
            "█".repeat(filled),
            "░".repeat(WIDTH - filled)
        )
    }
}

/// Reads `:annotate`'s limit: `depth N`, `nodes N` or `movetime MS` (the words of
/// `scoresheet annotate`'s options), or nothing for [`DEFAULT_LIMIT`].
pub fn parse_limit(text: &str) -> Result<Limit, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |word: &str| -> Result<u64, String> {
        match word.parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("\"{word}\" is not a number above 0")),
        }
    };
    match words[..] {
        [] => Ok(DEFAULT_LIMIT),
        ["depth", n] => Ok(Limit::Depth(
            u32::try_from(number(n)?).map_err(|_| format!("depth {n} is too deep"))?,
        )),
        ["nodes", n] => Ok(Limit::Nodes(number(n)?)),
        ["movetime", n] => Ok(Limit::MoveTime(std::time::Duration::from_millis(number(
            n,
        )?))),
        _ => Err(format!(
            "\"{text}\": give depth N, nodes N or movetime MS (or nothing: 300,000 nodes a \
             position, as scoresheet annotate); :annotate stop cancels"
        )),
    }
}

impl App {
    /// `:annotate [LIMIT]` and `:annotate stop`.
    pub(super) fn annotate_command(&mut self, rest: &str) -> Effect {
        let rest = rest.trim();
        if rest == "stop" {
            self.stop_annotating();
            return Effect::None;
        }
        if let Some(a) = &self.annotating {
            let text = format!("{}; :annotate stop first", a.progress());
            self.refuse(text);
            return Effect::None;
        }
        let limit = match parse_limit(rest) {
            Ok(limit) => limit,
            Err(why) => {
                self.refuse(format!(":annotate: {why}"));
                return Effect::None;
            }
        };
        let moves = main_moves(&self.game);
        if moves.is_empty() {
            self.refuse(":annotate: the game has no moves to annotate");
            return Effect::None;
        }
        let annotating = Annotating {
            total: moves.len() + 1,
            moves,
            limit,
            done: 0,
        };
        self.inform(annotating.progress());
        self.annotating = Some(annotating);
        Effect::None
    }

    /// Cancels the annotation under way (the game stays as it is); true when there
    /// was one.
    pub(super) fn stop_annotating(&mut self) -> bool {
        if self.annotating.take().is_some() {
            self.inform("annotation stopped: the game is as it was");
            true
        } else {
            self.refuse("nothing is being annotated (:annotate starts)");
            false
        }
    }

    /// The engine has done `done` of `total` positions.
    pub(super) fn annotate_progress(&mut self, done: usize, total: usize) {
        if let Some(a) = &mut self.annotating {
            (a.done, a.total) = (done, total);
            let text = a.progress();
            self.inform(text);
        }
    }

    /// The engine has scored every position: written into the game as one change,
    /// when its main line is still the one the engine was given.
    pub(super) fn annotated(&mut self, evals: &[PositionEval]) {
        let Some(a) = self.annotating.take() else {
            // Stopped meanwhile: nothing is written.
            return;
        };
        if main_moves(&self.game) != a.moves {
            self.refuse(
                "the main line changed while the engine worked, so nothing was written: \
                 :annotate again",
            );
            return;
        }
        self.recorded(|app| {
            let report = annotate::apply(&mut app.game, evals);
            app.change_label = Some("annotation".into());
            app.changed();
            app.inform(format!(
                "annotated: White {}; Black {} (Ctrl-Z undoes it)",
                annotate::side_summary(&report.sides[0]),
                annotate::side_summary(&report.sides[1])
            ));
            Effect::None
        });
        self.refresh_feedback();
    }

    /// The engine could not annotate: why, and what to do.
    pub(super) fn annotate_failed(&mut self, why: &str) {
        if self.annotating.take().is_some() {
            self.refuse(format!(
                "annotation stopped, nothing was written: {why} (the engine is named by \
                 [engine] path in the configuration)"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Action, Done, Settings};
    use crate::engine::Score;
    use crate::game::Game;

    fn typed(app: &mut App, text: &str) {
        for c in text.chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::PlayEntry);
    }

    /// The recorder after 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7#.
    fn mated() -> App {
        let mut app = App::new(Settings::default(), Game::default(), None);
        typed(&mut app, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
        assert_eq!(main_moves(&app.game).len(), 7);
        app
    }

    /// What an engine would say of each of its positions: 2.Qh5 an inaccuracy,
    /// 3...Nf6 a blunder into mate.
    fn scores(app: &App) -> Vec<PositionEval> {
        let table = [
            Score::Cp(20),
            Score::Cp(30),
            Score::Cp(25),
            Score::Cp(-60),
            Score::Cp(-50),
            Score::Cp(-40),
            Score::Mate(1),
            Score::MateGiven,
        ];
        // The best lines: 2...g6 after 2.Qh5 (kept as the better line where Black
        // blundered), none elsewhere (so no move counts as the engine's own).
        let start = app.game.start;
        let moves = main_moves(&app.game);
        let after_qh5 = moves[..3].iter().fold(start, |p, &m| p.play(m));
        let g6 = crate::engine::parse_uci_move(&after_qh5, "g7g6").expect("g6 is legal");
        table
            .iter()
            .enumerate()
            .map(|(i, &score)| PositionEval {
                score,
                pv: if i == 5 { vec![g6] } else { Vec::new() },
            })
            .collect()
    }

    #[test]
    fn annotate_shows_progress_writes_the_result_as_one_change_and_undo_takes_it_back() {
        let mut app = mated();
        let before = app.game.clone();
        typed(&mut app, ":annotate nodes 1000");
        let a = app.annotating.clone().expect("annotating");
        assert_eq!((a.limit, a.total), (Limit::Nodes(1000), 8));
        app.update(Done::Annotating { done: 4, total: 8 });
        assert!(
            app.message.text.contains("4 of 8 positions"),
            "{}",
            app.message.text
        );
        // Moving about meanwhile is fine: the main line stays.
        app.update(Action::MoveBack);
        let evals = scores(&app);
        app.update(Done::Annotated(evals));
        assert!(app.annotating.is_none());
        assert!(
            app.message.text.starts_with("annotated: White"),
            "{}",
            app.message.text
        );
        assert!(app.unsaved);
        let pgn = crate::pgn::write_game_to_string(&app.game);
        assert!(pgn.contains("[%eval"), "{pgn}");
        assert!(pgn.contains("Nf6??") || pgn.contains("Nf6 $4"), "{pgn}");
        assert!(pgn.contains("[WhiteAccuracy "), "{pgn}");
        app.update(Action::Undo);
        assert_eq!(app.game, before);
    }

    #[test]
    fn a_main_line_changed_meanwhile_gets_nothing_written() {
        let mut app = mated();
        typed(&mut app, ":annotate");
        let evals = scores(&app);
        app.update(Action::TakeBack);
        app.update(Done::Annotated(evals));
        assert!(app.annotating.is_none());
        assert!(app.message.error);
        assert!(
            app.message.text.contains("main line changed"),
            "{}",
            app.message.text
        );
        assert!(!crate::pgn::write_game_to_string(&app.game).contains("[%eval"));
    }

    #[test]
    fn opening_another_game_stops_it_even_one_with_the_same_moves() {
        let mut app = mated();
        typed(&mut app, ":annotate");
        let evals = scores(&app);
        // The same game again, as a file holding it twice gives it (Alt-Down).
        let copy = app.game.clone();
        app.update(Done::Loaded {
            game: Box::new(copy),
            path: "twice.pgn".into(),
            number: 2,
            games: None,
        });
        assert!(app.annotating.is_none());
        assert!(
            app.message
                .text
                .ends_with(":annotate of the game before stopped"),
            "{}",
            app.message.text
        );
        app.update(Done::Annotated(evals));
        assert!(!crate::pgn::write_game_to_string(&app.game).contains("[%eval"));
        assert!(!app.unsaved);
    }

    #[test]
    fn esc_stops_it_and_a_late_result_is_dropped() {
        let mut app = mated();
        typed(&mut app, ":annotate depth 8");
        app.update(Action::Cancel);
        assert!(app.annotating.is_none());
        assert!(app.message.text.contains("annotation stopped"));
        let evals = scores(&app);
        app.update(Done::Annotated(evals));
        assert!(!crate::pgn::write_game_to_string(&app.game).contains("[%eval"));
        // An engine that fails says why, and what to do.
        typed(&mut app, ":annotate");
        app.update(Done::AnnotateFailed(
            "cannot run stockfish: not found".into(),
        ));
        assert!(app.message.error);
        assert!(app.message.text.contains("not found"));
        assert!(app.annotating.is_none());
    }

    #[test]
    fn a_game_without_moves_or_a_bad_limit_is_refused() {
        let mut app = App::new(Settings::default(), Game::default(), None);
        typed(&mut app, ":annotate");
        assert!(app.message.error && app.annotating.is_none());
        let mut app = mated();
        typed(&mut app, ":annotate quickly");
        assert!(app.message.text.contains("depth N"), "{}", app.message.text);
        assert!(app.annotating.is_none());
    }

    #[test]
    fn limits_read_as_the_batch_command_writes_them() {
        assert_eq!(parse_limit(""), Ok(DEFAULT_LIMIT));
        assert_eq!(parse_limit("depth 12"), Ok(Limit::Depth(12)));
        assert_eq!(parse_limit("nodes 100000"), Ok(Limit::Nodes(100_000)));
        assert_eq!(
            parse_limit(" movetime  250 "),
            Ok(Limit::MoveTime(std::time::Duration::from_millis(250)))
        );
        assert!(parse_limit("depth 0").unwrap_err().contains("\"0\""));
        assert!(parse_limit("depth x").is_err());
        assert!(parse_limit("fast").unwrap_err().contains("depth N"));
    }

    #[test]
    fn the_progress_bar_fills_with_the_positions_done() {
        let mut a = Annotating {
            moves: Vec::new(),
            limit: DEFAULT_LIMIT,
            done: 0,
            total: 40,
        };
        assert!(a.progress().contains("0 of 40 positions ░░░░"));
        a.done = 20;
        assert!(
            a.progress().contains("██████████░░░░░░░░░░"),
            "{}",
            a.progress()
        );
        a.done = 40;
        assert!(a.progress().contains(&"█".repeat(20)));
    }
}
