//! The files behind a recording session: the journal (written and synced after
//! every change, before the screen shows it), the game's place in its PGN file
//! (so `:w` rewrites just that game), and the unsaved games of earlier runs.

use std::path::{Path, PathBuf};

use crate::app::{App, Effect, Overlay, Recovery};
use crate::game::Game;
use crate::pgn::writer::write_game_to_string;
use crate::store::journal::Journal;
use crate::store::recover::{self, Recoverable};
use crate::store::save::{self, Slot};

/// The session's files.
pub struct Session {
    dir: PathBuf,
    journal: Option<Journal>,
    /// Where the game is in its file, once it was loaded from it or saved there,
    /// and the game as it stands there.
    slot: Option<(PathBuf, Slot, Game)>,
    /// Unsaved games of earlier runs not answered yet.
    waiting: Vec<Recoverable>,
}

fn describe(rec: &Recoverable) -> String {
    let game = &rec.game;
    let tag = |name: &str| game.tag(name).unwrap_or("?").to_string();
    let target = match &rec.out {
        Some(path) => format!(" for {}", path.display()),
        None => String::new(),
    };
    let age = rec.modified.elapsed().map(|d| d.as_secs()).unwrap_or(0);
    let when = match age {
        0..=119 => format!("{age} s ago"),
        120..=7199 => format!("{} min ago", age / 60),
        _ => format!("{} h ago", age / 3600),
    };
    let moves = crate::plural::moves_of(rec.plies);
    format!(
        "{} - {} ({}), {moves}{target}, {when}",
        tag("White"),
        tag("Black"),
        tag("Event")
    )
}

impl Session {
    /// Opens the journal directory and offers the unsaved games found there.
    pub fn start(app: &mut App) -> anyhow::Result<Session> {
        let dir = crate::store::data_dir().join("journal");
        let waiting = match recover::recoverable(&dir) {
            Ok(found) => found,
            Err(e) => {
                app.refuse(format!(
                    "could not read the journals in {}: {e}",
                    dir.display()
                ));
                Vec::new()
            }
        };
        let mut session = Session {
            dir,
            journal: None,
            slot: None,
            waiting,
        };
        session.offer(app);
        Ok(session)
    }

    fn offer(&mut self, app: &mut App) {
        if !self.waiting.is_empty() {
            app.overlay = Overlay::Recover(self.waiting.iter().map(describe).collect());
        }
    }

    /// Writes the journal when the game changed. Must run before the next frame.
    pub fn sync(&mut self, app: &mut App) {
        if !app.take_journal_due() {
            return;
        }
        if self.journal.is_none() {
            if app.game.is_empty() && !app.unsaved {
                return;
            }
            match Journal::create(&self.dir, app.file.as_deref()) {
                Ok(journal) => self.journal = Some(journal),
                Err(e) => {
                    app.refuse(format!(
                        "cannot keep a journal in {}: {e} (moves are not protected against a crash)",
                        self.dir.display()
                    ));
                    return;
                }
            }
        }
        if let Some(journal) = &mut self.journal {
            if let Err(e) = journal.record(&app.game, app.file.as_deref(), !app.unsaved) {
                app.refuse(format!("the journal could not be written: {e}"));
            }
        }
    }

    fn save(&mut self, app: &mut App, path: &Path) -> bool {
        let pgn = write_game_to_string(&app.game);
        let result = match &self.slot {
            // The same game as in the file: its bytes stay as they are, in
            // whatever style they were written.
            Some((file, _, there)) if file == path && *there == app.game => {
                app.saved(path.to_path_buf());
                app.inform(format!("no changes: {} is as it was", path.display()));
                return true;
            }
            Some((file, slot, _)) if file == path => save::replace_game(path, slot, &pgn),
            _ => save::append_game(path, &pgn),
        };
        match result {
            Ok(slot) => {
                self.slot = Some((path.to_path_buf(), slot, app.game.clone()));
                app.saved(path.to_path_buf());
                true
            }
            Err(e) => {
                app.refuse(format!("not saved: {e}"));
                false
            }
        }
    }

    fn finish_journal(&mut self) {
        if let Some(journal) = self.journal.take() {
            let _ = journal.finish();
        }
    }

    /// Carries out an effect; true when the recorder should end.
    pub fn carry_out(&mut self, app: &mut App, effect: Effect) -> anyhow::Result<bool> {
        self.sync(app);
        let quit = match effect {
            Effect::None => false,
            Effect::Save { path, then_quit } => self.save(app, &path) && then_quit,
            Effect::Load { path, number } => {
                match save::load_game(&path, number) {
                    Ok((game, slot)) => {
                        self.finish_journal();
                        app.replace_game(game, Some(path.clone()), false);
                        app.inform(format!("game {number} of {}", path.display()));
                        self.slot = Some((path, slot, app.game.clone()));
                    }
                    Err(e) => app.refuse(e.to_string()),
                }
                false
            }
            Effect::NewGame => {
                self.finish_journal();
                self.slot = None;
                false
            }
            Effect::Open(game) => {
                self.finish_journal();
                self.slot = None;
                let file = app.file.clone();
                app.replace_game(*game, file, true);
                false
            }
            Effect::Recovery(answer) => {
                if !self.waiting.is_empty() {
                    let first = self.waiting.remove(0);
                    match answer {
                        Recovery::Recover => {
                            self.finish_journal();
                            self.slot = None;
                            let moves = crate::plural::moves_of(first.plies);
                            app.replace_game(first.game.clone(), first.out.clone(), true);
                            self.sync(app);
                            if let Err(e) = recover::discard(&first) {
                                app.refuse(format!("recovered, but the old journal stays: {e}"));
                            } else {
                                app.inform(format!("recovered {moves}: :w to save them"));
                            }
                        }
                        Recovery::Discard => {
                            if let Err(e) = recover::discard(&first) {
                                app.refuse(e.to_string());
                            }
                        }
                        Recovery::Later => self.waiting.clear(),
                    }
                }
                self.offer(app);
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
                self.save(app, &path);
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
