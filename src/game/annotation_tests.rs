//! Tests of [`super`]: annotation.

use super::*;
use proptest::prelude::*;

fn sq(name: &str) -> Square {
    parse_square(name).expect("a square name")
}

fn eval(score: Score, depth: Option<u32>) -> Annotation {
    Annotation::Eval(Eval { score, depth })
}

fn other(name: &str, value: &str) -> Annotation {
    Annotation::Other {
        name: name.into(),
        value: value.into(),
    }
}

#[test]
fn reads_each_known_command() {
    let cases = [
        (
            "[%clk 1:23:45]",
            Annotation::Clock(ClockTime::from_secs(5025)),
        ),
        (
            "[%clk 0:03:12.4]",
            Annotation::Clock(ClockTime::from_tenths(1924)),
        ),
        (
            "[%emt 0:00:05]",
            Annotation::Elapsed(ClockTime::from_secs(5)),
        ),
        (
            "[%clk 100:00:00]",
            Annotation::Clock(ClockTime::from_secs(360_000)),
        ),
        ("[%eval 0.17]", eval(Score::Pawns(17), None)),
        ("[%eval -0.05]", eval(Score::Pawns(-5), None)),
        ("[%eval +3]", eval(Score::Pawns(300), None)),
        ("[%eval #-3]", eval(Score::Mate(-3), None)),
        ("[%eval #4]", eval(Score::Mate(4), None)),
        ("[%eval 1.2,23]", eval(Score::Pawns(120), Some(23))),
        (
            "[%csl Ga4,Rb5]",
            Annotation::Squares(vec![('G', sq("a4")), ('R', sq("b5"))]),
        ),
        (
            "[%cal Ge2e4,Rd1h5]",
            Annotation::Arrows(vec![('G', sq("e2"), sq("e4")), ('R', sq("d1"), sq("h5"))]),
        ),
        ("[%xyz a b  c]", other("xyz", "a b  c")),
        ("[%done]", other("done", "")),
        // Known names whose values the types cannot hold exactly stay as written.
        ("[%clk 3:12]", other("clk", "3:12")),
        ("[%clk 0:00:01.25]", other("clk", "0:00:01.25")),
        ("[%clk 0:61:00]", other("clk", "0:61:00")),
        ("[%eval 0.125]", other("eval", "0.125")),
        ("[%csl Ga9]", other("csl", "Ga9")),
        ("[%cal Ge2]", other("cal", "Ge2")),
    ];
    for (text, want) in cases {
        assert_eq!(split_comment(text), (vec![want], String::new()), "{text}");
    }
}

#[test]
fn writes_canonical_forms() {
    let annotations = [
        Annotation::Clock(ClockTime::from_tenths(1924)),
        Annotation::Elapsed(ClockTime::from_secs(5)),
        eval(Score::Pawns(120), Some(23)),
        eval(Score::Pawns(-5), None),
        eval(Score::Mate(-3), None),
        Annotation::Squares(vec![('G', sq("a4")), ('R', sq("b5"))]),
        Annotation::Arrows(vec![('G', sq("e2"), sq("e4"))]),
        other("xyz", "1 2"),
    ];
    assert_eq!(
        write_comment(&annotations, "a fine move"),
        "[%clk 0:03:12.4] [%emt 0:00:05] [%eval 1.20,23] [%eval -0.05] [%eval #-3] \
         [%csl Ga4,Rb5] [%cal Ge2e4] [%xyz 1 2] a fine move"
    );
    assert_eq!(write_comment(&[], "text"), "text");
    assert_eq!(write_comment(&annotations[..1], ""), "[%clk 0:03:12.4]");
}

#[test]
fn free_text_is_what_lies_between_commands() {
    let (annotations, text) = split_comment("  Good move [%clk 0:01:00]really[%eval 0.2]  strong ");
    assert_eq!(
        annotations,
        [
            Annotation::Clock(ClockTime::from_secs(60)),
            eval(Score::Pawns(20), None)
        ]
    );
    assert_eq!(text, "Good move really strong");
    // Not commands: no name, no closing bracket, a bracket inside, a plain bracket.
    for text in ["[% clk 1]", "[%clk 1:00:00", "[%a [%", "a [b] c", "[%a[b]"] {
        assert_eq!(split_comment(text), (vec![], text.to_string()), "{text}");
    }
    assert_eq!(
        split_comment("[%a [%b 1] c"),
        (vec![other("b", "1")], "[%a c".to_string())
    );
}

#[test]
fn clock_entries() {
    let ok = [
        ("+1:23:45", ClockTime::from_secs(5025)),
        ("+83", ClockTime::from_secs(83 * 60)),
        ("+1:05", ClockTime::from_secs(65 * 60)),
        ("1:05", ClockTime::from_secs(65 * 60)),
        (" + 5 ", ClockTime::from_secs(300)),
        ("+0:03:12.4", ClockTime::from_tenths(1924)),
        ("+2:0:7", ClockTime::from_secs(7207)),
    ];
    for (text, want) in ok {
        assert_eq!(parse_clock_entry(text), Ok(want), "{text}");
    }
    let bad = |t: &str| ClockEntryError::NotATime(t.to_string());
    let range = |what, value| ClockEntryError::OutOfRange { what, value };
    let errors = [
        ("+", ClockEntryError::Empty),
        ("  ", ClockEntryError::Empty),
        ("+1:75", range("minutes", 75)),
        ("+1:23:61", range("seconds", 61)),
        ("+abc", bad("+abc")),
        ("-5", bad("-5")),
        ("1:2:3:4", bad("1:2:3:4")),
        ("1.5", bad("1.5")),
        ("1:123", bad("1:123")),
        ("1::", bad("1::")),
        ("1:00:00.25", bad("1:00:00.25")),
        ("99999999999999999999", bad("99999999999999999999")),
    ];
    for (text, want) in errors {
        assert_eq!(parse_clock_entry(text), Err(want), "{text}");
    }
    assert_eq!(
        ClockTime::from_tenths(1924).as_duration().as_millis(),
        192_400
    );
}

#[test]
fn two_parts_are_read_by_the_time_control() {
    let rapid = TwoParts::for_time_control(Some("900+10"));
    let classical = TwoParts::for_time_control(Some("40/5400+30:1800+30"));
    let unknown = TwoParts::for_time_control(Some("?"));
    assert_eq!(rapid, TwoParts::MinutesSeconds);
    assert_eq!(classical, TwoParts::HoursMinutes);
    assert_eq!(unknown, TwoParts::Guess);
    assert_eq!(TwoParts::for_time_control(None), TwoParts::Guess);
    let secs = |t: &str, two| parse_clock_entry_as(t, two).map(|c| c.as_duration().as_secs());
    assert_eq!(secs("+14:32", rapid), Ok(14 * 60 + 32));
    assert_eq!(secs("+14:32", classical), Ok(14 * 3600 + 32 * 60));
    assert_eq!(secs("+1:29", unknown), Ok(89 * 60));
    assert_eq!(secs("+0:14:32", unknown), Ok(14 * 60 + 32));
    assert_eq!(secs("+12", rapid), Ok(12 * 60));
    assert_eq!(
        parse_clock_entry_as("+14:32", unknown),
        Err(ClockEntryError::Ambiguous {
            first: 14,
            second: 32
        })
    );
    let asked = parse_clock_entry_as("+14:32", unknown)
        .unwrap_err()
        .to_string();
    assert!(asked.contains("0:14:32 or 14:32:00"), "{asked}");
    assert_eq!(
        parse_clock_entry_as("+14:75", rapid),
        Err(ClockEntryError::OutOfRange {
            what: "seconds",
            value: 75
        })
    );
}

fn clock() -> impl Strategy<Value = ClockTime> {
    prop_oneof![
        (0u64..1_000_000_000).prop_map(ClockTime::from_secs),
        (0u64..10_000_000_000).prop_map(ClockTime::from_tenths),
    ]
}

fn square() -> impl Strategy<Value = Square> {
    (0usize..64).prop_map(|i| chess::ALL_SQUARES[i])
}

fn color() -> impl Strategy<Value = char> {
    prop::sample::select(vec!['G', 'R', 'Y', 'B', 'q'])
}

fn annotation() -> impl Strategy<Value = Annotation> {
    let score = prop_oneof![
        any::<i32>().prop_map(Score::Pawns),
        any::<i32>().prop_map(Score::Mate),
    ];
    prop_oneof![
        clock().prop_map(Annotation::Clock),
        clock().prop_map(Annotation::Elapsed),
        (score, proptest::option::of(any::<u32>()))
            .prop_map(|(score, depth)| Annotation::Eval(Eval { score, depth })),
        prop::collection::vec((color(), square()), 0..4).prop_map(Annotation::Squares),
        prop::collection::vec((color(), square(), square()), 0..4).prop_map(Annotation::Arrows),
        // Any name, known ones included, with any value: whatever it reads as.
        (
            prop::sample::select(vec!["clk", "emt", "eval", "csl", "cal", "x", "a_1"]),
            "[^\\[\\]]{0,16}"
        )
            .prop_map(|(name, value)| Annotation::from_command(name, value.trim())),
    ]
}

proptest! {
    #[test]
    fn write_then_split_gives_back_the_same(
        annotations in prop::collection::vec(annotation(), 0..6),
        raw in "[a-z %\\[\\]{}!?.,\n]{0,40}",
    ) {
        // Free text as `split_comment` leaves it, and not holding a command itself.
        let text = split_comment(&raw).1;
        prop_assume!(split_comment(&text) == (vec![], text.clone()));
        let written = write_comment(&annotations, &text);
        prop_assert_eq!(split_comment(&written), (annotations, text));
    }

    #[test]
    fn split_never_panics_and_rewriting_is_stable(raw in "\\PC{0,60}|[%\\[\\] a-z0-9:.#,-]{0,60}") {
        let (annotations, text) = split_comment(&raw);
        let written = write_comment(&annotations, &text);
        let (again, _) = split_comment(&written);
        prop_assert!(again.len() >= annotations.len());
        prop_assert_eq!(&again[..annotations.len()], &annotations[..]);
    }

    #[test]
    fn clock_entries_never_panic(raw in "[+ 0-9:.a]{0,14}") {
        let _ = parse_clock_entry(&raw);
    }
}

#[test]
fn board_marks_gather_every_square_and_arrow_of_a_comment() {
    let (annotations, text) =
        split_comment("[%csl Ga4,Rb5] good [%cal Ge2e4] [%csl Yh8] [%clk 0:01:00]");
    assert_eq!(text, "good");
    let marks = BoardMarks::from_annotations(&annotations);
    assert_eq!(
        marks.squares,
        vec![('G', sq("a4")), ('R', sq("b5")), ('Y', sq("h8"))]
    );
    assert_eq!(marks.arrows, vec![('G', sq("e2"), sq("e4"))]);
    assert!(!marks.is_empty());
    assert!(BoardMarks::from_annotations(&split_comment("[%clk 0:01:00]").0).is_empty());
}

#[test]
fn the_head_of_a_long_comment_is_cut_at_a_character_and_before_a_command() {
    let (_, free, cut) = split_comment_head("short [%clk 0:01:00] one", 100);
    assert_eq!((free.as_str(), cut), ("short one", false));
    // Cut inside `é` (two bytes): the cut goes back to the character's start.
    let (_, free, cut) = split_comment_head("abcé and more", 4);
    assert_eq!((free.as_str(), cut), ("abc", true));
    // A command the cut would split is left out, not shown as text.
    let (annotations, free, cut) = split_comment_head("good move [%clk 0:01:00] later", 16);
    assert_eq!((free.as_str(), cut), ("good move", true));
    assert!(annotations.is_empty());
    // Cut at a space: no word is cut in two.
    let (_, free, _) = split_comment_head("a knight on f5 is strong", 12);
    assert_eq!(free, "a knight on");
    let huge = "word ".repeat(2_000_000);
    let (_, free, cut) = split_comment_head(&huge, 8192);
    assert!(cut && free.len() <= 8192 && free.starts_with("word word"));
}
