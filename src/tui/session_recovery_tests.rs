//! Unsaved games of earlier runs: offered at start, recovered (the journal taken over,
//! the file's game found saved just before a crash), set aside, or refused when another
//! recorder took them first.

use super::*;

#[test]
fn recovering_a_second_game_keeps_the_first_in_its_journal() {
    let dir = tempfile::tempdir().unwrap();
    let journals = dir.path().join("journal");
    crashed(&journals, 1, "1. e4 e5", None, None);
    crashed(&journals, 2, "1. d4", None, None);
    let mut run = Run::start(dir.path(), None);
    assert_eq!(run.boxed().len(), 2);
    run.act(Action::PlayEntry);
    assert_eq!(run.moves(), ["e4", "e5"]);
    assert!(
        run.app.message.text.contains("1 more unsaved game"),
        "{:?}",
        run.app.message
    );
    // Answering again (`:recover`, Enter) takes the other game; the first stays kept.
    run.line(":recover");
    assert_eq!(run.boxed().len(), 1);
    run.act(Action::PlayEntry);
    assert_eq!(run.moves(), ["d4"]);
    assert_eq!(journaled(&run.journals), [vec!["d4"], vec!["e4", "e5"]]);
    // And it is offered again.
    run.line(":recover");
    assert_eq!(run.boxed().len(), 1);
    assert!(run.boxed()[0].contains("1 move"), "{:?}", run.boxed());
}

#[test]
fn new_and_edit_forced_keep_the_unsaved_game_in_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.pgn");
    std::fs::write(&file, "[White \"X\"]\n\n1. c4 *\n").unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line("e4");
    run.line(":new");
    assert!(run.app.message.error, "{:?}", run.app.message);
    run.line(":new!");
    assert!(run.app.game.is_empty());
    run.line("d4");
    run.line(&format!(":e! {}", file.display()));
    assert_eq!(run.moves(), ["c4"]);
    assert_eq!(journaled(&run.journals), [vec!["d4"], vec!["e4"]]);
    // Both are in the box for this run too.
    run.line(":recover");
    assert_eq!(run.boxed().len(), 2);
}

#[test]
fn recovering_when_the_journal_cannot_be_written_keeps_the_old_journal() {
    let dir = tempfile::tempdir().unwrap();
    let journals = dir.path().join("journal");
    let old = crashed(&journals, 1, "1. e4 e5 2. Nf3", None, None);
    let before = std::fs::read(&old).unwrap();
    let mut run = Run::start(dir.path(), None);
    FAIL_WRITES.with(|f| f.set(true));
    run.act(Action::PlayEntry);
    FAIL_WRITES.with(|f| f.set(false));
    assert_eq!(run.moves(), ["e4", "e5", "Nf3"]);
    // The error is shown, not covered by "recovered".
    assert!(run.app.message.error, "{:?}", run.app.message);
    assert!(
        run.app.message.text.contains("could not be written"),
        "{:?}",
        run.app.message
    );
    // The game's only journal is still whole (taken over under a new name).
    let files: Vec<_> = std::fs::read_dir(&journals).unwrap().collect();
    assert_eq!(files.len(), 1);
    let path = files[0].as_ref().unwrap().path();
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(journaled(&journals), [vec!["e4", "e5", "Nf3"]]);
    // Once there is room, the next move is journaled in it.
    run.line("Nc6");
    assert_eq!(journaled(&journals), [vec!["e4", "e5", "Nf3", "Nc6"]]);
}

#[test]
fn a_recovered_game_replaces_its_text_in_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("live.pgn");
    std::fs::write(&file, "[White \"Other\"]\n\n1. c4 *\n").unwrap();
    let slot = save::append_game(&file, &write_game_to_string(&game("1. e4"))).unwrap();
    crashed(
        &dir.path().join("journal"),
        1,
        "1. e4 e5",
        Some(&file),
        Some(&slot),
    );
    let mut run = Run::start(dir.path(), None);
    run.act(Action::PlayEntry);
    run.line(":w");
    assert!(!run.app.message.error, "{:?}", run.app.message);
    assert_eq!(games_in(&file), [vec!["c4"], vec!["e4", "e5"]]);
}

/// Killed right after `:w` wrote the file, before the journal said so: the game is in
/// its file already, so recovering it says so, and `:w` adds no second copy (a game
/// added last, and a game written back into its place).
#[test]
fn a_game_saved_just_before_a_crash_is_recovered_as_saved() {
    let dir = tempfile::tempdir().unwrap();
    let journals = dir.path().join("journal");
    let file = dir.path().join("live.pgn");
    std::fs::write(&file, "[White \"Other\"]\n\n1. c4 *\n").unwrap();
    // Added last: the journal has no place for it yet.
    save::append_game(&file, &write_game_to_string(&game("1. e4 e5"))).unwrap();
    crashed(&journals, 1, "1. e4 e5", Some(&file), None);
    let mut run = Run::start(dir.path(), None);
    run.act(Action::PlayEntry);
    assert!(!run.app.unsaved, "{:?}", run.app.message);
    assert!(
        run.app.message.text.starts_with("1 move found saved in "),
        "{:?}",
        run.app.message
    );
    run.line(":w");
    assert!(!run.app.message.error, "{:?}", run.app.message);
    assert_eq!(games_in(&file), [vec!["c4"], vec!["e4", "e5"]]);
    // Written back into its place: the journal holds the place the game had before.
    let old = save::append_game(&file, &write_game_to_string(&game("1. d4"))).unwrap();
    save::replace_game(&file, &old, &write_game_to_string(&game("1. d4 d5"))).unwrap();
    crashed(&journals, 2, "1. d4 d5", Some(&file), Some(&old));
    let mut run = Run::start(dir.path(), None);
    run.act(Action::PlayEntry);
    assert!(!run.app.unsaved, "{:?}", run.app.message);
    run.line(":w");
    assert!(!run.app.message.error, "{:?}", run.app.message);
    assert_eq!(
        games_in(&file),
        [vec!["c4"], vec!["e4", "e5"], vec!["d4", "d5"]]
    );
    // A journal whose game is not in the file is unsaved, as it says.
    crashed(&journals, 3, "1. Nf3", Some(&file), None);
    let mut run = Run::start(dir.path(), None);
    run.act(Action::PlayEntry);
    assert!(run.app.unsaved);
    assert!(
        run.app.message.text.starts_with("recovered 1 move"),
        "{:?}",
        run.app.message
    );
}

/// Two recorders started on one journal directory both offer its unsaved game: the one
/// that recovers it second is told another took it, and records nothing of it.
#[test]
fn a_game_another_recorder_recovered_first_is_not_recovered_twice() {
    let dir = tempfile::tempdir().unwrap();
    let journals = dir.path().join("journal");
    crashed(&journals, 1, "1. e4 e5", None, None);
    let mut first = Run::start(dir.path(), None);
    let mut second = Run::start(dir.path(), None);
    assert_eq!((first.boxed().len(), second.boxed().len()), (1, 1));
    first.act(Action::PlayEntry);
    assert_eq!(first.moves(), ["e4", "e5"]);
    second.act(Action::PlayEntry);
    assert!(second.moves().is_empty(), "{:?}", second.moves());
    let msg = &second.app.message;
    assert!(
        msg.error
            && msg
                .text
                .contains("another scoresheet recovered or discarded it"),
        "{msg:?}"
    );
    // The first recorder's journal holds the game, once.
    first.line("Nf3");
    assert_eq!(journaled(&journals), [vec!["e4", "e5", "Nf3"]]);
}

#[test]
fn unreadable_journals_are_shown_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let journals = dir.path().join("journal");
    std::fs::create_dir_all(&journals).unwrap();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "TOP SECRET first line\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, journals.join("x-1-2-999999999.journal")).unwrap();
    std::fs::write(journals.join("y-1-2-999999998.journal"), "hello\n").unwrap();
    let run = Run::start(dir.path(), None);
    let Overlay::Recover(b) = &run.app.overlay else {
        panic!("no box: {:?}", run.app.overlay);
    };
    assert!(b.games.is_empty());
    let text = b.broken.join("\n");
    assert!(text.contains("y-1-2-999999998.journal"), "{text}");
    assert!(text.contains("text editor"), "{text}");
    #[cfg(unix)]
    {
        assert!(text.contains("symbolic link"), "{text}");
        assert!(!text.contains("TOP SECRET"), "{text}");
    }
}
