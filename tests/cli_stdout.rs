//! Every batch command whose standard output cannot be written, through the real binary:
//! on a full device (`> /dev/full`) it says so on standard error and exits with 2, never
//! silently and never as if its input could not be read; on a closed pipe (`| head`, a
//! reader that stopped) it stops quietly, with the exit code of what it read.
//!
//! `index` is not among them: it writes nothing to standard output.

mod uci_standin;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A process id no process can have (Linux pids stop at 2^22).
const GONE: u32 = 4_200_000;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// One command to run: its arguments, a file for its standard input, and the exit code
/// of a run that writes all its output.
struct Case {
    command: &'static str,
    args: Vec<String>,
    stdin: Option<PathBuf>,
    code: i32,
}

impl Case {
    fn new(command: &'static str, args: &[&str], code: i32) -> Case {
        Case {
            command,
            args: std::iter::once(&command)
                .chain(args)
                .map(|a| a.to_string())
                .collect(),
            stdin: None,
            code,
        }
    }

    fn with_file(mut self, name: &str) -> Case {
        self.args.push(fixture(name).display().to_string());
        self
    }

    /// Reads `name` from standard input (`-`): such input is never indexed, so no
    /// indexing is left running in the background after the test.
    fn with_stdin(mut self, name: &str) -> Case {
        self.args.push("-".into());
        self.stdin = Some(fixture(name));
        self
    }

    fn label(&self) -> String {
        format!("scoresheet {}", self.args.join(" "))
    }

    /// Runs the command in `dir`'s private directories with `stdout` as its standard
    /// output.
    fn run(&self, dir: &Path, stdout: Stdio) -> Output {
        let stdin = match &self.stdin {
            Some(path) => Stdio::from(std::fs::File::open(path).expect("the fixture")),
            None => Stdio::null(),
        };
        Command::new(env!("CARGO_BIN_EXE_scoresheet"))
            .args(&self.args)
            .env("SCORESHEET_DATA_DIR", dir.join("data"))
            .env("SCORESHEET_CONFIG", dir.join("config.toml"))
            .env("SCORESHEET_CACHE_DIR", dir.join("cache"))
            .stdin(stdin)
            .stdout(stdout)
            .stderr(Stdio::piped())
            .output()
            .expect("the binary runs")
    }
}

/// A directory with what `recover` and `train` list (a journal left by a recording that
/// died, a training deck with an exercise due), and the cases: every batch command that
/// writes to standard output, each on input that gives it something to write.
fn cases(dir: &Path) -> Vec<Case> {
    std::fs::write(dir.join("config.toml"), "").expect("the config");
    leave_journal(&dir.join("data/journal"));
    fill_deck(&dir.join("data/training/deck.json"));
    let engine = uci_standin::StandIn::new()
        .otherwise(&["info depth 5 score cp 15"], "(none)")
        .write(dir);
    let engine = engine.display().to_string();
    vec![
        Case::new("check", &[], 1).with_file("quirks/illegal_move.pgn"),
        Case::new("check", &["--jobs", "1"], 1).with_file("quirks/illegal_move.pgn"),
        Case::new("list", &[], 0).with_file("review_club.pgn"),
        Case::new("list", &["--jobs", "1"], 0).with_file("review_club.pgn"),
        Case::new("convert", &[], 0).with_file("review_club.pgn"),
        Case::new("fen", &["--all"], 0).with_file("review_club.pgn"),
        Case::new("transcribe", &[], 0).with_file("pos_games.pgn"),
        Case::new("search", &["--moves", "d4"], 0).with_stdin("review_club.pgn"),
        Case::new("tree", &["--moves", "d4"], 0).with_stdin("review_club.pgn"),
        Case::new("annotate", &["--engine", &engine, "--depth", "2"], 0)
            .with_file("review_club.pgn"),
        Case::new("recover", &[], 0),
        Case::new("train", &[], 0),
    ]
}

/// Records a game in a new journal in `dir`, as if by a recording that has since died.
fn leave_journal(dir: &Path) {
    let game = scoresheet::pgn::read_games(b"[White \"Me\"]\n\n1. e4 e5 2. Nf3 *\n")
        .remove(0)
        .game;
    let mut journal = scoresheet::store::Journal::create(dir, None).expect("a journal");
    journal.record(&game, None, false, None).expect("recorded");
    let name = journal
        .path()
        .file_name()
        .expect("a name")
        .to_string_lossy();
    let dead = name.replace(&format!("-{}", std::process::id()), &format!("-{GONE}"));
    std::fs::rename(journal.path(), dir.join(dead)).expect("renamed");
}

/// Writes a deck at `path` holding an exercise missed a month ago: due today.
fn fill_deck(path: &Path) {
    let text = std::fs::read(fixture("training_mine.pgn")).expect("the fixture");
    let games = scoresheet::pgn::read_games(&text);
    let found = scoresheet::study::train::mistakes::find(&games[0].game, chess::Color::White);
    let mut deck = scoresheet::study::train::deck::Deck::default();
    let long_ago = chrono::Utc::now() - chrono::Duration::days(30);
    deck.review(&found[0], false, long_ago);
    deck.save(path).expect("the deck");
}

/// Checks that `case` writes something when its output can be written, and exits with
/// its code: without that a failed output would have nothing to fail on.
fn writes_something(case: &Case, dir: &Path) {
    let (run, label) = (case.run(dir, Stdio::piped()), case.label());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.stdout.is_empty(), "{label}: no output\n{stderr}");
    assert_eq!(run.status.code(), Some(case.code), "{label}\n{stderr}");
}

#[test]
fn a_full_standard_output_is_said_and_exits_with_2() {
    if !Path::new("/dev/full").exists() {
        println!("SKIPPED: no /dev/full on this system");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    for case in cases(dir.path()) {
        writes_something(&case, dir.path());
        let full = std::fs::File::create("/dev/full").expect("/dev/full opens");
        let (run, label) = (case.run(dir.path(), Stdio::from(full)), case.label());
        let stderr = String::from_utf8_lossy(&run.stderr);
        let said = format!(
            "scoresheet {}: cannot write to standard output: No space left on device",
            case.command
        );
        assert!(stderr.contains(&said), "{label}\n{stderr}");
        assert!(!stderr.contains("cannot read"), "{label}\n{stderr}");
        assert!(!stderr.contains("panicked"), "{label}\n{stderr}");
        assert_eq!(run.status.code(), Some(2), "{label}\n{stderr}");
    }
}

#[test]
fn a_closed_pipe_stops_the_output_quietly() {
    let dir = tempfile::tempdir().expect("temp dir");
    for case in cases(dir.path()) {
        writes_something(&case, dir.path());
        // The reader is gone before the command starts: its first write fails (EPIPE).
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let (run, label) = (case.run(dir.path(), Stdio::from(writer)), case.label());
        let stderr = String::from_utf8_lossy(&run.stderr);
        for noise in ["cannot write", "cannot read", "Broken pipe", "panicked"] {
            assert!(!stderr.contains(noise), "{label}\n{stderr}");
        }
        assert_eq!(run.status.code(), Some(case.code), "{label}\n{stderr}");
    }
}
