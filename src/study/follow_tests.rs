//! Following games: the main line, targets in variations, and leaving the games that can
//! no longer reach the target.

use super::*;
use crate::pgn::SliceReader;

fn walk(pgn: &str, target: Option<Goal>) -> Vec<Walked> {
    let mut reader = SliceReader::new(pgn.as_bytes());
    let mut follow = Follow::new(crate::notation::Lang::english(), target, true);
    std::iter::from_fn(|| reader.read_game_restarting(&mut follow)).collect()
}

#[test]
fn follows_the_main_line_with_castling_promotion_and_en_passant() {
    let pgn = "[White \"A\"]\n[WhiteElo \"2100\"]\n[Date \"1999.??.??\"]\n[Result \"1-0\"]\n\n\
               1. e4 d5 2. e5 f5 3. exf6 Nc6 4. fxg7 Bf5 5. gxh8=Q Qd7 6. Nf3 O-O-O 1-0\n";
    let games = walk(pgn, None);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(!g.read.has_problems());
    assert_eq!(g.moves.len(), 12);
    // Replaying the inferred moves gives back the game.
    assert!(g.start.is_none(), "from the standard position");
    let mut pos = Position::start();
    for mv in &g.moves {
        let mv = mv.expect("no null move");
        assert!(pos.is_legal(mv), "{mv} is legal");
        pos = pos.play(mv);
    }
    assert_eq!(
        pos.fen(),
        "2kr1bnQ/pppqp2p/2n5/3p1b2/8/5N2/PPPP1PPP/RNBQKB1R w KQ - 3 7"
    );
    assert_eq!(
        g.moves[8].map(|m| m.get_promotion()),
        Some(Some(chess::Piece::Queen))
    );
    let info = g.tags.as_ref().expect("the tags").info();
    assert_eq!(
        (info.result, info.white_elo, info.year),
        (GameResult::WhiteWins, 2100, 1999)
    );
}

#[test]
fn a_target_is_looked_for_inside_variations_at_its_ply_in_the_game() {
    let after_nf3 =
        Position::from_fen("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
            .expect("FEN");
    let target = Goal::of(after_nf3.board());
    let pgn = "1. e4 c5 (1... e5 2. Nf3) 2. Nc3 (2. Nf3) Nc6 *\n";
    let g = &walk(pgn, Some(target))[0];
    assert_eq!(g.reached, Some(3));
    // The main line's move at that ply (its fourth: 2... Nc6).
    assert_eq!(
        g.next,
        Next::Move(ChessMove::new(chess::Square::B8, chess::Square::C6, None))
    );
    let g = &walk("1. e4 c5 2. Nc3 *\n", Some(target))[0];
    assert_eq!(g.reached, None);
}

/// The position after `moves` (UCI) from the start.
fn after(moves: &[&str]) -> Position {
    moves.iter().fold(Position::start(), |pos, uci| {
        pos.play(uci.parse().expect("a UCI move"))
    })
}

/// The follower of a search for `target` in main lines, leaving the games that can no
/// longer reach it (`prunes`: by the men they lose, and by the moves they have left) or
/// following every game to its end.
fn searcher(target: &Position, prunes: bool) -> Follow {
    let mut f = Follow::new(
        crate::notation::Lang::english(),
        Some(Goal::of(target.board())),
        false,
    );
    f.prunes = prunes;
    f.counts_ahead &= prunes;
    f
}

#[test]
fn a_game_that_can_no_longer_reach_the_target_is_left_and_only_counted() {
    // Looking for 1. e4 c5 2. Nf3.
    let target = after(&["e2e4", "c7c5", "g1f3"]);
    let mut f = searcher(&target, true);
    let at = Pos::default();
    f.begin_game(at);
    assert_eq!(f.begin_movetext(), Skip(false));
    f.san(b"e4", at);
    assert!(f.watching, "after 1. e4 the game may still get there");
    // 1... e5 leaves e7, where the target still has Black's pawn: no pawn comes back.
    f.san(b"e5", at);
    assert!(!f.watching, "after 1... e5 it cannot");
    assert!(f.moves.is_empty(), "a search of main lines keeps no moves");
    // Its moves are only counted now, not played: nothing the search needs is there.
    f.san(b"Ke3", at);
    f.san(b"ch", at);
    f.san(b"O-O", at);
    let w = f.end_game();
    assert_eq!(w.reached, None);
    // The plies as written, the illegal move included, the mark left out (`list`'s count),
    // though the reader gave no count of its own.
    assert_eq!(w.plies, 4);
    assert!(w.read.problems().is_empty(), "{:?}", w.read.problems());
}

/// A problem met before the game is left is found and reported as `check` reports it; the
/// results are compared only for a game read to its end.
#[test]
fn problems_before_a_game_is_left_are_found_and_results_after_are_not_compared() {
    let target = after(&["e2e4", "c7c5"]);
    let mut f = searcher(&target, true);
    let mut reader = SliceReader::new(b"1. e4 Ke5 2. Nf3 *\n");
    let w = reader.read_game_restarting(&mut f).expect("a game");
    assert_eq!(w.read.problems().len(), 1, "{:?}", w.read.problems());
    assert_eq!(w.plies, 3);
    // Left after 1... e5; the game ends with a mate by White that the result denies: the
    // board followed is not the last one, so no word about the result.
    let mut reader =
        SliceReader::new(b"[Result \"0-1\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 0-1\n");
    let w = reader.read_game_restarting(&mut f).expect("a game");
    assert!(w.read.problems().is_empty(), "{:?}", w.read.problems());
    assert_eq!(w.plies, 7);
    // Read to its end (the target 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7 reached at the
    // last ply), the same game gets its word.
    let mate = after(&["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]);
    let mut f = searcher(&mate, true);
    let mut reader =
        SliceReader::new(b"[Result \"0-1\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 0-1\n");
    let w = reader.read_game_restarting(&mut f).expect("a game");
    assert_eq!(w.reached, Some(7));
    assert!(
        !w.read.problems().is_empty(),
        "the mate and the result disagree"
    );
}

/// A search for an endgame counts each game's moves first: a game with fewer moves left
/// than the men the target lacks is left (what comes after is not read), and one that
/// takes the last man it must on its last move is found.
#[test]
fn a_game_with_too_few_moves_left_to_reach_an_endgame_is_left() {
    const START: &str = "[SetUp \"1\"]\n[FEN \"8/8/4k3/3r4/3R4/8/8/4K3 w - - 0 1\"]\n\n";
    let start = Position::from_fen("8/8/4k3/3r4/3R4/8/8/4K3 w - - 0 1").expect("FEN");
    let read = |target: &Position, movetext: &str, counts: bool| {
        let pgn = format!("{START}{movetext}\n");
        let mut reader = SliceReader::new(pgn.as_bytes());
        let mut f = searcher(target, counts);
        let w = reader.read_game_restarting(&mut f).expect("a game");
        (w.reached, w.read.problems().len(), w.plies)
    };
    // Kings alone: both rooks must be taken, two moves at least.
    let kings = Position::from_fen("8/8/8/3k4/8/8/8/4K3 w - - 0 3").expect("FEN");
    assert!(
        Follow::new(
            crate::notation::Lang::english(),
            Some(Goal::of(kings.board())),
            false
        )
        .counts_ahead
    );
    // One move: left at once, so the illegal one is not read (followed, it is found).
    assert_eq!(read(&kings, "1. Kxe8 *", true), (None, 0, 1));
    assert_eq!(read(&kings, "1. Kxe8 *", false), (None, 1, 1));
    // Two moves, the second an illegal one: followed until the first takes no man.
    assert_eq!(read(&kings, "1. Kd2 Kxe1 *", true), (None, 0, 2));
    assert_eq!(read(&kings, "1. Kd2 Kxe1 *", false), (None, 1, 2));
    // Exactly as many moves as men to take: found at the last.
    assert_eq!(read(&kings, "1. Rxd5 Kxd5 *", true), (Some(2), 0, 2));
    // A rook against the king: the target of one rook taken, at the last move.
    let rook = start.play("d4d5".parse().expect("UCI"));
    assert_eq!(read(&rook, "1. Rxd5 *", true), (Some(1), 0, 1));
    assert_eq!(read(&rook, "1. Kd2 *", true), (None, 0, 1));
    // The start position itself, with no move at all.
    assert_eq!(read(&start, "*", true), (Some(0), 0, 0));
}

#[test]
fn a_game_that_reaches_the_target_is_followed_to_the_move_played_there() {
    let target = after(&["e2e4"]);
    let mut reader = SliceReader::new(b"1. e4 e5 2. Nf3 Nc6 *\n");
    let mut f = searcher(&target, true);
    let w = reader.read_game_restarting(&mut f).expect("a game");
    assert_eq!(w.reached, Some(1));
    assert_eq!(
        w.next,
        Next::Move(ChessMove::new(chess::Square::E7, chess::Square::E5, None))
    );
    assert_eq!(w.plies, 4);
    // Once the move played there is known, the game has nothing more to give: it is left
    // (its moves only counted), though it could reach the target again.
    let mut f = searcher(&target, false);
    let at = Pos::default();
    f.begin_game(at);
    f.begin_movetext();
    f.san(b"e4", at);
    assert!(f.watching, "the move played there is still to come");
    f.san(b"e5", at);
    assert!(!f.watching, "left after 1... e5");
    f.san(b"Ke3", at);
    let w = f.end_game();
    assert_eq!((w.reached, w.plies), (Some(1), 3));
    assert_eq!(
        w.next,
        Next::Move(ChessMove::new(chess::Square::E7, chess::Square::E5, None))
    );
    assert!(w.read.problems().is_empty(), "Ke3 is not played");
}

/// The key of each position of a game, with the move played from it (the last with none).
type Line = Vec<(u64, Option<ChessMove>)>;

/// A game of random legal moves from `start`, picked by `picks`: its movetext (SAN), and
/// its line.
fn random_game(start: &Position, picks: &[u16]) -> (String, Line) {
    let mut pos = *start;
    let (mut text, mut line) = (String::new(), Vec::new());
    for pick in picks {
        let moves: Vec<ChessMove> = chess::MoveGen::new_legal(pos.board()).collect();
        if moves.is_empty() {
            break;
        }
        // Captures and pawn moves first when the pick is even: games then lose material
        // and move their pawns (what leaves them), and promote now and then.
        let pawns = pos.board().pieces(chess::Piece::Pawn);
        let mut urgent: Vec<ChessMove> = moves
            .iter()
            .copied()
            .filter(|m| {
                pos.board().piece_on(m.get_dest()).is_some()
                    || pawns & chess::BitBoard::from_square(m.get_source()) != chess::EMPTY
            })
            .collect();
        if urgent.is_empty() || pick % 2 == 1 {
            urgent = moves;
        }
        let mv = urgent[usize::from(*pick / 2) % urgent.len()];
        if pos.side_to_move() == Color::White || text.is_empty() {
            let dots = if pos.side_to_move() == Color::White {
                "."
            } else {
                "..."
            };
            text.push_str(&format!("{}{dots} ", pos.fullmove_number()));
        }
        text.push_str(&crate::notation::san(
            &pos,
            crate::position::Move::Normal(mv),
        ));
        text.push(' ');
        line.push((crate::study::key::key(pos.board()), Some(mv)));
        pos = pos.play(mv);
    }
    line.push((crate::study::key::key(pos.board()), None));
    (text, line)
}

/// Start positions for the random games: the standard one, one with pawns about to
/// promote (pieces then come back), one with castling rights and few men, and an endgame
/// (no castling, no pawn on its first square: games are left by the moves they have left).
const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
    "4k2r/pp3ppp/8/8/8/8/PP3PPP/R3K3 b Qk - 0 20",
    "4k3/8/1p3p2/2n1r3/2N1R3/1P3P2/8/4K3 w - - 0 30",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Leaving the games that can no longer reach the target never loses one that does:
    /// every game is found at the first ply it reaches the target, with the move it played
    /// there, as when every game is followed to its end and as the games were made.
    #[test]
    fn leaving_games_never_loses_one_that_reaches_the_target(
        games in proptest::collection::vec(
            (0..STARTS.len(), proptest::collection::vec(0u16..400, 0..90)),
            1..6,
        ),
        which in 0usize..6,
        ply in 0usize..90,
    ) {
        let made: Vec<(Position, String, Line)> = games
            .iter()
            .map(|(s, picks)| {
                let start = Position::from_fen(STARTS[*s]).expect("FEN");
                let (text, line) = random_game(&start, picks);
                (start, text, line)
            })
            .collect();
        // The target: a position one of the games reaches.
        let (start, _, line) = &made[which % made.len()];
        let mut target = *start;
        for (_, mv) in line.iter().take(ply) {
            if let Some(mv) = mv {
                target = target.play(*mv);
            }
        }
        let goal = crate::study::key::key(target.board());
        let mut pgn = String::new();
        for (start, text, _) in &made {
            if *start != Position::start() {
                pgn.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n\n", start.fen()));
            }
            pgn.push_str(text);
            pgn.push_str("*\n\n");
        }
        let read = |prunes: bool| -> Vec<(Option<u32>, Next, u32)> {
            let mut reader = SliceReader::new(pgn.as_bytes());
            let mut f = searcher(&target, prunes);
            std::iter::from_fn(|| reader.read_game_restarting(&mut f))
                .map(|w| (w.reached, w.next, w.plies))
                .collect()
        };
        let truth: Vec<(Option<u32>, Next, u32)> = made
            .iter()
            .map(|(_, _, line)| {
                let at = line.iter().position(|(k, _)| *k == goal);
                let next = match at.map(|i| line[i].1) {
                    Some(Some(mv)) => Next::Move(mv),
                    _ => Next::End,
                };
                (at.map(|i| i as u32), next, line.len() as u32 - 1)
            })
            .collect();
        proptest::prop_assert_eq!(&read(true), &truth);
        proptest::prop_assert_eq!(&read(false), &truth);
    }
}

#[test]
fn reading_only_what_the_tree_keeps_gives_the_info_and_no_tags() {
    let pgn =
        "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[Date \"2001.02.03\"]\n\
               [WhiteElo \"2100\"]\n[BlackElo \"2200\"]\n[ECO \"C20\"]\n\n1. e4 e5 0-1\n";
    let target = after(&["e2e4"]);
    let read = |reads: TagsRead| {
        let mut reader = SliceReader::new(pgn.as_bytes());
        let mut f = searcher(&target, true).reading_tags(reads);
        reader.read_game_restarting(&mut f).expect("a game")
    };
    let w = read(TagsRead::Info);
    let info = GameInfo {
        result: GameResult::BlackWins,
        white_elo: 2100,
        black_elo: 2200,
        year: 2001,
    };
    assert_eq!((w.info, w.tags), (info, None));
    let w = read(TagsRead::All);
    assert_eq!(w.info, info);
    assert_eq!(
        w.tags.map(|t| (t.white, t.eco)),
        Some(("A".into(), "C20".into()))
    );
    let w = read(TagsRead::Places);
    assert_eq!((w.info, w.tags), (GameInfo::default(), None));
    // The players are still known for the messages about the game's problems.
    assert_eq!(w.read.players(), "A - B");
}

/// The plies a game is given are those `list` shows (the scanner's count of its main line
/// as written, marks such as `e.p.` left out), whatever stopped the game being played — an
/// illegal move, a lexical error, a chess variant, a mark where a move should be — and
/// whatever the follower reads (a search leaving games early, one inside variations, an
/// index).
#[test]
fn plies_are_those_list_counts_whatever_stopped_the_game() {
    let pgn = "1. e4 {a comment} e5!? (1... c5 2. Nf3) 2. Nf3 $1 Nc6 1-0\n\n\
               1. e4 e5 2. Ke3 Nc6 3. Nf3 *\n\n\
               1. e4 Nf6 2. e5 d5 3. exd6 e.p. exd6 *\n\n\
               1. e4 e5 2. Nf3 } Nc6 3. Bb5 *\n\n\
               1. e4 -- 2. d4 *\n\n\
               1. e4 d5 (1... Nf6 2. e5 *\n\n\
               [Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n\n\
               1. e4 d5 2. Ke3 dxe4 3. f4 exf3 e.p. 4. Nf3 *\n\n\
               e.p. 1. e4 e5 *\n";
    let list: Vec<u32> = crate::pgn::index(pgn.as_bytes())
        .iter()
        .map(|e| e.plies)
        .collect();
    assert_eq!(list, [4, 5, 6, 5, 3, 2, 2, 7, 2]);
    let e4 = after(&["e2e4"]);
    let lang = crate::notation::Lang::english();
    let followers = [
        ("index", Follow::new(lang, None, false).indexing()),
        ("search, leaving games", searcher(&e4, true)),
        ("search to the end", searcher(&e4, false)),
        (
            "variations",
            Follow::new(lang, Some(Goal::of(e4.board())), true),
        ),
        (
            "no tags",
            searcher(&e4, true).reading_tags(TagsRead::Places),
        ),
    ];
    for (what, mut f) in followers {
        let mut reader = SliceReader::new(pgn.as_bytes());
        let plies: Vec<u32> = std::iter::from_fn(|| reader.read_game_restarting(&mut f))
            .map(|w| w.plies)
            .collect();
        assert_eq!(plies, list, "{what}");
    }
}

/// Ratings and results read the short way give what trimming and parsing give, for the
/// values files hold and the odd ones (blanks, a sign, five digits, too large, not a
/// number).
#[test]
fn ratings_and_results_read_as_written_or_trimmed() {
    for value in [
        "2100",
        "0",
        "7",
        "0999",
        "9999",
        "65535",
        "65536",
        "70000",
        "+2100",
        " 2100",
        "2100 ",
        "\u{a0}2100",
        "?",
        "",
        "-",
        "21OO",
        "2100.5",
        "１２",
    ] {
        let general: u16 = value.trim().parse().unwrap_or(0);
        assert_eq!(elo_of(value), general, "{value:?}");
    }
    for (value, result) in [
        ("1-0", GameResult::WhiteWins),
        ("0-1", GameResult::BlackWins),
        ("1/2-1/2", GameResult::Draw),
        (" 1/2-1/2 ", GameResult::Draw),
        ("½-½", GameResult::Draw),
        ("1-0\u{a0}", GameResult::WhiteWins),
        ("*", GameResult::Unknown),
        ("1-1", GameResult::Unknown),
        ("", GameResult::Unknown),
    ] {
        assert_eq!(GameResult::of(value), result, "{value:?}");
    }
}

/// Every rating of four characters from digits and a few others (the quick way's
/// shape) reads as the general way reads it.
#[test]
fn four_character_ratings_read_as_the_general_way_reads_them() {
    let alphabet = [b'0', b'1', b'5', b'9', b'?', b'-', b' ', b'x', b'/', b':'];
    let mut digits_only = 0;
    for k in 0..alphabet.len().pow(4) {
        let text: Vec<u8> = (0..4)
            .map(|at| alphabet[k / alphabet.len().pow(at) % alphabet.len()])
            .collect();
        let text = std::str::from_utf8(&text).unwrap();
        assert_eq!(
            elo_of(text),
            text.trim().parse::<u16>().unwrap_or(0),
            "{text:?}"
        );
        digits_only += usize::from(text.bytes().all(|b| b.is_ascii_digit()));
    }
    assert_eq!(digits_only, 4usize.pow(4));
}
