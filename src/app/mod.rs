//! The recorder's state and the one place it changes: [`App::update`] takes an
//! [`Action`] and returns an [`Effect`] for the event loop to carry out (saving,
//! loading, journaling, quitting). Nothing here touches the terminal or a file,
//! so every behaviour of the screen is testable by calling `update`.

pub mod action;
mod annotate;
pub mod annotating;
pub mod command;
pub mod comment;
mod correct;
pub mod docs;
pub mod editor;
mod effect;
pub mod engine;
pub mod entry;
pub mod help;
pub mod keymap;
#[cfg(test)]
mod keymap_tests;
pub mod list;
pub mod mode;
pub mod paste;
mod record;
mod recovery;
mod repair;
mod result;
pub mod study;
pub mod tagform;
pub mod train;
#[cfg(test)]
mod train_tests;
pub use record::today;
mod navigate;
mod open;
pub mod pane;
#[cfg(test)]
mod tests;
mod undo;
mod view;
mod windows;

use std::path::PathBuf;
use std::time::Instant;

pub use action::Action;
pub use effect::{Done, Effect, Msg, Placed, Recovery};
use entry::Feedback;
pub use keymap::Keymap;
pub use mode::Mode;
pub use view::{CutMove, Message, MovesView, Overlay, Pending, RecoverBox, Screen};

use crate::game::history::History;
use crate::game::{Game, NodeId};
use crate::notation::{Lang, Style};
use crate::position::Position;

pub use crate::config::Inside;

/// The user's choices that the recorder acts on (the board's look is the
/// screen's business).
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Piece letters for typed moves.
    pub input_lang: &'static Lang,
    /// How moves are shown on the scoresheet.
    pub display: Style,
    /// Piece letters on the scoresheet.
    pub display_lang: &'static Lang,
    /// What typing inside a game does at first.
    pub inside: Inside,
    /// Write the file after every confirmed move when the game has one.
    pub autosave: bool,
    /// Start with the move timer running.
    pub timer: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            input_lang: Lang::english(),
            display: Style::San,
            display_lang: Lang::english(),
            inside: Inside::Replace,
            autosave: false,
            timer: false,
        }
    }
}

/// The recorder.
#[derive(Debug)]
pub struct App {
    /// The user's choices.
    pub settings: Settings,
    /// The game being recorded.
    pub game: Game,
    /// The current move (the root before the first move); the board shows the
    /// position after it and a typed move is played after it.
    pub cursor: NodeId,
    /// The text on the entry line.
    pub entry: String,
    /// Feedback on the entry line's text.
    pub feedback: Feedback,
    /// The window over the screen, if any.
    pub overlay: Overlay,
    /// Black at the bottom.
    pub flipped: bool,
    /// What typing inside the game does now.
    pub inside: Inside,
    /// The status bar.
    pub message: Message,
    /// The file `:w` writes.
    pub file: Option<PathBuf>,
    /// True when the game has changes that are not in its file.
    pub unsaved: bool,
    /// The game's number in its file, when it was read from one (`:e FILE N`, the
    /// list): `:snap` says where a position comes from.
    pub number: Option<u64>,
    /// How many games the game's file holds, when known without its list: after a
    /// save that added the game there (`:w OTHER.pgn`), the status corner says
    /// `game 8 of 8 in OTHER.pgn`.
    pub games_in_file: Option<u64>,
    /// Where the text of the game on the screen starts in its file, when it was
    /// recovered from a journal and its number is not known yet: the list of the file
    /// tells it once it has read that far (see `App::number_recovered`).
    unnumbered: Option<u64>,
    /// When the running move timer last stamped (or started).
    pub timer: Option<Instant>,
    /// Updates so far: the loop draws a frame only when this (or the terminal, or the
    /// timer's second) changed since the last one.
    changes: u64,
    /// Moves cut off by a correction, waiting for the right move.
    pub pending: Option<Pending>,
    /// The opening's name, when it is known.
    pub opening: Option<String>,
    /// The screen shown.
    pub screen: Screen,
    /// Which key runs which action (set with [`App::set_keymap`], which sets
    /// the mode too).
    pub keymap: Keymap,
    /// What characters do on the game screen (always insert without the vim preset).
    pub mode: Mode,
    /// At a fork, the move chosen to go forward to (an index into the current
    /// move's next moves), when it is not the first.
    pub fork: usize,
    /// The games of the file opened, when it has more than one.
    pub list: Option<Box<list::GameList>>,
    /// How the moves are shown.
    pub moves_view: MovesView,
    /// The study pane under the moves (engine or opening tree), if any.
    pub pane: pane::Pane,
    /// The opening tree pane's state.
    pub tree: study::TreeView,
    /// The engine pane: what the engine is doing and its lines.
    pub engine: engine::EngineView,
    /// `:annotate` under way: the loop runs the engine while this is set.
    pub annotating: Option<annotating::Annotating>,
    /// The user chose the view: opening a game keeps it.
    pub(super) view_chosen: bool,
    /// Where the help screen is scrolled to.
    pub help_scroll: help::HelpScroll,
    /// Training: your name, and the session under way.
    pub train: train::Trainer,
    history: Vec<String>,
    history_at: Option<usize>,
    /// What was on the entry line when Up began recalling: Down past the last entry
    /// gives it back, as a shell does.
    history_draft: String,
    quit_armed: bool,
    journal_due: bool,
    /// The loop said the last change could not be journaled ([`Done::Journal`]): an
    /// unsaved game left now is lost, not kept for `scoresheet recover`.
    pub(crate) unjournaled: bool,
    /// The moves typed after a result, asked about once: Enter again plays them.
    play_on: Option<String>,
    /// The positions since the last capture or pawn move on the way to the move last
    /// played, kept so that playing a long line does not rebuild them at every move.
    line_history: Option<(NodeId, crate::position::History)>,
    /// Every version of the game, for undo and redo.
    versions: History<undo::Mark>,
    /// Counts the calls of `changed`: an update that moved it changed the game.
    edits: u64,
    /// What the change being made is called on undo and redo, when the message
    /// does not say it well.
    change_label: Option<String>,
    /// The moves played by the update being made, to name the change.
    played: Vec<NodeId>,
}

impl App {
    /// A recorder on `game`, saving to `file`.
    pub fn new(settings: Settings, game: Game, file: Option<PathBuf>) -> Self {
        let mut app = App {
            settings,
            game,
            cursor: NodeId::ROOT,
            entry: String::new(),
            feedback: Feedback::Empty,
            overlay: Overlay::None,
            flipped: false,
            inside: settings.inside,
            message: Message::default(),
            file,
            unsaved: false,
            number: None,
            games_in_file: None,
            unnumbered: None,
            timer: settings.timer.then(Instant::now),
            changes: 0,
            pending: None,
            opening: None,
            screen: Screen::Game,
            keymap: Keymap::default(),
            mode: Mode::Insert,
            fork: 0,
            list: None,
            moves_view: MovesView::Sheet,
            pane: pane::Pane::None,
            tree: study::TreeView::default(),
            engine: engine::EngineView::default(),
            annotating: None,
            view_chosen: false,
            help_scroll: help::HelpScroll::default(),
            train: train::Trainer::default(),
            history: Vec::new(),
            history_at: None,
            history_draft: String::new(),
            quit_armed: false,
            journal_due: false,
            unjournaled: false,
            play_on: None,
            line_history: None,
            versions: History::new(
                Game::default(),
                undo::Mark {
                    cursor: NodeId::ROOT,
                    pending: None,
                },
                true,
            ),
            edits: 0,
            change_label: None,
            played: Vec::new(),
        };
        app.cursor = app.line_end(NodeId::ROOT);
        app.versions = undo::fresh(&app);
        app.refresh_opening();
        app
    }

    /// The position the board shows: after the current move.
    pub fn position(&self) -> Position {
        self.game.position_at(self.cursor)
    }

    /// True (once) when the game changed since the last call: the loop writes the
    /// journal before the next frame confirms the change.
    pub fn take_journal_due(&mut self) -> bool {
        // The game on the screen while training is the training's own: the game set
        // aside is journaled as it was, and again after training if it changes.
        if self.training() {
            return false;
        }
        std::mem::take(&mut self.journal_due)
    }

    /// Shows an informative message.
    pub fn inform(&mut self, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            error: false,
        };
    }

    /// Shows a refusal or an error.
    pub fn refuse(&mut self, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            error: true,
        };
    }

    /// The loop saved the game to `path`.
    fn saved(&mut self, path: PathBuf, placed: Placed) {
        self.inform(format!("saved to {}", path.display()));
        // Saved as another file (`:w OTHER.pgn`): the game is that file's now, said so
        // that a plain `:w` writing there, not back into the first file, is no surprise.
        let elsewhere = self
            .file
            .as_deref()
            .filter(|before| !crate::store::target::same_file(before, &path));
        if let (Placed::Added(_), Some(before)) = (placed, elsewhere) {
            self.inform(format!(
                "saved to {}; :w writes there from now on ({} is as it was)",
                path.display(),
                before.display()
            ));
        }
        if let Placed::Added(number) = placed {
            // Added to a file (`:w OTHER.pgn`, a new game): not the number it had in
            // the file it was read from, but its place there, last (`:snap` finds it
            // when it was not counted).
            self.number = number;
            self.games_in_file = number;
            if let Some(list) = self.list.as_deref_mut() {
                if !crate::store::target::same_file(&list.path, &path) {
                    list.open = None;
                } else if let crate::catalog::LoadStatus::Failed(e) = list.catalog.status() {
                    // Reading the file stopped short of its end: the list cannot tell
                    // which game of the file it is, so it has no row (said, not hidden).
                    list.open = None;
                    let text = format!(
                        "saved to {}{}; not in the list, whose reading of the file stopped \
                         ({e}): :e {} lists the file again",
                        path.display(),
                        number.map_or(String::new(), |n| format!(" as its game {n}")),
                        path.display()
                    );
                    self.inform(text);
                } else {
                    // Added to the list's file (its row came with `Done::Rewrote`): the
                    // list's game now, as if opened from it (selected on the list).
                    list.open = number;
                }
            }
        }
        self.file = Some(path);
        self.unsaved = false;
        self.versions.mark_saved();
        self.journal_due = true;
    }

    /// Replaces the game (a loaded file, a recovered journal, a new game). Its
    /// history starts here: undo does not go back into the game before.
    pub(crate) fn replace_game(&mut self, game: Game, file: Option<PathBuf>, unsaved: bool) {
        // `:annotate`'s result is for the game it was given: another game (even one
        // with the same moves, a copy elsewhere in the file) must not get it.
        self.annotating = None;
        self.game = game;
        self.file = file;
        self.unsaved = unsaved;
        self.number = None;
        self.games_in_file = None;
        self.unnumbered = None;
        // Moves that waited after a correction when the game was saved or journaled
        // wait again.
        self.pending = correct::waiting_in(&self.game);
        self.cursor = self.recording_point();
        self.versions = undo::fresh(self);
        self.entry.clear();
        self.refresh_feedback();
        self.refresh_opening();
        self.journal_due = true;
    }

    /// Where recording goes on in the game as it opens: where moves wait (they wait
    /// for the right move, in a variation too), else the main line's last move.
    pub(crate) fn recording_point(&self) -> NodeId {
        match &self.pending {
            Some(pending) => pending.at,
            None => self.line_end(NodeId::ROOT),
        }
    }

    /// The last move of the line through `id`, following first choices.
    pub fn line_end(&self, id: NodeId) -> NodeId {
        let mut at = id;
        while let Some(next) = self.game.node(at).children.first() {
            at = *next;
        }
        at
    }

    fn changed(&mut self) {
        self.edits += 1;
        self.unsaved = true;
        self.journal_due = true;
        self.quit_armed = false;
    }

    /// Recomputes the live feedback after the entry line or the position changed.
    pub fn refresh_feedback(&mut self) {
        let feedback = entry::feedback(&self.entry, &self.position(), self.settings.input_lang);
        self.feedback = match self.game_feedback(feedback) {
            Feedback::Empty => self.fork_note().map_or(Feedback::Empty, Feedback::Note),
            other => other,
        };
    }

    /// How many updates the app had: what it shows can have changed only when this
    /// did (see [`App::update`]).
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// The one place the state changes: a user's action, or the result of an
    /// effect the loop carried out.
    pub fn update(&mut self, msg: impl Into<Msg>) -> Effect {
        self.changes += 1;
        let action = match msg.into() {
            Msg::Action(action) => action,
            // Training's answers may reveal moves: the opening follows them.
            Msg::Done(Done::Judged(scores)) => {
                let effect = self.judged(scores);
                self.refresh_feedback();
                self.refresh_opening();
                return effect;
            }
            Msg::Done(Done::Solved(best)) => {
                let effect = self.solved(best);
                self.refresh_feedback();
                self.refresh_opening();
                return effect;
            }
            Msg::Done(done) => {
                self.done(done);
                return Effect::None;
            }
            Msg::Paste { text, whole } => match &mut self.overlay {
                Overlay::Comment(editor) => {
                    editor.paste(&text);
                    return Effect::None;
                }
                Overlay::Tags(form) => {
                    form.paste(&text);
                    return Effect::None;
                }
                _ if self.screen == Screen::List => return self.list_paste(&text, whole),
                _ => {
                    let effect = self.paste(&text, whole);
                    self.settle_mode();
                    return effect;
                }
            },
            Msg::Key(key) => {
                self.message = Message::default();
                return self.recorded(|app| app.editor_key(key));
            }
        };
        // A message lives until the next action that is not about it: editing
        // the entry line keeps it (it may be the reason the text is still there);
        // anything else clears it, and may set its own.
        let editing =
            self.overlay == Overlay::None && matches!(action, Action::Type(_) | Action::EraseChar);
        if !editing {
            self.message = Message::default();
        }
        let cursor = self.cursor;
        let edits = self.edits;
        let effect = self.recorded(|app| app.dispatch(action));
        self.settle_mode();
        if matches!(effect, Effect::Quit { .. }) {
            // The loop closes the session on the game set aside, not the training's.
            self.end_training();
        }
        self.refresh_feedback();
        // The opening depends on the moves up to the cursor only: most keys
        // (typing on the entry line) leave it as it is.
        if self.cursor != cursor || self.edits != edits {
            self.refresh_opening();
        }
        effect
    }

    fn dispatch(&mut self, action: Action) -> Effect {
        if !matches!(action, Action::Quit) {
            self.quit_armed = false;
        }
        if !matches!(action, Action::PlayEntry) {
            self.play_on = None;
        }
        match &self.overlay {
            Overlay::Help => {
                let scroll = &self.help_scroll;
                match action {
                    Action::HistoryPrev | Action::MoveBack | Action::ListUp => scroll.scroll(-1),
                    Action::HistoryNext | Action::MoveForward | Action::ListDown => {
                        scroll.scroll(1)
                    }
                    Action::PageBack | Action::ListPageUp => scroll.scroll(-scroll.page_lines()),
                    Action::PageForward | Action::ListPageDown => {
                        scroll.scroll(scroll.page_lines())
                    }
                    Action::GoStart | Action::ListFirst => scroll.top.set(0),
                    Action::GoEnd | Action::ListLast => scroll.top.set(usize::MAX),
                    // A glyph's second sign after `?` opened the help (`?!`, `??` typed on
                    // an empty line) only closes it: typed on, it would put a glyph no one
                    // meant (`!` for `?!`). No move starts with one.
                    Action::Type('!' | '?') => {
                        self.overlay = Overlay::None;
                        return Effect::None;
                    }
                    // A character closes it and goes on the entry line: typing a move
                    // with the help open loses no key.
                    // So do the vim preset's ways to type (`i`, `:`).
                    Action::Type(_) | Action::InsertMode | Action::CommandLine => {
                        self.overlay = Overlay::None
                    }
                    // Esc, the help key again, or anything else closes it.
                    _ => {
                        self.overlay = Overlay::None;
                        return Effect::None;
                    }
                }
                if self.overlay != Overlay::None {
                    return Effect::None;
                }
            }
            Overlay::Promotion(choices) => return self.choose_promotion(choices.clone(), action),
            Overlay::Recover(_) => return self.answer_recover(action),
            // They take keys as keys (`Msg::Key`); an action reaching them (a test,
            // a key the loop mapped) is ignored rather than lose their text.
            Overlay::Comment(_) | Overlay::Tags(_) => return Effect::None,
            Overlay::None => {}
        }
        if self.refused_while_training(action) {
            return Effect::None;
        }
        let cursor = self.cursor;
        let effect = match action {
            Action::Type(c) if self.screen == Screen::List => self.list_type(c),
            Action::Type(c) if self.normal_mode() => self.refuse_in_normal_mode(c),
            Action::Type(c) => {
                self.entry.push(c);
                self.history_at = None;
                Effect::None
            }
            declared => match declared.decl() {
                Some(decl) if decl.screens.has(self.screen) => (decl.run)(self),
                _ => Effect::None,
            },
        };
        // A fork's choice is for the move it was made at (leaving a variation
        // chooses the variation left, to go back into it).
        if self.cursor != cursor && action != Action::LeaveVariation {
            self.fork = 0;
        }
        effect
    }

    fn toggle_replace(&mut self) -> Effect {
        self.inside = match self.inside {
            Inside::Variation => Inside::Replace,
            Inside::Replace => Inside::Variation,
        };
        self.inform(match self.inside {
            Inside::Variation => "a move typed inside the game now starts a variation",
            Inside::Replace => "a move typed inside the game now replaces the next one",
        });
        Effect::None
    }

    fn toggle_timer(&mut self) -> Effect {
        self.timer = match self.timer {
            Some(_) => {
                self.inform("move timer stopped");
                None
            }
            None => {
                self.inform("move timer running: each move gets the time it took ([%emt])");
                Some(Instant::now())
            }
        };
        Effect::None
    }

    fn quit_key(&mut self) -> Effect {
        if self.unsaved && !self.quit_armed {
            self.quit_armed = true;
            let save = self.save_command();
            let save = if self.screen == Screen::List {
                let list = self.key_for("list", ":list");
                format!("{list} back to the game and {save} to save")
            } else {
                format!("{save} to save")
            };
            self.refuse(if self.unjournaled {
                format!(
                    "unsaved game, and nothing is journaled: press again to quit and lose it, \
                     or {save}"
                )
            } else {
                format!(
                    "unsaved game: press again to quit (the journal keeps it for `scoresheet \
                     recover`), or {save}"
                )
            });
            Effect::None
        } else {
            Effect::Quit { discard: false }
        }
    }

    /// Names the opening of the line to the current move.
    pub fn refresh_opening(&mut self) {
        self.opening = crate::study::eco::of_line(&self.game, self.cursor).map(ToString::to_string);
    }
}
