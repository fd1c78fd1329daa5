//! What the annotation editors leave in the game, and the variations promoted,
//! demoted or deleted: a comment written by the
//! comment editor, the tags of the tag form, a NAG set or stepped by key. Each
//! is one change of the game, named for undo (`undid: comment after 6...e5`),
//! made inside an update like every other change (call these from `dispatch`).

use super::comment::CommentEditor;
use super::tagform::TagForm;
use super::{App, Effect};
use crate::game::nags::{nag_glyph, nag_info, NagClass};
use crate::game::NodeId;

impl App {
    pub(super) fn promote_variation(&mut self) -> Effect {
        match self.game.promote_variation(self.cursor) {
            Ok(true) => {
                self.inform("variation promoted");
                self.changed();
            }
            Ok(false) => self.inform("this is the main line already"),
            Err(e) => self.refuse(e.to_string()),
        }
        Effect::None
    }

    pub(super) fn demote_variation(&mut self) -> Effect {
        match self.game.demote_variation(self.cursor) {
            Ok(true) => {
                self.inform("variation demoted");
                self.changed();
            }
            Ok(false) => self.inform("no line comes after this one"),
            Err(e) => self.refuse(e.to_string()),
        }
        Effect::None
    }

    pub(super) fn delete_variation(&mut self) -> Effect {
        let what = self.numbered_move(self.cursor);
        match self.game.delete_variation(self.cursor) {
            Ok(parent) => {
                self.cursor = parent;
                self.inform_undoable(format!("deleted the variation of {what}"));
                self.changed();
            }
            Err(crate::game::edit::EditError::OnMainLine) => {
                self.refuse("this move is on the main line: Delete removes it and what follows")
            }
            Err(e) => self.refuse(e.to_string()),
        }
        Effect::None
    }

    /// Writes the comment editor's text into the game as one undoable change;
    /// says so, or that nothing changed.
    pub fn keep_comment(&mut self, editor: &CommentEditor) -> Effect {
        if !editor.write(&mut self.game) {
            self.inform(format!("{}: unchanged", editor.title()));
            return Effect::None;
        }
        let label = editor.title().to_string();
        self.inform(format!("{label} written: {}", self.undo_hint()));
        self.change_label = Some(label);
        self.changed();
        Effect::None
    }

    /// Gives the game the tag form's tags as one undoable change, and names the
    /// tags that changed.
    pub fn keep_tags(&mut self, form: &TagForm) -> Effect {
        let before = self.game.tags.clone();
        if !form.write(&mut self.game) {
            self.inform("tags unchanged");
            return Effect::None;
        }
        let after = &self.game.tags;
        let had = |tags: &[(String, String)], name: &str| tags.iter().any(|(n, _)| n == name);
        let changed = names_where(after, |tag| had(&before, &tag.0) && !before.contains(tag));
        let added = names_where(after, |tag| !had(&before, &tag.0));
        let removed = names_where(&before, |tag| !had(after, &tag.0));
        // "tag Annotator added", "tags White, Black changed; tag Round removed".
        let said = |names: &[&str], what: &str| {
            let noun = if names.len() == 1 { "tag" } else { "tags" };
            (!names.is_empty()).then(|| format!("{noun} {} {what}", names.join(", ")))
        };
        let label = [
            said(&changed, "changed"),
            said(&added, "added"),
            said(&removed, "removed"),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ");
        // Only the order moved (nothing is added, changed or removed by name).
        let label = if label.is_empty() {
            "tags reordered".to_string()
        } else {
            label
        };
        self.inform(format!("{label}: {}", self.undo_hint()));
        self.change_label = Some(label);
        self.changed();
        Effect::None
    }

    /// Sets the NAG `nag` on the current move, or removes it when the move has
    /// it (one move assessment and one evaluation at a time, see
    /// [`crate::game::Game::toggle_nag`]).
    pub fn toggle_nag(&mut self, nag: u8) -> Effect {
        if self.cursor == NodeId::ROOT {
            self.refuse("no move to mark yet");
            return Effect::None;
        }
        let on = self.game.toggle_nag(self.cursor, nag);
        self.say_nag(nag, on);
        Effect::None
    }

    /// Steps the current move through `cycle` (`[14, 16, 18]`: ⩲, ±, +-, none),
    /// see [`crate::game::Game::cycle_nag`].
    pub fn cycle_nag(&mut self, cycle: &[u8]) -> Effect {
        if self.cursor == NodeId::ROOT {
            self.refuse("no move to mark yet");
            return Effect::None;
        }
        let had = cycle
            .iter()
            .copied()
            .find(|n| self.game.node(self.cursor).nags.contains(n));
        match self.game.cycle_nag(self.cursor, cycle) {
            Some(nag) => self.say_nag(nag, true),
            None => match had {
                Some(nag) => self.say_nag(nag, false),
                None => return Effect::None,
            },
        }
        Effect::None
    }

    /// Removes the current move's position NAGs (evaluation and the others),
    /// keeping its move assessment.
    pub fn clear_position_nags(&mut self) -> Effect {
        if self.cursor == NodeId::ROOT {
            self.refuse("no move to mark yet");
            return Effect::None;
        }
        let evaluation = self.game.clear_nags(self.cursor, NagClass::Evaluation);
        let other = self.game.clear_nags(self.cursor, NagClass::Other);
        let what = self.numbered_move(self.cursor);
        if evaluation || other {
            let text = format!("position marks removed from {what}");
            self.change_label = Some(text.clone());
            self.inform(text);
            self.changed();
        } else {
            self.inform(format!("{what} has no position marks"));
        }
        Effect::None
    }

    fn say_nag(&mut self, nag: u8, on: bool) {
        let what = self.numbered_move(self.cursor);
        let glyph = nag_glyph(nag);
        let name = nag_info(nag).map_or(String::new(), |i| format!(" ({})", i.name));
        let text = if on {
            format!("{what} {glyph}{name}")
        } else {
            format!("{glyph} removed from {what}")
        };
        self.change_label = Some(text.clone());
        self.inform(text);
        self.changed();
    }
}

/// The names of the `tags` that `keep` keeps, in order.
fn names_where(tags: &[(String, String)], keep: impl Fn(&(String, String)) -> bool) -> Vec<&str> {
    tags.iter()
        .filter(|tag| keep(tag))
        .map(|(n, _)| n.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Action, Settings};
    use crate::game::notes::CommentPlace;
    use crate::game::Game;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn app_with(moves: &str) -> App {
        let mut app = App::new(Settings::default(), Game::default(), None);
        for c in moves.chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::PlayEntry);
        app
    }

    fn typed(ed: &mut CommentEditor, text: &str) {
        for c in text.chars() {
            ed.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
    }

    #[test]
    fn a_kept_comment_is_one_change_that_undo_and_redo_take_back_and_forth() {
        let mut app = app_with("e4 e5 Nf3");
        let mut ed = CommentEditor::open(&app.game, app.cursor, CommentPlace::After);
        typed(&mut ed, "develops");
        ed.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT));
        typed(&mut ed, "and attacks e5");
        app.recorded(|app| app.keep_comment(&ed));
        let nf3 = app.cursor;
        assert_eq!(app.game.comment_text(nf3), "develops\nand attacks e5");
        assert!(app.message.text.contains("comment after 2.Nf3 written"));
        assert!(app.unsaved);
        app.update(Action::Undo);
        assert_eq!(app.game.comment_text(nf3), "");
        assert!(
            app.message.text.contains("undid: comment after 2.Nf3"),
            "{}",
            app.message.text
        );
        app.update(Action::Redo);
        assert_eq!(app.game.comment_text(nf3), "develops\nand attacks e5");
        // Kept again unchanged: nothing new to undo.
        app.recorded(|app| app.keep_comment(&ed));
        assert!(app.message.text.contains("unchanged"));
        app.update(Action::Undo);
        assert_eq!(app.game.comment_text(nf3), "");
    }

    #[test]
    fn kept_tags_are_one_change_named_by_the_tags() {
        let mut app = app_with("e4");
        let mut form = TagForm::open(&app.game);
        form.select(4);
        for c in "Anna".chars() {
            form.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        form.key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
        for c in "Ben".chars() {
            form.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        form.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        app.recorded(|app| app.keep_tags(&form));
        assert_eq!(app.game.tag("White"), Some("Anna"));
        assert_eq!(app.game.tag("Black"), Some("Ben"));
        assert!(
            app.message.text.contains("tags White, Black changed"),
            "{}",
            app.message.text
        );
        app.update(Action::Undo);
        assert_eq!(app.game.tag("White"), Some("?"));
        assert_eq!(app.game.tag("Black"), Some("?"));
        app.update(Action::Redo);
        assert_eq!(app.game.tag("Black"), Some("Ben"));
    }

    /// The message names the tags added and removed as such, not as "changed".
    #[test]
    fn the_tag_form_says_which_tags_it_added_changed_and_removed() {
        let mut app = App::new(Settings::default(), Game::default(), None);
        let mut start = app.game.clone();
        start.set_tag("Opening", "Ruy Lopez");
        app.recorded(|app| app.keep_tags(&TagForm::open(&start)));
        assert!(app.message.text.starts_with("tag Opening added: "));
        let mut other = app.game.clone();
        other.tags.retain(|(n, _)| n != "Opening");
        other.set_tag("Annotator", "Ann");
        other.set_tag("White", "Anna");
        let form = TagForm::open(&other);
        app.recorded(|app| app.keep_tags(&form));
        assert!(
            app.message
                .text
                .starts_with("tag White changed; tag Annotator added; tag Opening removed: "),
            "{}",
            app.message.text
        );
        assert_eq!(app.game.tag("Annotator"), Some("Ann"));
        app.update(Action::Undo);
        assert_eq!(app.game.tag("Opening"), Some("Ruy Lopez"));
        assert_eq!(app.game.tag("Annotator"), None);
    }

    #[test]
    fn nags_by_key_follow_pgn_and_undo_one_at_a_time() {
        let mut app = app_with("e4 e5");
        let e5 = app.cursor;
        app.recorded(|app| app.toggle_nag(5));
        app.recorded(|app| app.cycle_nag(&[14, 16, 18]));
        app.recorded(|app| app.cycle_nag(&[14, 16, 18]));
        assert_eq!(app.game.node(e5).nags, [5, 16]);
        assert!(
            app.message.text.contains("1...e5 ± (White is better)"),
            "{}",
            app.message.text
        );
        app.recorded(|app| app.toggle_nag(19));
        assert_eq!(app.game.node(e5).nags, [5, 19], "one evaluation at a time");
        app.update(Action::Undo);
        assert_eq!(app.game.node(e5).nags, [5, 16]);
        app.update(Action::Undo);
        assert_eq!(app.game.node(e5).nags, [5, 14]);
        app.recorded(|app| app.cycle_nag(&[32, 33]));
        app.recorded(|app| app.clear_position_nags());
        assert_eq!(app.game.node(e5).nags, [5], "the move's own mark stays");
        app.update(Action::Undo);
        assert_eq!(app.game.node(e5).nags, [5, 14, 32]);
        app.update(Action::GoStart);
        app.recorded(|app| app.toggle_nag(1));
        assert!(app.message.text.contains("no move to mark yet"));
    }
}
