//! The study pane: one slot on the game screen, under the moves, that shows the
//! engine's analysis or the opening tree of the open file for the position at the
//! cursor. One pane at a time: each follows the cursor and both would fight for
//! the same rows on an 80×24 screen.

/// Which study pane the game screen shows under the moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pane {
    /// No pane: the moves take the whole column.
    #[default]
    None,
    /// The engine's analysis of the position at the cursor.
    Engine,
    /// The moves played from the position at the cursor in the open file.
    Tree,
}

impl Pane {
    /// The pane's title on screen.
    pub fn title(self) -> &'static str {
        match self {
            Pane::None => "",
            Pane::Engine => " Engine ",
            Pane::Tree => " Opening tree ",
        }
    }
}
