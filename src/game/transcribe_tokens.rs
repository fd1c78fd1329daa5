//! The words of free move text, with where each stands: words, `{comments}`, `;` comments,
//! tag lines, and parenthesised asides (a variation kept as a comment).

/// What a token is: a word (a move, a move number, a result, a mark), the text of a
/// comment or aside, or a whole tag line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok<'a> {
    Word(&'a str),
    Comment(&'a str),
    Tag(&'a str),
}

/// A token with its line and column (1-based) and its bytes in the text.
#[derive(Debug, Clone)]
pub(super) struct Token<'a> {
    pub(super) tok: Tok<'a>,
    pub(super) line: usize,
    pub(super) col: usize,
    /// Where the token starts and ends in the text, in bytes.
    pub(super) start: usize,
    pub(super) end: usize,
}

/// Splits the text into words, comments and tag lines, with positions, one at a time (a
/// long text is never held twice over as a list of tokens).
pub(super) struct Tokens<'a> {
    rest: &'a str,
    line: usize,
    col: usize,
    /// Length of the whole text (to give offsets from what is left of it).
    len: usize,
}

impl<'a> Tokens<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Tokens {
            rest: text,
            line: 1,
            col: 1,
            len: text.len(),
        }
    }

    /// Advances over `n` bytes of the text, keeping line and column.
    fn advance(&mut self, n: usize) -> &'a str {
        let (taken, left) = self.rest.split_at(n);
        for c in taken.chars() {
            if c == '\n' {
                self.line += 1;
                self.col = 1;
            } else {
                self.col += 1;
            }
        }
        self.rest = left;
        taken
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        while let Some(c) = self.rest.chars().next() {
            let (line, col) = (self.line, self.col);
            let rest = self.rest;
            let tok = match c {
                c if c.is_whitespace() || c == '|' || c == '\u{feff}' => {
                    self.advance(c.len_utf8());
                    continue;
                }
                '{' => {
                    // Only the comment's own text is looked through for a game start.
                    let close = rest.find('}').unwrap_or(rest.len());
                    let cut = next_game(&rest[..close]);
                    let end = if cut < close {
                        cut
                    } else {
                        (close + 1).min(rest.len())
                    };
                    let body = self.advance(end);
                    Tok::Comment(body[1..].strip_suffix('}').unwrap_or(&body[1..]).trim())
                }
                ';' => {
                    let end = rest.find('\n').unwrap_or(rest.len());
                    let body = self.advance(end);
                    Tok::Comment(body[1..].trim())
                }
                '[' => {
                    let end = rest.find(']').map_or(rest.len(), |i| i + 1);
                    Tok::Tag(self.advance(end))
                }
                '(' if !is_mark_group(rest) => {
                    // A variation or an aside: kept as a comment, parentheses balanced
                    // (one left open ends where the next game starts).
                    let mut depth = 0usize;
                    let mut end = rest.len();
                    for (i, ch) in rest.char_indices() {
                        match ch {
                            '(' => depth += 1,
                            ')' => {
                                depth -= 1;
                                if depth == 0 {
                                    end = i + 1;
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                    let end = next_game(&rest[..end]).min(end);
                    Tok::Comment(self.advance(end))
                }
                _ => {
                    let end = rest
                        .find(|ch: char| ch.is_whitespace() || matches!(ch, '{' | '[' | ';' | '|'))
                        .unwrap_or(rest.len());
                    Tok::Word(self.advance(end))
                }
            };
            let (start, end) = (self.len - rest.len(), self.len - self.rest.len());
            return Some(Token {
                tok,
                line,
                col,
                start,
                end,
            });
        }
        None
    }
}

/// Where a comment or variation left open in `rest` ends: at a blank line followed by a
/// line that starts a game (a tag, `[Event "…"]`, or the first move, `1.`), as the PGN
/// readers end one at the next game's tags; else at the end of the text. So an unclosed `{`
/// or `(` costs its own game only, not every game after it.
fn next_game(rest: &str) -> usize {
    let mut from = 0;
    while let Some(k) = rest[from..].find('\n') {
        let nl = from + k;
        let mut lines = rest[nl + 1..].split_inclusive('\n');
        let mut blank = false;
        for line in lines.by_ref() {
            let text = line.trim();
            if text.is_empty() {
                blank = true;
                continue;
            }
            if blank && (text.starts_with('[') || text.starts_with("1.")) {
                return nl;
            }
            break;
        }
        from = nl + 1;
    }
    rest.len()
}

/// `(=)` or a promotion piece in parentheses such as `(Q)`: marks, not asides.
fn is_mark_group(s: &str) -> bool {
    let Some(close) = s.find(')') else {
        return false;
    };
    let inner = &s[1..close];
    inner == "="
        || (!inner.is_empty()
            && inner.chars().count() <= 2
            && inner.chars().all(|c| !c.is_whitespace() && c != '('))
}
