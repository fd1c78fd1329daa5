//! Hostile inputs to the batch commands, as a stranger would try them: a device that
//! never ends, NUL bytes, line ends of a single CR, a tag of 100,000 characters, a
//! position of nine queens. Nothing hangs, nothing is dropped, and what cannot be read
//! is said with exit code 2.

use assert_cmd::Command;

/// Runs the binary with `args` and `stdin`, killed after a minute (a hang fails the
/// test instead of stopping the suite); (stdout, stderr, exit code).
fn run(args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let out = Command::cargo_bin("scoresheet")
        .unwrap()
        .args(args)
        .write_stdin(stdin)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `/dev/zero` sends NUL bytes without end, which the reader takes as blanks: every
/// command stops after 64 MiB of them, says why, and exits with 2, instead of reading
/// for ever without a word.
#[cfg(unix)]
#[test]
fn a_device_of_nul_bytes_is_refused_after_a_bounded_run() {
    for command in ["check", "list", "convert"] {
        let (_, err, code) = run(&[command, "/dev/zero"], b"");
        assert_eq!(code, 2, "{command}: {err}");
        assert!(
            err.contains("/dev/zero: 64 MiB of NUL bytes in a row"),
            "{command}: {err}"
        );
    }
}

/// NUL bytes between games (a file damaged by a crash holds blocks of them) are blanks,
/// from a pipe too: the games around them are read.
#[test]
fn nul_bytes_between_games_from_a_pipe_cost_no_game() {
    let mut text = b"[Event \"A\"]\n\n1. e4 *\n".to_vec();
    text.extend(std::iter::repeat_n(0u8, 1 << 20));
    text.extend_from_slice(b"\n[Event \"B\"]\n\n1. d4 *\n");
    let (out, err, code) = run(&["list", "-"], &text);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "two games: {out}");
}

/// Line ends of a lone CR (old Mac files): tags, moves and comments read as with LF, and
/// `convert` keeps them all.
#[test]
fn line_ends_of_a_single_cr_read_as_line_ends() {
    let text =
        b"[Event \"x\"]\r[White \"Ann\"]\r\r1. e4 e5 {c} 2. Nf3 *\r\r[Event \"y\"]\r\r1. d4 *\r";
    let (out, err, code) = run(&["check", "-"], text);
    assert_eq!(
        (code, out.as_str()),
        (0, "2 games, 0 with errors\n"),
        "{err}"
    );
    let (out, err, code) = run(&["convert", "-"], text);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[White \"Ann\"]"), "{out}");
    assert!(out.contains("1. e4 e5 {c} 2. Nf3 *"), "{out}");
    assert!(
        out.contains("[Event \"y\"]") && out.contains("1. d4 *"),
        "{out}"
    );
}

/// A tag value of 100,000 characters is kept whole by `convert`, and read back the same.
#[test]
fn a_tag_of_a_hundred_thousand_characters_is_kept_whole() {
    let value = "Memorial ".repeat(100_000 / 9);
    let text = format!("[Event \"{value}\"]\n[White \"A\"]\n\n1. e4 *\n");
    let (out, err, code) = run(&["convert", "-"], text.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("[Event \"{value}\"]")), "cut");
    let (again, _, code) = run(&["convert", "-"], out.as_bytes());
    assert_eq!((code, again), (0, out));
}

/// Nine queens (eight promoted pawns and the queen): a legal position, read and written
/// back as it is, and its moves checked.
#[test]
fn a_position_with_nine_queens_reads_and_plays() {
    let fen = "k7/pp6/8/8/8/8/1QQQQQQQ/1QQ1K3 w - - 0 1";
    let text = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n1. Qbb6 axb6 *\n");
    let (out, err, code) = run(&["check", "-"], text.as_bytes());
    assert_eq!(
        (code, out.as_str()),
        (0, "1 game, 0 with errors\n"),
        "{err}"
    );
    let (out, err, code) = run(&["fen", "-", "--ply", "0"], text.as_bytes());
    assert_eq!((code, out.trim()), (0, fen), "{err}");
    let (out, err, code) = run(&["fen", "-"], text.as_bytes());
    assert_eq!(
        (code, out.trim()),
        (0, "k7/1p6/1p6/8/8/8/2QQQQQQ/1QQ1K3 w - - 0 2"),
        "{err}"
    );
}

/// A directory named as the input: exit 2, saying so, for every command.
#[test]
fn a_directory_as_input_is_refused_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().to_str().unwrap();
    for command in ["check", "list", "convert", "fen"] {
        let (_, err, code) = run(&[command, name], b"");
        assert_eq!(code, 2, "{command}: {err}");
        assert!(err.contains("cannot read"), "{command}: {err}");
    }
}
