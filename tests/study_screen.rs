//! Position search and the opening tree in the real binary, in a pseudo-terminal: the tree
//! pane opened on a game of a file, following the cursor, `:search` from the board
//! filtering the list and opening a game where it reaches the position, and Enter playing
//! the tree's selected move. The file is the suite's own `tests/data/search_games.pgn`.

mod data_dirs;
mod pty;

use pty::{keys, Term};

const ALT_Y: &str = "\x1by";

/// Waits (10 s at most) until the screen satisfies `done`; returns it.
fn wait_until(term: &Term, what: &str, done: impl Fn(&str) -> bool) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let text = term.text();
        if done(&text) {
            return text;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "waited 10 s for {what}; the screen shows:\n{text}"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Opens a copy of the suite's fixture `name` as `games.pgn` in the real binary, in a
/// `width`×`height` terminal with a cache directory of its own (where the index goes).
fn open_copy(name: &str, width: u16, height: u16) -> (tempfile::TempDir, Term) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(data_dirs::fixture(name), dir.path().join("games.pgn")).expect("copy");
    let cache = dir.path().join("cache");
    let cache = cache.to_str().expect("path");
    let term = Term::spawn_with(
        dir.path(),
        &["games.pgn"],
        width,
        height,
        &[("SCORESHEET_CACHE_DIR", cache)],
    );
    (dir, term)
}

/// The screen with runs of blanks made one: the pane's columns, as words.
fn words(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}
const ALT_J: &str = "\x1bj";

#[test]
fn the_tree_pane_follows_the_cursor_and_search_opens_games_at_the_position() {
    let (dir, mut term) = open_copy("search_games.pgn", 100, 32);
    term.wait_for("Nimzo");
    term.send(keys::ENTER);
    term.wait_for("game 1 of games.pgn");
    // The tree at the start: four games start from the usual position.
    term.send(ALT_Y);
    let screen = term.wait_for("4 games        1-0");
    assert!(screen.contains("Opening tree"), "{screen}");
    assert!(
        words(&screen).contains("d4 2 50% 0% 50% 2300 2010"),
        "{screen}"
    );
    // It follows the cursor: after 3. Nc3 three games are there, by two move orders.
    for _ in 0..5 {
        term.send(keys::RIGHT);
    }
    let screen = term.wait_for("3 games        1-0");
    assert!(
        words(&screen).contains("Bb4 2 50% 50% 0% 2367 2005"),
        "{screen}"
    );
    assert!(words(&screen).contains("d5 1 0% 0% 100% 2010"), "{screen}");
    // :search lists those three games; Enter opens the first where it reaches it.
    term.line(":search", "3 games reach this position");
    term.wait_for("3 of 8 match");
    term.send(keys::ENTER);
    // The game screen again (the list's lines gone), at 3. Nc3: the tree there, not at the
    // start.
    wait_until(&term, "game 1 at 3. Nc3", |s| {
        !s.contains("of 8 match")
            && s.contains("game 1 of 8 in games.pgn")
            && s.contains("3 games        1-0")
    });
    // Alt-J selects d5, Enter (nothing typed) plays it: a variation here.
    term.send(ALT_J);
    term.send(keys::ENTER);
    term.wait_for("(1 ended here)");
    term.line(":q!", "");
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen(), "the terminal is restored");
    // The index went to the cache, not beside the file.
    assert!(std::fs::read_dir(dir.path().join("cache/index"))
        .expect("the cache has an index")
        .next()
        .is_some());
}

/// A `pos:` term typed on the list's filter line: the list shows every game while the
/// position is searched for ("searching"), then the games that reach it, combined with
/// the other terms; Enter opens one where it reaches the position.
#[test]
fn a_typed_pos_filter_lists_the_games_that_reach_the_position() {
    let (_dir, mut term) = open_copy("pos_games.pgn", 100, 24);
    term.wait_for("Botvinnik");
    term.send("/");
    term.send("pos:\"1. e4 c5\"");
    let screen = wait_until(&term, "the two Sicilians", |s| s.contains("2 of 5 match"));
    for shown in ["Sveshnikov", "Najdorf"] {
        assert!(screen.contains(shown), "{screen}");
    }
    for gone in ["Nimzowitsch", "Rubinstein", "Botvinnik"] {
        assert!(!screen.contains(gone), "{screen}");
    }
    // Another term narrows the games found; erasing it brings them back.
    term.send(" najd");
    wait_until(&term, "one game", |s| {
        s.contains("1 of 5 match") && s.contains("Najdorf") && !s.contains("Sveshnikov")
    });
    for _ in 0.." najd".len() {
        term.send("\x7f");
    }
    term.wait_for("2 of 5 match");
    // Enter closes the line, Enter opens the game selected (Najdorf's, kept selected
    // through the changes) where it reaches the position: after 1... c5, White to play
    // move 2 (the entry line's number).
    term.send(keys::ENTER);
    term.send(keys::ENTER);
    let screen = wait_until(&term, "game 2 after 1... c5", |s| {
        s.contains("game 2 of 5 in games.pgn") && !s.contains("of 5 match")
    });
    assert!(screen.contains("2. ▏"), "{screen}");
    assert!(screen.contains("White to move"), "{screen}");
    term.line(":q!", "");
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen(), "the terminal is restored");
}

/// Two processes that want the index of one file build it once: while another process
/// holds the builders' lock (here the test, standing for a `scoresheet index` at work),
/// the reviewer's tree pane says so and counts the file by reading it through;
/// `scoresheet index` waits for the lock. When the lock is let go one of them builds the
/// index and the other takes it: the pane's tree comes from it without the note, and the
/// index file is written once.
#[test]
fn the_tree_pane_and_the_index_command_build_one_index_between_them() {
    use fs4::fs_std::FileExt;
    use std::io::BufRead;
    use std::os::unix::fs::MetadataExt;

    let dir = tempfile::tempdir().expect("temp dir");
    let games = dir.path().join("games.pgn");
    std::fs::copy(data_dirs::fixture("search_games.pgn"), &games).expect("copy");
    let cache = dir.path().join("cache");
    let stamp = scoresheet::study::index::cache::Stamp::of_in(&games, &cache.join("index"))
        .expect("a stamp");
    let index = stamp.index_file();
    std::fs::create_dir_all(&stamp.dir).expect("the index folder");
    let lock = std::fs::File::create(index.with_extension("building")).expect("the lock file");
    assert!(
        lock.try_lock_exclusive().expect("flock"),
        "the lock is free"
    );

    let cache_text = cache.to_str().expect("path");
    let mut term = Term::spawn_with(
        dir.path(),
        &["games.pgn"],
        100,
        32,
        &[("SCORESHEET_CACHE_DIR", cache_text)],
    );
    term.wait_for("Nimzo");
    term.send(keys::ENTER);
    term.wait_for("game 1 of games.pgn");
    term.send(ALT_Y);
    let screen = term.wait_for("index being built by another scoresheet");
    let screen = if screen.contains("4 games        1-0") {
        screen
    } else {
        term.wait_for("4 games        1-0")
    };
    assert!(
        words(&screen).contains("d4 2 50% 0% 50% 2300 2010"),
        "{screen}"
    );
    assert!(!index.exists(), "the reviewer built no index meanwhile");

    // `scoresheet index` waits its turn.
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_scoresheet"));
    let mut indexer = command
        .args(["index", "games.pgn"])
        .current_dir(dir.path())
        .env("SCORESHEET_CACHE_DIR", &cache)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("scoresheet index starts");
    let mut said = std::io::BufReader::new(indexer.stderr.take().expect("its standard error"));
    let mut line = String::new();
    said.read_line(&mut line).expect("it says something");
    assert!(
        line.contains("building the index of games.pgn: waiting"),
        "{line}"
    );
    assert!(!index.exists());

    drop(lock);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut said, &mut rest).expect("the rest it says");
    assert!(indexer.wait().expect("it ends").success(), "{rest}");
    assert!(rest.contains("games.pgn: 8 games"), "{rest}");
    let built = std::fs::metadata(&index).expect("the index is there");
    // The pane takes the index: its tree without the note.
    wait_until(&term, "the tree from the index", |s| {
        !s.contains("another scoresheet") && s.contains("4 games        1-0")
    });
    term.line(":q!", "");
    assert_eq!(term.wait_exit(), 0);
    // One build: either the command built it (and the pane took it), or the pane did
    // (and the command found it); the file was not written again.
    let after = std::fs::metadata(&index).expect("the index is there");
    assert_eq!(
        (built.ino(), built.mtime_nsec()),
        (after.ino(), after.mtime_nsec())
    );
}

/// After `:w` of a game edited in the reviewer, the tree comes from the index carried over
/// the save, without a build: the test holds the builders' lock from before the save on
/// (as another scoresheet building would), so a build could not happen and reading the
/// file through would say so in the pane; yet the tree at the cursor is asked again and
/// shows the saved game's new result and year at once, and the cache holds an index of
/// the file as saved.
#[test]
fn after_a_save_the_tree_comes_from_the_index_carried_over() {
    use fs4::fs_std::FileExt;

    let (dir, mut term) = open_copy("search_games.pgn", 100, 32);
    let games = dir.path().join("games.pgn");
    let cache = dir.path().join("cache/index");
    term.wait_for("Nimzo");
    term.send(keys::ENTER);
    term.wait_for("game 1 of games.pgn");
    term.send(ALT_Y);
    let screen = term.wait_for("4 games        1-0");
    assert!(
        words(&screen).contains("d4 2 50% 0% 50% 2300 2010"),
        "{screen}"
    );
    let stamp = scoresheet::study::index::cache::Stamp::of_in(&games, &cache).expect("a stamp");
    assert!(stamp.index_file().exists(), "the tree built the index");
    let lock = std::fs::File::create(stamp.index_file().with_extension("building"))
        .expect("the lock file");
    assert!(
        lock.try_lock_exclusive().expect("flock"),
        "the lock is free"
    );

    // Game 1 (1. d4, won by White in 2001) lost in 2024, and a tag longer.
    term.line(":tag Result 0-1", "Result = 0-1");
    term.line(":tag Date 2024.03.01", "Date = 2024.03.01");
    term.line(":tag Annotator scoresheet", "Annotator = scoresheet");
    term.line(":w", "saved to");
    let screen = wait_until(&term, "the tree of the saved file", |s| {
        words(s).contains("d4 2 0% 0% 100% 2300 2024")
    });
    assert!(!screen.contains("another scoresheet"), "{screen}");
    term.line(":q", "");
    assert_eq!(term.wait_exit(), 0);
    let saved = scoresheet::study::index::cache::Stamp::of_in(&games, &cache).expect("a stamp");
    assert_ne!(saved, stamp, "the file was saved");
    assert!(matches!(
        scoresheet::study::index::cache::find(&saved),
        scoresheet::study::index::cache::Found::Fresh(_)
    ));
    drop(lock);
}

/// A compressed file (as the big databases are shipped): its tree and `:search` count its
/// games as for the plain file, once the list has decompressed it, and its index is kept.
#[test]
fn a_compressed_files_tree_and_search_count_its_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read(data_dirs::fixture("search_games.pgn")).expect("the fixture");
    let packed = zstd::encode_all(&text[..], 3).expect("compress");
    std::fs::write(dir.path().join("games.pgn.zst"), packed).expect("write");
    let cache = dir.path().join("cache");
    let mut term = Term::spawn_with(
        dir.path(),
        &["games.pgn.zst"],
        100,
        32,
        &[("SCORESHEET_CACHE_DIR", cache.to_str().expect("path"))],
    );
    term.wait_for("Nimzo");
    term.send(keys::ENTER);
    term.wait_for("game 1 of games.pgn.zst");
    term.send(ALT_Y);
    let screen = term.wait_for("4 games        1-0");
    assert!(
        words(&screen).contains("d4 2 50% 0% 50% 2300 2010"),
        "{screen}"
    );
    for _ in 0..5 {
        term.send(keys::RIGHT);
    }
    term.wait_for("3 games        1-0");
    term.line(":search", "3 games reach this position");
    term.wait_for("3 of 8 match");
    term.line(":q!", "");
    assert_eq!(term.wait_exit(), 0);
    assert!(std::fs::read_dir(cache.join("index"))
        .expect("the cache has an index")
        .next()
        .is_some());
}
