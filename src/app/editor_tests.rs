use super::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use EditOp::*;

fn editor(text: &str) -> TextEditor {
    TextEditor::new(text, true).forbidding(COMMENT_FORBIDS)
}

fn run(ed: &mut TextEditor, ops: &[EditOp]) {
    for op in ops {
        ed.apply(op.clone());
    }
}

fn typed(ed: &mut TextEditor, text: &str) {
    for c in text.chars() {
        ed.apply(Insert(c));
    }
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, modifiers)
}

#[test]
fn opens_with_the_cursor_at_the_end() {
    let ed = editor("first line\nsecond");
    assert_eq!(ed.lines(), ["first line", "second"]);
    assert_eq!(ed.cursor(), (1, 6));
    assert_eq!(
        editor("read\r\nfrom Windows").lines(),
        ["read", "from Windows"]
    );
    let one = TextEditor::new("no\nbreaks", false);
    assert_eq!(one.text(), "no breaks");
}

#[test]
fn typing_inserts_at_the_cursor() {
    let mut ed = editor("Nf6 is best");
    run(&mut ed, &[Home, WordRight]);
    typed(&mut ed, "surely ");
    assert_eq!(ed.text(), "Nf6 surely is best");
    assert_eq!(ed.cursor(), (0, 11));
}

#[test]
fn newline_splits_the_line_and_only_in_a_comment() {
    let mut ed = editor("ab");
    run(&mut ed, &[Left, Newline]);
    assert_eq!(ed.lines(), ["a", "b"]);
    assert_eq!(ed.cursor(), (1, 0));
    let mut one = TextEditor::new("ab", false);
    assert!(!one.apply(Newline));
    assert_eq!(one.text(), "ab");
}

#[test]
fn delete_back_and_forward_join_lines_at_their_ends() {
    let mut ed = editor("ab\ncd");
    run(&mut ed, &[Home]);
    assert!(ed.apply(DeleteBack));
    assert_eq!(ed.text(), "abcd");
    assert_eq!(ed.cursor(), (0, 2));
    assert!(ed.apply(DeleteForward));
    assert_eq!(ed.text(), "abd");
    run(&mut ed, &[End]);
    assert!(!ed.apply(DeleteForward), "nothing after the end");
    run(&mut ed, &[Top]);
    assert!(!ed.apply(DeleteBack), "nothing before the start");
    assert_eq!(ed.text(), "abd");
}

#[test]
fn a_grapheme_is_one_step_and_one_erase() {
    // "é" written as e + combining acute, and a flag of two code points.
    let mut ed = editor("caf\u{65}\u{301} \u{1F1EB}\u{1F1F7}");
    assert!(ed.apply(DeleteBack));
    assert_eq!(ed.text(), "caf\u{65}\u{301} ");
    run(&mut ed, &[Left, Left]);
    assert_eq!(ed.cursor(), (0, 3), "one step over the accented letter");
    assert!(ed.apply(DeleteForward));
    assert_eq!(ed.text(), "caf ");
    run(&mut ed, &[Right]);
    assert_eq!(ed.cursor(), (0, 4));
}

#[test]
fn left_and_right_cross_line_ends() {
    let mut ed = editor("ab\ncd");
    run(&mut ed, &[Home, Left]);
    assert_eq!(ed.cursor(), (0, 2));
    run(&mut ed, &[Right]);
    assert_eq!(ed.cursor(), (1, 0));
}

#[test]
fn up_down_home_end_top_bottom() {
    let mut ed = editor("long first line\nab\nthird line");
    run(&mut ed, &[Up]);
    assert_eq!(
        ed.cursor(),
        (1, 2),
        "the column is kept within the shorter line"
    );
    run(&mut ed, &[Up, Home]);
    assert_eq!(ed.cursor(), (0, 0));
    run(&mut ed, &[End]);
    assert_eq!(ed.cursor(), (0, 15));
    run(&mut ed, &[Down, Down]);
    assert_eq!(ed.cursor().0, 2);
    run(&mut ed, &[Top]);
    assert_eq!(ed.cursor(), (0, 0));
    run(&mut ed, &[Bottom]);
    assert_eq!(ed.cursor(), (2, 10));
}

#[test]
fn words_left_and_right() {
    let mut ed = editor("the knight on f6");
    run(&mut ed, &[WordLeft]);
    assert_eq!(ed.cursor(), (0, 14));
    run(&mut ed, &[WordLeft, WordLeft]);
    assert_eq!(ed.cursor(), (0, 4));
    run(&mut ed, &[WordRight]);
    assert_eq!(ed.cursor(), (0, 11));
}

#[test]
fn erase_a_word_or_to_either_end_of_the_line() {
    let mut ed = editor("a quiet move");
    assert!(ed.apply(DeleteWordBack));
    assert_eq!(ed.text(), "a quiet ");
    run(&mut ed, &[Home, WordRight]);
    assert!(ed.apply(DeleteToLineEnd));
    assert_eq!(ed.text(), "a ");
    assert!(ed.apply(DeleteToLineStart));
    assert_eq!(ed.text(), "");
}

#[test]
fn undo_and_redo_inside_the_text() {
    let mut ed = editor("good");
    typed(&mut ed, "!");
    ed.apply(DeleteWordBack);
    assert!(ed.apply(Undo));
    assert_eq!(ed.text(), "good!");
    assert!(ed.apply(Undo));
    assert_eq!(ed.text(), "good");
    assert!(ed.apply(Redo));
    assert_eq!(ed.text(), "good!");
}

#[test]
fn a_closing_brace_is_refused_when_typed_and_the_editor_says_why() {
    let mut ed = editor("see ");
    assert!(!ed.apply(Insert('}')));
    assert_eq!(ed.text(), "see ");
    let notice = ed.notice().expect("a reason");
    assert!(notice.contains("cannot hold }"), "{notice}");
    ed.apply(Insert('('));
    assert_eq!(ed.notice(), None, "the notice goes with the next key");
    // A tag value may hold it.
    let mut tag = TextEditor::new("", false);
    assert!(tag.apply(Insert('}')));
}

/// A comment read from a `;` comment can hold `}`; a line break would make it a brace
/// comment, which cannot, so the editor keeps it on one line and says why (before, the
/// `}` became `)` without a word when it was saved).
#[test]
fn a_comment_holding_a_closing_brace_stays_on_one_line() {
    let mut ed = editor("note with } brace");
    ed.apply(End);
    assert!(!ed.apply(Newline));
    assert_eq!(ed.text(), "note with } brace");
    let notice = ed.notice().expect("a reason");
    assert!(notice.contains("stays on one line"), "{notice}");
    let mut plain = editor("no brace");
    plain.apply(End);
    assert!(plain.apply(Newline));
}

#[test]
fn paste_keeps_lines_in_a_comment_and_cleans_the_rest() {
    let mut ed = editor("");
    assert!(ed.paste("line one\r\nline {two}\n\tthree\x1b[2J"));
    assert_eq!(ed.lines(), ["line one", "line {two)", " three[2J"]);
    let notice = ed.notice().unwrap();
    assert!(notice.contains("pasted } became )"), "{notice}");
    assert!(notice.contains("control characters"), "{notice}");
    // One edit: one undo takes the whole paste back.
    ed.apply(Undo);
    assert_eq!(ed.text(), "");

    let mut field = TextEditor::new("", false);
    field.paste("Carlsen,\nMagnus");
    assert_eq!(field.text(), "Carlsen, Magnus");
}

#[test]
fn keys_mean_what_the_module_table_says() {
    let none = KeyModifiers::NONE;
    let ctrl = KeyModifiers::CONTROL;
    let alt = KeyModifiers::ALT;
    let cases = [
        (key(KeyCode::Enter, none), true, KeyMeaning::Done),
        (key(KeyCode::Enter, alt), true, KeyMeaning::Edit(Newline)),
        (
            key(KeyCode::Enter, KeyModifiers::SHIFT),
            true,
            KeyMeaning::Edit(Newline),
        ),
        (key(KeyCode::Enter, ctrl), true, KeyMeaning::Edit(Newline)),
        (
            key(KeyCode::Char('j'), ctrl),
            true,
            KeyMeaning::Edit(Newline),
        ),
        (key(KeyCode::Enter, alt), false, KeyMeaning::Edit(Newline)),
        (
            key(KeyCode::Char('j'), ctrl),
            false,
            KeyMeaning::Edit(Newline),
        ),
        (key(KeyCode::Enter, none), false, KeyMeaning::Done),
        (key(KeyCode::Esc, none), true, KeyMeaning::Cancel),
        (
            key(KeyCode::Char('K'), KeyModifiers::SHIFT),
            true,
            KeyMeaning::Edit(Insert('K')),
        ),
        (
            key(KeyCode::Char('{'), ctrl | alt),
            true,
            KeyMeaning::Edit(Insert('{')),
        ),
        (key(KeyCode::Left, ctrl), true, KeyMeaning::Edit(WordLeft)),
        (
            key(KeyCode::Char('f'), alt),
            true,
            KeyMeaning::Edit(WordRight),
        ),
        (
            key(KeyCode::Backspace, alt),
            true,
            KeyMeaning::Edit(DeleteWordBack),
        ),
        (
            key(KeyCode::Char('w'), ctrl),
            true,
            KeyMeaning::Edit(DeleteWordBack),
        ),
        (key(KeyCode::Char('z'), ctrl), true, KeyMeaning::Edit(Undo)),
        (key(KeyCode::Home, ctrl), true, KeyMeaning::Edit(Top)),
        (key(KeyCode::Up, none), true, KeyMeaning::Edit(Up)),
        (key(KeyCode::Up, none), false, KeyMeaning::Other),
        (key(KeyCode::Tab, none), true, KeyMeaning::Other),
        (key(KeyCode::F(1), none), true, KeyMeaning::Other),
    ];
    for (event, multiline, want) in cases {
        assert_eq!(
            key_meaning(event, multiline),
            want,
            "{event:?} multiline={multiline}"
        );
    }
}

#[test]
fn editors_compare_by_what_they_show() {
    let mut a = editor("ab");
    let b = editor("ab");
    assert_eq!(a, b);
    a.apply(Left);
    assert_ne!(a, b, "the cursor differs");
    a.apply(Right);
    assert_eq!(a, b);
    a.apply(Insert('}'));
    assert_ne!(a, b, "a notice shows");
}

/// The characters of `ed`'s whole text from its cursor on, `n` at most.
fn at_cursor(ed: &TextEditor, n: usize) -> String {
    ed.text()[ed.offset()..].chars().take(n).collect()
}

#[test]
fn a_very_long_text_is_edited_through_a_window_that_follows_the_cursor() {
    // 2,000 numbered lines of 100 bytes (200 KB), and one paragraph of as much.
    let lines: Vec<String> = (0..2000)
        .map(|i| format!("{i:05} {}", "ab ".repeat(31)))
        .collect();
    let text = lines.join("\n");
    let mut ed = TextEditor::new(&text, true);
    let held: usize = ed.lines().iter().map(|l| l.len() + 1).sum();
    assert!(held < 40 * 1024, "the area holds {held} bytes");
    // Typed at the end, and at the start after Ctrl-Home: the whole text has both.
    ed.apply(Insert('x'));
    ed.apply(Top);
    assert_eq!(ed.offset(), 0);
    ed.apply(Insert('y'));
    assert_eq!(ed.text(), format!("y{text}x"));
    // Down line by line through several windows: the cursor stays on its column.
    ed.apply(Home);
    for _ in 0..1500 {
        ed.apply(Down);
    }
    assert_eq!(at_cursor(&ed, 5), "01500");
    ed.apply(Up);
    assert_eq!(at_cursor(&ed, 5), "01499");
    // Erasing the line break before the cursor joins two lines wherever the window is.
    ed.apply(DeleteBack);
    assert!(ed.text().contains(&format!("{}01499", lines[1498])));
    assert_eq!(ed.text().len(), text.len() + 1);
    // End and Home of one long paragraph reach its ends, not the window's.
    let paragraph = "one two three ".repeat(15_000);
    let mut ed = TextEditor::new(&paragraph, true);
    ed.apply(Home);
    assert_eq!(ed.offset(), 0);
    ed.apply(WordRight);
    assert_eq!(at_cursor(&ed, 3), "two");
    ed.apply(End);
    assert_eq!(ed.offset(), paragraph.len());
    assert_eq!(ed.text(), paragraph);
}
