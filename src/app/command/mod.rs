//! The `:` commands of the entry line, vim-like. [`COMMANDS`] is the one list the
//! help screen, the live feedback and the dispatch (through [`lookup`], which
//! turns an alias into its command's name) read.

use std::path::{Path, PathBuf};

use super::{App, Effect};
use crate::game::annotation::Annotation;
use crate::game::{Game, NodeId};
use crate::notation::Lang;
use crate::position::Position;

/// A command: its name, its other names, its arguments and what it does.
pub struct Command {
    /// What is typed after the colon.
    pub name: &'static str,
    /// Other names that run it (`write` for `w`).
    pub aliases: &'static [&'static str],
    /// Its arguments, for the help screen.
    pub args: &'static str,
    /// What it does.
    pub doc: &'static str,
    /// What its `!` form (`:e!`) does; empty when it has none.
    pub bang: &'static str,
    /// What it does to the app, given the text after its name and whether it
    /// was typed with `!`.
    pub run: fn(&mut App, &str, bool) -> Effect,
}

/// The command typed as `name` (a name or an alias, with or without a final
/// `!`), and whether the `!` was there.
pub fn lookup(name: &str) -> Option<(&'static Command, bool)> {
    let (bare, bang) = match name.strip_suffix('!') {
        Some(bare) => (bare, true),
        None => (name, false),
    };
    COMMANDS
        .iter()
        .find(|c| c.name == bare || c.aliases.contains(&bare))
        // Every move number is the command declared with one (`:12`).
        .or_else(|| {
            is_move_number(bare)
                .then(|| COMMANDS.iter().find(|c| is_move_number(c.name)))
                .flatten()
        })
        .map(|c| (c, bang))
}

/// True when `text` is a move number as the jump to a move takes it: digits, then
/// dots or none (`12`, `12.`, `12...`).
fn is_move_number(text: &str) -> bool {
    let digits = text.trim_end_matches('.');
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

mod table;
pub use table::COMMANDS;

/// What a command line will do, for the live feedback.
pub fn describe(line: &str) -> String {
    let name = line.split_whitespace().next().unwrap_or("");
    match lookup(name) {
        Some((c, true)) if !c.bang.is_empty() => {
            format!(":{}! {} — {}", c.name, c.args, c.bang)
        }
        // The number typed, not the one the command is declared with.
        Some((c, _)) if is_move_number(c.name) => format!(":{name} — {}", c.doc),
        Some((c, _)) => format!(":{} {} — {}", c.name, c.args, c.doc),
        None if name.is_empty() => format!(
            "a command: {}",
            COMMANDS
                .iter()
                .map(|c| c.name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => {
            let starts: Vec<&str> = COMMANDS
                .iter()
                .filter(|c| c.name.starts_with(name))
                .map(|c| c.name)
                .collect();
            if starts.is_empty() {
                format!("no command :{name}")
            } else {
                format!(":{}", starts.join("  :"))
            }
        }
    }
}

/// A path as a user types it, with a leading `~` standing for the home
/// directory (`~/games.pgn`), as a shell would have expanded it. `~user` and a
/// `~` elsewhere stay as they are.
pub fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), directories::BaseDirs::new()) {
        (Ok(rest), Some(dirs)) => dirs.home_dir().join(rest),
        _ => path.to_path_buf(),
    }
}

/// A file named on a command line: unquoted, `~` expanded.
fn file_arg(text: &str) -> PathBuf {
    expand_home(Path::new(unquote(text)))
}

/// A tag value as typed, without the quotes around it.
fn unquote(text: &str) -> &str {
    let text = text.trim();
    ['"', '\'']
        .iter()
        .find_map(|q| text.strip_prefix(*q).and_then(|t| t.strip_suffix(*q)))
        .unwrap_or(text)
}

/// Why a tag value cannot be kept, if it cannot: control characters (a newline or
/// an ESC would break the PGN line and the terminal), and a `Variant` other than
/// standard chess (the game would no longer read back). `None` when it is fine.
pub fn tag_problem(name: &str, value: &str) -> Option<String> {
    if let Some(c) = value.chars().find(|c| c.is_control()) {
        return Some(format!(
            "the {name} tag cannot hold control characters ({:?} found): type it on one line",
            c
        ));
    }
    if name.eq_ignore_ascii_case("Variant")
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "" | "standard" | "chess" | "normal" | "from position"
        )
    {
        return Some(format!(
            "Variant {value:?}: the recorder records standard chess only"
        ));
    }
    None
}

/// `:e`'s arguments: a file (quoted when it has blanks) and a game number.
fn edit_args(rest: &str) -> Result<(PathBuf, Option<usize>), String> {
    let usage = "which file? :e FILE [N] (quote a name with blanks: :e \"my games.pgn\" 2)";
    let (file, number) = match rest.chars().next() {
        Some(q @ ('"' | '\'')) => match rest[1..].split_once(q) {
            Some((file, number)) => (file, number.trim()),
            None => return Err(format!("the file name's closing {q} is missing")),
        },
        _ => match rest.rsplit_once(char::is_whitespace) {
            Some((file, number)) => (file.trim_end(), number),
            None => (rest, ""),
        },
    };
    if file.is_empty() {
        return Err(usage.into());
    }
    let number = match number {
        "" => None,
        n => match n.parse::<usize>() {
            Ok(0) => return Err("games are numbered from 1: :e FILE 1 is the first".into()),
            Ok(n) => Some(n),
            Err(_) => {
                return Err(format!(
                    "{n:?} is not a game number: :e FILE [N] (quote a name with blanks: \
                     :e \"my games.pgn\" 2)"
                ))
            }
        },
    };
    Ok((expand_home(Path::new(file)), number))
}

impl App {
    /// Runs a command line (without its colon): the command's handler from
    /// [`COMMANDS`] (a jump to a move for a move number, `:12`, `:12...`).
    pub(super) fn run_command(&mut self, line: &str) -> Effect {
        let line = line.trim();
        let (name, rest) = match line.split_once(char::is_whitespace) {
            Some((name, rest)) => (name, rest.trim()),
            None => (line, ""),
        };
        if name.is_empty() {
            return Effect::None;
        }
        match lookup(name) {
            // Words after a command that takes none would be dropped unseen, and
            // the command would do something else than asked (`:search 1. e4 c5`).
            Some((command, _)) if command.args.is_empty() && !rest.is_empty() => {
                self.refuse(format!(
                    ":{} takes nothing after it (not \"{}\"): it does this: {}",
                    // As typed: `:3 Bb5` is the jump to move 3, not to the 12 it is declared as.
                    name.trim_end_matches('!'),
                    crate::message::shown(rest),
                    command.doc
                ));
                Effect::None
            }
            // A move number is the jump's argument: `:12` goes to move 12.
            Some((command, bang)) if is_move_number(command.name) => {
                (command.run)(self, name.trim_end_matches('!'), bang)
            }
            Some((command, bang)) => (command.run)(self, rest, bang),
            None => {
                self.refuse(format!(
                    "unknown command :{} (F1 lists them)",
                    name.trim_end_matches('!')
                ));
                Effect::None
            }
        }
    }

    /// The command that saves the game, for advice: `:w` when the game has a file,
    /// else `:w FILE.pgn` (a bare `:w` would be refused: there is no file to write to).
    pub(super) fn save_command(&self) -> &'static str {
        if self.file.is_some() {
            ":w"
        } else {
            ":w FILE.pgn"
        }
    }

    /// Refuses to leave an unsaved game unless forced; true when it refused.
    fn keeps_unsaved(&mut self, what: &str, forced: bool) -> bool {
        let refuse = self.unsaved && !forced && !self.game.is_empty();
        if refuse {
            let save = self.save_command();
            self.refuse(if self.unjournaled {
                format!(
                    "the game is not saved, and nothing is journaled: {save} first, or :{what}! \
                     to leave it and lose it"
                )
            } else {
                format!(
                    "the game is not saved: {save} first, or :{what}! to leave it (the journal \
                     keeps it)"
                )
            });
        }
        refuse
    }

    fn write_command(&mut self, rest: &str, then_quit: bool, forced: bool) -> Effect {
        // On the list before a game is open, the game behind it is an empty one the
        // player never saw: writing it would add a game of no moves to FILE.
        let nothing_open = self.screen == super::Screen::List
            && self.list().is_some_and(|l| l.open.is_none())
            && self.game.is_empty()
            && !self.unsaved;
        if nothing_open {
            self.refuse(
                "no game is open to write: Enter opens the selected game, then :w writes it \
                 (:q quits)",
            );
            return Effect::None;
        }
        let path = if rest.is_empty() {
            self.file.clone()
        } else if unquote(rest).is_empty() {
            self.refuse("an empty file name: :w FILE.pgn");
            return Effect::None;
        } else {
            Some(file_arg(rest))
        };
        match path {
            Some(path) => {
                if self.unsaved {
                    // Edited moves: the game's own count of them follows.
                    self.game.refresh_ply_count();
                }
                Effect::Save {
                    path,
                    then_quit,
                    force: forced,
                }
            }
            None => {
                self.refuse("no file yet: :w FILE.pgn");
                Effect::None
            }
        }
    }

    fn result_command(&mut self, rest: &str, forced: bool) {
        let mut words = rest.split_whitespace();
        let result = words
            .next()
            .and_then(|r| match r.replace('½', "1/2").as_str() {
                "1-0" => Some("1-0"),
                "0-1" => Some("0-1"),
                "1/2-1/2" | "1/2" | "=" | "draw" => Some("1/2-1/2"),
                "*" => Some("*"),
                _ => None,
            });
        let how: Vec<&str> = words.collect();
        match result {
            Some(result) => {
                let how = how.join("-");
                self.set_result(result, (!how.is_empty()).then_some(how.as_str()), forced);
            }
            None => self.refuse(format!("{rest:?} is not a result: 1-0, 0-1, 1/2-1/2 or *")),
        }
    }

    fn clock_command(&mut self, rest: &str, elapsed: bool) {
        match super::entry::clock_time(rest, self.game.tag("TimeControl")) {
            Ok(time) if !elapsed => self.stamp(Annotation::Clock(time), "clock"),
            Ok(time) => self.stamp(Annotation::Elapsed(time), "elapsed"),
            Err(e) => self.refuse(e.reason),
        }
    }

    fn lang_command(&mut self, rest: &str) {
        match Lang::by_code(rest) {
            Some(lang) => {
                self.settings.input_lang = lang;
                self.settings.display_lang = lang;
                self.inform(format!(
                    "piece letters: {} ({})",
                    lang.name,
                    lang.letters[1..].join(" ")
                ));
            }
            None => self.refuse(format!(
                "unknown language {rest:?}: {}",
                crate::notation::LANGS
                    .iter()
                    .map(|l| l.code)
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
        }
    }

    /// `:12` goes to White's 12th move, `:12...` (or `:12..`) to Black's, in the
    /// line of the current move (its main continuation past the cursor).
    fn jump_command(&mut self, name: &str) {
        let (digits, black) = match name.trim_end_matches('.') {
            d if d.len() < name.len() && name.ends_with("..") => (d, true),
            d => (d.trim_end_matches('.'), false),
        };
        let Ok(number) = digits.parse::<usize>() else {
            self.refuse(format!("{name:?} is not a move number: :12 or :12..."));
            return;
        };
        // The line through the cursor: back to the start, on along first choices.
        let mut line = self.game.path_to(self.cursor);
        let mut at = self.cursor;
        while let Some(&next) = self.game.node(at).children.first() {
            line.push(next);
            at = next;
        }
        let target = line.into_iter().find(|&id| {
            let before = self
                .game
                .position_at(self.game.node(id).parent.unwrap_or(NodeId::ROOT));
            before.fullmove_number() as usize == number
                && (before.side_to_move() == chess::Color::Black) == black
        });
        match target {
            Some(id) => self.cursor = id,
            None => self.refuse(format!(
                "no move {number}{} in this line",
                if black { "..." } else { "." }
            )),
        }
    }

    fn tag_command(&mut self, rest: &str) {
        let (name, value) = match rest.split_once(char::is_whitespace) {
            Some((name, value)) => (name, unquote(value)),
            None => (rest, ""),
        };
        let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            self.refuse("which tag? :tag NAME VALUE (e.g. :tag White Carlsen, Magnus)");
        } else if value.is_empty() {
            let now = self.game.tag(name).unwrap_or("not set").to_string();
            self.inform(format!("{name}: {now}"));
        } else if name == "FEN" || name == "SetUp" {
            self.refuse("the start position is set with :fen FEN");
        } else if let Some(why) = tag_problem(name, value) {
            self.refuse(why);
        } else if let Err(e) = crate::game::tags::check_tag(name, value) {
            // Nothing is set: the tag keeps its value until a good one is typed.
            self.refuse(format!(
                "{e}; {name} stays {}",
                self.game.tag(name).unwrap_or("unset")
            ));
        } else {
            self.game.set_tag(name, value);
            self.inform(format!("{name} = {value}"));
            self.changed();
        }
    }

    fn fen_command(&mut self, rest: &str, forced: bool) {
        if rest.is_empty() {
            self.inform(self.position().fen());
            return;
        }
        if !self.game.is_empty() && !forced {
            self.refuse("the game has moves: :fen! FEN starts it again from FEN");
            return;
        }
        match Position::from_fen(rest) {
            Ok(start) => {
                let mut game = Game::new(start);
                game.tags = self.game.tags.clone();
                // Not `replace_game`: the moves it drops can be undone.
                let had_moves = !self.game.is_empty();
                self.game = game;
                self.pending = None;
                self.cursor = NodeId::ROOT;
                if had_moves {
                    self.inform_undoable("the game starts from this position".into());
                } else {
                    self.inform("the game starts from this position");
                }
                self.changed();
            }
            Err(e) => self.refuse(format!("bad FEN: {e}")),
        }
    }
}

mod run;
