//! The terminal closed under a recording, for real: every descriptor of the terminal's
//! side closed (a window closed, an ssh connection dropped), not only a SIGHUP sent.
//! The recorder ends by itself — no hang, no spin on a dead terminal — and every move the
//! screen had confirmed comes back from the journal; the half-typed move does not.
//!
//! Two ways the program learns of it: as the terminal's controlling process it gets
//! SIGHUP; started from a shell that stays (the shell is the controlling process, and
//! only it gets the signal), it gets no signal at all, only end of file on its input and
//! EIO on its output.

mod pty;

use pty::{unsaved, Term};

/// The prompt of the entry line before ply `ply` (0-based).
fn prompt(ply: usize) -> String {
    if ply.is_multiple_of(2) {
        format!("{}. ▏", ply / 2 + 1)
    } else {
        format!("{}... ▏", ply / 2 + 1)
    }
}

const MOVES: [&str; 3] = ["e4", "e5", "Nf3"];

/// Plays [`MOVES`], types half a move, closes the terminal and waits for the program
/// to end; how it ended.
fn record_then_close(term: &mut Term) -> portable_pty::ExitStatus {
    term.wait_for("White to move");
    for (ply, mv) in MOVES.iter().enumerate() {
        term.line(mv, &prompt(ply + 1));
    }
    term.send("Nc");
    term.wait_for("Nc▏");
    term.close_terminal();
    // Fails after 10 s with the last screen: a program that hangs or spins on the
    // closed terminal never gets here.
    term.wait_exit_status()
}

/// The confirmed moves come back, and no temporary file is left beside the game.
fn check_nothing_lost(dir: &std::path::Path) {
    assert_eq!(
        unsaved(dir),
        [MOVES.map(String::from).to_vec()],
        "the journal gives back every confirmed move, and only those"
    );
    let names: Vec<String> = std::fs::read_dir(dir)
        .expect("the directory reads")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert!(
        !names.iter().any(|n| n.ends_with(".tmp")) && !names.iter().any(|n| n == "game.pgn"),
        "nothing was saved and nothing is left behind: {names:?}"
    );
}

#[test]
fn a_closed_terminal_ends_the_recorder_that_controls_it_and_loses_no_confirmed_move() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut term = Term::spawn(dir.path(), &["new", "--out", "game.pgn"], 100, 30);
    // It ends on the SIGHUP (129) or on the end of its input (1, an error of its
    // terminal), whichever it sees first; never killed by a signal (an abort from a
    // panic while printing to the closed terminal) nor panicking (101).
    let status = record_then_close(&mut term);
    assert!(
        status.signal().is_none() && matches!(status.exit_code(), 1 | 129),
        "the recorder did not end cleanly: {status:?}"
    );
    check_nothing_lost(dir.path());
}

#[test]
fn a_closed_terminal_ends_a_recorder_started_from_a_shell_without_any_signal() {
    let dir = tempfile::tempdir().expect("tempdir");
    // The shell stays the terminal's controlling process and ignores the hang-up; the
    // recorder, its child, is told nothing but end of file. Its exit code is the shell's.
    let script = "trap '' HUP; \"$0\" \"$@\"";
    let mut term = Term::spawn_program(
        dir.path(),
        "sh",
        &[
            "-c",
            script,
            env!("CARGO_BIN_EXE_scoresheet"),
            "new",
            "--out",
            "game.pgn",
        ],
        100,
        30,
        &[],
    );
    // The shell passes the recorder's exit code on (128 + N when signal N killed it).
    let code = record_then_close(&mut term).exit_code();
    assert_ne!(
        code,
        128 + 1,
        "the recorder got a SIGHUP: this run does not test a terminal closed without one"
    );
    assert_eq!(
        code, 1,
        "the recorder ends on the error of its terminal (1), not killed by a signal (an abort \
         from a panic while printing to the closed terminal: 134) nor panicking (101)"
    );
    check_nothing_lost(dir.path());
}
