//! The typed settings: one struct per table of the file, one enum per choice.

use serde::Deserialize;

use crate::notation::Lang;

/// `[notation]`: the piece letters typed and shown, and how moves are written on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotationSettings {
    /// Piece letters accepted when typing moves.
    pub input: &'static Lang,
    /// How moves are shown.
    pub display: MoveNotation,
    /// Piece letters used on screen.
    pub lang: &'static Lang,
}

/// `[board]`: how the board is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardSettings {
    /// Unicode glyphs or ASCII letters.
    pub style: BoardStyle,
    /// The colour theme's name (the screen picks the colours).
    pub theme: Theme,
    /// How many colours the terminal shows.
    pub colors: Colors,
    /// The size of a square.
    pub square: SquareSize,
    /// Whether files and ranks are labelled.
    pub coordinates: bool,
}

/// `[recording]`: how moves are recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordingSettings {
    /// Write the file after every confirmed move when the game has a file.
    pub autosave: bool,
    /// Start with the move timer running (stamps `[%emt]` on each move).
    pub timer: bool,
    /// What typing a move in the middle of the game does in the recorder
    /// (default: replace). The reviewer is to have a setting of its own, whose
    /// default is a variation: reading a game, a typed move is an idea, not a
    /// correction.
    pub inside: Inside,
}

/// `[engine]`: the UCI engine of the analysis pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSettings {
    /// The program: a path, or a name looked up on `PATH`.
    pub path: String,
    /// Threads the engine searches with.
    pub threads: u32,
    /// The engine's hash table, in MB.
    pub hash: u32,
    /// How many best lines the pane shows (1 to 5).
    pub lines: u32,
}

/// `[training]`: who you are in your games.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TrainingSettings {
    /// Your name (`Carlsen, Magnus`): it picks your side when your mistakes are looked
    /// for, however a game's White and Black tags write it (see
    /// [`crate::names`]). Empty: not set.
    pub name: String,
}

/// How moves are shown on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveNotation {
    /// Standard algebraic notation in the display language: `Nf3`.
    San,
    /// SAN with piece figurines: `♘f3`.
    Figurine,
    /// Long algebraic notation: `Ng1-f3`.
    Lan,
}

/// How the board is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardStyle {
    /// Unicode chess glyphs on coloured squares.
    Unicode,
    /// ASCII letters, for terminals and fonts without the glyphs.
    Ascii,
}

/// The board's colour theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Brown and beige.
    Wood,
    /// Blue and white.
    Blue,
    /// Green and cream.
    Green,
    /// Greys.
    Grey,
}

/// How many colours to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colors {
    /// Truecolour when the terminal says it has it (`COLORTERM`), else 256 colours.
    Auto,
    /// 24-bit colour.
    Truecolor,
    /// The 256-colour palette.
    #[serde(rename = "256")]
    Ansi256,
    /// No colour at all (a monochrome terminal): the board tells the sides apart by
    /// glyph or letter case and marks squares with brackets.
    None,
}

/// The size of a board square in terminal cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SquareSize {
    /// The largest size that fits the terminal.
    Auto,
    /// 3 columns by 1 row.
    Small,
    /// 5 columns by 2 rows.
    Medium,
    /// 7 columns by 3 rows.
    Large,
}

/// What typing a move in the middle of the game does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Inside {
    /// Start a new variation, keeping the moves that were there.
    Variation,
    /// Replace the move, replaying the later moves where they are still legal.
    Replace,
}

/// A piece-letter language as written in the file: any code (or English name) of
/// [`crate::notation::LANGS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LangCode(pub(crate) &'static Lang);

impl<'de> Deserialize<'de> for LangCode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = String::deserialize(deserializer)?;
        Lang::by_code(&code).map(LangCode).ok_or_else(|| {
            let codes: Vec<&str> = crate::notation::LANGS.iter().map(|l| l.code).collect();
            serde::de::Error::custom(format!(
                "expected a language code, one of {}",
                codes.join(", ")
            ))
        })
    }
}

/// A program to run, as written in the file: a name or a path, not blank (an empty
/// `path` would only fail later, when the pane opens, as "engine not found: ").
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Program(pub(crate) String);

impl<'de> Deserialize<'de> for Program {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let program = String::deserialize(deserializer).map_err(|_: D::Error| {
            serde::de::Error::custom("expected a program's name or path, as a string")
        })?;
        if program.trim().is_empty() {
            return Err(serde::de::Error::custom(
                "expected a program's name or path (\"stockfish\", \"/usr/games/stockfish\"), not an empty one",
            ));
        }
        Ok(Program(program))
    }
}

/// A whole number from `LO` to `HI`, as written in the file; anything else is refused with
/// the range (serde's span then points the message at the value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bounded<const LO: u32, const HI: u32>(pub(crate) u32);

impl<'de, const LO: u32, const HI: u32> Deserialize<'de> for Bounded<LO, HI> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let n = i64::deserialize(deserializer).map_err(|_: D::Error| {
            serde::de::Error::custom(format!("expected a whole number from {LO} to {HI}"))
        })?;
        match u32::try_from(n) {
            Ok(n) if (LO..=HI).contains(&n) => Ok(Bounded(n)),
            _ => Err(serde::de::Error::custom(format!(
                "expected a whole number from {LO} to {HI}"
            ))),
        }
    }
}
