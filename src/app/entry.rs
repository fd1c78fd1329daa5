//! What the text on the entry line means: a move (or several), a clock time, a
//! glyph, a comment, a result or a `:` command, and the live feedback shown
//! while it is typed (the moves that still match, the choices when it is
//! ambiguous, the reason when it is illegal).

use chess::ChessMove;

use crate::game::annotation::{parse_clock_entry, parse_clock_entry_as, ClockTime, TwoParts};
use crate::game::transcribe::{result_of, strip_move_number};
use crate::notation::{
    figurine_piece, format, glyph_nag, languages_reading, named_languages, parse, read_move, Body,
    ErrorKind, Lang, ResolveError, Style,
};
use crate::position::{Move, Position, Status};

/// What a finished line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// Nothing typed.
    Empty,
    /// One or more moves, each with what was typed after it.
    Moves(Vec<Typed>),
    /// `+1:23:45`: the clock after the current move, as typed (the game's time
    /// control says how two parts read: see [`clock_time`]).
    Clock(String),
    /// `!?`: a move-quality glyph for the current move.
    Glyph(u8),
    /// `(=)`: a draw offer with the current move.
    DrawOffer,
    /// `{text`: the comment after the current move.
    Comment(String),
    /// `1-0`, `½-½`, `*`: the result.
    Result(&'static str),
    /// `:w file`: a command, without its colon.
    Command(String),
}

/// A move read from the entry line with the marks typed with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Typed {
    /// The move.
    pub mv: Move,
    /// A glyph typed with it (`Nf3!`).
    pub nag: Option<u8>,
    /// `(=)` typed with it.
    pub draw_offer: bool,
    /// A clock time typed after it (`Nf3 +1:23`), as typed.
    pub clock: Option<String>,
    /// A comment typed after it (`e5 {symmetrical}`).
    pub comment: Option<String>,
}

/// Why a line cannot be done, positioned in the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryError {
    /// The word that is wrong.
    pub token: String,
    /// Why.
    pub reason: String,
    /// The pawn must promote: the choices (the screen asks which).
    pub promotion: Vec<Move>,
    /// The move is ambiguous: the candidates, in SAN.
    pub ambiguous: Vec<String>,
}

impl std::fmt::Display for EntryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.token, self.reason)
    }
}

/// The feedback shown while a line is typed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Feedback {
    /// Nothing typed.
    #[default]
    Empty,
    /// Not a whole move yet: the legal moves whose written forms start with the text.
    Partial(Vec<ChessMove>),
    /// Exactly one legal move; Enter plays it.
    Ready(ChessMove),
    /// Several moves fit; the candidates in SAN.
    Ambiguous(Vec<ChessMove>, Vec<String>),
    /// A pawn reaches the last rank: which piece?
    Promotion(Vec<ChessMove>),
    /// Not a legal move here, and no move starts like it: the reason.
    Illegal(String),
    /// Something else the line will do when Enter is pressed (a clock, a command…).
    Note(String),
}

impl Feedback {
    /// The moves to highlight on the board.
    pub fn moves(&self) -> &[ChessMove] {
        match self {
            Feedback::Partial(m) | Feedback::Ambiguous(m, _) | Feedback::Promotion(m) => m,
            Feedback::Ready(m) => std::slice::from_ref(m),
            _ => &[],
        }
    }
}

/// A typed clock time (`+14:32`) read by a game's TimeControl tag: minutes and
/// seconds in a game under an hour, hours and minutes in a longer one.
pub fn clock_time(text: &str, time_control: Option<&str>) -> Result<ClockTime, EntryError> {
    parse_clock_entry_as(text, TwoParts::for_time_control(time_control)).map_err(|e| EntryError {
        token: text.to_string(),
        reason: e.to_string(),
        promotion: Vec::new(),
        ambiguous: Vec::new(),
    })
}

/// How the game ended in `pos`, when no move can follow it: `checkmate: 0-1`,
/// `stalemate: ½-½`. The entry line shows it in place of the move number.
pub fn game_over(pos: &Position) -> Option<&'static str> {
    let white = pos.side_to_move() == chess::Color::White;
    match pos.status() {
        Status::Checkmate if white => Some("checkmate: 0-1"),
        Status::Checkmate => Some("checkmate: 1-0"),
        Status::Stalemate => Some("stalemate: ½-½"),
        _ => None,
    }
}

/// Why a move cannot be typed where the game is over (`over`, from [`game_over`]):
/// that, not what the rules say of the move itself (`the king is in check`).
fn after_the_end(over: &str) -> String {
    format!("the game is over ({over})")
}

/// Reads a finished line in the position `pos` (after the current move).
pub fn read_entry(text: &str, pos: &Position, lang: &Lang) -> Result<Entry, EntryError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Entry::Empty);
    }
    if let Some(command) = text.strip_prefix(':') {
        return Ok(Entry::Command(command.trim().to_string()));
    }
    if let Some(comment) = text.strip_prefix('{') {
        return Ok(Entry::Comment(
            comment.trim_end_matches('}').trim().to_string(),
        ));
    }
    if let Some(result) = result_of(text) {
        return Ok(Entry::Result(result));
    }
    if let Some(nag) = glyph_nag(text) {
        return Ok(Entry::Glyph(nag));
    }
    if text == "(=)" {
        return Ok(Entry::DrawOffer);
    }
    if text.starts_with('+') {
        return parse_clock_entry(text)
            .map(|_| Entry::Clock(text.to_string()))
            .map_err(|e| EntryError {
                token: text.to_string(),
                reason: e.to_string(),
                promotion: Vec::new(),
                ambiguous: Vec::new(),
            });
    }
    // The whole line as one move first: `exd6 e.p.` and `Kр e2` hold spaces.
    let unnumbered = strip_move_number(text).unwrap_or(text);
    if let Some(over) = game_over(pos) {
        return Err(EntryError {
            token: words(unnumbered).first().unwrap_or(&unnumbered).to_string(),
            reason: after_the_end(over),
            promotion: Vec::new(),
            ambiguous: Vec::new(),
        });
    }
    number_fits(text.split_whitespace().next().unwrap_or(text), pos)?;
    if let Ok((mv, mt)) = read_move(unnumbered, pos, lang) {
        return Ok(Entry::Moves(vec![Typed {
            mv,
            nag: mt.nag,
            draw_offer: mt.draw_offer,
            clock: None,
            comment: None,
        }]));
    }
    read_words(text, pos, lang).map(Entry::Moves)
}

/// Several words: moves (with optional move numbers, glyphs, `(=)`, clock times
/// and `e.p.` after them). All or nothing: the first bad word stops the line.
fn read_words(text: &str, pos: &Position, lang: &Lang) -> Result<Vec<Typed>, EntryError> {
    let mut pos = *pos;
    let mut moves: Vec<Typed> = Vec::new();
    for word in words(text) {
        if let Some(comment) = word.strip_prefix('{') {
            let comment = comment.trim_end_matches('}').trim().to_string();
            match moves.last_mut() {
                Some(last) => last.comment = Some(comment),
                None => return Err(EntryError {
                    token: word.to_string(),
                    reason:
                        "a comment follows its move (e5 {text}); alone, {text is the current move's"
                            .into(),
                    promotion: Vec::new(),
                    ambiguous: Vec::new(),
                }),
            }
            continue;
        }
        number_fits(word, &pos)?;
        let last = moves.last_mut();
        let Some(word) = strip_move_number(word) else {
            continue; // a move number on its own
        };
        if matches!(word, "e.p." | "ep" | "e.p") {
            continue;
        }
        if let (Some(last), true) = (last, word.starts_with('+')) {
            parse_clock_entry(word).map_err(|e| EntryError {
                token: word.to_string(),
                reason: e.to_string(),
                promotion: Vec::new(),
                ambiguous: Vec::new(),
            })?;
            last.clock = Some(word.to_string());
            continue;
        }
        if let Some(last) = moves.last_mut() {
            if let Some(nag) = glyph_nag(word) {
                last.nag = Some(nag);
                continue;
            }
            if word == "(=)" {
                last.draw_offer = true;
                continue;
            }
        }
        if word.starts_with('(') {
            // No move starts with `(`: read as one, `(=` would be "the promotion piece
            // is missing", which sends a player who mistyped a draw offer astray.
            let reason = if word.starts_with("(=") {
                "a draw offer is written (=), after its move (Nf3 (=))"
            } else {
                "not a move: a remark goes in a comment after its move (e5 {text})"
            };
            return Err(EntryError {
                token: word.to_string(),
                reason: reason.into(),
                promotion: Vec::new(),
                ambiguous: Vec::new(),
            });
        }
        match read_move(word, &pos, lang) {
            Ok((mv, mt)) => {
                pos = pos.apply(mv).unwrap_or(pos);
                moves.push(Typed {
                    mv,
                    nag: mt.nag,
                    draw_offer: mt.draw_offer,
                    clock: None,
                    comment: None,
                });
            }
            Err(e) => {
                let (promotion, ambiguous) = match &e.kind {
                    ErrorKind::Resolve(ResolveError::PromotionNeeded(_)) => {
                        (promotion_choices(word, &pos, lang), Vec::new())
                    }
                    ErrorKind::Resolve(ResolveError::Ambiguous(sans)) => (Vec::new(), sans.clone()),
                    _ => (Vec::new(), Vec::new()),
                };
                let hint = if promotion.is_empty() && ambiguous.is_empty() {
                    other_languages(word, &pos, lang)
                } else {
                    String::new()
                };
                // After other moves of the line, say which move it is: the second `0-0`
                // of `0-0 0-0` is Black's.
                let token = if moves.is_empty() {
                    word.to_string()
                } else {
                    let dots = if pos.side_to_move() == chess::Color::White {
                        "."
                    } else {
                        "..."
                    };
                    format!("{}{dots} {word}", pos.fullmove_number())
                };
                // After a mate typed in the line, the move after it is refused for that.
                let reason = game_over(&pos).map_or_else(|| format!("{e}{hint}"), after_the_end);
                return Err(EntryError {
                    token,
                    reason,
                    promotion,
                    ambiguous,
                });
            }
        }
    }
    Ok(moves)
}

/// A move number written before a move (`4.`, `4...`, `4…`, `4.d3`) must be the move's:
/// copying a scoresheet, a pair skipped or a move given to the wrong side shows there, and
/// is refused rather than played under another number. A single dot before Black's move
/// (`4. Be7`, as some write `4. ... Be7`) passes; a number of four or five digits is an ICCF
/// move, not a number.
fn number_fits(word: &str, pos: &Position) -> Result<(), EntryError> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &word[digits..];
    let dots = rest.len() - rest.trim_start_matches(['.', '…', ')']).len();
    let bare = rest.is_empty() && digits <= 3;
    if digits == 0 || (dots == 0 && !bare) {
        return Ok(());
    }
    let Ok(number) = word[..digits].parse::<u32>() else {
        return Ok(());
    };
    let black_written = rest.starts_with("..") || rest.starts_with('…');
    let white = pos.side_to_move() == chess::Color::White;
    let side = if white { "White" } else { "Black" };
    let now = pos.fullmove_number();
    let reason = if number != now {
        let numbered = if white {
            format!("{now}.")
        } else {
            format!("{now}...")
        };
        format!("this is move {numbered} ({side} to play), not {number}: check the scoresheet, or leave the number out")
    } else if black_written && white {
        format!("move {now} is White's to play ({now}.), not Black's")
    } else {
        return Ok(());
    };
    Err(EntryError {
        token: word.to_string(),
        reason,
        promotion: Vec::new(),
        ambiguous: Vec::new(),
    })
}

/// For a word that is not a move in `lang` but is one in other languages: which, and the
/// command that makes the entry line read them (a German player's `Sf3` in English).
fn other_languages(word: &str, pos: &Position, lang: &Lang) -> String {
    let fits = languages_reading(word.as_bytes(), pos, lang);
    match fits.first() {
        None => String::new(),
        Some(first) => format!(
            "; it is a move in {}: :lang {} reads it",
            named_languages(&fits),
            first.code
        ),
    }
}

/// The words of a line, a `{comment}` (spaces and all, to its `}` or the end of
/// the line) counting as one.
fn words(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let end = if rest.starts_with('{') {
            rest.find('}').map_or(rest.len(), |i| i + 1)
        } else {
            rest.find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len())
        };
        words.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    words
}

/// The promotions a text without a piece could mean (`e8` → `e8=Q`, `e8=R`, …).
pub fn promotion_choices(text: &str, pos: &Position, lang: &Lang) -> Vec<Move> {
    ["Q", "R", "B", "N"]
        .iter()
        .filter_map(|piece| {
            read_move(&format!("{}={piece}", text.trim()), pos, Lang::english())
                .or_else(|_| read_move(&format!("{}{piece}", text.trim()), pos, lang))
                .ok()
        })
        .map(|(mv, _)| mv)
        .collect()
}

/// Lines with more words than this get feedback on their last word only.
const WHOLE_LINE_WORDS: usize = 3;
/// Lines longer than this (in bytes) too: no move, even with its number,
/// glyph and clock, is that long.
const WHOLE_LINE_BYTES: usize = 64;

/// The live feedback for a line being typed. It costs the same however long
/// the line: a short line (a move, `1. e4`, `exd6 e.p.`, a command) is read
/// whole; a longer one (a list of moves, pasted or typed) is only counted up to
/// a bound, and read whole on Enter.
pub fn feedback(text: &str, pos: &Position, lang: &Lang) -> Feedback {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Feedback::Empty;
    }
    // Counting stops at the limit: the rest of a long line is not looked at.
    if trimmed.len() > WHOLE_LINE_BYTES
        || trimmed
            .split_whitespace()
            .take(WHOLE_LINE_WORDS + 1)
            .count()
            > WHOLE_LINE_WORDS
    {
        return long_line_feedback(trimmed);
    }
    whole_line_feedback(trimmed, pos, lang)
}

/// Feedback on a long line from its first character and its first words.
fn long_line_feedback(trimmed: &str) -> Feedback {
    if let Some(command) = trimmed.strip_prefix(':') {
        return Feedback::Note(super::command::describe(command));
    }
    if trimmed.starts_with('{') {
        return Feedback::Note("comment on this move".into());
    }
    // The last word may be half typed, and the position it is played in is
    // known only after the earlier words: the line is read whole on Enter.
    Feedback::Note("a long line: Enter reads it whole and plays its moves".into())
}

/// Feedback on a short line, read whole in the board's position.
fn whole_line_feedback(trimmed: &str, pos: &Position, lang: &Lang) -> Feedback {
    match read_entry(trimmed, pos, lang) {
        Ok(Entry::Moves(moves)) if moves.len() == 1 => match moves[0].mv {
            Move::Normal(mv) => Feedback::Ready(mv),
            Move::Null => Feedback::Note("a null move".into()),
        },
        Ok(Entry::Moves(moves)) => Feedback::Note(format!("{} moves", moves.len())),
        Ok(Entry::Empty) => Feedback::Empty,
        Ok(Entry::Clock(t)) => Feedback::Note(format!("clock {}", t.trim_start_matches('+'))),
        Ok(Entry::Glyph(_)) => Feedback::Note("glyph for this move".into()),
        Ok(Entry::DrawOffer) => Feedback::Note("draw offer with this move".into()),
        Ok(Entry::Comment(_)) => Feedback::Note("comment on this move".into()),
        Ok(Entry::Result(r)) => Feedback::Note(format!("result {r}")),
        Ok(Entry::Command(c)) => Feedback::Note(super::command::describe(&c)),
        // Several words: the choices would be in a later position than the
        // board's; the reason says it all.
        Err(e) if trimmed.contains(char::is_whitespace) => Feedback::Illegal(e.to_string()),
        Err(e) => {
            if !e.promotion.is_empty() {
                return Feedback::Promotion(normal_moves(&e.promotion));
            }
            if !e.ambiguous.is_empty() {
                let moves: Vec<Move> = e
                    .ambiguous
                    .iter()
                    .filter_map(|san| read_move(san, pos, Lang::english()).ok())
                    .map(|(mv, _)| mv)
                    .collect();
                return Feedback::Ambiguous(normal_moves(&moves), e.ambiguous);
            }
            let unnumbered = strip_move_number(trimmed).unwrap_or(trimmed);
            let matches = prefix_matches(unnumbered, pos, lang);
            if matches.is_empty() {
                Feedback::Illegal(e.to_string())
            } else if is_castling(unnumbered, lang) {
                // `O-O` is a whole move even where only `O-O-O` is legal: Enter refuses
                // it for its reason, which stays in view; the longer castling is named.
                let longer: Vec<String> = matches
                    .iter()
                    .map(|&mv| format(pos, Move::Normal(mv), Style::San, lang))
                    .collect();
                Feedback::Illegal(format!("{e} ({} is legal)", longer.join(" ")))
            } else if own_square(unnumbered, pos) {
                // `e4` with one's own pawn on e4 is a pawn move that cannot be,
                // not a start of the moves from e4: say why, and name those too.
                let from: Vec<String> = matches
                    .iter()
                    .map(|&mv| format(pos, Move::Normal(mv), Style::San, lang))
                    .collect();
                Feedback::Illegal(format!("{e} (moves from {unnumbered}: {})", from.join(" ")))
            } else {
                Feedback::Partial(matches)
            }
        }
    }
}

/// True when the move takes a piece (en passant included).
fn is_capture(pos: &Position, mv: ChessMove) -> bool {
    let pawn = pos
        .piece_at(mv.get_source())
        .is_some_and(|(piece, _)| piece == chess::Piece::Pawn);
    pos.piece_at(mv.get_dest()).is_some()
        || (pawn && mv.get_source().get_file() != mv.get_dest().get_file())
}

/// True when `text` is castling written in full (`O-O`, `0-0+`), not a start of a move.
fn is_castling(text: &str, lang: &Lang) -> bool {
    parse(text, lang).is_ok_and(|r| matches!(r.first.body, Body::Castle { .. }))
}

/// True when `text` is a bare square (`e4`) on which a piece of the side to
/// move stands.
fn own_square(text: &str, pos: &Position) -> bool {
    crate::position::parse_square(text)
        .and_then(|sq| pos.piece_at(sq))
        .is_some_and(|(_, color)| color == pos.side_to_move())
}

fn normal_moves(moves: &[Move]) -> Vec<ChessMove> {
    moves
        .iter()
        .filter_map(|m| match m {
            Move::Normal(mv) => Some(*mv),
            Move::Null => None,
        })
        .collect()
}

/// Text reduced to what tells moves apart: no capture, check or promotion marks,
/// no spaces, castling zeros as letters, figurines as the language's letters,
/// and lower case (so `b` matches pawn and bishop moves alike while typing).
fn squeeze(text: &str, lang: &Lang) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            'x' | 'X' | ':' | '×' | '-' | '–' | '=' | '+' | '#' | '†' | '‡' | ' ' | '(' | ')'
            | '/' => {}
            '0' => out.push('o'),
            c => match figurine_piece(c) {
                Some(piece) => out.push_str(&lang.letter(piece).to_lowercase()),
                None => out.extend(c.to_lowercase()),
            },
        }
    }
    out
}

/// The legal moves with a written form (SAN, long algebraic or UCI in `lang`)
/// that starts with `text`.
pub fn prefix_matches(text: &str, pos: &Position, lang: &Lang) -> Vec<ChessMove> {
    let typed = squeeze(text, lang);
    if typed.is_empty() {
        return Vec::new();
    }
    // A capital first letter names a piece (`B` is the bishop); a small one may be
    // a file (`b` is the b-pawn, or the bishop for those who type in lower case).
    let capital = |t: &str| t.chars().next().is_some_and(char::is_uppercase);
    let piece_named = capital(text.trim_start());
    // A typed capture mark keeps the captures only (`Nx`: the knight's captures).
    let capture_typed = text.contains(['x', 'X', '×']);
    pos.legal_moves()
        .into_iter()
        .filter(|&mv| !capture_typed || is_capture(pos, mv))
        .filter(|&mv| {
            [Style::San, Style::Lan, Style::Uci].iter().any(|&style| {
                let written = format(pos, Move::Normal(mv), style, lang);
                (!piece_named || capital(&written)) && squeeze(&written, lang).starts_with(&typed)
            })
        })
        .collect()
}

#[cfg(test)]
#[path = "entry_tests.rs"]
mod tests;
