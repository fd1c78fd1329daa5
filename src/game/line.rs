//! One line of a game as a game of its own: what "copy the current line" copies.

use super::{Game, NodeId};

impl Game {
    /// The line through `id` as a game of its own: the moves from the start to `id`,
    /// then on from `id` along the first choices to the end, each with its NAGs,
    /// comments and draw offer, and no other variation. The tags are kept (the writer
    /// adds `SetUp` and `FEN` for a game from a set-up position), except that a line
    /// that leaves the main line gets the result `*`: the game's result was reached on
    /// the main line, not on this one.
    ///
    /// A comment written before the first move of a variation (`( {better was} 12. Nf3`)
    /// has no place before a move of a main line in PGN, so it goes after the move
    /// before (or before the first move), where it is read at the same point.
    pub fn line_through(&self, id: NodeId) -> Game {
        let mut line = self.path_to(id);
        let mut at = id;
        while let Some(next) = self.node(at).children.first() {
            line.push(*next);
            at = *next;
        }
        let mut out = Game::bare(self.start);
        out.tags.clone_from(&self.tags);
        let (from, root) = (self.node(NodeId::ROOT), out.node_mut(NodeId::ROOT));
        root.comments_after.clone_from(&from.comments_after);
        root.nags.clone_from(&from.nags);
        let mut on_main_line = true;
        let (mut parent, mut pos) = (NodeId::ROOT, self.start);
        for step in line {
            let node = self.node(step);
            let before = node
                .parent
                .map(|p| self.node(p).children.first() == Some(&step));
            on_main_line &= before.unwrap_or(true);
            let new = out.add_move(parent, node.mv, &pos);
            out.node_mut(parent)
                .comments_after
                .extend(node.comments_before.iter().cloned());
            let copy = out.node_mut(new);
            copy.nags.clone_from(&node.nags);
            copy.comments_after.clone_from(&node.comments_after);
            copy.draw_offer = node.draw_offer;
            pos = pos.apply(node.mv).unwrap_or(pos);
            parent = new;
        }
        if !on_main_line {
            out.set_tag("Result", "*");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::game::{Game, NodeId};
    use crate::pgn::write_game_to_string;

    fn game(pgn: &str) -> Game {
        let games = crate::pgn::read_games(pgn.as_bytes());
        let g = games.into_iter().next().expect("a game");
        assert!(g.errors.is_empty(), "{:?}", g.errors);
        g.game
    }

    /// The first node, in the arena's order, whose SAN is `san` (the test games play
    /// each move they name once).
    fn find(game: &Game, san: &str) -> NodeId {
        (0..game.len() as u32)
            .map(NodeId)
            .find(|id| *id != NodeId::ROOT && game.node(*id).san == san)
            .unwrap_or_else(|| panic!("no move {san}"))
    }

    fn movetext(pgn: &str) -> String {
        pgn.lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ")
            .trim()
            .to_string()
    }

    const ANNOTATED: &str = r#"[Event "Club"]
[Site "?"]
[Date "2024.01.01"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]

{Opening comment} 1. e4 $1 {best by test} e5 (1... c5 {Sicilian} 2. Nf3 (2. c3 {Alapin}) 2... d6 {Najdorf soon} (2... Nc6)) 2. Nf3 Nc6 (2... d6) 3. Bb5 a6 1-0
"#;

    #[test]
    fn a_line_in_a_variation_keeps_its_comments_and_nags_and_drops_the_rest() {
        let g = game(ANNOTATED);
        // The cursor on 2. Nf3 of the Sicilian: the line runs on along first choices.
        let sicilian_nf3 = g.node(find(&g, "c5")).children.first().copied().unwrap();
        let line = g.line_through(sicilian_nf3);
        let text = write_game_to_string(&line);
        assert_eq!(
            movetext(&text),
            "{Opening comment} 1. e4 $1 {best by test} 1... c5 {Sicilian} 2. Nf3 d6 \
             {Najdorf soon} *"
        );
        // Tags kept, the result is the line's, not the game's.
        assert!(text.contains("[Event \"Club\"]\n"));
        assert!(text.contains("[Result \"*\"]\n"));
        assert_eq!(line.mainline().len(), 4);
    }

    #[test]
    fn the_main_line_keeps_the_games_result() {
        let g = game(ANNOTATED);
        let line = g.line_through(find(&g, "e5"));
        let text = write_game_to_string(&line);
        assert_eq!(
            movetext(&text),
            "{Opening comment} 1. e4 $1 {best by test} 1... e5 2. Nf3 Nc6 3. Bb5 a6 1-0"
        );
        // The start position stands for the whole main line too.
        assert_eq!(g.line_through(NodeId::ROOT), line);
    }

    #[test]
    fn a_comment_before_a_variation_move_is_kept_before_it() {
        let g = game("[Event \"?\"]\n\n1. e4 e5 (1... {Or} c5 2. Nf3) 2. Nf3 *\n");
        let line = g.line_through(find(&g, "c5"));
        assert_eq!(
            movetext(&write_game_to_string(&line)),
            "1. e4 {Or} 1... c5 2. Nf3 *"
        );
    }

    #[test]
    fn a_game_from_a_set_up_position_keeps_its_fen() {
        let g = game(
            "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 30\"]\n\n\
             30. e4 Kd7 (30... Ke7 31. e5) 31. e5 *\n",
        );
        let line = g.line_through(find(&g, "Ke7"));
        let text = write_game_to_string(&line);
        assert!(text.contains("[SetUp \"1\"]\n"), "{text}");
        assert!(
            text.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 30\"]\n"),
            "{text}"
        );
        assert_eq!(movetext(&text), "30. e4 Ke7 31. e5 *");
    }
}
