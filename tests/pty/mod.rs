//! Drives the real binary in a pseudo-terminal: spawn it at a fixed size, read
//! its screen through a terminal emulator, type keys, wait for text (with a
//! deadline, never a fixed sleep).

#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};

/// Keys as a terminal sends them.
pub mod keys {
    pub const ENTER: &str = "\r";
    pub const LEFT: &str = "\x1b[D";
    pub const RIGHT: &str = "\x1b[C";
    pub const UP: &str = "\x1b[A";
    pub const DOWN: &str = "\x1b[B";
    pub const HOME: &str = "\x1b[H";
    pub const END: &str = "\x1b[F";
    pub const INSERT: &str = "\x1b[2~";
    pub const DELETE: &str = "\x1b[3~";
    pub const F1: &str = "\x1bOP";
    pub const ESC: &str = "\x1b";
    pub const CTRL_C: &str = "\x03";
    pub const CTRL_U: &str = "\x15";
    pub const CTRL_Z: &str = "\x1a";
    pub const BACKSPACE: &str = "\x7f";
    pub const CTRL_K: &str = "\x0b";
    pub const CTRL_L: &str = "\x0c";
    pub const CTRL_Y: &str = "\x19";
    pub const SHIFT_RIGHT: &str = "\x1b[1;2C";
    pub const SHIFT_LEFT: &str = "\x1b[1;2D";
    pub const ALT_UP: &str = "\x1b[1;3A";
    pub const ALT_DOWN: &str = "\x1b[1;3B";
}

/// A running recorder.
pub struct Term {
    parser: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
    /// Where the files of this run live (data dir, config, saved games).
    pub dir: PathBuf,
}

/// The environment every run gets: its own data directory and configuration. The
/// configuration file is created empty (the defaults) unless the test wrote one: a file
/// named by SCORESHEET_CONFIG must exist.
pub fn env_for(dir: &Path) -> Vec<(String, PathBuf)> {
    let config = dir.join("config.toml");
    if !config.exists() {
        let _ = std::fs::write(&config, "");
    }
    vec![
        ("SCORESHEET_DATA_DIR".into(), dir.join("data")),
        ("SCORESHEET_CONFIG".into(), config),
    ]
}

impl Term {
    /// Starts `scoresheet ARGS` in `dir` on a `cols`×`rows` terminal.
    pub fn spawn(dir: &Path, args: &[&str], cols: u16, rows: u16) -> Term {
        Term::spawn_with(dir, args, cols, rows, &[])
    }

    /// [`Term::spawn`] with more environment variables (`TZ`, …).
    pub fn spawn_with(
        dir: &Path,
        args: &[&str],
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> Term {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_scoresheet"));
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("COLORTERM");
        for (name, value) in env_for(dir) {
            cmd.env(name, value);
        }
        for (name, value) in env {
            cmd.env(name, value);
        }
        let child = pty.slave.spawn_command(cmd).expect("the binary starts");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().expect("a reader");
        let writer = pty.master.take_writer().expect("a writer");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(
            rows.try_into().unwrap(),
            cols.try_into().unwrap(),
            0,
        )));
        let sink = Arc::clone(&parser);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().process(&buf[..n]);
            }
        });
        Term {
            parser,
            writer,
            child,
            master: pty.master,
            dir: dir.to_path_buf(),
        }
    }

    /// The screen's text now.
    pub fn text(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// The rows drawn in reverse video across the whole width (a list's selection).
    pub fn reversed_rows(&self) -> Vec<String> {
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        let (rows, cols) = screen.size();
        let (rows, cols) = (u16::from(rows), u16::from(cols));
        (0..rows)
            .filter(|&y| (0..cols).all(|x| screen.cell(y, x).is_some_and(|c| c.inverse())))
            .map(|y| screen.contents_between(y, 0, y, cols))
            .collect()
    }

    /// True while the program is on the alternate screen.
    pub fn on_alternate_screen(&self) -> bool {
        self.parser.lock().unwrap().screen().alternate_screen()
    }

    /// True while the program has bracketed paste on.
    pub fn bracketed_paste(&self) -> bool {
        self.parser.lock().unwrap().screen().bracketed_paste()
    }

    /// Waits until the screen shows `needle`; fails with the screen after 10 s.
    pub fn wait_for(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let text = self.text();
            if text.contains(needle) {
                return text;
            }
            if Instant::now() > deadline {
                panic!("waited 10 s for {needle:?}; the screen shows:\n{text}");
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Types text (keys are sent as the terminal would).
    pub fn send(&mut self, text: &str) {
        self.writer.write_all(text.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    /// Types a line and presses Enter, then waits for the entry line to be
    /// empty again or for `expect` on the screen.
    pub fn line(&mut self, text: &str, expect: &str) {
        self.send(text);
        self.send(keys::ENTER);
        self.wait_for(expect);
    }

    /// A lone Escape, then a wait so that it is not read with the next key.
    pub fn escape(&mut self, expect_gone: &str) {
        self.send(keys::ESC);
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.text().contains(expect_gone) {
            assert!(
                Instant::now() < deadline,
                "Escape did not close {expect_gone:?}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Resizes the terminal to `cols`×`rows`, as a user dragging its window
    /// (the program gets SIGWINCH).
    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.parser
            .lock()
            .unwrap()
            .set_size(rows.try_into().unwrap(), cols.try_into().unwrap());
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("the terminal resizes");
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.process_id().expect("a pid")
    }

    /// Waits for the program to end; its exit code.
    pub fn wait_exit(&mut self) -> u32 {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Let the reader take the last bytes (the terminal restore).
                std::thread::sleep(Duration::from_millis(50));
                return status.exit_code();
            }
            assert!(
                Instant::now() < deadline,
                "the program did not exit:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Sends a signal to the program (`kill -SIGNAL pid`).
    pub fn signal(&self, signal: &str) {
        let status = std::process::Command::new("kill")
            .args([format!("-{signal}"), self.pid().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// The binary as a batch command (`recover`, `check` …) with the environment of the
/// runs in `dir`: their data directory and configuration.
pub fn batch(dir: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("scoresheet").expect("the binary");
    for (name, value) in env_for(dir) {
        cmd.env(name, value);
    }
    cmd
}

/// The main line of a game, in SAN.
pub fn sans(game: &scoresheet::game::Game) -> Vec<String> {
    game.mainline()
        .iter()
        .map(|&id| game.node(id).san.clone())
        .collect()
}

/// The main lines of the games of a PGN text.
pub fn main_lines(pgn: &[u8]) -> Vec<Vec<String>> {
    scoresheet::pgn::builder::read_games(pgn)
        .iter()
        .map(|g| sans(&g.game))
        .collect()
}

/// The games of a file, each read without a problem.
pub fn games_in(path: &Path) -> Vec<scoresheet::game::Game> {
    let bytes = std::fs::read(path).expect("the file reads");
    scoresheet::pgn::builder::read_games(&bytes)
        .into_iter()
        .map(|g| {
            assert!(g.errors.is_empty(), "{:?}", g.errors);
            g.game
        })
        .collect()
}

/// The main lines of the unsaved games `scoresheet recover` prints for the runs in
/// `dir`, sorted.
pub fn unsaved(dir: &Path) -> Vec<Vec<String>> {
    let out = batch(dir).arg("recover").output().expect("recover runs");
    let mut games = main_lines(&out.stdout);
    games.sort();
    games
}
