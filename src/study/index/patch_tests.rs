//! An index patched over one game replaced answers as the index built from the new file
//! does — game by game, column by column, position by position — and where the hot
//! positions and the table's shape stay the same, it is that index byte for byte.

use super::patch::{patch, Replaced};
use super::tests::{games, index};
use super::{Bytes, Index};
use crate::notation::Lang;
use crate::position::Position;

/// Positions are hot from this many games on (the test's games share their openings).
const HOT: u32 = 20;

/// Game `i` (0 is the first) of `pgn`: its offset and its text.
fn game_text(pgn: &str, i: usize) -> (usize, &str) {
    let e = &crate::pgn::index(pgn.as_bytes())[i];
    let (from, to) = (e.offset as usize, (e.offset + e.len) as usize);
    (from, &pgn[from..to])
}

/// `pgn` with game `i` replaced by `text`, and `before` (its index) patched to match.
fn replaced(pgn: &str, before: &Index, i: usize, text: &str) -> (String, Option<Index>) {
    let (offset, old) = game_text(pgn, i);
    let new_pgn = format!("{}{text}{}", &pgn[..offset], &pgn[offset + old.len()..]);
    let r = Replaced {
        offset: offset as u64,
        old: old.as_bytes(),
        new: text.as_bytes(),
    };
    let size = new_pgn.len() as u64;
    let bytes = patch(before, &r, Lang::english(), "test.pgn", size, (0, 0));
    let patched = bytes.map(|b| Index::open(Bytes::Owned(b)).expect("the patched index opens"));
    (new_pgn, patched)
}

/// Asserts that `a` and `b` answer alike: each game's record and columns, and the search
/// and the tree of the positions (all of the first 200, then every seventh).
fn same_answers(a: &Index, b: &Index, positions: &[Position], what: &str) {
    assert_eq!(a.games(), b.games(), "{what}");
    assert_eq!(a.header().problems, b.header().problems, "{what}");
    let (ca, cb) = (a.columns().expect("columns"), b.columns().expect("columns"));
    for g in 0..a.games() {
        assert_eq!(a.game(g), b.game(g), "{what}: game {g}");
        assert_eq!(ca.game(g), cb.game(g), "{what}: columns of game {g}");
    }
    for (i, pos) in positions.iter().enumerate() {
        if i > 200 && i % 7 != 0 {
            continue;
        }
        let fen = pos.fen();
        assert_eq!(a.search(pos), b.search(pos), "{what}: search {fen}");
        assert_eq!(a.tree(pos), b.tree(pos), "{what}: tree {fen}");
    }
}

/// `text` with its Date tag's year made `year`.
fn dated(text: &str, year: u32) -> String {
    let at = text.find("[Date \"").expect("a Date tag") + 7;
    format!("{}{year}{}", &text[..at], &text[at + 4..])
}

#[test]
fn a_patched_index_answers_as_one_built_from_the_saved_file() {
    let (pgn, positions, _) = games(300);
    let before = index(&pgn, HOT);
    assert!(before.header().hot > 5, "some positions are hot");
    let plies = |g: usize| before.game(g as u32).expect("a game").plies;
    let text = |g: usize| game_text(&pgn, g).1.to_string();
    let k = (40..300)
        .find(|&g| (25..45).contains(&plies(g)))
        .expect("a game of middling length");
    let longer = (0..300)
        .find(|&g| plies(g) > plies(k) + 10)
        .expect("a longer game");
    let shorter = (0..300)
        .find(|&g| plies(g) + 10 < plies(k))
        .expect("a shorter game");
    let latest = (0..300)
        .max_by_key(|&g| before.game(g as u32).expect("a game").info.year)
        .expect("a game");
    let cases: Vec<(&str, usize, String)> = vec![
        ("a longer main line", k, text(longer)),
        ("a shorter main line", k, text(shorter)),
        ("the same moves, a new year and result", k, {
            dated(&text(k), 2040).replace("\"]\n\n", "\"]\n[Annotator \"x\"]\n\n")
        }),
        (
            "the latest game made the oldest",
            latest,
            dated(&text(latest), 1980),
        ),
        ("a game from a position of its own", k, text(5)),
        ("the game from a position, from the start", 5, text(k)),
        ("the first game", 0, text(longer)),
        ("the last game", 299, text(shorter)),
        ("knights out and back", 7, text(3)),
    ];
    let mut same_bytes = 0;
    for (what, at, new) in &cases {
        let (new_pgn, patched) = replaced(&pgn, &before, *at, new);
        let patched = patched.unwrap_or_else(|| panic!("{what}: patched"));
        let built = index(&new_pgn, HOT);
        same_answers(&patched, &built, &positions, what);
        // One more game or less at a position can make it hot or not in a build, or
        // change the table's shape: the patch keeps those of the index before. Else the
        // bytes are the build's.
        let (p, b) = (patched.header(), built.header());
        if p.hot == b.hot && p.shape == b.shape {
            assert!(*patched.bytes == *built.bytes, "{what}: the bytes differ");
            same_bytes += 1;
        }
    }
    // Both kinds are covered: most cases keep the hot positions (a position of the
    // middling game is reached by exactly HOT games, which the longer one does not reach).
    assert!(
        (5..cases.len()).contains(&same_bytes),
        "{same_bytes} of {}",
        cases.len()
    );
}

/// Patching again and again, as saves in a row do, answers as the build of the file after
/// them all: here a game made the latest of every position it reaches early (2040), then
/// the oldest (1980), so that each of its rows of the hot positions has its latest year
/// worked out again from the other games; then another game replaced.
#[test]
fn patches_follow_one_another() {
    let (pgn, positions, _) = games(120);
    let mut now = (pgn.clone(), index(&pgn, HOT));
    let steps = [
        (10, dated(game_text(&pgn, 50).1, 2040)),
        (10, dated(game_text(&pgn, 50).1, 1980)),
        (60, game_text(&pgn, 11).1.to_string()),
    ];
    for (i, (at, text)) in steps.iter().enumerate() {
        let (pgn, patched) = replaced(&now.0, &now.1, *at, text);
        now = (pgn, patched.unwrap_or_else(|| panic!("patch {i}")));
        same_answers(
            &now.1,
            &index(&now.0, HOT),
            &positions,
            &format!("patch {i}"),
        );
    }
}

/// What does not fit the index is not patched: an old text that is not the game the
/// index holds there, an offset where no game starts, sizes that do not add up, two
/// games for one, a damaged index.
#[test]
fn a_patch_that_does_not_fit_is_refused() {
    // (Enough games for several blocks: a damaged one is found when read.)
    let (pgn, _, _) = games(600);
    let before = index(&pgn, HOT);
    let (offset, old) = game_text(&pgn, 20);
    let other = game_text(&pgn, 21).1;
    let new = game_text(&pgn, 30).1;
    let size = |old: &str, new: &str| (pgn.len() + new.len() - old.len()) as u64;
    let try_patch = |index: &Index, offset: usize, old: &str, new: &str, size: u64| {
        let r = Replaced {
            offset: offset as u64,
            old: old.as_bytes(),
            new: new.as_bytes(),
        };
        patch(index, &r, Lang::english(), "test.pgn", size, (0, 0)).is_some()
    };
    assert!(try_patch(&before, offset, old, new, size(old, new)), "fits");
    assert!(!try_patch(&before, offset, other, new, size(other, new)));
    assert!(!try_patch(&before, offset + 1, old, new, size(old, new)));
    assert!(!try_patch(&before, offset, old, new, size(old, new) + 1));
    let two = format!("{new}\n\n{new}");
    assert!(!try_patch(&before, offset, old, &two, size(old, &two)));
    let mut bytes = before.bytes.to_vec();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x5a;
    let damaged = Index::open(Bytes::Owned(bytes)).expect("opens: the block is not read yet");
    assert!(!try_patch(&damaged, offset, old, new, size(old, new)));
}
