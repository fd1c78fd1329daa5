//! The study thread: searches and opening trees for the reviewer, computed off the UI
//! thread. It keeps the index of each file it has opened (checked against the file's
//! size and modification time at every request, so an edited file gets a new one), and
//! of the tree requests waiting it answers only the latest (the cursor has moved past the
//! others).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc;

use crate::app::study::StudyJob;
use crate::app::Done;
use crate::position::Position;
use crate::study::index::cache::Stamp;
use crate::study::index::Index;
use crate::study::tree::Tree;

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
                    let tree = answer(&mut indexes, &path, &fen).map(|(index, pos)| {
                        let hits = index.find(&pos);
                        Tree::build(&pos, hits.into_iter().map(|h| (h.next, h.game.info)))
                    });
                    Done::Tree { fen, tree }
                }
                StudyJob::Search { path, fen } => {
                    let found = answer(&mut indexes, &path, &fen).map(|(index, pos)| {
                        let hits = index.find(&pos);
                        hits.into_iter().map(|h| (h.game.number, h.ply)).collect()
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

/// The index of `path` (opened or built as needed) and the position of `fen`.
fn answer<'a>(
    indexes: &'a mut HashMap<PathBuf, (Stamp, Index)>,
    path: &std::path::Path,
    fen: &str,
) -> Result<(&'a Index, Position), String> {
    let pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
    let stamp = Stamp::of(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let fresh = indexes.get(path).is_some_and(|(s, _)| *s == stamp);
    if !fresh {
        let lang = crate::notation::Lang::english();
        let jobs = crate::cli::input::jobs(None);
        let chunk = crate::cli::parallel_chunk();
        let (index, ..) = crate::cli::search::open_index(path, jobs, chunk, lang, true)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        indexes.insert(path.to_path_buf(), (stamp, index));
    }
    let (_, index) = indexes.get(path).ok_or("no index")?;
    Ok((index, pos))
}
