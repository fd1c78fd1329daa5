//! The Game panel under the board: players with their ratings, event, site,
//! date, round, time control and result. A value too long for the panel is
//! cut with `…`; a rating is never cut (the name gives way).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::text::{fit, width};
use crate::app::App;

/// The labels' column: `Result` and a space.
const LABEL: usize = 7;

fn label(name: &str) -> Span<'static> {
    Span::styled(format!("{name:<6} "), Style::default().fg(Color::DarkGray))
}

/// A player's name and rating in `room` cells: the name is cut first.
fn player(name: &str, elo: Option<&str>, room: usize) -> String {
    match elo {
        Some(elo) => {
            let elo = format!(" ({elo})");
            let name_room = room.saturating_sub(width(&elo));
            if name_room >= 3 || width(name) <= name_room {
                format!("{}{elo}", fit(name, name_room))
            } else {
                fit(&format!("{name}{elo}"), room)
            }
        }
        None => fit(name, room),
    }
}

/// Draws the panel framed and titled ` Game `.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    if area.height < 3 || area.width < 4 {
        return;
    }
    let room = usize::from(area.width).saturating_sub(2 + LABEL);
    let game = &app.game;
    let tag = |name: &str| game.tag(name).unwrap_or("?").to_string();
    let elo = |side: &str| {
        game.tag(&format!("{side}Elo"))
            .filter(|e| !e.is_empty() && *e != "?")
    };
    let round = match game.tag("Board") {
        Some(board) => format!("{}  board {board}", tag("Round")),
        None => tag("Round"),
    };
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let plain =
        |name: &str, value: String| Line::from(vec![label(name), Span::raw(fit(&value, room))]);
    let mut lines = vec![
        Line::from(vec![
            label("White"),
            Span::styled(player(&tag("White"), elo("White"), room), bold),
        ]),
        Line::from(vec![
            label("Black"),
            Span::styled(player(&tag("Black"), elo("Black"), room), bold),
        ]),
        plain("Event", tag("Event")),
        plain("Site", tag("Site")),
        plain("Date", tag("Date")),
        plain("Round", round),
    ];
    if let Some(tc) = game.tag("TimeControl") {
        lines.push(plain("Time", tc.to_string()));
    }
    lines.push(Line::from(vec![
        label("Result"),
        Span::styled(fit(&tag("Result"), room), bold),
    ]));
    Paragraph::new(lines)
        .block(Block::bordered().title(" Game "))
        .render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::player;

    #[test]
    fn the_rating_stays_whole_and_the_name_gives_way() {
        assert_eq!(player("Ann", Some("2100"), 19), "Ann (2100)");
        assert_eq!(
            player("Nepomniachtchi, Ian", Some("2789"), 19),
            "Nepomniacht… (2789)"
        );
        assert!(player("丁立人丁立人丁立人", Some("2780"), 19).ends_with("(2780)"));
    }
}
