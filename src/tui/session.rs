//! The files behind a recording session: the journal (written and synced after
//! every change, before the screen shows it), the game's place in its PGN file
//! (so `:w` rewrites just that game), and the unsaved games of earlier runs.
//!
//! No game is thrown away unless the user says so (`:q!`, a discard confirmed in
//! the box): a game left unsaved by `:new!`, `:e!` or a recovery stays in its
//! journal and in the box's list, and a recovered game's journal is taken over
//! (renamed, not copied) so that no journal is deleted before its game is safe.

use std::path::{Path, PathBuf};

use crate::app::{App, Done, Effect, Placed, Recovery};
use crate::catalog::Loader;
use crate::game::Game;
use crate::pgn::writer::write_game_to_string;
use crate::store::journal::Journal;
use crate::store::recover::{self, Broken, Recoverable};
use crate::store::save::{self, SaveError, Slot};
use crate::store::{same_file, target, Loaded, Opened, Unpacked};

/// The session's files.
pub struct Session {
    dir: PathBuf,
    journal: Option<Journal>,
    /// Where the game is in its file, once it was loaded from it or saved there
    /// (or recovered with its place), and the game as it stands there when known.
    slot: Option<(PathBuf, Slot, Option<Game>)>,
    /// The unsaved games the box offers, in its order.
    waiting: Vec<Recoverable>,
    /// Journals that cannot be read.
    broken: Vec<Broken>,
    /// Games of this run left unsaved in their journals (by `:new!`, `:e!` or a
    /// recovery): a scan skips them (this process is still running).
    aside: Vec<Recoverable>,
    /// The list's file being read in the background.
    loader: Option<Loader>,
    /// A decoded copy of the list's file, when it is compressed.
    unpacked: Option<Unpacked>,
    /// The thread that searches and builds opening trees, once one was asked for.
    study: Option<super::study::Study>,
    /// The last change could not be journaled (and the player was told): the next one
    /// that is says so, so that the warning does not outlive the fault unnoticed.
    unjournaled: bool,
    /// `:annotate`'s engine at work.
    annotator: Option<super::annotator::Annotator>,
    /// The check of every game of the list's file, once it is listed.
    checker: Option<crate::catalog::check::Checker>,
    /// Training's work in the background (an engine judging an answer): what it
    /// sends when done.
    judging: Option<std::sync::mpsc::Receiver<Done>>,
    /// A drill being gathered (by the engine too, for games without evaluations).
    gatherer: Option<super::train::Gatherer>,
    /// The number of a recovered game in its file, being counted (see
    /// [`App::number_wanted`]).
    numbering: Option<std::sync::mpsc::Receiver<Done>>,
    /// Requests of the study thread about a compressed file whose list is still
    /// decompressing it (see `ask_study`).
    held: Vec<crate::app::study::StudyJob>,
}

use lines::{describe, describe_broken, moves};

impl Session {
    /// Opens the journal directory and offers the unsaved games found there.
    pub fn start(app: &mut App) -> anyhow::Result<Session> {
        Ok(Session::start_in(app, crate::store::journal_dir()))
    }

    /// [`Session::start`] with the journals in `dir`.
    pub(crate) fn start_in(app: &mut App, dir: PathBuf) -> Session {
        let mut session = Session {
            dir,
            journal: None,
            slot: None,
            waiting: Vec::new(),
            broken: Vec::new(),
            aside: Vec::new(),
            loader: None,
            unpacked: None,
            study: None,
            unjournaled: false,
            annotator: None,
            checker: None,
            judging: None,
            gatherer: None,
            numbering: None,
            held: Vec::new(),
        };
        // Temporary files of a save killed last time, beside the game's file.
        if let Some(file) = &app.file {
            let dir = match file.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            target::clean_up(dir);
        }
        session.rescan(app);
        session.offer(app);
        session
    }

    /// Writes the journal when the game changed. Must run before the next frame.
    pub fn sync(&mut self, app: &mut App) {
        if !app.take_journal_due() {
            return;
        }
        let mut lost = None;
        if self.journal.as_ref().is_some_and(Journal::is_gone) {
            lost = self.journal.take().map(|j| j.path().to_path_buf());
        }
        // Absolute, so that a recovery started from another directory saves to
        // the same file.
        let out = app
            .file
            .as_deref()
            .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()));
        if self.journal.is_none() {
            // A saved game needs no journal: none is made (nor missed) until it
            // changes again.
            if !app.unsaved {
                return;
            }
            match Journal::create(&self.dir, out.as_deref()) {
                Ok(journal) => self.journal = Some(journal),
                Err(e) => {
                    self.unjournaled = true;
                    let dir = self.dir.display().to_string();
                    let why = e.to_string();
                    let why = if why.contains(&dir) {
                        why
                    } else {
                        format!("{dir}: {why}")
                    };
                    tell(
                        app,
                        Done::Journal {
                            journaled: false,
                            text: format!("nothing is journaled: {why}; :w saves the moves"),
                        },
                    );
                    return;
                }
            }
        }
        let slot = match (&self.slot, &app.file) {
            (Some((file, slot, _)), Some(out)) if file == out || same_file(file, out) => {
                Some(*slot)
            }
            _ => None,
        };
        if let Some(journal) = &mut self.journal {
            match journal.record(&app.game, out.as_deref(), !app.unsaved, slot.as_ref()) {
                // Just saved (the file is synced), so nothing needs the journal; its
                // older records would offer a stale copy after a crash, and a warning
                // would hide "saved to". It goes; the next change makes a new one, and
                // warns if that cannot be written either.
                Err(_) if !app.unsaved => self.finish_journal(),
                Err(e) => {
                    self.unjournaled = true;
                    tell(
                        app,
                        Done::Journal {
                            journaled: false,
                            text: format!(
                                "nothing is journaled: {} could not be written: {e}; :w saves \
                                 the moves",
                                journal.path().display()
                            ),
                        },
                    )
                }
                Ok(()) => {
                    if std::mem::take(&mut self.unjournaled) {
                        // Each record holds the whole game: the moves made meanwhile
                        // are in it too.
                        tell(
                            app,
                            Done::Journal {
                                journaled: true,
                                text: format!(
                                    "journaled again: the whole game is in {}, safe from a crash",
                                    journal.path().display()
                                ),
                            },
                        );
                    } else if let Some(lost) = lost {
                        tell(
                            app,
                            Done::refusal(format!(
                                "the journal {} was deleted while recording: the game is kept in \
                             a new one, {}",
                                lost.display(),
                                journal.path().display()
                            )),
                        );
                    }
                }
            }
        }
    }

    /// The number of the game on the screen in its file, from where it was written
    /// there (a game added by `:w`; counted when asked, not on every save, as a big
    /// file takes seconds to count); 1 for a game never written.
    fn written_number(&self, app: &App) -> usize {
        match (&self.slot, &app.file) {
            (Some((file, slot, _)), Some(now)) if same_file(file, now) => {
                save::game_number_at(file, slot.offset)
                    .ok()
                    .and_then(|n| usize::try_from(n).ok())
                    .unwrap_or(1)
            }
            _ => 1,
        }
    }

    fn save(&mut self, app: &mut App, path: &Path, force: bool) -> bool {
        let pgn = write_game_to_string(&app.game);
        let slot = match &self.slot {
            Some((file, slot, there)) if same_file(file, path) => {
                // The same game as in the file: its bytes stay as they are, in
                // whatever style they were written — if they are still there.
                if there.as_ref() == Some(&app.game) && save::still_there(path, slot) {
                    app.update(Done::Saved {
                        path: path.to_path_buf(),
                        unchanged: true,
                        placed: Placed::InPlace,
                    });
                    return true;
                }
                Some(*slot)
            }
            _ => None,
        };
        match save::save_game_spliced(path, slot.as_ref(), &pgn, force) {
            Ok((new, spliced)) => {
                if let Some(spliced) = spliced {
                    self.carry_index(path, spliced);
                }
                // A decoded copy of a compressed file no longer matches it: the list's
                // games load from the file itself from now on.
                if self
                    .unpacked
                    .as_ref()
                    .is_some_and(|c| same_file(c.source(), path))
                {
                    self.unpacked = None;
                }
                // The game was written again, or added: the list's rows follow its new
                // length (and place), and its row shows the tags as written.
                tell(
                    app,
                    Done::Rewrote {
                        path: path.to_path_buf(),
                        before: slot.map(|old| (old.offset, old.len)),
                        after: (new.offset, new.len),
                        text: pgn.clone(),
                    },
                );
                if app.list().is_some_and(|l| l.catalog.rechecking()) {
                    self.start_check(app);
                }
                // Added at the end of the file: counted once, here, so that the status
                // says which game of the file it now is (the saves after this one write
                // it back in its place and keep the number).
                let placed = match slot {
                    Some(_) => Placed::InPlace,
                    None => Placed::Added(save::game_number_at(path, new.offset).ok()),
                };
                let slot = new;
                self.slot = Some((path.to_path_buf(), slot, Some(app.game.clone())));
                app.update(Done::Saved {
                    path: path.to_path_buf(),
                    unchanged: false,
                    placed,
                });
                if let Some(c) = save::utf8_among_windows_1252(path, &pgn) {
                    let text = format!(
                        "{}; written as UTF-8, since {c} has no byte in Windows-1252, the \
                         encoding of the file's other games (a program reading the file so \
                         shows {c} wrong)",
                        app.message.text
                    );
                    tell(app, Done::notice(text));
                }
                true
            }
            Err(e) => {
                // Into its place in a file of many: say which game, as the user may
                // have several open in turn ("game 1,234 of all.pgn not saved: …").
                let mut text = match (slot, app.number) {
                    (Some(_), Some(n)) => format!(
                        "game {} of {} not saved: {}",
                        crate::plural::grouped(usize::try_from(n).unwrap_or(usize::MAX)),
                        path.display(),
                        e.reason()
                    ),
                    _ => format!("not saved: {e}"),
                };
                if matches!(e, SaveError::ReadOnly { .. }) {
                    text.push_str(": :w! replaces it anyway");
                }
                tell(app, Done::refusal(text));
                false
            }
        }
    }

    /// The game on the screen is done with: its journal goes when it holds
    /// nothing unsaved, else it stays (for the box, the next start and
    /// `scoresheet recover`).
    fn set_aside(&mut self) {
        let Some(journal) = self.journal.take() else {
            return;
        };
        match recover::read_journal(journal.path()) {
            Ok(Some(rec)) => {
                self.aside.push(rec.clone());
                self.waiting.push(rec);
            }
            Ok(None) => {
                let _ = journal.finish();
            }
            // Left in place: the next start reports it.
            Err(_) => {}
        }
    }

    fn finish_journal(&mut self) {
        if let Some(journal) = self.journal.take() {
            let _ = journal.finish();
        }
    }

    /// What to show before carrying out `effect` when it keeps the screen waiting: a
    /// save into a compressed file writes the whole file again, which can take
    /// minutes, and the screen is not drawn meanwhile.
    pub fn before(&self, effect: &Effect) -> Option<Done> {
        let Effect::Save { path, .. } = effect else {
            return None;
        };
        let packed = crate::store::Compression::of_file(path).ok()??;
        packed.writable().then(|| {
            Done::notice(format!(
                "saving into {}: the whole file is compressed again ({}), which takes a while…",
                path.display(),
                packed.name()
            ))
        })
    }

    /// Carries out an effect; true when the recorder should end.
    pub fn carry_out(&mut self, app: &mut App, effect: Effect) -> anyhow::Result<bool> {
        if effect == Effect::NewGame {
            // The game on the screen is the new one already; the journal holds
            // the old one as of its last change.
            self.set_aside();
            self.slot = None;
        }
        self.sync(app);
        let quit = match effect {
            Effect::None | Effect::NewGame => false,
            Effect::Study(job) => {
                self.ask_study(app, job);
                false
            }
            Effect::Save {
                path,
                then_quit,
                force,
            } => self.save(app, &path, force) && then_quit,
            Effect::Load { path, number } => {
                let loaded = save::load_game_for_repair(&path, number);
                self.show_loaded(app, path, number, None, loaded);
                false
            }
            Effect::LoadAt {
                path,
                number,
                offset,
                len,
            } => {
                let loaded = match &self.unpacked {
                    Some(copy) if same_file(copy.source(), &path) => {
                        copy.load_range_for_repair(number, offset, len)
                    }
                    _ => crate::store::load_range_for_repair(&path, number, offset, len),
                };
                self.show_loaded(app, path, number, None, loaded);
                false
            }
            Effect::Copy { text, what } => {
                let mux = super::clipboard::Mux::from_env();
                match super::clipboard::copy(&mut std::io::stdout(), &text, mux) {
                    Ok(_) => tell(
                        app,
                        Done::notice(format!(
                            "{what} sent to the clipboard ({} bytes; the terminal must allow \
                             OSC 52, see the README)",
                            text.len()
                        )),
                    ),
                    Err(e) => tell(app, Done::refusal(format!("{what} not copied: {e}"))),
                }
                false
            }
            Effect::Drill {
                file,
                name,
                engine,
                last,
            } => {
                // Reading a large file, and the engine's work on games without
                // evaluations, take a while: the screen goes on meanwhile.
                let engine = app.train.engine.clone().filter(|_| engine).map(|path| {
                    crate::engine::EngineConfig {
                        path,
                        ..app.engine.config.clone()
                    }
                });
                self.gatherer = Some(super::train::Gatherer::start(super::train::Request {
                    file,
                    name,
                    last,
                    engine,
                }));
                false
            }
            Effect::Judge {
                engine,
                fen,
                moves,
                best,
            } => {
                let (send, receive) = std::sync::mpsc::channel();
                self.judging = Some(receive);
                std::thread::spawn(move || {
                    let scores = crate::study::train::judge::scores(
                        &engine,
                        &fen,
                        &moves,
                        best,
                        crate::engine::Limit::Depth(crate::study::train::judge::DEPTH),
                    );
                    let _ = send.send(Done::Judged(scores));
                });
                false
            }
            Effect::Solve { engine, fen } => {
                let (send, receive) = std::sync::mpsc::channel();
                self.judging = Some(receive);
                std::thread::spawn(move || {
                    let best = crate::study::train::judge::best_move(
                        &engine,
                        &fen,
                        crate::engine::Limit::Depth(crate::study::train::judge::DEPTH),
                    );
                    let _ = send.send(Done::Solved(best));
                });
                false
            }
            Effect::Review { exercise, passed } => {
                if let Some(problem) = super::train::review(&exercise, passed) {
                    tell(app, problem);
                }
                false
            }
            Effect::Forget { exercise } => {
                if let Some(problem) = super::train::forget(&exercise) {
                    tell(app, problem);
                }
                false
            }
            Effect::Snap { fen, game, ply } => {
                let game = game.unwrap_or_else(|| self.written_number(app));
                match crate::store::snap::append(app.file.as_deref(), &fen, game, ply) {
                    Ok(path) => tell(
                        app,
                        Done::notice(format!("position added to {}", path.display())),
                    ),
                    Err(e) => tell(app, Done::refusal(e.to_string())),
                }
                false
            }
            Effect::Browse { path } => {
                self.browse(app, &path)?;
                false
            }
            Effect::Open(game) => {
                // Empty or saved, the app says; if not, its journal keeps it.
                self.set_aside();
                self.slot = None;
                app.update(Done::Opened(game));
                false
            }
            Effect::Recovery(answer) => {
                match answer {
                    Recovery::Recover(i) => self.recover(app, i),
                    Recovery::Discard(i) => self.discard(app, i),
                    Recovery::Later => {}
                    Recovery::Offer => {
                        self.rescan(app);
                        if self.waiting.is_empty() && self.broken.is_empty() {
                            tell(app, Done::notice("no unsaved games"));
                        }
                        self.offer(app);
                    }
                }
                false
            }
            Effect::Quit { discard } => {
                if discard || !app.unsaved {
                    self.finish_journal();
                }
                true
            }
        };
        self.sync(app);
        if app.settings.autosave && app.unsaved && !quit {
            if let Some(path) = app.file.clone() {
                self.save(app, &path, false);
                self.sync(app);
            }
        }
        Ok(quit)
    }

    /// At the end: a saved game's journal goes; an unsaved one stays for recovery.
    pub fn close(&mut self, app: &App) {
        if !app.unsaved {
            self.finish_journal();
        }
    }
}

#[path = "session_lines.rs"]
mod lines;

#[path = "session_jobs.rs"]
mod jobs;

#[path = "session_open.rs"]
mod open;

#[path = "session_recovery.rs"]
mod recovery;

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;

/// Tells the app what the loop did (a notice never asks for an effect).
fn tell(app: &mut App, done: Done) {
    let effect = app.update(done);
    debug_assert_eq!(effect, Effect::None);
}
