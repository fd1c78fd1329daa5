//! `check`, `convert`, `fen` and `list` through the real binary: exact output, standard
//! error, exit codes (0 clean, 1 problems in the input, 2 unreadable input or bad
//! arguments), and the files written.
//!
//! Expected FENs were computed independently with python-chess (which writes an en
//! passant square only when a capture is possible; PGN's FEN writes it after every
//! double step, as here).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use scoresheet::pgn::read_games;

mod data_dirs;

/// One of our awkward files (`tests/data/quirks/`), as an argument.
fn nasty(file: &str) -> String {
    data_dirs::quirk(file).display().to_string()
}

fn fixture(file: &str) -> String {
    data_dirs::fixture(file).display().to_string()
}

/// Runs the binary; returns (stdout, stderr, exit code).
fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(args)
        .output()
        .expect("run scoresheet");
    (
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
        out.status.code().unwrap_or(-1),
    )
}

/// The movetext of the only (or last) game of a PGN text.
fn last_movetext(pgn: &str) -> &str {
    pgn.trim_end().rsplit("\n\n").next().unwrap_or("")
}

/// A PGN file made of every awkward file, over and over until it passes 2 MiB (several
/// blocks for `--jobs`), with blank lines between the parts; holds many bad games.
fn concatenated_nasty(dir: &Path) -> PathBuf {
    let mut names: Vec<PathBuf> = std::fs::read_dir(data_dirs::quirks_dir())
        .expect("quirks directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    names.sort();
    let mut all = Vec::new();
    while all.len() <= 2 << 20 {
        for name in &names {
            let data = std::fs::read(name).expect("read nasty file");
            let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&data);
            all.extend_from_slice(data);
            all.extend_from_slice(b"\n\n");
        }
    }
    let path = dir.join("cli_all_nasty.pgn");
    std::fs::write(&path, all).expect("write");
    path
}

// ---------------------------------------------------------------- check

#[test]
fn check_reports_the_illegal_move_with_file_line_column_game_and_players() {
    let file = nasty("illegal_move.pgn");
    let (out, err, code) = run(&["check", &file]);
    assert_eq!(
        out,
        format!(
            "{file}:9:47: game 1 (? - ?): \"Ke3\": illegal: the white king cannot reach e3 (move 5, White to play)\n\
             2 games, 1 with errors\n"
        )
    );
    assert_eq!(err, "");
    assert_eq!(code, 1);
}

/// A move written with its from-square onto a piece of the mover's own gives the reason
/// the short form gives (`Ne2`), not "it would leave the king in check".
#[test]
fn check_says_a_long_move_lands_on_the_movers_own_piece() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("own.pgn");
    std::fs::write(
        &path,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. Ng1-e2 *\n",
    )
    .unwrap();
    let file = path.display().to_string();
    let (out, err, code) = run(&["check", &file]);
    assert_eq!(
        out,
        format!(
            "{file}:5:4: game 1 (A - B): \"Ng1-e2\": illegal: e2 holds a white piece \
             (move 1, White to play)\n1 game, 1 with errors\n"
        )
    );
    assert_eq!((err.as_str(), code), ("", 1));
}

/// A token with a byte that is not UTF-8 is shown as the file's text reads it
/// (Windows-1252, as the game's names and comments are), not as U+FFFD.
#[test]
fn a_bad_token_in_a_windows_1252_file_is_shown_as_its_letters() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cp1252.pgn");
    std::fs::write(
        &path,
        b"[White \"Ljubojevi\x9a\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. N\x8af3 *\n",
    )
    .unwrap();
    let file = path.display().to_string();
    for command in ["check", "convert"] {
        let (out, err, code) = run(&[command, &file]);
        let report = if command == "check" { &out } else { &err };
        assert!(
            report.contains("game 1 (Ljubojevi\u{161} - B): \"N\u{160}f3\": not a move"),
            "{command}: {report}"
        );
        assert!(!report.contains('\u{fffd}'), "{command}: {report}");
        assert_eq!(code, 1, "{command}");
    }
}

/// A file saved by a Windows editor writes `…`, `½` and `±` as one byte each: they read
/// as they do in UTF-8 (a move number, a drawn result, a glyph), not as broken moves.
#[test]
fn ellipsis_half_and_plus_minus_in_a_windows_1252_file_read_as_in_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cp1252.pgn");
    std::fs::write(
        &path,
        b"[White \"M\xfcller\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n\
          1. e4 e5 2. Nf3 Nc6 3. Bb5 \xb1 3\x85a6 \xbd-\xbd\n",
    )
    .unwrap();
    let file = path.display().to_string();
    let (out, err, code) = run(&["check", &file]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        ("1 game, 0 with errors\n", "", 0)
    );
    let (out, err, code) = run(&["convert", &file]);
    assert_eq!((err.as_str(), code), ("", 0), "{out}");
    assert!(
        out.contains("[White \"M\u{fc}ller\"]") && out.contains("3. Bb5 $16 a6 1/2-1/2"),
        "{out}"
    );
}

#[test]
fn check_refuses_variant_games_clearly() {
    let file = nasty("antichess.pgn");
    let (out, _, code) = run(&["check", &file]);
    let reason = "\"Antichess\": variant \"Antichess\" is not supported: only standard chess";
    assert_eq!(
        out,
        format!(
            "{file}:7:1: game 1 (? - ?): {reason}\n\
             {file}:18:1: game 2 (? - ?): {reason}\n\
             2 games, 2 with errors\n"
        )
    );
    assert_eq!(code, 1);
    // Players are named when the tags give them.
    let file = nasty("fischerandom_engine_games.pgn");
    let (out, _, code) = run(&["check", "--jobs", "1", &file]);
    assert_eq!(
        out,
        format!(
            "{file}:11:1: game 1 (Engine A - Engine B): {reason}\n\
             {file}:27:1: game 2 (Engine A - Engine B): {reason}\n\
             {file}:43:1: game 3 (Engine A - Engine B): {reason}\n\
             {file}:59:1: game 4 (Engine A - Engine B): {reason}\n\
             4 games, 4 with errors\n",
            reason =
                "\"fischerandom\": variant \"fischerandom\" is not supported: only standard chess"
        )
    );
    assert_eq!(code, 1);
}

#[test]
fn check_exit_codes() {
    let clean = nasty("three_games.pgn");
    let (out, err, code) = run(&["check", &clean]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        ("3 games, 0 with errors\n", "", 0)
    );
    // Several files: one summary for all.
    let bad = nasty("illegal_move.pgn");
    let (out, _, code) = run(&["check", &clean, &bad]);
    assert!(out.ends_with("\n5 games, 1 with errors\n"), "{out}");
    assert_eq!(code, 1);
    // A file that cannot be read: 2, and the other files are still checked.
    for jobs in ["1", "2"] {
        let (out, err, code) = run(&["check", "--jobs", jobs, "/nonexistent/x.pgn", &clean]);
        assert_eq!(out, "3 games, 0 with errors\n");
        assert!(err.contains("cannot read /nonexistent/x.pgn"), "{err}");
        assert_eq!(code, 2);
        // A directory cannot be read either.
        let dir = env!("CARGO_MANIFEST_DIR");
        let (_, err, code) = run(&["check", "--jobs", jobs, dir]);
        assert!(err.contains("cannot read"), "{err}");
        assert_eq!(code, 2);
    }
    // Without a file: a usage error.
    assert_eq!(run(&["check"]).2, 2);
}

#[test]
fn check_jobs_keep_the_file_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = concatenated_nasty(dir.path());
    let file = path.to_string_lossy().into_owned();
    let (one, err1, code1) = run(&["check", "--jobs", "1", &file]);
    let (two, err2, code2) = run(&["check", "--jobs", "2", &file]);
    let (three, _, _) = run(&["check", "-j", "3", &file]);
    assert_eq!((err1.as_str(), err2.as_str()), ("", ""));
    assert_eq!((code1, code2), (1, 1));
    assert!(one == two, "--jobs 1 and --jobs 2 differ");
    assert!(one == three, "--jobs 1 and --jobs 3 differ");
    // The summary agrees with the library reading the same bytes.
    let games = read_games(&std::fs::read(&path).expect("read"));
    let bad = games.iter().filter(|g| g.has_problems()).count();
    assert!(bad > 100, "{bad} bad games");
    let summary = format!("{} games, {bad} with errors", games.len());
    assert_eq!(one.lines().last(), Some(summary.as_str()));
    // One line per problem, in file order, each positioned.
    let problems: usize = games.iter().map(|g| g.problems().len()).sum();
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines.len(), problems + 1);
    let mut last = (0u64, 0u64);
    for line in &lines[..problems] {
        let rest = line
            .strip_prefix(&format!("{file}:"))
            .unwrap_or_else(|| panic!("{line}"));
        let mut parts = rest.splitn(3, ':');
        let l: u64 = parts.next().and_then(|x| x.parse().ok()).expect("line");
        let _col: u32 = parts.next().and_then(|x| x.parse().ok()).expect("column");
        let game: u64 = parts
            .next()
            .and_then(|x| x.strip_prefix(" game "))
            .and_then(|x| x.split(' ').next())
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!((game, l) >= last, "out of order: {line}");
        last = (game, l);
    }
    // The illegal move is found in both copies, at the right game numbers.
    let copies = std::fs::read_to_string(&path)
        .expect("read")
        .matches("5. Ke3")
        .count();
    assert!(copies >= 2, "{copies} copies");
    let ke3: Vec<&&str> = lines.iter().filter(|l| l.contains("\"Ke3\"")).collect();
    assert_eq!(ke3.len(), copies, "{ke3:?}");
}

// ---------------------------------------------------------------- convert

#[test]
fn convert_writes_export_format_to_standard_output() {
    let (out, err, code) = run(&["convert", &nasty("fools_mate.pgn")]);
    assert_eq!(
        out,
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n\
         [Black \"?\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
    );
    assert_eq!((err.as_str(), code), ("", 0));
}

#[test]
fn convert_copies_a_game_with_an_illegal_move_through_as_written() {
    let file = nasty("illegal_move.pgn");
    let raw = std::fs::read_to_string(&file).expect("read");
    let (out, err, code) = run(&["convert", &file]);
    let why = "illegal: the white king cannot reach e3 (move 5, White to play)";
    let (first, _) = raw.split_once("\n\n[").expect("two games");
    // Nothing after the illegal move is dropped: the whole game, as written.
    assert!(first.ends_with("5. Ke3 Qd4 6. Nxd4 Kd7 *"), "{first}");
    assert_eq!(
        out,
        format!(
            "% scoresheet: game 1 copied as written, not converted: line 9 column 47: {why}\n\
             {first}\n\n\
             [Event \"legal test\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
        )
    );
    assert_eq!(
        err,
        format!("{file}:9:47: game 1 (? - ?): \"Ke3\": {why}\n")
    );
    assert_eq!(code, 1);
    // Converted again, the output stays the same: a second run loses nothing more.
    let dir = tempfile::tempdir().expect("temp dir");
    let once = dir.path().join("once.pgn");
    std::fs::write(&once, &out).expect("write");
    let (twice, _, code) = run(&["convert", once.to_str().expect("path")]);
    assert_eq!(code, 1);
    assert_eq!(twice, out.replace("line 9 column 47", "line 10 column 47"));
}

/// A game copied as written that starts with a comment (here, first in the second file)
/// stays its game's: converted again, the comment does not join the game written before it
/// as a comment after that game's result.
#[test]
fn a_copied_game_starting_with_a_comment_keeps_it_on_a_second_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |name: &str| dir.path().join(name).display().to_string();
    std::fs::write(path("a.pgn"), "1. e4 *\n").expect("write");
    std::fs::write(path("b.pgn"), "{Kept with B} 1. e4 e5 2. Kxx *\n").expect("write");
    let (once, _, code) = run(&["convert", &path("a.pgn"), &path("b.pgn")]);
    assert_eq!(code, 1, "{once}");
    std::fs::write(path("once.pgn"), &once).expect("write");
    let (twice, _, code) = run(&["convert", &path("once.pgn")]);
    assert_eq!(code, 1, "{twice}");
    for out in [&once, &twice] {
        let (a, b) = out.split_once("% scoresheet: ").expect("a copied game");
        assert!(a.ends_with("\n\n1. e4 *\n\n"), "{out}");
        assert!(b.contains("{Kept with B} 1. e4 e5 2. Kxx *"), "{out}");
    }
}

#[test]
fn convert_copies_a_variant_game_through_after_a_percent_line() {
    let file = nasty("antichess.pgn");
    let raw = std::fs::read_to_string(&file).expect("read");
    let (out, err, code) = run(&["convert", &file]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 2, "{err}");
    let parts: Vec<&str> = raw.trim_end().split("\n\n[").collect();
    assert_eq!(parts.len(), 2);
    let expected = format!(
        "% scoresheet: game 1 copied as written, not converted: line 7 column 1: variant \"Antichess\" is not supported: only standard chess\n\
         {}\n\n\
         % scoresheet: game 2 copied as written, not converted: line 18 column 1: variant \"Antichess\" is not supported: only standard chess\n\
         [{}\n\n",
        parts[0], parts[1]
    );
    assert_eq!(out, expected);
    // Read again, the copies give the same refusals: nothing was lost.
    let games = read_games(out.as_bytes());
    assert_eq!(games.len(), 2);
    assert!(games
        .iter()
        .all(|g| g.errors[0].reason.contains("Antichess")));
}

#[test]
fn convert_notations_and_languages() {
    let fools = nasty("fools_mate.pgn");
    let black = fixture("cli_black_to_move.pgn");
    for (args, fools_text, black_text) in [
        (
            &["--notation", "lan"][..],
            "1. f2-f3 e7-e5 2. g2-g4 Qd8-h4# 0-1",
            "23... Kh8-g8 24. Re1xe8+ $1 (24. Qd1-f3 Kg8-h8) 24... Qd8xe8 25. h2-h3 {Luft.}\n\
             25... Qe8-e1+ 26. Qd1xe1 *",
        ),
        (
            &["--notation", "figurine"][..],
            "1. f3 e5 2. g4 ♛h4# 0-1",
            "23... ♚g8 24. ♖xe8+ $1 (24. ♕f3 ♚h8) 24... ♛xe8 25. h3 {Luft.} 25... ♛e1+\n\
             26. ♕xe1 *",
        ),
        (
            &["--notation", "uci"][..],
            "1. f2f3 e7e5 2. g2g4 d8h4 0-1",
            "23... h8g8 24. e1e8 $1 (24. d1f3 g8h8) 24... d8e8 25. h2h3 {Luft.} 25... e8e1\n\
             26. d1e1 *",
        ),
        (
            &["--lang", "de"][..],
            "1. f3 e5 2. g4 Dh4# 0-1",
            "23... Kg8 24. Txe8+ $1 (24. Df3 Kh8) 24... Dxe8 25. h3 {Luft.} 25... De1+\n\
             26. Dxe1 *",
        ),
        (
            &["--notation", "lan", "--lang", "de"][..],
            "1. f2-f3 e7-e5 2. g2-g4 Dd8-h4# 0-1",
            "23... Kh8-g8 24. Te1xe8+ $1 (24. Dd1-f3 Kg8-h8) 24... Dd8xe8 25. h2-h3 {Luft.}\n\
             25... De8-e1+ 26. Dd1xe1 *",
        ),
    ] {
        for (file, want) in [(&fools, fools_text), (&black, black_text)] {
            let mut all = vec!["convert"];
            all.extend_from_slice(args);
            all.push(file);
            let (out, err, code) = run(&all);
            assert_eq!((err.as_str(), code), ("", 0), "{args:?}");
            assert_eq!(last_movetext(&out), want, "{args:?} {file}");
            // The tags stay as they are.
            assert!(out.starts_with("[Event \""), "{out}");
        }
    }
    // Unknown notation or language: a usage error, nothing written.
    for args in [
        ["--notation", "iccf"],
        ["--notation", "xx"],
        ["--lang", "xx"],
    ] {
        let (out, err, code) = run(&["convert", args[0], args[1], &fools]);
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}");
        assert!(err.contains("unknown"), "{err}");
    }
}

#[test]
fn convert_latin1_input_gives_utf8_output() {
    let (out, _, code) = run(&["convert", &fixture("cli_latin1.pgn")]);
    assert_eq!(code, 0);
    assert!(out.contains("[White \"Müller, Jürgen\"]\n"), "{out}");
    assert!(out.contains("{Schöne Kombination, Großmeister!}"), "{out}");
}

#[test]
fn convert_output_file_is_written_atomically() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = nasty("three_games.pgn");
    let (expected, _, _) = run(&["convert", &input]);
    // -o writes the file (replacing an old one) and nothing on standard output.
    let target = dir.path().join("out.pgn");
    std::fs::write(&target, "old\n").expect("write");
    let t = target.to_string_lossy().into_owned();
    let (out, err, code) = run(&["convert", &input, "-o", &t]);
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
    assert_eq!(std::fs::read_to_string(&target).expect("read"), expected);
    let listing = |d: &Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        v.sort();
        v
    };
    assert_eq!(listing(dir.path()).len(), 1, "a temporary file was left");

    // The output path is a directory: exit 2, the directory and its neighbour untouched.
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).expect("mkdir");
    std::fs::write(sub.join("keep.pgn"), "keep\n").expect("write");
    let before = listing(dir.path());
    let (out, err, code) = run(&["convert", &input, "-o", &sub.to_string_lossy()]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("cannot write"), "{err}");
    assert!(sub.is_dir());
    assert_eq!(listing(dir.path()), before, "a temporary file was left");
    assert_eq!(
        std::fs::read_to_string(sub.join("keep.pgn")).expect("read"),
        "keep\n"
    );

    // The directory is read-only: exit 2, the old file byte-identical.
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).expect("mkdir");
    let old = ro.join("games.pgn");
    let old_bytes = b"[Event \"old\"]\r\n\r\n1. e4 *\r\n\xff".to_vec();
    std::fs::write(&old, &old_bytes).expect("write");
    set_mode(&ro, 0o555);
    let writable = std::fs::write(ro.join("probe"), "x").is_ok();
    if writable {
        // Root ignores permissions: this part cannot be tested here.
        let _ = std::fs::remove_file(ro.join("probe"));
        eprintln!("\n!!!!! SKIPPED: read-only directory check (running as root) !!!!!\n");
    } else {
        let (out, err, code) = run(&["convert", &input, "-o", &old.to_string_lossy()]);
        assert_eq!((out.as_str(), code), ("", 2));
        assert!(err.contains("cannot write"), "{err}");
        assert_eq!(std::fs::read(&old).expect("read"), old_bytes);
        assert_eq!(listing(&ro).len(), 1);
    }
    set_mode(&ro, 0o755);

    // Into a directory that does not exist: exit 2.
    let missing = dir.path().join("no/such/dir/out.pgn");
    let (_, _, code) = run(&["convert", &input, "-o", &missing.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(!missing.exists());
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

#[cfg(not(unix))]
fn set_mode(path: &Path, mode: u32) {
    let mut p = std::fs::metadata(path).expect("metadata").permissions();
    p.set_readonly(mode & 0o200 == 0);
    std::fs::set_permissions(path, p).expect("chmod");
}

#[test]
fn convert_unreadable_input_exits_2() {
    let (_, err, code) = run(&["convert", "/nonexistent/x.pgn"]);
    assert!(err.contains("cannot read /nonexistent/x.pgn"), "{err}");
    assert_eq!(code, 2);
}

// ---------------------------------------------------------------- fen

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn fen_positions_of_a_game() {
    let file = nasty("three_games.pgn");
    let fen = |args: &[&str]| {
        let mut all = vec!["fen", file.as_str()];
        all.extend_from_slice(args);
        run(&all)
    };
    let ok = |s: &str| (format!("{s}\n"), String::new(), 0);
    // Default: the final position of game 1 (37 plies).
    let last1 = "1r1q1br1/p3nk1p/1n2p3/2pp4/3P3B/2P2N2/PPQ2PPP/RN2R1K1 b - - 6 19";
    assert_eq!(fen(&[]), ok(last1));
    assert_eq!(fen(&["--game", "1"]), ok(last1));
    assert_eq!(fen(&["--ply", "37"]), ok(last1));
    assert_eq!(fen(&["--ply", "0"]), ok(START));
    // 1. e4: the double step leaves e3 as the en passant square.
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(fen(&["--ply", "1"]), ok(after_e4));
    assert_eq!(
        fen(&["--ply", "3"]),
        ok("rnbqkbnr/pppp1ppp/4p3/8/2B1P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2")
    );
    let (all, err, code) = fen(&["--all"]);
    assert_eq!((err.as_str(), code), ("", 0));
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 37 + 1);
    assert_eq!((lines[0], lines[1], lines[37]), (START, after_e4, last1));
    assert_eq!(
        fen(&["--game", "2"]),
        ok("rn1k4/p1pp4/1p2p3/7Q/3P1b2/5b2/PPPq2rP/R1K4R w - - 0 19")
    );
    let (all, _, _) = fen(&["--game", "3", "--all"]);
    assert_eq!(all.lines().count(), 44 + 1);
    assert_eq!(
        all.lines().last(),
        Some("2r2rk1/5pp1/p1q1pn1p/1p1b4/2pP4/2P2NP1/PPB1Q1P1/R3R2K w - - 1 23")
    );
}

#[test]
fn fen_out_of_range_is_a_usage_error() {
    let file = nasty("three_games.pgn");
    for (args, message) in [
        (&["--game", "4"][..], "has 3 games; there is no game 4"),
        (&["--game", "0"][..], "has 3 games; there is no game 0"),
        (
            &["--ply", "38"][..],
            "game 1 has 37 half-moves; there is no ply 38",
        ),
        (
            &["--game", "3", "--ply", "45"][..],
            "game 3 has 44 half-moves; there is no ply 45",
        ),
    ] {
        let mut all = vec!["fen", file.as_str()];
        all.extend_from_slice(args);
        let (out, err, code) = run(&all);
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    // --ply and --all together, or an unreadable file.
    assert_eq!(run(&["fen", &file, "--ply", "3", "--all"]).2, 2);
    assert_eq!(run(&["fen", "/nonexistent/x.pgn"]).2, 2);
}

#[test]
fn fen_from_a_set_up_position_and_of_a_bad_game() {
    let (out, err, code) = run(&["fen", &fixture("cli_black_to_move.pgn"), "--all"]);
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(
        out,
        "3qr2k/5ppp/8/8/8/8/5PPP/3QR1K1 b - - 0 23\n\
         3qr1k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 1 24\n\
         3qR1k1/5ppp/8/8/8/8/5PPP/3Q2K1 b - - 0 24\n\
         4q1k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 25\n\
         4q1k1/5ppp/8/8/8/7P/5PP1/3Q2K1 b - - 0 25\n\
         6k1/5ppp/8/8/8/7P/5PP1/3Qq1K1 w - - 1 26\n\
         6k1/5ppp/8/8/8/7P/5PP1/4Q1K1 b - - 0 26\n"
    );
    // A game stopped by an illegal move: the position where reading stopped, the
    // problem on standard error, exit 1.
    let file = nasty("illegal_move.pgn");
    let (out, err, code) = run(&["fen", &file]);
    assert_eq!(
        out,
        "r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5\n"
    );
    assert!(
        err.starts_with(&format!("{file}:9:47: game 1 (? - ?): \"Ke3\"")),
        "{err}"
    );
    assert_eq!(code, 1);
    // Game 2 of the same file is clean, with lines counted from the file's start.
    let (out, err, code) = run(&["fen", &file, "--game", "2", "--ply", "2"]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n",
            "",
            0
        )
    );
}

// ---------------------------------------------------------------- list

#[test]
fn list_gives_one_tab_separated_line_per_game() {
    let (out, err, code) = run(&["list", &nasty("three_games.pgn")]);
    assert_eq!(
        out,
        "1\tasusa52f\tgerman11\t1-0\t2016.05.31\tRated game\t?\t37\n\
         2\tgerman11\tcmvicentuco\t0-1\t2016.05.31\tRated game\t?\t36\n\
         3\tgerman11\tboloro\t0-1\t2016.05.31\tRated game\t?\t44\n"
    );
    assert_eq!((err.as_str(), code), ("", 0));
    // Missing tags are "?", ECO and plies from the file.
    let (out, _, code) = run(&["list", &nasty("lichess2016_no_event_tag.pgn")]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 60);
    for line in out.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 8, "{line}");
        assert_eq!(fields[5], "?", "no Event tag: {line}");
    }
    assert_eq!(run(&["list", "/nonexistent/x.pgn"]).2, 2);
}

/// Over 1 MiB of clean games, then a game whose comment holds a line that looks like a
/// tag pair (`[Event "fake"]`) just before the 1 MiB mark, where `--jobs` cuts blocks.
fn comment_with_a_tag_line_at_a_block_edge(dir: &Path) -> PathBuf {
    let mut text = String::new();
    let mut n = 0;
    while text.len() < (1 << 20) - 300 {
        n += 1;
        text.push_str(&format!(
            "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"W{n}\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
        ));
    }
    text.push_str(
        "[Event \"C\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"comment\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 {a comment\n[Event \"fake\"]\n",
    );
    text.push_str(&"x".repeat(400));
    text.push_str("} e5 2. Kxx *\n\n[Event \"after\"]\n[Result \"*\"]\n\n1. d4 *\n");
    let path = dir.join("cli_comment_tag_line.pgn");
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn check_jobs_never_cut_inside_a_comment() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = comment_with_a_tag_line_at_a_block_edge(dir.path());
    let file = path.to_string_lossy().into_owned();
    let (one, _, _) = run(&["check", "--jobs", "1", &file]);
    // Sequentially the comment is a comment: one problem, the illegal "Kxx".
    assert_eq!(one.lines().count(), 2, "{one}");
    assert!(one.contains("\"Kxx\""), "{one}");
    let (two, _, _) = run(&["check", "--jobs", "2", &file]);
    assert_eq!(one, two);
}

#[test]
fn fen_of_a_refused_game_prints_no_position() {
    for file in [nasty("chess960_games.pgn"), nasty("antichess.pgn")] {
        let (out, err, code) = run(&["fen", &file]);
        assert!(err.contains("is not supported"), "{err}");
        assert_eq!(code, 1);
        assert_eq!(out, "", "{file}: a position that is not the game's");
    }
}

#[cfg(unix)]
#[test]
fn convert_output_gets_ordinary_permissions_or_keeps_the_old_ones() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pgn");
    std::fs::write(&input, "[Event \"x\"]\n\n1. e4 e5 *\n").unwrap();
    let out = dir.path().join("out.pgn");
    let convert = || {
        assert_cmd::Command::cargo_bin("scoresheet")
            .unwrap()
            .args([
                "convert",
                input.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ])
            .assert()
            .success();
    };
    convert();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&out), 0o644);
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    convert();
    assert_eq!(mode(&out), 0o640);
}

#[test]
fn files_that_each_start_with_a_byte_order_mark_can_be_concatenated() {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = |white: &str, moves: &str| {
        format!("\u{feff}[Event \"E\"]\n[White \"{white}\"]\n[Result \"*\"]\n\n{moves} *\n\n")
    };
    let text = game("First", "1. e4 e5") + &game("Second", "1. d4 d5 2. c4");
    let path = dir.path().join("two.pgn");
    std::fs::write(&path, &text).expect("write");
    let p = path.to_str().expect("path");
    for jobs in ["1", "2"] {
        let (out, _, code) = run(&["check", "--jobs", jobs, p]);
        assert_eq!(
            (out.as_str(), code),
            ("2 games, 0 with errors\n", 0),
            "--jobs {jobs}"
        );
    }
    // Piped input goes through the stream path.
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(["check", "--jobs", "2", "/dev/stdin"])
        .write_stdin(text.clone())
        .output()
        .expect("run scoresheet");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "2 games, 0 with errors\n"
    );
    let (list, _, _) = run(&["list", p]);
    let whites: Vec<&str> = list
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(whites, ["First", "Second"]);
    let (converted, _, code) = run(&["convert", p]);
    assert_eq!(code, 0);
    let games = read_games(converted.as_bytes());
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].plies, 3);
}

#[test]
fn marks_written_as_words_of_their_own_belong_to_their_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("marks.pgn");
    let text = "[Event \"Book\"]\n[Result \"1-0\"]\n\n\
                1. e4 Nf6 2. e5 d5 3. exd6 e.p. Nc6 4. Qh5 ch Kd7? 5. Qf5 ch Ke8 \
                6. dxc7 Qd7 7. Qxd7 mate 1-0\n";
    std::fs::write(&path, text).expect("write");
    let p = path.to_str().expect("path");
    let (out, _, code) = run(&["check", p]);
    assert_eq!((out.as_str(), code), ("1 game, 0 with errors\n", 0));
    let (converted, _, _) = run(&["convert", p]);
    assert!(
        converted.contains("3. exd6 Nc6 4. Qh5 Kd7 $2 5. Qf5+ Ke8 6. dxc7 Qd7 7. Qxd7+"),
        "{converted}"
    );
    // `list` counts the thirteen moves, not the marks, on one thread and in chunks.
    for jobs in [vec!["--jobs", "1"], vec!["--jobs", "2", "--chunk", "64"]] {
        let (listed, _, _) = run(&[&["list"], &jobs[..], &[p]].concat());
        assert_eq!(listed, "1\t?\t?\t1-0\t?\tBook\t?\t13\n", "{jobs:?}");
    }
    // A mark with no move before it is still an error.
    std::fs::write(&path, "[Event \"x\"]\n\n1. ch e4 *\n").expect("write");
    let (out, _, code) = run(&["check", p]);
    assert_eq!(code, 1, "{out}");
}

#[test]
fn a_file_in_another_language_is_read_with_input_lang_and_the_error_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("de.pgn");
    let text = "[Event \"Deutsch\"]\n[White \"Müller\"]\n[Black \"Schmidt\"]\n[Result \"1-0\"]\n\n\
                1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. 0-0 Le7 6. Te1 b5 7. Lb3 d6 \
                8. c3 0-0 9. h3 Sb8 10. d4 Sbd7 11. Dd3 Lb7 1-0\n";
    std::fs::write(&path, text).expect("write");
    let p = path.to_str().expect("path");
    let (out, _, code) = run(&["check", p]);
    assert_eq!(code, 1);
    assert!(
        out.contains(":6:13: game 1 (Müller - Schmidt): \"Sf3\": not a move"),
        "{out}"
    );
    assert!(out.contains("try --input-lang de"), "{out}");
    for jobs in ["1", "2"] {
        let (out, _, code) = run(&["check", "--jobs", jobs, "--input-lang", "de", p]);
        assert_eq!((out.as_str(), code), ("1 game, 0 with errors\n", 0));
    }
    let (converted, _, code) = run(&["convert", "--input-lang", "de", p]);
    assert_eq!(code, 0);
    assert!(converted.contains("2. Nf3 Nc6 3. Bb5 a6"), "{converted}");
    assert!(converted.contains("11. Qd3 Bb7 1-0"), "{converted}");
    let (fen, _, _) = run(&["fen", "--input-lang", "de", "--ply", "4", p]);
    assert_eq!(
        fen,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n"
    );
    let (_, err, code) = run(&["check", "--input-lang", "xx", p]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown language 'xx'"), "{err}");
}

#[test]
fn a_latin1_game_copied_as_written_keeps_its_letters() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("latin1.pgn");
    let mut bytes = b"[Event \"Blitz\"]\n[White \"M".to_vec();
    bytes.push(0xFC); // ü in ISO 8859-1
    bytes.extend_from_slice(b"ller\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n");
    std::fs::write(&path, bytes).expect("write");
    let (out, err, code) = run(&["convert", path.to_str().expect("path")]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("% scoresheet: game 1 copied as written"),
        "{out}"
    );
    assert!(out.contains("[White \"Müller\"]"), "{out}");
}
