//! Draw-only: a page of the game list. A header row naming the columns (the sorted one
//! marked ▲ or ▼), one row per game, and a line counting the games ("1,234 games (indexing
//! 43%)", "12 of 1,234 match").
//!
//! Columns are fitted to the width: the number, White, Black, the result and the date
//! always; then, as room allows, the Elos, the event, the ECO code, the plies, the round,
//! the opening and the site (all of them from 120 columns on, the site from 150). The column
//! the list is sorted by comes first among these, so that a list sorted by plies, site or
//! opening shows what it is sorted by at 80 columns too. Names too long for their column end in `…`. The selected game is in reverse video; a game
//! that cannot be read shows why in place of its details. Without colour (`color` false)
//! nothing is lost: reverse video, the arrows and the words carry everything.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::text::{fit, width};
use crate::catalog::{Column, Direction, GameRow, Sort};
use crate::pgn::Outcome;
use crate::plural::grouped;

/// What a page of the list shows: the app takes it from its catalog.
#[derive(Debug, Clone)]
pub struct ListView<'a> {
    /// The games of the page, top to bottom (see [`page_rows`] for how many fit).
    pub rows: &'a [GameRow<'a>],
    /// Which of `rows` is selected, if any.
    pub selected: Option<usize>,
    /// The list's sort, if any.
    pub sort: Option<Sort>,
    /// Games in the file (so far, while indexing).
    pub games: usize,
    /// Games matching the filter, when there is one.
    pub matches: Option<usize>,
    /// How much of the file is indexed, while it is (percent).
    pub indexing: Option<u8>,
    /// Colours at all.
    pub color: bool,
}

/// Rows of games a list of `height` rows shows (the header and the count take two).
pub fn page_rows(height: u16) -> usize {
    usize::from(height.saturating_sub(2))
}

/// One column laid out: what, where, how wide.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Placed {
    column: Column,
    x: u16,
    width: u16,
}

/// A column's header, narrowest width, and widest useful width (flexible columns grow up
/// to it; equal for fixed ones).
fn shape(column: Column, number_width: u16) -> (&'static str, u16, u16) {
    match column {
        Column::Number => ("#", number_width, number_width),
        Column::White => ("White", 14, 28),
        Column::WhiteElo | Column::BlackElo => ("Elo", 4, 4),
        Column::Black => ("Black", 14, 28),
        Column::Result => ("Res", 3, 3),
        Column::Date => ("Date", 10, 10),
        Column::Event => ("Event", 10, 32),
        Column::Round => ("Rd", 4, 5),
        Column::Site => ("Site", 10, 24),
        Column::Eco => ("ECO", 3, 3),
        Column::Opening => ("Opening", 12, 48),
        Column::Plies => ("Plies", 5, 5),
    }
}

/// Columns added, in this order, as the width allows (after the ones always shown).
const OPTIONAL: [Column; 8] = [
    Column::WhiteElo,
    Column::BlackElo,
    Column::Event,
    Column::Eco,
    Column::Plies,
    Column::Round,
    Column::Opening,
    Column::Site,
];

/// The columns that fit in `width`, in the list's order, with their places. The `sorted`
/// column is offered room first: a list sorted by a column it did not show would leave
/// the player guessing at its order.
fn layout(width: u16, number_width: u16, sorted: Option<Column>) -> Vec<Placed> {
    let always = [
        Column::Number,
        Column::White,
        Column::Black,
        Column::Result,
        Column::Date,
    ];
    let need = |columns: &[Column]| -> u16 {
        columns
            .iter()
            .map(|&c| shape(c, number_width).1 + 1)
            .sum::<u16>()
            .saturating_sub(1)
    };
    // Black's Elo comes in a pair with White's, which stands for both here.
    let first = sorted.map(|c| match c {
        Column::BlackElo => Column::WhiteElo,
        c => c,
    });
    let mut optional = OPTIONAL.to_vec();
    if let Some(at) = optional.iter().position(|&c| Some(c) == first) {
        let c = optional.remove(at);
        optional.insert(0, c);
    }
    let mut chosen: Vec<Column> = always.to_vec();
    for c in optional {
        // The site only on wide screens, unless sorted by: it is there to filter by more
        // than to read.
        if c == Column::Site && width < 150 && first != Some(c) {
            continue;
        }
        // Elos come in pairs: Black's with White's.
        if c == Column::BlackElo {
            continue;
        }
        let mut with = chosen.clone();
        with.push(c);
        if c == Column::WhiteElo {
            with.push(Column::BlackElo);
        }
        if need(&with) <= width {
            chosen = with;
        }
    }
    chosen.sort_by_key(|c| Column::ALL.iter().position(|x| x == c));
    chosen.dedup();
    // Widths: the narrowest, then the room left shared among the flexible columns, a cell
    // at a time, in stages: the names first, then the event and the opening, then all up
    // to their widest.
    let mut widths: Vec<u16> = chosen.iter().map(|&c| shape(c, number_width).1).collect();
    let mut left = width.saturating_sub(need(&chosen));
    let stages: [&dyn Fn(Column) -> u16; 3] = [
        &|c| match c {
            Column::White | Column::Black => 20,
            _ => 0,
        },
        &|c| match c {
            Column::Event => 22,
            Column::Opening => 30,
            _ => 0,
        },
        &|c| shape(c, number_width).2,
    ];
    for cap in stages {
        while left > 0 {
            let mut grew = false;
            for (k, &c) in chosen.iter().enumerate() {
                if left > 0 && widths[k] < cap(c).min(shape(c, number_width).2) {
                    widths[k] += 1;
                    left -= 1;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
    }
    let mut x = 0;
    chosen
        .iter()
        .zip(widths)
        .map(|(&column, w)| {
            let placed = Placed {
                column,
                x,
                width: w.min(width.saturating_sub(x)),
            };
            x = x.saturating_add(w + 1);
            placed
        })
        .filter(|p| p.width > 0)
        .collect()
}

/// Digits of `n` (at least 1).
fn digits(n: usize) -> u16 {
    n.max(1).ilog10() as u16 + 1
}

/// The text of `column` for `row`; the second value says whether it is unknown (drawn
/// dim).
fn cell(row: &GameRow, column: Column) -> (String, bool) {
    let text = |s: &str| match s {
        "" => ("?".to_string(), true),
        s => (safe(s), false),
    };
    let elo = |e: Option<u16>| (e.map_or(String::new(), |e| e.to_string()), false);
    match column {
        Column::Number => (row.number.to_string(), false),
        Column::White => text(row.white),
        Column::WhiteElo => elo(row.white_elo),
        Column::Black => text(row.black),
        Column::BlackElo => elo(row.black_elo),
        Column::Result => (
            match row.result {
                Outcome::WhiteWins => "1-0",
                Outcome::BlackWins => "0-1",
                Outcome::Draw => "½-½",
                Outcome::Unknown => "*",
            }
            .to_string(),
            row.result == Outcome::Unknown,
        ),
        Column::Date => (row.date.to_string(), row.date.is_unknown()),
        Column::Event => text(row.event),
        Column::Round => (safe(row.round), false),
        Column::Site => text(row.site),
        Column::Eco => (row.eco.map_or(String::new(), |e| e.to_string()), false),
        Column::Opening => (safe(row.opening), false),
        Column::Plies => (row.plies.to_string(), false),
    }
}

/// A tag value as the screen may show it: control characters (a tab, an escape sequence)
/// escaped, never sent to the terminal.
fn safe(text: &str) -> String {
    crate::message::escaped(text).unwrap_or_else(|| text.to_string())
}

/// Whether a column's values line up on the right (numbers).
fn right_aligned(column: Column) -> bool {
    matches!(
        column,
        Column::Number | Column::WhiteElo | Column::BlackElo | Column::Plies
    )
}

/// Writes `text` in a column: cut to its width, numbers on the right.
fn put(buf: &mut Buffer, area: Rect, y: u16, p: Placed, text: &str, style: Style) {
    let text = fit(text, usize::from(p.width));
    let pad = if right_aligned(p.column) {
        p.width.saturating_sub(width(&text) as u16)
    } else {
        0
    };
    buf.set_stringn(
        area.x + p.x + pad,
        y,
        &text,
        usize::from(p.width - pad),
        style,
    );
}

/// Draws the page into `area` of `buf`.
pub fn render(view: &ListView, area: Rect, buf: &mut Buffer) {
    let area = area.intersection(buf.area);
    if area.is_empty() {
        return;
    }
    let colour = |c: Color| if view.color { c } else { Color::Reset };
    let number_width = digits(view.games).max(
        view.rows
            .iter()
            .map(|r| digits(r.number as usize))
            .max()
            .unwrap_or(1),
    );
    let columns = layout(area.width, number_width, view.sort.map(|s| s.column));
    let bottom = area.bottom() - 1;
    // The header; the count takes the last row (the only one on a screen of one row).
    if area.height >= 2 {
        let header = Style::default().add_modifier(Modifier::BOLD);
        for &p in &columns {
            let (name, ..) = shape(p.column, number_width);
            let (name, style) = match view.sort {
                Some(Sort { column, direction }) if column == p.column => {
                    let arrow = match direction {
                        Direction::Ascending => '▲',
                        Direction::Descending => '▼',
                    };
                    // The arrow always shows: a narrow column (Res, ECO, Plies) gives up
                    // the name's last letters for it.
                    let room = usize::from(p.width).saturating_sub(1);
                    let name: String = name.chars().take(room).collect();
                    (
                        format!("{name}{arrow}"),
                        header.add_modifier(Modifier::UNDERLINED),
                    )
                }
                _ => (name.to_string(), header),
            };
            put(buf, area, area.y, p, &name, style);
        }
    }
    let dim = Style::default().fg(colour(Color::DarkGray));
    for (k, row) in view.rows.iter().enumerate() {
        let y = area.y + 1 + k as u16;
        if y >= bottom {
            break;
        }
        let selected = view.selected == Some(k);
        let base = if selected {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        if selected {
            buf.set_style(Rect::new(area.x, y, area.width, 1), base);
        }
        if let Some(why) = row.unreadable {
            // The number, then the reason across the other columns.
            let number = columns[0];
            put(buf, area, y, number, &row.number.to_string(), base);
            let x = number.x + number.width + 1;
            let note = format!("cannot be read: {why} (byte {})", row.offset);
            let room = usize::from(area.width.saturating_sub(x));
            let style = base.fg(colour(Color::Red)).add_modifier(Modifier::ITALIC);
            buf.set_stringn(area.x + x, y, fit(&note, room), room, style);
            continue;
        }
        for &p in &columns {
            let (text, unknown) = cell(row, p.column);
            let style = if unknown && !selected { dim } else { base };
            put(buf, area, y, p, &text, style);
        }
        if row.problem.is_some() {
            // In the gap after the number: the check found an illegal move or text that
            // does not read (the status line says what when the row is selected).
            let number = columns[0];
            let x = area.x + number.x + number.width;
            if x < area.right() {
                let style = base.fg(colour(Color::Red)).add_modifier(Modifier::BOLD);
                buf.set_string(x, y, "✗", style);
            }
        }
    }
    let count = match view.matches {
        Some(m) => format!("{} of {} match", grouped(m), grouped(view.games)),
        None if view.games == 1 => "1 game".to_string(),
        None => format!("{} games", grouped(view.games)),
    };
    let count = match view.indexing {
        Some(p) => format!("{count} (indexing {p}%)"),
        None => count,
    };
    let room = usize::from(area.width);
    buf.set_stringn(
        area.x,
        bottom,
        fit(&count, room),
        room,
        Style::default().fg(colour(Color::Cyan)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_always_columns_fit_at_80_and_all_at_120() {
        let names = |w| -> Vec<Column> { layout(w, 4, None).iter().map(|p| p.column).collect() };
        let narrow = names(80);
        for c in [
            Column::Number,
            Column::White,
            Column::Black,
            Column::Result,
            Column::Date,
        ] {
            assert!(narrow.contains(&c), "{c:?} at 80");
        }
        let wide = names(120);
        for c in Column::ALL {
            assert_eq!(wide.contains(&c), c != Column::Site, "{c:?} at 120");
        }
        assert!(names(160).contains(&Column::Site));
        // Nothing runs past the edge, whatever the width.
        for w in 0..200 {
            for p in layout(w, 7, None) {
                assert!(p.x + p.width <= w, "{w}: {p:?}");
            }
        }
    }

    /// The sorted column shows, with its arrow, however narrow it is and whichever it is:
    /// also at 80 columns, where a list of 741,721 games has no room for the plies, the
    /// round, the opening or the site unless sorted by them.
    #[test]
    fn the_sorted_column_and_its_arrow_always_show() {
        for (width, games) in [(160, 2_000), (80, 2_000), (80, 741_721)] {
            for column in Column::ALL {
                for direction in [Direction::Ascending, Direction::Descending] {
                    let view = ListView {
                        rows: &[],
                        selected: None,
                        sort: Some(Sort { column, direction }),
                        games,
                        matches: None,
                        indexing: None,
                        color: false,
                    };
                    let area = Rect::new(0, 0, width, 3);
                    let mut buf = Buffer::empty(area);
                    render(&view, area, &mut buf);
                    let header: String = (0..width).map(|x| buf[(x, 0)].symbol()).collect();
                    let arrow = match direction {
                        Direction::Ascending => "▲",
                        Direction::Descending => "▼",
                    };
                    assert!(header.contains(arrow), "{column:?} at {width}: {header}");
                }
            }
            // The other optional columns still fill the room left.
            let shown = layout(width, digits(games), Some(Column::Plies));
            assert!(shown.iter().any(|p| p.column == Column::Event), "{width}");
        }
    }

    #[test]
    fn counts_read_well() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_500_000), "1,500,000");
        assert_eq!(digits(0), 1);
        assert_eq!(digits(10), 2);
    }
}
