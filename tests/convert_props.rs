//! `convert` over random PGN-like text: nothing is lost and a second run loses nothing more.
//! The output holds as many games as the input, and converting the output again gives the
//! same text (but for the `%` notes, whose line numbers move).

use proptest::prelude::*;
use scoresheet::cli::convert::{convert_stream, How};
use scoresheet::notation::Lang;
use scoresheet::pgn::{index, WriteOptions, MAX_GAME};

/// Words PGN is made of, broken or not: tags, moves (legal from the start or not), comments
/// left open, variations, results, `%` lines (one with a brace, a note of an earlier run),
/// blank lines.
#[rustfmt::skip]
const SOUP: &[&str] = &[
    "[Event \"x\"]\n", "[Site \"y\"]\n", "[Result \"1-0\"]\n", "[Result \"*\"]\n", "1.", "2.", "e4", "e5",
    "d4", "Nf3", "Nc6", "Ke3", "Qh4#", "f3", "g4", "O-O", "{c}", "{", "}", "(", ")", ";c\n", "\n%x\n",
    "\n%y }\n", "\n% scoresheet: game 9 copied as written, not converted: old\n",
    "1-0", "0-1", "1/2-1/2", "*", " ", " ", " ", "\n", "\n\n", "\n\n", "$3", "!?",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(SOUP), 0..80).prop_map(|w| w.join(" "))
}

fn convert(text: &str) -> String {
    let how = How {
        input: Lang::english(),
        options: WriteOptions::default(),
        fix_results: false,
        max_game: MAX_GAME,
        eco: None,
    };
    let mut out = Vec::new();
    let converted = convert_stream(
        text.as_bytes(),
        &how,
        "soup",
        &mut out,
        &mut std::io::sink(),
    );
    assert!(converted.is_ok(), "reading from memory cannot fail");
    String::from_utf8(out).expect("UTF-8 output")
}

fn without_notes(s: &str) -> String {
    s.lines()
        .filter(|l| !l.starts_with("% scoresheet:"))
        .collect::<Vec<_>>()
        .join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn convert_keeps_every_game_and_is_stable(text in soup()) {
        let once = convert(&text);
        prop_assert_eq!(index(once.as_bytes()).len(), index(text.as_bytes()).len(), "{}", once);
        let twice = convert(&once);
        prop_assert_eq!(without_notes(&twice), without_notes(&once));
    }
}
