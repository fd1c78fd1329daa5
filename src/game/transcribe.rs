//! Free move text → a [`Game`]: what a player copies from a book, a magazine, a
//! correspondence card or an engine log. Move numbers in every form (`12.`,
//! `12...`, `12…`, glued or not), two-column scoresheets or running text,
//! results, draw offers `(=)`, `{comments}`, tag lines `[Name "value"]`, and every
//! move form the notation engine reads. It stops at the first move it cannot
//! read, keeping the game read so far.

use super::{Game, NodeId};
use crate::notation::{read_move, Lang, NotationError};
use crate::position::{color_name, Position};

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

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok<'a> {
    Word(&'a str),
    Comment(&'a str),
    Tag(&'a str),
}

#[derive(Debug, Clone)]
struct Token<'a> {
    tok: Tok<'a>,
    line: usize,
    col: usize,
}

/// Splits the text into words, comments and tag lines, with positions, one at a time (a
/// long text is never held twice over as a list of tokens).
struct Tokens<'a> {
    rest: &'a str,
    line: usize,
    col: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Self {
        Tokens {
            rest: text,
            line: 1,
            col: 1,
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
                    let end = rest.find('}').map_or(rest.len(), |i| i + 1);
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
                    // A variation or an aside: kept as a comment, parentheses balanced.
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
                    Tok::Comment(self.advance(end))
                }
                _ => {
                    let end = rest
                        .find(|ch: char| ch.is_whitespace() || matches!(ch, '{' | '[' | ';' | '|'))
                        .unwrap_or(rest.len());
                    Tok::Word(self.advance(end))
                }
            };
            return Some(Token { tok, line, col });
        }
        None
    }
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

/// The last `position startpos|fen … moves …` command of a UCI log, with its line
/// number and the byte offset where the command starts in that line.
fn last_uci_position(text: &str) -> Option<(usize, usize, &str)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            ["position startpos", "position fen "]
                .iter()
                .filter_map(|p| line.find(p))
                .min()
                .map(|at| (i + 1, at, line))
        })
        .last()
}

/// A UCI log (a GUI's or an engine's): the game is the last `position` command's
/// moves, followed by the `bestmove` answered to it, if any.
fn transcribe_uci_log(text: &str, fen_given: Option<Position>) -> Option<Transcript> {
    let (line_no, at, line) = last_uci_position(text)?;
    let mut words = Vec::new();
    let mut col = line[..at].chars().count() + 1;
    for w in line[at..].split(' ') {
        if !w.is_empty() {
            words.push((w, col));
        }
        col += w.chars().count() + 1;
    }
    let mut start = fen_given.unwrap_or_default();
    let mut i = 2;
    if words.get(1).map(|w| w.0) == Some("fen") {
        let fen: Vec<&str> = words[2..]
            .iter()
            .map(|w| w.0)
            .take_while(|w| *w != "moves")
            .collect();
        i = 2 + fen.len();
        match Position::from_fen(&fen.join(" ")) {
            Ok(p) => start = p,
            Err(e) => {
                let mut game = Game::new(start);
                game.set_tag("Result", "*");
                return Some(Transcript {
                    start: (line_no, 1, String::new()),
                    game,
                    error: Some(err(
                        line_no,
                        words[1].1,
                        &fen.join(" "),
                        &format!("bad FEN: {e}"),
                    )),
                });
            }
        }
    }
    let mut moves: Vec<(usize, usize, &str)> = Vec::new();
    if words.get(i).map(|w| w.0) == Some("moves") {
        moves.extend(words[i + 1..].iter().map(|(w, c)| (line_no, *c, *w)));
    }
    // The engine's answer to that position, if the log has it.
    for (j, later) in text.lines().enumerate().skip(line_no) {
        if let Some(b) = later.find("bestmove ") {
            let mv = later[b + 9..].split_whitespace().next().unwrap_or("");
            if !mv.is_empty() && mv != "(none)" {
                let c = later[..b + 9].chars().count() + 1;
                moves.push((j + 1, c, mv));
            }
            break;
        }
    }
    let mut game = Game::new(start);
    if start != Position::start() {
        game.set_tag("SetUp", "1");
        game.set_tag("FEN", &start.fen());
    }
    let mut pos = start;
    let mut at_node = NodeId::ROOT;
    for (l, c, text) in moves {
        match read_move(text, &pos, Lang::english()) {
            Ok((mv, _)) => {
                at_node = game.add_move(at_node, mv, &pos);
                pos = pos.apply(mv).unwrap_or(pos);
            }
            Err(e) => {
                game.set_tag("Result", "*");
                return Some(Transcript {
                    start: (line_no, 1, String::new()),
                    game,
                    error: Some(err(l, c, text, &reason(&e, &pos))),
                });
            }
        }
    }
    game.set_tag("Result", "*");
    Some(Transcript {
        start: (line_no, 1, String::new()),
        game,
        error: None,
    })
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
    /// At an error.
    Error,
}

/// Reads every game of free move text, each from `start` in piece-letter language `lang`
/// (never empty). A UCI log (text with `position startpos …` or `position fen …` commands)
/// is read as one game. Games follow one another after a result (`1-0`, `Resigns`,
/// `draw`, …) when the next one starts with tags or with move 1; tags after moves start a
/// new game too. Reading stops at the first error: a move that cannot be played, or text
/// after a result that does not start a game; that error is in the last game's transcript.
/// Nothing of the text is passed over silently.
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
        let (mut t, ended) = read_game(&mut self.tokens, self.start, self.lang, self.fen_given);
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
fn read_game(
    tokens: &mut Peek<'_>,
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
    while let Some(token) = tokens.peek() {
        if matches!(token.tok, Tok::Tag(_)) && at != NodeId::ROOT {
            // Tags after moves: the tag section of the next game.
            ended = Ended::NextGame;
            break;
        }
        let Some(Token { tok, line, col }) = tokens.next() else {
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
        let mut text = word.to_string();
        while let Some(Token {
            tok: Tok::Word(next),
            ..
        }) = tokens.peek()
        {
            if !is_suffix_word(next) {
                break;
            }
            text.push(' ');
            text.push_str(next);
            tokens.next();
        }
        if plies == MAX_PLIES {
            let why = format!(
                "more than {MAX_PLIES} half-moves in one game, longer than any game of chess: \
                 reading stops here"
            );
            error = Some(err(line, col, &text, &why));
            break;
        }
        match read_move(&text, &pos, lang) {
            Ok((mv, mt)) => {
                plies += 1;
                at = game.add_move(at, mv, &pos);
                let node = game.node_mut(at);
                node.nags.extend(mt.nag);
                node.draw_offer |= mt.draw_offer;
                pos = pos.apply(mv).unwrap_or(pos);
            }
            Err(e) => {
                error = Some(err(line, col, &text, &reason(&e, &pos)));
                break;
            }
        }
    }
    if error.is_some() {
        ended = Ended::Error;
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
                    error = Some(err(
                        token.line,
                        token.col,
                        w,
                        &format!(
                            "text after the result {r}: a game ends at its result, and a \
                             next game starts with its tags or with move 1"
                        ),
                    ));
                    ended = Ended::Error;
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

fn reason(e: &NotationError, pos: &Position) -> String {
    if e.is_malformed() {
        e.to_string()
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
mod tests {
    use super::*;

    fn sans(t: &Transcript) -> Vec<String> {
        t.game
            .mainline()
            .iter()
            .map(|id| t.game.node(*id).san.clone())
            .collect()
    }

    fn read(text: &str) -> Transcript {
        transcribe(text, Position::start(), Lang::english(), false)
    }

    #[test]
    fn move_numbers_in_every_form() {
        for text in [
            "1. e4 e5 2. Nf3 Nc6",
            "1.e4 e5 2.Nf3 Nc6",
            "1. e4\n1... e5\n2. Nf3\n2... Nc6",
            "1 e4 e5\n2 Nf3 Nc6",
            "1) e4 e5 2) Nf3 Nc6",
            "1. e4 e5 2. Nf3 2…Nc6",
            "1.e4 1...e5 2.Nf3 2. ... Nc6",
            "e2-e4 e7-e5 Ng1-f3 Nb8-c6",
            "e2e4 e7e5 g1f3 b8c6",
            "1. 5254 5755 2. 7163 2836",
            "1 | e4 | e5\n2 | Nf3 | Nc6",
        ] {
            let t = read(text);
            assert_eq!(t.error, None, "{text}");
            assert_eq!(sans(&t), ["e4", "e5", "Nf3", "Nc6"], "{text}");
        }
    }

    #[test]
    fn results_comments_and_marks() {
        let t = read("1. e4 {best by test} e5 2. Nf3 (=) Nc6 ½–½");
        assert_eq!(t.game.tag("Result"), Some("1/2-1/2"));
        let line = t.game.mainline();
        assert_eq!(t.game.node(line[0]).comments_after, ["best by test"]);
        assert!(t.game.node(line[2]).draw_offer);
        let t = read("1. f3 e5 2. g4 Qh4 mate 0–1");
        assert_eq!(sans(&t).last().map(String::as_str), Some("Qh4#"));
        assert_eq!(t.game.tag("Result"), Some("0-1"));
        // Black, to move after Qh5, resigned.
        let t = read("1. e4 e5 2. Qh5 Resigns");
        assert_eq!(t.game.tag("Result"), Some("1-0"));
        let t = read("1. e4 e5 White resigns");
        assert_eq!(t.game.tag("Result"), Some("0-1"));
        let t = read("1. e4 e5 Black resigns");
        assert_eq!(t.game.tag("Result"), Some("1-0"));
    }

    #[test]
    fn uci_logs_give_the_last_position_and_the_best_move() {
        let log = "uci\nid name Stockfish\nuciok\nisready\nreadyok\n\
            position startpos moves e2e4\ngo wtime 60000\ninfo depth 12 score cp 30\nbestmove e7e5\n\
            position startpos moves e2e4 e7e5 g1f3\ngo wtime 59000\nbestmove b8c6 ponder f1b5\n";
        let t = read(log);
        assert_eq!(t.error, None);
        assert_eq!(sans(&t), ["e4", "e5", "Nf3", "Nc6"]);
        let log = "position fen 4k3/8/8/8/8/8/4P3/4K3 b - - 0 40 moves e8d7 e2e4\n";
        let t = read(log);
        assert_eq!(sans(&t), ["Kd7", "e4"]);
        assert_eq!(t.game.tag("FEN"), Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"));
        let t = read("position startpos moves e2e4 e7e5 e1e2 a7a6 e2e4");
        let e = t.error.clone().expect("illegal king move");
        assert_eq!((e.line, e.col, e.token.as_str()), (1, 45, "e2e4"));
        assert_eq!(sans(&t), ["e4", "e5", "Ke2", "a6"]);
    }

    #[test]
    fn games_follow_one_another_and_nothing_after_a_result_is_lost() {
        let all = |text: &str| transcribe_all(text, Position::start(), Lang::english(), false);
        let games = all("1. e4 e5 1-0 {time}\n\n1. d4 d5 0-1\n[Round \"3\"] 1. c4 *");
        assert_eq!(games.len(), 3);
        assert!(games.iter().all(|t| t.error.is_none()));
        assert_eq!(sans(&games[0]), ["e4", "e5"]);
        assert_eq!(
            games[0]
                .game
                .node(games[0].game.mainline()[1])
                .comments_after,
            ["time"]
        );
        assert_eq!(games[1].game.tag("Result"), Some("0-1"));
        assert_eq!(games[2].game.tag("Round"), Some("3"));
        // Text after a result that does not start a game is an error at that text; the
        // game before it keeps its result.
        let games = all("1. e4 e5 1-0 2. Nf3 Nc6");
        assert_eq!(games.len(), 1);
        let e = games[0].error.clone().expect("an error");
        assert_eq!((e.line, e.col, e.token.as_str()), (1, 14, "2."));
        assert_eq!(games[0].game.tag("Result"), Some("1-0"));
        // The single-game reader says where a second game starts.
        let t = read("1. e4 e5 1-0\n1. d4");
        let e = t.error.expect("a second game");
        assert_eq!((e.line, e.col), (2, 1));
        assert_eq!(e.reason, "a second game starts here");
    }

    #[test]
    fn a_runaway_game_stops_at_the_ply_limit_with_an_error() {
        let text = "Nf3 Nf6 Ng1 Ng8\n".repeat(MAX_PLIES / 4 + 1);
        let t = read(&text);
        assert_eq!(t.game.mainline().len(), MAX_PLIES);
        let e = t.error.expect("stopped");
        assert_eq!(
            (e.line, e.col, e.token.as_str()),
            (MAX_PLIES / 4 + 1, 1, "Nf3")
        );
        assert!(
            e.reason
                .starts_with("more than 100000 half-moves in one game"),
            "{}",
            e.reason
        );
    }

    #[test]
    fn stops_at_the_first_bad_move_with_its_position() {
        let t = read("1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Nf3 4. O-O");
        let e = t.error.clone().expect("an error");
        assert_eq!((e.line, e.col), (3, 8));
        assert_eq!(e.token, "Nf3");
        assert!(
            e.reason.contains("no black knight can reach f3"),
            "{}",
            e.reason
        );
        assert_eq!(sans(&t), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(t.game.tag("Result"), Some("*"));
    }
}
