//! Table-driven: (position, text, language) → the move in UCI, or the error text.

use super::*;

const START: &str = crate::position::START_FEN;
/// Knights on g1 and d2 can both reach f3; rooks on a1 and a5 can both reach a3.
const TWO_KNIGHTS: &str = "4k3/8/8/R7/8/8/3N4/R3K1N1 w - - 0 1";
/// Three queens that can reach e1 (Wikipedia's Qh4e1 example).
const THREE_QUEENS: &str = "1k3r2/3r4/8/R7/4Q2Q/8/2K5/R6Q w - - 0 1";
/// White pawn e5, black pawn just moved d7-d5: en passant exd6 is legal.
const EP: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
/// A pawn on e7 ready to promote, a rook to capture on d8.
const PROMO: &str = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
/// Both sides may castle either way.
const CASTLES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
/// A b-pawn and a bishop that can both take on c3: `bxc3` is the pawn, `Bxc3` the bishop.
const B_PAWN: &str = "4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1";

fn uci(fen: &str, text: &str, lang: &str) -> Result<String, String> {
    let pos = Position::from_fen(fen).unwrap();
    let lang = Lang::by_code(lang).unwrap();
    read_move(text, &pos, lang)
        .map(|(mv, _)| format(&pos, mv, Style::Uci, Lang::english()))
        .map_err(|e| e.to_string())
}

#[test]
fn every_written_form_reads() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // SAN and its variants.
        (START, "e4", "en", "e2e4"),
        (START, "Nf3", "en", "g1f3"),
        (START, "Pe4", "en", "e2e4"),
        (START, "nf3", "en", "g1f3"),
        (START, "N-f3", "en", "g1f3"),
        (TWO_KNIGHTS, "Ngf3", "en", "g1f3"),
        (TWO_KNIGHTS, "Ndf3", "en", "d2f3"),
        (TWO_KNIGHTS, "R5a3", "en", "a5a3"),
        (TWO_KNIGHTS, "R1a3", "en", "a1a3"),
        (THREE_QUEENS, "Qh4e1", "en", "h4e1"),
        (THREE_QUEENS, "Qh4xe1", "en", "h4e1"),
        (B_PAWN, "bxc3", "en", "b2c3"),
        (B_PAWN, "Bxc3", "en", "d2c3"),
        (B_PAWN, "bc3", "en", "b2c3"),
        (B_PAWN, "b:c3", "en", "b2c3"),
        (B_PAWN, "B:c3", "en", "d2c3"),
        (B_PAWN, "Bc3:", "en", "d2c3"),
        (B_PAWN, "B×c3", "en", "d2c3"),
        (B_PAWN, "Bc3", "en", "d2c3"),
        (B_PAWN, "bxc", "en", "b2c3"),
        (B_PAWN, "bc", "en", "b2c3"),
        (B_PAWN, "b3", "en", "b2b3"),
        (B_PAWN, "bc1", "en", "d2c1"),
        (B_PAWN, "be3", "en", "d2e3"),
        // En passant in every dress.
        (EP, "exd6", "en", "e5d6"),
        (EP, "exd6 e.p.", "en", "e5d6"),
        (EP, "exd6e.p.", "en", "e5d6"),
        (EP, "exd6ep", "en", "e5d6"),
        (EP, "exd6 ep", "en", "e5d6"),
        (EP, "ed6", "en", "e5d6"),
        (EP, "exd", "en", "e5d6"),
        (EP, "ed", "en", "e5d6"),
        (EP, "e5d6", "en", "e5d6"),
        // Promotion.
        (PROMO, "e8=Q", "en", "e7e8q"),
        (PROMO, "e8Q", "en", "e7e8q"),
        (PROMO, "e8(Q)", "en", "e7e8q"),
        (PROMO, "e8/Q", "en", "e7e8q"),
        (PROMO, "e8=N", "en", "e7e8n"),
        (PROMO, "e8=♕", "en", "e7e8q"),
        (PROMO, "exd8=R+", "en", "e7d8r"),
        (PROMO, "ed8N", "en", "e7d8n"),
        (PROMO, "e7-e8=Q", "en", "e7e8q"),
        (PROMO, "e7e8q", "en", "e7e8q"),
        (PROMO, "e7e8b", "en", "e7e8b"),
        (PROMO, "57581", "en", "e7e8q"),
        (PROMO, "57584", "en", "e7e8n"),
        (PROMO, "e8D", "de", "e7e8q"),
        (PROMO, "e8=S", "de", "e7e8n"),
        (PROMO, "e8F", "fr", "e7e8b"),
        // Castling.
        (CASTLES, "O-O", "en", "e1g1"),
        (CASTLES, "0-0", "en", "e1g1"),
        (CASTLES, "O-O-O", "en", "e1c1"),
        (CASTLES, "0-0-0", "en", "e1c1"),
        (CASTLES, "o-o", "en", "e1g1"),
        (CASTLES, "0-0+", "en", "e1g1"),
        (CASTLES, "Ke1-g1", "en", "e1g1"),
        (CASTLES, "Kg1", "en", "e1g1"),
        (CASTLES, "e1g1", "en", "e1g1"),
        (CASTLES, "e1h1", "en", "e1g1"),
        (CASTLES, "e1a1", "en", "e1c1"),
        (CASTLES, "5171", "en", "e1g1"),
        // Suffixes, glyphs and the draw offer.
        (START, "Nf3+", "en", "g1f3"),
        (START, "Nf3†", "en", "g1f3"),
        (START, "Nf3ch", "en", "g1f3"),
        (START, "Nf3 ch", "en", "g1f3"),
        (START, "Nf3++", "en", "g1f3"),
        (START, "Nf3#", "en", "g1f3"),
        (START, "Nf3‡", "en", "g1f3"),
        (START, "Nf3 mate", "en", "g1f3"),
        (START, "Nf3!", "en", "g1f3"),
        (START, "Nf3?!", "en", "g1f3"),
        (START, "Nf3!!", "en", "g1f3"),
        (START, "Nf3(=)", "en", "g1f3"),
        (START, "Nf3 (=)", "en", "g1f3"),
        (START, "Nf3+!?(=)", "en", "g1f3"),
        // Long algebraic, UCI, ICCF.
        (START, "e2-e4", "en", "e2e4"),
        (START, "e2e4", "en", "e2e4"),
        (START, "Ng1-f3", "en", "g1f3"),
        (START, "g1f3", "en", "g1f3"),
        (START, "Ng1f3", "en", "g1f3"),
        (START, "5254", "en", "e2e4"),
        (START, "7163", "en", "g1f3"),
        // Figurines, either colour.
        (START, "♘f3", "en", "g1f3"),
        (START, "♞f3", "en", "g1f3"),
        (START, "♘f3", "de", "g1f3"),
        (START, "♘g1-f3", "en", "g1f3"),
        // Languages.
        (START, "Sf3", "de", "g1f3"),
        (START, "Be2-e4", "de", "e2e4"),
        (START, "Sg1-f3", "de", "g1f3"),
        (START, "Cf3", "fr", "g1f3"),
        (START, "Cf3", "es", "g1f3"),
        (START, "Cf3", "it", "g1f3"),
        (START, "Cf3", "pt", "g1f3"),
        (START, "Pf3", "nl", "g1f3"),
        (START, "Sf3", "pl", "g1f3"),
        (START, "Jf3", "cs", "g1f3"),
        (START, "Hf3", "hu", "g1f3"),
        (START, "Sf3", "sv", "g1f3"),
        (START, "Кf3", "ru", "g1f3"),
        (START, "кf3", "ru", "g1f3"),
        (START, "Rf3", "fi", "g1f3"),
        (TWO_KNIGHTS, "Крf1", "ru", "e1f1"),
        (TWO_KNIGHTS, "крf1", "ru", "e1f1"),
        (TWO_KNIGHTS, "Rf1", "fr", "e1f1"),
        (TWO_KNIGHTS, "Kf1", "de", "e1f1"),
        (TWO_KNIGHTS, "T5a3", "de", "a5a3"),
        (TWO_KNIGHTS, "W1a3", "pl", "a1a3"),
        (TWO_KNIGHTS, "B1a3", "hu", "a1a3"),
        (TWO_KNIGHTS, "Лa5a3", "ru", "a5a3"),
    ];
    for (fen, text, lang, want) in cases {
        assert_eq!(
            uci(fen, text, lang).as_deref(),
            Ok(*want),
            "{text} ({lang}) in {fen}"
        );
    }
}

#[test]
fn errors_say_what_and_why() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (TWO_KNIGHTS, "Nf3", "en", "Nf3 is ambiguous: Ndf3 or Ngf3"),
        (TWO_KNIGHTS, "Ra3", "en", "Ra3 is ambiguous: R1a3 or R5a3"),
        (
            THREE_QUEENS,
            "Qe1",
            "en",
            "Qe1 is ambiguous: Q1e1, Qee1 or Qh4e1",
        ),
        (START, "Nf4", "en", "illegal: no white knight can reach f4"),
        (START, "Qh5", "en", "illegal: no white queen can reach h5"),
        (START, "e5", "en", "illegal: no white pawn can move to e5"),
        (
            START,
            "exd5",
            "en",
            "illegal: there is nothing to capture on d5",
        ),
        (START, "Ke2", "en", "illegal: e2 holds a white piece"),
        (
            START,
            "O-O",
            "en",
            "illegal: pieces stand between the king and the rook",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
            "O-O",
            "en",
            "illegal: White can no longer castle kingside",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "Nf3",
            "en",
            "illegal: White has no knight",
        ),
        (
            "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
            "Nf4",
            "en",
            "illegal: the knight on e2 is pinned",
        ),
        (
            "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
            "Kd1",
            "en",
            "illegal: the white king would be in check on d1",
        ),
        (
            "4k3/8/8/8/8/8/8/r3K2R w K - 0 1",
            "O-O",
            "en",
            "castling is not allowed while in check",
        ),
        (
            "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1",
            "O-O",
            "en",
            "the king would cross or land on an attacked square",
        ),
        (
            PROMO,
            "e8",
            "en",
            "the pawn promotes: say to which piece (e8=Q+, e8=R+, e8=B or e8=N)",
        ),
        (PROMO, "e8=K", "en", "a pawn cannot promote to a king"),
        (
            START,
            "e4=Q",
            "en",
            "only a pawn reaching the last rank promotes",
        ),
        (START, "Nz3", "en", "not a move: unexpected 'z'"),
        (START, "e9", "en", "not a move: '9' is not a rank"),
        (START, "", "en", "not a move: no move written"),
        (
            START,
            "Nf3",
            "de",
            "not a move: 'N' is not a piece letter in German (K D T L S, pawn B)",
        ),
        (
            START,
            "Sf3",
            "en",
            "not a move: 'S' is not a piece letter in English (K Q R B N, pawn P)",
        ),
        (
            START,
            "d2d5",
            "en",
            "illegal: the white pawn on d2 cannot go to d5",
        ),
        (
            START,
            "g1f4",
            "en",
            "illegal: the white knight on g1 cannot reach f4",
        ),
        (
            START,
            "Ng1-f4",
            "en",
            "illegal: the white knight on g1 cannot reach f4",
        ),
        (
            START,
            "f1c4",
            "en",
            "illegal: the white bishop on f1 cannot reach c4: pieces stand in the way",
        ),
        (
            START,
            "Bf1-f3",
            "en",
            "illegal: the white bishop on f1 cannot reach f3",
        ),
        (
            START,
            "a1a3",
            "en",
            "illegal: the white rook on a1 cannot reach a3: pieces stand in the way",
        ),
        (
            START,
            "d2e3",
            "en",
            "illegal: there is nothing to capture on e3",
        ),
        (
            "4k3/8/8/8/8/3p4/3P4/4K3 w - - 0 1",
            "d2d4",
            "en",
            "illegal: the white pawn on d2 cannot go to d4: d3 is occupied",
        ),
        (
            "4k3/8/8/8/8/3p4/3P4/4K3 w - - 0 1",
            "d2d3",
            "en",
            "illegal: d3 is occupied; a pawn captures diagonally",
        ),
        // Moves their pieces can make, refused for what they do to the king.
        (
            "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
            "e2f4",
            "en",
            "illegal: the knight on e2 is pinned",
        ),
        (
            "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
            "e2d3",
            "en",
            "illegal: the white knight on e2 cannot reach d3",
        ),
        (
            "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1",
            "a1a2",
            "en",
            "illegal: the white king is in check and this move does not parry it",
        ),
        (
            "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2",
            "e5d6",
            "en",
            "illegal: it would leave the white king in check",
        ),
        (START, "e3e4", "en", "illegal: no white piece stands on e3"),
        (
            START,
            "Bg1f3",
            "en",
            "no white bishop stands on g1 (it holds a knight)",
        ),
        (START, "59595", "en", "ICCF"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--", "en", ""),
    ];
    for (fen, text, lang, want) in cases {
        let got = uci(fen, text, lang);
        if want.is_empty() {
            assert!(got.is_ok(), "{text}: {got:?}");
            continue;
        }
        let err = got.expect_err(text);
        assert!(
            err.contains(want),
            "{text} in {fen}: got {err:?}, want {want:?}"
        );
    }
}

/// White castled and put a rook on e1 (the Ruy Lopez after 6.Re1... as a position).
const RE1: &str = "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQR1K1 w kq - 6 6";
/// White may castle long only: the rook on f2 watches f1.
const LONG_ONLY: &str = "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1";
/// White castled short; the king stands on g1 beside its rook on f1.
const CASTLED: &str = "4k3/8/8/8/8/8/5PPP/5RK1 w - - 0 1";

/// Every form that names both squares gives the short form's reason: a square of one's
/// own is said as such, and a king's castling move fails for castling's reason.
#[test]
fn a_move_with_its_from_square_gives_the_short_forms_reason() {
    let own = |sq: &str| format!("illegal: {sq} holds a white piece");
    let attacked = "illegal: the king would cross or land on an attacked square".to_string();
    let cases: Vec<(&str, &str, &str, String)> = vec![
        (START, "Ne2", "en", own("e2")),
        (START, "Ng1-e2", "en", own("e2")),
        (START, "g1e2", "en", own("e2")),
        (START, "Qd1-d2", "en", own("d2")),
        (START, "a1b1", "en", own("b1")),
        (START, "e1f1", "en", own("f1")),
        (START, "Ke1-f1", "en", own("f1")),
        (START, "5171", "en", own("g1")),
        (RE1, "Te1-g1", "de", own("g1")),
        (RE1, "5171", "en", own("g1")),
        (RE1, "Re1xg1", "en", own("g1")),
        // A rook beside the king is not castling's rook.
        (CASTLED, "g1f1", "en", own("f1")),
        (CASTLED, "Kg1-f1", "en", own("f1")),
        // Castling written as a king move, in every form.
        (LONG_ONLY, "O-O", "en", attacked.clone()),
        (LONG_ONLY, "e1g1", "en", attacked.clone()),
        (LONG_ONLY, "Ke1-g1", "en", attacked.clone()),
        (LONG_ONLY, "Kg1", "en", attacked.clone()),
        (LONG_ONLY, "e1h1", "en", attacked.clone()),
        (LONG_ONLY, "5171", "en", attacked.clone()),
        (
            "r3k2r/5R2/8/8/8/8/8/4K3 b kq - 0 1",
            "e8g8",
            "en",
            attacked.clone(),
        ),
        (
            "4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1",
            "e1c1",
            "en",
            "illegal: pieces stand between the king and the rook".into(),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "e1g1",
            "en",
            "illegal: White can no longer castle kingside (the king or that rook has moved)".into(),
        ),
        // Not castling's shape: the king's own reasons.
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "e1a1",
            "en",
            "illegal: the white king cannot reach a1".into(),
        ),
        (
            "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
            "e1d1",
            "en",
            "illegal: the white king would be in check on d1".into(),
        ),
    ];
    for (fen, text, lang, want) in &cases {
        assert_eq!(
            uci(fen, text, lang).as_ref(),
            Err(want),
            "{text} ({lang}) in {fen}"
        );
    }
    // The legal ones still read.
    for (fen, text, want) in [
        (LONG_ONLY, "O-O-O", "e1c1"),
        (LONG_ONLY, "e1c1", "e1c1"),
        (LONG_ONLY, "e1a1", "e1c1"),
        (LONG_ONLY, "Ke1-c1", "e1c1"),
        (CASTLED, "Rf1-e1", "f1e1"),
        (RE1, "Te1-f1", "e1f1"),
    ] {
        let lang = if text.starts_with('T') { "de" } else { "en" };
        assert_eq!(uci(fen, text, lang).as_deref(), Ok(want), "{text} in {fen}");
    }
}

#[test]
fn san_is_canonical() {
    let cases: &[(&str, &str, &str)] = &[
        (TWO_KNIGHTS, "g1f3", "Ngf3"),
        (TWO_KNIGHTS, "a5a3", "R5a3"),
        (THREE_QUEENS, "h4e1", "Qh4e1"),
        (THREE_QUEENS, "e4e1", "Qee1"),
        (B_PAWN, "b2c3", "bxc3"),
        (EP, "e5d6", "exd6"),
        (PROMO, "e7d8q", "exd8=Q+"),
        (CASTLES, "e1c1", "O-O-O"),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            "d8h4",
            "Qh4#",
        ),
        // A pinned knight does not need to be told apart.
        ("4k3/4r3/8/8/8/8/4N3/2N1K3 w - - 0 1", "c1d3", "Nd3"),
    ];
    for (fen, uci_text, want) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let (mv, _) = read_move(uci_text, &pos, Lang::english()).unwrap();
        assert_eq!(san(&pos, mv), *want, "{uci_text} in {fen}");
    }
}

#[test]
fn every_style_and_language_is_written() {
    let pos = Position::from_fen(PROMO).unwrap();
    let (mv, _) = read_move("exd8=N", &pos, Lang::english()).unwrap();
    let de = Lang::by_code("de").unwrap();
    let ru = Lang::by_code("ru").unwrap();
    assert_eq!(format(&pos, mv, Style::San, de), "exd8=S");
    assert_eq!(format(&pos, mv, Style::Lan, Lang::english()), "e7xd8=N");
    assert_eq!(format(&pos, mv, Style::Figurine, Lang::english()), "exd8=♘");
    assert_eq!(format(&pos, mv, Style::Uci, de), "e7d8n");
    assert_eq!(format(&pos, mv, Style::Iccf, de), "57484");
    let start = Position::start();
    let (nf3, _) = read_move("Nf3", &start, Lang::english()).unwrap();
    assert_eq!(format(&start, nf3, Style::San, ru), "Кf3");
    assert_eq!(format(&start, nf3, Style::Lan, Lang::english()), "Ng1-f3");
}

#[test]
fn marks_around_the_move_are_kept() {
    let pos = Position::start();
    let (_, mt) = read_move("Nf3!?(=)", &pos, Lang::english()).unwrap();
    assert_eq!(mt.nag, Some(5));
    assert!(mt.draw_offer);
    let (_, mt) = read_move("e4?", &pos, Lang::english()).unwrap();
    assert_eq!(mt.nag, Some(2));
    let (_, mt) = read_move("Nf3+", &pos, Lang::english()).unwrap();
    assert_eq!(mt.check, Some(CheckMark::Check));
}

/// Marks written as words of their own are known as such (a reader leaves them out of the
/// moves it counts), and moves are not: also those the digit shortcut passes over.
#[test]
fn mark_words_and_moves_are_told_apart() {
    for mark in [
        "e.p.", "e.p", "ep", "ch", "dis", "dbl", "mate", "matt", "мат", "шах",
    ] {
        assert!(is_mark_word(mark.as_bytes()), "{mark}");
    }
    for word in [
        "e4", "exd6", "Nf3", "O-O", "O-O-O", "0-0", "Qh5+", "a8=Q", "e2e4", "+", "#",
    ] {
        assert!(!is_mark_word(word.as_bytes()), "{word}");
    }
}

/// A Cyrillic letter that looks like a Latin one, typed for a square, is named as such.
#[test]
fn a_cyrillic_look_alike_is_named() {
    let pos = Position::start();
    let ru = Lang::by_code("ru").unwrap();
    let err = read_move("е4", &pos, ru).unwrap_err();
    assert!(
        err.to_string().contains("Cyrillic letter") && err.to_string().contains("'e'"),
        "{err}"
    );
}
