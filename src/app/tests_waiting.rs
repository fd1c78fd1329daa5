//! Moves waiting after a correction, saved or journaled while they wait: the game
//! reopened or recovered offers them again, as they were.

use super::*;
use crate::game::edit::NOT_REPLAYED;
use crate::pgn::read_games;

/// The game of `app` as a file holds it, opened again through the door a loaded file
/// comes in by.
fn reopened(app: &App) -> App {
    let pgn = write_game_to_string(&app.game);
    let mut back = read_games(pgn.as_bytes());
    assert!(back[0].errors.is_empty(), "{pgn}: {:?}", back[0].errors);
    let mut again = super::app();
    again.update(Done::Loaded {
        game: Box::new(back.remove(0).game),
        path: "game.pgn".into(),
        number: 1,
        games: None,
    });
    again
}

/// The waiting moves with where they wait, named so as to compare across games (ids
/// differ once a game is read again).
fn waiting(app: &App) -> Option<(String, Vec<CutMove>)> {
    let p = app.pending.clone()?;
    Some((record::numbered(&app.game, p.at), p.moves))
}

/// Ten moves of a Ruy Lopez written down with 3.Bc4: after 3.Bb5, 10.Bb3 no longer fits.
fn corrected() -> App {
    let mut app = app();
    type_line(
        &mut app,
        "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7 d3 d6 c3 O-O h3 h6 Re1 Re8 Nbd2 Bf8 Bb3 a6 Nf1",
    );
    let line = app.game.mainline();
    app.game.node_mut(line[18]).nags.push(2);
    app.game.node_mut(line[18]).draw_offer = true;
    app.game
        .node_mut(line[18])
        .comments_after
        .push("[%clk 1:21:00] bishop back".into());
    app.game
        .node_mut(line[19])
        .comments_after
        .push("[%clk 1:23:00] pin coming".into());
    app.game
        .node_mut(line[20])
        .comments_after
        .push("[%clk 1:20:05]".into());
    app.cursor = line[3];
    app.inside = Inside::Replace;
    type_line(&mut app, "Bb5");
    app
}

/// `app` (moves waiting) saved and opened again: the same moves wait where they waited,
/// the cursor is there, the opening message ends with `said`; then `right` is typed
/// and they are replayed behind it. The app after that.
fn reopened_and_put_right(app: &App, said: &str, right: &str) -> App {
    let before = waiting(app).expect("moves wait");
    let mut again = reopened(app);
    assert_eq!(waiting(&again), Some(before));
    assert_eq!(Some(again.cursor), again.pending.as_ref().map(|p| p.at));
    assert!(again.message.text.ends_with(said), "{}", again.message.text);
    type_line(&mut again, right);
    assert!(!again.message.error, "{}", again.message.text);
    assert!(again.pending.is_none());
    again
}

#[test]
fn moves_waiting_at_a_save_wait_again_when_the_game_is_opened_again() {
    let app = corrected();
    assert_eq!(waiting(&app).map(|w| w.1.len()), Some(3));
    // The right move: the waiting moves follow with their glyph, draw offer and clocks.
    let mut again = reopened_and_put_right(
        &app,
        "; waiting: 10.Bb3 a6 11.Nf1 (type the right move)",
        "Ba4",
    );
    let pgn = write_game_to_string(&again.game);
    assert!(!pgn.contains("not replayed"), "{pgn}");
    let line = again.game.mainline();
    assert_eq!(sans(&again)[18..], ["Ba4", "a6", "Nf1"]);
    assert_eq!(
        again.game.node(line[19]).annotations(),
        [Annotation::Clock(ClockTime::from_secs(4_980))]
    );
    assert_eq!(
        again.game.node(line[19]).comments_after,
        ["[%clk 1:23:00] pin coming"]
    );
    assert_eq!(again.game.node(line[20]).comments_after, ["[%clk 1:20:05]"]);
    // Undone, they wait again, as they did when the game opened.
    again.update(Action::Undo);
    assert_eq!(waiting(&again), waiting(&reopened(&app)));
}

/// After a second correction the moves still waiting are kept by the recorder's own
/// comment (not the game core's): read back the same.
#[test]
fn moves_still_waiting_after_a_second_wrong_move_come_back_too() {
    let mut app = corrected();
    // 10.Ba6 replays nothing: a6 no longer fits; with Nf1 and their comments, they wait.
    type_line(&mut app, "Ba6");
    let before = waiting(&app).expect("moves wait");
    assert_eq!(before.1.len(), 2);
    assert_eq!(waiting(&reopened(&app)), Some(before));
}

/// A cut that held a variation keeps its comment when its moves are replayed (the
/// variation is only there): reopened, the main line waits and the comment still stays.
#[test]
fn a_cut_with_a_variation_offers_its_main_line_and_keeps_the_comment() {
    let mut app = app();
    type_line(
        &mut app,
        "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7 d3 d6 c3 O-O Bb3 a6",
    );
    let bb3 = app.game.mainline()[12];
    app.cursor = app.game.node(bb3).parent.unwrap();
    app.inside = Inside::Variation;
    type_line(&mut app, "h3");
    app.cursor = app.game.mainline()[3];
    app.inside = Inside::Replace;
    type_line(&mut app, "Bb5");
    let before = waiting(&app).expect("moves wait");
    let mut again = reopened(&app);
    assert_eq!(waiting(&again), Some(before));
    type_line(&mut again, "Ba4");
    assert!(again.pending.is_none());
    let pgn = write_game_to_string(&again.game);
    assert!(
        pgn.contains("moves not replayed: 7. Bb3 (7. h3) 7... a6"),
        "{pgn}"
    );
}

/// Only the recorder's own form is read back; any other comment stays as it is, its
/// text whole, and no move waits.
#[test]
fn a_comment_in_another_form_is_never_read_as_waiting_moves() {
    for note in [
        "moves not replayed: Bb3 a6",
        "moves not replayed: 11. Bb3 a6",
        "moves not replayed: 10... Bb3 a6",
        "moves not replayed: I forgot them",
        "moves not replayed: «[ %clk 1:00:00]» 10. Bb3",
        "moves not replayed: 10. Bb3 «clock 1:00",
        "moves not replayed: 10. Bb3 « padded »",
        "moves not replayed: 10. Bb3 (10. h3 a6",
        "moves not replayed: 10. Bb3 1-0 a6",
        "moves not replayed: 10.",
        "moves not replayed: ",
        "Moves not replayed: 10. Bb3 a6",
    ] {
        let mut app = app();
        type_line(
            &mut app,
            "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Be7 d3 d6 c3 O-O h3 h6 Re1 Re8 Nbd2 Bf8",
        );
        let last = app.line_end(NodeId::ROOT);
        app.game.node_mut(last).comments_after.push(note.into());
        let again = reopened(&app);
        assert_eq!(again.pending, None, "{note}");
        let last = again.line_end(NodeId::ROOT);
        assert_eq!(again.game.node(last).comments_after, [note], "{note}");
    }
    // The recorder's form on the last move is read (so the refusals above are not for
    // want of a reader); once a move follows it, it is a note, not moves.
    let mut app = app();
    type_line(
        &mut app,
        "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Be7 d3 d6 c3 O-O h3 h6 Re1 Re8 Nbd2 Bf8",
    );
    let last = app.line_end(NodeId::ROOT);
    let note = "moves not replayed: 10. Bb3 a6";
    app.game.node_mut(last).comments_after.push(note.into());
    let moves: Vec<String> = reopened(&app)
        .pending
        .expect("waits")
        .moves
        .into_iter()
        .map(|m| m.san)
        .collect();
    assert_eq!(moves, ["Bb3", "a6"]);
    type_line(&mut app, "d4");
    assert_eq!(reopened(&app).pending, None);
}

/// A game opened for repair starts its history with the moves waiting and the comment
/// that keeps them: undoing the right move brings both back, never a game without them.
#[test]
fn undoing_the_move_a_repair_waited_for_brings_the_waiting_moves_back() {
    let mut app = app();
    let game = read_games(b"1. e4 e5 *")[0].game.clone();
    app.update(Done::LoadedForRepair {
        game: Box::new(game),
        path: "club.pgn".into(),
        stop: "line 1: 2. Ke3: illegal".into(),
        rest: "2. Ke3 Nc6 *".into(),
        incomplete: true,
        number: 1,
        games: None,
    });
    let before = (waiting(&app), write_game_to_string(&app.game));
    assert_eq!(before.0.as_ref().map(|w| w.1.len()), Some(2));
    // Saved so, the repair's comment reads back as the same waiting moves.
    assert_eq!(waiting(&reopened(&app)), before.0);
    type_line(&mut app, "Nf3");
    assert_eq!(sans(&app), ["e4", "e5", "Nf3", "Nc6"]);
    assert!(app.pending.is_none());
    app.update(Action::Undo);
    assert_eq!((waiting(&app), write_game_to_string(&app.game)), before);
}

/// The first waiting move is the move the right one was played in place of: what was
/// written beside it (clock, remark, draw offer, glyph) is about the move played there,
/// so the right move gets it, never dropped with the wrong move; what is typed with the
/// right move wins.
#[test]
fn what_was_written_beside_the_wrong_move_goes_to_the_right_one() {
    // 10.Bb3 was written with `?`, a draw offer, a clock and a remark.
    let mut app = corrected();
    let at = app.pending.as_ref().expect("moves wait").at;
    type_line(&mut app, "Ba4");
    let ba4 = app.game.node(at).children[0];
    let node = app.game.node(ba4);
    assert_eq!(
        (node.san.as_str(), node.nags.as_slice(), node.draw_offer),
        ("Ba4", &[2][..], true)
    );
    assert_eq!(node.comments_after, ["[%clk 1:21:00] bishop back"]);
    // Typed with its own clock and remark: those win, the written remark follows.
    let mut typed = corrected();
    type_line(&mut typed, "Ba4 +1:22:00 {retreat}");
    let ba4 = typed.game.node(at).children[0];
    assert_eq!(
        typed.game.node(ba4).annotations(),
        [Annotation::Clock(ClockTime::from_secs(4_920))]
    );
    assert_eq!(typed.game.comment_text(ba4), "retreat bishop back");
}

/// Taking back (or deleting) the move the waiting moves wait after takes them too: said,
/// so that they are not gone unseen, and undone like the rest.
#[test]
fn taking_back_the_move_they_wait_after_says_the_waiting_moves_go_too() {
    let mut app = corrected();
    let before = waiting(&app);
    app.update(Action::TakeBack);
    assert!(
        app.message
            .text
            .starts_with("took back 9...Bf8, with the 3 waiting moves: "),
        "{}",
        app.message.text
    );
    assert_eq!(app.pending, None);
    app.update(Action::Undo);
    assert_eq!(waiting(&app), before);
    // A deletion elsewhere in the game (a variation) leaves them waiting, unmentioned.
    app.cursor = app.game.mainline()[0];
    app.inside = Inside::Variation;
    type_line(&mut app, "c5");
    app.update(Action::DeleteFromHere);
    assert_eq!(app.message.text, "deleted 1...c5: Ctrl-Z to undo");
    assert_eq!(waiting(&app), before);
}

/// The one move that waited, put right: the line says which move took its place (not
/// "no waiting move replayed", which read as if something had been lost).
#[test]
fn putting_right_the_only_waiting_move_says_which_move_took_its_place() {
    let mut app = app();
    type_line(&mut app, "e4 e5 Nf3 Nc6 Bb5 a6");
    // The move after the cursor is the one replaced: 2...Nc6.
    app.cursor = app.game.mainline()[2];
    app.inside = Inside::Replace;
    type_line(&mut app, "d6");
    assert_eq!(app.pending.as_ref().map(|p| p.moves.len()), Some(1));
    type_line(&mut app, "Nc6");
    assert_eq!(app.message.text, "corrected: Nc6 in place of a6");
    assert_eq!(app.pending, None);
}

/// A correction inside a variation: the moves that no longer fit wait at the end of the
/// variation, and a game saved so offers them again there, the cursor where the right
/// move is to be typed; the main line is untouched.
#[test]
fn moves_waiting_at_the_end_of_a_variation_wait_again_when_the_game_is_opened_again() {
    let mut app = app();
    type_line(&mut app, "e4 e5 Nf3 Nc6 Bb5 a6");
    app.cursor = app.game.mainline()[0];
    app.inside = Inside::Variation;
    type_line(
        &mut app,
        "c5 Nf3 d6 d4 cxd4 Nxd4 +1:40:00 Nf6 {the Najdorf next}",
    );
    // 2.Nf3 was 2.Nc3: 4.Nxd4 no longer fits (no knight reaches d4).
    let c5 = app.game.node(app.game.mainline()[0]).children[1];
    app.cursor = c5;
    app.inside = Inside::Replace;
    type_line(&mut app, "Nc3");
    let before = waiting(&app).expect("moves wait");
    assert_eq!((before.0.as_str(), before.1.len()), ("3...cxd4", 2));
    // The right move: Nf6 follows in the variation, with its comment; the note goes.
    let again = reopened_and_put_right(
        &app,
        "(unfinished: in the variation where moves wait); waiting: 4.Nxd4 Nf6 (type the right move)",
        "Qxd4",
    );
    assert_eq!(sans(&again), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    // The clock written beside the wrong 4.Nxd4 goes to the right move.
    let pgn = write_game_to_string(&again.game);
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "(1... c5 2. Nc3 d6 3. d4 cxd4 4. Qxd4 {[%clk 1:40:00]} 4... Nf6 {the Najdorf next})"
        ),
        "{pgn}"
    );
    assert!(!pgn.contains("not replayed"), "{pgn}");
}

/// Notes in two lines: the main line's is the one that waits (it is found first);
/// the variation's stays a comment, whole.
#[test]
fn with_notes_in_two_lines_the_main_lines_moves_wait_and_the_other_stays() {
    let mut app = app();
    type_line(
        &mut app,
        "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Be7 d3 d6 c3 O-O h3 h6 Re1 Re8 Nbd2 Bf8",
    );
    app.cursor = app.game.mainline()[0];
    app.inside = Inside::Variation;
    type_line(&mut app, "c5 Nf3 d6");
    let d6 = app.cursor;
    let side = "moves not replayed: 3. d4 cxd4";
    app.game.node_mut(d6).comments_after.push(side.into());
    let last = app.line_end(NodeId::ROOT);
    app.game
        .node_mut(last)
        .comments_after
        .push("moves not replayed: 10. Bb3 a6".into());
    let again = reopened(&app);
    assert_eq!(
        waiting(&again).map(|(at, m)| (at, m.len())),
        Some(("9...Bf8".to_string(), 2))
    );
    let c5 = again.game.node(again.game.mainline()[0]).children[1];
    let d6 = again.line_end(c5);
    assert_eq!(again.game.node(d6).comments_after, [side]);
}

/// What the player typed beside a waiting move is kept exactly through a save and a
/// reopening: a literal `[ %` (not a command) stays `[ %`, and a clock stays a clock;
/// written, read and written again, the file is the same.
#[test]
fn a_typed_bracket_percent_in_a_waiting_moves_comment_reads_back_as_typed() {
    let mut app = app();
    type_line(
        &mut app,
        "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7 d3 d6 c3 O-O Bb3 {see [ %clk here} a6 +1:23:00 {pin [  %x}",
    );
    app.cursor = app.game.mainline()[3];
    app.inside = Inside::Replace;
    type_line(&mut app, "Bb5");
    let before = waiting(&app).expect("moves wait");
    let comments: Vec<Vec<String>> = before.1.iter().map(|m| m.comments.clone()).collect();
    assert_eq!(
        comments,
        [
            vec!["see [ %clk here".to_string()],
            vec!["[%clk 1:23:00] pin [  %x".to_string()]
        ]
    );
    let written = write_game_to_string(&app.game);
    let again = reopened(&app);
    assert_eq!(waiting(&again), Some(before));
    assert_eq!(write_game_to_string(&again.game), written);
    // Replayed, the clock is a clock again and the typed text is as typed.
    let mut again = again;
    type_line(&mut again, "Ba4");
    let line = again.game.mainline();
    assert_eq!(
        again.game.node(line[12]).comments_after,
        ["see [ %clk here"]
    );
    assert_eq!(
        again.game.node(line[13]).annotations(),
        [Annotation::Clock(ClockTime::from_secs(4_980))]
    );
    assert_eq!(again.game.comment_text(line[13]), "pin [  %x");
}

/// A correction that would turn a written capture into a quiet move (or another piece's
/// move) does not replay it: `3.Bxf7+` after 1...f5 in place of 1...e5 would take nothing,
/// so it waits with the moves after it, and the scoresheet never shows a `Bf7+` that
/// nobody wrote.
#[test]
fn a_capture_that_would_take_nothing_after_a_correction_waits() {
    let mut app = app();
    type_line(&mut app, "e4 e5 Bc4 Nc6 Bxf7+ Kxf7 Qh5+ g6");
    app.cursor = app.game.mainline()[0];
    app.inside = Inside::Replace;
    type_line(&mut app, "f5");
    assert!(app.message.error, "{}", app.message.text);
    assert!(
        app.message
            .text
            .starts_with("1...e5 is now 1...f5; 2 moves replayed; Bxf7+ no longer fits"),
        "{}",
        app.message.text
    );
    assert_eq!(sans(&app), ["e4", "f5", "Bc4", "Nc6"]);
    let (after, moves) = waiting(&app).expect("moves wait");
    assert_eq!(after, "2...Nc6");
    let written: Vec<&str> = moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(written, ["Bxf7+", "Kxf7", "Qh5+", "g6"]);
}

/// The comment that keeps the waiting moves for the file is known while they wait, in
/// the game corrected, after a second wrong move (the recorder's own comment then) and
/// in the game opened again: the scoresheet leaves it out and shows them as waiting.
/// Once they are replayed there is none.
#[test]
fn the_comment_keeping_the_waiting_moves_is_known_while_they_wait() {
    let keeps = |app: &App| {
        let at = app.pending.as_ref().expect("moves wait").at;
        let index = app.waiting_comment(at).expect("a comment keeps them");
        let comment = &app.game.node(at).comments_after[index];
        assert!(comment.starts_with(NOT_REPLAYED), "{comment}");
    };
    let mut app = corrected();
    keeps(&app);
    keeps(&reopened(&app));
    type_line(&mut app, "Ba6");
    keeps(&app);
    keeps(&reopened(&app));
    let mut app = corrected();
    let at = app.cursor;
    type_line(&mut app, "Ba4");
    assert!(app.pending.is_none());
    assert_eq!(app.waiting_comment(at), None);
    assert_eq!(app.waiting_comment(app.cursor), None);
}
