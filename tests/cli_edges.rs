//! The batch commands at their edges, through the real binary: `-` for standard input,
//! missing files, `--jobs` out of range, input that never ends, and what messages show
//! of hostile input (control characters, huge tokens).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;

const GAMES: &str = "[Event \"A\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
[Event \"B\"]\n[White \"Cy\"]\n[Black \"Di\"]\n[Result \"*\"]\n\n1. d4 Nf6 2. c4 *\n";

/// Runs the binary with `args` and `stdin`; (stdout, stderr, exit code).
fn run(args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let out = Command::cargo_bin("scoresheet")
        .unwrap()
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A file holding `text` in a fresh temporary directory (kept alive by the guard).
fn file(text: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap().to_string();
    (dir, path)
}

#[test]
fn dash_reads_standard_input_like_a_file() {
    let (_dir, path) = file(GAMES.as_bytes());
    for args in [
        vec!["check"],
        vec!["check", "--jobs", "1"],
        vec!["check", "--jobs", "3"],
        vec!["list"],
        vec!["list", "--jobs", "1"],
        vec!["convert"],
        vec!["fen", "--game", "2", "--all"],
    ] {
        let from_file = run(&[&args[..], &[path.as_str()]].concat(), b"");
        let from_stdin = run(&[&args[..], &["-"]].concat(), GAMES.as_bytes());
        assert_eq!(from_stdin.2, 0, "{args:?}: {}", from_stdin.1);
        assert!(!from_stdin.0.is_empty(), "{args:?}");
        assert_eq!(from_stdin, from_file, "{args:?}");
    }
    // A problem read from standard input is said to be there.
    let (out, _, code) = run(&["check", "-"], b"1. e4 e5 2. Ke3 *\n");
    assert_eq!(code, 1);
    assert!(
        out.starts_with("<stdin>:1:13: game 1 (? - ?): \"Ke3\""),
        "{out}"
    );
}

#[test]
fn a_missing_file_gives_its_error_and_no_summary() {
    let (out, err, code) = run(&["check", "no-such-file.pgn"], b"");
    assert_eq!(
        out, "",
        "no \"0 games\" summary for a file that was never read"
    );
    assert!(err.contains("cannot read no-such-file.pgn"), "{err}");
    assert_eq!(code, 2);
    // With a file that was read, the summary counts it; the missing one still makes it 2.
    let (_dir, path) = file(GAMES.as_bytes());
    let (out, err, code) = run(&["check", &path, "no-such-file.pgn"], b"");
    assert_eq!(out, "2 games, 0 with errors\n");
    assert!(err.contains("no-such-file.pgn"), "{err}");
    assert_eq!(code, 2);
}

#[test]
fn jobs_zero_is_refused_with_a_reason() {
    let (_dir, path) = file(GAMES.as_bytes());
    for command in ["check", "list"] {
        let (out, err, code) = run(&[command, "--jobs", "0", &path], b"");
        assert_eq!(out, "");
        assert!(err.contains("'0' for '--jobs"), "{err}");
        assert!(err.contains("give 1 or more"), "{err}");
        assert_eq!(code, 2);
    }
}

#[test]
fn more_jobs_than_the_system_grants_still_read_everything() {
    let text = GAMES.repeat(30);
    let (_dir, path) = file(text.as_bytes());
    for command in ["list", "check"] {
        let one = run(&[command, "--jobs", "1", &path], b"");
        let many = run(&[command, "--jobs", "100000", "--chunk", "100", &path], b"");
        assert_eq!(many, one, "{command}");
        assert_eq!(many.2, 0, "{command}: {}", many.1);
    }
}

/// Writes a game that never ends (its moves legal, on and on) into `child`'s standard
/// input until the child closes it.
fn feed_forever(child: &mut Child) -> std::thread::JoinHandle<()> {
    let mut stdin = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        let chunk = "Nf3 Nf6 Ng1 Ng8 ".repeat(4096) + "\n";
        if stdin.write_all(b"[Event \"endless\"]\n\n").is_err() {
            return;
        }
        while stdin.write_all(chunk.as_bytes()).is_ok() {}
    })
}

fn binary() -> Process {
    Process::new(assert_cmd::cargo::cargo_bin("scoresheet"))
}

/// Resident memory of a process in KiB, where the system says it (Linux).
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Waits for a child to exit, failing if it is still running after a generous guard (it
/// would otherwise grow until the machine runs out of memory).
fn exits(child: &mut Child) -> std::process::ExitStatus {
    let guard = Instant::now() + Duration::from_secs(300);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if let Some(kib) = resident_kib(child.id()) {
            if kib > 1 << 20 {
                let _ = child.kill();
                panic!("the command holds {kib} KiB of an endless input");
            }
        }
        if Instant::now() > guard {
            let _ = child.kill();
            panic!("the command never stopped reading an endless input");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn endless_input_ends_transcribe_and_fen_with_a_clear_error() {
    for (args, code, says) in [
        (&["transcribe"][..], 2, "more than 64 MiB"),
        (&["fen", "-"][..], 1, "game larger than"),
    ] {
        let mut child = binary()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let writer = feed_forever(&mut child);
        let status = exits(&mut child);
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        writer.join().unwrap();
        assert_eq!(status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn check_on_several_threads_reports_an_endless_game_without_holding_it() {
    let mut child = binary()
        .args(["check", "--jobs", "2", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let writer = feed_forever(&mut child);
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    // The input never ends, so neither does reading it; what matters is that the game is
    // reported as too large as soon as it passes the limit, in memory that stays small.
    let guard = Instant::now() + Duration::from_secs(300);
    let line = loop {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(50)) {
            break line;
        }
        if let Some(kib) = resident_kib(child.id()) {
            if kib > 1 << 20 {
                let _ = child.kill();
                panic!("check holds {kib} KiB of an endless game");
            }
        }
        if Instant::now() > guard || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("check never reported the endless game");
        }
    };
    if let Some(kib) = resident_kib(child.id()) {
        assert!(kib < 512 << 10, "check holds {kib} KiB");
    }
    child.kill().unwrap();
    child.wait().unwrap();
    writer.join().unwrap();
    assert!(
        line.starts_with("<stdin>:1:1: game 1 (? - ?): ") && line.contains("larger than"),
        "{line}"
    );
}

#[test]
fn control_characters_in_the_input_are_escaped_in_messages() {
    let text = b"[Event \"x\"]\n[White \"A\x1b[31mB\x07\"]\n[Black \"C\0D\"]\n\n1. e4 Zz\x1b]0;owned\x07 *\n";
    let (out, _, code) = run(&["check", "-"], text);
    assert_eq!(code, 1);
    assert!(!out.contains(['\x1b', '\x07', '\0']), "{out:?}");
    assert!(out.contains("(A\\u{1b}[31mB\\u{7} - C\\0D)"), "{out}");
    let (_, err, code) = run(&["transcribe"], b"1. e4 Zz\x1b[2J\x07 *\n");
    assert_eq!(code, 1);
    assert!(!err.contains(['\x1b', '\x07']), "{err:?}");
    assert!(err.starts_with("1:7: \"Zz\\u{1b}\": "), "{err}");
}

#[test]
fn a_huge_token_is_cut_in_messages_with_its_length() {
    let word = "Q".repeat(3_000_000);
    let (out, _, code) = run(&["check", "-"], format!("1. e4 {word} *\n").as_bytes());
    assert_eq!(code, 1);
    assert!(out.len() < 2000, "a message of {} bytes", out.len());
    assert!(
        out.contains(&format!(
            "\"{}… (3000000 characters in all)\"",
            "Q".repeat(40)
        )),
        "{out}"
    );
}

#[test]
fn convert_writes_control_characters_of_tags_escaped_and_says_so() {
    let text = b"[Event \"x\"]\n[White \"A\0B\x1b\"]\n\n1. e4 *\n";
    let (out, err, code) = run(&["convert", "-"], text);
    assert!(!out.contains(['\0', '\x1b']), "{out:?}");
    assert!(out.contains("[White \"A\\\\u{0}B\\\\u{1b}\"]"), "{out}");
    assert!(err.contains("tag White holds control characters"), "{err}");
    assert_eq!(code, 1);
    // What was written reads back as the same visible text, and stays so.
    let (again, err, code) = run(&["convert", "-"], out.as_bytes());
    assert_eq!((again.as_str(), err.as_str(), code), (out.as_str(), "", 0));
}

#[test]
fn help_says_where_the_configuration_is() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("mine.toml");
    let out = Command::cargo_bin("scoresheet")
        .unwrap()
        .arg("--help")
        .env("SCORESHEET_CONFIG", &config)
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains(&format!("Configuration: {}", config.display())),
        "{help}"
    );
    assert!(help.contains("Set SCORESHEET_CONFIG to"), "{help}");
}

#[test]
fn a_configuration_file_named_by_the_environment_must_exist() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("typo.toml");
    let out = Command::cargo_bin("scoresheet")
        .unwrap()
        .arg("new")
        .env("SCORESHEET_CONFIG", &config)
        .env("SCORESHEET_DATA_DIR", dir.path().join("data"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains(&format!("cannot read {}: no such file", config.display())),
        "{err}"
    );
    assert!(err.contains("SCORESHEET_CONFIG"), "{err}");
}

/// `text` compressed as each format the commands read, with its usual file extension.
fn compressed(text: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    use std::io::Write as _;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(text).unwrap();
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 6);
    xz.write_all(text).unwrap();
    let (le, be) = (
        utf16(text, u16::to_le_bytes, [0xff, 0xfe]),
        utf16(text, u16::to_be_bytes, [0xfe, 0xff]),
    );
    let mut gz16 = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz16.write_all(&le).unwrap();
    let mut xz16 = liblzma::write::XzEncoder::new(Vec::new(), 6);
    xz16.write_all(&be).unwrap();
    vec![
        ("gz", gz.finish().unwrap()),
        ("bz2", bz.finish().unwrap()),
        ("xz", xz.finish().unwrap()),
        ("zst", zstd::encode_all(text, 3).unwrap()),
        // Not compressed, but read through the same door: UTF-16 with a byte-order mark.
        ("utf16le", le.clone()),
        ("utf16be", be.clone()),
        // And both: a UTF-16 file compressed (a Windows tool's export, zipped up).
        ("utf16le.gz", gz16.finish().unwrap()),
        ("utf16be.xz", xz16.finish().unwrap()),
        ("utf16le.zst", zstd::encode_all(&le[..], 3).unwrap()),
    ]
}

/// `text` (UTF-8) as UTF-16, behind its byte-order mark.
fn utf16(text: &[u8], bytes: fn(u16) -> [u8; 2], mark: [u8; 2]) -> Vec<u8> {
    let text = std::str::from_utf8(text).unwrap();
    let mut out = mark.to_vec();
    for unit in text.encode_utf16() {
        out.extend_from_slice(&bytes(unit));
    }
    out
}

#[test]
fn compressed_files_read_like_the_plain_file() {
    // A problem in the second game, so that positions and exit codes are compared too.
    // A name beyond ASCII, so that the UTF-16 inputs are really transcoded.
    let text = format!("{GAMES}\n[Event \"C\"]\n[White \"Šimun Žagar\"]\n\n1. e4 e5 2. Ke3 *\n");
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("games.pgn");
    std::fs::write(&plain, &text).unwrap();
    let plain = plain.to_str().unwrap();
    for (ext, bytes) in compressed(text.as_bytes()) {
        let packed = dir.path().join(format!("games.pgn.{ext}"));
        std::fs::write(&packed, &bytes).unwrap();
        let packed = packed.to_str().unwrap();
        for args in [
            vec!["check"],
            vec!["check", "--jobs", "3"],
            vec!["list"],
            vec!["convert"],
            vec!["fen", "--game", "2", "--all"],
            vec!["transcribe"],
        ] {
            let want = run(&[&args[..], &[plain]].concat(), b"");
            let got = run(&[&args[..], &[packed]].concat(), b"");
            assert_eq!(got.2, want.2, "{ext} {args:?}: {}", got.1);
            assert!(!got.0.is_empty(), "{ext} {args:?}");
            let rename = |s: &str| s.replace(packed, plain);
            assert_eq!(
                (rename(&got.0), rename(&got.1)),
                (want.0.clone(), want.1),
                "{ext} {args:?}"
            );
            // The same through standard input.
            let piped = run(&[&args[..], &["-"]].concat(), &bytes);
            let rename = |s: &str| s.replace("<stdin>", plain);
            assert_eq!(rename(&piped.0), want.0, "{ext} {args:?} from a pipe");
            assert_eq!(piped.2, want.2, "{ext} {args:?} from a pipe");
        }
    }
    // A file that starts like gzip but is not: an unreadable input, exit 2, not a PGN game.
    let broken = dir.path().join("broken.pgn.gz");
    std::fs::write(
        &broken,
        b"\x1f\x8b\x08\x00garbage that is no deflate stream",
    )
    .unwrap();
    for command in ["check", "transcribe"] {
        let (out, err, code) = run(&[command, broken.to_str().unwrap()], b"");
        assert_eq!((out.as_str(), code), ("", 2), "{command}: {err}");
        assert!(err.contains("cannot read"), "{command}: {err}");
    }
}

#[test]
fn list_keeps_its_columns_when_a_tag_holds_a_tab_or_an_escape() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("odd.pgn");
    std::fs::write(
        &file,
        "[Event \"A\tB\"]\n[White \"x\u{1b}[31my\"]\n[Result \"*\"]\n\n1. e4 *\n",
    )
    .unwrap();
    for jobs in ["1", "2"] {
        let (out, _, code) = run(&["list", "--jobs", jobs, file.to_str().unwrap()], b"");
        assert_eq!(code, 0);
        assert_eq!(out.lines().count(), 1, "{out:?}");
        let fields: Vec<&str> = out.trim_end().split('\t').collect();
        assert_eq!(fields.len(), 8, "{out:?}");
        assert!(!out.contains('\u{1b}'), "{out:?}");
        assert_eq!(fields[1], "x\\u{1b}[31my", "{out:?}");
        assert_eq!(fields[5], "A\\u{9}B", "{out:?}");
    }
}

#[test]
fn list_keeps_a_line_for_a_game_over_the_size_limit() {
    // Game 2 is over the 64 MiB limit: it has a line of `?` in its place, and standard
    // error says why, on one thread, in chunks and from a pipe alike.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.pgn");
    let big = "Nf3 Nf6 Ng1 Ng8 ".repeat(4_300_000);
    std::fs::write(
        &file,
        format!(
            "[Event \"one\"]\n\n1. e4 *\n\n[Event \"big\"]\n\n{big}*\n\n[Event \"three\"]\n\n1. d4 *\n"
        ),
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let want = "1\t?\t?\t?\t?\tone\t?\t1\n2\t?\t?\t?\t?\t?\t?\t?\n3\t?\t?\t?\t?\tthree\t?\t1\n";
    for jobs in ["1", "2"] {
        let (out, err, code) = run(&["list", "--jobs", jobs, path], b"");
        assert_eq!((out.as_str(), code), (want, 0), "--jobs {jobs}");
        assert!(
            err.contains("game 2: larger than the 64 MiB limit"),
            "{err}"
        );
    }
}

/// A download that did not finish: every game before the cut is read (checked, listed,
/// converted, searched) as from the whole file, and the command says where the file ends
/// and exits with 2, instead of giving nothing or dropping the last games it had read.
#[test]
fn a_compressed_file_cut_short_gives_every_game_before_the_cut() {
    use std::io::Read as _;
    // Enough for bzip2 to make more than one block of its 900 kB: the cut falls in a later one.
    let text: String = (1..=12000)
        .map(|i| {
            format!(
                "[Event \"G{i}\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"*\"]\n\n\
                 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {{game {i}}} *\n\n"
            )
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    for (ext, bytes) in compressed(text.as_bytes()) {
        if ext.starts_with("utf16") {
            continue;
        }
        let cut = &bytes[..bytes.len() * 7 / 10];
        let packed = dir.path().join(format!("cut.pgn.{ext}"));
        std::fs::write(&packed, cut).unwrap();
        let packed = packed.to_str().unwrap();
        // What the decompressor gives before its error: the games a reader can have.
        let mut prefix = Vec::new();
        let decoded = match ext {
            "gz" => flate2::read::MultiGzDecoder::new(cut).read_to_end(&mut prefix),
            "bz2" => bzip2::read::MultiBzDecoder::new(cut).read_to_end(&mut prefix),
            "xz" => liblzma::read::XzDecoder::new_multi_decoder(cut).read_to_end(&mut prefix),
            _ => zstd::stream::read::Decoder::new(cut)
                .unwrap()
                .read_to_end(&mut prefix),
        };
        assert!(
            decoded.is_err(),
            "{ext}: the cut file must fail to decompress"
        );
        let prefix = String::from_utf8(prefix).unwrap();
        let complete = prefix.matches(" *\n\n").count();
        assert!(
            complete > 1000,
            "{ext}: only {complete} games before the cut"
        );
        let whole_games: String = text.split_inclusive(" *\n\n").take(complete).collect();
        let plain = dir.path().join(format!("whole-{ext}.pgn"));
        std::fs::write(&plain, &whole_games).unwrap();
        let plain = plain.to_str().unwrap();

        let (out, err, code) = run(&["check", packed], b"");
        assert_eq!(code, 2, "{ext}: {err}");
        assert!(
            err.contains("cannot read all of") && err.contains("ends early"),
            "{ext}: {err}"
        );
        let summary = out.lines().last().unwrap_or_default();
        let games: usize = summary.split(' ').next().unwrap().parse().unwrap();
        assert!(
            games == complete || games == complete + 1,
            "{ext}: {out} of {complete}"
        );

        for args in [vec!["list"], vec!["convert"], vec!["transcribe"]] {
            let (whole, _, _) = run(&[&args[..], &[plain]].concat(), b"");
            let (got, err, code) = run(&[&args[..], &[packed]].concat(), b"");
            assert_eq!(code, 2, "{ext} {args:?}: {err}");
            assert!(err.contains("ends early"), "{ext} {args:?}: {err}");
            assert!(
                got.starts_with(&whole),
                "{ext} {args:?}: the {complete} games before the cut are not all there"
            );
        }

        let (_, err, code) = run(&["search", packed, "--moves", "1. e4 e5"], b"");
        assert_eq!(code, 2, "{ext}: {err}");
        // The game cut short may have reached the position before its cut.
        let reached = [complete, games].map(|n| format!("{n} of {games} games reach"));
        assert!(reached.iter().any(|r| err.contains(r)), "{ext}: {err}");
        assert!(err.contains("ends early"), "{ext}: {err}");
    }
}

/// `convert -o` writes a compressed file when OUT's name says so, and keeps an existing
/// OUT's compression (in place, `db.pgn.zst` stays zstd); every format reads back to the
/// text written to standard output.
#[test]
fn convert_writes_out_compressed_as_its_name_or_its_bytes_say() {
    use std::io::Read as _;
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("games.pgn");
    std::fs::write(&plain, GAMES).unwrap();
    let plain = plain.to_str().unwrap();
    let (want, _, code) = run(&["convert", plain], b"");
    assert_eq!(code, 0);
    let unpack = |ext: &str, bytes: &[u8]| {
        let mut text = Vec::new();
        match ext {
            "gz" => flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut text),
            "bz2" => bzip2::read::MultiBzDecoder::new(bytes).read_to_end(&mut text),
            "xz" => liblzma::read::XzDecoder::new_multi_decoder(bytes).read_to_end(&mut text),
            _ => zstd::stream::read::Decoder::new(bytes)
                .unwrap()
                .read_to_end(&mut text),
        }
        .unwrap_or_else(|e| panic!("{ext}: not {ext}: {e}"));
        String::from_utf8(text).unwrap()
    };
    for ext in ["gz", "bz2", "xz", "zst"] {
        let out = dir.path().join(format!("out.pgn.{ext}"));
        let out = out.to_str().unwrap();
        let (_, err, code) = run(&["convert", plain, "-o", out], b"");
        assert_eq!(code, 0, "{ext}: {err}");
        assert_eq!(unpack(ext, &std::fs::read(out).unwrap()), want, "{ext}");
        // In place: the file stays in its format.
        let (_, err, code) = run(&["convert", out, "-o", out], b"");
        assert_eq!(code, 0, "{ext} in place: {err}");
        assert_eq!(
            unpack(ext, &std::fs::read(out).unwrap()),
            want,
            "{ext} in place"
        );
    }
    // A zstd file named like plain text keeps its bytes' format when converted in place.
    let hidden = dir.path().join("hidden.pgn");
    std::fs::write(&hidden, zstd::encode_all(GAMES.as_bytes(), 3).unwrap()).unwrap();
    let hidden = hidden.to_str().unwrap();
    let (_, err, code) = run(&["convert", hidden, "-o", hidden], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(unpack("zst", &std::fs::read(hidden).unwrap()), want);
}

/// A compressed file cut short, converted in place, is left as it was: what could be read
/// of it does not replace it (written to another file, it is all there).
#[test]
fn convert_in_place_leaves_a_file_it_could_not_read_whole() {
    let text = GAMES.repeat(2000);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let cut = &gz[..gz.len() / 2];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.pgn.gz");
    std::fs::write(&path, cut).unwrap();
    let path = path.to_str().unwrap();
    let (_, err, code) = run(&["convert", path, "-o", path], b"");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ends early"), "{err}");
    assert!(err.contains("does not replace it"), "{err}");
    assert_eq!(std::fs::read(path).unwrap(), cut, "the file is as it was");
    let other = dir.path().join("read.pgn");
    let (_, err, code) = run(&["convert", path, "-o", other.to_str().unwrap()], b"");
    assert_eq!(code, 2, "{err}");
    assert!(
        std::fs::read_to_string(&other)
            .unwrap()
            .matches("[Event ")
            .count()
            > 1000
    );
}
