//! The journal when it cannot be written: recording goes on, every change says so, and
//! nothing promises what the journal does not hold.

use super::*;

#[test]
fn a_journal_that_cannot_be_written_warns_until_it_can_and_then_holds_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line("e4");
    // A full disk: every change says nothing is journaled, recording goes on.
    FAIL_WRITES.with(|f| f.set(true));
    run.line("e5");
    let warned = run.app.message.clone();
    run.line("Nf3");
    let warned_again = run.app.message.clone();
    FAIL_WRITES.with(|f| f.set(false));
    for message in [&warned, &warned_again] {
        assert!(message.error, "{message:?}");
        assert!(
            message.text.starts_with("nothing is journaled"),
            "{message:?}"
        );
    }
    assert_eq!(run.moves(), ["e4", "e5", "Nf3"]);
    // Room again: the next change journals the whole game and says so, once.
    run.line("Nc6");
    assert!(!run.app.message.error, "{:?}", run.app.message);
    assert!(
        run.app.message.text.starts_with("journaled again"),
        "{:?}",
        run.app.message
    );
    assert_eq!(journaled(&run.journals), [vec!["e4", "e5", "Nf3", "Nc6"]]);
    run.line("Bb5");
    assert!(run.app.message.text.is_empty(), "{:?}", run.app.message);
}

/// While nothing is journaled, the refusals that let the player leave an unsaved game do not
/// promise the journal: leaving it then loses it, and they say so. Journaled again, they
/// promise it again.
#[test]
fn leaving_an_unsaved_game_that_is_not_journaled_says_it_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line("e4");
    FAIL_WRITES.with(|f| f.set(true));
    run.line("e5");
    let mut said = Vec::new();
    for line in [":new", ":e other.pgn"] {
        run.line(line);
        said.push(run.app.message.clone());
    }
    run.act(Action::Quit);
    said.push(run.app.message.clone());
    FAIL_WRITES.with(|f| f.set(false));
    for message in &said {
        assert!(message.error, "{message:?}");
        assert!(message.text.contains("nothing is journaled"), "{message:?}");
        assert!(message.text.contains("lose it"), "{message:?}");
        assert!(!message.text.contains("the journal keeps"), "{message:?}");
    }
    assert_eq!(run.moves(), ["e4", "e5"], "nothing was left");
    run.line("Nf3");
    assert!(run.app.message.text.starts_with("journaled again"));
    run.line(":new");
    assert!(
        run.app.message.text.contains("the journal keeps it"),
        "{:?}",
        run.app.message
    );
}

#[test]
fn a_save_while_the_journal_cannot_be_written_says_saved_and_leaves_no_stale_journal() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.pgn");
    let mut run = Run::start(dir.path(), Some(file.clone()));
    run.line("e4");
    FAIL_WRITES.with(|f| f.set(true));
    run.line("e5");
    assert!(run.app.message.text.starts_with("nothing is journaled"));
    run.line(":w");
    let after_save = run.app.message.clone();
    FAIL_WRITES.with(|f| f.set(false));
    assert!(!after_save.error, "{after_save:?}");
    assert!(after_save.text.starts_with("saved to"), "{after_save:?}");
    assert_eq!(games_in(&file), [vec!["e4", "e5"]]);
    // The journal's last record (1. e4, unsaved) would come back after a crash as
    // an unsaved game, though the file holds more: it is gone.
    assert_eq!(journaled(&run.journals), Vec::<Vec<String>>::new());
    // The next change journals again, in a new journal.
    run.line("Nf3");
    assert_eq!(journaled(&run.journals), [vec!["e4", "e5", "Nf3"]]);
}
