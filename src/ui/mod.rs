//! Draw-only: the recorder's screen from `&App`. Board and tags on the left,
//! the scoresheet on the right, then the opening line, the status line (two
//! rows when a message needs them), the entry line and the hint line; overlays
//! (help, promotion, recovery) on top.
//!
//! Any size draws without panicking. From 80×24 everything shows and the
//! board's squares grow with the terminal; smaller, the parts go in this order:
//! the tags panel, the board (the scoresheet takes its room), the opening line,
//! the hint line, the scoresheet. The entry line and the status line stay while
//! there are two rows; below that the screen asks to be enlarged (and the loop gives
//! the app no key meanwhile). Every window over the screen draws at any size from
//! there: without its frame, in one or two rows, when the frame does not fit (the
//! text being edited and its cursor always in view), and a study pane or the
//! training panel that has no room says its gist on a row of its own.
//! Without colour (`Look::color` false) every colour is dropped and the board
//! tells the sides apart by glyph or letter case.

mod bars;
pub mod board;
pub mod editor;
pub mod engine;
pub mod entry;
pub mod list;
pub mod look;
pub mod movetext;
mod overlay;
pub mod pane;
pub mod sheet;
pub mod tagform;
mod tags;
pub mod text;
pub mod train;
pub mod tree;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};
use ratatui::Frame;

use crate::app::{App, MovesView, Overlay, Screen};
pub use look::{Look, SquareSize, Theme};

/// Rows the tags panel wants under the board (with its frame).
const TAGS_ROWS: u16 = 9;
/// Columns the scoresheet needs at least beside the board.
const SHEET_COLUMNS: u16 = 24;
/// Columns of the left column (board and tags) at least, so that the tags read.
const LEFT_COLUMNS: u16 = 28;
/// The smallest screen that shows more than a request to enlarge it.
pub const MIN_WIDTH: u16 = 20;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 2;

/// True when a screen of `width`×`height` is too small for anything but the request to
/// enlarge it: then nothing of the app shows, and the loop gives it no key (a key
/// would act unseen), only the one that quits.
pub fn too_small(width: u16, height: u16) -> bool {
    width < MIN_WIDTH || height < MIN_HEIGHT
}

/// Draws the whole screen into a frame.
pub fn draw(frame: &mut Frame, app: &App, look: &Look) {
    let area = frame.area();
    render(app, look, area, frame.buffer_mut());
}

/// The largest square size whose board fits in `main` beside a scoresheet, with
/// room for the tags under it when the size is chosen automatically; `None` when
/// not even the smallest board fits.
pub fn square_size(look: &Look, main: Rect) -> Option<SquareSize> {
    let fits = |size: SquareSize, rows: u16| {
        let (w, h) = board::board_extent(size, look.coordinates);
        main.width >= w + 1 + SHEET_COLUMNS && main.height >= h + rows
    };
    let sizes = [SquareSize::Large, SquareSize::Medium, SquareSize::Small];
    if look.square != SquareSize::Auto && fits(look.square, 0) {
        return Some(look.square);
    }
    let wanted = match look.square {
        SquareSize::Auto => &sizes[..],
        // A fixed size that does not fit falls back to a smaller one.
        fixed => &sizes[sizes.iter().position(|&s| s == fixed).unwrap_or(0)..],
    };
    let tags_rows = if look.square == SquareSize::Auto {
        TAGS_ROWS
    } else {
        0
    };
    wanted
        .iter()
        .copied()
        .find(|&size| fits(size, tags_rows))
        .or_else(|| wanted.iter().copied().find(|&size| fits(size, 0)))
}

/// Draws the whole screen into a buffer (the frame's, or a test's).
pub fn render(app: &App, look: &Look, area: Rect, buf: &mut Buffer) {
    let area = area.intersection(buf.area);
    if too_small(area.width, area.height) {
        enlarge(area, 0, buf);
    } else if app.screen == Screen::List && app.list().is_some() {
        list_screen(app, area, buf);
    } else {
        screen(app, look, area, buf);
    }
    if !look.color {
        // Colour is only ever a second signal: without it the glyphs, brackets
        // and reverse video carry everything.
        for y in area.top()..area.bottom() {
            for x in area.left()..area.right() {
                buf[(x, y)].set_fg(Color::Reset).set_bg(Color::Reset);
            }
        }
    }
}

/// The request to enlarge a screen too small for anything else, with the keys that did
/// nothing so far (`ignored`), so that whoever typed on sees that they went nowhere.
pub fn enlarge(area: Rect, ignored: usize, buf: &mut Buffer) {
    let lines: Vec<Line> = enlarge_lines(area.width, area.height, ignored)
        .into_iter()
        .map(Line::from)
        .collect();
    Paragraph::new(lines)
        .style(Style::default().add_modifier(Modifier::BOLD))
        .render(area, buf);
}

/// The request to enlarge a screen of `width`×`height`, in lines: the fullest wording
/// that can be read whole there (no word cut, as many lines as there are rows), from the
/// sizes and the keys ignored down to `enlarge`, `wider` and `+`.
pub fn enlarge_lines(width: u16, height: u16, ignored: usize) -> Vec<String> {
    let least = format!("{MIN_WIDTH}×{MIN_HEIGHT}");
    let count = |text: String| match ignored {
        0 => None,
        n => Some(text.replace("{n}", &n.to_string())),
    };
    let full = format!(
        "enlarge the terminal ({least} at least; now {width}×{height}): until then keys do nothing"
    );
    let wordings = [
        count(format!("{full} ({{n}} ignored)")),
        Some(full),
        count(format!(
            "enlarge to {least} at least: keys do nothing ({{n}} ignored)"
        )),
        count(format!(
            "enlarge to {least}: keys do nothing ({{n}} ignored)"
        )),
        count(format!("enlarge to {least} ({{n}} keys ignored)")),
        count(format!("enlarge to {least} ({{n}} ignored)")),
        count("enlarge ({n} ignored)".to_string()),
        Some(format!("enlarge to {least} at least: keys do nothing")),
        Some(format!("enlarge to {least}: keys do nothing")),
        Some(format!("enlarge to {least}")),
        Some("enlarge".to_string()),
        // Only a narrow screen has no room for `enlarge`.
        Some("wider".to_string()),
    ];
    let (columns, rows) = (usize::from(width), usize::from(height));
    wordings
        .into_iter()
        .flatten()
        .find_map(|wording| {
            let whole = wording.split(' ').all(|w| text::width(w) <= columns);
            let lines = text::wrap(&wording, columns);
            (whole && lines.len() <= rows).then_some(lines)
        })
        .unwrap_or_else(|| vec!["+".to_string()])
}

/// The list screen: the games of the file, the status line, the filter line
/// and the hint line; the help over them when open.
fn list_screen(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(games) = app.list() else {
        return;
    };
    let mut status = bars::status(app);
    // Nothing else to say: the selected game's problem, when the check found one.
    if status.0.is_empty() && !games.filtering {
        if let Some(row) = games.catalog.get(games.selected) {
            if let Some(problem) = row.problem {
                status = (
                    format!("game {} ✗ {problem}", row.number),
                    Style::default().fg(Color::Red),
                );
            }
        }
    }
    let hint_rows = u16::from(area.height >= 6);
    // A message wider than the screen (a filter's error, what to do with an unsaved
    // game) takes a second row to be read whole, while the screen has rows to spare.
    let status_rows = match (status.0.is_empty(), area.height) {
        (true, _) | (false, 0..4) => 0,
        (false, 4..12) => 1,
        (false, _) => (text::wrap(&status.0, usize::from(area.width)).len() as u16).clamp(1, 2),
    };
    let [rows_area, status_area, filter_area, hints] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(status_rows),
        Constraint::Length(1),
        Constraint::Length(hint_rows),
    ])
    .areas(area);
    let page = list::page_rows(rows_area.height).max(1);
    games.page.set(page);
    // The selection stays in view, moving the page as little as it can.
    let mut top = games.top.get();
    if games.selected < top {
        top = games.selected;
    } else if games.selected >= top + page {
        top = games.selected + 1 - page;
    }
    top = top.min(games.catalog.matches().saturating_sub(page));
    games.top.set(top);
    let rows = games.catalog.page(top, page);
    let view = list::ListView {
        rows: &rows,
        selected: games.selected.checked_sub(top).filter(|&i| i < rows.len()),
        sort: games.catalog.sort(),
        games: games.catalog.games(),
        matches: games.catalog.query().map(|_| games.catalog.matches()),
        indexing: match games.catalog.status() {
            crate::catalog::LoadStatus::Loading { .. } => {
                Some(games.catalog.percent().unwrap_or(0))
            }
            _ => None,
        },
        color: true,
    };
    list::render(&view, rows_area, buf);
    bars::status_line(&status, status_area, buf);
    let line = if !app.entry.is_empty() {
        // A `:command` being typed takes the filter's line while it is.
        format!("{}▏", app.entry)
    } else if games.filtering || !games.filter.is_empty() {
        let cursor = if games.filtering { "▏" } else { "" };
        // A `pos:` term lets every game through until the search's answer comes.
        let searching = if games.catalog.searching() {
            "  (searching the games for the position…)"
        } else {
            ""
        };
        format!("/{}{cursor}{searching}", games.filter)
    } else {
        // The file's name first: the reminder of the keys goes when there is no room
        // for both (the hint line and F1 say them too).
        let path = games.path.display().to_string();
        let keys = "  (/ filter, Enter open, letters sort, : command; F1)";
        if text::width(&path) + text::width(keys) <= usize::from(filter_area.width) {
            format!("{path}{keys}")
        } else {
            path
        }
    };
    Paragraph::new(text::fit_left(&line, usize::from(filter_area.width))).render(filter_area, buf);
    bars::hint_line(app, hints, buf);
    // The overlays that can open over the list (the others belong to a game); the
    // recovery box is offered at start, whichever screen the file opened on.
    match &app.overlay {
        Overlay::Help => overlay::help(app, area, buf),
        Overlay::Recover(b) => overlay::recover(b, "other keys: the list", area, buf),
        _ => {}
    }
}

/// What a character typed over the recovery box on the game screen does: it closes
/// the box and goes on the entry line, where it is the first move of a new game only
/// when the game shown has none (`scoresheet`, not `scoresheet FILE` or a drill).
fn typing_over_box(app: &App) -> &'static str {
    if app.training() {
        "typing answers the exercise"
    } else if app.game.is_empty() {
        "typing starts a new game"
    } else {
        "typing goes on the entry line"
    }
}

fn screen(app: &App, look: &Look, area: Rect, buf: &mut Buffer) {
    let mut status = bars::status(app);
    // On a screen of a few rows the main area has none: an open pane, or training,
    // says its gist on the status line while there is nothing else to say.
    if status.0.is_empty() && area.height < 5 {
        let gist = if app.training() {
            app.training_lines().into_iter().next().unwrap_or_default()
        } else {
            pane::line(app, look)
        };
        status.0 = gist;
    }
    // A message wider than the screen gets the rows it needs to be read whole, its advice
    // included (up to four, while rows are plenty; two on a small screen).
    let most = match area.height {
        20.. => 4,
        12.. => 2,
        _ => 1,
    };
    let status_rows = if text::width(&status.0) > usize::from(area.width) {
        text::wrap(&status.0, usize::from(area.width))
            .len()
            .clamp(1, most) as u16
    } else {
        1
    };
    let hint_rows = u16::from(area.height >= 6);
    let opening_rows = u16::from(area.height >= 8);
    let [main, opening, status_area, entry, hints] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(opening_rows),
        Constraint::Length(status_rows),
        Constraint::Length(1),
        Constraint::Length(hint_rows),
    ])
    .areas(area);
    main_area(app, look, main, buf);
    bars::opening_line(app, opening, buf);
    bars::status_line(&status, status_area, buf);
    entry::render(app, entry, buf);
    bars::hint_line(app, hints, buf);
    match &app.overlay {
        Overlay::None => {}
        Overlay::Help => overlay::help(app, area, buf),
        Overlay::Promotion(choices) => overlay::promotion(app, choices, area, buf),
        Overlay::Recover(b) => overlay::recover(b, typing_over_box(app), area, buf),
        Overlay::Comment(ed) => {
            let boxed = editor::CommentBox {
                title: ed.title(),
                editor: ed.editor(),
                color: look.color,
            };
            let at = editor::comment_area(area, boxed.rows_wanted(area.width, area.height));
            boxed.render(at, buf);
        }
        Overlay::Tags(form) => {
            let view = tagform::TagFormView {
                form,
                color: look.color,
            };
            let wanted = view.rows_wanted(tagform::tag_form_width(area.width));
            view.render(tagform::tag_form_area(area, wanted), buf);
        }
    }
}

/// The board with the tags under it and the scoresheet beside them; the
/// scoresheet alone when the board does not fit.
fn main_area(app: &App, look: &Look, main: Rect, buf: &mut Buffer) {
    if main.height < 3 {
        let note = "enlarge the terminal for the board and the scoresheet";
        Paragraph::new(note)
            .wrap(Wrap { trim: true })
            .style(Style::default().fg(Color::DarkGray))
            .render(main, buf);
        return;
    }
    let Some(size) = square_size(look, main) else {
        let note = " enlarge for the board ";
        // The note goes where it does not cover the title.
        let note = if main.width >= 16 + note.len() as u16 {
            note
        } else {
            ""
        };
        // Training's panel, which lives under the board, goes over the moves.
        let main = if app.training() {
            let lines = app.training_lines();
            let rows = (lines.len() as u16).min((main.height / 3).max(1));
            let [panel, rest] =
                Layout::vertical([Constraint::Length(rows), Constraint::Fill(1)]).areas(main);
            let width = usize::from(panel.width);
            for (i, line) in lines.iter().take(usize::from(rows)).enumerate() {
                let style = if i == 0 {
                    Style::default().add_modifier(Modifier::BOLD)
                } else {
                    Style::default()
                };
                let y = panel.y + i as u16;
                buf.set_stringn(panel.x, y, text::fit(line, width), width, style);
            }
            rest
        } else {
            main
        };
        moves_and_pane(app, look, main, note, buf);
        return;
    };
    let (board_w, board_h) = board::board_extent(size, look.coordinates);
    let left_w = if main.width >= LEFT_COLUMNS + 1 + SHEET_COLUMNS {
        board_w.max(LEFT_COLUMNS)
    } else {
        board_w
    };
    let [left, right] =
        Layout::horizontal([Constraint::Length(left_w + 1), Constraint::Fill(1)]).areas(main);
    let [board_area, tags_area] =
        Layout::vertical([Constraint::Length(board_h), Constraint::Fill(1)]).areas(left);
    let node = app.game.node(app.cursor);
    let marks = crate::game::annotation::BoardMarks::from_annotations(
        &node.annotations_within(text::COMMENT_SHOWN),
    );
    board::render(app, look, size, &marks, board_area, buf);
    let under = Rect {
        width: left_w,
        ..tags_area
    };
    if app.training() {
        train::render(&app.training_lines(), under, buf);
    } else {
        tags::render(app, under, buf);
    }
    moves_and_pane(app, look, right, "", buf);
}

/// The moves, with the study pane under them when one is open and the column has
/// the rows for both (the pane goes first on a short screen).
fn moves_and_pane(app: &App, look: &Look, area: Rect, note: &str, buf: &mut Buffer) {
    if app.pane == crate::app::pane::Pane::None {
        return moves(app, look, area, note, buf);
    }
    if area.height < 4 {
        // A row of its own would leave the moves' frame empty: the gist goes on the
        // frame's bottom edge instead, and the moves keep their row.
        let gist = pane::line(app, look);
        let note = if note.is_empty() {
            gist
        } else {
            format!("{gist} · {}", note.trim())
        };
        return moves(
            app,
            look,
            area,
            &text::fit(&note, usize::from(area.width).saturating_sub(2)),
            buf,
        );
    }
    if area.height < pane::MIN_ROWS + 6 {
        // No room for the pane's frame: its gist on a row under the moves (the keys it
        // answers to still work, and what they act on is seen).
        let [top, bottom] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
        moves(app, look, top, note, buf);
        let text = pane::line(app, look);
        let width = usize::from(bottom.width);
        buf.set_stringn(
            bottom.x,
            bottom.y,
            text::fit(&text, width),
            width,
            Style::default().add_modifier(Modifier::BOLD),
        );
        return;
    }
    let rows = pane::rows_wanted(app, area).clamp(pane::MIN_ROWS, area.height / 2);
    let [top, bottom] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(rows)]).areas(area);
    moves(app, look, top, note, buf);
    pane::render(app, look, bottom, buf);
}

thread_local! {
    /// The move text's layout, cached while the game does not change, and its
    /// scroll. The screen is drawn from `&App`; this belongs to the drawing,
    /// not to the app's state, and there is one screen.
    static MOVE_TEXT: std::cell::RefCell<movetext::MoveTextState> =
        std::cell::RefCell::new(movetext::MoveTextState::default());
}

/// The moves as the app's view asks: the scoresheet, or the text of a book.
fn moves(app: &App, look: &Look, area: Rect, note: &str, buf: &mut Buffer) {
    let layout = match app.moves_view {
        MovesView::Sheet => return sheet::render(app, area, note, buf),
        MovesView::Inline => movetext::MoveLayout::Inline,
        MovesView::Indented => movetext::MoveLayout::Indented,
    };
    let block = ratatui::widgets::Block::bordered().title(" Moves ");
    let block = if note.is_empty() {
        block
    } else {
        block.title_bottom(note)
    };
    let inner = block.inner(area);
    block.render(area, buf);
    let widget = movetext::MoveText {
        game: &app.game,
        cursor: app.cursor,
        style: app.settings.display,
        lang: app.settings.display_lang,
        layout,
        color: look.color,
    };
    MOVE_TEXT.with(|state| {
        ratatui::widgets::StatefulWidget::render(widget, inner, buf, &mut state.borrow_mut())
    });
}
