//! Drives the real binary in a pseudo-terminal: spawn it at a fixed size, read
//! its screen through a terminal emulator, type keys, wait for text (with a
//! deadline, never a fixed sleep), and close the terminal as a window closed
//! under the program would ([`Term::close_terminal`]).

#![allow(dead_code)]

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
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
///
/// The terminal's side of the pseudo-terminal (the master) is held three times: by
/// the pty itself, by the writer and by the reader thread. All three are closed by
/// [`Term::close_terminal`], which is what makes the kernel hang the terminal up.
/// (The writer is a plain duplicate of the master rather than portable-pty's writer,
/// whose drop types a line end and an end-of-file character into the program.)
pub struct Term {
    parser: Arc<Mutex<vt100::Parser>>,
    /// Text looked for on every screen the reader sees, and whether one showed it
    /// ([`Term::watch`]): a screen that a later one replaced at once still counts.
    watched: Arc<Mutex<Option<(String, bool)>>>,
    writer: Option<File>,
    child: Box<dyn Child + Send + Sync>,
    master: Option<Box<dyn MasterPty + Send>>,
    reader: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
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
        Term::spawn_program(dir, env!("CARGO_BIN_EXE_scoresheet"), args, cols, rows, env)
    }

    /// Starts `program ARGS` (a shell that runs the binary, say) in `dir` on a
    /// `cols`×`rows` terminal, with the environment of [`Term::spawn_with`].
    pub fn spawn_program(
        dir: &Path,
        program: &str,
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
        let mut cmd = CommandBuilder::new(program);
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
        let master_fd = || -> OwnedFd {
            let raw = pty.master.as_raw_fd().expect("the master's descriptor");
            // SAFETY: the descriptor is the pty's, open while `pty.master` lives (here).
            unsafe { BorrowedFd::borrow_raw(raw) }
                .try_clone_to_owned()
                .expect("a duplicate of the master")
        };
        let writer = File::from(master_fd());
        let parser = Arc::new(Mutex::new(vt100::Parser::new(
            rows.try_into().unwrap(),
            cols.try_into().unwrap(),
            0,
        )));
        let stop = Arc::new(AtomicBool::new(false));
        let watched = Arc::new(Mutex::new(None));
        let reader = std::thread::spawn({
            let (sink, stop, mut master, watched) = (
                Arc::clone(&parser),
                Arc::clone(&stop),
                File::from(master_fd()),
                Arc::clone(&watched),
            );
            move || read_screen(&mut master, &sink, &stop, &watched)
        });
        Term {
            parser,
            watched,
            writer: Some(writer),
            child,
            master: Some(pty.master),
            reader: Some((stop, reader)),
            dir: dir.to_path_buf(),
        }
    }

    /// Closes the terminal under the program, as a terminal window closed or an ssh
    /// connection dropped: every descriptor of the master side is closed (the writer,
    /// the reader thread's, the pty's), so the kernel hangs the terminal up — SIGHUP
    /// to the program when it is the terminal's controlling process, and end of file
    /// or EIO on its reads and writes in any case. The screen keeps its last state.
    pub fn close_terminal(&mut self) {
        self.writer.take();
        if let Some((stop, reader)) = self.reader.take() {
            stop.store(true, Ordering::SeqCst);
            reader.join().expect("the reader thread ends");
        }
        self.master.take();
    }

    /// The screen's text now.
    pub fn text(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// From now on, looks for `needle` on every screen read (see [`Term::seen`]).
    pub fn watch(&self, needle: &str) {
        *self.watched.lock().unwrap() = Some((needle.to_string(), false));
    }

    /// True when a screen read since [`Term::watch`] showed its text.
    pub fn seen(&self) -> bool {
        self.watched
            .lock()
            .unwrap()
            .as_ref()
            .is_some_and(|(_, seen)| *seen)
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
        let writer = self.writer.as_mut().expect("the terminal is open");
        writer.write_all(text.as_bytes()).unwrap();
        writer.flush().unwrap();
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
            .as_ref()
            .expect("the terminal is open")
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

    /// Waits for the program to end; its exit code (1 when a signal ended it: see
    /// [`Term::wait_exit_status`]).
    pub fn wait_exit(&mut self) -> u32 {
        self.wait_exit_status().exit_code()
    }

    /// Waits for the program to end; how it ended (an exit code, or the signal that
    /// killed it).
    pub fn wait_exit_status(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Let the reader take the last bytes (the terminal restore).
                std::thread::sleep(Duration::from_millis(50));
                return status;
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

/// The reader thread: feeds what the program writes to the screen's emulator until
/// the program's side closes or `stop` is set. It waits in `poll(2)` with a short
/// timeout rather than in `read(2)`, so that it can let go of its descriptor when
/// told to (a descriptor blocked in a read stays open, and the terminal with it).
fn read_screen(
    master: &mut File,
    sink: &Mutex<vt100::Parser>,
    stop: &AtomicBool,
    watched: &Mutex<Option<(String, bool)>>,
) {
    let mut buf = [0u8; 8192];
    while !stop.load(Ordering::SeqCst) {
        let mut ready = libc::pollfd {
            fd: master.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for the duration of the call.
        match unsafe { libc::poll(&mut ready, 1, 20) } {
            0 => continue,
            n if n < 0
                && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted =>
            {
                continue
            }
            n if n < 0 => return,
            _ => {}
        }
        match master.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let mut parser = sink.lock().unwrap();
                let mut watched = watched.lock().unwrap();
                let Some((needle, seen)) = watched.as_mut() else {
                    parser.process(&buf[..n]);
                    continue;
                };
                // Frame by frame (each ends by hiding the cursor), so that a screen
                // drawn just before the next one is still seen.
                for frame in buf[..n].split_inclusive(|&b| b == b'l') {
                    parser.process(frame);
                    *seen |= parser.screen().contents().contains(needle.as_str());
                }
            }
        }
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
