//! The list screen driven through `update`: selection, filter, sort, opening
//! a game and coming back, the next and previous game.

use super::*;
use crate::catalog::{Catalog, LoadEvent};

const SAMPLE: &str = include_str!("../../tests/data/list_sample.pgn");

/// The app on the list of the sample file, every row loaded.
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

fn selected(app: &App) -> u64 {
    app.list()
        .and_then(|l| l.selected_number())
        .expect("a game selected")
}

/// The loop's answer to opening the sample's first game as game `number` of `path`.
fn loaded(app: &mut App, path: &str, number: usize, games: Option<u64>) {
    let game = crate::pgn::builder::read_games(SAMPLE.as_bytes())
        .remove(0)
        .game;
    app.update(Done::Loaded {
        game: Box::new(game),
        path: path.into(),
        number,
        games,
    });
}

/// Pastes a game's text: the app asks for it to be opened, and the loop opens it.
fn pasted(app: &mut App, text: &str) {
    let effect = app.update(Msg::Paste {
        text: text.into(),
        whole: true,
    });
    let Effect::Open(game) = effect else {
        panic!("{effect:?}")
    };
    app.update(Done::Opened(game));
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Action::Type(c));
    }
}

#[test]
fn the_list_opens_on_the_first_game_and_moves_within_it() {
    let mut app = listing();
    assert_eq!(app.screen, Screen::List);
    assert_eq!(selected(&app), 1);
    app.update(Action::ListDown);
    app.update(Action::ListDown);
    assert_eq!(selected(&app), 3);
    app.update(Action::ListLast);
    assert_eq!(selected(&app), 6);
    app.update(Action::ListDown);
    assert_eq!(selected(&app), 6, "no row past the last");
    app.update(Action::ListFirst);
    app.update(Action::ListUp);
    assert_eq!(selected(&app), 1);
}

#[test]
fn a_filter_narrows_as_typed_and_esc_closes_then_clears_it() {
    let mut app = listing();
    app.update(Action::Filter);
    // A bound letter (w sorts by White) is text while the filter line is open.
    typed(&mut app, "carlsn");
    let list = app.list().unwrap();
    assert_eq!(list.filter, "carlsn");
    assert_eq!(list.catalog.matches(), 2, "Carlsen's two games, fuzzily");
    app.update(Action::EraseChar);
    assert_eq!(app.list().unwrap().filter, "carls");
    app.update(Action::Cancel);
    let list = app.list().unwrap();
    assert!(!list.filtering);
    assert_eq!(
        list.catalog.matches(),
        2,
        "closing the line keeps the filter"
    );
    app.update(Action::Cancel);
    assert_eq!(app.list().unwrap().catalog.matches(), 6);
}

/// A filter that cannot be read says why, also after Enter ends the typing; an error a
/// letter typed on the way gave (`result:0-` before the `1`) goes once the filter reads,
/// so the status does not blame a filter that works.
#[test]
fn a_filter_error_is_said_and_goes_once_the_filter_reads() {
    let mut app = listing();
    app.update(Action::Filter);
    typed(&mut app, "result:0-");
    let said = app.message.text.clone();
    assert!(app.message.error && said.starts_with("filter: "), "{said}");
    app.update(Action::OpenGame);
    assert_eq!((app.message.error, &app.message.text), (true, &said));
    app.update(Action::Filter);
    typed(&mut app, "1");
    assert_eq!(app.message, Message::default());
    assert_eq!(app.list().unwrap().catalog.matches(), 2);
}

/// A year typed as a plain word (`carlsen anand 2013`) is looked for in names, events,
/// sites and openings, where it finds nothing: the status line says how to ask for the
/// year, and the hint goes once the filter changes; `year:2013` finds the games.
#[test]
fn a_plain_year_that_finds_nothing_says_how_to_ask_for_the_year() {
    let mut app = listing();
    app.update(Action::Filter);
    typed(&mut app, "carlsen anand 2013");
    assert_eq!(app.list().unwrap().catalog.matches(), 0);
    assert_eq!(
        app.message.text,
        "no game has \"2013\" in a name, event, site or opening: for the year, write year:2013"
    );
    assert!(!app.message.error);
    for _ in 0.."2013".len() {
        app.update(Action::EraseChar);
    }
    assert_eq!(app.message, Message::default());
    typed(&mut app, "year:2013");
    assert_eq!(app.list().unwrap().catalog.matches(), 2);
    assert_eq!(app.message, Message::default());
    // Quoted, after a field or inside a word, it is not a plain year.
    assert!(crate::catalog::query::plain_years("\"1972\" event:2013 x1972 1972").eq(&["1972"]));
}

#[test]
fn sorting_shows_the_top_of_the_new_order_and_again_reverses() {
    let mut app = listing();
    app.update(Action::ListLast);
    app.update(Action::SortWhite);
    // Anand, Viswanathan is first of the Whites A to Z: the top is selected.
    assert_eq!(selected(&app), 3, "the first row is selected");
    assert_eq!(app.list().expect("a list").selected, 0);
    assert_eq!(
        app.message.text,
        "sorted by White, A to Z (again: reversed)"
    );
    app.update(Action::ListFirst);
    let first = selected(&app);
    app.update(Action::SortWhite);
    assert_eq!(
        app.message.text,
        "sorted by White, Z to A (again: reversed)"
    );
    app.update(Action::ListLast);
    assert_eq!(selected(&app), first, "reversed");
}

#[test]
fn enter_asks_for_the_selected_games_text_and_the_game_comes_back_to_the_list() {
    let mut app = listing();
    app.update(Action::ListDown);
    let Effect::LoadAt {
        number,
        offset,
        len,
        ..
    } = app.update(Action::OpenGame)
    else {
        panic!("no load asked")
    };
    assert_eq!(number, 2);
    let text = &SAMPLE.as_bytes()[offset as usize..(offset + len) as usize];
    assert!(
        text.starts_with(b"[Event"),
        "{:?}",
        String::from_utf8_lossy(text)
    );
    let game = crate::pgn::builder::read_games(text).remove(0).game;
    app.update(Done::Loaded {
        game: Box::new(game),
        path: "sample.pgn".into(),
        number,
        games: None,
    });
    assert_eq!(app.screen, Screen::Game);
    assert_eq!(app.cursor, NodeId::ROOT, "read from the start");
    assert_eq!(app.moves_view, MovesView::Indented);
    // Back to the list: the same game selected; Enter on it goes back to the game.
    app.update(Action::List);
    assert_eq!(app.screen, Screen::List);
    assert_eq!(selected(&app), 2);
    assert_eq!(app.update(Action::OpenGame), Effect::None);
    assert_eq!(app.screen, Screen::Game);
    // The next game of the list, from inside the game.
    let Effect::LoadAt { number, .. } = app.update(Action::NextGame) else {
        panic!("no next game")
    };
    assert_eq!(number, 3);
    // A sort on the list shows the top of the new order; going to the game and back
    // finds game 2 selected again, where the sort put it.
    app.update(Action::List);
    app.update(Action::SortWhite);
    assert_eq!(selected(&app), 3);
    app.update(Action::List);
    assert_eq!(app.screen, Screen::Game);
    app.update(Action::List);
    assert_eq!(selected(&app), 2);
    assert_eq!(
        app.list().expect("a list").selected,
        3,
        "Ljubojević, 4th A to Z"
    );
}

#[test]
fn another_game_is_not_opened_over_unsaved_changes() {
    let mut app = listing();
    let text = SAMPLE.as_bytes();
    let game = crate::pgn::builder::read_games(text).remove(0).game;
    app.update(Done::Loaded {
        game: Box::new(game),
        path: "sample.pgn".into(),
        number: 1,
        games: None,
    });
    app.update(Action::GoEnd);
    app.update(Action::NagGood);
    assert!(app.unsaved);
    app.update(Action::List);
    app.update(Action::ListDown);
    assert_eq!(app.update(Action::OpenGame), Effect::None);
    assert!(app.message.error);
    assert!(
        app.message
            .text
            .starts_with("game 1 has changes that are not saved"),
        "{}",
        app.message.text
    );
    // The way out it names opens that game, not `:q!`, which quits the program.
    assert!(
        app.message.text.contains(":e! sample.pgn 2"),
        "{}",
        app.message.text
    );
    assert!(!app.message.text.contains(":q!"), "{}", app.message.text);
    app.update(Action::List);
    assert_eq!(
        app.run_command("e! sample.pgn 2"),
        Effect::Load {
            path: "sample.pgn".into(),
            number: 2
        }
    );
}

#[test]
fn a_paste_goes_to_the_open_filter_and_a_pasted_game_opens_on_the_game_screen() {
    let mut app = listing();
    app.update(Action::Filter);
    app.update(Msg::Paste {
        text: "Kasparov\n".into(),
        whole: true,
    });
    assert_eq!(app.list().unwrap().filter, "Kasparov");
    assert_eq!(app.list().unwrap().catalog.matches(), 1);
    app.update(Action::Cancel);
    pasted(&mut app, "[White \"Ann\"]\n\n1. d4 d5 *\n");
    assert_eq!(app.screen, Screen::Game);
    assert_eq!(app.game.tag("White"), Some("Ann"));
}

/// A game opened from the list takes a move typed where it has another as a variation
/// (it is read, not corrected), and the game keeps its moves; Insert switches to
/// replacing, and the next game opened from the list starts adding variations again.
#[test]
fn a_move_typed_inside_a_game_of_the_list_is_a_variation() {
    let mut app = listing();
    assert_eq!(app.inside, Inside::Replace, "the recorder's default");
    let open = |app: &mut App, number: u64| {
        let row = app.list().unwrap().catalog.game(number).unwrap();
        let (offset, len) = (row.offset as usize, row.len as usize);
        let text = &SAMPLE.as_bytes()[offset..offset + len];
        let game = crate::pgn::builder::read_games(text).remove(0).game;
        app.update(Done::Loaded {
            game: Box::new(game),
            path: "sample.pgn".into(),
            number: number as usize,
            games: None,
        });
    };
    open(&mut app, 1);
    assert_eq!(app.inside, Inside::Variation);
    let before = app.game.mainline().len();
    app.update(Action::MoveForward);
    typed(&mut app, "d5");
    app.update(Action::PlayEntry);
    assert_eq!(app.game.mainline().len(), before, "the game's moves stay");
    assert_eq!(app.game.node(app.cursor).san, "d5");
    app.update(Action::ToggleReplace);
    assert_eq!(app.inside, Inside::Replace);
    app.update(Action::Undo);
    app.unsaved = false;
    open(&mut app, 3);
    assert_eq!(app.inside, Inside::Variation);
}

#[test]
fn a_game_opened_for_repair_from_the_list_is_shown_as_its_open_game() {
    let mut app = listing();
    app.update(Action::ListDown);
    let game = crate::pgn::builder::read_games(b"1. e4 e5 *")
        .remove(0)
        .game;
    app.update(Done::LoadedForRepair {
        game: Box::new(game),
        path: "sample.pgn".into(),
        stop: "game 2 of sample.pgn, line 9 column 1: \"Ke3\": illegal".into(),
        rest: "2. Ke3 Nc6 *".into(),
        incomplete: true,
        number: 2,
        games: None,
    });
    assert_eq!(app.screen, Screen::Game);
    assert_eq!(app.list().unwrap().open, Some(2));
    // Back to the list and again: the same game, not a refusal over its changes.
    app.update(Action::List);
    assert_eq!(app.update(Action::OpenGame), Effect::None);
    assert_eq!(app.screen, Screen::Game);
    assert!(!app.message.error, "{}", app.message.text);
}

#[test]
fn a_colon_on_the_list_starts_a_command_that_runs_there() {
    use super::undo::press;
    let config = crate::config::Config::defaults();
    let mut app = listing();
    let sort = app.list().unwrap().catalog.sort();
    // The letters after `:` are the command's, not the list's sort keys.
    press(&mut app, &config, ":q");
    assert_eq!(app.entry, ":q");
    assert_eq!(app.list().unwrap().catalog.sort(), sort, "nothing sorted");
    press(&mut app, &config, "<bs>");
    assert_eq!(app.entry, ":");
    press(&mut app, &config, "<esc>");
    assert_eq!(app.entry, "");
    assert_eq!(app.screen, Screen::List);
    // In the filter, `:` is text: `white:carlsen`.
    press(&mut app, &config, "/white:carlsen");
    assert_eq!(app.entry, "");
    assert_eq!(app.list().unwrap().filter, "white:carlsen");
    press(&mut app, &config, "<esc><esc>");
    // Enter runs the command.
    press(&mut app, &config, ":q");
    let enter = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Enter,
        crossterm::event::KeyModifiers::NONE,
    );
    let action = crate::tui::action_of(&app, &enter).expect("Enter is bound");
    assert!(
        matches!(app.update(action), Effect::Quit { discard: false }),
        "{}",
        app.message.text
    );
    assert_eq!(app.entry, "");
    // A command it does not know says so, on the list.
    press(&mut app, &config, ":frobnicate<ret>");
    assert!(
        app.message.text.contains("unknown command :frobnicate"),
        "{}",
        app.message.text
    );
    assert_eq!(app.screen, Screen::List);
}

#[test]
fn ctrl_u_empties_the_filter_being_typed_and_the_list_is_whole_again() {
    use super::undo::press;
    let config = crate::config::Config::defaults();
    let mut app = listing();
    press(&mut app, &config, "/carlsn");
    assert_eq!(app.list().unwrap().catalog.matches(), 2);
    press(&mut app, &config, "<C-u>");
    let list = app.list().unwrap();
    assert_eq!(list.filter, "");
    assert!(
        list.filtering,
        "the filter line stays open for the next words"
    );
    assert_eq!(list.catalog.matches(), 6);
    press(&mut app, &config, "nepomniachtchi");
    assert_eq!(app.list().unwrap().catalog.matches(), 1);
    // A command typed on the list is cleared the same way.
    press(&mut app, &config, "<esc>:frob<C-u>");
    assert_eq!(app.entry, "");
}

/// On the list before any game is opened there is no game to write: `:w FILE` (and `:w`,
/// `:wq`, `:x`) say so instead of writing the empty game behind the list; once a game is
/// open, `:w FILE` writes it.
#[test]
fn writing_on_the_list_before_a_game_is_open_is_refused() {
    let mut app = listing();
    for line in ["w copy.pgn", "w", "wq copy.pgn", "x", "w! copy.pgn"] {
        app.update(Action::CommandLine);
        typed(&mut app, line);
        assert_eq!(app.update(Action::OpenGame), Effect::None, ":{line}");
        assert!(app.message.error, ":{line}");
        assert!(
            app.message.text.starts_with("no game is open to write"),
            ":{line}: {}",
            app.message.text
        );
    }
    loaded(&mut app, "sample.pgn", 1, None);
    app.update(Action::List);
    app.update(Action::CommandLine);
    typed(&mut app, "w copy.pgn");
    assert_eq!(
        app.update(Action::OpenGame),
        Effect::Save {
            path: "copy.pgn".into(),
            then_quit: false,
            force: false
        }
    );
}

#[test]
fn a_filter_that_drops_the_selected_game_selects_the_first_match() {
    let mut app = listing();
    app.update(Action::ListLast);
    assert_eq!(selected(&app), 6);
    app.update(Action::Filter);
    typed(&mut app, "carlsen");
    // Game 6 (Kasparov - Karpov) is gone: the first of Carlsen's games, not the
    // row that happens to be at the old place.
    assert_eq!(selected(&app), 1);
    // A game still matching stays selected as the filter narrows.
    app.update(Action::ListDown);
    assert_eq!(selected(&app), 3);
    typed(&mut app, ", magnus");
    assert_eq!(selected(&app), 3);
}

/// Saves into the list's file, `:new` and Ctrl-L from a game: in a file of their own.
#[path = "tests_list_saves.rs"]
mod saves;

/// The file's name on the status corner's line, as the game screen draws it.
fn corner(app: &App) -> String {
    let mut term =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).expect("a terminal");
    term.draw(|f| crate::ui::draw(f, app, &crate::ui::Look::default()))
        .expect("drawn");
    let buf = term.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .find(|line| line.contains("sample.pgn"))
        .unwrap_or_default()
}

#[test]
fn a_game_recovered_over_its_files_list_is_that_game_of_the_list() {
    let third = Catalog::read(SAMPLE.as_bytes())
        .expect("the sample reads")
        .game(3)
        .expect("a third game")
        .offset;
    // The box answered before the list has read that far: no number yet.
    let mut app = App::new(Settings::default(), Game::default(), None);
    app.update(Done::ListOpened {
        path: "sample.pgn".into(),
    });
    app.update(Done::Recovered {
        game: Box::new(Game::default()),
        out: Some("sample.pgn".into()),
        offset: Some(third),
        message: "recovered".into(),
    });
    assert_eq!(app.number, None);
    assert!(!corner(&app).contains("game 3"), "{}", corner(&app));
    // The rows come: it is game 3 of the list, which says so and steps on from it.
    let catalog = Catalog::read(SAMPLE.as_bytes()).expect("the sample reads");
    app.list.as_deref_mut().expect("a list").catalog = catalog;
    app.update(Done::Listed(LoadEvent::Done));
    assert_eq!(app.number, Some(3));
    assert!(
        corner(&app).contains("game 3 of 6 in sample.pgn"),
        "{}",
        corner(&app)
    );
    app.update(Action::List);
    assert_eq!(selected(&app), 3);
    app.update(Action::List);
    assert_eq!(app.screen, Screen::Game);
    let Effect::LoadAt { number, .. } = app.update(Action::NextGame) else {
        panic!("no next game")
    };
    assert_eq!(number, 4);
}

#[test]
fn a_game_recovered_with_no_list_open_gets_its_number_counted() {
    let mut app = App::new(Settings::default(), Game::default(), None);
    let recovered = |app: &mut App| {
        app.update(Done::Recovered {
            game: Box::new(Game::default()),
            out: Some("sample.pgn".into()),
            offset: Some(400),
            message: "recovered".into(),
        })
    };
    recovered(&mut app);
    // No list will tell: the loop is asked to count the games before it.
    assert_eq!(app.number_wanted(), Some(("sample.pgn".into(), 400)));
    assert_eq!(app.number, None);
    // It is a game of a file of many, counted or not: Ctrl-L lists that file.
    assert_eq!(
        app.update(Action::List),
        Effect::Browse {
            path: "sample.pgn".into()
        }
    );
    app.update(Action::NextGame);
    assert_eq!(
        app.message.text,
        "no list open: this game was recovered alone; Ctrl-L lists the games of its file"
    );
    // An answer for another place (an older recovery) changes nothing.
    app.update(Done::Numbered {
        path: "sample.pgn".into(),
        offset: 7,
        number: Some(9),
    });
    assert_eq!(app.number, None);
    app.update(Done::Numbered {
        path: "sample.pgn".into(),
        offset: 400,
        number: Some(3),
    });
    assert_eq!(app.number, Some(3));
    assert_eq!(app.number_wanted(), None);
    assert!(
        corner(&app).contains("game 3 in sample.pgn"),
        "{}",
        corner(&app)
    );
    // A file that could not be read: the corner names the file only, and nothing waits.
    recovered(&mut app);
    app.update(Done::Numbered {
        path: "sample.pgn".into(),
        offset: 400,
        number: None,
    });
    assert_eq!((app.number, app.number_wanted()), (None, None));
    // Over the file's own list, the list tells: nothing is counted.
    app.update(Done::ListOpened {
        path: "sample.pgn".into(),
    });
    recovered(&mut app);
    assert_eq!(app.number_wanted(), None);
}

#[test]
fn a_game_opened_alone_says_its_number_in_the_corner() {
    // `:e sample.pgn 2`: the file's count is not known without reading it all.
    let mut app = App::new(Settings::default(), Game::default(), None);
    loaded(&mut app, "sample.pgn", 2, None);
    assert!(
        corner(&app).contains("game 2 in sample.pgn"),
        "{}",
        corner(&app)
    );
    // A file of one game says its count, as before.
    loaded(&mut app, "sample.pgn", 1, Some(1));
    assert!(
        corner(&app).contains("game 1 of 1 in sample.pgn"),
        "{}",
        corner(&app)
    );
}
