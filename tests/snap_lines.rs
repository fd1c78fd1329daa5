//! The lines `:snap` writes (`FEN ; game N, ply K`) read by FEN readers: this program's
//! own, through the real binary (`transcribe --fen`), and python-chess, when it is
//! installed, as the README describes it (the line refused whole, its part before the `;`
//! read).

use std::path::Path;

use assert_cmd::Command;
use scoresheet::store::snap;

const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

/// The line as `:snap` appends it, read back from the file it wrote.
fn snapped_line() -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = snap::append(Some(&dir.path().join("club.pgn")), FEN, 12, 5).unwrap();
    assert_eq!(path, dir.path().join("club.fen"));
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(text.lines().count(), 1);
    text.trim_end().to_string()
}

#[test]
fn the_binary_starts_a_game_from_a_snapped_line() {
    let line = snapped_line();
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(["transcribe", "--fen", &line])
        .write_stdin("3... a6 *")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(&format!("[FEN \"{FEN}\"]\n")), "{stdout}");
    assert!(stdout.contains("3... a6 *"), "{stdout}");
}

#[test]
fn python_chess_reads_the_part_before_the_semicolon() {
    let probe = std::process::Command::new("python3")
        .args(["-c", "import chess"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: python3 with python-chess (`pip install chess`) is not installed");
        return;
    }
    let line = snapped_line();
    let script = r#"
import sys, chess
line = sys.argv[1]
try:
    chess.Board(line)
    print("whole line read")
except ValueError:
    print("whole line refused")
print(chess.Board(line.split(";")[0]).fen(en_passant="fen"))
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script, &line])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout, format!("whole line refused\n{FEN}\n"));
}
