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
    fn convert_twice_is_convert_once_on_pgn_soup(data in pgn_soup()) {
        invariants::convert_stable(&data);
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

/// The inputs the fuzz targets found (and a few seeds), one folder per target under
/// `tests/data/fuzz-regressions/`, each replayed through the same checks as its target.
#[test]
fn every_input_kept_from_fuzzing_still_passes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz-regressions");
    let mut replayed = 0;
    let mut targets: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    targets.sort();
    for dir in targets {
        let target = dir
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let mut inputs: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        inputs.sort();
        for input in inputs {
            let data = std::fs::read(&input).expect("the input reads");
            let text = || std::str::from_utf8(&data).ok();
            eprintln!("replaying {}", input.display());
            match target.as_str() {
                // As libfuzzer does for a `&str` target: bytes that are not UTF-8 are skipped.
                "notation" => text().into_iter().for_each(invariants::notation_reads_back),
                "fen" => text().into_iter().for_each(invariants::fen_round_trips),
                "pgn_readers" => invariants::readers_agree(&data),
                "pgn_write_read" => invariants::write_read_identity(&data),
                "convert_stable" => invariants::convert_stable(&data),
                "app_update" => invariants::app_survives(&data),
                "pgn_differential" => {
                    invariants::readers_agree(&data);
                    invariants::chunks_agree(&data);
                }
                other => panic!("{}: no fuzz target is named {other}", dir.display()),
            }
            replayed += 1;
        }
    }
    assert!(
        replayed >= 4,
        "only {replayed} inputs under {}",
        root.display()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn chunked_readers_index_and_catalog_agree_on_pgn_soup(data in pgn_soup()) {
        invariants::chunks_agree(&data);
    }

    #[test]
    fn chunked_readers_index_and_catalog_agree_on_random_bytes(
        data in proptest::collection::vec(any::<u8>(), 0..200)
    ) {
        invariants::chunks_agree(&data);
    }
}
