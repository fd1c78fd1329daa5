use super::*;
use crate::pgn::{Indexer, Outcome};

/// A game with the given tags (`None`: tag left out) and `moves` as movetext.
fn game(tags: &[(&str, &str)], moves: &str) -> String {
    let mut text = String::new();
    for (name, value) in tags {
        text.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    text.push('\n');
    text.push_str(moves);
    text.push_str("\n\n");
    text
}

/// Six games with a bit of everything: accents, missing values, an `Opening` tag, Elos of
/// different widths, partial dates, a result only in the moves.
fn sample() -> String {
    [
        game(
            &[
                ("Event", "Tata Steel"),
                ("Site", "Wijk aan Zee"),
                ("Date", "2013.01.20"),
                ("Round", "9"),
                ("White", "Carlsen, Magnus"),
                ("Black", "Anand, Viswanathan"),
                ("Result", "1-0"),
                ("WhiteElo", "2861"),
                ("BlackElo", "2772"),
                ("ECO", "B90"),
            ],
            "1. e4 c5 2. Nf3 d6 1-0",
        ),
        game(
            &[
                ("Event", "Casual"),
                ("Date", "1975.??.??"),
                ("White", "Ljubojević, Ljubomir"),
                ("Black", "?"),
                ("Result", "1/2-1/2"),
                ("WhiteElo", "900"),
                ("ECO", "C65"),
                ("Opening", "Berlin Wall"),
            ],
            "1. e4 e5 {a comment 2. d4} (1... c5 2. Nf3) 2. Nf3 1/2-1/2",
        ),
        game(
            &[
                ("Event", "Tata Steel"),
                ("Date", "2013.01.13"),
                ("White", "Anand, Viswanathan"),
                ("Black", "Carlsen, Magnus"),
                ("WhiteElo", "2772"),
                ("BlackElo", "2861"),
            ],
            "1. d4 d5 0-1",
        ),
        game(
            &[
                ("Event", "Club"),
                ("Date", "????.??.??"),
                ("White", "Müller, Hans"),
                ("Black", "Muller, Anna"),
                ("Result", "*"),
            ],
            "1. e4 *",
        ),
        game(
            &[
                ("Event", "Olympiad"),
                ("Site", "Chennai"),
                ("Date", "2022.08.01"),
                ("White", "Nepomniachtchi, Ian"),
                ("Black", "Caruana, Fabiano"),
                ("Result", "0-1"),
                ("WhiteElo", "2766"),
                ("BlackElo", "2783"),
            ],
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 0-1",
        ),
        game(
            &[
                ("Event", "Club"),
                ("Date", "1990.05.01"),
                ("White", "Karpov, Anatoly"),
                ("Black", "Kasparov, Garry"),
                ("Result", "1/2-1/2"),
                ("WhiteElo", "2730"),
                ("BlackElo", "2800"),
            ],
            "1. d4 Nf6 1/2-1/2",
        ),
    ]
    .concat()
}

fn catalog() -> Catalog {
    Catalog::read(sample().as_bytes()).expect("in memory")
}

/// The numbers of the shown games, in order.
fn shown(c: &Catalog) -> Vec<u64> {
    c.page(0, usize::MAX).iter().map(|g| g.number).collect()
}

fn filtered(query: &str) -> Vec<u64> {
    let mut c = catalog();
    c.set_filter(query).expect(query);
    shown(&c)
}

#[test]
fn rows_hold_what_the_tags_say() {
    let c = catalog();
    assert_eq!(c.games(), 6);
    let first = c.game(1).unwrap();
    assert_eq!(first.white, "Carlsen, Magnus");
    assert_eq!(first.black, "Anand, Viswanathan");
    assert_eq!((first.white_elo, first.black_elo), (Some(2861), Some(2772)));
    assert_eq!(first.result, Outcome::WhiteWins);
    assert_eq!(first.date.to_string(), "2013.01.20");
    assert_eq!(
        (first.event, first.site, first.round),
        ("Tata Steel", "Wijk aan Zee", "9")
    );
    assert_eq!(first.eco.map(|e| e.to_string()).as_deref(), Some("B90"));
    // No `Opening` tag: the ECO code's name.
    assert_eq!(first.opening, "Sicilian Defense: Najdorf Variation");
    assert_eq!(first.plies, 4);
    assert_eq!(first.unreadable, None);
    // Each row can be loaded by seeking: its bytes are the game.
    let text = sample();
    let second = c.game(2).unwrap();
    let bytes = &text.as_bytes()[second.offset as usize..][..second.len as usize];
    assert!(bytes.starts_with(b"[Event \"Casual\"]"));
    assert!(bytes.ends_with(b"1/2-1/2"));
    // The `Opening` tag wins; `?` is unknown; comments and variations are not plies.
    assert_eq!(second.opening, "Berlin Wall");
    assert_eq!(second.black, "");
    assert_eq!(second.plies, 3);
    assert_eq!(second.black_elo, None);
    // No `Result` tag: the result ending the moves.
    assert_eq!(c.game(3).unwrap().result, Outcome::BlackWins);
    assert_eq!(c.game(4).unwrap().result, Outcome::Unknown);
    assert!(c.game(7).is_none() && c.game(0).is_none());
}

#[test]
fn batches_of_any_size_list_every_game() {
    let text = sample().repeat(3);
    for batch in [0, 1, 2, 1000] {
        let mut c = Catalog::new();
        loader::list_into(Indexer::new(text.as_bytes()), batch, &mut c).unwrap();
        assert_eq!(c.games(), 18, "batches of {batch}");
        assert_eq!(c.game(18).unwrap().white, c.game(6).unwrap().white);
    }
}

#[test]
fn a_game_too_large_is_a_row_with_the_reason() {
    let big = game(
        &[("Event", "big"), ("White", "A")],
        &"1. e4 e5 ".repeat(1000),
    );
    let text = [sample(), big, sample()].concat();
    let mut c = Catalog::new();
    let indexer = Indexer::with_limits(text.as_bytes(), 1024, 4096);
    loader::list_into(indexer, 5, &mut c).unwrap();
    assert_eq!(c.games(), 13);
    let row = c.game(7).unwrap();
    assert_eq!(row.unreadable, Some(Unreadable::TooLarge));
    assert_eq!(row.offset, sample().len() as u64);
    assert_eq!(row.white, "");
    assert_eq!(c.game(8).unwrap().white, "Carlsen, Magnus");
    assert!(Unreadable::TooLarge.to_string().contains("MiB limit"));
    // Sorted by plies, it is last in both directions, as an unknown value.
    c.sort_by(Column::Plies);
    assert_eq!(shown(&c).last(), Some(&7));
    c.sort_by(Column::Plies);
    assert_eq!(shown(&c).last(), Some(&7));
}

#[test]
fn sorting_numbers_dates_and_names() {
    let mut c = catalog();
    // Ratings: the highest first, as a player sorts them; unknown Elo last.
    c.sort_by(Column::WhiteElo);
    assert_eq!(c.sort().unwrap().direction, Direction::Descending);
    assert_eq!(shown(&c), [1, 3, 5, 6, 2, 4]);
    c.sort_by(Column::WhiteElo);
    // 900 is a number, below 2730 (as text it would sort last); unknown Elo still last.
    assert_eq!(c.sort().unwrap().direction, Direction::Ascending);
    assert_eq!(shown(&c), [2, 6, 5, 3, 1, 4]);
    c.sort_by(Column::Date);
    // The latest first; a year alone comes after that year's known days; an unknown date
    // last.
    assert_eq!(c.sort().unwrap().direction, Direction::Descending);
    assert_eq!(shown(&c), [5, 1, 3, 6, 2, 4]);
    c.sort_by(Column::Black);
    // Accents and case aside (Muller, Müller... next to each other); unknown (`?`) last.
    assert_eq!(shown(&c), [1, 3, 5, 6, 4, 2]);
    c.sort_by(Column::Number);
    c.sort_by(Column::Number);
    assert_eq!(shown(&c), [6, 5, 4, 3, 2, 1]);
    c.unsort();
    assert_eq!(shown(&c), [1, 2, 3, 4, 5, 6]);
}

#[test]
fn sorting_is_stable() {
    let mut c = catalog();
    // By date (the latest first), then by event: each event's games stay in that order.
    c.sort_by(Column::Date);
    c.sort_by(Column::Event);
    assert_eq!(shown(&c), [2, 6, 4, 5, 1, 3]);
    // Results: White won, draws, Black won, unknown last.
    c.unsort();
    c.sort_by(Column::Result);
    assert_eq!(shown(&c), [1, 2, 6, 3, 5, 4]);
}

#[test]
fn words_match_players_events_sites_and_openings() {
    assert_eq!(filtered("carlsen"), [1, 3]);
    // Fuzzy, and accents and case aside.
    assert_eq!(filtered("carlsn"), [1, 3]);
    assert_eq!(filtered("CARSLEN"), [1, 3]);
    assert_eq!(filtered("ljubojevic"), [2]);
    assert_eq!(filtered("müller"), [4]);
    assert_eq!(filtered("muller"), [4]);
    assert_eq!(filtered("chennai"), [5]);
    assert_eq!(filtered("najdorf"), [1]);
    assert_eq!(filtered("berlin"), [2]);
    // Words combine (AND); a quoted phrase must match one same field.
    assert_eq!(filtered("carlsen anand"), [1, 3]);
    assert_eq!(filtered("\"carlsen anand\""), Vec::<u64>::new());
    assert_eq!(filtered("\"tata steel\""), [1, 3]);
}

/// A word matches from the start of a word of the name (surname or given name), typos
/// and accents aside: `anand` is Anand, not Praggnanandhaa, whose name only holds it.
#[test]
fn a_name_matches_from_the_start_of_one_of_its_words() {
    let text = [
        game(
            &[("White", "Praggnanandhaa, R"), ("Black", "Carlsen, Magnus")],
            "1. e4 *",
        ),
        game(
            &[
                ("White", "Anand, Viswanathan"),
                ("Black", "Vachier-Lagrave, Maxime"),
            ],
            "1. d4 *",
        ),
        game(
            &[("White", "Ding, Liren"), ("Black", "Nakamura, Hikaru")],
            "1. c4 *",
        ),
    ]
    .concat();
    let filtered = |query: &str| {
        let mut c = Catalog::read(text.as_bytes()).expect("in memory");
        c.set_filter(query).expect(query);
        shown(&c)
    };
    let none = Vec::<u64>::new();
    assert_eq!(filtered("anand"), [2]);
    assert_eq!(filtered("player:anand"), [2]);
    assert_eq!(filtered("white:anand"), [2]);
    assert_eq!(filtered("ANAND"), [2]);
    assert_eq!(filtered("pragg"), [1]);
    assert_eq!(filtered("nanda"), none);
    // The given name, a name after a hyphen, a name with a typo.
    assert_eq!(filtered("visw"), [2]);
    assert_eq!(filtered("liren"), [3]);
    assert_eq!(filtered("iren"), none);
    assert_eq!(filtered("lagrave"), [2]);
    assert_eq!(filtered("grave"), none);
    assert_eq!(filtered("carlsn"), [1]);
    assert_eq!(filtered("player:\"carlsen, mag\""), [1]);
}

#[test]
fn fields_narrow_to_one_column() {
    assert_eq!(filtered("white:carlsen"), [1]);
    assert_eq!(filtered("black:carlsen"), [3]);
    assert_eq!(filtered("player:kasparov"), [6]);
    assert_eq!(filtered("event:\"tata steel\" round:9"), [1]);
    assert_eq!(filtered("site:wijk"), [1]);
    assert_eq!(filtered("eco:B90"), [1]);
    assert_eq!(filtered("eco:C"), [2]);
    assert_eq!(filtered("eco:A..B"), [1]);
    assert_eq!(filtered("result:1-0"), [1]);
    assert_eq!(filtered("result:draw"), [2, 6]);
    assert_eq!(filtered("result:*"), [4]);
    assert_eq!(filtered("year:2013"), [1, 3]);
    assert_eq!(filtered("year:1970..1995"), [2, 6]);
    assert_eq!(filtered("year:>2000 plies:<4"), [3]);
    // elo: both players; welo: White's.
    assert_eq!(filtered("elo:>2770"), [1, 3]);
    assert_eq!(filtered("welo:<1000"), [2]);
    assert_eq!(filtered("belo:>=2800"), [3, 6]);
    assert_eq!(filtered("plies:4..5"), [1, 5]);
}

#[test]
fn a_set_of_game_numbers_is_a_filter() {
    // Games by number.
    assert_eq!(filtered("game:6,2,3"), [2, 3, 6]);
    assert_eq!(filtered("game:2,3 result:draw"), [2]);
    assert_eq!(filtered("game:99"), Vec::<u64>::new());
    assert!(crate::catalog::query::parse("game:1,x").is_err());
}

#[test]
fn a_bad_filter_leaves_the_list_as_it_was() {
    let mut c = catalog();
    c.set_filter("carlsen").unwrap();
    let e = c.set_filter("carlsen elo:>x").unwrap_err();
    assert_eq!((e.column, e.kind), (13, QueryErrorKind::BadNumber));
    assert_eq!(shown(&c), [1, 3]);
    c.set_filter("").unwrap();
    assert_eq!(c.matches(), 6);
}

#[test]
fn filter_and_sort_work_together_and_counts_follow() {
    let mut c = catalog();
    c.sort_by(Column::Date);
    c.set_filter("tata").unwrap();
    assert_eq!(shown(&c), [1, 3]);
    assert_eq!((c.games(), c.matches()), (6, 2));
    // Adding a word narrows what is shown, order kept.
    c.set_filter("tata anand").unwrap();
    assert_eq!(shown(&c), [1, 3]);
    c.set_filter("tata anand white:carlsen").unwrap();
    assert_eq!(shown(&c), [1]);
    assert_eq!(c.position_of(1), Some(0));
    assert_eq!(c.position_of(3), None);
    // Sorting keeps the filter (the date again: now the earliest first).
    c.set_filter("tata").unwrap();
    c.sort_by(Column::Date);
    assert_eq!(shown(&c), [3, 1]);
}

/// Rows arriving in batches, while the list is sorted and filtered, end up where a sort and
/// a filter of the whole list put them.
#[test]
fn batches_merge_into_the_sort_and_filter() {
    let text = sample().repeat(7);
    for column in Column::ALL {
        for query in ["", "carlsen", "elo:>2700", "club"] {
            let mut whole = Catalog::read(text.as_bytes()).unwrap();
            whole.sort_by(column);
            whole.sort_by(column);
            whole.set_filter(query).unwrap();
            let mut streamed = Catalog::new();
            // The first batch comes before the sort and filter are set, as on a screen.
            let indexer = Indexer::new(text.as_bytes());
            let mut first = Catalog::new();
            loader::list_into(Indexer::new(sample().as_bytes()), 4, &mut first).unwrap();
            streamed.sort_by(column);
            streamed.sort_by(column);
            streamed.set_filter(query).unwrap();
            loader::list_into(indexer, 5, &mut streamed).unwrap();
            assert_eq!(shown(&streamed), shown(&whole), "{column:?} {query:?}");
            assert_eq!(streamed.games(), 42);
        }
    }
}

/// A file indexed in chunks on several threads gives the rows one thread gives, in the
/// same order, whatever the chunk size: also where the splitter's guesses are wrong (a tag
/// line inside a comment, a blank line inside a tag section, games without tags).
#[test]
fn chunks_on_several_threads_give_the_rows_of_one_thread() {
    use std::io::Write;
    let tricky = [
        game(
            &[("Event", "comment"), ("White", "Ivanchuk")],
            "1. e4 {\n\n[Event \"fake\"]\n} e5 1-0",
        ),
        "[Event \"blank inside\"]\n\n[White \"Topalov\"]\n\n1. d4 d5 *\n\n".to_string(),
        "1. c4 c5 1/2-1/2\n\n1. Nf3 Nf6 0-1\n\n".to_string(),
        game(&[("Site", "no event"), ("Black", "Müller")], "1. g3 *"),
    ]
    .concat();
    let text = [sample(), tricky].concat().repeat(9);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let one = Catalog::read(text.as_bytes()).unwrap();
    assert_eq!(one.games(), 108);
    let all = one.page(0, usize::MAX);
    let ways = [1, 2, 3].into_iter().flat_map(|jobs| {
        [1, 13, 100, 333, 1000, 1 << 20]
            .into_iter()
            .map(move |chunk| (jobs, chunk))
    });
    for (jobs, chunk) in ways {
        let file = std::fs::File::open(&path).unwrap();
        let mut many = Catalog::new();
        loader::list_file_into(&file, (jobs, chunk), 7, &mut many).unwrap();
        assert_eq!(
            many.page(0, usize::MAX),
            all,
            "{jobs} jobs, chunks of {chunk}"
        );
        // Each chunk interns its strings, games read twice included: the file's
        // tables still hold each string once, in the order the rows first use them.
        for (a, b) in [
            (&many.tables.players, &one.tables.players),
            (&many.tables.events, &one.tables.events),
            (&many.tables.sites, &one.tables.sites),
            (&many.tables.openings, &one.tables.openings),
        ] {
            let strings = |t: &Strings| -> Vec<String> {
                (0..t.len() as u32).map(|i| t.get(i).to_string()).collect()
            };
            assert_eq!(strings(a), strings(b), "{jobs} jobs, chunks of {chunk}");
        }
    }
}

#[test]
fn the_loader_streams_a_file_plain_or_compressed() {
    use std::io::Write;
    let text = sample().repeat(100);
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("games.pgn");
    std::fs::write(&plain, &text).unwrap();
    let zipped = dir.path().join("games.pgn.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    std::fs::write(&zipped, gz.finish().unwrap()).unwrap();
    for path in [&plain, &zipped] {
        let loader = Loader::open(path).unwrap();
        let mut c = Catalog::new();
        let mut batches = 0;
        loop {
            match loader.next_timeout(std::time::Duration::from_secs(20)) {
                Some(LoadEvent::Done) => break,
                Some(event @ LoadEvent::Batch(_)) => {
                    batches += 1;
                    c.apply(event);
                    if batches == 1 {
                        // The first batch is small, to be on screen at once.
                        assert_eq!(c.games(), loader::FIRST_BATCH);
                        assert!(c.percent().is_some_and(|p| p < 100));
                    }
                }
                Some(LoadEvent::Failed(e)) => panic!("{e}"),
                None => panic!("the loader went silent"),
            }
        }
        c.apply(LoadEvent::Done);
        assert!(batches >= 2);
        assert_eq!(c.games(), 600, "{path:?}");
        assert_eq!(c.game(600).unwrap().white, "Karpov, Anatoly");
        assert!(matches!(c.status(), LoadStatus::Done));
        assert_eq!(c.percent(), None);
    }
    assert!(Loader::open(&dir.path().join("missing.pgn")).is_err());
    assert!(Loader::open(dir.path()).is_err());
}

#[test]
fn a_broken_compressed_file_keeps_the_rows_read() {
    use std::io::Write;
    let text = sample().repeat(3000);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let mut bytes = gz.finish().unwrap();
    bytes.truncate(bytes.len() / 2);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.pgn.gz");
    std::fs::write(&path, &bytes).unwrap();
    let loader = Loader::open(&path).unwrap();
    let mut c = Catalog::new();
    loop {
        match loader.next_timeout(std::time::Duration::from_secs(20)) {
            Some(LoadEvent::Done) => panic!("a cut file cannot be read to its end"),
            Some(e @ LoadEvent::Failed(_)) => {
                c.apply(e);
                break;
            }
            Some(e) => c.apply(e),
            None => panic!("the loader went silent"),
        }
    }
    assert!(matches!(c.status(), LoadStatus::Failed(_)));
    // Every game before the cut is listed, as `list` reads them: the text up to the
    // decoder's error, its last game maybe cut short.
    let mut decoded = Vec::new();
    let mut gunzip = flate2::read::GzDecoder::new(&bytes[..]);
    let mut buf = [0; 4096];
    while let Ok(n @ 1..) = std::io::Read::read(&mut gunzip, &mut buf) {
        decoded.extend_from_slice(&buf[..n]);
    }
    let before = crate::pgn::index(&decoded).len();
    assert!(before > 1000, "{before}");
    assert_eq!(c.games(), before);
}

/// Listing a compressed file with a copy fills the copy as it reads, so that a game is then
/// loaded from the copy by the offsets of its row; a plain file needs no copy.
#[test]
fn a_compressed_file_is_copied_as_it_is_listed() {
    use std::io::Write;
    let text = sample().repeat(50);
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let path = dir.path().join("games.pgn.zst");
    std::fs::write(&path, zstd::encode_all(text.as_bytes(), 1).unwrap()).unwrap();
    let (loader, copy) = Loader::open_copying_in(&path, &cache).unwrap();
    let unpacked = copy.expect("a copy of the compressed file");
    let mut c = Catalog::new();
    loop {
        match loader.next_timeout(std::time::Duration::from_secs(20)) {
            Some(LoadEvent::Done) => break,
            Some(e @ LoadEvent::Batch(_)) => c.apply(e),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(c.games(), 300);
    assert_eq!(unpacked.len(), text.len() as u64);
    let row = c.game(299).unwrap();
    let (game, ..) = unpacked
        .load_range_for_repair(299, row.offset, row.len)
        .expect("game 299 from the copy");
    assert_eq!(game.tag("White"), Some("Nepomniachtchi, Ian"));

    let plain = dir.path().join("games.pgn");
    std::fs::File::create(&plain)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let (_, copy) = Loader::open_copying_in(&plain, &cache).unwrap();
    assert!(copy.is_none());
}

#[path = "rewrite_tests.rs"]
mod rewrite;

/// Rounds sort as the numbers they write (`2` before `10`, `1.2` before `1.10`), both
/// ways, whether the list is sorted whole or the rows come in sorted one batch at a time;
/// an unknown round last.
#[test]
fn rounds_sort_as_numbers() {
    let rounds = ["1", "2", "10", "?", "3", "12", "9", "1.10", "1.2", "01"];
    let text: String = rounds
        .iter()
        .map(|r| game(&[("Round", r)], "1. e4 *"))
        .collect();
    let mut c = Catalog::read(text.as_bytes()).unwrap();
    c.sort_by(Column::Round);
    let order =
        |c: &Catalog| -> Vec<&str> { shown(c).iter().map(|&n| rounds[n as usize - 1]).collect() };
    assert_eq!(
        order(&c),
        ["01", "1", "1.2", "1.10", "2", "3", "9", "10", "12", "?"]
    );
    c.sort_by(Column::Round);
    assert_eq!(
        order(&c),
        ["12", "10", "9", "3", "2", "1.10", "1.2", "1", "01", "?"]
    );
    // Sorted before the rows come: each batch merged in its place.
    let mut streamed = Catalog::new();
    streamed.sort_by(Column::Round);
    let indexer = Indexer::with_limits(text.as_bytes(), 1024, 4096);
    loader::list_into(indexer, 3, &mut streamed).unwrap();
    assert_eq!(
        order(&streamed),
        ["01", "1", "1.2", "1.10", "2", "3", "9", "10", "12", "?"]
    );
}
