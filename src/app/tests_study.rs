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

#[test]
fn search_filters_the_list_to_the_games_found_and_opens_one_at_its_ply() {
    let mut app = listing();
    app.update(Action::List);
    // From the start position of an empty board: the request names the list's file.
    app.screen = Screen::Game;
    let Effect::Study(StudyJob::Search { path, fen }) = run(&mut app, "search") else {
        panic!("no search asked")
    };
    assert_eq!(path, PathBuf::from("sample.pgn"));
    assert_eq!(fen, Position::start().fen());
    app.update(Done::Searched {
        path,
        found: Ok(vec![(1, 5), (3, 2)]),
    });
    assert_eq!(app.screen, Screen::List);
    let list = app.list().expect("a list");
    assert_eq!(list.filter, "game:1,3");
    assert_eq!(list.catalog.matches(), 2);
    assert!(app.message.text.contains("2 games reach this position"));
    // Opening game 1 goes to ply 5 (after 3. d4).
    let text = &SAMPLE.as_bytes()[..SAMPLE.find("\n\n[Event").expect("two games")];
    let game = crate::pgn::builder::read_games(text).remove(0).game;
    app.update(Done::Loaded {
        game: Box::new(game),
        path: "sample.pgn".into(),
        number: 1,
    });
    assert_eq!(app.screen, Screen::Game);
    assert_eq!(app.game.node(app.cursor).san, "d4");
    assert_eq!(app.position().fullmove_number(), 3);
}

#[test]
fn a_search_that_finds_nothing_says_so_and_keeps_the_list() {
    let mut app = listing();
    app.update(Done::Searched {
        path: "sample.pgn".into(),
        found: Ok(vec![]),
    });
    assert!(app.message.text.contains("no game of sample.pgn"));
    assert_eq!(app.list().expect("list").filter, "");
    app.update(Done::Searched {
        path: "sample.pgn".into(),
        found: Err("cannot read sample.pgn: gone".into()),
    });
    assert!(app.message.error);
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
