use super::*;
use crate::position::parse_square;

fn mv(from: &str, to: &str) -> ChessMove {
    ChessMove::new(parse_square(from).unwrap(), parse_square(to).unwrap(), None)
}

fn start() -> Position {
    Position::start()
}

fn en() -> &'static Lang {
    Lang::english()
}

#[test]
fn lines_are_told_apart() {
    let pos = start();
    assert_eq!(read_entry("  ", &pos, en()), Ok(Entry::Empty));
    assert_eq!(
        read_entry(":w x.pgn", &pos, en()),
        Ok(Entry::Command("w x.pgn".into()))
    );
    assert_eq!(
        read_entry("{good}", &pos, en()),
        Ok(Entry::Comment("good".into()))
    );
    assert_eq!(read_entry("½-½", &pos, en()), Ok(Entry::Result("1/2-1/2")));
    assert_eq!(read_entry("1–0", &pos, en()), Ok(Entry::Result("1-0")));
    assert_eq!(read_entry("!?", &pos, en()), Ok(Entry::Glyph(5)));
    assert_eq!(read_entry("(=)", &pos, en()), Ok(Entry::DrawOffer));
    assert_eq!(
        read_entry("+83", &pos, en()),
        Ok(Entry::Clock("+83".into()))
    );
    assert!(read_entry("+1:99", &pos, en()).is_err());
}

#[test]
fn several_moves_with_numbers_clocks_and_marks() {
    let Ok(Entry::Moves(moves)) =
        read_entry("1. e4 +1:29 e5 2.Nf3! (=) Nc6 +1:28:30", &start(), en())
    else {
        panic!("not read");
    };
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[0].clock.as_deref(), Some("+1:29"));
    assert_eq!(moves[2].nag, Some(1));
    assert!(moves[2].draw_offer);
    assert_eq!(moves[3].clock.as_deref(), Some("+1:28:30"));
}

#[test]
fn a_bad_word_stops_the_whole_line() {
    let err = read_entry("e4 e5 Ke3", &start(), en()).unwrap_err();
    // The word is named with its move number: the line's moves are not on the board.
    assert_eq!(err.token, "2. Ke3");
    assert!(err.reason.contains("illegal"), "{}", err.reason);
    // `0-0 0-0` where only White may castle: the refusal is Black's second word.
    let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQ - 0 21").expect("FEN");
    let err = read_entry("0-0 0-0", &pos, en()).unwrap_err();
    assert_eq!(
        err.to_string().split(':').next(),
        Some("21... 0-0"),
        "{err}"
    );
    // The first word alone is named as typed.
    let err = read_entry("Ke3 e5", &start(), en()).unwrap_err();
    assert_eq!(err.token, "Ke3");
}

/// A German player's `Sf3` typed in English: refused, with the languages it is a move in
/// and the command that reads them; a word that is no move anywhere gets no such hint.
#[test]
fn a_move_in_another_language_says_which_and_how_to_type_it() {
    let pos = start();
    let err = read_entry("Sf3", &pos, en()).unwrap_err();
    assert!(
        err.reason.contains("'S' is not a piece letter in English"),
        "{}",
        err.reason
    );
    assert!(
        err.reason.contains("it is a move in German"),
        "{}",
        err.reason
    );
    assert!(err.reason.ends_with(":lang de reads it"), "{}", err.reason);
    // Live, while typed, too.
    assert!(
        matches!(feedback("Sf3", &pos, en()), Feedback::Illegal(r) if r.contains(":lang de")),
        "{:?}",
        feedback("Sf3", &pos, en())
    );
    // In the third word of a line, in the position that word is played in.
    let err = read_entry("e4 e5 Sf3", &pos, en()).unwrap_err();
    assert!(err.reason.contains(":lang de"), "{}", err.reason);
    // Not a move in any language: the reason alone.
    let err = read_entry("Xf3", &pos, en()).unwrap_err();
    assert!(!err.reason.contains(":lang"), "{}", err.reason);
    // Read in German, an English knight move gets the way back.
    let de = crate::notation::LANGS
        .iter()
        .find(|l| l.code == "de")
        .unwrap();
    let err = read_entry("Nf3", &pos, de).unwrap_err();
    assert!(err.reason.contains(":lang en reads it"), "{}", err.reason);
}

#[test]
fn feedback_while_typing() {
    let pos = start();
    let Feedback::Partial(knights) = feedback("N", &pos, en()) else {
        panic!("N is a start")
    };
    assert_eq!(knights.len(), 4);
    let Feedback::Partial(to_f3) = feedback("Nf", &pos, en()) else {
        panic!()
    };
    assert_eq!(to_f3.len(), 1);
    assert_eq!(to_f3[0].get_dest(), parse_square("f3").unwrap());
    // Long algebraic is a start too: g1 → Ng1-f3, Ng1-h3.
    assert!(matches!(feedback("Ng1", &pos, en()), Feedback::Partial(m) if m.len() == 2));
    assert!(matches!(feedback("e4", &pos, en()), Feedback::Ready(_)));
    assert!(matches!(feedback("Ke2", &pos, en()), Feedback::Illegal(r) if r.contains("illegal")));
    assert!(matches!(feedback(":w", &pos, en()), Feedback::Note(_)));
}

#[test]
fn a_long_line_is_not_read_while_typed() {
    let pos = start();
    let note = |f: Feedback| matches!(f, Feedback::Note(n) if n.contains("Enter reads"));
    // The second word is illegal: reading the line would say so.
    assert!(note(feedback("e4 e4 Nf3 Nf6", &pos, en())));
    assert!(note(feedback(&"e4".repeat(50), &pos, en())));
    // Short lines are read whole, in the board's position.
    assert!(matches!(feedback("1. e4", &pos, en()), Feedback::Ready(_)));
    assert!(matches!(
        feedback("e4 e4", &pos, en()),
        Feedback::Illegal(_)
    ));
    let ep = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
    assert!(matches!(
        feedback("exd6 e.p.", &ep, en()),
        Feedback::Ready(_)
    ));
    // A long command still says what it does.
    let long = format!(":e {}.pgn 3", "x".repeat(80));
    assert!(matches!(feedback(&long, &pos, en()), Feedback::Note(n) if n.starts_with(":e")));
}

#[test]
fn ambiguity_lists_the_choices() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
    match feedback("Nd2", &pos, en()) {
        Feedback::Ambiguous(moves, sans) => {
            assert_eq!(sans, vec!["Nbd2".to_string(), "Nfd2".to_string()]);
            assert_eq!(moves.len(), 2);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn promotion_asks_which_piece() {
    let pos = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    match feedback("e8", &pos, en()) {
        Feedback::Promotion(moves) => assert_eq!(moves.len(), 4),
        other => panic!("{other:?}"),
    }
    let err = read_entry("e8", &pos, en()).unwrap_err();
    assert_eq!(err.promotion.len(), 4);
}

#[test]
fn figurines_and_other_languages_match_while_typing() {
    let pos = start();
    let de = Lang::by_code("de").unwrap();
    assert!(matches!(feedback("S", &pos, de), Feedback::Partial(m) if m.len() == 4));
    assert!(matches!(feedback("Sf3", &pos, de), Feedback::Ready(_)));
    assert!(matches!(feedback("♘", &pos, en()), Feedback::Partial(m) if m.len() == 4));
}

#[test]
fn a_capital_names_a_piece_and_a_small_letter_a_file() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/1P6/2B1K3 w - - 0 1").unwrap();
    // B: the bishop's two moves only; b: the pawn's two and the bishop's.
    assert!(matches!(feedback("B", &pos, en()), Feedback::Partial(m) if m.len() == 5));
    assert!(matches!(feedback("b", &pos, en()), Feedback::Partial(m) if m.len() == 7));
}

#[test]
fn a_pawn_move_onto_ones_own_pawn_says_why() {
    // 1.e4 c5: White types e4 again.
    let pos = start().play(mv("e2", "e4")).play(mv("c7", "c5"));
    match feedback("e4", &pos, en()) {
        Feedback::Illegal(reason) => {
            assert!(
                reason.contains("e4 holds a white pawn of your own"),
                "{reason}"
            );
            assert!(reason.contains("moves from e4: e5"), "{reason}");
            assert!(!reason.contains("dxe4"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let err = read_entry("e4", &pos, en()).unwrap_err();
    assert!(err.reason.contains("of your own"), "{}", err.reason);
    // A square that is free is still a start of the moves from it.
    assert!(matches!(feedback("Ng1", &start(), en()), Feedback::Partial(m) if m.len() == 2));
}

#[test]
fn a_typed_capture_mark_keeps_the_captures() {
    // 1.e4 d5 2.Nf3 Nc6: no knight can capture yet, though each can move.
    let pos = start()
        .play(mv("e2", "e4"))
        .play(mv("d7", "d5"))
        .play(mv("g1", "f3"))
        .play(mv("b8", "c6"));
    assert!(matches!(feedback("N", &pos, en()), Feedback::Partial(m) if m.len() > 2));
    assert!(matches!(feedback("Nx", &pos, en()), Feedback::Illegal(_)));
    // 3.Nc3 a6: Nx is Nc3xd5 alone, none of the quiet knight moves.
    let pos = pos.play(mv("b1", "c3")).play(mv("a7", "a6"));
    match feedback("Nx", &pos, en()) {
        Feedback::Partial(m) => {
            assert_eq!(m, [mv("c3", "d5")]);
        }
        other => panic!("{other:?}"),
    }
    // ex: the e-pawn's capture, not its push to e5.
    assert!(
        matches!(feedback("e", &pos, en()), Feedback::Partial(m) if m.contains(&mv("e4", "e5")))
    );
    match feedback("ex", &pos, en()) {
        Feedback::Partial(m) => assert_eq!(m, [mv("e4", "d5")]),
        other => panic!("{other:?}"),
    }
}

/// A mistyped draw offer (`(=` for `(=)`) or a remark in parentheses is told for what it
/// is, not read as a move whose promotion piece is missing.
#[test]
fn a_mistyped_draw_offer_is_named() {
    let pos = start();
    for (line, token) in [("e4 (=", "(="), ("(=", "(="), ("e4 (=)x", "(=)x")] {
        let e = read_entry(line, &pos, en()).unwrap_err();
        assert_eq!(e.token, token, "{line}");
        assert_eq!(
            e.reason,
            "a draw offer is written (=), after its move (Nf3 (=))"
        );
    }
    let e = read_entry("e4 (only move)", &pos, en()).unwrap_err();
    assert_eq!(e.token, "(only");
    assert!(
        e.reason.contains("a remark goes in a comment"),
        "{}",
        e.reason
    );
    // A draw offer written right is still one.
    assert!(read_entry("e4 (=)", &pos, en()).is_ok());
}
