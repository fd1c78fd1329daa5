//! The scoresheet view at the game's end, drawn by the whole app at 80×24 and 120×40:
//! the result stays in view under the last move when that move has a comment (which
//! takes the lines between them), after End and while recording the last move.

mod screen_text;

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use scoresheet::app::{Action, App};
use scoresheet::config::Config;
use scoresheet::game::Game;
use scoresheet::pgn::read_games;
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::{self, Look};

/// Mate in four, the mate commented.
const MATE: &str = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {mate} 1-0";

/// Forty moves (the knights going out and back), the last one commented.
fn long_game() -> String {
    let mut text = String::new();
    for n in 1..=40 {
        let (white, black) = if n % 2 == 1 {
            ("Nf3", "Nf6")
        } else {
            ("Ng1", "Ng8")
        };
        text.push_str(&format!("{n}. {white} {black} "));
    }
    text + "{White resigns here, a long comment that takes more than one line of the sheet} 0-1"
}

fn app_on(game: Game) -> App {
    let config = Config::defaults();
    let mut app = App::new(settings(&config), game, None);
    describe_keys(&mut app, &config);
    app
}

fn read(movetext: &str) -> Game {
    let pgn = format!("[Event \"Club\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n\n{movetext}\n");
    let read = read_games(pgn.as_bytes()).remove(0);
    assert!(read.errors.is_empty(), "{:?}", read.errors);
    read.game
}

fn draw(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
    term.draw(|f| ui::draw(f, app, &Look::default())).unwrap();
    term
}

/// The rows inside the ` Scoresheet ` frame, trimmed, blank rows at the end left out.
fn sheet_rows(screen: &str) -> Vec<String> {
    let rows: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let (top, title) = rows
        .iter()
        .enumerate()
        .find_map(|(y, r)| {
            let line: String = r.iter().collect();
            let at = line.find(" Scoresheet ")?;
            Some((y, line[..at].chars().count()))
        })
        .expect("the scoresheet frame is on the screen");
    let left = (0..title)
        .rev()
        .find(|&x| rows[top][x] == '┌')
        .expect("the frame's corner");
    let right = (title..rows[top].len())
        .find(|&x| rows[top][x] == '┐')
        .expect("the frame's other corner");
    let mut inside: Vec<String> = rows[top + 1..]
        .iter()
        .take_while(|r| r[left] != '└')
        .map(|r| {
            r[left + 1..right]
                .iter()
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect();
    while inside.last().is_some_and(String::is_empty) {
        inside.pop();
    }
    inside
}

/// The sheet's last rows are the last move, its comment, and the result.
fn ends_with_the_result(app: &App, last_move: &str, comment: &str, result: &str) {
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = screen_text::text(&draw(app, w, h));
        let rows = sheet_rows(&screen);
        let shown = rows.join("\n");
        assert_eq!(
            rows.last().map(String::as_str),
            Some(result),
            "{w}x{h}:\n{screen}"
        );
        assert!(shown.contains(last_move), "{w}x{h}:\n{screen}");
        assert!(shown.contains(comment), "{w}x{h}:\n{screen}");
    }
}

#[test]
fn end_shows_the_result_under_a_commented_last_move() {
    for (movetext, last_move, comment, result) in [
        (MATE.to_string(), "Qxf7#", "{mate}", "1-0"),
        (long_game(), "40. Ng1", "{White resigns", "0-1"),
    ] {
        let mut app = app_on(read(&movetext));
        app.update(Action::GoStart);
        app.update(Action::GoEnd);
        ends_with_the_result(&app, last_move, comment, result);
    }
    let mut app = app_on(read(&long_game()));
    app.update(Action::GoStart);
    app.update(Action::GoEnd);
    insta::assert_snapshot!("sheet_end_commented_80x24", draw(&app, 80, 24).backend());
}

/// Recording, the sheet follows the last move: its comment and the result set after it
/// stay in view, in a game longer than the sheet.
#[test]
fn recording_the_last_move_with_a_comment_keeps_the_result_in_view() {
    let mut app = app_on(Game::default());
    let mut lines = vec!["Nf3 Nf6 Ng1 Ng8"; 19];
    lines.extend([
        "Nf3 Nf6 Ng1",
        "Ng8 {a long comment on the last move, more than one line of the sheet}",
        ":result 0-1 resigns",
    ]);
    for line in lines {
        for c in line.chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::PlayEntry);
    }
    assert_eq!(app.game.mainline().len(), 80);
    assert_eq!(app.game.tag("Result"), Some("0-1"), "{}", app.message.text);
    ends_with_the_result(&app, "40. Ng1", "{a long comment", "0-1");
}
