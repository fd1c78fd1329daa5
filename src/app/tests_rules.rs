//! The rules a scoresheet knows: results, repetition, clocks, tags, counts.

use super::*;

fn termination(app: &App) -> Option<&str> {
    app.game.tag("Termination")
}

#[test]
fn a_result_that_contradicts_the_board_is_refused() {
    let mut app = app();
    type_line(&mut app, "f3 e5 g4 Qh4#");
    assert_eq!(app.game.tag("Result"), Some("0-1"));
    type_line(&mut app, "1-0");
    assert!(app.message.error, "{}", app.message.text);
    assert!(
        app.message.text.contains("Black has mated"),
        "{}",
        app.message.text
    );
    type_line(&mut app, ":result 1-0 resign");
    assert!(app.message.error);
    assert_eq!(app.game.tag("Result"), Some("0-1"));
    assert_eq!(app.game.comment_text(app.cursor), "");
    // An arbiter's decision may still be recorded, on purpose.
    type_line(&mut app, ":result! 1-0 forfeit");
    assert_eq!(app.game.tag("Result"), Some("1-0"));
    // A stalemate is a draw, whatever is typed.
    let start = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let mut app = App::new(Settings::default(), Game::new(start), None);
    type_line(&mut app, ":result 1-0 resign");
    assert!(
        app.message.text.contains("stalemate"),
        "{}",
        app.message.text
    );
    assert_eq!(app.game.tag("Result"), Some("*"));
}

#[test]
fn taking_back_a_mate_takes_back_its_result() {
    let mut app = app();
    type_line(&mut app, "f3 e5 g4 Qh4#");
    assert_eq!(termination(&app), Some("normal"));
    app.update(Action::TakeBack);
    assert_eq!(sans(&app), ["f3", "e5", "g4"]);
    assert_eq!(app.game.tag("Result"), Some("*"));
    assert_eq!(termination(&app), None);
    assert!(
        app.message.text.contains("0-1 taken back"),
        "{}",
        app.message.text
    );
    // The same through deleting from a move before the mate.
    type_line(&mut app, "Qh4#");
    app.update(Action::MoveBack);
    app.update(Action::DeleteFromHere);
    assert_eq!(app.game.tag("Result"), Some("*"));
    // A resignation is not the board's: taking back a move leaves it.
    type_line(&mut app, "g4 d5");
    type_line(&mut app, ":result 0-1 resign");
    app.update(Action::TakeBack);
    assert_eq!(app.game.tag("Result"), Some("0-1"));
}

#[test]
fn result_star_clears_termination_and_the_note() {
    let mut app = app();
    type_line(&mut app, "e4 e5");
    type_line(&mut app, "{a quiet start}");
    type_line(&mut app, ":result 1-0 resign");
    assert_eq!(
        app.game.comment_text(app.cursor),
        "a quiet start Black resigns"
    );
    // Changing the way replaces the note rather than adding a second one.
    type_line(&mut app, ":result 0-1 time");
    assert_eq!(
        app.game.comment_text(app.cursor),
        "a quiet start White lost on time"
    );
    assert_eq!(termination(&app), Some("time forfeit"));
    type_line(&mut app, ":result *");
    assert!(!app.message.error, "{}", app.message.text);
    assert_eq!(app.game.tag("Result"), Some("*"));
    assert_eq!(termination(&app), None);
    assert_eq!(app.game.comment_text(app.cursor), "a quiet start");
}

/// A result's note is taken back from the end of the comment, where the result put it:
/// the same words written by the player elsewhere in the comment, and its line breaks,
/// stay as written.
#[test]
fn a_result_leaves_the_players_own_words_in_the_comment() {
    let mut app = app();
    type_line(&mut app, "e4 e5");
    let last = app.cursor;
    app.game
        .set_comment_text(last, "if White resigns here,\nBlack wins the match");
    type_line(&mut app, ":result 0-1 resign");
    assert_eq!(
        app.game.comment_text(last),
        "if White resigns here,\nBlack wins the match White resigns"
    );
    type_line(&mut app, ":result *");
    assert_eq!(
        app.game.comment_text(last),
        "if White resigns here,\nBlack wins the match"
    );
}

#[test]
fn a_result_with_a_misspelt_way_sets_nothing() {
    let mut app = app();
    type_line(&mut app, "e4 e5");
    type_line(&mut app, ":result 0-1 agremeent");
    assert!(app.message.error);
    assert!(
        app.message.text.contains("agremeent"),
        "{}",
        app.message.text
    );
    assert_eq!(app.game.tag("Result"), Some("*"));
    assert_eq!(termination(&app), None);
    // A draw's way on a decisive result is refused too.
    type_line(&mut app, ":result 1-0 agreement");
    assert!(app.message.error);
    assert_eq!(app.game.tag("Result"), Some("*"));
}

#[test]
fn moves_typed_after_a_result_ask_first() {
    let mut app = app();
    type_line(&mut app, "e4 e5");
    type_line(&mut app, ":result 1-0 resign");
    type_line(&mut app, "Nf3");
    assert!(app.message.error);
    assert!(
        app.message.text.contains("game is over (1-0"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app), ["e4", "e5"]);
    assert_eq!(app.entry, "Nf3");
    // Enter again: played on, the result and its note gone.
    app.update(Action::PlayEntry);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    assert_eq!(app.game.tag("Result"), Some("*"));
    assert_eq!(termination(&app), None);
    assert_eq!(app.game.comment_text(app.game.mainline()[1]), "");
    // A variation inside the game asks nothing.
    type_line(&mut app, ":result 1/2-1/2 agreement");
    app.update(Action::GoStart);
    type_line(&mut app, "d4");
    assert!(!app.message.error, "{}", app.message.text);
    assert_eq!(app.game.tag("Result"), Some("1/2-1/2"));
}

#[test]
fn threefold_repetition_is_announced() {
    let mut app = app();
    type_line(&mut app, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert!(
        !app.message.text.contains("third time"),
        "{}",
        app.message.text
    );
    type_line(&mut app, "Ng8");
    assert!(
        app.message.text.contains("third time"),
        "{}",
        app.message.text
    );
    assert!(app.message.text.contains("draw can be claimed"));
    // Announced, not decided: the players claim it.
    assert_eq!(app.game.tag("Result"), Some("*"));
    type_line(&mut app, ":result 1/2-1/2 repetition");
    assert_eq!(app.game.comment_text(app.cursor), "draw by repetition");
}

#[test]
fn threefold_repetition_is_seen_across_lines_typed_at_once() {
    // The positions kept from one line are taken on by the next (and a whole pasted
    // game is played as one line): the start position comes back at ply 4 and ply 8.
    let mut app = app();
    type_line(&mut app, "e4 e5 Nf3 Nf6 Ng1 Ng8");
    type_line(&mut app, "Nf3 Nf6 Ng1");
    assert!(
        !app.message.text.contains("third time"),
        "{}",
        app.message.text
    );
    type_line(&mut app, "Ng8");
    assert!(
        app.message.text.contains("third time"),
        "{}",
        app.message.text
    );
    // Taken back and played again: the positions are rebuilt, not taken on.
    app.update(Action::TakeBack);
    type_line(&mut app, "Ng8");
    assert!(
        app.message.text.contains("third time"),
        "{}",
        app.message.text
    );
    // All in one line, as a paste plays it.
    let mut app = self::app();
    type_line(&mut app, "e4 e5 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    assert!(
        app.message.text.contains("third time"),
        "{}",
        app.message.text
    );
}

#[test]
fn page_keys_move_ten_moves() {
    let mut app = app();
    let moves = "Nf3 Nf6 Ng1 Ng8 ".repeat(7);
    type_line(&mut app, &moves);
    assert_eq!(app.game.mainline().len(), 28);
    app.update(Action::PageBack);
    // Ten moves back from 14...Ng8 is 4...Ng8: the same side to move, 20 plies.
    assert_eq!(app.game.ply_of(app.cursor), 8);
    app.update(Action::PageForward);
    assert_eq!(app.game.ply_of(app.cursor), 28);
}

#[test]
fn clock_entries_are_read_by_the_time_control_and_told() {
    let mut app = app();
    type_line(&mut app, ":tag TimeControl 900+10");
    type_line(&mut app, "d4 Nf6");
    type_line(&mut app, "+14:32");
    let nf6 = app.game.mainline()[1];
    assert_eq!(app.game.node(nf6).comments_after, ["[%clk 0:14:32]"]);
    assert_eq!(app.message.text, "clock 0:14:32 after 1...Nf6");
    type_line(&mut app, "c4 +13:05");
    assert_eq!(app.message.text, "clock 0:13:05 after 2.c4");
    // Named as the scoresheet shows moves: in German letters, when it shows them so.
    app.settings.display_lang = crate::notation::Lang::by_code("de").unwrap();
    type_line(&mut app, "Nc6 +14:01");
    assert_eq!(app.message.text, "clock 0:14:01 after 2...Sc6");
    // A long game reads the same keys as hours and minutes.
    let mut app = self::app();
    type_line(&mut app, ":tag TimeControl 40/5400+30:1800+30");
    type_line(&mut app, "d4 +1:29");
    assert_eq!(app.message.text, "clock 1:29:00 after 1.d4");
    // No time control: a reading that could be either asks, and nothing is played.
    let mut app = self::app();
    type_line(&mut app, "d4 +14:32");
    assert!(app.message.error);
    assert!(
        app.message.text.contains("0:14:32 or 14:32:00"),
        "{}",
        app.message.text
    );
    assert!(app.game.is_empty());
    assert_eq!(app.entry, "d4 +14:32");
}

#[test]
fn tags_with_a_pgn_form_are_checked() {
    let mut app = app();
    type_line(&mut app, ":tag Date 2026.11.24");
    assert_eq!(app.game.tag("Date"), Some("2026.11.24"));
    type_line(&mut app, ":tag Date 24/11/2026");
    assert!(app.message.error);
    assert!(
        app.message.text.contains("YYYY.MM.DD"),
        "{}",
        app.message.text
    );
    assert!(
        app.message.text.contains("Date stays 2026.11.24"),
        "{}",
        app.message.text
    );
    assert_eq!(app.game.tag("Date"), Some("2026.11.24"));
    type_line(&mut app, ":tag WhiteElo 2150?");
    assert!(app.message.error);
    assert_eq!(app.game.tag("WhiteElo"), None);
    type_line(&mut app, ":tag WhiteElo 2150");
    assert_eq!(app.game.tag("WhiteElo"), Some("2150"));
    type_line(&mut app, ":tag Result won");
    assert!(app.message.error);
    assert_eq!(app.game.tag("Result"), Some("*"));
    type_line(&mut app, ":tag TimeControl 15+10");
    assert!(app.message.text.contains("900+10"), "{}", app.message.text);
    assert_eq!(app.game.tag("TimeControl"), None);
}

#[test]
fn a_tilde_in_a_path_is_the_home_directory() {
    let home = directories::BaseDirs::new()
        .unwrap()
        .home_dir()
        .to_path_buf();
    let mut app = app();
    assert_eq!(
        type_line(&mut app, ":w ~/games.pgn"),
        Effect::Save {
            path: home.join("games.pgn"),
            then_quit: false,
            force: false,
        }
    );
    assert_eq!(
        type_line(&mut app, ":e ~/club/x.pgn 2"),
        Effect::Load {
            path: home.join("club/x.pgn"),
            number: 2
        }
    );
    // Only a leading ~ is the home directory.
    assert_eq!(
        type_line(&mut app, ":w a~/b.pgn"),
        Effect::Save {
            path: "a~/b.pgn".into(),
            then_quit: false,
            force: false,
        }
    );
}

#[test]
fn a_comment_follows_a_move_on_the_same_line() {
    let mut app = app();
    type_line(
        &mut app,
        "e4 e5 {symmetrical} Nf3 {the usual, of course} +1:29",
    );
    assert!(!app.message.error, "{}", app.message.text);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3"]);
    let line = app.game.mainline();
    assert_eq!(app.game.comment_text(line[1]), "symmetrical");
    assert_eq!(app.game.comment_text(line[2]), "the usual, of course");
    assert_eq!(
        app.game.node(line[2]).comments_after,
        ["[%clk 1:29:00] the usual, of course"]
    );
    type_line(&mut app, "Nc6{natural}");
    assert_eq!(app.game.comment_text(app.cursor), "natural");
    // Alone, a comment is still the current move's.
    type_line(&mut app, "{developing}");
    assert_eq!(app.game.comment_text(app.cursor), "developing");
}

#[test]
fn counts_in_messages_agree_with_their_nouns() {
    // One later move replayed.
    let mut app = app();
    type_line(&mut app, "e4 e5 Nf3");
    app.update(Action::GoStart);
    app.update(Action::MoveForward);
    app.inside = Inside::Replace;
    type_line(&mut app, "c5");
    assert_eq!(sans(&app), ["e4", "c5", "Nf3"]);
    assert!(
        app.message.text.contains(", the move after it replayed"),
        "{}",
        app.message.text
    );
    // One move replayed, one waiting.
    let mut app = self::app();
    type_line(&mut app, "e4 e5 Nf3 Nc6 Bc4");
    let line = app.game.mainline();
    app.cursor = line[1];
    app.inside = Inside::Replace;
    type_line(&mut app, "Bc4");
    assert!(
        app.message
            .text
            .contains("; 1 move replayed; Bc4 no longer fits"),
        "{}",
        app.message.text
    );
    assert!(
        app.message.text.contains("(1 move wait)"),
        "{}",
        app.message.text
    );
}

#[test]
fn the_entry_line_asks_what_the_status_line_cannot_show() {
    // While the line holds text the feedback takes the status line: a question
    // or a refusal about the text must be there.
    let mut app = app();
    type_line(&mut app, "e4 e5");
    type_line(&mut app, ":result 1-0 resign");
    for c in "Nf3".chars() {
        app.update(Action::Type(c));
    }
    assert!(
        matches!(&app.feedback, Feedback::Note(n) if n.contains("game is over (1-0)")),
        "{:?}",
        app.feedback
    );
    app.update(Action::PlayEntry);
    assert!(
        matches!(&app.feedback, Feedback::Note(n) if n.contains("Enter again")),
        "{:?}",
        app.feedback
    );
    let mut app = self::app();
    type_line(&mut app, "d4");
    for c in "+14:32".chars() {
        app.update(Action::Type(c));
    }
    assert!(
        matches!(&app.feedback, Feedback::Illegal(n) if n.contains("0:14:32 or 14:32:00")),
        "{:?}",
        app.feedback
    );
}

/// After a mate or a stalemate no move can follow: a move typed there is refused for
/// that, as the live feedback says while it is typed (not for what the rules say of the
/// move itself, "the king is in check"). What is not a move (a glyph, a comment) is
/// still written, and a correction of an earlier move still replaces it.
#[test]
fn a_move_after_mate_or_stalemate_is_refused_because_the_game_is_over() {
    let mut app = app();
    type_line(&mut app, "f3 e5 g4 Qh4#");
    for c in "Nc3".chars() {
        app.update(Action::Type(c));
    }
    let why = "Nc3: the game is over (checkmate: 0-1)";
    assert_eq!(app.feedback, Feedback::Illegal(why.into()));
    app.update(Action::PlayEntry);
    assert!(app.message.error);
    assert_eq!(app.message.text, why);
    assert_eq!(app.entry, "Nc3", "the text stays on the line");
    assert_eq!(sans(&app), ["f3", "e5", "g4", "Qh4#"]);
    app.update(Action::ClearEntry);
    // Not moves: written as ever.
    type_line(&mut app, "!!");
    type_line(&mut app, "{the fool's mate");
    assert_eq!(app.game.node(app.cursor).nags, [3]);
    assert_eq!(app.game.comment_text(app.cursor), "the fool's mate");
    // A correction of an earlier move replaces it, as it did.
    app.update(Action::MoveBack);
    app.update(Action::MoveBack);
    type_line(&mut app, "g3");
    assert!(!app.message.error, "{}", app.message.text);
    assert_eq!(sans(&app), ["f3", "e5", "g3", "Qh4"]);
    assert_eq!(app.game.tag("Result"), Some("*"));

    // A line that goes on past its own mate stops at the move after it: nothing played.
    let mut app = self::app();
    type_line(&mut app, "f3 e5 g4 Qh4# Nc3");
    assert_eq!(
        app.message.text,
        "3. Nc3: the game is over (checkmate: 0-1)"
    );
    assert!(app.game.is_empty());

    // A stalemate: Black has no move.
    let start = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let mut app = App::new(Settings::default(), Game::new(start), None);
    type_line(&mut app, "Kh7");
    assert!(app.message.error);
    assert_eq!(app.message.text, "Kh7: the game is over (stalemate: ½-½)");
}
