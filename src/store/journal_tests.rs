use super::*;
use crate::pgn::read_games;
use std::cell::Cell;

thread_local! {
    /// Makes every journal write fail as on a full disk: a failure that
    /// permissions cannot fake for root.
    pub(crate) static FAIL_WRITES: Cell<bool> = const { Cell::new(false) };
}

fn game(moves: &str) -> Game {
    read_games(format!("[White \"Anna\"]\n\n{moves} *\n").as_bytes())
        .remove(0)
        .game
}

fn read(path: &Path) -> Contents {
    parse(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn records_and_reads_back_the_last_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("club night.pgn");
    let mut j = Journal::create(dir.path(), Some(&out)).unwrap();
    let name = j.path().file_name().unwrap().to_str().unwrap().to_string();
    assert!(
        name.ends_with(&format!("-{}.journal", std::process::id())),
        "{name}"
    );
    assert_eq!(
        name.len(),
        "20261121-153000-123-.journal".len() + std::process::id().to_string().len()
    );
    assert_eq!(pid_of(j.path()), Some(std::process::id()));

    j.record(&game("1. e4"), Some(&out), false, None).unwrap();
    j.record(&game("1. e4 e5"), Some(&out), false, None)
        .unwrap();
    j.record(&game("1. e4 e5 2. Nf3"), Some(&out), true, None)
        .unwrap();
    let c = read(j.path());
    assert_eq!(c.records, 3);
    assert!(!c.torn);
    let last = c.last.unwrap();
    assert_eq!(last.pgn, write_game_to_string(&game("1. e4 e5 2. Nf3")));
    assert_eq!(last.out.as_deref(), Some(out.as_path()));
    assert!(last.saved);

    let path = j.path().to_path_buf();
    j.finish().unwrap();
    assert!(!path.exists());
}

#[test]
fn a_new_journal_has_no_record() {
    let dir = tempfile::tempdir().unwrap();
    let j = Journal::create(&dir.path().join("deep/er"), None).unwrap();
    let c = read(j.path());
    assert_eq!((c.last, c.records, c.torn), (None, 0, false));
    // Two journals in the same millisecond get different names.
    let k = Journal::create(&dir.path().join("deep/er"), None).unwrap();
    assert_ne!(j.path(), k.path());
    assert_eq!(pid_of(k.path()), Some(std::process::id()));
}

#[test]
fn a_torn_last_record_is_ignored_wherever_it_was_cut() {
    let dir = tempfile::tempdir().unwrap();
    let mut j = Journal::create(dir.path(), None).unwrap();
    j.record(&game("1. d4"), None, false, None).unwrap();
    j.record(&game("1. d4 d5"), None, false, None).unwrap();
    let good = std::fs::read(j.path()).unwrap();
    let next = encode_record(
        &write_game_to_string(&game("1. d4 d5 2. c4")),
        None,
        false,
        None,
    );
    for cut in 0..next.len() {
        let mut bytes = good.clone();
        bytes.extend_from_slice(&next[..cut]);
        let c = parse(&bytes).unwrap();
        assert_eq!(c.records, 2, "cut at {cut}");
        assert_eq!(c.torn, cut > 0, "cut at {cut}");
        assert_eq!(c.last.unwrap().pgn, write_game_to_string(&game("1. d4 d5")));
    }
    let mut whole = good.clone();
    whole.extend_from_slice(&next);
    assert_eq!(parse(&whole).unwrap().records, 3);
}

#[test]
fn a_damaged_record_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let mut j = Journal::create(dir.path(), None).unwrap();
    j.record(&game("1. c4"), None, false, None).unwrap();
    j.record(&game("1. c4 e5"), None, true, None).unwrap();
    let good = std::fs::read(j.path()).unwrap();
    // A flipped byte in the body, then in the saved flag of the last record.
    let mut bytes = good.clone();
    let at = bytes.len() - 5;
    bytes[at] ^= 0x20;
    let c = parse(&bytes).unwrap();
    assert_eq!((c.records, c.torn), (1, true));
    assert!(!c.last.unwrap().saved);
    let text = String::from_utf8(good).unwrap();
    let last = text.rfind("\nrecord ").unwrap() + 1;
    let flag = last + text[last..].find(" 1 ").unwrap() + 1;
    let mut damaged = text.clone().into_bytes();
    damaged[flag] = b'0';
    assert_eq!(parse(&damaged).unwrap().records, 1);
    // Zeros where the disk lost a block.
    let mut zeros = text.clone().into_bytes();
    let n = zeros.len();
    zeros[n - 40..n - 20].fill(0);
    assert_eq!(parse(&zeros).unwrap().records, 1);
}

#[test]
fn header_line_problems() {
    assert!(parse(b"").unwrap().last.is_none());
    assert!(parse(b"scoresheet jour").unwrap().last.is_none());
    assert!(parse(b"hello\n").is_err());
    assert!(parse(b"scoresheet journal 3 -\nrecord").is_err());
    assert!(parse(b"scoresheet journal 1 -\n").is_ok());
    assert!(parse(b"PK\x03\x04").is_err());
}

#[test]
fn target_paths_survive_any_bytes() {
    let mut paths = vec![
        PathBuf::from("/tmp/a b/100%.pgn"),
        PathBuf::from("-"),
        PathBuf::from("-x.pgn"),
        PathBuf::from("Ölçü\tgames.pgn"),
        PathBuf::from("line\nbreak.pgn"),
    ];
    #[cfg(unix)]
    paths.push(path_from_bytes(vec![b'x', 0xff, 0xfe, b' ']));
    for p in paths {
        let mut field = Vec::new();
        encode_out(Some(&p), &mut field);
        assert!(field.iter().all(|b| b.is_ascii_graphic()), "{field:?}");
        assert_ne!(field, b"-");
        assert_eq!(decode_out(&field), Some(Some(p.clone())));
        let rec = encode_record("", Some(&p), false, None);
        let (r, used) = parse_record(&rec).unwrap();
        assert_eq!((r.out, used), (Some(p), rec.len()));
    }
    assert_eq!(decode_out(b"-"), Some(None));
    assert_eq!(decode_out(b"%4"), None);
}

#[test]
fn a_big_journal_is_compacted_to_its_last_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut j = Journal::create(dir.path(), None).unwrap();
    j.compact_at = 2_000;
    let moves = [
        "1. e4",
        "1. e4 e5",
        "1. e4 e5 2. Nf3",
        "1. e4 e5 2. Nf3 Nc6",
    ];
    for round in 0..10 {
        for m in moves {
            j.record(&game(m), None, round == 9 && m == moves[3], None)
                .unwrap();
            assert!(std::fs::metadata(j.path()).unwrap().len() < 2_500);
        }
    }
    let c = read(j.path());
    assert!(c.records < 40, "{}", c.records);
    assert_eq!(c.last.unwrap().pgn, write_game_to_string(&game(moves[3])));
    // Only the journal is left: no temporary file.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(j.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn names_without_a_pid_are_not_ours() {
    assert_eq!(
        pid_of(Path::new("x/20261121-153000-123-42.journal")),
        Some(42)
    );
    assert_eq!(
        pid_of(Path::new("20261121-153000-123-42-3.journal")),
        Some(42)
    );
    assert_eq!(pid_of(Path::new("notes.journal")), None);
    assert_eq!(pid_of(Path::new("20261121-153000-123-42.txt")), None);
}

#[test]
fn the_slot_is_kept_and_version_one_records_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.pgn");
    let slot = Slot {
        offset: 120,
        len: 57,
        digest: 0x0123_4567_89ab_cdef,
    };
    let mut j = Journal::create(dir.path(), Some(&out)).unwrap();
    j.record(&game("1. e4"), Some(&out), false, Some(&slot))
        .unwrap();
    assert_eq!(read(j.path()).last.unwrap().slot, Some(slot));
    j.record(&game("1. e4 e5"), Some(&out), false, None)
        .unwrap();
    assert_eq!(read(j.path()).last.unwrap().slot, None);

    // A journal written before slots were kept.
    let pgn = write_game_to_string(&game("1. d4"));
    let mut line = format!("record {} 0 - ", pgn.len()).into_bytes();
    let hash = fnv1a_continue(fnv1a(&line), pgn.as_bytes());
    line.extend_from_slice(format!("{hash:016x}\n{pgn}").as_bytes());
    let mut v1 = b"scoresheet journal 1 -\n".to_vec();
    v1.extend_from_slice(&line);
    let c = parse(&v1).unwrap();
    assert_eq!(c.records, 1);
    assert_eq!(c.last.unwrap().pgn, pgn);
}

#[test]
fn an_adopted_journal_keeps_its_game_and_takes_new_records() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("20260101-000000-000-999999999.journal");
    let mut bytes = b"scoresheet journal 2 -\n".to_vec();
    bytes.extend(encode_record(
        &write_game_to_string(&game("1. e4")),
        None,
        false,
        None,
    ));
    let good = bytes.clone();
    // A torn record after it, as a crash leaves.
    bytes.extend_from_slice(b"record 999 0 - - 00");
    std::fs::write(&old, &bytes).unwrap();

    FAIL_WRITES.with(|f| f.set(true));
    let mut j = Journal::adopt(&old).unwrap();
    assert!(j.record(&game("1. e4 e5"), None, false, None).is_err());
    FAIL_WRITES.with(|f| f.set(false));
    // Renamed to this process, nothing lost, the torn tail cut.
    assert!(!old.exists());
    assert_eq!(pid_of(j.path()), Some(std::process::id()));
    assert_eq!(std::fs::read(j.path()).unwrap(), good);
    j.record(&game("1. e4 e5"), None, false, None).unwrap();
    let c = read(j.path());
    assert_eq!((c.records, c.torn), (2, false));
    assert_eq!(c.last.unwrap().pgn, write_game_to_string(&game("1. e4 e5")));
}

#[test]
fn a_deleted_journal_is_noticed() {
    let dir = tempfile::tempdir().unwrap();
    let j = Journal::create(dir.path(), None).unwrap();
    assert!(!j.is_gone());
    std::fs::remove_file(j.path()).unwrap();
    assert!(j.is_gone());
    // Replaced by another file of the same name: gone too.
    std::fs::write(j.path(), "x").unwrap();
    assert!(j.is_gone());
}

#[test]
fn a_journal_directory_that_is_a_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("journal");
    std::fs::write(&file, "").unwrap();
    let e = Journal::create(&file, None).unwrap_err().to_string();
    assert!(e.contains("is a file, not a directory"), "{e}");
    assert!(e.contains(&file.display().to_string()), "{e}");
    let e = crate::store::scan(&file).unwrap_err().to_string();
    assert!(e.contains("is a file, not a directory"), "{e}");
}
