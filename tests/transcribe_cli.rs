//! `scoresheet transcribe` through the real binary: what a user pipes in, what
//! comes out on standard output and standard error, and the exit code.

use assert_cmd::Command;

fn transcribe(args: &[&str], input: &str) -> (String, String, i32) {
    let out = Command::cargo_bin("scoresheet")
        .unwrap()
        .arg("transcribe")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// The movetext of a PGN game: everything after the tag section, on one line.
fn movetext(pgn: &str) -> String {
    pgn.lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_string()
}

/// The movetext of each game of `pgn`.
fn movetexts(pgn: &str) -> Vec<String> {
    pgn.split("[Event ")
        .skip(1)
        .map(|g| movetext(&format!("[Event {g}")))
        .collect()
}

const HEADER: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
[White \"?\"]\n[Black \"?\"]\n";

#[test]
fn an_old_book_with_figurines_zeros_daggers_and_ep() {
    let text = "1.e4 e5 2.♘f3 ♘c6 3.♗c4 ♗c5 4.b4 ♗:b4 5.c3 ♗a5 6.d4 e:d4 7.0-0 d3\n\
                8.♕b3 ♕f6 9.e5 ♕g6 10.♖e1 ♘ge7 11.♗a3 b5 12.♕:b5 ♖b8 13.♕a4 ♗b6\n\
                14.♘bd2 ♗b7 15.♘e4 ♕f5 16.♗:d3 ♕h5 17.♘f6† g:f6 18.e:f6 ♖g8\n\
                19.♖ad1 ♕:f3 20.♖:e7† ♘:e7 21.♕:d7† ♔:d7 22.♗f5† ♔e8 23.♗d7† ♔f8\n\
                24.♗:e7‡ 1-0";
    let (out, err, code) = transcribe(&[], text);
    assert_eq!(err, "");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!(
            "{HEADER}[Result \"1-0\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4 Bxb4 5. c3 Ba5 6. d4 exd4 7. O-O d3 8. Qb3\n\
Qf6 9. e5 Qg6 10. Re1 Nge7 11. Ba3 b5 12. Qxb5 Rb8 13. Qa4 Bb6 14. Nbd2 Bb7\n\
15. Ne4 Qf5 16. Bxd3 Qh5 17. Nf6+ gxf6 18. exf6 Rg8 19. Rad1 Qxf3 20. Rxe7+ Nxe7\n\
21. Qxd7+ Kxd7 22. Bf5+ Ke8 23. Bd7+ Kf8 24. Bxe7# 1-0\n\n"
        )
    );
}

#[test]
fn a_german_magazine() {
    let text = "1.e4 c5 2.Sf3 d6 3.d4 c:d4 4.S:d4 Sf6 5.Sc3 a6 6.Le3 e5 7.Sb3 Le6 8.f3 Sbd7\n\
                9.Dd2 Le7 10.0-0-0 0-0 11.g4 b5 12.g5 b4 13.Se2 Se8 14.f4 a5 15.f5 a4 16.Sbd4 e:d4\n\
                17.S:d4 b3 18.Kb1 b:c2+ 19.S:c2 Lb3 20.a:b3 a:b3 21.Sa3 Se5 22.h4 Ta4 1:0";
    let (out, err, code) = transcribe(&["--lang", "de"], text);
    assert_eq!((err.as_str(), code), ("", 0));
    let moves = movetext(&out);
    assert!(
        moves.starts_with("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6"),
        "{moves}"
    );
    assert!(moves.contains("10. O-O-O O-O"), "{moves}");
    assert!(moves.contains("18. Kb1 bxc2+ 19. Nxc2 Bb3"), "{moves}");
    assert!(moves.ends_with("22. h4 Ra4 1-0"), "{moves}");
}

#[test]
fn a_correspondence_card_in_iccf_numbers() {
    let text = "1. 5254 3735\n2. 7163 4746\n3. 4244 3544\n4. 6344 7866\n5. 2133 1716\n";
    let (out, _, code) = transcribe(&[], text);
    assert_eq!(code, 0);
    assert_eq!(
        movetext(&out),
        "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *"
    );
}

#[test]
fn a_uci_log() {
    let log = "> uci\n< id name Stockfish 16\n< uciok\n> ucinewgame\n> isready\n< readyok\n\
               > position startpos moves e2e4 c7c5\n> go movetime 1000\n< info depth 10 score cp 35 pv g1f3\n\
               < bestmove g1f3 ponder d7d6\n> position startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6\n\
               > go movetime 1000\n< bestmove c1e3 ponder e7e5\n";
    let (out, err, code) = transcribe(&[], log);
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(
        movetext(&out),
        "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 *"
    );
}

#[test]
fn mixed_notations_comments_glyphs_and_draw_offers() {
    let text = "1. e2-e4 {the king's pawn} c7c5 2. ♘g1-f3 d6!? 3. d4 cd 4. N:d4 Nf6\n\
                5. Nc3 a6 (=) 6. Be3 e5?! 7. Nb3 Be6 8. f3 Be7 9. Qd2 O-O 10. O-O-O Nbd7 ½–½";
    let (out, err, code) = transcribe(&[], text);
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(
        movetext(&out),
        "1. e4 {the king's pawn} 1... c5 2. Nf3 d6 $5 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 \
         {(=)} 6. Be3 e5 $6 7. Nb3 Be6 8. f3 Be7 9. Qd2 O-O 10. O-O-O Nbd7 1/2-1/2"
    );
    assert!(out.contains("[Result \"1/2-1/2\"]"));
}

#[test]
fn a_position_with_black_to_move() {
    let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 40";
    let (out, err, code) = transcribe(&["--fen", fen], "40... d5 41. exd6 e.p. Kd7 42. Kf2 *");
    assert_eq!((err.as_str(), code), ("", 0));
    assert!(out.contains("[SetUp \"1\"]\n[FEN \"4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 40\"]\n"));
    assert_eq!(movetext(&out), "40... d5 41. exd6 Kd7 42. Kf2 *");
    let fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 40";
    let (out, err, code) = transcribe(&["--fen", fen], "40. e4 dxe3 e.p. 41. Kd1 *");
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(movetext(&out), "40. e4 dxe3 41. Kd1 *");
}

#[test]
fn the_first_bad_move_is_reported_with_line_and_column_and_the_game_kept() {
    let text = "1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6\n4. Ba4 Nf6\n5. O-O Be7\n6. Nf3 b5\n";
    let (out, err, code) = transcribe(&[], text);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "6:4: \"Nf3\": illegal: f3 holds a white piece (move 6, White to play)\n"
    );
    // The text from the bad move on is kept in a comment, whitespace made single.
    assert_eq!(
        movetext(&out),
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 {not read (from line 6, column 4): \
         Nf3 b5} *"
    );
}

#[test]
fn a_bad_move_costs_neither_the_rest_of_its_game_nor_the_games_after_it() {
    let text = "[White \"Ann\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf3 4. O-O {long think} 1-0\n\n\
                [White \"Bob\"]\n1. d4 Sf6 2. c4 e6 0-1\n\n\
                1. c4 e5 2. Nc3 Nf6 1/2-1/2\n";
    let (out, err, code) = transcribe(&[], text);
    assert_eq!(code, 1);
    // Each bad move is reported, the German knight with the language that reads it.
    assert_eq!(
        err,
        "2:28: \"Nf3\": illegal: no black knight can reach f3 (move 3, Black to play)\n\
         5:7: \"Sf6\": not a move: 'S' is not a piece letter in English (K Q R B N, pawn P); \
         it is a legal move in German, Polish, Swedish, …: try --lang de\n"
    );
    let games = movetexts(&out);
    assert_eq!(
        games,
        [
            // A line comment, as the kept text has a brace of its own.
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 ;not read (from line 2, column 28): Nf3 4. O-O \
             {long think} 1-0 *",
            "1. d4 {not read (from line 5, column 7): Sf6 2. c4 e6 0-1} *",
            "1. c4 e5 2. Nc3 Nf6 1/2-1/2",
        ]
    );
    assert!(out.contains("[White \"Bob\"]"), "{out}");
    // What was kept reads again: the second run loses nothing more and reads the
    // German game in German.
    let (again, _, _) = transcribe(&["--input-lang", "de"], "1. d4 Sf6 2. c4 e6 0-1");
    assert_eq!(movetext(&again), "1. d4 Nf6 2. c4 e6 0-1");
}

#[test]
fn ambiguous_malformed_and_promotion_errors() {
    let (_, err, code) = transcribe(&["--fen", "4k3/8/8/8/8/8/3N4/4K1N1 w - - 0 1"], "1. Nf3");
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "1:4: \"Nf3\": Nf3 is ambiguous: Ndf3 or Ngf3 (move 1, White to play)\n"
    );
    let (_, err, _) = transcribe(&[], "1. e4 e5 2. Nf3 Nc6 3. Bz5");
    assert_eq!(err, "1:24: \"Bz5\": not a move: unexpected 'z'\n");
    let (_, err, _) = transcribe(&["--fen", "8/4P2k/8/8/8/8/8/4K3 w - - 0 1"], "e8");
    assert!(
        err.starts_with(
            "1:1: \"e8\": the pawn promotes: say to which piece (e8=Q, e8=R, e8=B or e8=N)"
        ),
        "{err}"
    );
    let (_, err, _) = transcribe(&["--lang", "de"], "1. e4 e5 2. Nf3");
    assert!(
        err.contains("'N' is not a piece letter in German (K D T L S, pawn B)"),
        "{err}"
    );
}

#[test]
fn bad_arguments_and_unreadable_files_exit_2() {
    let (_, err, code) = transcribe(&["--lang", "xx"], "e4");
    assert_eq!(code, 2);
    assert!(err.contains("unknown language 'xx'"), "{err}");
    let (_, err, code) = transcribe(&["--fen", "8/8/8 w - - 0 1"], "e4");
    assert_eq!(code, 2);
    assert!(err.contains("--fen: placement: 3 ranks"), "{err}");
    let (_, err, code) = transcribe(&["/no/such/file.txt"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /no/such/file.txt"), "{err}");
}

#[test]
fn reads_a_file_and_latin1_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.txt");
    // "{Café}" in ISO 8859-1: the é is the single byte 0xE9.
    std::fs::write(&path, b"1. d4 {Caf\xe9} d5 2. c4 *").unwrap();
    let (out, err, code) = transcribe(&[path.to_str().unwrap()], "");
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(movetext(&out), "1. d4 {Café} 1... d5 2. c4 *");
}

#[test]
fn the_word_for_mate_in_the_chosen_language() {
    for (lang, text) in [
        ("fr", "1.e4 e5 2.Fc4 Cc6 3.Dh5 Cf6?? 4.D:f7 mat 1-0"),
        ("de", "1.e4 e5 2.Lc4 Sc6 3.Dh5 Sf6?? 4.D:f7 matt 1-0"),
        ("ru", "1.e4 e5 2.Сc4 Кc6 3.Фh5 Кf6?? 4.Ф:f7 мат 1-0"),
    ] {
        let (out, err, code) = transcribe(&["--lang", lang], text);
        assert_eq!((err.as_str(), code), ("", 0), "{lang}");
        assert_eq!(
            movetext(&out),
            "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 $4 4. Qxf7# 1-0"
        );
    }
}

/// Runs `transcribe` on raw bytes; returns (stdout, exit code).
fn transcribe_bytes(input: Vec<u8>) -> (String, i32) {
    let out = Command::cargo_bin("scoresheet")
        .expect("binary")
        .arg("transcribe")
        .write_stdin(input)
        .output()
        .expect("run");
    (
        String::from_utf8(out.stdout).expect("UTF-8 output"),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn text_in_utf16_or_windows_1252_is_read_right() {
    let text = "[White \"Šimun Žagar\"]\n1. e4 e5 2. Nf3 {„good“} *";
    // UTF-16, little-endian, with its byte-order mark (as Windows Notepad saves).
    let mut utf16 = vec![0xff, 0xfe];
    for unit in text.encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    let (out, code) = transcribe_bytes(utf16);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("[White \"Šimun Žagar\"]"), "{out}");
    assert!(out.contains("1. e4 e5 2. Nf3 {„good“} *"), "{out}");
    // Windows-1252, as ChessBase writes: Š, Ž, „ and “ are single bytes in 0x80-0x9F.
    let cp1252 = b"[White \"\x8aimun \x8eagar\"]\n1. e4 e5 2. Nf3 {\x84good\x93} *".to_vec();
    let (out, code) = transcribe_bytes(cp1252);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("[White \"Šimun Žagar\"]"), "{out}");
    assert!(out.contains("{„good“}"), "{out}");
}

#[test]
fn text_after_a_result_is_the_next_game_or_an_error_never_dropped() {
    // Move numbers going on after a result do not start a game: an error, positioned.
    let (out, err, code) = transcribe(&[], "1. e4 e5 1-0 2. Nf3 Nc6");
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "1:14: \"2.\": text after the result 1-0: a game ends at its result, and a next \
         game starts with its tags or with move 1\n"
    );
    assert_eq!(
        movetext(&out),
        "1. e4 e5 {not read (from line 1, column 14): 2. Nf3 Nc6} 1-0"
    );
    // A second pasted game, with tags or from move 1: both games come out.
    let text = "1. e4 e5 2. Nf3 1-0 {won on time}\n\n1. d4 d5 0-1\n\
                [White \"Carol\"]\n[Black \"Dan\"]\n1. c4 e5 White resigns\n1.Nf3 d5 draw";
    let (out, err, code) = transcribe(&[], text);
    assert_eq!((err.as_str(), code), ("", 0));
    let games = movetexts(&out);
    assert_eq!(
        games,
        [
            "1. e4 e5 2. Nf3 {won on time} 1-0",
            "1. d4 d5 0-1",
            "1. c4 e5 0-1",
            "1. Nf3 d5 1/2-1/2"
        ]
    );
    assert!(
        out.contains("[White \"Carol\"]\n[Black \"Dan\"]\n[Result \"0-1\"]"),
        "{out}"
    );
    // Tags after moves start the next game, even without a result between.
    let (out, err, code) = transcribe(&[], "[White \"A\"] 1. e4 e5 [White \"B\"] 1. d4 d5");
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(out.matches("[Event ").count(), 2, "{out}");
    assert!(out.contains("[White \"B\"]"), "{out}");
    // An error in the second game keeps the first whole and the second up to it.
    let (out, err, code) = transcribe(&[], "1. e4 e5 1-0\n1. d4 Ke7");
    assert_eq!(code, 1);
    assert!(err.starts_with("2:7: \"Ke7\": "), "{err}");
    assert!(
        out.contains("1. e4 e5 1-0")
            && out.contains("1. d4 {not read (from line 2, column 7): Ke7} *"),
        "{out}"
    );
}

/// An input with nothing in it is said to be empty, as `check` and `convert` take a file
/// without a game (exit 0, nothing on standard output): no game made of nothing.
#[test]
fn an_empty_input_is_said_to_be_empty_and_writes_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let blank = dir.path().join("blank.txt");
    // Blanks, line ends, tabs and a UTF-8 byte-order mark: still no text.
    std::fs::write(&blank, "\u{feff} \n\t\r\n  \n").unwrap();
    let empty = empty.to_str().unwrap();
    let blank = blank.to_str().unwrap();
    for (args, input, name) in [
        (vec![empty], "", empty),
        (vec![blank], "", blank),
        (vec![], "", "standard input"),
        (vec!["-"], " \n\n", "standard input"),
    ] {
        let (out, err, code) = transcribe(&args, input);
        assert_eq!(out, "", "{args:?}");
        assert_eq!(
            err,
            format!("scoresheet transcribe: {name} is empty: nothing to transcribe\n"),
            "{args:?}"
        );
        assert_eq!(code, 0, "{args:?}");
    }
}

/// A text of comments alone is text: kept in a game of its own, as `convert` keeps it,
/// never dropped as if it were empty.
#[test]
fn a_text_of_comments_alone_is_kept() {
    let (out, err, code) = transcribe(&[], "{Round 3 sheet, torn}\n; board 4\n");
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(movetext(&out), "{Round 3 sheet, torn} {board 4} *");
}
