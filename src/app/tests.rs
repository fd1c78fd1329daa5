//! The recorder driven through `update`, as the keys would drive it.

use super::*;
use crate::pgn::writer::write_game_to_string;

fn app() -> App {
    App::new(Settings::default(), Game::default(), None)
}

fn type_line(app: &mut App, text: &str) -> Effect {
    for c in text.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry)
}

fn sans(app: &App) -> Vec<String> {
    app.game
        .mainline()
        .iter()
        .map(|&id| app.game.node(id).san.clone())
        .collect()
}

#[test]
fn moves_in_mixed_notations_are_recorded() {
    let mut app = app();
    for line in [
        "e4", "e7-e5", "♘f3", "Nc6", "f1b5", "a6", "Lxc6", "dxc6", "0-0",
    ] {
        if line == "Lxc6" {
            type_line(&mut app, ":lang de");
        }
        type_line(&mut app, line);
        assert!(!app.message.error, "{line}: {}", app.message.text);
    }
    assert_eq!(
        sans(&app),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]
    );
    assert!(app.unsaved);
    assert!(app.take_journal_due());
    assert!(!app.take_journal_due());
}

#[test]
fn an_illegal_move_is_refused_and_stays_on_the_line() {
    let mut app = app();
    type_line(&mut app, "e5");
    assert!(app.message.error);
    assert!(app.message.text.contains("e5"), "{}", app.message.text);
    assert_eq!(app.entry, "e5");
    assert!(app.game.is_empty());
    app.update(Action::ClearEntry);
    assert!(matches!(app.feedback, Feedback::Empty));
}

#[test]
fn several_moves_and_clock_times_on_one_line() {
    let mut app = app();
    type_line(&mut app, "1. e4 +1:29 e5 +1:29:30 2. Nf3 (=)");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    let line = app.game.mainline();
    assert_eq!(app.game.node(line[0]).comments_after, ["[%clk 1:29:00]"]);
    assert!(app.game.node(line[2]).draw_offer);
    type_line(&mut app, "+83");
    assert_eq!(app.game.node(line[2]).comments_after, ["[%clk 1:23:00]"]);
}

#[test]
fn promotion_without_a_piece_asks_which() {
    let start = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    let mut app = App::new(Settings::default(), Game::new(start), None);
    type_line(&mut app, "e8");
    assert!(matches!(app.overlay, Overlay::Promotion(_)));
    app.update(Action::Type('n'));
    assert_eq!(sans(&app), ["e8=N"]);
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn typing_inside_the_game_starts_a_variation_or_replaces() {
    let mut app = app();
    type_line(&mut app, "e4 e5 Nf3 Nc6");
    app.update(Action::MoveBack);
    app.update(Action::MoveBack);
    // The move that is there already is followed, not duplicated.
    type_line(&mut app, "Nf3");
    assert_eq!(app.game.len(), 5);
    app.update(Action::MoveBack);
    type_line(&mut app, "Bc4");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(app.game.node(app.cursor).san, "Bc4");
    let root_line = app.game.mainline();
    assert_eq!(app.game.variations_at(root_line[2]).len(), 2);
    // Now replace: 2.Nf3 becomes 2.Nc3 and 2...Nc6 is replayed.
    app.update(Action::GoStart);
    app.update(Action::MoveForward);
    app.update(Action::MoveForward);
    app.update(Action::ToggleReplace);
    type_line(&mut app, "Nc3");
    assert_eq!(sans(&app), ["e4", "e5", "Nc3", "Nc6"]);
    assert_eq!(app.cursor, app.line_end(NodeId::ROOT));
}

#[test]
fn a_wrong_move_twelve_moves_back_is_corrected_and_the_rest_replayed() {
    let mut app = app();
    // The scorer wrote 3.Bc4 where 3.Bb5 was played; 9.Ba4 only fits after Bb5.
    type_line(
        &mut app,
        "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7 d3 d6 c3 O-O h3 h6 Re1 Re8 Nbd2 Bf8 Bb3 a6",
    );
    let line = app.game.mainline();
    app.cursor = line[3]; // after 2...Nc6
    app.inside = Inside::Replace;
    type_line(&mut app, "Bb5");
    // 10.Bb3 no longer fits (the bishop is on b5): it waits with the move after it.
    assert!(app.message.error, "{}", app.message.text);
    assert!(app.message.text.contains("Bb3"), "{}", app.message.text);
    let pending = app.pending.clone().expect("moves wait");
    assert_eq!(pending.moves.len(), 2);
    assert_eq!(app.cursor, pending.at);
    assert_eq!(sans(&app).len(), 18);
    // The right move is typed; the rest follows.
    type_line(&mut app, "Ba4");
    assert!(!app.message.error, "{}", app.message.text);
    assert!(app.pending.is_none());
    assert_eq!(sans(&app)[4], "Bb5");
    assert_eq!(sans(&app)[18..], ["Ba4", "a6"]);
    let pgn = write_game_to_string(&app.game);
    assert!(!pgn.contains("not replayed"), "{pgn}");
}

#[test]
fn take_back_delete_and_promote() {
    let mut app = app();
    type_line(&mut app, "e4 e5 Nf3");
    app.update(Action::TakeBack);
    assert_eq!(sans(&app), ["e4", "e5"]);
    assert_eq!(app.game.node(app.cursor).san, "e5");
    app.update(Action::MoveBack);
    type_line(&mut app, "c5");
    app.update(Action::PromoteVariation);
    assert_eq!(sans(&app), ["e4", "c5"]);
    app.update(Action::DeleteFromHere);
    assert_eq!(sans(&app), ["e4", "e5"]);
}

#[test]
fn glyphs_draw_offers_comments_and_results() {
    let mut app = app();
    type_line(&mut app, "f3 e5 g4");
    app.update(Action::Nag(4));
    type_line(&mut app, "(=)");
    type_line(&mut app, "{the fool's mate}");
    type_line(&mut app, "Qh4#");
    assert_eq!(app.game.tag("Result"), Some("0-1"));
    assert!(app.message.text.contains("checkmate"));
    let g4 = app.game.mainline()[2];
    assert_eq!(app.game.node(g4).nags, [4]);
    assert!(app.game.node(g4).draw_offer);
    assert_eq!(app.game.comment_text(g4), "the fool's mate");
    let mut app2 = self::app();
    type_line(&mut app2, "e4 e5");
    type_line(&mut app2, ":result 1-0 resign");
    assert_eq!(app2.game.tag("Result"), Some("1-0"));
    assert_eq!(app2.game.tag("Termination"), Some("normal"));
    assert_eq!(app2.game.comment_text(app2.cursor), "Black resigns");
}

#[test]
fn quitting_an_unsaved_game_asks_first() {
    let mut app = app();
    assert_eq!(type_line(&mut app, ":q"), Effect::Quit { discard: false });
    let mut app = self::app();
    type_line(&mut app, "d4");
    assert_eq!(type_line(&mut app, ":q"), Effect::None);
    assert!(app.message.error);
    assert_eq!(type_line(&mut app, ":q!"), Effect::Quit { discard: true });
    assert_eq!(app.update(Action::Quit), Effect::None);
    assert_eq!(app.update(Action::Quit), Effect::Quit { discard: false });
    assert_eq!(type_line(&mut app, ":w"), Effect::None);
    assert_eq!(
        type_line(&mut app, ":wq out.pgn"),
        Effect::Save {
            path: "out.pgn".into(),
            then_quit: true
        }
    );
}

#[test]
fn the_next_game_is_prefilled() {
    let mut app = app();
    type_line(&mut app, ":tag Event Club Rapid");
    type_line(&mut app, ":tag Round 3");
    type_line(&mut app, ":tag Board 7");
    type_line(&mut app, ":tag White Ann");
    app.unsaved = false;
    assert_eq!(type_line(&mut app, ":new"), Effect::NewGame);
    assert_eq!(app.game.tag("Event"), Some("Club Rapid"));
    assert_eq!(app.game.tag("Round"), Some("3"));
    assert_eq!(app.game.tag("Board"), Some("8"));
    assert_eq!(app.game.tag("White"), Some("?"));
}

#[test]
fn entries_are_recalled() {
    let mut app = app();
    type_line(&mut app, "e4");
    type_line(&mut app, "e6");
    app.update(Action::HistoryPrev);
    assert_eq!(app.entry, "e6");
    app.update(Action::HistoryPrev);
    assert_eq!(app.entry, "e4");
    app.update(Action::HistoryNext);
    assert_eq!(app.entry, "e6");
    app.update(Action::HistoryNext);
    assert_eq!(app.entry, "");
}

#[test]
fn help_closes_on_a_key_and_a_question_mark_after_a_move_is_a_glyph() {
    // Which key opens the help is the keymap's business (tui::action_of).
    let mut app = app();
    app.update(Action::Help);
    assert_eq!(app.overlay, Overlay::Help);
    app.update(Action::Cancel);
    assert_eq!(app.overlay, Overlay::None);
    type_line(&mut app, "e4?");
    assert_eq!(app.game.node(app.cursor).nags, [2]);
}

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
    assert!(app.message.text.starts_with("e4:"), "{}", app.message.text);
    assert!(app.game.is_empty());
    // A good long line: a thousand half-moves, played on Enter.
    app.update(Action::ClearEntry);
    type_line(&mut app, &knight_rounds(250));
    assert!(!app.message.error, "{}", app.message.text);
    assert_eq!(app.game.mainline().len(), 1000);
    // A short line still gets the full feedback.
    for c in "1. e4".chars() {
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
    app.saved(PathBuf::from("g.pgn"));
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
