//! The gathering of a drill without an engine: the due exercises, the annotated
//! mistakes, and a deck that cannot be read.

use super::*;

/// Gathers with the deck at `deck`, a cache beside it, and the engine at `engine`.
fn gather(
    deck: &Path,
    file: Option<&Path>,
    name: &str,
    engine: Option<&str>,
    now: chrono::DateTime<chrono::Utc>,
) -> Done {
    let cache = Cache::at(deck.with_file_name("analysis"));
    let request = Request {
        file: file.map(Path::to_path_buf),
        name: name.into(),
        last: None,
        engine: engine.map(|p| EngineConfig {
            path: p.into(),
            ..EngineConfig::default()
        }),
    };
    gather_with(
        deck,
        &cache,
        &request,
        now,
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("not cancelled")
}

const GAMES: &str = r#"[White "Me"]
[Black "Them"]
[Event "Club"]

1. e4 { [%eval 0.3] } 1... e5 { [%eval 0.3] } 2. Nf3 { [%eval 0.3] } 2... Nc6 { [%eval 0.3] }
3. Bc4 { [%eval 0.3] } 3... Nd4 { [%eval 0.9] } 4. Nxe5? { [%eval -1.5] }
( 4. Nxd4 { [%eval 0.9] } ) 4... Qg5 { [%eval -1.4] } 5. Bxf7+?? { [%eval -5.0] } 0-1
"#;

#[test]
fn a_missed_exercise_is_due_again_and_a_tried_one_is_not_new() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.pgn");
    std::fs::write(&file, GAMES).unwrap();
    let deck = dir.path().join("deck.json");
    let now = chrono::Utc::now();
    // Only 4.Nxe5 has a better line written: without an engine it is the one offered.
    let Done::Drill { exercises, due, .. } = gather(&deck, Some(&file), "Me", None, now) else {
        panic!("a drill")
    };
    assert_eq!((exercises.len(), due), (1, 0));
    assert_eq!(exercises[0].played_san(), "Nxe5");
    assert!(review_at(&deck, &exercises[0], false, now).is_none());
    // Right after, it is neither due nor new.
    let Done::Notice { text, .. } = gather(&deck, Some(&file), "Me", None, now) else {
        panic!("nothing to drill")
    };
    assert!(
        text.starts_with("nothing to drill: 0 exercises due"),
        "{text}"
    );
    assert!(text.contains("the next is due"), "{text}");
    // The mistake found again is said to be in the deck, not dropped.
    assert!(
        text.contains("2 mistakes, 1 with a better move known; 1 already in your deck"),
        "{text}"
    );
    // With an engine to judge answers, the mistake without a better line is offered.
    let Done::Drill { exercises, .. } =
        gather(&deck, Some(&file), "Me", Some("no-such-engine"), now)
    else {
        panic!("a drill")
    };
    assert_eq!(exercises.len(), 1);
    assert_eq!(exercises[0].played_san(), "Bxf7+");
    // A day later the miss is due again, first.
    let later = now + chrono::Duration::days(2);
    let Done::Drill { exercises, due, .. } = gather(&deck, None, "", None, later) else {
        panic!("a drill")
    };
    assert_eq!((exercises.len(), due), (1, 1));
}

/// What `scoresheet train` lists as due today (due by the end of the local day) is what
/// the drill starts with, not only what is due by this minute: told "1 exercise due
/// today … `scoresheet train FILE` drills them", the drill said "0 exercises due".
#[test]
fn an_exercise_due_later_today_is_drilled_today() {
    use chrono::TimeZone;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.pgn");
    std::fs::write(&file, GAMES).unwrap();
    let deck = dir.path().join("deck.json");
    // Noon where the user is; the exercise was missed yesterday an hour later, so it
    // falls due at 13:00 today.
    let noon = chrono::Local
        .with_ymd_and_hms(2026, 11, 25, 12, 0, 0)
        .earliest()
        .unwrap()
        .with_timezone(&chrono::Utc);
    let yesterday = noon - chrono::Duration::hours(23);
    let Done::Drill { exercises, .. } = gather(&deck, Some(&file), "Me", None, yesterday) else {
        panic!("a drill")
    };
    assert!(review_at(&deck, &exercises[0], false, yesterday).is_none());
    let due = Deck::load(&deck).unwrap().entries[0].card.due;
    assert!(
        due > noon && due < crate::study::train::deck::end_of_day(noon),
        "{due}"
    );
    let Done::Drill { exercises, due, .. } = gather(&deck, None, "", None, noon) else {
        panic!("a drill of the exercise due today")
    };
    assert_eq!((exercises.len(), due), (1, 1));
}

#[test]
fn no_game_of_mine_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("theirs.pgn");
    std::fs::write(&file, GAMES).unwrap();
    let deck = dir.path().join("deck.json");
    let Done::Notice { text, .. } = gather(&deck, Some(&file), "Nobody", None, chrono::Utc::now())
    else {
        panic!("a notice")
    };
    assert!(
        text.contains("no game of Nobody among the 1 game of"),
        "{text}"
    );
    // A game of mine without evaluations: annotating it is the advice.
    std::fs::write(&file, "[White \"Me\"]\n\n1. e4 e5 *\n").unwrap();
    let Done::Notice { text, .. } = gather(&deck, Some(&file), "Me", None, chrono::Utc::now())
    else {
        panic!("a notice")
    };
    assert!(
        text.contains(
            "1 game without [%eval] could not be analysed for want of an engine: install \
             Stockfish"
        ),
        "{text}"
    );
}

#[test]
fn a_damaged_deck_is_not_written_over() {
    let dir = tempfile::tempdir().unwrap();
    let deck = dir.path().join("deck.json");
    std::fs::write(&deck, "not json").unwrap();
    let e = crate::study::train::Exercise {
        fen: crate::position::Position::start().fen(),
        played: "e2e4".into(),
        answers: Vec::new(),
        before: None,
        lost: 10.0,
        source: String::new(),
        line: Vec::new(),
        start: None,
        recency: None,
    };
    let Some(Done::Notice { text, error: true }) = review_at(&deck, &e, true, chrono::Utc::now())
    else {
        panic!("refused")
    };
    assert!(text.contains("answer not recorded"), "{text}");
    assert_eq!(std::fs::read_to_string(&deck).unwrap(), "not json");
    // A drill goes on without it, and says once that answers are not recorded.
    let file = dir.path().join("mine.pgn");
    std::fs::write(&file, GAMES).unwrap();
    let Done::Drill { note, record, .. } =
        gather(&deck, Some(&file), "Me", None, chrono::Utc::now())
    else {
        panic!("a drill")
    };
    assert!(!record);
    assert!(note.contains("answers are not recorded"), "{note}");
}

/// An exercise taken out (the engine finds no mistake in it) leaves the deck on disk and
/// is no longer due; the other ones stay; taking out one the deck lacks changes nothing.
#[test]
fn an_exercise_taken_out_leaves_the_deck_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let deck = dir.path().join("deck.json");
    let now = chrono::Utc::now();
    let ex = Exercise::at;
    let (gone, kept) = (
        ex("8/8/8/8/8/8/4K3/k7 w - - 0 1"),
        ex("8/8/8/8/8/8/4K3/1k6 w - - 0 1"),
    );
    assert!(review_at(&deck, &gone, false, now).is_none());
    assert!(review_at(&deck, &kept, false, now).is_none());
    assert!(forget_at(&deck, &gone).is_none());
    assert!(forget_at(&deck, &gone).is_none());
    let back = Deck::load(&deck).unwrap();
    assert!(back.get(&gone.key()).is_none());
    assert!(back.get(&kept.key()).is_some());
    assert_eq!(back.due(now + chrono::Duration::days(2)).len(), 1);
}
