//! A game of a many-game file, edited in the real binary: killed before it was saved,
//! recovered, and saved back into its place, the file's other games untouched.

mod pty;

use pty::{keys, main_lines, Term};

const FIVE: &str = "\
[Event \"G1\"]\r\n[White \"Anand\"]\r\n\r\n1. e4 e5 {open} 2. Nf3 *\r\n\r\n\
[Event \"G2\"]\r\n\r\n1. d4 d5 (1... Nf6) *\r\n\r\n\
[Event \"G3\"]\r\n[White \"Kasparov\"]\r\n\r\n1. c4 e5 *\r\n\r\n\
[Event \"G4\"]\r\n\r\n1. Nf3 *\r\n\r\n\
[Event \"G5\"]\r\n\r\n1. f4 d5 1-0";

/// Open game 3 of a 5-game file, add a move, kill the program; another program then
/// edits game 1 (so game 3 moves in the file). The recovered game saved with `:w`
/// replaces game 3 where it is now; every other byte of the file is as it was.
#[test]
fn an_edited_game_killed_recovered_and_saved_goes_back_into_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("five.pgn");
    std::fs::write(&file, FIVE).unwrap();

    let mut term = Term::spawn(dir.path(), &["new"], 100, 30);
    term.wait_for("White to move");
    term.line(":e five.pgn 3", "game 3 of five.pgn");
    term.line("Nc3", "2... ▏");
    term.signal("KILL");
    term.wait_exit();

    // Game 1 edited by another program: game 3 is further on now.
    let edited = FIVE.replace("{open}", "{the open game, edited elsewhere}");
    std::fs::write(&file, &edited).unwrap();

    let mut term = Term::spawn(dir.path(), &[], 100, 30);
    term.wait_for("Unsaved games found");
    term.send(keys::ENTER);
    term.wait_for("recovered 2 moves:");
    // No list of the file is open: its games before it are counted, and the corner
    // says which game it is (game 3 still, as game 1 was only edited).
    term.wait_for("game 3 in ");
    term.line(":w", "saved to");
    term.line(":q", "");
    term.wait_exit();

    let after = std::fs::read(&file).unwrap();
    let g3 = edited.find("[Event \"G3\"]").unwrap();
    let g4 = edited.find("\r\n\r\n[Event \"G4\"]").unwrap();
    let tail = &edited.as_bytes()[g4..];
    assert_eq!(after[..g3], edited.as_bytes()[..g3], "games 1 and 2");
    assert!(after.ends_with(tail), "games 4 and 5");
    let lines = main_lines(&after);
    assert_eq!(lines.len(), 5, "{}", String::from_utf8_lossy(&after));
    assert_eq!(lines[2], ["c4", "e5", "Nc3"]);
    let game3 = String::from_utf8_lossy(&after[g3..after.len() - tail.len()]).into_owned();
    assert!(
        game3.contains("Kasparov") && game3.contains("\r\n"),
        "{game3}"
    );
}

/// A game of a zstd-compressed file, edited and saved with `:w`: the file is still
/// zstd, and its text outside the game is byte for byte as it was.
#[test]
fn a_game_of_a_compressed_file_is_saved_back_compressed() {
    use scoresheet::store::Compression;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("five.pgn.zst");
    std::fs::write(&file, zstd::encode_all(FIVE.as_bytes(), 3).unwrap()).unwrap();

    let mut term = Term::spawn(dir.path(), &["new"], 100, 30);
    term.wait_for("White to move");
    term.line(":e five.pgn.zst 3", "game 3 of five.pgn.zst");
    term.line("Nc3", "2... ▏");
    term.line(":w", "saved to");
    term.line(":q", "");
    term.wait_exit();

    let packed = std::fs::read(&file).unwrap();
    assert_eq!(Compression::of(&packed), Some(Compression::Zstd));
    let after = zstd::decode_all(&packed[..]).unwrap();
    let g3 = FIVE.find("[Event \"G3\"]").unwrap();
    let tail = &FIVE.as_bytes()[FIVE.find("\r\n\r\n[Event \"G4\"]").unwrap()..];
    assert_eq!(after[..g3], FIVE.as_bytes()[..g3]);
    assert!(after.ends_with(tail));
    assert_eq!(main_lines(&after)[2], ["c4", "e5", "Nc3"]);
}

/// Another program edits the open game in the file: `:w` is refused, says what
/// happened and what to do, and the file keeps the other program's edit.
#[test]
fn a_game_changed_on_disk_is_not_clobbered() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("five.pgn");
    std::fs::write(&file, FIVE).unwrap();

    let mut term = Term::spawn(dir.path(), &["new"], 100, 30);
    term.wait_for("White to move");
    term.line(":e five.pgn 2", "game 2 of five.pgn");
    term.line("c4", "2... ▏");
    let edited = FIVE.replace("(1... Nf6)", "(1... Nf6 2. c4)");
    std::fs::write(&file, &edited).unwrap();
    term.line(
        ":w",
        "game 2 of five.pgn not saved: another program changed or deleted this game",
    );
    term.wait_for(":w OTHER.pgn");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);
    // Saved elsewhere instead.
    term.line(":w mine.pgn", "saved to");
    term.line(":q", "");
    term.wait_exit();
    let mine = std::fs::read(dir.path().join("mine.pgn")).unwrap();
    assert_eq!(main_lines(&mine), [["d4", "d5", "c4"]]);
}

/// A game of a file's list saved under another name: the status corner says which
/// game of that file it is now (the list's file no longer holds this copy), for a new
/// file and for one it is added to, and a later `:w` keeps it so.
#[test]
fn a_game_saved_under_another_name_says_which_game_of_that_file_it_is() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("five.pgn"), FIVE).unwrap();
    let two = "[Event \"A\"]\n\n1. e4 *\n\n[Event \"B\"]\n\n1. d4 *\n";
    std::fs::write(dir.path().join("two.pgn"), two).unwrap();

    let mut term = Term::spawn(dir.path(), &["five.pgn"], 100, 30);
    term.wait_for("5 games");
    term.send(keys::DOWN);
    term.send(keys::ENTER);
    term.wait_for("game 2 of 5 in five.pgn");
    term.line(":w mine.pgn", "saved to");
    term.wait_for("game 1 of 1 in mine.pgn");
    term.line("c4", "2... ▏");
    term.line(":w", "saved to");
    term.wait_for("game 1 of 1 in mine.pgn");
    term.line(":w two.pgn", "saved to");
    term.wait_for("game 3 of 3 in two.pgn");
    term.line(":q", "");
    term.wait_exit();
    let mine = std::fs::read(dir.path().join("mine.pgn")).unwrap();
    assert_eq!(main_lines(&mine), [["d4", "d5", "c4"]]);
    let two = std::fs::read(dir.path().join("two.pgn")).unwrap();
    assert_eq!(main_lines(&two)[2], ["d4", "d5", "c4"]);
    assert_eq!(main_lines(&two).len(), 3);
}

/// A game pasted over a file's list and written into that file with `:w`: back on the
/// list it is there, last and selected, the count takes it in, and the previous game
/// from it is the file's game before it.
#[test]
fn a_game_added_to_the_lists_file_shows_in_the_list() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("five.pgn"), FIVE).unwrap();

    let mut term = Term::spawn(dir.path(), &["five.pgn"], 100, 30);
    term.wait_for("5 games");
    term.send("\x1b[200~[White \"Ann\"]\n\n1. d4 d5 *\n\x1b[201~");
    term.wait_for("1. d4");
    term.line(":w five.pgn", "saved to");
    term.wait_for("game 6 of 6 in five.pgn");
    term.send(keys::CTRL_L);
    term.wait_for("6 games");
    let selected = term.reversed_rows();
    assert!(
        selected.len() == 1 && selected[0].contains("Ann"),
        "{selected:?}"
    );
    term.send(keys::CTRL_L);
    term.send(keys::ALT_UP);
    term.wait_for("game 5 of 6 in five.pgn");
    term.line(":q", "");
    term.wait_exit();
    assert_eq!(
        main_lines(&std::fs::read(dir.path().join("five.pgn")).unwrap()).len(),
        6
    );
}

/// A file of one game, written and opened again: the status corner says the same,
/// `game 1 of 1 in one.pgn`, both times.
#[test]
fn a_one_game_file_says_game_1_of_1_after_saving_and_after_opening() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["one.pgn"], 100, 30);
    term.wait_for("White to move");
    term.line("e4 e5", "2. ▏");
    term.line(":w", "saved to");
    term.wait_for("game 1 of 1 in one.pgn");
    term.line(":q", "");
    term.wait_exit();

    let mut term = Term::spawn(dir.path(), &["one.pgn"], 100, 30);
    term.wait_for("game 1 of 1 in one.pgn");
    term.line(":q", "");
    term.wait_exit();
}

/// A file of one game with a move that cannot be played opens for repair: its status
/// corner says `game 1 of 1 in bad.pgn`, as a file of one game read whole does, also
/// once the repair is saved.
#[test]
fn a_one_game_file_opened_for_repair_says_game_1_of_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.pgn"),
        "[White \"Typo\"]\n\n1. e4 e5 2. Nf3 Qe4 3. Nc3 Nc6 *\n",
    )
    .unwrap();
    let mut term = Term::spawn(dir.path(), &["bad.pgn"], 100, 30);
    term.wait_for("opened up to there");
    term.wait_for("game 1 of 1 in bad.pgn");
    term.line("Qe7", "corrected");
    term.line(":w", "saved to");
    term.wait_for("game 1 of 1 in bad.pgn");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
    assert_eq!(
        main_lines(&std::fs::read(dir.path().join("bad.pgn")).unwrap()),
        [["e4", "e5", "Nf3", "Qe7", "Nc3", "Nc6"]]
    );
}

/// `:w` to a named pipe, a device or a directory is refused with the reason, and the
/// recorder goes on: a pipe with no program at its other end froze the screen for ever
/// (looking at its first bytes for a compression waited for a writer).
#[cfg(unix)]
#[test]
fn saving_to_a_pipe_a_device_or_a_directory_is_refused_and_the_screen_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("pipe.pgn"))
        .status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo failed");
    std::fs::create_dir(dir.path().join("folder.pgn")).unwrap();
    let mut term = Term::spawn(dir.path(), &["new"], 120, 30);
    term.wait_for("White to move");
    term.line("e4", "1... ▏");
    for (target, said) in [
        (
            "pipe.pgn",
            "cannot save to pipe.pgn: it is not a regular file",
        ),
        (
            "/dev/null",
            "cannot save to /dev/null: it is not a regular file",
        ),
        ("folder.pgn", "not saved"),
    ] {
        term.line(&format!(":w {target}"), said);
    }
    term.line("e5", "2. ▏");
    term.line(":w kept.pgn", "saved to");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
    assert_eq!(
        main_lines(&std::fs::read(dir.path().join("kept.pgn")).unwrap()),
        [["e4", "e5"]]
    );
}
