//! Games written again by saves (their rows moved and re-tagged) and the check that
//! marks the games with a problem.

use super::*;

/// A save wrote game 2 again, longer, while the loader was still reading the file as it
/// was: every row, listed before the save or after it, points at its game's bytes in the
/// file as it is now (as a list read afresh from the new text does).
#[test]
fn a_game_written_again_moves_the_rows_after_it_also_those_still_to_come() {
    let old = sample().repeat(100);
    let listed = Catalog::read(old.as_bytes()).unwrap();
    let game2 = listed.game(2).unwrap();
    let (offset, len) = (game2.offset as usize, game2.len as usize);
    let moves = offset + old[offset..offset + len].find("\n\n").unwrap() + 2;
    let comment = "{a comment added by the save} ";
    let mut new = old.clone();
    new.insert_str(moves, comment);
    let expected = Catalog::read(new.as_bytes()).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, &old).unwrap();
    let loader = Loader::open(&path).unwrap();
    let mut c = Catalog::new();
    let mut rewritten = false;
    loop {
        match loader.next_timeout(std::time::Duration::from_secs(20)) {
            Some(LoadEvent::Done) => break,
            Some(event @ LoadEvent::Batch(_)) => {
                c.apply(event);
                if !rewritten {
                    assert!(c.games() >= 2 && c.games() < 600, "{}", c.games());
                    c.rewritten(
                        (offset as u64, len as u64),
                        (offset as u64, (len + comment.len()) as u64),
                    );
                    rewritten = true;
                }
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(c.games(), expected.games());
    for n in 1..=expected.games() as u64 {
        let (got, want) = (c.game(n).unwrap(), expected.game(n).unwrap());
        assert_eq!((got.offset, got.len), (want.offset, want.len), "game {n}");
    }
}

/// A save wrote game 2 again with other tags while the file was still being read: once
/// every row is in, its row shows the tags as written (as a list read afresh from the new
/// text does), the sort puts it where its new White belongs and the filter finds it.
#[test]
fn a_game_written_again_shows_its_new_tags_in_the_list() {
    let old = sample().repeat(100);
    let listed = Catalog::read(old.as_bytes()).unwrap();
    let game2 = listed.game(2).unwrap();
    let (offset, len) = (game2.offset as usize, game2.len as usize);
    let written = game(
        &[
            ("Event", "Berlin"),
            ("Date", "1880.??.??"),
            ("White", "Zukertort, Johannes"),
            ("Black", "Anderssen, Adolf"),
            ("Result", "0-1"),
            ("ECO", "C50"),
        ],
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 0-1",
    );
    let written = written.trim_end();
    let new = format!("{}{written}{}", &old[..offset], &old[offset + len..]);
    let expected = Catalog::read(new.as_bytes()).unwrap();

    let mut c = list_saving_meanwhile(&old, |c| {
        c.sort_by(Column::White);
        c.rewritten(
            (offset as u64, len as u64),
            (offset as u64, written.len() as u64),
        );
        c.retag(offset as u64, written);
    });
    assert!(matches!(c.status(), LoadStatus::Done));
    for n in 1..=expected.games() as u64 {
        let (got, want) = (c.game(n).unwrap(), expected.game(n).unwrap());
        assert_eq!(
            (got.white, got.black, got.result, got.date, got.event),
            (want.white, want.black, want.result, want.date, want.event),
            "game {n}"
        );
        assert_eq!(
            (got.opening, got.eco, got.plies),
            (want.opening, want.eco, want.plies)
        );
        assert_eq!((got.offset, got.len), (want.offset, want.len), "game {n}");
    }
    // Sorted by White, Zukertort comes last.
    let last = c.get(c.matches() - 1).unwrap();
    assert_eq!((last.number, last.white), (2, "Zukertort, Johannes"));
    c.set_filter("white:zukertort").unwrap();
    assert_eq!(c.matches(), 1);
    assert_eq!(c.get(0).unwrap().number, 2);
}

/// The check after the listing finds the game with an illegal move (and the one whose
/// results disagree), says where and why, and the list marks them; a game written again
/// by a save keeps no mark.
#[test]
fn the_check_marks_the_games_with_a_problem() {
    let text = [
        game(
            &[("White", "A"), ("Result", "1-0")],
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        ),
        game(&[("White", "B"), ("Result", "*")], "1. e4 e5 2. Ke3 Nc6 *"),
        game(&[("White", "C"), ("Result", "1-0")], "1. d4 d5 0-1"),
        game(&[("White", "D"), ("Result", "*")], "1. c4 *"),
    ]
    .concat();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, &text).unwrap();
    let checker = check::Checker::start(&path).unwrap();
    let mut found = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let games = loop {
        match checker.try_next() {
            Some(check::CheckEvent::Found(f)) => found.extend(f),
            Some(check::CheckEvent::Done(n)) => break n,
            Some(check::CheckEvent::Failed(e)) => panic!("{e}"),
            None => {
                assert!(std::time::Instant::now() < deadline);
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    };
    assert_eq!(games, 4);
    let numbers: Vec<u64> = found.iter().map(|(n, _)| *n).collect();
    assert_eq!(numbers, [2, 3], "{found:?}");
    assert!(found[0].1.contains("\"Ke3\""), "{}", found[0].1);
    assert!(found[0].1.starts_with("line "), "{}", found[0].1);

    let mut c = Catalog::read(text.as_bytes()).unwrap();
    c.apply(LoadEvent::Done);
    c.mark_problems(found);
    assert_eq!(c.problems(), 2);
    assert!(c.game(2).unwrap().problem.unwrap().contains("Ke3"));
    assert_eq!(c.game(1).unwrap().problem, None);
    // Game 2 repaired and saved: written anew, it has no mark.
    let g2 = c.game(2).unwrap();
    let (offset, len) = (g2.offset, g2.len);
    let repaired = game(&[("White", "B"), ("Result", "*")], "1. e4 e5 2. Ke2 Nc6 *");
    let repaired = repaired.trim_end();
    c.rewritten((offset, len), (offset, repaired.len() as u64));
    c.retag(offset, repaired);
    assert_eq!(c.game(2).unwrap().problem, None);
    assert_eq!(c.problems(), 1);
    // The save moved game 3's lines: checked again, its mark keeps the old place until
    // that check is done, then says the new one.
    let old = c.game(3).unwrap().problem.unwrap().to_string();
    c.recheck();
    assert!(c.rechecking());
    c.mark_problems(vec![(3, "line 99 column 1: moved".to_string())]);
    assert_eq!(c.game(3).unwrap().problem, Some(old.as_str()));
    assert!(c.checked_all(), "a check again");
    assert_eq!(c.game(3).unwrap().problem, Some("line 99 column 1: moved"));
    assert_eq!(c.problems(), 1);
    assert!(!c.checked_all(), "no check again now");
}

/// A save added a game at the end of the file while the loader was still reading it:
/// the list takes it in once every row before it is there, last, as a list read afresh
/// from the new text has it, and the sort puts it where its White belongs.
#[test]
fn a_game_added_while_the_file_is_read_is_listed_last_once_the_rest_is_in() {
    let old = sample().repeat(100);
    let added = game(
        &[("White", "Zukertort, Johannes"), ("Result", "1-0")],
        "1. e4 e5 1-0",
    );
    let added = added.trim_end();
    let new = format!("{old}\n{added}\n");
    let expected = Catalog::read(new.as_bytes()).unwrap();
    let at = (old.len() as u64 + 1, added.len() as u64);

    let mut before = 0;
    let c = list_saving_meanwhile(&old, |c| {
        c.sort_by(Column::White);
        c.added(at, added);
        before = c.games();
    });
    assert!(
        before < expected.games() - 1,
        "{before}: read before the end"
    );
    assert_eq!(c.games(), expected.games());
    let (got, want) = (c.game(601).unwrap(), expected.game(601).unwrap());
    assert_eq!(
        (got.white, got.result, got.plies, got.offset, got.len),
        (want.white, want.result, want.plies, want.offset, want.len)
    );
    let last = c.get(c.matches() - 1).unwrap();
    assert_eq!((last.number, last.white), (601, "Zukertort, Johannes"));
}

/// The list of `text` read from a file by a [`Loader`], with `save` done to it once after
/// the first batch, while the loader still has rows to send (as a save while a big file
/// is listed).
fn list_saving_meanwhile(text: &str, save: impl FnOnce(&mut Catalog)) -> Catalog {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, text).unwrap();
    let loader = Loader::open(&path).unwrap();
    let mut c = Catalog::new();
    let mut save = Some(save);
    loop {
        let event = loader
            .next_timeout(std::time::Duration::from_secs(20))
            .expect("the loader ends");
        let done = !matches!(event, LoadEvent::Batch(_));
        c.apply(event);
        if done {
            return c;
        }
        if let Some(save) = save.take() {
            save(&mut c);
        }
    }
}

/// The list says what Enter does with a game marked ✗: opens one with a move that cannot
/// be played for repair, opens one whose results disagree as any other, and promises
/// nothing for one that does not read at all (a broken tag pair).
#[test]
fn a_problem_says_what_enter_does_with_the_game() {
    let games = crate::pgn::builder::read_games(
        b"[Event \"Club]\n[White \"A\"]\n\n1. e4 e5 *\n\n\
          [Event \"B\"]\n\n1. e4 e5 2. Ke3 *\n\n\
          [Event \"C\"]\n[Result \"1-0\"]\n\n1. e4 e5 0-1\n",
    );
    let said: Vec<String> = games.iter().filter_map(check::problem).collect();
    assert_eq!(said.len(), 3, "{said:?}");
    assert!(
        said[0].ends_with("it cannot be opened here (`scoresheet convert` copies it as written)"),
        "{}",
        said[0]
    );
    assert!(said[1].ends_with("\"Ke3\": illegal: the white king cannot reach e3 (move 2, White to play): Enter opens it to repair"), "{}", said[1]);
    assert!(said[2].ends_with(": Enter opens it"), "{}", said[2]);
}
