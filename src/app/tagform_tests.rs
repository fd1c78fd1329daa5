use super::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn press(form: &mut TagForm, code: KeyCode) -> FormOutcome {
    form.key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(form: &mut TagForm, text: &str) {
    for c in text.chars() {
        press(form, KeyCode::Char(c));
    }
}

fn ctrl_s(form: &mut TagForm) -> FormOutcome {
    form.key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL))
}

fn game() -> Game {
    let mut game = Game::default();
    game.tags = vec![
        ("Event".into(), "Club championship".into()),
        ("White".into(), "Anna".into()),
        ("Annotator".into(), "Ben".into()),
        ("Black".into(), "Carl".into()),
        ("Result".into(), "*".into()),
        ("TimeControl".into(), "900+10".into()),
    ];
    game
}

fn names(form: &TagForm) -> Vec<&str> {
    form.rows().iter().map(|r| r.name.as_str()).collect()
}

#[test]
fn the_roster_comes_first_then_the_others_then_a_row_to_add() {
    let form = TagForm::open(&game());
    assert_eq!(
        names(&form),
        [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Annotator",
            "TimeControl",
            ""
        ]
    );
    assert_eq!(
        form.rows()[1].value,
        "?",
        "a roster tag the game lacks shows as unknown"
    );
    assert_eq!(form.rows()[2].value, "????.??.??");
    assert_eq!(form.rows()[9].kind, RowKind::New);
    // Opening and closing changes nothing, not even the missing roster tags.
    let mut g = game();
    assert!(!form.write(&mut g));
    assert_eq!(g.tags, game().tags);
}

#[test]
fn arrows_and_tab_choose_a_row_within_the_list() {
    let mut form = TagForm::open(&game());
    press(&mut form, KeyCode::Up);
    assert_eq!(form.selected(), 0);
    press(&mut form, KeyCode::Down);
    press(&mut form, KeyCode::Tab);
    assert_eq!(form.selected(), 2);
    press(&mut form, KeyCode::BackTab);
    assert_eq!(form.selected(), 1);
    press(&mut form, KeyCode::End);
    assert_eq!(form.selected(), 9);
    press(&mut form, KeyCode::Down);
    assert_eq!(form.selected(), 9);
    press(&mut form, KeyCode::Home);
    assert_eq!(form.selected(), 0);
}

#[test]
fn enter_edits_a_value_in_place_and_typing_replaces_it() {
    let mut form = TagForm::open(&game());
    press(&mut form, KeyCode::Enter);
    assert_eq!(
        form.editing().map(|(f, e)| (f, e.text())),
        Some((Field::Value, "Club championship".into()))
    );
    typed(&mut form, " 2026");
    press(&mut form, KeyCode::Enter);
    assert_eq!(form.rows()[0].value, "Club championship 2026");
    assert!(form.editing().is_none());
    // A character typed on a row starts a new value; Tab keeps it and goes on.
    press(&mut form, KeyCode::Down);
    typed(&mut form, "Paris");
    press(&mut form, KeyCode::Tab);
    assert_eq!(form.rows()[1].value, "Paris");
    assert_eq!(form.selected(), 2);
    assert_eq!(ctrl_s(&mut form), FormOutcome::Done);
    let mut g = game();
    assert!(form.write(&mut g));
    assert_eq!(g.tag("Event"), Some("Club championship 2026"));
    assert_eq!(g.tag("Site"), Some("Paris"));
    assert_eq!(g.tags[0].0, "Event", "the game's order is kept");
    assert_eq!(
        g.tags.last().unwrap().0,
        "Site",
        "a roster tag the game lacked is added"
    );
}

#[test]
fn a_bad_value_is_refused_with_the_reason_and_the_field_stays_open() {
    let mut form = TagForm::open(&game());
    form.select(2);
    typed(&mut form, "2026-11-24");
    press(&mut form, KeyCode::Enter);
    let message = form.message().unwrap();
    assert!(message.contains("YYYY.MM.DD"), "{message}");
    assert!(message.contains("Date stays ????.??.??"), "{message}");
    assert!(form.editing().is_some());
    // Moving away does not drop the typed text either.
    press(&mut form, KeyCode::Down);
    assert_eq!(form.selected(), 2);
    // Esc forgets the field's edit; the value is as it was.
    press(&mut form, KeyCode::Esc);
    assert!(form.editing().is_none());
    assert_eq!(form.rows()[2].value, "????.??.??");

    for (row, bad, why) in [
        (6, "1-1", "1-0, 0-1, 1/2-1/2 or *"),
        (8, "15+10", "write 900+10"),
    ] {
        form.select(row);
        press(&mut form, KeyCode::Enter);
        form.edit(EditOp::DeleteToLineStart);
        typed(&mut form, bad);
        assert_eq!(ctrl_s(&mut form), FormOutcome::Open, "{bad}");
        let message = form.message().unwrap();
        assert!(message.contains(why), "{bad}: {message}");
        press(&mut form, KeyCode::Esc);
    }
}

/// A roster tag's value emptied is PGN's "not known" for it, as Delete makes it; the
/// form says so when the value changes.
#[test]
fn an_emptied_roster_value_is_not_known_again() {
    let mut form = TagForm::open(&game());
    for (row, unknown) in [(4, "?"), (2, "????.??.??"), (6, "*")] {
        form.select(row);
        press(&mut form, KeyCode::Enter);
        form.edit(EditOp::DeleteToLineStart);
        press(&mut form, KeyCode::Enter);
        assert!(form.editing().is_none(), "{unknown}");
        assert_eq!(form.rows()[row].value, unknown);
    }
    // White was Anna: the form says what became of it.
    form.select(4);
    press(&mut form, KeyCode::Enter);
    typed(&mut form, "Anna");
    press(&mut form, KeyCode::Enter);
    press(&mut form, KeyCode::Enter);
    form.edit(EditOp::DeleteToLineStart);
    press(&mut form, KeyCode::Enter);
    let message = form.message().unwrap();
    assert!(
        message.contains("White tag: ? when it is not known"),
        "{message}"
    );
    // An unknown value opened and kept as it is changes nothing, and says nothing.
    press(&mut form, KeyCode::Enter);
    assert_eq!(form.editing().map(|(_, e)| e.text()), Some(String::new()));
    press(&mut form, KeyCode::Enter);
    assert_eq!(form.rows()[4].value, "?");
    assert_eq!(form.message(), None);
}

#[test]
fn control_characters_never_reach_a_value() {
    let mut form = TagForm::open(&game());
    form.select(4);
    form.paste("Anna\x1b]0;owned\x07 Smith\nJr");
    press(&mut form, KeyCode::Enter);
    assert_eq!(form.rows()[4].value, "Anna]0;owned Smith Jr");
}

#[test]
fn a_tag_is_added_on_the_last_row_name_then_value() {
    let mut form = TagForm::open(&game());
    press(&mut form, KeyCode::End);
    press(&mut form, KeyCode::Enter);
    assert_eq!(form.editing().map(|(f, _)| f), Some(Field::Name));
    typed(&mut form, "Bad name");
    press(&mut form, KeyCode::Enter);
    assert!(form.message().unwrap().contains("letters, digits and _"));
    form.edit(EditOp::DeleteToLineStart);
    typed(&mut form, "WhiteElo");
    press(&mut form, KeyCode::Enter);
    assert_eq!(form.editing().map(|(f, _)| f), Some(Field::Value));
    typed(&mut form, "2150");
    press(&mut form, KeyCode::Enter);
    assert_eq!(form.rows()[9].name, "WhiteElo");
    assert_eq!(form.rows()[9].value, "2150");
    assert_eq!(
        form.rows()[10].kind,
        RowKind::New,
        "a new empty row to add another"
    );
    let mut g = game();
    form.write(&mut g);
    assert_eq!(g.tag("WhiteElo"), Some("2150"));
}

#[test]
fn naming_a_tag_that_is_there_goes_to_it() {
    let mut form = TagForm::open(&game());
    press(&mut form, KeyCode::End);
    typed(&mut form, "Annotator");
    press(&mut form, KeyCode::Enter);
    assert_eq!(form.selected(), 7);
    assert_eq!(
        form.editing().map(|(f, e)| (f, e.text())),
        Some((Field::Value, "Ben".into()))
    );
    assert_eq!(form.rows().len(), 10, "no second Annotator");
}

#[test]
fn a_new_tag_left_without_a_value_is_not_added() {
    let mut form = TagForm::open(&game());
    press(&mut form, KeyCode::End);
    typed(&mut form, "Opening");
    press(&mut form, KeyCode::Enter);
    press(&mut form, KeyCode::Esc);
    assert_eq!(form.rows().len(), 10);
    assert!(!form.is_changed());
}

#[test]
fn delete_removes_a_tag_but_a_roster_tag_only_goes_back_to_unknown() {
    let mut form = TagForm::open(&game());
    form.select(7);
    press(&mut form, KeyCode::Delete);
    assert_eq!(names(&form)[7], "TimeControl");
    form.select(4);
    press(&mut form, KeyCode::Delete);
    assert_eq!(form.rows()[4].value, "?");
    assert!(form
        .message()
        .unwrap()
        .contains("every PGN game has a White tag"));
    let mut g = game();
    form.write(&mut g);
    assert_eq!(g.tag("Annotator"), None);
    assert_eq!(g.tag("White"), Some("?"));
}

#[test]
fn the_start_position_tags_are_shown_but_not_edited() {
    let mut g = game();
    g.tags.push(("SetUp".into(), "1".into()));
    g.tags
        .push(("FEN".into(), "8/8/8/8/8/8/8/K1k5 w - - 0 1".into()));
    let mut form = TagForm::open(&g);
    form.select(9);
    assert_eq!(form.rows()[9].kind, RowKind::Fixed);
    press(&mut form, KeyCode::Enter);
    assert!(form.editing().is_none());
    assert!(form.message().unwrap().contains(":fen"));
    press(&mut form, KeyCode::Delete);
    assert_eq!(form.rows()[9].name, "SetUp");
    press(&mut form, KeyCode::End);
    typed(&mut form, "FEN");
    press(&mut form, KeyCode::Enter);
    assert!(form.message().unwrap().contains(":fen"));
}

#[test]
fn esc_cancels_at_once_when_unchanged_and_asks_again_when_changed() {
    let mut form = TagForm::open(&game());
    assert_eq!(press(&mut form, KeyCode::Esc), FormOutcome::Cancelled);
    let mut form = TagForm::open(&game());
    typed(&mut form, "Open");
    press(&mut form, KeyCode::Enter);
    assert_eq!(press(&mut form, KeyCode::Esc), FormOutcome::Open);
    assert!(form.message().unwrap().contains("Esc again"));
    press(&mut form, KeyCode::Down);
    assert_eq!(
        press(&mut form, KeyCode::Esc),
        FormOutcome::Open,
        "another key disarms"
    );
    assert_eq!(press(&mut form, KeyCode::Esc), FormOutcome::Cancelled);
}

/// Ctrl-J (a line feed) and Alt-Enter start a new line in a comment; a tag's value is
/// one line, so in a field they are refused with a word and the field stays open: the
/// rest of the text typed goes on into the value (it is neither kept half nor typed
/// over it).
#[test]
fn ctrl_j_in_a_field_says_a_value_is_one_line_and_keeps_the_field_open() {
    let mut form = TagForm::open(&game());
    press(&mut form, KeyCode::Enter);
    form.edit(EditOp::DeleteToLineStart);
    typed(&mut form, "Tata");
    for key in [
        KeyEvent::new(KeyCode::Char('j'), KeyModifiers::CONTROL),
        KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT),
    ] {
        assert_eq!(form.key(key), FormOutcome::Open);
        assert!(form.editing().is_some(), "the field stays open");
        assert_eq!(form.message(), Some(ONE_LINE));
    }
    typed(&mut form, " Steel");
    press(&mut form, KeyCode::Enter);
    assert_eq!(ctrl_s(&mut form), FormOutcome::Done);
    let mut game = game();
    form.write(&mut game);
    assert_eq!(game.tag("Event"), Some("Tata Steel"));
}
