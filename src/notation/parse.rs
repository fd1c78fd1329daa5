//! Syntax only: the text of one move → a [`MoveText`], without looking at a board.
//!
//! Reads short algebraic in every written variant (capture `x` `:` `×` or none,
//! trailing `:`, minimal pawn captures `exd` / `ed`, promotions `e8=Q` `e8Q`
//! `e8(Q)` `e8/Q`, castling with letter O or digit 0, `e.p.`, check and mate
//! marks, glyphs, FIDE's `(=)`), long algebraic, UCI, ICCF numeric, figurines, and
//! the piece letters of the chosen language.

use chess::{File, Piece, Rank, Square};

use super::lang::{figurine_piece, Lang, PIECES};

/// Where the target of a move is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A full square: `e4`.
    Square(Square),
    /// Only a file, in minimal pawn captures: the `d` of `exd`.
    File(File),
}

/// The move part of a [`MoveText`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// A piece or pawn move.
    Move {
        /// The piece named; `None` when the text gives a full from-square and no
        /// letter (`g1f3` in UCI), meaning whatever stands there.
        piece: Option<Piece>,
        /// The from-file, when written.
        from_file: Option<File>,
        /// The from-rank, when written.
        from_rank: Option<Rank>,
        /// A capture mark was written.
        capture: bool,
        /// The destination.
        to: Target,
        /// The promotion piece, when written.
        promotion: Option<Piece>,
    },
    /// Castling; `long` for the queen side.
    Castle {
        /// Queen-side castling.
        long: bool,
    },
    /// A null move (`--`, `Z0`, `0000`).
    Null,
}

/// A check or mate mark as written (the engine computes the true one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckMark {
    /// `+`, `†`, `ch`, `++` (which some books use for double check).
    Check,
    /// `#`, `‡`, `mate`, `≠`, and `++` where FIDE's appendix uses it for mate.
    Mate,
}

/// One move as written, read but not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveText {
    /// The move itself.
    pub body: Body,
    /// A check or mate mark, when written.
    pub check: Option<CheckMark>,
    /// An annotation glyph as a NAG: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`.
    pub nag: Option<u8>,
    /// FIDE's draw-offer mark `(=)` followed the move.
    pub draw_offer: bool,
    /// An `e.p.` mark followed the move.
    pub ep_mark: bool,
}

impl MoveText {
    /// A move with nothing written around it.
    pub fn of(body: Body) -> Self {
        MoveText {
            body,
            check: None,
            nag: None,
            draw_offer: false,
            ep_mark: false,
        }
    }
}

/// A text that is not a move at all; `col` is the 1-based character position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a move: {why}")]
pub struct ParseError {
    /// 1-based character column within the move text.
    pub col: usize,
    /// What is wrong.
    pub why: String,
}

/// One or two readings of a text, the preferred first. There are two only when a
/// lower-case letter is both a file and a piece (`bc3`: b-pawn takes c3, or Bc3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readings {
    /// The preferred reading.
    pub first: MoveText,
    /// The other reading, tried when the first is not legal.
    pub second: Option<MoveText>,
}

/// Suffixes recognised at the end of a move, longest first within each kind.
const GLYPHS: &[(&str, u8)] = &[
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
    ("‼", 3),
    ("⁇", 4),
    ("⁉", 5),
    ("⁈", 6),
    ("!", 1),
    ("?", 2),
];
/// The NAG of a glyph written on its own (`!?` → 5, `‼` → 3).
pub fn glyph_nag(text: &str) -> Option<u8> {
    GLYPHS.iter().find(|(g, _)| *g == text).map(|(_, nag)| *nag)
}

const CHECKS: &[(&str, CheckMark)] = &[
    ("dbl ch", CheckMark::Check),
    ("dis ch", CheckMark::Check),
    ("mate", CheckMark::Mate),
    // The word for mate in French (mat), German (matt) and Russian (мат).
    ("matt", CheckMark::Mate),
    ("mat", CheckMark::Mate),
    ("мат", CheckMark::Mate),
    ("шах", CheckMark::Check),
    ("++", CheckMark::Check),
    ("ch", CheckMark::Check),
    ("+", CheckMark::Check),
    ("†", CheckMark::Check),
    ("#", CheckMark::Mate),
    ("‡", CheckMark::Mate),
    ("≠", CheckMark::Mate),
];
const EP_MARKS: &[&str] = &["e.p.", "e. p.", "e.p", "ep"];

/// Is `word` a mark that books and hand-typed files write after a move as a word of its
/// own: en passant (`exd6 e.p.`), check (`Qh5 ch`, `Rf7 dis ch`) or mate (`Qg7 mate`)?
/// A PGN reader meets it as a separate token.
pub fn is_mark_word(word: &[u8]) -> bool {
    // No mark has a digit, nearly every move has one: asked of every move a search passes
    // over (see `GameBuilder::leave`), the lists are then not looked through.
    if word.iter().any(u8::is_ascii_digit) {
        return false;
    }
    EP_MARKS
        .iter()
        .chain(MARK_PARTS)
        .any(|m| m.as_bytes() == word)
        || CHECKS
            .iter()
            .any(|(m, _)| m.as_bytes() == word && m.chars().all(char::is_alphabetic))
}

/// Why a letter is not read, with a word on the Cyrillic letters that look like Latin
/// ones (a Cyrillic keyboard types `е` for `e`): squares are written with Latin letters.
fn unexpected(c: char) -> String {
    let latin = match c {
        'а' => 'a',
        'в' => 'b',
        'с' => 'c',
        'е' => 'e',
        'х' => 'x',
        _ => return format!("unexpected '{c}'"),
    };
    format!(
        "unexpected '{c}': a Cyrillic letter; squares are written with Latin letters ('{latin}')"
    )
}

/// Words that begin a mark of two (`dis ch`, `dbl ch`).
const MARK_PARTS: &[&str] = &["dbl", "dis"];

/// Reads one move in the given piece-letter language.
pub fn parse(text: &str, lang: &Lang) -> Result<Readings, ParseError> {
    let mut mt = MoveText::of(Body::Null);
    let lead = text.chars().count() - text.trim_start().chars().count();
    parse_trimmed(text.trim(), lang, &mut mt).map_err(|mut e| {
        e.col += lead;
        e
    })
}

fn parse_trimmed(text: &str, lang: &Lang, mt: &mut MoveText) -> Result<Readings, ParseError> {
    let mt = *mt;
    let mut mt = mt;
    let (body, trailing_capture) = strip_suffixes(text, &mut mt);
    if body.is_empty() {
        return Err(ParseError {
            col: 1,
            why: "no move written".into(),
        });
    }
    if let Some(b) = special_body(body) {
        mt.body = b;
        return Ok(Readings {
            first: mt,
            second: None,
        });
    }
    if body.bytes().all(|b| b.is_ascii_digit()) {
        mt.body = iccf(body)?;
        return Ok(Readings {
            first: mt,
            second: None,
        });
    }
    // A lower-case letter that is both a file and a piece letter (English `b`,
    // French `f` `c` `d`...) is read as a file first and as a piece second.
    let first_char = body.chars().next().unwrap_or(' ');
    let lower_piece = if first_char.is_ascii_lowercase() {
        let upper = first_char.to_ascii_uppercase().to_string();
        lang.piece_prefix(&upper).filter(|(_, len)| *len == 1)
    } else {
        None
    };
    let first = body_move(body, lang, None, trailing_capture);
    let second = match lower_piece {
        Some((piece, _)) if piece != Piece::Pawn => {
            body_move(body, lang, Some(piece), trailing_capture).ok()
        }
        _ => None,
    };
    match (first, second) {
        (Ok(b), second) => {
            let second = second.map(|body| MoveText { body, ..mt });
            mt.body = b;
            Ok(Readings { first: mt, second })
        }
        (Err(_), Some(b)) => {
            mt.body = b;
            Ok(Readings {
                first: mt,
                second: None,
            })
        }
        (Err(e), None) => Err(e),
    }
}

/// Strips check marks, glyphs, `e.p.`, `(=)` and a trailing capture colon, in any
/// order, recording them in `mt`. Returns the body and whether it ended in `:`.
fn strip_suffixes<'a>(mut s: &'a str, mt: &mut MoveText) -> (&'a str, bool) {
    let mut trailing_capture = false;
    loop {
        s = s.trim_end();
        if let Some(rest) = s.strip_suffix("(=)") {
            mt.draw_offer = true;
            s = rest;
            continue;
        }
        if let Some(&(g, nag)) = GLYPHS.iter().find(|(g, _)| s.ends_with(g)) {
            mt.nag.get_or_insert(nag);
            s = &s[..s.len() - g.len()];
            continue;
        }
        if let Some(&(c, mark)) = CHECKS.iter().find(|(c, _)| s.ends_with(c)) {
            let rest = &s[..s.len() - c.len()];
            // "ch" and "mate" must follow a move, not be part of one.
            if !rest.is_empty() {
                mt.check.get_or_insert(mark);
                s = rest;
                continue;
            }
        }
        if let Some(ep) = EP_MARKS.iter().find(|m| s.ends_with(*m)) {
            let rest = s[..s.len() - ep.len()].trim_end();
            // The mark may follow a check mark or glyph: `exd6+ e.p.`.
            let core = rest.trim_end_matches(['+', '#', '!', '?', '†', '‡', ' ']);
            if core.ends_with(|c: char| c.is_ascii_digit()) {
                mt.ep_mark = true;
                s = rest;
                continue;
            }
        }
        // Russian books mark mate with a trailing x after the move.
        if let Some(rest) = s.strip_suffix(['x', 'X']) {
            // After a square, a promotion piece (`e8Фx`) or castling (`O-O-Ox`).
            let after_move = rest.ends_with(|c: char| {
                c.is_ascii_digit()
                    || c == 'O'
                    || (c.is_alphabetic() && c.is_uppercase())
                    || figurine_piece(c).is_some()
            });
            if after_move && rest.len() >= 2 {
                mt.check.get_or_insert(CheckMark::Mate);
                s = rest;
                continue;
            }
        }
        if !trailing_capture {
            if let Some(rest) = s.strip_suffix(':') {
                trailing_capture = true;
                s = rest;
                continue;
            }
        }
        return (s, trailing_capture);
    }
}

/// Castling and null moves.
fn special_body(body: &str) -> Option<Body> {
    if matches!(body, "--" | "Z0" | "0000" | "@@@@") {
        return Some(Body::Null);
    }
    let mut count = 0;
    for c in body.chars() {
        match c {
            'O' | '0' | 'o' => count += 1,
            '-' | '–' | '—' => {}
            _ => return None,
        }
    }
    match count {
        2 => Some(Body::Castle { long: false }),
        3 => Some(Body::Castle { long: true }),
        _ => None,
    }
}

/// ICCF numeric notation: `5254`, promotions with a fifth digit `57581`.
fn iccf(body: &str) -> Result<Body, ParseError> {
    let d: Vec<u8> = body.bytes().map(|b| b - b'0').collect();
    let bad = |col: usize, why: &str| ParseError {
        col,
        why: why.to_string(),
    };
    if d.len() != 4 && d.len() != 5 {
        return Err(bad(
            1,
            "a numeric (ICCF) move has 4 digits, or 5 for a promotion",
        ));
    }
    for (i, v) in d.iter().take(4).enumerate() {
        if !(1..=8).contains(v) {
            return Err(bad(i + 1, "ICCF files and ranks are digits 1 to 8"));
        }
    }
    let sq = |f: u8, r: u8| {
        Square::make_square(
            Rank::from_index((r - 1) as usize),
            File::from_index((f - 1) as usize),
        )
    };
    let from = sq(d[0], d[1]);
    let promotion = match d.get(4) {
        None => None,
        Some(1) => Some(Piece::Queen),
        Some(2) => Some(Piece::Rook),
        Some(3) => Some(Piece::Bishop),
        Some(4) => Some(Piece::Knight),
        Some(_) => return Err(bad(5, "ICCF promotion digits are 1 Q, 2 R, 3 B, 4 N")),
    };
    Ok(Body::Move {
        piece: None,
        from_file: Some(from.get_file()),
        from_rank: Some(from.get_rank()),
        capture: false,
        to: Target::Square(sq(d[2], d[3])),
        promotion,
    })
}

#[derive(Clone, Copy)]
enum Coord {
    File(u8),
    Rank(u8),
}

/// A piece letter or figurine at the start of `s`: the piece and its byte length.
/// Lower-case letters are accepted too, but one that is also a file letter only when
/// `lower_files` (a promotion piece, or the second reading of an ambiguous text).
fn piece_at(s: &str, lang: &Lang, lower_files: bool) -> Option<(Piece, usize)> {
    let c = s.chars().next()?;
    if let Some(p) = figurine_piece(c) {
        return Some((p, c.len_utf8()));
    }
    if let Some(found) = lang.piece_prefix(s) {
        return Some(found);
    }
    if !c.is_lowercase() || (!lower_files && ('a'..='h').contains(&c)) {
        return None;
    }
    // Longest letter first, compared without case: `кр` is the Russian king.
    let mut best: Option<(Piece, usize, usize)> = None;
    for (i, letter) in lang.letters.iter().enumerate() {
        let chars = letter.chars().count();
        if chars == 0 || best.is_some_and(|(_, _, n)| n >= chars) {
            continue;
        }
        let prefix: String = s.chars().take(chars).collect();
        if prefix.chars().count() == chars && prefix.to_lowercase() == letter.to_lowercase() {
            best = Some((PIECES[i], prefix.len(), chars));
        }
    }
    best.map(|(p, len, _)| (p, len))
}

/// The general case: optional piece, coordinates, capture marks, promotion.
fn body_move(
    body: &str,
    lang: &Lang,
    forced_piece: Option<Piece>,
    trailing_capture: bool,
) -> Result<Body, ParseError> {
    let mut piece = None;
    let mut i = 0usize;
    let mut col = 1usize;
    if let Some(p) = forced_piece {
        piece = Some(p);
        let c = body.chars().next().unwrap_or(' ');
        i = c.len_utf8();
        col = 2;
    } else if let Some((p, len)) = piece_at(body, lang, false) {
        piece = Some(p);
        col += body[..len].chars().count();
        i = len;
    }
    let mut coords: [Option<Coord>; 5] = [None; 5];
    let mut n = 0usize;
    let mut capture = trailing_capture;
    let mut promotion = None;
    let mut promo_mark = false;
    while i < body.len() {
        let rest = &body[i..];
        let c = rest.chars().next().unwrap_or(' ');
        let err = |why: String| ParseError { col, why };
        if promotion.is_some() {
            if c == ')' {
                i += 1;
                col += 1;
                continue;
            }
            return Err(err(format!("unexpected '{c}' after the promotion piece")));
        }
        let step = c.len_utf8();
        match c {
            'a'..='h' if !promo_mark => {
                // A trailing `b` after a full from- and to-square is UCI's bishop promotion.
                if n == 4 && c == 'b' && i + 1 == body.len() {
                    promotion = Some(Piece::Bishop);
                } else {
                    push(&mut coords, &mut n, Coord::File(c as u8 - b'a'), col)?;
                }
            }
            '1'..='8' => push(&mut coords, &mut n, Coord::Rank(c as u8 - b'1'), col)?,
            'x' | ':' | '×' => {
                if n == 0 && piece.is_none() {
                    return Err(err(format!("'{c}' before any square")));
                }
                capture = true;
            }
            '-' | '–' | '—' => {}
            '=' | '/' | '(' => promo_mark = true,
            ' ' => {}
            'q' | 'r' | 'n' | 'b' if n == 4 && i + 1 == body.len() => {
                // UCI promotion letters are English whatever the language.
                promotion = Some(match c {
                    'q' => Piece::Queen,
                    'r' => Piece::Rook,
                    'n' => Piece::Knight,
                    _ => Piece::Bishop,
                });
            }
            _ => match piece_at(rest, lang, promo_mark) {
                Some((p, len)) if n >= 2 => {
                    if matches!(p, Piece::Pawn | Piece::King) {
                        return Err(err(format!("a pawn cannot promote to a {}", name(p))));
                    }
                    promotion = Some(p);
                    col += rest[..len].chars().count();
                    i += len;
                    continue;
                }
                Some(_) => return Err(err(format!("unexpected piece letter '{c}'"))),
                None if c.is_ascii_digit() => {
                    return Err(err(format!("'{c}' is not a rank (ranks are 1 to 8)")))
                }
                None if c.is_uppercase() => {
                    return Err(err(format!(
                        "'{c}' is not a piece letter in {} ({})",
                        lang.name,
                        letter_list(lang)
                    )))
                }
                None => return Err(err(unexpected(c))),
            },
        }
        i += step;
        col += 1;
    }
    if promo_mark && promotion.is_none() {
        return Err(ParseError {
            col,
            why: "the promotion piece is missing after '='".into(),
        });
    }
    let c = &coords[..n];
    let file = |x: &Option<Coord>| match x {
        Some(Coord::File(f)) => Some(File::from_index(*f as usize)),
        _ => None,
    };
    let rank = |x: &Option<Coord>| match x {
        Some(Coord::Rank(r)) => Some(Rank::from_index(*r as usize)),
        _ => None,
    };
    let square =
        |f: &Option<Coord>, r: &Option<Coord>| Some(Square::make_square(rank(r)?, file(f)?));
    let (from_file, from_rank, to) = match c {
        [f, r] if square(f, r).is_some() => (None, None, square(f, r).map(Target::Square)),
        [ff, f, r] if file(ff).is_some() => (file(ff), None, square(f, r).map(Target::Square)),
        [fr, f, r] if rank(fr).is_some() => (None, rank(fr), square(f, r).map(Target::Square)),
        [ff, fr, f, r] if square(ff, fr).is_some() => {
            (file(ff), rank(fr), square(f, r).map(Target::Square))
        }
        [ff, f] if file(ff).is_some() && file(f).is_some() => {
            (file(ff), None, file(f).map(Target::File))
        }
        _ => (None, None, None),
    };
    let Some(to) = to else {
        return Err(ParseError {
            col: 1,
            why: "expected a destination square such as e4".into(),
        });
    };
    let full_from = from_file.is_some() && from_rank.is_some();
    let piece = match piece {
        Some(p) => Some(p),
        None if full_from => None,
        None => Some(Piece::Pawn),
    };
    if let Target::File(_) = to {
        if piece != Some(Piece::Pawn) {
            return Err(ParseError {
                col: 1,
                why: "only a pawn capture may omit the destination rank".into(),
            });
        }
    }
    if promotion.is_some() && piece.is_some_and(|p| p != Piece::Pawn) {
        return Err(ParseError {
            col: 1,
            why: "only a pawn can promote".into(),
        });
    }
    Ok(Body::Move {
        piece,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
    })
}

fn push(
    coords: &mut [Option<Coord>; 5],
    n: &mut usize,
    c: Coord,
    col: usize,
) -> Result<(), ParseError> {
    if *n == coords.len() - 1 {
        return Err(ParseError {
            col,
            why: "too many squares for one move".into(),
        });
    }
    coords[*n] = Some(c);
    *n += 1;
    Ok(())
}

/// "K Q R B N, pawn P": the letters of a language, for messages.
fn letter_list(lang: &Lang) -> String {
    let l = &lang.letters;
    let mut out = format!("{} {} {} {} {}", l[5], l[4], l[3], l[2], l[1]);
    if !l[0].is_empty() {
        out.push_str(&format!(", pawn {}", l[0]));
    }
    out
}

/// The English name of a piece, for messages.
pub fn name(piece: Piece) -> &'static str {
    ["pawn", "knight", "bishop", "rook", "queen", "king"]
        [PIECES.iter().position(|p| *p == piece).unwrap_or(0)]
}
