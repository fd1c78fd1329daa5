//! The filter language of the game list, parsed into a typed [`Query`]: words and
//! `field:value` terms separated by spaces, all of which a game must satisfy (AND).
//!
//! - a plain word matches White, Black, the event, the site or the opening name;
//!   `"two words"` in quotes must both match the same one of these;
//! - `white:` `black:` `player:` (either player) `event:` `site:` `round:` `opening:` match
//!   that text only (a quoted value may hold spaces: `event:"World Cup"`);
//! - `eco:B90`, `eco:B` (every B code), `eco:B90..B99`;
//! - `result:1-0` (also `0-1`, `1/2`, `draw`, `=`, `*`);
//! - numbers: `year:` `elo:` `welo:` (White's) `belo:` (Black's) `plies:`, each as `N`,
//!   `N..M`, `N..`, `..M`, `>N`, `>=N`, `<N`, `<=N`. `elo:` means **both** players' ratings:
//!   `elo:>2600` finds games between two players rated over 2600, and a game where a rating
//!   is missing does not match.
//!
//! - `pos:"1. e4 c5 2. Nf3"` the games that reach the position after these moves from the
//!   start, by any move order (the reviewer's `:search` sets it); `pos:"FEN"` a position
//!   given as a FEN (for games with their own start), `pos:start` the usual start. The
//!   games are found by the position search ([`crate::study::index`]), which the app runs
//!   off the UI thread: until its answer comes the term lets every game through.
//! - `game:3,17,40` the games of these numbers.
//!
//! Text matches as [`super::filter`] says: accents and case ignored, part of a word, or a
//! word with a typo. Errors name the column (in characters, from 1), the term and why.

use std::fmt;

use crate::pgn::Outcome;
use crate::position::Position;

use super::row::Eco;
use super::strings::fold;

/// Where a text term looks.
pub(crate) mod field {
    pub const WHITE: u8 = 1;
    pub const BLACK: u8 = 2;
    pub const EVENT: u8 = 4;
    pub const SITE: u8 = 8;
    pub const OPENING: u8 = 16;
    pub const ROUND: u8 = 32;
    /// What a plain word matches.
    pub const PLAIN: u8 = WHITE | BLACK | EVENT | SITE | OPENING;
}

/// Which rating a rating term is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    White,
    Black,
    Both,
}

/// An inclusive range of numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Range {
    pub lo: u32,
    pub hi: u32,
}

impl Range {
    pub fn contains(self, n: u32) -> bool {
        (self.lo..=self.hi).contains(&n)
    }
}

/// One condition of a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Term {
    /// Every word (folded) matches one same string of one of the `fields`.
    Text {
        fields: u8,
        words: Vec<String>,
    },
    /// The ECO code lies in the range (packed codes).
    Eco(Range),
    Result(Outcome),
    Year(Range),
    Elo(Side, Range),
    Plies(Range),
    /// Games of these numbers, sorted.
    Games(Vec<u64>),
    /// Games reaching a position: its FEN's first four fields (placement, side, castling,
    /// en passant when the capture is legal), which say what position it is whatever the
    /// counters and move order.
    Position(String),
}

/// A parsed filter: the game list shows the games satisfying every term.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Query {
    pub(crate) terms: Vec<Term>,
}

impl Query {
    /// Whether the query has no term (it matches every game).
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }
}

/// A filter that could not be read: where, what, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError {
    /// Column (in characters, from 1) of the start of the bad part.
    pub column: usize,
    /// The bad part, as written.
    pub token: String,
    /// Why it is refused.
    pub kind: QueryErrorKind,
}

/// Why a filter is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryErrorKind {
    /// `name:` is not a field the list has.
    UnknownField,
    /// `name:` with nothing after it.
    MissingValue,
    /// A `"` with no closing one.
    UnclosedQuote,
    /// Not a number or range of numbers.
    BadNumber,
    /// A range whose first number is larger than its last (`year:1990..1960`).
    Backwards,
    /// Not an ECO code, letter or range of codes.
    BadEco,
    /// Not a result.
    BadResult,
    /// Not a position: moves that cannot be played from the start, or a FEN that does not
    /// read; the reason.
    BadPosition(String),
}

/// The fields a term may name, for messages.
const FIELDS: &str =
    "white, black, player, event, site, round, opening, eco, result, year, elo, welo, belo, plies, pos, game";

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}, \"{}\": ", self.column, self.token)?;
        match &self.kind {
            QueryErrorKind::UnknownField => write!(f, "no such field; the fields are {FIELDS}"),
            QueryErrorKind::MissingValue => f.write_str("give a value after the colon"),
            QueryErrorKind::UnclosedQuote => f.write_str("the quote is not closed"),
            QueryErrorKind::Backwards => {
                f.write_str("the range runs backwards: write the smaller number first (1960..1990)")
            }
            QueryErrorKind::BadNumber => f.write_str(
                "not a number or range: write N, A..B, A.., ..B, >N, >=N, <N or <=N \
                 (year:1990..1995, elo:>2600, plies:<40)",
            ),
            QueryErrorKind::BadEco => {
                f.write_str("not an ECO code: write B90, B (every B code) or B90..B99")
            }
            QueryErrorKind::BadResult => {
                f.write_str("not a result: write 1-0, 0-1, 1/2 (or draw) or *")
            }
            QueryErrorKind::BadPosition(why) => write!(
                f,
                "{why}; write the moves from the start (pos:\"1. e4 c5 2. Nf3\") or a FEN in quotes"
            ),
        }
    }
}

impl std::error::Error for QueryError {}

/// A piece of the query text: its column (in characters, from 1) and text.
struct Piece<'a> {
    column: usize,
    text: &'a str,
}

/// Reads a filter. An empty (or blank) text gives the empty query.
pub fn parse(text: &str) -> Result<Query, QueryError> {
    let mut terms = Vec::new();
    for piece in split(text)? {
        let error = |column: usize, token: &str, kind| QueryError {
            column,
            token: token.to_string(),
            kind,
        };
        let (name, value, value_column) = match field_name(piece.text) {
            Some(name) => {
                let value = &piece.text[name.len() + 1..];
                (Some(name), value, piece.column + name.chars().count() + 1)
            }
            None => (None, piece.text, piece.column),
        };
        let value = unquote(value);
        let Some(name) = name else {
            if let Some(term) = text_term(field::PLAIN, value) {
                terms.push(term);
            }
            continue;
        };
        if value.trim().is_empty() {
            return Err(error(
                piece.column,
                piece.text,
                QueryErrorKind::MissingValue,
            ));
        }
        let bad = |kind| error(value_column, value, kind);
        let number = |value: &str| {
            number_range(value).ok_or_else(|| {
                let backwards = value.split_once("..").is_some_and(|(lo, hi)| {
                    matches!((lo.parse::<u32>(), hi.parse::<u32>()), (Ok(lo), Ok(hi)) if lo > hi)
                });
                match backwards {
                    true => bad(QueryErrorKind::Backwards),
                    false => bad(QueryErrorKind::BadNumber),
                }
            })
        };
        let term = match name.to_ascii_lowercase().as_str() {
            "white" => text_term(field::WHITE, value),
            "black" => text_term(field::BLACK, value),
            "player" => text_term(field::WHITE | field::BLACK, value),
            "event" => text_term(field::EVENT, value),
            "site" => text_term(field::SITE, value),
            "round" => text_term(field::ROUND, value),
            "opening" => text_term(field::OPENING, value),
            "eco" => Some(Term::Eco(
                eco_range(value).ok_or_else(|| bad(QueryErrorKind::BadEco))?,
            )),
            "result" => Some(Term::Result(
                result(value).ok_or_else(|| bad(QueryErrorKind::BadResult))?,
            )),
            "year" => Some(Term::Year(number(value)?)),
            "elo" => Some(Term::Elo(Side::Both, number(value)?)),
            "welo" | "white-elo" => Some(Term::Elo(Side::White, number(value)?)),
            "belo" | "black-elo" => Some(Term::Elo(Side::Black, number(value)?)),
            "plies" => Some(Term::Plies(number(value)?)),
            "pos" | "position" => Some(position_term(value).map_err(|(at, token, why)| {
                // `at` counts characters into the value, after its opening quote.
                let quote = usize::from(piece.text[name.len() + 1..].starts_with('"'));
                error(
                    value_column + quote + at,
                    token.as_deref().unwrap_or(value),
                    QueryErrorKind::BadPosition(why),
                )
            })?),
            "game" | "games" => Some(Term::Games(
                game_numbers(value).ok_or_else(|| bad(QueryErrorKind::BadNumber))?,
            )),
            _ => {
                return Err(error(
                    piece.column,
                    &piece.text[..name.len() + 1],
                    QueryErrorKind::UnknownField,
                ))
            }
        };
        terms.extend(term);
    }
    Ok(Query { terms })
}

/// `3,17,40`: game numbers, sorted.
fn game_numbers(value: &str) -> Option<Vec<u64>> {
    let mut numbers = value
        .split(',')
        .filter(|n| !n.trim().is_empty())
        .map(|n| n.trim().parse().ok())
        .collect::<Option<Vec<u64>>>()?;
    numbers.sort_unstable();
    numbers.dedup();
    Some(numbers)
}

/// A `pos:` term: `start`, a FEN (it has a `/`), or moves from the start read as PGN
/// movetext (move numbers optional). Refused with the character the bad part starts at in
/// `value` (from 0), the bad token when there is one, and why.
fn position_term(value: &str) -> Result<Term, (usize, Option<String>, String)> {
    let value = value.trim();
    let position = if value.eq_ignore_ascii_case("start") {
        Position::start()
    } else if value.contains('/') {
        Position::from_fen(value).map_err(|e| (0, None, e.to_string()))?
    } else {
        let games = crate::pgn::read_games(value.as_bytes());
        let Some(game) = games.first() else {
            return Err((0, None, "no moves".into()));
        };
        if let Some(e) = game.errors.first() {
            let at = (e.pos.column as usize).saturating_sub(1);
            return Err((at, Some(e.token.clone()), e.reason.clone()));
        }
        if games.len() > 1 {
            return Err((0, None, "more than one game's moves".into()));
        }
        let g = &game.game;
        g.mainline().last().map_or(g.start, |id| g.position_at(*id))
    };
    Ok(Term::Position(key_of(&position)))
}

/// What tells a position from another, as text: the FEN's first four fields, the
/// en-passant square only when the capture is legal (as the position search counts
/// positions: 1. e4 c5 2. Nf3 and 1. Nf3 c5 2. e4 reach one position).
fn key_of(position: &Position) -> String {
    let fen = position.fen();
    let mut fields: Vec<&str> = fen.split(' ').take(4).collect();
    if !crate::study::key::ep_capture_is_legal(position.board()) {
        if let Some(ep) = fields.get_mut(3) {
            *ep = "-";
        }
    }
    fields.join(" ")
}

/// The key of a `pos:` term for the position of `fen` (see [`Term::Position`]), or
/// `None` when `fen` does not read.
pub fn position_key(fen: &str) -> Option<String> {
    Position::from_fen(fen).ok().map(|p| key_of(&p))
}

/// The plain words of `text` that look like a year (`1972`, unquoted, without a field):
/// a plain word is looked for in names, events, sites and openings, not in the date,
/// which a player typing `fischer spassky 1972` may not expect; the list then says how
/// to ask for the year. Empty for a text that does not read.
pub fn plain_years(text: &str) -> Vec<&str> {
    split(text)
        .unwrap_or_default()
        .into_iter()
        .map(|piece| piece.text)
        .filter(|word| field_name(word).is_none())
        .filter(|word| word.len() == 4 && word.bytes().all(|b| b.is_ascii_digit()))
        .collect()
}

/// `text` without its `pos:` terms (the other terms as written, one space apart), or
/// `None` when it has none (or does not read): what `:search` adds its term to, so that
/// a new search replaces the last one and keeps the rest of the filter.
pub fn without_positions(text: &str) -> Option<String> {
    let pieces = split(text).ok()?;
    let is_position = |piece: &&Piece<'_>| {
        field_name(piece.text)
            .is_some_and(|n| n.eq_ignore_ascii_case("pos") || n.eq_ignore_ascii_case("position"))
    };
    if !pieces.iter().any(|p| is_position(&p)) {
        return None;
    }
    let rest: Vec<&str> = pieces
        .iter()
        .filter(|p| !is_position(p))
        .map(|p| p.text)
        .collect();
    Some(rest.join(" "))
}

/// Cuts the text at spaces outside quotes.
fn split(text: &str) -> Result<Vec<Piece<'_>>, QueryError> {
    let mut pieces = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut quote: Option<(usize, usize)> = None;
    let mut column = 0;
    for (at, c) in text.char_indices() {
        column += 1;
        if c == '"' {
            quote = match quote {
                Some(_) => None,
                None => Some((at, column)),
            };
            start.get_or_insert((at, column));
        } else if c.is_whitespace() && quote.is_none() {
            if let Some((from, col)) = start.take() {
                pieces.push(Piece {
                    column: col,
                    text: &text[from..at],
                });
            }
        } else {
            start.get_or_insert((at, column));
        }
    }
    if let Some((at, col)) = quote {
        return Err(QueryError {
            column: col,
            token: text[at..].to_string(),
            kind: QueryErrorKind::UnclosedQuote,
        });
    }
    if let Some((from, col)) = start {
        pieces.push(Piece {
            column: col,
            text: &text[from..],
        });
    }
    Ok(pieces)
}

/// The `name` of a `name:value` piece: letters (and `-`) before a colon, no quote first.
fn field_name(piece: &str) -> Option<&str> {
    let colon = piece.find(':')?;
    let name = &piece[..colon];
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-')).then_some(name)
}

/// The value without its quotes (`"World Cup"` → `World Cup`).
fn unquote(value: &str) -> &str {
    value
        .strip_prefix('"')
        .map(|v| v.strip_suffix('"').unwrap_or(v))
        .unwrap_or(value)
}

/// A text term of the words of `value`, folded; `None` when it has none (`""`). A comma
/// parts words as a space does: `carlsen, magnus` is the name as files write it, and
/// finds it written any way, as `carlsen magnus` does.
fn text_term(fields: u8, value: &str) -> Option<Term> {
    let folded = fold(value);
    let spaced = folded.replace(',', " ");
    let words: Vec<String> = spaced.split_whitespace().map(str::to_string).collect();
    (!words.is_empty()).then_some(Term::Text { fields, words })
}

/// `N`, `N..M`, `N..`, `..M`, `>N`, `>=N`, `<N`, `<=N`, `=N`.
fn number_range(value: &str) -> Option<Range> {
    let n = |s: &str| -> Option<u32> {
        let s = s.trim();
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    let v = value.trim();
    let range = if let Some(rest) = v.strip_prefix(">=") {
        Range {
            lo: n(rest)?,
            hi: u32::MAX,
        }
    } else if let Some(rest) = v.strip_prefix("<=") {
        Range {
            lo: 0,
            hi: n(rest)?,
        }
    } else if let Some(rest) = v.strip_prefix('>') {
        Range {
            lo: n(rest)?.checked_add(1)?,
            hi: u32::MAX,
        }
    } else if let Some(rest) = v.strip_prefix('<') {
        Range {
            lo: 0,
            hi: n(rest)?.checked_sub(1)?,
        }
    } else if let Some(rest) = v.strip_prefix('=') {
        let x = n(rest)?;
        Range { lo: x, hi: x }
    } else if let Some((lo, hi)) = v.split_once("..") {
        let lo = if lo.is_empty() { 0 } else { n(lo)? };
        let hi = if hi.is_empty() { u32::MAX } else { n(hi)? };
        if lo > hi {
            return None;
        }
        Range { lo, hi }
    } else {
        let x = n(v)?;
        Range { lo: x, hi: x }
    };
    Some(range)
}

/// `B90`, `B` (B00–B99), `B90..B99` (a range may end in a letter: `A..C`).
fn eco_range(value: &str) -> Option<Range> {
    let bound = |s: &str, last: bool| -> Option<u32> {
        if s.len() == 1 {
            let letter = Eco::parse(&format!("{s}00"))?;
            let packed = u32::from(Eco::packed(Some(letter)));
            return Some(if last { packed + 99 } else { packed });
        }
        Some(u32::from(Eco::packed(Some(Eco::parse(s)?))))
    };
    let (lo, hi) = match value.split_once("..") {
        Some((lo, hi)) => (bound(lo, false)?, bound(hi, true)?),
        None => (bound(value, false)?, bound(value, true)?),
    };
    (lo <= hi).then_some(Range { lo, hi })
}

fn result(value: &str) -> Option<Outcome> {
    match value.to_ascii_lowercase().as_str() {
        "1-0" | "white" => Some(Outcome::WhiteWins),
        "0-1" | "black" => Some(Outcome::BlackWins),
        "1/2-1/2" | "1/2" | "½-½" | "½" | "=" | "draw" => Some(Outcome::Draw),
        "*" => Some(Outcome::Unknown),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> (usize, String, QueryErrorKind) {
        let e = parse(text).expect_err(text);
        (e.column, e.token, e.kind)
    }

    #[test]
    fn words_and_fields_combine() {
        let q = parse("carlsen  white:\"Anand, V\" elo:>2600 year:1990..1995").unwrap();
        assert_eq!(
            q.terms,
            vec![
                Term::Text {
                    fields: field::PLAIN,
                    words: vec!["carlsen".into()]
                },
                Term::Text {
                    fields: field::WHITE,
                    words: vec!["anand".into(), "v".into()]
                },
                Term::Elo(
                    Side::Both,
                    Range {
                        lo: 2601,
                        hi: u32::MAX
                    }
                ),
                Term::Year(Range { lo: 1990, hi: 1995 }),
            ]
        );
        assert!(parse("   ").unwrap().is_empty());
        assert_eq!(
            parse("Ljubojević").unwrap().terms[0],
            Term::Text {
                fields: field::PLAIN,
                words: vec!["ljubojevic".into()]
            }
        );
    }

    #[test]
    fn numbers_and_ranges() {
        let r = |t: &str| number_range(t).map(|r| (r.lo, r.hi));
        assert_eq!(r("40"), Some((40, 40)));
        assert_eq!(r("<40"), Some((0, 39)));
        assert_eq!(r("<=40"), Some((0, 40)));
        assert_eq!(r(">=40"), Some((40, u32::MAX)));
        assert_eq!(r("10..20"), Some((10, 20)));
        assert_eq!(r("10.."), Some((10, u32::MAX)));
        assert_eq!(r("..20"), Some((0, 20)));
        for bad in ["x", "20..10", "<0", ">", "1.5", "-3"] {
            assert_eq!(r(bad), None, "{bad}");
        }
    }

    #[test]
    fn eco_and_results() {
        let e = |t: &str| eco_range(t).map(|r| (r.lo, r.hi));
        let code = |t: &str| u32::from(Eco::packed(Eco::parse(t)));
        assert_eq!(e("B90"), Some((code("B90"), code("B90"))));
        assert_eq!(e("b"), Some((code("B00"), code("B99"))));
        assert_eq!(e("B90..B99"), Some((code("B90"), code("B99"))));
        assert_eq!(e("A..C"), Some((code("A00"), code("C99"))));
        assert_eq!(e("B99..B90"), None);
        assert_eq!(e("Z1"), None);
        assert_eq!(
            parse("result:1/2").unwrap().terms,
            vec![Term::Result(Outcome::Draw)]
        );
    }

    #[test]
    fn errors_say_where_and_why() {
        assert_eq!(
            kind("carlsen colour:white"),
            (9, "colour:".into(), QueryErrorKind::UnknownField)
        );
        assert_eq!(
            kind("elo:>abc"),
            (5, ">abc".into(), QueryErrorKind::BadNumber)
        );
        assert_eq!(
            kind("year:1990..1960"),
            (6, "1990..1960".into(), QueryErrorKind::Backwards)
        );
        assert_eq!(
            kind("x white:"),
            (3, "white:".into(), QueryErrorKind::MissingValue)
        );
        assert_eq!(kind("é eco:Z99"), (7, "Z99".into(), QueryErrorKind::BadEco));
        assert_eq!(
            kind("result:won"),
            (8, "won".into(), QueryErrorKind::BadResult)
        );
        assert_eq!(
            kind("a \"open"),
            (3, "\"open".into(), QueryErrorKind::UnclosedQuote)
        );
        let message = parse("plies:lots").unwrap_err().to_string();
        assert!(
            message.starts_with("column 7, \"lots\": not a number"),
            "{message}"
        );
    }
}
