//! `scoresheet recover` through the real binary, with the journal directory in a
//! temporary `SCORESHEET_DATA_DIR`: journals written by the library as a recording
//! would, then left behind as a crash leaves them.

use std::io::Write;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use scoresheet::game::Game;
use scoresheet::pgn::{read_games, write_game_to_string};
use scoresheet::store::Journal;

/// A process id no process can have (Linux pids stop at 2^22).
const GONE: u32 = 4_200_000;

fn game(moves: &str) -> Game {
    read_games(format!("[White \"Kasparov\"]\n[Black \"Topalov\"]\n\n{moves} *\n").as_bytes())
        .remove(0)
        .game
}

/// Records `lines` one after the other in a new journal, as if by a process that
/// has since died; returns the journal.
fn leave_journal(data: &Path, out: Option<&Path>, lines: &[&str], saved: bool) -> PathBuf {
    let dir = data.join("journal");
    let mut j = Journal::create(&dir, out).unwrap();
    for (i, l) in lines.iter().enumerate() {
        j.record(&game(l), out, saved && i + 1 == lines.len(), None)
            .unwrap();
    }
    let name = j.path().file_name().unwrap().to_str().unwrap().to_string();
    let pid = std::process::id().to_string();
    let mut dead = dir.join(name.replace(&format!("-{pid}"), &format!("-{GONE}")));
    // Two journals made in the same millisecond get the same name once the pid is
    // replaced (the clash suffix only guards names that are still there).
    let mut n = 1;
    while dead.exists() {
        let unique = name.replace(&format!("-{pid}"), &format!("-{GONE}-{n}"));
        dead = dir.join(unique);
        n += 1;
    }
    std::fs::rename(j.path(), &dead).unwrap();
    dead
}

/// Runs `scoresheet recover ARGS` on the data directory; (stdout, stderr, code).
fn recover(data: &Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .arg("recover")
        .args(args)
        .env("SCORESHEET_DATA_DIR", data)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn nothing_to_recover() {
    let data = tempfile::tempdir().unwrap();
    let (out, err, code) = recover(data.path(), &[]);
    assert_eq!((out.as_str(), code), ("", 0));
    assert!(err.contains("no unsaved games"), "{err}");
    let (out, err, code) = recover(data.path(), &["--discard"]);
    assert_eq!((out.as_str(), code), ("", 0));
    assert!(err.contains("no unsaved games"), "{err}");
}

#[test]
fn a_crash_mid_move_recovers_every_confirmed_move() {
    let data = tempfile::tempdir().unwrap();
    let target = data.path().join("wijk aan zee.pgn");
    let lines = ["1. e4", "1. e4 d6", "1. e4 d6 2. d4", "1. e4 d6 2. d4 Nf6"];
    let journal = leave_journal(data.path(), Some(&target), &lines, false);
    // The crash came in the middle of writing the next record.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&journal)
        .unwrap();
    f.write_all(b"record 312 0 - 0123456789abcdef\n[Event \"?\"]\n[Si")
        .unwrap();
    drop(f);

    let (out, err, code) = recover(data.path(), &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, write_game_to_string(&game(lines[3])));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&journal.display().to_string()), "{err}");
    assert!(err.contains("(2 moves,"), "{err}");
    assert!(
        err.contains("meant for") && err.contains("wijk aan zee.pgn"),
        "{err}"
    );
    // Printing leaves the journal: recovery is repeatable until discarded.
    assert!(journal.exists());
    assert_eq!(recover(data.path(), &[]).0, out);
}

#[test]
fn several_games_oldest_first_then_discarded() {
    let data = tempfile::tempdir().unwrap();
    let first = leave_journal(data.path(), None, &["1. c4", "1. c4 e5"], false);
    std::thread::sleep(std::time::Duration::from_millis(5));
    let second = leave_journal(data.path(), None, &["1. Nf3"], false);
    // A game that was saved leaves nothing to recover.
    let saved = leave_journal(data.path(), None, &["1. b3"], true);

    let (out, err, code) = recover(data.path(), &[]);
    assert_eq!(code, 0, "{err}");
    let expected = write_game_to_string(&game("1. c4 e5")) + &write_game_to_string(&game("1. Nf3"));
    assert_eq!(out, expected);
    assert_eq!(read_games(out.as_bytes()).len(), 2);
    let notes: Vec<&str> = err.lines().collect();
    assert_eq!(notes.len(), 2, "{err}");
    assert!(notes[0].contains(&first.display().to_string()), "{err}");
    assert!(notes[1].contains(&second.display().to_string()), "{err}");
    assert!(
        notes[1].contains("1 move,") && notes[1].contains("no file named yet"),
        "{err}"
    );
    // Printing deletes nothing, not even a journal that holds nothing unsaved.
    assert!(saved.exists(), "printing deleted a journal");

    let (out, err, code) = recover(data.path(), &["--discard"]);
    assert_eq!((out.as_str(), code), ("", 0));
    assert!(err.contains("discarded 2 unsaved games"), "{err}");
    assert!(!first.exists() && !second.exists());
    assert!(!saved.exists(), "a saved journal is cleared by --discard");
    let (out, err, _) = recover(data.path(), &[]);
    assert_eq!(out, "");
    assert!(err.contains("no unsaved games"), "{err}");
}

#[test]
fn an_unreadable_journal_is_reported_and_kept() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().join("journal");
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join(format!("20250101-000000-000-{GONE}.journal"));
    std::fs::write(&junk, "garbage\n").unwrap();
    let good = leave_journal(data.path(), None, &["1. g3"], false);

    let (out, err, code) = recover(data.path(), &["--discard"]);
    assert_eq!((out.as_str(), code), ("", 1));
    assert!(
        err.contains("cannot read journal") && err.contains("left in place"),
        "{err}"
    );
    assert!(err.contains("discarded 1 unsaved game"), "{err}");
    assert!(junk.exists() && !good.exists());
}

#[test]
fn a_symlinked_journal_is_reported_without_being_read() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().join("journal");
    std::fs::create_dir_all(&dir).unwrap();
    let secret = data.path().join("secret");
    std::fs::write(&secret, "root:x:0:0 first line\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, dir.join("20260101-000000-000-4200000.journal")).unwrap();
    let (out, err, code) = recover(data.path(), &[]);
    assert_eq!(out, "");
    #[cfg(unix)]
    {
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("symbolic link"), "{err}");
        assert!(!err.contains("root:x"), "{err}");
        assert!(secret.exists());
    }
    let _ = (err, code);
}

#[test]
fn a_journal_directory_that_is_a_file_is_named() {
    let data = tempfile::tempdir().unwrap();
    std::fs::write(data.path().join("journal"), "").unwrap();
    let (_, err, code) = recover(data.path(), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is a file, not a directory"), "{err}");
    assert!(!err.contains("os error"), "{err}");
}

fn convert(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .arg("convert")
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn convert_replaces_a_read_only_output_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pgn");
    std::fs::write(&input, "[Event \"x\"]\n\n1. e4 e5 *\n").unwrap();
    let out = dir.path().join("out.pgn");
    std::fs::write(&out, "keep me").unwrap();
    let mut perms = std::fs::metadata(&out).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&out, perms).unwrap();
    let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
    let (err, code) = convert(&[i, "-o", o]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("read-only") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    let (err, code) = convert(&[i, "-o", o, "--force"]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("1. e4 e5"));
}

#[cfg(unix)]
#[test]
fn convert_writes_into_a_pipe_without_replacing_it() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pgn");
    std::fs::write(&input, "[Event \"x\"]\n\n1. e4 e5 *\n").unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let (err, code) = convert(&[input.to_str().unwrap(), "-o", fifo.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // Checked first: a pipe replaced by a file would leave the reader waiting.
    assert!(!std::fs::metadata(&fifo).unwrap().is_file());
    let got = String::from_utf8(reader.join().unwrap()).unwrap();
    assert!(got.contains("1. e4 e5"), "{got}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn tag_options_that_would_not_read_back_are_refused() {
    let data = tempfile::tempdir().unwrap();
    for (option, value) in [
        ("--white", "Ann\nBob"),
        ("--event", "Club\u{1b}[2J"),
        ("--black", "tab\there"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
            .args(["new", option, value])
            .env("SCORESHEET_DATA_DIR", data.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{option}: {err}");
        assert!(
            err.contains(option) && err.contains("control characters"),
            "{option}: {err}"
        );
    }
}
