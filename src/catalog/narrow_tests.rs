//! Typing narrows: the list filtered keystroke by keystroke (each filter checking only what
//! the one before matched) shows what a filter of the whole list shows, on random names
//! and random typing.

use proptest::prelude::*;

use super::Catalog;

/// A file of one game per pair of names.
fn games(names: &[(String, String)]) -> String {
    names
        .iter()
        .enumerate()
        .map(|(k, (white, black))| {
            format!("[Event \"e{k}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\n1. e4 *\n\n")
        })
        .collect()
}

fn shown(c: &Catalog) -> Vec<u64> {
    (0..c.matches()).map(|k| c.get(k).unwrap().number).collect()
}

/// Names of a few letters from a small alphabet, so that words are often a typo or two
/// apart; some with two words.
fn name() -> impl Strategy<Value = String> {
    "[abc]{3,10}( [abc]{2,6})?"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn typing_a_query_letter_by_letter_matches_a_filter_from_scratch(
        names in proptest::collection::vec((name(), name()), 1..40),
        typed in "(white:)?[abc]{1,12}( [abc]{1,10})?",
    ) {
        let text = games(&names);
        let mut typing = Catalog::read(text.as_bytes()).unwrap();
        for end in (1..=typed.len()).filter(|&n| typed.is_char_boundary(n)) {
            let query = &typed[..end];
            // A prefix such as `white:` alone may not read; it leaves the list as it was.
            if typing.set_filter(query).is_err() {
                continue;
            }
            let mut fresh = Catalog::read(text.as_bytes()).unwrap();
            fresh.set_filter(query).unwrap();
            prop_assert_eq!(shown(&typing), shown(&fresh), "after typing {:?}", query);
        }
    }
}
