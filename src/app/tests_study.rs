//! `:search` and the opening tree pane driven through `update`, the loop's part played
//! by hand: the requests the app makes, and the answers fed back as `Done`s.

use super::*;
use crate::app::study::StudyJob;
use crate::catalog::{Catalog, LoadEvent};
use crate::study::follow::{GameInfo, GameResult};
use crate::study::tree::{Next, Tree};

const SAMPLE: &str = include_str!("../../tests/data/list_sample.pgn");

fn listing() -> App {
    let mut app = App::new(Settings::default(), Game::default(), None);
    app.update(Done::ListOpened {
        path: "sample.pgn".into(),
    });
    let catalog = Catalog::read(SAMPLE.as_bytes()).expect("the sample reads");
    app.list.as_deref_mut().expect("a list").catalog = catalog;
    app.update(Done::Listed(LoadEvent::Done));
    app
}

fn run(app: &mut App, line: &str) -> Effect {
    for c in format!(":{line}").chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry)
}

/// Types `text` on the list's filter line, opening it first.
fn filter(app: &mut App, text: &str) {
    app.update(Action::Filter);
    for c in text.chars() {
        app.update(Action::Type(c));
    }
}

/// The first four fields of a FEN: what the search is asked about.
fn key_of(fen: &str) -> String {
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

#[test]
fn search_filters_the_list_by_the_position_and_opens_a_game_at_its_ply() {
    let mut app = listing();
    app.update(Action::List);
    // From the start position of an empty board: the filter becomes a readable term, and
    // the search is asked for the list's file.
    app.screen = Screen::Game;
    assert_eq!(run(&mut app, "search"), Effect::None);
    assert_eq!(app.screen, Screen::List);
    assert_eq!(app.list().expect("a list").filter, "pos:start");
    assert!(
        app.message.text.contains("searching"),
        "{}",
        app.message.text
    );
    let Some(StudyJob::Search { path, fen }) = app.take_study_request() else {
        panic!("no search asked")
    };
    assert_eq!(path, PathBuf::from("sample.pgn"));
    assert_eq!(fen, key_of(&Position::start().fen()));
    assert_eq!(app.take_study_request(), None, "asked once");
    assert!(app.list().expect("a list").catalog.searching());
    app.update(Done::Searched {
        path,
        fen,
        found: Ok(vec![(3, 2), (1, 5)]),
    });
    let list = app.list().expect("a list");
    assert!(!list.catalog.searching());
    assert_eq!(list.catalog.matches(), 2);
    assert!(app.message.text.contains("2 games reach this position"));
    // Opening game 1 goes to ply 5 (after 3. d4).
    let text = &SAMPLE.as_bytes()[..SAMPLE.find("\n\n[Event").expect("two games")];
    let game = crate::pgn::builder::read_games(text).remove(0).game;
    app.update(Done::Loaded {
        game: Box::new(game),
        path: "sample.pgn".into(),
        number: 1,
        games: None,
    });
    assert_eq!(app.screen, Screen::Game);
    assert_eq!(app.game.node(app.cursor).san, "d4");
    assert_eq!(app.position().fullmove_number(), 3);
    assert!(
        app.message
            .text
            .contains("game 1 of sample.pgn (at the position searched for)"),
        "{}",
        app.message.text
    );
    // :search from there writes the moves that lead to the board, and the position is
    // searched again (another position).
    assert_eq!(run(&mut app, "search"), Effect::None);
    assert_eq!(
        app.list().expect("a list").filter,
        "pos:\"1. e4 c5 2. Nf3 d6 3. d4\""
    );
    let Some(StudyJob::Search { fen, .. }) = app.take_study_request() else {
        panic!("no search asked")
    };
    assert_eq!(
        Some(fen),
        crate::catalog::position_key(&app.position().fen())
    );
}

/// `:search` from a game of the list selects that game among those found (it reaches the
/// position: the search is from its board), as a filter keeps the selected game; Enter
/// there opens it again, and the rows around it are the other games.
#[test]
fn search_from_a_game_of_the_list_keeps_that_game_selected() {
    let mut app = listing();
    app.update(Done::Loaded {
        game: Box::new(Game::default()),
        path: "sample.pgn".into(),
        number: 3,
        games: None,
    });
    assert_eq!(app.list().expect("a list").open, Some(3));
    run(&mut app, "search");
    let Some(StudyJob::Search { path, fen }) = app.take_study_request() else {
        panic!("no search asked")
    };
    app.update(Done::Searched {
        path,
        fen,
        found: Ok(vec![(1, 0), (2, 0), (3, 0), (5, 0)]),
    });
    let list = app.list().expect("a list");
    assert_eq!(list.catalog.matches(), 4);
    assert_eq!(list.selected_number(), Some(3));
}

/// The numbers of the games the list shows, in order.
fn shown(app: &App) -> Vec<u64> {
    let list = app.list().expect("a list");
    (0..list.catalog.matches())
        .map(|k| list.catalog.get(k).expect("row").number)
        .collect()
}

#[test]
fn search_narrows_the_filter_the_user_had_and_esc_takes_it_off_again() {
    let mut app = listing();
    filter(&mut app, "player:carlsen");
    app.update(Action::PlayEntry);
    assert_eq!(shown(&app), [1, 3]);
    app.screen = Screen::Game;
    run(&mut app, "search");
    assert_eq!(
        app.list().expect("a list").filter,
        "player:carlsen pos:start"
    );
    let Some(StudyJob::Search { path, fen }) = app.take_study_request() else {
        panic!("no search asked")
    };
    app.update(Done::Searched {
        path,
        fen,
        found: Ok(vec![(2, 0), (3, 0)]),
    });
    // Carlsen's games among those found: both apply.
    assert_eq!(shown(&app), [3]);
    assert!(
        app.message
            .text
            .contains("Esc shows the games of player:carlsen again"),
        "{}",
        app.message.text
    );
    // A search from another position replaces the search, not the player.
    app.screen = Screen::Game;
    for c in "e4".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
    run(&mut app, "search");
    assert_eq!(
        app.list().expect("a list").filter,
        "player:carlsen pos:\"1. e4\""
    );
    // Esc takes the search off and leaves the player's games; again, all the games.
    app.update(Action::Cancel);
    assert_eq!(app.list().expect("a list").filter, "player:carlsen");
    assert_eq!(shown(&app), [1, 3]);
    app.update(Action::Cancel);
    assert_eq!(shown(&app).len(), 6);
}

#[test]
fn a_typed_pos_term_is_searched_once_and_narrows_with_the_other_terms() {
    let mut app = listing();
    filter(&mut app, "pos:\"1. e4 e5 2. Nf3 Nc6 3. Bb5\"");
    assert_eq!(app.list().expect("a list").catalog.matches(), 6);
    let Some(StudyJob::Search { fen, .. }) = app.take_study_request() else {
        panic!("no search asked for the typed term")
    };
    let ruy = crate::catalog::parse_query("pos:\"1. e4 e5 2. Nf3 Nc6 3. Bb5\"").expect("reads");
    assert!(format!("{ruy:?}").contains(&fen), "{fen}");
    // Another term typed while the search runs: the term is not asked about again.
    for c in " nepo".chars() {
        app.update(Action::Type(c));
    }
    assert_eq!(app.take_study_request(), None);
    assert_eq!(app.list().expect("a list").catalog.matches(), 1);
    app.update(Done::Searched {
        path: "sample.pgn".into(),
        fen,
        found: Ok(vec![(2, 5), (5, 5)]),
    });
    // Games 2 and 5 reach it; of those, Nepomniachtchi's.
    let list = app.list().expect("a list");
    assert_eq!(list.catalog.matches(), 1);
    assert_eq!(list.catalog.get(0).expect("a row").number, 5);
    // Erasing the other term: both games, without asking again.
    for _ in 0..5 {
        app.update(Action::EraseChar);
    }
    assert_eq!(app.take_study_request(), None);
    let list = app.list().expect("a list");
    let shown: Vec<u64> = (0..list.catalog.matches())
        .map(|k| list.catalog.get(k).expect("row").number)
        .collect();
    assert_eq!(shown, [2, 5]);
    // A typed term says nothing of its own in the status line: the count does.
    assert!(!app.message.text.contains("reach"), "{}", app.message.text);
}

#[test]
fn a_pos_term_that_does_not_read_says_where_and_why() {
    let mut app = listing();
    filter(&mut app, "carlsen pos:\"1. e4 Ke7\"");
    assert!(app.message.error);
    assert!(
        app.message.text.contains("column 20, \"Ke7\""),
        "{}",
        app.message.text
    );
    // Nothing to search for: the list stays as the last filter that read left it.
    assert_eq!(app.take_study_request(), None);
    assert!(!app.list().expect("a list").catalog.searching());
}

#[test]
fn a_search_that_finds_nothing_or_fails_says_so() {
    let mut app = listing();
    app.screen = Screen::Game;
    run(&mut app, "search");
    let Some(StudyJob::Search { path, fen }) = app.take_study_request() else {
        panic!("no search asked")
    };
    app.update(Done::Searched {
        path: path.clone(),
        fen: fen.clone(),
        found: Ok(vec![]),
    });
    assert!(app.message.text.contains("no game of sample.pgn"));
    assert_eq!(app.list().expect("list").catalog.matches(), 0);
    // A failed search lets no game through and says why; typing the term again asks
    // again.
    let mut app = listing();
    filter(&mut app, "pos:\"1. d4\"");
    let Some(StudyJob::Search { path, fen }) = app.take_study_request() else {
        panic!("no search asked")
    };
    app.update(Done::Searched {
        path,
        fen,
        found: Err("cannot read sample.pgn: gone".into()),
    });
    assert!(app.message.error);
    assert!(app.message.text.contains("gone"));
    assert_eq!(app.list().expect("list").catalog.matches(), 0);
    app.update(Action::Cancel);
    app.update(Action::Cancel);
    assert_eq!(app.list().expect("list").catalog.matches(), 6);
    filter(&mut app, "pos:\"1. d4\"");
    assert!(app.take_study_request().is_some(), "asked again");
}

fn tree_at(pos: &Position) -> Tree {
    let info = GameInfo {
        result: GameResult::WhiteWins,
        white_elo: 2000,
        black_elo: 0,
        year: 2020,
    };
    let e4 = Next::Move("e2e4".parse().expect("uci"));
    let d4 = Next::Move("d2d4".parse().expect("uci"));
    Tree::build(pos, [(e4, info), (e4, info), (d4, info)])
}

#[test]
fn the_tree_pane_follows_the_cursor_and_enter_plays_its_selected_move() {
    let mut app = App::new(
        Settings::default(),
        Game::default(),
        Some("games.pgn".into()),
    );
    assert_eq!(app.take_study_request(), None, "no pane, no request");
    app.update(Action::TreePane);
    assert_eq!(app.pane, pane::Pane::Tree);
    let Some(StudyJob::Tree { path, fen }) = app.take_study_request() else {
        panic!("no tree asked")
    };
    assert_eq!(path, PathBuf::from("games.pgn"));
    assert_eq!(app.take_study_request(), None, "asked once per position");
    app.update(Done::Tree {
        fen: fen.clone(),
        tree: Ok(tree_at(&Position::start())),
        note: String::new(),
    });
    let sans: Vec<&str> = app
        .current_tree()
        .expect("a tree")
        .branches
        .iter()
        .map(|b| b.san.as_str())
        .collect();
    assert_eq!(sans, ["e4", "d4"]);
    // Alt-j selects d4; Enter on the empty line plays it.
    app.update(Action::TreeDown);
    app.update(Action::TreeDown);
    assert_eq!(app.tree.selected, 1, "the selection stops at the last move");
    app.update(Action::PlayEntry);
    assert_eq!(app.game.node(app.cursor).san, "d4");
    // The cursor moved: the pane asks for the new position's tree, and the old one no
    // longer shows.
    assert!(app.current_tree().is_none());
    let Some(StudyJob::Tree { fen: next, .. }) = app.take_study_request() else {
        panic!("the pane does not follow the cursor")
    };
    assert_ne!(next, fen);
    // A late answer for the old position is not shown.
    app.update(Done::Tree {
        fen,
        tree: Ok(tree_at(&Position::start())),
        note: String::new(),
    });
    assert!(app.current_tree().is_none());
    // Typed text still goes to the entry line: Enter plays what was typed.
    for c in "e5".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
    assert_eq!(app.game.node(app.cursor).san, "e5");
    app.update(Action::TreePane);
    assert_eq!(app.pane, pane::Pane::None);
}

#[test]
fn the_tree_needs_a_file() {
    let mut app = App::new(Settings::default(), Game::default(), None);
    app.update(Action::TreePane);
    assert_eq!(app.pane, pane::Pane::None);
    assert!(app.message.error);
}

#[test]
fn a_search_that_finds_one_game_says_it_reaches_the_position() {
    // A file of one game (no list): the answer is a message.
    let mut app = App::new(Settings::default(), Game::default(), Some("one.pgn".into()));
    app.update(Done::Searched {
        path: "one.pgn".into(),
        fen: key_of(&Position::start().fen()),
        found: Ok(vec![(1, 0)]),
    });
    assert_eq!(app.message.text, "1 game reaches this position: 1");
    // Many: the first twelve, and where to see them all.
    app.update(Done::Searched {
        path: "one.pgn".into(),
        fen: key_of(&Position::start().fen()),
        found: Ok((1..=827).map(|n| (n, 0)).collect()),
    });
    assert_eq!(
        app.message.text,
        "827 games reach this position: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, … (Ctrl-L lists \
         the games of one.pgn, where :search shows them all)"
    );
    // On the list, from a game of it.
    let mut app = listing();
    app.screen = Screen::Game;
    run(&mut app, "search");
    let Some(StudyJob::Search { path, fen }) = app.take_study_request() else {
        panic!("no search asked")
    };
    app.update(Done::Searched {
        path,
        fen,
        found: Ok(vec![(3, 2)]),
    });
    assert!(
        app.message
            .text
            .starts_with("1 game reaches this position;"),
        "{}",
        app.message.text
    );
}

#[test]
fn a_tree_move_inside_the_game_is_a_variation_even_when_typing_replaces() {
    // An unfinished game opens with typing replacing moves (the recorder's default).
    let mut app = App::new(
        Settings::default(),
        Game::default(),
        Some("games.pgn".into()),
    );
    for c in "e4 e5 Nf3".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
    assert_eq!(app.inside, Inside::Replace);
    app.update(Action::GoStart);
    app.update(Action::TreePane);
    let Some(StudyJob::Tree { fen, .. }) = app.take_study_request() else {
        panic!("no tree asked")
    };
    app.update(Done::Tree {
        fen,
        tree: Ok(tree_at(&Position::start())),
        note: String::new(),
    });
    // d4, from the file's games: beside the game's 1.e4, which stays with what follows.
    app.update(Action::TreeDown);
    app.update(Action::PlayEntry);
    assert_eq!(app.game.node(app.cursor).san, "d4");
    let main: Vec<_> = app
        .game
        .mainline()
        .iter()
        .map(|&id| app.game.node(id).san.clone())
        .collect();
    assert_eq!(main, ["e4", "e5", "Nf3"]);
    assert_eq!(app.inside, Inside::Replace, "typing still replaces");
}
