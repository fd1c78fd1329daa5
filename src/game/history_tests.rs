//! Tests of [`super`]: history.

use super::*;
use crate::game::NodeId;
use crate::notation::{read_move, Lang};
use crate::position::Position;

/// Plays `moves` (SAN) at the end of the main line; the last move's node.
fn play(game: &mut Game, moves: &str) -> NodeId {
    let mut at = *game.mainline().last().unwrap_or(&NodeId::ROOT);
    for word in moves.split_whitespace() {
        let pos = game.position_at(at);
        let (mv, _) = read_move(word, &pos, Lang::english()).expect("a legal test move");
        at = game.add_move(at, mv, &pos);
    }
    at
}

fn sans(game: &Game) -> Vec<String> {
    game.mainline()
        .iter()
        .map(|&id| game.node(id).san.clone())
        .collect()
}

#[test]
fn a_deletion_is_undone_and_redone_with_the_marks_of_before_and_after() {
    let mut game = Game::new(Position::start());
    let last = play(&mut game, "e4 e5 Nf3 Nc6 Bb5 a6");
    let mut history = History::new(game.clone(), last, false);
    // The cursor went back to 2.Nf3 and the rest was deleted from there.
    let nf3 = game.mainline()[2];
    let parent = game.delete_from(nf3).unwrap();
    history.record(
        nf3,
        game.clone(),
        parent,
        "deleted 2.Nf3 and 3 moves after it",
    );
    assert_eq!(sans(history.game()), ["e4", "e5"]);

    let step = history.undo().expect("one change to undo");
    assert_eq!(sans(step.game), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(
        *step.mark, nf3,
        "the cursor goes back to where the change was"
    );
    assert_eq!(step.label, "deleted 2.Nf3 and 3 moves after it");
    assert!(history.undo().is_none());

    let step = history.redo().expect("one change to redo");
    assert_eq!(sans(step.game), ["e4", "e5"]);
    assert_eq!(*step.mark, parent);
    assert_eq!(step.label, "deleted 2.Nf3 and 3 moves after it");
    assert!(history.redo().is_none());
}

#[test]
fn every_tag_change_and_move_is_a_level_of_its_own_a_thousand_deep() {
    let mut game = Game::new(Position::start());
    let mut history = History::new(game.clone(), NodeId::ROOT, true);
    for round in 1..=1000 {
        game.set_tag("Round", &round.to_string());
        history.record(
            NodeId::ROOT,
            game.clone(),
            NodeId::ROOT,
            format!("round {round}"),
        );
    }
    assert_eq!(history.undo_levels(), MAX_LEVELS);
    for round in (1..=1000).rev() {
        let step = history.undo().unwrap();
        assert_eq!(step.label, format!("round {round}"));
    }
    assert_eq!(history.game().tag("Round"), Some("?"));
    assert!(history.is_saved(), "back at the version in the file");
    assert!(history.undo().is_none());
    for _ in 0..1000 {
        history.redo().unwrap();
    }
    assert_eq!(history.game().tag("Round"), Some("1000"));
}

#[test]
fn a_new_change_after_undo_drops_what_was_undone() {
    let mut game = Game::new(Position::start());
    let mut history = History::new(game.clone(), NodeId::ROOT, false);
    play(&mut game, "e4");
    history.record(NodeId::ROOT, game.clone(), NodeId(1), "1.e4");
    history.undo().unwrap();
    let mut other = Game::new(Position::start());
    play(&mut other, "d4");
    history.record(NodeId::ROOT, other, NodeId(1), "1.d4");
    assert!(history.redo().is_none());
    assert_eq!(history.redo_levels(), 0);
    let step = history.undo().unwrap();
    assert!(step.game.is_empty());
    assert_eq!(step.label, "1.d4");
}

#[test]
fn undo_after_a_save_makes_the_game_unsaved_and_redo_saved_again() {
    let mut game = Game::new(Position::start());
    let mut history = History::new(game.clone(), NodeId::ROOT, false);
    assert!(!history.is_saved());
    play(&mut game, "e4");
    history.record(NodeId::ROOT, game.clone(), NodeId(1), "1.e4");
    history.mark_saved();
    assert!(history.is_saved());
    history.undo().unwrap();
    assert!(!history.is_saved());
    history.redo().unwrap();
    assert!(history.is_saved());
}

#[test]
fn the_oldest_levels_go_first_when_the_limits_are_reached() {
    let mut game = Game::new(Position::start());
    // Each version below holds 2..=5 nodes; at most 3 levels and 9 nodes are kept.
    let mut history = History::with_limits(game.clone(), NodeId::ROOT, false, 3, 9);
    for (i, mv) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
        play(&mut game, mv);
        history.record(
            NodeId::ROOT,
            game.clone(),
            NodeId::ROOT,
            format!("{}", i + 1),
        );
    }
    // Kept: the versions of 1, 2 and 3 moves (2 + 3 + 4 = 9 nodes).
    assert_eq!(history.undo_levels(), 3);
    history.record(NodeId::ROOT, Game::default(), NodeId::ROOT, "cleared");
    // Adding the 5-node version went past 9 nodes: only 3 and 4 moves are kept.
    assert_eq!(history.undo_levels(), 2);
    assert_eq!(sans(history.undo().unwrap().game).len(), 4);
    assert_eq!(sans(history.undo().unwrap().game).len(), 3);
    assert!(history.undo().is_none());
}
