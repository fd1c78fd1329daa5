//! The recorder driven through `update`, as the keys would drive it.

use super::*;
use crate::game::annotation::{Annotation, ClockTime};
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
    app.inside = Inside::Variation;
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
    app.inside = Inside::Variation;
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
            then_quit: true,
            force: false,
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

/// A recorder with the built-in configuration: its keymap, key names and settings.
fn configured() -> (App, crate::config::Config) {
    let config = crate::config::Config::defaults();
    let mut app = App::new(crate::tui::settings(&config), Game::default(), None);
    crate::tui::describe_keys(&mut app, &config);
    (app, config)
}

/// Presses keys written helix-style through the real keymap: characters stand for
/// themselves; `<ret>`, `<del>`, `<ins>`, `<esc>`, `<left>`, `<right>`, `<home>`,
/// `<end>`, `<tab>` and `<C-z>`, `<A-1>` for the others.
fn press(app: &mut App, config: &crate::config::Config, keys: &str) {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut rest = keys;
    while let Some(c) = rest.chars().next() {
        let (code, modifiers, len) = match rest.strip_prefix('<').and_then(|r| r.split_once('>')) {
            Some((raw, _)) => {
                let (modifiers, name) = match raw.split_once('-') {
                    Some(("C", key)) => (KeyModifiers::CONTROL, key),
                    Some(("A", key)) => (KeyModifiers::ALT, key),
                    _ => (KeyModifiers::NONE, raw),
                };
                let code = match name {
                    "ret" => KeyCode::Enter,
                    "del" => KeyCode::Delete,
                    "ins" => KeyCode::Insert,
                    "esc" => KeyCode::Esc,
                    "left" => KeyCode::Left,
                    "right" => KeyCode::Right,
                    "home" => KeyCode::Home,
                    "end" => KeyCode::End,
                    "tab" => KeyCode::Tab,
                    one if one.chars().count() == 1 => KeyCode::Char(one.chars().next().unwrap()),
                    f if f.starts_with('F') && f[1..].parse::<u8>().is_ok() => {
                        KeyCode::F(f[1..].parse().unwrap())
                    }
                    other => panic!("no key <{other}> in the test's key strings"),
                };
                (code, modifiers, raw.len() + 2)
            }
            None => (KeyCode::Char(c), KeyModifiers::NONE, c.len_utf8()),
        };
        rest = &rest[len..];
        let event = KeyEvent::new(code, modifiers);
        if let Some(action) = crate::tui::action_of(config, &event, app.entry.is_empty()) {
            app.update(action);
        }
    }
}

const RUY: &str = "e4<ret>e5<ret>Nf3<ret>Nc6<ret>Bb5<ret>a6<ret>";

#[test]
fn delete_says_what_it_removed_and_ctrl_z_brings_it_back_ctrl_y_again() {
    let (mut app, config) = configured();
    press(&mut app, &config, RUY);
    assert!(app.take_journal_due());
    press(&mut app, &config, "<home><right><right><right>");
    let nf3 = app.cursor;
    assert_eq!(app.game.node(nf3).san, "Nf3");
    press(&mut app, &config, "<del>");
    assert_eq!(sans(&app), ["e4", "e5"]);
    assert_eq!(
        app.message.text,
        "deleted 2.Nf3 and 3 moves after it: Ctrl-Z to undo"
    );
    assert!(app.take_journal_due());

    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(app.cursor, nf3, "the cursor is back where the change was");
    assert_eq!(
        app.message.text,
        "undid: deleted 2.Nf3 and 3 moves after it; Ctrl-Y to redo"
    );
    assert!(app.take_journal_due(), "the journal records the undo");
    assert!(app.unsaved);

    press(&mut app, &config, "<C-y>");
    assert_eq!(sans(&app), ["e4", "e5"]);
    assert_eq!(app.game.node(app.cursor).san, "e5");
    assert!(app.message.text.starts_with("redid: deleted 2.Nf3"));
    assert!(app.take_journal_due());
    press(&mut app, &config, "<C-y>");
    assert_eq!(app.message.text, "nothing to redo");
}

#[test]
fn the_undo_key_in_messages_follows_the_bindings() {
    let config =
        crate::config::Config::from_toml_str("[keys]\nundo = [\"F9\"]\nredo = []\n").unwrap();
    let mut app = App::new(crate::tui::settings(&config), Game::default(), None);
    crate::tui::describe_keys(&mut app, &config);
    press(&mut app, &config, "d4<ret>d5<ret><del>");
    assert_eq!(app.message.text, "deleted 1...d5: F9 to undo");
    press(&mut app, &config, "<F9>");
    assert_eq!(app.message.text, "undid: deleted 1...d5; :redo to redo");
    type_line(&mut app, ":redo");
    assert_eq!(sans(&app), ["d4"]);
    type_line(&mut app, ":undo");
    assert_eq!(sans(&app), ["d4", "d5"]);
}

#[test]
fn every_move_is_undone_one_by_one_and_redone() {
    let (mut app, config) = configured();
    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
    ];
    for mv in moves {
        press(&mut app, &config, &format!("{mv}<ret>"));
    }
    type_line(&mut app, "{the Breyer}");
    type_line(&mut app, "+1:05:30");
    // The clock, the comment, then the moves from the last one back.
    press(&mut app, &config, "<C-z>");
    assert_eq!(app.game.comment_text(app.cursor), "the Breyer");
    press(&mut app, &config, "<C-z>");
    assert_eq!(app.game.comment_text(app.cursor), "");
    for n in (0..moves.len()).rev() {
        press(&mut app, &config, "<C-z>");
        assert_eq!(sans(&app), moves[..n], "after undoing move {}", n + 1);
        assert_eq!(app.cursor, app.line_end(NodeId::ROOT));
    }
    assert!(app.game.is_empty());
    assert!(!app.unsaved, "back to the untouched new game");
    press(&mut app, &config, "<C-z>");
    assert_eq!(app.message.text, "nothing to undo");
    for _ in 0..moves.len() + 2 {
        press(&mut app, &config, "<C-y>");
    }
    assert_eq!(sans(&app), moves);
    assert_eq!(app.game.comment_text(app.cursor), "the Breyer");
    assert_eq!(
        app.game.node(app.cursor).annotations(),
        [Annotation::Clock(ClockTime::from_secs(3600 + 5 * 60 + 30))]
    );
}

#[test]
fn typing_inside_the_game_replaces_by_default_and_insert_gives_a_variation() {
    let (mut app, config) = configured();
    press(&mut app, &config, RUY);
    press(&mut app, &config, "<left><left>Bc4<ret>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6", "Bc4", "a6"]);
    assert!(
        app.message.text.contains("Ctrl-Z to undo"),
        "{}",
        app.message.text
    );
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(
        app.message.text,
        "undid: 3.Bb5 is now 3.Bc4; Ctrl-Y to redo"
    );
    press(&mut app, &config, "<ins>Bc4<ret>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(app.game.node(app.cursor).san, "Bc4");
    press(&mut app, &config, "<C-z>");
    assert_eq!(
        app.message.text,
        "undid: new variation 3.Bc4; Ctrl-Y to redo"
    );
    assert_eq!(app.game.variations_at(app.game.mainline()[4]).len(), 1);
}

#[test]
fn a_replacement_with_waiting_moves_is_undone_and_redone_waiting_moves_and_all() {
    let (mut app, config) = configured();
    // 3.Bc4 written for 3.Bb5; 10.Bb3 only fits after Bc4.
    type_line(
        &mut app,
        "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7 d3 d6 c3 O-O h3 h6 Re1 Re8 Nbd2 Bf8 Bb3 a6",
    );
    let typed = app.game.clone();
    let nc6 = app.game.mainline()[3];
    press(
        &mut app,
        &config,
        "<home><right><right><right><right>Bb5<ret>",
    );
    let waiting = app.pending.clone().expect("moves wait");
    assert_eq!(waiting.moves.len(), 2);
    let at = app.cursor;

    press(&mut app, &config, "<C-z>");
    assert_eq!(app.game, typed);
    assert_eq!(app.pending, None);
    assert_eq!(app.cursor, nc6);
    press(&mut app, &config, "<C-y>");
    assert_eq!(app.pending, Some(waiting.clone()));
    assert_eq!(app.cursor, at);

    // The right move replays the waiting ones; undoing it makes them wait again.
    press(&mut app, &config, "Ba4<ret>");
    assert!(app.pending.is_none());
    assert_eq!(sans(&app)[18..], ["Ba4", "a6"]);
    press(&mut app, &config, "<C-z>");
    assert_eq!(app.pending, Some(waiting));
    assert_eq!(app.cursor, at);
    assert_eq!(sans(&app).len(), 18);
    assert!(write_game_to_string(&app.game).contains("not replayed"));
}

#[test]
fn tags_and_results_are_undone() {
    let (mut app, config) = configured();
    press(&mut app, &config, "e4<ret>e5<ret>");
    type_line(&mut app, ":tag White Ann");
    // Setting the same value again changes nothing and is no level of its own.
    type_line(&mut app, ":tag White Ann");
    type_line(&mut app, ":result 1-0 resign");
    assert_eq!(app.game.tag("Termination"), Some("normal"));
    assert_eq!(app.game.comment_text(app.cursor), "Black resigns");
    press(&mut app, &config, "<C-z>");
    assert!(
        app.message.text.starts_with("undid: result 1-0"),
        "{}",
        app.message.text
    );
    assert_eq!(app.game.tag("Result"), Some("*"));
    assert_eq!(app.game.tag("Termination"), None);
    assert_eq!(app.game.comment_text(app.cursor), "");
    press(&mut app, &config, "<C-z>");
    assert_eq!(app.message.text, "undid: White = Ann; Ctrl-Y to redo");
    assert_eq!(app.game.tag("White"), Some("?"));
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4"]);
}

#[test]
fn take_back_has_its_own_key_and_is_undone_like_the_rest() {
    let (mut app, config) = configured();
    press(&mut app, &config, "e4<ret>e5<ret><C-t>");
    assert_eq!(sans(&app), ["e4"]);
    assert_eq!(app.message.text, "took back 1...e5: Ctrl-Z to undo");
    press(&mut app, &config, "<A-4><C-z>");
    assert_eq!(app.game.node(app.cursor).nags, [] as [u8; 0]);
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4", "e5"]);
}

#[test]
fn undo_after_a_save_makes_the_game_unsaved_and_redo_saved_again() {
    let (mut app, config) = configured();
    press(&mut app, &config, "e4<ret>e5<ret>");
    app.saved("club.pgn".into());
    app.take_journal_due();
    assert!(!app.unsaved);
    press(&mut app, &config, "<C-z>");
    assert!(app.unsaved);
    assert!(app.take_journal_due());
    press(&mut app, &config, "<C-y>");
    assert!(!app.unsaved, "the game is the one in the file again");
}

#[test]
fn starting_from_a_fen_drops_the_moves_until_undone() {
    let (mut app, config) = configured();
    press(&mut app, &config, "e4<ret>");
    type_line(&mut app, ":fen! 8/8/8/8/8/8/k7/4K2R w K - 0 1");
    assert!(app.game.is_empty());
    assert!(
        app.message.text.ends_with("Ctrl-Z to undo"),
        "{}",
        app.message.text
    );
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4"]);
    assert_eq!(app.game.start, Position::start());
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

fn with_box(games: usize) -> App {
    let mut app = app();
    app.offer_recovery(
        (1..=games).map(|n| format!("game {n}")).collect(),
        Vec::new(),
    );
    app
}

fn selected(app: &App) -> (usize, bool) {
    match &app.overlay {
        Overlay::Recover(b) => (b.selected, b.confirm_discard),
        other => panic!("no recovery box: {other:?}"),
    }
}

#[test]
fn a_move_typed_at_the_recovery_box_neither_discards_nor_recovers() {
    for first in ['d', 'D', 'r', 'R', 'y', 'n'] {
        let mut app = with_box(2);
        let mut effects = vec![app.update(Action::Type(first))];
        assert_eq!(app.overlay, Overlay::None, "{first}");
        assert!(app.message.text.contains(":recover"), "{:?}", app.message);
        assert_eq!(app.entry, first.to_string());
        effects.push(app.update(Action::Type('4')));
        effects.push(app.update(Action::PlayEntry));
        assert_eq!(effects[0], Effect::Recovery(Recovery::Later), "{first}");
        assert!(
            effects[1..].iter().all(|e| *e == Effect::None),
            "{effects:?}"
        );
    }
    // `d4` lands in the new game.
    let mut app = with_box(1);
    type_line(&mut app, "d4");
    assert_eq!(sans(&app), ["d4"]);
}

#[test]
fn the_recovery_box_chooses_with_arrows_and_asks_before_discarding() {
    let mut app = with_box(3);
    assert_eq!(selected(&app), (0, false));
    app.update(Action::HistoryNext);
    app.update(Action::HistoryNext);
    assert_eq!(selected(&app), (2, false));
    app.update(Action::HistoryNext);
    assert_eq!(selected(&app), (0, false));
    app.update(Action::HistoryPrev);
    assert_eq!(selected(&app), (2, false));
    // Delete asks; Esc takes the question back.
    assert_eq!(app.update(Action::DeleteFromHere), Effect::None);
    assert_eq!(selected(&app), (2, true));
    assert_eq!(app.update(Action::Cancel), Effect::None);
    assert_eq!(selected(&app), (2, false));
    // Delete twice discards the chosen game.
    app.update(Action::DeleteFromHere);
    assert_eq!(
        app.update(Action::DeleteFromHere),
        Effect::Recovery(Recovery::Discard(2))
    );
    let mut app = with_box(3);
    app.update(Action::HistoryNext);
    assert_eq!(
        app.update(Action::PlayEntry),
        Effect::Recovery(Recovery::Recover(1))
    );
    assert_eq!(app.overlay, Overlay::None);
    let mut app = with_box(3);
    assert_eq!(
        app.update(Action::Cancel),
        Effect::Recovery(Recovery::Later)
    );
    assert!(app.message.text.contains(":recover"), "{:?}", app.message);
    assert_eq!(
        type_line(&mut app, ":recover"),
        Effect::Recovery(Recovery::Offer)
    );
}

#[test]
fn edit_and_write_arguments_are_checked() {
    let mut app = app();
    for (line, why) in [
        (":e small.pgn abc", "\"abc\" is not a game number"),
        (":e f.pgn 0", "numbered from 1"),
        (":e", "which file?"),
        (":e \"my games.pgn", "closing \" is missing"),
        (":w ''", "an empty file name"),
        (":w \"\"", "an empty file name"),
    ] {
        assert_eq!(type_line(&mut app, line), Effect::None, "{line}");
        assert!(app.message.error, "{line}");
        assert!(
            app.message.text.contains(why),
            "{line}: {}",
            app.message.text
        );
        app.update(Action::ClearEntry);
    }
    assert_eq!(
        type_line(&mut app, ":e \"my games.pgn\" 2"),
        Effect::Load {
            path: "my games.pgn".into(),
            number: 2
        }
    );
    assert_eq!(
        type_line(&mut app, ":e f.pgn 3"),
        Effect::Load {
            path: "f.pgn".into(),
            number: 3
        }
    );
    assert_eq!(
        type_line(&mut app, ":w! ro.pgn"),
        Effect::Save {
            path: "ro.pgn".into(),
            then_quit: false,
            force: true,
        }
    );
}

#[test]
fn tag_values_that_would_not_read_back_are_refused() {
    let mut app = app();
    for (line, why) in [
        (":tag White Ann\u{1b}[31m", "control characters"),
        (":tag Event Club\nNight", "control characters"),
        (":tag Variant Chess960", "standard chess only"),
    ] {
        type_line(&mut app, line);
        assert!(app.message.error, "{line}");
        assert!(
            app.message.text.contains(why),
            "{line}: {}",
            app.message.text
        );
        app.update(Action::ClearEntry);
    }
    assert!(!app.game.tag("White").unwrap_or("").contains('\u{1b}'));
    assert!(!app.game.tag("Event").unwrap_or("").contains('\n'));
    assert_eq!(app.game.tag("Variant"), None);
    type_line(&mut app, ":tag Variant Standard");
    assert_eq!(app.game.tag("Variant"), Some("Standard"));
}

#[test]
fn pasted_moves_are_one_change_to_undo() {
    let (mut app, config) = configured();
    press(&mut app, &config, "e4<ret>");
    app.paste("e5 2. Nf3 Nc6", true);
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    press(&mut app, &config, "Bb5<ret>");
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    press(&mut app, &config, "<C-z>");
    assert_eq!(sans(&app), ["e4"]);
    assert_eq!(
        app.message.text,
        "undid: played 1...e5 to 2...Nc6; Ctrl-Y to redo"
    );
    press(&mut app, &config, "<C-z>");
    assert!(app.game.is_empty());
}

#[test]
fn an_error_is_gone_once_the_next_moves_are_played() {
    let mut app = app();
    type_line(&mut app, "e5");
    assert!(app.message.error);
    // Fixing the text keeps the reason in view.
    app.update(Action::EraseChar);
    app.update(Action::EraseChar);
    assert!(app.message.error, "editing the line is about the error");
    for line in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"] {
        type_line(&mut app, line);
        assert_eq!(app.message, Message::default(), "after {line}");
    }
}

#[test]
fn messages_live_until_the_next_action_that_is_not_about_them() {
    let mut app = app();
    type_line(&mut app, ":tag White Ann");
    assert_eq!(app.message.text, "White = Ann");
    type_line(&mut app, "e4");
    assert_eq!(app.message.text, "");

    // "promote to…" goes once the piece is chosen.
    let start = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    let mut app = App::new(Settings::default(), Game::new(start), None);
    type_line(&mut app, "e8");
    assert!(
        app.message.text.starts_with("promote to"),
        "{:?}",
        app.message
    );
    app.update(Action::Type('q'));
    assert_eq!(sans(&app), ["e8=Q"]);
    assert_eq!(app.message.text, "", "the promotion message stays");

    // A message set by the loop (a recovered game, a save) lasts one action.
    let mut app = self::app();
    app.inform("recovered 30 moves");
    app.update(Action::MoveBack);
    assert_eq!(app.message.text, "");
    app.inform("saved to game.pgn");
    app.update(Action::Type('e'));
    assert_eq!(
        app.message.text, "saved to game.pgn",
        "typing is not an answer"
    );
    app.update(Action::Type('4'));
    app.update(Action::PlayEntry);
    assert_eq!(app.message.text, "");
}

#[test]
fn help_scrolls_with_the_arrows_and_pages_and_closes_with_esc() {
    let mut app = app();
    app.update(Action::Help);
    assert_eq!(app.overlay, Overlay::Help);
    app.help_scroll.page.set(20);
    app.update(Action::HistoryNext);
    app.update(Action::HistoryNext);
    assert_eq!(app.help_scroll.top.get(), 2);
    app.update(Action::PageForward);
    assert_eq!(app.help_scroll.top.get(), 21);
    app.update(Action::PageBack);
    app.update(Action::HistoryPrev);
    assert_eq!(app.help_scroll.top.get(), 1);
    app.update(Action::GoStart);
    assert_eq!(app.help_scroll.top.get(), 0);
    assert_eq!(app.overlay, Overlay::Help, "scrolling keeps it open");
    app.update(Action::Cancel);
    assert_eq!(app.overlay, Overlay::None);
    // Opened again, it starts at the top.
    app.update(Action::Help);
    app.update(Action::PageForward);
    app.update(Action::Cancel);
    type_line(&mut app, ":help");
    assert_eq!(app.overlay, Overlay::Help);
    assert_eq!(app.help_scroll.top.get(), 0);
}

#[test]
fn a_move_typed_with_the_help_open_closes_it_and_loses_no_key() {
    let mut app = app();
    app.update(Action::Help);
    assert_eq!(app.overlay, Overlay::Help);
    type_line(&mut app, "e4");
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!(sans(&app), ["e4"]);
}

#[test]
fn every_command_name_and_alias_runs() {
    for c in command::COMMANDS {
        for name in std::iter::once(&c.name).chain(c.aliases) {
            let mut app = app();
            app.run_command(name);
            assert!(
                !app.message.text.starts_with("unknown command"),
                ":{name}: {}",
                app.message.text
            );
            assert_eq!(command::lookup(name).map(|(c, _)| c.name), Some(c.name));
        }
        if !c.bang.is_empty() {
            let bang = format!("{}!", c.name);
            assert!(matches!(command::lookup(&bang), Some((_, true))), "{bang}");
        }
    }
    let mut app = app();
    assert_eq!(
        app.run_command("quit!"),
        Effect::Quit { discard: true },
        "an alias's ! form is the command's"
    );
}

#[test]
fn the_action_table_and_the_keymap_declarations_agree() {
    use crate::config::keys::ACTIONS;
    let bindable: Vec<&str> = action::BINDABLE.iter().map(|(n, _)| *n).collect();
    let declared: Vec<&str> = ACTIONS.iter().map(|a| a.name).collect();
    assert_eq!(
        bindable, declared,
        "src/app/action.rs and src/config/keys.rs"
    );
    for info in ACTIONS {
        assert!(!info.doc.trim().is_empty(), "{} has no doc", info.name);
    }
    // The embedded defaults give every action an entry, and name no other.
    let defaults: toml::Table =
        toml::from_str(include_str!("../../assets/config.toml")).expect("the defaults parse");
    let keys = defaults["keys"].as_table().expect("a [keys] table");
    let mut in_defaults: Vec<&str> = keys.keys().map(String::as_str).collect();
    let mut names = bindable.clone();
    in_defaults.sort_unstable();
    names.sort_unstable();
    assert_eq!(in_defaults, names, "assets/config.toml [keys]");
    // And the help screen lists each, with its doc.
    let mut app = app();
    crate::tui::describe_keys(&mut app, &crate::config::Config::defaults());
    let sections = app.help_sections();
    for info in ACTIONS {
        assert!(
            sections[0].entries.iter().any(|e| e.doc == info.doc),
            "{} not in the help",
            info.name
        );
    }
}
