//! The study thread's files, driven without the thread: indexes built, taken from
//! another process, carried over a save, and compressed files read from their copy.

use super::*;
use crate::study::index::cache::{self, Found};

/// Two games from the start, and one from a position of its own.
const PGN: &str = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
                   [Result \"0-1\"]\n\n1. e4 c5 0-1\n\n\
                   [Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n";

/// A folder holding `text` as `games.pgn`, and the files of a study thread whose
/// indexes go in it.
fn files_with(text: &str) -> (tempfile::TempDir, PathBuf, Files) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, text).expect("write the games");
    let files = Files::new(dir.path().join("index"));
    (dir, path, files)
}

fn sans(done: &Done) -> (Vec<(String, u64)>, String) {
    let Done::Tree {
        tree: Ok(tree),
        note,
        ..
    } = done
    else {
        panic!("no tree: {done:?}")
    };
    let moves = tree.branches.iter().map(|b| (b.san.clone(), b.games));
    (moves.collect(), note.clone())
}

/// A compressed file is read from the decoded copy its list made, once that is whole:
/// its tree and search count its games (not its compressed bytes), and its index is
/// kept as the file's own, when the file is still the version the copy is of. Without
/// the copy, the answer says how to get one.
#[test]
fn a_compressed_file_is_answered_from_its_decoded_copy() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let packed = dir.path().join("games.pgn.zst");
    let zst = |text: &str| zstd::encode_all(text.as_bytes(), 3).expect("compress");
    std::fs::write(&packed, zst(PGN)).expect("write the file");
    let index_dir = dir.path().join("index");
    let mut files = Files::new(index_dir.clone());
    let start = Position::start().fen();
    let Done::Tree { tree: Err(e), .. } = files.tree(&packed, start.clone()) else {
        panic!("a tree of compressed bytes")
    };
    assert!(e.contains("is compressed: open its list"), "{e}");
    let Done::Searched { found: Err(e), .. } = files.search(packed.clone(), start.clone()) else {
        panic!("a search of compressed bytes")
    };
    assert!(e.contains("is compressed"), "{e}");

    let copy = crate::store::Unpacked::create_in(&dir.path().join("copies"), &packed)
        .expect("decompress")
        .expect("a copy");
    let (text, size, modified) = copy.whole_text().expect("a whole copy");
    let decoded = Decoded {
        text: text.to_path_buf(),
        size,
        modified,
    };
    files.decoded(&packed, Some(decoded.clone()));
    let tree = files.tree(&packed, start.clone());
    assert_eq!(
        sans(&tree).0,
        [("e4".to_string(), 2), ("d4".to_string(), 1)]
    );
    let Done::Searched {
        found: Ok(found), ..
    } = files.search(packed.clone(), start.clone())
    else {
        panic!("no search")
    };
    assert_eq!(found, [(1, 0), (2, 0), (3, 0)]);
    let stamp = Stamp::of_in(&packed, &index_dir).expect("a stamp");
    assert!(matches!(cache::find(&stamp), Found::Fresh(_)));

    // Changed by another program since the copy was made: the copy's version is
    // answered, and no index of it is kept for the file as it is now.
    std::fs::remove_dir_all(&index_dir).expect("forget the index");
    let mut files = Files::new(index_dir.clone());
    files.decoded(&packed, Some(decoded));
    let more = format!("{PGN}\n[Result \"*\"]\n\n1. c4 *\n");
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&packed, zst(&more)).expect("rewrite the file");
    let tree = files.tree(&packed, start);
    assert_eq!(sans(&tree).0.len(), 2, "the copy's games");
    let stamp = Stamp::of_in(&packed, &index_dir).expect("a stamp");
    assert!(!matches!(cache::find(&stamp), Found::Fresh(_)));
}

#[test]
fn while_another_process_builds_the_index_the_tree_is_read_through_then_taken_from_it() {
    let (dir, path, mut files) = files_with(PGN);
    let stamp = files.stamp(&path).expect("a stamp");
    // Another process holds the builders' lock.
    let lock = cache::lock_building(&stamp)
        .expect("the cache can be written")
        .expect("nobody else holds the lock");
    let start = Position::start().fen();
    let done = files.tree(&path, start.clone());
    let counted = vec![("e4".to_string(), 2), ("d4".to_string(), 1)];
    assert_eq!(sans(&done), (counted.clone(), ELSEWHERE.to_string()));
    assert!(!stamp.index_file().exists(), "this process built nothing");
    // A search meanwhile is answered too, by reading the file through.
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let Done::Searched { found, .. } = files.search(path.clone(), after_e4.into()) else {
        panic!("no search answered")
    };
    assert_eq!(found, Ok(vec![(1, 1), (2, 1)]));
    assert!(files.look_again().is_empty(), "nothing new while it builds");

    // The other process stores its index and lets go of the lock: the tree at the
    // cursor comes again, from the index, without the note.
    let mut other = Files::new(dir.path().join("other"));
    assert!(matches!(
        other.tree(&path, start.clone()),
        Done::Tree { tree: Ok(_), .. }
    ));
    let built = other.stamp(&path).expect("a stamp").index_file();
    std::fs::copy(built, stamp.index_file()).expect("the other index is stored");
    drop(lock);
    let again = files.look_again();
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(sans(&again[0]), (counted, String::new()));
    assert!(files.elsewhere.is_empty());
    assert!(files.indexes.contains_key(&path), "answered from the index");
}

/// The app's save of one game in place carries the index over to the file as saved:
/// stored in the cache for the new file, without reading the file and without the
/// builders' lock (another process holds it here, so no build could happen), and the
/// tree after the save comes from it, as an index built from the saved file gives it.
#[test]
fn after_a_save_in_place_the_tree_comes_from_the_index_carried_over() {
    use std::os::unix::fs::MetadataExt;
    let (dir, path, mut files) = files_with(PGN);
    let start = Position::start().fen();
    let counted = vec![("e4".to_string(), 2), ("d4".to_string(), 1)];
    assert_eq!(sans(&files.tree(&path, start.clone())).0, counted);
    let before = files.stamp(&path).expect("a stamp");
    let built = std::fs::metadata(before.index_file()).expect("the index is stored");
    let lock = cache::lock_building(&before)
        .expect("the cache can be written")
        .expect("nobody else holds the lock");

    // The second game saved with another main line (and a longer text).
    let text = PGN.as_bytes();
    let e = &crate::pgn::index(text)[1];
    let slot = crate::store::save::Slot::of(text, e.offset as usize, e.len as usize);
    let game = "[Result \"0-1\"]\n\n1. d4 Nf6 2. c4 e6 0-1\n";
    let (_, spliced) =
        crate::store::save::save_game_spliced(&path, Some(&slot), game, false).expect("saved");
    files.carry(&path, &spliced.expect("saved in place"));
    let after = files.stamp(&path).expect("a stamp");
    assert_ne!(after, before);
    let Found::Fresh(_) = cache::find(&after) else {
        panic!("no index of the saved file in the cache")
    };
    let carried = std::fs::metadata(after.index_file()).expect("the index is stored");
    assert_ne!(carried.ino(), built.ino(), "a new index was stored");

    let moved = vec![("d4".to_string(), 2), ("e4".to_string(), 1)];
    assert_eq!(
        sans(&files.tree(&path, start.clone())),
        (moved.clone(), String::new())
    );
    let after_d4 = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1";
    let Done::Searched { found, .. } = files.search(path.clone(), after_d4.into()) else {
        panic!("no search answered")
    };
    assert_eq!(found, Ok(vec![(2, 1), (3, 1)]));
    drop(lock);
    // The same as an index built from the saved file says; and the one carried over
    // was not written again.
    let mut other = Files::new(dir.path().join("other"));
    assert_eq!(sans(&other.tree(&path, start)), (moved, String::new()));
    let now = std::fs::metadata(after.index_file()).expect("the index is stored");
    assert_eq!(
        (now.ino(), now.mtime_nsec()),
        (carried.ino(), carried.mtime_nsec())
    );
}

#[test]
fn the_tree_of_a_big_file_waits_for_the_index_another_process_builds() {
    // Padding in a comment makes the file bigger than is read at every move.
    let padding = "x".repeat(READ_THROUGH_MAX as usize);
    let (_dir, path, mut files) = files_with(&format!("{PGN}\n{{{padding}}}\n"));
    let stamp = files.stamp(&path).expect("a stamp");
    let lock = cache::lock_building(&stamp)
        .expect("the cache can be written")
        .expect("nobody else holds the lock");
    let done = files.tree(&path, Position::start().fen());
    let Done::Tree {
        tree: Err(status), ..
    } = &done
    else {
        panic!("a tree read through: {done:?}")
    };
    assert!(status.starts_with(ELSEWHERE), "{status}");
    // The other process gives up without an index: this one builds it.
    drop(lock);
    let again = files.look_again();
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(sans(&again[0]).0[0], ("e4".to_string(), 2));
    assert!(stamp.index_file().exists());
}
