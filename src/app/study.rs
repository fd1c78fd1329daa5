//! Position search and the opening tree in the reviewer: `:search` lists the games of the
//! open file that reach the board's position (the list filtered to them; opening one goes
//! to that ply), and the tree pane shows what was played from the position at the cursor
//! over the open file, following the cursor. The work (reading the file, its index) is
//! done by the loop off the UI thread: the app asks with [`StudyJob`]s and takes the
//! answers in as [`super::Done`]s.

use std::path::PathBuf;

use super::pane::Pane;
use super::{App, Effect, Screen};
use crate::store::target::same_file;
use crate::study::tree::{Next, Tree};

/// Work for the loop's study thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StudyJob {
    /// The games of `path` that reach the position `fen` (a FEN, or its first four
    /// fields).
    Search {
        /// The file.
        path: PathBuf,
        /// The position.
        fen: String,
    },
    /// The tree of `path` at the position `fen`.
    Tree {
        /// The file.
        path: PathBuf,
        /// The position.
        fen: String,
    },
}

impl StudyJob {
    /// The file asked about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            StudyJob::Search { path, .. } | StudyJob::Tree { path, .. } => path,
        }
    }
}

/// The tree pane's state.
#[derive(Debug, Clone, Default)]
pub struct TreeView {
    /// The position (FEN) last asked for.
    pub asked: Option<String>,
    /// The tree shown, and the position (FEN) it is of.
    pub shown: Option<(String, Tree)>,
    /// What the pane says instead of the tree: reading, or an error.
    pub status: String,
    /// What the pane says above the tree shown: how it was answered (by reading the file
    /// through while another process builds its index), or nothing.
    pub note: String,
    /// The move selected (an index into the tree's branches).
    pub selected: usize,
}

/// The position part of a FEN (placement, side, castling, en passant): the counters do
/// not change the tree.
fn position_part(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

impl App {
    /// The file the study commands work on: the list's, else the game's.
    pub(super) fn study_file(&self) -> Option<PathBuf> {
        self.list
            .as_deref()
            .map(|l| l.path.clone())
            .or_else(|| self.file.clone())
    }

    /// The games of `path` changed (a save): when it is the file studied, the tree at the
    /// cursor is asked for again.
    pub(super) fn games_changed(&mut self, path: &std::path::Path) {
        let same = |file: &std::path::Path| file == path || crate::store::same_file(file, path);
        if self.study_file().is_some_and(|f| same(f.as_path())) {
            self.tree.asked = None;
        }
    }

    /// `:search`: the games of the open file that reach the board's position. On the
    /// list's file, a `pos:` term of the position joins the list's filter, in the place of
    /// the one an earlier search set (the loop then searches for it, see
    /// [`App::take_study_request`]); else the numbers of the games are said.
    pub(super) fn search_position(&mut self) -> Effect {
        let Some(path) = self.study_file() else {
            self.refuse("no file to search: open one (scoresheet FILE.pgn, or :e FILE)");
            return Effect::None;
        };
        let fen = self.position().fen();
        let term = self.position_term();
        let Some(list) = self
            .list
            .as_deref_mut()
            .filter(|l| same_file(&l.path, &path))
        else {
            self.inform(format!("searching {} for this position…", path.display()));
            return Effect::Study(StudyJob::Search { path, fen });
        };
        // The search narrows the filter the user had (`player:kasparov`): its term
        // replaces only an earlier search's, so Esc can take it off again.
        let kept = crate::catalog::query::without_positions(&list.filter)
            .unwrap_or_else(|| list.filter.trim().to_string());
        list.filter = if kept.is_empty() {
            term
        } else {
            format!("{kept} {term}")
        };
        list.filtering = false;
        // The game searched from (the list's open one) reaches the position: it stays
        // selected among the games found, as a filter keeps the selected game.
        list.selected = list
            .open
            .and_then(|n| list.catalog.position_of(n))
            .unwrap_or(0);
        list.searched = crate::catalog::position_key(&fen);
        self.refilter();
        self.screen = Screen::List;
        if self.list().is_some_and(|l| l.catalog.searching()) {
            self.inform(format!("searching {} for this position…", path.display()));
        } else {
            // Answered before: say it now.
            self.say_found(&path);
        }
        Effect::None
    }

    /// The `pos:` term of the board's position: the moves from the start to the cursor
    /// (`pos:"1. e4 c5 2. Nf3"`), or, for a game with its own start, the position's FEN.
    fn position_term(&self) -> String {
        if self.game.start.fen() != crate::position::Position::start().fen() {
            return format!("pos:\"{}\"", position_part(&self.position().fen()));
        }
        let path = self.game.path_to(self.cursor);
        if path.is_empty() {
            return "pos:start".into();
        }
        let mut moves = String::new();
        for (ply, id) in path.iter().enumerate() {
            if !moves.is_empty() {
                moves.push(' ');
            }
            if ply % 2 == 0 {
                moves.push_str(&format!("{}. ", ply / 2 + 1));
            }
            moves.push_str(&self.game.node(*id).san);
        }
        format!("pos:\"{moves}\"")
    }

    /// The list's position requests: the `pos:` terms of its filter waiting for the
    /// search, each asked once.
    fn list_search_request(&mut self) -> Option<StudyJob> {
        let list = self.list.as_deref_mut()?;
        let key = list.catalog.position_requests().into_iter().next()?;
        Some(StudyJob::Search {
            path: list.path.clone(),
            fen: key,
        })
    }

    /// The answer of the position search for `fen`: on the list's file, the list narrows
    /// to those games (its `pos:` term, or the one `:search` set, had waited for them);
    /// else, for `:search` from a game of another file, a message lists their numbers.
    pub(super) fn searched(
        &mut self,
        path: PathBuf,
        fen: String,
        found: Result<Vec<(u64, u32)>, String>,
    ) {
        let of_list = self.list().is_some_and(|l| same_file(&l.path, &path));
        if !of_list {
            match found {
                Err(e) => self.refuse(format!("search: {e}")),
                Ok(found) if found.is_empty() => self.inform(format!(
                    "no game of {} reaches this position",
                    path.display()
                )),
                Ok(found) => {
                    let count = crate::plural::count_grouped(found.len(), "game", "games");
                    let verb = reach(found.len());
                    // The first few: hundreds of numbers on the status line would be read by
                    // nobody; the file's list shows them all, to open.
                    const SAID: usize = 12;
                    let numbers: Vec<String> = found
                        .iter()
                        .take(SAID)
                        .map(|(n, _)| n.to_string())
                        .collect();
                    let more = if found.len() > SAID {
                        format!(
                            ", … ({} lists the games of {}, where :search shows them all)",
                            self.key_for("list", ":list"),
                            path.display()
                        )
                    } else {
                        String::new()
                    };
                    self.inform(format!(
                        "{count} {verb} this position: {}{more}",
                        numbers.join(", ")
                    ));
                }
            }
            return;
        }
        let key = crate::catalog::position_key(&fen);
        let Some(list) = self.list.as_deref_mut() else {
            return;
        };
        let announce = key.is_some() && list.searched == key;
        match found {
            Ok(found) => list.keep_selected(|catalog| catalog.found(&fen, found)),
            Err(e) => {
                list.keep_selected(|catalog| catalog.search_failed(&fen));
                list.searched = None;
                return self.refuse(format!("search: {e}"));
            }
        }
        if announce {
            self.say_found(&path);
        }
    }

    /// Says what the `:search` waited for found (the list shows those games).
    fn say_found(&mut self, path: &std::path::Path) {
        let Some(list) = self.list.as_deref_mut() else {
            return;
        };
        list.searched = None;
        let found = list.catalog.matches();
        // Esc takes the search off; a filter the user had stays (see `list_cancel`).
        let rest = crate::catalog::query::without_positions(&list.filter).unwrap_or_default();
        let (of, back) = if rest.is_empty() {
            (String::new(), "Esc shows them all".to_string())
        } else {
            (
                format!(" of {rest}"),
                format!("Esc shows the games of {rest} again"),
            )
        };
        if found == 0 {
            self.inform(format!(
                "no game of {}{of} reaches this position ({back})",
                path.display()
            ));
        } else {
            let count = crate::plural::count_grouped(found, "game", "games");
            let verb = reach(found);
            self.inform(format!(
                "{count}{of} {verb} this position; Enter opens one there, {back}"
            ));
        }
    }

    /// Opens or closes the tree pane (`:tree`, and its key).
    pub(super) fn toggle_tree(&mut self) -> Effect {
        if self.pane == Pane::Tree {
            self.pane = Pane::None;
            return Effect::None;
        }
        if self.study_file().is_none() {
            self.refuse("no file for the tree: open one (scoresheet FILE.pgn, or :e FILE)");
            return Effect::None;
        }
        self.pane = Pane::Tree;
        self.tree.asked = None;
        Effect::None
    }

    /// The tree the pane needs now, when it has not been asked for yet (the loop asks
    /// after each update, so the pane follows the cursor).
    /// The list's `pos:` terms come first: they are asked about once each.
    pub fn take_study_request(&mut self) -> Option<StudyJob> {
        if let Some(job) = self.list_search_request() {
            return Some(job);
        }
        if self.pane != Pane::Tree || self.screen != Screen::Game {
            return None;
        }
        let fen = self.position().fen();
        let here = position_part(&fen);
        if self.tree.asked.as_deref() == Some(here.as_str()) {
            return None;
        }
        let path = self.study_file()?;
        self.tree.asked = Some(here);
        if self.tree.shown.is_none() {
            self.tree.status = "reading the file…".into();
        }
        Some(StudyJob::Tree { path, fen })
    }

    /// A tree computed by the loop: shown (with its note) if it is still the position at
    /// the cursor.
    pub(super) fn tree_done(&mut self, fen: String, tree: Result<Tree, String>, note: String) {
        let here = position_part(&fen);
        if self.tree.asked.as_deref() != Some(here.as_str()) {
            return; // the cursor has moved on: its own tree is on the way
        }
        match tree {
            Ok(tree) => {
                let keep = self
                    .tree
                    .shown
                    .as_ref()
                    .is_some_and(|(f, _)| position_part(f) == here);
                if !keep {
                    self.tree.selected = 0;
                }
                self.tree.status.clear();
                self.tree.note = note;
                self.tree.shown = Some((fen, tree));
            }
            Err(e) => {
                self.tree.shown = None;
                self.tree.status = e;
            }
        }
    }

    /// The tree shown, when it is the one of the position at the cursor.
    pub fn current_tree(&self) -> Option<&Tree> {
        let (fen, tree) = self.tree.shown.as_ref()?;
        (position_part(fen) == position_part(&self.position().fen())).then_some(tree)
    }

    /// Moves the tree's selection by `step` moves.
    pub(super) fn tree_step(&mut self, step: isize) -> Effect {
        let Some(n) = self.current_tree().map(|t| t.branches.len()) else {
            if self.pane != Pane::Tree {
                self.inform("the tree pane is closed: Alt-y or :tree opens it");
            }
            return Effect::None;
        };
        if n > 0 {
            self.tree.selected = self.tree.selected.saturating_add_signed(step).min(n - 1);
        }
        Effect::None
    }

    /// Plays the tree's selected move (Enter on an empty entry line with the pane open):
    /// a new move at the end of a line, else a variation where the game went another way
    /// (never a replacement, whatever Insert says).
    /// False when there is no such move.
    pub(super) fn play_tree_move(&mut self) -> Option<Effect> {
        if self.pane != Pane::Tree {
            return None;
        }
        let tree = self.current_tree()?;
        let branch = tree.branches.get(self.tree.selected)?;
        let Next::Move(_) = branch.next else {
            return None;
        };
        self.entry = branch.san.clone();
        // Inside the game it is a variation whatever typing does there (as the
        // engine's move is): a player looking through the file's moves does not mean
        // to replace the game's.
        let inside = std::mem::replace(&mut self.inside, super::Inside::Variation);
        let effect = self.play_entry();
        self.inside = inside;
        Some(effect)
    }
}

/// The verb after a count of games: "1 game reaches", "2 games reach".
fn reach(games: usize) -> &'static str {
    if games == 1 {
        "reaches"
    } else {
        "reach"
    }
}
