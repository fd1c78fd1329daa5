//! What an update asks the event loop to do ([`Effect`]), what the loop reports
//! back ([`Done`]), and what [`App::update`] takes ([`Msg`]); and how the app
//! takes in what the loop did.

use std::path::PathBuf;

use super::{list, Action, App, Message, Screen};
use crate::game::Game;

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
        /// The game's number in its file; `None` when only where it was written there
        /// tells it (a game added to a file by `:w`), or it has no file (then 1).
        game: Option<usize>,
        /// Half-moves played to the position.
        ply: usize,
    },
    /// Open this game (pasted) in place of the current one, which is empty or
    /// saved: its journal is closed and the new game gets its own.
    Open(Box<Game>),
    /// An answer in the box of unsaved games, or `:recover` asking for it.
    Recovery(Recovery),
    /// Search a file, or build its opening tree, off the UI thread.
    Study(super::study::StudyJob),
    /// Gather a drill: the exercises due in the deck, and `name`'s mistakes in
    /// `file` not tried yet.
    Drill {
        /// The file to look for mistakes in (none: the due exercises only).
        file: Option<PathBuf>,
        /// Your name in its games.
        name: String,
        /// An engine judges answers and analyses the games without evaluations:
        /// mistakes without a better line written are offered too.
        engine: bool,
        /// How many of your games to look through, newest first (`None`: all).
        last: Option<usize>,
    },
    /// Record the first answer to an exercise in the deck, which schedules it.
    Review {
        /// The exercise.
        exercise: Box<crate::study::train::Exercise>,
        /// Passed at the first try.
        passed: bool,
    },
    /// Take an exercise out of the deck: the engine finds the game's own move best
    /// there, so it was no mistake to learn from.
    Forget {
        /// The exercise.
        exercise: Box<crate::study::train::Exercise>,
    },
    /// Ask an engine for the score after each of `moves` from `fen`: the answer to
    /// a training question that no annotation judges. The loop answers with
    /// [`Done::Judged`], in the background.
    Judge {
        /// The engine's program.
        engine: PathBuf,
        /// The position.
        fen: String,
        /// The moves (UCI).
        moves: Vec<String>,
        /// First the score of `fen` itself (the engine's best play there).
        best: bool,
    },
    /// Ask an engine for the best move in `fen` (an exercise with no better line
    /// written); the loop answers with [`Done::Solved`], in the background.
    Solve {
        /// The engine's program.
        engine: PathBuf,
        /// The position.
        fen: String,
    },
    /// Leave; `discard` when the user said to throw the unsaved game away.
    Quit {
        /// `:q!`: the journal goes too.
        discard: bool,
    },
}

/// Where a save put the game in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placed {
    /// Back in its place: its number there is the one it had.
    InPlace,
    /// Added at the end (`:w OTHER.pgn`, a new game): its number there, when it was
    /// counted, which is also how many games the file holds now.
    Added(Option<u64>),
}

/// What the event loop reports back after carrying out an effect. It comes in
/// through [`App::update`] like a key, so that every change of the state is made
/// there.
#[derive(Debug)]
pub enum Done {
    /// Rows of the list's file read in the background, its end, or an error.
    Listed(crate::catalog::LoadEvent),
    /// What the check of the list's games found (see `catalog::check`).
    Checked(crate::catalog::check::CheckEvent),
    /// `:annotate`'s engine has done `done` of `total` positions.
    Annotating {
        /// Positions done.
        done: usize,
        /// Positions in all.
        total: usize,
    },
    /// `:annotate`'s engine scored every position of the main line.
    Annotated(Vec<crate::study::annotate::PositionEval>),
    /// `:annotate`'s engine failed: why.
    AnnotateFailed(String),
    /// A message from the loop: a journal that cannot be written, a file that
    /// cannot be read, a save refused (`error`), or what it did.
    Notice {
        /// The text.
        text: String,
        /// A refusal or an error.
        error: bool,
    },
    /// Whether the game's changes reach the journal now (they stopped, or came back), and
    /// what to say about it. While they do not, leaving an unsaved game loses it, and the
    /// refusals that let the player leave it say so.
    Journal {
        /// The last change was journaled.
        journaled: bool,
        /// The message: why nothing is journaled, or that the game is journaled again.
        text: String,
    },
    /// The game was written to `path` (or was there as it is, `unchanged`).
    Saved {
        /// The file.
        path: PathBuf,
        /// Nothing needed writing.
        unchanged: bool,
        /// Where the game went in the file.
        placed: Placed,
    },
    /// A save wrote a game of a file: again, where it spanned `before` (offset,
    /// length), or added at the end (`before` is `None`); it spans `after` now, as
    /// `text`. When it is the list's file, the list's rows follow, and the game's row
    /// (a new one, last, for a game added) shows its tags as written.
    Rewrote {
        /// The file.
        path: PathBuf,
        /// Where the game was: its offset and length; `None` for a game added.
        before: Option<(u64, u64)>,
        /// Where it is now.
        after: (u64, u64),
        /// The game's text as written.
        text: String,
    },
    /// A game read from a file, to show in place of this one.
    Loaded {
        /// The game.
        game: Box<Game>,
        /// Its file.
        path: PathBuf,
        /// Its number in the file.
        number: usize,
        /// How many games the file holds, when known without a list (a file of one
        /// game): the status corner then says `game 1 of 1 in FILE`, as after `:w`.
        games: Option<u64>,
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
        /// Its number in the file (from 1).
        number: usize,
        /// How many games the file holds, when known without a list (a file of one
        /// game), as for [`Done::Loaded`].
        games: Option<u64>,
    },
    /// A pasted game, opened in place of this one (which is empty or saved).
    Opened(Box<Game>),
    /// A file of many games opened: its list, which the loop fills.
    ListOpened {
        /// The file.
        path: PathBuf,
    },
    /// A file with no game yet (missing or empty) opened: a new game that `:w`
    /// writes there, in place of the game or list on the screen.
    NewFile {
        /// The file.
        path: PathBuf,
    },
    /// An unsaved game recovered from its journal.
    Recovered {
        /// The game.
        game: Box<Game>,
        /// The file it was to be saved to.
        out: Option<PathBuf>,
        /// Where its text starts in `out`, when it had been saved (or read) there: the
        /// list of that file tells its number from this.
        offset: Option<u64>,
        /// What to say.
        message: String,
    },
    /// The number of the game at `offset` of `path`, counted in the background for a
    /// game recovered with its place in a file whose list is not open (see
    /// [`App::number_wanted`]).
    Numbered {
        /// The file.
        path: PathBuf,
        /// Where the game's text starts.
        offset: u64,
        /// Its number there (from 1); none when the file could not be read.
        number: Option<u64>,
    },
    /// The games of `path` that reach the position a `pos:` term or `:search` asked
    /// about: numbers and the ply each reaches it at (or why there is no answer).
    Searched {
        /// The file.
        path: PathBuf,
        /// The position, as asked.
        fen: String,
        /// The games.
        found: Result<Vec<(u64, u32)>, String>,
    },
    /// The opening tree at `fen` (or why there is none).
    Tree {
        /// The position.
        fen: String,
        /// The tree.
        tree: Result<crate::study::tree::Tree, String>,
        /// What the pane says beside the tree (how it was answered), or nothing.
        note: String,
    },
    /// What the engine of the analysis pane said.
    Engine(crate::engine::Update),
    /// A drill gathered: the exercises (those due first), and what to say.
    Drill {
        /// The exercises.
        exercises: Vec<crate::study::train::Exercise>,
        /// How many come from the deck.
        due: usize,
        /// What was found, or why there is nothing to drill.
        note: String,
        /// Answers go into the deck (not when it cannot be read: it is not written
        /// over, and one message said so).
        record: bool,
    },
    /// How far the engine is in the games a drill looks through (those without
    /// evaluations).
    Gathering(crate::study::train::analyse::Progress),
    /// Exercises found while a drill is gathered (the engine still at work on the
    /// other games): the first report starts the drill, the next join it.
    Found {
        /// The exercises (the first report has the due ones first).
        exercises: Vec<crate::study::train::Exercise>,
        /// How many come from the deck.
        due: usize,
        /// Answers go into the deck.
        record: bool,
        /// The drill has all the new exercises it takes: no more will join.
        full: bool,
    },
    /// The end of gathering a drill: the drill ([`Done::Drill`]), or what to say
    /// instead (nothing to drill, a deck that cannot be read).
    Gathered(Box<Done>),
    /// The engine's scores (White's side) after the moves of [`Effect::Judge`], or
    /// why it could not give them. Taken in by [`App::update`], which may ask for an
    /// effect in return (recording the answer).
    Judged(Result<Vec<crate::game::annotation::Score>, String>),
    /// The engine's best move (UCI) for [`Effect::Solve`], or why it has none.
    Solved(Result<String, String>),
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

impl App {
    /// Takes in what the loop did.
    pub(super) fn done(&mut self, done: Done) {
        match done {
            Done::Notice { text, error } => {
                self.message = Message { text, error };
            }
            Done::Journal { journaled, text } => {
                self.unjournaled = !journaled;
                self.message = Message {
                    text,
                    error: !journaled,
                };
            }
            Done::Saved {
                path,
                unchanged,
                placed,
            } => {
                self.saved(path.clone(), placed);
                if unchanged {
                    self.inform(format!("no changes: {} is as it was", path.display()));
                }
            }
            Done::Checked(event) => self.checked(event),
            Done::Annotating { done, total } => self.annotate_progress(done, total),
            Done::Annotated(evals) => self.annotated(&evals),
            Done::AnnotateFailed(why) => self.annotate_failed(&why),
            Done::Rewrote {
                path,
                before,
                after,
                text,
            } => self.rewrote(&path, before, after, &text),
            Done::Listed(event) => {
                self.listed(event);
                return;
            }
            Done::Engine(update) => {
                self.engine_said(update);
                return;
            }
            Done::ListOpened { path } => {
                // Opened with `:e!` over unsaved changes (the loop set their journal
                // aside): the game goes, or the list would refuse to open any of its
                // games over it and `:w` there would still write it.
                if self.unsaved && !self.game.is_empty() {
                    self.open_game(
                        Game::new(crate::position::Position::start()),
                        None,
                        None,
                        false,
                    );
                }
                let mut list = list::GameList::new(path);
                // The game on the screen, read from this file (Ctrl-L on a game opened
                // alone): the list's open game, which Ctrl-L goes back to.
                if !self.game.is_empty()
                    && self
                        .file
                        .as_deref()
                        .is_some_and(|f| crate::store::target::same_file(f, &list.path))
                {
                    list.open = self.number;
                    list.select_open = true;
                }
                self.list = Some(Box::new(list));
                self.screen = Screen::List;
            }
            Done::NewFile { path } => self.open_new_file(path),
            Done::Loaded {
                game,
                path,
                number,
                games,
            } => {
                let of_list = self
                    .list()
                    .is_some_and(|l| crate::store::target::same_file(&l.path, &path));
                let shown = path.display().to_string();
                // Opening another game stops `:annotate` (its result is the old game's):
                // said, so that its work is not lost unseen.
                let stopped = if self.annotating.is_some() {
                    "; :annotate of the game before stopped"
                } else {
                    ""
                };
                self.open_game(*game, Some(path), Some(number as u64), false);
                self.games_in_file = games;
                let how = self.how_opened();
                // A game found by a search opens where it reaches the position, not where a
                // game usually opens.
                let at_search = if of_list {
                    self.opened_from_list(number as u64)
                } else {
                    self.left_list();
                    false
                };
                let how = if at_search {
                    "at the position searched for"
                } else {
                    how
                };
                self.inform(format!(
                    "game {} of {shown} ({how}){stopped}{}{}",
                    crate::plural::grouped(number),
                    self.waiting_note(),
                    self.results_note()
                ));
            }
            Done::LoadedForRepair {
                game,
                path,
                stop,
                rest,
                incomplete,
                number,
                games,
            } => {
                let of_list = self
                    .list()
                    .is_some_and(|l| crate::store::target::same_file(&l.path, &path));
                self.open_for_repair(*game, path, &stop, &rest, incomplete);
                let number = number as u64;
                self.number = Some(number);
                // A file of one game says `game 1 of 1 in FILE`, as when it reads whole.
                self.games_in_file = games;
                if !of_list {
                    self.left_list();
                }
                // A game marked ✗ opened from the list: shown, and the list's open
                // game (the cursor stays where the repair waits).
                if let Some(list) = self.list.as_deref_mut().filter(|_| of_list) {
                    list.open = Some(number);
                    if let Some(p) = list.catalog.position_of(number) {
                        list.selected = p;
                    }
                }
                self.screen = Screen::Game;
            }
            Done::Opened(game) => {
                let file = self.file.clone();
                self.open_game(*game, file, None, true);
                // Not a game of the list: the list no longer has it open.
                if let Some(list) = self.list.as_deref_mut() {
                    list.open = None;
                }
                self.screen = Screen::Game;
            }
            Done::Recovered {
                game,
                out,
                offset,
                message,
            } => {
                self.open_game(*game, out, None, true);
                self.inform(format!("{message}{}", self.waiting_note()));
                // Recovered from the box over a file's list: shown, as a game
                // opened is, and no longer the list's open game…
                if let Some(list) = self.list.as_deref_mut() {
                    list.open = None;
                }
                // … unless it is one of the list's games (its place there tells which,
                // now or once the list has read that far): then it is that game again,
                // and the status corner says "game N of M".
                self.unnumbered = offset.filter(|_| self.file.is_some());
                self.number_recovered();
                self.screen = Screen::Game;
            }
            Done::Numbered {
                path,
                offset,
                number,
            } => self.numbered(&path, offset, number),
            Done::Unsaved { games, broken } => self.offer_recovery(games, broken),
            Done::Searched { path, fen, found } => self.searched(path, fen, found),
            Done::Tree { fen, tree, note } => self.tree_done(fen, tree, note),
            Done::Judged(scores) => {
                self.judged(scores);
            }
            Done::Solved(best) => {
                self.solved(best);
            }
            Done::Drill {
                exercises,
                due,
                note,
                record,
            } => self.start_drill(exercises, due, note, record),
            Done::Gathering(progress) => self.gather_progress(progress),
            Done::Found {
                exercises,
                due,
                record,
                full,
            } => self.found(exercises, due, record, full),
            Done::Gathered(done) => {
                self.gathered(*done);
                return;
            }
        }
        self.refresh_feedback();
        self.refresh_opening();
    }
}
