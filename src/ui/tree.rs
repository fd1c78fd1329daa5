//! Draws the opening tree pane's body: one line per move played from the position at the
//! cursor — the move, its games, White's wins, draws and Black's wins in percent, the
//! average rating and the last year — the selected move reversed (Enter plays it).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::study::tree::{Branch, Tree};

/// What the pane shows: a tree with its selection, or only a status line.
pub struct TreeLines<'a> {
    /// The tree of the position at the cursor, when it is known.
    pub tree: Option<&'a Tree>,
    /// The selected move.
    pub selected: usize,
    /// A line shown when there is no tree (reading, or an error).
    pub status: &'a str,
    /// A line shown above the tree (how it was answered), when there is room; or empty.
    pub note: &'a str,
}

fn percent(part: u64, all: u64) -> u64 {
    (part * 100 + all / 2) / all.max(1)
}

/// One move's line.
fn line(b: &Branch) -> String {
    let elo = b
        .average_elo()
        .map_or("    ".to_string(), |e| format!("{e:>4}"));
    let year = match b.last_year {
        0 => String::new(),
        y => y.to_string(),
    };
    format!(
        "{:<7}{:>6} {:>3}% {:>3}% {:>3}% {elo} {year}",
        b.san,
        b.games,
        percent(b.white_wins, b.games),
        percent(b.draws, b.games),
        percent(b.black_wins, b.games),
    )
}

/// Draws the lines into `area` (the pane's inside).
pub fn render(view: &TreeLines, area: Rect, buf: &mut Buffer) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let Some(tree) = view.tree else {
        Paragraph::new(view.status)
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    };
    let mut lines: Vec<Line> = Vec::new();
    // The note takes a line only where two are left for the head and a move.
    let note = !view.note.is_empty() && area.height >= 3;
    if note {
        lines.push(Line::styled(
            view.note,
            Style::default().add_modifier(Modifier::ITALIC),
        ));
    }
    // The count of games heads the moves' column, the other columns' names follow it.
    let head = format!(
        "{:<13} {:>4} {:>4} {:>4} {:>4} year",
        crate::plural::count_grouped(tree.games as usize, "game", "games"),
        "1-0",
        "=",
        "0-1",
        "Elo",
    );
    // The games that ended here, said as fully as the pane's width lets it be read whole.
    let ended = match tree.ended {
        0 => String::new(),
        n => [format!(" ({n} ended here)"), format!(" ({n} ended)")]
            .into_iter()
            .find(|more| {
                super::text::width(&head) + super::text::width(more) <= usize::from(area.width)
            })
            .unwrap_or_default(),
    };
    let head = head + &ended;
    lines.push(Line::styled(
        head,
        Style::default().add_modifier(Modifier::DIM),
    ));
    if tree.branches.is_empty() {
        lines.push(Line::from("no move played from here"));
    }
    // Keep the selection in view.
    let rows = usize::from(area.height)
        .saturating_sub(1 + usize::from(note))
        .max(1);
    let first = view.selected.saturating_sub(rows - 1);
    for (i, b) in tree.branches.iter().enumerate().skip(first).take(rows) {
        let style = if i == view.selected {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        lines.push(Line::styled(line(b), style));
    }
    Paragraph::new(lines).render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::study::follow::GameInfo;
    use crate::study::tree::Next;

    fn tree() -> Tree {
        let moves = ["e2e4", "d2d4", "c2c4", "g1f3", "b2b3"];
        let games = moves.iter().enumerate().flat_map(|(i, m)| {
            let next = Next::Move(m.parse().expect("uci"));
            std::iter::repeat_n((next, GameInfo::default()), 5 - i)
        });
        Tree::build(&Position::start(), games)
    }

    fn rows(area: Rect, selected: usize) -> Vec<String> {
        noted(area, selected, "")
    }

    fn noted(area: Rect, selected: usize, note: &str) -> Vec<String> {
        let tree = tree();
        let mut buf = Buffer::empty(area);
        let view = TreeLines {
            tree: Some(&tree),
            selected,
            status: "",
            note,
        };
        render(&view, area, &mut buf);
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect()
    }

    #[test]
    fn the_games_that_ended_here_are_said_as_fully_as_the_width_lets_them_be_read() {
        let games = [(Next::End, GameInfo::default()); 44].into_iter().chain([(
            Next::Move("e2e4".parse().expect("uci")),
            GameInfo::default(),
        )]);
        let tree = Tree::build(&Position::start(), games);
        let head = |width: u16| {
            let area = Rect::new(0, 0, width, 3);
            let mut buf = Buffer::empty(area);
            let view = TreeLines {
                tree: Some(&tree),
                selected: 0,
                status: "",
                note: "",
            };
            render(&view, area, &mut buf);
            let line: String = (0..width).map(|x| buf[(x, 0)].symbol()).collect();
            line.trim_end().to_string()
        };
        assert!(head(60).ends_with("year (44 ended here)"), "{}", head(60));
        // Narrower: the shorter form, whole, never a cut parenthesis.
        assert!(head(50).ends_with("year (44 ended)"), "{}", head(50));
        assert!(head(40).ends_with("year"), "{}", head(40));
    }

    #[test]
    fn the_selected_move_stays_in_view_and_any_size_draws() {
        let shown = rows(Rect::new(0, 0, 40, 3), 4);
        assert!(
            shown[0].starts_with("15 games       1-0    =  0-1  Elo year"),
            "{shown:?}"
        );
        assert!(
            shown[2].starts_with("b3"),
            "the selection is in view: {shown:?}"
        );
        assert!(shown[2].contains("   1 "), "{shown:?}");
        for w in 0..45 {
            for h in 0..8 {
                rows(Rect::new(0, 0, w, h), 2);
            }
        }
    }

    #[test]
    fn a_note_heads_the_tree_where_there_is_room_and_the_selection_stays_in_view() {
        let note = "index being built by another scoresheet…";
        let shown = noted(Rect::new(0, 0, 44, 4), 4, note);
        assert!(shown[0].starts_with(note), "{shown:?}");
        assert!(shown[1].starts_with("15 games"), "{shown:?}");
        assert!(shown[3].starts_with("b3"), "{shown:?}");
        // Two lines: the head and the selected move, no note.
        let shown = noted(Rect::new(0, 0, 44, 2), 4, note);
        assert!(shown[0].starts_with("15 games"), "{shown:?}");
        assert!(shown[1].starts_with("b3"), "{shown:?}");
        for w in 0..45 {
            for h in 0..8 {
                noted(Rect::new(0, 0, w, h), 2, note);
            }
        }
    }
}
