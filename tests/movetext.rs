//! Reading a game: the board with the annotator's marks beside the move text,
//! drawn into a test terminal at 80×24 and 120×40, in both layouts, with and
//! without colour, and snapshotted; looks are checked by reading cells.
//!
//! The game (tests/data/annotated.pgn) has variations four deep, comments
//! before and after moves, move and position glyphs, clocks, evaluations and
//! `[%csl]`/`[%cal]` marks.

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier};
use ratatui::widgets::{Block, StatefulWidget, Widget};
use ratatui::Terminal;
use scoresheet::app::App;
use scoresheet::config::Config;
use scoresheet::game::{Game, NodeId};
use scoresheet::notation::{Lang, Style};
use scoresheet::pgn::read_games;
use scoresheet::tui::settings;
use scoresheet::ui::board;
use scoresheet::ui::movetext::{MoveLayout, MoveText, MoveTextState};
use scoresheet::ui::{Look, SquareSize};

const PGN: &str = include_str!("data/annotated.pgn");

fn annotated() -> Game {
    let mut games = read_games(PGN.as_bytes());
    assert_eq!(games.len(), 1);
    let read = games.remove(0);
    assert!(read.errors.is_empty(), "{:?}", read.errors);
    read.game
}

/// The node reached by playing the SANs of `path` from the start, variations
/// included.
fn node(game: &Game, path: &[&str]) -> NodeId {
    let mut at = NodeId::ROOT;
    for san in path {
        at = *game
            .node(at)
            .children
            .iter()
            .find(|c| game.node(**c).san == *san)
            .unwrap_or_else(|| panic!("no {san} after {:?}", game.node(at).san));
    }
    at
}

/// 7. d4 in the fourth-level variation 5...Bxf2+.
const DEEP: &[&str] = &[
    "e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O", "Bc5", "Nxe5", "Bxf2+", "Rxf2", "Nxe5", "d4",
];

/// A reading screen: the board (with the current move's marks) on the left,
/// the move text in a frame on the right.
struct Screen {
    app: App,
    look: Look,
    layout: MoveLayout,
    state: MoveTextState,
}

impl Screen {
    fn new(cursor: &[&str], layout: MoveLayout, color: bool) -> Self {
        let game = annotated();
        let at = node(&game, cursor);
        let mut app = App::new(settings(&Config::defaults()), game, None);
        app.cursor = at;
        Screen {
            app,
            look: Look {
                color,
                ..Look::default()
            },
            layout,
            state: MoveTextState::default(),
        }
    }

    fn draw_into(&mut self, area: Rect, buf: &mut Buffer) {
        let size = if area.width >= 120 {
            SquareSize::Medium
        } else {
            SquareSize::Small
        };
        let (bw, bh) = board::board_extent(size, true);
        let [left, right] =
            Layout::horizontal([Constraint::Length(bw + 1), Constraint::Fill(1)]).areas(area);
        let marks = self.app.game.node(self.app.cursor).marks();
        let board_area = Rect {
            height: bh.min(left.height),
            ..left
        };
        board::render(&self.app, &self.look, size, &marks, board_area, buf);
        let block = Block::bordered().title(" Moves ");
        let inner = block.inner(right);
        block.render(right, buf);
        let widget = MoveText {
            game: &self.app.game,
            cursor: self.app.cursor,
            style: Style::San,
            lang: Lang::english(),
            layout: self.layout,
            color: self.look.color,
        };
        StatefulWidget::render(widget, inner, buf, &mut self.state);
        if !self.look.color {
            // As the screen does: without colour, no colour at all.
            for cell in buf.content.iter_mut() {
                cell.set_fg(Color::Reset).set_bg(Color::Reset);
            }
        }
    }

    fn draw(&mut self, width: u16, height: u16) -> Terminal<TestBackend> {
        let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
        term.draw(|f| {
            let area = f.area();
            self.draw_into(area, f.buffer_mut())
        })
        .unwrap();
        term
    }
}

fn rows(term: &Terminal<TestBackend>) -> Vec<String> {
    let buf = term.backend().buffer();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// Where `text` starts on the screen (first match, in the move text's column).
fn find(term: &Terminal<TestBackend>, text: &str, from_x: usize) -> Option<(u16, u16)> {
    for (y, row) in rows(term).iter().enumerate() {
        let cells: Vec<&str> = {
            let buf = term.backend().buffer();
            (0..buf.area.width)
                .map(|x| buf[(x, y as u16)].symbol())
                .collect()
        };
        let joined: String = cells[from_x..].concat();
        if let Some(byte) = joined.find(text) {
            // Cells are one character each here (no wide text on this screen).
            let x = from_x + joined[..byte].chars().count();
            let _ = row;
            return Some((x as u16, y as u16));
        }
    }
    None
}

fn name(layout: MoveLayout) -> &'static str {
    match layout {
        MoveLayout::Inline => "inline",
        MoveLayout::Indented => "indented",
    }
}

#[test]
fn a_game_with_nested_variations_reads_in_both_layouts_with_the_cursor_deep_inside() {
    for layout in [MoveLayout::Inline, MoveLayout::Indented] {
        for (w, h) in [(80u16, 24u16), (120, 40)] {
            let mut screen = Screen::new(DEEP, layout, true);
            let term = screen.draw(w, h);
            insta::assert_snapshot!(format!("reading_{}_{w}x{h}", name(layout)), term.backend());
            let buf = term.backend().buffer();
            // The current move, 7.d4 deep in the variations, is on screen in
            // reverse video, and only it.
            let (x, y) = find(&term, "7.d4", 27).expect("the current move is shown");
            let d4 = &buf[(x + 2, y)];
            assert!(d4.modifier.contains(Modifier::REVERSED), "{d4:?}");
            let reversed = buf
                .content()
                .iter()
                .filter(|c| c.modifier.contains(Modifier::REVERSED))
                .count();
            assert_eq!(reversed, 2, "d4 is two cells, nothing else is reversed");
            // Comments in italics, clocks dim grey, glyphs coloured.
            let (cx, cy) = find(&term, "Spanish", 27).expect("a comment");
            assert!(buf[(cx, cy)].modifier.contains(Modifier::ITALIC));
            let (kx, ky) = find(&term, "1:30:51", 27).expect("a clock");
            assert_eq!(buf[(kx, ky)].fg, Color::DarkGray);
            let (ex, ey) = find(&term, "+0.30", 27).expect("an evaluation");
            assert_eq!(buf[(ex, ey)].fg, Color::DarkGray);
            // The commands themselves never show.
            let text = rows(&term).concat();
            for raw in ["[%", "clk", "csl", "cal", "{", "}", "$"] {
                assert!(
                    !text.contains(raw),
                    "{raw} shown:\n{}",
                    rows(&term).join("\n")
                );
            }
        }
    }
}

#[test]
fn without_colour_the_move_text_rests_on_modifiers() {
    for (layout, (w, h)) in [MoveLayout::Inline, MoveLayout::Indented]
        .into_iter()
        .flat_map(|l| [(l, (80u16, 24u16)), (l, (120, 40))])
    {
        let mut screen = Screen::new(DEEP, layout, false);
        let term = screen.draw(w, h);
        insta::assert_snapshot!(
            format!("reading_{}_no_color_{w}x{h}", name(layout)),
            term.backend()
        );
        let buf = term.backend().buffer();
        for cell in buf.content() {
            assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{cell:?}");
        }
        let (x, y) = find(&term, "7.d4", 27).expect("the current move is shown");
        assert!(buf[(x + 2, y)].modifier.contains(Modifier::REVERSED));
        assert!(buf[(x, y)].modifier.contains(Modifier::DIM), "the number");
        let (cx, cy) = find(&term, "Spanish", 27).expect("a comment");
        assert!(buf[(cx, cy)].modifier.contains(Modifier::ITALIC));
        let (mx, my) = find(&term, "e4", 27).expect("a main-line move");
        assert!(buf[(mx, my)].modifier.contains(Modifier::BOLD));
    }
}

#[test]
fn the_current_move_stays_in_view_while_stepping_through_every_line() {
    for layout in [MoveLayout::Inline, MoveLayout::Indented] {
        let mut screen = Screen::new(&[], layout, true);
        let game = screen.app.game.clone();
        // Every move in the order the text shows them.
        let mut order = Vec::new();
        let mut stack = vec![NodeId::ROOT];
        while let Some(at) = stack.pop() {
            order.push(at);
            stack.extend(game.node(at).children.iter().rev());
        }
        // Ten rows for the moves: the text (some twenty lines) has to scroll.
        for id in order.into_iter().skip(1) {
            screen.app.cursor = id;
            let term = screen.draw(80, 12);
            let reversed: String = term
                .backend()
                .buffer()
                .content()
                .iter()
                .filter(|c| c.modifier.contains(Modifier::REVERSED))
                .map(|c| c.symbol())
                .collect();
            assert_eq!(reversed, game.node(id).san, "{}", rows(&term).join("\n"));
        }
    }
}

/// The board's cell at the centre of a square (3×1 squares, coordinates on).
fn square_cell(file: char, rank: u8) -> (u16, u16) {
    let col = u16::from(file as u8 - b'a');
    (2 + col * 3 + 1, 8 - u16::from(rank))
}

#[test]
fn coloured_squares_and_arrows_are_drawn_on_the_board() {
    let palette = Look::default().palette();
    let rgb = |(r, g, b): (u8, u8, u8)| Color::Rgb(r, g, b);
    // 3. Bb5 {[%csl Gb5,Rc6]}
    let mut screen = Screen::new(
        &["e4", "e5", "Nf3", "Nc6", "Bb5"],
        MoveLayout::Indented,
        true,
    );
    let term = screen.draw(80, 24);
    let buf = term.backend().buffer();
    let bg = |f, r| {
        let (x, y) = square_cell(f, r);
        buf[(x, y)].bg
    };
    assert_eq!(bg('b', 5), rgb(palette.mark('G')));
    assert_eq!(bg('c', 6), rgb(palette.mark('R')));
    assert_ne!(bg('a', 4), rgb(palette.mark('G')));
    // 9. h3 {[%cal Gd2d4,Rc6a5]}: both ends tinted, a dot on each target.
    let path = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3",
    ];
    let mut screen = Screen::new(&path, MoveLayout::Indented, true);
    let term = screen.draw(80, 24);
    insta::assert_snapshot!("reading_arrows_80x24", term.backend());
    let buf = term.backend().buffer();
    let cell = |f, r| {
        let (x, y) = square_cell(f, r);
        (buf[(x, y)].bg, buf[(x + 1, y)].symbol().to_string())
    };
    let green = rgb(palette.mark('G'));
    let red = rgb(palette.mark('R'));
    assert_eq!(cell('d', 2), (green, " ".into()));
    assert_eq!(cell('d', 4), (green, "•".into()));
    assert_eq!(cell('c', 6), (red, " ".into()));
    assert_eq!(cell('a', 5), (red, "•".into()));
    // Marks belong to their move: one move on, they are gone.
    let mut screen = Screen::new(&[&path[..], &["Na5"]].concat(), MoveLayout::Indented, true);
    let term = screen.draw(80, 24);
    let buf = term.backend().buffer();
    for (f, r) in [('d', 2), ('d', 4), ('c', 6)] {
        let (x, y) = square_cell(f, r);
        assert_ne!(buf[(x, y)].bg, green);
        assert_ne!(buf[(x, y)].bg, red);
    }
}

#[test]
fn without_colour_marks_are_characters_beside_the_piece() {
    let path = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3",
    ];
    let mut screen = Screen::new(&path, MoveLayout::Indented, false);
    let term = screen.draw(80, 24);
    let shown = rows(&term);
    // d2 (arrow start, White pawn) and d4 (target, empty).
    assert!(
        shown[6].starts_with("2  ♙  ♙  ·  ♙- ·  ♙  ♙ [·]"),
        "{}",
        shown[6]
    );
    assert!(
        shown[4].starts_with("4  ·  ·  ·  ·• ♙  ·  ·  · "),
        "{}",
        shown[4]
    );
    let mut screen = Screen::new(
        &["e4", "e5", "Nf3", "Nc6", "Bb5"],
        MoveLayout::Indented,
        false,
    );
    let term = screen.draw(80, 24);
    let shown = rows(&term);
    // b5 and c6 highlighted: stars around the piece; b5 is also the last move's
    // target, which keeps the last move's bracket on the left (f1, its start, `[·]`).
    assert!(
        shown[3].starts_with("5  · [♗* ·  ·  ♟  ·  ·  · "),
        "{}",
        shown[3]
    );
    assert!(
        shown[7].starts_with("1  ♖  ♘  ♗  ♕  ♔ [·] ·  ♖ "),
        "{}",
        shown[7]
    );
    assert!(
        shown[2].starts_with("6  ·  · *♞* ·  ·  ·  ·  · "),
        "{}",
        shown[2]
    );
    // Wider squares have room for both whole.
    let term = screen.draw(120, 40);
    let shown = rows(&term);
    assert!(
        shown[7].starts_with("5   ·  *[♗]*  ·    ·    ♟  "),
        "{}",
        shown[7]
    );
}

#[test]
fn a_text_longer_than_the_panel_scrolls_to_the_current_move() {
    let zaitsev = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Bb7", "d4", "Re8",
    ];
    for layout in [MoveLayout::Inline, MoveLayout::Indented] {
        let mut screen = Screen::new(&zaitsev, layout, true);
        let term = screen.draw(80, 12);
        insta::assert_snapshot!(
            format!("reading_{}_scrolled_80x12", name(layout)),
            term.backend()
        );
        let shown = rows(&term);
        assert!(
            !shown[1].contains("A sharp Ruy Lopez"),
            "scrolled down:\n{}",
            shown.join("\n")
        );
        let (x, y) = find(&term, "Re8", 27).expect("the current move is shown");
        let buf = term.backend().buffer();
        assert!(buf[(x, y)].modifier.contains(Modifier::REVERSED));
        // A line of context below it.
        assert!(y < 10, "{}", shown.join("\n"));
    }
}

#[test]
fn the_recorder_draws_the_current_moves_marks_too() {
    // A game loaded into the recorder, its current move 3. Bb5 {[%csl Gb5,Rc6]}.
    let game = annotated();
    let at = node(&game, &["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    let mut app = App::new(settings(&Config::defaults()), game, None);
    app.cursor = at;
    let look = Look::default();
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    term.draw(|f| scoresheet::ui::draw(f, &app, &look)).unwrap();
    let buf = term.backend().buffer();
    let palette = look.palette();
    let (x, y) = square_cell('b', 5);
    let (r, g, b) = palette.mark('G');
    assert_eq!(buf[(x, y)].bg, Color::Rgb(r, g, b));
    let (x, y) = square_cell('c', 6);
    let (r, g, b) = palette.mark('R');
    assert_eq!(buf[(x, y)].bg, Color::Rgb(r, g, b));
}
