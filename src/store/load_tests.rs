use super::*;
use crate::pgn::write_game_to_string;
use std::io::Write;

const FOUR: &str = "\
[Event \"One\"]
[White \"A\"]

1. e4 e5 2. Nf3 *

% a remark between games
[Event \"Two\"]
[White \"B\"]

1. d4 {a comment} d5 (1... Nf6 2. c4) 2. c4 *


[Event \"Three\"]
[White \"C\"]

1. c4 e5 2. Kc2 Nf6 *

[Event \"Four\"]
[White \"D\"]

1. f4 1-0";

fn file_with(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Loading by range gives the same game, slot and unread part as loading by number,
/// for every game: the first, the last (no final newline), one to repair.
#[test]
fn a_range_loads_what_the_number_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "four.pgn", FOUR.as_bytes());
    let entries = index(FOUR.as_bytes());
    assert_eq!(entries.len(), 4);
    for (i, e) in entries.iter().enumerate() {
        let by_number = load_game_for_repair(&path, i + 1).unwrap();
        let by_range = load_range_for_repair(&path, i + 1, e.offset, e.len).unwrap();
        assert_eq!(
            write_game_to_string(&by_range.0),
            write_game_to_string(&by_number.0)
        );
        assert_eq!(by_range.1, by_number.1, "game {}", i + 1);
        assert_eq!(by_range.2, by_number.2, "game {}", i + 1);
    }
    // Game three stops at its illegal move, placed in the file.
    let unread = load_game_for_repair(&path, 3).unwrap().2.unwrap();
    assert_eq!((unread.line, unread.column), (16, 13));
    assert_eq!(
        (unread.token.as_str(), unread.rest.as_str()),
        ("Kc2", "Kc2 Nf6")
    );
    let e = &entries[2];
    let err = load_range(&path, 3, e.offset, e.len)
        .unwrap_err()
        .to_string();
    assert!(err.contains("game 3, line 16 column 13: \"Kc2\""), "{err}");
    // The last game, whose file has no final newline.
    let (game, slot) = load_range(&path, 4, entries[3].offset, entries[3].len).unwrap();
    assert_eq!(game.tag("Event"), Some("Four"));
    assert_eq!(slot.offset + slot.len, FOUR.len() as u64);
}

/// A range that is no longer the game (the file changed since it was listed) is refused,
/// saying so and what to do.
#[test]
fn a_range_that_is_not_the_game_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "four.pgn", FOUR.as_bytes());
    let e = &index(FOUR.as_bytes())[1];
    for (offset, len) in [
        (e.offset + 1, e.len),
        (e.offset, e.len - 3),
        (e.offset, e.len + 40),
        (0, FOUR.len() as u64),
        (FOUR.len() as u64 + 5, 10),
    ] {
        let err = load_range(&path, 2, offset, len).unwrap_err();
        assert!(
            matches!(err, LoadError::Moved { .. }),
            "{offset} {len}: {err}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains("game 2 is no longer at bytes") && msg.contains(":e!"),
            "{msg}"
        );
    }
    // Someone inserted a game before it.
    std::fs::write(&path, format!("1. e4 *\n\n{FOUR}")).unwrap();
    let err = load_range(&path, 2, e.offset, e.len).unwrap_err();
    assert!(matches!(err, LoadError::Moved { .. }), "{err}");
}

/// A compressed file is read through its decoder; offsets are of the text.
#[test]
fn a_range_of_a_compressed_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(FOUR.as_bytes()).unwrap();
    let path = file_with(dir.path(), "four.pgn.gz", &gz.finish().unwrap());
    let entries = index(FOUR.as_bytes());
    let (game, slot) = load_range(&path, 2, entries[1].offset, entries[1].len).unwrap();
    assert_eq!(game.tag("White"), Some("B"));
    assert_eq!(load_game(&path, 2).unwrap().1, slot);
    // Positions are counted in the text too.
    let e = &entries[2];
    let unread = load_range_for_repair(&path, 3, e.offset, e.len)
        .unwrap()
        .2
        .unwrap();
    assert_eq!((unread.line, unread.column), (16, 13));
    let err = load_range(&path, 2, entries[1].offset + 2, 10).unwrap_err();
    assert!(matches!(err, LoadError::Moved { .. }), "{err}");
    let err = load_range(&path, 2, 1 << 20, 10).unwrap_err();
    assert!(matches!(err, LoadError::Moved { .. }), "{err}");
}

#[test]
fn a_games_number_is_found_from_where_it_starts_packed_or_not() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("four.pgn");
    std::fs::write(&plain, FOUR).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(FOUR.as_bytes()).unwrap();
    let packed = dir.path().join("four.pgn.gz");
    std::fs::write(&packed, gz.finish().unwrap()).unwrap();
    let starts: Vec<u64> = FOUR
        .match_indices("[Event ")
        .map(|(at, _)| at as u64)
        .collect();
    assert_eq!(starts.len(), 4);
    for path in [&plain, &packed] {
        for (i, &at) in starts.iter().enumerate() {
            assert_eq!(
                game_number_at(path, at).unwrap(),
                i as u64 + 1,
                "{path:?} at {at}"
            );
        }
    }
}
