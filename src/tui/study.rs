//! The study thread: searches and opening trees for the reviewer, computed off the UI
//! thread. It keeps the index of each file it has opened (checked against the file's
//! size and modification time at every request, so an edited file gets a new one), and
//! of the tree requests waiting it answers only the latest (the cursor has moved past the
//! others).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use crate::app::study::StudyJob;
use crate::app::Done;
use crate::pgn::chunks::CHUNK;
use crate::position::Position;
use crate::study::index::cache::Stamp;
use crate::study::index::open::open_or_build;
use crate::study::index::{Damage, Index};

/// The thread and its two channels.
pub struct Study {
    jobs: mpsc::Sender<StudyJob>,
    answers: mpsc::Receiver<Done>,
    /// Requests sent and not answered yet.
    waiting: usize,
}

impl Study {
    /// Starts the thread; `None` when the system grants none.
    pub fn start() -> Option<Study> {
        let (jobs, rx) = mpsc::channel::<StudyJob>();
        let (tx, answers) = mpsc::channel::<Done>();
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

    /// Sends a request.
    pub fn ask(&mut self, job: StudyJob) {
        if self.jobs.send(job).is_ok() {
            self.waiting += 1;
        }
    }

    /// True while answers are awaited.
    pub fn busy(&self) -> bool {
        self.waiting > 0
    }

    /// The answers that came in.
    pub fn answers(&mut self) -> Vec<Done> {
        let got: Vec<Done> = self.answers.try_iter().collect();
        self.waiting = self.waiting.saturating_sub(got.len());
        got
    }
}

fn work(rx: mpsc::Receiver<StudyJob>, tx: mpsc::Sender<Done>) {
    let mut indexes: HashMap<PathBuf, (Stamp, Index)> = HashMap::new();
    while let Ok(first) = rx.recv() {
        // Of the tree requests waiting, only the latest matters; each skipped one is
        // still answered (as moved on) so that the count of requests waiting stays right.
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        let last_tree = batch
            .iter()
            .rposition(|j| matches!(j, StudyJob::Tree { .. }));
        for (i, job) in batch.into_iter().enumerate() {
            let done = match job {
                StudyJob::Tree { fen, .. } if Some(i) != last_tree => Done::Tree {
                    fen,
                    tree: Err(String::new()),
                },
                StudyJob::Tree { path, fen } => {
                    let tree = ask(&mut indexes, &path, &fen, |index, pos| index.tree(pos));
                    Done::Tree { fen, tree }
                }
                StudyJob::Search { path, fen } => {
                    let found = ask(&mut indexes, &path, &fen, |index, pos| {
                        let hits = index.search(pos)?;
                        Ok(hits.into_iter().map(|h| (h.game.number, h.ply)).collect())
                    });
                    Done::Searched { path, fen, found }
                }
            };
            if tx.send(done).is_err() {
                return;
            }
        }
    }
}

/// Asks the index of `path` (opened or built as needed) about the position of `fen`; an
/// index found damaged while answering is rebuilt and asked again.
fn ask<T>(
    indexes: &mut HashMap<PathBuf, (Stamp, Index)>,
    path: &Path,
    fen: &str,
    question: impl Fn(&Index, &Position) -> Result<T, Damage>,
) -> Result<T, String> {
    let pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let stamp = Stamp::of(path).map_err(cannot)?;
    let mut rebuild = false;
    loop {
        let fresh = indexes.get(path).is_some_and(|(s, _)| *s == stamp);
        if !fresh || rebuild {
            let lang = crate::notation::Lang::english();
            let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
            let opened =
                open_or_build(path, jobs, CHUNK, lang, rebuild, |_| Ok(())).map_err(cannot)?;
            indexes.insert(path.to_path_buf(), (stamp.clone(), opened.index));
        }
        let (_, index) = indexes.get(path).ok_or("no index")?;
        match question(index, &pos) {
            Ok(answer) => return Ok(answer),
            Err(why) if rebuild => return Err(format!("the index of {}: {why}", path.display())),
            Err(_) => rebuild = true,
        }
    }
}
