//! Gathering a drill: the exercises due in the deck, then your mistakes in a file —
//! by its `[%eval]` annotations, by the engine's analyses kept in the cache, or by
//! the engine now for the games without either.
//!
//! The engine's work takes minutes over fifty games, so the drill does not wait for
//! it: what is known at once (due, annotated, kept) and then each game's mistakes as
//! soon as the engine is through with it (the engines take the games newest first)
//! are reported as [`Done::Found`]; the app starts the drill with the first and adds
//! the others to it. The end
//! ([`gather_with`]'s answer) is the whole drill and what to say about it.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::{Request, NEW_PER_DRILL};
use crate::app::Done;
use crate::engine::EngineConfig;
use crate::plural::{count, count_grouped};
use crate::study::annotate::PositionEval;
use crate::study::train::analyse::{analyse_games, jobs_for, LIMIT};
use crate::study::train::cache::{setup, Cache, Key};
use crate::study::train::deck::Deck;
use crate::study::train::{mistakes, Exercise};

/// The exercises due now, then your mistakes in the request's file not in the deck
/// yet: from the newest of your games, by their annotations or by the engine (whose
/// analyses are kept in `cache`; without an engine, the analyses kept are still
/// used). `report` hears, from the threads at work, how the engine's work goes
/// ([`Done::Gathering`]) and, while it works, the exercises found so far
/// ([`Done::Found`]: the first report has the due ones too). The answer is the whole
/// drill ([`Done::Drill`], whose exercises begin with those reported, in the same
/// order) or why there is none; `None` when `cancel` was set meanwhile (the
/// exercises reported by then stand).
pub fn gather_with(
    deck_path: &Path,
    cache: &Cache,
    request: &Request,
    now: chrono::DateTime<chrono::Utc>,
    report: &(dyn Fn(Done) + Sync),
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
    // Due today, as `scoresheet train` lists them, not only those due by this minute.
    let until = crate::study::train::deck::end_of_day(now);
    let due: Vec<Exercise> = deck
        .due(until)
        .into_iter()
        .map(|e| e.exercise.clone())
        .collect();
    notes.insert(
        0,
        format!("{} due", count(due.len(), "exercise", "exercises")),
    );
    let collector = Mutex::new(Collector::new(&deck, request.engine.is_some(), record, due));
    if let Some(file) = file {
        match find_in(file, cache, request, report, cancel, &collector) {
            Err(e) => notes.push(format!("cannot read {}: {e}", file.display())),
            Ok(None) => return None,
            Ok(Some(found)) => {
                let c = collector.lock().ok()?;
                notes.extend(found.notes(file, &request.name, &c));
            }
        }
    }
    let c = collector.into_inner().ok()?;
    let due = c.due.len();
    let mut exercises = c.due;
    exercises.extend(c.taken);
    if exercises.is_empty() {
        let next = deck
            .next_due(until)
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

/// The drill as it is gathered: the due exercises, and the new ones taken from the
/// mistakes found, game after game.
struct Collector<'a> {
    deck: &'a Deck,
    /// An engine judges answers: a mistake without a better line written is offered.
    engine: bool,
    record: bool,
    due: Vec<Exercise>,
    /// The new exercises: the [`NEW_PER_DRILL`] of the newest games among those found
    /// (newest game first; a game's own in the order found), whatever the order the
    /// games come in (those known at once first, then each as the engine is through
    /// with it).
    taken: Vec<Exercise>,
    /// Their keys, and those of the ones over the limit.
    seen: HashSet<String>,
    /// New exercises found in all (some over the limit wait for the next drill).
    fresh: usize,
    /// Mistakes found that are already in the deck (tried before: they come back when due).
    in_deck: usize,
    /// Mistakes found in all, and those with a better move known.
    all: usize,
    judged: usize,
    /// The keys of the exercises of `taken` reported so far (`None`: nothing yet, not
    /// even the due).
    reported: Option<HashSet<String>>,
}

impl<'a> Collector<'a> {
    /// A collector of exercises from `deck`, starting with those `due`, none taken yet.
    fn new(deck: &'a Deck, engine: bool, record: bool, due: Vec<Exercise>) -> Self {
        Collector {
            deck,
            engine,
            record,
            due,
            taken: Vec::new(),
            seen: HashSet::new(),
            fresh: 0,
            in_deck: 0,
            all: 0,
            judged: 0,
            reported: None,
        }
    }

    /// Takes the mistakes of a game (or of several, newest first) in: those not in
    /// the deck, the same mistake once (the first found: of the games known at once,
    /// the newest game's; of those the engines analyse side by side, the one
    /// finished first); over the limit, those of the oldest games wait for the next
    /// drill.
    fn add(&mut self, found: Vec<Exercise>) {
        self.all += found.len();
        self.judged += found.iter().filter(|e| !e.answers.is_empty()).count();
        // Without an engine a mistake can be judged only against a better line
        // written in the game.
        for e in found {
            let unjudged = !self.engine && e.answers.is_empty();
            if unjudged || !self.seen.insert(e.key()) {
                continue;
            }
            if self.deck.get(&e.key()).is_some() {
                // Tried before: it comes back when it is due, not as new.
                self.in_deck += 1;
                continue;
            }
            self.fresh += 1;
            let at = self.taken.partition_point(|x| x.newer_or_same(&e));
            if at < NEW_PER_DRILL {
                self.taken.insert(at, e);
                self.taken.truncate(NEW_PER_DRILL);
            }
        }
    }

    /// The exercises taken since the last report (the due ones with the first), if
    /// any. One reported may have made way since for one of a newer game: the drill
    /// keeps to the same limit (see [`Done::Found`]).
    fn report(&mut self) -> Option<Done> {
        let first = self.reported.is_none();
        let reported = self.reported.get_or_insert_with(HashSet::new);
        let mut exercises = if first { self.due.clone() } else { Vec::new() };
        for e in &self.taken {
            if reported.insert(e.key()) {
                exercises.push(e.clone());
            }
        }
        if exercises.is_empty() {
            return None;
        }
        Some(Done::Found {
            exercises,
            due: if first { self.due.len() } else { 0 },
            record: self.record,
            full: self.taken.len() >= NEW_PER_DRILL,
        })
    }
}

/// How your mistakes in a file were found.
#[derive(Debug, Default)]
struct Found {
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
    /// What to say about them, with what the drill took of them.
    fn notes(&self, file: &Path, name: &str, drill: &Collector) -> Vec<String> {
        let shown = file.display();
        if self.yours == 0 {
            return vec![format!(
                "no game of {name} among the {} of {shown} (your name is matched against the \
                 White and Black tags)",
                count_grouped(self.read as usize, "game", "games")
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
        let new = drill.taken.len();
        let mut note = format!(
            "{new} new from {shown} ({looked}, {}: {}, {} with a better move known",
            how.join(", "),
            count(drill.all, "mistake", "mistakes"),
            drill.judged,
        );
        if drill.fresh > new {
            note.push_str(&format!("; {} more next time", drill.fresh - new));
        }
        if drill.in_deck > 0 {
            // Else "1 mistake" and "0 new" would read as a mistake dropped.
            note.push_str(&format!(
                "; {} already in your deck, back when due",
                drill.in_deck
            ));
        }
        note.push(')');
        let mut notes = vec![note];
        notes.extend(self.problems.iter().cloned());
        if self.bare > 0 {
            notes.push(if self.no_engine {
                format!(
                    "{} without [%eval] could not be analysed for want of an engine: install \
                     Stockfish or set [engine] path (or run scoresheet annotate elsewhere first)",
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

/// The exercises of your `i`-th newest game, marked as such (the drill shows newer
/// games' first, whatever the order they are found in).
fn ranked(mut exercises: Vec<Exercise>, i: usize) -> Vec<Exercise> {
    let recency = u32::try_from(i).unwrap_or(u32::MAX);
    for e in &mut exercises {
        e.recency = Some(recency);
    }
    exercises
}

/// Finds your mistakes in `file` and gives them to `drill`: in the newest of your
/// games, by their annotations, or by the engine's analysis (from the cache — any
/// engine's when there is none — else asked now, newest game first, each game's
/// reported as soon as it is done). `None` when cancelled.
fn find_in(
    file: &Path,
    cache: &Cache,
    request: &Request,
    report: &(dyn Fn(Done) + Sync),
    cancel: &AtomicBool,
    drill: &Mutex<Collector>,
) -> std::io::Result<Option<Found>> {
    let input = crate::cli::input::Input::open(file)?;
    let selection = mistakes::your_games(input, &request.name, request.last)?;
    let mut found = Found {
        read: selection.read,
        yours: selection.yours,
        looked: selection.games.len(),
        ..Found::default()
    };
    // The engine analyses with one line; its set-up is part of the cache's key.
    let config = request.engine.as_ref().map(|c| EngineConfig {
        multipv: 1,
        ..c.clone()
    });
    let stamp = config.as_ref().map(setup);
    let kept_by_any = stamp.is_none().then(|| cache.any_setup());
    let mut known = Vec::new();
    let mut wanted = Vec::new();
    for (i, yours) in selection.games.iter().enumerate() {
        if yours.evaluated() {
            found.evaluated += 1;
            known.extend(ranked(mistakes::find(&yours.game, yours.side), i));
            continue;
        }
        let kept = match (&stamp, &kept_by_any) {
            (Some(stamp), _) => {
                let key = Key::new(stamp, LIMIT, &yours.game);
                let kept = cache.get(&key, &yours.game);
                if kept.is_none() {
                    wanted.push((i, key));
                }
                kept
            }
            (None, any) => {
                let kept = any.as_ref().and_then(|any| any.get(&yours.game));
                if kept.is_none() {
                    found.bare += 1;
                    found.no_engine = true;
                }
                kept
            }
        };
        if let Some(evals) = kept {
            found.analysed += 1;
            found.cached += 1;
            known.extend(ranked(
                mistakes::from_evals(&yours.game, yours.side, &evals),
                i,
            ));
        }
    }
    let take = |exercises: Vec<Exercise>, tell: bool| {
        if let Ok(mut drill) = drill.lock() {
            drill.add(exercises);
            if let Some(done) = tell.then(|| drill.report()).flatten() {
                report(done);
            }
        }
    };
    let Some(config) = config.filter(|_| !wanted.is_empty()) else {
        // Nothing for the engine to do: the drill is all known now.
        take(known, false);
        return Ok(Some(found));
    };
    // The drill starts with what is known while the engine works.
    take(known, true);
    let games: Vec<(Key, &crate::game::Game)> = wanted
        .iter()
        .map(|(i, key)| (key.clone(), &selection.games[*i].game))
        .collect();
    // Each game's mistakes as soon as the engine is through with it, whatever the
    // order the engines finish in: the first exercise should not wait for a long
    // game. The last game's are not reported: the answer, which brings them, follows
    // at once.
    let finished_games = AtomicUsize::new(0);
    let finished = |j: usize, evals: &[PositionEval]| {
        let i = wanted[j].0;
        let yours = &selection.games[i];
        let exercises = ranked(mistakes::from_evals(&yours.game, yours.side, evals), i);
        let done = finished_games.fetch_add(1, Ordering::Relaxed) + 1;
        take(exercises, done < games.len());
    };
    let result = analyse_games(
        &config,
        LIMIT,
        &games,
        jobs_for(&config),
        cache,
        &|p| report(Done::Gathering(p)),
        &finished,
        cancel,
    );
    if cancel.load(Ordering::Relaxed) {
        return Ok(None);
    }
    for evals in &result.evals {
        match evals {
            Some(_) => found.analysed += 1,
            None => found.bare += 1,
        }
    }
    match result.failed {
        Some(e) if result.stopped => found.problems.push(format!(
            "the engine stopped: {e}; the games it finished are kept"
        )),
        Some(e) => found.problems.push(format!(
            "the engine failed on {} ({e}); a new one went on with the next",
            crate::plural::count(result.given_up, "game", "games")
        )),
        None => {}
    }
    if let Some(why) = result.unkept {
        found.problems.push(format!(
            "the engine's analysis is not kept for next time: {why}"
        ));
    }
    Ok(Some(found))
}

#[cfg(test)]
mod cap_tests {
    use super::*;
    use crate::study::train::exercise::Answer;

    /// A mistake of your `recency`-th newest game (0 the newest), with a better move.
    fn of_game(played: &str, recency: u32) -> Exercise {
        Exercise {
            fen: "r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4".into(),
            played: played.into(),
            answers: vec![Answer {
                uci: "f3d4".into(),
                white_percent: Some(58.0),
            }],
            before: Some(58.0),
            lost: 21.7,
            source: "Me – Them".into(),
            line: Vec::new(),
            start: None,
            recency: Some(recency),
        }
    }

    /// The cap keeps the newest games' mistakes: those of older games known at once
    /// (annotated, or kept from an earlier analysis) make way for those the engine finds
    /// later in newer games.
    #[test]
    fn the_cap_keeps_the_newest_games_mistakes_not_the_first_found() {
        let deck = Deck::default();
        let mut c = Collector::new(&deck, true, true, Vec::new());
        let old: Vec<Exercise> = (0..NEW_PER_DRILL + 2)
            .map(|i| of_game(&format!("old{i}"), 3))
            .collect();
        c.add(old);
        let Some(Done::Found {
            exercises, full, ..
        }) = c.report()
        else {
            panic!("a report")
        };
        assert_eq!((exercises.len(), full), (NEW_PER_DRILL, true));
        // The engine is through with your newest game, then with one between.
        c.add(vec![of_game("new", 0)]);
        c.add(vec![of_game("mid", 1)]);
        let Some(Done::Found { exercises, .. }) = c.report() else {
            panic!("a report")
        };
        let played = |e: &[Exercise]| e.iter().map(|x| x.played.clone()).collect::<Vec<_>>();
        assert_eq!(played(&exercises), ["new", "mid"]);
        assert_eq!(c.taken.len(), NEW_PER_DRILL);
        assert_eq!(played(&c.taken[..3]), ["new", "mid", "old0"]);
        assert_eq!(
            c.taken[NEW_PER_DRILL - 1].played,
            format!("old{}", NEW_PER_DRILL - 3)
        );
        assert_eq!(c.fresh, NEW_PER_DRILL + 4);
        assert!(c.report().is_none(), "nothing new since");
    }
}
