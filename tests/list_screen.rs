//! The game list's page drawn into a test terminal (80×24, 120×40 and tiny sizes), sorted
//! and filtered, with an unreadable game, with and without colour; snapshotted, and
//! colours checked by reading cells.

mod screen_text;

use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;
use scoresheet::catalog::{Catalog, Column, GameRow, Unreadable};
use scoresheet::ui::list::{self, ListView};
use screen_text::text as screen;

const SAMPLE: &str = include_str!("data/list_sample.pgn");

fn catalog() -> Catalog {
    Catalog::read(SAMPLE.as_bytes()).expect("the sample reads")
}

/// Draws the first page of `catalog` with `selected`, as the list screen would.
fn draw(
    catalog: &Catalog,
    extra: Option<GameRow<'_>>,
    selected: Option<usize>,
    indexing: Option<u8>,
    color: bool,
    (w, h): (u16, u16),
) -> Terminal<TestBackend> {
    let mut rows = catalog.page(0, list::page_rows(h));
    rows.extend(extra);
    let view = ListView {
        rows: &rows,
        selected,
        sort: catalog.sort(),
        games: catalog.games() + usize::from(rows.len() > catalog.matches()),
        matches: catalog.query().map(|_| catalog.matches()),
        indexing,
        color,
    };
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| list::render(&view, f.area(), f.buffer_mut()))
        .unwrap();
    term
}

/// A game the reader could not read, as the catalog lists it.
fn unreadable(number: u64) -> GameRow<'static> {
    GameRow {
        number,
        offset: 123_456,
        len: 0,
        white: "",
        white_elo: None,
        black: "",
        black_elo: None,
        result: scoresheet::pgn::Outcome::Unknown,
        date: Default::default(),
        event: "",
        round: "",
        site: "",
        eco: None,
        opening: "",
        plies: 0,
        unreadable: Some(Unreadable::TooLarge),
        problem: None,
    }
}

#[test]
fn whole_list_at_80x24_and_120x40() {
    let c = catalog();
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&c, Some(unreadable(7)), Some(1), Some(43), true, (w, h));
        insta::assert_snapshot!(format!("list_{w}x{h}"), term.backend());
        let text = screen(&term);
        assert!(text.contains("7 games (indexing 43%)"), "{text}");
        assert!(text.contains("cannot be read: larger than the 64 MiB limit"));
        assert!(text.contains("Ljubojević"));
    }
    let wide = screen(&draw(&c, None, None, None, true, (120, 40)));
    for header in ["Elo", "Event", "Rd", "ECO", "Opening", "Plies"] {
        assert!(wide.contains(header), "{header} at 120 columns");
    }
    assert!(wide.contains("Sicilian Defense"));
    assert!(wide.contains("Berlin Wall"));
}

#[test]
fn sorted_and_filtered() {
    let mut c = catalog();
    // One press: ratings sort the highest first.
    c.sort_by(Column::WhiteElo);
    let term = draw(&c, None, Some(0), None, true, (80, 24));
    insta::assert_snapshot!("list_sorted_elo_down_80x24", term.backend());
    let text = screen(&term);
    assert!(text.contains("Elo▼"), "{text}");
    // Highest first, the unknown Elo last.
    let carlsen = text.find("Carlsen").unwrap();
    let kasparov = text.find("Kasparov").unwrap();
    let muller = text.find("Müller").unwrap();
    assert!(carlsen < kasparov && kasparov < muller);

    c.set_filter("carlsn").unwrap();
    let term = draw(&c, None, Some(0), None, true, (80, 24));
    insta::assert_snapshot!("list_filtered_80x24", term.backend());
    let text = screen(&term);
    assert!(text.contains("2 of 6 match"), "{text}");
    assert!(!text.contains("Kasparov"));
}

#[test]
fn without_colour_the_selection_and_marks_stay() {
    let c = catalog();
    let term = draw(&c, Some(unreadable(7)), Some(2), None, false, (80, 24));
    insta::assert_snapshot!("list_no_color_80x24", term.backend());
    let buf = term.backend().buffer();
    for y in 0..24 {
        for x in 0..80 {
            assert_eq!(buf[(x, y)].fg, Color::Reset, "({x}, {y})");
            assert_eq!(buf[(x, y)].bg, Color::Reset, "({x}, {y})");
        }
    }
    // The selected game (third row of games) is in reverse video across the screen.
    for x in 0..80 {
        assert!(buf[(x, 3)].modifier.contains(Modifier::REVERSED), "{x}");
        assert!(!buf[(x, 2)].modifier.contains(Modifier::REVERSED), "{x}");
    }
    // In colour, the unreadable game is red and the unknown values dim.
    let term = draw(&c, Some(unreadable(7)), None, None, true, (80, 24));
    let buf = term.backend().buffer();
    let text = screen(&term);
    let row = text
        .lines()
        .position(|l| l.contains("cannot be read"))
        .unwrap();
    let x = text.lines().nth(row).unwrap().find("cannot").unwrap();
    assert_eq!(buf[(x as u16, row as u16)].fg, Color::Red);
}

/// A game the check found a problem in keeps its columns and gets a ✗ after its number,
/// in colour or not.
#[test]
fn a_game_with_a_problem_is_marked() {
    let c = catalog();
    let mut marked = c.game(2).unwrap();
    marked.problem = Some("line 12 column 4 \"Ke3\": illegal");
    for color in [true, false] {
        let term = draw(&c, Some(marked.clone()), None, None, color, (80, 24));
        let text = screen(&term);
        let rows: Vec<&str> = text.lines().filter(|l| l.contains('✗')).collect();
        assert_eq!(rows.len(), 1, "{text}");
        let number_end = rows[0].find('✗').unwrap();
        assert_eq!(rows[0][..number_end].trim(), "2", "{text}");
        assert!(rows[0].contains("Ljubojević"), "{text}");
    }
}

#[test]
fn tiny_screens_draw_without_panicking() {
    let c = catalog();
    let term = draw(&c, None, Some(0), None, true, (30, 4));
    insta::assert_snapshot!("list_tiny_30x4", term.backend());
    for w in 0..40 {
        for h in 0..6 {
            draw(&c, Some(unreadable(7)), Some(0), Some(5), true, (w, h));
        }
    }
}
