//! Opening files for the session: a file as `scoresheet FILE` opens it (one game
//! shown, many listed, a new name kept for `:w`), and a game read from its file shown
//! with its place there.

use super::*;

impl Session {
    /// Shows a game read from its file (or why it could not be read), with its
    /// place in the file for `:w` and, when known, how many games the file holds.
    pub(super) fn show_loaded(
        &mut self,
        app: &mut App,
        path: PathBuf,
        number: usize,
        games: Option<u64>,
        loaded: Result<Loaded, crate::store::LoadError>,
    ) {
        match loaded {
            Ok((game, slot, None)) => {
                self.set_aside();
                app.update(Done::Loaded {
                    game: Box::new(game),
                    path: path.clone(),
                    number,
                    games,
                });
                self.slot = Some((path, slot, Some(app.game.clone())));
            }
            Ok((game, slot, Some(unread))) => {
                self.set_aside();
                let stop = format!(
                    "game {number} of {}, line {} column {}: \"{}\": {}",
                    path.display(),
                    unread.line,
                    unread.column,
                    unread.token,
                    unread.reason
                );
                app.update(Done::LoadedForRepair {
                    game: Box::new(game),
                    path: path.clone(),
                    stop,
                    rest: unread.rest,
                    incomplete: !unread.complete,
                    number,
                    games,
                });
                // Its text in the file is the whole game: `:w` replaces it.
                self.slot = Some((path, slot, None));
            }
            Err(e) => tell(app, Done::refusal(e.to_string())),
        }
        if app.list().is_none() {
            // The list of the file left went: so do its readers.
            self.loader = None;
            self.checker = None;
            self.unpacked = None;
        }
    }

    /// Opens a file as `scoresheet FILE` does: one game is shown, many are
    /// listed (read in the background), a new name is the file `:w` writes.
    pub fn browse(&mut self, app: &mut App, path: &Path) -> anyhow::Result<()> {
        match crate::store::probe(path) {
            Err(e) => tell(app, Done::refusal(e.to_string())),
            Ok((opened, _)) => self.show_opened(app, path, opened),
        }
        Ok(())
    }

    /// Shows a file as [`Session::browse`] does, from what [`crate::store::probe`]
    /// found in it.
    pub fn show_opened(&mut self, app: &mut App, path: &Path, opened: Opened) {
        match opened {
            Opened::Missing | Opened::Empty => {
                // A new game for that file, as `scoresheet FILE` starts one: the game
                // on the screen (saved, or forced away with `:e!`) keeps its journal,
                // and another file's list and its readers go.
                self.set_aside();
                self.slot = None;
                self.loader = None;
                self.checker = None;
                self.unpacked = None;
                app.update(Done::NewFile {
                    path: path.to_path_buf(),
                });
            }
            Opened::One(loaded, cut) => {
                let loaded = *loaded;
                self.show_loaded(app, path.to_path_buf(), 1, Some(1), Ok(loaded));
                if let Some(e) = cut {
                    // Said first, as the list says it, before what opening the game said
                    // (where a repair waits): the game may be only a part.
                    let opened = app.message.text.clone();
                    tell(
                        app,
                        Done::refusal(format!(
                            "reading {} stopped: {e}; its game may be cut short; {opened}",
                            path.display()
                        )),
                    );
                }
            }
            Opened::Many => match Loader::open_copying(path) {
                Ok((loader, copy)) => {
                    // `:e!` over unsaved changes: the journal keeps them (the list
                    // opens on no game).
                    if app.unsaved && !app.game.is_empty() {
                        self.set_aside();
                        self.slot = None;
                    }
                    // The check of another file's games is of no use now.
                    self.checker = None;
                    self.loader = Some(loader);
                    self.unpacked = copy;
                    app.update(Done::ListOpened {
                        path: path.to_path_buf(),
                    });
                }
                Err(e) => tell(
                    app,
                    Done::refusal(format!("cannot read {}: {e}", path.display())),
                ),
            },
        }
    }
}
