//! The tag values the PGN standard gives a form to (Date, EventDate, Result,
//! WhiteElo, BlackElo, TimeControl), checked where a user types them, and the
//! time control read as far as the recorder needs it (the first period's base).

/// Why a tag value does not have the form PGN gives it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TagError {
    /// A date that is not `YYYY.MM.DD`.
    #[error("{name} {value:?} is not a date: YYYY.MM.DD, ?? where unknown (2026.??.??)")]
    Date {
        /// Date or EventDate.
        name: String,
        /// The value typed.
        value: String,
    },
    /// A rating that is not a number.
    #[error("{name} {value:?} is not a rating: digits (2150), or - for none")]
    Elo {
        /// WhiteElo or BlackElo.
        name: String,
        /// The value typed.
        value: String,
    },
    /// A result that is not one of the four.
    #[error("Result {0:?} is not a result: 1-0, 0-1, 1/2-1/2 or *")]
    Result(String),
    /// A time control that is not in PGN's form.
    #[error("TimeControl {0:?} is not a time control: seconds as PGN counts them, e.g. 900+10 (15 min + 10 s), 5400+30, 40/7200:1800, or ? and -")]
    TimeControl(String),
    /// A time control whose base is seconds where minutes were meant (`15+10`).
    #[error("TimeControl {value:?}: PGN counts seconds, so this gives {base} s; for {base} minutes write {minutes}")]
    TimeControlInMinutes {
        /// The value typed.
        value: String,
        /// Its base, in seconds as written.
        base: u64,
        /// The same control with the base in seconds.
        minutes: String,
    },
}

/// Checks a tag's value where PGN defines its form; other tags take any text.
pub fn check_tag(name: &str, value: &str) -> Result<(), TagError> {
    match name {
        "Date" | "EventDate" | "UTCDate" if !is_date(value) => Err(TagError::Date {
            name: name.into(),
            value: value.into(),
        }),
        "WhiteElo" | "BlackElo" if !is_elo(value) => Err(TagError::Elo {
            name: name.into(),
            value: value.into(),
        }),
        "Result" if !matches!(value, "1-0" | "0-1" | "1/2-1/2" | "*") => {
            Err(TagError::Result(value.into()))
        }
        "TimeControl" => check_time_control(value),
        _ => Ok(()),
    }
}

/// `YYYY.MM.DD`, each part digits or all `?`, a known month 01–12 and day 01–31.
fn is_date(value: &str) -> bool {
    let parts: Vec<&str> = value.split('.').collect();
    let [year, month, day] = parts[..] else {
        return false;
    };
    let part = |text: &str, len: usize, range: std::ops::RangeInclusive<u32>| {
        text.len() == len
            && (text.bytes().all(|b| b == b'?')
                || (text.bytes().all(|b| b.is_ascii_digit())
                    && text.parse().is_ok_and(|n| range.contains(&n))))
    };
    part(year, 4, 0..=9999) && part(month, 2, 1..=12) && part(day, 2, 1..=31)
}

fn is_elo(value: &str) -> bool {
    value == "-"
        || (!value.is_empty() && value.len() <= 4 && value.bytes().all(|b| b.is_ascii_digit()))
}

/// One period of a time control: `40/7200`, `900+10`, `300`, `*180`. Its base
/// in seconds.
fn period_base(period: &str) -> Option<u64> {
    let digits = |t: &str| {
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u64>().ok())
            .flatten()
    };
    if let Some(sand) = period.strip_prefix('*') {
        return digits(sand);
    }
    let time = match period.split_once('/') {
        Some((moves, time)) => {
            digits(moves)?;
            time
        }
        None => period,
    };
    match time.split_once('+') {
        Some((base, increment)) => {
            digits(increment)?;
            digits(base)
        }
        None => digits(time),
    }
}

/// The seconds of a time control's first period (`900+10` → 900,
/// `40/7200:1800` → 7200); `None` when unknown (`?`), none (`-`) or not PGN's form.
pub fn time_control_base(value: &str) -> Option<u64> {
    let periods: Vec<&str> = value.trim().split(':').collect();
    let bases: Option<Vec<u64>> = periods.iter().map(|p| period_base(p)).collect();
    bases?.first().copied()
}

fn check_time_control(value: &str) -> Result<(), TagError> {
    if matches!(value, "?" | "-") {
        return Ok(());
    }
    let Some(base) = time_control_base(value) else {
        return Err(TagError::TimeControl(value.into()));
    };
    // No game is played with a clock of under a minute: `15+10` means minutes.
    if base > 0 && base < 60 && !value.starts_with('*') && !value.contains('/') {
        let rest = &value[value.find('+').unwrap_or(value.len())..];
        return Err(TagError::TimeControlInMinutes {
            value: value.into(),
            base,
            minutes: format!("{}{rest}", base * 60),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_follow_the_pgn_form() {
        for good in ["2026.11.24", "2026.??.??", "????.??.??", "1851.06.21"] {
            assert_eq!(check_tag("Date", good), Ok(()), "{good}");
        }
        for bad in [
            "2026-11-24",
            "24.11.2026",
            "2026.13.01",
            "2026.11.32",
            "2026.1.5",
            "today",
            "",
        ] {
            let err = check_tag("Date", bad).unwrap_err();
            assert!(err.to_string().contains("YYYY.MM.DD"), "{bad}: {err}");
        }
        assert!(check_tag("EventDate", "2026/11/24").is_err());
    }

    #[test]
    fn ratings_results_and_other_tags() {
        assert_eq!(check_tag("WhiteElo", "2150"), Ok(()));
        assert_eq!(check_tag("BlackElo", "-"), Ok(()));
        for bad in ["2150a", "about 2000", "-5", "21500"] {
            assert!(check_tag("BlackElo", bad).is_err(), "{bad}");
        }
        assert_eq!(check_tag("Result", "1/2-1/2"), Ok(()));
        let err = check_tag("Result", "1-1").unwrap_err();
        assert!(err.to_string().contains("1-0, 0-1, 1/2-1/2 or *"), "{err}");
        assert_eq!(check_tag("White", "Carlsen, Magnus"), Ok(()));
    }

    #[test]
    fn time_controls_are_read_in_seconds() {
        assert_eq!(time_control_base("900+10"), Some(900));
        assert_eq!(time_control_base("40/7200:1800"), Some(7200));
        assert_eq!(time_control_base("*180"), Some(180));
        assert_eq!(time_control_base("5400"), Some(5400));
        assert_eq!(time_control_base("?"), None);
        assert_eq!(time_control_base("15 min"), None);
        for good in ["900+10", "40/7200:1800", "?", "-", "*180"] {
            assert_eq!(check_tag("TimeControl", good), Ok(()), "{good}");
        }
        let err = check_tag("TimeControl", "15+10").unwrap_err();
        assert!(err.to_string().contains("write 900+10"), "{err}");
        assert!(check_tag("TimeControl", "rapid").is_err());
    }
}
