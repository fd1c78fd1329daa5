//! What the help screen lists, from the declarations the keys and commands run
//! from: the keys of every action of the screen (the keymap's bindings with the
//! actions' docs, [`ACTIONS`]), what the entry line reads ([`ENTRY_SYNTAX`])
//! and every `:` command with its aliases and `!` form ([`COMMANDS`]). The
//! screen only lays these out; scrolling is [`HelpScroll`].

use std::cell::Cell;

use super::action::ACTIONS;
use super::command::COMMANDS;
use super::App;

/// What the entry line reads besides commands, one form per row.
pub const ENTRY_SYNTAX: &[(&str, &str)] = &[
    (
        "e4  Nf3  e2-e4  g1f3  ♘f3",
        "a move in any notation: SAN, long, coordinates, figurine, the piece letters of :lang",
    ),
    (
        "1. e4 e5 2. Nf3",
        "several moves on one line, with or without their numbers",
    ),
    (
        "+1:23:45  +83",
        "the clock after the move (+83 is 1:23:00); also after a move on the same line",
    ),
    (
        "!  ?  !!  ??  !?  ?!",
        "a glyph on the move (also written after it: Nf3!)",
    ),
    ("(=)", "a draw offer with the move"),
    ("{text", "a comment after the move"),
    ("1-0  0-1  1/2-1/2  *", "the result"),
    (":command", "a command (below)"),
];

/// One row of the help: what to press or type, and what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpEntry {
    /// Keys, a form of the entry line, or a command with its arguments.
    pub label: String,
    /// What it does.
    pub doc: String,
}

/// A titled group of rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpSection {
    /// The group's title.
    pub title: &'static str,
    /// Its rows.
    pub entries: Vec<HelpEntry>,
}

/// Where the help is scrolled to. The screen keeps `top` within the text it
/// draws and records the page it shows, as ratatui's list state does, so that
/// PageDown moves by what is on the screen.
#[derive(Debug, Clone, Default)]
pub struct HelpScroll {
    /// The first line shown.
    pub top: Cell<usize>,
    /// The lines shown at once (0 before the first frame).
    pub page: Cell<usize>,
}

impl HelpScroll {
    /// Moves the view `lines` down (up when negative); the screen clamps it.
    pub fn scroll(&self, lines: isize) {
        let top = self.top.get().saturating_add_signed(lines);
        self.top.set(top);
    }

    /// A page, less a line kept for context.
    pub fn page_lines(&self) -> isize {
        isize::try_from(self.page.get().saturating_sub(1).max(1)).unwrap_or(1)
    }
}

impl App {
    /// Everything the help screen lists, in order.
    pub fn help_sections(&self) -> Vec<HelpSection> {
        let keys = ACTIONS
            .iter()
            .filter(|d| d.screens.has(self.screen))
            .map(|d| {
                let keys = self.keymap.shown(d.name);
                HelpEntry {
                    label: if keys.is_empty() {
                        format!("({})", d.name)
                    } else {
                        keys
                    },
                    doc: d.doc.to_string(),
                }
            })
            .collect();
        let syntax = ENTRY_SYNTAX
            .iter()
            .map(|(label, doc)| HelpEntry {
                label: (*label).to_string(),
                doc: (*doc).to_string(),
            })
            .collect();
        let mut commands = Vec::new();
        for c in COMMANDS {
            let call = |name: &str| {
                if c.args.is_empty() {
                    format!(":{name}")
                } else {
                    format!(":{name} {}", c.args)
                }
            };
            let mut doc = c.doc.to_string();
            if !c.aliases.is_empty() {
                let also: Vec<String> = c.aliases.iter().map(|a| format!(":{a}")).collect();
                doc.push_str(&format!(" (also {})", also.join(", ")));
            }
            commands.push(HelpEntry {
                label: call(c.name),
                doc,
            });
            if !c.bang.is_empty() {
                commands.push(HelpEntry {
                    label: call(&format!("{}!", c.name)),
                    doc: c.bang.to_string(),
                });
            }
        }
        let mut sections = Vec::new();
        if self.keymap.modal() && self.screen == super::Screen::Game {
            sections.push(HelpSection {
                title: "Modes (vim preset)",
                entries: self.mode_help(),
            });
        }
        sections.extend([
            HelpSection {
                title: "Keys",
                entries: keys,
            },
            HelpSection {
                title: "The entry line",
                entries: syntax,
            },
            HelpSection {
                title: "Commands",
                entries: commands,
            },
        ]);
        sections
    }

    /// The modes of the vim preset, the one the game screen is in marked.
    fn mode_help(&self) -> Vec<HelpEntry> {
        use super::mode::Mode;
        let keys = |action: &str| self.keymap.shown(action);
        let esc = keys("cancel");
        [
            (
                Mode::Normal,
                format!(
                    "the letters in the keys below are keys; {} type a move, {} a command",
                    keys("insert-mode"),
                    keys("command-line")
                ),
            ),
            (
                Mode::Insert,
                format!(
                    "characters type on the entry line; Enter plays the move and stays here; {esc} back"
                ),
            ),
            (
                Mode::Command,
                format!("a :command on the entry line; Enter runs it, then normal mode; {esc} back"),
            ),
        ]
        .into_iter()
        .map(|(mode, doc)| HelpEntry {
            label: if mode == self.mode {
                format!("{} (now)", mode.name())
            } else {
                mode.name().to_string()
            },
            doc,
        })
        .collect()
    }
}

impl App {
    /// The hint line's keys and labels: the first key of each action of this
    /// screen that has a hint label, in the declarations' order.
    pub fn hints(&self) -> Vec<(String, &'static str)> {
        // With modes, the way to the other mode comes first: to type, or back.
        let modal = self.keymap.modal() && self.screen == super::Screen::Game;
        let switch = match (modal, self.normal_mode()) {
            (false, _) => None,
            (true, true) => self
                .key_named("insert-mode")
                .map(|k| (k.to_string(), "type")),
            (true, false) => self.key_named("cancel").map(|k| (k.to_string(), "normal")),
        };
        switch.into_iter().chain(self.declared_hints()).collect()
    }

    /// The declared actions' hints, with the key to name where the user is.
    fn declared_hints(&self) -> Vec<(String, &'static str)> {
        // A game opened from a list names the way back to it right after help: at 80
        // columns the hints that fit end before the list's, and a reader of a database
        // needs it more than the keys of recording.
        let back_to_list = self.screen == super::Screen::Game && self.list.is_some();
        let mut declared: Vec<_> = ACTIONS.iter().collect();
        if back_to_list {
            if let Some(at) = declared
                .iter()
                .position(|d| d.action == super::Action::List)
            {
                let list = declared.remove(at);
                let help = declared
                    .iter()
                    .position(|d| d.action == super::Action::Help)
                    .map_or(0, |h| h + 1);
                declared.insert(help, list);
            }
        }
        declared
            .into_iter()
            .filter(|d| !d.hint.is_empty() && d.screens.has(self.screen))
            // The list's key only where there is a list.
            .filter(|d| d.action != super::Action::List || self.list.is_some())
            // The training's keys only while training, and then only the keys that work.
            .filter(|d| d.action != super::Action::TrainReveal || self.training())
            .filter(|d| !self.training() || super::train::ALLOWED.contains(&d.action))
            .filter_map(|d| Some((self.key_named(d.name)?.to_string(), d.hint)))
            .collect()
    }
}
