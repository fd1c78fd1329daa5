//! The result of the game: what the rules say after a move (mate, stalemate,
//! repetition, fifty moves), setting it (with how the game ended), checking it
//! against the board (a mate decides the result by itself), taking it back with
//! the move that decided it, and asking before moves are played after it.

use super::entry::{self, Entry, Feedback};
use super::App;
use crate::game::NodeId;
use crate::position::{History, Position, Status};

/// How a game can end, as typed after the result (`:result 1-0 resign`): the
/// words, the Termination tag, and the note written after the last move (for a
/// decisive result, `{loser}` stands for the side that lost).
struct Way {
    words: &'static [&'static str],
    decisive: Option<bool>,
    termination: &'static str,
    note: Option<&'static str>,
}

const WAYS: &[Way] = &[
    Way {
        words: &["resign", "resigns", "resignation", "resigned"],
        decisive: Some(true),
        termination: "normal",
        note: Some("{loser} resigns"),
    },
    Way {
        words: &["time", "flag", "timeout", "time-forfeit"],
        decisive: Some(true),
        termination: "time forfeit",
        note: Some("{loser} lost on time"),
    },
    Way {
        words: &["time", "flag", "timeout", "time-forfeit"],
        decisive: Some(false),
        termination: "time forfeit",
        note: Some("drawn: time expired, no mating material"),
    },
    Way {
        words: &["agreement", "agreed", "draw"],
        decisive: Some(false),
        termination: "normal",
        note: Some("draw agreed"),
    },
    Way {
        words: &["repetition", "threefold"],
        decisive: Some(false),
        termination: "normal",
        note: Some("draw by repetition"),
    },
    Way {
        words: &["fifty", "fifty-moves", "50", "50-moves"],
        decisive: Some(false),
        termination: "normal",
        note: Some("draw by the fifty-move rule"),
    },
    Way {
        words: &["abandoned"],
        decisive: None,
        termination: "abandoned",
        note: None,
    },
    Way {
        words: &["adjudication"],
        decisive: None,
        termination: "adjudication",
        note: None,
    },
    Way {
        words: &["forfeit", "rules-infraction"],
        decisive: None,
        termination: "rules infraction",
        note: None,
    },
];

/// Every note a result may have written after the last move.
fn result_notes() -> impl Iterator<Item = String> {
    WAYS.iter().filter_map(|w| w.note).flat_map(|note| {
        ["White", "Black"]
            .into_iter()
            .map(move |loser| note.replace("{loser}", loser))
    })
}

/// `text` without the note a result wrote at its end (after a blank, or alone), if any.
fn without_result_note(text: &str) -> &str {
    for note in result_notes() {
        if let Some(before) = text.strip_suffix(note.as_str()) {
            if before.is_empty() || before.ends_with(char::is_whitespace) {
                return before.trim_end();
            }
        }
    }
    text
}

/// The result the board decides by itself at a position, and why.
pub(super) fn board_result(
    status: Status,
    white_to_move: bool,
) -> Option<(&'static str, &'static str)> {
    match status {
        Status::Checkmate if white_to_move => Some(("0-1", "Black has mated")),
        Status::Checkmate => Some(("1-0", "White has mated")),
        Status::Stalemate => Some(("1/2-1/2", "stalemate")),
        Status::InsufficientMaterial => Some(("1/2-1/2", "neither side can mate")),
        _ => None,
    }
}

impl App {
    /// What the rules say after a move: mate, stalemate and no mating material end the
    /// game; threefold repetition and the fifty-move rule are announced.
    pub(super) fn after_move(&mut self, id: NodeId) {
        let pos = self.game.position_at(id);
        self.after_move_in(id, None, pos);
    }

    /// [`App::after_move`] with the position after the move known. Playing a pasted game
    /// of thousands of moves calls this for each: what it costs beyond the position is
    /// taken only where it can matter.
    pub(super) fn after_move_in(&mut self, id: NodeId, before: Option<&Position>, pos: Position) {
        // Only an end of the game needs the walk to the root (is this the end of the
        // main line?).
        let main = |app: &App| app.on_main_line(id) && app.game.node(id).children.is_empty();
        let loser_white = pos.side_to_move() == chess::Color::White;
        let status = pos.status_with(self.history_after(id, before, &pos));
        match status {
            Status::Checkmate if main(self) => {
                let result = if loser_white { "0-1" } else { "1-0" };
                self.game.set_tag("Result", result);
                self.game.set_tag("Termination", "normal");
                self.inform(format!("checkmate: {result}"));
            }
            Status::Stalemate if main(self) => {
                self.game.set_tag("Result", "1/2-1/2");
                self.game.set_tag("Termination", "normal");
                self.inform("stalemate: 1/2-1/2");
            }
            Status::InsufficientMaterial if main(self) => {
                self.game.set_tag("Result", "1/2-1/2");
                self.game.set_tag("Termination", "normal");
                self.inform("neither side can mate: 1/2-1/2");
            }
            Status::FiftyMoves => {
                self.inform("fifty moves without a capture or pawn move: a draw can be claimed")
            }
            Status::ThreefoldRepetition => self.inform(
                "the same position for the third time: a draw can be claimed (:result 1/2-1/2 repetition)",
            ),
            _ => {}
        }
    }

    /// The positions that can repeat `pos` (the one after the move `id`): those since the
    /// last capture or pawn move. When the move follows the one played last (as each move
    /// of a typed or pasted line does), the positions kept for that one are taken on;
    /// otherwise they are rebuilt along the line.
    fn history_after(&mut self, id: NodeId, before: Option<&Position>, pos: &Position) -> &History {
        let parent = self.game.node(id).parent;
        let kept = self.line_history.take().filter(|(at, history)| {
            Some(*at) == parent
                && before.is_some_and(|b| history.last_key() == Some(b.repetition_key()))
        });
        let history = match kept {
            Some((_, mut history)) => {
                history.push(pos);
                history
            }
            None => self.rebuild_history(id, pos),
        };
        &self.line_history.insert((id, history)).1
    }

    /// The positions since the last capture or pawn move up to `pos`, the one after `id`,
    /// walked back along the parents.
    fn rebuild_history(&self, id: NodeId, pos: &Position) -> History {
        let reversible = pos.halfmove_clock() as usize;
        let mut steps = Vec::with_capacity(reversible);
        let mut at = id;
        while steps.len() < reversible {
            match self.game.node(at).parent {
                Some(parent) => {
                    steps.push(at);
                    at = parent;
                }
                None => break,
            }
        }
        let mut position = self.game.position_at(at);
        let mut history = History::new(&position);
        for step in steps.iter().rev() {
            position = position.apply(self.game.node(*step).mv).unwrap_or(position);
            history.push(&position);
        }
        history
    }

    /// The result the board decides at the end of the main line, and why.
    pub(super) fn board_verdict(&self) -> Option<(&'static str, &'static str)> {
        let end = self.line_end(NodeId::ROOT);
        let pos = self.game.position_at(end);
        board_result(pos.status(), pos.side_to_move() == chess::Color::White)
    }

    /// The result when the game has one (not `*`).
    pub(super) fn result(&self) -> Option<String> {
        self.game
            .tag("Result")
            .filter(|r| *r != "*" && *r != "?")
            .map(ToString::to_string)
    }

    /// Sets the result, with how the game ended (`resign`, `time`, `agreement`,
    /// …). Nothing changes when the way is unknown, or when the result
    /// contradicts the board (a mate, a stalemate) unless `forced` (`:result!`).
    pub(super) fn set_result(&mut self, result: &str, how: Option<&str>, forced: bool) {
        let loser = match result {
            "1-0" => "Black",
            "0-1" => "White",
            _ => "",
        };
        let way = match how.map(str::to_ascii_lowercase) {
            None => None,
            Some(how) => {
                let decisive = !loser.is_empty();
                let found = WAYS.iter().find(|w| {
                    w.words.contains(&how.as_str())
                        && result != "*"
                        && w.decisive.is_none_or(|d| d == decisive)
                });
                match found {
                    Some(way) => Some(way),
                    None => {
                        self.refuse(format!(
                            "{how:?} is not a way {result} ends: {}; nothing changed",
                            ways_for(result)
                        ));
                        return;
                    }
                }
            }
        };
        if result != "*" && !forced {
            if let Some((board, why)) = self.board_verdict() {
                if board != result {
                    self.refuse(format!(
                        "{why}: the result is {board}, not {result} (:result! {result} to record it anyway)"
                    ));
                    return;
                }
            }
        }
        self.clear_result_notes();
        self.game.tags.retain(|(name, _)| name != "Termination");
        self.game.set_tag("Result", result);
        let note = way
            .and_then(|w| w.note)
            .map(|n| n.replace("{loser}", loser));
        if let Some(way) = way {
            self.game.set_tag("Termination", way.termination);
        }
        let last = self.line_end(NodeId::ROOT);
        if let Some(note) = &note {
            let text = self.game.comment_text(last);
            let joined = if text.is_empty() {
                note.clone()
            } else {
                format!("{text} {note}")
            };
            self.game.set_comment_text(last, &joined);
        }
        self.inform(match (result, note) {
            ("*", _) => "result cleared (*): the game goes on".to_string(),
            (_, Some(note)) => format!("result {result} ({note})"),
            (_, None) => format!("result {result}"),
        });
        self.changed();
    }

    /// Takes the note a result wrote out of the comment after the last move: at its end,
    /// where the result put it. The same words elsewhere in the comment are the player's.
    fn clear_result_notes(&mut self) {
        let last = self.line_end(NodeId::ROOT);
        let text = self.game.comment_text(last);
        let kept = without_result_note(&text);
        if kept.len() != text.len() {
            let kept = kept.to_string();
            self.game.set_comment_text(last, &kept);
        }
    }

    /// Back to no result: Result `*`, no Termination, no note after the last move.
    fn clear_result(&mut self) {
        self.clear_result_notes();
        self.game.tags.retain(|(name, _)| name != "Termination");
        self.game.set_tag("Result", "*");
    }

    /// After an edit of the main line: a result the board had decided before it
    /// (`before`, from [`App::board_verdict`]) goes when the board no longer
    /// decides it, as when the mating move is taken back. Says so after the
    /// edit's own message.
    pub(super) fn recheck_result(&mut self, before: Option<(&'static str, &'static str)>) {
        let Some((result, _)) = before else {
            return;
        };
        if self.game.tag("Result") != Some(result)
            || self.board_verdict().map(|v| v.0) == Some(result)
        {
            return;
        }
        self.clear_result();
        let text = format!("{}; result {result} taken back with it", self.message.text);
        self.inform(text);
    }

    /// Moves typed at the end of a game that has a result ask first: the first
    /// Enter explains, a second Enter on the same text clears the result and
    /// plays on. True when the moves may be played now.
    pub(super) fn may_play_on(&mut self, text: &str) -> bool {
        // Moves waiting after a correction (or in a game opened for repair) are the
        // game's own: typing the right move repairs it, it does not play on.
        if self.pending.is_some() {
            return true;
        }
        let at_end = self.cursor == self.line_end(NodeId::ROOT);
        let Some(result) = self.result().filter(|_| at_end) else {
            return true;
        };
        if self.play_on.as_deref() == Some(text) {
            self.play_on = None;
            self.clear_result();
            self.inform(format!("result {result} cleared: the game goes on"));
            return true;
        }
        self.play_on = Some(text.to_string());
        let last = self.numbered_move(self.cursor);
        self.refuse(format!(
            "the game is over ({result} after {last}): Enter again to play on and clear the result, Esc to leave it"
        ));
        false
    }
}

impl App {
    /// The feedback on the entry line with what the game adds to what the
    /// position says: a clock the time control cannot read, and moves that
    /// would be played after the result. The status line shows the feedback
    /// while the line holds text, so the question must be asked there.
    pub(super) fn game_feedback(&self, feedback: Feedback) -> Feedback {
        let worth_reading = matches!(feedback, Feedback::Ready(_) | Feedback::Note(_));
        let at_end = self.cursor == self.line_end(NodeId::ROOT);
        let result = self.result().filter(|_| at_end);
        let text = self.entry.trim();
        if !worth_reading || (result.is_none() && !text.contains('+')) {
            return feedback;
        }
        let pos = self.position();
        let Ok(entry) = entry::read_entry(text, &pos, self.settings.input_lang) else {
            return feedback;
        };
        let tc = self.game.tag("TimeControl");
        let clocks: Vec<&str> = match &entry {
            Entry::Clock(t) => vec![t.as_str()],
            Entry::Moves(moves) => moves.iter().filter_map(|m| m.clock.as_deref()).collect(),
            _ => Vec::new(),
        };
        if let Some(e) = clocks.iter().find_map(|t| entry::clock_time(t, tc).err()) {
            return Feedback::Illegal(e.to_string());
        }
        match (result, &entry) {
            (Some(result), Entry::Moves(_)) if self.play_on.as_deref() == Some(text) => {
                Feedback::Note(format!(
                    "the game is over ({result}): Enter again to play on and clear the result, Esc to leave it"
                ))
            }
            (Some(result), Entry::Moves(_)) => Feedback::Note(format!(
                "the game is over ({result}): Enter asks to play on after it"
            )),
            _ => feedback,
        }
    }
}

/// The ways a result can end, for a refusal.
fn ways_for(result: &str) -> String {
    if result == "*" {
        return "* (no result yet) takes no way".into();
    }
    let decisive = result != "1/2-1/2";
    let mut names: Vec<&str> = Vec::new();
    for way in WAYS {
        if way.decisive.is_none_or(|d| d == decisive) && !names.contains(&way.words[0]) {
            names.push(way.words[0]);
        }
    }
    names.join(", ")
}
