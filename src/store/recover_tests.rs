use super::*;
use crate::pgn::write_game_to_string;
use crate::store::journal::{encode_record, Journal};

fn game(moves: &str) -> Game {
    read_games(format!("[Event \"Club\"]\n\n{moves} *\n").as_bytes())
        .remove(0)
        .game
}

fn nobody(_: u32) -> bool {
    false
}

fn files(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

#[test]
fn unsaved_games_are_offered_and_saved_ones_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.pgn");
    let mut unsaved = Journal::create(dir.path(), Some(&out)).unwrap();
    unsaved
        .record(&game("1. e4 c5"), Some(&out), true, None)
        .unwrap();
    unsaved
        .record(&game("1. e4 c5 2. Nf3"), Some(&out), false, None)
        .unwrap();
    let mut saved = Journal::create(dir.path(), None).unwrap();
    saved.record(&game("1. d4"), None, false, None).unwrap();
    saved
        .record(&game("1. d4 Nf6"), Some(&out), true, None)
        .unwrap();
    let _empty = Journal::create(dir.path(), None).unwrap();
    assert_eq!(files(dir.path()), 3);

    let mut scan = scan_with(dir.path(), &nobody).unwrap();
    assert!(scan.broken.is_empty());
    assert_eq!(scan.games.len(), 1);
    let g = &scan.games[0].clone();
    assert_eq!(g.path, unsaved.path());
    assert_eq!(g.out.as_deref(), Some(out.as_path()));
    assert_eq!(g.plies, 3);
    assert_eq!(g.game, game("1. e4 c5 2. Nf3"));
    assert!(g.modified > SystemTime::UNIX_EPOCH);
    // The scan deletes nothing; tidying removes the saved and the empty journal.
    assert_eq!(scan.done.len(), 2);
    assert_eq!(files(dir.path()), 3);
    scan.tidy();
    assert_eq!(files(dir.path()), 1);

    discard(g).unwrap();
    assert_eq!(files(dir.path()), 0);
}

#[test]
fn journals_of_running_recordings_are_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut j = Journal::create(dir.path(), None).unwrap();
    j.record(&game("1. e4"), None, true, None).unwrap();
    // This process is running: its journals are its own.
    let scan = scan(dir.path()).unwrap();
    assert!(scan.games.is_empty() && scan.broken.is_empty());
    assert_eq!(files(dir.path()), 1);
    assert!(is_running(std::process::id()));
}

#[test]
fn a_crash_mid_record_recovers_the_last_complete_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut j = Journal::create(dir.path(), None).unwrap();
    let lines = ["1. e4", "1. e4 e6", "1. e4 e6 2. d4", "1. e4 e6 2. d4 d5"];
    for l in lines {
        j.record(&game(l), None, false, None).unwrap();
    }
    let path = j.path().to_path_buf();
    drop(j);
    let torn = encode_record(
        &write_game_to_string(&game("1. e4 e6 2. d4 d5 3. Nc3")),
        None,
        false,
        None,
    );
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    std::io::Write::write_all(&mut f, &torn[..torn.len() / 2]).unwrap();
    drop(f);

    let games = scan_with(dir.path(), &nobody).unwrap().games;
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].game, game(lines[3]));
    assert_eq!(games[0].plies, 4);
}

#[test]
fn unreadable_journals_are_reported_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("20200101-000000-000-1.journal");
    std::fs::write(&junk, "this is not a journal\n").unwrap();
    let torn_first = dir.path().join("20200101-000000-001-1.journal");
    let rec = encode_record(&write_game_to_string(&game("1. e4")), None, false, None);
    let mut bytes = b"scoresheet journal 1 -\n".to_vec();
    bytes.extend_from_slice(&rec[..rec.len() - 3]);
    std::fs::write(&torn_first, bytes).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not ours").unwrap();

    let scan = scan_with(dir.path(), &nobody).unwrap();
    assert!(scan.games.is_empty());
    let broken: Vec<&Path> = scan.broken.iter().map(|b| b.path.as_path()).collect();
    assert_eq!(broken, [junk.as_path(), torn_first.as_path()]);
    assert!(
        scan.broken[0].reason.contains("not a scoresheet journal"),
        "{:?}",
        scan.broken[0]
    );
    assert!(
        scan.broken[1].reason.contains("no complete record"),
        "{:?}",
        scan.broken[1]
    );
    assert_eq!(files(dir.path()), 3);
}

#[test]
fn oldest_first_and_discard_all() {
    let dir = tempfile::tempdir().unwrap();
    // Written newest first: the order comes from the names.
    for (name, moves) in [
        ("20250102", "1. e4"),
        ("20250101", "1. d4 d5"),
        ("20241231", "1. c4"),
    ] {
        let rec = encode_record(&write_game_to_string(&game(moves)), None, false, None);
        let mut bytes = b"scoresheet journal 1 -\n".to_vec();
        bytes.extend_from_slice(&rec);
        let path = dir
            .path()
            .join(format!("{name}-120000-000-4200000.journal"));
        std::fs::write(path, bytes).unwrap();
    }
    let games = scan_with(dir.path(), &nobody).unwrap().games;
    let plies: Vec<usize> = games.iter().map(|g| g.plies).collect();
    assert_eq!(plies, [1, 2, 1]);
    assert!(games[0]
        .path
        .ends_with("20241231-120000-000-4200000.journal"));
    // Process 4200000 does not exist (Linux pids stop at 2^22).
    assert!(!is_running(4_200_000));
    assert_eq!(discard_all(dir.path()).unwrap(), 3);
    assert_eq!(files(dir.path()), 0);
    assert!(recoverable(&dir.path().join("missing")).unwrap().is_empty());
}
