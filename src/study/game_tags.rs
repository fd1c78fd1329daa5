//! What search result lines and the opening tree keep of a game's tags ([`Tags`],
//! [`GameInfo`]), and how they read the values that need reading (results, ratings, years).

/// The tags of a game that search results and the tree show.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The Result tag as written.
    pub result: String,
    /// The Date tag as written.
    pub date: String,
    /// The Event tag.
    pub event: String,
    /// The ECO tag.
    pub eco: String,
    /// White's rating (0 when unknown).
    pub white_elo: u16,
    /// Black's rating (0 when unknown).
    pub black_elo: u16,
}

impl Tags {
    /// Empties every value, keeping the memory for the next game.
    pub(super) fn clear(&mut self) {
        for s in [
            &mut self.white,
            &mut self.black,
            &mut self.result,
            &mut self.date,
            &mut self.event,
            &mut self.eco,
        ] {
            s.clear();
        }
        self.white_elo = 0;
        self.black_elo = 0;
    }

    /// What the opening tree keeps of a game.
    pub fn info(&self) -> GameInfo {
        GameInfo::of(&self.result, self.white_elo, self.black_elo, &self.date)
    }
}

/// How a game ended, as its Result tag says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GameResult {
    /// `*` or anything else.
    #[default]
    Unknown,
    /// `1-0`.
    WhiteWins,
    /// `1/2-1/2`.
    Draw,
    /// `0-1`.
    BlackWins,
}

impl GameResult {
    /// Reads a Result tag.
    pub fn of(tag: &str) -> Self {
        // As written, nearly always: trimming (Unicode blanks) cost more than the match.
        match tag {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            _ => match tag.trim() {
                "1-0" => GameResult::WhiteWins,
                "0-1" => GameResult::BlackWins,
                "1/2-1/2" | "½-½" => GameResult::Draw,
                _ => GameResult::Unknown,
            },
        }
    }

    /// The code stored in the index (0 to 3).
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The result of an index code.
    pub fn from_code(code: u8) -> Self {
        match code {
            1 => GameResult::WhiteWins,
            2 => GameResult::Draw,
            3 => GameResult::BlackWins,
            _ => GameResult::Unknown,
        }
    }
}

/// What the opening tree needs of a game besides its moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// The result.
    pub result: GameResult,
    /// White's rating, 0 when unknown.
    pub white_elo: u16,
    /// Black's rating, 0 when unknown.
    pub black_elo: u16,
    /// The year of the Date tag, 0 when unknown.
    pub year: u16,
}

impl GameInfo {
    /// The facts of a game with these tags: Result, the two ratings (0 when unknown), and
    /// Date.
    pub fn of(result: &str, white_elo: u16, black_elo: u16, date: &str) -> GameInfo {
        GameInfo {
            result: GameResult::of(result),
            white_elo,
            black_elo,
            year: year_of(date),
        }
    }
}

/// The year of a PGN date (`2016.05.31`, `2016.??.??`), 0 when not given.
fn year_of(date: &str) -> u16 {
    let digits = date.get(..4).unwrap_or("");
    if digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse().unwrap_or(0)
    } else {
        0
    }
}

/// A rating tag's value: the number it holds (whitespace around it aside), 0 when it holds
/// none (`?`, `-`, empty) or one past `u16`. Read for every game of a file by the game list
/// and the opening tree, so the usual forms go without detours before the general way
/// (trimming Unicode blanks and parsing cost a tree read through 0.3%).
#[inline]
pub fn elo_of(value: &str) -> u16 {
    let digits = value.as_bytes();
    // Four digits, nearly every rating: read without a loop (a loop over the digits cost
    // some 80 instructions a rating; this, some 30).
    if let &[a, b, c, d] = digits {
        if [a, b, c, d].iter().all(u8::is_ascii_digit) {
            let n = |digit: u8| u16::from(digit - b'0');
            return n(a) * 1000 + n(b) * 100 + n(c) * 10 + n(d);
        }
    }
    if (1..=4).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit) {
        return digits.iter().fold(0, |n, &b| n * 10 + u16::from(b - b'0'));
    }
    value.trim().parse().unwrap_or(0)
}
