//! The comment editor: the free text of the comment before or after one move,
//! edited in a box of several lines and written back to the game when done.
//! The comment's commands (`[%clk]`, `[%eval]`, arrows) are not shown and stay
//! as they were. What it holds while open is its own; the game changes once,
//! when the user is done, so one undo takes the whole edit back.

use crossterm::event::KeyEvent;

use super::editor::{key_meaning, EditOp, KeyMeaning, TextEditor, COMMENT_FORBIDS};
use super::record::numbered;
use crate::game::notes::CommentPlace;
use crate::game::{Game, NodeId};

/// What became of a key given to the comment editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentOutcome {
    /// The editor stays open.
    Open,
    /// The user is done: write the text with [`CommentEditor::write`] and close.
    Done,
    /// The user left without keeping the text: close.
    Cancelled,
}

/// A comment being edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentEditor {
    /// The move whose comment this is.
    pub node: NodeId,
    /// Before or after the move.
    pub place: CommentPlace,
    title: String,
    original: String,
    text: TextEditor,
    /// Esc was pressed once on a changed text: a second one throws it away.
    discard_armed: bool,
}

impl CommentEditor {
    /// Opens the comment `place` of the move `node` of `game` (the root's
    /// comment after is the one before the first move).
    pub fn open(game: &Game, node: NodeId, place: CommentPlace) -> Self {
        let original = game.comment_at(node, place);
        let title = if node == NodeId::ROOT {
            "comment before the first move".to_string()
        } else {
            let side = match place {
                CommentPlace::Before => "before",
                CommentPlace::After => "after",
            };
            format!("comment {side} {}", numbered(game, node))
        };
        CommentEditor {
            node,
            place,
            title,
            text: TextEditor::new(&original, true).forbidding(COMMENT_FORBIDS),
            original,
            discard_armed: false,
        }
    }

    /// What the box says it edits: `comment after 12...Nf6`.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The text being edited.
    pub fn editor(&self) -> &TextEditor {
        &self.text
    }

    /// True when the text differs from the comment it started from.
    pub fn is_changed(&self) -> bool {
        self.text.text().trim() != self.original.trim()
    }

    /// Handles a key with the editor's keys (see [`super::editor`]).
    pub fn key(&mut self, key: KeyEvent) -> CommentOutcome {
        match key_meaning(key, true) {
            KeyMeaning::Edit(op) => {
                self.edit(op);
                CommentOutcome::Open
            }
            KeyMeaning::Done => CommentOutcome::Done,
            KeyMeaning::Cancel => self.cancel(),
            KeyMeaning::Other => CommentOutcome::Open,
        }
    }

    /// Carries out one edit or move.
    pub fn edit(&mut self, op: EditOp) {
        self.discard_armed = false;
        self.text.apply(op);
    }

    /// Inserts pasted text (its lines kept; a `}` becomes `)`, and the box says so).
    pub fn paste(&mut self, text: &str) {
        self.discard_armed = false;
        self.text.paste(text);
    }

    /// The user asks to leave without keeping: at once when nothing changed,
    /// else on the second asking, so one stray Esc loses no writing.
    pub fn cancel(&mut self) -> CommentOutcome {
        if !self.is_changed() || self.discard_armed {
            return CommentOutcome::Cancelled;
        }
        self.discard_armed = true;
        self.text
            .set_notice("Esc again throws the changes away; Enter keeps them");
        CommentOutcome::Open
    }

    /// Writes the text into `game` as the comment it was opened on. Returns
    /// true when the game changed (the caller then records one undoable change,
    /// labelled with [`CommentEditor::title`]).
    pub fn write(&self, game: &mut Game) -> bool {
        game.set_comment_at(self.node, self.place, &self.text.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::annotation::{Annotation, ClockTime};
    use crate::notation::{read_move, Lang};
    use crossterm::event::{KeyCode, KeyModifiers};

    /// 1.e4 e5 2.Nf3 with a clock on 1...e5; returns the game and the ids.
    fn game() -> (Game, Vec<NodeId>) {
        let mut game = Game::default();
        let mut at = NodeId::ROOT;
        let mut ids = Vec::new();
        for san in ["e4", "e5", "Nf3"] {
            let pos = game.position_at(at);
            let (mv, _) = read_move(san, &pos, Lang::english()).unwrap();
            at = game.add_move(at, mv, &pos);
            ids.push(at);
        }
        game.set_annotation(ids[1], Annotation::Clock(ClockTime::from_secs(60)));
        game.set_comment_text(ids[1], "symmetrical");
        (game, ids)
    }

    fn press(ed: &mut CommentEditor, code: KeyCode, modifiers: KeyModifiers) -> CommentOutcome {
        ed.key(KeyEvent::new(code, modifiers))
    }

    fn typed(ed: &mut CommentEditor, text: &str) {
        for c in text.chars() {
            press(ed, KeyCode::Char(c), KeyModifiers::NONE);
        }
    }

    #[test]
    fn the_title_names_the_move_and_the_side() {
        let (game, ids) = game();
        let ed = CommentEditor::open(&game, ids[1], CommentPlace::After);
        assert_eq!(ed.title(), "comment after 1...e5");
        assert_eq!(
            ed.editor().text(),
            "symmetrical",
            "the commands are not shown"
        );
        let ed = CommentEditor::open(&game, ids[2], CommentPlace::Before);
        assert_eq!(ed.title(), "comment before 2.Nf3");
        assert_eq!(
            ed.editor().text(),
            "symmetrical",
            "before 2.Nf3 is after 1...e5"
        );
        let ed = CommentEditor::open(&game, NodeId::ROOT, CommentPlace::After);
        assert_eq!(ed.title(), "comment before the first move");
    }

    #[test]
    fn done_writes_several_lines_and_keeps_the_commands() {
        let (mut game, ids) = game();
        let mut ed = CommentEditor::open(&game, ids[1], CommentPlace::After);
        typed(&mut ed, ",");
        assert_eq!(
            press(&mut ed, KeyCode::Enter, KeyModifiers::ALT),
            CommentOutcome::Open
        );
        typed(&mut ed, "as usual");
        assert_eq!(
            press(&mut ed, KeyCode::Enter, KeyModifiers::NONE),
            CommentOutcome::Done
        );
        assert!(ed.write(&mut game));
        assert_eq!(
            game.node(ids[1]).comments_after,
            vec!["[%clk 0:01:00] symmetrical,\nas usual".to_string()]
        );
        // Written again unchanged: no change to record.
        assert!(!ed.write(&mut game));
    }

    #[test]
    fn esc_leaves_at_once_when_unchanged_and_asks_again_when_changed() {
        let (game, ids) = game();
        let mut ed = CommentEditor::open(&game, ids[0], CommentPlace::After);
        assert_eq!(
            press(&mut ed, KeyCode::Esc, KeyModifiers::NONE),
            CommentOutcome::Cancelled
        );
        let mut ed = CommentEditor::open(&game, ids[0], CommentPlace::After);
        typed(&mut ed, "best by test");
        assert_eq!(
            press(&mut ed, KeyCode::Esc, KeyModifiers::NONE),
            CommentOutcome::Open
        );
        assert!(ed.editor().notice().unwrap().contains("Esc again"));
        typed(&mut ed, "!");
        assert_eq!(
            press(&mut ed, KeyCode::Esc, KeyModifiers::NONE),
            CommentOutcome::Open,
            "typing disarms"
        );
        assert_eq!(
            press(&mut ed, KeyCode::Esc, KeyModifiers::NONE),
            CommentOutcome::Cancelled
        );
    }

    #[test]
    fn a_pasted_brace_is_written_as_a_parenthesis() {
        let (mut game, ids) = game();
        let mut ed = CommentEditor::open(&game, ids[0], CommentPlace::After);
        ed.paste("see {the} note");
        assert!(ed.editor().notice().unwrap().contains("pasted } became )"));
        ed.write(&mut game);
        assert_eq!(game.comment_text(ids[0]), "see {the) note");
    }
}
