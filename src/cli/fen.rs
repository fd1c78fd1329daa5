//! `scoresheet fen FILE [--game N] [--ply K | --all]`: FEN snapshots of a game.
//!
//! Memory stays small whatever the game's size: the game is validated, not built (no move
//! tree), while its main-line positions are followed as they are read; `--all` writes each
//! as it comes, `--ply K` keeps the one asked for, the default keeps the last.

use std::io::Write;
use std::path::PathBuf;

use super::exit;
use super::input::{self, Cut, Input};
use crate::pgn::{CommentKind, GameBuilder, Pos, ReadError, ReadGame, Reader, Skip, Visitor};
use crate::position::Position;

/// Arguments of `fen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The PGN file (`-` for standard input).
    pub file: PathBuf,
    /// Which game (1 is the first).
    #[arg(long, default_value_t = 1)]
    pub game: u64,
    /// The position after this many half-moves (0 is the start); default: the end.
    #[arg(long, conflicts_with = "all")]
    pub ply: Option<usize>,
    /// Every position of the main line, the start included, one per line.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub reading: input::Reading,
}

/// Passes over a game without reading its tags or moves (the games before the one asked for).
struct PassOver;

impl Visitor for PassOver {
    type Output = ();

    fn wants_tag(&mut self, _: &[u8]) -> bool {
        false
    }

    fn begin_movetext(&mut self) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) {}
}

/// Which positions the command prints.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// Every one, as it comes.
    All,
    /// The one after this many half-moves.
    Ply(usize),
    /// The last one.
    End,
}

/// Validates a game (through the game builder, which reports every problem) while following
/// its main line: the positions wanted are written or kept as the moves are read, and no
/// move tree is built.
struct Positions<'o> {
    builder: GameBuilder,
    want: Want,
    /// Main-line half-moves whose position has been handled (`None`: not even the start).
    handled: Option<u32>,
    /// The position kept for [`Want::Ply`] or [`Want::End`].
    kept: Option<Position>,
    out: &'o mut dyn Write,
}

impl Positions<'_> {
    /// Handles the main line's new position, if the last event gave one.
    fn follow(&mut self) {
        let Some((plies, pos)) = self.builder.main_line_so_far() else {
            return;
        };
        if self.handled.is_some_and(|h| h >= plies) {
            return;
        }
        self.handled = Some(plies);
        match self.want {
            Want::All => {
                let _ = writeln!(self.out, "{}", pos.fen());
            }
            Want::Ply(k) if k == plies as usize => self.kept = Some(*pos),
            Want::Ply(_) => {}
            Want::End => self.kept = Some(*pos),
        }
    }
}

impl Visitor for Positions<'_> {
    type Output = (ReadGame, Option<Position>);

    fn begin_game(&mut self, at: Pos) {
        self.handled = None;
        self.kept = None;
        self.builder.begin_game(at);
    }

    fn wants_tag(&mut self, name: &[u8]) -> bool {
        self.builder.wants_tag(name)
    }

    fn tag(&mut self, name: &[u8], value: &str, at: Pos) {
        self.builder.tag(name, value, at);
    }

    fn begin_movetext(&mut self) -> Skip {
        let skip = self.builder.begin_movetext();
        self.follow();
        skip
    }

    fn san(&mut self, san: &[u8], at: Pos) {
        self.builder.san(san, at);
        self.follow();
    }

    fn nag(&mut self, nag: u8, at: Pos) {
        self.builder.nag(nag, at);
    }

    fn comment(&mut self, text: &str, kind: CommentKind, at: Pos) {
        self.builder.comment(text, kind, at);
    }

    fn begin_variation(&mut self, at: Pos) -> Skip {
        self.builder.begin_variation(at)
    }

    fn end_variation(&mut self, at: Pos) {
        self.builder.end_variation(at);
    }

    fn outcome(&mut self, result: Option<&str>, at: Pos) {
        self.builder.outcome(result, at);
    }

    fn error(&mut self, err: ReadError) {
        self.builder.error(err);
    }

    fn end_game(&mut self) -> Self::Output {
        (self.builder.end_game(), self.kept.take())
    }
}

/// Runs the command; returns the exit code.
pub fn run(args: &Args) -> u8 {
    let name = input::name(&args.file);
    let file = match Input::open(&args.file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("scoresheet fen: cannot read {name}: {e}");
            return exit::USAGE;
        }
    };
    let cut = file.cut();
    let code = snapshots(args, file, &name);
    match cut.take() {
        Some(e) => {
            eprintln!("{}", Cut::message("fen", &name, &e, None));
            exit::USAGE
        }
        None => code,
    }
}

/// Says that `name` cannot be read; the exit code.
fn cannot_read(name: &str, e: std::io::Error) -> u8 {
    eprintln!("scoresheet fen: cannot read {name}: {e}");
    exit::USAGE
}

/// [`run`] on the opened file.
fn snapshots(args: &Args, file: Input, name: &str) -> u8 {
    // The file is read as a stream, in constant memory: the games before the one asked for
    // are passed over (their boundaries found, their moves not read), so line numbers stay
    // right; only the game asked for is read move by move.
    let mut reader = Reader::new(file);
    let mut passed = 0;
    while passed + 1 < args.game {
        match reader.read_game(&mut PassOver) {
            Ok(Some(())) => passed += 1,
            Ok(None) => break,
            Err(e) => return cannot_read(name, e),
        }
    }
    // A write that fails is said once, at the end (see `Stdout::finish`).
    let mut out = super::output::Stdout::new();
    let code = write_snapshots(args, reader, &mut out, name);
    out.finish("fen", code)
}

/// Reads the game asked for from `reader`, which is at its start, and writes the positions
/// wanted to `out`; returns the exit code.
fn write_snapshots(args: &Args, mut reader: Reader<Input>, out: &mut dyn Write, name: &str) -> u8 {
    let want = match (args.all, args.ply) {
        (true, _) => Want::All,
        (false, Some(k)) => Want::Ply(k),
        (false, None) => Want::End,
    };
    let read = if args.game == 0 {
        Ok(None)
    } else {
        let mut positions = Positions {
            builder: GameBuilder::new(false).reading(args.reading.input_lang),
            want,
            handled: None,
            kept: None,
            out,
        };
        reader.read_game(&mut positions)
    };
    let (g, kept) = match read {
        Ok(Some(found)) => found,
        Ok(None) => {
            // Count the rest, for the message.
            while let Ok(Some(())) = reader.read_game(&mut PassOver) {}
            eprintln!(
                "scoresheet fen: {name} has {}; there is no game {}",
                crate::plural::count(reader.games_read() as usize, "game", "games"),
                args.game
            );
            return exit::USAGE;
        }
        Err(e) => return cannot_read(name, e),
    };
    let _ = super::check::report(&mut std::io::stderr(), name, &g);
    if g.refused {
        return exit::PROBLEMS;
    }
    if let Some(p) = kept {
        let _ = writeln!(out, "{}", p.fen());
    } else if let Want::Ply(k) = want {
        eprintln!(
            "scoresheet fen: game {} has {}; there is no ply {k}",
            args.game,
            crate::plural::count(g.plies as usize, "half-move", "half-moves")
        );
        return exit::USAGE;
    }
    if !g.has_problems() {
        exit::OK
    } else {
        exit::PROBLEMS
    }
}
