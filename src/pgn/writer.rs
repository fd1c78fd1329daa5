//! PGN export format: the Seven Tag Roster first and in order, then the other tags
//! as read; movetext wrapped at 80 columns with move numbers as the standard asks
//! (`N.` for White, `N...` for Black at the start and after a comment or a
//! variation); NAGs as `$n`; comments in braces; variations in parentheses; the
//! result last.

use crate::game::{Game, NodeId, SEVEN_TAG_ROSTER};
use crate::notation::{write_move, Lang, Style};
use crate::position::Position;
use chess::Color;

/// How to write the moves: PGN's English SAN by default; other styles and
/// languages give text for people and programs that want them (not standard PGN).
#[derive(Debug, Clone, Copy)]
pub struct WriteOptions {
    /// The move style.
    pub style: Style,
    /// The piece-letter language.
    pub lang: &'static Lang,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            style: Style::San,
            lang: Lang::english(),
        }
    }
}

impl WriteOptions {
    fn is_pgn(&self) -> bool {
        self.style == Style::San && self.lang.code == "en"
    }
}

/// The longest line the writer produces (a single longer token stands alone).
pub const LINE_WIDTH: usize = 80;

/// Writes one game, followed by a blank line.
pub fn write_game(game: &Game, out: &mut String) {
    write_game_with(game, out, &WriteOptions::default(), None);
}

/// Writes one game in a chosen notation; `last_comment`, when given, is written
/// after the last move (used to say where reading stopped).
pub fn write_game_with(
    game: &Game,
    out: &mut String,
    options: &WriteOptions,
    last_comment: Option<&str>,
) {
    write_game_ending(game, out, options, last_comment, None);
}

/// [`write_game_with`], ending the movetext with `result` when given instead of the
/// `Result` tag's value: for a game whose tag and movetext disagree, written as read.
/// (Without it, the token the game kept from its reading, [`Game::written_result`], ends
/// it, else the tag's value.)
pub fn write_game_ending(
    game: &Game,
    out: &mut String,
    options: &WriteOptions,
    last_comment: Option<&str>,
    result: Option<&str>,
) {
    write_tags(game, out);
    out.push('\n');
    let mut text = Movetext::new(out);
    write_moves(game, &mut text, options);
    if let Some(c) = last_comment {
        text.comment(c);
    }
    // The result token must be one of the four; a Result tag such as "?" gives `*`.
    let result = result
        .or(game.written_result())
        .or(game.tag("Result"))
        .filter(|r| matches!(*r, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .unwrap_or("*");
    text.token(result);
    text.finish();
    out.push('\n');
}

/// [`write_game`] into a new string.
pub fn write_game_to_string(game: &Game) -> String {
    let mut out = String::new();
    write_game(game, &mut out);
    out
}

/// What a copy to the clipboard takes from a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clip {
    /// The FEN of the position after the current move.
    Fen,
    /// The whole game, as PGN.
    Game,
    /// The current line as PGN ([`Game::line_through`]): the moves to the current one
    /// and on along the first choices, without the other variations.
    Line,
}

/// The text `clip` takes from `game` with the current move `at` ([`NodeId::ROOT`] for
/// the start position): a PGN ending in one line break (a pasted PGN ends its game
/// there), a FEN with none (pasted into a shell, a line break would run the line).
pub fn clip_text(game: &Game, at: NodeId, clip: Clip) -> String {
    let mut text = match clip {
        Clip::Fen => return game.position_at(at).fen(),
        Clip::Game => write_game_to_string(game),
        Clip::Line => write_game_to_string(&game.line_through(at)),
    };
    text.truncate(text.trim_end().len());
    text.push('\n');
    text
}

fn write_tags(game: &Game, out: &mut String) {
    let tag = |out: &mut String, name: &str, value: &str| {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        for c in value.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]\n");
    };
    for name in SEVEN_TAG_ROSTER {
        // A tag given twice keeps both values, in their order: the last is the one read.
        let mut given = game.tags.iter().filter(|(n, _)| n == name).peekable();
        if given.peek().is_none() {
            tag(out, name, "?");
        }
        for (_, value) in given {
            tag(out, name, value);
        }
    }
    let last_fen = game.tags.iter().rposition(|(n, _)| n == "FEN");
    let setup = game.has_setup();
    if setup && game.tag("SetUp").is_none() {
        tag(out, "SetUp", "1");
    }
    if setup && game.tag("FEN").is_none() {
        tag(out, "FEN", &game.start.fen());
    }
    for (k, (name, value)) in game.tags.iter().enumerate() {
        if SEVEN_TAG_ROSTER.contains(&name.as_str()) {
            continue;
        }
        // The FEN tag read is the last one: an earlier one (a file's mistake) is kept as
        // it is.
        if name == "FEN" && setup && Some(k) == last_fen {
            // The tag as the file had it when it still describes the start (a move
            // number 0, which readers take as 1, is not rewritten); else the start's FEN.
            let as_read = Position::from_fen(&super::builder::tolerant_fen(value))
                .is_ok_and(|p| p == game.start);
            let fen = if as_read {
                value.clone()
            } else {
                game.start.fen()
            };
            tag(out, name, &fen);
        } else {
            tag(out, name, value);
        }
    }
}

/// Accumulates tokens into lines of at most [`LINE_WIDTH`] characters.
struct Movetext<'a> {
    out: &'a mut String,
    line: usize,
}

impl<'a> Movetext<'a> {
    fn new(out: &'a mut String) -> Self {
        Movetext { out, line: 0 }
    }

    fn token(&mut self, t: &str) {
        let len = t.chars().count();
        if self.line > 0 && self.line + 1 + len > LINE_WIDTH {
            self.out.push('\n');
            self.line = 0;
        }
        if self.line > 0 {
            self.out.push(' ');
            self.line += 1;
        }
        self.out.push_str(t);
        self.line += len;
    }

    /// Like [`Movetext::token`] but with no space before it (after `(`).
    fn glued(&mut self, t: &str) {
        let len = t.chars().count();
        if self.line + len > LINE_WIDTH {
            self.out.push('\n');
            self.line = 0;
        }
        self.out.push_str(t);
        self.line += len;
    }

    fn comment(&mut self, c: &str) {
        if c.contains('}') && !c.contains('\n') {
            // A `}` would end a brace comment early; a `;` comment runs to the end
            // of the line and can hold it. (Not a carriage return at its end: read
            // back, that is the line's end, CRLF, and the text would change again.)
            self.token(&format!(";{}", c.trim_end_matches('\r')));
            self.out.push('\n');
            self.line = 0;
        } else {
            // A brace comment from a file never holds `}`; text typed in may: PGN
            // has no escape for it.
            let c = without_game_starts(c);
            self.token(&format!("{{{}}}", c.replace('}', ")")));
        }
    }

    fn finish(&mut self) {
        self.out.push('\n');
    }
}

/// `comment` without the blank lines that come right before a line starting with `[` or
/// `%`: in a brace comment, a blank line followed by a tag pair line is where readers
/// (this one too, see [`crate::pgn::boundary`]) take an unclosed comment to end and the
/// next game to start, so written as it is such a comment would come back as two games.
/// Only blank lines go: every word of the comment stays.
fn without_game_starts(comment: &str) -> std::borrow::Cow<'_, str> {
    // Blank as the reader sees it: nothing but spaces and control characters.
    let blank = |line: &str| line.bytes().all(|b| b <= b' ');
    let starts_tag = |line: &str| matches!(line.bytes().find(|&b| b > b' '), Some(b'[' | b'%'));
    let mut lines = comment.split('\n');
    let Some(first) = lines.next() else {
        return comment.into();
    };
    if !comment.split('\n').skip(1).any(starts_tag) {
        return comment.into();
    }
    let mut out = String::with_capacity(comment.len());
    out.push_str(first);
    let mut blanks: Vec<&str> = Vec::new();
    for line in lines {
        if blank(line) {
            blanks.push(line);
            continue;
        }
        if !starts_tag(line) {
            for b in blanks.iter() {
                out.push('\n');
                out.push_str(b);
            }
        }
        blanks.clear();
        out.push('\n');
        out.push_str(line);
    }
    for b in blanks {
        out.push('\n');
        out.push_str(b);
    }
    out.into()
}

enum Step {
    /// Continue the line after `parent` (position `pos`), whose first child is played at `ply`.
    Line {
        parent: NodeId,
        ply: usize,
        pos: Position,
    },
    /// Open a variation: the move `id` at `ply`, played from `pos`.
    Variation {
        id: NodeId,
        ply: usize,
        pos: Position,
    },
    /// Close a variation.
    Close,
}

/// Walks the tree with an explicit stack, so no depth of nesting can overflow.
fn write_moves(game: &Game, text: &mut Movetext, options: &WriteOptions) {
    let root = game.node(NodeId::ROOT);
    for c in &root.comments_after {
        text.comment(c);
    }
    let black_first = game.start.side_to_move() == Color::Black;
    let first_number = game.start.fullmove_number() as usize;
    let mut need_number = true;
    let mut after_paren = false;
    let mut stack = vec![Step::Line {
        parent: NodeId::ROOT,
        ply: 0,
        pos: game.start,
    }];
    while let Some(step) = stack.pop() {
        let (id, ply, pos) = match step {
            Step::Close => {
                text.glued(")");
                need_number = true;
                continue;
            }
            Step::Variation { id, ply, pos } => {
                let comments = &game.node(id).comments_before;
                if comments.is_empty() {
                    // "(" travels with the first move, so the line width holds.
                    after_paren = true;
                } else {
                    text.token("(");
                    for c in comments {
                        text.comment(c);
                    }
                }
                need_number = true;
                (id, ply, pos)
            }
            Step::Line { parent, ply, pos } => match game.node(parent).children.first() {
                Some(first) => (*first, ply, pos),
                None => continue,
            },
        };
        let node = game.node(id);
        let half = ply + usize::from(black_first);
        let number = first_number + half / 2;
        let white = half % 2 == 0;
        let mut word = String::new();
        if white {
            word.push_str(&format!("{number}. "));
        } else if need_number {
            word.push_str(&format!("{number}... "));
        }
        if options.is_pgn() {
            word.push_str(&node.san);
        } else {
            write_move(&mut word, &pos, node.mv, options.style, options.lang);
        }
        // Keep "N." and its move on one line.
        if after_paren {
            text.token(&format!("({word}"));
            after_paren = false;
        } else {
            text.token(&word);
        }
        need_number = false;
        for nag in &node.nags {
            text.token(&format!("${nag}"));
        }
        if node.draw_offer {
            text.comment("(=)");
            need_number = true;
        }
        for c in &node.comments_after {
            text.comment(c);
            need_number = true;
        }
        stack.push(Step::Line {
            parent: id,
            ply: ply + 1,
            pos: pos.apply(node.mv).unwrap_or(pos),
        });
        // Variations on this move (its later siblings) come right after it.
        if let Some(parent) = node.parent {
            let siblings = &game.node(parent).children;
            if siblings.first() == Some(&id) {
                for var in siblings[1..].iter().rev() {
                    stack.push(Step::Close);
                    stack.push(Step::Variation { id: *var, ply, pos });
                }
                if siblings.len() > 1 {
                    need_number = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_games;

    const GAME: &str = "[Event \"Club\"]\n[Result \"1-0\"]\n\n\
                        1. e4 e5 (1... c5 {Sicilian} 2. Nf3) 2. Nf3 1-0\n";

    #[test]
    fn clips_take_the_fen_alone_or_the_game_or_the_line_ending_in_one_line_break() {
        let game = read_games(GAME.as_bytes()).remove(0).game;
        let c5 = game.node(NodeId::ROOT).children[0];
        let c5 = game.node(c5).children[1];
        assert_eq!(game.node(c5).san, "c5");
        assert_eq!(
            clip_text(&game, c5, Clip::Fen),
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2"
        );
        let whole = clip_text(&game, c5, Clip::Game);
        assert!(
            whole.ends_with("1. e4 e5 (1... c5 {Sicilian} 2. Nf3) 2. Nf3 1-0\n"),
            "{whole}"
        );
        assert!(whole.starts_with("[Event \"Club\"]\n"), "{whole}");
        let line = clip_text(&game, c5, Clip::Line);
        assert!(
            line.ends_with("\n\n1. e4 c5 {Sicilian} 2. Nf3 *\n"),
            "{line}"
        );
        // The copied PGN reads back as the same game.
        let back = read_games(whole.as_bytes()).remove(0);
        assert!(back.errors.is_empty());
        assert_eq!(
            write_game_to_string(&back.game),
            write_game_to_string(&game)
        );
    }

    /// A comment holding a blank line and then a tag pair line (a game pasted into the
    /// comment editor, notes about a file) is written so that it reads back as one game
    /// with the same words; the blank lines before such a line are all that goes.
    #[test]
    fn a_tag_line_after_a_blank_line_in_a_comment_does_not_start_a_game() {
        let mut game = read_games(b"1. e4 e5 *\n".as_slice()).remove(0).game;
        let e4 = game.node(NodeId::ROOT).children[0];
        game.node_mut(e4).comments_after =
            vec!["Seen in:\n\n[Event \"Linares\"]\n \n%note\n\n\nlater".to_string()];
        let written = write_game_to_string(&game);
        let back = read_games(written.as_bytes());
        assert_eq!(back.len(), 1, "{written}");
        assert!(back[0].errors.is_empty(), "{:?}\n{written}", back[0].errors);
        let e4 = back[0].game.node(NodeId::ROOT).children[0];
        assert_eq!(
            back[0].game.node(e4).comments_after,
            ["Seen in:\n[Event \"Linares\"]\n%note\n\n\nlater"]
        );
        assert_eq!(write_game_to_string(&back[0].game), written);
    }

    /// Blank lines in a comment without such a line stay as they are.
    #[test]
    fn other_blank_lines_in_a_comment_stay() {
        for comment in ["a\n\nb", "\n\n", "a\n \n\t\n(b)", "[a]\n\nb", "a [b]"] {
            assert_eq!(without_game_starts(comment), comment);
        }
        assert_eq!(without_game_starts("a\n\n [b"), "a\n [b");
        assert_eq!(without_game_starts("a\r\n\r\n[b]\n\n"), "a\r\n[b]\n\n");
    }
}
