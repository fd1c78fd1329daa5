//! Every way a game opens gives the same start: a finished game at its start, read
//! (a typed move is a variation); an unfinished one at its last move, recording.

use super::super::*;
use crate::catalog::{Catalog, LoadEvent};
use crate::pgn::builder::read_games;

const FINISHED: &str = "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
                        1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n";
const UNFINISHED: &str = "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n\
                          1. d4 d5 2. c4 e6 *\n";

fn game(pgn: &str) -> Game {
    read_games(pgn.as_bytes()).remove(0).game
}

fn fresh() -> App {
    App::new(Settings::default(), Game::default(), None)
}

/// The app on the list of a file of the two games (1 finished, 2 unfinished).
fn listing() -> App {
    let mut app = fresh();
    app.update(Done::ListOpened {
        path: "two.pgn".into(),
    });
    let text = format!("{FINISHED}\n{UNFINISHED}");
    let catalog = Catalog::read(text.as_bytes()).expect("the file lists");
    app.list.as_deref_mut().expect("a list").catalog = catalog;
    app.update(Done::Listed(LoadEvent::Done));
    app
}

/// Game `number` of `path` read in, as the loop answers an `Effect::LoadAt` (the
/// list), an `Effect::Load` (`:e FILE N`) or `scoresheet FILE` (game 1).
fn loaded(app: &mut App, pgn: &str, path: &str, number: usize) {
    app.update(Done::Loaded {
        game: Box::new(game(pgn)),
        path: path.into(),
        number,
        games: None,
    });
}

/// Where the app is and what typing does: the move at the cursor (`start` at the
/// root), the mode, the view.
fn opened(app: &App) -> (String, Inside, MovesView) {
    let at = if app.cursor == NodeId::ROOT {
        "start".to_string()
    } else {
        app.game.node(app.cursor).san.clone()
    };
    (at, app.inside, app.moves_view)
}

fn read() -> (String, Inside, MovesView) {
    ("start".into(), Inside::Variation, MovesView::Indented)
}

fn recording(last: &str) -> (String, Inside, MovesView) {
    (last.into(), Inside::Replace, MovesView::Sheet)
}

#[test]
fn from_the_list_a_finished_game_is_read_and_an_unfinished_one_recorded() {
    let mut app = listing();
    assert!(matches!(
        app.update(Action::OpenGame),
        Effect::LoadAt { number: 1, .. }
    ));
    loaded(&mut app, FINISHED, "two.pgn", 1);
    assert_eq!(opened(&app), read());
    assert_eq!(app.screen, Screen::Game);
    assert!(matches!(
        app.update(Action::NextGame),
        Effect::LoadAt { number: 2, .. }
    ));
    loaded(&mut app, UNFINISHED, "two.pgn", 2);
    assert_eq!(opened(&app), recording("e6"));
    assert_eq!(app.list().and_then(|l| l.open), Some(2));
}

#[test]
fn by_number_with_e_the_game_opens_as_from_the_list() {
    let mut app = fresh();
    assert_eq!(
        app.run_command("e club.pgn 3"),
        Effect::Load {
            path: "club.pgn".into(),
            number: 3
        }
    );
    loaded(&mut app, FINISHED, "club.pgn", 3);
    assert_eq!(opened(&app), read());
    assert_eq!(app.number, Some(3));
    assert!(
        app.message.text.contains("read from the start"),
        "{}",
        app.message.text
    );
    // A typed move inside it is a variation: the game keeps its moves.
    app.update(Action::MoveForward);
    for c in "d5".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
    assert_eq!(app.game.mainline().len(), 6, "the game's moves stay");
    loaded(&mut app, UNFINISHED, "club.pgn", 4);
    assert_eq!(opened(&app), recording("e6"));
    assert!(
        app.message.text.contains("to go on recording"),
        "{}",
        app.message.text
    );
}

/// `scoresheet FILE` of one game: the loop reads it as game 1 of the file, with no list.
#[test]
fn a_file_of_one_game_opens_as_from_the_list() {
    let mut app = fresh();
    loaded(&mut app, FINISHED, "one.pgn", 1);
    assert_eq!(opened(&app), read());
    let mut app = fresh();
    loaded(&mut app, UNFINISHED, "one.pgn", 1);
    assert_eq!(opened(&app), recording("e6"));
}

#[test]
fn a_pasted_or_recovered_game_opens_the_same_way() {
    let mut app = fresh();
    app.update(Done::Opened(Box::new(game(FINISHED))));
    assert_eq!(opened(&app), read());
    app.update(Done::Opened(Box::new(game(UNFINISHED))));
    assert_eq!(opened(&app), recording("e6"));
    app.update(Done::Recovered {
        game: Box::new(game(FINISHED)),
        out: None,
        offset: None,
        message: "recovered".into(),
    });
    assert_eq!(opened(&app), read());
}

/// What one game set (reading a finished game) does not stay for the next: a new game
/// is recorded as the configuration says, and a view the user chose is kept.
#[test]
fn nothing_of_the_game_before_carries_over() {
    let mut app = fresh();
    app.settings.inside = Inside::Variation;
    loaded(&mut app, UNFINISHED, "club.pgn", 1);
    assert_eq!(app.inside, Inside::Variation, "the configuration's choice");
    app.settings.inside = Inside::Replace;
    loaded(&mut app, FINISHED, "club.pgn", 2);
    app.unsaved = false;
    app.run_command("new");
    assert_eq!(opened(&app), recording("start"));
    app.update(Action::NextView);
    let chosen = app.moves_view;
    loaded(&mut app, FINISHED, "club.pgn", 2);
    assert_eq!(app.moves_view, chosen, "the user's view stays");
}

/// A finished game with moves waiting after a correction (saved as the recorder's
/// `moves not replayed: …` comment) opens where they wait, as an unfinished one does,
/// on the scoresheet that shows them; the right move typed there replays them.
#[test]
fn a_finished_game_with_waiting_moves_opens_where_they_wait() {
    const WAITING: &str = "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
                           1. e4 e5 2. Nf3 Nc6 3. Bb5 {moves not replayed: 3... a6 4. Ba4} 1-0\n";
    let mut app = fresh();
    loaded(&mut app, WAITING, "club.pgn", 3);
    assert_eq!(
        opened(&app),
        ("Bb5".into(), Inside::Variation, MovesView::Sheet)
    );
    assert!(
        app.message.text.contains("where moves wait"),
        "{}",
        app.message.text
    );
    assert!(
        app.message.text.contains("waiting: 3...a6 4.Ba4"),
        "{}",
        app.message.text
    );
    for c in "a6".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
    assert_eq!(app.game.mainline().len(), 7, "a6 and the waiting Ba4");
    assert_eq!(app.pending, None);
}

/// A game whose movetext ends with another result than its `Result` tag's opens with a
/// word on both, and keeps both as read where it is written (`:w`, the journal) until the
/// result is set, in the tag form or by typing one.
#[test]
fn results_that_disagree_are_said_on_opening_and_kept_until_the_result_is_set() {
    const BOTH: &str = "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
                        1. e4 e5 2. Nf3 0-1\n";
    let mut app = fresh();
    loaded(&mut app, BOTH, "both.pgn", 4);
    let said = &app.message.text;
    assert!(
        said.contains("its moves end 0-1 but its Result tag says 1-0: both kept"),
        "{said}"
    );
    let last = *app.game.mainline().last().expect("moves");
    app.game
        .set_comment_at(last, crate::game::notes::CommentPlace::After, "checked");
    let written = crate::pgn::write_game_to_string(&app.game);
    assert!(written.contains("[Result \"1-0\"]"), "{written}");
    assert!(
        written.trim_end().ends_with("2. Nf3 {checked} 0-1"),
        "{written}"
    );
    // Read back (as the journal or the file is), the same text.
    let again = crate::pgn::write_game_to_string(&game(&written));
    assert_eq!(again, written);
    // An agreeing game has no such word.
    loaded(&mut app, FINISHED, "both.pgn", 1);
    assert!(
        !app.message.text.contains("both kept"),
        "{}",
        app.message.text
    );
    // Setting the result settles it: one result in both places.
    let mut settled = game(BOTH);
    settled.set_tag("Result", "0-1");
    let written = crate::pgn::write_game_to_string(&settled);
    assert!(written.contains("[Result \"0-1\"]") && written.trim_end().ends_with("0-1"));
    // The tag form written back with its Result as it was settles nothing.
    let mut via_form = game(BOTH);
    crate::app::tagform::TagForm::open(&via_form).write(&mut via_form);
    assert_eq!(via_form.written_result(), Some("0-1"));
}
