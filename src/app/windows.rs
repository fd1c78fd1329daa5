//! The windows over the game that edit text (the comment editor, the tag form),
//! the ways of showing the moves, and copying and setting positions aside.

use super::{comment, tagform, App, Effect, MovesView, Overlay};

impl App {
    /// The next way of showing the moves: sheet, text, indented.
    pub(super) fn next_view(&mut self) -> Effect {
        self.moves_view = match self.moves_view {
            MovesView::Sheet => MovesView::Inline,
            MovesView::Inline => MovesView::Indented,
            MovesView::Indented => MovesView::Sheet,
        };
        self.view_chosen = true;
        self.inform(format!(
            "moves shown as {} (:view sheet|text|indented)",
            self.moves_view.name()
        ));
        Effect::None
    }

    /// True when a window that edits text is open: the loop gives it the keys as
    /// they come ([`Msg::Key`]), not through the keymap.
    pub fn takes_keys(&self) -> bool {
        matches!(self.overlay, Overlay::Comment(_) | Overlay::Tags(_))
    }

    /// A key for the comment editor or the tag form; done writes into the game
    /// (one change, undone as one).
    pub(super) fn editor_key(&mut self, key: crossterm::event::KeyEvent) -> Effect {
        use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        // Ctrl-C, which quits elsewhere, is Esc here: it cancels (asking first when
        // text was typed) rather than doing nothing or quitting past the text.
        let key = if key.code == KeyCode::Char('c') && key.modifiers == KeyModifiers::CONTROL {
            KeyEvent::new_with_kind(KeyCode::Esc, KeyModifiers::NONE, key.kind)
        } else {
            key
        };
        let overlay = std::mem::replace(&mut self.overlay, Overlay::None);
        match overlay {
            Overlay::Comment(mut editor) => match editor.key(key) {
                comment::CommentOutcome::Open => self.overlay = Overlay::Comment(editor),
                comment::CommentOutcome::Done => return self.keep_comment(&editor),
                comment::CommentOutcome::Cancelled => self.inform("comment left as it was"),
            },
            Overlay::Tags(mut form) => match form.key(key) {
                tagform::FormOutcome::Open => self.overlay = Overlay::Tags(form),
                tagform::FormOutcome::Done => return self.keep_tags(&form),
                tagform::FormOutcome::Cancelled => self.inform("tags left as they were"),
            },
            other => self.overlay = other,
        }
        Effect::None
    }

    /// Opens the comment editor on the comment before or after the current move.
    pub(super) fn open_comment(&mut self, place: crate::game::notes::CommentPlace) -> Effect {
        let editor = comment::CommentEditor::open(&self.game, self.cursor, place);
        self.overlay = Overlay::Comment(Box::new(editor));
        Effect::None
    }

    /// Copies the FEN, the game or the current line to the clipboard.
    pub(super) fn copy(&mut self, clip: crate::pgn::writer::Clip) -> Effect {
        use crate::pgn::writer::{clip_text, Clip};
        let what = match clip {
            Clip::Fen => "the FEN",
            Clip::Game => "the game",
            Clip::Line => "the line",
        };
        Effect::Copy {
            text: clip_text(&self.game, self.cursor, clip),
            what,
        }
    }

    /// `:snap`: the current position to the `.fen` file beside the game's.
    pub(super) fn snap(&mut self) -> Effect {
        // The game's number in its file however it was opened (`:e FILE N` too,
        // with no list); else the loop finds it from where the game was written.
        let game = self.number.or_else(|| self.list().and_then(|l| l.open));
        Effect::Snap {
            fen: self.position().fen(),
            game: game.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            ply: self.game.ply_of(self.cursor),
        }
    }

    /// Opens the tag form.
    pub(super) fn open_tags(&mut self) -> Effect {
        self.overlay = Overlay::Tags(Box::new(tagform::TagForm::open(&self.game)));
        Effect::None
    }
}
