//! The recorder's state and the one place it changes: [`App::update`] takes an
//! [`Action`] and returns an [`Effect`] for the event loop to carry out (saving,
//! loading, journaling, quitting). Nothing here touches the terminal or a file,
//! so every behaviour of the screen is testable by calling `update`.

pub mod action;
mod annotate;
pub mod command;
pub mod comment;
pub mod editor;
pub mod entry;
pub mod help;
pub mod paste;
mod record;
mod recovery;
mod repair;
mod result;
pub mod tagform;
pub use record::today;
#[cfg(test)]
mod tests;
mod undo;

use std::path::PathBuf;
use std::time::Instant;

pub use action::Action;
use entry::Feedback;

use crate::game::history::History;
use crate::game::{Game, NodeId};
use crate::notation::{Lang, Style};
use crate::position::{Move, Position};

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

/// What the event loop must do after an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond drawing.
    None,
    /// Write the game to this file; quit afterwards if `then_quit` and it worked.
    Save {
        /// The file.
        path: PathBuf,
        /// `:wq`.
        then_quit: bool,
        /// `:w!`: replace a read-only file too.
        force: bool,
    },
    /// Open game `number` (1-based) of a file in place of this one.
    Load {
        /// The file.
        path: PathBuf,
        /// Which game.
        number: usize,
    },
    /// This game is done with (saved or discarded): a fresh game follows.
    NewGame,
    /// Open this game (pasted) in place of the current one, which is empty or
    /// saved: its journal is closed and the new game gets its own.
    Open(Box<Game>),
    /// An answer in the box of unsaved games, or `:recover` asking for it.
    Recovery(Recovery),
    /// Leave; `discard` when the user said to throw the unsaved game away.
    Quit {
        /// `:q!`: the journal goes too.
        discard: bool,
    },
}

/// What to do with the unsaved games of the recovery box (numbered as its lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// Open this one and go on recording it (the game on the screen, if unsaved,
    /// stays in its journal).
    Recover(usize),
    /// Throw this one away (asked twice).
    Discard(usize),
    /// Leave them all for later (`:recover`, the next start, `scoresheet recover`).
    Later,
    /// `:recover`: show the box again.
    Offer,
}

/// A line on the status bar.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Message {
    /// The text.
    pub text: String,
    /// True for a refusal or an error (shown in red).
    pub error: bool,
}

/// A window over the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    /// None: recording.
    None,
    /// The keys and commands.
    Help,
    /// Choosing the piece a pawn promotes to; the choices in queen, rook, bishop,
    /// knight order.
    Promotion(Vec<Move>),
    /// Unsaved games from an earlier run (or set aside in this one), to recover,
    /// discard or leave for later.
    Recover(RecoverBox),
}

/// The box of unsaved games: a list with a selection. Only Enter, Delete, the
/// arrows and Esc act in it; typed text closes it and goes to the entry line,
/// so a move typed at once (`d4`) can neither discard nor recover anything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecoverBox {
    /// One description line per unsaved game.
    pub games: Vec<String>,
    /// Journals that cannot be read: what and why, and what to do.
    pub broken: Vec<String>,
    /// The selected game (an index into `games`).
    pub selected: usize,
    /// Delete was pressed once: Delete again or Enter discards the selected game.
    pub confirm_discard: bool,
}

/// Moves cut off by a correction, waiting for the right move at `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// The node after which the first cut move was played.
    pub at: NodeId,
    /// The cut moves of the line, first the one that is no longer legal.
    pub moves: Vec<CutMove>,
}

/// A move cut off by a correction, with what was written beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutMove {
    /// Its SAN as it was.
    pub san: String,
    /// Its glyphs.
    pub nags: Vec<u8>,
    /// Its comments.
    pub comments: Vec<String>,
    /// Its draw offer.
    pub draw_offer: bool,
}

/// A row of the help screen: the keys, the action's name and what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpRow {
    /// The keys, as the user writes them (`Ctrl-Z, F1`).
    pub keys: String,
    /// The action's stable name.
    pub name: &'static str,
    /// What it does.
    pub doc: &'static str,
}

/// The recorder.
#[derive(Debug, Clone)]
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
    /// When the running move timer last stamped (or started).
    pub timer: Option<Instant>,
    /// Moves cut off by a correction, waiting for the right move.
    pub pending: Option<Pending>,
    /// The opening's name, when it is known.
    pub opening: Option<String>,
    /// The help screen's rows, from the key bindings.
    pub help: Vec<HelpRow>,
    /// The keys of the hint bar: (keys, short label).
    pub hints: Vec<(String, &'static str)>,
    /// Where the help screen is scrolled to.
    pub help_scroll: help::HelpScroll,
    history: Vec<String>,
    history_at: Option<usize>,
    quit_armed: bool,
    journal_due: bool,
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
            timer: settings.timer.then(Instant::now),
            pending: None,
            opening: None,
            help: Vec::new(),
            hints: Vec::new(),
            help_scroll: help::HelpScroll::default(),
            history: Vec::new(),
            history_at: None,
            quit_armed: false,
            journal_due: false,
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
    pub fn saved(&mut self, path: PathBuf) {
        self.inform(format!("saved to {}", path.display()));
        self.file = Some(path);
        self.unsaved = false;
        self.versions.mark_saved();
        self.journal_due = true;
    }

    /// Replaces the game (a loaded file, a recovered journal, a new game). Its
    /// history starts here: undo does not go back into the game before.
    pub fn replace_game(&mut self, game: Game, file: Option<PathBuf>, unsaved: bool) {
        self.game = game;
        self.file = file;
        self.unsaved = unsaved;
        self.pending = None;
        self.cursor = self.line_end(NodeId::ROOT);
        self.versions = undo::fresh(self);
        self.entry.clear();
        self.refresh_feedback();
        self.refresh_opening();
        self.journal_due = true;
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
        self.feedback = self.game_feedback(feedback);
    }

    /// The one place the state changes.
    pub fn update(&mut self, action: Action) -> Effect {
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
                    Action::HistoryPrev | Action::MoveBack => scroll.scroll(-1),
                    Action::HistoryNext | Action::MoveForward => scroll.scroll(1),
                    Action::PageBack => scroll.scroll(-scroll.page_lines()),
                    Action::PageForward => scroll.scroll(scroll.page_lines()),
                    Action::GoStart => scroll.top.set(0),
                    Action::GoEnd => scroll.top.set(usize::MAX),
                    // A character closes it and goes on the entry line: typing a move
                    // with the help open loses no key.
                    Action::Type(_) => self.overlay = Overlay::None,
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
            Overlay::None => {}
        }
        let effect = match action {
            Action::Type(c) => {
                self.entry.push(c);
                self.history_at = None;
                Effect::None
            }
            Action::PlayEntry => self.play_entry(),
            Action::EraseChar => {
                self.entry.pop();
                Effect::None
            }
            Action::ClearEntry => {
                self.entry.clear();
                Effect::None
            }
            Action::Cancel => {
                self.entry.clear();
                self.message = Message::default();
                Effect::None
            }
            Action::HistoryPrev => {
                self.recall(true);
                Effect::None
            }
            Action::HistoryNext => {
                self.recall(false);
                Effect::None
            }
            Action::MoveBack => self.walk(-1),
            Action::MoveForward => self.walk(1),
            // Ten moves of each side, as the keys' description says.
            Action::PageBack => self.walk(-20),
            Action::PageForward => self.walk(20),
            Action::GoStart => self.go(NodeId::ROOT),
            Action::GoEnd => self.go(self.line_end(self.cursor)),
            Action::NextVariation => self.next_variation(),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::TakeBack => self.take_back(),
            Action::DeleteFromHere => self.delete_from_here(),
            Action::PromoteVariation => self.promote_variation(),
            Action::ToggleReplace => {
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
            Action::FlipBoard => {
                self.flipped = !self.flipped;
                Effect::None
            }
            Action::Help => {
                self.overlay = Overlay::Help;
                self.help_scroll.top.set(0);
                Effect::None
            }
            Action::Nag(nag) => self.mark_nag(nag),
            Action::ToggleDrawOffer => self.toggle_draw_offer(),
            Action::EditComment => {
                if self.cursor == NodeId::ROOT && self.game.is_empty() {
                    self.entry = "{".into();
                } else {
                    self.entry = format!("{{{}", self.game.comment_text(self.cursor));
                }
                Effect::None
            }
            Action::ToggleTimer => {
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
            Action::Save => self.run_command("w"),
            Action::Quit => {
                if self.unsaved && !self.quit_armed {
                    self.quit_armed = true;
                    self.refuse("unsaved game: press again to quit (the journal keeps it for `scoresheet recover`), or :w to save");
                    Effect::None
                } else {
                    Effect::Quit { discard: false }
                }
            }
        };
        effect
    }

    /// Names the opening of the line to the current move.
    pub fn refresh_opening(&mut self) {
        self.opening = crate::study::eco::of_line(&self.game, self.cursor).map(ToString::to_string);
    }

    fn recall(&mut self, back: bool) {
        if self.history.is_empty() {
            return;
        }
        let last = self.history.len() - 1;
        let at = match (self.history_at, back) {
            (None, true) => Some(last),
            (None, false) => None,
            (Some(i), true) => Some(i.saturating_sub(1)),
            (Some(i), false) if i < last => Some(i + 1),
            (Some(_), false) => None,
        };
        self.history_at = at;
        self.entry = at.map(|i| self.history[i].clone()).unwrap_or_default();
    }

    fn remember(&mut self, text: &str) {
        if self.history.last().map(String::as_str) != Some(text) {
            self.history.push(text.to_string());
        }
        self.history_at = None;
    }

    fn go(&mut self, id: NodeId) -> Effect {
        self.cursor = id;
        Effect::None
    }

    fn walk(&mut self, steps: i32) -> Effect {
        for _ in 0..steps.unsigned_abs() {
            let next = if steps < 0 {
                self.game.node(self.cursor).parent
            } else {
                self.game.node(self.cursor).children.first().copied()
            };
            match next {
                Some(id) => self.cursor = id,
                None => break,
            }
        }
        Effect::None
    }

    fn next_variation(&mut self) -> Effect {
        let siblings = self.game.variations_at(self.cursor);
        if siblings.len() < 2 {
            self.inform("no other move was played here");
            return Effect::None;
        }
        let i = siblings.iter().position(|&s| s == self.cursor).unwrap_or(0);
        self.cursor = siblings[(i + 1) % siblings.len()];
        Effect::None
    }
}
