//! The tag form: every tag of the game in a list, the Seven Tag Roster first
//! and in its order, then the others as the game has them, then an empty row
//! to add one. A value is edited in place with the one-line editor and checked
//! as `:tag` checks it (no control characters, PGN's forms of Date, Result,
//! ratings and time control); a bad value is refused with the reason and the
//! field stays open. The game changes once, when the user is done, so one undo
//! takes the whole form back.
//!
//! Keys (fixed while the form is open):
//!
//! | key | in the list | in a field |
//! |---|---|---|
//! | ↑ ↓, Tab Shift-Tab | choose a row | keep the value, go to the row above, below |
//! | Enter | edit the value (on the last row: a new tag's name) | keep the value |
//! | a character | start a new value with it | type |
//! | Delete | remove the tag (a roster tag goes back to `?`) | erase |
//! | Esc | cancel the form (twice when changed) | forget the field's edit |
//! | Ctrl-S | done: keep the tags | keep the value, done |
//! | Ctrl-J, Alt-Enter | — | nothing, and the form says a value is one line |
//!
//! Ctrl-J and Alt-Enter start a new line in the comment editor; a PGN tag's value
//! cannot hold one, so in a field they are refused with a word, not taken for Enter:
//! the field stays open and the text typed after them still goes into it.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::command::tag_problem;
use super::editor::{key_meaning, EditOp, KeyMeaning, TextEditor};
use crate::game::tags::check_tag;
use crate::game::{Game, SEVEN_TAG_ROSTER};

/// What kind of row of the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// One of the Seven Tag Roster: always there, cannot be removed.
    Roster,
    /// Any other tag.
    Other,
    /// `FEN` and `SetUp`: shown, set only with `:fen`.
    Fixed,
    /// The empty row at the end, to add a tag.
    New,
}

/// One row of the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagRow {
    /// The tag's name (empty on the new row).
    pub name: String,
    /// Its value.
    pub value: String,
    /// What kind of row.
    pub kind: RowKind,
    /// The game has this tag (false for a roster tag the file left out, until set).
    present: bool,
}

/// Which part of a row is being edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// A new tag's name.
    Name,
    /// A tag's value.
    Value,
}

/// What became of a key given to the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormOutcome {
    /// The form stays open.
    Open,
    /// The user is done: write the tags with [`TagForm::write`] and close.
    Done,
    /// The user left without keeping the changes: close.
    Cancelled,
}

/// What the form says to a new line asked for in a field.
pub const ONE_LINE: &str =
    "a tag's value is one line (PGN has no line break in a tag): Enter keeps it";

/// The value a roster tag has when nothing is known.
pub fn roster_default(name: &str) -> &'static str {
    match name {
        "Date" => "????.??.??",
        "Result" => "*",
        _ => "?",
    }
}

/// True when `value` is PGN's word for "not known" in the tag `name`: `?`, a date
/// wholly unknown (`????.??.??`; a partly known one like `2026.??.??` says something),
/// or the Result `*`. Such a value is not text to add to: editing it starts empty.
fn is_unknown(name: &str, value: &str) -> bool {
    value == "?" || value == "????.??.??" || (name == "Result" && value == "*")
}

/// Why `value` cannot be the value of the tag `name`, worded for the user.
pub fn value_problem(name: &str, value: &str) -> Option<String> {
    if name == "FEN" || name == "SetUp" {
        return Some("the start position is set with :fen FEN".into());
    }
    if SEVEN_TAG_ROSTER.contains(&name) && value.trim().is_empty() {
        return Some(format!(
            "every PGN game has a {name} tag: {} when it is not known",
            roster_default(name)
        ));
    }
    tag_problem(name, value).or_else(|| check_tag(name, value).err().map(|e| e.to_string()))
}

/// Why `name` cannot be a new tag's name.
fn name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("a tag needs a name (e.g. Annotator, WhiteElo, TimeControl)".into());
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
    {
        return Some(format!(
            "{name:?}: a tag name is letters, digits and _ only ({c:?} is not)"
        ));
    }
    if name == "FEN" || name == "SetUp" {
        return Some("the start position is set with :fen FEN".into());
    }
    None
}

/// The tag form of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagForm {
    rows: Vec<TagRow>,
    original: Vec<(String, String)>,
    selected: usize,
    editing: Option<(Field, TextEditor)>,
    message: Option<String>,
    discard_armed: bool,
}

impl TagForm {
    /// A form over `game`'s tags.
    pub fn open(game: &Game) -> Self {
        let mut rows: Vec<TagRow> = SEVEN_TAG_ROSTER
            .iter()
            .map(|name| {
                let value = game.tag(name);
                TagRow {
                    name: name.to_string(),
                    value: value.unwrap_or(roster_default(name)).to_string(),
                    kind: RowKind::Roster,
                    present: value.is_some(),
                }
            })
            .collect();
        for (name, value) in &game.tags {
            if SEVEN_TAG_ROSTER.contains(&name.as_str()) {
                continue;
            }
            let kind = if name == "FEN" || name == "SetUp" {
                RowKind::Fixed
            } else {
                RowKind::Other
            };
            rows.push(TagRow {
                name: name.clone(),
                value: value.clone(),
                kind,
                present: true,
            });
        }
        rows.push(Self::new_row());
        TagForm {
            rows,
            original: game.tags.clone(),
            selected: 0,
            editing: None,
            message: None,
            discard_armed: false,
        }
    }

    fn new_row() -> TagRow {
        TagRow {
            name: String::new(),
            value: String::new(),
            kind: RowKind::New,
            present: false,
        }
    }

    /// The rows, the new-tag row last.
    pub fn rows(&self) -> &[TagRow] {
        &self.rows
    }

    /// The chosen row.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The field being edited on the chosen row, with its editor.
    pub fn editing(&self) -> Option<(Field, &TextEditor)> {
        self.editing.as_ref().map(|(f, e)| (*f, e))
    }

    /// What the form has to say: why a value was refused, or how to go on.
    pub fn message(&self) -> Option<&str> {
        self.message
            .as_deref()
            .or_else(|| self.editing.as_ref().and_then(|(_, e)| e.notice()))
    }

    /// The tags the form would give the game, in the game's order, tags added
    /// in the form after them.
    pub fn tags(&self) -> Vec<(String, String)> {
        let live = |name: &str| {
            self.rows
                .iter()
                .find(|r| r.name == name && r.kind != RowKind::New)
        };
        let mut tags: Vec<(String, String)> = self
            .original
            .iter()
            .filter_map(|(name, _)| live(name).map(|r| (name.clone(), r.value.clone())))
            .collect();
        for row in &self.rows {
            let added = row.present && !self.original.iter().any(|(n, _)| *n == row.name);
            if added {
                tags.push((row.name.clone(), row.value.clone()));
            }
        }
        tags
    }

    /// True when the tags differ from the game's.
    pub fn is_changed(&self) -> bool {
        self.tags() != self.original
    }

    /// Gives `game` the form's tags. Returns true when they changed (the caller
    /// then records one undoable change).
    pub fn write(&self, game: &mut Game) -> bool {
        let tags = self.tags();
        let changed = game.tags != tags;
        let result = tags
            .iter()
            .find(|(n, _)| n == "Result")
            .map(|(_, v)| v.clone());
        if result.as_deref() != game.tag("Result") {
            // A result set in the form settles one the movetext said otherwise.
            game.set_tag("Result", result.as_deref().unwrap_or("*"));
        }
        game.tags = tags;
        changed
    }

    /// Handles a key with the form's keys (see the module's table).
    pub fn key(&mut self, key: KeyEvent) -> FormOutcome {
        if key.kind == KeyEventKind::Release {
            return FormOutcome::Open;
        }
        if key.code != KeyCode::Esc {
            self.discard_armed = false;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('s') {
            return self.done();
        }
        match key.code {
            KeyCode::Up | KeyCode::BackTab => {
                self.step(-1);
                return FormOutcome::Open;
            }
            KeyCode::Down | KeyCode::Tab => {
                self.step(1);
                return FormOutcome::Open;
            }
            _ => {}
        }
        if self.editing.is_some() {
            match key_meaning(key, false) {
                KeyMeaning::Edit(EditOp::Newline) => {
                    self.message = Some(ONE_LINE.into());
                }
                KeyMeaning::Edit(op) => self.edit(op),
                KeyMeaning::Done => {
                    self.commit();
                }
                KeyMeaning::Cancel => self.cancel_field(),
                KeyMeaning::Other => {}
            }
            return FormOutcome::Open;
        }
        match key.code {
            KeyCode::Enter => self.begin_edit(None),
            KeyCode::Esc => return self.cancel(),
            KeyCode::Delete => self.remove(),
            KeyCode::Home => self.select(0),
            KeyCode::End => self.select(self.rows.len() - 1),
            KeyCode::Char(c) if !ctrl && !key.modifiers.contains(KeyModifiers::ALT) => {
                self.begin_edit(Some(c))
            }
            _ => {}
        }
        FormOutcome::Open
    }

    /// Chooses row `index` (kept within the rows); only when no field is open.
    pub fn select(&mut self, index: usize) {
        if self.editing.is_none() {
            self.selected = index.min(self.rows.len() - 1);
        }
    }

    /// Goes `by` rows up (negative) or down, keeping the open field's value
    /// first; stays when the value is refused.
    pub fn step(&mut self, by: isize) {
        if self.editing.is_some() && !self.commit() {
            return;
        }
        let last = self.rows.len() - 1;
        self.selected = self.selected.saturating_add_signed(by).min(last);
    }

    /// Opens the chosen row's value for editing (a new tag's name on the new
    /// row): with its value, or with `first` typed over it. A value that only
    /// says the tag is not known opens empty, so that what is typed replaces it
    /// (`?Kasparov` is nobody's name).
    pub fn begin_edit(&mut self, first: Option<char>) {
        self.message = None;
        self.discard_armed = false;
        let row = &self.rows[self.selected];
        let (field, text) = match row.kind {
            RowKind::Fixed => {
                self.message = Some("the start position is set with :fen FEN".into());
                return;
            }
            RowKind::New => (Field::Name, String::new()),
            RowKind::Roster | RowKind::Other if is_unknown(&row.name, &row.value) => {
                (Field::Value, String::new())
            }
            RowKind::Roster | RowKind::Other => (Field::Value, row.value.clone()),
        };
        let mut editor = TextEditor::new(if first.is_some() { "" } else { &text }, false);
        if let Some(c) = first {
            editor.apply(EditOp::Insert(c));
        }
        self.editing = Some((field, editor));
    }

    /// One edit in the open field.
    pub fn edit(&mut self, op: EditOp) {
        self.message = None;
        if let Some((_, editor)) = &mut self.editing {
            editor.apply(op);
        }
    }

    /// Pasted text into the open field (on one line), or as a new value of the
    /// chosen row when none is open.
    pub fn paste(&mut self, text: &str) {
        if self.editing.is_none() {
            self.begin_edit(None);
            if let Some((Field::Value, editor)) = &mut self.editing {
                *editor = TextEditor::new("", false);
            }
        }
        if let Some((_, editor)) = &mut self.editing {
            editor.paste(text);
        }
    }

    /// Keeps the open field when its text is allowed: a new tag's name opens
    /// its value next (or goes to the tag when it exists); a value is checked
    /// as `:tag` checks it, and a roster tag's emptied value is its "not known"
    /// one (PGN requires the tag). Returns true when the field was kept and closed.
    pub fn commit(&mut self) -> bool {
        let Some((field, editor)) = &self.editing else {
            return true;
        };
        let text = editor.text().trim().to_string();
        let row = self.selected;
        match field {
            Field::Name => {
                if let Some(why) = name_problem(&text) {
                    self.message = Some(why);
                    return false;
                }
                if let Some(existing) = self.rows.iter().position(|r| r.name == text) {
                    // The tag is there already: edit it rather than add it twice.
                    self.editing = None;
                    self.selected = existing;
                    self.begin_edit(None);
                    self.message = Some(format!("{text} is there already: edit its value"));
                    return false;
                }
                self.rows[row].name = text;
                self.rows[row].kind = RowKind::Other;
                self.rows.push(Self::new_row());
                self.editing = Some((Field::Value, TextEditor::new("", false)));
                self.message = None;
                // A name alone is no tag yet: the value is asked for next.
                false
            }
            Field::Value => {
                let name = self.rows[row].name.clone();
                let emptied = text.is_empty() && self.rows[row].kind == RowKind::Roster;
                let text = if emptied {
                    roster_default(&name).to_string()
                } else {
                    text
                };
                if let Some(why) = value_problem(&name, &text) {
                    self.message = Some(format!("{why}; {name} stays {}", self.rows[row].value));
                    return false;
                }
                let r = &mut self.rows[row];
                // Said only when it changes the value: opening an unknown tag and
                // keeping it as it was needs no word.
                self.message = (emptied && r.value != text).then(|| {
                    format!("every PGN game has a {name} tag: {text} when it is not known")
                });
                r.value = text;
                r.present = true;
                self.editing = None;
                true
            }
        }
    }

    /// Forgets the open field's edit (a tag whose name was just given goes too).
    pub fn cancel_field(&mut self) {
        if let Some((Field::Value, _)) = self.editing {
            let row = &self.rows[self.selected];
            if row.kind == RowKind::Other && !row.present {
                self.rows.remove(self.selected);
            }
        }
        self.editing = None;
        self.message = None;
    }

    /// Removes the chosen tag; a roster tag goes back to its unknown value
    /// (PGN requires it), `FEN`/`SetUp` and the new row stay.
    pub fn remove(&mut self) {
        self.message = None;
        let row = &mut self.rows[self.selected];
        match row.kind {
            RowKind::Roster => {
                row.value = roster_default(&row.name).to_string();
                self.message = Some(format!(
                    "every PGN game has a {} tag: it is back to {}",
                    row.name, row.value
                ));
            }
            RowKind::Other => {
                self.rows.remove(self.selected);
            }
            RowKind::Fixed => {
                self.message = Some("the start position is set with :fen FEN".into());
            }
            RowKind::New => {}
        }
    }

    /// The user is done: the open field is kept first (when refused, the form
    /// stays open and says why).
    pub fn done(&mut self) -> FormOutcome {
        if self.editing.is_some() && !self.commit() {
            return FormOutcome::Open;
        }
        FormOutcome::Done
    }

    /// The user asks to leave without keeping: at once when nothing changed,
    /// else on the second asking.
    pub fn cancel(&mut self) -> FormOutcome {
        if !self.is_changed() || self.discard_armed {
            return FormOutcome::Cancelled;
        }
        self.discard_armed = true;
        self.message = Some("Esc again throws the changes away; Ctrl-S keeps them".into());
        FormOutcome::Open
    }
}

#[cfg(test)]
#[path = "tagform_tests.rs"]
mod tests;
