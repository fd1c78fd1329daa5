//! Recording: playing what the entry line holds, and what is written beside a move
//! (clock, glyph, draw offer, comment, result). Corrections are in `correct.rs`.

use std::time::Instant;

use super::entry::{self, Entry, Typed};
use super::{Action, App, Effect, Inside, Overlay};
use crate::game::annotation::{Annotation, ClockTime};
use crate::game::notes::nag_glyph;
use crate::game::{Game, NodeId};
use crate::position::{Move, Position};

/// Today's date as PGN writes it (`2026.11.21`), where the game is played: the
/// system's time zone (`TZ`, else the system's setting; UTC when neither is known).
pub fn today() -> String {
    pgn_date(&jiff::ZonedDateTime::now())
}

/// The PGN date (`2026.11.21`) of a moment in its own time zone: an evening game
/// in the Americas is dated the day it is played, not the next day in UTC.
pub fn pgn_date(at: &jiff::ZonedDateTime) -> String {
    at.strftime("%Y.%m.%d").to_string()
}

/// A move written with its number the way a scoresheet reads it: `12.Nf3`,
/// `12...Nf6`.
pub fn numbered(game: &Game, id: NodeId) -> String {
    let Some(parent) = game.node(id).parent else {
        return "the start".into();
    };
    let before = game.position_at(parent);
    format!("{}{}", number_before(&before), game.node(id).san)
}

/// The number written before a move played from `before`: `5.`, or `5...` for Black.
fn number_before(before: &Position) -> String {
    let dots = if before.side_to_move() == chess::Color::White {
        "."
    } else {
        "..."
    };
    format!("{}{dots}", before.fullmove_number())
}

impl App {
    /// [`numbered`] in the notation and piece letters the scoresheet shows (`5...Le7`
    /// with German letters): how messages name a move.
    pub(crate) fn numbered_move(&self, id: NodeId) -> String {
        let Some(parent) = self.game.node(id).parent else {
            return "the start".into();
        };
        let before = self.game.position_at(parent);
        let mut text = number_before(&before);
        let (style, lang) = (self.settings.display, self.settings.display_lang);
        crate::game::notes::write_move_text(
            &mut text,
            self.game.node(id),
            Some(&before),
            style,
            lang,
        );
        text
    }
}

/// Moves written as movetext from `pos` on, numbered by ply.
pub(super) fn movetext(pos: &Position, sans: &[String]) -> String {
    number_moves(pos, sans, "", |out, san| {
        out.push_str(san);
        false
    })
}

/// Moves numbered from `pos` on, with `gap` after each number: `write` writes a move
/// and what stands beside it, and says whether Black's next move needs its number again
/// (after a comment, as PGN writes it).
pub(super) fn number_moves<T>(
    pos: &Position,
    moves: &[T],
    gap: &str,
    mut write: impl FnMut(&mut String, &T) -> bool,
) -> String {
    let mut out = String::new();
    let mut number = pos.fullmove_number();
    let mut white = pos.side_to_move() == chess::Color::White;
    let mut need_number = true;
    for mv in moves {
        if !out.is_empty() {
            out.push(' ');
        }
        if white {
            out.push_str(&format!("{number}.{gap}"));
        } else if need_number {
            out.push_str(&format!("{number}...{gap}"));
        }
        need_number = write(&mut out, mv);
        if !white {
            number += 1;
        }
        white = !white;
    }
    out
}

impl App {
    pub(super) fn play_entry(&mut self) -> Effect {
        if self.training() {
            return self.train_entry();
        }
        let text = self.entry.trim().to_string();
        if text.is_empty() {
            // With the tree pane open, Enter plays the move selected in it.
            return self.play_tree_move().unwrap_or(Effect::None);
        }
        let pos = self.position();
        match entry::read_entry(&text, &pos, self.settings.input_lang) {
            Err(e) if !e.promotion.is_empty() && !text.contains(char::is_whitespace) => {
                self.remember(&text);
                self.overlay = Overlay::Promotion(e.promotion);
                self.inform(
                    "promote to: Q queen, R rook, B bishop, N knight (Enter: queen, Esc: back)",
                );
                Effect::None
            }
            Err(e) => {
                // The text stays on the line to be fixed.
                self.refuse(e.to_string());
                Effect::None
            }
            Ok(entry) => {
                // A clock is read by the game's time control; one that cannot be
                // read so (14:32 with no time control) asks before anything is played.
                let tc = self.game.tag("TimeControl");
                let clocks: Vec<&str> = match &entry {
                    Entry::Clock(t) => vec![t.as_str()],
                    Entry::Moves(moves) => {
                        moves.iter().filter_map(|m| m.clock.as_deref()).collect()
                    }
                    _ => Vec::new(),
                };
                if let Some(e) = clocks.iter().find_map(|t| entry::clock_time(t, tc).err()) {
                    self.refuse(e.to_string());
                    return Effect::None;
                }
                // What this line does is told afresh.
                self.message = super::Message::default();
                if matches!(entry, Entry::Moves(_)) && !self.may_play_on(&text) {
                    // The text stays on the line: Enter again plays it.
                    return Effect::None;
                }
                self.remember(&text);
                self.entry.clear();
                self.apply_entry(entry)
            }
        }
    }

    fn apply_entry(&mut self, entry: Entry) -> Effect {
        match entry {
            Entry::Empty => {}
            Entry::Moves(moves) => {
                // Each move's position follows from the one before while the
                // cursor goes down the line move by move; working it out from
                // the start each time made a pasted game cost the square of
                // its length.
                let mut known: Option<(NodeId, Position)> = None;
                for (k, typed) in moves.iter().enumerate() {
                    let before = match known {
                        Some((at, pos)) if at == self.cursor => pos,
                        _ => self.position(),
                    };
                    let from = self.cursor;
                    self.play_in(typed, before);
                    let node = self.game.node(self.cursor);
                    if node.parent != Some(from) || node.mv != typed.mv {
                        // The move was refused, or it replaced a move and the cursor went
                        // on to the moves after it (or to one that waits): the rest of
                        // the line was read for positions that no longer follow.
                        if let Some(after) = before.apply(typed.mv) {
                            self.line_not_played(after, &moves[k + 1..]);
                        }
                        break;
                    }
                    known = before.apply(typed.mv).map(|pos| (self.cursor, pos));
                }
            }
            Entry::Clock(text) => {
                if let Ok(time) = entry::clock_time(&text, self.game.tag("TimeControl")) {
                    self.stamp(Annotation::Clock(time), "clock");
                }
            }
            Entry::Glyph(nag) => return self.mark_nag(nag),
            Entry::DrawOffer => return self.toggle_draw_offer(),
            Entry::Comment(text) => self.set_typed_comment(&text),
            Entry::Result(result) => self.set_result(result, None, false),
            Entry::Command(command) => return self.run_command(&command),
        }
        Effect::None
    }

    /// Sets the comment after the current move to `text` (typed as `{text` or
    /// `:comment text`), saying what it replaced: on an annotated game the annotator's
    /// words would otherwise go without a word (Ctrl-Z brings them back; Ctrl-K edits
    /// them instead).
    pub(crate) fn set_typed_comment(&mut self, text: &str) {
        let before = self.game.comment_text(self.cursor);
        self.game.set_comment_text(self.cursor, text);
        let at = self.numbered_move(self.cursor);
        let note = if before.is_empty() || before == self.game.comment_text(self.cursor) {
            format!("comment on {at}")
        } else {
            let words = before.split_whitespace().collect::<Vec<_>>().join(" ");
            format!(
                "comment on {at}, in place of \"{}\" (Ctrl-Z brings it back, Ctrl-K edits a comment)",
                super::paste::shorten(&words)
            )
        };
        self.inform(note);
        self.changed();
    }

    /// Says which moves of a typed line were not played (`rest`, from `pos` on), after
    /// what the line did so far.
    fn line_not_played(&mut self, pos: Position, rest: &[Typed]) {
        if rest.is_empty() {
            return;
        }
        let mut at = pos;
        let mut sans = Vec::new();
        for typed in rest {
            sans.push(crate::notation::san(&at, typed.mv));
            match at.apply(typed.mv) {
                Some(next) => at = next,
                None => break,
            }
        }
        let note = format!(
            "not played: {} (type it where the cursor is now)",
            movetext(&pos, &sans)
        );
        let text = match self.message.text.as_str() {
            "" => note,
            said => format!("{said}; {note}"),
        };
        self.refuse(text);
    }

    /// Writes a clock reading or elapsed time on the current move.
    pub(super) fn stamp(&mut self, annotation: Annotation, what: &str) {
        if self.cursor == NodeId::ROOT {
            self.refuse(format!("no move yet to put a {what} time on"));
            return;
        }
        let time = match &annotation {
            Annotation::Clock(t) | Annotation::Elapsed(t) => t.to_string(),
            _ => String::new(),
        };
        self.game.set_annotation(self.cursor, annotation);
        self.inform(format!(
            "{what} {time} after {}",
            self.numbered_move(self.cursor)
        ));
        self.changed();
    }

    /// Plays one typed move after the cursor: follows it if it is already there,
    /// else extends the line, starts a variation or replaces the next move.
    pub(super) fn play(&mut self, typed: &Typed) {
        let before = self.position();
        self.play_in(typed, before);
    }

    /// [`App::play`] when the position at the cursor is known.
    fn play_in(&mut self, typed: &Typed, before: Position) {
        let children = self.game.node(self.cursor).children.clone();
        let existing = children
            .iter()
            .copied()
            .find(|&c| self.game.node(c).mv == typed.mv);
        let id = if let Some(id) = existing {
            self.cursor = id;
            id
        } else if children.is_empty() || self.inside == Inside::Variation {
            let waiting = self.pending.take_if(|p| p.at == self.cursor);
            let id = self.game.add_move(self.cursor, typed.mv, &before);
            self.played.push(id);
            self.cursor = id;
            self.stamp_elapsed(id);
            if !children.is_empty() {
                let what = format!("new variation {}", self.numbered_move(id));
                self.inform(what.clone());
                self.change_label = Some(what);
            }
            if let Some(waiting) = waiting {
                self.mark_typed(id, typed);
                self.cursor = self.replay_waiting(id, waiting);
                self.changed();
                return;
            }
            id
        } else {
            self.replace(children[0], typed);
            return;
        };
        self.mark_typed(id, typed);
        match before.apply(typed.mv) {
            Some(after) => self.after_move_in(id, Some(&before), after),
            None => self.after_move(id),
        }
        self.changed();
    }

    pub(super) fn mark_typed(&mut self, id: NodeId, typed: &Typed) {
        if let Some(nag) = typed.nag {
            // Set, never toggled off: `e4!` on a move marked `?` replaces the mark.
            if !self.game.node(id).nags.contains(&nag) {
                self.game.toggle_nag(id, nag);
            }
        }
        if typed.draw_offer {
            self.game.node_mut(id).draw_offer = true;
        }
        if let Some(comment) = &typed.comment {
            self.game.set_comment_text(id, comment);
        }
        let tc = self.game.tag("TimeControl");
        if let Some(Ok(time)) = typed.clock.as_deref().map(|t| entry::clock_time(t, tc)) {
            self.game.set_annotation(id, Annotation::Clock(time));
            // Say what was stored: 14:32 may be read as 0:14:32 or 14:32:00.
            let note = format!("clock {time} after {}", self.numbered_move(id));
            let text = match &self.message {
                m if m.text.is_empty() => note,
                m if m.error => return,
                m => format!("{}; {note}", m.text),
            };
            self.inform(text);
        }
    }

    fn stamp_elapsed(&mut self, id: NodeId) {
        if let Some(started) = self.timer {
            let now = Instant::now();
            let secs = now.duration_since(started).as_secs();
            self.game
                .set_annotation(id, Annotation::Elapsed(ClockTime::from_secs(secs)));
            self.timer = Some(now);
        }
    }

    pub(super) fn mark_nag(&mut self, nag: u8) -> Effect {
        if self.cursor == NodeId::ROOT {
            self.refuse("no move to mark yet");
            return Effect::None;
        }
        let what = self.numbered_move(self.cursor);
        if nag == 0 {
            self.game.node_mut(self.cursor).nags.clear();
            self.inform(format!("marks removed from {what}"));
        } else if self.game.toggle_quality(self.cursor, nag) {
            self.inform(format!("{what}{}", nag_glyph(nag)));
        } else {
            self.inform(format!("{} removed from {what}", nag_glyph(nag)));
        }
        self.changed();
        Effect::None
    }

    pub(super) fn toggle_draw_offer(&mut self) -> Effect {
        if self.cursor == NodeId::ROOT {
            self.refuse("no move yet to offer a draw with");
            return Effect::None;
        }
        let node = self.game.node_mut(self.cursor);
        node.draw_offer = !node.draw_offer;
        let on = node.draw_offer;
        let what = self.numbered_move(self.cursor);
        self.inform(if on {
            format!("draw offered with {what} (=)")
        } else {
            format!("no draw offer with {what}")
        });
        self.changed();
        Effect::None
    }

    pub(super) fn choose_promotion(&mut self, choices: Vec<Move>, action: Action) -> Effect {
        use chess::Piece;
        let lang = self.settings.input_lang;
        let wanted = match action {
            Action::PlayEntry => Some(Piece::Queen),
            Action::Cancel => {
                self.overlay = Overlay::None;
                self.inform("no promotion played");
                return Effect::None;
            }
            // The English letter or the input language's (D for Dame in German).
            Action::Type(c) => {
                let typed = c.to_lowercase().to_string();
                [
                    (Piece::Queen, "q"),
                    (Piece::Rook, "r"),
                    (Piece::Bishop, "b"),
                    (Piece::Knight, "n"),
                ]
                .into_iter()
                .find(|(piece, english)| {
                    *english == typed || lang.letter(*piece).to_lowercase() == typed
                })
                .map(|(piece, _)| piece)
            }
            _ => None,
        };
        let chosen = choices.iter().copied().find(|m| match m {
            Move::Normal(mv) => wanted.is_some() && mv.get_promotion() == wanted,
            Move::Null => false,
        });
        let Some(mv) = chosen else {
            return Effect::None;
        };
        self.overlay = Overlay::None;
        self.entry.clear();
        self.play(&Typed {
            mv,
            nag: None,
            draw_offer: false,
            clock: None,
            comment: None,
        });
        Effect::None
    }

    /// Starts the next game of the event: Event, Site, Round and TimeControl kept,
    /// Board one up, today's date, the players to fill in.
    pub(super) fn next_game(&mut self) {
        let mut next = Game::new(Position::start());
        for name in ["Event", "Site", "Round"] {
            if let Some(value) = self.game.tag(name) {
                next.set_tag(name, value);
            }
        }
        next.set_tag("Date", &today());
        for name in ["Board", "TimeControl"] {
            if let Some(value) = self.game.tag(name) {
                // The next board, when the number has one (past the largest, the same).
                let value = match (
                    name,
                    value.parse::<u64>().ok().and_then(|n| n.checked_add(1)),
                ) {
                    ("Board", Some(n)) => n.to_string(),
                    _ => value.to_string(),
                };
                next.set_tag(name, &value);
            }
        }
        let file = self.file.clone();
        self.open_game(next, file, None, false);
        // A new game is no game of the list (whose open game the status corner would
        // name), and it is typed on the game screen, even when `:new` came from the list.
        if let Some(list) = self.list.as_deref_mut() {
            list.open = None;
        }
        self.screen = super::Screen::Game;
        self.inform("new game: type the players with :tag White … and :tag Black …");
    }

    /// `:e FILE` of a file with no game yet: a new game written there on `:w`, as
    /// `scoresheet FILE` starts one. The list of another file goes with the game on
    /// the screen (that file is no longer the one open).
    pub(super) fn open_new_file(&mut self, path: std::path::PathBuf) {
        let mut game = Game::new(Position::start());
        game.set_tag("Date", &today());
        self.list = None;
        let shown = path.display().to_string();
        self.open_game(game, Some(path), None, false);
        self.screen = super::Screen::Game;
        self.inform(format!("{shown}: a new game, written there on :w"));
    }
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod date_tests;
