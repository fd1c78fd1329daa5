use super::*;
use crate::pgn::{read_games, write_game_to_string};
use crate::store::target::same_file;
use std::cell::Cell;

thread_local! {
    /// Makes [`write_atomically`] fail as on a full disk, after its temporary file
    /// exists: a failure that permissions cannot fake for root.
    pub(super) static DISK_FULL: Cell<bool> = const { Cell::new(false) };
    /// Makes creating the temporary file fail as in a read-only directory, for
    /// root, whom permission bits do not stop.
    pub(super) static READ_ONLY_DIR: Cell<bool> = const { Cell::new(false) };
}

const THREE: &str = "\
% a file kept by hand
[Event \"One\"]
[White \"A\"]
[Black \"B\"]
[Result \"1-0\"]

1.e4 e5 {a comment}   2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7# 1-0


[Event \"Two\"]
[White \"C\"]
[Black \"D\"]
[Result \"*\"]

1. d4 d5 2. c4 (2. Nf3) *

; trailing remark
[Event \"Three\"]
[Result \"0-1\"]

1. f3 e5 2. g4 Qh4# 0-1
";

fn pgn_of(moves: &str, white: &str) -> String {
    let g = read_games(format!("[White \"{white}\"]\n\n{moves} *\n").as_bytes()).remove(0);
    write_game_to_string(&g.game)
}

fn file_with(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Replaces game `n` and checks that every byte outside it is unchanged.
fn replace_and_check(path: &Path, n: usize, pgn: &str) -> Vec<u8> {
    let before = std::fs::read(path).unwrap();
    let (_, slot) = load_game(path, n).unwrap();
    let new = replace_game(path, &slot, pgn).unwrap();
    let after = std::fs::read(path).unwrap();
    let (start, old_end) = (slot.offset as usize, (slot.offset + slot.len) as usize);
    assert_eq!(new.offset, slot.offset);
    assert_eq!(after[..start], before[..start]);
    assert_eq!(after[start + new.len as usize..], before[old_end..]);
    let (game, reloaded) = load_game(path, n).unwrap();
    assert_eq!(reloaded, new);
    assert_eq!(write_game_to_string(&game), pgn);
    after[start..start + new.len as usize].to_vec()
}

#[test]
fn replace_keeps_every_other_byte() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "three.pgn", THREE.as_bytes());
    let longer = pgn_of("1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7", "C");
    replace_and_check(&path, 2, &longer);
    // Shorter again, then the first and the last game.
    replace_and_check(&path, 2, &pgn_of("1. d4", "C"));
    replace_and_check(&path, 1, &pgn_of("1. e4", "A"));
    replace_and_check(&path, 3, &pgn_of("1. f3 e5 2. g4", "?"));
    assert_eq!(read_games(&std::fs::read(&path).unwrap()).len(), 3);
}

#[test]
fn replace_keeps_crlf_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    let crlf = THREE.replace('\n', "\r\n");
    let path = file_with(dir.path(), "crlf.pgn", crlf.as_bytes());
    let pgn = pgn_of("1. d4 Nf6 2. c4 g6", "C");
    let text = replace_and_check_crlf(&path, &pgn);
    assert_eq!(text, pgn.trim_end().replace('\n', "\r\n").into_bytes());
    let all = std::fs::read(&path).unwrap();
    assert!(!all.windows(2).any(|w| w[1] == b'\n' && w[0] != b'\r'));
}

fn replace_and_check_crlf(path: &Path, pgn: &str) -> Vec<u8> {
    let before = std::fs::read(path).unwrap();
    let (_, slot) = load_game(path, 2).unwrap();
    let new = replace_game(path, &slot, pgn).unwrap();
    let after = std::fs::read(path).unwrap();
    let start = slot.offset as usize;
    assert_eq!(after[..start], before[..start]);
    assert_eq!(
        after[start + new.len as usize..],
        before[(slot.offset + slot.len) as usize..]
    );
    after[start..start + new.len as usize].to_vec()
}

#[test]
fn replace_keeps_latin1_files_latin1() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = THREE.replace("\"A\"", "\"M\u{fc}ller\"").into_bytes();
    // Game one's "ü" as Latin-1: the file is not UTF-8.
    let at = bytes.windows(2).position(|w| w == "ü".as_bytes()).unwrap();
    bytes.splice(at..at + 2, [0xfc]);
    let path = file_with(dir.path(), "latin1.pgn", &bytes);
    let (game, _) = load_game(&path, 1).unwrap();
    assert_eq!(game.tag("White"), Some("Müller"));

    let pgn = pgn_of("1. e4 e5 2. Nf3", "Schön");
    let before = std::fs::read(&path).unwrap();
    let (_, slot) = load_game(&path, 2).unwrap();
    let new = replace_game(&path, &slot, &pgn).unwrap();
    let after = std::fs::read(&path).unwrap();
    let start = slot.offset as usize;
    assert_eq!(after[..start], before[..start]);
    assert_eq!(
        after[start + new.len as usize..],
        before[(slot.offset + slot.len) as usize..]
    );
    let text = &after[start..start + new.len as usize];
    assert!(
        text.windows(6).any(|w| w == b"Sch\xf6n\""),
        "written as Latin-1"
    );
    assert_eq!(load_game(&path, 2).unwrap().0.tag("White"), Some("Schön"));
    // Text that does not fit in Latin-1 is written as UTF-8 rather than lost.
    let (_, slot) = load_game(&path, 3).unwrap();
    replace_game(&path, &slot, &pgn_of("1. f3", "Карпов")).unwrap();
    assert_eq!(load_game(&path, 3).unwrap().0.tag("White"), Some("Карпов"));
}

#[test]
fn a_file_changed_elsewhere_is_not_clobbered() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "three.pgn", THREE.as_bytes());
    let (_, slot) = load_game(&path, 2).unwrap();
    let refused = |change: Change, contains: &str| {
        let before = std::fs::read(&path).unwrap();
        let err = replace_game(&path, &slot, &pgn_of("1. d4", "C"));
        let err = err.expect_err(contains);
        let SaveError::ChangedOnDisk { change: seen, .. } = err else {
            panic!("{err:?}")
        };
        assert_eq!(seen, change);
        let msg = err.to_string();
        for part in [
            "three.pgn",
            contains,
            "not changed",
            ":w OTHER.pgn",
            ":e! FILE",
        ] {
            assert!(msg.contains(part), "{part:?} in {msg}");
        }
        assert_eq!(std::fs::read(&path).unwrap(), before);
    };
    // Someone edits game two with another program.
    std::fs::write(&path, THREE.replace("2. c4 (2. Nf3)", "2. c4 e6")).unwrap();
    refused(
        Change::Edited,
        "another program changed or deleted this game",
    );
    // ...or deletes it.
    let two = THREE.find("[Event \"Two\"]").unwrap();
    let three = THREE.find("; trailing").unwrap();
    std::fs::write(&path, format!("{}{}", &THREE[..two], &THREE[three..])).unwrap();
    refused(Change::Edited, "changed or deleted");
    // A file cut short in the game, or before it, or replaced by a shorter one.
    std::fs::write(&path, &THREE[..two + 20]).unwrap();
    refused(Change::Edited, "changed or deleted");
    std::fs::write(&path, &THREE[..two - 5]).unwrap();
    refused(
        Change::Shorter {
            size: two as u64 - 5,
        },
        "cut short or replaced",
    );
    std::fs::write(&path, "[Event \"x\"]\n").unwrap();
    refused(Change::Shorter { size: 12 }, "cut short or replaced");
    // The game moved and is there twice: which one is meant cannot be told.
    let game = &THREE[slot.offset as usize..(slot.offset + slot.len) as usize];
    std::fs::write(&path, format!("{game}\n\n{game}\n\n{THREE}")).unwrap();
    refused(Change::Copies { count: 2 }, "holds this game 2 times");
}

/// Others' edits elsewhere in the file are kept: the game goes back into the file as
/// it is now, not as it was read.
#[test]
fn edits_to_other_games_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "three.pgn", THREE.as_bytes());
    let (_, slot) = load_game(&path, 2).unwrap();
    // Another program edits game one (longer) and game three.
    let edited = THREE
        .replace("[Event \"One\"]", "[Event \"One\"]\n[Site \"Here\"]")
        .replace("2. g4 Qh4# 0-1", "2. g4 {oops} Qh4# 0-1");
    std::fs::write(&path, &edited).unwrap();
    let pgn = pgn_of("1. d4 Nf6", "C");
    let new = replace_game(&path, &slot, &pgn).unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    let old = (slot.offset + 14) as usize..(slot.offset + 14 + slot.len) as usize;
    assert_eq!(new.offset, old.start as u64);
    assert_eq!(after[..old.start], edited[..old.start]);
    assert_eq!(after[old.start + new.len as usize..], edited[old.end..]);
}

/// A file whose last game has no line end after it: replacing that game, and adding one.
#[test]
fn a_file_without_a_final_newline() {
    let dir = tempfile::tempdir().unwrap();
    let text = THREE.trim_end();
    let path = file_with(dir.path(), "nonl.pgn", text.as_bytes());
    let last = replace_and_check(&path, 3, &pgn_of("1. f3 e5 2. g4 Qh4#", "?"));
    assert!(!last.ends_with(b"\n"));
    let after = std::fs::read(&path).unwrap();
    assert!(after.ends_with(b"*"), "no line end added: {after:?}");
    let first = replace_and_check(&path, 1, &pgn_of("1. e4 e5 2. Qh5", "A"));
    assert!(first.starts_with(b"[Event"));
    let before = std::fs::read(&path).unwrap();
    let slot = append_game(&path, &pgn_of("1. c4", "New")).unwrap();
    let after = std::fs::read(&path).unwrap();
    assert_eq!(after[..before.len()], before[..]);
    assert_eq!(&after[before.len()..slot.offset as usize], b"\n\n");
    assert_eq!(load_game(&path, 4).unwrap().1, slot);
}

#[test]
fn a_game_moved_by_an_edit_before_it_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "three.pgn", THREE.as_bytes());
    let (_, slot) = load_game(&path, 3).unwrap();
    let moved = THREE.replace("[Event \"One\"]", "[Event \"One, renamed\"]");
    std::fs::write(&path, &moved).unwrap();
    let pgn = pgn_of("1. f3", "?");
    let new = replace_game(&path, &slot, &pgn).unwrap();
    assert_eq!(new.offset, slot.offset + 9);
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.starts_with(&moved[..new.offset as usize]));
    assert_eq!(write_game_to_string(&load_game(&path, 3).unwrap().0), pgn);
}

#[test]
fn append_adds_a_blank_line_only_when_needed() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = pgn_of("1. e4 e5", "Ann");
    for (old, sep) in [
        ("1. d4 *", "\n\n"),
        ("1. d4 *  ", "\n\n"),
        ("1. d4 *\n", "\n"),
        ("1. d4 *\n\n", ""),
        ("1. d4 *\n \n\n", ""),
        ("1. d4 *\r\n", "\r\n"),
        ("", ""),
    ] {
        let path = file_with(dir.path(), "a.pgn", old.as_bytes());
        let slot = append_game(&path, &pgn).unwrap();
        let after = std::fs::read(&path).unwrap();
        let crlf = old.contains('\r');
        let text = if crlf {
            pgn.replace('\n', "\r\n")
        } else {
            pgn.clone()
        };
        assert_eq!(after, format!("{old}{sep}{text}").into_bytes(), "{old:?}");
        assert_eq!(slot.offset as usize, old.len() + sep.len());
        assert_eq!(slot.len as usize, text.trim_end().len());
        let n = read_games(&after).len();
        assert_eq!(load_game(&path, n).unwrap().1, slot, "{old:?}");
    }
}

#[test]
fn append_creates_the_file_and_then_replaces_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.pgn");
    let slot = append_game(&path, &pgn_of("1. e4", "Ann")).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        pgn_of("1. e4", "Ann")
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
    }
    let slot = replace_game(&path, &slot, &pgn_of("1. e4 e5", "Ann")).unwrap();
    let two = append_game(&path, &pgn_of("1. d4", "Bob")).unwrap();
    replace_game(&path, &slot, &pgn_of("1. e4 e5 2. f4", "Ann")).unwrap();
    let all = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        all,
        pgn_of("1. e4 e5 2. f4", "Ann") + &pgn_of("1. d4", "Bob")
    );
    // The second game moved by three bytes: found by its hash.
    replace_game(&path, &two, &pgn_of("1. d4 d5", "Bob")).unwrap();
    assert_eq!(read_games(all.as_bytes()).len(), 2);
}

#[cfg(unix)]
#[test]
fn saving_keeps_permissions_and_follows_links() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "real.pgn", THREE.as_bytes());
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink("real.pgn", &link).unwrap();
    append_game(&link, &pgn_of("1. e4", "Ann")).unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(read_games(&std::fs::read(&path).unwrap()).len(), 4);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o640);
    // No temporary file is left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn the_same_file_under_two_names() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "f.pgn", b"");
    let other = dir.path().join(".").join("f.pgn");
    assert!(same_file(&path, &other));
    assert!(!same_file(&path, &dir.path().join("g.pgn")));
    // Not there yet: the same name in the same directory.
    let new = dir.path().join("new.pgn");
    assert!(same_file(&new, &dir.path().join(".").join("new.pgn")));
}

#[test]
fn replace_keeps_windows_1252_files_windows_1252() {
    let dir = tempfile::tempdir().unwrap();
    // Game one's White as a Windows program writes it: "Šimun" with Š as 0x8A.
    let mut bytes = THREE.replace("\"A\"", "\"\u{160}imun\"").into_bytes();
    let at = bytes.windows(2).position(|w| w == "Š".as_bytes()).unwrap();
    bytes.splice(at..at + 2, [0x8a]);
    let path = file_with(dir.path(), "cp1252.pgn", &bytes);
    assert_eq!(load_game(&path, 1).unwrap().0.tag("White"), Some("Šimun"));

    let (_, slot) = load_game(&path, 2).unwrap();
    let new = replace_game(&path, &slot, &pgn_of("1. d4", "Žagar „Ž“")).unwrap();
    let after = std::fs::read(&path).unwrap();
    let text = &after[slot.offset as usize..(slot.offset + new.len) as usize];
    assert!(
        text.windows(10).any(|w| w == b"\x8eagar \x84\x8e\x93\""),
        "written as Windows-1252: {text:?}"
    );
    // Game one's bytes were not touched, and both read back as written.
    assert_eq!(after[..slot.offset as usize], bytes[..slot.offset as usize]);
    assert_eq!(
        load_game(&path, 2).unwrap().0.tag("White"),
        Some("Žagar „Ž“")
    );
    assert_eq!(load_game(&path, 1).unwrap().0.tag("White"), Some("Šimun"));
}

#[cfg(unix)]
#[test]
fn a_pipe_or_a_device_is_not_opened_as_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.pgn");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // No writer: opening it would wait for ever. It is refused without being opened.
    let err = load_game_for_repair(&fifo, 1).unwrap_err();
    assert!(err.to_string().contains("not a file"), "{err}");
    // A device that never ends (it would fill the memory).
    let err = load_game_for_repair(Path::new("/dev/zero"), 1).unwrap_err();
    assert!(err.to_string().contains("not a file"), "{err}");
    let err = load_game(dir.path(), 1).unwrap_err();
    assert!(err.to_string().contains("not a file"), "{err}");
}

#[path = "save_fault_tests.rs"]
mod faults;
