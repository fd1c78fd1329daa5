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

/// What was written beside the moves that wait after a correction (a clock, a remark)
/// is in the game while they wait, so that `:w` or a crash then loses none of it, and
/// comes back on them when they are replayed.
#[test]
fn the_moves_waiting_after_a_correction_keep_their_clocks_and_comments() {
    let mut app = app();
    type_line(
        &mut app,
        "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7 d3 d6 c3 O-O h3 h6 Re1 Re8 Nbd2 Bf8 Bb3 a6",
    );
    let line = app.game.mainline();
    app.game
        .node_mut(line[18])
        .comments_after
        .push("[%clk 1:20:00]".into());
    app.game
        .node_mut(line[19])
        .comments_after
        .push("(the only move)".into());
    app.cursor = line[3];
    app.inside = Inside::Replace;
    type_line(&mut app, "Bb5");
    assert!(app.pending.is_some());
    let pgn = write_game_to_string(&app.game);
    assert!(
        pgn.contains("moves not replayed: 10. Bb3 «[ %clk 1:20:00]» 10... a6")
            && pgn.contains("«(the only move)»"),
        "{pgn}"
    );
    // The right move: the waiting a6 comes back with its comment, and the note goes.
    type_line(&mut app, "Ba4");
    assert!(app.pending.is_none());
    let pgn = write_game_to_string(&app.game);
    assert!(!pgn.contains("not replayed"), "{pgn}");
    assert!(pgn.contains("a6 {(the only move)}"), "{pgn}");
    // Undone, they wait again; a move after which a6 does not fit either: a6 waits
    // again, its comment kept.
    app.update(Action::Undo);
    assert!(app.pending.is_some());
    type_line(&mut app, "Ba6");
    let pgn = write_game_to_string(&app.game);
    assert!(
        pgn.contains("moves not replayed: 10... a6 «(the only move)»"),
        "{pgn}"
    );
}

/// A line of several moves typed where its first replaces a move: the replacement
/// replays the moves after it and the cursor goes on, so the line's other moves (read
/// for the position right after the first) are not played there, and the game never
/// holds a move that is illegal where it stands (a fuzzer found such a game, which the
/// journal could then not give back).
#[test]
fn a_line_whose_first_move_replaces_plays_no_more_of_it_elsewhere() {
    let mut app = app();
    type_line(&mut app, "e4 e5 Nf3 Nc6 Bc4");
    app.cursor = app.game.mainline()[0]; // after 1.e4
    app.inside = Inside::Replace;
    // 1...e5 becomes 1...d5; 2.Nf3 Nc6 3.Bc4 still fit and are replayed, and the
    // cursor goes to the end, where Black is to move: 2.Nf3 is not played there.
    type_line(&mut app, "d5 Nf3");
    assert_eq!(sans(&app), ["e4", "d5", "Nf3", "Nc6", "Bc4"]);
    assert!(app.message.error, "{}", app.message.text);
    assert!(
        app.message
            .text
            .ends_with("not played: 2.Nf3 (type it where the cursor is now)"),
        "{}",
        app.message.text
    );
    let pgn = write_game_to_string(&app.game);
    let back = crate::pgn::read_games(pgn.as_bytes());
    assert!(back[0].errors.is_empty(), "{pgn}: {:?}", back[0].errors);
    // At the end of the game a line plays whole, as usual.
    type_line(&mut app, "Nf6 h3");
    assert_eq!(sans(&app), ["e4", "d5", "Nf3", "Nc6", "Bc4", "Nf6", "h3"]);
    assert!(!app.message.error, "{}", app.message.text);
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
    app.update(Action::NagBlunder);
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
    // With no file a bare :w is refused, so the advice names the file form.
    assert!(
        app.message.text.contains(":w FILE.pgn to save it"),
        "{}",
        app.message.text
    );
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

/// With a file, a bare `:w` saves there: that is what `:q` advises.
#[test]
fn quitting_an_unsaved_game_with_a_file_advises_a_bare_w() {
    let mut app = App::new(
        Settings::default(),
        Game::default(),
        Some("club.pgn".into()),
    );
    type_line(&mut app, "d4");
    assert_eq!(type_line(&mut app, ":q"), Effect::None);
    assert!(
        app.message.text.contains(": :w to save it"),
        "{}",
        app.message.text
    );
    assert!(matches!(type_line(&mut app, ":w"), Effect::Save { .. }));
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
    // A board number past 32 bits still goes on (it was 0); past 64, it stays.
    for (board, next) in [
        ("4294967295", "4294967296"),
        ("18446744073709551615", "18446744073709551615"),
    ] {
        type_line(&mut app, &format!(":tag Board {board}"));
        app.unsaved = false;
        assert_eq!(type_line(&mut app, ":new"), Effect::NewGame);
        assert_eq!(app.game.tag("Board"), Some(next));
    }
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
    // What is typed is kept aside while entries are recalled, and comes back after the
    // last; Down with nothing recalled keeps it.
    for c in "Nf".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::HistoryNext);
    assert_eq!(app.entry, "Nf");
    app.update(Action::HistoryPrev);
    assert_eq!(app.entry, "e6");
    app.update(Action::HistoryNext);
    assert_eq!(app.entry, "Nf");
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

/// `?!` typed on an empty line: the `?` opens the help (as documented), and the `!` only
/// closes it, so Enter records no `!` that nobody meant.
#[test]
fn a_glyph_sign_after_the_help_opened_closes_it_and_types_nothing() {
    let mut app = app();
    type_line(&mut app, "d4");
    for second in ['!', '?'] {
        app.update(Action::Help);
        app.update(Action::Type(second));
        assert_eq!(app.overlay, Overlay::None);
        app.update(Action::PlayEntry);
        let d4 = app.game.mainline()[0];
        assert!(app.game.node(d4).nags.is_empty(), "{second}");
    }
    assert_eq!(sans(&app), ["d4"]);
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

/// A command that takes nothing refuses what is written after it rather than doing
/// something else than asked: `:search 1. e4 c5` is not a search for 1. e4 c5, and
/// `:new game.pgn` would start a game that no `:w` writes to game.pgn.
#[test]
fn a_command_that_takes_nothing_refuses_words_after_it() {
    let mut app = app();
    type_line(&mut app, "e4");
    type_line(&mut app, ":flip 1. e4 c5");
    assert!(!app.flipped, "nothing was run");
    assert!(app.message.error);
    assert!(
        app.message.text.contains(":flip") && app.message.text.contains("1. e4 c5"),
        "{}",
        app.message.text
    );
    type_line(&mut app, ":new game.pgn");
    assert_eq!(sans(&app), ["e4"], "the game is still there");
    assert!(
        app.message.text.contains("game.pgn"),
        "{}",
        app.message.text
    );
    for c in command::COMMANDS.iter().filter(|c| c.args.is_empty()) {
        let mut fresh = super::tests::app();
        fresh.run_command(&format!("{} extra", c.name));
        assert!(
            fresh.message.error && fresh.message.text.contains("extra"),
            ":{} extra: {}",
            c.name,
            fresh.message.text
        );
    }
}

#[test]
fn the_help_lists_every_action_of_the_screen_with_its_doc() {
    let app = app();
    let sections = app.help_sections();
    for d in action::ACTIONS.iter().filter(|d| d.screens.has(app.screen)) {
        assert!(
            sections[0].entries.iter().any(|e| e.doc == d.doc),
            "{} not in the help",
            d.name
        );
    }
}

#[path = "tests_advice.rs"]
mod advice;
#[path = "tests_input.rs"]
mod input;
#[path = "tests_recovery.rs"]
mod recovery;
#[path = "tests_review.rs"]
mod review;
#[path = "tests_rules.rs"]
mod rules;
#[path = "tests_undo.rs"]
mod undo;
#[path = "tests_mode.rs"]
mod vim_mode;
#[path = "tests_waiting.rs"]
mod waiting;

#[test]
fn a_glyph_typed_with_a_move_that_is_there_replaces_its_glyph() {
    let mut app = app();
    app.inside = Inside::Variation;
    type_line(&mut app, "e4? e5");
    app.update(Action::GoStart);
    // Following 1.e4 with a new judgement: one move glyph, as PGN has it.
    type_line(&mut app, "e4!");
    let e4 = app.game.mainline()[0];
    assert_eq!(app.game.node(e4).nags, [1]);
}
#[path = "tests_list.rs"]
mod list;
#[path = "tests_study.rs"]
mod study;

#[test]
fn a_line_feed_is_enter_where_ctrl_j_is_not_bound() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let ctrl_j = KeyEvent::new(KeyCode::Char('j'), KeyModifiers::CONTROL);
    let mut app = app();
    for c in "e4".chars() {
        app.update(Action::Type(c));
    }
    assert_eq!(app.action_of(&ctrl_j), Some(Action::PlayEntry));
    app.update(Action::PlayEntry);
    assert_eq!(sans(&app), ["e4"]);
    // Bound, it is its action.
    let config = crate::config::Config::from_toml_str("[keys]\nundo = [\"Ctrl-j\"]").unwrap();
    app.set_keymap(Keymap::new(&config.keys).unwrap());
    assert_eq!(app.action_of(&ctrl_j), Some(Action::Undo));
}
