use super::*;

/// Each game's tags read alone, from where the index says it starts to where the next
/// one does, are the index's: on the suite's awkward files (comments and `%` lines in
/// tag sections, games without an Event, escapes, Latin-1, no blank line between
/// games) and a few more of our own.
fn fields<T: AsRef<str>>(e: &Entry<T>) -> Vec<String> {
    [
        e.event(),
        e.site(),
        e.date(),
        e.round(),
        e.white(),
        e.black(),
    ]
    .into_iter()
    .chain([e.result(), e.eco(), e.white_elo(), e.black_elo()])
    .chain([e.opening()])
    .map(str::to_string)
    .collect()
}

/// The suite's files with awkward tag sections, and one of our own: what tests of reading
/// tags go over (also those of [`crate::cli`]'s search lines).
pub(crate) fn awkward_tag_files() -> Vec<Vec<u8>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(format!("{dir}/quirks"))
        .expect("the quirks")
        .map(|e| std::fs::read(e.expect("an entry").path()).expect("a quirk"))
        .collect();
    for name in ["list_sample.pgn", "cli_latin1.pgn", "search_games.pgn"] {
        files.push(std::fs::read(format!("{dir}/{name}")).expect("a fixture"));
    }
    files.push(
        b"\xEF\xBB\xBF[White \"a\\\"b\"]\n{c}\n% x\n[Black \"\xE9\"]\n\n1. e4 *\n\
          [Event \"e\"]\n[ECO \"B00\"]\n[Event \"f\"]\n1. d4 *\n\n\n[Date \"?\"]"
            .to_vec(),
    );
    files
}

#[test]
fn tags_read_alone_are_the_indexs() {
    let files = awkward_tag_files();
    let mut alone = TagsAt::default();
    let mut games = 0;
    for bytes in &files {
        let entries = index(bytes);
        for (i, e) in entries.iter().enumerate() {
            let next = entries
                .get(i + 1)
                .map_or(bytes.len(), |n| n.offset as usize);
            let got = alone.read(&bytes[e.offset as usize..next], e.number);
            let want = fields(e);
            assert_eq!(fields(&got), want, "game {}", e.number);
            assert_eq!(got.number, e.number);
            games += 1;
        }
    }
    assert!(games > 40, "{games} games");
}

/// The fast check finds a non-ASCII byte or a backslash wherever it is, at any length.
#[test]
fn ascii_check_sees_every_byte() {
    for len in 0..70 {
        let plain = vec![b'a'; len];
        assert!(ascii_unescaped(&plain).is_some(), "{len}");
        for at in 0..len {
            for bad in [b'\\', 0x80, 0xC3, 0xFF] {
                let mut bytes = plain.clone();
                bytes[at] = bad;
                assert_eq!(ascii_unescaped(&bytes), None, "{len} {at} {bad}");
            }
        }
    }
}

/// Values are decoded one by one even where their bytes together would be valid UTF-8.
#[test]
fn each_value_is_decoded_by_itself() {
    let idx = index(b"[Event \"caf\xc3\"]\n[Site \"\xa9\"]\n[White \"\xc3\xa9\"]\n*");
    assert_eq!(
        [idx[0].event(), idx[0].site(), idx[0].white()],
        ["caf\u{c3}", "\u{a9}", "é"]
    );
    let idx = index(b"[Black \"a\\\\b\"] [Round \"\xe2\x80\x93\"]\n*");
    assert_eq!([idx[0].black(), idx[0].round()], ["a\\b", "–"]);
}
