//! A batch command writing `-o OUT` that is stopped by a signal (SIGTERM from a
//! shutdown, SIGHUP from a closed terminal, SIGINT from Ctrl-C) leaves OUT as it was
//! and no `.scoresheet-XXXXXX.tmp` file beside it.
#![cfg(unix)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The temporary files a save leaves in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".scoresheet-") && n.ends_with(".tmp"))
        .collect()
}

/// Runs `convert IN -o OUT` reading from a pipe that stays open, so the command is
/// still writing its temporary file when `signal` comes; returns its exit code.
fn convert_stopped_by(signal: libc::c_int) -> Option<i32> {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("in.pgn");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    let out = dir.path().join("out.pgn");
    std::fs::write(&out, "the old text\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(["convert", "in.pgn", "-o", "out.pgn", "--force"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Opening the pipe waits for the reader; the writer is held open until the end.
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    writer
        .write_all(b"[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n")
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while temporaries(dir.path()).is_empty() {
        assert!(Instant::now() < deadline, "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on the child this test started and has not yet waited for.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let status = child.wait().unwrap();
    drop(writer);
    assert_eq!(
        temporaries(dir.path()),
        Vec::<String>::new(),
        "a temporary file was left behind"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "the old text\n");
    status.code()
}

#[test]
fn convert_stopped_by_sigterm_leaves_no_temporary_file() {
    assert_eq!(convert_stopped_by(libc::SIGTERM), Some(128 + libc::SIGTERM));
}

#[test]
fn convert_stopped_by_sighup_leaves_no_temporary_file() {
    assert_eq!(convert_stopped_by(libc::SIGHUP), Some(128 + libc::SIGHUP));
}

#[test]
fn convert_stopped_by_sigint_leaves_no_temporary_file() {
    assert_eq!(convert_stopped_by(libc::SIGINT), Some(128 + libc::SIGINT));
}
