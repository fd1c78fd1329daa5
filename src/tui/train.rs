//! The training's work outside the app: gathering a drill (the deck's due
//! exercises, a file's mistakes) and recording answers in the deck.

use std::path::Path;

use crate::app::Done;
use crate::plural::count;
use crate::study::train::deck::{self, Deck};
use crate::study::train::{mistakes, Exercise};

/// The most new exercises one drill takes from a file (the rest wait for the next).
pub const NEW_PER_DRILL: usize = 20;

/// The exercises due now, then `name`'s mistakes in `file` not in the deck yet.
pub fn gather(file: Option<&Path>, name: &str, engine: bool) -> Done {
    gather_with(&deck::path(), file, name, engine, chrono::Utc::now())
}

/// [`gather`] with the deck at `deck_path` and the time given.
pub fn gather_with(
    deck_path: &Path,
    file: Option<&Path>,
    name: &str,
    engine: bool,
    now: chrono::DateTime<chrono::Utc>,
) -> Done {
    let mut notes = Vec::new();
    let mut record = true;
    let deck = match Deck::load(deck_path) {
        Ok(deck) => deck,
        Err(e) if file.is_some() => {
            notes.push(format!("{e}; answers are not recorded"));
            record = false;
            Deck::default()
        }
        Err(e) => return Done::refusal(e.to_string()),
    };
    let mut exercises: Vec<Exercise> = deck
        .due(now)
        .into_iter()
        .map(|e| e.exercise.clone())
        .collect();
    let due = exercises.len();
    notes.insert(0, format!("{} due", count(due, "exercise", "exercises")));
    if let Some(file) = file {
        let shown = file.display();
        let found =
            crate::cli::input::Input::open(file).and_then(|input| mistakes::in_games(input, name));
        match found {
            Err(e) => notes.push(format!("cannot read {shown}: {e}")),
            Ok(found) if found.yours == 0 => notes.push(format!(
                "no game of {name} among the {} of {shown} (your name is matched against the \
                 White and Black tags)",
                count(found.games as usize, "game", "games")
            )),
            Ok(found) => {
                let all = found.exercises.len();
                let judged = found
                    .exercises
                    .iter()
                    .filter(|e| !e.answers.is_empty())
                    .count();
                // Without an engine a mistake can be judged only against a better line
                // written in the game.
                let fresh: Vec<Exercise> = found
                    .exercises
                    .into_iter()
                    .filter(|e| deck.get(&e.key()).is_none() && (engine || !e.answers.is_empty()))
                    .collect();
                let waiting = fresh.len();
                exercises.extend(fresh.into_iter().take(NEW_PER_DRILL));
                let new = exercises.len() - due;
                let mut note = format!(
                    "{new} new from {shown} ({} of yours, {} with [%eval]: {}, {judged} with a \
                     better line written",
                    count(found.yours as usize, "game", "games"),
                    found.evaluated,
                    count(all, "mistake", "mistakes"),
                );
                if waiting > new {
                    note.push_str(&format!("; {} more next time", waiting - new));
                }
                note.push(')');
                notes.push(note);
                // Mistakes are read from the evaluations: games without them need an
                // annotation run first.
                let bare = found.yours - found.evaluated;
                if bare > 0 {
                    notes.push(format!(
                        "{} of yours without [%eval]: `scoresheet annotate {shown} -o OUT.pgn` \
                         evaluates them",
                        count(bare as usize, "game", "games")
                    ));
                }
            }
        }
    }
    if exercises.is_empty() {
        let next = deck
            .next_due(now)
            .map(|d| format!("; the next is due {}", d.format("%Y-%m-%d %H:%M UTC")))
            .unwrap_or_default();
        let advice = if file.is_some() {
            " — mistakes are found from [%eval] annotations, with a better line written as a \
             variation (scoresheet annotate writes both)"
        } else {
            ""
        };
        return Done::notice(format!(
            "nothing to drill: {}{next}{advice}",
            notes.join(", ")
        ));
    }
    Done::Drill {
        exercises,
        due,
        note: format!("drill: {}", notes.join(", ")),
        record,
    }
}

/// Records an answer in the deck; an error to show when it cannot.
pub fn review(exercise: &Exercise, passed: bool) -> Option<Done> {
    review_at(&deck::path(), exercise, passed, chrono::Utc::now())
}

/// [`review`] with the deck at `path` and the time given.
pub fn review_at(
    path: &Path,
    exercise: &Exercise,
    passed: bool,
    now: chrono::DateTime<chrono::Utc>,
) -> Option<Done> {
    let mut deck = match Deck::load(path) {
        Ok(deck) => deck,
        Err(e) => return Some(Done::refusal(format!("answer not recorded: {e}"))),
    };
    deck.review(exercise, passed, now);
    match deck.save(path) {
        Ok(()) => None,
        Err(e) => Some(Done::refusal(format!(
            "answer not recorded: cannot write {}: {e}",
            path.display()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = r#"[White "Me"]
[Black "Them"]
[Event "Club"]

1. e4 { [%eval 0.3] } 1... e5 { [%eval 0.3] } 2. Nf3 { [%eval 0.3] } 2... Nc6 { [%eval 0.3] }
3. Bc4 { [%eval 0.3] } 3... Nd4 { [%eval 0.9] } 4. Nxe5? { [%eval -1.5] }
( 4. Nxd4 { [%eval 0.9] } ) 4... Qg5 { [%eval -1.4] } 5. Bxf7+?? { [%eval -5.0] } 0-1
"#;

    #[test]
    fn a_missed_exercise_is_due_again_and_a_tried_one_is_not_new() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mine.pgn");
        std::fs::write(&file, GAMES).unwrap();
        let deck = dir.path().join("deck.json");
        let now = chrono::Utc::now();
        // Only 4.Nxe5 has a better line written: without an engine it is the one offered.
        let Done::Drill { exercises, due, .. } = gather_with(&deck, Some(&file), "Me", false, now)
        else {
            panic!("a drill")
        };
        assert_eq!((exercises.len(), due), (1, 0));
        assert_eq!(exercises[0].played_san(), "Nxe5");
        assert!(review_at(&deck, &exercises[0], false, now).is_none());
        // Right after, it is neither due nor new.
        let Done::Notice { text, .. } = gather_with(&deck, Some(&file), "Me", false, now) else {
            panic!("nothing to drill")
        };
        assert!(
            text.starts_with("nothing to drill: 0 exercises due"),
            "{text}"
        );
        assert!(text.contains("the next is due"), "{text}");
        // With an engine to judge answers, the mistake without a better line is offered.
        let Done::Drill { exercises, .. } = gather_with(&deck, Some(&file), "Me", true, now) else {
            panic!("a drill")
        };
        assert_eq!(exercises.len(), 1);
        assert_eq!(exercises[0].played_san(), "Bxf7+");
        // A day later the miss is due again, first.
        let later = now + chrono::Duration::days(2);
        let Done::Drill { exercises, due, .. } = gather_with(&deck, None, "", false, later) else {
            panic!("a drill")
        };
        assert_eq!((exercises.len(), due), (1, 1));
    }

    #[test]
    fn no_game_of_mine_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("theirs.pgn");
        std::fs::write(&file, GAMES).unwrap();
        let deck = dir.path().join("deck.json");
        let Done::Notice { text, .. } =
            gather_with(&deck, Some(&file), "Nobody", false, chrono::Utc::now())
        else {
            panic!("a notice")
        };
        assert!(
            text.contains("no game of Nobody among the 1 game of"),
            "{text}"
        );
        // A game of mine without evaluations: annotating it is the advice.
        std::fs::write(&file, "[White \"Me\"]\n\n1. e4 e5 *\n").unwrap();
        let Done::Notice { text, .. } =
            gather_with(&deck, Some(&file), "Me", false, chrono::Utc::now())
        else {
            panic!("a notice")
        };
        assert!(
            text.contains("1 game of yours without [%eval]: `scoresheet annotate"),
            "{text}"
        );
    }

    #[test]
    fn a_damaged_deck_is_not_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let deck = dir.path().join("deck.json");
        std::fs::write(&deck, "not json").unwrap();
        let e = crate::study::train::Exercise {
            fen: crate::position::Position::start().fen(),
            played: "e2e4".into(),
            answers: Vec::new(),
            before: None,
            lost: 10.0,
            source: String::new(),
        };
        let Some(Done::Notice { text, error: true }) =
            review_at(&deck, &e, true, chrono::Utc::now())
        else {
            panic!("refused")
        };
        assert!(text.contains("answer not recorded"), "{text}");
        assert_eq!(std::fs::read_to_string(&deck).unwrap(), "not json");
        // A drill goes on without it, and says once that answers are not recorded.
        let file = dir.path().join("mine.pgn");
        std::fs::write(&file, GAMES).unwrap();
        let Done::Drill { note, record, .. } =
            gather_with(&deck, Some(&file), "Me", false, chrono::Utc::now())
        else {
            panic!("a drill")
        };
        assert!(!record);
        assert!(note.contains("answers are not recorded"), "{note}");
    }
}
