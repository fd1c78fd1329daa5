//! The filter's matching: words, typos, fields, and narrowing as letters are typed.

use super::*;

fn word(query: &str, text: &str) -> bool {
    Word::new(query).matches(text, letters(text.as_bytes()))
}

#[test]
fn parts_of_names_and_typos() {
    assert!(word("carl", "carlsen, magnus"));
    assert!(word("mag", "carlsen, magnus"));
    assert!(word("carlsen, mag", "carlsen, magnus"));
    assert!(word(", mag", "carlsen, magnus"));
    assert!(word("lagrave", "vachier-lagrave, maxime"));
    assert!(word("carlsn", "carlsen, magnus"));
    assert!(word("carslen", "carlsen, magnus"));
    assert!(word("karlsen", "carlsen, magnus"));
    assert!(word("magnsu", "carlsen, magnus"));
    assert!(word("carlssen", "carlsen, magnus"));
    assert!(word("nepomniachi", "nepomniachtchi, ian"));
    // Short words must be exact: three letters with a typo would match everything.
    assert!(!word("crl", "carlsen, magnus"));
    // Part of a name, but not from the start of one of its words.
    assert!(!word("sen, mag", "carlsen, magnus"));
    assert!(!word("arls", "carlsen, magnus"));
    assert!(!word("anand", "praggnanandhaa, r"));
    assert!(word("anand", "anand, viswanathan"));
    assert!(!word("karl", "carlsen, magnus"));
    // One typo for five to eight letters, not two.
    assert!(!word("carlos", "carlsen, magnus"));
    assert!(!word("carlsen", "caruana, fabiano"));
    assert!(!word("kasparov", "karpov, anatoly"));
}

/// The search over a whole table, in pieces as batches come, finds what matching each
/// string by itself finds.
#[test]
fn table_search_agrees_with_string_by_string() {
    use super::super::strings::Interner;
    let names = [
        "Carlsen, Magnus",
        "Carlsen",
        "carl",
        "Karlsen, M",
        "Anand",
        "Ljubojević",
        "xcarlsen",
        "carlsencarlsen",
        "Car",
        "lsen",
        "Nepomniachtchi, Ian",
        "Caruana",
        "Carlos",
        "Magnus Carlsen 2",
        "C a r l s e n",
        "carlssen",
        "Praggnanandhaa, R",
        "Vachier-Lagrave, Maxime",
        "anand-anand",
    ];
    let mut interner = Interner::new();
    for query in [
        "carlsen",
        "carlsn",
        "car",
        "sen",
        "magnus carlsen",
        "lju",
        "ian",
        "anand",
        "lagrave",
        "grave",
        ", mag",
    ] {
        let words: Vec<Word> = query.split(' ').map(Word::new).collect();
        let mut table = Strings::new();
        let mut hits = Hits::default();
        for chunk in names.chunks(5) {
            for n in chunk {
                interner.intern(n);
            }
            table.append(interner.take());
            hits.refresh(&table, &words);
        }
        interner = Interner::new();
        for id in 1..table.len() as u32 {
            let folded = table.folded(id);
            let set = letters(folded.as_bytes());
            let alone = words.iter().all(|w| w.matches(folded, set));
            assert_eq!(hits.get(id), alone, "{query:?} in {folded:?}");
        }
        assert!(!hits.get(0));
    }
}

/// A letter typed at the end of a word leaves fewer candidates, never more, while the
/// typos allowed stay the same, and a match is always a candidate.
#[test]
fn a_letter_typed_only_narrows_the_candidates() {
    let fit = |q: &str, t: &str| Word::new(q).fit(t, letters(t.as_bytes()));
    assert!(fit("carlos", "carlsen, magnus").candidate);
    assert!(!fit("carlsse", "carlsen, magnus").matches);
    assert!(fit("carlssen", "carlsen, magnus").matches);
    let mut runner = proptest::test_runner::TestRunner::default();
    let words = ("[abc]{2,11}", "[abc]{1,12}( [abc]{1,12})?");
    runner
        .run(&words, |(longer, text)| {
            let shorter = &longer[..longer.len() - 1];
            let (long, short) = (fit(&longer, &text), fit(shorter, &text));
            proptest::prop_assert!(!long.matches || long.candidate);
            if typos_of(shorter) == typos_of(&longer) && long.candidate {
                proptest::prop_assert!(short.candidate, "{longer} {text}");
            }
            Ok(())
        })
        .unwrap();
}

/// A table large enough to be matched on several threads gives what matching each
/// string by itself gives.
#[test]
fn a_large_table_is_matched_in_parts_alike() {
    use super::super::strings::Interner;
    let mut interner = Interner::new();
    let mut seed = 7u32;
    let mut letter = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        b"abcde"[(seed >> 16) as usize % 5] as char
    };
    for _ in 0..3 * PER_THREAD {
        let name: String = (0..7).map(|_| letter()).collect();
        interner.intern(&name);
    }
    let mut table = Strings::new();
    table.append(interner.take());
    for query in ["abcde", "abcdeab", "bad"] {
        let words = [Word::new(query)];
        let mut hits = Hits::default();
        hits.refresh(&table, &words);
        for id in 1..table.len() as u32 {
            let (folded, set) = (table.folded(id), table.letters(id));
            assert_eq!(
                hits.get(id),
                words[0].matches(folded, set),
                "{query} {folded}"
            );
        }
    }
}

#[test]
fn typo_distance_counts_every_kind_of_edit() {
    let near = |q: &str, w: &str, k| near_prefix(q.as_bytes(), w.as_bytes(), k);
    assert!(near("abcde", "abcde", 0));
    assert!(near("abcde", "abcdefgh", 0));
    // Every single edit at the start is still found.
    assert!(near("xbcde", "abcde", 1));
    assert!(near("bcde", "abcde", 1));
    assert!(near("xabcde", "abcde", 1));
    assert!(near("bacde", "abcde", 1));
    assert!(!near("xycde", "abcde", 1));
    assert!(near("abxde", "abcde", 1));
    assert!(near("abde", "abcde", 1));
    assert!(near("abcxde", "abcde", 1));
    assert!(near("abdce", "abcde", 1));
    assert!(!near("axcxe", "abcde", 1));
    assert!(near("axcxe", "abcde", 2));
    assert!(!near("abcde", "", 1));
    // A start shorter than the query does not count: `carls` is not `carlos`.
    assert!(!near("carlos", "carlsen", 1));
    assert!(near("carlsn", "carlsen", 1));
}

/// A full name finds the games where the file writes it with initials, as a player
/// typing it expects; a word alone, or with another player's surname, does not.
#[test]
fn a_full_name_finds_the_games_written_with_initials() {
    use super::super::Catalog;
    let players = [
        ("Carlsen,M", "Anand,V"),
        ("Carlsen, Magnus", "Caruana, Fabiano"),
        ("Carlsen,H", "Nakamura,Hi"),
        ("Berg,M", "Mamedov,C"),
        ("Magnus Carlsen", "So,W"),
        ("Carlsenberg,M", "Praggnanandhaa, R"),
        ("Carlsen M", "Ljubojević,L"),
    ];
    let text: String = players
        .iter()
        .map(|(w, b)| format!("[White \"{w}\"]\n[Black \"{b}\"]\n\n1. e4 *\n\n"))
        .collect();
    let found = |query: &str| -> Vec<u64> {
        let mut c = Catalog::read(text.as_bytes()).unwrap();
        c.set_filter(query).unwrap();
        (0..c.matches()).map(|k| c.get(k).unwrap().number).collect()
    };
    let magnus = vec![1, 2, 5, 7];
    for query in [
        "magnus carlsen",
        "carlsen magnus",
        "Magnus CARLSEN",
        "magnus carlsn",
        "player:magnus player:carlsen",
        "player:\"magnus carlsen\"",
        "white:\"magnus carlsen\"",
        "\"carlsen magnus\"",
        "white:magnus carlsen",
    ] {
        assert_eq!(found(query), magnus, "{query}");
    }
    // A given name alone is no one's initial; a start of a surname is no surname.
    assert_eq!(found("magnus"), vec![2, 5]);
    assert_eq!(found("magnus carl"), vec![2, 5]);
    assert_eq!(found("magnus carlsenberg"), vec![6]);
    // `carlsen` is a start of Carlsenberg (as it always was), and `m` a start of
    // Mamedov, not his surname: `carlsen` does not name his C.
    assert_eq!(found("carlsen m"), vec![1, 2, 5, 6, 7]);
    // Black's name, and a shortening of the given name.
    assert_eq!(found("black:\"hikaru nakamura\""), vec![3]);
    assert_eq!(found("viswanathan anand"), vec![1]);
    assert_eq!(found("ljubomir ljubojevic"), vec![7]);
    // Still as before: typos, accents, a word's start only.
    assert_eq!(found("carlsn").len(), 6);
    assert_eq!(found("anand"), vec![1]);
    assert_eq!(found("black:ljubojevic"), vec![7]);
}

/// A name typed as files write it, with its comma, finds the player however the file
/// writes the name, as the words without the comma do.
#[test]
fn a_comma_parts_the_words_of_a_name() {
    let names = [
        "Carlsen, Magnus",
        "Carlsen,Magnus",
        "Magnus Carlsen",
        "Carlsen,M",
        "Carlsen,H",
    ];
    let text: String = names
        .iter()
        .map(|w| format!("[White \"{w}\"]\n[Black \"X\"]\n\n1. e4 *\n\n"))
        .collect();
    let mut c = crate::catalog::Catalog::read(text.as_bytes()).unwrap();
    let mut found = |q: &str| -> Vec<String> {
        c.set_filter(q).unwrap();
        (0..c.matches())
            .map(|i| c.get(i).unwrap().white.to_string())
            .collect()
    };
    let all = [
        "Carlsen, Magnus",
        "Carlsen,Magnus",
        "Magnus Carlsen",
        "Carlsen,M",
    ];
    assert_eq!(found("carlsen magnus"), all);
    assert_eq!(found("player:\"carlsen, magnus\""), all);
    assert_eq!(found("\"carlsen, magnus\""), all);
    assert_eq!(found("carlsen, magnus"), all);
    assert_eq!(found("white:\"carlsen,magnus\""), all);
    assert_eq!(found("\"carlsen, mag\""), all);
    assert!(c.set_filter(",").is_ok());
}
