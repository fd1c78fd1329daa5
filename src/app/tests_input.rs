//! Long lines and pastes.

use super::*;

/// Knights out and back: legal forever, four half-moves a round.
fn knight_rounds(rounds: usize) -> String {
    "Nf3 Nf6 Ng1 Ng8 ".repeat(rounds)
}

#[test]
fn a_long_line_gets_feedback_without_being_read_and_is_read_on_enter() {
    let mut app = app();
    // The second word is illegal; only Enter reads far enough to see it.
    let line = format!("e4 e4 {}", knight_rounds(250));
    for c in line.chars() {
        app.update(Action::Type(c));
    }
    assert!(
        matches!(&app.feedback, Feedback::Note(n) if n.contains("Enter")),
        "{:?}",
        app.feedback
    );
    app.update(Action::PlayEntry);
    assert!(app.message.error);
    assert!(
        app.message.text.starts_with("1... e4:"),
        "{}",
        app.message.text
    );
    assert!(app.game.is_empty());
    // A good long line: a thousand half-moves, played on Enter.
    app.update(Action::ClearEntry);
    type_line(&mut app, &knight_rounds(250));
    assert!(!app.message.error, "{}", app.message.text);
    assert_eq!(app.game.mainline().len(), 1000);
    // A short line still gets the full feedback (its number is the move's).
    for c in "501. e4".chars() {
        app.update(Action::Type(c));
    }
    assert!(
        matches!(app.feedback, Feedback::Ready(_)),
        "{:?}",
        app.feedback
    );
}

#[test]
fn a_pasted_move_list_is_played_like_a_typed_line() {
    let mut app = app();
    app.update(Action::Type('1'));
    let effect = app.paste(". e4 e5\r\n2. Nf3 Nc6\n", true);
    assert_eq!(effect, Effect::None);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    assert!(app.entry.is_empty());
    assert!(app.take_journal_due());
    // A bad word: nothing played, the text stays on the line to be fixed.
    app.paste("Bb5 a6 Bxa6 Qd7", true);
    assert!(app.message.error);
    assert_eq!(sans(&app).len(), 4);
    assert_eq!(app.entry, "Bb5 a6 Bxa6 Qd7");
}

#[test]
fn a_pasted_pgn_or_fen_opens_in_place_of_an_empty_game() {
    let mut app = app();
    let pgn = "[Event \"Club\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
               1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let Effect::Open(game) = app.paste(pgn, true) else {
        panic!("not opened: {}", app.message.text)
    };
    assert_eq!(game.tag("White"), Some("Ann"));
    assert_eq!(game.mainline().len(), 7);
    assert!(
        app.message.text.contains("7 half-moves"),
        "{}",
        app.message.text
    );

    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let Effect::Open(game) = app.paste(fen, true) else {
        panic!("not opened: {}", app.message.text)
    };
    assert_eq!(game.start.fen(), fen);
}

#[test]
fn a_pasted_game_never_replaces_unsaved_moves() {
    let mut app = app();
    type_line(&mut app, "e4");
    let effect = app.paste("[White \"Ann\"]\n\n1. d4 d5 *\n", true);
    assert_eq!(effect, Effect::None);
    assert!(app.message.error);
    assert!(app.message.text.contains(":w"), "{}", app.message.text);
    assert_eq!(sans(&app), ["e4"]);
    // Once saved, the pasted game may follow it.
    app.saved(PathBuf::from("g.pgn"), Placed::InPlace);
    assert!(matches!(
        app.paste("[White \"Ann\"]\n\n1. d4 d5 *\n", true),
        Effect::Open(_)
    ));
}

#[test]
fn a_paste_cut_off_is_not_used() {
    let mut app = app();
    let effect = app.paste("1. e4 e5 2. Nf", false);
    assert_eq!(effect, Effect::None);
    assert!(app.game.is_empty());
    assert!(app.entry.is_empty());
    assert!(app.message.error);
    assert!(app.message.text.contains("cut off"), "{}", app.message.text);
}

/// `O-O` is a whole move, not the start of `O-O-O`: where only the long castling is
/// legal, the line says why the short one is not, and Enter refuses it for that reason.
#[test]
fn short_castling_that_cannot_be_is_refused_not_completed() {
    let long_only = Position::from_fen("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1").unwrap();
    let why = "illegal: the king would cross or land on an attacked square";
    for text in ["O-O", "O-O+", "0-0"] {
        let mut app = App::new(Settings::default(), Game::new(long_only), None);
        for c in text.chars() {
            app.update(Action::Type(c));
        }
        assert_eq!(
            app.feedback,
            Feedback::Illegal(format!("{text}: {why} (O-O-O is legal)")),
            "{text}"
        );
        app.update(Action::PlayEntry);
        assert!(app.message.error, "{text}: {}", app.message.text);
        assert_eq!(app.message.text, format!("{text}: {why}"));
        assert!(app.game.is_empty());
        assert_eq!(app.entry, text);
        // Typed on (`O-O` + `-O`), it is the long castling.
        if text.ends_with('+') {
            continue;
        }
        for c in text[1..].chars() {
            app.update(Action::Type(c));
        }
        assert!(
            matches!(app.feedback, Feedback::Ready(_)),
            "{:?}",
            app.feedback
        );
        app.update(Action::PlayEntry);
        assert_eq!(sans(&app), ["O-O-O"]);
    }
    // Where both castlings are legal, O-O is played and both are offered on the way.
    let both = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let mut app = App::new(Settings::default(), Game::new(both), None);
    app.update(Action::Type('O'));
    app.update(Action::Type('-'));
    assert!(
        matches!(&app.feedback, Feedback::Partial(m) if m.len() == 2),
        "{:?}",
        app.feedback
    );
    app.update(Action::Type('O'));
    assert!(
        matches!(app.feedback, Feedback::Ready(_)),
        "{:?}",
        app.feedback
    );
    app.update(Action::PlayEntry);
    assert_eq!(sans(&app), ["O-O"]);
}

/// A move number that is not the move's is refused, not played under another number: a
/// pair skipped while copying a scoresheet (`4. d3 d6` where move 3 is next), or Black's
/// number before White's move (`3... Be3`). Numbers that fit, and none, play.
#[test]
fn a_move_number_that_is_not_the_moves_is_refused() {
    let mut app = app();
    type_line(&mut app, "e4 e5 Nf3 Nc6");
    for (line, said) in [
        ("4. d3 d6", "4.: this is move 3. (White to play), not 4"),
        ("4.d3", "4.d3: this is move 3. (White to play), not 4"),
        (
            "3... Bc4",
            "3...: move 3 is White's to play (3.), not Black's",
        ),
        (
            "Bc4 4... Nf6",
            "4...: this is move 3... (Black to play), not 4",
        ),
    ] {
        type_line(&mut app, line);
        assert!(app.message.error, "{line}");
        assert!(
            app.message.text.starts_with(said),
            "{line}: {}",
            app.message.text
        );
        assert_eq!(sans(&app).len(), 4, "{line}");
        app.update(Action::ClearEntry);
    }
    type_line(&mut app, "3. Bc4 Nf6 4 d3 4... d6");
    assert!(!app.message.error, "{}", app.message.text);
    assert_eq!(sans(&app)[4..], ["Bc4", "Nf6", "d3", "d6"]);
    // A single dot before Black's move, as some write it.
    type_line(&mut app, "5. O-O 5. Be7");
    assert!(!app.message.error, "{}", app.message.text);
    // Four digits are an ICCF move, not a number.
    type_line(&mut app, "6. Nc3 8786");
    assert!(!app.message.error, "{}", app.message.text);
    assert_eq!(sans(&app).last().map(String::as_str), Some("h6"));
}
