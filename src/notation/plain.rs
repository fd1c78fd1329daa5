//! The fast path for the form of nearly every move in a PGN file: plain ASCII SAN,
//! read straight from bytes. Anything it does not recognise goes to [`super::parse`].

use chess::{File, Piece, Rank, Square};

use super::lang::{Lang, PIECES};
use super::parse::{Body, CheckMark, MoveText, Target};

/// The fast path for plain ASCII SAN (`Nbd7`, `exd5`, `e8=Q+`, `O-O`), the form
/// of nearly every move in a PGN file. `None` means "not plain": the caller then
/// uses [`parse`], which reads everything else.
pub fn parse_plain(text: &str, lang: &Lang) -> Option<MoveText> {
    parse_plain_bytes(text.as_bytes(), lang)
}

/// [`parse_plain`] on bytes, for readers that hold the move as bytes.
pub fn parse_plain_bytes(b: &[u8], lang: &Lang) -> Option<MoveText> {
    let mut mt = MoveText::of(Body::Null);
    let mut end = b.len();
    match b.last()? {
        b'+' => {
            mt.check = Some(CheckMark::Check);
            end -= 1;
        }
        b'#' => {
            mt.check = Some(CheckMark::Mate);
            end -= 1;
        }
        _ => {}
    }
    let b = &b[..end];
    if b.first() == Some(&b'O') {
        mt.body = match b {
            b"O-O" => Body::Castle { long: false },
            b"O-O-O" => Body::Castle { long: true },
            _ => return None,
        };
        return Some(mt);
    }
    let mut i = 0;
    let mut piece = Piece::Pawn;
    if let Some(&c) = b.first().filter(|c| c.is_ascii_uppercase()) {
        piece = ascii_piece(lang, c)?;
        i = 1;
    }
    let mut promotion = None;
    let mut b = &b[i..];
    if let [rest @ .., b'=', p] = b {
        promotion =
            Some(ascii_piece(lang, *p).filter(|p| !matches!(p, Piece::Pawn | Piece::King))?);
        b = rest;
    }
    let (capture, b) = match b {
        [from @ .., b'x', f, r] => (true, (from, *f, *r)),
        [from @ .., f, r] => (false, (from, *f, *r)),
        _ => return None,
    };
    let (from, f, r) = b;
    let to = Square::make_square(rank(r)?, file(f)?);
    let (from_file, from_rank) = match from {
        [] => (None, None),
        [c] if c.is_ascii_digit() => (None, Some(rank(*c)?)),
        [c] => (Some(file(*c)?), None),
        [c, d] => (Some(file(*c)?), Some(rank(*d)?)),
        _ => return None,
    };
    if from_file.is_some() && from_rank.is_some() && piece == Piece::Pawn {
        return None;
    }
    mt.body = Body::Move {
        piece: Some(piece),
        from_file,
        from_rank,
        capture,
        to: Target::Square(to),
        promotion,
    };
    Some(mt)
}

/// The file of an ASCII letter `a`–`h`.
pub(super) fn file(c: u8) -> Option<File> {
    (b'a'..=b'h')
        .contains(&c)
        .then(|| File::from_index(usize::from(c - b'a')))
}

/// The rank of an ASCII digit `1`–`8`.
pub(super) fn rank(c: u8) -> Option<Rank> {
    (b'1'..=b'8')
        .contains(&c)
        .then(|| Rank::from_index(usize::from(c - b'1')))
}

/// The piece of a one-byte ASCII letter in `lang`.
fn ascii_piece(lang: &Lang, c: u8) -> Option<Piece> {
    lang.letters
        .iter()
        .position(|l| l.len() == 1 && l.as_bytes()[0] == c)
        .map(|i| PIECES[i])
}
