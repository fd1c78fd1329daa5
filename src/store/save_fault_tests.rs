//! Saves that fail or race: permissions, a full disk, read-only files, pipes, files
//! that vanish, saves at the same moment, saves killed midway; and loading errors.

use super::*;

/// True when permissions do not stop this process (root): a read-only directory
/// then proves nothing.
fn permissions_do_not_bite(dir: &Path) -> bool {
    std::fs::write(dir.join("probe"), "x").is_ok()
}

#[test]
fn a_failed_save_says_why_and_leaves_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // The parent is a file.
    let blocker = file_with(dir.path(), "blocker", b"not a directory");
    let err = append_game(&blocker.join("games.pgn"), "x").unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("blocker/games.pgn") && msg.contains("not a directory"),
        "{msg}"
    );
    assert_eq!(std::fs::read(&blocker).unwrap(), b"not a directory");
    // A missing directory.
    let err = append_game(&dir.path().join("nowhere/games.pgn"), "x").unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("does ") && msg.contains("nowhere exist?"),
        "{msg}"
    );
    // Said once, in plain words: not again in the system's.
    assert_eq!(
        msg.to_lowercase().matches("no such file").count(),
        1,
        "{msg}"
    );
    assert!(!msg.contains("os error"), "{msg}");
    assert!(
        !msg.contains(".scoresheet-"),
        "no temporary file name: {msg}"
    );
    // The target is a directory.
    let err = append_game(dir.path(), "x").unwrap_err();
    assert!(matches!(err, SaveError::Read { .. }), "{err:?}");
    assert!(err.to_string().contains("it is a directory"), "{err}");

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = dir.path().join("ro");
        std::fs::create_dir(&ro).unwrap();
        let path = file_with(&ro, "games.pgn", THREE.as_bytes());
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        // Root is not stopped by permission bits: the directory then fails as a
        // read-only one would, where the temporary file is made.
        let root = permissions_do_not_bite(&ro);
        let _ = std::fs::remove_file(ro.join("probe"));
        READ_ONLY_DIR.with(|f| f.set(root));
        let (_, slot) = load_game(&path, 2).unwrap();
        let replaced = replace_game(&path, &slot, &pgn_of("1. d4", "C"));
        let appended = append_game(&path, &pgn_of("1. d4", "C"));
        READ_ONLY_DIR.with(|f| f.set(false));
        let msg = replaced.unwrap_err().to_string();
        assert!(
            msg.contains("read-only") && msg.contains("not changed"),
            "{msg}"
        );
        assert!(
            matches!(appended, Err(SaveError::Write { .. })),
            "{appended:?}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), THREE);
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(std::fs::read_dir(&ro).unwrap().count(), 1, "only the file");
    }
}

#[test]
fn a_full_disk_leaves_the_old_file_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "three.pgn", THREE.as_bytes());
    let (_, slot) = load_game(&path, 2).unwrap();
    DISK_FULL.with(|f| f.set(true));
    let replaced = replace_game(&path, &slot, &pgn_of("1. d4", "C"));
    let appended = append_game(&path, &pgn_of("1. d4", "C"));
    DISK_FULL.with(|f| f.set(false));
    for err in [replaced.unwrap_err(), appended.unwrap_err()] {
        let msg = err.to_string();
        assert!(matches!(err, SaveError::Write { .. }), "{err:?}");
        assert!(msg.contains("three.pgn: the disk is full"), "{msg}");
        assert!(
            msg.ends_with("the file was not changed: :w OTHER.pgn saves the game elsewhere"),
            "{msg}"
        );
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), THREE);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    // And the slot still works once there is room again.
    replace_game(&path, &slot, &pgn_of("1. d4", "C")).unwrap();
}

/// `:e FILE N` reads the games up to N, not the whole file: here the file goes on
/// for 64 GiB after its second game (a hole, on disk nothing), more than memory holds.
#[test]
fn a_game_near_the_start_loads_without_reading_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "long.pgn", THREE.as_bytes());
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(64 << 30).unwrap();
    let (game, _) = load_game(&path, 2).unwrap();
    let (want, _) = load_game(&file_with(dir.path(), "three.pgn", THREE.as_bytes()), 2).unwrap();
    assert_eq!(game.tag("White"), want.tag("White"));
    assert_eq!(game.mainline().len(), want.mainline().len());
}

#[test]
fn load_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "three.pgn", THREE.as_bytes());
    let err = load_game(&path, 4).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("three.pgn: no game 4: the file has 3 games"),
        "{err}"
    );
    assert!(load_game(&path, 0).is_err());
    let bad = file_with(
        dir.path(),
        "bad.pgn",
        b"[Event \"x\"]\n\n1. e4 e5\n2. Ke3 *\n",
    );
    let err = load_game(&bad, 1).unwrap_err();
    assert!(
        err.to_string().contains("game 1, line 4 column 4: \"Ke3\""),
        "{err}"
    );
    let err = load_game(&dir.path().join("none.pgn"), 1).unwrap_err();
    assert!(matches!(err, LoadError::Read { .. }));
    let empty = file_with(dir.path(), "empty.pgn", b"");
    assert!(load_game(&empty, 1)
        .unwrap_err()
        .to_string()
        .contains("has no games"));
}

#[test]
fn a_read_only_file_is_replaced_only_when_forced() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "ro.pgn", THREE.as_bytes());
    let mut perms = std::fs::metadata(&path).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&path, perms).unwrap();
    let err = append_game(&path, &pgn_of("1. d4", "C")).unwrap_err();
    assert!(matches!(err, SaveError::ReadOnly { .. }), "{err:?}");
    assert!(err.to_string().contains("read-only"), "{err}");
    let err = write_atomically(&path, b"x").unwrap_err();
    assert!(target::is_read_only(&err), "{err:?}");
    assert!(err.to_string().contains("ro.pgn is read-only"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), THREE);
    save_game(&path, None, &pgn_of("1. d4", "C"), true).unwrap();
    assert_eq!(read_games(&std::fs::read(&path).unwrap()).len(), 4);
    // Still read-only, as it was.
    assert!(std::fs::metadata(&path).unwrap().permissions().readonly());
    write_file(&path, true, |w| w.write_all(b"forced")).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"forced");
}

#[cfg(unix)]
#[test]
fn a_pipe_is_written_as_a_stream_and_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    write_atomically(&fifo, b"through the pipe").unwrap();
    // Checked first: a pipe replaced by a file would leave the reader waiting.
    assert!(!std::fs::metadata(&fifo).unwrap().is_file());
    assert_eq!(reader.join().unwrap(), b"through the pipe");
    // A game cannot be kept in a pipe: refused before anything is read.
    let err = append_game(&fifo, &pgn_of("1. d4", "C")).unwrap_err();
    assert!(matches!(err, SaveError::NotRegular { .. }), "{err:?}");
    assert!(!std::fs::metadata(&fifo).unwrap().is_file());
}

#[test]
fn a_vanished_file_is_written_anew() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "three.pgn", THREE.as_bytes());
    let (_, slot) = load_game(&path, 2).unwrap();
    std::fs::remove_file(&path).unwrap();
    let new = replace_game(&path, &slot, &pgn_of("1. d4", "C")).unwrap();
    assert_eq!(new.offset, 0);
    let (game, _) = load_game(&path, 1).unwrap();
    assert_eq!(game.tag("White"), Some("C"));
    assert!(still_there(&path, &new));
    std::fs::remove_file(&path).unwrap();
    assert!(!still_there(&path, &new));
}

#[test]
fn saves_at_the_same_moment_keep_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "club.pgn", THREE.as_bytes());
    let savers: Vec<_> = (0..12)
        .map(|n| {
            let path = path.clone();
            std::thread::spawn(move || {
                append_game(&path, &pgn_of("1. e4", &format!("Player {n}"))).unwrap();
            })
        })
        .collect();
    for s in savers {
        s.join().unwrap();
    }
    let games = read_games(&std::fs::read(&path).unwrap());
    assert_eq!(games.len(), 3 + 12);
    for n in 0..12 {
        let name = format!("Player {n}");
        assert!(
            games.iter().any(|g| g.game.tag("White") == Some(&name)),
            "{name} was lost"
        );
    }
}

#[test]
fn temporary_files_of_killed_saves_are_cleaned_up() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_with(dir.path(), "three.pgn", THREE.as_bytes());
    let stale = file_with(dir.path(), ".scoresheet-Ab12Cd.tmp", THREE.as_bytes());
    let theirs = file_with(dir.path(), "notes.tmp", b"keep me");
    assert_eq!(target::clean_up(dir.path()), 1);
    assert!(!stale.exists());
    assert!(theirs.exists());
    // The next save there cleans up too.
    let stale = file_with(dir.path(), ".scoresheet-Zz99Yy.tmp", b"half");
    append_game(&path, &pgn_of("1. d4", "C")).unwrap();
    assert!(!stale.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}
