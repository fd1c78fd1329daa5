//! One game of the list, kept small (a million and a half of them fit in well under 100 MB):
//! names as ids into the catalog's string tables, the date packed in a `u32`, Elos in `u16`.
//! Also the columns of the list and the typed values a row's fields read as.

use std::fmt;

use crate::pgn::Outcome;

/// The game list's row of one game: ids of interned strings (0 is "unknown") and packed
/// values. Its game number is its place in the catalog plus one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Row {
    /// Byte offset of the game in the (decompressed) input: the low 32 bits, then the
    /// high 16 (an offset takes 48 bits: 256 TiB; rows stay 48 bytes, not 56).
    pub(crate) offset_low: u32,
    pub(crate) offset_high: u16,
    /// Length in bytes (0 for a game too large to index).
    pub(crate) len: u32,
    pub(crate) white: u32,
    pub(crate) black: u32,
    pub(crate) event: u32,
    pub(crate) site: u32,
    pub(crate) round: u32,
    /// The `Opening` tag, else the name of the ECO code.
    pub(crate) opening: u32,
    pub(crate) date: Date,
    /// 0 when unknown.
    pub(crate) white_elo: u16,
    pub(crate) black_elo: u16,
    /// 0 when unknown.
    pub(crate) eco: u16,
    /// Saturates at `u16::MAX`.
    pub(crate) plies: u16,
    /// [`Outcome`] as a byte: see [`outcome_code`].
    pub(crate) result: u8,
    /// 0: read; else an [`Unreadable`] code.
    pub(crate) state: u8,
}

impl Row {
    pub(crate) fn offset(&self) -> u64 {
        u64::from(self.offset_high) << 32 | u64::from(self.offset_low)
    }

    pub(crate) fn set_offset(&mut self, offset: u64) {
        self.offset_low = offset as u32;
        self.offset_high = (offset >> 32).min(u64::from(u16::MAX)) as u16;
    }
}

/// A result as a byte, ordered as the list sorts results: White won, draw, Black won,
/// unknown (`*` or none).
pub(crate) fn outcome_code(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::WhiteWins => 0,
        Outcome::Draw => 1,
        Outcome::BlackWins => 2,
        Outcome::Unknown => 3,
    }
}

/// The inverse of [`outcome_code`].
pub(crate) fn outcome_of(code: u8) -> Outcome {
    match code {
        0 => Outcome::WhiteWins,
        1 => Outcome::Draw,
        2 => Outcome::BlackWins,
        _ => Outcome::Unknown,
    }
}

/// Why a game of the file is listed without its details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// The game is larger than the reader holds (64 MiB): it cannot be opened.
    TooLarge,
}

impl Unreadable {
    pub(crate) fn code(self) -> u8 {
        match self {
            Unreadable::TooLarge => 1,
        }
    }

    pub(crate) fn of(code: u8) -> Option<Unreadable> {
        match code {
            1 => Some(Unreadable::TooLarge),
            _ => None,
        }
    }
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::TooLarge => write!(
                f,
                "larger than the {} MiB limit per game",
                crate::pgn::MAX_GAME >> 20
            ),
        }
    }
}

/// A date as PGN writes it (`1990.03.??`), packed so that dates compare as dates: year,
/// month and day, each 0 when unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(u32);

impl Date {
    /// Reads a `Date` tag leniently: up to three runs of digits (year, month, day) separated
    /// by anything (`1990.03.15`, `1990-03-15`, `1990.??.??`, `1990`); a part out of range
    /// or not digits (`??`) is unknown.
    pub fn parse(text: &str) -> Date {
        Date::parse_usual(text).unwrap_or_else(|| Date::parse_split(text))
    }

    /// The usual forms, `1990.03.15` and `1990.??.??`, read without splitting (a million
    /// dates a second matter when a large file is listed); `None` for any other form.
    /// A part of digits and question marks only is one part when split, and counts
    /// when all digits.
    #[inline]
    fn parse_usual(text: &str) -> Option<Date> {
        let &[y0, y1, y2, y3, b'.', m0, m1, b'.', d0, d1] = text.as_bytes() else {
            return None;
        };
        let d = [y0, y1, y2, y3, m0, m1, d0, d1];
        // All digits, most dates: each part read without a loop.
        if d.iter().all(u8::is_ascii_digit) {
            let n = |digit: u8| u32::from(digit - b'0');
            let year = n(y0) * 1000 + n(y1) * 100 + n(y2) * 10 + n(y3);
            return Some(Date::checked(year, n(m0) * 10 + n(m1), n(d0) * 10 + n(d1)));
        }
        if !d.iter().all(|&b| b.is_ascii_digit() || b == b'?') {
            return None;
        }
        let n = |part: &[u8]| {
            part.iter()
                .try_fold(0u32, |n, &b| {
                    b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
                })
                .unwrap_or(0)
        };
        Some(Date::checked(n(&d[..4]), n(&d[4..6]), n(&d[6..])))
    }

    /// Any form: up to three runs of digits separated by anything.
    fn parse_split(text: &str) -> Date {
        let mut parts = [0u32; 3];
        for (k, part) in text
            .split(['.', '-', '/', ' '])
            .filter(|p| !p.is_empty())
            .take(3)
            .enumerate()
        {
            if part.len() <= 4 && part.bytes().all(|b| b.is_ascii_digit()) {
                parts[k] = part.parse().unwrap_or(0);
            }
        }
        let [year, month, day] = parts;
        Date::checked(year, month, day)
    }

    /// The date of these parts, each 0 (unknown) when out of range.
    fn checked(year: u32, month: u32, day: u32) -> Date {
        let year = if (1..=9999).contains(&year) { year } else { 0 };
        let month = if (1..=12).contains(&month) { month } else { 0 };
        let day = if (1..=31).contains(&day) { day } else { 0 };
        Date(year << 9 | month << 5 | day)
    }

    /// A date from its parts (0 for an unknown part).
    pub fn new(year: u16, month: u8, day: u8) -> Date {
        Date(
            u32::from(year.min(9999)) << 9 | u32::from(month.min(12)) << 5 | u32::from(day.min(31)),
        )
    }

    /// The year, if known.
    pub fn year(self) -> Option<u16> {
        Some((self.0 >> 9) as u16).filter(|&y| y != 0)
    }

    /// The month (1–12), if known.
    pub fn month(self) -> Option<u8> {
        Some((self.0 >> 5 & 15) as u8).filter(|&m| m != 0)
    }

    /// The day of the month, if known.
    pub fn day(self) -> Option<u8> {
        Some((self.0 & 31) as u8).filter(|&d| d != 0)
    }

    /// Whether nothing of the date is known.
    pub fn is_unknown(self) -> bool {
        self.0 == 0
    }

    pub(crate) fn packed(self) -> u32 {
        self.0
    }
}

impl fmt::Display for Date {
    /// PGN's form: `1990.03.??`, `????.??.??` when unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.year() {
            Some(y) => write!(f, "{y:04}.")?,
            None => f.write_str("????.")?,
        }
        match self.month() {
            Some(m) => write!(f, "{m:02}.")?,
            None => f.write_str("??.")?,
        }
        match self.day() {
            Some(d) => write!(f, "{d:02}"),
            None => f.write_str("??"),
        }
    }
}

/// An ECO code (`A00` to `E99`), packed so that codes compare in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Eco(u16);

impl Eco {
    /// Reads a code: a letter `A`–`E` (either case) and two digits; `None` otherwise.
    pub fn parse(text: &str) -> Option<Eco> {
        match text.as_bytes() {
            &[letter, tens, ones] if tens.is_ascii_digit() && ones.is_ascii_digit() => {
                let letter = letter.to_ascii_uppercase();
                if !(b'A'..=b'E').contains(&letter) {
                    return None;
                }
                let number = u16::from(tens - b'0') * 10 + u16::from(ones - b'0');
                Some(Eco(u16::from(letter - b'A') * 100 + number + 1))
            }
            _ => None,
        }
    }

    /// The packed form (1–500), 0 for none.
    pub(crate) fn packed(code: Option<Eco>) -> u16 {
        code.map_or(0, |c| c.0)
    }

    pub(crate) fn unpack(packed: u16) -> Option<Eco> {
        (1..=500).contains(&packed).then_some(Eco(packed))
    }

    /// The letter, `A` to `E`.
    pub fn letter(self) -> char {
        char::from(b'A' + ((self.0 - 1) / 100) as u8)
    }

    /// The number, 0 to 99.
    pub fn number(self) -> u8 {
        ((self.0 - 1) % 100) as u8
    }
}

impl fmt::Display for Eco {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:02}", self.letter(), self.number())
    }
}

/// A column of the game list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Column {
    /// The game's number in the file.
    Number,
    /// White's name.
    White,
    /// White's rating.
    WhiteElo,
    /// Black's name.
    Black,
    /// Black's rating.
    BlackElo,
    /// The result.
    Result,
    /// The date.
    Date,
    /// The event.
    Event,
    /// The round.
    Round,
    /// The site.
    Site,
    /// The ECO code.
    Eco,
    /// The opening's name.
    Opening,
    /// Half-moves in the main line.
    Plies,
}

impl Column {
    /// Every column, in the order the list shows them.
    pub const ALL: [Column; 13] = [
        Column::Number,
        Column::White,
        Column::WhiteElo,
        Column::Black,
        Column::BlackElo,
        Column::Result,
        Column::Date,
        Column::Event,
        Column::Round,
        Column::Site,
        Column::Eco,
        Column::Opening,
        Column::Plies,
    ];

    /// The column's name, as commands take it (`:sort white-elo`) and the header shows it.
    pub fn name(self) -> &'static str {
        match self {
            Column::Number => "number",
            Column::White => "white",
            Column::WhiteElo => "white-elo",
            Column::Black => "black",
            Column::BlackElo => "black-elo",
            Column::Result => "result",
            Column::Date => "date",
            Column::Event => "event",
            Column::Round => "round",
            Column::Site => "site",
            Column::Eco => "eco",
            Column::Opening => "opening",
            Column::Plies => "plies",
        }
    }

    /// The column called `name` (see [`Column::name`]; `#` and `elo`-less short forms too).
    pub fn from_name(name: &str) -> Option<Column> {
        let name = name.to_ascii_lowercase();
        Column::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .or(match name.as_str() {
                "#" | "n" | "no" => Some(Column::Number),
                "welo" => Some(Column::WhiteElo),
                "belo" => Some(Column::BlackElo),
                "moves" | "length" => Some(Column::Plies),
                _ => None,
            })
    }
}

/// One game of the list as the screen shows it: its values, borrowed from the catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow<'a> {
    /// 1-based game number in the file.
    pub number: u64,
    /// Byte offset of the game in the (decompressed) input: where to seek to load it.
    pub offset: u64,
    /// Its length in bytes (0 for a game too large to index).
    pub len: u64,
    /// White's name (empty when unknown).
    pub white: &'a str,
    /// White's rating.
    pub white_elo: Option<u16>,
    /// Black's name (empty when unknown).
    pub black: &'a str,
    /// Black's rating.
    pub black_elo: Option<u16>,
    /// The `Result` tag, else the result ending the moves.
    pub result: Outcome,
    /// The date.
    pub date: Date,
    /// The event (empty when unknown).
    pub event: &'a str,
    /// The round (empty when unknown).
    pub round: &'a str,
    /// The site (empty when unknown).
    pub site: &'a str,
    /// The ECO code.
    pub eco: Option<Eco>,
    /// The `Opening` tag, else the name of the ECO code (empty when neither).
    pub opening: &'a str,
    /// Half-moves in the main line, counted from the moves (saturating at 65,535).
    pub plies: u32,
    /// Why the game is listed without details, if it is.
    pub unreadable: Option<Unreadable>,
    /// What the check that follows the listing found wrong in the game (an illegal
    /// move, text that does not read), if anything: where and why.
    pub problem: Option<&'a str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_leniently_and_print_as_pgn() {
        for (text, shown) in [
            ("1990.03.15", "1990.03.15"),
            ("1990-03-15", "1990.03.15"),
            ("1990.??.??", "1990.??.??"),
            ("1990", "1990.??.??"),
            ("????.??.??", "????.??.??"),
            ("", "????.??.??"),
            ("1990.13.40", "1990.??.??"),
            ("0000.00.00", "????.??.??"),
            ("2024.12.31", "2024.12.31"),
            ("1990.03.1x", "1990.03.??"),
            ("garbage", "????.??.??"),
            ("????.03.15", "????.03.15"),
            ("1990.?3.15", "1990.??.15"),
            ("1990.3?.1?", "1990.??.??"),
            ("19?0.03.??", "????.03.??"),
            ("1990.00.15", "1990.??.15"),
            ("1990/03/15", "1990.03.15"),
            ("1990.03-15", "1990.03.15"),
        ] {
            assert_eq!(Date::parse(text).to_string(), shown, "{text}");
        }
        assert!(Date::parse("1990.??.??") < Date::parse("1990.01.01"));
        assert!(Date::parse("1989.12.31") < Date::parse("1990.??.??"));
        assert_eq!(Date::parse("2001.02.03").year(), Some(2001));
    }

    /// The quick way reads every date it takes as splitting does.
    #[test]
    fn usual_dates_read_as_split_ones() {
        let alphabet = [b'0', b'1', b'9', b'?', b'-'];
        let mut tried = 0;
        for k in 0..alphabet.len().pow(8) {
            let mut text = *b"0000.00.00";
            let mut k = k;
            for at in [0, 1, 2, 3, 5, 6, 8, 9] {
                text[at] = alphabet[k % alphabet.len()];
                k /= alphabet.len();
            }
            let text = std::str::from_utf8(&text).unwrap();
            if let Some(date) = Date::parse_usual(text) {
                assert_eq!(date, Date::parse_split(text), "{text}");
                tried += 1;
            }
        }
        assert_eq!(tried, 4usize.pow(8));
    }

    #[test]
    fn eco_codes_read_and_order() {
        assert_eq!(
            Eco::parse("B90").map(|e| e.to_string()).as_deref(),
            Some("B90")
        );
        assert_eq!(
            Eco::parse("e99").map(|e| e.to_string()).as_deref(),
            Some("E99")
        );
        assert_eq!(
            Eco::parse("A00").map(|e| e.to_string()).as_deref(),
            Some("A00")
        );
        for bad in ["F00", "B9", "B900", "?", ""] {
            assert_eq!(Eco::parse(bad), None, "{bad}");
        }
        assert!(Eco::parse("A99") < Eco::parse("B00"));
        assert_eq!(
            Eco::unpack(Eco::packed(Eco::parse("C65"))),
            Eco::parse("C65")
        );
    }

    #[test]
    fn columns_are_named_once() {
        for c in Column::ALL {
            assert_eq!(Column::from_name(c.name()), Some(c));
        }
        assert_eq!(Column::from_name("WELO"), Some(Column::WhiteElo));
        assert_eq!(Column::from_name("nope"), None);
    }

    /// The memory target (1.5 million games in 200 MB with the tables) needs small rows.
    #[test]
    fn rows_stay_small() {
        assert!(
            std::mem::size_of::<Row>() <= 56,
            "{}",
            std::mem::size_of::<Row>()
        );
    }
}
