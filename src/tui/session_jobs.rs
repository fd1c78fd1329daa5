//! The work the session does in the background beside the screen, polled by the loop
//! between frames: the list's loader and the check of its games, `:annotate`'s
//! engine, the study thread (search, tree) and training's jobs.

use super::*;
use crate::app::study::StudyJob;

impl Session {
    /// Runs `:annotate`'s engine while the app wants one, stops it when it no longer
    /// does, and gives the app what it reported.
    pub fn follow_annotation(&mut self, app: &mut App) {
        match (&app.annotating, &self.annotator) {
            (Some(a), None) => {
                // The configured engine ([engine]), searching one line.
                let config = crate::engine::EngineConfig {
                    multipv: 1,
                    ..app.engine.config.clone()
                };
                self.annotator = Some(crate::tui::annotator::Annotator::start(
                    config,
                    app.game.clone(),
                    a.limit,
                ));
            }
            (None, Some(_)) => self.annotator = None,
            _ => {}
        }
        let Some(annotator) = &self.annotator else {
            return;
        };
        let (reports, over) = annotator.take();
        if over {
            self.annotator = None;
        }
        for done in reports {
            app.update(done);
        }
    }

    /// True while `:annotate`'s engine works.
    pub fn annotating(&self) -> bool {
        self.annotator.is_some()
    }

    /// Starts the check of every game of the list's file (read from the decoded copy
    /// when it is compressed), so that the list marks the games with a problem.
    pub(super) fn start_check(&mut self, app: &mut App) {
        let Some(list) = app.list() else {
            return;
        };
        let path = match &self.unpacked {
            Some(copy) if same_file(copy.source(), &list.path) => copy.text_path().to_path_buf(),
            _ => list.path.clone(),
        };
        match crate::catalog::check::Checker::start(&path) {
            Ok(checker) => self.checker = Some(checker),
            Err(e) => tell(
                app,
                Done::notice(format!("the games of the list are not checked: {e}")),
            ),
        }
    }

    /// Gives the app what the check of the list's games found since the last call.
    pub fn take_checked(&mut self, app: &mut App) {
        let Some(checker) = &self.checker else {
            return;
        };
        while let Some(event) = checker.try_next() {
            let over = !matches!(event, crate::catalog::check::CheckEvent::Found(_));
            app.update(Done::Checked(event));
            if over {
                self.checker = None;
                return;
            }
        }
    }

    /// True while the list's file is still being read, or training works in the
    /// background: the loop looks for what they send more often.
    pub fn listing(&self) -> bool {
        self.loader.is_some() || self.judging.is_some() || self.gatherer.is_some()
    }

    /// Gives the app what the drill being gathered reported (the engine's progress,
    /// then the drill), and carries out what the app asks in return; stops the work
    /// when the app no longer wants it (Esc). True when the app asks to quit.
    pub fn take_gathered(&mut self, app: &mut App) -> anyhow::Result<bool> {
        if app.train.gathering.is_none() {
            // Dropping it cancels the engine's work.
            self.gatherer = None;
        }
        let Some(gatherer) = &self.gatherer else {
            return Ok(false);
        };
        let (reports, over) = gatherer.take();
        if over {
            self.gatherer = None;
        }
        for done in reports {
            let effect = app.update(done);
            if self.carry_out(app, effect)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Gives the app what training's work in the background sent (a drill, an
    /// engine's judgement) when it came, and carries out what the app asks in
    /// return; true when that is to quit.
    pub fn take_judged(&mut self, app: &mut App) -> anyhow::Result<bool> {
        let Some(receiver) = &self.judging else {
            return Ok(false);
        };
        let done = match receiver.try_recv() {
            Ok(done) => done,
            Err(std::sync::mpsc::TryRecvError::Empty) => return Ok(false),
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                // Its thread died: whatever waits for it is told, so that nothing
                // waits for ever.
                self.judging = None;
                let why = "training's work in the background ended without an answer";
                for done in [Done::Judged(Err(why.into())), Done::Solved(Err(why.into()))] {
                    let effect = app.update(done);
                    if self.carry_out(app, effect)? {
                        return Ok(true);
                    }
                }
                if !app.message.error {
                    tell(app, Done::refusal(why));
                }
                return Ok(false);
            }
        };
        self.judging = None;
        let effect = app.update(done);
        self.carry_out(app, effect)
    }

    /// Counts, in the background, the games before a recovered game in its file when
    /// no list will tell its number (a large file takes a while to read up to it).
    pub(super) fn count_games_before(&mut self, app: &App) {
        let Some((path, offset)) = app.number_wanted() else {
            return;
        };
        let (send, receive) = std::sync::mpsc::channel();
        self.numbering = Some(receive);
        std::thread::spawn(move || {
            let number = save::game_number_at(&path, offset).ok();
            let _ = send.send(Done::Numbered {
                path,
                offset,
                number,
            });
        });
    }

    /// Gives the app the number of a recovered game once it was counted.
    pub fn take_numbered(&mut self, app: &mut App) {
        let Some(receiver) = &self.numbering else {
            return;
        };
        match receiver.try_recv() {
            Ok(done) => tell(app, done),
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            // Its thread died: the corner names the file only.
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {}
        }
        self.numbering = None;
    }

    /// Gives the app the rows the loader read since the last call (a few batches
    /// at most, so that keys are not kept waiting).
    pub fn take_listed(&mut self, app: &mut App) {
        let Some(loader) = &self.loader else {
            return;
        };
        for _ in 0..8 {
            let Some(event) = loader.try_next() else {
                return;
            };
            let last = !matches!(event, crate::catalog::LoadEvent::Batch(_));
            let done = matches!(event, crate::catalog::LoadEvent::Done);
            app.update(Done::Listed(event));
            if last {
                self.loader = None;
                if done {
                    // The decoded copy of a compressed file now holds all its text.
                    if let Some(copy) = &mut self.unpacked {
                        copy.mark_whole();
                    }
                    self.start_check(app);
                }
                return;
            }
        }
    }

    /// Sends the study thread what the app asks (the tree at the cursor) and gives the
    /// app the answers that came in.
    pub fn take_study(&mut self, app: &mut App) {
        // Requests that waited for the list to decompress its file, once it has (or
        // stopped: they are then answered that the file cannot be read so).
        if !self.held.is_empty() && self.loader.is_none() {
            for job in std::mem::take(&mut self.held) {
                self.ask_study(app, job);
            }
        }
        if let Some(job) = app.take_study_request() {
            self.ask_study(app, job);
        }
        let Some(study) = &mut self.study else {
            return;
        };
        for done in study.answers() {
            app.update(done);
        }
    }

    /// True while the study thread works on something asked.
    pub fn studying(&self) -> bool {
        self.study.as_ref().is_some_and(|s| s.busy())
    }

    /// After a save that put a game in place in `path` (`spliced`): the study thread
    /// carries the file's index over to the file as saved, when it holds one or the cache
    /// does (else nothing: no thread is started for a file never searched).
    pub(super) fn carry_index(
        &mut self,
        path: &std::path::Path,
        spliced: crate::store::save::Spliced,
    ) {
        if self.study.is_none() {
            let indexed = crate::study::index::cache::Stamp::of(path)
                .is_ok_and(|stamp| stamp.index_file().exists());
            if !indexed {
                return;
            }
            self.study = crate::tui::study::Study::start();
        }
        if let Some(study) = &mut self.study {
            study.carry(path.to_path_buf(), spliced);
        }
    }

    pub(super) fn ask_study(&mut self, app: &mut App, job: StudyJob) {
        // A compressed file is read from the decoded copy its list makes: a request waits
        // until the copy holds the whole text (read any earlier, it would count the games
        // decompressed so far, and its index would be of them).
        let copy = self
            .unpacked
            .as_ref()
            .filter(|c| same_file(c.source(), job.path()));
        let decoded = match copy.map(|c| c.whole_text()) {
            Some(Some((text, size, modified))) => Some(crate::tui::study::Decoded {
                text: text.to_path_buf(),
                size,
                modified,
            }),
            Some(None) if self.loader.is_some() => {
                // Of the trees asked meanwhile, only the latest is of use.
                if matches!(job, StudyJob::Tree { .. }) {
                    self.held.retain(|j| !matches!(j, StudyJob::Tree { .. }));
                }
                self.held.push(job);
                return;
            }
            _ => None,
        };
        if self.study.is_none() {
            self.study = crate::tui::study::Study::start();
        }
        match &mut self.study {
            Some(study) => study.ask(job, decoded),
            None => {
                app.update(Done::refusal("the system grants no thread to search with"));
            }
        }
    }
}
