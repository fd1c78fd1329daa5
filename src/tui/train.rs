//! The training's work outside the app: gathering a drill (the deck's due
//! exercises, your mistakes in a file: by its `[%eval]` annotations, or by the
//! engine for the games without them) in a thread of its own with its progress and
//! cancel ([`Gatherer`]), and recording answers in the deck.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use crate::app::Done;
use crate::engine::EngineConfig;
use crate::plural::count;
use crate::study::train::analyse::{analyse_games, jobs_for, Progress, LIMIT};
use crate::study::train::cache::{engine_stamp, Cache, Key};
use crate::study::train::deck::{self, Deck};
use crate::study::train::{mistakes, Exercise};

/// The most new exercises one drill takes from a file (the rest wait for the next).
pub const NEW_PER_DRILL: usize = 20;

/// What a drill is gathered from.
#[derive(Debug, Clone)]
pub struct Request {
    /// The file to look for mistakes in (none: the due exercises only).
    pub file: Option<PathBuf>,
    /// Your name in its games.
    pub name: String,
    /// How many of your games, newest first (`None`: all).
    pub last: Option<usize>,
    /// The engine that finds the mistakes of games without evaluations and judges
    /// answers, when one is installed.
    pub engine: Option<EngineConfig>,
}

/// A drill gathered in a thread of its own: it reports the engine's progress and, at
/// the end, the drill (as [`Done::Gathered`]); dropping it cancels the engine's work
/// (what it analysed by then stays in the cache).
pub struct Gatherer {
    reports: mpsc::Receiver<Done>,
    cancel: Arc<AtomicBool>,
}

impl Gatherer {
    /// Starts gathering `request` with the deck and the cache in their places.
    pub fn start(request: Request) -> Gatherer {
        Gatherer::start_with(request, deck::path(), Cache::standard())
    }

    /// [`Gatherer::start`] with the deck at `deck_path` and the cache given.
    pub fn start_with(request: Request, deck_path: PathBuf, cache: Cache) -> Gatherer {
        let (tx, reports) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&cancel);
        // A thread the system refuses takes its sender with it: the first look says
        // that it ended without an answer.
        let _ = std::thread::Builder::new()
            .name("drill".into())
            .spawn(move || {
                let progress = |p: Progress| {
                    let _ = tx.send(Done::Gathering(p));
                };
                let done = gather_with(
                    &deck_path,
                    &cache,
                    &request,
                    chrono::Utc::now(),
                    &progress,
                    &stop,
                );
                if let Some(done) = done {
                    let _ = tx.send(Done::Gathered(Box::new(done)));
                }
            });
        Gatherer { reports, cancel }
    }

    /// What the thread reported since the last call, and whether it is over.
    pub fn take(&self) -> (Vec<Done>, bool) {
        let mut out = Vec::new();
        loop {
            match self.reports.try_recv() {
                Ok(done @ Done::Gathered(_)) => {
                    out.push(done);
                    return (out, true);
                }
                Ok(done) => out.push(done),
                Err(mpsc::TryRecvError::Empty) => return (out, false),
                // Ended without its last word: said, so that nothing waits for ever.
                Err(mpsc::TryRecvError::Disconnected) => {
                    out.push(Done::Gathered(Box::new(Done::refusal(
                        "the search for your mistakes stopped without an answer",
                    ))));
                    return (out, true);
                }
            }
        }
    }
}

impl Drop for Gatherer {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The exercises due now, then your mistakes in the request's file not in the deck
/// yet: from the newest of your games, by their annotations or by the engine (whose
/// analyses are kept in `cache`). `progress` hears how the engine's work goes; `None`
/// when `cancel` was set meanwhile.
pub fn gather_with(
    deck_path: &Path,
    cache: &Cache,
    request: &Request,
    now: chrono::DateTime<chrono::Utc>,
    progress: &(dyn Fn(Progress) + Sync),
    cancel: &AtomicBool,
) -> Option<Done> {
    let file = request.file.as_deref();
    let mut notes = Vec::new();
    let mut record = true;
    let deck = match Deck::load(deck_path) {
        Ok(deck) => deck,
        Err(e) if file.is_some() => {
            notes.push(format!("{e}; answers are not recorded"));
            record = false;
            Deck::default()
        }
        Err(e) => return Some(Done::refusal(e.to_string())),
    };
    let mut exercises: Vec<Exercise> = deck
        .due(now)
        .into_iter()
        .map(|e| e.exercise.clone())
        .collect();
    let due = exercises.len();
    notes.insert(0, format!("{} due", count(due, "exercise", "exercises")));
    if let Some(file) = file {
        match find_in(file, cache, request, progress, cancel) {
            Err(e) => notes.push(format!("cannot read {}: {e}", file.display())),
            Ok(None) => return None,
            Ok(Some(mut found)) => {
                let engine = request.engine.is_some();
                let (all, judged) = (found.exercises.len(), found.judged());
                // Without an engine a mistake can be judged only against a better line
                // written in the game.
                // The same mistake in two games (an opening played again) is one
                // exercise, as the deck counts it: the newest game's.
                let mut seen = std::collections::HashSet::new();
                let fresh: Vec<Exercise> = std::mem::take(&mut found.exercises)
                    .into_iter()
                    .filter(|e| deck.get(&e.key()).is_none() && (engine || !e.answers.is_empty()))
                    .filter(|e| seen.insert(e.key()))
                    .collect();
                let waiting = fresh.len();
                exercises.extend(fresh.into_iter().take(NEW_PER_DRILL));
                let new = exercises.len() - due;
                notes.extend(found.notes(file, &request.name, new, waiting, all, judged));
            }
        }
    }
    if exercises.is_empty() {
        let next = deck
            .next_due(now)
            .map(|d| format!("; the next is due {}", d.format("%Y-%m-%d %H:%M UTC")))
            .unwrap_or_default();
        return Some(Done::notice(format!(
            "nothing to drill: {}{next}",
            notes.join(", ")
        )));
    }
    Some(Done::Drill {
        exercises,
        due,
        note: format!("drill: {}", notes.join(", ")),
        record,
    })
}

/// Your mistakes in a file, and how they were found.
#[derive(Debug, Default)]
struct Found {
    exercises: Vec<Exercise>,
    /// Games read, yours in all, yours looked through.
    read: u64,
    yours: u64,
    looked: usize,
    /// Of those: with `[%eval]`, analysed by the engine (of which from the cache),
    /// left without (no engine, or it failed).
    evaluated: usize,
    analysed: usize,
    cached: usize,
    bare: usize,
    /// What went wrong with the engine or the cache.
    problems: Vec<String>,
    /// No engine to analyse the games without evaluations.
    no_engine: bool,
}

impl Found {
    /// Exercises with a better move known.
    fn judged(&self) -> usize {
        self.exercises
            .iter()
            .filter(|e| !e.answers.is_empty())
            .count()
    }

    /// What to say about them.
    fn notes(
        &self,
        file: &Path,
        name: &str,
        new: usize,
        waiting: usize,
        all: usize,
        judged: usize,
    ) -> Vec<String> {
        let shown = file.display();
        if self.yours == 0 {
            return vec![format!(
                "no game of {name} among the {} of {shown} (your name is matched against the \
                 White and Black tags)",
                count(self.read as usize, "game", "games")
            )];
        }
        let mut how = vec![format!("{} with [%eval]", self.evaluated)];
        if self.analysed > 0 {
            how.push(format!(
                "{} analysed by the engine ({} kept from before)",
                self.analysed, self.cached
            ));
        }
        let looked = if self.looked as u64 == self.yours {
            format!("your {}", count(self.looked, "game", "games"))
        } else {
            format!("your last {} of {}", self.looked, self.yours)
        };
        let mut note = format!(
            "{new} new from {shown} ({looked}, {}: {}, {judged} with a better move known",
            how.join(", "),
            count(all, "mistake", "mistakes"),
        );
        if waiting > new {
            note.push_str(&format!("; {} more next time", waiting - new));
        }
        note.push(')');
        let mut notes = vec![note];
        notes.extend(self.problems.iter().cloned());
        if self.bare > 0 {
            notes.push(if self.no_engine {
                format!(
                    "{} without [%eval] and no engine to analyse them: install Stockfish or \
                     set [engine] path (or run scoresheet annotate elsewhere first)",
                    count(self.bare, "game", "games")
                )
            } else {
                format!(
                    "{} without [%eval] not analysed",
                    count(self.bare, "game", "games")
                )
            });
        }
        notes
    }
}

/// Finds your mistakes in `file`: in the newest of your games, by their annotations,
/// or by the engine's analysis (from the cache, else asked now). `None` when
/// cancelled.
fn find_in(
    file: &Path,
    cache: &Cache,
    request: &Request,
    progress: &(dyn Fn(Progress) + Sync),
    cancel: &AtomicBool,
) -> std::io::Result<Option<Found>> {
    let input = crate::cli::input::Input::open(file)?;
    let selection = mistakes::your_games(input, &request.name, request.last)?;
    let mut found = Found {
        read: selection.read,
        yours: selection.yours,
        looked: selection.games.len(),
        ..Found::default()
    };
    let stamp = request.engine.as_ref().map(|c| engine_stamp(&c.path));
    // Per game: its exercises once known.
    let mut per_game: Vec<Option<Vec<Exercise>>> = Vec::with_capacity(selection.games.len());
    let mut wanted = Vec::new();
    for (i, yours) in selection.games.iter().enumerate() {
        if yours.evaluated() {
            found.evaluated += 1;
            per_game.push(Some(mistakes::find(&yours.game, yours.side)));
            continue;
        }
        per_game.push(None);
        let Some(stamp) = &stamp else {
            found.bare += 1;
            found.no_engine = true;
            continue;
        };
        let key = Key::new(stamp, LIMIT, &yours.game);
        match cache.get(&key, &yours.game) {
            Some(evals) => {
                found.analysed += 1;
                found.cached += 1;
                per_game[i] = Some(mistakes::from_evals(&yours.game, yours.side, &evals));
            }
            None => wanted.push((i, key)),
        }
    }
    if let (Some(config), false) = (&request.engine, wanted.is_empty()) {
        let games: Vec<(Key, &crate::game::Game)> = wanted
            .iter()
            .map(|(i, key)| (key.clone(), &selection.games[*i].game))
            .collect();
        let config = EngineConfig {
            multipv: 1,
            ..config.clone()
        };
        let result = analyse_games(
            &config,
            LIMIT,
            &games,
            jobs_for(&config),
            cache,
            progress,
            cancel,
        );
        if cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        for ((i, _), evals) in wanted.iter().zip(result.evals) {
            let yours = &selection.games[*i];
            match evals {
                Some(evals) => {
                    found.analysed += 1;
                    per_game[*i] = Some(mistakes::from_evals(&yours.game, yours.side, &evals));
                }
                None => found.bare += 1,
            }
        }
        if let Some(e) = result.failed {
            found.problems.push(format!(
                "the engine stopped: {e}; the games it finished are kept"
            ));
        }
        if let Some(why) = result.unkept {
            found.problems.push(format!(
                "the engine's analysis is not kept for next time: {why}"
            ));
        }
    }
    found.exercises = per_game.into_iter().flatten().flatten().collect();
    Ok(Some(found))
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

    /// Gathers with the deck at `deck`, a cache beside it, and the engine at `engine`.
    fn gather(
        deck: &Path,
        file: Option<&Path>,
        name: &str,
        engine: Option<&str>,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Done {
        let cache = Cache::at(deck.with_file_name("analysis"));
        let request = Request {
            file: file.map(Path::to_path_buf),
            name: name.into(),
            last: None,
            engine: engine.map(|p| EngineConfig {
                path: p.into(),
                ..EngineConfig::default()
            }),
        };
        gather_with(
            deck,
            &cache,
            &request,
            now,
            &|_| {},
            &AtomicBool::new(false),
        )
        .expect("not cancelled")
    }

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
        let Done::Drill { exercises, due, .. } = gather(&deck, Some(&file), "Me", None, now) else {
            panic!("a drill")
        };
        assert_eq!((exercises.len(), due), (1, 0));
        assert_eq!(exercises[0].played_san(), "Nxe5");
        assert!(review_at(&deck, &exercises[0], false, now).is_none());
        // Right after, it is neither due nor new.
        let Done::Notice { text, .. } = gather(&deck, Some(&file), "Me", None, now) else {
            panic!("nothing to drill")
        };
        assert!(
            text.starts_with("nothing to drill: 0 exercises due"),
            "{text}"
        );
        assert!(text.contains("the next is due"), "{text}");
        // With an engine to judge answers, the mistake without a better line is offered.
        let Done::Drill { exercises, .. } =
            gather(&deck, Some(&file), "Me", Some("no-such-engine"), now)
        else {
            panic!("a drill")
        };
        assert_eq!(exercises.len(), 1);
        assert_eq!(exercises[0].played_san(), "Bxf7+");
        // A day later the miss is due again, first.
        let later = now + chrono::Duration::days(2);
        let Done::Drill { exercises, due, .. } = gather(&deck, None, "", None, later) else {
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
            gather(&deck, Some(&file), "Nobody", None, chrono::Utc::now())
        else {
            panic!("a notice")
        };
        assert!(
            text.contains("no game of Nobody among the 1 game of"),
            "{text}"
        );
        // A game of mine without evaluations: annotating it is the advice.
        std::fs::write(&file, "[White \"Me\"]\n\n1. e4 e5 *\n").unwrap();
        let Done::Notice { text, .. } = gather(&deck, Some(&file), "Me", None, chrono::Utc::now())
        else {
            panic!("a notice")
        };
        assert!(
            text.contains(
                "1 game without [%eval] and no engine to analyse them: install Stockfish"
            ),
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
            gather(&deck, Some(&file), "Me", None, chrono::Utc::now())
        else {
            panic!("a drill")
        };
        assert!(!record);
        assert!(note.contains("answers are not recorded"), "{note}");
    }
}
