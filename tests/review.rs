//! Reviewing a file of many games in the real binary, as a user would: open it, filter
//! the list by a player, sort it, open a game, step into a variation, comment on a move,
//! add a variation, undo and redo, save with `:w`, quit, open the file again and compare.
//! The file's other games must keep every byte; a game changed on disk meanwhile must
//! not be overwritten; a compressed file opens and lists. One run uses the suite's own
//! fixture (`tests/data/review_club.pgn`), one a real player file from
//! `../shared/data/games` when it is there.

mod data_dirs;
mod pty;

use std::path::Path;

use pty::{keys, sans, Term};
use scoresheet::catalog::{Catalog, Column};
use scoresheet::game::Game;
use scoresheet::plural::grouped;

const CLUB: &str = include_str!("data/review_club.pgn");

/// The games of a PGN text, each read without a problem.
fn games(pgn: &[u8]) -> Vec<Game> {
    scoresheet::pgn::builder::read_games(pgn)
        .into_iter()
        .map(|g| {
            assert!(g.errors.is_empty(), "{:?}", g.errors);
            g.game
        })
        .collect()
}

/// The byte range of game `number` (from 1) of `pgn`, as the list reads it.
fn range_of(pgn: &[u8], number: u64) -> (usize, usize) {
    let catalog = Catalog::read(pgn).expect("the file lists");
    let row = catalog.game(number).expect("the game is listed");
    (row.offset as usize, (row.offset + row.len) as usize)
}

/// Asserts that `after` is `before` with only the bytes of `range` replaced.
fn only_the_game_changed(before: &[u8], after: &[u8], (start, end): (usize, usize)) {
    assert_eq!(
        after[..start],
        before[..start],
        "the games before the edited one are byte for byte as they were"
    );
    assert!(
        after.ends_with(&before[end..]),
        "the games after the edited one are byte for byte as they were"
    );
}

/// The whole movetext of a game as the writer puts it, for reading what a save kept.
/// (on one line: the writer wraps its lines).
fn pgn_of(game: &Game) -> String {
    scoresheet::pgn::writer::write_game_to_string(game)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Waits for the list's selected game (its row drawn in reverse video across the
/// screen) to be the one showing every one of `needles`; fails with the screen after 10 s.
fn wait_selected(term: &Term, needles: &[&str]) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let rows = term.reversed_rows();
        if let [row] = &rows[..] {
            if needles.iter().all(|n| row.contains(n)) {
                return row.clone();
            }
        }
        if std::time::Instant::now() > deadline {
            panic!(
                "waited 10 s for the selected row to show {needles:?}; rows in reverse \
                 video: {rows:?}; the screen:\n{}",
                term.text()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Opens `file` (in the run's directory) and waits for the list to count `games`.
fn open_list(dir: &Path, file: &str, games: &str) -> Term {
    let mut term = Term::spawn(dir, &[file], 100, 30);
    term.wait_for(games);
    // Nothing typed yet reads as a key: the list has no entry line.
    term.send("?");
    term.wait_for("Show the keys and commands");
    term.escape("Show the keys and commands");
    term
}

/// The whole review of the club file: filter, sort, open, step into a variation,
/// comment, add a variation, undo and redo, save; next and previous game in the list's
/// order; back to the list as it was left; quit, reopen, and find the edits (and only
/// them) in the file.
#[test]
fn a_game_of_a_club_file_reviewed_annotated_and_saved_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.pgn");
    std::fs::write(&file, CLUB).unwrap();

    let mut term = open_list(dir.path(), "club.pgn", "7 games");
    // Filter by a player, misspelt: the list narrows as the letters come.
    term.send("/carlsn");
    term.wait_for("3 of 7 match");
    term.send(keys::ENTER);
    // The newest first, then (again) the oldest first: game 5 (2 March), game 3 (9 March),
    // game 1 (16 March).
    term.send("d");
    term.wait_for("sorted by date, newest first");
    term.send("d");
    term.wait_for("sorted by date, oldest first");
    // The sort shows the top of the new order: game 5 is selected (the selection was on
    // game 1, now the last row); the second row is game 3.
    wait_selected(&term, &["Nakamura, Hikaru", "2024.03.02"]);
    term.send(keys::DOWN);
    wait_selected(&term, &["Anand", "2024.03.09"]);
    term.send(keys::ENTER);
    term.wait_for("game 3 of club.pgn");

    // The next game in the list's order is game 1 (not game 4, the next in the file),
    // and back.
    term.send(keys::ALT_DOWN);
    term.wait_for("game 1 of club.pgn");
    term.send(keys::ALT_UP);
    term.wait_for("game 3 of club.pgn");
    // The list as it was left: filtered, sorted, the open game selected; and back.
    term.send(keys::CTRL_L);
    let screen = term.wait_for("3 of 7 match");
    assert!(screen.contains("/carlsn"), "{screen}");
    assert!(screen.contains("Date▲"), "{screen}");
    wait_selected(&term, &["Anand", "2024.03.09"]);
    term.send(keys::CTRL_L);
    term.wait_for("Carlsen answers the Spanish.");

    // Into the variation 2...d6 (at the fork after 2.Nf3, Down chooses it), on to
    // 3.d4, and a comment after it.
    for _ in 0..3 {
        term.send(keys::RIGHT);
    }
    term.send(keys::DOWN);
    term.send(keys::SHIFT_RIGHT);
    term.send(keys::RIGHT);
    term.send(keys::CTRL_K);
    term.wait_for("comment after 3.d4");
    term.send("the open game");
    term.send(keys::ENTER);
    term.wait_for("Ctrl-Z to undo");

    // Back to the main line, and a variation of our own: 3.Bc4 Bc5 4.c3; the last move
    // undone, and the one before undone and redone.
    // Leaving it goes back to the fork with the variation chosen: Up chooses the main
    // line again.
    term.send(keys::SHIFT_LEFT);
    term.wait_for("next: Nc6 [d6]");
    term.send(keys::UP);
    term.wait_for("next: [Nc6] d6");
    term.send(keys::RIGHT);
    term.line(":inside variation", "[variation]");
    term.line("Bc4", "3...");
    term.line("Bc5", "4. ▏");
    term.line("c3", "4... ▏");
    term.send(keys::CTRL_Z);
    term.wait_for("undid:");
    term.wait_for("4. ▏");
    term.send(keys::CTRL_Z);
    term.wait_for("3... ▏");
    term.send(keys::CTRL_Y);
    term.wait_for("redid:");
    term.wait_for("4. ▏");
    term.line(":w", "saved to");
    // The saved game is longer: the games after it in the file moved, and the list
    // follows them. Game 5 (before game 3 in the list, after it in the file) opens, and
    // game 3 opens again with its edits.
    term.send(keys::ALT_UP);
    term.wait_for("game 5 of 7 in club.pgn");
    term.wait_for("4.Nxd4");
    term.send(keys::ALT_DOWN);
    term.wait_for("game 3 of 7 in club.pgn");
    term.wait_for("the open game");
    // A tag changed and saved: back on the list, the game's row shows it, and the sort
    // by date moves it first (1 March, before game 5's 2 March), still selected.
    term.line(":tag Date 2024.03.01", "Date = 2024.03.01");
    term.line(":w", "saved to");
    term.send(keys::CTRL_L);
    term.wait_for("3 of 7 match");
    let row = wait_selected(&term, &["Anand", "2024.03.01"]);
    let first = term
        .text()
        .lines()
        .find(|l| l.contains("2024.03"))
        .map(str::to_string);
    assert_eq!(first.as_deref(), Some(row.as_str()), "{}", term.text());
    term.send(keys::CTRL_L);
    term.wait_for("the open game");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen(), "the terminal is restored");

    let after = std::fs::read(&file).unwrap();
    only_the_game_changed(CLUB.as_bytes(), &after, range_of(CLUB.as_bytes(), 3));
    let saved = games(&after);
    assert_eq!(saved.len(), 7);
    let before = games(CLUB.as_bytes());
    assert_eq!(
        sans(&saved[2]),
        sans(&before[2]),
        "the main line is as it was"
    );
    let text = pgn_of(&saved[2]);
    assert!(
        text.contains("(2... d6 {Philidor's defence} 3. d4 {the open game})"),
        "{text}"
    );
    assert!(text.contains("(3. Bc4 Bc5)"), "{text}");
    assert!(
        !text.contains(" c3"),
        "the undone move is not saved: {text}"
    );

    // Opened again, the game shows the comment.
    let mut term = open_list(dir.path(), "club.pgn", "7 games");
    term.send("/anand");
    term.wait_for("1 of 7 match");
    term.send(keys::ENTER);
    term.send(keys::ENTER);
    term.wait_for("game 3 of club.pgn");
    term.wait_for("the open game");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
}

/// Another program edits the open game while it is being annotated: `:w` says so and
/// leaves the file with the other program's edit; `:w OTHER.pgn` keeps ours.
#[test]
fn a_game_changed_on_disk_while_annotated_is_not_clobbered() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.pgn");
    std::fs::write(&file, CLUB).unwrap();

    let mut term = open_list(dir.path(), "club.pgn", "7 games");
    term.send("/ding caruana");
    term.wait_for("2 of 7 match");
    term.send(keys::ENTER);
    term.send(keys::ENTER);
    term.wait_for("game 2 of club.pgn");
    term.send(keys::END);
    term.line("{a quiet draw", "comment");

    let edited = CLUB.replace("Nf3 Be7 1/2-1/2", "Nf3 Be7 5. Bg5 1/2-1/2");
    std::fs::write(&file, &edited).unwrap();
    // Which game of which file was refused, then why.
    term.line(
        ":w",
        "game 2 of club.pgn not saved: another program changed or deleted this game",
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);
    term.line(":w mine.pgn", "saved to");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);
    let mine = std::fs::read(dir.path().join("mine.pgn")).unwrap();
    let mine = games(&mine);
    assert_eq!(mine.len(), 1);
    assert!(pgn_of(&mine[0]).contains("Be7 {a quiet draw}"));
}

/// A gzip and a zstd copy of the club file, made here, open as the plain file does: the
/// list counts its games and Enter opens the selected one.
#[test]
fn a_compressed_file_opens_and_lists() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(CLUB.as_bytes()).unwrap();
    std::fs::write(dir.path().join("club.pgn.gz"), gz.finish().unwrap()).unwrap();
    let zst = zstd::encode_all(CLUB.as_bytes(), 3).unwrap();
    std::fs::write(dir.path().join("club.pgn.zst"), zst).unwrap();

    for name in ["club.pgn.gz", "club.pgn.zst"] {
        let mut term = open_list(dir.path(), name, "7 games");
        term.wait_for("Ljubojević");
        term.send(keys::END);
        wait_selected(&term, &["Ann Example"]);
        term.send(keys::ENTER);
        term.wait_for(&format!("game 7 of {name}"));
        term.wait_for("Nxe4");
        // Saved (the whole file compressed again), the game read again has the edit:
        // it is not read from the copy decoded before the save.
        term.send(keys::END);
        term.line("{resaved", "comment on 18.d5");
        term.line(":w", "saved to");
        term.send(keys::ALT_UP);
        term.wait_for(&format!("game 6 of 7 in {name}"));
        term.send(keys::ALT_DOWN);
        term.wait_for(&format!("game 7 of 7 in {name}"));
        term.send(keys::END);
        term.wait_for("resaved");
        term.send(keys::CTRL_C);
        assert_eq!(term.wait_exit(), 0);
    }
}

/// A save into a compressed file writes the whole file again, which keeps the screen
/// waiting (minutes for a big `.xz`): the screen says so before it starts, not only
/// "saved to" once it is done.
#[test]
fn a_save_into_a_compressed_file_says_first_that_it_takes_a_while() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut text = CLUB.to_string();
    for n in 0..300 {
        text.push_str(&format!(
            "\n[Event \"Filler {n}\"]\n[White \"W{n}\"]\n[Black \"B{n}\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n"
        ));
    }
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 6);
    xz.write_all(text.as_bytes()).unwrap();
    std::fs::write(dir.path().join("club.pgn.xz"), xz.finish().unwrap()).unwrap();

    let mut term = open_list(dir.path(), "club.pgn.xz", "307 games");
    term.send(keys::ENTER);
    term.wait_for("game 1 of club.pgn.xz");
    term.line("{kept", "comment on");
    term.watch("the whole file is compressed again (xz)");
    term.line(":w", "saved to");
    assert!(
        term.seen(),
        "no screen said what the save does: {}",
        term.text()
    );
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
}

/// A real player file (Capablanca's games, CRLF line ends, as downloaded), decompressed
/// here: the games against Alekhine found by a filter, the second one in date order
/// annotated with a first move of our own, a comment in it and an undo and redo, saved
/// back; every other game of the file keeps its bytes.
#[test]
fn a_real_player_file_reviewed_and_saved_back() {
    let Some(data) = data_dirs::shared_data("games", "the review of a real file") else {
        return;
    };
    let packed = std::fs::read(data.join("pgnmentor-Capablanca.pgn.xz")).unwrap();
    let mut before = Vec::new();
    std::io::Read::read_to_end(&mut liblzma::read::XzDecoder::new(&packed[..]), &mut before)
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("capablanca.pgn");
    std::fs::write(&file, &before).unwrap();

    // What the list will show, worked out with the library.
    let mut catalog = Catalog::read(&before[..]).unwrap();
    let total = catalog.games();
    catalog.set_filter("player:alekhine").unwrap();
    catalog.sort_by(Column::Date);
    let matches = catalog.matches();
    assert!(matches > 10, "Capablanca met Alekhine often");
    let number = catalog.get(1).unwrap().number;
    let (start, end) = range_of(&before, number);
    let game = &games(&before[start..end])[0];
    let first = game.node(game.mainline()[0]).san.clone();
    let ours = if first == "e4" { "d4" } else { "e4" };

    let mut term = Term::spawn(dir.path(), &["capablanca.pgn"], 120, 40);
    let count = format!("{} games", grouped(total));
    term.wait_for(&count);
    term.send("/player:alekhine");
    term.wait_for(&format!("{matches} of {} match", grouped(total)));
    term.send(keys::ENTER);
    term.send("d");
    term.wait_for("sorted by date, newest first");
    term.send(keys::HOME);
    term.send(keys::DOWN);
    term.send(keys::ENTER);
    term.wait_for(&format!("game {number} of capablanca.pgn"));

    // At the start, a first move of our own is a variation; out of it and back in,
    // then a comment on its reply.
    term.line(":inside variation", "[variation]");
    term.line(ours, "1... ▏");
    term.line("d5", "2. ▏");
    term.send(keys::SHIFT_LEFT);
    term.send(keys::SHIFT_RIGHT);
    term.send(keys::RIGHT);
    term.send(keys::CTRL_K);
    term.wait_for("comment after 1...d5");
    term.send("a try of our own");
    term.send(keys::ENTER);
    term.wait_for("Ctrl-Z to undo");
    term.send(keys::CTRL_Z);
    term.wait_for("undid:");
    term.send(keys::CTRL_Y);
    term.wait_for("redid:");
    term.line(":w", "saved to");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);

    let after = std::fs::read(&file).unwrap();
    only_the_game_changed(&before, &after, (start, end));
    let edited = &games(&after[start..after.len() - (before.len() - end)])[0];
    assert_eq!(sans(edited), sans(game), "the main line is as it was");
    let text = pgn_of(edited);
    assert!(
        text.contains(&format!("(1. {ours} d5 {{a try of our own}})")),
        "{text}"
    );
    assert!(
        after[start..after.len() - (before.len() - end)]
            .windows(2)
            .any(|w| w == b"\r\n"),
        "the game is written with the file's CRLF line ends"
    );
}

/// A directory holding club.pgn, and one game left unsaved by a killed recorder for each
/// of `firsts` (its first move).
fn club_after_a_crash(firsts: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("club.pgn"), CLUB).unwrap();
    for first in firsts {
        let mut term = Term::spawn(dir.path(), &["new"], 100, 30);
        term.wait_for("White to move");
        term.line(first, "1... ▏");
        term.signal("KILL");
        term.wait_exit();
    }
    dir
}

/// A game left unsaved by a killed run is offered when a file of many games is opened
/// next: the box is drawn over the list (it takes the keys, so an unseen box would
/// swallow them), and once it is closed the list works.
#[test]
fn the_recovery_box_shows_over_the_list() {
    let dir = club_after_a_crash(&["e4"]);

    let mut term = Term::spawn(dir.path(), &["club.pgn"], 100, 30);
    term.wait_for("Unsaved games found");
    // The list is read in the background: End goes to the last game listed *so far*,
    // so it waits for the whole file (on a busy machine the box can be up before a
    // single row is in).
    term.wait_for("7 games");
    term.escape("Unsaved games found");
    term.send(keys::END);
    wait_selected(&term, &["Ann Example"]);
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
}

/// Keys typed at once over the box are not lost: it says that other keys are the list's,
/// and `/` typed straight away closes it and starts the filter, which takes the words
/// after it (before, the `/` only closed the box and the letters sorted the list).
#[test]
fn a_filter_typed_at_once_over_the_recovery_box_filters_the_list() {
    let dir = club_after_a_crash(&["e4"]);

    let mut term = Term::spawn(dir.path(), &["club.pgn"], 100, 30);
    term.wait_for("other keys: the list");
    term.wait_for("7 games");
    term.send("/caruana");
    term.wait_for("of 7 match");
    term.wait_for("/caruana");
    assert!(!term.text().contains("Unsaved games found"));
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
}

/// The box over the list answers to the keys it names: Down chooses, Delete asks, Esc
/// takes the question back, Enter recovers (over the list, Enter is also the list's key
/// to open a game, and Delete none of its keys).
#[test]
fn the_recovery_box_over_the_list_recovers_with_enter() {
    let dir = club_after_a_crash(&["e4", "d4"]);

    let mut term = Term::spawn(dir.path(), &["club.pgn"], 100, 30);
    term.wait_for("Unsaved games found");
    term.wait_for("7 games");
    term.send(keys::DOWN);
    term.send(keys::DELETE);
    term.wait_for("discard game 2 for good");
    term.escape("discard game 2 for good");
    term.send(keys::ENTER);
    term.wait_for("recovered 1 move");
    let screen = term.wait_for("1... ▏");
    assert!(!screen.contains("Unsaved games found"), "{screen}");
    term.line(":q!", "");
    assert_eq!(term.wait_exit(), 0);
}

/// Ctrl-J starts a new line in the comment editor, as its help line says: a terminal
/// sends it as a line feed, which is not Enter (Enter sends a carriage return).
#[test]
fn ctrl_j_starts_a_new_line_of_a_comment() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.pgn");
    std::fs::write(&file, CLUB).unwrap();
    let mut term = open_list(dir.path(), "club.pgn", "7 games");
    term.send(keys::ENTER);
    term.wait_for("game 1 of club.pgn");
    term.send(keys::RIGHT);
    term.send(keys::CTRL_K);
    term.wait_for("comment after 1.d4");
    term.send("first line");
    term.send("\n");
    term.send("second line");
    term.wait_for("second line");
    term.send(keys::ENTER);
    term.wait_for("Ctrl-Z to undo");
    term.line(":w", "saved to");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("1. d4 {first line\nsecond line}"),
        "{}",
        &text[..400]
    );
}

/// Once the list is read, its games are checked move by move in the background: a game
/// with an illegal move is marked, selecting it says where and why, and it opens for
/// repair.
#[test]
fn a_game_with_an_illegal_move_is_marked_in_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[White \"Good\"]\n[Black \"One\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n\
                [White \"Bad\"]\n[Black \"Two\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
                [White \"Good\"]\n[Black \"Three\"]\n[Result \"*\"]\n\n1. d4 *\n";
    std::fs::write(dir.path().join("three.pgn"), text).unwrap();
    let mut term = Term::spawn(dir.path(), &["three.pgn"], 100, 30);
    term.wait_for("3 games");
    let screen = term.wait_for("✗");
    // The rows of the list (the status line may speak of the mark too).
    let marked: Vec<&str> = screen
        .lines()
        .filter(|l| l.contains('✗') && l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(marked.len(), 1, "{screen}");
    assert!(marked[0].contains("Bad"), "{screen}");
    term.send(keys::DOWN);
    wait_selected(&term, &["Bad"]);
    term.wait_for("game 2 ✗ line 11 column 13 \"Ke3\"");
    term.send(keys::ENTER);
    term.wait_for("Ke3");
    // On the game screen (the list has no entry line), where the repair waits.
    term.wait_for("2. ▏");
    term.wait_for("game 2 of 3 in three.pgn");
    // Opened for repair, the game counts as changed: quitting asks once more.
    term.send(keys::CTRL_C);
    term.wait_for("press again to quit");
    term.send(keys::CTRL_C);
    term.wait_exit();
}
