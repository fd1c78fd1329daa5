//! How a piece of the input is shown in a message: the one helper every message that quotes
//! a token, a tag value or a configuration value goes through.
//!
//! Input can hold anything. Written raw to a terminal, an ESC starts an escape sequence (it
//! can recolour, clear or retitle the user's terminal), a BEL rings, a NUL or a carriage
//! return hides what follows; and a token of several megabytes floods the screen. So
//! control characters (and the invisible ones that reorder text) are written as escapes
//! (`\u{1b}`, `\0`, `\n`, as Rust writes them), and a long token is cut, with its length
//! said.

use std::fmt;

/// Characters of a token a message shows before cutting it.
pub const TOKEN_CHARS: usize = 40;

/// Characters of a longer text (a reason that quotes a value) shown before cutting it.
pub const TEXT_CHARS: usize = 400;

/// `text` as a message shows a token: escaped, cut after [`TOKEN_CHARS`] characters.
pub fn shown(text: &str) -> Shown<'_> {
    Shown {
        text,
        max: TOKEN_CHARS,
    }
}

/// `text` as a message shows a longer piece of text (a reason, a line): escaped, cut after
/// [`TEXT_CHARS`] characters.
pub fn shown_text(text: &str) -> Shown<'_> {
    Shown {
        text,
        max: TEXT_CHARS,
    }
}

/// `text` with its unsafe characters escaped, not cut: for a message put together from
/// pieces already shortened, whose advice must not be cut off.
pub fn safe(text: &str) -> Shown<'_> {
    Shown {
        text,
        max: usize::MAX,
    }
}

/// A piece of input ready for a message (see the module documentation); `Display` writes it.
#[derive(Debug, Clone, Copy)]
pub struct Shown<'a> {
    text: &'a str,
    max: usize,
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut chars = self.text.chars();
        for c in chars.by_ref().take(self.max) {
            write_char(f, c)?;
        }
        if chars.next().is_some() {
            let total = self.text.chars().count();
            write!(f, "… ({total} characters in all)")?;
        }
        Ok(())
    }
}

/// Whether a character must not reach a terminal as it is.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c,
            // Bidirectional controls (they reorder the text around them), zero-width
            // characters, the line and paragraph separators.
            '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}')
}

fn write_char(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    if is_unsafe(c) {
        write!(f, "{}", c.escape_debug())?;
        // `escape_debug` leaves some of them as they are (the separators): spell them out.
        if c.escape_debug().len() == 1 {
            write!(f, "\\u{{{:x}}}", c as u32)?;
        }
        Ok(())
    } else {
        write!(f, "{c}")
    }
}

/// `text` with its unsafe characters (see [`is_unsafe`]) escaped, whole; `None` when it has
/// none. For text that is kept, not only shown (a tag value written back to a file).
pub fn escaped(text: &str) -> Option<String> {
    if !text.chars().any(is_unsafe) {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(shown("e4").to_string(), "e4");
        assert_eq!(shown("a\u{1b}[31mb").to_string(), "a\\u{1b}[31mb");
        assert_eq!(shown("\u{7}\0\n\r\t").to_string(), "\\u{7}\\0\\n\\r\\t");
        assert_eq!(shown("a\u{202e}b").to_string(), "a\\u{202e}b");
        assert_eq!(shown("a\u{2028}b").to_string(), "a\\u{2028}b");
        // Letters of every script stay as they are.
        assert_eq!(shown("Müller ♘f3 Петров").to_string(), "Müller ♘f3 Петров");
    }

    #[test]
    fn long_tokens_are_cut_with_their_length() {
        let long = "x".repeat(5_000_000);
        let s = shown(&long).to_string();
        assert_eq!(
            s,
            format!("{}… (5000000 characters in all)", "x".repeat(40))
        );
        assert_eq!(shown(&"y".repeat(40)).to_string(), "y".repeat(40));
        assert!(shown_text(&long).to_string().len() < 500);
    }

    #[test]
    fn escaped_keeps_text_and_marks_what_it_changed() {
        assert_eq!(escaped("Carlsen"), None);
        assert_eq!(escaped("A\0B\u{1b}").as_deref(), Some("A\\u{0}B\\u{1b}"));
    }
}
