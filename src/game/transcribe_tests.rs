//! Tests of [`super`]: free move text.
use super::*;

fn sans(t: &Transcript) -> Vec<String> {
    t.game
        .mainline()
        .iter()
        .map(|id| t.game.node(*id).san.clone())
        .collect()
}

fn read(text: &str) -> Transcript {
    transcribe(text, Position::start(), Lang::english(), false)
}

#[test]
fn move_numbers_in_every_form() {
    for text in [
        "1. e4 e5 2. Nf3 Nc6",
        "1.e4 e5 2.Nf3 Nc6",
        "1. e4\n1... e5\n2. Nf3\n2... Nc6",
        "1 e4 e5\n2 Nf3 Nc6",
        "1) e4 e5 2) Nf3 Nc6",
        "1. e4 e5 2. Nf3 2…Nc6",
        "1.e4 1...e5 2.Nf3 2. ... Nc6",
        "e2-e4 e7-e5 Ng1-f3 Nb8-c6",
        "e2e4 e7e5 g1f3 b8c6",
        "1. 5254 5755 2. 7163 2836",
        "1 | e4 | e5\n2 | Nf3 | Nc6",
    ] {
        let t = read(text);
        assert_eq!(t.error, None, "{text}");
        assert_eq!(sans(&t), ["e4", "e5", "Nf3", "Nc6"], "{text}");
    }
}

#[test]
fn results_comments_and_marks() {
    let t = read("1. e4 {best by test} e5 2. Nf3 (=) Nc6 ½–½");
    assert_eq!(t.game.tag("Result"), Some("1/2-1/2"));
    let line = t.game.mainline();
    assert_eq!(t.game.node(line[0]).comments_after, ["best by test"]);
    assert!(t.game.node(line[2]).draw_offer);
    let t = read("1. f3 e5 2. g4 Qh4 mate 0–1");
    assert_eq!(sans(&t).last().map(String::as_str), Some("Qh4#"));
    assert_eq!(t.game.tag("Result"), Some("0-1"));
    // Black, to move after Qh5, resigned.
    let t = read("1. e4 e5 2. Qh5 Resigns");
    assert_eq!(t.game.tag("Result"), Some("1-0"));
    let t = read("1. e4 e5 White resigns");
    assert_eq!(t.game.tag("Result"), Some("0-1"));
    let t = read("1. e4 e5 Black resigns");
    assert_eq!(t.game.tag("Result"), Some("1-0"));
}

#[test]
fn uci_logs_give_the_last_position_and_the_best_move() {
    let log = "uci\nid name Stockfish\nuciok\nisready\nreadyok\n\
        position startpos moves e2e4\ngo wtime 60000\ninfo depth 12 score cp 30\nbestmove e7e5\n\
        position startpos moves e2e4 e7e5 g1f3\ngo wtime 59000\nbestmove b8c6 ponder f1b5\n";
    let t = read(log);
    assert_eq!(t.error, None);
    assert_eq!(sans(&t), ["e4", "e5", "Nf3", "Nc6"]);
    let log = "position fen 4k3/8/8/8/8/8/4P3/4K3 b - - 0 40 moves e8d7 e2e4\n";
    let t = read(log);
    assert_eq!(sans(&t), ["Kd7", "e4"]);
    assert_eq!(t.game.tag("FEN"), Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"));
    let t = read("position startpos moves e2e4 e7e5 e1e2 a7a6 e2e4");
    let e = t.error.clone().expect("illegal king move");
    assert_eq!((e.line, e.col, e.token.as_str()), (1, 45, "e2e4"));
    assert_eq!(sans(&t), ["e4", "e5", "Ke2", "a6"]);
}

#[test]
fn games_follow_one_another_and_nothing_after_a_result_is_lost() {
    let all = |text: &str| transcribe_all(text, Position::start(), Lang::english(), false);
    let games = all("1. e4 e5 1-0 {time}\n\n1. d4 d5 0-1\n[Round \"3\"] 1. c4 *");
    assert_eq!(games.len(), 3);
    assert!(games.iter().all(|t| t.error.is_none()));
    assert_eq!(sans(&games[0]), ["e4", "e5"]);
    assert_eq!(
        games[0]
            .game
            .node(games[0].game.mainline()[1])
            .comments_after,
        ["time"]
    );
    assert_eq!(games[1].game.tag("Result"), Some("0-1"));
    assert_eq!(games[2].game.tag("Round"), Some("3"));
    // Text after a result that does not start a game is an error at that text; the
    // game before it keeps its result.
    let games = all("1. e4 e5 1-0 2. Nf3 Nc6");
    assert_eq!(games.len(), 1);
    let e = games[0].error.clone().expect("an error");
    assert_eq!((e.line, e.col, e.token.as_str()), (1, 14, "2."));
    assert_eq!(games[0].game.tag("Result"), Some("1-0"));
    // The single-game reader says where a second game starts.
    let t = read("1. e4 e5 1-0\n1. d4");
    let e = t.error.expect("a second game");
    assert_eq!((e.line, e.col), (2, 1));
    assert_eq!(e.reason, "a second game starts here");
}

#[test]
fn a_runaway_game_stops_at_the_ply_limit_with_an_error() {
    let text = "Nf3 Nf6 Ng1 Ng8\n".repeat(MAX_PLIES / 4 + 1);
    let t = read(&text);
    assert_eq!(t.game.mainline().len(), MAX_PLIES);
    let e = t.error.expect("stopped");
    assert_eq!(
        (e.line, e.col, e.token.as_str()),
        (MAX_PLIES / 4 + 1, 1, "Nf3")
    );
    assert!(
        e.reason
            .starts_with("more than 100000 half-moves in one game"),
        "{}",
        e.reason
    );
}

#[test]
fn stops_at_the_first_bad_move_with_its_position() {
    let t = read("1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Nf3 4. O-O");
    let e = t.error.clone().expect("an error");
    assert_eq!((e.line, e.col), (3, 8));
    assert_eq!(e.token, "Nf3");
    assert!(
        e.reason.contains("no black knight can reach f3"),
        "{}",
        e.reason
    );
    assert_eq!(sans(&t), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    assert_eq!(t.game.tag("Result"), Some("*"));
}

#[test]
fn the_text_of_a_game_not_read_is_kept_up_to_where_the_next_game_starts() {
    let all = |text: &str| transcribe_all(text, Position::start(), Lang::english(), false);
    let kept = |t: &Transcript| {
        let last = t.game.mainline().last().copied().unwrap_or(NodeId::ROOT);
        t.game.node(last).comments_after.clone()
    };
    // A result is no game's first move: what follows the bad move up to it and past it
    // (to the next move 1) is the bad game's.
    let games = all("1. e4 Ke7 2. d4 1-0 {won}\n1. d4 d5 *");
    assert_eq!(games.len(), 2);
    assert_eq!(
        kept(&games[0]),
        ["not read (from line 1, column 7): Ke7 2. d4 1-0 {won}"]
    );
    assert_eq!(sans(&games[1]), ["d4", "d5"]);
    // Black's first move is no new game; White's is, even without a result before it.
    let games = all("1. Sf3 1... d5 2. c4\n1. e4 *");
    assert_eq!(games.len(), 2);
    assert_eq!(
        kept(&games[0]),
        ["not read (from line 1, column 4): Sf3 1... d5 2. c4"]
    );
    assert_eq!(sans(&games[1]), ["e4"]);
    // The tags after a bad FEN tag are its own game's, not a next game.
    let games = all("[FEN \"bad\"]\n[White \"A\"]\n1. e4 *\n\n[White \"B\"]\n1. d4 *");
    assert_eq!(games.len(), 2);
    assert_eq!(
        kept(&games[0]),
        ["not read (from line 1, column 1): [FEN \"bad\"] [White \"A\"] 1. e4 *"]
    );
    assert_eq!(games[1].game.tag("White"), Some("B"));
    assert!(games[1].error.is_none());
}

/// A `{` or `(` left open ends where the next game starts (a blank line, then its tags or
/// its first move), as the PGN readers end it: it costs its own game, not every game after.
#[test]
fn a_comment_or_variation_left_open_ends_at_the_next_game() {
    let all = |text: &str| transcribe_all(text, Position::start(), Lang::english(), false);
    let games = all(
        "[Event \"u1\"]\n\n1. e4 { open\n\n[Event \"u2\"]\n\n1. d4 d5 *\n\n\
         [Event \"u3\"]\n\n1. c4 (1. Nf3\n\n[Event \"u4\"]\n\n1. e4 e5 *\n",
    );
    let events: Vec<_> = games.iter().map(|t| t.game.tag("Event")).collect();
    assert_eq!(events, [Some("u1"), Some("u2"), Some("u3"), Some("u4")]);
    assert_eq!(sans(&games[1]), ["d4", "d5"]);
    assert_eq!(sans(&games[3]), ["e4", "e5"]);
    // A blank line inside a comment that a move, not a game, follows stays in it.
    let games = all("1. e4 {first\n\nsecond} e5 *");
    assert_eq!(games.len(), 1);
    assert_eq!(sans(&games[0]), ["e4", "e5"]);
}

/// Games of random legal moves in SAN, each ending in a result, with some words replaced
/// by what no reader can play (`Zz9`, a German `Sf3`, a move of the wrong side).
fn games_with_bad_words() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let game = (
        proptest::collection::vec(any::<u16>(), 1..30),
        proptest::collection::vec((any::<u16>(), 0..3u8), 0..3),
    );
    proptest::collection::vec(game, 1..4).prop_map(|games| {
        let mut text = String::new();
        for (choices, bad) in games {
            let mut pos = Position::start();
            let mut words: Vec<String> = Vec::new();
            for c in choices {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[usize::from(c) % moves.len()];
                if pos.side_to_move() == chess::Color::White {
                    words.push(format!("{}.", pos.fullmove_number()));
                }
                words.push(crate::notation::san(
                    &pos,
                    crate::position::Move::Normal(mv),
                ));
                pos = pos.play(mv);
            }
            for (at, kind) in bad {
                let k = usize::from(at) % words.len();
                if words[k].ends_with('.') {
                    continue;
                }
                words[k] = ["Zz9", "Sf3", "Ke5"][usize::from(kind)].to_string();
            }
            text.push_str(&words.join(" "));
            text.push_str(" 1-0\n\n");
        }
        text
    })
}

proptest::proptest! {
    /// Nothing of the text is lost: every word of every game is in the PGN written, as a
    /// move read or in the comment that keeps what was not read; and every game is there.
    #[test]
    fn every_word_of_the_text_is_in_the_pgn_written(text in games_with_bad_words()) {
        let games = transcribe_all(&text, Position::start(), Lang::english(), false);
        let written: String = games
            .iter()
            .map(|t| crate::pgn::write_game_to_string(&t.game))
            .collect();
        // Without `x`: a capture may be written without it (`Ke5` for `Kxe5`, as a
        // planted "bad" word reads when the king can take there) and is written with it.
        let words_of = |text: &str| -> Vec<String> {
            text.split_whitespace()
                .filter(|w| strip_move_number(w).is_some_and(|w| !w.starts_with('.')))
                .map(|w| w.trim_end_matches(['+', '#']).replace('x', ""))
                .collect()
        };
        let mut out = words_of(&written.replace(['{', '}', ';'], " ")).into_iter();
        // In order: each word of the text is found after the one before.
        for word in words_of(&text) {
            proptest::prop_assert!(
                out.any(|w| w.trim_end_matches(['+', '#']) == word),
                "{word} is missing from\n{written}\nfor\n{text}"
            );
        }
        proptest::prop_assert_eq!(games.len(), text.matches("1-0").count());
    }
}
