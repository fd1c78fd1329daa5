//! Batch commands never swallow or drop text: an unclosed `{` or `(` ends its game at the
//! next game (a blank line, then a tag pair line) and is reported where it opened, in every
//! reader (`check` sequential, on a pipe, in chunks; `list`; `fen --game`; `convert`);
//! `convert` copies through as written what it cannot read, so a second run loses nothing.
//! The files are built here; nothing is read from outside the repository.

use std::path::Path;

use assert_cmd::Command;

/// Runs the binary with `stdin`; returns (stdout, stderr, exit code).
fn run_with(args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("run scoresheet");
    (
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
        out.status.code().unwrap_or(-1),
    )
}

fn run(args: &[&str]) -> (String, String, i32) {
    run_with(args, b"")
}

/// Game `n` of a made-up event: clock comments (so that a `}` follows any unclosed `{`
/// in a later game), a variation, a result.
fn game(n: usize, movetext: &str) -> String {
    format!(
        "[Event \"Resync test\"]\n[Site \"Here\"]\n[Date \"2026.11.24\"]\n[Round \"{n}\"]\n\
         [White \"White {n}\"]\n[Black \"Black {n}\"]\n[Result \"1/2-1/2\"]\n\n{movetext}\n\n"
    )
}

const CLEAN: &str = "1. e4 {[%clk 0:03:00]} e5 {[%clk 0:03:00]} 2. Nf3 (2. Nc3 Nf6) 2... Nc6 \
                     3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1/2-1/2";

/// Thirty games; game 3 has a `{` after `1.e4` that is never closed, game 7 a `(` that is
/// never closed. Returns the text and the (line, column) of the `{` and the `(`.
fn broken_file() -> (String, (usize, usize), (usize, usize)) {
    let mut text = String::new();
    for n in 1..=30 {
        let movetext = match n {
            3 => "1.e4 { e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2",
            7 => "1. e4 e5 2. Nf3 (2. Nc3 Nf6 3. Bc4 Bc5 1/2-1/2",
            _ => CLEAN,
        };
        text.push_str(&game(n, movetext));
    }
    let at = |needle: &str| {
        let offset = text.find(needle).expect("needle");
        let line = text[..offset].matches('\n').count() + 1;
        let column = offset - text[..offset].rfind('\n').map_or(0, |k| k + 1) + 1;
        (line, column)
    };
    let brace = at("{ e5");
    let paren = at("(2. Nc3 Nf6 3.");
    (text, brace, paren)
}

/// A converted text without the `%` notes (whose line numbers move from run to run).
fn without_notes(s: &str) -> String {
    s.lines()
        .filter(|l| !l.starts_with("% scoresheet:"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_str().expect("path").to_string()
}

/// What `check` must say of the broken file called `name`.
fn expected_check(name: &str, brace: (usize, usize), paren: (usize, usize)) -> String {
    format!(
        "{name}:{}:{}: game 3 (White 3 - Black 3): \"{{ e5 2. Nf3 Nc6 3. Bb5 a\": comment not \
         closed before the next game or the end of the input\n\
         {name}:{}:{}: game 7 (White 7 - Black 7): \"(2.\": variation not closed: no ')' before \
         the end of the game\n\
         30 games, 2 with errors\n",
        brace.0, brace.1, paren.0, paren.1
    )
}

#[test]
fn an_unclosed_comment_or_variation_does_not_swallow_the_games_after_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (text, brace, paren) = broken_file();
    let file = write(dir.path(), "broken.pgn", &text);
    let want = expected_check(&file, brace, paren);
    // The streaming reader, on a file and on a pipe, one thread or several.
    for jobs in ["1", "2"] {
        let (out, err, code) = run(&["check", "--jobs", jobs, &file]);
        assert_eq!((out.as_str(), err.as_str(), code), (want.as_str(), "", 1));
        let (out, _, code) = run_with(&["check", "--jobs", jobs, "/dev/stdin"], text.as_bytes());
        assert_eq!(out, expected_check("/dev/stdin", brace, paren));
        assert_eq!(code, 1);
    }
    // The chunked reader, with chunk edges everywhere.
    for chunk in ["64", "333", "4096"] {
        let (out, _, code) = run(&["check", "--jobs", "3", "--chunk", chunk, &file]);
        assert_eq!((out.as_str(), code), (want.as_str(), 1), "chunk {chunk}");
    }
    // The index: every game listed, numbered 1 to 30, in every reader of it.
    let (listed, _, code) = run(&["list", "--jobs", "1", &file]);
    assert_eq!(code, 0);
    let numbers: Vec<&str> = listed
        .lines()
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    let want_numbers: Vec<String> = (1..=30).map(|n| n.to_string()).collect();
    assert_eq!(numbers, want_numbers);
    assert!(listed
        .lines()
        .nth(3)
        .is_some_and(|l| l.contains("White 4\tBlack 4")));
    for chunk in ["64", "333"] {
        let (out, _, _) = run(&["list", "--jobs", "2", "--chunk", chunk, &file]);
        assert_eq!(out, listed, "chunk {chunk}");
    }
    // `fen --game` finds the games after the broken ones.
    let (out, err, code) = run(&["fen", &file, "--game", "4", "--ply", "2"]);
    assert_eq!(
        (out.as_str(), err.as_str(), code),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n",
            "",
            0
        )
    );
}

#[test]
fn convert_onto_itself_keeps_every_game_and_copies_the_broken_ones_as_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (text, _, _) = broken_file();
    let file = write(dir.path(), "broken.pgn", &text);
    let (_, err, code) = run(&["convert", &file, "-o", &file]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
    let once = std::fs::read_to_string(&file).expect("read");
    assert!(
        once.len() > text.len() * 9 / 10,
        "{} bytes left",
        once.len()
    );
    // The broken games are there as written, each after a `%` line saying why.
    for n in [3, 7] {
        let original = game(n, "");
        let start = text.find(&original[..original.len() - 3]).expect("game");
        let end = text[start..]
            .find("\n\n[")
            .map_or(text.len(), |k| start + k);
        assert!(once.contains(&text[start..end]), "game {n} lost:\n{once}");
    }
    assert_eq!(once.matches("\n% scoresheet: game ").count(), 2, "{once}");
    let (out, _, _) = run(&["check", "--jobs", "1", &file]);
    assert!(out.ends_with("30 games, 2 with errors\n"), "{out}");
    // A second run loses nothing more: the same games, the same text.
    let (_, _, code) = run(&["convert", &file, "-o", &file]);
    assert_eq!(code, 1);
    let twice = std::fs::read_to_string(&file).expect("read");
    assert_eq!(without_notes(&twice), without_notes(&once));
}

#[test]
fn convert_keeps_the_unread_rest_of_a_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let broken = [
        // An illegal move in the main line: the moves after it.
        game(
            1,
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Ke3 Qd4 6. Nxd4 Kd7 1/2-1/2",
        ),
        // An illegal move in a variation: the rest of the variation.
        game(2, "1. e4 e5 (1... c5 2. Ke3 d6 3. d4) 2. Nf3 Nc6 1/2-1/2"),
        // Text after a nested comment.
        game(3, "1. e4 { a { b } c } e5 2. Nf3 1/2-1/2"),
        // A variation (and its comment) before any move: it has nothing to replace.
        game(4, "( { a first thought } 1. d4 ) 1. e4 e5 1/2-1/2"),
    ];
    let clean = game(5, CLEAN);
    let text = format!("{}{clean}", broken.concat());
    let file = write(dir.path(), "rest.pgn", &text);
    let (out, err, code) = run(&["convert", &file]);
    assert_eq!((code, err.lines().count()), (1, 5), "{err}");
    for g in &broken {
        assert!(out.contains(g.trim_end()), "lost:\n{g}\nin:\n{out}");
    }
    assert!(
        err.contains("a variation before any move of its line"),
        "{err}"
    );
    assert_eq!(out.matches("% scoresheet: game ").count(), 4, "{out}");
    assert!(out.contains("[Round \"5\"]"), "{out}");
    // A second run over the output loses nothing more.
    let once = write(dir.path(), "once.pgn", &out);
    let (twice, _, _) = run(&["convert", &once]);
    for g in &broken {
        assert!(twice.contains(g.trim_end()), "lost:\n{g}\nin:\n{twice}");
    }
    assert_eq!(without_notes(&twice), without_notes(&out));
    assert_eq!(twice.matches("% scoresheet: game ").count(), 4, "{twice}");
}

#[test]
fn convert_copies_a_game_over_the_size_limit_through_as_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let big = game(
        1,
        &format!("1. e4 {{{}}} e5 1/2-1/2", "long comment ".repeat(1000)),
    );
    let text = format!("{big}{}{}", game(2, CLEAN), game(3, CLEAN));
    let file = write(dir.path(), "big.pgn", &text);
    let (out, err, code) = run(&["convert", "--max-game", "4096", &file]);
    assert_eq!(code, 1);
    // One line, naming the limit, with the token cut at its line's end.
    assert_eq!(
        err,
        format!(
            "{file}:1:1: game 1 (? - ?): \"[Event \"Resync test\"]\": game larger than the \
             4096-byte limit per game\n"
        )
    );
    assert!(out.starts_with(
        "% scoresheet: game 1 copied as written, not converted: line 1 column 1: game larger \
         than the 4096-byte limit per game\n"
    ));
    assert!(out.contains(big.trim_end()), "{out}");
    // Read again (under the usual limit), every game is there, tags and all.
    let once = write(dir.path(), "once.pgn", &out);
    let (listed, _, _) = run(&["list", "--jobs", "1", &once]);
    let firsts: Vec<&str> = listed
        .lines()
        .map(|l| &l[..l.find('\t').unwrap_or(0)])
        .collect();
    assert_eq!(firsts, ["1", "2", "3"]);
    assert!(listed.starts_with("1\tWhite 1\tBlack 1\t"), "{listed}");
    let (checked, _, code) = run(&["check", "--jobs", "1", &once]);
    assert_eq!((checked.as_str(), code), ("3 games, 0 with errors\n", 0));
    // Followed by a game that is copied too: its note, after the big game's result, is
    // part of the big game's text on the next run, and is replaced, not piled up.
    let text = format!("{big}{}", game(2, "1. e4 e5 2. Ke3 *"));
    let mut run_on = write(dir.path(), "run0.pgn", &text);
    let mut outs = Vec::new();
    for k in 1..=3 {
        let (out, _, _) = run(&["convert", "--max-game", "4096", &run_on]);
        assert_eq!(
            out.matches("% scoresheet: game ").count(),
            2,
            "run {k}:\n{out}"
        );
        run_on = write(dir.path(), &format!("run{k}.pgn"), &out);
        outs.push(out);
    }
    assert_eq!(outs[1], outs[2], "the third run changes nothing");
}

/// A game with the given Result tag and movetext, and no other tag but the players.
fn with_result(n: usize, tag: &str, movetext: &str) -> String {
    format!("[White \"W{n}\"]\n[Black \"B{n}\"]\n[Result \"{tag}\"]\n\n{movetext}\n\n")
}

#[test]
fn results_that_disagree_are_reported_kept_visible_and_fixed_only_on_request() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = [
        // Tag and token disagree.
        with_result(1, "1-0", "1. e4 e5 0-1"),
        // Both say White won, but White is mated.
        with_result(2, "1-0", "1. f3 e5 2. g4 Qh4# 1-0"),
        // All agree; `*` after a mate contradicts nothing.
        with_result(3, "0-1", "1. f3 e5 2. g4 Qh4# 0-1"),
        with_result(4, "*", "1. f3 e5 2. g4 Qh4# *"),
    ]
    .concat();
    let file = write(dir.path(), "results.pgn", &text);
    let want = format!(
        "{file}:5:10: game 1 (W1 - B1): \"0-1\": the movetext ends in 0-1 but the Result tag \
         says 1-0\n\
         {file}:11:21: game 2 (W2 - B2): \"1-0\": the movetext says 1-0 but White is checkmated \
         after the last move: the result is 0-1\n\
         4 games, 2 with errors\n"
    );
    for args in [
        &["check", "--jobs", "1"][..],
        &["check", "--jobs", "2", "--chunk", "64"],
    ] {
        let (out, _, code) = run(&[args, &[file.as_str()]].concat());
        assert_eq!((out.as_str(), code), (want.as_str(), 1), "{args:?}");
    }
    // convert keeps both as read, and says so.
    let (out, err, code) = run(&["convert", &file]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 2, "{err}");
    let games: Vec<&str> = out.split("\n\n[Event").collect();
    assert!(games[0].contains("[Result \"1-0\"]") && games[0].ends_with("1. e4 e5 0-1"));
    assert!(games[1].contains("[Result \"1-0\"]") && games[1].contains("Qh4# 1-0"));
    // With --fix-results: one result in both places, what the board says, else the tag.
    let (out, err, code) = run(&["convert", "--fix-results", &file]);
    assert_eq!(code, 0, "{err}");
    assert!(err.lines().all(|l| l.contains("written as")), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
    let games: Vec<&str> = out.split("\n\n[Event").collect();
    assert!(games[0].contains("[Result \"1-0\"]") && games[0].ends_with("1. e4 e5 1-0"));
    assert!(games[1].contains("[Result \"0-1\"]") && games[1].contains("Qh4# 0-1"));
    let fixed = write(dir.path(), "fixed.pgn", &out);
    let (out, _, code) = run(&["check", &fixed]);
    assert_eq!((out.as_str(), code), ("4 games, 0 with errors\n", 0));
}

/// A tag given twice: the last value is the one every command reads, both are kept, and
/// two Result tags that disagree are reported like any other disagreement of results.
#[test]
fn a_tag_given_twice_keeps_both_values_and_the_last_is_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = "[White \"Anand\"]\n[White \"Carlsen\"]\n[Result \"0-1\"]\n\
                [Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# *\n\n\
                [White \"Kasparov\"]\n[Result \"1-0\"]\n[Result \"1-0\"]\n\
                [FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\
                [FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O 1-0\n";
    let file = write(dir.path(), "twice.pgn", text);
    let want = format!(
        "{file}:4:1: game 1 (Carlsen - ?): \"1/2-1/2\": the Result tag is given twice: 0-1 \
         and then 1/2-1/2\n\
         {file}:4:1: game 1 (Carlsen - ?): \"1/2-1/2\": the Result tag says 1/2-1/2 but White \
         is checkmated after the last move: the result is 0-1\n\
         2 games, 1 with errors\n"
    );
    let (out, _, code) = run(&["check", &file]);
    assert_eq!((out.as_str(), code), (want.as_str(), 1));
    let (out, _, _) = run(&["list", &file]);
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!((rows[0][1], rows[0][3]), ("Carlsen", "1/2-1/2"), "{out}");
    // convert keeps both values of each, in their order, and a second run changes nothing.
    let (once, _, code) = run(&["convert", &file]);
    assert_eq!(code, 1);
    for both in [
        "[White \"Anand\"]\n[White \"Carlsen\"]\n",
        "[Result \"0-1\"]\n[Result \"1/2-1/2\"]\n",
        "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n",
    ] {
        assert!(once.contains(both), "{both} in\n{once}");
    }
    assert!(once.contains("Qh4# *"), "{once}");
    // The same value twice is one tag: nothing to tell apart.
    assert!(
        once.contains("[Result \"1-0\"]\n[Result \"1-0\"]\n"),
        "{once}"
    );
    let converted = write(dir.path(), "once.pgn", &once);
    let (twice, _, _) = run(&["convert", &converted]);
    assert_eq!(twice, once, "a second run changes nothing");
    let (out, _, _) = run(&["check", &converted]);
    assert!(
        out.contains("the Result tag is given twice: 0-1 and then 1/2-1/2"),
        "{out}"
    );
    // Settling the results leaves one Result tag, what the board says.
    let (fixed, err, code) = run(&["convert", "--fix-results", &file]);
    assert_eq!(code, 0, "{err}");
    assert!(fixed.contains("[Result \"0-1\"]\n"), "{fixed}");
    assert_eq!(
        fixed.matches("[Result \"").count(),
        3,
        "one in game 1, two in game 2"
    );
    assert!(!fixed.contains("1/2-1/2"), "{fixed}");
    assert!(fixed.contains("Qh4# 0-1"), "{fixed}");
    let fixed = write(dir.path(), "fixed.pgn", &fixed);
    let (out, _, code) = run(&["check", &fixed]);
    assert_eq!((out.as_str(), code), ("2 games, 0 with errors\n", 0));
}

/// The lines of a converted text that start with `%`, but for notes of ours, in order.
fn percent_lines(s: &str) -> Vec<&str> {
    let ours = |l: &&str| l.starts_with("% scoresheet:");
    s.lines()
        .filter(|l| l.starts_with('%') && !ours(l))
        .collect()
}

/// Two clean games with a `%` line of each kind: before the first game, in its tags, in
/// its movetext, between the games, after the last; one line in a comment that only looks
/// like one.
fn escaped_file() -> String {
    let first = game(1, "1. e4 e5 2. Nf3\n% inside movetext\nNc6 1/2-1/2")
        .replace("[Site", "% inside tags\n[Site");
    let second = game(2, "1. d4 {a comment\n% that is no escape line} d5 1/2-1/2");
    format!(
        "% first line: exported 2021 by Club\n{first}% between games note\n\n{second}% at the end\n"
    )
}

#[test]
fn convert_keeps_every_escape_line_and_a_second_run_changes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = escaped_file();
    let file = write(dir.path(), "escaped.pgn", &text);
    let out = dir.path().join("out.pgn");
    let out = out.to_str().expect("path");
    let (_, err, code) = run(&["convert", &file, "-o", out]);
    assert_eq!((err.as_str(), code), ("", 0));
    let once = std::fs::read_to_string(out).expect("read");
    // Every line, once, in order: those of a game just before it, those between games
    // (after a result) just before the next game, the last at the end.
    assert_eq!(
        percent_lines(&once),
        [
            "% first line: exported 2021 by Club",
            "% inside tags",
            "% inside movetext",
            "% between games note",
            // Comment text, left in its place (and not written twice).
            "% that is no escape line} 1... d5 1/2-1/2",
            "% at the end",
        ],
        "{once}"
    );
    assert!(
        once.starts_with(
            "% first line: exported 2021 by Club\n% inside tags\n% inside movetext\n[Event "
        ),
        "{once}"
    );
    assert!(
        once.contains("1/2-1/2\n\n% between games note\n[Event \"Resync test\"]"),
        "{once}"
    );
    assert!(once.ends_with("1/2-1/2\n\n% at the end\n"), "{once}");
    // The same from standard input, and compressed (a file, or piped); then over itself,
    // twice: the same bytes each time.
    let (piped, _, code) = run_with(&["convert", "-"], text.as_bytes());
    assert_eq!((piped.as_str(), code), (once.as_str(), 0));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, text.as_bytes()).expect("compress");
    let gz = gz.finish().expect("compress");
    let packed = dir.path().join("escaped.pgn.gz");
    std::fs::write(&packed, &gz).expect("write");
    let (unpacked, _, code) = run(&["convert", packed.to_str().expect("path")]);
    assert_eq!((unpacked.as_str(), code), (once.as_str(), 0));
    let (unpacked, _, code) = run_with(&["convert", "-"], &gz);
    assert_eq!((unpacked.as_str(), code), (once.as_str(), 0));
    for _ in 0..2 {
        let (_, err, code) = run(&["convert", &file, "-o", &file]);
        assert_eq!((err.as_str(), code), ("", 0));
        let again = std::fs::read_to_string(&file).expect("read");
        assert_eq!(again, once);
    }
}

#[test]
fn convert_keeps_escape_lines_beside_its_own_notes_and_replaces_the_notes() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Game 2 has an illegal move (copied through, after a note); a note of an earlier run
    // about a game that is now fine lies before game 1 and after game 2.
    let stale = "% scoresheet: game 9 copied as written, not converted: line 1 column 1: old\n";
    // Game 3, after it, has a `%` line of its own, which the next run reads as game 2's.
    let broken = game(2, "1. e4 e5 2. Ke3\n% inside a broken game\nNc6 1/2-1/2");
    let text = format!(
        "{stale}% first\n{}% between\n\n{broken}% after the broken game\n{stale}\n{}",
        game(1, CLEAN),
        game(3, CLEAN).replace("[Site", "% inside game 3\n[Site")
    );
    let file = write(dir.path(), "noted.pgn", &text);
    let (_, err, code) = run(&["convert", &file, "-o", &file]);
    assert_eq!(code, 1, "{err}");
    let once = std::fs::read_to_string(&file).expect("read");
    let want = [
        "% first",
        "% between",
        "% inside a broken game",
        "% after the broken game",
        "% inside game 3",
    ];
    assert_eq!(percent_lines(&once), want, "{once}");
    // One note, for the game copied through, just before it, after the line before it.
    assert_eq!(once.matches("% scoresheet:").count(), 1, "{once}");
    assert!(
        once.contains("% between\n% scoresheet: game 2 copied as written, not converted: "),
        "{once}"
    );
    // Again: the lines stay, the note is replaced (its line number is the new file's),
    // and from then on each run gives the same bytes.
    let (_, _, code) = run(&["convert", &file, "-o", &file]);
    assert_eq!(code, 1);
    let twice = std::fs::read_to_string(&file).expect("read");
    assert_eq!(percent_lines(&twice), want, "{twice}");
    assert_eq!(twice.matches("% scoresheet:").count(), 1, "{twice}");
    assert_eq!(without_notes(&twice), without_notes(&once));
    let (_, _, code) = run(&["convert", &file, "-o", &file]);
    assert_eq!(code, 1);
    assert_eq!(std::fs::read_to_string(&file).expect("read"), twice);
}

#[test]
fn an_escape_line_holding_a_brace_stays_out_of_a_comment_left_open_before_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Game 1's comment is never closed: it ends before game 2's tag line. Game 2's `%`
    // line holds a `}`, which would close that comment were it written before the tag line.
    let open = game(1, "1. e4 { never closed");
    let text = format!(
        "{open}{}",
        game(2, CLEAN).replace("[Site", "% a note }\n[Site")
    );
    let file = write(dir.path(), "open.pgn", &text);
    let mut runs = Vec::new();
    for _ in 0..3 {
        let (_, err, code) = run(&["convert", &file, "-o", &file]);
        assert_eq!((err.lines().count(), code), (1, 1), "{err}");
        let now = std::fs::read_to_string(&file).expect("read");
        assert!(now.contains("1. e4 { never closed\n\n[Event"), "{now}");
        assert_eq!(percent_lines(&now), ["% a note }"], "{now}");
        let (checked, _, _) = run(&["check", &file]);
        assert!(checked.ends_with("2 games, 1 with errors\n"), "{checked}");
        runs.push(now);
    }
    assert_eq!(without_notes(&runs[1]), without_notes(&runs[0]));
    assert_eq!(runs[2], runs[1]);
}
