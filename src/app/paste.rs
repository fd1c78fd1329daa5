//! Pasted text: a move list is played like a typed line; a PGN (a tag section,
//! or movetext ending in a result) or a FEN opens as a game, in place of an
//! empty or saved one, never of a game with unsaved moves.

use super::{App, Effect, Overlay};
use crate::game::transcribe::result_of;
use crate::game::Game;
use crate::pgn::builder::read_games;
use crate::position::Position;

/// What pasted text is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PasteKind {
    /// Nothing but blanks.
    Empty,
    /// Text for the entry line (moves, usually): its lines joined by spaces.
    Line(String),
    /// A FEN: a game from that position.
    Fen(Position),
    /// A PGN game (movetext only when `tagged` is false), and how many games the
    /// paste holds.
    Pgn {
        /// The first game.
        game: Box<Game>,
        /// It came with a tag section.
        tagged: bool,
        /// Games in the paste.
        count: usize,
    },
}

/// Tells what pasted text is; a PGN or FEN that cannot be read is refused with
/// where and why.
pub fn classify(text: &str) -> Result<PasteKind, String> {
    // Terminals paste line breaks as CR.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(PasteKind::Empty);
    }
    let one_line = !trimmed.contains(['\n', '\r']);
    // Seven slashes and a side to move: a FEN, even a wrong one.
    if one_line && trimmed.matches('/').count() == 7 && !trimmed.contains('.') {
        return Position::from_fen(trimmed)
            .map(PasteKind::Fen)
            .map_err(|e| format!("the pasted FEN cannot be read: {e}"));
    }
    let tagged = trimmed
        .lines()
        .any(|line| line.trim_start().starts_with('[') && line.trim_end().ends_with(']'));
    let last = trimmed.split_whitespace().next_back().unwrap_or("");
    let ends_in_result = result_of(last).is_some();
    if !tagged && !ends_in_result {
        let line: Vec<&str> = trimmed.split_whitespace().collect();
        return Ok(PasteKind::Line(line.join(" ")));
    }
    let games = read_games(trimmed.as_bytes());
    let count = games.len();
    let Some(first) = games.into_iter().next() else {
        return Err("the pasted PGN holds no game".into());
    };
    if first.refused && first.errors.is_empty() {
        return Err(
            "the pasted PGN cannot be read (a chess variant, or its start position)".into(),
        );
    }
    if let Some(e) = first.errors.first() {
        return Err(format!(
            "the pasted PGN cannot be read: line {}, column {}: {}: {}",
            e.pos.line,
            e.pos.column,
            shorten(&e.token),
            e.reason
        ));
    }
    Ok(PasteKind::Pgn {
        game: Box::new(first.game),
        tagged,
        count,
    })
}

/// A token for a one-line message: at most 40 characters, control characters
/// shown as `?`.
pub(crate) fn shorten(token: &str) -> String {
    let mut out: String = token
        .chars()
        .take(40)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if token.chars().count() > 40 {
        out.push('…');
    }
    out
}

impl App {
    /// Pasted text (`whole` false when the paste was cut off: it is then not
    /// acted on). Like [`App::update`], the one door for a paste.
    pub(crate) fn paste(&mut self, text: &str, whole: bool) -> Effect {
        // Recorded like an action: pasted moves are one change to undo.
        let effect = self.recorded(|app| app.take_paste(text, whole));
        self.refresh_feedback();
        self.refresh_opening();
        effect
    }

    fn take_paste(&mut self, text: &str, whole: bool) -> Effect {
        match self.overlay {
            Overlay::None => {}
            Overlay::Help => self.overlay = Overlay::None,
            _ => {
                self.refuse("answer the question on the screen first, then paste");
                return Effect::None;
            }
        }
        if !whole {
            self.refuse(format!(
                "a paste was cut off (no end mark, or too long): its {} bytes were not used",
                text.len()
            ));
            return Effect::None;
        }
        if self.training() {
            self.train_paste(text);
            return Effect::None;
        }
        let kind = match classify(text) {
            Ok(kind) => kind,
            Err(e) => {
                self.refuse(e);
                return Effect::None;
            }
        };
        match kind {
            PasteKind::Empty => Effect::None,
            PasteKind::Line(line) => {
                // As if typed after what is on the line, then Enter; but a command is
                // never run by a paste (`:q!` in the clipboard must not end the game):
                // it waits on the line for the user's own Enter.
                self.entry.push_str(&line);
                if self.entry.trim_start().starts_with(':') {
                    self.inform("pasted a command: Enter runs it, Ctrl-U clears it");
                    return Effect::None;
                }
                self.play_entry()
            }
            PasteKind::Fen(start) => {
                let mut game = Game::new(start);
                if self.game.is_empty() {
                    game.tags = self.game.tags.clone();
                }
                self.open_pasted(game, "the game starts from the pasted position")
            }
            PasteKind::Pgn {
                game,
                tagged,
                count,
            } => {
                let mut game = *game;
                if !tagged && self.game.is_empty() {
                    // Movetext alone on a game without moves: the players and event typed
                    // for it stay. The tags of a game with moves (one read from a file)
                    // are that game's: the pasted one must not be saved under its names.
                    let result = game.tag("Result").unwrap_or("*").to_string();
                    game.tags = self.game.tags.clone();
                    game.set_tag("Result", &result);
                }
                let plies = game.mainline().len();
                let more = match count {
                    0 | 1 => String::new(),
                    n => format!(" (the first of the {n} pasted)"),
                };
                // The pasted game goes to this game's file, if any.
                let save = self.save_command();
                self.open_pasted(
                    game,
                    &format!("pasted game{more}: {plies} half-moves; {save} to save it"),
                )
            }
        }
    }

    /// Opens a pasted game in place of this one, unless that would lose moves.
    fn open_pasted(&mut self, game: Game, message: &str) -> Effect {
        if self.unsaved && !self.game.is_empty() {
            self.refuse(format!(
                "the game has unsaved moves: {} first (or :new! to leave it), then paste the game",
                self.save_command()
            ));
            return Effect::None;
        }
        self.inform(message);
        Effect::Open(Box::new(game))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pasted_command_waits_on_the_line_for_enter() {
        let mut app = App::new(crate::app::Settings::default(), Game::default(), None);
        app.paste("e4 e5", true);
        assert_eq!(app.game.mainline().len(), 2);
        // `:q!` from the clipboard would throw the unsaved game away: it is not run.
        assert_eq!(app.paste(":q!", true), Effect::None);
        assert_eq!(app.entry, ":q!");
        assert!(
            app.message.text.contains("Enter runs it"),
            "{}",
            app.message.text
        );
        assert_eq!(app.game.mainline().len(), 2);
        // The user's own Enter runs it.
        assert_eq!(
            app.update(crate::app::Action::PlayEntry),
            Effect::Quit { discard: true }
        );
    }

    /// Moves or a FEN pasted over a game that has moves (a game read from a file) open
    /// with tags of their own; over a game without moves they keep the tags typed for it.
    #[test]
    fn a_paste_over_a_game_with_moves_does_not_take_its_tags() {
        let mut read = Game::default();
        read.set_tag("White", "Spassky, Boris V");
        read.set_tag("Round", "1");
        for (paste, plies) in [
            ("1. e4 e5 2. Nf3 *", 3),
            ("8/8/8/4k3/8/8/4K3/4R3 w - - 0 1", 0),
        ] {
            let mut app = App::new(crate::app::Settings::default(), read.clone(), None);
            app.paste("d4", true);
            app.unsaved = false;
            let Effect::Open(game) = app.paste(paste, true) else {
                panic!("{paste}: {}", app.message.text)
            };
            assert_eq!(game.mainline().len(), plies, "{paste}");
            assert_ne!(game.tag("White"), Some("Spassky, Boris V"), "{paste}");
            assert_ne!(game.tag("Round"), Some("1"), "{paste}");
            // A game without moves lends them its tags.
            let mut app = App::new(crate::app::Settings::default(), read.clone(), None);
            let Effect::Open(game) = app.paste(paste, true) else {
                panic!("{paste}: {}", app.message.text)
            };
            assert_eq!(game.tag("White"), Some("Spassky, Boris V"), "{paste}");
        }
    }

    #[test]
    fn pastes_are_told_apart() {
        assert_eq!(classify(" \n "), Ok(PasteKind::Empty));
        assert_eq!(
            classify("1. e4 e5\n2. Nf3 Nc6\n"),
            Ok(PasteKind::Line("1. e4 e5 2. Nf3 Nc6".into()))
        );
        assert!(matches!(
            classify("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            Ok(PasteKind::Fen(_))
        ));
        let bad = classify("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR x KQkq - 0 1");
        assert!(bad.as_ref().is_err_and(|e| e.contains("FEN")), "{bad:?}");
        // Line breaks as a terminal pastes them: CR.
        let Ok(PasteKind::Pgn {
            game,
            tagged,
            count,
        }) = classify("[White \"Ann\"]\r[Black \"Bob\"]\r\r1. e4 e5 2. Nf3 1-0\r")
        else {
            panic!("a tagged game")
        };
        assert!(tagged);
        assert_eq!(count, 1);
        assert_eq!(game.tag("White"), Some("Ann"));
        assert_eq!(game.mainline().len(), 3);
        assert!(matches!(
            classify("1. d4 d5 2. c4 1/2-1/2"),
            Ok(PasteKind::Pgn { tagged: false, .. })
        ));
    }

    #[test]
    fn a_broken_pasted_pgn_says_where() {
        let err = classify("[White \"Ann\"]\n\n1. e4 e5 2. Ke3 1-0\n").unwrap_err();
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("Ke3"), "{err}");
        // A variant is refused, not opened as chess.
        let err = classify("[Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n").unwrap_err();
        assert!(err.contains("cannot be read"), "{err}");
    }
}
