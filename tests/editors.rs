//! The comment editor and the tag form drawn over the recorder's screen in a
//! test terminal at 80×24 and 120×40, and snapshotted; the cursor is checked by
//! reading cells, and every size down to 1×1 draws without panicking.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::Terminal;
use scoresheet::app::comment::CommentEditor;
use scoresheet::app::editor::EditOp;
use scoresheet::app::tagform::TagForm;
use scoresheet::app::App;
use scoresheet::config::Config;
use scoresheet::game::notes::CommentPlace;
use scoresheet::game::{Game, NodeId};
use scoresheet::pgn::read_games;
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::editor::{comment_area, CommentBox};
use scoresheet::ui::tagform::{tag_form_area, tag_form_width, TagFormView};
use scoresheet::ui::{self, Look};

const PGN: &str = r#"[Event "Club Rapid"]
[Site "Leeds"]
[Date "2026.11.21"]
[Round "3"]
[White "Ann"]
[Black "Bob"]
[Result "*"]
[WhiteElo "1840"]
[Annotator "Carol"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 *
"#;

fn game() -> Game {
    let mut games = read_games(PGN.as_bytes());
    assert_eq!(games.len(), 1, "the fixture reads");
    games.remove(0).game
}

fn app() -> App {
    let config = Config::defaults();
    let mut app = App::new(settings(&config), game(), Some("club.pgn".into()));
    describe_keys(&mut app, &config);
    app
}

/// The node of the `ply`th move of the main line (1 = White's first).
fn ply(game: &Game, ply: usize) -> NodeId {
    game.mainline()[ply - 1]
}

fn press(ed: &mut CommentEditor, code: KeyCode, modifiers: KeyModifiers) {
    ed.key(KeyEvent::new(code, modifiers));
}

fn typed(ed: &mut CommentEditor, text: &str) {
    for c in text.chars() {
        press(ed, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

/// A comment of three lines, the second longer than any box, the cursor left
/// in the middle of the first.
fn comment_editor(game: &Game) -> CommentEditor {
    let mut ed = CommentEditor::open(game, ply(game, 12), CommentPlace::After);
    typed(&mut ed, "The Najdorf's main idea: ...e5 and ...Be6.");
    press(&mut ed, KeyCode::Enter, KeyModifiers::ALT);
    typed(
        &mut ed,
        "White castles long and throws the g- and h-pawns at the king, \
         Black answers on the queenside with ...b5-b4 and a knight to c4, \
         and whoever arrives first wins.",
    );
    press(&mut ed, KeyCode::Char('j'), KeyModifiers::CONTROL);
    typed(&mut ed, "See Karjakin-Anand, Wijk aan Zee 2006.");
    ed.edit(EditOp::Top);
    for _ in 0..4 {
        ed.edit(EditOp::WordRight);
    }
    ed
}

fn draw_comment(app: &App, ed: &CommentEditor, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
    term.draw(|f| {
        ui::draw(f, app, &Look::default());
        let boxed = CommentBox {
            title: ed.title(),
            editor: ed.editor(),
            color: true,
        };
        let area = comment_area(f.area(), boxed.rows_wanted(f.area().width, f.area().height));
        f.render_widget(boxed, area);
    })
    .unwrap();
    term
}

/// The cells of `area` drawn reversed (the cursor), as (column, row, symbol).
fn reversed(buf: &Buffer, area: Rect) -> Vec<(u16, u16, String)> {
    let mut out = Vec::new();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = &buf[(x, y)];
            if cell.modifier.contains(Modifier::REVERSED) {
                out.push((x, y, cell.symbol().to_string()));
            }
        }
    }
    out
}

#[test]
fn comment_editor_with_lines_a_wrapped_line_and_the_cursor_mid_text() {
    let app = app();
    let ed = comment_editor(&app.game);
    assert_eq!(ed.title(), "comment after 6...e5");
    assert_eq!(ed.editor().cursor(), (0, 14), "before \"main\"");
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw_comment(&app, &ed, w, h);
        insta::assert_snapshot!(format!("comment_editor_{w}x{h}"), term.backend());
        // The cursor is one reversed cell, on the "m" of "main" in the box's first text row.
        let boxed = CommentBox {
            title: ed.title(),
            editor: ed.editor(),
            color: true,
        };
        let area = comment_area(Rect::new(0, 0, w, h), boxed.rows_wanted(w, h));
        let cursor = reversed(term.backend().buffer(), area);
        assert_eq!(cursor.len(), 1, "{cursor:?}");
        let (x, y, symbol) = &cursor[0];
        assert_eq!(symbol, "m");
        let buf = term.backend().buffer();
        let row: String = (0..w).map(|x| buf[(x, *y)].symbol().to_string()).collect();
        assert!(row.starts_with("│The Najdorf's main idea"), "{row}");
        assert_eq!(*x, 1 + 14);
    }
}

#[test]
fn comment_editor_says_why_a_brace_is_refused() {
    let app = app();
    let mut ed = CommentEditor::open(&app.game, ply(&app.game, 3), CommentPlace::Before);
    typed(&mut ed, "the sharpest }");
    let term = draw_comment(&app, &ed, 80, 24);
    insta::assert_snapshot!("comment_editor_brace_80x24", term.backend());
}

#[test]
fn tag_form_lists_the_roster_then_the_others_with_a_field_open() {
    let app = app();
    let mut form = TagForm::open(&app.game);
    // Down to Date, typed a bad date and kept it: the form says why.
    for _ in 0..2 {
        form.key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    }
    for c in "21.11.2026".chars() {
        form.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
    form.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    for (w, h) in [(80, 24), (120, 40)] {
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        term.draw(|f| {
            ui::draw(f, &app, &Look::default());
            let view = TagFormView {
                form: &form,
                color: true,
            };
            let wanted = view.rows_wanted(tag_form_width(w));
            f.render_widget(view, tag_form_area(f.area(), wanted));
        })
        .unwrap();
        insta::assert_snapshot!(format!("tag_form_{w}x{h}"), term.backend());
        // The field's cursor is the reversed cell just after the typed date.
        let buf = term.backend().buffer();
        let view = TagFormView {
            form: &form,
            color: true,
        };
        let area = tag_form_area(Rect::new(0, 0, w, h), view.rows_wanted(tag_form_width(w)));
        let cursor = reversed(buf, area);
        assert_eq!(cursor.len(), 1, "{cursor:?}");
        let (x, y, symbol) = &cursor[0];
        assert_eq!(symbol, " ");
        let row: String = (area.x..*x)
            .map(|x| buf[(x, *y)].symbol().to_string())
            .collect();
        assert!(row.ends_with("Date      21.11.2026"), "{row:?}");
    }
}

#[test]
fn every_size_draws_without_panicking() {
    let app = app();
    let ed = comment_editor(&app.game);
    let mut form = TagForm::open(&app.game);
    form.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    for w in 1..=40 {
        for h in 1..=12 {
            let area = Rect::new(0, 0, w, h);
            let mut buf = Buffer::empty(area);
            let boxed = CommentBox {
                title: ed.title(),
                editor: ed.editor(),
                color: false,
            };
            ratatui::widgets::Widget::render(
                boxed,
                comment_area(area, boxed.rows_wanted(w, h)),
                &mut buf,
            );
            let view = TagFormView {
                form: &form,
                color: false,
            };
            ratatui::widgets::Widget::render(
                view,
                tag_form_area(area, view.rows_wanted(tag_form_width(w))),
                &mut buf,
            );
        }
    }
}

#[test]
fn a_long_tag_list_scrolls_to_keep_the_chosen_row_in_view() {
    let mut game = game();
    for i in 0..30 {
        game.set_tag(&format!("Extra{i:02}"), "x");
    }
    let mut form = TagForm::open(&game);
    form.key(KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    let area = Rect::new(0, 0, 60, 12);
    let mut buf = Buffer::empty(area);
    let view = TagFormView {
        form: &form,
        color: false,
    };
    ratatui::widgets::Widget::render(view, area, &mut buf);
    let rows: Vec<String> = (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect();
    let chosen: Vec<&String> = rows.iter().filter(|r| r.contains('›')).collect();
    assert_eq!(chosen.len(), 1, "{rows:#?}");
    assert!(chosen[0].contains("+         add a tag"), "{rows:#?}");
    assert!(rows.iter().any(|r| r.contains("Extra29")), "{rows:#?}");
    assert!(!rows.iter().any(|r| r.contains("Event ")), "{rows:#?}");
}
