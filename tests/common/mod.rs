//! Helpers shared by the PGN integration tests: comparing two games node by node.

use scoresheet::game::{Game, NodeId, SEVEN_TAG_ROSTER};

/// The SAN of some nodes, for messages.
pub fn sans(game: &Game, line: &[NodeId]) -> Vec<String> {
    line.iter().map(|id| game.node(*id).san.clone()).collect()
}

/// The tags in export order: the Seven Tag Roster, then the others in the order read.
/// (A file may give the roster in another order; the writer puts it first.)
pub fn export_tags(game: &Game) -> Vec<(String, String)> {
    let roster = SEVEN_TAG_ROSTER
        .iter()
        .map(|name| (name.to_string(), game.tag(name).unwrap_or("?").to_string()));
    let others = game
        .tags
        .iter()
        .filter(|(name, _)| !SEVEN_TAG_ROSTER.contains(&name.as_str()))
        .cloned();
    roster.chain(others).collect()
}

/// Compares two games: tags (in export order), start position, then both trees node by
/// node. The error names the first difference and the moves leading to it.
pub fn same_game(a: &Game, b: &Game) -> Result<(), String> {
    let (ta, tb) = (export_tags(a), export_tags(b));
    if ta != tb || a.tags.len() != b.tags.len() {
        return Err(format!("tags differ:\n  {:?}\n  {:?}", a.tags, b.tags));
    }
    if a.start != b.start {
        return Err(format!(
            "start positions differ: {} / {}",
            a.start.fen(),
            b.start.fen()
        ));
    }
    let mut stack = vec![(NodeId::ROOT, NodeId::ROOT, String::from("the start"))];
    while let Some((x, y, path)) = stack.pop() {
        let (n, m) = (a.node(x), b.node(y));
        let differs =
            |what: &str, l: String, r: String| Err(format!("at {path}: {what} differ: {l} / {r}"));
        if n.mv != m.mv || n.san != m.san {
            return differs("moves", format!("{:?}", n.san), format!("{:?}", m.san));
        }
        if n.nags != m.nags {
            return differs("NAGs", format!("{:?}", n.nags), format!("{:?}", m.nags));
        }
        if n.comments_before != m.comments_before {
            return differs(
                "comments before",
                format!("{:?}", n.comments_before),
                format!("{:?}", m.comments_before),
            );
        }
        if n.comments_after != m.comments_after {
            return differs(
                "comments after",
                format!("{:?}", n.comments_after),
                format!("{:?}", m.comments_after),
            );
        }
        if n.draw_offer != m.draw_offer {
            return differs(
                "draw offers",
                n.draw_offer.to_string(),
                m.draw_offer.to_string(),
            );
        }
        if n.children.len() != m.children.len() {
            return differs(
                "numbers of continuations",
                format!("{:?}", sans(a, &n.children)),
                format!("{:?}", sans(b, &m.children)),
            );
        }
        for (i, (cx, cy)) in n.children.iter().zip(&m.children).enumerate() {
            let mark = if i == 0 { " " } else { " (" };
            let next = format!("{path}{mark}{}", a.node(*cx).san);
            stack.push((*cx, *cy, next));
        }
    }
    Ok(())
}
