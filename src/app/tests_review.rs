//! Reading a game with variations: forks, going into and out of variations,
//! jumping to a move.

use super::*;
use crate::pgn::builder::read_games;

/// The app on the first game of `pgn`, at the start.
fn reading(pgn: &str) -> App {
    let game = read_games(pgn.as_bytes())
        .into_iter()
        .next()
        .filter(|r| r.errors.is_empty())
        .expect("the test's game reads")
        .game;
    let mut app = App::new(Settings::default(), game, None);
    app.update(Action::GoStart);
    app
}

fn at(app: &App) -> String {
    super::record::numbered(&app.game, app.cursor)
}

const FORKS: &str = "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) (1. c4) 1... e5 2. Nf3 Nc6 3. Bb5 *";

#[test]
fn up_and_down_choose_the_move_at_a_fork_and_right_follows_it() {
    let mut app = reading(FORKS);
    app.update(Action::HistoryNext);
    // The line above the entry says what is chosen, and how.
    let Feedback::Note(note) = &app.feedback else {
        panic!("{:?}", app.feedback)
    };
    assert_eq!(
        note,
        "next: e4 [d4] c4 — Up/Down choose, Right plays it, Shift-Right enters it"
    );
    app.update(Action::MoveForward);
    assert_eq!(at(&app), "1.d4");
    app.update(Action::MoveBack);
    // Up from the first choice wraps to the last.
    app.update(Action::HistoryPrev);
    app.update(Action::MoveForward);
    assert_eq!(at(&app), "1.c4");
    // Without a choice, Right takes the main line.
    app.update(Action::MoveBack);
    app.update(Action::MoveForward);
    assert_eq!(at(&app), "1.e4");
}

#[test]
fn up_and_down_recall_entries_where_there_is_no_fork() {
    let mut app = reading(FORKS);
    app.update(Action::GoEnd);
    for c in ":flip".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
    app.update(Action::HistoryPrev);
    assert_eq!(app.entry, ":flip");
    // At a fork with something typed, Down neither chooses nor drops the text.
    app.entry.clear();
    app.update(Action::GoStart);
    let fork = app.fork;
    for c in "Nf".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::HistoryNext);
    assert_eq!((app.entry.as_str(), app.fork), ("Nf", fork));
}

#[test]
fn a_variation_is_entered_and_left() {
    let mut app = reading(FORKS);
    app.update(Action::EnterVariation);
    assert_eq!(at(&app), "1.d4");
    app.update(Action::MoveForward);
    assert_eq!(at(&app), "1...d5");
    // Nested: into 1...Nf6 from 1.d4.
    app.update(Action::MoveBack);
    app.update(Action::EnterVariation);
    assert_eq!(at(&app), "1...Nf6");
    app.update(Action::MoveForward);
    assert_eq!(at(&app), "2.c4");
    // Out of the inner variation: back to 1.d4, where it branched.
    app.update(Action::LeaveVariation);
    assert_eq!(at(&app), "1.d4");
    // Out of the outer one: back to the start.
    app.update(Action::LeaveVariation);
    assert_eq!(app.cursor, NodeId::ROOT);
    app.update(Action::LeaveVariation);
    assert_eq!(app.message.text, "not in a variation");
}

#[test]
fn a_move_number_jumps_in_the_current_line() {
    let mut app = reading(FORKS);
    app.run_command("3");
    assert_eq!(at(&app), "3.Bb5");
    app.run_command("2...");
    assert_eq!(at(&app), "2...Nc6");
    app.run_command("2..");
    assert_eq!(at(&app), "2...Nc6");
    app.run_command("1");
    assert_eq!(at(&app), "1.e4");
    // In a variation, the variation's moves.
    app.update(Action::GoStart);
    app.update(Action::EnterVariation);
    app.run_command("2");
    assert_eq!(at(&app), "2.c4");
    app.run_command("9");
    assert_eq!(app.message.text, "no move 9. in this line");
    assert!(app.message.error);
}

/// The jump to a move is declared with the commands: the help screen and the README's
/// command table list it, and while a number is typed the line says what it does.
#[test]
fn the_jump_to_a_move_is_declared_with_the_commands() {
    let mut app = reading(FORKS);
    let sections = app.help_sections();
    let jump = sections
        .iter()
        .flat_map(|s| &s.entries)
        .find(|e| e.label == ":12")
        .expect("the help lists :12");
    assert!(jump.doc.contains(":12..."), "{}", jump.doc);
    assert!(
        super::docs::commands_markdown().contains("| `:12` | go to a move"),
        "{}",
        super::docs::commands_markdown()
    );
    for c in ":2...".chars() {
        app.update(Action::Type(c));
    }
    let Feedback::Note(note) = &app.feedback else {
        panic!("{:?}", app.feedback)
    };
    assert!(note.starts_with(":2... — go to a move"), "{note}");
    app.update(Action::PlayEntry);
    assert_eq!(at(&app), "2...Nc6");
    // Words after it are refused, as after any command that takes none.
    app.run_command("3 Bb5");
    assert!(app.message.error && app.message.text.contains("Bb5"));
    assert_eq!(at(&app), "2...Nc6");
}

fn key(code: crossterm::event::KeyCode) -> Msg {
    Msg::Key(crossterm::event::KeyEvent::new(
        code,
        crossterm::event::KeyModifiers::NONE,
    ))
}

fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(key(crossterm::event::KeyCode::Char(c)));
    }
}

#[test]
fn the_comment_editor_writes_one_undoable_change() {
    let mut app = reading(FORKS);
    app.update(Action::GoEnd);
    app.update(Action::EditComment);
    assert!(app.takes_keys());
    keys(&mut app, "pins the knight");
    // Keys go to the box, not to the entry line or the keymap.
    assert_eq!(app.entry, "");
    app.update(key(crossterm::event::KeyCode::Enter));
    assert!(!app.takes_keys());
    assert_eq!(app.game.comment_text(app.cursor), "pins the knight");
    assert!(app.unsaved);
    app.update(Action::Undo);
    assert_eq!(app.game.comment_text(app.cursor), "");
    app.update(Action::Redo);
    assert_eq!(app.game.comment_text(app.cursor), "pins the knight");
}

#[test]
fn the_tag_form_sets_tags_and_esc_leaves_them() {
    let mut app = reading(FORKS);
    app.update(Action::EditTags);
    assert!(matches!(app.overlay, Overlay::Tags(_)));
    // The first row is Event: typing starts a new value.
    keys(&mut app, "Club championship");
    app.update(key(crossterm::event::KeyCode::Enter));
    app.update(Msg::Key(crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('s'),
        crossterm::event::KeyModifiers::CONTROL,
    )));
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!(app.game.tag("Event"), Some("Club championship"));
    app.update(Action::EditTags);
    keys(&mut app, "Other");
    app.update(key(crossterm::event::KeyCode::Esc));
    app.update(key(crossterm::event::KeyCode::Esc));
    app.update(key(crossterm::event::KeyCode::Esc));
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!(app.game.tag("Event"), Some("Club championship"));
}

/// A tag whose value is PGN's "not known" (`?`, a date all `?`, the Result `*`) opens
/// empty on Enter, so that the name typed is the name kept, not `?Kasparov, Garry`; a
/// date partly known opens as it is; a roster tag emptied is not known again.
#[test]
fn editing_an_unknown_tag_starts_from_an_empty_field() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let ctrl = |c| Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    let mut app = reading(FORKS);
    app.game.set_tag("Round", "?");
    app.update(Action::EditTags);
    // Event, Site, Date, Round, White: down to White, as the player does.
    for _ in 0..4 {
        app.update(key(KeyCode::Down));
    }
    app.update(key(KeyCode::Enter));
    keys(&mut app, "Kasparov, Garry");
    app.update(key(KeyCode::Enter));
    // The Round set to `?`, the Date and the Result too.
    for typed in ["7", "2026.11.26"] {
        app.update(key(KeyCode::Up));
        app.update(key(KeyCode::Enter));
        keys(&mut app, typed);
        app.update(key(KeyCode::Enter));
    }
    for _ in 0..4 {
        app.update(key(KeyCode::Down));
    }
    app.update(key(KeyCode::Enter));
    keys(&mut app, "1-0");
    app.update(key(KeyCode::Enter));
    app.update(ctrl('s'));
    assert_eq!(app.overlay, Overlay::None, "{}", app.message.text);
    assert_eq!(app.game.tag("White"), Some("Kasparov, Garry"));
    assert_eq!(app.game.tag("Date"), Some("2026.11.26"));
    assert_eq!(app.game.tag("Round"), Some("7"));
    assert_eq!(app.game.tag("Result"), Some("1-0"));

    // A date partly known is kept to add to; a name emptied goes back to `?`.
    app.game.set_tag("Date", "2026.??.??");
    app.update(Action::EditTags);
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Enter));
    let Overlay::Tags(form) = &app.overlay else {
        panic!("{:?}", app.overlay)
    };
    assert_eq!(
        form.editing().map(|(_, e)| e.text()),
        Some("2026.??.??".into())
    );
    app.update(key(KeyCode::Esc));
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Down));
    app.update(key(KeyCode::Enter));
    app.update(ctrl('u'));
    app.update(key(KeyCode::Enter));
    app.update(ctrl('s'));
    assert_eq!(app.overlay, Overlay::None, "{}", app.message.text);
    assert_eq!(app.game.tag("White"), Some("?"));
    assert_eq!(app.game.tag("Date"), Some("2026.??.??"));
}

#[test]
fn variations_are_demoted_and_deleted() {
    let mut app = reading(FORKS);
    app.update(Action::EnterVariation);
    assert_eq!(at(&app), "1.d4");
    app.update(Action::DemoteVariation);
    let firsts: Vec<String> = app
        .game
        .node(NodeId::ROOT)
        .children
        .iter()
        .map(|&c| app.game.node(c).san.clone())
        .collect();
    assert_eq!(firsts, ["e4", "c4", "d4"]);
    app.update(Action::DeleteVariation);
    assert_eq!(app.cursor, NodeId::ROOT);
    assert_eq!(app.game.node(NodeId::ROOT).children.len(), 2);
    assert!(
        app.message
            .text
            .starts_with("deleted the variation of 1.d4"),
        "{}",
        app.message.text
    );
    app.update(Action::Undo);
    assert_eq!(app.game.node(NodeId::ROOT).children.len(), 3);
    // On the main line there is no variation to delete.
    app.update(Action::GoStart);
    app.update(Action::GoEnd);
    app.update(Action::DeleteVariation);
    assert!(app.message.error);
}

#[test]
fn in_a_game_read_from_a_list_a_typed_move_follows_or_starts_a_variation() {
    let mut app = reading(FORKS);
    app.inside = Inside::Variation;
    // The move that is there is followed, not added again.
    for c in "e4".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
    assert_eq!(at(&app), "1.e4");
    assert_eq!(app.game.node(NodeId::ROOT).children.len(), 3);
    // Another move is a new variation; the main line stays.
    for c in "c5".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
    assert_eq!(at(&app), "1...c5");
    let e4 = app.game.node(app.cursor).parent.unwrap();
    let sans: Vec<String> = app
        .game
        .node(e4)
        .children
        .iter()
        .map(|&c| app.game.node(c).san.clone())
        .collect();
    assert_eq!(sans, ["e5", "c5"]);
}

#[test]
fn the_fen_the_game_and_the_line_go_to_the_clipboard_and_snap_asks_for_the_position() {
    let mut app = reading(FORKS);
    app.update(Action::EnterVariation);
    let Effect::Copy { text, what } = app.update(Action::CopyFen) else {
        panic!("no copy")
    };
    assert_eq!(what, "the FEN");
    assert_eq!(
        text,
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"
    );
    let Effect::Copy { text, .. } = app.update(Action::CopyLine) else {
        panic!("no copy")
    };
    assert!(text.contains("1. d4 d5 2. c4"), "{text}");
    assert!(!text.contains("e4"), "the line only: {text}");
    let Effect::Copy { text, .. } = app.run_command("copy game") else {
        panic!("no copy")
    };
    assert!(text.contains("1. e4 (1. d4"), "{text}");
    assert_eq!(
        app.run_command("snap"),
        Effect::Snap {
            fen: "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1".into(),
            game: None,
            ply: 1
        }
    );
    app.run_command("copy board");
    assert!(app.message.error);
}

#[test]
fn a_snap_names_the_game_opened_by_number_without_a_list() {
    // `:e club.pgn 5`: no list, the game read from its file.
    let game = reading(FORKS).game;
    let mut app = App::new(Settings::default(), Game::default(), None);
    app.update(Done::Loaded {
        game: Box::new(game.clone()),
        path: "club.pgn".into(),
        number: 5,
        games: None,
    });
    app.update(Action::GoStart);
    app.update(Action::MoveForward);
    let Effect::Snap { game: number, .. } = app.run_command("snap") else {
        panic!("no snap")
    };
    assert_eq!(number, Some(5));
    // Opened for repair, likewise.
    app.update(Done::LoadedForRepair {
        game: Box::new(game),
        path: "club.pgn".into(),
        stop: "line 3".into(),
        rest: String::new(),
        incomplete: false,
        number: 7,
        games: None,
    });
    let Effect::Snap { game: number, .. } = app.run_command("snap") else {
        panic!("no snap")
    };
    assert_eq!(number, Some(7));
    // A new game has no number in a file.
    app.run_command("new!");
    let Effect::Snap { game: number, .. } = app.run_command("snap") else {
        panic!("no snap")
    };
    assert_eq!(number, None, "the loop says 1 for a game never written");
}

/// Ctrl-C in the comment box or the tag form is their Esc: it cancels (asking first
/// when text was typed), never quits past a box holding typed text, and is never
/// swallowed without an effect.
#[test]
fn ctrl_c_in_the_comment_box_and_the_tag_form_cancels_as_esc() {
    let ctrl_c = || {
        Msg::Key(crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char('c'),
            crossterm::event::KeyModifiers::CONTROL,
        ))
    };
    let mut app = reading(FORKS);
    app.update(Action::GoEnd);
    app.update(Action::EditComment);
    keys(&mut app, "half a thought");
    assert_eq!(app.update(ctrl_c()), Effect::None);
    assert!(app.takes_keys(), "typed text is not thrown away at once");
    app.update(ctrl_c());
    assert!(!app.takes_keys());
    assert_eq!(app.game.comment_text(app.cursor), "");
    app.update(Action::EditTags);
    assert!(app.takes_keys());
    app.update(ctrl_c());
    assert_eq!(
        app.overlay,
        Overlay::None,
        "an unchanged form closes at once"
    );
    assert!(!app.unsaved);
}

/// A comment typed where the game has one replaces its words (its commands stay), and the
/// status line quotes the words it replaced (Ctrl-Z brings them back): a reviewer typing
/// `{` on an annotated move must not lose the annotator's words unknowingly.
#[test]
fn a_typed_comment_quotes_the_comment_it_replaced() {
    let mut app = reading("1. e4 {[%clk 1:00:00] The king's pawn,\nbest by test} e5 1-0");
    app.update(Action::MoveForward);
    let e4 = app.cursor;
    let type_line = |app: &mut App, text: &str| {
        for c in text.chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::PlayEntry);
    };
    type_line(&mut app, "{Fischer's choice}");
    assert_eq!(app.game.comment_text(e4), "Fischer's choice");
    let kept = app.game.node(e4).comments_after.join(" ");
    assert!(kept.contains("[%clk 1:00:00]"), "{kept}");
    assert!(
        app.message
            .text
            .starts_with("comment on 1.e4, in place of \"The king's pawn, best by test\""),
        "{}",
        app.message.text
    );
    assert!(app.message.text.contains("Ctrl-Z"), "{}", app.message.text);
    app.update(Action::Undo);
    assert_eq!(app.game.comment_text(e4), "The king's pawn,\nbest by test");
    // `:comment` says it too; the same words again replace nothing, and a move without
    // a comment has nothing to quote.
    type_line(&mut app, ":comment Fischer's choice");
    assert!(
        app.message.text.contains("in place of"),
        "{}",
        app.message.text
    );
    type_line(&mut app, ":comment Fischer's choice");
    assert_eq!(app.message.text, "comment on 1.e4");
    app.update(Action::MoveForward);
    type_line(&mut app, "{symmetrical}");
    assert_eq!(app.message.text, "comment on 1...e5");
}
