//! The `pos:` term: how it reads (moves from the start, a FEN, `start`), how its games
//! come in from the position search (asked once, kept), how it combines with the other
//! terms, and where opening a game goes.

use super::query::{parse, Term};
use super::*;

/// The example list's games: moves only, a player each, a result each.
const GAMES: &str = "\
[White \"Alpha\"]\n[Result \"1-0\"]\n\n1. e4 c5 2. Nf3 d6 1-0\n\n\
[White \"Beta\"]\n[Result \"0-1\"]\n\n1. Nf3 c5 2. e4 Nc6 0-1\n\n\
[White \"Gamma\"]\n[Result \"1-0\"]\n\n1. d4 d5 1-0\n\n\
[White \"Delta\"]\n[Result \"1-0\"]\n\n1. e4 c5 2. Nc3 1-0\n\n";

fn shown(c: &Catalog) -> Vec<u64> {
    c.page(0, usize::MAX).iter().map(|g| g.number).collect()
}

fn key(query: &str) -> String {
    match &parse(query).expect(query).terms[..] {
        [Term::Position(key)] => key.clone(),
        terms => panic!("{query}: {terms:?}"),
    }
}

#[test]
fn moves_a_fen_and_start_read_as_positions() {
    // No en-passant square: no capture is possible (as the search counts positions).
    let after = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -";
    assert_eq!(key("pos:\"1. e4 c5\""), after);
    // Move numbers optional, any notation the reader takes, a FEN with its counters.
    assert_eq!(key("pos:\"e4 c5\""), after);
    assert_eq!(key("pos:\"1. e2e4 c7c5\""), after);
    assert_eq!(key(&format!("pos:\"{after} 0 2\"")), after);
    assert_eq!(
        key("pos:\"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2\""),
        after
    );
    // One position by two move orders (the square of 2. e4 dropped: no capture).
    assert_eq!(
        key("pos:\"1. e4 c5 2. Nf3\""),
        key("pos:\"1. Nf3 c5 2. e4\"")
    );
    // A square kept where the capture is legal.
    assert!(key("pos:\"1. e4 Nf6 2. e5 d5\"").ends_with(" d6"));
    assert_eq!(
        key("position:start"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    );
    // Quoted with other terms around it.
    let q = parse("carlsen pos:\"1. d4 Nf6\" result:1-0").expect("reads");
    assert_eq!(q.terms.len(), 3);
    assert!(matches!(q.terms[1], Term::Position(_)));
}

#[test]
fn a_position_that_does_not_read_says_where_and_why() {
    // The move that cannot be played, at its column in the whole filter.
    let e = parse("x pos:\"1. e4 e5 2. Ke3\"").unwrap_err();
    assert_eq!((e.column, e.token.as_str()), (20, "Ke3"));
    assert!(matches!(e.kind, QueryErrorKind::BadPosition(_)));
    let message = e.to_string();
    assert!(message.starts_with("column 20, \"Ke3\": "), "{message}");
    assert!(message.contains("pos:\"1. e4 c5 2. Nf3\""), "{message}");
    // A FEN that does not read says which field.
    let e = parse("pos:\"rnbqkbnr/pppppppp/8/8 w\"").unwrap_err();
    assert_eq!(e.column, 6);
    assert!(matches!(e.kind, QueryErrorKind::BadPosition(_)));
    assert_eq!(
        parse("pos:").unwrap_err().kind,
        QueryErrorKind::MissingValue
    );
}

#[test]
fn the_games_come_from_the_search_once_and_combine_with_the_other_terms() {
    let mut c = Catalog::read(GAMES.as_bytes()).expect("reads");
    c.set_filter("pos:\"1. e4 c5 2. Nf3\" result:1-0")
        .expect("reads");
    // Waiting for the search: every game the other terms let through is shown.
    assert!(c.searching());
    assert_eq!(shown(&c), [1, 3, 4]);
    let asked = c.position_requests();
    assert_eq!(asked, [key("pos:\"1. e4 c5 2. Nf3\"")]);
    assert!(c.position_requests().is_empty(), "asked once");
    // Games 1 and 2 reach it (by two move orders); game 1 won by White.
    c.found(&asked[0], vec![(2, 3), (1, 3)]);
    assert!(!c.searching());
    assert_eq!(shown(&c), [1]);
    assert_eq!(c.reached(1), Some(3));
    assert_eq!(c.reached(4), None);
    // Another filter with the same position uses the answer kept.
    c.set_filter("pos:\"1. Nf3 c5 2. e4\"").expect("reads");
    assert!(!c.searching());
    assert!(c.position_requests().is_empty());
    assert_eq!(shown(&c), [1, 2]);
    assert_eq!(c.reached(2), Some(3));
    // A save rewrites a game: the answer may be wrong now, and is asked for again.
    c.retag(
        0,
        "[White \"Alpha\"]\n[Result \"1-0\"]\n\n1. e4 c5 2. Nf3 d6 1-0\n",
    );
    assert!(c.searching());
    assert_eq!(c.position_requests().len(), 1);
    assert_eq!(shown(&c), [1, 2, 3, 4]);
}

#[test]
fn a_failed_search_lets_no_game_through_and_is_asked_again_when_typed_again() {
    let mut c = Catalog::read(GAMES.as_bytes()).expect("reads");
    c.set_filter("pos:\"1. d4\"").expect("reads");
    let asked = c.position_requests();
    c.search_failed(&asked[0]);
    assert!(!c.searching());
    assert_eq!(shown(&c), Vec::<u64>::new());
    c.set_filter("").expect("reads");
    c.set_filter("pos:\"1. d4\"").expect("reads");
    assert_eq!(c.position_requests(), asked);
}
