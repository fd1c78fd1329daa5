use super::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(from: &str, to: &str) -> ChessMove {
    ChessMove::new(parse_square(from).unwrap(), parse_square(to).unwrap(), None)
}

#[test]
fn fen_round_trips_keep_every_field() {
    for fen in [
        START_FEN,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39",
        "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 17 80",
        "8/8/8/8/8/6k1/8/3q3K w - - 0 1",
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
}

#[test]
fn four_field_fen_defaults_the_counters() {
    assert_eq!(
        pos("4k3/8/8/8/8/8/4P3/4K3 w - -").fen(),
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    );
}

#[test]
fn a_comment_after_a_semicolon_is_not_part_of_the_fen() {
    // The lines `:snap` writes.
    let line = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 ; game 3, ply 3";
    assert_eq!(
        pos(line).fen(),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    assert_eq!(
        pos("4k3/8/8/8/8/8/4P3/4K3 w - - 7 40;x").fen(),
        "4k3/8/8/8/8/8/4P3/4K3 w - - 7 40"
    );
    // Other text after the six fields is still an error: a typo is not a comment.
    assert_eq!(
        Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 game 3"),
        Err(FenError::FieldCount(8))
    );
    // A comment cannot stand in for missing fields.
    assert_eq!(
        Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - ; 0 1"),
        Err(FenError::FieldCount(3))
    );
    // Counted in words that agree with their number.
    let one = Position::from_fen("garbage").unwrap_err().to_string();
    assert!(one.starts_with("FEN has 1 field; it needs 6"), "{one}");
    let rank = Position::from_fen("8 w - - 0 1").unwrap_err().to_string();
    assert_eq!(rank, "placement: 1 rank separated by '/', not 8");
}

#[test]
fn playing_moves_keeps_the_counters_and_en_passant_square() {
    let p = Position::start().play(mv("e2", "e4"));
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    let p = p.play(mv("c7", "c5")).play(mv("g1", "f3"));
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
}

#[test]
fn bad_fens_name_the_field() {
    let cases: &[(&str, &str)] = &[
        ("8/8/8 w - - 0 1", "placement: 3 ranks"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
            "needs 6",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 7 (\"ppppppp\") describes 7 squares",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "'9' is not a piece letter",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBXR w KQkq - 0 1",
            "'X' is not a piece letter",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "Black has 0 kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
            "White has 2 kings",
        ),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "a pawn on a1"),
        ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "a pawn on h8"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move: 'x'"),
        (
            "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
            "Black is in check although it is not their move",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w Kx - 0 1", "castling: 'Kx'"),
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            "'K' needs the white king on e1 and a rook on h1",
        ),
        (
            "r3k3/8/8/8/8/8/8/4K3 w k - 0 1",
            "'k' needs the black king on e8 and a rook on h8",
        ),
        ("4k3/8/8/8/8/8/8/R3K2R w HA - 0 1", "Chess960"),
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en passant: 'e9'"),
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
            "with White to move it must be on the 6th rank",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 b - e3 0 1",
            "no pawn stands in front of it",
        ),
        ("4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1", "not empty"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "half-move clock: 'x'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "move number: '0'"),
        ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "Black has 9 pawns"),
    ];
    for (fen, want) in cases {
        let err = Position::from_fen(fen).expect_err(fen).to_string();
        assert!(err.contains(want), "{fen}: got {err:?}, want {want:?}");
    }
}

#[test]
fn status_covers_the_rules() {
    assert_eq!(
        pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").status(),
        Status::Checkmate
    );
    assert_eq!(
        pos("1k6/1P6/1K6/8/8/8/8/8 b - - 0 1").status(),
        Status::Stalemate
    );
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
    ] {
        assert_eq!(pos(fen).status(), Status::InsufficientMaterial, "{fen}");
    }
    // Bishops on squares of different colours can mate.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1").status(),
        Status::Ongoing
    );
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").status(),
        Status::FiftyMoves
    );
    assert!(pos("4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1").is_check());
}

#[test]
fn history_sees_threefold_repetition() {
    let mut p = Position::start();
    let mut h = History::new(&p);
    for _ in 0..2 {
        for (a, b) in [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")] {
            p = p.play(mv(a, b));
            h.push(&p);
        }
    }
    assert_eq!(h.repetitions(), 3);
    assert!(h.is_threefold());
    assert_eq!(p.status_with(&h), Status::ThreefoldRepetition);
    assert_eq!(p.status(), Status::Ongoing);
    p = p.play(mv("e2", "e4"));
    h.push(&p);
    assert_eq!(h.repetitions(), 1);
    assert_eq!(p.status_with(&h), Status::Ongoing);
}

#[test]
fn mate_comes_before_repetition() {
    // A repeated history cannot make a mated side's position a draw.
    let mated = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 10 40");
    let mut h = History::new(&mated);
    h.push(&mated);
    h.push(&mated);
    assert!(h.is_threefold());
    assert_eq!(mated.status_with(&h), Status::Checkmate);
}

#[test]
fn null_move_is_refused_in_check() {
    assert!(pos("4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1").play_null().is_none());
    let p = Position::start().play_null().unwrap();
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1"
    );
}
