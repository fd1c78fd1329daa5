//! Table cases of the notation engine that the unit tables in src/notation/tests.rs
//! do not cover: Black to move (pawn captures, promotions, castling, en passant),
//! promotions with capture in every syntax, `dis ch`, `dbl ch`, `≠`, the Russian
//! trailing `x` for mate, en- and em-dash castling, null moves, every language's
//! letters for every piece and promotion, figurine promotions, lower-case letters,
//! and the columns of syntax errors.

use scoresheet::notation::{format, read_move, ErrorKind, Lang, NotationError, Style, LANGS};
use scoresheet::position::{Move, Position};

/// Black pawn d4, White has just played e2-e4: d4xe3 en passant.
const BLACK_EP: &str = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1";
/// Black pawn e2 promotes on e1 or takes the rook on d1.
const BLACK_PROMO: &str = "4k3/8/8/8/8/8/4p3/3R2K1 b - - 0 1";
/// Both sides may castle either way; Black to move.
const BLACK_CASTLES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1";
/// Both sides may castle either way; White to move.
const CASTLES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
/// White pawn e7 promotes on e8 or takes the rook on d8.
const PROMO: &str = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
/// After 1.e4 d5: the e-pawn can take on d5.
const E4_D5: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
/// Rook e1 behind the knight e2: every knight move is a discovered check.
const DISCOVERED: &str = "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1";
/// Rook e1 behind the knight e4: Nd6 and Nf6 are double checks.
const DOUBLE: &str = "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1";
/// Fool's mate: Black mates with Qh4.
const FOOLS: &str = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
/// Scholar's mate: White mates with Qxf7.
const SCHOLARS: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
/// A promotion that mates: e8=Q.
const PROMO_MATE: &str = "7k/4P3/6K1/8/8/8/8/8 w - - 0 1";
/// White to move, in check from the rook on h1.
const IN_CHECK: &str = "4k3/8/8/8/8/8/8/4K2r w - - 0 1";
/// Every white piece can move: Ng1-f3, Bc1-e3, Ra1-a7, Qd1-d5, Ke1-f2, e7-e8.
const ALL_PIECES: &str = "7k/4P3/8/8/8/8/8/R1BQK1N1 w - - 0 1";
/// En passant exd6 gives check to the king on e7.
const EP_CHECK: &str = "8/4k3/8/3pP3/8/8/8/4K3 w - d6 0 2";
/// The b2-pawn is pinned along the second rank, so `bxc3` can only be the bishop.
const PINNED_B_PAWN: &str = "4k3/8/8/8/3B4/2n5/rP5K/8 w - - 0 1";
/// Black: a b-pawn and a bishop that can both take on c6.
const BLACK_B_PAWN: &str = "4k3/1p1b4/2N5/8/8/8/8/4K3 b - - 0 1";
/// The start position.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn lang(code: &str) -> &'static Lang {
    Lang::by_code(code).unwrap_or_else(|| panic!("no language {code}"))
}

/// The move read, in UCI (`0000` for a null move), or the error text.
fn uci(fen: &str, text: &str, code: &str) -> Result<String, String> {
    let p = pos(fen);
    read_move(text, &p, lang(code))
        .map(|(mv, _)| format(&p, mv, Style::Uci, Lang::english()))
        .map_err(|e| e.to_string())
}

fn check_reads(cases: &[(&str, &str, &str, &str)]) {
    let mut failures = Vec::new();
    for (fen, text, code, want) in cases {
        let got = uci(fen, text, code);
        if got.as_deref() != Ok(*want) {
            failures.push(format!(
                "{text:?} ({code}) in {fen}: want {want}, got {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn check_errors(cases: &[(&str, &str, &str, &str)]) {
    let mut failures = Vec::new();
    for (fen, text, code, want) in cases {
        match uci(fen, text, code) {
            Err(e) if e.contains(want) => {}
            got => failures.push(format!(
                "{text:?} ({code}) in {fen}: want error {want:?}, got {got:?}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn black_pawn_captures_and_en_passant() {
    check_reads(&[
        (BLACK_EP, "dxe3", "en", "d4e3"),
        (BLACK_EP, "dxe3 e.p.", "en", "d4e3"),
        (BLACK_EP, "dxe3ep", "en", "d4e3"),
        (BLACK_EP, "de3", "en", "d4e3"),
        (BLACK_EP, "dxe", "en", "d4e3"),
        (BLACK_EP, "de", "en", "d4e3"),
        (BLACK_EP, "d:e3", "en", "d4e3"),
        (BLACK_EP, "de3:", "en", "d4e3"),
        (BLACK_EP, "d×e3", "en", "d4e3"),
        (BLACK_EP, "d4xe3", "en", "d4e3"),
        (BLACK_EP, "d4-e3", "en", "d4e3"),
        (BLACK_EP, "d4e3", "en", "d4e3"),
        (BLACK_EP, "4453", "en", "d4e3"),
        (BLACK_EP, "d3", "en", "d4d3"),
        (BLACK_EP, "♟d3", "en", "d4d3"),
        (BLACK_EP, "♙xe3", "en", "d4e3"),
        (BLACK_EP, "Pxe3", "en", "d4e3"),
        (BLACK_EP, "Bxe3", "de", "d4e3"),
        (BLACK_B_PAWN, "bxc6", "en", "b7c6"),
        (BLACK_B_PAWN, "bc6", "en", "b7c6"),
        (BLACK_B_PAWN, "Bxc6", "en", "d7c6"),
        (BLACK_B_PAWN, "b5", "en", "b7b5"),
        (BLACK_B_PAWN, "b6", "en", "b7b6"),
        (E4_D5, "Pxd5", "en", "e4d5"),
        (E4_D5, "Pexd5", "en", "e4d5"),
        (E4_D5, "Pe4xd5", "en", "e4d5"),
        (E4_D5, "e4:d5", "en", "e4d5"),
        (E4_D5, "ed5:", "en", "e4d5"),
        (E4_D5, "exd5!?", "en", "e4d5"),
    ]);
}

#[test]
fn black_promotions_in_every_syntax() {
    check_reads(&[
        (BLACK_PROMO, "e1=Q", "en", "e2e1q"),
        (BLACK_PROMO, "e1=Q+", "en", "e2e1q"),
        (BLACK_PROMO, "e1Q", "en", "e2e1q"),
        (BLACK_PROMO, "e1(Q)", "en", "e2e1q"),
        (BLACK_PROMO, "e1/Q", "en", "e2e1q"),
        (BLACK_PROMO, "e1=N", "en", "e2e1n"),
        (BLACK_PROMO, "e1=♛", "en", "e2e1q"),
        (BLACK_PROMO, "e1=♕", "en", "e2e1q"),
        (BLACK_PROMO, "e1♜", "en", "e2e1r"),
        (BLACK_PROMO, "e2-e1=Q", "en", "e2e1q"),
        (BLACK_PROMO, "e2e1q", "en", "e2e1q"),
        (BLACK_PROMO, "e2e1n", "en", "e2e1n"),
        (BLACK_PROMO, "52511", "en", "e2e1q"),
        (BLACK_PROMO, "52513", "en", "e2e1b"),
        (BLACK_PROMO, "exd1=Q+", "en", "e2d1q"),
        (BLACK_PROMO, "exd1Q", "en", "e2d1q"),
        (BLACK_PROMO, "exd1(R)", "en", "e2d1r"),
        (BLACK_PROMO, "exd1/B", "en", "e2d1b"),
        (BLACK_PROMO, "exd1=♞", "en", "e2d1n"),
        (BLACK_PROMO, "e:d1=Q", "en", "e2d1q"),
        (BLACK_PROMO, "e×d1=Q", "en", "e2d1q"),
        (BLACK_PROMO, "ed1=Q", "en", "e2d1q"),
        (BLACK_PROMO, "ed1N", "en", "e2d1n"),
        (BLACK_PROMO, "e2xd1=Q", "en", "e2d1q"),
        (BLACK_PROMO, "e2:d1Q", "en", "e2d1q"),
        (BLACK_PROMO, "e2d1q", "en", "e2d1q"),
        (BLACK_PROMO, "52414", "en", "e2d1n"),
        (BLACK_PROMO, "e1=D", "de", "e2e1q"),
        (BLACK_PROMO, "exd1=S", "de", "e2d1n"),
        (BLACK_PROMO, "e1=Ф", "ru", "e2e1q"),
        (BLACK_PROMO, "e:d1К", "ru", "e2d1n"),
    ]);
}

#[test]
fn white_promotions_with_capture_in_every_syntax() {
    check_reads(&[
        (PROMO, "exd8Q", "en", "e7d8q"),
        (PROMO, "exd8(Q)", "en", "e7d8q"),
        (PROMO, "exd8/Q", "en", "e7d8q"),
        (PROMO, "exd8=♕", "en", "e7d8q"),
        (PROMO, "exd8♛", "en", "e7d8q"),
        (PROMO, "exd8=q", "en", "e7d8q"),
        (PROMO, "exd8=b", "en", "e7d8b"),
        (PROMO, "e:d8=Q", "en", "e7d8q"),
        (PROMO, "e×d8=Q", "en", "e7d8q"),
        (PROMO, "ed8(Q)", "en", "e7d8q"),
        (PROMO, "ed8/N", "en", "e7d8n"),
        (PROMO, "e7xd8Q", "en", "e7d8q"),
        (PROMO, "e7:d8=R", "en", "e7d8r"),
        (PROMO, "e7d8=B", "en", "e7d8b"),
        (PROMO, "e7d8Q", "en", "e7d8q"),
        (PROMO, "e7d8r", "en", "e7d8r"),
        (PROMO, "57481", "en", "e7d8q"),
        (PROMO, "57483", "en", "e7d8b"),
        // Figurine promotions in either colour, without a capture.
        (PROMO, "e8=♛", "en", "e7e8q"),
        (PROMO, "e8♛", "en", "e7e8q"),
        (PROMO, "e8(♛)", "en", "e7e8q"),
        (PROMO, "e8/♞", "en", "e7e8n"),
    ]);
}

#[test]
fn black_castling_and_dashes() {
    check_reads(&[
        (BLACK_CASTLES, "O-O", "en", "e8g8"),
        (BLACK_CASTLES, "O-O-O", "en", "e8c8"),
        (BLACK_CASTLES, "0-0", "en", "e8g8"),
        (BLACK_CASTLES, "0-0-0", "en", "e8c8"),
        (BLACK_CASTLES, "0–0", "en", "e8g8"),
        (BLACK_CASTLES, "0–0–0", "en", "e8c8"),
        (BLACK_CASTLES, "O—O", "en", "e8g8"),
        (BLACK_CASTLES, "o-o-o", "en", "e8c8"),
        (BLACK_CASTLES, "Ke8-g8", "en", "e8g8"),
        (BLACK_CASTLES, "Kc8", "en", "e8c8"),
        (BLACK_CASTLES, "e8g8", "en", "e8g8"),
        (BLACK_CASTLES, "e8c8", "en", "e8c8"),
        (BLACK_CASTLES, "e8h8", "en", "e8g8"),
        (BLACK_CASTLES, "e8a8", "en", "e8c8"),
        (BLACK_CASTLES, "5878", "en", "e8g8"),
        (BLACK_CASTLES, "5838", "en", "e8c8"),
        (BLACK_CASTLES, "Крg8", "ru", "e8g8"),
        (BLACK_CASTLES, "Rc8", "fr", "e8c8"),
        (BLACK_CASTLES, "O-O!", "en", "e8g8"),
        (BLACK_CASTLES, "0-0-0(=)", "en", "e8c8"),
        (CASTLES, "0–0", "en", "e1g1"),
        (CASTLES, "0–0–0", "en", "e1c1"),
        (CASTLES, "O—O—O", "en", "e1c1"),
        (CASTLES, "5131", "en", "e1c1"),
        (CASTLES, "Kc1", "en", "e1c1"),
    ]);
}

#[test]
fn check_and_mate_marks() {
    check_reads(&[
        (DISCOVERED, "Nc3 dis ch", "en", "e2c3"),
        (DISCOVERED, "Nd4dis ch", "en", "e2d4"),
        (DISCOVERED, "Ng3+", "en", "e2g3"),
        (DISCOVERED, "Nf4 ch", "en", "e2f4"),
        (DOUBLE, "Nd6 dbl ch", "en", "e4d6"),
        (DOUBLE, "Nf6++", "en", "e4f6"),
        (DOUBLE, "Nf6+ dbl ch", "en", "e4f6"),
        (FOOLS, "Qh4≠", "en", "d8h4"),
        (FOOLS, "Qh4‡", "en", "d8h4"),
        (FOOLS, "Qh4 mate", "en", "d8h4"),
        (FOOLS, "Qh4++", "en", "d8h4"),
        (FOOLS, "Qh4#!!", "en", "d8h4"),
        (FOOLS, "Qd8-h4#", "en", "d8h4"),
        (FOOLS, "♛h4#", "en", "d8h4"),
        (FOOLS, "Dh4#", "de", "d8h4"),
        // Russian books: `:` for captures and a trailing x for mate.
        (FOOLS, "Фh4x", "ru", "d8h4"),
        (FOOLS, "Фh4X", "ru", "d8h4"),
        (FOOLS, "Фd8-h4x", "ru", "d8h4"),
        (FOOLS, "Qh4x", "en", "d8h4"),
        (CASTLES, "0-0-0x", "ru", "e1c1"),
        (SCHOLARS, "Ф:f7x", "ru", "h5f7"),
        (SCHOLARS, "Фf7:x", "ru", "h5f7"),
        (SCHOLARS, "Q:f7x", "en", "h5f7"),
        (SCHOLARS, "Qxf7x", "en", "h5f7"),
        (SCHOLARS, "Qxf7#", "en", "h5f7"),
        (PROMO_MATE, "e8=Q#", "en", "e7e8q"),
        (PROMO_MATE, "e8Q mate", "en", "e7e8q"),
        (PROMO_MATE, "e8Ф≠", "ru", "e7e8q"),
        // En passant marks after a check mark, and before it.
        (EP_CHECK, "exd6 e.p.+", "en", "e5d6"),
        (EP_CHECK, "exd6ep+", "en", "e5d6"),
        (EP_CHECK, "exd6+", "en", "e5d6"),
        (EP_CHECK, "exd+", "en", "e5d6"),
    ]);
}

#[test]

fn russian_mate_x_after_a_promotion_or_castling() {
    check_reads(&[
        (PROMO_MATE, "e8Фx", "ru", "e7e8q"),
        (PROMO_MATE, "e8=ФX", "ru", "e7e8q"),
        (PROMO_MATE, "e8=Qx", "en", "e7e8q"),
        (CASTLES, "O-O-Ox", "ru", "e1c1"),
        (CASTLES, "O-OX", "ru", "e1g1"),
    ]);
}

#[test]

fn en_passant_mark_after_check_or_glyph() {
    check_reads(&[
        (EP_CHECK, "exd6+ e.p.", "en", "e5d6"),
        (EP_CHECK, "exd6+ep", "en", "e5d6"),
        (EP_CHECK, "exd6!? e.p.", "en", "e5d6"),
    ]);
}

#[test]
fn null_moves() {
    check_reads(&[
        (START, "0000", "en", "0000"),
        (START, "Z0", "en", "0000"),
        (START, "--", "en", "0000"),
        (START, "@@@@", "en", "0000"),
        (BLACK_CASTLES, "0000", "en", "0000"),
        (BLACK_CASTLES, "Z0", "de", "0000"),
    ]);
    check_errors(&[
        (
            IN_CHECK,
            "0000",
            "en",
            "null move is impossible while in check",
        ),
        (
            IN_CHECK,
            "Z0",
            "en",
            "null move is impossible while in check",
        ),
        (
            IN_CHECK,
            "--",
            "en",
            "null move is impossible while in check",
        ),
    ]);
    let p = pos(START);
    let (mv, _) = read_move("Z0", &p, Lang::english()).unwrap();
    assert_eq!(mv, Move::Null);
    assert_eq!(format(&p, mv, Style::San, Lang::english()), "--");
    assert_eq!(format(&p, mv, Style::Uci, Lang::english()), "0000");
}

/// Each language reads a move of every piece, a pawn move with its pawn letter, and
/// a promotion to every piece, with and without `=`.
#[test]
fn every_language_reads_every_piece_and_promotion() {
    assert_eq!(LANGS.len(), 22);
    let mut failures = Vec::new();
    for l in LANGS {
        let [p, n, b, r, q, k] = l.letters;
        let mut cases = vec![
            (format!("{n}f3"), "g1f3"),
            (format!("{b}e3"), "c1e3"),
            (format!("{r}a7"), "a1a7"),
            (format!("{q}d5"), "d1d5"),
            (format!("{k}f2"), "e1f2"),
            (format!("{n}g1-f3"), "g1f3"),
            (format!("{q}d1-d5"), "d1d5"),
            (format!("e8={q}"), "e7e8q"),
            (format!("e8={r}"), "e7e8r"),
            (format!("e8={b}"), "e7e8b"),
            (format!("e8={n}"), "e7e8n"),
            (format!("e8{q}"), "e7e8q"),
            (format!("e8({n})"), "e7e8n"),
            (format!("e7-e8={r}"), "e7e8r"),
        ];
        if !p.is_empty() {
            cases.push((format!("{p}e8={q}"), "e7e8q"));
        }
        for (text, want) in cases {
            let got = uci(ALL_PIECES, &text, l.code);
            if got.as_deref() != Ok(want) {
                failures.push(format!("{} {text:?}: want {want}, got {got:?}", l.code));
            }
        }
        // Black to move too: the same letters for the black pieces.
        let got = uci(BLACK_PROMO, &format!("e1={n}"), l.code);
        if got.as_deref() != Ok("e2e1n") {
            failures.push(format!("{} e1={n}: got {got:?}", l.code));
        }
        let got = uci(BLACK_CASTLES, &format!("{r}d8"), l.code);
        if got.as_deref() != Ok("a8d8") {
            failures.push(format!("{} {r}d8: got {got:?}", l.code));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every language writes the promotions it reads.
#[test]
fn every_language_writes_promotions() {
    let p = pos(PROMO);
    for l in LANGS {
        for (u, piece) in [("e7d8q", 4), ("e7e8n", 1), ("e7e8r", 3), ("e7d8b", 2)] {
            let (mv, _) = read_move(u, &p, Lang::english()).unwrap();
            let text = format(&p, mv, Style::San, l);
            assert!(
                text.contains(&format!("={}", l.letters[piece])),
                "{}: {text}",
                l.code
            );
            let back = read_move(&text, &p, l).map(|(m, _)| m);
            assert_eq!(back, Ok(mv), "{} {text}", l.code);
        }
    }
}

#[test]
fn lower_case_letters() {
    check_reads(&[
        (START, "nc3", "en", "b1c3"),
        (E4_D5, "qh5", "en", "d1h5"),
        (E4_D5, "bb5", "en", "f1b5"),
        (E4_D5, "ke2", "en", "e1e2"),
        (SCHOLARS, "qxf7", "en", "h5f7"),
        (SCHOLARS, "q:f7", "en", "h5f7"),
        (SCHOLARS, "bxf7", "en", "c4f7"),
        (CASTLES, "rb1", "en", "a1b1"),
        // The pinned b-pawn cannot take, so `bxc3` is the bishop.
        (PINNED_B_PAWN, "bxc3", "en", "d4c3"),
        (PINNED_B_PAWN, "bc3", "en", "d4c3"),
        (PINNED_B_PAWN, "Bxc3", "en", "d4c3"),
        (BLACK_B_PAWN, "bxc6", "en", "b7c6"),
        // Lower-case letters of other languages.
        (START, "sf3", "de", "g1f3"),
        (START, "cf3", "fr", "g1f3"),
        (START, "pf3", "nl", "g1f3"),
        (START, "jf3", "cs", "g1f3"),
    ]);
}

/// The column of a syntax error, or the whole error when it is not one.
fn col(fen: &str, text: &str, code: &str) -> Result<usize, String> {
    match read_move(text, &pos(fen), lang(code)) {
        Err(NotationError {
            kind: ErrorKind::Malformed(e),
            ..
        }) => Ok(e.col),
        other => Err(format!("{other:?}")),
    }
}

#[test]
fn syntax_errors_point_at_the_column() {
    let cases: &[(&str, &str, &str, usize)] = &[
        (START, "", "en", 1),
        (START, "Nz3", "en", 2),
        (START, "Nf3 z", "en", 5),
        (START, "e9", "en", 2),
        (START, "Ke1-e9", "en", 6),
        (START, "♘z3", "en", 2),
        (START, "Крz3", "ru", 3),
        (START, "Şz3", "tr", 2),
        (START, "Nf3", "de", 1),
        (START, "Sf3", "en", 1),
        (START, "xe4", "en", 1),
        (START, "e2e4e5", "en", 5),
        (START, "Nf3+z", "en", 4),
        (PROMO, "e8=K", "en", 4),
        (PROMO, "e8=", "en", 4),
        (PROMO, "e8=Qz", "en", 5),
        (PROMO, "e8(Q)z", "en", 6),
        (PROMO, "e7e8k", "en", 5),
        (START, "5954", "en", 2),
        (START, "5294", "en", 3),
        (START, "12345", "en", 5),
        (START, "123", "en", 1),
        (START, "525400", "en", 1),
    ];
    let mut failures = Vec::new();
    for (fen, text, code, want) in cases {
        let got = col(fen, text, code);
        if got != Ok(*want) {
            failures.push(format!(
                "{text:?} ({code}): want column {want}, got {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]

fn syntax_error_columns_count_leading_spaces() {
    assert_eq!(col(START, "  Nz3", "en"), Ok(4));
}

#[test]
fn black_errors_say_what_and_why() {
    check_errors(&[
        (BLACK_EP, "dxc3", "en", "nothing to capture on c3"),
        (BLACK_EP, "e3", "en", "no black pawn can move to e3"),
        (BLACK_EP, "Nf6", "en", "Black has no knight"),
        (BLACK_EP, "O-O", "en", "Black can no longer castle kingside"),
        (BLACK_PROMO, "e1", "en", "the pawn promotes"),
        (BLACK_PROMO, "exd1", "en", "the pawn promotes"),
        (BLACK_PROMO, "e1=K", "en", "cannot promote to a king"),
        (BLACK_PROMO, "e1=P", "en", "cannot promote to a pawn"),
        (BLACK_CASTLES, "e2e4", "en", "no black piece stands on e2"),
        (
            "r3k2r/8/8/8/8/8/8/2R1K3 b kq - 0 1",
            "O-O-O",
            "en",
            "the king would cross or land on an attacked square",
        ),
        (
            "r3k2r/8/8/8/8/8/8/4R1K1 b kq - 0 1",
            "0-0",
            "en",
            "castling is not allowed while in check",
        ),
    ]);
}

#[test]
fn fen_after_a_double_step_reads_back_when_nothing_blocks() {
    // The en-passant square after 1.d4 with nothing on d6: written and read.
    let p = pos(START).play(chess::ChessMove::new(
        chess::Square::D2,
        chess::Square::D4,
        None,
    ));
    assert_eq!(p.ep_target(), Some(chess::Square::D3));
    assert_eq!(pos(&p.fen()).fen(), p.fen());
}

#[test]

fn fen_after_a_double_step_reads_back() {
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
    let p = Position::from_fen(fen);
    assert!(p.is_ok(), "{fen}: {p:?}");
    let mut p = pos(START);
    for (from, to) in [
        (chess::Square::E2, chess::Square::E4),
        (chess::Square::E7, chess::Square::E5),
    ] {
        p = p.play(chess::ChessMove::new(from, to, None));
    }
    assert_eq!(p.fen(), fen);
    assert_eq!(
        Position::from_fen(&p.fen()).map(|q| q.fen()),
        Ok(fen.to_string())
    );
}
