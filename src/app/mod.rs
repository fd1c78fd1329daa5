//! The recorder's state and the one place it changes: [`App::update`] takes an
//! [`Action`] and returns an [`Effect`] for the event loop to carry out (saving,
//! loading, journaling, quitting). Nothing here touches the terminal or a file,
//! so every behaviour of the screen is testable by calling `update`.

pub mod action;
mod annotate;
pub mod command;
pub mod comment;
pub mod docs;
pub mod editor;
pub mod entry;
pub mod help;
pub mod keymap;
#[cfg(test)]
mod keymap_tests;
pub mod list;
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
pub use keymap::Keymap;

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
    /// Open game `number` of the list's file, which the list found at `offset`
    /// (of its text) for `len` bytes.
    LoadAt {
        /// The file.
        path: PathBuf,
        /// Which game (from 1).
        number: usize,
        /// Where its text starts.
        offset: u64,
        /// How long it is.
        len: u64,
    },
    /// Open a file as `scoresheet FILE` does: its game when it has one, the
    /// list of its games when it has more.
    Browse {
        /// The file.
        path: PathBuf,
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
    /// Put `text` on the terminal's clipboard (OSC 52); `what` names it in the message.
    Copy {
        /// The text.
        text: String,
        /// What it is: `the FEN`, `the game`, `the line`.
        what: &'static str,
    },
    /// Append a position to the `.fen` file beside the game's file.
    Snap {
        /// The position's full FEN.
        fen: String,
        /// The game's number in its file.
        game: usize,
        /// Half-moves played to the position.
        ply: usize,
    },
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

/// What the event loop reports back after carrying out an effect. It comes in
/// through [`App::update`] like a key, so that every change of the state is made
/// there.
#[derive(Debug)]
pub enum Done {
    /// Rows of the list's file read in the background, its end, or an error.
    Listed(crate::catalog::LoadEvent),
    /// A message from the loop: a journal that cannot be written, a file that
    /// cannot be read, a save refused (`error`), or what it did.
    Notice {
        /// The text.
        text: String,
        /// A refusal or an error.
        error: bool,
    },
    /// The game was written to `path` (or was there as it is, `unchanged`).
    Saved {
        /// The file.
        path: PathBuf,
        /// Nothing needed writing.
        unchanged: bool,
    },
    /// A save wrote a game of a file again: it spanned `before` (offset, length) and
    /// spans `after` now; when it is the list's file, the list's rows follow.
    Rewrote {
        /// The file.
        path: PathBuf,
        /// Where the game was: its offset and length.
        before: (u64, u64),
        /// Where it is now.
        after: (u64, u64),
    },
    /// A game read from a file, to show in place of this one.
    Loaded {
        /// The game.
        game: Box<Game>,
        /// Its file.
        path: PathBuf,
        /// Its number in the file.
        number: usize,
    },
    /// A game read from a file up to a move that cannot be played: the part
    /// read, and the rest of its text, to repair.
    LoadedForRepair {
        /// The part read.
        game: Box<Game>,
        /// Its file.
        path: PathBuf,
        /// Where and why reading stopped.
        stop: String,
        /// The rest of the game's text, as written.
        rest: String,
        /// The main line stopped early.
        incomplete: bool,
    },
    /// A pasted game, opened in place of this one (which is empty or saved).
    Opened(Box<Game>),
    /// A file of many games opened: its list, which the loop fills.
    ListOpened {
        /// The file.
        path: PathBuf,
    },
    /// An unsaved game recovered from its journal.
    Recovered {
        /// The game.
        game: Box<Game>,
        /// The file it was to be saved to.
        out: Option<PathBuf>,
        /// What to say.
        message: String,
    },
    /// The unsaved games found, to offer in the recovery box.
    Unsaved {
        /// One description per game.
        games: Vec<String>,
        /// Journals that cannot be read.
        broken: Vec<String>,
    },
}

impl Done {
    /// An informative message from the loop.
    pub fn notice(text: impl Into<String>) -> Done {
        Done::Notice {
            text: text.into(),
            error: false,
        }
    }

    /// A refusal or an error from the loop.
    pub fn refusal(text: impl Into<String>) -> Done {
        Done::Notice {
            text: text.into(),
            error: true,
        }
    }
}

/// What [`App::update`] takes: a user's action, or the result of an effect.
#[derive(Debug)]
pub enum Msg {
    /// A key or a typed character.
    Action(Action),
    /// A key as the terminal sent it, for a window that edits text (the comment
    /// editor, the tag form) and reads keys itself; see [`App::takes_keys`].
    Key(crossterm::event::KeyEvent),
    /// Text pasted into the terminal; `whole` when it arrived complete.
    Paste {
        /// The text.
        text: String,
        /// False when the terminal's paste was cut short.
        whole: bool,
    },
    /// An effect carried out.
    Done(Done),
}

impl From<Action> for Msg {
    fn from(action: Action) -> Msg {
        Msg::Action(action)
    }
}

impl From<Done> for Msg {
    fn from(done: Done) -> Msg {
        Msg::Done(done)
    }
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
    /// The comment editor: it takes the keys ([`Msg::Key`]) until done.
    Comment(Box<comment::CommentEditor>),
    /// The tag form: it takes the keys until done.
    Tags(Box<tagform::TagForm>),
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

/// How the game screen shows the moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MovesView {
    /// The scoresheet: the main line in two columns, as recorded on paper.
    #[default]
    Sheet,
    /// The moves as a book prints them, variations in parentheses in the text.
    Inline,
    /// The moves as a book prints them, each variation indented on its own lines.
    Indented,
}

impl MovesView {
    /// Its name, as `:view` takes it.
    pub fn name(self) -> &'static str {
        match self {
            MovesView::Sheet => "sheet",
            MovesView::Inline => "text",
            MovesView::Indented => "indented",
        }
    }

    /// The view called `name`.
    pub fn by_name(name: &str) -> Option<MovesView> {
        [MovesView::Sheet, MovesView::Inline, MovesView::Indented]
            .into_iter()
            .find(|v| v.name() == name)
    }
}

/// The screens of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Screen {
    /// A game: recording it, or reading and annotating it.
    Game,
    /// The games of a file.
    List,
}

impl Screen {
    /// Its name in messages and the help (`game`, `list`).
    pub fn name(self) -> &'static str {
        match self {
            Screen::Game => "game",
            Screen::List => "list",
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
    /// When the running move timer last stamped (or started).
    pub timer: Option<Instant>,
    /// Moves cut off by a correction, waiting for the right move.
    pub pending: Option<Pending>,
    /// The opening's name, when it is known.
    pub opening: Option<String>,
    /// The screen shown.
    pub screen: Screen,
    /// Which key runs which action.
    pub keymap: Keymap,
    /// At a fork, the move chosen to go forward to (an index into the current
    /// move's next moves), when it is not the first.
    pub fork: usize,
    /// The games of the file opened, when it has more than one.
    pub list: Option<Box<list::GameList>>,
    /// How the moves are shown.
    pub moves_view: MovesView,
    /// The user chose the view: opening a game keeps it.
    pub(super) view_chosen: bool,
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
            screen: Screen::Game,
            keymap: Keymap::default(),
            fork: 0,
            list: None,
            moves_view: MovesView::Sheet,
            view_chosen: false,
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
    fn saved(&mut self, path: PathBuf) {
        self.inform(format!("saved to {}", path.display()));
        self.file = Some(path);
        self.unsaved = false;
        self.versions.mark_saved();
        self.journal_due = true;
    }

    /// Replaces the game (a loaded file, a recovered journal, a new game). Its
    /// history starts here: undo does not go back into the game before.
    pub(crate) fn replace_game(&mut self, game: Game, file: Option<PathBuf>, unsaved: bool) {
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
        self.feedback = match self.game_feedback(feedback) {
            Feedback::Empty => self.fork_note().map_or(Feedback::Empty, Feedback::Note),
            other => other,
        };
    }

    /// At a fork, the moves played next, the one chosen in brackets, and the keys.
    fn fork_note(&self) -> Option<String> {
        let children = &self.game.node(self.cursor).children;
        if children.len() < 2 || self.screen != Screen::Game {
            return None;
        }
        let moves: Vec<String> = children
            .iter()
            .enumerate()
            .map(|(i, &id)| {
                let san = &self.game.node(id).san;
                if i == self.fork {
                    format!("[{san}]")
                } else {
                    san.clone()
                }
            })
            .collect();
        Some(format!(
            "next: {} — {}/{} choose, {} plays it, {} enters the variation",
            moves.join(" "),
            self.key_for("history-prev", "Up"),
            self.key_for("history-next", "Down"),
            self.key_for("move-forward", "Right"),
            self.key_for("enter-variation", "Shift-Right"),
        ))
    }

    /// The one place the state changes: a user's action, or the result of an
    /// effect the loop carried out.
    pub fn update(&mut self, msg: impl Into<Msg>) -> Effect {
        let action = match msg.into() {
            Msg::Action(action) => action,
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
                _ => return self.paste(&text, whole),
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
            // They take keys as keys (`Msg::Key`); an action reaching them (a test,
            // a key the loop mapped) is ignored rather than lose their text.
            Overlay::Comment(_) | Overlay::Tags(_) => return Effect::None,
            Overlay::None => {}
        }
        let cursor = self.cursor;
        let effect = match action {
            Action::Type(c) if self.screen == Screen::List => self.list_type(c),
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
            let save = if self.screen == Screen::List {
                format!(
                    "{} back to the game and :w to save",
                    self.key_for("list", ":list")
                )
            } else {
                ":w to save".to_string()
            };
            self.refuse(format!(
                "unsaved game: press again to quit (the journal keeps it for `scoresheet recover`), or {save}"
            ));
            Effect::None
        } else {
            Effect::Quit { discard: false }
        }
    }

    /// A game opened from a file's list is read as a book prints it (unless the
    /// user chose a view): the scoresheet's two columns suit recording.
    fn read_as_book(&mut self) {
        if self.moves_view == MovesView::Sheet && !self.view_chosen {
            self.moves_view = MovesView::Indented;
        }
        // A move typed inside a game being read is a variation, not a correction.
        self.inside = Inside::Variation;
    }

    /// The next way of showing the moves: sheet, text, indented.
    fn next_view(&mut self) -> Effect {
        self.moves_view = match self.moves_view {
            MovesView::Sheet => MovesView::Inline,
            MovesView::Inline => MovesView::Indented,
            MovesView::Indented => MovesView::Sheet,
        };
        self.view_chosen = true;
        self.inform(format!(
            "moves shown as {} (:view sheet|text|indented)",
            self.moves_view.name()
        ));
        Effect::None
    }

    /// True when a window that edits text is open: the loop gives it the keys as
    /// they come ([`Msg::Key`]), not through the keymap.
    pub fn takes_keys(&self) -> bool {
        matches!(self.overlay, Overlay::Comment(_) | Overlay::Tags(_))
    }

    /// A key for the comment editor or the tag form; done writes into the game
    /// (one change, undone as one).
    fn editor_key(&mut self, key: crossterm::event::KeyEvent) -> Effect {
        let overlay = std::mem::replace(&mut self.overlay, Overlay::None);
        match overlay {
            Overlay::Comment(mut editor) => match editor.key(key) {
                comment::CommentOutcome::Open => self.overlay = Overlay::Comment(editor),
                comment::CommentOutcome::Done => return self.keep_comment(&editor),
                comment::CommentOutcome::Cancelled => self.inform("comment left as it was"),
            },
            Overlay::Tags(mut form) => match form.key(key) {
                tagform::FormOutcome::Open => self.overlay = Overlay::Tags(form),
                tagform::FormOutcome::Done => return self.keep_tags(&form),
                tagform::FormOutcome::Cancelled => self.inform("tags left as they were"),
            },
            other => self.overlay = other,
        }
        Effect::None
    }

    /// Opens the comment editor on the comment before or after the current move.
    fn open_comment(&mut self, place: crate::game::notes::CommentPlace) -> Effect {
        let editor = comment::CommentEditor::open(&self.game, self.cursor, place);
        self.overlay = Overlay::Comment(Box::new(editor));
        Effect::None
    }

    /// Copies the FEN, the game or the current line to the clipboard.
    fn copy(&mut self, clip: crate::pgn::writer::Clip) -> Effect {
        use crate::pgn::writer::{clip_text, Clip};
        let what = match clip {
            Clip::Fen => "the FEN",
            Clip::Game => "the game",
            Clip::Line => "the line",
        };
        Effect::Copy {
            text: clip_text(&self.game, self.cursor, clip),
            what,
        }
    }

    /// `:snap`: the current position to the `.fen` file beside the game's.
    fn snap(&mut self) -> Effect {
        let game = self.list().and_then(|l| l.open).unwrap_or(1);
        Effect::Snap {
            fen: self.position().fen(),
            game: usize::try_from(game).unwrap_or(usize::MAX),
            ply: self.game.ply_of(self.cursor),
        }
    }

    /// Opens the tag form.
    pub(super) fn open_tags(&mut self) -> Effect {
        self.overlay = Overlay::Tags(Box::new(tagform::TagForm::open(&self.game)));
        Effect::None
    }

    /// Takes in what the loop did.
    fn done(&mut self, done: Done) {
        match done {
            Done::Notice { text, error } => {
                self.message = Message { text, error };
            }
            Done::Saved { path, unchanged } => {
                self.saved(path.clone());
                if unchanged {
                    self.inform(format!("no changes: {} is as it was", path.display()));
                }
            }
            Done::Rewrote {
                path,
                before,
                after,
            } => self.rewrote(&path, before, after),
            Done::Listed(event) => {
                self.listed(event);
                return;
            }
            Done::ListOpened { path } => {
                self.list = Some(Box::new(list::GameList::new(path)));
                self.screen = Screen::List;
            }
            Done::Loaded { game, path, number } => {
                self.inform(format!("game {number} of {}", path.display()));
                let of_list = self
                    .list()
                    .is_some_and(|l| crate::store::target::same_file(&l.path, &path));
                self.replace_game(*game, Some(path), false);
                if of_list {
                    self.read_as_book();
                    self.opened_from_list(number as u64);
                }
            }
            Done::LoadedForRepair {
                game,
                path,
                stop,
                rest,
                incomplete,
            } => self.open_for_repair(*game, path, &stop, &rest, incomplete),
            Done::Opened(game) => {
                let file = self.file.clone();
                self.replace_game(*game, file, true);
                // Not a game of the list: the list no longer has it open.
                if let Some(list) = self.list.as_deref_mut() {
                    list.open = None;
                }
                self.screen = Screen::Game;
            }
            Done::Recovered { game, out, message } => {
                self.replace_game(*game, out, true);
                self.inform(message);
            }
            Done::Unsaved { games, broken } => self.offer_recovery(games, broken),
        }
        self.refresh_feedback();
        self.refresh_opening();
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
        // Forward from a fork takes the move chosen there with Up/Down; then first choices.
        let mut chosen = self.fork;
        for _ in 0..steps.unsigned_abs() {
            let node = self.game.node(self.cursor);
            let next = if steps < 0 {
                node.parent
            } else {
                node.children
                    .get(std::mem::take(&mut chosen))
                    .or(node.children.first())
                    .copied()
            };
            match next {
                Some(id) => self.cursor = id,
                None => break,
            }
        }
        Effect::None
    }

    /// Up and Down: at a fork (more than one move played after the current
    /// one) with nothing typed, they choose among its moves; otherwise they
    /// recall the entries typed before.
    fn up_down(&mut self, up: bool) -> Effect {
        let count = self.game.node(self.cursor).children.len();
        if count > 1 && self.entry.is_empty() {
            self.fork = if up {
                (self.fork + count - 1) % count
            } else {
                (self.fork + 1) % count
            };
            return Effect::None;
        }
        self.recall(up);
        Effect::None
    }

    /// Goes into a variation at the current move: the one chosen at the fork,
    /// else the first side line.
    fn enter_variation(&mut self) -> Effect {
        let children = &self.game.node(self.cursor).children;
        let pick = if self.fork > 0 { self.fork } else { 1 };
        match children.get(pick) {
            Some(&id) => {
                self.cursor = id;
                Effect::None
            }
            None => {
                self.inform("no variation starts here");
                Effect::None
            }
        }
    }

    /// Leaves the variation the current move is in: back to the move it
    /// branches from (the move before the variation's first move).
    fn leave_variation(&mut self) -> Effect {
        let mut at = self.cursor;
        while let Some(parent) = self.game.node(at).parent {
            if self.game.node(parent).children.first() != Some(&at) {
                self.fork = self
                    .game
                    .node(parent)
                    .children
                    .iter()
                    .position(|&c| c == at)
                    .unwrap_or(0);
                self.cursor = parent;
                return Effect::None;
            }
            at = parent;
        }
        self.inform("not in a variation");
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
