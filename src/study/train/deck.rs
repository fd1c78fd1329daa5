//! The spaced-repetition deck: every exercise tried, with its FSRS card (the
//! `rs-fsrs` scheduler decides when it comes back: soon after a miss, later and
//! later after each success). Kept as JSON in the platform data directory
//! (`training/deck.json`), written whole to a temporary file and renamed over the
//! old one, so a crash leaves the old deck or the new one, never half of one. A
//! deck that cannot be read is reported with its line and column and left as it
//! is: nothing is written over it.

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use rs_fsrs::{Card, Parameters, Rating, FSRS};
use serde::{Deserialize, Serialize};

use super::exercise::Exercise;

/// The end of the day of `now` where the user is (the local time zone), in UTC: an
/// exercise due by then is due today, for the listing of `scoresheet train` and for
/// the drill alike, so that one due this evening is drilled this morning, as FSRS's
/// days are meant (it schedules in days after the first answer).
pub fn end_of_day(now: DateTime<Utc>) -> DateTime<Utc> {
    use chrono::{Days, Local, NaiveTime, TimeZone};
    let tomorrow = now
        .with_timezone(&Local)
        .date_naive()
        .checked_add_days(Days::new(1))
        .unwrap_or(chrono::NaiveDate::MAX);
    Local
        .from_local_datetime(&tomorrow.and_time(NaiveTime::MIN))
        .earliest()
        .map_or(now, |t| t.with_timezone(&Utc))
}

/// One exercise and its schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The exercise.
    pub exercise: Exercise,
    /// Its FSRS card: when it is due, its stability and difficulty, its reviews.
    pub card: Card,
}

/// Every exercise tried.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Deck {
    /// The format's version.
    pub version: u32,
    /// The exercises, in the order first tried.
    pub entries: Vec<Entry>,
}

/// A deck that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DeckError {
    /// The file is there but cannot be read.
    #[error("cannot read the training deck {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a deck (damaged, or written by something else).
    #[error(
        "the training deck {path} cannot be read at line {line}, column {column}: {why}; \
         it is left as it is (move it away to start a new deck)"
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Where reading stopped.
        line: usize,
        /// See `line`.
        column: usize,
        /// Why.
        why: String,
    },
}

/// FSRS with its default weights, scheduling in days: a drill is a daily habit, so
/// a missed position comes back the next day rather than in minutes (FSRS's
/// short-term learning steps are off).
fn scheduler() -> FSRS {
    FSRS::new(Parameters {
        enable_short_term: false,
        ..Parameters::default()
    })
}

/// The deck's file: `training/deck.json` in the data directory.
pub fn path() -> PathBuf {
    crate::store::data_dir().join("training").join("deck.json")
}

impl Deck {
    /// Reads the deck at `path`; an empty deck when there is no file yet.
    pub fn load(path: &Path) -> Result<Deck, DeckError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Deck {
                    version: 1,
                    entries: Vec::new(),
                })
            }
            Err(source) => {
                return Err(DeckError::Io {
                    path: path.to_path_buf(),
                    source,
                })
            }
        };
        serde_json::from_str(&text).map_err(|e| DeckError::Corrupt {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            why: e
                .to_string()
                .split(" at line ")
                .next()
                .unwrap_or("")
                .to_string(),
        })
    }

    /// Writes the deck to `path` atomically (a temporary file beside it, synced,
    /// then renamed over it).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".deck-")
            .suffix(".tmp")
            .tempfile_in(dir)?;
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        tmp.write_all(text.as_bytes())?;
        tmp.write_all(b"\n")?;
        tmp.as_file().sync_all()?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    }

    /// The entry of `exercise`, if it was tried.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.exercise.key() == key)
    }

    /// The entries due at `now`, the most overdue first.
    pub fn due(&self, now: DateTime<Utc>) -> Vec<&Entry> {
        let mut due: Vec<&Entry> = self.entries.iter().filter(|e| e.card.due <= now).collect();
        due.sort_by_key(|e| e.card.due);
        due
    }

    /// The next time an entry is due after `now`, if any.
    pub fn next_due(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.entries
            .iter()
            .map(|e| e.card.due)
            .filter(|d| *d > now)
            .min()
    }

    /// Takes the exercise with `key` out of the deck (an engine found no mistake in
    /// it); whether it was there.
    pub fn forget(&mut self, key: &str) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.exercise.key() != key);
        self.entries.len() < before
    }

    /// Records an answer to `exercise` at `now` (`passed` at the first try: Good;
    /// else Again) and schedules it; a new exercise joins the deck. Returns when it
    /// is due next.
    pub fn review(
        &mut self,
        exercise: &Exercise,
        passed: bool,
        now: DateTime<Utc>,
    ) -> DateTime<Utc> {
        let key = exercise.key();
        let index = match self.entries.iter().position(|e| e.exercise.key() == key) {
            Some(i) => i,
            None => {
                self.entries.push(Entry {
                    exercise: exercise.clone(),
                    card: Card {
                        due: now,
                        last_review: now,
                        ..Card::default()
                    },
                });
                self.entries.len() - 1
            }
        };
        let rating = if passed { Rating::Good } else { Rating::Again };
        let entry = &mut self.entries[index];
        entry.card = scheduler().next(entry.card.clone(), now, rating).card;
        entry.card.due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise(fen: &str) -> Exercise {
        Exercise::at(fen)
    }

    #[test]
    fn a_missed_position_comes_back_after_a_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("training").join("deck.json");
        let now = Utc::now();
        let mut deck = Deck::load(&path).unwrap();
        assert!(deck.entries.is_empty());
        let missed = exercise("8/8/8/8/8/8/4K3/k7 w - - 0 1");
        let found = exercise("8/8/8/8/8/8/4K3/1k6 w - - 0 1");
        let back = deck.review(&missed, false, now);
        let later = deck.review(&found, true, now);
        assert!(back < later, "a miss comes back sooner: {back} vs {later}");
        // In days: the next day for a miss.
        assert_eq!((back - now).num_days(), 1);
        assert!((later - now).num_days() >= 2);
        deck.save(&path).unwrap();
        let read = Deck::load(&path).unwrap();
        assert_eq!(read, deck);
        // Nothing is due at once; the missed one is due by the time it was given.
        assert!(read.due(now).is_empty());
        let due = read.due(back);
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].exercise, missed);
        assert_eq!(read.next_due(now), Some(back));
        // No temporary file is left beside it.
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("deck.json")]);
    }

    #[test]
    fn a_corrupt_deck_is_reported_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.json");
        std::fs::write(&path, "{\"version\": 1,\n \"entries\": [oops]}\n").unwrap();
        let err = Deck::load(&path).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, DeckError::Corrupt { line: 2, .. }), "{text}");
        assert!(text.contains("line 2, column"), "{text}");
        assert!(text.contains("left as it is"), "{text}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"version\": 1,\n \"entries\": [oops]}\n"
        );
    }
}
