//! The event loop: read all pending input → keymap → [`Action`] →
//! [`App::update`] → [`Effect`] → draw once per batch, when something shown changed
//! ([`redraw`]). Effects that touch files
//! (journal, save, load, recovery) run here. The journal is written and synced
//! after each update and before the frame that shows it, so a move on the
//! screen is a move on disk.
//!
//! The terminal is restored on every way out: `:q`, Ctrl-C, SIGTERM, SIGHUP,
//! SIGINT or SIGQUIT sent from outside (a thread that removes the temporary file
//! of a save in progress, restores the terminal and exits), and a panic
//! (ratatui's hook).

mod annotator;
pub mod clipboard;
mod engine;
pub mod input;
mod redraw;
mod session;
mod study;
pub mod train;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::KeyEventKind;
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::app::{Action, App, Keymap, Settings};
use crate::config::{self, Config};

use crate::game::Game;
use crate::position::Position;
use crate::ui::{self, Look};
use input::Input;
pub use session::Session;

/// What `scoresheet new` was given.
#[derive(Debug, Clone, Default)]
pub struct NewGame {
    /// The file `:w` writes.
    pub out: Option<PathBuf>,
    /// The start position.
    pub fen: Option<String>,
    /// Tags given on the command line, in order.
    pub tags: Vec<(String, String)>,
}

/// The settings the recorder acts on, from the configuration.
pub fn settings(config: &Config) -> Settings {
    use crate::notation::Style;
    Settings {
        input_lang: config.notation.input,
        display: match config.notation.display {
            config::MoveNotation::San => Style::San,
            config::MoveNotation::Figurine => Style::Figurine,
            config::MoveNotation::Lan => Style::Lan,
        },
        display_lang: config.notation.lang,
        inside: config.recording.inside,
        autosave: config.recording.autosave,
        timer: config.recording.timer,
    }
}

/// The screen's look, from the configuration.
pub fn look(config: &Config) -> Look {
    let board = &config.board;
    let color = board.colors != config::Colors::None && !ui::look::colour_refused();
    Look {
        ascii: board.style == config::BoardStyle::Ascii,
        theme: board.theme,
        truecolor: match board.colors {
            config::Colors::Auto => ui::look::terminal_has_truecolor(),
            config::Colors::Truecolor => true,
            config::Colors::Ansi256 | config::Colors::None => false,
        },
        square: board.square,
        coordinates: board.coordinates,
        color,
    }
}

/// Gives the app the keymap of the configuration: the declared keys with the
/// user's `[keys]` over them. A configuration whose keys cannot be used is
/// refused by [`run`] before the screen opens; here it panics (tests only).
pub fn describe_keys(app: &mut App, config: &Config) {
    app.set_keymap(Keymap::new(&config.keys).expect("the configuration's keys are valid"));
}

/// The action a key event asks for on the app's screen: a binding, else the
/// character it types.
pub fn action_of(app: &App, event: &crossterm::event::KeyEvent) -> Option<Action> {
    // A character bound to an action acts only where it would type nothing: in
    // normal mode, on an empty entry line, or on the list while its filter is closed.
    app.action_of(event)
}

/// Gives the terminal back: bracketed paste off, then ratatui's restore (raw
/// mode off, main screen).
///
/// Failures are ignored, never printed: when the terminal is gone (closed under the
/// program) there is nothing to restore, and printing to it would panic (ratatui's
/// `restore` does, with `eprintln!`), which in a panic hook or a signal thread aborts
/// the process.
pub fn restore() {
    let out = &mut std::io::stdout();
    let _ = crossterm::execute!(out, crossterm::event::DisableBracketedPaste);
    let _ = ratatui::try_restore();
    let _ = crossterm::execute!(out, crossterm::cursor::Show);
}

/// Runs the recorder; returns the exit code.
pub fn run(new: NewGame) -> anyhow::Result<u8> {
    run_with(new, None)
}

/// Opens a file: its game when it has one, the list of its games when it has
/// more, the recorder saving to it when it does not exist yet. Returns the exit
/// code.
pub fn open(path: &std::path::Path) -> anyhow::Result<u8> {
    // Refused before the screen opens: a directory, a pipe, a file that cannot be read.
    match crate::store::probe(path) {
        Err(e) => {
            eprintln!("scoresheet: {e}");
            Ok(crate::cli::exit::USAGE)
        }
        Ok((crate::store::Opened::Missing, _)) => run(NewGame {
            out: Some(path.to_path_buf()),
            ..NewGame::default()
        }),
        Ok((opened, _)) => run_with(NewGame::default(), Some((path, opened))),
    }
}

/// `scoresheet train FILE`: the screen on a drill of the exercises due and of your
/// mistakes in the newest `last` of your games in `path` (all when `None`). Returns
/// the exit code.
pub fn train(path: &std::path::Path, last: Option<usize>) -> anyhow::Result<u8> {
    // The file opens as `scoresheet FILE` opens it (its list, or its game): where the
    // drill ends.
    let opened = match crate::store::probe(path) {
        Ok((opened, _)) => opened,
        Err(e) => {
            eprintln!("scoresheet: {e}");
            return Ok(crate::cli::exit::USAGE);
        }
    };
    start(NewGame::default(), Some((path, opened)), Some((path, last)))
}

/// The recorder on `new`, opening `file` first when given.
fn run_with(
    new: NewGame,
    file: Option<(&std::path::Path, crate::store::Opened)>,
) -> anyhow::Result<u8> {
    start(new, file, None)
}

/// The recorder on `new`, opening `file` first, or starting a drill over `drill` (a
/// file, and how many of your games in it).
fn start(
    new: NewGame,
    file: Option<(&std::path::Path, crate::store::Opened)>,
    drill: Option<(&std::path::Path, Option<usize>)>,
) -> anyhow::Result<u8> {
    let (config, keymap) = match Config::load().and_then(|c| Keymap::new(&c.keys).map(|k| (c, k))) {
        Ok(both) => both,
        Err(e) => {
            eprintln!("scoresheet: {e}");
            return Ok(crate::cli::exit::USAGE);
        }
    };
    // Values the game could not be read back with are refused before anything else.
    for (name, value) in &new.tags {
        if let Some(why) = crate::app::command::tag_problem(name, value) {
            eprintln!("scoresheet: --{}: {why}", name.to_ascii_lowercase());
            return Ok(crate::cli::exit::USAGE);
        }
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        eprintln!(
            "scoresheet: the screen (recording, reviewing, training) needs a terminal, and \
             standard input or output is not one; the batch commands (`scoresheet --help` \
             lists them) work anywhere"
        );
        return Ok(crate::cli::exit::USAGE);
    }
    let start = match &new.fen {
        Some(fen) => match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("scoresheet: bad --fen: {e}");
                return Ok(crate::cli::exit::USAGE);
            }
        },
        None => Position::start(),
    };
    let mut game = Game::new(start);
    game.set_tag("Date", &crate::app::today());
    for (name, value) in &new.tags {
        game.set_tag(name, value);
    }
    let mut app = App::new(settings(&config), game, new.out.clone());
    app.set_keymap(keymap);
    app.engine =
        crate::app::engine::EngineView::new(crate::app::engine::engine_config(&config.engine));
    app.train.name = config.training.name.clone();
    // The engine of [engine] judges training answers too, when it is there.
    app.train.engine = crate::engine::find_program(std::path::Path::new(&config.engine.path));
    if app.train.engine.is_none() {
        app.train.missing_engine = Some(config.engine.path.clone().into());
    }
    let mut session = Session::start(&mut app)?;
    if let Some((path, opened)) = file {
        session.show_opened(&mut app, path, opened);
    }
    if let Some((drill, last)) = drill {
        let effect = app.ask_drill(Some(drill.to_path_buf()), last);
        session.carry_out(&mut app, effect)?;
    }

    // SIGTERM, SIGHUP, SIGINT and SIGQUIT end the recorder from a thread of their
    // own: when the terminal is gone (SIGHUP), the input reader can spin on
    // end-of-file and never come back to the loop. (In raw mode Ctrl-C is a key,
    // so SIGINT and SIGQUIT only come from outside.) Every change is in the
    // journal before it is shown, so leaving at once loses nothing the screen
    // confirmed; a save in progress leaves no temporary file behind.
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            crate::store::target::remove_live_temporaries();
            restore();
            std::process::exit(128 + signal);
        }
    });
    let look = look(&config);
    let first_hook = std::panic::take_hook();
    let mut terminal = ratatui::try_init()?;
    // Pasted text comes as one event (a line break in it is not Enter); the
    // panic hook turns the mode off again with the rest. It replaces ratatui's,
    // whose failures to restore a closed terminal would panic inside the hook.
    let _ = crossterm::execute!(std::io::stdout(), crossterm::event::EnableBracketedPaste);
    drop(std::panic::take_hook());
    std::panic::set_hook(Box::new(move |info| {
        restore();
        first_hook(info);
    }));
    let mut input = input::Reader::stdin();
    let mut engine = engine::EngineRunner::default();
    let result = (|| -> anyhow::Result<()> {
        // Keys that did nothing while the screen was too small, said on it.
        let mut ignored = 0usize;
        // Frames are drawn only when something shown changed: idle costs nothing.
        let mut redraw = redraw::Redraw::default();
        loop {
            session.take_listed(&mut app);
            session.take_study(&mut app);
            session.take_checked(&mut app);
            session.take_numbered(&mut app);
            session.follow_annotation(&mut app);
            engine.serve(&mut app);
            if session.take_judged(&mut app)? || session.take_gathered(&mut app)? {
                return Ok(());
            }
            let size = terminal.size()?;
            let small = ui::too_small(size.width, size.height);
            if !small {
                ignored = 0;
            }
            let shown = redraw::Shown::now(&app, (size.width, size.height), ignored);
            if redraw.due(&shown) {
                if small {
                    terminal
                        .draw(|frame| ui::enlarge(frame.area(), ignored, frame.buffer_mut()))?;
                } else {
                    terminal.draw(|frame| ui::draw(frame, &app, &look))?;
                }
                redraw.drawn(shown);
            }
            // While a list is read, a search or tree is worked out or a game annotated, the
            // screen follows it (the count, the rows, the progress); while an engine runs,
            // its lines as they deepen.
            let wait = if session.listing() || session.studying() || session.annotating() {
                40
            } else if engine.running() {
                100
            } else {
                250
            };
            // Everything the terminal has sent is handled before the next
            // frame: a long pasted line and the Enter after it in one go.
            for event in input.read(Duration::from_millis(wait))? {
                // A screen too small shows only a request to enlarge it: a key would act
                // unseen (text typed into an editor nobody sees), so none does but quit.
                let size = terminal.size()?;
                if ui::too_small(size.width, size.height) {
                    match &event {
                        Input::Key(key)
                            if key.kind != KeyEventKind::Release
                                && !app.takes_keys()
                                && action_of(&app, key) == Some(Action::Quit) =>
                        {
                            let effect = app.update(Action::Quit);
                            if session.carry_out(&mut app, effect)? {
                                return Ok(());
                            }
                        }
                        Input::Key(key) if key.kind == KeyEventKind::Release => {}
                        _ => ignored += 1,
                    }
                    continue;
                }
                let effect = match event {
                    Input::Key(key) if key.kind != KeyEventKind::Release && app.takes_keys() => {
                        app.update(crate::app::Msg::Key(key))
                    }
                    Input::Key(key) if key.kind != KeyEventKind::Release => {
                        match action_of(&app, &key) {
                            Some(action) => app.update(action),
                            None => continue,
                        }
                    }
                    Input::Key(_) => continue,
                    Input::Paste(pasted) => {
                        let whole = pasted.whole();
                        app.update(crate::app::Msg::Paste {
                            text: pasted.text,
                            whole,
                        })
                    }
                };
                // A save that keeps the screen waiting says so first.
                if let Some(notice) = session.before(&effect) {
                    app.update(notice);
                    terminal.draw(|frame| ui::draw(frame, &app, &look))?;
                }
                // Writes the journal for this change before anything else.
                if session.carry_out(&mut app, effect)? {
                    return Ok(());
                }
            }
        }
    })();
    restore();
    // A terminal that is gone cannot show its cursor again, and ratatui's drop
    // would then print that to it, which panics: such a terminal is let go as is.
    if terminal.show_cursor().is_err() {
        std::mem::forget(terminal);
    }
    engine.close();
    session.close(&app);
    result?;
    Ok(crate::cli::exit::OK)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    fn app_with(config: &Config) -> App {
        let mut app = App::new(settings(config), Game::default(), None);
        describe_keys(&mut app, config);
        app
    }

    #[test]
    fn question_mark_opens_help_only_on_an_empty_line() {
        let mut app = app_with(&Config::defaults());
        assert_eq!(action_of(&app, &key('?')), Some(Action::Help));
        assert_eq!(action_of(&app, &key('N')), Some(Action::Type('N')));
        app.entry.push('N');
        assert_eq!(action_of(&app, &key('?')), Some(Action::Type('?')));
        let ctrl_z = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
        assert_eq!(action_of(&app, &ctrl_z), Some(Action::Undo));
    }

    #[test]
    fn colours_can_be_turned_off_in_the_configuration() {
        let config = Config::from_toml_str("[board]\ncolors = \"none\"\n").unwrap();
        assert!(!look(&config).color);
    }

    #[test]
    fn ctrl_h_and_backspace_both_erase() {
        // ^H is what many terminals send for Backspace, and what Ctrl-H sends.
        let mut app = app_with(&Config::defaults());
        app.entry.push('e');
        for byte in [0x08u8, 0x7f] {
            let mut decoder = input::Decoder::new();
            let events = decoder.feed(&[byte], std::time::Instant::now());
            let [Input::Key(key)] = events.as_slice() else {
                panic!("{events:?}")
            };
            assert_eq!(action_of(&app, key), Some(Action::EraseChar), "{byte:#x}");
        }
    }

    #[test]
    fn unbound_question_mark_is_text() {
        let config = Config::from_toml_str("[keys]\nhelp = [\"F1\"]\n").unwrap();
        let app = app_with(&config);
        assert_eq!(action_of(&app, &key('?')), Some(Action::Type('?')));
    }
}
