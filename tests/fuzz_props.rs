//! The fuzz targets' properties (`fuzz/`, shared in `tests/invariants`), run here on a
//! bounded number of random inputs so that every `cargo test` tries them: random bytes,
//! PGN-like soup made of the tokens that trip readers, move-like text, FEN-like text.

mod invariants;

use proptest::prelude::*;

/// Pieces of PGN that trip readers: tag lines, comments opened and not closed, variations,
/// `%` lines, results, blank lines, escapes, CRLF, a byte-order mark, Windows-1252 bytes.
fn pgn_soup() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        Just("[Event \"e\"]\n".to_string()),
        Just("[White \"W \\\"x\\\"\"]\n".to_string()),
        Just("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n".to_string()),
        Just("[Variant \"Chess960\"]\n".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\n\n".to_string()),
        Just("1. e4 ".to_string()),
        Just("e5 ".to_string()),
        Just("2. Nf3 Nc6 ".to_string()),
        Just("Kxx ".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("{ c } ".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("( 1... d5 ) ".to_string()),
        Just("; line\n".to_string()),
        Just("%escape\n".to_string()),
        Just("$1 ".to_string()),
        Just("1-0".to_string()),
        Just("0-1 ".to_string()),
        Just("1/2-1/2\n".to_string()),
        Just("* ".to_string()),
        Just("\u{feff}".to_string()),
        Just("-- ".to_string()),
        "[ -~]{0,8}".prop_map(|s| s),
    ];
    (
        proptest::collection::vec(token, 0..40),
        proptest::collection::vec(any::<u8>(), 0..4),
    )
        .prop_map(|(tokens, noise)| {
            let mut bytes = tokens.concat().into_bytes();
            // A few raw bytes (Windows-1252, broken UTF-8) somewhere.
            for (i, b) in noise.iter().enumerate() {
                let at = (usize::from(*b) * (i + 7)) % (bytes.len() + 1);
                bytes.insert(at, *b);
            }
            bytes
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn readers_agree_on_random_bytes(data in proptest::collection::vec(any::<u8>(), 0..300)) {
        invariants::readers_agree(&data);
    }

    #[test]
    fn readers_agree_on_pgn_soup(data in pgn_soup()) {
        invariants::readers_agree(&data);
    }

    #[test]
    fn write_then_read_is_the_identity_on_pgn_soup(data in pgn_soup()) {
        invariants::write_read_identity(&data);
    }

    #[test]
    fn move_text_reads_back(text in "[KQRBNPSLTDa-h1-8xX:=+#!?() -]{0,8}") {
        invariants::notation_reads_back(&text);
    }

    #[test]
    fn fen_text_round_trips(
        text in prop_oneof![
            "[rnbqkpRNBQKP1-8/]{1,40} [wb] [KQkq-]{1,4} [a-h36-]{1,2} [0-9]{1,3} [0-9]{1,3}",
            any::<String>(),
        ]
    ) {
        invariants::fen_round_trips(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn the_recorder_survives_any_keys_and_its_journal_gives_the_game_back(
        keys in proptest::collection::vec(any::<u8>(), 0..120)
    ) {
        invariants::app_survives(&keys);
    }
}
