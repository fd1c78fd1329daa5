//! A full disk under the real binary: `:w` keeps the old file and says so, the journal
//! warns and recording goes on (and journals again once there is room), `convert -o`
//! and `annotate -o` (its engine the scripted stand-in) keep the old output, or make
//! no new one, and exit non-zero with a message that names the file.
//!
//! Each case runs twice where it can:
//! - on a real full disk: a small tmpfs of its own, mounted for the test and filled up
//!   (this needs the right to mount, as root has on our machines; without it the case
//!   prints `SKIPPED` and says why);
//! - always, on a seam that needs no mount: the binary started with a file-size limit
//!   (`ulimit -f`; the binary ignores SIGXFSZ), so that the kernel refuses every write past a few
//!   kilobytes as it would on a full disk (EFBIG instead of ENOSPC), through the same
//!   code paths.

mod pty;
mod uci_standin;

use std::path::{Path, PathBuf};
use std::process::Command;

use pty::{main_lines, Term};

/// A small file system of its own (tmpfs) to fill up; unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
    filler: PathBuf,
}

impl SmallDisk {
    /// Mounts a 256 KiB tmpfs on a new temporary directory; why not, when it cannot.
    fn mount() -> Result<SmallDisk, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
            .arg(dir.path())
            .output()
            .map_err(|e| format!("mount: {e}"))?;
        if !out.status.success() {
            let why = String::from_utf8_lossy(&out.stderr);
            return Err(why.split_whitespace().collect::<Vec<_>>().join(" "));
        }
        let filler = dir.path().join("filler");
        Ok(SmallDisk { dir, filler })
    }

    /// [`SmallDisk::mount`], or `None` after printing plainly that the real-disk case is
    /// skipped.
    fn try_mount(case: &str) -> Option<SmallDisk> {
        match SmallDisk::mount() {
            Ok(disk) => Some(disk),
            Err(why) => {
                eprintln!("SKIPPED {case} on a real full disk: cannot mount a tmpfs ({why})");
                None
            }
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills the disk to the last byte.
    fn fill(&self) {
        use std::io::Write;
        let mut file = std::fs::File::create(&self.filler).expect("the filler file");
        let block = [0u8; 4096];
        let err = loop {
            if let Err(e) = file.write_all(&block) {
                break e;
            }
        };
        assert_eq!(err.kind(), std::io::ErrorKind::StorageFull, "{err}");
        // A last write of less than a block, so that not one byte is left.
        while file.write(&block[..1]).is_ok_and(|n| n > 0) {}
    }

    /// Gives the space back.
    fn free(&self) {
        std::fs::remove_file(&self.filler).expect("the filler goes");
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        // Lazily: a program of a failed test may still hold a file there.
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

/// The shell line that runs the binary (`$0`, its arguments after) with a limit of
/// `blocks` × 512 bytes on any file it writes. The binary ignores SIGXFSZ itself, so that
/// a write past the limit fails (EFBIG) instead of the signal killing it: a user's
/// `ulimit -f` must not cost a save either.
fn limited(blocks: u32) -> String {
    format!("ulimit -f {blocks}; exec \"$0\" \"$@\"")
}

/// The binary as a batch command run in `dir`'s private directories, under a file-size
/// limit when `blocks`.
fn batch(dir: &Path, blocks: Option<u32>) -> Command {
    let bin = env!("CARGO_BIN_EXE_scoresheet");
    let mut cmd = match blocks {
        None => Command::new(bin),
        Some(blocks) => {
            let mut cmd = Command::new("sh");
            cmd.args(["-c", &limited(blocks), bin]);
            cmd
        }
    };
    cmd.envs(pty::env_for(dir));
    cmd
}

/// Starts the recorder with `args` on a terminal, under a file-size limit when `blocks`.
fn recorder(dir: &Path, args: &[&str], blocks: Option<u32>, env: &[(&str, &str)]) -> Term {
    let bin = env!("CARGO_BIN_EXE_scoresheet");
    let term = match blocks {
        None => Term::spawn_with(dir, args, 160, 30, env),
        Some(blocks) => {
            let script = limited(blocks);
            let mut all = vec!["-c", script.as_str(), bin];
            all.extend_from_slice(args);
            Term::spawn_program(dir, "sh", &all, 160, 30, env)
        }
    };
    term.wait_for("White to move");
    term
}

/// The prompt of the entry line before ply `ply` (0-based).
fn prompt(ply: usize) -> String {
    if ply.is_multiple_of(2) {
        format!("{}. ▏", ply / 2 + 1)
    } else {
        format!("{}... ▏", ply / 2 + 1)
    }
}

/// The names in `dir` that a save leaves only when it fails to clean up.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("the directory reads")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// An old file of a few games, larger than the file-size limit of the seam cases.
fn old_games() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/review_club.pgn");
    let bytes = std::fs::read(&path).expect("the fixture reads");
    assert!(bytes.len() > 2048, "the fixture outgrows the limit");
    bytes
}

/// `:w` into `file`, which cannot be written: the screen says the disk (or the limit)
/// refused and that the file was not changed, the file is byte for byte the old one,
/// and no temporary file is left beside it.
fn save_is_refused(term: &mut Term, file: &Path, old: &[u8], why: &str) {
    term.line(":w", "cannot save to");
    // The message may wrap: its words, whatever the line breaks.
    let screen = term.text().split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        screen.contains("the file was not changed") && screen.contains(why),
        "the reason {why:?}, and that the file was not changed:\n{}",
        term.text()
    );
    assert_eq!(
        std::fs::read(file).expect("the old file reads"),
        old,
        "the old file is intact"
    );
    let dir = file.parent().expect("a directory");
    assert_eq!(
        temporaries(dir),
        Vec::<String>::new(),
        "nothing left behind"
    );
}

#[test]
fn saving_on_a_full_disk_keeps_the_old_file_and_says_so() {
    let Some(disk) = SmallDisk::try_mount("`:w`") else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let file = disk.path().join("games.pgn");
    let old = old_games();
    std::fs::write(&file, &old).expect("the old file");
    let out = file.to_str().expect("a UTF-8 path");
    let mut term = recorder(dir.path(), &["new", "--out", out], None, &[]);
    for (ply, mv) in ["e4", "c5"].iter().enumerate() {
        term.line(mv, &prompt(ply + 1));
    }
    disk.fill();
    save_is_refused(&mut term, &file, &old, "the disk is full");

    // With room again, the same `:w` saves: nothing was lost meanwhile.
    disk.free();
    term.line(":w", "saved to");
    let lines = main_lines(&std::fs::read(&file).expect("the file reads"));
    assert_eq!(lines.len(), main_lines(&old).len() + 1, "one game more");
    assert_eq!(lines.last().expect("a game"), &["e4", "c5"]);
}

#[test]
fn saving_past_a_file_size_limit_keeps_the_old_file_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("games.pgn");
    let old = old_games();
    std::fs::write(&file, &old).expect("the old file");
    let mut term = recorder(
        dir.path(),
        &["new", "--out", "games.pgn"],
        Some(4), // 2 KiB: the journal of two moves fits, the file with a game more does not
        &[],
    );
    for (ply, mv) in ["e4", "c5"].iter().enumerate() {
        term.line(mv, &prompt(ply + 1));
    }
    save_is_refused(&mut term, &file, &old, "ulimit -f");
    // The journal still holds the moves the file could not take.
    term.signal("KILL");
    term.wait_exit();
    assert_eq!(pty::unsaved(dir.path()), [vec!["e4", "c5"]]);
}

const WARNING: &str = "nothing is journaled";

/// A long game (Kasparov–Topalov, Wijk aan Zee 1999, to move 23), so that a journal
/// has room to fill.
const MOVES: &[&str] = &[
    "e4", "d6", "d4", "Nf6", "Nc3", "g6", "Be3", "Bg7", "Qd2", "c6", "f3", "b5", "Nge2", "Nbd7",
    "Bh6", "Bxh6", "Qxh6", "Bb7", "a3", "e5", "O-O-O", "Qe7", "Kb1", "a6", "Nc1", "O-O-O", "Nb3",
    "exd4", "Rxd4", "c5", "Rd1", "Nb6", "g3", "Kb8", "Na5", "Ba8", "Bh3", "d5", "Qf4+", "Ka7",
    "Rhe1", "d4", "Nd5", "Nbxd5", "exd5", "Qd6",
];

#[test]
fn a_journal_on_a_full_disk_warns_and_recording_goes_on() {
    let Some(disk) = SmallDisk::try_mount("the journal") else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let data = disk.path().join("data");
    let data_env = data.to_str().expect("a UTF-8 path");
    let env = [("SCORESHEET_DATA_DIR", data_env)];
    let mut term = recorder(dir.path(), &["new", "--out", "game.pgn"], None, &env);
    term.line(MOVES[0], &prompt(1));
    assert!(!term.text().contains(WARNING), "{}", term.text());

    // The journal's last page still takes a few records: play on until it is full.
    disk.fill();
    let mut played = 1;
    while !term.text().contains(WARNING) {
        assert!(played < MOVES.len() - 2, "no warning:\n{}", term.text());
        term.line(MOVES[played], &prompt(played + 1));
        played += 1;
    }
    assert!(term.text().contains("No space left"), "{}", term.text());
    // Recording goes on, warned at each move.
    term.line(MOVES[played], &prompt(played + 1));
    played += 1;
    assert!(term.text().contains(WARNING), "{}", term.text());
    // The moves made meanwhile are journaled with the next one, once there is room.
    disk.free();
    term.line(MOVES[played], &prompt(played + 1));
    played += 1;
    term.wait_for("journaled again");

    term.signal("KILL");
    term.wait_exit();
    let out = pty::batch(dir.path())
        .env("SCORESHEET_DATA_DIR", &data)
        .arg("recover")
        .output()
        .expect("recover runs");
    assert_eq!(
        main_lines(&out.stdout),
        [MOVES[..played].to_vec()],
        "the journal gives back every move"
    );
}

#[test]
fn a_journal_past_a_file_size_limit_warns_and_recording_goes_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    // 1 KiB: a few records of the journal fit, then none.
    let mut term = recorder(dir.path(), &["new", "--out", "game.pgn"], Some(2), &[]);
    let moves = &MOVES[..12];
    let mut warned_at = None;
    for (ply, mv) in moves.iter().enumerate() {
        term.line(mv, &prompt(ply + 1));
        if warned_at.is_none() && term.text().contains(WARNING) {
            warned_at = Some(ply);
        }
    }
    let warned_at = warned_at.unwrap_or_else(|| panic!("no warning:\n{}", term.text()));
    assert!(
        warned_at + 1 < moves.len(),
        "moves were made after the warning"
    );
    // Recording went on: every move is on the screen's game, and `:w` (a file smaller
    // than the limit) saves them all.
    term.line(":w", "saved to");
    assert_eq!(
        main_lines(&std::fs::read(dir.path().join("game.pgn")).expect("saved")),
        [moves.to_vec()]
    );
}

/// Runs `convert` of a game file into `out`, under a file-size limit when `blocks`;
/// checks that it fails with a message naming `out` and `why` and saying that `out`
/// was not changed, that `out` is as it was, and that nothing is left beside it.
fn convert_is_refused(dir: &Path, out: &Path, blocks: Option<u32>, why: &str) {
    let old = std::fs::read(out).expect("the old output");
    let input = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/quirks/lichess2016_no_event_tag.pgn");
    let mut cmd = batch(dir, blocks);
    let result = cmd.arg("convert").arg(&input).arg("-o").arg(out).output();
    let result = result.expect("convert runs");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{stderr}");
    let name = out.display().to_string();
    assert!(
        stderr.contains(&format!("cannot write {name}"))
            && stderr.contains(why)
            && stderr.contains(&format!("{name} was not changed")),
        "{stderr}"
    );
    assert_eq!(std::fs::read(out).expect("reads"), old, "the old output");
    let parent = out.parent().expect("a directory");
    assert_eq!(temporaries(parent), Vec::<String>::new(), "nothing left");
}

#[test]
fn convert_on_a_full_disk_keeps_the_old_output_and_fails_clearly() {
    let Some(disk) = SmallDisk::try_mount("`convert -o`") else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let out = disk.path().join("out.pgn");
    std::fs::write(&out, old_games()).expect("the old output");
    disk.fill();
    convert_is_refused(dir.path(), &out, None, "the disk is full");
}

#[test]
fn convert_past_a_file_size_limit_keeps_the_old_output_and_fails_clearly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out.pgn");
    std::fs::write(&out, old_games()).expect("the old output");
    convert_is_refused(dir.path(), &out, Some(4), "ulimit -f");
}

/// Runs `annotate` (the scripted stand-in as its engine) of enough games to outgrow
/// the room into `out`, under a file-size limit when `blocks`; checks that it fails
/// with a message naming `out` and `why` and saying what became of `out` (`left`),
/// that `out` is byte for byte as it was (or still missing), that nothing is left
/// beside it, and that nothing panicked.
fn annotate_is_refused(dir: &Path, out: &Path, blocks: Option<u32>, why: &str, left: &str) {
    let old = std::fs::read(out).ok();
    let engine = uci_standin::StandIn::new()
        .otherwise(&["info depth 5 score cp 15"], "(none)")
        .write(dir);
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/review_club.pgn");
    let mut cmd = batch(dir, blocks);
    cmd.arg("annotate").arg("--engine").arg(&engine);
    // Several copies of a file of a few games: far more text than the room left.
    for _ in 0..4 {
        cmd.arg(&input);
    }
    let result = cmd.args(["--depth", "2", "-o"]).arg(out).output();
    let result = result.expect("annotate runs");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{stderr}");
    let name = out.display().to_string();
    assert!(
        stderr.contains(&format!("scoresheet annotate: cannot write {name}"))
            && stderr.contains(why)
            && stderr.contains(left),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(std::fs::read(out).ok(), old, "the output is as it was");
    let parent = out.parent().expect("a directory");
    assert_eq!(temporaries(parent), Vec::<String>::new(), "nothing left");
}

#[test]
fn annotate_on_a_full_disk_keeps_the_old_output_and_fails_clearly() {
    let Some(disk) = SmallDisk::try_mount("`annotate -o`") else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let out = disk.path().join("out.pgn");
    std::fs::write(&out, old_games()).expect("the old output");
    let new = disk.path().join("new.pgn");
    disk.fill();
    annotate_is_refused(
        dir.path(),
        &out,
        None,
        "the disk is full",
        &format!("{} was not changed", out.display()),
    );
    annotate_is_refused(
        dir.path(),
        &new,
        None,
        "the disk is full",
        &format!("no file {} was made", new.display()),
    );
}

#[test]
fn annotate_past_a_file_size_limit_keeps_the_old_output_and_fails_clearly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out.pgn");
    std::fs::write(&out, old_games()).expect("the old output");
    annotate_is_refused(
        dir.path(),
        &out,
        Some(4),
        "ulimit -f",
        &format!("{} was not changed", out.display()),
    );
    let new = dir.path().join("new.pgn");
    annotate_is_refused(
        dir.path(),
        &new,
        Some(4),
        "ulimit -f",
        &format!("no file {} was made", new.display()),
    );
}
