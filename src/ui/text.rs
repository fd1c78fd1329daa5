//! Text measured the way a terminal shows it: by display width (a CJK letter
//! takes two cells, a combining accent none), never by `chars().count()`. Cut
//! with an ellipsis, or wrapped at spaces, so that nothing runs off a panel.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The most of one comment the move list lays out, in bytes (about a hundred lines at 80
/// columns): a longer one (a whole article, megabytes) ends in `…` there, so that
/// drawing costs what a screen can show, however long the comment; the comment editor
/// has it whole.
pub const COMMENT_SHOWN: usize = 8 * 1024;

/// The cells `text` takes on the screen.
pub fn width(text: &str) -> usize {
    text.width()
}

/// `text` cut to at most `max` cells, ending in `…` when something was cut.
pub fn fit(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// `text` cut from the left to at most `max` cells (`…games/club.pgn`): the end of
/// a path says the most.
pub fn fit_left(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut kept = Vec::new();
    let mut used = 0;
    for c in text.chars().rev() {
        let w = c.width().unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        kept.push(c);
        used += w;
    }
    let mut out = String::from("…");
    out.extend(kept.into_iter().rev());
    out
}

/// `text` broken into lines of at most `max` cells, at spaces where it can be and
/// inside a word only when the word alone is wider than a line.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    wrap_first(text, max, usize::MAX)
}

/// The first `limit` lines (at least one) of [`wrap`]: a text of megabytes costs only
/// what those lines take, as when all that is wanted is whether it fills a box.
pub fn wrap_first(text: &str, max: usize, limit: usize) -> Vec<String> {
    let max = max.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if lines.len() >= limit {
            return lines;
        }
        let needed = if line.is_empty() {
            width(word)
        } else {
            width(&line) + 1 + width(word)
        };
        if needed <= max {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // A word wider than a line is split where the line ends.
        let mut used = 0;
        for c in word.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > max && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                used = 0;
                if lines.len() >= limit {
                    return lines;
                }
            }
            line.push(c);
            used += w;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_letters_count_twice() {
        assert_eq!(width("王"), 2);
        assert_eq!(width("Ding Liren 丁立人"), 17);
        assert_eq!(fit("丁立人丁立人", 5), "丁立…");
        assert_eq!(fit("Carlsen", 7), "Carlsen");
        assert_eq!(fit("Carlsen", 4), "Car…");
        assert_eq!(fit("Carlsen", 0), "");
        assert_eq!(fit_left("games/club.pgn", 9), "…club.pgn");
    }

    /// The first lines of a text of megabytes, words or one long word, are those of
    /// the whole wrap, and come without wrapping the rest.
    #[test]
    fn the_first_lines_of_a_wrap_are_the_wraps_first_lines() {
        for text in ["word ".repeat(2_000_000), "x".repeat(10_000_000)] {
            let first = wrap_first(&text, 40, 3);
            assert_eq!(first.len(), 3);
            let small = &text[..1000];
            assert_eq!(first, wrap(small, 40)[..3]);
        }
        assert_eq!(wrap_first("a b", 40, 3), ["a b"]);
        assert_eq!(wrap_first("", 40, 3), [""]);
    }

    #[test]
    fn wrapping_breaks_at_spaces_and_splits_only_long_words() {
        assert_eq!(
            wrap("Mark the move a mistake (?)", 12),
            ["Mark the", "move a", "mistake (?)"]
        );
        assert_eq!(wrap("abcdefghij kl", 4), ["abcd", "efgh", "ij", "kl"]);
        assert_eq!(wrap("", 5), [""]);
        for line in wrap("丁立人丁立人 x", 5) {
            assert!(width(&line) <= 5, "{line}");
        }
    }
}
