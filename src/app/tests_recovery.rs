//! The box of unsaved games, `:e`/`:w` arguments, tag values at the door.

use super::*;

fn with_box(games: usize) -> App {
    let mut app = app();
    app.offer_recovery(
        (1..=games).map(|n| format!("game {n}")).collect(),
        Vec::new(),
    );
    app
}

fn selected(app: &App) -> (usize, bool) {
    match &app.overlay {
        Overlay::Recover(b) => (b.selected, b.confirm_discard),
        other => panic!("no recovery box: {other:?}"),
    }
}

#[test]
fn a_move_typed_at_the_recovery_box_neither_discards_nor_recovers() {
    for first in ['d', 'D', 'r', 'R', 'y', 'n'] {
        let mut app = with_box(2);
        let mut effects = vec![app.update(Action::Type(first))];
        assert_eq!(app.overlay, Overlay::None, "{first}");
        assert!(app.message.text.contains(":recover"), "{:?}", app.message);
        assert_eq!(app.entry, first.to_string());
        effects.push(app.update(Action::Type('4')));
        effects.push(app.update(Action::PlayEntry));
        assert_eq!(effects[0], Effect::Recovery(Recovery::Later), "{first}");
        assert!(
            effects[1..].iter().all(|e| *e == Effect::None),
            "{effects:?}"
        );
    }
    // `d4` lands in the new game.
    let mut app = with_box(1);
    type_line(&mut app, "d4");
    assert_eq!(sans(&app), ["d4"]);
}

/// `:` pressed at the box (through the keymap, as the terminal sends it) closes it as
/// a character does and starts the command line: `:e FILE` typed at once is a command,
/// not the move `e FILE` (its colon was lost).
#[test]
fn a_command_typed_at_the_recovery_box_keeps_its_colon() {
    let colon = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char(':'),
        crossterm::event::KeyModifiers::NONE,
    );
    let mut app = with_box(2);
    let action = app.action_of(&colon).expect(": does something");
    assert_eq!(app.update(action), Effect::Recovery(Recovery::Later));
    assert_eq!(app.overlay, Overlay::None);
    for c in "e club.pgn".chars() {
        app.update(Action::Type(c));
    }
    assert_eq!(app.entry, ":e club.pgn");
    assert_eq!(
        app.update(Action::PlayEntry),
        Effect::Browse {
            path: "club.pgn".into()
        }
    );
}

#[test]
fn the_recovery_box_over_the_list_answers_to_its_keys() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let key = |code| KeyEvent::new(code, KeyModifiers::NONE);
    // A file of many games opened after a crash: its list, and the box over it.
    let mut app = App::new(Settings::default(), Game::default(), None);
    app.update(Done::ListOpened {
        path: "many.pgn".into(),
    });
    app.offer_recovery(vec!["game 1".into(), "game 2".into()], Vec::new());
    assert_eq!(app.screen, Screen::List);
    let press = |app: &mut App, code| {
        let action = app.action_of(&key(code));
        let action = action.unwrap_or_else(|| panic!("{code:?} does nothing in the box"));
        app.update(action)
    };
    press(&mut app, KeyCode::Down);
    assert_eq!(selected(&app), (1, false));
    assert_eq!(press(&mut app, KeyCode::Delete), Effect::None);
    assert_eq!(selected(&app), (1, true), "Delete asks");
    press(&mut app, KeyCode::Esc);
    assert_eq!(selected(&app), (1, false));
    assert_eq!(
        press(&mut app, KeyCode::Enter),
        Effect::Recovery(Recovery::Recover(1)),
        "Enter recovers the chosen game"
    );
    // The game recovered is shown.
    app.update(Done::Recovered {
        game: Box::new(Game::default()),
        out: None,
        offset: None,
        message: "recovered".into(),
    });
    assert_eq!(app.screen, Screen::Game);
    app.update(Action::List);
    assert_eq!(app.screen, Screen::List);
    // A key typed at once closes the box (the games stay for :recover) and does what
    // it does on the list, so that nothing typed is lost: a letter sorts...
    app.offer_recovery(vec!["game 1".into()], Vec::new());
    press(&mut app, KeyCode::Char('w'));
    assert_eq!(app.overlay, Overlay::None);
    assert!(app.entry.is_empty(), "the list has no entry line");
    let sorted = app.list().unwrap().catalog.sort().map(|s| s.column);
    assert_eq!(sorted, Some(crate::catalog::Column::White));
    // ...and `/` starts the filter, which takes the words after it.
    app.offer_recovery(vec!["game 1".into()], Vec::new());
    press(&mut app, KeyCode::Char('/'));
    assert_eq!(app.overlay, Overlay::None);
    for c in "kasparov karpov".chars() {
        app.update(Action::Type(c));
    }
    assert_eq!(app.list().unwrap().filter, "kasparov karpov");
    assert_eq!(app.list().unwrap().catalog.sort().map(|s| s.column), sorted);
}

#[test]
fn the_recovery_box_chooses_with_arrows_and_asks_before_discarding() {
    let mut app = with_box(3);
    assert_eq!(selected(&app), (0, false));
    app.update(Action::HistoryNext);
    app.update(Action::HistoryNext);
    assert_eq!(selected(&app), (2, false));
    app.update(Action::HistoryNext);
    assert_eq!(selected(&app), (0, false));
    app.update(Action::HistoryPrev);
    assert_eq!(selected(&app), (2, false));
    // Delete asks; Esc takes the question back.
    assert_eq!(app.update(Action::DeleteFromHere), Effect::None);
    assert_eq!(selected(&app), (2, true));
    assert_eq!(app.update(Action::Cancel), Effect::None);
    assert_eq!(selected(&app), (2, false));
    // Delete twice discards the chosen game.
    app.update(Action::DeleteFromHere);
    assert_eq!(
        app.update(Action::DeleteFromHere),
        Effect::Recovery(Recovery::Discard(2))
    );
    let mut app = with_box(3);
    app.update(Action::HistoryNext);
    assert_eq!(
        app.update(Action::PlayEntry),
        Effect::Recovery(Recovery::Recover(1))
    );
    assert_eq!(app.overlay, Overlay::None);
    let mut app = with_box(3);
    assert_eq!(
        app.update(Action::Cancel),
        Effect::Recovery(Recovery::Later)
    );
    assert!(app.message.text.contains(":recover"), "{:?}", app.message);
    assert_eq!(
        type_line(&mut app, ":recover"),
        Effect::Recovery(Recovery::Offer)
    );
}

#[test]
fn edit_and_write_arguments_are_checked() {
    let mut app = app();
    for (line, why) in [
        (":e small.pgn abc", "\"abc\" is not a game number"),
        (":e f.pgn 0", "numbered from 1"),
        (":e", "which file?"),
        (":e \"my games.pgn", "closing \" is missing"),
        (":w ''", "an empty file name"),
        (":w \"\"", "an empty file name"),
    ] {
        assert_eq!(type_line(&mut app, line), Effect::None, "{line}");
        assert!(app.message.error, "{line}");
        assert!(
            app.message.text.contains(why),
            "{line}: {}",
            app.message.text
        );
        app.update(Action::ClearEntry);
    }
    assert_eq!(
        type_line(&mut app, ":e \"my games.pgn\" 2"),
        Effect::Load {
            path: "my games.pgn".into(),
            number: 2
        }
    );
    assert_eq!(
        type_line(&mut app, ":e f.pgn 3"),
        Effect::Load {
            path: "f.pgn".into(),
            number: 3
        }
    );
    assert_eq!(
        type_line(&mut app, ":w! ro.pgn"),
        Effect::Save {
            path: "ro.pgn".into(),
            then_quit: false,
            force: true,
        }
    );
}

#[test]
fn tag_values_that_would_not_read_back_are_refused() {
    let mut app = app();
    for (line, why) in [
        (":tag White Ann\u{1b}[31m", "control characters"),
        (":tag Event Club\nNight", "control characters"),
        (":tag Variant Chess960", "standard chess only"),
    ] {
        type_line(&mut app, line);
        assert!(app.message.error, "{line}");
        assert!(
            app.message.text.contains(why),
            "{line}: {}",
            app.message.text
        );
        app.update(Action::ClearEntry);
    }
    assert!(!app.game.tag("White").unwrap_or("").contains('\u{1b}'));
    assert!(!app.game.tag("Event").unwrap_or("").contains('\n'));
    assert_eq!(app.game.tag("Variant"), None);
    type_line(&mut app, ":tag Variant Standard");
    assert_eq!(app.game.tag("Variant"), Some("Standard"));
}
