//! The list screen: the games of a file, from its [`Catalog`] (which the loop
//! fills in the background), with a selection, a filter typed after `/`, and
//! sorting by any column. Enter opens the selected game on the game screen;
//! coming back finds the list as it was left (same filter, sort, selection),
//! and the game screen steps to the next or previous game of the list.

use std::cell::Cell;
use std::path::PathBuf;

use super::{App, Effect, Screen};
use crate::catalog::{Catalog, Column};

/// A file's name as a `:e` command takes it: quoted when it has blanks.
fn command_path(path: &std::path::Path) -> String {
    let file = path.display().to_string();
    if file.contains(char::is_whitespace) {
        format!("\"{file}\"")
    } else {
        file
    }
}

/// The list of a file's games and where the user is in it.
#[derive(Debug)]
pub struct GameList {
    /// The file.
    pub path: PathBuf,
    /// Its games, sorted and filtered.
    pub catalog: Catalog,
    /// The selected game: a position in the sorted, filtered view.
    pub selected: usize,
    /// The first row shown; the screen keeps the selection in view.
    pub top: Cell<usize>,
    /// Rows shown at once (set by the screen when it draws).
    pub page: Cell<usize>,
    /// The filter as typed.
    pub filter: String,
    /// True while the filter line takes the typed characters.
    pub filtering: bool,
    /// The number of the game open on the game screen, if it came from this list.
    pub open: Option<u64>,
    /// Whether `open` is to be selected when its row comes (a list opened over a game of
    /// its file, Ctrl-L on a game opened alone), unless the selection moved meanwhile.
    pub(super) select_open: bool,
    /// The error the filter as typed last gave, while the status shows it.
    problem: Option<String>,
    /// The position (FEN's first four fields) a `:search` asked about and waits for:
    /// its answer is then said in the status line.
    pub(super) searched: Option<String>,
}

impl GameList {
    /// An empty list of `path`'s games, waiting for the loader's rows.
    pub fn new(path: PathBuf) -> GameList {
        GameList {
            path,
            catalog: Catalog::new(),
            selected: 0,
            top: Cell::new(0),
            page: Cell::new(20),
            filter: String::new(),
            filtering: false,
            open: None,
            select_open: false,
            problem: None,
            searched: None,
        }
    }

    /// Selects the open game once its row is in, when [`GameList::select_open`] asks for
    /// it (a list opened over a game of its file, a recovered game found in it); a
    /// selection moved meanwhile stays where the reader put it.
    pub(super) fn select_open_when_listed(&mut self) {
        let Some(n) = self.open.filter(|_| self.select_open) else {
            return;
        };
        if let Some(p) = self.catalog.position_of(n) {
            self.select_open = false;
            if self.selected == 0 {
                self.selected = p;
            }
        }
    }

    /// The number of the selected game, if the view has one.
    pub fn selected_number(&self) -> Option<u64> {
        self.catalog.get(self.selected).map(|row| row.number)
    }

    fn clamp(&mut self) {
        let count = self.catalog.matches();
        self.selected = self.selected.min(count.saturating_sub(1));
    }

    /// Moves the selection by `rows` (up when negative), within the view.
    fn step(&mut self, rows: isize) {
        self.selected = self.selected.saturating_add_signed(rows);
        self.clamp();
    }

    /// Keeps the same game selected across a change of the view, when it is
    /// still in it; else the first game is, as a new search starts at the top
    /// (the row at the old place would be any game, often the last one).
    pub(super) fn keep_selected(&mut self, change: impl FnOnce(&mut Catalog)) {
        let number = self.selected_number();
        change(&mut self.catalog);
        match number.and_then(|n| self.catalog.position_of(n)) {
            Some(position) => self.selected = position,
            None => self.selected = 0,
        }
    }
}

/// What the status says after sorting, in a player's words: "sorted by date, oldest
/// first", "sorted by White's Elo, highest first".
fn sorted_by(column: Column, descending: bool) -> String {
    let (name, up, down) = match column {
        Column::Number => ("number", "as in the file", "last first"),
        Column::White => ("White", "A to Z", "Z to A"),
        Column::WhiteElo => ("White's Elo", "lowest first", "highest first"),
        Column::Black => ("Black", "A to Z", "Z to A"),
        Column::BlackElo => ("Black's Elo", "lowest first", "highest first"),
        Column::Result => ("result", "1-0 first", "0-1 first"),
        Column::Date => ("date", "oldest first", "newest first"),
        Column::Event => ("event", "A to Z", "Z to A"),
        Column::Round => ("round", "first round first", "last round first"),
        Column::Site => ("site", "A to Z", "Z to A"),
        Column::Eco => ("ECO", "A00 first", "E99 first"),
        Column::Opening => ("opening", "A to Z", "Z to A"),
        Column::Plies => ("length", "shortest first", "longest first"),
    };
    let order = if descending { down } else { up };
    format!("sorted by {name}, {order} (again: reversed)")
}

impl App {
    /// The list of the file's games, when the app has one.
    pub fn list(&self) -> Option<&GameList> {
        self.list.as_deref()
    }

    fn list_mut(&mut self) -> Option<&mut GameList> {
        self.list.as_deref_mut()
    }

    pub(super) fn list_step(&mut self, rows: isize) -> Effect {
        if let Some(list) = self.list_mut() {
            list.step(rows);
        }
        Effect::None
    }

    pub(super) fn list_page(&mut self, pages: isize) -> Effect {
        if let Some(list) = self.list_mut() {
            let page = isize::try_from(list.page.get().saturating_sub(1).max(1)).unwrap_or(1);
            list.step(pages * page);
        }
        Effect::None
    }

    pub(super) fn list_to(&mut self, last: bool) -> Effect {
        if let Some(list) = self.list_mut() {
            list.selected = if last { usize::MAX } else { 0 };
            list.clamp();
        }
        Effect::None
    }

    /// Sorts by `column`; again by the same column reverses. The first game of the new
    /// order is selected, and so in view: a player sorts to see the top (the highest
    /// rated, the latest), not where the game selected before went.
    pub(super) fn sort_list(&mut self, column: Column) -> Effect {
        let Some(list) = self.list_mut() else {
            return Effect::None;
        };
        list.catalog.sort_by(column);
        list.selected = 0;
        let descending = matches!(
            list.catalog.sort(),
            Some(sort) if sort.direction == crate::catalog::Direction::Descending
        );
        self.inform(sorted_by(column, descending));
        Effect::None
    }

    /// `/`: the filter line takes the keys.
    pub(super) fn start_filter(&mut self) -> Effect {
        if let Some(list) = self.list_mut() {
            list.filtering = true;
        }
        Effect::None
    }

    /// A character typed on the list screen: into the filter while it is open.
    pub(super) fn list_type(&mut self, c: char) -> Effect {
        if !self.entry.is_empty() {
            // A `:command` being typed (see `command-line`).
            self.entry.push(c);
            return Effect::None;
        }
        let filtering = self.list().is_some_and(|l| l.filtering);
        if !filtering {
            // A key the list has no use for: say what to do.
            self.inform(
                "/ filters the list, Enter opens a game, : starts a command, F1 shows the keys",
            );
            return Effect::None;
        }
        if let Some(list) = self.list_mut() {
            list.filter.push(c);
        }
        self.refilter();
        Effect::None
    }

    /// Text pasted on the list: into the filter while it is open (its lines
    /// joined); else a PGN or FEN opens as a new game, as on the game screen.
    pub(super) fn list_paste(&mut self, text: &str, whole: bool) -> Effect {
        if self.list().is_some_and(|l| l.filtering) {
            let line: String = text
                .split(['\r', '\n'])
                .filter(|l| !l.trim().is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            if let Some(list) = self.list_mut() {
                list.filter.push_str(&line);
            }
            self.refilter();
            return Effect::None;
        }
        match self.paste(text, whole) {
            Effect::None if !self.entry.is_empty() => {
                // Moves pasted on the list: they are for the game screen's entry line.
                self.screen = Screen::Game;
                Effect::None
            }
            effect => effect,
        }
    }

    /// Enter on a `:command` typed on the list: it runs as on the game screen (`:e`,
    /// `:q`, `:train`, …), and the line is kept in the entry history.
    fn list_command(&mut self) -> Effect {
        let text = self.entry.trim().to_string();
        self.entry.clear();
        let Some(command) = text.strip_prefix(':') else {
            return Effect::None;
        };
        self.remember(&text);
        self.message = super::Message::default();
        self.run_command(command)
    }

    /// Ctrl-U on the list: the filter being typed is emptied (its line stays open).
    pub(super) fn list_clear_filter(&mut self) -> Effect {
        if let Some(list) = self.list_mut() {
            if list.filtering {
                list.filter.clear();
            }
        }
        self.refilter();
        Effect::None
    }

    /// Backspace on the filter line.
    pub(super) fn list_erase(&mut self) -> Effect {
        if !self.entry.is_empty() {
            self.entry.pop();
            return Effect::None;
        }
        if let Some(list) = self.list_mut() {
            if list.filtering {
                list.filter.pop();
            }
        }
        self.refilter();
        Effect::None
    }

    /// Esc: closes the filter line; again, takes a `pos:` term (what `:search` adds)
    /// off a filter that has other terms, leaving the filter the user had; else clears
    /// the filter.
    pub(super) fn list_cancel(&mut self) -> Effect {
        if !self.entry.is_empty() {
            self.entry.clear();
            return Effect::None;
        }
        if let Some(list) = self.list_mut() {
            if list.filtering {
                list.filtering = false;
            } else {
                let rest = crate::catalog::query::without_positions(&list.filter);
                list.filter = rest.unwrap_or_default();
                list.searched = None;
            }
        }
        self.refilter();
        Effect::None
    }

    /// Applies the filter as typed; a filter that cannot be read says where and why,
    /// and the list stays as the last good filter left it.
    pub(super) fn refilter(&mut self) {
        let Some(list) = self.list.as_deref_mut() else {
            return;
        };
        let text = list.filter.clone();
        let mut problem = None;
        list.keep_selected(|catalog| {
            if let Err(e) = catalog.set_filter(&text) {
                problem = Some(e);
            }
        });
        match problem {
            Some(e) => {
                let text = format!("filter: {e}");
                self.refuse(text.clone());
                if let Some(list) = self.list.as_deref_mut() {
                    list.problem = Some(text);
                }
            }
            None => {
                // The filter reads now: the error a letter typed on the way left goes.
                let said = self.list.as_deref_mut().and_then(|l| l.problem.take());
                if said.is_some_and(|said| said == self.message.text) {
                    self.message = super::Message::default();
                }
                // Nothing found with a year written as a plain word: say how to ask for
                // the year (kept like a problem, so that it goes once the filter changes).
                // (Once every game is listed: while rows stream in, games may still come.)
                let none = self.list().is_some_and(|l| {
                    l.catalog.matches() == 0
                        && matches!(l.catalog.status(), crate::catalog::LoadStatus::Done)
                });
                if let Some(year) = crate::catalog::query::plain_years(&text).first() {
                    if none {
                        let hint = format!(
                            "no game has \"{year}\" in a name, event, site or opening: \
                             for the year, write year:{year}"
                        );
                        self.inform(hint.clone());
                        if let Some(list) = self.list.as_deref_mut() {
                            list.problem = Some(hint);
                        }
                    }
                }
            }
        }
    }

    /// Enter: opens the selected game (or closes the filter line, keeping it).
    pub(super) fn open_selected(&mut self) -> Effect {
        if !self.entry.is_empty() {
            return self.list_command();
        }
        let Some(list) = self.list.as_deref_mut() else {
            return Effect::None;
        };
        if list.filtering {
            list.filtering = false;
            // A filter that does not read keeps saying why, once typing ends too: the
            // count shown is the last good filter's.
            if let Some(problem) = list.problem.clone() {
                self.refuse(problem);
            }
            return Effect::None;
        }
        let Some(row) = list.catalog.get(list.selected) else {
            self.refuse("no game to open");
            return Effect::None;
        };
        let number = row.number;
        self.open_game_of_list(number)
    }

    /// Opens game `number` of the list's file, or goes back to it when it is the
    /// game on the game screen.
    pub(super) fn open_game_of_list(&mut self, number: u64) -> Effect {
        let Some(list) = self.list.as_deref() else {
            return Effect::None;
        };
        if list.open == Some(number) {
            self.screen = Screen::Game;
            return Effect::None;
        }
        if self.unsaved && !self.game.is_empty() {
            let open = list
                .open
                .map_or("the game".to_string(), |n| format!("game {n}"));
            // Not `:q!`, which would quit the program: `:e!` opens the other game
            // and the journal keeps this one's changes.
            let file = command_path(&list.path);
            let kept = if self.unjournaled {
                "its changes are lost: nothing is journaled"
            } else {
                "the journal keeps the changes"
            };
            self.refuse(format!(
                "{open} has changes that are not saved: go back to it (Ctrl-L) and :w, \
                 or open game {number} anyway with :e! {file} {number} ({kept})"
            ));
            return Effect::None;
        }
        let Some(row) = list.catalog.game(number) else {
            return Effect::None;
        };
        if row.len == 0 {
            self.refuse(format!(
                "game {number} cannot be opened: it is too large to read"
            ));
            return Effect::None;
        }
        Effect::LoadAt {
            path: list.path.clone(),
            number: usize::try_from(number).unwrap_or(usize::MAX),
            offset: row.offset,
            len: row.len,
        }
    }

    /// The list, or back to the game from it.
    pub(super) fn toggle_list(&mut self) -> Effect {
        match (self.screen, self.list.is_some()) {
            (Screen::Game, true) => {
                self.screen = Screen::List;
                // The game open is the one selected, when the view has it.
                if let Some(list) = self.list.as_deref_mut() {
                    if let Some(p) = list.open.and_then(|n| list.catalog.position_of(n)) {
                        list.selected = p;
                    }
                }
            }
            (Screen::List, _) => {
                if self.list().is_some_and(|l| l.open.is_some()) || !self.game.is_empty() {
                    self.screen = Screen::Game;
                } else {
                    self.inform("no game open yet: Enter opens the selected one");
                }
            }
            (Screen::Game, false) => return self.list_of_this_file(),
        }
        Effect::None
    }

    /// Ctrl-L on a game opened alone from a file of many (`:e FILE N`): the list of that
    /// file's games, as `:e FILE` opens it, with this game staying open (the list's open
    /// game). Refused over unsaved changes, which opening a list would set aside; only a
    /// game without a file, or the one game of its file, has no list at all.
    fn list_of_this_file(&mut self) -> Effect {
        match &self.file {
            Some(path) if self.of_a_file_of_many() => {
                if self.unsaved && !self.game.is_empty() {
                    let save = self.key_for("save", ":w");
                    let game = self
                        .number
                        .map_or("this game".to_string(), |n| format!("game {n}"));
                    self.refuse(format!(
                        "{game} has changes that are not saved: {save} first, then the list \
                         of {} opens",
                        path.display()
                    ));
                    return Effect::None;
                }
                Effect::Browse { path: path.clone() }
            }
            _ => {
                self.inform("this game is not from a file of many games");
                Effect::None
            }
        }
    }

    /// Whether the game on the screen is one of a file of many games: read from it alone
    /// (`:e FILE N`), or recovered with its place in it (its number being counted).
    fn of_a_file_of_many(&self) -> bool {
        self.file.is_some()
            && (self.number.is_some() || self.unnumbered.is_some())
            && self.games_in_file != Some(1)
    }

    /// Why Alt-Down or Alt-Up finds no list: a game opened alone from a file of many
    /// (`:e FILE N`) is from one, whose list Ctrl-L opens.
    fn no_list_note(&self) -> String {
        if !self.of_a_file_of_many() {
            return "this game is not from a file of many games".to_string();
        }
        match self.number {
            Some(number) => format!(
                "no list open: game {number} was opened alone; {} lists the games of its file",
                self.key_for("list", ":list")
            ),
            None => format!(
                "no list open: this game was recovered alone; {} lists the games of its file",
                self.key_for("list", ":list")
            ),
        }
    }

    /// The next (or previous) game of the list, in its sorted, filtered order.
    pub(super) fn step_game(&mut self, forward: bool) -> Effect {
        let Some(list) = self.list.as_deref() else {
            self.inform(self.no_list_note());
            return Effect::None;
        };
        let here = list
            .open
            .and_then(|n| list.catalog.position_of(n))
            .unwrap_or(list.selected);
        let next = if forward {
            here.checked_add(1)
        } else {
            here.checked_sub(1)
        };
        let Some(row) = next.and_then(|p| list.catalog.get(p)) else {
            self.inform(if forward {
                "this is the last game of the list"
            } else {
                "this is the first game of the list"
            });
            return Effect::None;
        };
        let number = row.number;
        self.open_game_of_list(number)
    }

    /// A game of another file was opened (`:e OTHER.pgn` from the list): it is
    /// shown, and the list of the file left goes with it (Ctrl-L, Alt-Down would
    /// go on in a file no longer open).
    pub(super) fn left_list(&mut self) {
        self.list = None;
        self.screen = Screen::Game;
    }

    /// The loop opened game `number` of the list (as any game opens: see
    /// [`App::open_game`]): the list remembers it and selects it. True when the game went
    /// to the position a search found it at.
    pub(super) fn opened_from_list(&mut self, number: u64) -> bool {
        // A game found by a `pos:` term (or `:search`) opens where it reaches the
        // position.
        let ply = self.list().and_then(|l| l.catalog.reached(number));
        let mut at_search = false;
        if let Some(ply) = ply {
            let line = self.game.mainline();
            if let Some(node) = (ply as usize).checked_sub(1).and_then(|i| line.get(i)) {
                self.cursor = *node;
                at_search = true;
            }
        }
        if let Some(list) = self.list.as_deref_mut() {
            list.open = Some(number);
            if let Some(p) = list.catalog.position_of(number) {
                list.selected = p;
            }
        }
        self.screen = Screen::Game;
        at_search
    }
}

#[path = "list_events.rs"]
mod events;
