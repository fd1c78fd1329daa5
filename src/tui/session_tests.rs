//! The session's files driven as the loop drives them: keys through
//! `App::update`, the effect through `Session::carry_out`.

use std::path::{Path, PathBuf};

use super::*;
use crate::app::{Action, Overlay, Settings};
use crate::pgn::read_games;
use crate::store::journal::{encode_record, tests::FAIL_WRITES};

fn game(moves: &str) -> Game {
    read_games(format!("[White \"Anna\"]\n\n{moves} *\n").as_bytes())
        .remove(0)
        .game
}

fn sans(game: &Game) -> Vec<String> {
    game.mainline()
        .iter()
        .map(|&id| game.node(id).san.clone())
        .collect()
}

/// A journal left by a recorder that crashed (its process id is not running).
fn crashed(dir: &Path, n: u32, moves: &str, out: Option<&Path>, slot: Option<&Slot>) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(format!("20260101-000000-00{n}-999999999.journal"));
    let mut bytes = b"scoresheet journal 2 -\n".to_vec();
    bytes.extend(encode_record(
        &write_game_to_string(&game(moves)),
        out,
        false,
        slot,
    ));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Every unsaved game the journals in `dir` hold, whoever wrote them.
fn journaled(dir: &Path) -> Vec<Vec<String>> {
    let scan = recover::scan_with(dir, &|_| false).unwrap();
    assert!(scan.broken.is_empty(), "{:?}", scan.broken);
    let mut games: Vec<_> = scan.games.iter().map(|g| sans(&g.game)).collect();
    games.sort();
    games
}

fn games_in(path: &Path) -> Vec<Vec<String>> {
    read_games(&std::fs::read(path).unwrap())
        .iter()
        .map(|g| sans(&g.game))
        .collect()
}

struct Run {
    app: App,
    session: Session,
    journals: PathBuf,
}

impl Run {
    fn start(dir: &Path, file: Option<PathBuf>) -> Run {
        let journals = dir.join("journal");
        let mut app = App::new(Settings::default(), Game::default(), file);
        let session = Session::start_in(&mut app, journals.clone());
        Run {
            app,
            session,
            journals,
        }
    }

    fn act(&mut self, action: Action) -> bool {
        let effect = self.app.update(action);
        self.session.carry_out(&mut self.app, effect).unwrap()
    }

    fn line(&mut self, text: &str) -> bool {
        for c in text.chars() {
            self.act(Action::Type(c));
        }
        self.act(Action::PlayEntry)
    }

    fn moves(&self) -> Vec<String> {
        sans(&self.app.game)
    }

    fn boxed(&self) -> Vec<String> {
        match &self.app.overlay {
            Overlay::Recover(b) => b.games.clone(),
            other => panic!("no recovery box: {other:?}"),
        }
    }
}

#[test]
fn the_same_file_under_another_name_is_written_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.pgn");
    let other = dir.path().join(".").join("sub").join("..").join("f.pgn");
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line("e4");
    run.line(&format!(":w {}", file.display()));
    run.line("e5");
    run.line(&format!(":w {}", other.display()));
    assert!(!run.app.message.error, "{:?}", run.app.message);
    assert_eq!(games_in(&file), [vec!["e4", "e5"]]);
}

#[test]
fn a_deleted_file_is_written_anew() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gone.pgn");
    let mut run = Run::start(dir.path(), Some(file.clone()));
    run.line("e4");
    run.line(":w");
    std::fs::remove_file(&file).unwrap();
    run.line("e5");
    run.line(":w");
    assert!(!run.app.message.error, "{:?}", run.app.message);
    assert_eq!(games_in(&file), [vec!["e4", "e5"]]);
    // Unchanged since, but deleted again: `:wq` writes it, never "no changes".
    std::fs::remove_file(&file).unwrap();
    assert!(run.line(":wq"));
    assert_eq!(games_in(&file), [vec!["e4", "e5"]]);
}

#[test]
fn a_deleted_journal_is_noticed_and_made_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line("e4");
    for entry in std::fs::read_dir(&run.journals).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    run.line("e5");
    assert!(run.app.message.error, "{:?}", run.app.message);
    assert!(
        run.app.message.text.contains("was deleted while recording"),
        "{:?}",
        run.app.message
    );
    assert_eq!(journaled(&run.journals), [vec!["e4", "e5"]]);
}

#[test]
fn a_read_only_file_is_replaced_only_when_forced() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ro.pgn");
    std::fs::write(&file, "[White \"X\"]\n\n1. c4 *\n").unwrap();
    let mut perms = std::fs::metadata(&file).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&file, perms).unwrap();
    let mut run = Run::start(dir.path(), Some(file.clone()));
    run.line("e4");
    run.line(":w");
    assert!(run.app.message.error);
    assert!(
        run.app.message.text.contains(":w!"),
        "{:?}",
        run.app.message
    );
    assert_eq!(games_in(&file), [vec!["c4"]]);
    run.line(":w!");
    assert!(!run.app.message.error, "{:?}", run.app.message);
    assert_eq!(games_in(&file), [vec!["c4"], vec!["e4"]]);
}

/// A game added to a Windows-1252 file: written in that encoding when every character
/// has a byte there; else as UTF-8, and the save says so, naming the character.
#[test]
fn a_save_into_a_windows_1252_file_says_when_the_game_goes_in_as_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.pgn");
    std::fs::write(&file, b"[White \"M\xFCller\"]\n\n1. c4 *\n").unwrap();
    let mut run = Run::start(dir.path(), Some(file.clone()));
    run.line(":tag White Šimun");
    run.line("e4");
    run.line(":w");
    assert!(!run.app.message.error, "{:?}", run.app.message);
    assert!(
        !run.app.message.text.contains("UTF-8"),
        "{:?}",
        run.app.message
    );
    let bytes = std::fs::read(&file).unwrap();
    assert!(
        bytes.windows(5).any(|w| w == b"\x8Aimun"),
        "not Windows-1252: {}",
        String::from_utf8_lossy(&bytes)
    );
    run.line(":tag Black 丁立人");
    run.line(":w");
    let text = &run.app.message.text;
    assert!(
        text.contains("saved to") && text.contains("written as UTF-8, since 丁"),
        "{text}"
    );
    // Read back, each game is right: the file's games in their encoding, this one in UTF-8.
    let back = read_games(&std::fs::read(&file).unwrap());
    let names: Vec<_> = back
        .iter()
        .map(|g| {
            (
                g.game.tag("White").unwrap_or_default().to_string(),
                g.game.tag("Black").unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(names[0].0, "Müller");
    assert_eq!(names[1], ("Šimun".to_string(), "丁立人".to_string()));
}

#[test]
fn a_killed_save_leaves_no_temporary_file_after_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.pgn");
    std::fs::write(&file, "[White \"X\"]\n\n1. c4 *\n").unwrap();
    let stale = dir.path().join(".scoresheet-k1LLed.tmp");
    std::fs::write(&stale, "[White \"X\"]\n\n1. c4 *\n[Wh").unwrap();
    let _run = Run::start(dir.path(), Some(file.clone()));
    assert!(!stale.exists());
    assert!(file.exists());
}

#[test]
fn the_journal_names_the_target_file_absolutely() {
    let dir = tempfile::tempdir().unwrap();
    let mut run = Run::start(dir.path(), Some(PathBuf::from("relative/games.pgn")));
    run.line("e4");
    let scan = recover::scan_with(&run.journals, &|_| false).unwrap();
    let out = scan.games[0].out.clone().unwrap();
    assert!(out.is_absolute(), "{out:?}");
    assert!(out.ends_with("relative/games.pgn"), "{out:?}");
}

/// `many.pgn` in `dir`: two games, 1.d4 (White A) and 1.e4 (White B).
fn two_games(dir: &std::path::Path) -> PathBuf {
    let many = dir.join("many.pgn");
    std::fs::write(
        &many,
        "[White \"A\"]\n\n1. d4 *\n\n[White \"B\"]\n\n1. e4 *\n",
    )
    .unwrap();
    many
}

#[test]
fn editing_a_file_with_no_game_starts_a_new_game_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.pgn");
    let one_text = "[White \"X\"]\n[Result \"1-0\"]\n\n1. c4 e5 1-0\n";
    std::fs::write(&one, one_text).unwrap();
    let many = two_games(dir.path());
    let empty = dir.path().join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let fresh = dir.path().join("fresh.pgn");

    // From a game read from a file: `:e` of a new name is a new game, not the
    // same game to be written elsewhere.
    let mut run = Run::start(dir.path(), None);
    run.line(&format!(":e {}", one.display()));
    assert_eq!(run.moves(), ["c4", "e5"]);
    run.line(&format!(":e {}", fresh.display()));
    assert!(run.app.game.is_empty(), "{:?}", run.moves());
    assert_eq!(run.app.game.tag("White"), Some("?"));
    run.line("e4");
    run.line(":w");
    assert_eq!(games_in(&fresh), [vec!["e4"]]);
    assert_eq!(std::fs::read_to_string(&one).unwrap(), one_text);

    // From the list of another file: the game screen on a new game, and the list
    // of the other file gone.
    run.line(&format!(":e {}", many.display()));
    assert_eq!(run.app.screen, crate::app::Screen::List);
    run.act(Action::CommandLine);
    for c in format!("e {}", empty.display()).chars() {
        run.act(Action::Type(c));
    }
    run.act(Action::OpenGame);
    assert_eq!(run.app.screen, crate::app::Screen::Game);
    assert!(run.app.list().is_none());
    assert!(run.app.game.is_empty(), "{:?}", run.moves());
    run.line("d4");
    run.line(":w");
    assert_eq!(games_in(&empty), [vec!["d4"]]);
    assert_eq!(games_in(&many), [vec!["d4"], vec!["e4"]]);
}

#[test]
fn editing_a_file_of_many_games_forced_sets_the_unsaved_game_aside() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.pgn");
    let one_text = "[White \"X\"]\n[Result \"*\"]\n\n1. c4 *\n";
    std::fs::write(&one, one_text).unwrap();
    let many = two_games(dir.path());
    let mut run = Run::start(dir.path(), None);
    run.line(&format!(":e {}", one.display()));
    run.line("e5");
    run.line(&format!(":e {}", many.display()));
    assert!(
        run.app.message.error,
        "refused while unsaved: {:?}",
        run.app.message
    );
    run.line(&format!(":e! {}", many.display()));
    assert_eq!(run.app.screen, crate::app::Screen::List);
    // The changes are in the journal, not in the way: the list's games open (no
    // "not saved" refusal) and `:w` on the list has no game to write.
    assert_eq!(journaled(&run.journals), [vec!["c4", "e5"]]);
    assert!(!run.app.unsaved);
    run.act(Action::CommandLine);
    for c in "w".chars() {
        run.act(Action::Type(c));
    }
    run.act(Action::OpenGame);
    assert!(run.app.message.error, "{:?}", run.app.message);
    assert_eq!(std::fs::read_to_string(&one).unwrap(), one_text);
}

#[test]
fn editing_a_one_game_file_from_a_list_shows_its_game_without_the_old_list() {
    let dir = tempfile::tempdir().unwrap();
    let many = two_games(dir.path());
    let one = dir.path().join("one.pgn");
    std::fs::write(&one, "[White \"X\"]\n[Result \"1-0\"]\n\n1. c4 e5 1-0\n").unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line(&format!(":e {}", many.display()));
    assert_eq!(run.app.screen, crate::app::Screen::List);
    run.act(Action::CommandLine);
    for c in format!("e {}", one.display()).chars() {
        run.act(Action::Type(c));
    }
    run.act(Action::OpenGame);
    // The game is on the screen, not behind the list of the other file.
    assert_eq!(run.app.screen, crate::app::Screen::Game);
    assert_eq!(run.moves(), ["c4", "e5"]);
    assert!(run.app.list().is_none());
    // Alt-Down has no list of another file to step through.
    run.act(Action::NextGame);
    assert_eq!(run.moves(), ["c4", "e5"]);
}

#[test]
fn a_game_saved_to_another_file_is_snapped_with_its_number_there() {
    let dir = tempfile::tempdir().unwrap();
    let many = dir.path().join("many.pgn");
    let games =
        "[White \"A\"]\n\n1. d4 *\n\n[White \"B\"]\n\n1. e4 *\n\n[White \"C\"]\n\n1. c4 *\n";
    std::fs::write(&many, games).unwrap();
    let other = dir.path().join("other.pgn");
    std::fs::write(
        &other,
        "[White \"X\"]\n\n1. f4 *\n\n[White \"Y\"]\n\n1. g4 *\n",
    )
    .unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line(&format!(":e {} 3", many.display()));
    assert_eq!(run.moves(), ["c4"]);
    run.line(":snap");
    let fen = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    assert!(
        fen("many.fen").contains("; game 3, ply 1"),
        "{}",
        fen("many.fen")
    );
    // Added to other.pgn, after its two games: it is game 3 there, not game 3 of
    // many.pgn by chance; a second game makes the point.
    run.line(&format!(":e {} 2", many.display()));
    run.line(&format!(":w {}", other.display()));
    assert_eq!(games_in(&other).len(), 3);
    run.line(":snap");
    assert!(
        fen("other.fen").contains("; game 3, ply 1"),
        "{}",
        fen("other.fen")
    );
    // Saved again, in its place there: still game 3.
    run.line("e5");
    run.line(":w");
    assert_eq!(games_in(&other).len(), 3);
    run.line(":snap");
    assert!(
        fen("other.fen").ends_with("; game 3, ply 2\n"),
        "{}",
        fen("other.fen")
    );
}

/// A game whose moves were edited is saved with its `PlyCount` tag (when it has one)
/// telling their number; a game without the tag gets none.
#[test]
fn a_saved_edit_keeps_the_ply_count_tag_true() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("counted.pgn");
    std::fs::write(
        &file,
        "[Event \"E\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n[PlyCount \"0\"]\n\n*\n",
    )
    .unwrap();
    let mut run = Run::start(dir.path(), None);
    run.line(&format!(":e {}", file.display()));
    run.line("e4");
    run.line("e5");
    run.line(":w");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("[PlyCount \"2\"]"), "{text}");
    let mut run = Run::start(dir.path(), Some(dir.path().join("new.pgn")));
    run.line("d4");
    run.line(":w");
    let text = std::fs::read_to_string(dir.path().join("new.pgn")).unwrap();
    assert!(!text.contains("PlyCount"), "{text}");
}

#[path = "session_recovery_tests.rs"]
mod recovery;

#[path = "session_repair_tests.rs"]
mod repair;

#[path = "session_journal_tests.rs"]
mod journal;
