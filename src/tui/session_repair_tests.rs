//! A game with a move that cannot be played, opened for repair: nothing of its text is
//! lost, saved before the repair or after it, and the right move brings back the rest.

use super::*;

#[test]
fn a_game_with_an_illegal_move_opens_for_repair_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.pgn");
    let other = "[White \"Other\"]\n\n1. c4 *\n";
    let text = format!("{other}\n[White \"Typo\"]\n\n1. e4 e5 2. Nf3 Qe4 3. Nc3 Nc6 *\n");
    std::fs::write(&file, &text).unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line(&format!(":e {} 2", file.display()));
    assert_eq!(run.moves(), ["e4", "e5", "Nf3"]);
    let msg = &run.app.message.text;
    assert!(
        msg.contains("\"Qe4\"") && msg.contains("line 7 column 17"),
        "{msg}"
    );
    // Saved before the repair: the unread moves are kept in a comment.
    run.line(":w");
    assert!(!run.app.message.error, "{:?}", run.app.message);
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.starts_with(other), "{saved}");
    assert!(saved.contains("Qe4 3. Nc3 Nc6"), "{saved}");
    assert_eq!(games_in(&file).len(), 2);
    // The right move: the waiting ones follow and the comment goes.
    run.line("Qe7");
    assert_eq!(run.moves(), ["e4", "e5", "Nf3", "Qe7", "Nc3", "Nc6"]);
    run.line(":w");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(!saved.contains("Qe4"), "{saved}");
    assert_eq!(
        games_in(&file),
        [vec!["c4"], vec!["e4", "e5", "Nf3", "Qe7", "Nc3", "Nc6"]]
    );
}

#[test]
fn repairing_a_finished_game_keeps_its_result() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.pgn");
    std::fs::write(
        &file,
        "[White \"Typo\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Qe4 3. Nc3 Nc6 1-0\n",
    )
    .unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line(&format!(":e {} 1", file.display()));
    assert_eq!(run.moves(), ["e4", "e5", "Nf3"]);
    // The right move repairs the game: no question about playing on, the result stays.
    run.line("Qe7");
    assert_eq!(run.moves(), ["e4", "e5", "Nf3", "Qe7", "Nc3", "Nc6"]);
    assert_eq!(run.app.game.tag("Result"), Some("1-0"));
}

/// Text after the wrong move that holds comments and variations: the moves still wait
/// and follow the right one with their comments (the wrong move's goes to the right one); the variations are kept, saved before
/// the repair and after it, and so is every comment's text.
#[test]
fn a_repair_keeps_the_comments_and_variations_after_the_wrong_move() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.pgn");
    std::fs::write(
        &file,
        "[White \"Typo\"]\n\n1. e4 e5 2. Nf3 Qe4 {the queen\ncomes out} ; early\n3. Nc3 \
         (3. d4 {the centre} exd4 ; a line\n) 3... Nc6 $1 4. Bb5 *\n",
    )
    .unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line(&format!(":e {} 1", file.display()));
    assert_eq!(run.moves(), ["e4", "e5", "Nf3"]);
    let msg = &run.app.message.text;
    assert!(
        msg.contains("type the right move and the 3 moves after it follow"),
        "{msg}"
    );
    // Saved before the repair: every word is in the file, and reads back as waiting.
    run.line(":w");
    assert!(!run.app.message.error, "{:?}", run.app.message);
    let saved = std::fs::read_to_string(&file).unwrap();
    for words in [
        "Qe4",
        "the queen comes out",
        "3. d4",
        "the centre",
        "exd4",
        "Bb5",
    ] {
        assert!(saved.contains(words), "{words:?} lost: {saved}");
    }
    run.line(&format!(":e {} 1", file.display()));
    assert!(
        run.app
            .message
            .text
            .contains("waiting: 2...Qe4 3.Nc3 Nc6 4.Bb5"),
        "{:?}",
        run.app.message
    );
    // The right move: the others follow with their comments and glyphs.
    run.line("Qe7");
    assert_eq!(run.moves(), ["e4", "e5", "Nf3", "Qe7", "Nc3", "Nc6", "Bb5"]);
    run.line(":w");
    let back = read_games(&std::fs::read(&file).unwrap());
    assert!(back[0].errors.is_empty(), "{:?}", back[0].errors);
    let game = &back[0].game;
    let line = game.mainline();
    assert_eq!(
        game.node(line[3]).comments_after,
        ["the queen comes out", "early"]
    );
    assert_eq!(game.node(line[5]).nags, [1]);
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(
        saved.contains("3. d4") && saved.contains("the centre"),
        "the variation is lost: {saved}"
    );
}

/// Moves written after a mate: no move can be the right one there, so none waits, and the
/// text stays in a comment, saved as it is.
#[test]
fn moves_written_after_a_mate_stay_in_a_comment() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.pgn");
    std::fs::write(&file, "1. f3 e5 2. g4 Qh4# 3. Kf2 Nc6 0-1\n").unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line(&format!(":e {} 1", file.display()));
    assert_eq!(run.moves(), ["f3", "e5", "g4", "Qh4#"]);
    let msg = &run.app.message.text;
    assert!(msg.contains("where the game is over"), "{msg}");
    assert!(run.app.pending.is_none());
    run.line(":w");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("Kf2 Nc6"), "{saved}");
}
