//! The `:` commands of the entry line, vim-like. [`COMMANDS`] is the one list the
//! help screen, the live feedback and the dispatch (through [`lookup`], which
//! turns an alias into its command's name) read.

use std::path::{Path, PathBuf};

use super::record::numbered;
use super::{App, Effect, Inside, Overlay};
use crate::game::annotation::Annotation;
use crate::game::{Game, NodeId};
use crate::notation::{Lang, Style};
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
        .map(|c| (c, bang))
}

/// Every command, in the order the help screen lists them.
pub const COMMANDS: &[Command] = &[
    Command {
        name: "w",
        aliases: &["write"],
        args: "[FILE]",
        doc: "write the game (added to FILE, its other games untouched)",
        bang: "write it although FILE is read-only",
    },
    Command {
        name: "q",
        aliases: &["quit"],
        args: "",
        doc: "quit (refused while the game is unsaved)",
        bang: "quit and throw the unsaved game away (the journal too)",
    },
    Command {
        name: "wq",
        aliases: &["x"],
        args: "[FILE]",
        doc: "write the game, then quit",
        bang: "write it although FILE is read-only, then quit",
    },
    Command {
        name: "e",
        aliases: &["edit"],
        args: "FILE [N]",
        doc: "open game N (default 1) of FILE; quote a name with blanks",
        bang: "open FILE although this game is not saved (the journal keeps it)",
    },
    Command {
        name: "new",
        aliases: &[],
        args: "",
        doc: "next game: Event, Site, Round kept, Board + 1",
        bang: "start the next game although this one is not saved (the journal keeps it)",
    },
    Command {
        name: "recover",
        aliases: &[],
        args: "",
        doc: "the unsaved games kept by the journal: recover or discard them",
        bang: "",
    },
    Command {
        name: "tag",
        aliases: &[],
        args: "NAME VALUE",
        doc: "set a tag (White, Black, WhiteElo, Board, TimeControl…)",
        bang: "",
    },
    Command {
        name: "result",
        aliases: &[],
        args: "R [HOW]",
        doc: "1-0, 0-1, 1/2-1/2 or *; HOW: resign, time, agreement…",
        bang: "set it although the board contradicts it (an arbiter's decision)",
    },
    Command {
        name: "clk",
        aliases: &[],
        args: "TIME",
        doc: "clock after this move (83 = 1:23:00, 1:23:45)",
        bang: "",
    },
    Command {
        name: "emt",
        aliases: &[],
        args: "TIME",
        doc: "time this move took",
        bang: "",
    },
    Command {
        name: "comment",
        aliases: &["c"],
        args: "TEXT",
        doc: "comment after this move (or type {TEXT)",
        bang: "",
    },
    Command {
        name: "fen",
        aliases: &[],
        args: "[FEN]",
        doc: "show this position's FEN, or start the game from FEN",
        bang: "start the game again from FEN although it has moves",
    },
    Command {
        name: "flip",
        aliases: &[],
        args: "",
        doc: "turn the board around",
        bang: "",
    },
    Command {
        name: "lang",
        aliases: &[],
        args: "CODE",
        doc: "piece letters for typing and showing moves (en, de, fr, …)",
        bang: "",
    },
    Command {
        name: "notation",
        aliases: &[],
        args: "san|figurine|lan",
        doc: "how the scoresheet shows moves",
        bang: "",
    },
    Command {
        name: "inside",
        aliases: &[],
        args: "variation|replace",
        doc: "what typing a move inside the game does",
        bang: "",
    },
    Command {
        name: "undo",
        aliases: &[],
        args: "",
        doc: "undo the last change to the game",
        bang: "",
    },
    Command {
        name: "redo",
        aliases: &[],
        args: "",
        doc: "redo the change last undone",
        bang: "",
    },
    Command {
        name: "timer",
        aliases: &[],
        args: "",
        doc: "start or stop the move timer ([%emt] on each move)",
        bang: "",
    },
    Command {
        name: "help",
        aliases: &["h"],
        args: "",
        doc: "the keys and commands",
        bang: "",
    },
];

/// What a command line will do, for the live feedback.
pub fn describe(line: &str) -> String {
    let name = line.split_whitespace().next().unwrap_or("");
    match lookup(name) {
        Some((c, true)) if !c.bang.is_empty() => {
            format!(":{}! {} — {}", c.name, c.args, c.bang)
        }
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
fn edit_args(rest: &str) -> Result<(PathBuf, usize), String> {
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
        "" => 1,
        n => match n.parse::<usize>() {
            Ok(0) => return Err("games are numbered from 1: :e FILE 1 is the first".into()),
            Ok(n) => n,
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
    /// Runs a command line (without its colon).
    pub(super) fn run_command(&mut self, line: &str) -> Effect {
        let line = line.trim();
        let (name, rest) = match line.split_once(char::is_whitespace) {
            Some((name, rest)) => (name, rest.trim()),
            None => (line, ""),
        };
        // Names and aliases come from the table; the arms below match its names.
        let (name, forced) = match lookup(name) {
            Some((c, true)) if c.name == "q" => ("q!", false),
            Some((c, bang)) => (c.name, bang),
            None => match name.strip_suffix('!') {
                Some(bare) => (bare, true),
                None => (name, false),
            },
        };
        let keeps_unsaved = |app: &mut App, what: &str| {
            let refuse = app.unsaved && !forced && !app.game.is_empty();
            if refuse {
                app.refuse(format!(
                    "the game is not saved: :w first, or :{what}! to leave it (the journal keeps it)"
                ));
            }
            refuse
        };
        match name {
            "w" | "write" | "wq" | "x" => {
                let then_quit = name != "w" && name != "write";
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
                        return Effect::Save {
                            path,
                            then_quit,
                            force: forced,
                        }
                    }
                    None => self.refuse("no file yet: :w FILE.pgn"),
                }
            }
            "q" | "quit" => {
                if self.unsaved && !self.game.is_empty() {
                    self.refuse("the game is not saved: :w to save it, :q! to quit without it");
                } else {
                    return Effect::Quit { discard: false };
                }
            }
            "q!" => return Effect::Quit { discard: true },
            "e" | "edit" => {
                if keeps_unsaved(self, "e") {
                    return Effect::None;
                }
                match edit_args(rest) {
                    Ok((path, number)) => return Effect::Load { path, number },
                    Err(why) => self.refuse(why),
                }
            }
            "recover" => return Effect::Recovery(super::Recovery::Offer),
            "new" => {
                if !keeps_unsaved(self, "new") {
                    self.next_game();
                    return Effect::NewGame;
                }
            }
            "tag" => self.tag_command(rest),
            "result" => {
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
                    None => {
                        self.refuse(format!("{rest:?} is not a result: 1-0, 0-1, 1/2-1/2 or *"))
                    }
                }
            }
            "clk" | "emt" => match super::entry::clock_time(rest, self.game.tag("TimeControl")) {
                Ok(time) if name == "clk" => self.stamp(Annotation::Clock(time), "clock"),
                Ok(time) => self.stamp(Annotation::Elapsed(time), "elapsed"),
                Err(e) => self.refuse(e.reason),
            },
            "comment" | "c" => {
                self.game.set_comment_text(self.cursor, rest);
                self.inform(format!("comment on {}", numbered(&self.game, self.cursor)));
                self.changed();
            }
            "fen" => self.fen_command(rest, forced),
            "flip" => self.flipped = !self.flipped,
            "lang" => match Lang::by_code(rest) {
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
            },
            "notation" => match Style::by_name(rest) {
                Some(style @ (Style::San | Style::Figurine | Style::Lan)) => {
                    self.settings.display = style;
                }
                _ => self.refuse(format!(
                    "{rest:?}: the scoresheet shows san, figurine or lan"
                )),
            },
            "inside" => match rest {
                "variation" => self.inside = Inside::Variation,
                "replace" => self.inside = Inside::Replace,
                _ => self.refuse("inside variation, or inside replace"),
            },
            "undo" => return self.undo(),
            "redo" => return self.redo(),
            "timer" => return self.dispatch(super::Action::ToggleTimer),
            "help" | "h" => {
                self.overlay = Overlay::Help;
                self.help_scroll.top.set(0);
            }
            "" => {}
            other => self.refuse(format!("unknown command :{other} (F1 lists them)")),
        }
        Effect::None
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
