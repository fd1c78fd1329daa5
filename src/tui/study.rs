//! The study thread: searches and opening trees for the reviewer, computed off the UI
//! thread. It keeps the index of each file it has opened (checked against the file's
//! size and modification time at every request, so an edited file gets a new one), and
//! of the tree requests waiting it answers only the latest (the cursor has moved past the
//! others).
//!
//! It builds an index only under the builders' lock (see
//! [`crate::study::index::open::open_or_build`]): while another process (a background
//! `scoresheet index`, another reviewer) builds the index of the file, it answers by
//! reading the file through, as the first search does, when that is quick (a small file;
//! searches always), says so in the pane, and looks again every [`LOOK_AGAIN`] until the
//! index is there, then answers the tree at the cursor from it.
//!
//! A compressed file is read from the decoded copy its list made ([`Decoded`], sent with
//! each request), once that holds the whole text; its index is the file's own, as for a
//! plain file.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

use crate::app::study::StudyJob;
use crate::app::Done;
use crate::pgn::chunks::CHUNK;
use crate::position::Position;
use crate::store::save::Spliced;
use crate::study::index::cache::Stamp;
use crate::study::index::open::{open_or_build_from, read_through, Opening, WhenBusy};
use crate::study::index::patch::{carry, Replaced};
use crate::study::index::{Damage, Index};

/// What the pane says of a tree answered while another process builds the file's index.
pub const ELSEWHERE: &str = "index being built by another scoresheet…";

/// How often the thread looks whether the index another process builds is there.
const LOOK_AGAIN: Duration = Duration::from_millis(300);

/// Files up to this size are read through for each tree while another process builds
/// their index (a fraction of a second on two cores); the trees of bigger ones wait for
/// the index, as reading them at every move of the cursor would compete with its build.
const READ_THROUGH_MAX: u64 = 16 << 20;

/// An answer of the thread: to a request (`asked`), or one it sends by itself (the tree
/// at the cursor again, from an index another process has just built).
struct Reply {
    asked: bool,
    done: Done,
}

/// What the thread is sent: a request of the app (with the decoded text of its file, when
/// that is compressed), or a save to carry an index over.
enum Job {
    Ask(StudyJob, Option<Decoded>),
    Carry(PathBuf, Spliced),
}

/// The whole decoded text of a compressed file (the copy its list made), and the version
/// of the file it is of: its size and modification time when the copy was started. An
/// index built from it is stored only if the file is still that version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The copy.
    pub text: PathBuf,
    /// The compressed file's size.
    pub size: u64,
    /// Its modification time.
    pub modified: SystemTime,
}

/// The thread and its two channels.
pub struct Study {
    jobs: mpsc::Sender<Job>,
    answers: mpsc::Receiver<Reply>,
    /// Requests sent and not answered yet.
    waiting: usize,
}

impl Study {
    /// Starts the thread; `None` when the system grants none.
    pub fn start() -> Option<Study> {
        let (jobs, rx) = mpsc::channel::<Job>();
        let (tx, answers) = mpsc::channel::<Reply>();
        std::thread::Builder::new()
            .name("study".into())
            .spawn(move || work(rx, tx))
            .ok()?;
        Some(Study {
            jobs,
            answers,
            waiting: 0,
        })
    }

    /// Sends a request; `decoded` is the whole text of its file, when that is compressed.
    pub fn ask(&mut self, job: StudyJob, decoded: Option<Decoded>) {
        if self.jobs.send(Job::Ask(job, decoded)).is_ok() {
            self.waiting += 1;
        }
    }

    /// Says that the app's save put a game in place in `path` (`spliced`): the file's
    /// index is carried over to the file as saved before the requests sent after this are
    /// answered, so they need not read the file again. Nothing is answered.
    pub fn carry(&mut self, path: PathBuf, spliced: Spliced) {
        let _ = self.jobs.send(Job::Carry(path, spliced));
    }

    /// True while answers are awaited.
    pub fn busy(&self) -> bool {
        self.waiting > 0
    }

    /// The answers that came in.
    pub fn answers(&mut self) -> Vec<Done> {
        let got: Vec<Reply> = self.answers.try_iter().collect();
        let asked = got.iter().filter(|r| r.asked).count();
        self.waiting = self.waiting.saturating_sub(asked);
        got.into_iter().map(|r| r.done).collect()
    }
}

fn work(rx: mpsc::Receiver<Job>, tx: mpsc::Sender<Reply>) {
    let mut files = Files::new(crate::study::index::cache::dir());
    loop {
        let first = if files.elsewhere.is_empty() {
            match rx.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        } else {
            match rx.recv_timeout(LOOK_AGAIN) {
                Ok(job) => job,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    for done in files.look_again() {
                        if tx.send(Reply { asked: false, done }).is_err() {
                            return;
                        }
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
        };
        // Of the tree requests waiting, only the latest matters; each skipped one is
        // still answered (as moved on) so that the count of requests waiting stays right.
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        let last_tree = batch
            .iter()
            .rposition(|j| matches!(j, Job::Ask(StudyJob::Tree { .. }, _)));
        for (i, job) in batch.into_iter().enumerate() {
            let job = match job {
                Job::Ask(job, decoded) => {
                    files.decoded(job.path(), decoded);
                    job
                }
                Job::Carry(path, spliced) => {
                    files.carry(&path, &spliced);
                    continue;
                }
            };
            let done = match job {
                StudyJob::Tree { fen, .. } if Some(i) != last_tree => Done::Tree {
                    fen,
                    tree: Err(String::new()),
                    note: String::new(),
                },
                StudyJob::Tree { path, fen } => files.tree(&path, fen),
                StudyJob::Search { path, fen } => files.search(path, fen),
            };
            if tx.send(Reply { asked: true, done }).is_err() {
                return;
            }
        }
    }
}

/// The threads to read with: all cores.
fn jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What the thread knows of the files it was asked about.
struct Files {
    /// The folder of the indexes.
    dir: PathBuf,
    /// The index of each file, with the version of the file it is of.
    indexes: HashMap<PathBuf, (Stamp, Index)>,
    /// The files whose index another process is building, each with the position (FEN)
    /// whose tree is to be answered again from it when it is there.
    elsewhere: HashMap<PathBuf, Option<String>>,
    /// The decoded text of each compressed file asked about, as the last request said.
    decoded: HashMap<PathBuf, Decoded>,
}

impl Files {
    fn new(dir: PathBuf) -> Files {
        Files {
            dir,
            indexes: HashMap::new(),
            elsewhere: HashMap::new(),
            decoded: HashMap::new(),
        }
    }

    /// Notes the decoded text of `path` a request came with (or that it came without).
    fn decoded(&mut self, path: &Path, decoded: Option<Decoded>) {
        match decoded {
            Some(d) => self.decoded.insert(path.to_path_buf(), d),
            None => self.decoded.remove(path),
        };
    }

    /// The stamp of `path`: as it is now, or for a compressed file, of the version its
    /// decoded text is of. A compressed file without its decoded text cannot be read here
    /// (reading it would mean decompressing it at each request).
    fn stamp(&self, path: &Path) -> Result<Stamp, String> {
        if let Some(d) = self.decoded.get(path) {
            return Stamp::at(path, d.size, d.modified, &self.dir).map_err(|e| cannot(path, e));
        }
        if crate::store::Compression::of_file(path).is_ok_and(|c| c.is_some()) {
            return Err(format!(
                "{} is compressed: open its list (:e {0}) to search it and see its tree \
                 (the list decompresses it)",
                path.display()
            ));
        }
        Stamp::of_in(path, &self.dir).map_err(|e| cannot(path, e))
    }

    /// Where the text of `path` is read from: its decoded copy, when compressed.
    fn text<'a>(&'a self, path: &'a Path) -> &'a Path {
        self.decoded.get(path).map_or(path, |d| d.text.as_path())
    }

    /// The tree of `path` at `fen`: from its index; while another process builds that,
    /// by reading a small file through, else only saying so.
    fn tree(&mut self, path: &Path, fen: String) -> Done {
        let (tree, note) = match self.ask(path, &fen, |index, pos| index.tree(pos)) {
            Ok(Some(tree)) => (Ok(tree), String::new()),
            Err(e) => (Err(e), String::new()),
            Ok(None) => {
                self.elsewhere.insert(path.to_path_buf(), Some(fen.clone()));
                let text = self.text(path);
                let small = std::fs::metadata(text).is_ok_and(|m| m.len() <= READ_THROUGH_MAX);
                if small {
                    (
                        read(path, text, &fen).map(|(_, tree)| tree),
                        ELSEWHERE.into(),
                    )
                } else {
                    (
                        Err(format!("{ELSEWHERE}; the tree shows when it is ready")),
                        String::new(),
                    )
                }
            }
        };
        Done::Tree { fen, tree, note }
    }

    /// The games of `path` that reach `fen`: from its index; while another process
    /// builds that, by reading the file through (a search is asked once, not at every
    /// move of the cursor).
    fn search(&mut self, path: PathBuf, fen: String) -> Done {
        let found = match self.ask(&path, &fen, |index, pos| {
            let hits = index.search(pos)?;
            Ok(hits.into_iter().map(|h| (h.game.number, h.ply)).collect())
        }) {
            Ok(Some(found)) => Ok(found),
            Err(e) => Err(e),
            Ok(None) => {
                self.elsewhere.entry(path.clone()).or_insert(None);
                read(&path, self.text(&path), &fen).map(|(hits, _)| hits)
            }
        };
        Done::Searched { path, fen, found }
    }

    /// Carries the index of `path` over the app's save `s` (see [`Study::carry`]): the one
    /// held, when it is of the file before, else the one in the cache.
    fn carry(&mut self, path: &Path, s: &Spliced) {
        let stamp = |(size, time)| Stamp::at(path, size, time, &self.dir);
        let (Ok(before), Ok(after)) = (stamp(s.before), stamp(s.after)) else {
            return;
        };
        let held = self.indexes.get(path).filter(|(at, _)| *at == before);
        let r = Replaced {
            offset: s.offset,
            old: &s.old,
            new: &s.new,
        };
        let lang = crate::notation::Lang::english();
        if let Ok(Some(index)) = carry(held.map(|(_, i)| i), &before, &after, &r, lang) {
            self.indexes.insert(path.to_path_buf(), (after, index));
        }
    }

    /// Looks whether the indexes other processes were building are there (or whether
    /// they gave up, leaving this thread to build them): the trees waiting for them are
    /// answered from them.
    fn look_again(&mut self) -> Vec<Done> {
        let mut done = Vec::new();
        let paths: Vec<PathBuf> = self.elsewhere.keys().cloned().collect();
        for path in paths {
            let answered = match self.stamp(&path) {
                Ok(stamp) => match open_index(&stamp, self.text(&path), false) {
                    Ok(Opening::BuiltElsewhere) => continue,
                    Ok(Opening::Ready(opened)) => {
                        self.indexes.insert(path.clone(), (stamp, opened.index));
                        Ok(())
                    }
                    Err(e) => Err(cannot(&path, e)),
                },
                Err(e) => Err(e),
            };
            let Some(Some(fen)) = self.elsewhere.remove(&path) else {
                continue;
            };
            done.push(match answered {
                Ok(()) => self.tree(&path, fen),
                Err(e) => Done::Tree {
                    fen,
                    tree: Err(e),
                    note: String::new(),
                },
            });
        }
        done
    }

    /// Asks the index of `path` (opened or built as needed) about the position of `fen`;
    /// an index found damaged while answering is rebuilt and asked again. `None` while
    /// another process builds the index.
    fn ask<T>(
        &mut self,
        path: &Path,
        fen: &str,
        question: impl Fn(&Index, &Position) -> Result<T, Damage>,
    ) -> Result<Option<T>, String> {
        let pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
        let stamp = self.stamp(path)?;
        let mut rebuild = false;
        loop {
            let fresh = self.indexes.get(path).is_some_and(|(s, _)| *s == stamp);
            if !fresh || rebuild {
                match open_index(&stamp, self.text(path), rebuild).map_err(|e| cannot(path, e))? {
                    Opening::Ready(opened) => {
                        self.indexes
                            .insert(path.to_path_buf(), (stamp.clone(), opened.index));
                        self.elsewhere.remove(path);
                    }
                    Opening::BuiltElsewhere => {
                        self.indexes.remove(path);
                        return Ok(None);
                    }
                }
            }
            let (_, index) = self.indexes.get(path).ok_or("no index")?;
            match question(index, &pos) {
                Ok(answer) => return Ok(Some(answer)),
                Err(why) if rebuild => {
                    return Err(format!("the index of {}: {why}", path.display()))
                }
                Err(_) => rebuild = true,
            }
        }
    }
}

/// Opens the index of `stamp`'s file, whose text is `text`, building it unless another
/// process is at it.
fn open_index(stamp: &Stamp, text: &Path, rebuild: bool) -> std::io::Result<Opening> {
    let lang = crate::notation::Lang::english();
    open_or_build_from(
        stamp,
        text,
        jobs(),
        CHUNK,
        lang,
        rebuild,
        WhenBusy::GiveWay,
        |_| Ok(()),
    )
}

/// The games of `path` (whose text is `text`) that reach `fen` and the tree there, by
/// reading it through.
fn read(
    path: &Path,
    text: &Path,
    fen: &str,
) -> Result<(Vec<(u64, u32)>, crate::study::tree::Tree), String> {
    let pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
    let file = File::open(text).map_err(|e| cannot(path, e))?;
    let lang = crate::notation::Lang::english();
    read_through(&file, jobs(), CHUNK, lang, &pos).map_err(|e| cannot(path, e))
}

/// What the pane says of a file that cannot be read.
fn cannot(path: &Path, e: std::io::Error) -> String {
    format!("cannot read {}: {e}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::index::cache::{self, Found};

    /// Two games from the start, and one from a position of its own.
    const PGN: &str = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
                       [Result \"0-1\"]\n\n1. e4 c5 0-1\n\n\
                       [Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n";

    /// A folder holding `text` as `games.pgn`, and the files of a study thread whose
    /// indexes go in it.
    fn files_with(text: &str) -> (tempfile::TempDir, PathBuf, Files) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("games.pgn");
        std::fs::write(&path, text).expect("write the games");
        let files = Files::new(dir.path().join("index"));
        (dir, path, files)
    }

    fn sans(done: &Done) -> (Vec<(String, u64)>, String) {
        let Done::Tree {
            tree: Ok(tree),
            note,
            ..
        } = done
        else {
            panic!("no tree: {done:?}")
        };
        let moves = tree.branches.iter().map(|b| (b.san.clone(), b.games));
        (moves.collect(), note.clone())
    }

    /// A compressed file is read from the decoded copy its list made, once that is whole:
    /// its tree and search count its games (not its compressed bytes), and its index is
    /// kept as the file's own, when the file is still the version the copy is of. Without
    /// the copy, the answer says how to get one.
    #[test]
    fn a_compressed_file_is_answered_from_its_decoded_copy() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let packed = dir.path().join("games.pgn.zst");
        let zst = |text: &str| zstd::encode_all(text.as_bytes(), 3).expect("compress");
        std::fs::write(&packed, zst(PGN)).expect("write the file");
        let index_dir = dir.path().join("index");
        let mut files = Files::new(index_dir.clone());
        let start = Position::start().fen();
        let Done::Tree { tree: Err(e), .. } = files.tree(&packed, start.clone()) else {
            panic!("a tree of compressed bytes")
        };
        assert!(e.contains("is compressed: open its list"), "{e}");
        let Done::Searched { found: Err(e), .. } = files.search(packed.clone(), start.clone())
        else {
            panic!("a search of compressed bytes")
        };
        assert!(e.contains("is compressed"), "{e}");

        let copy = crate::store::Unpacked::create_in(&dir.path().join("copies"), &packed)
            .expect("decompress")
            .expect("a copy");
        let (text, size, modified) = copy.whole_text().expect("a whole copy");
        let decoded = Decoded {
            text: text.to_path_buf(),
            size,
            modified,
        };
        files.decoded(&packed, Some(decoded.clone()));
        let tree = files.tree(&packed, start.clone());
        assert_eq!(
            sans(&tree).0,
            [("e4".to_string(), 2), ("d4".to_string(), 1)]
        );
        let Done::Searched {
            found: Ok(found), ..
        } = files.search(packed.clone(), start.clone())
        else {
            panic!("no search")
        };
        assert_eq!(found, [(1, 0), (2, 0), (3, 0)]);
        let stamp = Stamp::of_in(&packed, &index_dir).expect("a stamp");
        assert!(matches!(cache::find(&stamp), Found::Fresh(_)));

        // Changed by another program since the copy was made: the copy's version is
        // answered, and no index of it is kept for the file as it is now.
        std::fs::remove_dir_all(&index_dir).expect("forget the index");
        let mut files = Files::new(index_dir.clone());
        files.decoded(&packed, Some(decoded));
        let more = format!("{PGN}\n[Result \"*\"]\n\n1. c4 *\n");
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&packed, zst(&more)).expect("rewrite the file");
        let tree = files.tree(&packed, start);
        assert_eq!(sans(&tree).0.len(), 2, "the copy's games");
        let stamp = Stamp::of_in(&packed, &index_dir).expect("a stamp");
        assert!(!matches!(cache::find(&stamp), Found::Fresh(_)));
    }

    #[test]
    fn while_another_process_builds_the_index_the_tree_is_read_through_then_taken_from_it() {
        let (dir, path, mut files) = files_with(PGN);
        let stamp = files.stamp(&path).expect("a stamp");
        // Another process holds the builders' lock.
        let lock = cache::lock_building(&stamp)
            .expect("the cache can be written")
            .expect("nobody else holds the lock");
        let start = Position::start().fen();
        let done = files.tree(&path, start.clone());
        let counted = vec![("e4".to_string(), 2), ("d4".to_string(), 1)];
        assert_eq!(sans(&done), (counted.clone(), ELSEWHERE.to_string()));
        assert!(!stamp.index_file().exists(), "this process built nothing");
        // A search meanwhile is answered too, by reading the file through.
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let Done::Searched { found, .. } = files.search(path.clone(), after_e4.into()) else {
            panic!("no search answered")
        };
        assert_eq!(found, Ok(vec![(1, 1), (2, 1)]));
        assert!(files.look_again().is_empty(), "nothing new while it builds");

        // The other process stores its index and lets go of the lock: the tree at the
        // cursor comes again, from the index, without the note.
        let mut other = Files::new(dir.path().join("other"));
        assert!(matches!(
            other.tree(&path, start.clone()),
            Done::Tree { tree: Ok(_), .. }
        ));
        let built = other.stamp(&path).expect("a stamp").index_file();
        std::fs::copy(built, stamp.index_file()).expect("the other index is stored");
        drop(lock);
        let again = files.look_again();
        assert_eq!(again.len(), 1, "{again:?}");
        assert_eq!(sans(&again[0]), (counted, String::new()));
        assert!(files.elsewhere.is_empty());
        assert!(files.indexes.contains_key(&path), "answered from the index");
    }

    /// The app's save of one game in place carries the index over to the file as saved:
    /// stored in the cache for the new file, without reading the file and without the
    /// builders' lock (another process holds it here, so no build could happen), and the
    /// tree after the save comes from it, as an index built from the saved file gives it.
    #[test]
    fn after_a_save_in_place_the_tree_comes_from_the_index_carried_over() {
        use std::os::unix::fs::MetadataExt;
        let (dir, path, mut files) = files_with(PGN);
        let start = Position::start().fen();
        let counted = vec![("e4".to_string(), 2), ("d4".to_string(), 1)];
        assert_eq!(sans(&files.tree(&path, start.clone())).0, counted);
        let before = files.stamp(&path).expect("a stamp");
        let built = std::fs::metadata(before.index_file()).expect("the index is stored");
        let lock = cache::lock_building(&before)
            .expect("the cache can be written")
            .expect("nobody else holds the lock");

        // The second game saved with another main line (and a longer text).
        let text = PGN.as_bytes();
        let e = &crate::pgn::index(text)[1];
        let slot = crate::store::save::Slot::of(text, e.offset as usize, e.len as usize);
        let game = "[Result \"0-1\"]\n\n1. d4 Nf6 2. c4 e6 0-1\n";
        let (_, spliced) =
            crate::store::save::save_game_spliced(&path, Some(&slot), game, false).expect("saved");
        files.carry(&path, &spliced.expect("saved in place"));
        let after = files.stamp(&path).expect("a stamp");
        assert_ne!(after, before);
        let Found::Fresh(_) = cache::find(&after) else {
            panic!("no index of the saved file in the cache")
        };
        let carried = std::fs::metadata(after.index_file()).expect("the index is stored");
        assert_ne!(carried.ino(), built.ino(), "a new index was stored");

        let moved = vec![("d4".to_string(), 2), ("e4".to_string(), 1)];
        assert_eq!(
            sans(&files.tree(&path, start.clone())),
            (moved.clone(), String::new())
        );
        let after_d4 = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1";
        let Done::Searched { found, .. } = files.search(path.clone(), after_d4.into()) else {
            panic!("no search answered")
        };
        assert_eq!(found, Ok(vec![(2, 1), (3, 1)]));
        drop(lock);
        // The same as an index built from the saved file says; and the one carried over
        // was not written again.
        let mut other = Files::new(dir.path().join("other"));
        assert_eq!(sans(&other.tree(&path, start)), (moved, String::new()));
        let now = std::fs::metadata(after.index_file()).expect("the index is stored");
        assert_eq!(
            (now.ino(), now.mtime_nsec()),
            (carried.ino(), carried.mtime_nsec())
        );
    }

    #[test]
    fn the_tree_of_a_big_file_waits_for_the_index_another_process_builds() {
        // Padding in a comment makes the file bigger than is read at every move.
        let padding = "x".repeat(READ_THROUGH_MAX as usize);
        let (_dir, path, mut files) = files_with(&format!("{PGN}\n{{{padding}}}\n"));
        let stamp = files.stamp(&path).expect("a stamp");
        let lock = cache::lock_building(&stamp)
            .expect("the cache can be written")
            .expect("nobody else holds the lock");
        let done = files.tree(&path, Position::start().fen());
        let Done::Tree {
            tree: Err(status), ..
        } = &done
        else {
            panic!("a tree read through: {done:?}")
        };
        assert!(status.starts_with(ELSEWHERE), "{status}");
        // The other process gives up without an index: this one builds it.
        drop(lock);
        let again = files.look_again();
        assert_eq!(again.len(), 1, "{again:?}");
        assert_eq!(sans(&again[0]).0[0], ("e4".to_string(), 2));
        assert!(stamp.index_file().exists());
    }
}
