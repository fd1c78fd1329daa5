//! Opening a game that has a move that cannot be played (`:e` of a file written by
//! hand, or by a program with a bug): the part read is opened for repair, and
//! nothing of the rest is lost. The rest's main-line moves wait for the right
//! move, as after a correction (type it, and those that fit follow, with their
//! glyphs and comments); the rest is also kept in a comment, variations and all,
//! so a `:w` before the repair keeps it too.

use std::path::PathBuf;

use super::correct::read_waiting;
use super::record::number_moves;
use super::{App, CutMove, Pending};
use crate::game::edit::{quoted_comment, NOT_REPLAYED};
use crate::game::{Game, NodeId};
use crate::plural::count;
use crate::position::Position;

/// The label of the comment that keeps unread text the waiting moves cannot carry.
pub const UNREAD: &str = "not read (kept as written): ";

impl App {
    /// Opens `game` (read up to a problem) from `file`, with `rest` the text from
    /// the problem on and `stop` a description of the problem. `rest_is_line`
    /// when the problem stopped the main line (its words then wait as moves).
    pub fn open_for_repair(
        &mut self,
        game: Game,
        file: PathBuf,
        stop: &str,
        rest: &str,
        rest_is_line: bool,
    ) {
        self.open_game(game, Some(file), None, true);
        let at = self.line_end(NodeId::ROOT);
        let pos = self.game.position_at(at);
        // After a mate or a stalemate no move can be the right one: the text stays.
        let over = super::entry::game_over(&pos).is_some();
        let waiting = if rest_is_line && !over {
            waiting_text(rest, &pos)
        } else {
            None
        };
        // The moves wait in the comment that keeps them, in the form a reopened game
        // reads back; text that form cannot hold stays in a comment of its own, as written.
        let kept = match &waiting {
            Some((body, _)) => format!("{NOT_REPLAYED}{body}"),
            None => format!("{UNREAD}{rest}"),
        };
        if !rest.is_empty() {
            self.game.node_mut(at).comments_after.push(kept);
        }
        self.cursor = at;
        match waiting {
            Some((_, moves)) if !moves.is_empty() => {
                let follow = match moves.len() - 1 {
                    0 => String::new(),
                    after => format!(" and the {} after it follow", count(after, "move", "moves")),
                };
                self.pending = Some(Pending { at, moves });
                self.refuse(format!(
                    "{stop}: opened up to there; type the right move{follow} (:w keeps the \
                     text from there as a comment)"
                ));
            }
            _ if over => {
                self.pending = None;
                self.refuse(format!(
                    "{stop}: opened up to there, where the game is over; the text after it \
                     is kept in a comment"
                ));
            }
            _ => {
                // Moves read back as waiting when the game opened cannot wait before
                // text that was never read: that text is where they were.
                self.pending = None;
                self.refuse(format!(
                    "{stop}: opened with the text from there kept in a comment"
                ));
            }
        }
        // The history starts with the game as opened for repair: undo never goes back
        // to it without the kept text and the waiting moves.
        self.versions = super::undo::fresh(self);
        self.refresh_feedback();
        self.refresh_opening();
    }
}

/// One main-line move of text that was not read, with what is written after it.
#[derive(Debug, Default)]
struct Written {
    san: String,
    nags: Vec<String>,
    comments: Vec<String>,
    variations: Vec<String>,
}

/// The main line of `text` (movetext from a move on) as the comment that keeps waiting
/// moves writes it, numbered from `pos` (see `correct::waiting_movetext`): each move with
/// its glyphs and its comments quoted `«»`, and each variation where it stood, its own
/// comments quoted the same way, with the moves read back from it. So the moves wait with what was written beside them,
/// and a variation stays in the comment once they are replayed. `None` for text that
/// form cannot hold: a tag, a `%` line, a bracket or brace left open or closed twice, a
/// result before the end, a `«` or `»` of its own.
fn waiting_text(text: &str, pos: &Position) -> Option<(String, Vec<CutMove>)> {
    if text.contains(['«', '»']) {
        return None;
    }
    let mut moves: Vec<Written> = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else { break };
        match c {
            '{' | ';' => {
                let (comment, after) = comment_at(rest)?;
                moves.last_mut()?.comments.push(comment);
                rest = after;
            }
            '(' => {
                let (variation, after) = variation_at(rest)?;
                moves.last_mut()?.variations.push(variation);
                rest = after;
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, '{' | '(' | ';'))
                    .unwrap_or(rest.len());
                let (word, after) = rest.split_at(end);
                rest = after;
                if word.starts_with('$') {
                    moves.last_mut()?.nags.push(word.to_string());
                } else if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    // The result ends the game's text.
                    if !rest.trim().is_empty() {
                        return None;
                    }
                } else if let Some(san) = without_number(word) {
                    if san.contains(['}', ')', '[', ']', '%']) {
                        return None;
                    }
                    moves.push(Written {
                        san: san.to_string(),
                        ..Written::default()
                    });
                }
            }
        }
    }
    let body = number_moves(pos, &moves, " ", |out, m| {
        out.push_str(&m.san);
        for nag in &m.nags {
            out.push(' ');
            out.push_str(nag);
        }
        for comment in &m.comments {
            out.push(' ');
            out.push_str(&quoted_comment(comment));
        }
        for variation in &m.variations {
            out.push_str(" (");
            out.push_str(variation);
            out.push(')');
        }
        !m.comments.is_empty() || !m.variations.is_empty()
    });
    // Written so, the text must read back as the same moves, or they could not wait.
    let back = read_waiting(&body, pos)?;
    (back.len() == moves.len()).then_some((body, back))
}

/// `word` without a move number before it (`12.`, `12...`, `12.e4` written together);
/// `None` for a word that is only a number.
fn without_number(word: &str) -> Option<&str> {
    let after = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let san = if after.len() < word.len() && after.starts_with('.') {
        after.trim_start_matches('.')
    } else {
        word
    };
    (!san.is_empty()).then_some(san)
}

/// The comment `text` starts with (`{…}`, or `;` to the line's end), its blanks and line
/// breaks made single spaces, and the text after it; `None` for a `{` never closed.
fn comment_at(text: &str) -> Option<(String, &str)> {
    let (inner, after) = if let Some(braced) = text.strip_prefix('{') {
        let end = braced.find('}')?;
        (&braced[..end], &braced[end + 1..])
    } else {
        let line = &text[1..];
        let end = line.find('\n').unwrap_or(line.len());
        (&line[..end], &line[end..])
    };
    Some((
        inner.split_whitespace().collect::<Vec<_>>().join(" "),
        after,
    ))
}

/// The variation `text` starts with, without its outer brackets, its comments quoted
/// `«»` and its blanks made single spaces (nested variations kept as they are, their
/// comments quoted too), and the text after it; `None` when it is never closed.
fn variation_at(text: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut rest = text;
    loop {
        let c = rest.chars().next()?;
        match c {
            '{' | ';' => {
                let (comment, after) = comment_at(rest)?;
                out.push_str(&quoted_comment(&comment));
                rest = after;
                continue;
            }
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    let inner = out[1..].split_whitespace().collect::<Vec<_>>().join(" ");
                    return Some((inner, &rest[1..]));
                }
            }
            '}' | '[' | '%' => return None,
            _ => {}
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position after 1. e4 e5: White to play move 2.
    fn after_e4_e5() -> Position {
        Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
            .expect("a FEN")
    }

    fn sans(moves: &[CutMove]) -> Vec<&str> {
        moves.iter().map(|m| m.san.as_str()).collect()
    }

    #[test]
    fn plain_moves_are_numbered_afresh() {
        let (body, moves) =
            waiting_text("Ke3 Nc6 7.Nf3 $2 O-O 8... a6 1-0", &after_e4_e5()).expect("moves");
        assert_eq!(body, "2. Ke3 Nc6 3. Nf3 $2 O-O 4. a6");
        assert_eq!(sans(&moves), ["Ke3", "Nc6", "Nf3", "O-O", "a6"]);
        assert_eq!(moves[2].nags, [2]);
    }

    #[test]
    fn comments_go_with_their_moves_and_variations_stay_in_place() {
        let text = "Ke3 {a blunder;\n  see (below)} Nc6 ; a line comment\n\
                    3. Nf3 (3. d4 {the centre} exd4 (3... d6)) Nf6 *";
        let (body, moves) = waiting_text(text, &after_e4_e5()).expect("moves");
        assert_eq!(
            body,
            "2. Ke3 «a blunder; see (below)» 2... Nc6 «a line comment» \
             3. Nf3 (3. d4 «the centre» exd4 (3... d6)) 3... Nf6"
        );
        assert_eq!(sans(&moves), ["Ke3", "Nc6", "Nf3", "Nf6"]);
        assert_eq!(moves[0].comments, ["a blunder; see (below)"]);
        assert_eq!(moves[1].comments, ["a line comment"]);
    }

    #[test]
    fn text_the_waiting_form_cannot_hold_stays_as_written() {
        let pos = after_e4_e5();
        for text in [
            "Ke3 {never closed",
            "Ke3 (2. Nf3 never closed",
            "Ke3 Nc6) Nf3",
            "Ke3 } Nc6",
            "{before} Ke3",
            "Ke3 1-0 Nc6",
            "Ke3 «quoted» Nc6",
            "Ke3\n[Event \"next\"]",
        ] {
            assert_eq!(waiting_text(text, &pos), None, "{text:?}");
        }
    }
}
