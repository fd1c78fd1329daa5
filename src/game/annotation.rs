//! Typed commands embedded in PGN comments (`[%clk 1:23:45]`, `[%eval 0.17]`, …),
//! read out of a comment and written back without loss.
//!
//! Losslessness is about values, and about never dropping anything: a command
//! whose value reads exactly into its type becomes that type (`[%eval 1.2]` is
//! 120 centipawns and is written back as `[%eval 1.20]`); a command with an unknown
//! name, or a known name with a value the type cannot hold exactly (`[%clk 3:12]`,
//! `[%clk 0:00:01.25]`, `[%eval 0.125]`), is kept as [`Annotation::Other`] with its
//! text as it was. So `split_comment` then `write_comment` never loses a command.

use std::fmt;
use std::time::Duration;

use chess::Square;

use crate::position::parse_square;

/// A clock reading or a time span, to the tenth of a second, remembering whether
/// the tenths were written (`0:03:12` and `0:03:12.0` stay distinct).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClockTime {
    tenths: u64,
    show_tenths: bool,
}

impl ClockTime {
    /// Whole seconds, written `h:mm:ss`.
    pub fn from_secs(secs: u64) -> Self {
        ClockTime {
            tenths: secs.saturating_mul(10),
            show_tenths: false,
        }
    }

    /// Tenths of a second, written `h:mm:ss.d`.
    pub fn from_tenths(tenths: u64) -> Self {
        ClockTime {
            tenths,
            show_tenths: true,
        }
    }

    /// The time in tenths of a second.
    pub fn tenths(&self) -> u64 {
        self.tenths
    }

    /// True when the time is written with its tenths.
    pub fn has_tenths(&self) -> bool {
        self.show_tenths
    }

    /// The time as a [`Duration`].
    pub fn as_duration(&self) -> Duration {
        Duration::from_millis(self.tenths.saturating_mul(100))
    }

    /// Reads `h:mm:ss` or `h:mm:ss.d` (any number of hour digits, two of minutes and
    /// seconds, each below 60), the form PGN tools write. Anything else is `None`.
    pub fn parse(text: &str) -> Option<Self> {
        let (whole, tenth) = match text.split_once('.') {
            Some((whole, frac)) if frac.len() == 1 => (whole, Some(digits(frac)?)),
            Some(_) => return None,
            None => (text, None),
        };
        let mut parts = whole.split(':');
        let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || m.len() != 2 || s.len() != 2 {
            return None;
        }
        let (h, m, s) = (digits(h)?, digits(m)?, digits(s)?);
        if m >= 60 || s >= 60 {
            return None;
        }
        let secs = h.checked_mul(3600)?.checked_add(m * 60 + s)?;
        let tenths = secs.checked_mul(10)?.checked_add(tenth.unwrap_or(0))?;
        Some(ClockTime {
            tenths,
            show_tenths: tenth.is_some(),
        })
    }
}

/// A non-empty run of ASCII digits as a number (no sign, no spaces).
fn digits(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

impl fmt::Display for ClockTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.tenths / 10;
        write!(f, "{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)?;
        if self.show_tenths {
            write!(f, ".{}", self.tenths % 10)?;
        }
        Ok(())
    }
}

/// An engine's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// In centipawns from White's side (`0.17` is 17), written with two decimals.
    Pawns(i32),
    /// Mate in so many moves; negative when Black mates (`#-3`).
    Mate(i32),
}

/// The value of `[%eval …]`: a score and, when given, the search depth (`1.2,23`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score.
    pub score: Score,
    /// The depth the engine searched to.
    pub depth: Option<u32>,
}

impl Eval {
    /// Reads `0.17`, `-1.5`, `+2`, `#3`, `#-3`, each optionally followed by `,depth`.
    /// Pawn scores take at most two decimals (more would not round-trip).
    pub fn parse(text: &str) -> Option<Self> {
        let (score, depth) = match text.split_once(',') {
            Some((score, depth)) => (score, Some(u32::try_from(digits(depth)?).ok()?)),
            None => (text, None),
        };
        let score = match score.strip_prefix('#') {
            Some(mate) => Score::Mate(signed(mate)?),
            None => {
                let (sign, body) = split_sign(score);
                let (int, frac) = body.split_once('.').unwrap_or((body, "00"));
                if frac.is_empty() || frac.len() > 2 {
                    return None;
                }
                let cents = digits(frac)? * if frac.len() == 1 { 10 } else { 1 };
                let value = digits(int)?.checked_mul(100)?.checked_add(cents)?;
                Score::Pawns(with_sign(sign, value)?)
            }
        };
        Some(Eval { score, depth })
    }
}

/// The sign of a number (`+`, `-` or none) and the digits after it.
fn split_sign(text: &str) -> (i32, &str) {
    match text.as_bytes().first() {
        Some(b'-') => (-1, &text[1..]),
        Some(b'+') => (1, &text[1..]),
        _ => (1, text),
    }
}

/// An optionally signed integer.
fn signed(text: &str) -> Option<i32> {
    let (sign, body) = split_sign(text);
    with_sign(sign, digits(body)?)
}

/// `sign * value` when it fits an `i32` (through `i64`, so `i32::MIN` reads too).
fn with_sign(sign: i32, value: u64) -> Option<i32> {
    i32::try_from(i64::from(sign) * i64::try_from(value).ok()?).ok()
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            Score::Pawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)?;
            }
            Score::Mate(n) => write!(f, "#{n}")?,
        }
        if let Some(depth) = self.depth {
            write!(f, ",{depth}")?;
        }
        Ok(())
    }
}

/// One command from a comment.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Annotation {
    /// `[%clk]`: the time left on the mover's clock after the move.
    Clock(ClockTime),
    /// `[%emt]`: the time the move took.
    Elapsed(ClockTime),
    /// `[%eval]`: an engine's evaluation.
    Eval(Eval),
    /// `[%csl Ga4,Rb5]`: highlighted squares, each with its colour letter
    /// (`G`reen, `R`ed, `Y`ellow, `B`lue; any ASCII letter is kept).
    Squares(Vec<(char, Square)>),
    /// `[%cal Ge2e4]`: arrows, each with its colour letter, from and to.
    Arrows(Vec<(char, Square, Square)>),
    /// Any other command, or a known one whose value did not read, as written
    /// (`value` trimmed; it never holds `[` or `]`).
    Other {
        /// The command name after `%`.
        name: String,
        /// Its value.
        value: String,
    },
}

impl Annotation {
    /// Makes the annotation for command `name` with `value` (already trimmed).
    fn from_command(name: &str, value: &str) -> Self {
        let typed = match name {
            "clk" => ClockTime::parse(value).map(Annotation::Clock),
            "emt" => ClockTime::parse(value).map(Annotation::Elapsed),
            "eval" => Eval::parse(value).map(Annotation::Eval),
            "csl" => list(value, |item| {
                let (color, rest) = color_prefix(item)?;
                Some((color, parse_square(rest)?))
            })
            .map(Annotation::Squares),
            "cal" => list(value, |item| {
                let (color, rest) = color_prefix(item)?;
                let (from, to) = (rest.get(..2)?, rest.get(2..)?);
                Some((color, parse_square(from)?, parse_square(to)?))
            })
            .map(Annotation::Arrows),
            _ => None,
        };
        typed.unwrap_or_else(|| Annotation::Other {
            name: name.to_string(),
            value: value.to_string(),
        })
    }
}

/// What the commands of a comment draw on the board: coloured squares
/// (`[%csl]`) and arrows (`[%cal]`), each with its colour letter as written
/// (`G`reen, `R`ed, `Y`ellow, `B`lue; other letters are kept too).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardMarks {
    /// Highlighted squares.
    pub squares: Vec<(char, Square)>,
    /// Arrows: colour, from, to.
    pub arrows: Vec<(char, Square, Square)>,
}

impl BoardMarks {
    /// The marks among `annotations`, in the order written (several `[%csl]`
    /// commands add up).
    pub fn from_annotations(annotations: &[Annotation]) -> Self {
        let mut marks = BoardMarks::default();
        for annotation in annotations {
            match annotation {
                Annotation::Squares(items) => marks.squares.extend_from_slice(items),
                Annotation::Arrows(items) => marks.arrows.extend_from_slice(items),
                _ => {}
            }
        }
        marks
    }

    /// True when there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty() && self.arrows.is_empty()
    }
}

/// A comma-separated list read item by item; `None` if any item does not read.
fn list<T>(value: &str, item: impl Fn(&str) -> Option<T>) -> Option<Vec<T>> {
    if value.is_empty() {
        return Some(Vec::new());
    }
    value.split(',').map(|i| item(i.trim())).collect()
}

/// The colour letter that starts a `csl`/`cal` item, and the rest.
fn color_prefix(item: &str) -> Option<(char, &str)> {
    let color = item.chars().next().filter(char::is_ascii_alphabetic)?;
    Some((color, &item[1..]))
}

impl fmt::Display for Annotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, value) = match self {
            Annotation::Clock(t) => ("clk", t.to_string()),
            Annotation::Elapsed(t) => ("emt", t.to_string()),
            Annotation::Eval(e) => ("eval", e.to_string()),
            Annotation::Squares(items) => (
                "csl",
                items
                    .iter()
                    .map(|(c, sq)| format!("{c}{sq}"))
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            Annotation::Arrows(items) => (
                "cal",
                items
                    .iter()
                    .map(|(c, from, to)| format!("{c}{from}{to}"))
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            Annotation::Other { name, value } => (name.as_str(), value.clone()),
        };
        if value.is_empty() {
            write!(f, "[%{name}]")
        } else {
            write!(f, "[%{name} {value}]")
        }
    }
}

/// Reads the command starting at the `[%` at the start of `text`: its name, its
/// trimmed value and its length in bytes. `None` when it is not a well-formed
/// command (no name, no closing `]`, or a `[` inside), which then stays text.
fn command_at(text: &str) -> Option<(&str, &str, usize)> {
    let rest = text.strip_prefix("[%")?;
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (name, after) = rest.split_at(name_len);
    if name.is_empty() || !(after.starts_with(']') || after.starts_with(char::is_whitespace)) {
        return None;
    }
    let end = after.find([']', '['])?;
    if after.as_bytes()[end] != b']' {
        return None;
    }
    Some((name, after[..end].trim(), 2 + name_len + end + 1))
}

/// Splits a comment into its commands, in order, and its free text. The free text
/// is what lies between the commands, each piece trimmed and the non-empty pieces
/// joined by one space (`"good [%clk 0:01:00] move"` gives `"good move"`).
pub fn split_comment(text: &str) -> (Vec<Annotation>, String) {
    let mut annotations = Vec::new();
    let mut pieces: Vec<&str> = Vec::new();
    let mut piece_start = 0;
    let mut search = 0;
    while let Some(found) = text[search..].find("[%") {
        let at = search + found;
        match command_at(&text[at..]) {
            Some((name, value, len)) => {
                annotations.push(Annotation::from_command(name, value));
                pieces.push(&text[piece_start..at]);
                piece_start = at + len;
                search = piece_start;
            }
            None => search = at + 1,
        }
    }
    pieces.push(&text[piece_start..]);
    let free: Vec<&str> = pieces
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .collect();
    (annotations, free.join(" "))
}

/// [`split_comment`] of the start of `text`, at most `max` bytes of it (cut at a
/// character, and before a command the cut would split), and whether some of it was
/// left out: a comment too long to show whole (megabytes) is shown by its start, at a cost
/// that does not grow with it.
pub fn split_comment_head(text: &str, max: usize) -> (Vec<Annotation>, String, bool) {
    if text.len() <= max {
        let (annotations, free) = split_comment(text);
        return (annotations, free, false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut head = &text[..end];
    // A word cut in two would read as another word.
    if let Some(space) = head.rfind(char::is_whitespace) {
        head = &head[..space];
    }
    // A command cut in two would read as text.
    let head = match head.rfind("[%") {
        Some(at) if !head[at..].contains(']') => &head[..at],
        _ => head,
    };
    let (annotations, free) = split_comment(head);
    (annotations, free, true)
}

/// Writes commands, separated by spaces (`[%clk 1:23:45] [%eval 0.17]`).
pub fn write_annotations(annotations: &[Annotation]) -> String {
    annotations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes a whole comment: the commands first, as the tools that write them do,
/// then the free text. [`split_comment`] reads it back into the same parts.
pub fn write_comment(annotations: &[Annotation], text: &str) -> String {
    let commands = write_annotations(annotations);
    match (commands.is_empty(), text.is_empty()) {
        (_, true) => commands,
        (true, false) => text.to_string(),
        (false, false) => format!("{commands} {text}"),
    }
}

/// Why a quick clock entry did not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockEntryError {
    /// Nothing after the `+`.
    #[error("no time given")]
    Empty,
    /// A part is not a number.
    #[error("{0:?} is not a time (write 83, 1:23 or 1:23:45)")]
    NotATime(String),
    /// Minutes or seconds of 60 or more.
    #[error("{what} must be below 60, not {value}")]
    OutOfRange {
        /// "minutes" or "seconds".
        what: &'static str,
        /// The number given.
        value: u64,
    },
    /// Two parts that could be minutes and seconds or hours and minutes, with
    /// no time control to tell which.
    #[error(
        "{first}:{second:02} is {first} min {second} s or {first} h {second} min? \
         type 0:{first:02}:{second:02} or {first}:{second:02}:00, \
         or set the time control (:tag TimeControl 900+10)"
    )]
    Ambiguous {
        /// The first number.
        first: u64,
        /// The second number.
        second: u64,
    },
}

/// How a clock time typed in two parts (`14:32`) is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TwoParts {
    /// Hours and minutes: a long game, where the clock shows `1:29`.
    HoursMinutes,
    /// Minutes and seconds: a rapid or blitz game, where the clock shows `14:32`.
    MinutesSeconds,
    /// No time control known: a small first number (up to 2) is hours, as a
    /// classical clock shows it; a larger one could be either, and is asked.
    Guess,
}

impl TwoParts {
    /// The reading a game's TimeControl tag calls for: minutes and seconds when
    /// the first period is under an hour, hours and minutes otherwise, a guess
    /// when the tag is missing or unknown (`?`, `-`).
    pub fn for_time_control(time_control: Option<&str>) -> TwoParts {
        match time_control.and_then(super::tags::time_control_base) {
            Some(base) if base < 3600 => TwoParts::MinutesSeconds,
            Some(_) => TwoParts::HoursMinutes,
            None => TwoParts::Guess,
        }
    }
}

/// Reads a clock time typed in the recorder, with or without a leading `+`:
/// `83` is minutes (1:23:00), `1:05` is hours and minutes, `1:23:45` hours,
/// minutes and seconds, `1:23:45.6` with tenths. Two parts mean `h:mm` here,
/// as in a long game; [`parse_clock_entry_as`] reads them by the time control.
pub fn parse_clock_entry(text: &str) -> Result<ClockTime, ClockEntryError> {
    parse_clock_entry_as(text, TwoParts::HoursMinutes)
}

/// [`parse_clock_entry`], reading two parts (`14:32`) as `two` says.
pub fn parse_clock_entry_as(text: &str, two: TwoParts) -> Result<ClockTime, ClockEntryError> {
    let body = text.trim();
    let body = body.strip_prefix('+').unwrap_or(body).trim();
    if body.is_empty() {
        return Err(ClockEntryError::Empty);
    }
    let bad = || ClockEntryError::NotATime(text.trim().to_string());
    let (whole, tenth) = match body.split_once('.') {
        Some((whole, frac)) if frac.len() == 1 => (whole, Some(digits(frac).ok_or_else(bad)?)),
        Some(_) => return Err(bad()),
        None => (body, None),
    };
    let parts: Vec<&str> = whole.split(':').collect();
    // A tenth only makes sense after seconds.
    if tenth.is_some() && parts.len() != 3 {
        return Err(bad());
    }
    let mut numbers = Vec::with_capacity(parts.len());
    for part in &parts {
        let ok = !part.is_empty() && (numbers.is_empty() || part.len() <= 2);
        numbers.push(digits(part).filter(|_| ok).ok_or_else(bad)?);
    }
    let below_60 = |what, value: u64| {
        if value < 60 {
            Ok(value)
        } else {
            Err(ClockEntryError::OutOfRange { what, value })
        }
    };
    let (h, m, s) = match numbers[..] {
        // Minutes alone may run past 60: "83" is how long a player has left.
        [m] => (0, m, 0),
        [m, s] if two == TwoParts::MinutesSeconds => (0, m, below_60("seconds", s)?),
        [h, m] if two == TwoParts::HoursMinutes || h <= 2 => (h, below_60("minutes", m)?, 0),
        [first, second] => {
            below_60("seconds", second)?;
            return Err(ClockEntryError::Ambiguous { first, second });
        }
        [h, m, s] => (h, below_60("minutes", m)?, below_60("seconds", s)?),
        _ => return Err(bad()),
    };
    let secs = h
        .checked_mul(3600)
        .and_then(|h| h.checked_add(m.checked_mul(60)?))
        .and_then(|hm| hm.checked_add(s))
        .ok_or_else(bad)?;
    let time = match tenth {
        Some(t) => ClockTime::from_tenths(secs.checked_mul(10).ok_or_else(bad)? + t),
        None => ClockTime::from_secs(secs),
    };
    Ok(time)
}

#[cfg(test)]
#[path = "annotation_tests.rs"]
mod tests;
