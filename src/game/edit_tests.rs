//! Tests of [`super`]: edit.

use super::*;
use crate::notation::{read_move, Lang};

/// Plays `moves` (SAN; move numbers such as `3.` or `3...` are skipped) after
/// `from`, returning the nodes in order.
fn line(game: &mut Game, from: NodeId, moves: &str) -> Vec<NodeId> {
    let mut at = from;
    let mut pos = game.position_at(from);
    let mut ids = Vec::new();
    for word in moves.split_whitespace().filter(|w| !w.ends_with('.')) {
        let mv = read(&pos, word);
        at = game.add_move(at, mv, &pos);
        pos = pos.apply(mv).expect("a legal test move");
        ids.push(at);
    }
    ids
}

fn read(pos: &Position, text: &str) -> Move {
    match read_move(text, pos, Lang::english()) {
        Ok((mv, _)) => mv,
        Err(e) => panic!("{text}: {e}"),
    }
}

/// The move `text` in the position after `at`.
fn move_after(game: &Game, at: NodeId, text: &str) -> Move {
    read(&game.position_at(at), text)
}

fn sans(game: &Game, ids: &[NodeId]) -> String {
    let words: Vec<&str> = ids.iter().map(|id| game.node(*id).san.as_str()).collect();
    words.join(" ")
}

fn main_sans(game: &Game) -> String {
    sans(game, &game.mainline())
}

/// 1. e4 e5 (1... c5 2. Nf3 d6) (1... e6 2. d4) 2. Nf3
fn three_replies() -> (Game, Vec<NodeId>, Vec<NodeId>, Vec<NodeId>) {
    let mut game = Game::default();
    let main = line(&mut game, NodeId::ROOT, "1. e4 e5 2. Nf3");
    let c5 = line(&mut game, main[0], "1... c5 2. Nf3 d6");
    let e6 = line(&mut game, main[0], "1... e6 2. d4");
    (game, main, c5, e6)
}

#[test]
fn promote_and_demote_step_by_step() {
    let (mut game, main, c5, e6) = three_replies();
    assert_eq!(sans(&game, game.variations_at(main[1])), "e5 c5 e6");
    // From inside the line: the swap happens where it branches off.
    assert_eq!(game.promote_variation(e6[1]), Ok(true));
    assert_eq!(sans(&game, game.variations_at(main[1])), "e5 e6 c5");
    assert_eq!(game.promote_variation(e6[1]), Ok(true));
    assert_eq!(main_sans(&game), "e4 e6 d4");
    assert_eq!(game.promote_variation(e6[1]), Ok(false));

    assert_eq!(game.demote_variation(e6[0]), Ok(true));
    assert_eq!(sans(&game, game.variations_at(main[1])), "e5 e6 c5");
    // c5 is last at its point and nothing else branches above it.
    assert_eq!(game.demote_variation(c5[2]), Ok(false));
    // The main line's 2. Nf3 is alone, so demoting it demotes 1... e5.
    assert_eq!(game.demote_variation(main[2]), Ok(true));
    assert_eq!(main_sans(&game), "e4 e6 d4");
}

#[test]
fn promoting_a_subvariation_stays_inside_its_variation() {
    let (mut game, main, c5, _) = three_replies();
    let nc3 = line(&mut game, c5[0], "2. Nc3 Nc6");
    assert_eq!(game.promote_variation(nc3[1]), Ok(true));
    assert_eq!(sans(&game, &game.node(c5[0]).children), "Nc3 Nf3");
    assert_eq!(sans(&game, game.variations_at(main[1])), "e5 c5 e6");
    assert_eq!(main_sans(&game), "e4 e5 Nf3");
}

#[test]
fn promote_to_main_goes_all_the_way_up() {
    let (mut game, main, c5, _) = three_replies();
    let nc3 = line(&mut game, c5[0], "2. Nc3 Nc6");
    assert_eq!(game.promote_to_main(nc3[1]), Ok(true));
    assert_eq!(main_sans(&game), "e4 c5 Nc3 Nc6");
    // The lines passed keep their order behind it.
    assert_eq!(sans(&game, game.variations_at(main[1])), "c5 e5 e6");
    assert_eq!(sans(&game, &game.node(c5[0]).children), "Nc3 Nf3");
    assert_eq!(game.promote_to_main(nc3[0]), Ok(false));
    assert_eq!(game.ply_of(nc3[1]), 4);
    assert_eq!(game.ply_of(NodeId::ROOT), 0);
}

#[test]
fn delete_variation_removes_the_whole_line_from_its_branch_point() {
    let (mut game, main, c5, e6) = three_replies();
    assert_eq!(game.delete_variation(main[2]), Err(EditError::OnMainLine));
    assert_eq!(game.delete_variation(c5[2]), Ok(main[0]));
    assert_eq!(sans(&game, game.variations_at(main[1])), "e5 e6");
    assert!(c5.iter().all(|id| !game.is_live(*id)));
    assert!(game.is_live(e6[1]) && game.is_live(main[2]));
    assert_eq!(main_sans(&game), "e4 e5 Nf3");
    // A deleted id is refused, not silently reused.
    assert_eq!(
        game.delete_variation(c5[1]),
        Err(EditError::NoSuchNode(c5[1]))
    );
    assert_eq!(
        game.promote_variation(NodeId(999)),
        Err(EditError::NoSuchNode(NodeId(999)))
    );
}

#[test]
fn delete_from_truncates_and_lets_the_next_line_take_over() {
    let (mut game, main, _, _) = three_replies();
    assert_eq!(game.delete_from(NodeId::ROOT), Err(EditError::Root));
    assert_eq!(game.delete_from(main[2]), Ok(main[1]));
    assert_eq!(main_sans(&game), "e4 e5");
    assert_eq!(game.delete_from(main[1]), Ok(main[0]));
    assert_eq!(main_sans(&game), "e4 c5 Nf3 d6");
    assert!(!game.is_live(main[1]));
}

#[test]
fn compact_drops_dead_nodes_and_remaps_the_rest() {
    let mut game = Game::default();
    let main = line(&mut game, NodeId::ROOT, "1. e4 e5 2. Nf3 Nc6");
    let c5 = line(&mut game, main[0], "1... c5 2. Nf3");
    let nc3 = line(&mut game, main[1], "2. Nc3");
    game.delete_variation(c5[1]).expect("a variation");
    let remap = game.compact();
    assert_eq!(remap[c5[0].0 as usize], None);
    assert_eq!(remap[main[3].0 as usize], Some(main[3]));
    assert_eq!(remap[nc3[0].0 as usize], Some(NodeId(5)));

    let mut fresh = Game::default();
    let again = line(&mut fresh, NodeId::ROOT, "1. e4 e5 2. Nf3 Nc6");
    line(&mut fresh, again[1], "2. Nc3");
    assert_eq!(game, fresh);
}

/// A quiet Italian game; 3. Bc4 was really 3. Bb5.
const ITALIAN: &str = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. d3 d6 5. c3 Nf6 6. O-O O-O \
    7. h3 h6 8. Re1 a6 9. a4 Ba7 10. Nbd2 Re8 11. Nf1 Be6 12. Ng3 Qd7 13. Nh2 Rad8 \
    14. Qf3 Kh7 15. Bxe6 fxe6 16. Ng4 Nxg4";

#[test]
fn replace_a_move_twelve_moves_back_replays_until_a_move_is_illegal() {
    let mut game = Game::default();
    let ids = line(&mut game, NodeId::ROOT, ITALIAN);
    let bc4 = ids[4];
    game.node_mut(bc4).nags.push(1);
    game.node_mut(bc4)
        .comments_after
        .push("[%clk 1:58:00]".into());
    let bb5 = move_after(&game, ids[3], "Bb5");

    let report = game.replace_move(bc4, bb5).expect("Bb5 is legal");
    assert_eq!(report.old_san, "Bc4");
    assert_eq!(game.node(bc4).san, "Bb5");
    assert_eq!(game.node(bc4).nags, [1]);
    assert_eq!(game.node(bc4).comments_after, ["[%clk 1:58:00]"]);
    // 3... Bc5 to 14... Kh7 still stand; 15. Bxe6 was the c4 bishop's move.
    assert_eq!(report.replayed, 23);
    let kh7 = ids[27];
    let cut = report.not_replayed.expect("a cut");
    assert_eq!(
        (cut.id, cut.san.as_str(), cut.after),
        (ids[28], "Bxe6", kh7)
    );
    assert_eq!(cut.movetext, "15. Bxe6 fxe6 16. Ng4 Nxg4");
    assert_eq!(
        game.node(kh7).comments_after,
        ["moves not replayed: 15. Bxe6 fxe6 16. Ng4 Nxg4"]
    );
    assert_eq!(game.mainline(), ids[..28]);
    assert!(report.dropped.is_empty() && report.renamed.is_empty());
    // The cut nodes are gone from the tree but still readable.
    assert!(!game.is_live(cut.id));
    assert_eq!(game.node(ids[31]).san, "Nxg4");
}

#[test]
fn replace_recomputes_san_when_disambiguation_appears_or_goes() {
    let mut game = Game::default();
    let ids = line(&mut game, NodeId::ROOT, "1. e4 e5 2. Nc3 Nc6 3. Nge2");
    let na3 = move_after(&game, ids[1], "Na3");
    let report = game.replace_move(ids[2], na3).expect("Na3 is legal");
    assert_eq!(report.replayed, 2);
    assert_eq!(report.renamed, [(ids[4], "Nge2".to_string())]);
    assert_eq!(main_sans(&game), "e4 e5 Na3 Nc6 Ne2");

    let nc3 = move_after(&game, ids[1], "Nc3");
    let report = game.replace_move(ids[2], nc3).expect("Nc3 is legal");
    assert_eq!(report.renamed, [(ids[4], "Ne2".to_string())]);
    assert_eq!(main_sans(&game), "e4 e5 Nc3 Nc6 Nge2");
}

#[test]
fn replace_keeps_legal_variations_and_notes_the_dropped_ones() {
    let mut game = Game::default();
    let ids = line(
        &mut game,
        NodeId::ROOT,
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4",
    );
    let ng5 = line(&mut game, ids[3], "3. Ng5 d5");
    let nf6 = line(&mut game, ids[4], "3... Nf6");
    line(&mut game, ids[5], "4. d3");
    let nc3 = move_after(&game, ids[1], "Nc3");

    let report = game.replace_move(ids[2], nc3).expect("Nc3 is legal");
    assert_eq!(report.replayed, 3);
    assert_eq!(main_sans(&game), "e4 e5 Nc3 Nc6 Bc4 Bc5");
    assert!(game.is_live(nf6[0]));
    assert_eq!(sans(&game, game.variations_at(ids[5])), "Bc5 Nf6");

    // 3. Ng5 was the f3 knight's move.
    assert_eq!(report.dropped.len(), 1);
    let dropped = &report.dropped[0];
    assert_eq!((dropped.id, dropped.after), (ng5[0], ids[3]));
    assert_eq!(dropped.movetext, "3. Ng5 d5");
    assert_eq!(
        game.node(ids[3]).comments_after,
        ["variation not replayed: 3. Ng5 d5"]
    );
    // 4. c3 is blocked by the knight; 4. d3 was an alternative to it and goes too.
    let cut = report.not_replayed.expect("a cut");
    assert_eq!((cut.id, cut.san.as_str()), (ids[6], "c3"));
    assert_eq!(cut.movetext, "4. c3 (4. d3) 4... Nf6 5. d4");
    assert!(game.node(ids[5]).children.is_empty());
}

#[test]
fn replace_refuses_illegal_duplicate_and_root() {
    let (mut game, main, c5, _) = three_replies();
    let before = game.clone();
    let e4 = move_after(&game, NodeId::ROOT, "e4");
    assert_eq!(
        game.replace_move(main[1], e4),
        Err(EditError::Illegal("e2e4".into()))
    );
    let c5_move = game.node(c5[0]).mv;
    assert_eq!(
        game.replace_move(main[1], c5_move),
        Err(EditError::AlreadyThere {
            id: c5[0],
            san: "c5".into()
        })
    );
    assert_eq!(game.replace_move(NodeId::ROOT, e4), Err(EditError::Root));
    assert_eq!(game, before);
}

#[test]
fn the_comment_keeping_cut_moves_keeps_their_clocks_and_remarks() {
    // 1. e4 was really 1. d4: 3. Bb5 no longer fits, and what was written beside it
    // and after it (a clock, a remark) must stay in the game, not be read as 2... Nc6's.
    let mut game = Game::default();
    let ids = line(&mut game, NodeId::ROOT, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6");
    game.node_mut(ids[4])
        .comments_after
        .push("[%clk 1:28:00]".into());
    game.node_mut(ids[5])
        .comments_after
        .push("main line".into());
    let d4 = move_after(&game, NodeId::ROOT, "d4");
    let report = game.replace_move(ids[0], d4).expect("d4 is legal");
    let cut = report.not_replayed.expect("Bb5 is cut");
    assert_eq!(cut.movetext, "3. Bb5 «[ %clk 1:28:00]» 3... a6 «main line»");
    assert_eq!(
        game.node(ids[3]).comments_after,
        ["moves not replayed: 3. Bb5 «[ %clk 1:28:00]» 3... a6 «main line»"]
    );
    // No clock of the cut move is read as one of 2... Nc6.
    assert!(game.node(ids[3]).annotations().is_empty());
}

/// A cut move's comment, quoted into the comment that keeps the cut moves and read back,
/// is exactly what was typed: commands are opened (`[%` is never written, so none is read
/// as the keeping move's), and a typed `[ %` keeps its blank.
#[test]
fn a_quoted_comment_reads_back_exactly_as_typed() {
    for (typed, quoted) in [
        ("[%clk 1:28:00] main line", "«[ %clk 1:28:00] main line»"),
        ("see [ %clk here", "«see [  %clk here»"),
        ("[[  %x] [ [%", "«[[   %x] [ [ %»"),
        ("«[ %clk 1:00:00]» 3. Bb5", "««[  %clk 1:00:00]» 3. Bb5»"),
        ("no command: [x] % [\t%", "«no command: [x] % [\t%»"),
    ] {
        assert_eq!(quoted_comment(typed), quoted, "{typed}");
        assert!(!quoted.contains("[%"), "{quoted}");
        assert_eq!(unquoted_comment(quoted), typed, "{quoted}");
    }
}
