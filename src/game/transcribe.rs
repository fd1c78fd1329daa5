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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: \"{token}\": {reason}")]
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

/// Splits the text into words, comments and tag lines, with positions.
fn tokenize(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let (mut line, mut col) = (1usize, 1usize);
    let mut rest = text;
    // Advances over `n` bytes of `rest`, keeping line and column.
    fn advance<'a>(rest: &mut &'a str, n: usize, line: &mut usize, col: &mut usize) -> &'a str {
        let (taken, left) = rest.split_at(n);
        for c in taken.chars() {
            if c == '\n' {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
        }
        *rest = left;
        taken
    }
    while let Some(c) = rest.chars().next() {
        let (l, cl) = (line, col);
        let tok = match c {
            c if c.is_whitespace() || c == '|' || c == '\u{feff}' => {
                advance(&mut rest, c.len_utf8(), &mut line, &mut col);
                continue;
            }
            '{' => {
                let end = rest.find('}').map_or(rest.len(), |i| i + 1);
                let body = advance(&mut rest, end, &mut line, &mut col);
                Tok::Comment(body[1..].strip_suffix('}').unwrap_or(&body[1..]).trim())
            }
            ';' => {
                let end = rest.find('\n').unwrap_or(rest.len());
                let body = advance(&mut rest, end, &mut line, &mut col);
                Tok::Comment(body[1..].trim())
            }
            '[' => {
                let end = rest.find(']').map_or(rest.len(), |i| i + 1);
                Tok::Tag(advance(&mut rest, end, &mut line, &mut col))
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
                Tok::Comment(advance(&mut rest, end, &mut line, &mut col))
            }
            _ => {
                let end = rest
                    .find(|ch: char| ch.is_whitespace() || matches!(ch, '{' | '[' | ';' | '|'))
                    .unwrap_or(rest.len());
                Tok::Word(advance(&mut rest, end, &mut line, &mut col))
            }
        };
        out.push(Token {
            tok,
            line: l,
            col: cl,
        });
    }
    out
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
                    game,
                    error: Some(err(l, c, text, &reason(&e, &pos))),
                });
            }
        }
    }
    game.set_tag("Result", "*");
    Some(Transcript { game, error: None })
}

/// Reads free move text from `start` in piece-letter language `lang`. A UCI log
/// (text with `position startpos …` or `position fen …` commands) is read as one.
pub fn transcribe(text: &str, start: Position, lang: &Lang, fen_given: bool) -> Transcript {
    if let Some(t) = transcribe_uci_log(text, fen_given.then_some(start)) {
        return t;
    }
    let tokens = tokenize(text);
    let mut game = Game::new(start);
    let mut pos = start;
    let mut at = NodeId::ROOT;
    let mut result = None;
    let mut error = None;
    let mut i = 0;
    while i < tokens.len() {
        let Token { tok, line, col } = tokens[i].clone();
        i += 1;
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
        let next_is_resigns = matches!(tokens.get(i), Some(Token { tok: Tok::Word(n), .. }) if n.eq_ignore_ascii_case("resigns"));
        if lower == "resigns" || (matches!(lower.as_str(), "white" | "black") && next_is_resigns) {
            // "41. Qh5 Resigns": the side to move resigned; "White resigns" says who.
            let white_resigned = match lower.as_str() {
                "white" => true,
                "black" => false,
                _ => pos.side_to_move() == chess::Color::White,
            };
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
        }) = tokens.get(i)
        {
            if !is_suffix_word(next) {
                break;
            }
            text.push(' ');
            text.push_str(next);
            i += 1;
        }
        match read_move(&text, &pos, lang) {
            Ok((mv, mt)) => {
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
    let result = if error.is_some() {
        "*"
    } else {
        result.unwrap_or("*")
    };
    game.set_tag("Result", result);
    Transcript { game, error }
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
