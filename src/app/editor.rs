//! The text editor behind the comment editor and the tag form's fields: a
//! cursor over lines of text, grapheme by grapheme, with word moves, undo and
//! paste. The text and its cursor are `ratatui-textarea`'s `TextArea` (soft
//! wrapping, undo, word motions, the drawing); this module decides what each
//! key does and what text a PGN comment or tag can hold.
//!
//! Keys (fixed, like a terminal's line editing; the keymap's actions do not
//! reach an open editor):
//!
//! | key | does |
//! |---|---|
//! | Enter | done: keep the text |
//! | Alt-Enter, Ctrl-J, Shift-Enter, Ctrl-Enter | new line (in a comment; a one-line field refuses it) |
//! | Esc | cancel (twice when the text was changed) |
//! | ← → ↑ ↓, Home End, Ctrl-A Ctrl-E | move |
//! | Ctrl-← Ctrl-→, Alt-B Alt-F | move by word |
//! | Ctrl-Home Ctrl-End | start and end of the text |
//! | Backspace, Delete | erase a character (a whole accented letter or emoji) |
//! | Ctrl-W, Alt-Backspace | erase the word before the cursor |
//! | Ctrl-U, Ctrl-K | erase to the start, to the end of the line |
//! | Ctrl-Z, Ctrl-Y | undo, redo inside the text |
//!
//! Why Enter is "done": a comment is most often one sentence, and Enter ends
//! the entry line's `{comment` the same way, as it sends a message in chat
//! programs. A new line needs a key a terminal can tell from Enter: most
//! terminals send the same byte for Enter, Shift-Enter and Ctrl-Enter (only
//! those speaking the kitty keyboard protocol tell them apart), but Alt-Enter
//! arrives as Esc + Enter nearly everywhere (not in Windows Terminal, which
//! takes it for full screen, nor in macOS Terminal without "Option as Meta"),
//! and Ctrl-J sends a line feed, which every terminal in raw mode delivers
//! apart from Enter's carriage return. So Alt-Enter and Ctrl-J both work, and
//! Shift-/Ctrl-Enter too where the terminal reports them. A pasted text keeps
//! its lines.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::style::{Modifier, Style};
use ratatui_textarea::{CursorMove, TextArea, WrapMode};
use unicode_segmentation::UnicodeSegmentation;

/// One editing operation, whatever key asked for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditOp {
    /// Type a character at the cursor.
    Insert(char),
    /// Break the line at the cursor (ignored by a one-line editor).
    Newline,
    /// Erase the character (grapheme) before the cursor, or join with the line above.
    DeleteBack,
    /// Erase the character (grapheme) under the cursor, or join with the line below.
    DeleteForward,
    /// Erase the word before the cursor.
    DeleteWordBack,
    /// Erase from the start of the line to the cursor.
    DeleteToLineStart,
    /// Erase from the cursor to the end of the line.
    DeleteToLineEnd,
    /// One character (grapheme) left, to the end of the line above at a line's start.
    Left,
    /// One character (grapheme) right, to the start of the line below at a line's end.
    Right,
    /// One line up (a screen line when the text is wrapped).
    Up,
    /// One line down (a screen line when the text is wrapped).
    Down,
    /// To the start of the line.
    Home,
    /// To the end of the line.
    End,
    /// To the start of the word before the cursor.
    WordLeft,
    /// To the start of the next word.
    WordRight,
    /// To the start of the text.
    Top,
    /// To the end of the text.
    Bottom,
    /// Take back the last edit of the text.
    Undo,
    /// Do again the edit last taken back.
    Redo,
}

/// What a key means to an editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyMeaning {
    /// An edit or a move.
    Edit(EditOp),
    /// Keep the text.
    Done,
    /// Leave without keeping it.
    Cancel,
    /// Nothing the editor does (the caller may use it, e.g. Tab in a form).
    Other,
}

/// The meaning of a key in an editor of several lines (`multiline`) or one.
pub fn key_meaning(key: KeyEvent, multiline: bool) -> KeyMeaning {
    use EditOp::*;
    if key.kind == KeyEventKind::Release {
        return KeyMeaning::Other;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    let op = match key.code {
        // A new line, in a one-line field too: there it is refused (the caller says
        // why), not taken for Enter, so a user who meant a new line does not see the
        // field close under the rest of the text.
        KeyCode::Enter if alt || ctrl || shift => Newline,
        KeyCode::Enter => return KeyMeaning::Done,
        KeyCode::Esc => return KeyMeaning::Cancel,
        // Ctrl-J is a line feed.
        KeyCode::Char('j') if ctrl => Newline,
        KeyCode::Char('a') if ctrl => Home,
        KeyCode::Char('e') if ctrl => End,
        KeyCode::Char('b') if alt => WordLeft,
        KeyCode::Char('f') if alt => WordRight,
        KeyCode::Char('h') if ctrl => DeleteBack,
        KeyCode::Char('w') if ctrl => DeleteWordBack,
        KeyCode::Char('u') if ctrl => DeleteToLineStart,
        KeyCode::Char('k') if ctrl => DeleteToLineEnd,
        KeyCode::Char('z') if ctrl => Undo,
        KeyCode::Char('y') if ctrl => Redo,
        KeyCode::Char(c) if !ctrl && !alt => Insert(c),
        // AltGr arrives as Ctrl+Alt on Windows: `{`, `@`, `€` on many layouts.
        KeyCode::Char(c) if ctrl && alt => Insert(c),
        KeyCode::Backspace if alt || ctrl => DeleteWordBack,
        KeyCode::Backspace => DeleteBack,
        KeyCode::Delete => DeleteForward,
        KeyCode::Left if ctrl || alt => WordLeft,
        KeyCode::Right if ctrl || alt => WordRight,
        KeyCode::Left => Left,
        KeyCode::Right => Right,
        KeyCode::Up if multiline => Up,
        KeyCode::Down if multiline => Down,
        KeyCode::Home if ctrl => Top,
        KeyCode::End if ctrl => Bottom,
        KeyCode::Home => Home,
        KeyCode::End => End,
        _ => return KeyMeaning::Other,
    };
    KeyMeaning::Edit(op)
}

/// Text an editor will not take as typed, with what it puts instead in a
/// pasted text and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forbidden {
    /// The character refused.
    pub char: char,
    /// What a pasted text gets in its place.
    pub instead: char,
    /// Why, as the editor says it.
    pub why: &'static str,
}

/// A PGN comment ends at the first `}` and has no escape for it.
pub const COMMENT_FORBIDS: Forbidden = Forbidden {
    char: '}',
    instead: ')',
    why: "a PGN comment cannot hold } (it ends the comment)",
};

/// A text longer than this (in bytes) is edited through a window: the text area
/// holds only the part around the cursor, as it wraps and measures all it holds on
/// every key and every frame (a second a key on a comment of 10 MB).
const WINDOW_OVER: usize = 48 * 1024;
/// Bytes of text a window keeps on each side of the cursor when it is placed.
const WINDOW_HALF: usize = 16 * 1024;
/// How near a window's edge the cursor comes before the window moves, so that the
/// rows around it always show.
const WINDOW_MARGIN: usize = 6 * 1024;

/// An editor of lines of text with a cursor.
#[derive(Debug, Clone)]
pub struct TextEditor {
    area: TextArea<'static>,
    /// The text before and after the part the area holds: both empty unless the
    /// text is longer than [`WINDOW_OVER`].
    before: String,
    after: String,
    multiline: bool,
    forbidden: Option<Forbidden>,
    notice: Option<String>,
}

/// Two editors are equal when they show the same: text, cursor, kind and
/// notice (their undo histories are not compared), so a screen state holding
/// one can still be compared.
impl PartialEq for TextEditor {
    fn eq(&self, other: &Self) -> bool {
        self.area.lines() == other.area.lines()
            && self.area.cursor() == other.area.cursor()
            && self.before == other.before
            && self.after == other.after
            && self.multiline == other.multiline
            && self.forbidden == other.forbidden
            && self.notice == other.notice
    }
}

impl Eq for TextEditor {}

impl TextEditor {
    /// An editor holding `text` (its lines when `multiline`, else one line),
    /// the cursor at its end.
    pub fn new(text: &str, multiline: bool) -> Self {
        let lines: Vec<String> = if multiline {
            // A comment read from a file with Windows line ends keeps no `\r`.
            text.split('\n')
                .map(|line| line.trim_end_matches('\r').to_string())
                .collect()
        } else {
            vec![text.replace(['\n', '\r'], " ")]
        };
        let mut editor = TextEditor {
            area: TextArea::default(),
            before: String::new(),
            after: String::new(),
            multiline,
            forbidden: None,
            notice: None,
        };
        if multiline && text.len() > WINDOW_OVER {
            let full = lines.join("\n");
            let end = full.len();
            editor.place_window(full, end);
        } else {
            editor.area = editor.area_of(lines);
            editor.area.move_cursor(CursorMove::Bottom);
            editor.area.move_cursor(CursorMove::End);
        }
        editor
    }

    /// A text area of `lines` as this editor draws them.
    fn area_of(&self, lines: Vec<String>) -> TextArea<'static> {
        let mut area = TextArea::new(lines);
        area.set_wrap_mode(if self.multiline {
            WrapMode::WordOrGlyph
        } else {
            WrapMode::None
        });
        // The cursor shows as a reversed cell; an underlined line would only
        // add noise to a box this small.
        area.set_cursor_line_style(Style::default());
        area.set_cursor_style(Style::default().add_modifier(Modifier::REVERSED));
        area
    }

    /// Edits `full` (the whole text) through a window around byte `at` (a char
    /// boundary), where the cursor goes. The window's ends are cut after a line's
    /// end or a blank where one is near, so that its words wrap as in the whole
    /// text; the text area's undo history starts again.
    fn place_window(&mut self, mut full: String, at: usize) {
        let start = match at.checked_sub(WINDOW_HALF) {
            Some(from) => cut_near(&full, from, true),
            None => 0,
        };
        let end = match at.checked_add(WINDOW_HALF).filter(|&to| to < full.len()) {
            Some(to) => cut_near(&full, to, false),
            None => full.len(),
        };
        self.after = full.split_off(end);
        let window = full.split_off(start);
        self.before = full;
        let head = &window[..at - start];
        let row = head.matches('\n').count();
        let col = head[head.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count();
        self.area = self.area_of(window.split('\n').map(str::to_string).collect());
        self.jump(row, col);
    }

    /// The cursor's place in the whole text, in bytes.
    fn offset(&self) -> usize {
        let (row, col) = self.cursor();
        let lines = self.area.lines();
        let above: usize = lines[..row].iter().map(|l| l.len() + 1).sum();
        let line = &lines[row];
        let within = line.char_indices().nth(col).map_or(line.len(), |(i, _)| i);
        self.before.len() + above + within
    }

    /// Moves the window with the cursor when it came near an edge beyond which
    /// there is more text.
    fn follow(&mut self) {
        if self.before.is_empty() && self.after.is_empty() {
            return;
        }
        let at = self.offset() - self.before.len();
        let len: usize = self.area.lines().iter().map(|l| l.len() + 1).sum::<usize>() - 1;
        let near_start = at < WINDOW_MARGIN && !self.before.is_empty();
        let near_end = len - at < WINDOW_MARGIN && !self.after.is_empty();
        if near_start || near_end {
            let at = self.offset();
            self.place_window(self.text(), at);
        }
    }

    /// Where a move to the start or end of the line, or of the text, goes in the
    /// whole text, when the window holds only part of it (else `None`: the text
    /// area moves).
    fn far_move(&self, op: &EditOp) -> Option<usize> {
        let far = matches!(
            op,
            EditOp::Top | EditOp::Bottom | EditOp::Home | EditOp::End
        );
        if !far || self.before.is_empty() && self.after.is_empty() {
            return None;
        }
        let full = self.text();
        let at = self.offset();
        match op {
            EditOp::Top => Some(0),
            EditOp::Bottom => Some(full.len()),
            EditOp::Home => Some(full[..at].rfind('\n').map_or(0, |i| i + 1)),
            EditOp::End => Some(full[at..].find('\n').map_or(full.len(), |i| at + i)),
            _ => None,
        }
    }

    /// The same editor refusing `forbidden` when typed and replacing it in
    /// pasted text.
    pub fn forbidding(mut self, forbidden: Forbidden) -> Self {
        self.forbidden = Some(forbidden);
        self
    }

    /// The text, its lines joined by `\n`.
    pub fn text(&self) -> String {
        let window = self.area.lines().join("\n");
        if self.before.is_empty() && self.after.is_empty() {
            return window;
        }
        [self.before.as_str(), &window, &self.after].concat()
    }

    /// The lines of the text the editor shows: all of them, or those of the window
    /// around the cursor in a very long text.
    pub fn lines(&self) -> &[String] {
        self.area.lines()
    }

    /// The cursor: line and character (not byte) in [`TextEditor::lines`], from 0.
    pub fn cursor(&self) -> (usize, usize) {
        let c = self.area.cursor();
        (c.0, c.1)
    }

    /// True for an editor of several lines.
    pub fn is_multiline(&self) -> bool {
        self.multiline
    }

    /// What the editor last had to say (a character refused or replaced), until
    /// the next operation.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// Shows a message of the caller's under the text until the next operation.
    pub fn set_notice(&mut self, notice: impl Into<String>) {
        self.notice = Some(notice.into());
    }

    /// The text area, for the widget that draws it.
    pub fn textarea(&self) -> &TextArea<'static> {
        &self.area
    }

    /// Carries out `op`; returns true when the text changed.
    pub fn apply(&mut self, op: EditOp) -> bool {
        self.notice = None;
        if let Some(at) = self.far_move(&op) {
            self.place_window(self.text(), at);
            return false;
        }
        let changed = self.apply_here(op);
        self.follow();
        changed
    }

    /// [`TextEditor::apply`] in the text area.
    fn apply_here(&mut self, op: EditOp) -> bool {
        use EditOp::*;
        match op {
            Insert(c) => {
                if let Some(f) = self.forbidden.filter(|f| f.char == c) {
                    self.notice = Some(format!("{}: write {} instead", f.why, f.instead));
                    return false;
                }
                if c.is_control() {
                    return false;
                }
                self.area.insert_char(c);
                true
            }
            Newline if self.multiline => {
                // A comment read from a `;` comment may hold the `}` no brace comment can:
                // it stays on one line, which a `;` comment writes as it is.
                if let Some(f) = self.forbidden.filter(|f| self.text().contains(f.char)) {
                    self.notice = Some(format!(
                        "this comment holds {} and stays on one line: {}",
                        f.char, f.why
                    ));
                    return false;
                }
                self.area.insert_newline();
                true
            }
            Newline => false,
            DeleteBack => {
                let back = self.grapheme_before();
                if back == 0 {
                    return self.area.delete_newline();
                }
                for _ in 0..back {
                    self.area.move_cursor(CursorMove::Back);
                }
                self.area.delete_str(back)
            }
            DeleteForward => match self.grapheme_after() {
                0 => self.area.delete_next_char(),
                n => self.area.delete_str(n),
            },
            DeleteWordBack => self.area.delete_word(),
            DeleteToLineStart => self.area.delete_line_by_head(),
            DeleteToLineEnd => self.area.delete_line_by_end(),
            Left => {
                let (row, col) = self.cursor();
                match self.grapheme_before() {
                    0 => self.area.move_cursor(CursorMove::Back),
                    n => self.jump(row, col - n),
                }
                false
            }
            Right => {
                let (row, col) = self.cursor();
                match self.grapheme_after() {
                    0 => self.area.move_cursor(CursorMove::Forward),
                    n => self.jump(row, col + n),
                }
                false
            }
            Up => {
                self.area.move_cursor(CursorMove::Up);
                false
            }
            Down => {
                self.area.move_cursor(CursorMove::Down);
                false
            }
            Home => {
                self.area.move_cursor(CursorMove::Head);
                false
            }
            End => {
                self.area.move_cursor(CursorMove::End);
                false
            }
            WordLeft => {
                self.area.move_cursor(CursorMove::WordBack);
                false
            }
            WordRight => {
                self.area.move_cursor(CursorMove::WordForward);
                false
            }
            Top => {
                self.area.move_cursor(CursorMove::Top);
                self.area.move_cursor(CursorMove::Head);
                false
            }
            Bottom => {
                self.area.move_cursor(CursorMove::Bottom);
                self.area.move_cursor(CursorMove::End);
                false
            }
            Undo => self.area.undo(),
            Redo => self.area.redo(),
        }
    }

    /// Inserts a pasted text at the cursor, as one edit: its lines kept in a
    /// comment (joined by spaces in a one-line field), tabs as spaces, other
    /// control characters (an ESC would reach the terminal) dropped, a
    /// forbidden character replaced. Says what it changed. Returns true when
    /// the text changed.
    pub fn paste(&mut self, text: &str) -> bool {
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        let mut clean = String::with_capacity(text.len());
        let mut replaced = false;
        let mut dropped = false;
        for c in text.chars() {
            match c {
                '\n' if self.multiline => clean.push('\n'),
                '\n' | '\t' => clean.push(' '),
                c if c.is_control() => dropped = true,
                c if self.forbidden.is_some_and(|f| f.char == c) => {
                    replaced = true;
                    clean.push(self.forbidden.map_or(c, |f| f.instead));
                }
                c => clean.push(c),
            }
        }
        let mut notes = Vec::new();
        if let Some(f) = self.forbidden.filter(|_| replaced) {
            notes.push(format!("{}: pasted {} became {}", f.why, f.char, f.instead));
        }
        if dropped {
            notes.push("control characters in the pasted text were left out".to_string());
        }
        self.notice = (!notes.is_empty()).then(|| notes.join("; "));
        if self.multiline && self.text().len() + clean.len() > WINDOW_OVER {
            // A long text pasted: the window takes it in, the cursor after it.
            let mut full = self.text();
            let at = self.offset() + clean.len();
            full.insert_str(self.offset(), &clean);
            self.place_window(full, at);
            return !clean.is_empty();
        }
        self.area.insert_str(clean)
    }

    fn jump(&mut self, row: usize, col: usize) {
        let clamp = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        self.area
            .move_cursor(CursorMove::Jump(clamp(row), clamp(col)));
    }

    /// Characters in the grapheme before the cursor (0 at a line's start).
    fn grapheme_before(&self) -> usize {
        let (row, col) = self.cursor();
        let line = &self.area.lines()[row];
        let head: String = line.chars().take(col).collect();
        head.graphemes(true)
            .next_back()
            .map_or(0, |g| g.chars().count())
    }

    /// Characters in the grapheme under the cursor (0 at a line's end).
    fn grapheme_after(&self) -> usize {
        let (row, col) = self.cursor();
        let line = &self.area.lines()[row];
        let tail: String = line.chars().skip(col).collect();
        tail.graphemes(true).next().map_or(0, |g| g.chars().count())
    }
}

/// A place to cut `text` near byte `at`, looking within a kilobyte before it (`back`,
/// for a window's start) or after it (for its end): at the nearest line end (a start
/// just after it, an end just before it), else just after a blank; else the char
/// boundary at or before `at`.
fn cut_near(text: &str, at: usize, back: bool) -> usize {
    let bytes = text.as_bytes();
    let span = if back {
        at.saturating_sub(1024)..at
    } else {
        at..(at + 1024).min(text.len())
    };
    let found = |b: u8| {
        let mut i = bytes[span.clone()].iter();
        let hit = match back {
            true => i.rposition(|&c| c == b),
            false => i.position(|&c| c == b),
        };
        hit.map(|k| span.start + k)
    };
    let line_end = found(b'\n').map(|k| if back { k + 1 } else { k });
    let mut cut = line_end
        .or_else(|| found(b' ').map(|k| k + 1))
        .unwrap_or(at);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}

#[cfg(test)]
#[path = "editor_tests.rs"]
mod tests;
