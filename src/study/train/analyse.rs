//! An engine's analysis of games that have no evaluations, for finding your
//! mistakes in them: every position of each game's main line searched as
//! `scoresheet annotate` does ([`crate::study::annotate::analyse_with`]), by several
//! engine processes at once (one game each), each analysis kept in the [`Cache`] as
//! soon as it is done so that a drill stopped halfway keeps what was found.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::cache::{Cache, Key};
use crate::engine::{Engine, EngineConfig, EngineError, Limit};
use crate::game::Game;
use crate::study::annotate::{analyse_with, main_moves, PositionEval};

/// How long the engine searches each position of a game without evaluations: as long
/// as `scoresheet annotate` and `:annotate` do (about a second a position on one core).
pub const LIMIT: Limit = Limit::Nodes(crate::study::annotate::DEFAULT_NODES);

/// How far an analysis is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    /// Games analysed.
    pub games_done: usize,
    /// Games to analyse.
    pub games: usize,
    /// Positions searched.
    pub positions_done: usize,
    /// Positions to search.
    pub positions: usize,
}

/// What an analysis of several games gave.
#[derive(Debug, Default)]
pub struct Analysed {
    /// Per game (in the order given): its evaluations, when it was analysed.
    pub evals: Vec<Option<Vec<PositionEval>>>,
    /// Why the engine stopped before the end, when it failed.
    pub failed: Option<EngineError>,
    /// Games the engine failed on (each was given to a new engine process, which went
    /// on with the next; two failures in a row stop the analysis).
    pub given_up: usize,
    /// Whether the analysis stopped before the end for a failure (an engine that could
    /// not start, or failed twice in a row).
    pub stopped: bool,
    /// Why an analysis could not be kept in the cache, when one could not.
    pub unkept: Option<String>,
}

/// Analyses `games` (with their cache keys) with the engine of `config` to `limit`,
/// on `jobs` engine processes at once, in their order; `progress` hears after every
/// position and `finished` as soon as a game is analysed (its index in `games`, its
/// evaluations, already kept in the cache), both from the workers' threads, so that
/// what a game shows can be used while the others are analysed. Stops early when
/// `cancel` is set (the games not finished are `None`), when an engine cannot start, or
/// when one fails on two games in a row (the first failure is returned; the games
/// finished by then are kept). An engine that fails on one game (it died, or answered
/// nonsense) is replaced by a new one for the next, as `annotate` does: one crash does
/// not cost the other games.
#[allow(clippy::too_many_arguments)]
pub fn analyse_games(
    config: &EngineConfig,
    limit: Limit,
    games: &[(Key, &Game)],
    jobs: usize,
    cache: &Cache,
    progress: &(dyn Fn(Progress) + Sync),
    finished: &(dyn Fn(usize, &[PositionEval]) + Sync),
    cancel: &AtomicBool,
) -> Analysed {
    let total = Progress {
        games: games.len(),
        positions: games.iter().map(|(_, g)| main_moves(g).len() + 1).sum(),
        ..Progress::default()
    };
    let next = AtomicUsize::new(0);
    let games_done = AtomicUsize::new(0);
    let positions_done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Vec<PositionEval>>>> = Mutex::new(vec![None; games.len()]);
    let failed: Mutex<Option<EngineError>> = Mutex::new(None);
    let unkept: Mutex<Option<String>> = Mutex::new(None);
    let halt = || cancel.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed);
    let say = || {
        progress(Progress {
            games_done: games_done.load(Ordering::Relaxed),
            positions_done: positions_done.load(Ordering::Relaxed),
            ..total
        })
    };
    let given_up = AtomicUsize::new(0);
    let note = |e: EngineError| {
        if let Ok(mut f) = failed.lock() {
            f.get_or_insert(e);
        }
    };
    let fail = |e: EngineError| {
        stop.store(true, Ordering::Relaxed);
        note(e);
    };
    let worker = || {
        let mut engine: Option<Engine> = None;
        // Whether this worker's last game failed: a second failure in a row stops.
        let mut failing = false;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some((key, game)) = games.get(i) else {
                return;
            };
            if halt() {
                return;
            }
            // Started with its first game: a worker with none starts no engine.
            let e = match &mut engine {
                Some(e) => e,
                None => match Engine::start(config) {
                    Ok(e) => engine.insert(e),
                    Err(e) => return fail(e),
                },
            };
            let found = analyse_with(game, e, limit, &mut |done, _| {
                if done > 0 {
                    positions_done.fetch_add(1, Ordering::Relaxed);
                    say();
                }
                !halt()
            });
            match found {
                Ok(Some(evals)) => {
                    positions_done.fetch_add(1, Ordering::Relaxed);
                    games_done.fetch_add(1, Ordering::Relaxed);
                    say();
                    if let Err(e) = cache.put(key, &evals) {
                        if let Ok(mut u) = unkept.lock() {
                            u.get_or_insert(format!("cannot write {}: {e}", cache.dir().display()));
                        }
                    }
                    finished(i, &evals);
                    if let Ok(mut r) = results.lock() {
                        r[i] = Some(evals);
                    }
                }
                Ok(None) => return,
                Err(e) if failing => return fail(e),
                Err(e) => {
                    // The next game gets a new engine.
                    failing = true;
                    engine = None;
                    given_up.fetch_add(1, Ordering::Relaxed);
                    note(e);
                    continue;
                }
            }
            failing = false;
        }
    };
    say();
    let jobs = jobs.clamp(1, games.len().max(1));
    std::thread::scope(|scope| {
        let spawned: Vec<_> = (0..jobs)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("mistakes".into())
                    .spawn_scoped(scope, worker)
                    .ok()
            })
            .collect();
        // The system granted no thread: the work is done here.
        if spawned.is_empty() {
            worker();
        }
    });
    Analysed {
        evals: results.into_inner().unwrap_or_default(),
        failed: failed.into_inner().unwrap_or_default(),
        given_up: given_up.into_inner(),
        stopped: stop.into_inner(),
        unkept: unkept.into_inner().unwrap_or_default(),
    }
}

/// How many engines to run at once: one per core, each with the threads it is
/// configured to search with.
pub fn jobs_for(config: &EngineConfig) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = config.threads.unwrap_or(1).max(1) as usize;
    (cores / threads).max(1)
}
