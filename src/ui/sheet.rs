//! The scoresheet: the main line in two columns (number, White, Black) as on a
//! paper scoresheet, with each move's clock and draw offer beside it, variations
//! and comments inline under the move they belong to, the moves waiting after a
//! correction (after the main line, saying after which move when they wait in a
//! variation), and the current move highlighted and kept in view. Comments and
//! variations wrap at spaces under their move; widths are display widths.

use std::collections::HashSet;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::text::{self, wrap};
use crate::app::App;
use crate::game::annotation::{split_comment, Annotation};
use crate::game::notes::{write_move_text, write_nags};
use crate::game::{Game, NodeId};
use crate::position::Position;

/// Deeper variations than this are shown as `(…)`: the screen is no place for them.
const MAX_DEPTH: usize = 12;

/// A move as the scoresheet writes it.
fn move_text(app: &App, before: &Position, id: NodeId) -> String {
    let node = app.game.node(id);
    let mut text = String::new();
    let (style, lang) = (app.settings.display, app.settings.display_lang);
    write_move_text(&mut text, node, Some(before), style, lang);
    write_nags(&mut text, &node.nags);
    text
}

/// The clock (or elapsed time) written beside a move.
fn clock_of(game: &Game, id: NodeId) -> Option<String> {
    let annotations = game.node(id).annotations_within(text::COMMENT_SHOWN);
    annotations
        .iter()
        .find_map(|a| match a {
            Annotation::Clock(t) => Some(t.to_string()),
            _ => None,
        })
        .or_else(|| {
            annotations.iter().find_map(|a| match a {
                Annotation::Elapsed(t) => Some(format!("+{t}")),
                _ => None,
            })
        })
}

/// One piece of a line: text, and the move it stands for (to highlight).
struct Piece {
    text: String,
    id: Option<NodeId>,
    style: Style,
}

/// The sheet's lines before wrapping: a row of the two columns, or a line of
/// variations and comments.
enum Row {
    Moves {
        number: u32,
        white: Option<Vec<Piece>>,
        black: Option<Vec<Piece>>,
    },
    Aside(Vec<Piece>),
}

fn cell(app: &App, before: &Position, id: NodeId) -> Vec<Piece> {
    let mut pieces = vec![Piece {
        text: move_text(app, before, id),
        id: Some(id),
        style: Style::default().add_modifier(Modifier::BOLD),
    }];
    if let Some(clock) = clock_of(&app.game, id) {
        pieces.push(Piece {
            text: format!(" {clock}"),
            id: None,
            style: Style::default().fg(Color::DarkGray),
        });
    }
    if app.game.node(id).draw_offer {
        pieces.push(Piece {
            text: " (=)".into(),
            id: None,
            style: Style::default().fg(Color::Yellow),
        });
    }
    pieces
}

/// Variations and comments are written in this style.
const ASIDE: Style = Style::new().fg(Color::Cyan);

/// The free text of the comment after `id` as the sheet shows it (its start, when it
/// is longer than [`text::COMMENT_SHOWN`]); `None` for none.
fn comment_piece(app: &App, id: NodeId) -> Option<Piece> {
    // The comment that keeps waiting moves in the file is not shown beside them: they
    // are on the sheet once, as waiting.
    let skip = app.waiting_comment(id);
    let (text, cut) = app
        .game
        .comment_text_head_without(id, text::COMMENT_SHOWN, skip);
    let more = if cut { " …" } else { "" };
    (!text.is_empty()).then(|| Piece {
        text: format!("{{{text}{more}}}"),
        id: None,
        style: ASIDE.add_modifier(Modifier::ITALIC),
    })
}

/// Writes the line that starts with the move `first` (played in `before`):
/// numbered moves, comments, and nested variations in parentheses. `path` holds the
/// current move and the moves before it (see [`variation`]).
fn line_pieces(
    app: &App,
    first: NodeId,
    before: Position,
    depth: usize,
    path: &HashSet<NodeId>,
    out: &mut Vec<Piece>,
) {
    let mut at = first;
    let mut pos = before;
    let mut number_due = true;
    loop {
        let white = pos.side_to_move() == chess::Color::White;
        let number = if white {
            format!("{}.", pos.fullmove_number())
        } else if number_due {
            format!("{}...", pos.fullmove_number())
        } else {
            String::new()
        };
        out.push(Piece {
            text: format!("{number}{}", move_text(app, &pos, at)),
            id: Some(at),
            style: ASIDE,
        });
        let comment = comment_piece(app, at);
        number_due = comment.is_some();
        out.extend(comment);
        // The alternatives to this move come right after it, as PGN writes them.
        if at != first {
            let siblings = app.game.variations_at(at);
            if siblings.len() > 1 && siblings[0] == at {
                for &alt in &siblings[1..] {
                    variation(app, alt, pos, depth + 1, path, out);
                }
                number_due = true;
            }
        }
        let after = pos.apply(app.game.node(at).mv).unwrap_or(pos);
        let Some(&next) = app.game.node(at).children.first() else {
            break;
        };
        pos = after;
        at = next;
    }
}

/// The variation starting with `first`, in parentheses, nested `depth` deep; deeper than
/// [`MAX_DEPTH`] it is `(…)`, or the current move when `path` says it is in there.
fn variation(
    app: &App,
    first: NodeId,
    before: Position,
    depth: usize,
    path: &HashSet<NodeId>,
    out: &mut Vec<Piece>,
) {
    if depth > MAX_DEPTH {
        // The current move stays in sight when it is in there: `(…15.Bd2…)`, marked as
        // the current move is, or a reader deep in a study would not see where they are.
        let (text, id) = if path.contains(&first) {
            (
                format!("(…{}…)", numbered_move(app, app.cursor)),
                Some(app.cursor),
            )
        } else {
            ("(…)".into(), None)
        };
        out.push(Piece {
            text,
            id,
            style: ASIDE,
        });
        return;
    }
    let opening = out.len();
    line_pieces(app, first, before, depth, path, out);
    out[opening].text.insert(0, '(');
    if let Some(last) = out.last_mut() {
        last.text.push(')');
    }
}

/// The move `id` with its number, as a line of the sheet writes it (`15.Bd2`, `15...e5`).
fn numbered_move(app: &App, id: NodeId) -> String {
    let parent = app.game.node(id).parent.unwrap_or(NodeId::ROOT);
    let before = app.game.position_at(parent);
    let dots = if before.side_to_move() == chess::Color::White {
        "."
    } else {
        "..."
    };
    format!(
        "{}{dots}{}",
        before.fullmove_number(),
        move_text(app, &before, id)
    )
}

/// The current move and every move before it, for [`variation`] to know whether a line it
/// leaves out holds the current move.
fn cursor_path(app: &App) -> HashSet<NodeId> {
    let mut path = HashSet::new();
    let mut at = Some(app.cursor);
    while let Some(id) = at {
        path.insert(id);
        at = app.game.node(id).parent;
    }
    path
}

/// The main line's rows, with asides after the moves they belong to.
fn rows(app: &App) -> Vec<Row> {
    let game = &app.game;
    let path = cursor_path(app);
    let mut rows = Vec::new();
    let mut pos = game.start;
    let mut at = NodeId::ROOT;
    if let Some(comment) = comment_piece(app, NodeId::ROOT) {
        rows.push(Row::Aside(vec![comment]));
    }
    while let Some(&next) = game.node(at).children.first() {
        let white = pos.side_to_move() == chess::Color::White;
        let number = pos.fullmove_number();
        let pieces = cell(app, &pos, next);
        match rows.last_mut() {
            Some(Row::Moves {
                number: n,
                black: black @ None,
                ..
            }) if !white && *n == number => *black = Some(pieces),
            _ if white => rows.push(Row::Moves {
                number,
                white: Some(pieces),
                black: None,
            }),
            _ => rows.push(Row::Moves {
                number,
                white: None,
                black: Some(pieces),
            }),
        }
        let mut aside: Vec<Piece> = comment_piece(app, next).into_iter().collect();
        for &alt in &game.node(at).children[1..] {
            variation(app, alt, pos, 1, &path, &mut aside);
        }
        if !aside.is_empty() {
            rows.push(Row::Aside(aside));
        }
        pos = pos.apply(game.node(next).mv).unwrap_or(pos);
        at = next;
    }
    if let Some(pending) = &app.pending {
        if game.is_live(pending.at) {
            let label = match app.waiting_off_line() {
                Some(after) => format!("waiting after {after}:"),
                None => "waiting:".into(),
            };
            let mut pieces = vec![Piece {
                text: label,
                id: None,
                style: Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
            }];
            // Each with what was written beside it (its glyphs, a draw offer, its
            // remarks), which the comment keeping them for the file, not shown, also holds.
            for cut in &pending.moves {
                let mut text = cut.san.clone();
                write_nags(&mut text, &cut.nags);
                if cut.draw_offer {
                    text.push_str(" (=)");
                }
                pieces.push(Piece {
                    text,
                    id: None,
                    style: Style::default()
                        .fg(Color::Red)
                        .add_modifier(Modifier::CROSSED_OUT),
                });
                for comment in &cut.comments {
                    let remark = split_comment(comment).1;
                    if !remark.is_empty() {
                        pieces.push(Piece {
                            text: format!("{{{remark}}}"),
                            id: None,
                            style: ASIDE.add_modifier(Modifier::ITALIC),
                        });
                    }
                }
            }
            rows.push(Row::Aside(pieces));
        }
    }
    rows
}

fn styled(piece: &Piece, cursor: NodeId) -> Span<'static> {
    let style = if piece.id == Some(cursor) {
        piece.style.add_modifier(Modifier::REVERSED)
    } else {
        piece.style
    };
    Span::styled(piece.text.clone(), style)
}

/// The pieces of an aside cut so that each fits in `room` cells: a comment
/// becomes its words (so that it wraps at spaces), and a word longer than a
/// line is split.
fn words(pieces: Vec<Piece>, room: usize) -> Vec<Piece> {
    let mut out = Vec::new();
    for piece in pieces {
        if piece.id.is_some() || text::width(&piece.text) < room {
            out.push(piece);
            continue;
        }
        for word in piece.text.split(' ').filter(|w| !w.is_empty()) {
            for part in wrap(word, room.saturating_sub(1).max(1)) {
                out.push(Piece {
                    text: part,
                    id: None,
                    style: piece.style,
                });
            }
        }
    }
    out
}

/// Lays the rows out in `width` columns; returns the lines and the index of the
/// line holding the current move.
fn layout(app: &App, width: u16) -> (Vec<Line<'static>>, usize) {
    let width = usize::from(width.max(12));
    let column = (width - 5) / 2;
    let mut lines = Vec::new();
    let mut cursor_line = 0;
    for row in rows(app) {
        match row {
            Row::Moves {
                number,
                white,
                black,
            } => {
                let holds = |c: &Option<Vec<Piece>>| {
                    c.as_ref()
                        .is_some_and(|p| p.iter().any(|p| p.id == Some(app.cursor)))
                };
                if holds(&white) || holds(&black) {
                    cursor_line = lines.len();
                }
                let mut spans = vec![Span::styled(
                    format!("{number:>3}. "),
                    Style::default().fg(Color::DarkGray),
                )];
                let mut used = 0;
                match &white {
                    Some(pieces) => {
                        for p in pieces {
                            used += text::width(&p.text);
                            spans.push(styled(p, app.cursor));
                        }
                    }
                    None => {
                        used = 3;
                        spans.push(Span::raw("..."));
                    }
                }
                spans.push(Span::raw(" ".repeat(column.saturating_sub(used).max(1))));
                if let Some(pieces) = &black {
                    spans.extend(pieces.iter().map(|p| styled(p, app.cursor)));
                }
                lines.push(Line::from(spans));
            }
            Row::Aside(pieces) => {
                let mut spans: Vec<Span<'static>> = vec![Span::raw("     ")];
                let mut used = 5;
                for p in words(pieces, width - 5) {
                    let len = text::width(&p.text) + 1;
                    if used + len > width && used > 5 {
                        lines.push(Line::from(std::mem::take(&mut spans)));
                        spans.push(Span::raw("     "));
                        used = 5;
                    }
                    if p.id == Some(app.cursor) {
                        cursor_line = lines.len();
                    }
                    spans.push(styled(&p, app.cursor));
                    spans.push(Span::raw(" "));
                    used += len;
                }
                lines.push(Line::from(spans));
            }
        }
    }
    // A finished game's result under its last move, as written on a paper scoresheet.
    if let Some(result) = super::movetext::shown_result(&app.game).filter(|_| !lines.is_empty()) {
        lines.push(Line::from(vec![
            Span::raw("     "),
            Span::styled(result, Style::default().add_modifier(Modifier::BOLD)),
        ]));
    }
    (lines, cursor_line)
}

/// Draws the scoresheet in a frame titled ` Scoresheet `, with `note` (when not
/// empty) on the right of the frame's top.
pub fn render(app: &App, area: Rect, note: &str, buf: &mut Buffer) {
    let mut block = Block::bordered().title(" Scoresheet ");
    if !note.is_empty() {
        block = block.title(Line::from(note.to_string()).right_aligned());
    }
    let inner = block.inner(area);
    block.render(area, buf);
    let (lines, cursor_line) = layout(app, inner.width);
    if lines.is_empty() {
        Paragraph::new(Line::styled(
            "  no moves yet: type the first one below",
            Style::default().fg(Color::DarkGray),
        ))
        .render(inner, buf);
        return;
    }
    let height = usize::from(inner.height);
    // Keep the current move in view with a line after it when there is one; on the
    // main line's last move, every line after it too, down to the result written
    // under it (a final comment would otherwise push the result off the sheet).
    let at_end = app.game.mainline().last() == Some(&app.cursor);
    let wanted_end = if at_end {
        lines.len()
    } else {
        (cursor_line + 2).min(lines.len())
    };
    let top = wanted_end.saturating_sub(height).min(cursor_line);
    let top = if app.cursor == NodeId::ROOT { 0 } else { top };
    let shown: Vec<Line<'static>> = lines.into_iter().skip(top).take(height).collect();
    Paragraph::new(shown).render(inner, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Settings;

    /// A comment of 10 MB is laid out only as far as the sheet shows it (its start,
    /// then `…`), at the start of the game and after a move, so that each frame costs what
    /// a screen can show; the moves after it are still on the sheet.
    #[test]
    fn a_huge_comment_is_laid_out_only_as_far_as_shown() {
        let words = "the knight is strong on this square ".repeat(10_000_000 / 36);
        for movetext in [
            format!("1. e4 {{{words}}} e5 2. Nf3 *"),
            format!("{{{words}}} 1. e4 e5 2. Nf3 *"),
        ] {
            let pgn = format!("[Event \"t\"]\n\n{movetext}\n");
            let game = crate::pgn::read_games(pgn.as_bytes()).remove(0).game;
            let app = App::new(Settings::default(), game, None);
            let (lines, _) = layout(&app, 60);
            let text: Vec<String> = lines
                .iter()
                .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
                .collect();
            let laid: usize = text.iter().map(String::len).sum();
            assert!(laid < 20 * 1024, "{laid} bytes in {} lines", text.len());
            let all = text.join("\n");
            assert!(all.contains("{the knight is strong"));
            assert!(all.contains("…}"), "the cut is said");
            assert!(all.contains("Nf3"), "the moves after it are there");
        }
    }

    /// Variations nested `depth` deep off the first move, each one move longer than the
    /// one it is in; the game and the deepest move.
    fn nested(depth: usize) -> (Game, NodeId) {
        use crate::position::Move;
        let start = Position::start();
        let mut game = Game::new(start);
        let mut last = game.add_move(NodeId::ROOT, Move::Normal(start.legal_moves()[0]), &start);
        for _ in 0..depth {
            // An alternative to `last`, and a move after it: the next one's alternative.
            let parent = game.node(last).parent.expect("a move");
            let before = game.position_at(parent);
            let taken = game.node(last).mv;
            let alt = before
                .legal_moves()
                .into_iter()
                .map(Move::Normal)
                .find(|m| *m != taken)
                .expect("another move");
            let alt_id = game.add_move(parent, alt, &before);
            let after = before.apply(alt).expect("legal");
            last = game.add_move(alt_id, Move::Normal(after.legal_moves()[0]), &after);
        }
        (game, last)
    }

    fn sheet_text(app: &App) -> String {
        let (lines, _) = layout(app, 60);
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        text.join("\n")
    }

    /// After a correction the moves that no longer fit are on the sheet once, as waiting,
    /// not a second time as the comment that keeps them in the file (still in the game).
    #[test]
    fn moves_waiting_after_a_correction_are_shown_once() {
        use crate::app::Action;
        let typed = |app: &mut App, text: &str| {
            for c in text.chars() {
                app.update(Action::Type(c));
            }
            app.update(Action::PlayEntry);
        };
        let mut app = App::new(Settings::default(), Game::default(), None);
        typed(&mut app, "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 Nxe5");
        for _ in 0..5 {
            app.update(Action::MoveBack);
        }
        // 3.Bb5 was 3.Bc4: a6 follows, 4.Bxc6 no longer fits.
        typed(&mut app, "Bc4");
        assert!(app.pending.is_some(), "{}", app.message.text);
        let text = sheet_text(&app);
        assert_eq!(text.matches("Bxc6").count(), 1, "{text}");
        assert_eq!(text.matches("Nxe5").count(), 1, "{text}");
        assert!(text.contains("waiting:"), "{text}");
        assert!(!text.contains("not replayed"), "{text}");
        let kept = &app.game.node(app.cursor).comments_after;
        assert!(
            kept.iter().any(|c| c.starts_with("moves not replayed")),
            "{kept:?}"
        );
        // A remark written with a waiting move is on the waiting row with it.
        let mut remarked = App::new(Settings::default(), Game::default(), None);
        typed(&mut remarked, "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6");
        typed(&mut remarked, "{gives up the bishop pair}");
        typed(&mut remarked, "dxc6 Nxe5");
        for _ in 0..5 {
            remarked.update(Action::MoveBack);
        }
        typed(&mut remarked, "Bc4");
        let text = sheet_text(&remarked);
        assert!(text.contains("gives up the bishop"), "{text}");
        assert!(!text.contains("not replayed"), "{text}");
    }

    /// Variations deeper than the sheet shows are `(…)`, except the one the current move
    /// is in: it names the current move, marked as the current move is, so that a reader
    /// deep in a study sees where they are.
    #[test]
    fn the_current_move_in_a_variation_too_deep_to_show_stays_in_sight() {
        let (game, deepest) = nested(3 * MAX_DEPTH);
        let mut app = App::new(Settings::default(), game, None);
        app.cursor = NodeId::ROOT;
        let text = sheet_text(&app);
        assert!(text.contains("(…)") && !text.contains("(…1"), "{text}");
        app.cursor = deepest;
        let shown = numbered_move(&app, deepest);
        assert!(
            shown.starts_with(&format!("{}", 3 * MAX_DEPTH / 2 + 1)),
            "{shown}"
        );
        let text = sheet_text(&app);
        assert!(text.contains(&format!("(…{shown}…)")), "{shown}: {text}");
        let (lines, current) = layout(&app, 60);
        let marked: Vec<&str> = lines
            .iter()
            .flat_map(|l| &l.spans)
            .filter(|s| s.style.add_modifier.contains(Modifier::REVERSED))
            .map(|s| s.content.as_ref())
            .collect();
        // The parentheses of the variations it is in close after it.
        assert!(
            marked.len() == 1 && marked[0].starts_with(&format!("(…{shown}…))")),
            "line {current}: {marked:?}"
        );
    }
}
