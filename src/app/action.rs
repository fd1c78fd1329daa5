//! Everything the recorder can be asked to do. Each bindable action has a stable
//! kebab-case name (the key in the `[keys]` table of the configuration), and its
//! one-line description lives beside its name in the configuration's action table.

/// One thing the user asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// A character typed on the entry line (not bindable: it is the text itself).
    Type(char),
    PlayEntry,
    EraseChar,
    ClearEntry,
    Cancel,
    HistoryPrev,
    HistoryNext,
    MoveBack,
    MoveForward,
    PageBack,
    PageForward,
    GoStart,
    GoEnd,
    NextVariation,
    Undo,
    Redo,
    TakeBack,
    DeleteFromHere,
    PromoteVariation,
    ToggleReplace,
    FlipBoard,
    Help,
    /// A move-quality glyph for the current move (`$1`–`$6`), or none (0).
    Nag(u8),
    ToggleDrawOffer,
    EditComment,
    ToggleTimer,
    Save,
    Quit,
}

/// Every bindable action with its name, in the order the help screen lists them.
pub const BINDABLE: &[(&str, Action)] = &[
    ("play-entry", Action::PlayEntry),
    ("erase-char", Action::EraseChar),
    ("clear-entry", Action::ClearEntry),
    ("cancel", Action::Cancel),
    ("history-prev", Action::HistoryPrev),
    ("history-next", Action::HistoryNext),
    ("move-back", Action::MoveBack),
    ("move-forward", Action::MoveForward),
    ("page-back", Action::PageBack),
    ("page-forward", Action::PageForward),
    ("go-start", Action::GoStart),
    ("go-end", Action::GoEnd),
    ("next-variation", Action::NextVariation),
    ("undo", Action::Undo),
    ("redo", Action::Redo),
    ("take-back", Action::TakeBack),
    ("delete-from-here", Action::DeleteFromHere),
    ("promote-variation", Action::PromoteVariation),
    ("toggle-replace", Action::ToggleReplace),
    ("flip-board", Action::FlipBoard),
    ("help", Action::Help),
    ("nag-good", Action::Nag(1)),
    ("nag-mistake", Action::Nag(2)),
    ("nag-brilliant", Action::Nag(3)),
    ("nag-blunder", Action::Nag(4)),
    ("nag-interesting", Action::Nag(5)),
    ("nag-dubious", Action::Nag(6)),
    ("nag-clear", Action::Nag(0)),
    ("toggle-draw-offer", Action::ToggleDrawOffer),
    ("edit-comment", Action::EditComment),
    ("toggle-timer", Action::ToggleTimer),
    ("save", Action::Save),
    ("quit", Action::Quit),
];

impl Action {
    /// The action a configuration name stands for.
    pub fn from_name(name: &str) -> Option<Action> {
        BINDABLE.iter().find(|(n, _)| *n == name).map(|(_, a)| *a)
    }

    /// The stable name of a bindable action (`None` for typed text).
    pub fn name(self) -> Option<&'static str> {
        BINDABLE.iter().find(|(_, a)| *a == self).map(|(n, _)| *n)
    }
}
