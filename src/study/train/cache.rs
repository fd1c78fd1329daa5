//! What the engine found in games that have no evaluations, kept so that the next
//! drill over the same games does not ask it again.
//!
//! One small JSON file per game in the platform cache directory (`analysis/` beside
//! the indexes; `$SCORESHEET_CACHE_DIR/analysis` when that is set), never beside the
//! user's file. A game's entry is found by its [`Key`]: the engine's program (its
//! path, size and modification time, so an upgraded engine analyses again), the
//! search's limit, the start position and the main line's moves. The whole key is
//! written in the file and compared when it is read: a name shared by two keys (the
//! file's name is a 32-bit checksum of the key) is a miss, not a wrong answer.
//!
//! Written to a temporary file beside it and renamed, so a reader never sees half an
//! entry. An entry that cannot be read — damaged, of another version, or whose moves
//! do not fit its game — is a miss: the game is analysed again and the entry
//! written over.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::{parse_uci_move, uci_text, Limit, Score};
use crate::game::Game;
use crate::study::annotate::{main_moves, PositionEval};

/// The version of the entries' format.
const VERSION: u32 = 1;

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

/// What an entry is for: the engine, the limit, the game's start and main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key(String);

impl Key {
    /// The key of `game` analysed by the engine `engine` ([`engine_stamp`]) to `limit`.
    pub fn new(engine: &str, limit: Limit, game: &Game) -> Key {
        let mut text = format!(
            "engine {engine}\nlimit {}\nstart {}\nmoves",
            limit_text(limit),
            game.start.fen()
        );
        for m in main_moves(game) {
            let _ = write!(text, " {}", uci_text(m));
        }
        Key(text)
    }

    /// The entry's file name.
    fn file_name(&self) -> String {
        format!(
            "{:08x}-{}.json",
            crc32fast::hash(self.0.as_bytes()),
            self.0.len()
        )
    }
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
    key: String,
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
        let text = std::fs::read_to_string(self.dir.join(key.file_name())).ok()?;
        let entry: Entry = serde_json::from_str(&text).ok()?;
        if entry.version != VERSION || entry.key != key.0 {
            return None;
        }
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

    /// Keeps `evals` under `key`, replacing what was there.
    pub fn put(&self, key: &Key, evals: &[PositionEval]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let entry = Entry {
            version: VERSION,
            key: key.0.clone(),
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
            good.replacen("\"version\":1", "\"version\":99", 1),
        ] {
            assert_ne!(bad, good);
            std::fs::write(&file, &bad).unwrap();
            assert_eq!(cache.get(&key, &g), None, "{bad}");
        }
        cache.put(&key, &evals(&g)).unwrap();
        assert_eq!(cache.get(&key, &g), Some(evals(&g)));
    }
}
