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
#[path = "study_tests.rs"]
mod tests;
