//! What the loop reports about the list's file: its rows as the loader reads them, a save
//! that rewrote one of its games, and what the check of its games found.

use super::super::{App, Screen};
use crate::catalog::{LoadEvent, LoadStatus};

impl App {
    /// Rows read by the loop's loader, the end of the file, or the error that
    /// stopped reading.
    pub(in crate::app) fn listed(&mut self, event: LoadEvent) {
        let Some(list) = self.list.as_deref_mut() else {
            return;
        };
        let failed = matches!(event, LoadEvent::Failed(_));
        list.keep_selected(|catalog| catalog.apply(event));
        list.select_open_when_listed();
        self.number_recovered();
        let Some(list) = self.list.as_deref_mut() else {
            return;
        };
        if failed {
            if let LoadStatus::Failed(e) = list.catalog.status() {
                // A game saved at the end of the file while it was read has no row: the
                // list cannot tell its number (see `Catalog::added`).
                let unlisted = match list.catalog.unlisted() {
                    0 => String::new(),
                    n => format!(
                        "; {} saved there meanwhile not listed (:e {} lists the file again)",
                        crate::plural::count(n, "game", "games"),
                        list.path.display()
                    ),
                };
                if list.open.is_some_and(|n| list.catalog.game(n).is_none()) {
                    list.open = None;
                }
                let text = format!(
                    "reading {} stopped: {e}; the {} listed can be opened{unlisted}",
                    list.path.display(),
                    crate::plural::count_grouped(list.catalog.games(), "game", "games")
                );
                self.refuse(text);
            }
        }
    }

    /// A save wrote a game of `path` again (or added it, `before` being `None`), as
    /// `text`: when it is the list's file, the rows of that game and of the games after
    /// it follow, so that each still opens, and the game's row shows what was written
    /// (its players, result, opening…), with the same game still selected. A game added
    /// gets a row, last (the save then selects it: see `App::saved`).
    pub(in crate::app) fn rewrote(
        &mut self,
        path: &std::path::Path,
        before: Option<(u64, u64)>,
        after: (u64, u64),
        text: &str,
    ) {
        self.games_changed(path);
        let Some(list) = self.list.as_deref_mut() else {
            return;
        };
        if list.path != path && !crate::store::same_file(&list.path, path) {
            return;
        }
        // The lines of the games after it moved: the check's positions are read again.
        list.catalog.recheck();
        list.keep_selected(|catalog| match before {
            Some(before) => {
                if before != after {
                    catalog.rewritten(before, after);
                }
                catalog.retag(after.0, text);
            }
            None => catalog.added(after, text),
        });
    }

    /// The check of the list's games found problems (marked on their rows), or ended.
    pub(in crate::app) fn checked(&mut self, event: crate::catalog::check::CheckEvent) {
        use crate::catalog::check::CheckEvent;
        let Some(list) = self.list.as_deref_mut() else {
            return;
        };
        match event {
            CheckEvent::Found(found) => list.catalog.mark_problems(found),
            CheckEvent::Done(_) => {
                // A check again after a save says nothing: its marks just replace.
                if list.catalog.checked_all() {
                    return;
                }
                let marked = list.catalog.problems();
                if marked > 0 && self.screen == Screen::List && self.message.text.is_empty() {
                    self.inform(format!(
                        "checked: {} with a problem (marked ✗; select one to see why)",
                        crate::plural::count_grouped(marked, "game", "games")
                    ));
                }
            }
            CheckEvent::Failed(e) => {
                self.refuse(format!("the check of the games stopped: {e}"));
            }
        }
    }
}
