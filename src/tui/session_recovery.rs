//! The unsaved games of earlier runs (and of this one, set aside): read from the
//! journal directory, offered in the box, recovered or discarded.

use super::*;

impl Session {
    /// Reads the journal directory again: other runs' unsaved games, then this
    /// run's set aside.
    pub(super) fn rescan(&mut self, app: &mut App) {
        match recover::scan(&self.dir) {
            Ok(mut scan) => {
                scan.tidy();
                self.waiting = scan.games;
                self.broken = scan.broken;
            }
            Err(e) => {
                tell(
                    app,
                    Done::refusal(format!(
                    "cannot read the journals in {}: {e} (moves are not protected against a crash)",
                    self.dir.display()
                )),
                );
                self.waiting.clear();
                self.broken.clear();
            }
        }
        self.waiting.extend(self.aside.iter().cloned());
    }

    pub(super) fn offer(&mut self, app: &mut App) {
        app.update(Done::Unsaved {
            games: self.waiting.iter().map(describe).collect(),
            broken: self.broken.iter().map(describe_broken).collect(),
        });
    }

    pub(super) fn take_waiting(&mut self, i: usize) -> Option<Recoverable> {
        if i >= self.waiting.len() {
            return None;
        }
        let rec = self.waiting.remove(i);
        self.aside.retain(|r| r.path != rec.path);
        Some(rec)
    }

    pub(super) fn recover(&mut self, app: &mut App, i: usize) {
        if app.unsaved && !app.game.is_empty() && self.journal.is_none() {
            tell(
                app,
                Done::refusal(
                    "the game on the screen is not saved and has no journal: :w it first, \
                 then :recover",
                ),
            );
            return;
        }
        let Some(rec) = self.take_waiting(i) else {
            return;
        };
        // Taken over, not copied: nothing is deleted, no space is needed.
        let adopted = Journal::adopt(&rec.path);
        if adopted
            .as_ref()
            .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
        {
            // Another scoresheet took it over (or discarded it) since the box was drawn:
            // recording it here too would make two copies that differ.
            tell(
                app,
                Done::refusal(format!(
                    "that game is no longer in the journal ({} is gone): another scoresheet \
                     recovered or discarded it",
                    rec.path.display()
                )),
            );
            return;
        }
        self.set_aside();
        let kept = match adopted {
            Ok(journal) => {
                self.journal = Some(journal);
                None
            }
            Err(e) => Some(format!(
                "its journal {} could not be taken over ({e}) and stays as it was",
                rec.path.display()
            )),
        };
        // Saved just before the crash (after the journal's last record, before the one
        // saying so)? Then the file holds it already, and `:w` would add it again.
        let found = rec
            .out
            .as_deref()
            .and_then(|out| recover::saved_there(out, rec.slot.as_ref(), &rec.game));
        let saved = found.map(|(slot, _)| slot);
        self.slot = match (&rec.out, saved.or(rec.slot)) {
            (Some(out), Some(slot)) => Some((out.clone(), slot, saved.map(|_| rec.game.clone()))),
            _ => None,
        };
        let plies = rec.plies;
        let more = match self.waiting.len() {
            0 => String::new(),
            n => format!(
                "; {}: :recover",
                crate::plural::count(n, "more unsaved game", "more unsaved games")
            ),
        };
        let out = rec.out.clone();
        // A game with no file yet is saved by naming one: a bare `:w` would be refused.
        let save = if out.is_some() { ":w" } else { ":w FILE.pgn" };
        app.update(Done::Recovered {
            game: Box::new(rec.game),
            out: rec.out,
            offset: saved.or(rec.slot).map(|slot| slot.offset),
            message: format!("recovered {}: {save} to save the game{more}", moves(plies)),
        });
        if let (Some(path), Some((_, number))) = (out, found) {
            let placed = if rec.slot.is_some() {
                Placed::InPlace
            } else {
                Placed::Added(Some(number))
            };
            app.update(Done::Saved {
                path: path.clone(),
                unchanged: false,
                placed,
            });
            tell(
                app,
                Done::notice(format!(
                    "{} found saved in {}: the save just before the crash was done (nothing to \
                     save){more}",
                    moves(plies),
                    path.display()
                )),
            );
        }
        self.count_games_before(app);
        // A journal that cannot be written says so and the message stays.
        self.sync(app);
        if let Some(kept) = kept {
            if !app.message.error {
                tell(
                    app,
                    Done::refusal(format!("recovered {}, but {kept}", moves(plies))),
                );
            }
        }
    }

    pub(super) fn discard(&mut self, app: &mut App, i: usize) {
        let Some(rec) = self.take_waiting(i) else {
            return;
        };
        match recover::discard(&rec) {
            Ok(()) => tell(app, Done::notice(format!("discarded {}", describe(&rec)))),
            Err(e) => {
                tell(
                    app,
                    Done::refusal(format!(
                        "cannot delete the journal {}: {e}",
                        rec.path.display()
                    )),
                );
                self.waiting.insert(i.min(self.waiting.len()), rec);
            }
        }
        self.offer(app);
    }
}
