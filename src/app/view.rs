//! The small pieces of the app's state that screens and widgets read: the status line's
//! message, the overlay, the box of unsaved games, moves waiting after a correction, how
//! the moves are shown, and which screen is up.

use crate::game::NodeId;
use crate::position::Move;

use super::{comment, tagform};

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
