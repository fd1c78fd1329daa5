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

/// An editor of lines of text with a cursor.
#[derive(Debug, Clone)]
pub struct TextEditor {
    area: TextArea<'static>,
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
        let mut area = TextArea::new(lines);
        area.set_wrap_mode(if multiline {
            WrapMode::WordOrGlyph
        } else {
            WrapMode::None
        });
        // The cursor shows as a reversed cell; an underlined line would only
        // add noise to a box this small.
        area.set_cursor_line_style(Style::default());
        area.set_cursor_style(Style::default().add_modifier(Modifier::REVERSED));
        area.move_cursor(CursorMove::Bottom);
        area.move_cursor(CursorMove::End);
        TextEditor {
            area,
            multiline,
            forbidden: None,
            notice: None,
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
        self.area.lines().join("\n")
    }

    /// The lines of the text.
    pub fn lines(&self) -> &[String] {
        self.area.lines()
    }

    /// The cursor: line and character (not byte) in the line, from 0.
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
        use EditOp::*;
        self.notice = None;
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

#[cfg(test)]
#[path = "editor_tests.rs"]
mod tests;
