//! Hostile input through the whole PGN pipeline (reader, game builder, writer):
//! nothing panics, nothing hangs, and the good games around the bad ones survive.

use proptest::prelude::*;
use scoresheet::pgn::{read_games, write_game_to_string};

const GOOD: &str = "[Event \"good\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";

#[test]
fn fifty_thousand_nested_variations_with_moves() {
    let depth = 50_000;
    let mut text = String::from("[Event \"deep\"]\n\n1. e4 ");
    for _ in 0..depth {
        text.push_str("( 1. d4 ");
    }
    for _ in 0..depth {
        text.push(')');
    }
    text.push_str(" 1... e5 *\n\n");
    text.push_str(GOOD);
    let games = read_games(text.as_bytes());
    assert_eq!(games.len(), 2);
    assert!(games[0].errors.is_empty(), "{:?}", &games[0].errors[..1]);
    // Every level holds 1. d4 as an alternative to the move before it; the writer
    // walks the tree without recursion.
    let written = write_game_to_string(&games[0].game);
    assert!(
        written.contains("1. e4 (1. d4) 1... e5 *"),
        "{}",
        &written[..200]
    );
    assert!(games[1].errors.is_empty());
}

#[test]
fn a_two_megabyte_comment() {
    let comment = "x".repeat(2 << 20);
    let text = format!("[Event \"big\"]\n\n1. e4 {{{comment}}} e5 *\n\n{GOOD}");
    let games = read_games(text.as_bytes());
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0]
            .game
            .node(games[0].game.mainline()[0])
            .comments_after[0]
            .len(),
        2 << 20
    );
    assert!(games[1].errors.is_empty());
}

#[test]
fn a_bad_game_does_not_cost_its_neighbours() {
    let text = format!(
        "{GOOD}[Event \"bad\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n{GOOD}[Event \"unclosed\"]\n\n1. e4 {{ never closed\n\n{GOOD}"
    );
    let games = read_games(text.as_bytes());
    let events: Vec<_> = games
        .iter()
        .map(|g| g.game.tag("Event").unwrap_or(""))
        .collect();
    assert!(events.starts_with(&["good", "bad", "good"]), "{events:?}");
    assert!(games[0].errors.is_empty() && games[2].errors.is_empty());
    assert_eq!(games[1].plies, 2);
    assert!(!games[1].complete);
    assert!(games[1].errors[0].reason.contains("king cannot reach e3"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        for g in read_games(&bytes) {
            let _ = write_game_to_string(&g.game);
        }
    }

    #[test]
    fn pgn_like_soup_never_panics(parts in proptest::collection::vec(
        prop_oneof![
            Just("[Event \"x\"]\n"), Just("[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n"),
            Just("[Variant \"Crazyhouse\"]\n"), Just("1."), Just("1..."), Just(" e4"), Just(" e5"),
            Just(" Nf3"), Just(" O-O"), Just(" --"), Just(" ("), Just(" )"), Just(" {c}"), Just(" $1"),
            Just(" !?"), Just(" ;x\n"), Just("\n\n"), Just(" 1-0"), Just(" *"), Just(" exd6"),
            Just(" e8=Q"), Just("%esc\n"), Just(" {"), Just(" }"), Just("]"), Just("\u{feff}"),
        ], 0..60)) {
        let text: String = parts.concat();
        for g in read_games(text.as_bytes()) {
            let written = write_game_to_string(&g.game);
            // A clean game is written so that it reads back clean, with the same moves.
            if g.errors.is_empty() {
                let again = read_games(written.as_bytes());
                prop_assert_eq!(again.len(), 1, "{}", written);
                prop_assert!(again[0].errors.is_empty(), "{}\n{:?}", written, again[0].errors);
                prop_assert_eq!(
                    scoresheet::pgn::builder::mainline_moves(&again[0].game),
                    scoresheet::pgn::builder::mainline_moves(&g.game)
                );
            }
        }
    }
}

#[test]
fn a_game_longer_than_any_game_of_chess_stops_with_a_problem_and_its_tree_stays_small() {
    let text = format!(
        "[Event \"long\"]\n\n{}*\n\n[Event \"next\"]\n\n1. e4 *\n",
        "Nf3 Nf6 Ng1 Ng8 ".repeat(10)
    );
    let mut reader = scoresheet::pgn::SliceReader::new(text.as_bytes());
    let mut builder = scoresheet::pgn::GameBuilder::new(true).with_max_moves(12);
    let long = reader.read_game(&mut builder).expect("game 1");
    // The tree holds the limit, the rest is passed over with one problem, and the game
    // is not complete (so convert copies it through as written).
    assert_eq!(long.game.len(), 1 + 12);
    assert_eq!(long.errors.len(), 1, "{:?}", long.errors);
    assert!(
        long.errors[0]
            .reason
            .starts_with("more than 12 moves in one game"),
        "{}",
        long.errors[0].reason
    );
    assert_eq!(long.errors[0].token, "Nf3");
    assert!(!long.complete);
    // The next game reads as ever.
    let next = reader.read_game(&mut builder).expect("game 2");
    assert!(next.errors.is_empty() && next.complete);
    assert_eq!(next.game.len(), 2);
}
