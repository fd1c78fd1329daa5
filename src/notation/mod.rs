//! The one door every move passes through: text in any written form → one legal
//! move, or a clear reason why not; and back from a move to text.
//!
//! Two phases, as in the architecture guide: [`parse`] is syntax only and gives a
//! [`MoveText`]; [`resolve`] finds the move in a [`Position`]. [`read_move`] does
//! both, trying the second reading of an ambiguous text (`bc3`) when the first is
//! not legal. [`format`] writes a move back in any [`Style`] and [`Lang`].

mod export_san;
mod format;
mod lang;
mod parse;
mod plain;
mod resolve;

pub use export_san::export_san;
pub use format::{format, san, write_move, Style};
pub use lang::{figurine, figurine_piece, Lang, LANGS};
pub use parse::{
    glyph_nag, is_mark_word, parse, Body, CheckMark, MoveText, ParseError, Readings, Target,
};
pub use plain::{parse_plain, parse_plain_bytes};
pub use resolve::{resolve, ResolveError};

use crate::position::{Move, Position};

/// Why a text is not a legal move here, with the text itself.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct NotationError {
    /// The move as it was written.
    pub text: String,
    /// What is wrong with it.
    pub kind: ErrorKind,
}

/// The three kinds of trouble a move text can be in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// Not a move at all (syntax); the column is within the text.
    Malformed(ParseError),
    /// A move, but not one that can be played here.
    Resolve(ResolveError),
}

impl std::fmt::Display for NotationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            ErrorKind::Malformed(e) => write!(f, "{e}"),
            ErrorKind::Resolve(ResolveError::Ambiguous(c)) => {
                write!(
                    f,
                    "{} is ambiguous: {}",
                    self.text.trim(),
                    resolve::or_list(c)
                )
            }
            ErrorKind::Resolve(e) => write!(f, "{e}"),
        }
    }
}

impl NotationError {
    /// True for a text that is not a move at all (as opposed to an illegal one).
    pub fn is_malformed(&self) -> bool {
        matches!(self.kind, ErrorKind::Malformed(_))
    }
}

/// [`read_move`] for a move held as bytes (as the PGN reader hands it over): plain
/// ASCII SAN is resolved without decoding; anything else is decoded (Windows-1252
/// when it is not UTF-8, as [`crate::text::decode`]) and read in full.
pub fn read_move_bytes(
    bytes: &[u8],
    pos: &Position,
    lang: &Lang,
) -> Result<(Move, MoveText), NotationError> {
    if let Some(mt) = parse_plain_bytes(bytes, lang) {
        if let Ok(mv) = resolve(&mt, pos) {
            return Ok((mv, mt));
        }
    }
    read_move(&crate::text::decode(bytes), pos, lang)
}

/// The languages other than `lang` in which `bytes` is a legal move in `pos`, in the
/// order of [`LANGS`]: for a hint when a move was meant in another language (`Sf3` is
/// a knight move in German, Polish, Swedish, …).
pub fn languages_reading(bytes: &[u8], pos: &Position, lang: &Lang) -> Vec<&'static Lang> {
    LANGS
        .iter()
        .filter(|l| l.code != lang.code && read_move_bytes(bytes, pos, l).is_ok())
        .collect()
}

/// The names of `langs` for a message: the first three, then `, …` when there are more
/// (`German, Polish, Swedish, …`).
pub fn named_languages(langs: &[&Lang]) -> String {
    let names: Vec<&str> = langs.iter().take(3).map(|l| l.name).collect();
    let more = if langs.len() > 3 { ", …" } else { "" };
    format!("{}{more}", names.join(", "))
}

/// Reads one move written in `lang` (figurines and UCI/ICCF are always accepted)
/// and finds it in `pos`. Returns the move with what was written around it
/// (glyphs, draw offer, check marks).
pub fn read_move(
    text: &str,
    pos: &Position,
    lang: &Lang,
) -> Result<(Move, MoveText), NotationError> {
    if let Some(mt) = parse_plain(text, lang) {
        if let Ok(mv) = resolve(&mt, pos) {
            return Ok((mv, mt));
        }
    }
    let err = |kind| NotationError {
        text: text.to_string(),
        kind,
    };
    let readings = parse(text, lang).map_err(|e| err(ErrorKind::Malformed(e)))?;
    match resolve(&readings.first, pos) {
        Ok(mv) => Ok((mv, readings.first)),
        Err(first_err) => match readings.second {
            Some(second) => match resolve(&second, pos) {
                Ok(mv) => Ok((mv, second)),
                // `be5`: a pawn cannot go from b to e, so the bishop's reason is the useful one.
                Err(second_err) if !pawn_files_adjacent(&readings.first) => {
                    Err(err(ErrorKind::Resolve(second_err)))
                }
                Err(_) => Err(err(ErrorKind::Resolve(first_err))),
            },
            None => Err(err(ErrorKind::Resolve(first_err))),
        },
    }
}

/// For a pawn reading with a from-file: is the target file next to it?
fn pawn_files_adjacent(mt: &MoveText) -> bool {
    match mt.body {
        Body::Move {
            from_file: Some(ff),
            to,
            ..
        } => {
            let tf = match to {
                Target::Square(sq) => sq.get_file(),
                Target::File(f) => f,
            };
            ff.to_index().abs_diff(tf.to_index()) <= 1
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests;
