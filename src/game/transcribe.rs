//! Free move text → a [`Game`]: what a player copies from a book, a magazine, a
//! correspondence card or an engine log. Move numbers in every form (`12.`,
//! `12...`, `12…`, glued or not), two-column scoresheets or running text,
//! results, draw offers `(=)`, `{comments}`, tag lines `[Name "value"]`, and every
//! move form the notation engine reads. Games follow one another after a result. A game
//! stops being read at the first move it cannot read, or at text after its result that is
//! no game: it says where, keeps the rest of the game's text in a comment, and the next
//! game is read as usual.

#[path = "transcribe_tokens.rs"]
mod tokens;
#[path = "transcribe_uci.rs"]
mod uci;

use super::{Game, NodeId};
use crate::notation::{read_move, Lang, NotationError};
use crate::position::{color_name, Position};
use tokens::{Tok, Token, Tokens};
use uci::transcribe_uci_log;

/// The first thing in the text that could not be read as part of a game.
/// Shown as `LINE:COL: "TOKEN": reason`, the token and reason made safe to print (see
/// [`crate::message`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{line}:{col}: \"{}\": {}",
    crate::message::shown(token),
    crate::message::shown_text(reason)
)]
pub struct TranscribeError {
    /// 1-based line of the token.
    pub line: usize,
    /// 1-based column (in characters) of the token.
    pub col: usize,
    /// The token as written (with any marks that followed it).
    pub token: String,
    /// Why it could not be read, in the notation engine's words.
    pub reason: String,
}

/// What the text gave: the game (its result `*` when reading stopped early) and
/// the first error, if any.
#[derive(Debug, Clone)]
pub struct Transcript {
    /// The game read, whole or up to the error.
    pub game: Game,
    /// Where and why reading stopped early.
    pub error: Option<TranscribeError>,
    /// Line, column and text of the game's first token (for a message about it).
    start: (usize, usize, String),
}

/// Words that only mark the move before them.
fn is_suffix_word(w: &str) -> bool {
    const MARKS: &[&str] = &[
        "e.p.", "ep", "e.p", "(=)", "+", "++", "#", "†", "‡", "ch", "ch.", "mate", "mat", "matt",
        "мат", "шах", "dis", "dbl", "!", "?", "!!", "??", "!?", "?!", "‼", "⁇", "⁉", "⁈", "≠",
    ];
    MARKS.contains(&w)
        || (w.starts_with('(') && w.ends_with(')') && w.chars().count() <= 4)
        || ((w.starts_with('=') || w.starts_with('/')) && w.chars().count() == 2)
        || w.chars().all(|c| matches!(c, '+' | '#' | '!' | '?'))
}

/// A result token in any of its written forms.
pub(crate) fn result_of(w: &str) -> Option<&'static str> {
    Some(match w {
        "1-0" | "1–0" | "1—0" | "1:0" => "1-0",
        "0-1" | "0–1" | "0—1" | "0:1" => "0-1",
        "1/2-1/2" | "½-½" | "½–½" | "1/2–1/2" | "½:½" | "1/2" | "½" | "=" => "1/2-1/2",
        "*" => "*",
        _ => return None,
    })
}

/// Strips a leading move number (`12.`, `12...`, `12…`, `12)`); `None` for a bare
/// number, which is then skipped.
pub(crate) fn strip_move_number(w: &str) -> Option<&str> {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Some(w);
    }
    let rest = &w[digits..];
    let after = rest.trim_start_matches(['.', '…', ')']);
    if after.len() != rest.len() {
        return if after.is_empty() { None } else { Some(after) };
    }
    // A bare number of up to three digits is a move number; four or five digits
    // are an ICCF move.
    if rest.is_empty() && digits <= 3 {
        return None;
    }
    Some(w)
}

fn parse_tag(t: &str) -> Option<(&str, String)> {
    let inner = t.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name, value.replace("\\\"", "\"").replace("\\\\", "\\")))
}

/// Reads free move text from `start` in piece-letter language `lang`: the first game of
/// [`transcribe_all`] (with the error that stopped reading, if any; text after the game's
/// result that is not a game of its own is such an error).
pub fn transcribe(text: &str, start: Position, lang: &Lang, fen_given: bool) -> Transcript {
    let mut games = transcribe_all(text, start, lang, fen_given);
    let mut first = games.swap_remove(0);
    if first.error.is_none() {
        if let Some(next) = games.first() {
            // The next game is text this one does not hold: say where it starts.
            let e = next.start.clone();
            first.error = Some(err(e.0, e.1, &e.2, "a second game starts here"));
        }
    }
    first
}

/// How reading one game of the text ended.
enum Ended {
    /// At the end of the text.
    Text,
    /// At the start of another game (tags, or move 1 after a result).
    NextGame,
}

/// Reads every game of free move text, each from `start` in piece-letter language `lang`
/// (never empty). A UCI log (text with `position startpos …` or `position fen …` commands)
/// is read as one game. Games follow one another after a result (`1-0`, `Resigns`,
/// `draw`, …) when the next one starts with tags or with move 1; tags after moves start a
/// new game too. A game stops being read at its first error (a move that cannot be played,
/// or text after its result that does not start a game): that error is in its transcript,
/// and the rest of its text, up to where the next game starts, is kept in a comment after
/// its last move read. Nothing of the text is passed over silently.
pub fn transcribe_all(
    text: &str,
    start: Position,
    lang: &Lang,
    fen_given: bool,
) -> Vec<Transcript> {
    transcribe_games(text, start, lang, fen_given).collect()
}

/// The games of [`transcribe_all`], one at a time: each is read when asked for, so a caller
/// that writes each game out holds only one in memory.
pub fn transcribe_games<'a>(
    text: &'a str,
    start: Position,
    lang: &'a Lang,
    fen_given: bool,
) -> Games<'a> {
    Games {
        text,
        tokens: Tokens::new(text).peekable(),
        start,
        lang,
        fen_given,
        started: false,
        done: false,
    }
}

/// The games of a text, read one at a time (see [`transcribe_games`]).
pub struct Games<'a> {
    text: &'a str,
    tokens: Peek<'a>,
    start: Position,
    lang: &'a Lang,
    fen_given: bool,
    started: bool,
    done: bool,
}

impl Iterator for Games<'_> {
    type Item = Transcript;

    fn next(&mut self) -> Option<Transcript> {
        if self.done {
            return None;
        }
        if !self.started {
            self.started = true;
            let given = self.fen_given.then_some(self.start);
            if let Some(t) = transcribe_uci_log(self.text, given) {
                self.done = true;
                return Some(t);
            }
        }
        // Enough of the first token to quote it (a message cuts it shorter anyway).
        let first = self.tokens.peek().map(|t| {
            let text = token_text(&t.tok).chars().take(64).collect();
            (t.line, t.col, text)
        });
        let (mut t, ended) = read_game(
            &mut self.tokens,
            self.text,
            self.start,
            self.lang,
            self.fen_given,
        );
        t.start = first.unwrap_or((1, 1, String::new()));
        self.done = !matches!(ended, Ended::NextGame);
        Some(t)
    }
}

/// Half-moves one game may have: many times the longest game the rules allow (under the
/// 75-move rule, under 18,000), so only runaway text reaches it; it bounds the memory a
/// game's tree takes (some 200 bytes a move).
pub const MAX_PLIES: usize = 100_000;

fn token_text<'a>(tok: &Tok<'a>) -> &'a str {
    match tok {
        Tok::Word(w) | Tok::Comment(w) | Tok::Tag(w) => w,
    }
}

/// Whether a word after a result starts a game of its own: move 1 (`1.`, `1.e4`, `1…`, a
/// bare `1`), or the first move number of the start position.
fn starts_a_game(word: &str, start: &Position) -> bool {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let Ok(number) = word[..digits].parse::<u32>() else {
        return false;
    };
    let rest = &word[digits..];
    let numbered = rest.is_empty() || rest.starts_with(['.', '…', ')']);
    numbered && (number == 1 || number == start.fullmove_number())
}

/// The tokens, with one to look at before taking it.
type Peek<'a> = std::iter::Peekable<Tokens<'a>>;

/// Reads one game from the tokens; leaves the token that starts the next game unread.
fn read_game<'a>(
    tokens: &mut Peek<'a>,
    text: &'a str,
    start: Position,
    lang: &Lang,
    fen_given: bool,
) -> (Transcript, Ended) {
    let mut game = Game::new(start);
    let mut pos = start;
    let mut at = NodeId::ROOT;
    let mut result = None;
    let mut error = None;
    let mut ended = Ended::Text;
    let mut plies = 0;
    // Where the text not read starts and how far its first tokens go, after an error.
    let mut unread = (0, 0);
    while let Some(token) = tokens.peek() {
        if matches!(token.tok, Tok::Tag(_)) && at != NodeId::ROOT {
            // Tags after moves: the tag section of the next game.
            ended = Ended::NextGame;
            break;
        }
        let Some(Token {
            tok,
            line,
            col,
            start: from,
            end: to,
        }) = tokens.next()
        else {
            break;
        };
        let word = match tok {
            Tok::Comment(c) => {
                if !c.is_empty() {
                    game.node_mut(at).comments_after.push(c.to_string());
                }
                continue;
            }
            Tok::Tag(t) => {
                match parse_tag(t) {
                    Some(("FEN", value)) if at == NodeId::ROOT && !fen_given => {
                        match Position::from_fen(&value) {
                            Ok(p) => {
                                pos = p;
                                game.start = p;
                                game.set_tag("SetUp", "1");
                                game.set_tag("FEN", &value);
                            }
                            Err(e) => {
                                error = Some(err(line, col, t, &format!("bad FEN tag: {e}")));
                                unread = (from, to);
                                break;
                            }
                        }
                    }
                    Some((name, value)) => game.set_tag(name, &value),
                    None => game.node_mut(at).comments_after.push(t.to_string()),
                }
                continue;
            }
            Tok::Word(w) => w,
        };
        let Some(word) = strip_move_number(word) else {
            continue;
        };
        if word.chars().all(|c| c == '.' || c == '…') {
            continue;
        }
        if let Some(r) = result_of(word) {
            result = Some(r);
            break;
        }
        let lower = word.to_lowercase();
        let next_is_resigns = matches!(tokens.peek(), Some(Token { tok: Tok::Word(n), .. }) if n.eq_ignore_ascii_case("resigns"));
        if lower == "resigns" || (matches!(lower.as_str(), "white" | "black") && next_is_resigns) {
            // "41. Qh5 Resigns": the side to move resigned; "White resigns" says who.
            let white_resigned = match lower.as_str() {
                "white" => true,
                "black" => false,
                _ => pos.side_to_move() == chess::Color::White,
            };
            if lower != "resigns" {
                tokens.next();
            }
            result = Some(if white_resigned { "0-1" } else { "1-0" });
            break;
        }
        if matches!(lower.as_str(), "draw" | "drawn") {
            result = Some("1/2-1/2");
            break;
        }
        // Marks written apart from their move: `exd6 e.p.`, `Nf3 (=)`, `e8 (Q)`.
        let mut written = word.to_string();
        let mut to = to;
        while let Some(&Token {
            tok: Tok::Word(next),
            end,
            ..
        }) = tokens.peek()
        {
            if !is_suffix_word(next) {
                break;
            }
            written.push(' ');
            written.push_str(next);
            to = end;
            tokens.next();
        }
        if plies == MAX_PLIES {
            let why = format!(
                "more than {MAX_PLIES} half-moves in one game, longer than any game of chess: \
                 reading stops here"
            );
            error = Some(err(line, col, &written, &why));
            unread = (from, to);
            break;
        }
        match read_move(&written, &pos, lang) {
            Ok((mv, mt)) => {
                plies += 1;
                at = game.add_move(at, mv, &pos);
                let node = game.node_mut(at);
                node.nags.extend(mt.nag);
                node.draw_offer |= mt.draw_offer;
                pos = pos.apply(mv).unwrap_or(pos);
            }
            Err(e) => {
                error = Some(err(line, col, &written, &reason(&e, &written, &pos, lang)));
                unread = (from, to);
                break;
            }
        }
    }
    if let Some(e) = &error {
        // Tags that follow a bad FEN tag are its game's; tags after a move, the next's.
        let moved = !matches!(e.token.as_bytes().first(), Some(b'['));
        let (kept, how) = unread_rest(tokens, text, unread, moved, false, &start);
        keep_unread(&mut game, at, e, kept);
        ended = how;
        game.set_tag("Result", "*");
    } else if let Some(r) = result {
        game.set_tag("Result", r);
        // After the result: comments still belong to this game; then the text ends, or
        // the next game starts, or what follows is an error (never passed over).
        ended = Ended::Text;
        while let Some(token) = tokens.peek() {
            match token.tok {
                Tok::Comment(c) => {
                    if !c.is_empty() {
                        game.node_mut(at).comments_after.push(c.to_string());
                    }
                    tokens.next();
                }
                Tok::Tag(_) => {
                    ended = Ended::NextGame;
                    break;
                }
                Tok::Word(w) if starts_a_game(w, &start) => {
                    ended = Ended::NextGame;
                    break;
                }
                Tok::Word(w) => {
                    let e = err(
                        token.line,
                        token.col,
                        w,
                        &format!(
                            "text after the result {r}: a game ends at its result, and a \
                             next game starts with its tags or with move 1"
                        ),
                    );
                    let taken = (token.start, token.end);
                    tokens.next();
                    let (kept, how) = unread_rest(tokens, text, taken, true, true, &start);
                    keep_unread(&mut game, at, &e, kept);
                    error = Some(e);
                    ended = how;
                    break;
                }
            }
        }
    } else {
        game.set_tag("Result", "*");
    }
    let transcript = Transcript {
        game,
        error,
        start: (1, 1, String::new()),
    };
    (transcript, ended)
}

/// The text of a game from where reading it stopped (`taken`: the bytes of the tokens
/// already taken there) to where the next game starts, taking its tokens: once a move came
/// (`moved`), tags or White's move 1; after a result (`after_result`), also the start
/// position's move number — else the end of the text.
fn unread_rest<'a>(
    tokens: &mut Peek<'a>,
    text: &'a str,
    taken: (usize, usize),
    mut moved: bool,
    mut after_result: bool,
    start: &Position,
) -> (&'a str, Ended) {
    let (from, mut end) = taken;
    while let Some(token) = tokens.peek() {
        match token.tok {
            Tok::Tag(_) if moved => return (&text[from..end], Ended::NextGame),
            Tok::Word(w) if after_result && starts_a_game(w, start) => {
                return (&text[from..end], Ended::NextGame)
            }
            Tok::Word(w) if moved && is_white_move_one(w) => {
                return (&text[from..end], Ended::NextGame)
            }
            Tok::Word(w) => {
                moved = true;
                after_result |= is_result_word(w);
            }
            _ => {}
        }
        end = token.end;
        tokens.next();
    }
    (&text[from..end], Ended::Text)
}

/// `1.`, `1.e4`, `1)` or a bare `1`: White's first move, which starts a game wherever it
/// stands (not `1...` or `1…`, Black's first).
fn is_white_move_one(word: &str) -> bool {
    word.strip_prefix('1').is_some_and(|rest| {
        rest.is_empty()
            || rest.starts_with(')')
            || (rest.starts_with('.') && !rest.starts_with(".."))
    })
}

/// A word that ends a game: a result in any written form, `resigns`, `draw`.
fn is_result_word(word: &str) -> bool {
    strip_move_number(word).and_then(result_of).is_some()
        || ["resigns", "draw", "drawn"]
            .iter()
            .any(|w| word.eq_ignore_ascii_case(w))
}

/// Keeps the text of a game that was not read, in a comment after its last move read (or
/// before its first), with where it starts: a second run, or a player, finds it there.
fn keep_unread(game: &mut Game, at: NodeId, e: &TranscribeError, kept: &str) {
    let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    if kept.is_empty() {
        return;
    }
    game.node_mut(at).comments_after.push(format!(
        "not read (from line {}, column {}): {kept}",
        e.line, e.col
    ));
}

fn reason(e: &NotationError, written: &str, pos: &Position, lang: &Lang) -> String {
    if e.is_malformed() {
        // A German `Sf3` read as English: say which languages read it.
        let fits = crate::notation::languages_reading(written.as_bytes(), pos, lang);
        match fits.first() {
            None => e.to_string(),
            Some(first) => format!(
                "{e}; it is a legal move in {}: try --lang {}",
                crate::notation::named_languages(&fits),
                first.code
            ),
        }
    } else {
        format!(
            "{} (move {}, {} to play)",
            e,
            pos.fullmove_number(),
            color_name(pos.side_to_move())
        )
    }
}

fn err(line: usize, col: usize, token: &str, reason: &str) -> TranscribeError {
    TranscribeError {
        line,
        col,
        token: token.to_string(),
        reason: reason.to_string(),
    }
}

#[cfg(test)]
#[path = "transcribe_tests.rs"]
mod tests;
