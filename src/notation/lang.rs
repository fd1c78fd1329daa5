//! Piece letters in the languages players write their scoresheets in.
//!
//! The language is chosen, never guessed per move: the letters collide (`B` is a
//! bishop in English and a pawn in German, `P` a pawn in French and a knight in
//! Dutch, `R` a rook in English and a king in French).

use chess::Piece;

/// A piece-letter language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lang {
    /// ISO 639-1 code, as given to `--lang`.
    pub code: &'static str,
    /// The language's English name.
    pub name: &'static str,
    /// Letters in the crate's piece order: pawn, knight, bishop, rook, queen, king.
    /// The pawn letter is accepted on input (`Pe4`) and never written.
    pub letters: [&'static str; 6],
}

impl Lang {
    /// The letter (or letters: Russian `Кр`) of a piece.
    pub fn letter(&self, piece: Piece) -> &'static str {
        self.letters[piece.to_index()]
    }

    /// The piece whose letter starts `text`, with the letter's length in bytes.
    /// Longest letters are tried first (Russian `Кр` before `К`).
    pub fn piece_prefix(&self, text: &str) -> Option<(Piece, usize)> {
        let mut best: Option<(Piece, usize)> = None;
        for (i, letter) in self.letters.iter().enumerate() {
            if !letter.is_empty()
                && text.starts_with(letter)
                && best.is_none_or(|(_, len)| letter.len() > len)
            {
                best = Some((PIECES[i], letter.len()));
            }
        }
        best
    }

    /// Looks a language up by its code (`de`) or English name (`German`), ignoring case.
    pub fn by_code(code: &str) -> Option<&'static Lang> {
        LANGS
            .iter()
            .find(|l| l.code.eq_ignore_ascii_case(code) || l.name.eq_ignore_ascii_case(code))
    }

    /// English, the PGN language.
    pub const fn english() -> &'static Lang {
        &LANGS[0]
    }
}

/// The crate's pieces in index order.
pub(crate) const PIECES: [Piece; 6] = [
    Piece::Pawn,
    Piece::Knight,
    Piece::Bishop,
    Piece::Rook,
    Piece::Queen,
    Piece::King,
];

/// Every supported language; English first.
pub const LANGS: &[Lang] = &[
    lang("en", "English", ["P", "N", "B", "R", "Q", "K"]),
    lang("de", "German", ["B", "S", "L", "T", "D", "K"]),
    lang("fr", "French", ["P", "C", "F", "T", "D", "R"]),
    lang("es", "Spanish", ["P", "C", "A", "T", "D", "R"]),
    lang("it", "Italian", ["P", "C", "A", "T", "D", "R"]),
    lang("pt", "Portuguese", ["P", "C", "B", "T", "D", "R"]),
    lang("nl", "Dutch", ["", "P", "L", "T", "D", "K"]),
    lang("pl", "Polish", ["P", "S", "G", "W", "H", "K"]),
    lang("cs", "Czech", ["P", "J", "S", "V", "D", "K"]),
    lang("sk", "Slovak", ["P", "J", "S", "V", "D", "K"]),
    lang("hu", "Hungarian", ["G", "H", "F", "B", "V", "K"]),
    lang("sv", "Swedish", ["B", "S", "L", "T", "D", "K"]),
    lang("da", "Danish", ["B", "S", "L", "T", "D", "K"]),
    lang("no", "Norwegian", ["B", "S", "L", "T", "D", "K"]),
    lang("fi", "Finnish", ["S", "R", "L", "T", "D", "K"]),
    lang("ro", "Romanian", ["P", "C", "N", "T", "D", "R"]),
    lang("is", "Icelandic", ["P", "R", "B", "H", "D", "K"]),
    lang("et", "Estonian", ["E", "R", "O", "V", "L", "K"]),
    lang("tr", "Turkish", ["P", "A", "F", "K", "V", "Ş"]),
    lang("ru", "Russian", ["п", "К", "С", "Л", "Ф", "Кр"]),
    lang("uk", "Ukrainian", ["п", "К", "С", "Т", "Ф", "Кр"]),
    lang("bg", "Bulgarian", ["П", "К", "О", "Т", "Д", "Ц"]),
];

const fn lang(code: &'static str, name: &'static str, letters: [&'static str; 6]) -> Lang {
    Lang {
        code,
        name,
        letters,
    }
}

/// The piece of a figurine, white or black (figurines are colourless in print).
pub fn figurine_piece(c: char) -> Option<Piece> {
    Some(match c {
        '♙' | '♟' => Piece::Pawn,
        '♘' | '♞' => Piece::Knight,
        '♗' | '♝' => Piece::Bishop,
        '♖' | '♜' => Piece::Rook,
        '♕' | '♛' => Piece::Queen,
        '♔' | '♚' => Piece::King,
        _ => return None,
    })
}

/// The figurine of a piece in a colour.
pub fn figurine(piece: Piece, white: bool) -> char {
    let (w, b) = match piece {
        Piece::Pawn => ('♙', '♟'),
        Piece::Knight => ('♘', '♞'),
        Piece::Bishop => ('♗', '♝'),
        Piece::Rook => ('♖', '♜'),
        Piece::Queen => ('♕', '♛'),
        Piece::King => ('♔', '♚'),
    };
    if white {
        w
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_distinct_letters() {
        for lang in LANGS {
            for (i, a) in lang.letters.iter().enumerate() {
                for b in &lang.letters[i + 1..] {
                    assert!(a.is_empty() || a != b, "{}: {a} twice", lang.code);
                }
                assert!(
                    !a.chars().any(|c| c.is_ascii_lowercase()),
                    "{}: lower-case letter {a} would collide with files",
                    lang.code
                );
            }
        }
        assert!(LANGS.len() >= 10);
    }

    #[test]
    fn russian_king_is_read_before_knight() {
        let ru = Lang::by_code("ru").unwrap();
        assert_eq!(ru.piece_prefix("Крe2"), Some((Piece::King, 4)));
        assert_eq!(ru.piece_prefix("Кf3"), Some((Piece::Knight, 2)));
        assert_eq!(Lang::by_code("German").unwrap().code, "de");
    }
}
