//! The list screen after saves into its file, `:new`, and Ctrl-L from a game opened
//! alone.

use super::*;

/// A pasted game written with `:w` into the list's file: the list shows it, last and
/// selected, the count takes it in, the previous game is the file's one before it, and
/// a second `:w` with other tags shows them in its row.
#[test]
fn a_game_added_to_the_lists_file_is_listed_selected_and_its_tags_follow_it() {
    let mut app = listing();
    pasted(&mut app, "[White \"Ann\"]\n\n1. d4 d5 *\n");
    // The loop added it at the end of the file (after a blank line) and counted it.
    let text = crate::pgn::write_game_to_string(&app.game);
    let at = (SAMPLE.len() as u64 + 1, text.len() as u64);
    app.update(Done::Rewrote {
        path: "sample.pgn".into(),
        before: None,
        after: at,
        text: text.clone(),
    });
    app.update(Done::Saved {
        path: "sample.pgn".into(),
        unchanged: false,
        placed: Placed::Added(Some(7)),
    });
    app.update(Action::List);
    assert_eq!(app.screen, Screen::List);
    let list = app.list().unwrap();
    assert_eq!(list.catalog.games(), 7);
    assert_eq!(selected(&app), 7);
    let row = list.catalog.game(7).unwrap();
    assert_eq!((row.white, row.offset, row.len), ("Ann", at.0, at.1));
    assert_eq!(app.update(Action::OpenGame), Effect::None, "the game open");
    let Effect::LoadAt { number, .. } = app.update(Action::PreviousGame) else {
        panic!("no previous game")
    };
    assert_eq!(number, 6);

    // Saved again in its place, with another White: its row says so.
    app.game.set_tag("White", "Bea");
    let again = crate::pgn::write_game_to_string(&app.game);
    app.update(Done::Rewrote {
        path: "sample.pgn".into(),
        before: Some(at),
        after: (at.0, again.len() as u64),
        text: again,
    });
    let row = app.list().unwrap().catalog.game(7).unwrap();
    assert_eq!(row.white, "Bea");
}

/// The list of the sample file whose reading stopped with an error after its first
/// three games (as a file cut short by another program, or a disk error).
fn listing_stopped() -> App {
    let mut app = App::new(Settings::default(), Game::default(), None);
    app.update(Done::ListOpened {
        path: "sample.pgn".into(),
    });
    let whole = Catalog::read(SAMPLE.as_bytes()).expect("the sample reads");
    let fourth = whole.game(4).expect("a fourth game").offset as usize;
    let catalog = Catalog::read(&SAMPLE.as_bytes()[..fourth]).expect("the start reads");
    app.list.as_deref_mut().expect("a list").catalog = catalog;
    app.update(Done::Listed(LoadEvent::Failed(std::io::Error::other(
        "Input/output error",
    ))));
    app
}

/// A pasted game added by `:w` to the list's file after its reading stopped short of the
/// end: the list cannot tell which game of the file it is, so it gets no row, and the
/// save says so and how to list the file again, instead of leaving the player to look
/// for a row that never comes.
#[test]
fn a_game_added_after_the_lists_reading_stopped_is_said_not_to_be_listed() {
    let mut app = listing_stopped();
    assert_eq!(app.list().unwrap().catalog.games(), 3);
    pasted(&mut app, "[White \"Ann\"]\n\n1. d4 d5 *\n");
    let text = crate::pgn::write_game_to_string(&app.game);
    app.update(Done::Rewrote {
        path: "sample.pgn".into(),
        before: None,
        after: (SAMPLE.len() as u64 + 1, text.len() as u64),
        text,
    });
    app.update(Done::Saved {
        path: "sample.pgn".into(),
        unchanged: false,
        placed: Placed::Added(Some(7)),
    });
    assert_eq!(
        app.message.text,
        "saved to sample.pgn as its game 7; not in the list, whose reading of the file \
         stopped (Input/output error): :e sample.pgn lists the file again"
    );
    assert!(!app.message.error);
    let list = app.list().unwrap();
    assert_eq!((list.catalog.games(), list.open), (3, None));
    assert_eq!(list.catalog.unlisted(), 1);
    assert_eq!(app.number, Some(7), "its number, as the save counted it");
}

/// A game added while the file is still read, and the reading then stops with an error:
/// the message of the stop says the game is not listed.
#[test]
fn a_game_added_while_the_file_is_read_is_named_when_the_reading_stops() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sample.pgn");
    std::fs::write(&path, SAMPLE).unwrap();
    let mut app = App::new(Settings::default(), Game::default(), None);
    app.update(Done::ListOpened { path: path.clone() });
    let loader = crate::catalog::Loader::open(&path).unwrap();
    let first = loader
        .next_timeout(std::time::Duration::from_secs(20))
        .expect("a first batch");
    assert!(matches!(first, LoadEvent::Batch(_)), "{first:?}");
    app.update(Done::Listed(first));
    pasted(&mut app, "[White \"Ann\"]\n\n1. d4 d5 *\n");
    let text = crate::pgn::write_game_to_string(&app.game);
    app.update(Done::Rewrote {
        path: path.clone(),
        before: None,
        after: (SAMPLE.len() as u64 + 1, text.len() as u64),
        text,
    });
    app.update(Done::Saved {
        path: path.clone(),
        unchanged: false,
        placed: Placed::Added(Some(7)),
    });
    app.update(Done::Listed(LoadEvent::Failed(std::io::Error::other(
        "Input/output error",
    ))));
    assert!(
        app.message.text.ends_with(&format!(
            "; 1 game saved there meanwhile not listed (:e {} lists the file again)",
            path.display()
        )),
        "{}",
        app.message.text
    );
    assert_eq!(app.list().unwrap().open, None);
}

/// `:new` typed on the list, or in a game opened from it: the new game is on the game
/// screen, where its moves are typed, and it is not the list's open game (the status
/// corner named the list's game for it, `game 1 of 6`).
#[test]
fn a_new_game_from_the_list_is_shown_and_is_not_the_lists_game() {
    use super::undo::press;
    let config = crate::config::Config::defaults();
    let mut app = listing();
    press(&mut app, &config, ":new<ret>");
    assert_eq!(app.screen, Screen::Game);
    press(&mut app, &config, "d4<ret>");
    assert_eq!(app.game.mainline().len(), 1, "{}", app.message.text);
    // From a game of the list.
    let mut app = listing();
    let Effect::LoadAt { number, .. } = app.update(Action::OpenGame) else {
        panic!("no game asked for")
    };
    let game = crate::pgn::read_games(SAMPLE.as_bytes()).remove(0).game;
    app.update(Done::Loaded {
        game: Box::new(game),
        path: "sample.pgn".into(),
        number,
        games: None,
    });
    assert_eq!(app.list().unwrap().open, Some(1));
    press(&mut app, &config, ":new<ret>");
    assert_eq!((app.screen, app.list().unwrap().open), (Screen::Game, None));
}

/// A game opened alone from a file of many (`:e FILE N`) has no list yet: Ctrl-L opens
/// its file's list (as `:e FILE` does) with the game as the list's open one, Ctrl-L
/// again goes back to it; over unsaved changes Ctrl-L asks for a save first. Alt-Down
/// says where the list is. The game of a one-game file, or a game without a file,
/// still has no list.
#[test]
fn ctrl_l_on_a_game_opened_alone_lists_its_file() {
    let mut app = App::new(Settings::default(), Game::default(), None);
    loaded(&mut app, "club.pgn.gz", 2, None);
    let before = app.game.clone();
    app.update(Action::NextGame);
    assert_eq!(
        app.message.text,
        "no list open: game 2 was opened alone; Ctrl-L lists the games of its file"
    );
    app.update(Action::MoveForward);
    typed(&mut app, "{a note}");
    app.update(Action::PlayEntry);
    assert!(app.unsaved);
    assert_eq!(app.update(Action::List), Effect::None);
    assert!(app.message.error);
    assert_eq!(
        app.message.text,
        "game 2 has changes that are not saved: Ctrl-S first, then the list of club.pgn.gz opens"
    );
    app.update(Action::Undo);
    app.unsaved = false;
    assert_eq!(
        app.update(Action::List),
        Effect::Browse {
            path: "club.pgn.gz".into()
        }
    );
    // The loop opens the list: the game stays, as the list's open game.
    app.update(Done::ListOpened {
        path: "club.pgn.gz".into(),
    });
    assert_eq!(app.screen, Screen::List);
    assert_eq!(app.list().unwrap().open, Some(2));
    assert_eq!(app.game, before);
    // Its row comes: it is the one selected, so that Enter opens it, not game 1.
    let catalog = Catalog::read(SAMPLE.as_bytes()).expect("the sample reads");
    app.list.as_deref_mut().expect("a list").catalog = catalog;
    app.update(Done::Listed(LoadEvent::Done));
    assert_eq!(app.list().unwrap().selected_number(), Some(2));
    app.update(Action::List);
    assert_eq!(app.screen, Screen::Game);

    let mut one = App::new(Settings::default(), Game::default(), None);
    loaded(&mut one, "one.pgn", 1, Some(1));
    for action in [Action::List, Action::NextGame] {
        assert_eq!(one.update(action), Effect::None);
        assert_eq!(
            one.message.text,
            "this game is not from a file of many games"
        );
        assert_eq!(one.screen, Screen::Game);
    }
    let mut new = App::new(Settings::default(), Game::default(), None);
    assert_eq!(new.update(Action::List), Effect::None);
    assert_eq!(
        new.message.text,
        "this game is not from a file of many games"
    );
}

#[test]
fn the_way_back_to_the_list_is_the_second_hint_of_its_game() {
    let mut app = listing();
    let labels = |app: &App| -> Vec<&'static str> { app.hints().iter().map(|h| h.1).collect() };
    assert_eq!(labels(&app)[..2], ["help", "list/game"], "the list's own");
    loaded(&mut app, "sample.pgn", 1, None);
    assert_eq!(app.screen, Screen::Game);
    let hints = app.hints();
    assert_eq!(hints[1], ("Ctrl-L".to_string(), "list/game"), "{hints:?}");
    assert_eq!(labels(&app)[2..4], ["back", "forward"]);
    let recorder = App::new(Settings::default(), Game::default(), None);
    assert_eq!(labels(&recorder)[..3], ["help", "back", "forward"]);
    assert!(!labels(&recorder).contains(&"list/game"));
}

/// `:w OTHER.pgn` of a game read from a file: the status says that the game is the other
/// file's now (a plain `:w` writes there) and the first file is as it was.
#[test]
fn a_game_saved_as_another_file_says_where_w_writes_now() {
    let mut app = App::new(
        Settings::default(),
        Game::default(),
        Some("first.pgn".into()),
    );
    app.update(Done::Saved {
        path: "other.pgn".into(),
        unchanged: false,
        placed: Placed::Added(Some(3)),
    });
    assert_eq!(
        app.message.text,
        "saved to other.pgn; :w writes there from now on (first.pgn is as it was)"
    );
    assert_eq!(app.file.as_deref(), Some(std::path::Path::new("other.pgn")));
    // Saved again there: nothing more to say.
    app.update(Done::Saved {
        path: "other.pgn".into(),
        unchanged: false,
        placed: Placed::InPlace,
    });
    assert_eq!(app.message.text, "saved to other.pgn");
}
