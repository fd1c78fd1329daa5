//! The real binary on terminals too small for its layout, and resized while it
//! runs: it never panics, keeps the entry line while there is room for it, and
//! asks to be enlarged below that.

mod pty;

use pty::{keys, Term};

#[test]
fn starts_at_80x9_and_survives_being_resized_down_to_one_cell() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new"], 80, 9);
    term.wait_for("White to move");
    term.line("e4", "Black to move");
    // Larger: the board comes back.
    term.resize(80, 24);
    term.wait_for("a  b  c  d  e  f  g  h");
    // Tiny, then one cell: a request to enlarge, no crash.
    term.resize(12, 3);
    term.wait_for("enlarge");
    term.resize(1, 1);
    term.wait_for("+");
    term.resize(30, 5);
    term.wait_for("Black to move");
    // Still recording at 80×9.
    term.resize(80, 9);
    term.wait_for("enlarge for the board");
    term.send("e5");
    term.wait_for("1... e5▏");
    term.send(keys::ENTER);
    term.wait_for("White to move");
    term.send(":q!");
    term.send(keys::ENTER);
    assert_eq!(term.wait_exit(), 0, "{}", term.text());
    assert!(!term.on_alternate_screen(), "the terminal was not restored");
}

/// Below the smallest size the app draws at, the screen only asks to be enlarged, so a
/// key would act unseen: text typed then into an open comment editor is not taken, and
/// the editor takes keys again once the terminal is larger.
#[test]
fn keys_typed_on_a_screen_too_small_do_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut term = Term::spawn(dir.path(), &["new"], 80, 24);
    term.wait_for("White to move");
    term.line("e4", "Black to move");
    term.send(keys::CTRL_K);
    term.wait_for("comment after 1.e4");
    term.resize(90, 1);
    term.wait_for("now 90×1): until then keys do nothing");
    // Narrow and tall enough to read the whole request, with the keys it ignored: once it
    // says four, the letters were read while the screen was too small.
    term.resize(19, 12);
    let compact = |term: &Term| term.text().split_whitespace().collect::<String>();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !compact(&term).contains("keysdonothing") {
        assert!(std::time::Instant::now() < deadline, "{}", term.text());
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    term.send("lost");
    while !compact(&term).contains("(4ignored)") {
        assert!(std::time::Instant::now() < deadline, "{}", term.text());
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    term.resize(80, 24);
    term.wait_for("comment after 1.e4");
    term.send("kept");
    term.send(keys::ENTER);
    let screen = term.wait_for("{kept}");
    assert!(!screen.contains("lost"), "{screen}");
    term.send(":q!");
    term.send(keys::ENTER);
    assert_eq!(term.wait_exit(), 0, "{}", term.text());
}
