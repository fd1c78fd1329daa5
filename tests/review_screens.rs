//! The reviewer's screens as the whole app draws them (`ui::render` over an `App` fed
//! the way the loop feeds it: the list's rows from the loader, a game loaded from its
//! byte range), snapshotted at 80×24 and 120×40 and tiny, with and without colour: the
//! list sorted and filtered, a game with nested variations and comments in book view,
//! the comment editor over it.

mod screen_text;

use std::path::PathBuf;
use std::time::Duration;

use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;
use scoresheet::app::{Action, App, Done};
use scoresheet::catalog::{LoadEvent, Loader};
use scoresheet::config::Config;
use scoresheet::game::Game;
use scoresheet::position::Position;
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::{self, Look};
use screen_text::text;

/// The club file, named relative to the package (the tests' working directory), so that
/// the path the screens show is the same on every machine.
const CLUB: &str = "tests/data/review_club.pgn";

/// An app that opened the club file: the list filled by the loader, as the loop does.
fn app_with_list() -> App {
    let config = Config::defaults();
    let mut app = App::new(settings(&config), Game::new(Position::start()), None);
    describe_keys(&mut app, &config);
    let path = PathBuf::from(CLUB);
    app.update(Done::ListOpened { path: path.clone() });
    let loader = Loader::open(&path).expect("the club file opens");
    loop {
        let event = loader
            .next_timeout(Duration::from_secs(10))
            .expect("the loader answers");
        let last = !matches!(event, LoadEvent::Batch(_));
        app.update(Done::Listed(event));
        if last {
            break;
        }
    }
    app
}

fn keys(app: &mut App, actions: &[Action]) {
    for &a in actions {
        app.update(a);
    }
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Action::Type(c));
    }
}

/// The list sorted by date, then filtered to Carlsen's games (misspelt).
fn sorted_and_filtered() -> App {
    let mut app = app_with_list();
    keys(&mut app, &[Action::SortDate, Action::Filter]);
    typed(&mut app, "carlsn");
    keys(
        &mut app,
        &[Action::OpenGame, Action::ListFirst, Action::ListDown],
    );
    app
}

/// The annotated game (nested variations, comments, clocks), game 7 of the club file,
/// opened from the list and stepped into its deepest variation.
fn annotated_game() -> App {
    let mut app = app_with_list();
    let text = std::fs::read(CLUB).unwrap();
    let games = scoresheet::pgn::builder::read_games(&text);
    let game = games.into_iter().nth(6).expect("game 7").game;
    app.update(Done::Loaded {
        game: Box::new(game),
        path: PathBuf::from(CLUB),
        number: 7,
        games: None,
    });
    // 3.Bb5; Down chooses 3...Nf6 (the Berlin) at the fork and Shift-Right enters it;
    // 4.O-O; into 4...Bc5 (instead of 4...Nxe4), and into 5.Nxe5 (instead of 5.c3).
    keys(&mut app, &[Action::MoveForward; 5]);
    keys(&mut app, &[Action::HistoryNext, Action::EnterVariation]);
    keys(&mut app, &[Action::MoveForward]);
    keys(&mut app, &[Action::EnterVariation, Action::EnterVariation]);
    app
}

fn draw(app: &App, look: &Look, (w, h): (u16, u16)) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::render(app, look, f.area(), f.buffer_mut()))
        .unwrap();
    term
}

fn no_color() -> Look {
    Look {
        color: false,
        ..Look::default()
    }
}

/// The row of the screen drawn in reverse video across the whole width.
fn reversed_row(term: &Terminal<TestBackend>) -> Option<String> {
    let buf = term.backend().buffer();
    let lines: Vec<String> = text(term).lines().map(str::to_string).collect();
    (0..buf.area.height)
        .find(|&y| (0..buf.area.width).all(|x| buf[(x, y)].modifier.contains(Modifier::REVERSED)))
        .map(|y| lines[usize::from(y)].clone())
}

#[test]
fn the_list_sorted_and_filtered() {
    let app = sorted_and_filtered();
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, &Look::default(), (w, h));
        insta::assert_snapshot!(format!("list_sorted_filtered_{w}x{h}"), term.backend());
        let screen = text(&term);
        assert!(screen.contains("3 of 7 match"), "{screen}");
        assert!(screen.contains("Date▼"), "{screen}");
        assert!(screen.contains("/carlsn"), "{screen}");
        // The newest first; the second row is selected.
        let row = reversed_row(&term).expect("a selected row");
        assert!(row.contains("Anand, Viswanat"), "{row}");
        let nakamura = screen.find("2024.03.02").unwrap();
        let anand = screen.find("2024.03.09").unwrap();
        let last = screen.find("2024.03.16").unwrap();
        assert!(last < anand && anand < nakamura, "{screen}");
    }
}

#[test]
fn the_list_without_colour_keeps_the_selection() {
    let app = sorted_and_filtered();
    let term = draw(&app, &no_color(), (80, 24));
    insta::assert_snapshot!("list_sorted_filtered_no_color_80x24", term.backend());
    let buf = term.backend().buffer();
    for y in 0..24 {
        for x in 0..80 {
            assert_eq!(buf[(x, y)].fg, Color::Reset, "({x}, {y})");
            assert_eq!(buf[(x, y)].bg, Color::Reset, "({x}, {y})");
        }
    }
    let row = reversed_row(&term).expect("the selection in reverse video");
    assert!(row.contains("Anand, Viswanat"), "{row}");
}

#[test]
fn the_list_on_a_tiny_screen() {
    let app = sorted_and_filtered();
    let term = draw(&app, &Look::default(), (30, 8));
    insta::assert_snapshot!("list_tiny_30x8", term.backend());
    let screen = text(&term);
    assert!(screen.contains("3 of 7 match"), "{screen}");
    assert!(reversed_row(&term).is_some_and(|r| r.contains("Anand")));
    for w in 0..40 {
        for h in 0..10 {
            draw(&app, &Look::default(), (w, h));
        }
    }
}

/// A filter that cannot be read says where and why in full, on two rows if it needs
/// them, while the list stays as the last good filter left it.
#[test]
fn a_bad_filter_is_explained_whole() {
    let mut app = app_with_list();
    keys(&mut app, &[Action::Filter]);
    typed(&mut app, "elo:>27x");
    let term = draw(&app, &Look::default(), (80, 24));
    let screen = text(&term);
    assert!(screen.contains("column 5, \">27x\""), "{screen}");
    assert!(
        screen.contains("plies:<40)"),
        "the advice is not cut:\n{screen}"
    );
    assert!(screen.contains("of 7 match"), "{screen}");
}

/// A `pos:` term waiting for the position search: the filter line says so, and every game
/// is shown until the answer narrows the list.
#[test]
fn a_pos_term_says_it_is_searching_until_the_answer_comes() {
    let mut app = app_with_list();
    keys(&mut app, &[Action::Filter]);
    typed(&mut app, "pos:\"1. e4 c5\"");
    keys(&mut app, &[Action::OpenGame]);
    let screen = text(&draw(&app, &Look::default(), (100, 24)));
    assert!(
        screen.contains("/pos:\"1. e4 c5\"  (searching the games for the position…)"),
        "{screen}"
    );
    assert!(screen.contains("7 of 7 match"), "{screen}");
    let Some(scoresheet::app::study::StudyJob::Search { path, fen }) = app.take_study_request()
    else {
        panic!("no search asked")
    };
    app.update(Done::Searched {
        path,
        fen,
        found: Ok(vec![(2, 2), (5, 2)]),
    });
    let screen = text(&draw(&app, &Look::default(), (100, 24)));
    assert!(!screen.contains("searching"), "{screen}");
    assert!(screen.contains("2 of 7 match"), "{screen}");
}

#[test]
fn a_game_in_book_view_with_nested_variations() {
    let app = annotated_game();
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, &Look::default(), (w, h));
        insta::assert_snapshot!(format!("book_view_{w}x{h}"), term.backend());
        let screen = text(&term);
        // Indented by depth, comments wrapped, and the file and game named.
        assert!(screen.contains("      (5.Nxe5 Nxe5"), "{screen}");
        assert!(screen.contains("the Berlin"), "{screen}");
        assert!(screen.contains("game 7 of 7"), "{screen}");
    }
    let term = draw(&app, &no_color(), (80, 24));
    insta::assert_snapshot!("book_view_no_color_80x24", term.backend());
}

#[test]
fn the_comment_editor_over_the_game() {
    let mut app = annotated_game();
    keys(&mut app, &[Action::EditComment]);
    for c in "Simpler than 5...Nxe5.".chars() {
        app.update(crossterm_key(c));
    }
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, &Look::default(), (w, h));
        insta::assert_snapshot!(format!("book_view_comment_editor_{w}x{h}"), term.backend());
        let screen = text(&term);
        assert!(screen.contains("comment after 5.Nxe5"), "{screen}");
        assert!(screen.contains("Simpler than 5...Nxe5."), "{screen}");
    }
}

/// A key as the loop hands it to an open editor.
fn crossterm_key(c: char) -> scoresheet::app::Msg {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    scoresheet::app::Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

/// On a narrow screen the line under the list keeps the file's name (the keys it
/// reminds of are on the hint line and in the help).
#[test]
fn a_narrow_list_names_its_file() {
    let app = app_with_list();
    for w in [30, 40, 60] {
        let screen = text(&draw(&app, &Look::default(), (w, 8)));
        assert!(screen.contains("review_club.pgn"), "{w}:\n{screen}");
    }
    let screen = text(&draw(&app, &Look::default(), (100, 8)));
    assert!(
        screen.contains("tests/data/review_club.pgn  (/ filter"),
        "{screen}"
    );
}
