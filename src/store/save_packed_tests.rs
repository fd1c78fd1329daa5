//! Saving into compressed and UTF-16 files.

use super::*;
use crate::pgn::{read_games, write_game_to_string};
use crate::store::load::load_game;

const FIVE: &str = "[Event \"1\"]\r\n\r\n1. e4 e5 {c} *\r\n\r\n\
[Event \"2\"]\r\n\r\n1. d4 (1. c4) d5 *\r\n\r\n\
[Event \"3\"]\r\n[White \"M\u{fc}ller\"]\r\n\r\n1. c4 *\r\n\r\n\
[Event \"4\"]\r\n\r\n1. Nf3 *\r\n\r\n\
[Event \"5\"]\r\n\r\n1. f4 *";

fn pack(p: Compression, text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = p.encoder(&mut out).unwrap().unwrap();
    enc.write_all(text).unwrap();
    enc.finish().unwrap();
    out
}

fn pgn_of(moves: &str, event: &str) -> String {
    let g = read_games(format!("[Event \"{event}\"]\n\n{moves} *\n").as_bytes()).remove(0);
    write_game_to_string(&g.game)
}

/// In every compressed format: game 3 replaced (grown, then shrunk), the first and
/// the last game too, a game added; the file stays compressed in its format, and
/// every byte of its text outside the game is as it was.
#[test]
fn compressed_files_are_rewritten_in_their_format_with_the_other_games_unchanged() {
    for p in [
        Compression::Gzip,
        Compression::Bzip2,
        Compression::Xz,
        Compression::Zstd,
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("five.pgn.packed");
        std::fs::write(&path, pack(p, FIVE.as_bytes())).unwrap();
        let text_of = || {
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(Compression::of(&bytes), Some(p), "{}", p.name());
            p.decode(&bytes).unwrap()
        };
        for (n, moves) in [
            (3, "1. c4 e5 2. Nc3 Nf6 3. g3 d5 4. cxd5 Nxd5"),
            (3, "1. c4"),
            (1, "1. e4"),
            (5, "1. f4 d5 2. Nf3"),
        ] {
            let before = text_of();
            let (_, slot) = load_game(&path, n).unwrap();
            let pgn = pgn_of(moves, &n.to_string());
            let new = replace_game(&path, &slot, &pgn).unwrap();
            let after = text_of();
            let (start, end) = (slot.offset as usize, (slot.offset + slot.len) as usize);
            assert_eq!(after[..start], before[..start], "{} game {n}", p.name());
            assert_eq!(
                after[start + new.len as usize..],
                before[end..],
                "{}",
                p.name()
            );
            // Written with the file's CRLF line ends.
            let written = &after[start..start + new.len as usize];
            assert_eq!(written, pgn.trim_end().replace('\n', "\r\n").as_bytes());
            let (game, reloaded) = load_game(&path, n).unwrap();
            assert_eq!((write_game_to_string(&game), reloaded), (pgn, new));
        }
        let before = text_of();
        let slot = append_game(&path, &pgn_of("1. b3", "6")).unwrap();
        let after = text_of();
        assert_eq!(after[..before.len()], before[..], "{}", p.name());
        assert_eq!(load_game(&path, 6).unwrap().1, slot);
        // A game changed on disk is refused in a compressed file too.
        let (_, slot) = load_game(&path, 2).unwrap();
        let edited = String::from_utf8(after)
            .unwrap()
            .replace("(1. c4)", "(1. b4)");
        std::fs::write(&path, pack(p, edited.as_bytes())).unwrap();
        let err = replace_game(&path, &slot, &pgn_of("1. d4", "2")).unwrap_err();
        assert!(matches!(err, SaveError::ChangedOnDisk { .. }), "{err}");
        assert_eq!(text_of(), edited.as_bytes());
    }
}

/// A gzip file of several members (as `cat a.gz b.gz` makes) is read whole and
/// written back as one member with the same text.
#[test]
fn a_gzip_file_of_several_members() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.pgn.gz");
    let cut = FIVE.find("[Event \"3\"]").unwrap();
    let mut bytes = pack(Compression::Gzip, &FIVE.as_bytes()[..cut]);
    bytes.extend(pack(Compression::Gzip, &FIVE.as_bytes()[cut..]));
    std::fs::write(&path, bytes).unwrap();
    let (game, slot) = load_game(&path, 4).unwrap();
    assert_eq!(game.tag("Event"), Some("4"));
    let new = replace_game(&path, &slot, &pgn_of("1. Nf3 d5", "4")).unwrap();
    let after = Compression::Gzip
        .decode(&std::fs::read(&path).unwrap())
        .unwrap();
    assert_eq!(
        after[..slot.offset as usize],
        FIVE.as_bytes()[..slot.offset as usize]
    );
    assert_eq!(
        after[(new.offset + new.len) as usize..],
        FIVE.as_bytes()[(slot.offset + slot.len) as usize..]
    );
}

/// A UTF-16 file is read, but a save into it is refused, naming what to do.
#[test]
fn a_utf16_file_is_read_but_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("utf16.pgn");
    let mut bytes = vec![0xff, 0xfe];
    for unit in FIVE.encode_utf16() {
        bytes.extend(unit.to_le_bytes());
    }
    std::fs::write(&path, &bytes).unwrap();
    let (game, slot) = load_game(&path, 3).unwrap();
    assert_eq!(game.tag("White"), Some("Müller"));
    let err = replace_game(&path, &slot, &pgn_of("1. c4", "3")).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, SaveError::Unwritable { .. }), "{msg}");
    assert!(
        msg.contains("UTF-16 text") && msg.contains(":w OTHER.pgn"),
        "{msg}"
    );
    assert!(append_game(&path, "1. e4 *\n").is_err());
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    // The same file compressed: read as the plain one, and not written either (its text
    // would come back as UTF-8).
    let packed = dir.path().join("utf16.pgn.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &bytes).unwrap();
    let gz = gz.finish().unwrap();
    std::fs::write(&packed, &gz).unwrap();
    let (game, slot) = load_game(&packed, 3).unwrap();
    assert_eq!(game.tag("White"), Some("Müller"));
    let err = replace_game(&packed, &slot, &pgn_of("1. c4", "3")).unwrap_err();
    assert!(matches!(err, SaveError::Unwritable { .. }), "{err}");
    assert!(err.to_string().contains("UTF-16 text"), "{err}");
    assert!(append_game(&packed, "1. e4 *\n").is_err());
    assert_eq!(std::fs::read(&packed).unwrap(), gz);
}

/// An unchanged game is seen still in its place of a compressed file (so an unchanged
/// `:w` writes nothing), also when moved by an edit before it; not once changed.
#[test]
fn still_there_in_a_compressed_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("five.pgn.xz");
    std::fs::write(&path, pack(Compression::Xz, FIVE.as_bytes())).unwrap();
    let (_, slot) = load_game(&path, 4).unwrap();
    assert!(still_there(&path, &slot));
    let moved = FIVE.replace("{c}", "{a longer comment}");
    std::fs::write(&path, pack(Compression::Xz, moved.as_bytes())).unwrap();
    assert!(still_there(&path, &slot));
    let changed = FIVE.replace("1. Nf3 *", "1. Nf3 d5 *");
    std::fs::write(&path, pack(Compression::Xz, changed.as_bytes())).unwrap();
    assert!(!still_there(&path, &slot));
}

/// A game saved into a new file named like a compressed one (`:w games.pgn.gz`) is
/// written compressed in that format, and a second game goes into the same stream; a
/// plain file that only has such a name stays plain.
#[test]
fn a_new_file_is_compressed_as_its_name_says() {
    let dir = tempfile::tempdir().unwrap();
    for (ext, p) in [
        ("gz", Compression::Gzip),
        ("bz2", Compression::Bzip2),
        ("xz", Compression::Xz),
        ("ZST", Compression::Zstd),
    ] {
        let path = dir.path().join(format!("new.pgn.{ext}"));
        let first = pgn_of("1. e4 e5", "1");
        append_game(&path, &first).unwrap();
        append_game(&path, &pgn_of("1. d4", "2")).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(Compression::of(&bytes), Some(p), "{ext}");
        let games = read_games(&p.decode(&bytes).unwrap());
        assert_eq!(games.len(), 2, "{ext}");
    }
    let plain = dir.path().join("plain.pgn.gz");
    std::fs::write(&plain, pgn_of("1. c4", "0")).unwrap();
    append_game(&plain, &pgn_of("1. e4", "1")).unwrap();
    let bytes = std::fs::read(&plain).unwrap();
    assert_eq!(Compression::of(&bytes), None);
    assert_eq!(read_games(&bytes).len(), 2);
}

/// A game saved into its place keeps the `%` escape lines of its old text (a reader skips
/// them, but they are someone's text): those within it go just before it, those after its
/// result stay after it; every other byte of the file is as it was. In a plain file, a
/// compressed one, and one where the game moved since it was read.
#[test]
fn a_saved_game_keeps_its_escape_lines() {
    let text = "[Event \"A\"]\n\n1. e4 e5 *\n\n% between A and B\n[Event \"B\"]\n\n1. d4 d5\n\
                % inside B\n2. c4 *\n\n% after B\n[Event \"C\"]\n\n1. c4 *\n";
    let dir = tempfile::tempdir().unwrap();
    for (name, packing) in [
        ("plain.pgn", None),
        ("packed.pgn.gz", Some(Compression::Gzip)),
    ] {
        for moved in [false, true] {
            let path = dir.path().join(name);
            let write = |text: &str| {
                let bytes = match packing {
                    None => text.as_bytes().to_vec(),
                    Some(p) => pack(p, text.as_bytes()),
                };
                std::fs::write(&path, bytes).unwrap();
            };
            write(text);
            let (_, slot) = load_game(&path, 2).unwrap();
            if moved {
                // Another program added a comment to game A: game B moved.
                write(&text.replacen("1. e4 e5", "1. e4 {a note} e5", 1));
            }
            replace_game(&path, &slot, &pgn_of("1. d4 d5 2. c4 e6", "B")).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            let after = match packing {
                None => String::from_utf8(bytes).unwrap(),
                Some(p) => String::from_utf8(p.decode(&bytes).unwrap()).unwrap(),
            };
            for line in ["% between A and B", "% inside B", "% after B"] {
                assert_eq!(after.matches(line).count(), 1, "{name} {moved}: {after}");
            }
            let at = |s: &str| after.find(s).unwrap();
            assert!(at("% inside B") < at("[Event \"B\"]"), "{after}");
            assert!(at("2. c4 e6") < at("% after B"), "{after}");
            assert!(at("% after B") < at("[Event \"C\"]"), "{after}");
            assert!(after.ends_with("[Event \"C\"]\n\n1. c4 *\n"), "{after}");
        }
    }
}
