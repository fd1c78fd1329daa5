//! What the engine found in games that have no evaluations, kept so that the next
//! drill over the same games does not ask it again.
//!
//! One small JSON file per game and engine set-up in the platform cache directory
//! (`analysis/` beside the indexes; `$SCORESHEET_CACHE_DIR/analysis` when that is
//! set), never beside the user's file. An entry is found by its [`Key`], in two
//! parts: the set-up ([`setup`]: the engine's program — its path, size and
//! modification time, so an upgraded engine analyses again — and the threads, hash,
//! lines and other options it searched with, which change its answers; and the
//! search's limit), and the game (its start position and its main line's moves).
//! The file's name is a checksum of each part (`{game}-{setup}.json`), so the
//! entries of one game sit under one prefix: without an engine, an analysis made by
//! any set-up is still found ([`Cache::get_any`]). The whole key is written in the
//! file and compared when it is read: a name shared by two keys is a miss, not a
//! wrong answer.
//!
//! Written to a temporary file beside it and renamed, so a reader never sees half an
//! entry. An entry that cannot be read — damaged, of another version, or whose moves
//! do not fit its game — is a miss: the game is analysed again and the entry
//! written over.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::{parse_uci_move, uci_text, EngineConfig, Limit, Score};
use crate::game::Game;
use crate::study::annotate::{main_moves, PositionEval};

/// The version of the entries' format (1 keyed the engine by its program alone).
const VERSION: u32 = 2;

/// The folder of the entries: `$SCORESHEET_CACHE_DIR/analysis` when set, else the
/// platform cache directory's (`~/.cache/scoresheet/analysis` on Linux), else one in
/// the system's temporary directory.
pub fn dir() -> PathBuf {
    if let Some(d) =
        std::env::var_os(crate::store::unpacked::CACHE_DIR_ENV).filter(|d| !d.is_empty())
    {
        return PathBuf::from(d).join("analysis");
    }
    directories::ProjectDirs::from("", "", "scoresheet")
        .map(|p| p.cache_dir().join("analysis"))
        .unwrap_or_else(|| std::env::temp_dir().join("scoresheet-analysis"))
}

/// What identifies an engine's program: its path, and its size and modification
/// time (a new version of the engine may judge differently).
pub fn engine_stamp(program: &Path) -> String {
    let path = std::fs::canonicalize(program).unwrap_or_else(|_| program.to_path_buf());
    let meta = std::fs::metadata(&path).ok();
    let size = meta.as_ref().map_or(0, std::fs::Metadata::len);
    let mtime = meta
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{} {size} {mtime}", path.display())
}

/// What identifies an engine set-up: its program ([`engine_stamp`]) and every
/// setting that changes what it answers — threads (a search on several threads
/// takes other paths), hash, lines and the other options. Those left to the
/// engine's defaults are written `default`.
pub fn setup(config: &EngineConfig) -> String {
    let or_default = |v: Option<u32>| v.map_or_else(|| "default".to_string(), |v| v.to_string());
    let mut text = format!(
        "engine {}\nthreads {}\nhash {}\nlines {}",
        engine_stamp(&config.path),
        or_default(config.threads),
        or_default(config.hash_mb),
        config.multipv
    );
    for (name, value) in &config.options {
        let _ = write!(text, "\noption {name}={value}");
    }
    text
}

/// What an entry is for: the engine's set-up and limit, and the game's start and
/// main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    setup: String,
    game: String,
}

impl Key {
    /// The key of `game` analysed by the engine set up as `setup` (see [`setup`]) to
    /// `limit`.
    pub fn new(setup: &str, limit: Limit, game: &Game) -> Key {
        Key {
            setup: format!("{setup}\nlimit {}", limit_text(limit)),
            game: game_text(game),
        }
    }

    /// The entry's file name.
    fn file_name(&self) -> String {
        format!(
            "{}{:08x}.json",
            game_prefix(&self.game),
            crc32fast::hash(self.setup.as_bytes())
        )
    }
}

/// The part of a key that names the game: its start and its main line.
fn game_text(game: &Game) -> String {
    let mut text = format!("start {}\nmoves", game.start.fen());
    for m in main_moves(game) {
        let _ = write!(text, " {}", uci_text(m));
    }
    text
}

/// How the names of a game's entries begin.
fn game_prefix(game_text: &str) -> String {
    format!(
        "{:08x}{:04x}-",
        crc32fast::hash(game_text.as_bytes()),
        game_text.len() & 0xffff
    )
}

fn limit_text(limit: Limit) -> String {
    match limit {
        Limit::Depth(d) => format!("depth {d}"),
        Limit::Nodes(n) => format!("nodes {n}"),
        Limit::MoveTime(t) => format!("movetime {}", t.as_millis()),
        Limit::Infinite => "infinite".into(),
    }
}

/// An entry as written.
#[derive(Serialize, Deserialize)]
struct Entry {
    version: u32,
    /// The key's two parts, whole.
    setup: String,
    game: String,
    /// Per position (the start, then after each main-line move): the score from
    /// White's side and the best line, in UCI.
    evals: Vec<(String, String)>,
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
        Score::MateGiven => "mategiven".into(),
    }
}

fn read_score(text: &str) -> Option<Score> {
    match text.split_once(' ') {
        Some(("cp", n)) => n.parse().ok().map(Score::Cp),
        Some(("mate", n)) => n.parse().ok().map(Score::Mate),
        None if text == "mategiven" => Some(Score::MateGiven),
        _ => None,
    }
}

/// The analyses kept in a folder.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// The cache in `dir` (made when the first entry is written).
    pub fn at(dir: PathBuf) -> Cache {
        Cache { dir }
    }

    /// The cache in [`dir`].
    pub fn standard() -> Cache {
        Cache::at(dir())
    }

    /// Its folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The analysis of `game` kept under `key`, when there is one that fits the game
    /// (one evaluation per position, each best line legal where it starts).
    pub fn get(&self, key: &Key, game: &Game) -> Option<Vec<PositionEval>> {
        let entry = self.read(&key.file_name())?;
        if entry.setup != key.setup || entry.game != key.game {
            return None;
        }
        evals_of(&entry, game)
    }

    /// The analyses kept, by whatever engine set-up: for drilling without an engine
    /// the games analysed before ([`AnySetup::get`]). Lists the folder once.
    pub fn any_setup(&self) -> AnySetup<'_> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .map(|d| {
                d.flatten()
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| n.ends_with(".json"))
                    .collect()
            })
            .unwrap_or_default();
        names.sort_unstable();
        AnySetup { cache: self, names }
    }

    fn read(&self, name: &str) -> Option<Entry> {
        let text = std::fs::read_to_string(self.dir.join(name)).ok()?;
        let entry: Entry = serde_json::from_str(&text).ok()?;
        (entry.version == VERSION).then_some(entry)
    }

    /// Keeps `evals` under `key`, replacing what was there.
    pub fn put(&self, key: &Key, evals: &[PositionEval]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let entry = Entry {
            version: VERSION,
            setup: key.setup.clone(),
            game: key.game.clone(),
            evals: evals
                .iter()
                .map(|e| {
                    let line: Vec<String> = e.pv.iter().map(|m| uci_text(*m)).collect();
                    (score_text(e.score), line.join(" "))
                })
                .collect(),
        };
        let text = serde_json::to_string(&entry).map_err(std::io::Error::other)?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".analysis-")
            .suffix(".tmp")
            .tempfile_in(&self.dir)?;
        tmp.write_all(text.as_bytes())?;
        tmp.persist(self.dir.join(key.file_name()))
            .map_err(|e| e.error)?;
        Ok(())
    }
}

/// The analyses of a cache by any engine set-up (see [`Cache::any_setup`]).
#[derive(Debug)]
pub struct AnySetup<'a> {
    cache: &'a Cache,
    /// The entries' file names, sorted: a game's entries side by side.
    names: Vec<String>,
}

impl AnySetup<'_> {
    /// An analysis of `game` kept by any set-up: the newest that fits the game.
    pub fn get(&self, game: &Game) -> Option<Vec<PositionEval>> {
        let text = game_text(game);
        let prefix = game_prefix(&text);
        let start = self.names.partition_point(|n| n.as_str() < prefix.as_str());
        let mut found: Vec<(std::time::SystemTime, Vec<PositionEval>)> = self.names[start..]
            .iter()
            .take_while(|n| n.starts_with(&prefix))
            .filter_map(|name| {
                let entry = self.cache.read(name).filter(|e| e.game == text)?;
                let evals = evals_of(&entry, game)?;
                let when = std::fs::metadata(self.cache.dir.join(name))
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                Some((when, evals))
            })
            .collect();
        found.sort_by_key(|(when, _)| *when);
        found.pop().map(|(_, evals)| evals)
    }
}

/// An entry's evaluations for `game`, when they fit it: one per position, each best
/// line legal where it starts.
fn evals_of(entry: &Entry, game: &Game) -> Option<Vec<PositionEval>> {
    let moves = main_moves(game);
    if entry.evals.len() != moves.len() + 1 {
        return None;
    }
    let mut pos = game.start;
    let mut out = Vec::with_capacity(entry.evals.len());
    for (i, (score, line)) in entry.evals.iter().enumerate() {
        let mut pv = Vec::new();
        let mut p = pos;
        for text in line.split_whitespace() {
            let m = parse_uci_move(&p, text)?;
            pv.push(m);
            p = p.play(m);
        }
        out.push(PositionEval {
            score: read_score(score)?,
            pv,
        });
        if let Some(m) = moves.get(i) {
            pos = pos.play(*m);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pgn: &str) -> Game {
        crate::pgn::builder::read_games(pgn.as_bytes())
            .remove(0)
            .game
    }

    fn evals(game: &Game) -> Vec<PositionEval> {
        // 1. e4 e5 2. Qh5 Nc6: a score and a best line per position.
        let mut pos = game.start;
        let moves = main_moves(game);
        let table = [
            (Score::Cp(30), "e2e4 e7e5"),
            (Score::Cp(25), "e7e5"),
            (Score::Cp(35), "g1f3"),
            (Score::Mate(-4), "b8c6"),
            (Score::MateGiven, ""),
        ];
        table
            .iter()
            .enumerate()
            .map(|(i, (score, line))| {
                let mut pv = Vec::new();
                let mut p = pos;
                for t in line.split_whitespace() {
                    let m = parse_uci_move(&p, t).unwrap();
                    pv.push(m);
                    p = p.play(m);
                }
                if let Some(m) = moves.get(i) {
                    pos = pos.play(*m);
                }
                PositionEval { score: *score, pv }
            })
            .collect()
    }

    const GAME: &str = "[White \"Me\"]\n\n1. e4 e5 2. Qh5 Nc6 *\n";

    #[test]
    fn a_kept_analysis_is_found_again() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path().join("analysis"));
        let g = game(GAME);
        let key = Key::new("stockfish 1 2", Limit::Nodes(1000), &g);
        assert_eq!(cache.get(&key, &g), None, "nothing kept yet");
        let e = evals(&g);
        cache.put(&key, &e).unwrap();
        assert_eq!(cache.get(&key, &g), Some(e.clone()));
        // The same moves in another file (other tags, comments): the same entry.
        let other = game("[White \"Someone\"]\n\n1. e4 {hi} e5 2. Qh5 Nc6 *\n");
        assert_eq!(
            cache.get(
                &Key::new("stockfish 1 2", Limit::Nodes(1000), &other),
                &other
            ),
            Some(e)
        );
        // Nothing but the entry is left in the folder (no temporary file).
        assert_eq!(std::fs::read_dir(cache.dir()).unwrap().count(), 1);
    }

    #[test]
    fn another_engine_limit_or_game_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path().to_path_buf());
        let g = game(GAME);
        cache
            .put(
                &Key::new("stockfish 1 2", Limit::Nodes(1000), &g),
                &evals(&g),
            )
            .unwrap();
        assert_eq!(
            cache.get(&Key::new("stockfish 1 3", Limit::Nodes(1000), &g), &g),
            None
        );
        assert_eq!(
            cache.get(&Key::new("stockfish 1 2", Limit::Nodes(2000), &g), &g),
            None
        );
        assert_eq!(
            cache.get(&Key::new("stockfish 1 2", Limit::Depth(12), &g), &g),
            None
        );
        let longer = game("1. e4 e5 2. Qh5 Nc6 3. Bc4 *\n");
        assert_eq!(
            cache.get(
                &Key::new("stockfish 1 2", Limit::Nodes(1000), &longer),
                &longer
            ),
            None
        );
    }

    #[test]
    fn a_damaged_entry_is_a_miss_and_is_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path().to_path_buf());
        let g = game(GAME);
        let key = Key::new("stockfish 1 2", Limit::Nodes(1000), &g);
        cache.put(&key, &evals(&g)).unwrap();
        let file = dir.path().join(key.file_name());
        let good = std::fs::read_to_string(&file).unwrap();
        for bad in [
            // Cut short, as by a full disk.
            good[..good.len() / 2].to_string(),
            // Not JSON at all.
            "\u{0}\u{0}garbage".to_string(),
            // A best line that is not legal where it starts.
            good.replacen("e2e4 e7e5", "e2e5", 1),
            // A score that does not read.
            good.replacen("cp 30", "cp thirty", 1),
            // One evaluation missing.
            good.replacen(",[\"mategiven\",\"\"]", "", 1),
            // Another version.
            good.replacen("\"version\":2", "\"version\":99", 1),
        ] {
            assert_ne!(bad, good);
            std::fs::write(&file, &bad).unwrap();
            assert_eq!(cache.get(&key, &g), None, "{bad}");
        }
        cache.put(&key, &evals(&g)).unwrap();
        assert_eq!(cache.get(&key, &g), Some(evals(&g)));
    }

    fn config(threads: Option<u32>, hash_mb: Option<u32>) -> EngineConfig {
        EngineConfig {
            path: "/no/such/engine".into(),
            threads,
            hash_mb,
            ..EngineConfig::default()
        }
    }

    #[test]
    fn the_threads_the_hash_and_the_options_are_part_of_the_key() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path().to_path_buf());
        let g = game(GAME);
        let key = |c: &EngineConfig| Key::new(&setup(c), Limit::Nodes(1000), &g);
        let base = config(None, None);
        cache.put(&key(&base), &evals(&g)).unwrap();
        assert_eq!(cache.get(&key(&base), &g), Some(evals(&g)));
        // Another number of threads, another hash, another option: another analysis.
        for other in [
            config(Some(2), None),
            config(None, Some(256)),
            config(Some(1), Some(16)),
            EngineConfig {
                options: vec![("Skill Level".into(), "5".into())],
                ..base.clone()
            },
            EngineConfig {
                multipv: 3,
                ..base.clone()
            },
        ] {
            assert_ne!(setup(&other), setup(&base));
            assert_eq!(cache.get(&key(&other), &g), None, "{}", setup(&other));
        }
        // Both kept side by side.
        let two = config(Some(2), Some(64));
        let mut theirs = evals(&g);
        theirs[0].score = Score::Cp(31);
        cache.put(&key(&two), &theirs).unwrap();
        assert_eq!(cache.get(&key(&two), &g), Some(theirs));
        assert_eq!(cache.get(&key(&base), &g), Some(evals(&g)));
    }

    #[test]
    fn without_an_engine_any_set_ups_analysis_of_the_game_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path().join("analysis"));
        let g = game(GAME);
        assert_eq!(cache.any_setup().get(&g), None, "no folder yet");
        cache
            .put(
                &Key::new(&setup(&config(Some(4), None)), Limit::Nodes(1000), &g),
                &evals(&g),
            )
            .unwrap();
        // Another game's entry beside it is not taken for it.
        let other = game("1. d4 d5 *\n");
        let mut pv_less: Vec<PositionEval> = (0..3)
            .map(|_| PositionEval {
                score: Score::Cp(0),
                pv: Vec::new(),
            })
            .collect();
        cache
            .put(&Key::new("x", Limit::Nodes(1), &other), &pv_less)
            .unwrap();
        let any = cache.any_setup();
        assert_eq!(any.get(&g), Some(evals(&g)));
        assert_eq!(any.get(&other), Some(pv_less.clone()));
        assert_eq!(any.get(&game("1. e4 e5 2. Qh5 *\n")), None);
        // The newest of two set-ups' analyses wins; a damaged one is passed over.
        let older = Key::new("x", Limit::Nodes(1), &other);
        let a_day_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);
        std::fs::File::options()
            .write(true)
            .open(cache.dir().join(older.file_name()))
            .and_then(|f| f.set_modified(a_day_ago))
            .unwrap();
        pv_less[0].score = Score::Cp(99);
        let newer = Key::new("y", Limit::Depth(3), &other);
        cache.put(&newer, &pv_less).unwrap();
        assert_eq!(cache.any_setup().get(&other), Some(pv_less.clone()));
        std::fs::write(cache.dir().join(newer.file_name()), "{").unwrap();
        let any = cache.any_setup();
        assert_eq!(any.get(&other).map(|e| e[0].score), Some(Score::Cp(0)));
    }
}
