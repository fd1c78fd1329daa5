//! A scripted stand-in for a UCI engine, for tests: deterministic and fast.
//!
//! [`StandIn`] writes a small POSIX shell script that speaks enough UCI (`uci`,
//! `isready`, `setoption`, `ucinewgame`, `position`, `go`, `stop`, `quit`) and
//! answers each `go` from a table: the first rule whose pattern (a shell glob over
//! the whole `position …` line) matches gives the `info` lines and the best move.
//! `go infinite` prints the infos and keeps the best move for `stop`. Every line it
//! receives is appended to a log beside the script, so a test can check what was
//! sent. Failure modes: no `uciok` ever, a banner of nonsense, dying on the n-th `go`
//! (in every process, or once), a `go` never answered, a `stop` ignored. A slow
//! engine under the test's control: [`StandIn::hold`] keeps the searches of some
//! positions waiting until the test creates a file.
//!
//! Use from a test file: `mod uci_standin;` then
//! `StandIn::new().on("position startpos", &["info depth 1 score cp 20 pv e2e4"], "e2e4").write(dir)`.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What the stand-in answers to a `go`.
#[derive(Debug, Clone)]
struct Reply {
    infos: Vec<String>,
    best: String,
}

/// A scripted engine, built rule by rule, then written as a script.
#[derive(Debug, Clone)]
pub struct StandIn {
    name: String,
    banner: Vec<String>,
    rules: Vec<(String, Reply)>,
    default: Reply,
    handshake: bool,
    die_after_go: Option<usize>,
    /// Die only in the first process that gets that far (a marker directory remembers).
    die_once: bool,
    /// Say nothing at all to a `go` (a hung search).
    hang: bool,
    /// Ignore `stop`.
    deaf: bool,
    /// Stop reading at a `go`: alive, but answering nothing, not even `isready`.
    frozen: bool,
    /// Searches of the positions matching the pattern wait for the file to exist.
    held: Option<(String, PathBuf)>,
}

impl Default for StandIn {
    fn default() -> Self {
        Self::new()
    }
}

/// Writes `dir/config.toml` for a player named "Me" (whose mistakes training looks for)
/// with `engine` as the engine: what the training tests start the real binary with.
pub fn configure_me(dir: &Path, engine: &Path) {
    let config = format!(
        "[training]\nname = \"Me\"\n\n[engine]\npath = \"{}\"\n",
        engine.display()
    );
    std::fs::write(dir.join("config.toml"), config).expect("the config is written");
}

impl StandIn {
    /// An engine named `StandIn` that answers every position with a score of 0
    /// and no move (`bestmove (none)`) until given rules.
    pub fn new() -> Self {
        StandIn {
            name: "StandIn".into(),
            banner: Vec::new(),
            rules: Vec::new(),
            default: Reply {
                infos: vec!["info depth 1 score cp 0".into()],
                best: "(none)".into(),
            },
            handshake: true,
            die_after_go: None,
            die_once: false,
            hang: false,
            deaf: false,
            frozen: false,
            held: None,
        }
    }

    /// Its `id name`.
    pub fn name(mut self, name: &str) -> Self {
        self.name = name.into();
        self
    }

    /// For a `position` line matching `pattern` (a shell glob: `*` matches
    /// anything; the rest is taken literally), answer these infos and best move.
    pub fn on(mut self, pattern: &str, infos: &[&str], best: &str) -> Self {
        self.rules.push((
            pattern.to_string(),
            Reply {
                infos: infos.iter().map(|s| s.to_string()).collect(),
                best: best.to_string(),
            },
        ));
        self
    }

    /// The answer when no rule matches.
    pub fn otherwise(mut self, infos: &[&str], best: &str) -> Self {
        self.default = Reply {
            infos: infos.iter().map(|s| s.to_string()).collect(),
            best: best.to_string(),
        };
        self
    }

    /// Lines it prints as soon as it starts, before anything UCI.
    pub fn banner(mut self, lines: &[&str]) -> Self {
        self.banner = lines.iter().map(|s| s.to_string()).collect();
        self
    }

    /// Never answers `uci` (it reads and ignores everything).
    pub fn silent(mut self) -> Self {
        self.handshake = false;
        self
    }

    /// On the n-th `go` (counting from 1), says `standin: crashed` on standard
    /// error and exits with status 3 before answering.
    pub fn die_after_go(mut self, n: usize) -> Self {
        self.die_after_go = Some(n);
        self
    }

    /// Answers the handshake but never a `go` (nor its `stop`): a hung engine.
    pub fn hang_on_go(mut self) -> Self {
        self.hang = true;
        self
    }

    /// At a `go`, stops reading its input for good (the process lives on): a hung
    /// engine that answers nothing, not even `isready`.
    pub fn freeze_on_go(mut self) -> Self {
        self.frozen = true;
        self
    }

    /// A slow engine the test lets go of: the search of a position whose `position`
    /// line matches `pattern` (as in [`StandIn::on`]) takes until the file `gate`
    /// exists (checked every 50 ms), then answers as usual.
    pub fn hold(mut self, pattern: &str, gate: &Path) -> Self {
        self.held = Some((pattern.to_string(), gate.to_path_buf()));
        self
    }

    /// Ignores `stop`: an infinite search never ends.
    pub fn deaf_to_stop(mut self) -> Self {
        self.deaf = true;
        self
    }

    /// Like [`StandIn::die_after_go`], but only the first stand-in process that
    /// reaches its n-th `go` dies (the ones started after it live): for testing that
    /// a fresh engine takes over.
    pub fn die_once_after_go(mut self, n: usize) -> Self {
        self.die_after_go = Some(n);
        self.die_once = true;
        self
    }

    /// Writes the script into `dir` as `standin.sh` (executable) and returns its
    /// path; the log of what it receives is `standin.log` beside it.
    pub fn write(&self, dir: &Path) -> PathBuf {
        let path = dir.join("standin.sh");
        let log = dir.join("standin.log");
        let mut s = String::new();
        s.push_str("#!/bin/sh\n# A scripted UCI stand-in, written by tests/uci_standin.\n");
        let _ = writeln!(s, "LOG={}", quote(&log.display().to_string()));
        for line in &self.banner {
            let _ = writeln!(s, "printf '%s\\n' {}", quote(line));
        }
        s.push_str("pos='position startpos'\nsearching=\ngos=0\n");
        s.push_str("infos() {\n  case \"$pos\" in\n");
        for (pattern, reply) in &self.rules {
            let _ = writeln!(s, "    {}) {} ;;", glob(pattern), print(&reply.infos));
        }
        let _ = writeln!(s, "    *) {} ;;\n  esac\n}}", print(&self.default.infos));
        s.push_str("best() {\n  case \"$pos\" in\n");
        for (pattern, reply) in &self.rules {
            let _ = writeln!(
                s,
                "    {}) echo {} ;;",
                glob(pattern),
                quote(&format!("bestmove {}", reply.best))
            );
        }
        let _ = writeln!(
            s,
            "    *) echo {} ;;\n  esac\n}}",
            quote(&format!("bestmove {}", self.default.best))
        );
        s.push_str("while IFS= read -r line; do\n  printf '%s\\n' \"$line\" >> \"$LOG\"\n");
        if !self.handshake {
            s.push_str("  continue\n");
        }
        s.push_str("  case \"$line\" in\n");
        let _ = writeln!(
            s,
            "    uci) printf '%s\\n' {} 'id author scoresheet tests' \
             'option name Threads type spin default 1 min 1 max 512' \
             'option name Hash type spin default 16 min 1 max 33554432' \
             'option name MultiPV type spin default 1 min 1 max 500' uciok ;;",
            quote(&format!("id name {}", self.name))
        );
        s.push_str("    isready) echo readyok ;;\n");
        s.push_str("    position*) pos=\"$line\" ;;\n");
        s.push_str("    go*)\n      gos=$((gos + 1))\n");
        if let Some(n) = self.die_after_go {
            let once = if self.die_once {
                let marker = quote(&dir.join("standin.died").display().to_string());
                // `mkdir` makes the marker or fails, in one step: of engines running at
                // once, one dies.
                format!(" && mkdir {marker} 2>/dev/null")
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "      if [ \"$gos\" -ge {n} ]{once}; then echo 'standin: crashed' >&2; exit 3; fi"
            );
        }
        if self.frozen {
            s.push_str("      exec sleep 3600\n");
        }
        if let Some((pattern, gate)) = &self.held {
            let gate = quote(&gate.display().to_string());
            let _ = writeln!(
                s,
                "      case \"$pos\" in {}) while [ ! -e {gate} ]; do sleep 0.05; done ;; esac",
                glob(pattern)
            );
        }
        if self.hang {
            s.push_str("      continue\n");
        }
        s.push_str(
            "      infos\n      case \"$line\" in\n        *infinite*) searching=1 ;;\n        *) best ;;\n      esac ;;\n",
        );
        if !self.deaf {
            s.push_str("    stop) if [ -n \"$searching\" ]; then searching=; best; fi ;;\n");
        }
        s.push_str("    quit) exit 0 ;;\n  esac\ndone\n");
        std::fs::write(&path, s).expect("writing the stand-in");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .expect("making the stand-in executable");
        }
        path
    }
}

/// What the stand-in in `dir` received, one command per line.
pub fn received(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("standin.log")).unwrap_or_default()
}

/// A string as one single-quoted shell word.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// A glob pattern as a shell `case` pattern: the `*`s bare, the rest quoted.
fn glob(pattern: &str) -> String {
    pattern
        .split('*')
        .map(|part| {
            if part.is_empty() {
                String::new()
            } else {
                quote(part)
            }
        })
        .collect::<Vec<_>>()
        .join("*")
}

/// A `printf` printing each line, or `:` for none.
fn print(lines: &[String]) -> String {
    if lines.is_empty() {
        return ":".into();
    }
    let words: Vec<String> = lines.iter().map(|l| quote(l)).collect();
    format!("printf '%s\\n' {}", words.join(" "))
}
