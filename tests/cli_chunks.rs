//! `check --jobs` and `list` on regular files, which split the file into chunks whose first
//! game is only guessed (the first `[Event ` line of each chunk): whatever the chunk size,
//! and wherever the guesses go wrong, the output must be the sequential output byte for byte
//! (lines, order, game numbers, line:column positions, summary, exit code).
//!
//! Tiny chunks (the hidden `--chunk` option) put a chunk edge next to every awkward spot:
//! `[Event` lines inside multi-line comments, tag sections that do not start with `Event`,
//! tagless games starting in the middle of a line, `%` lines, files without any `[Event`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

mod data_dirs;

/// Runs the binary; returns (stdout, stderr, exit code).
fn run(args: &[&str]) -> (Vec<u8>, Vec<u8>, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(args)
        .output()
        .expect("run scoresheet");
    (out.stdout, out.stderr, out.status.code().unwrap_or(-1))
}

/// Checks that `check` and `list` split into chunks of every size in `chunks` give the
/// sequential output for `path`.
fn same_as_sequential(path: &Path, chunks: &[u64], jobs: &[&str]) {
    let file = path.to_string_lossy().into_owned();
    for command in ["check", "list"] {
        let sequential = run(&[command, "--jobs", "1", &file]);
        for chunk in chunks {
            let chunk = chunk.to_string();
            for jobs in jobs {
                let got = run(&[command, "--jobs", jobs, "--chunk", &chunk, &file]);
                assert!(
                    got == sequential,
                    "{command} --jobs {jobs} --chunk {chunk} {file}: {}\nvs\n{}",
                    String::from_utf8_lossy(&got.0),
                    String::from_utf8_lossy(&sequential.0)
                );
            }
        }
    }
}

/// Every `.pgn` file of a directory, in order.
fn pgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_awkward_file_reads_the_same_in_chunks() {
    let names = pgn_files(&data_dirs::quirks_dir());
    assert!(names.len() > 25, "{} files", names.len());
    for name in &names {
        same_as_sequential(name, &[64, 333, 4096], &["2"]);
    }
}

/// The same over the upstream awkward files beside the checkout (our machines and CI).
#[test]
fn every_shared_awkward_file_reads_the_same_in_chunks() {
    let Some(dir) = data_dirs::shared_data(
        "nasty",
        "the chunk comparison of the upstream awkward files",
    ) else {
        return;
    };
    let names = pgn_files(&dir);
    assert!(names.len() > 30, "{} files", names.len());
    for name in &names {
        same_as_sequential(name, &[64, 333, 4096], &["2"]);
    }
}

/// A game whose multi-line comment holds `[Event` lines (one of them right at `at`, when
/// placed at a multiple of the chunk size), with an illegal move after the comment whose
/// line and column must come out right.
fn comment_game(n: usize) -> String {
    format!(
        "[Event \"E{n}\"]\n[White \"W{n}\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 {{a comment\n\
         [Event \"fake {n}\"]\n[Site \"fake\"]\n\n1. d4 *\n\n[Event \"fake again\"]\n}} e5 2. Kxx *\n\n"
    )
}

/// Games of every awkward kind, in an order and with sizes that vary with `seed`.
fn awkward_file(seed: u64) -> String {
    let pieces: [&dyn Fn(usize) -> String; 10] = [
        &|n| {
            format!("[Event \"E{n}\"]\n[Site \"S\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n")
        },
        &comment_game,
        // A tag section that does not start with Event: a wrong guess.
        &|n| {
            format!(
                "[Site \"S{n}\"]\n[Event \"late\"]\n[Result \"*\"]\n\n1. d4 d5 2. Kd2 Kxx *\n\n"
            )
        },
        // Tagless games, the second one starting in the middle of a line.
        &|n| format!("1. e4 e5 {{tagless {n}}} 1-0 2. Nf3 Nc6 3. Bb5 *\n\n"),
        // `%` lines and `;` comments holding what looks like a tag.
        &|n| {
            format!("% escape {n}\n[Event \"P\"]\n; [Event \"not a tag\"]\n%[Event \"x\"]\n\n1. f4 ; x\n[Event \"tags only {n}\"]\n\n")
        },
        // Two `[Event` tags in one tag section: the first game has tags only.
        &|n| {
            format!("[Event \"first {n}\"]\n[Event \"second\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n")
        },
        // A bad tag and a stray bracket.
        &|n| format!("[Event \"bad {n}]\n[White \"x\"]\n\n1. e4 ] e5 *\n\n"),
        // A game after a result on the same line, starting with `%`.
        &|n| format!("[Event \"pct {n}\"]\n\n1. e4 1-0 %2. d4 *\n\n"),
        // CRLF line endings and a non-ASCII name.
        &|n| {
            format!(
                "[Event \"crlf {n}\"]\r\n[White \"Ljubojević\"]\r\n\r\n1. e4 e5 2. Ké2 *\r\n\r\n"
            )
        },
        // A long comment-free game.
        &|n| {
            let mut s = format!("[Event \"long {n}\"]\n\n");
            for k in 1..=30 {
                s.push_str(&format!("{k}. Nf3 Nf6 {}. Ng1 Ng8 ", k));
            }
            s.push_str("*\n\n");
            s
        },
    ];
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut text = String::new();
    if seed.is_multiple_of(2) {
        text.push('\u{feff}');
    }
    for n in 0..120 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let k = (state >> 33) as usize % pieces.len();
        text.push_str(&pieces[k](n));
    }
    if seed.is_multiple_of(3) {
        text.push_str("[Event \"open\"]\n\n1. e4 {never closed\n[Event \"inside\"]\n");
    }
    text
}

#[test]
fn awkward_files_read_the_same_in_chunks() {
    let dir = tempfile::tempdir().expect("tempdir");
    for seed in 0..6 {
        let path = dir.path().join(format!("awkward{seed}.pgn"));
        std::fs::write(&path, awkward_file(seed)).expect("write");
        same_as_sequential(&path, &[64, 100, 211, 1000, 1 << 20], &["2", "3"]);
    }
}

#[test]
fn a_fake_event_line_at_every_chunk_edge() {
    // Clean games up to the chunk edge, then a game whose comment holds `[Event` lines
    // exactly at the edge, just before and just after it.
    let dir = tempfile::tempdir().expect("tempdir");
    let chunk = 512;
    let game = "[Event \"E\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";
    for shift in 0..3 {
        let mut text = String::new();
        while text.len() < chunk - 60 {
            text.push_str(game);
        }
        text.push_str("[Event \"C\"]\n[White \"comment\"]\n\n1. e4 {a comment\n");
        while text.len() < chunk - shift {
            text.push('x');
        }
        text.push_str("\n[Event \"fake\"]\n");
        text.push_str("[Event \"fake too\"]\n} e5 2. Kxx *\n\n");
        for _ in 0..30 {
            text.push_str(game);
        }
        let path = dir.path().join(format!("edge{shift}.pgn"));
        std::fs::write(&path, &text).expect("write");
        same_as_sequential(&path, &[chunk as u64], &["2"]);
        let (out, _, code) = run(&[
            "check",
            "--jobs",
            "2",
            "--chunk",
            "512",
            &path.to_string_lossy(),
        ]);
        let out = String::from_utf8(out).expect("UTF-8");
        assert_eq!(code, 1);
        assert!(out.contains("\"Kxx\""), "{out}");
    }
}

#[test]
fn a_file_without_any_event_tag_or_tags_reads_the_same_in_chunks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = String::new();
    for n in 0..200 {
        if n % 2 == 0 {
            text.push_str(&format!("[Site \"{n}\"]\n\n1. e4 e5 2. Ke2 Kxx 1-0\n\n"));
        } else {
            text.push_str("1. d4 d5 2. c4 0-1 ");
        }
    }
    let path = dir.path().join("no_event.pgn");
    std::fs::write(&path, text).expect("write");
    same_as_sequential(&path, &[64, 1000], &["2"]);
}

#[test]
fn a_comment_full_of_games_reads_the_same_in_chunks() {
    // A speculative read that starts inside the comment finds many more games than there
    // are before the point where it meets the true reading again.
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = String::from("[Event \"big\"]\n\n1. e4 {\n");
    for n in 0..40 {
        text.push_str(&format!("[Event \"fake {n}\"]\n\n1. d4 *\n\n"));
    }
    text.push_str("} e5 2. Kxx *\n\n");
    for n in 0..40 {
        text.push_str(&format!("[Event \"real {n}\"]\n\n1. e4 e5 2. Ke3 *\n\n"));
    }
    let path = dir.path().join("comment_full_of_games.pgn");
    std::fs::write(&path, text).expect("write");
    same_as_sequential(&path, &[64, 100, 1000], &["2"]);
}

/// Tag sections that start with `Site`, then `Event`: every guess falls one line after a
/// true game start, and each chunk's read meets the true reading again at its second game.
#[test]
fn tag_sections_not_starting_with_event_read_the_same_in_chunks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = String::new();
    for n in 0..300 {
        let bad = if n % 7 == 0 { "Kxx" } else { "Nf3" };
        text.push_str(&format!(
            "[Site \"s{n}\"]\n[Event \"e{n}\"]\n[White \"w{n}\"]\n\n1. e4 e5 2. {bad} *\n\n"
        ));
    }
    let path = dir.path().join("site_first.pgn");
    std::fs::write(&path, text).expect("write");
    same_as_sequential(&path, &[64, 250, 1000, 4096], &["2", "3"]);
}

/// Real games (three of the files beside the checkout, about 4 MB), decompressed with `xz`.
#[test]
fn real_games_read_the_same_in_chunks() {
    let Some(dir) = data_dirs::shared_data("games", "the chunk comparison of real games") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = tmp.path().join("real.pgn");
    let mut all = Vec::new();
    for name in [
        "lichess-2017-05.pgn.xz",
        "pgnmentor-Capablanca.pgn.xz",
        "pgnmentor-Fischer.pgn.xz",
        "pgnmentor-Kasparov.pgn.xz",
    ] {
        let out = std::process::Command::new("xz")
            .arg("-dc")
            .arg(dir.join(name))
            .output()
            .expect("xz runs (CI installs it with the data)");
        assert!(out.status.success(), "xz -dc {name}");
        all.extend_from_slice(&out.stdout);
    }
    assert!(all.len() > 2_000_000, "{} bytes", all.len());
    std::fs::write(&path, all).expect("write");
    same_as_sequential(&path, &[100_000], &["2"]);
}
