//! Finds your mistakes in a game: the moves of the main line where the side you
//! played lost at least [`MISTAKE_DROP`] win-percentage points, by the `[%eval]`
//! annotations after the moves (what `scoresheet annotate`, lichess and most
//! engines' exports write). The variations that branch at a mistake (an
//! annotator's or an engine's better line) give the answers.

use chess::Color;

use super::exercise::{Answer, Exercise};
use super::win::{self, MISTAKE_DROP};
use crate::game::annotation::{Annotation, Score};
use crate::game::{Game, Node, NodeId};

/// The `[%eval]` written after a move, if any.
pub fn eval_of(node: &Node) -> Option<Score> {
    node.annotations().into_iter().find_map(|a| match a {
        Annotation::Eval(e) => Some(e.score),
        _ => None,
    })
}

/// The side `name` played in `game` (by its White and Black tags, ignoring case;
/// `Smith` also matches `Smith, John`), if either.
pub fn side_of(game: &Game, name: &str) -> Option<Color> {
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    let is = |tag: &str| {
        game.tag(tag).is_some_and(|v| {
            let v = v.trim();
            v.eq_ignore_ascii_case(name)
                || v.split(',')
                    .next()
                    .is_some_and(|surname| surname.trim().eq_ignore_ascii_case(name))
        })
    };
    if is("White") {
        Some(Color::White)
    } else if is("Black") {
        Some(Color::Black)
    } else {
        None
    }
}

/// What a game is, for people: `Smith – Jones, Club ch 2024.03.01`.
pub fn describe(game: &Game) -> String {
    let tag = |t: &str| {
        game.tag(t)
            .filter(|v| !v.is_empty() && *v != "?" && !v.starts_with("????"))
            .unwrap_or("")
            .to_string()
    };
    let players = format!(
        "{} – {}",
        Some(tag("White"))
            .filter(|s| !s.is_empty())
            .unwrap_or("?".into()),
        Some(tag("Black"))
            .filter(|s| !s.is_empty())
            .unwrap_or("?".into())
    );
    let rest: Vec<String> = [tag("Event"), tag("Date")]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    if rest.is_empty() {
        players
    } else {
        format!("{players}, {}", rest.join(" "))
    }
}

/// A move with its number as a scoresheet reads it: `12.Nf3`, `12...Nf6`.
pub fn numbered(game: &Game, id: NodeId) -> String {
    let Some(parent) = game.node(id).parent else {
        return "the start".into();
    };
    let before = game.position_at(parent);
    let dots = if before.side_to_move() == Color::White {
        "."
    } else {
        "..."
    };
    format!("{}{dots}{}", before.fullmove_number(), game.node(id).san)
}

/// The exercises of `game` for `side`: each main-line move of that side that lost at
/// least [`MISTAKE_DROP`] points, judged by the evaluations written before and after it.
pub fn find(game: &Game, side: Color) -> Vec<Exercise> {
    let line = game.mainline();
    let mut out = Vec::new();
    let mut before_id = NodeId::ROOT;
    for &id in &line {
        let parent = before_id;
        before_id = id;
        let pos = game.position_at(parent);
        if pos.side_to_move() != side {
            continue;
        }
        let (Some(before), Some(after)) = (eval_of(game.node(parent)), eval_of(game.node(id)))
        else {
            continue;
        };
        let lost = win::drop_for(before, after, side);
        if lost < MISTAKE_DROP {
            continue;
        }
        let answers = game
            .node(parent)
            .children
            .iter()
            .filter(|&&c| c != id)
            .map(|&c| Answer {
                uci: super::uci(game.node(c).mv),
                white_percent: eval_of(game.node(c)).map(win::white_percent),
            })
            .collect();
        out.push(Exercise {
            fen: pos.fen(),
            played: super::uci(game.node(id).mv),
            answers,
            before: Some(win::white_percent(before)),
            lost,
            source: format!("{}, {}", describe(game), numbered(game, id)),
        });
    }
    out
}

/// The mistakes found over a file.
#[derive(Debug, Default)]
pub struct Found {
    /// The exercises, in file order.
    pub exercises: Vec<Exercise>,
    /// Games read.
    pub games: u64,
    /// Games `name` played in.
    pub yours: u64,
    /// Games of yours with `[%eval]` annotations.
    pub evaluated: u64,
}

/// The mistakes `name` made over the games `src` holds (PGN), each game read with
/// its variations; a game that cannot be read is skipped.
pub fn in_games(src: impl std::io::Read, name: &str) -> std::io::Result<Found> {
    let mut reader = crate::pgn::reader::Reader::new(src);
    let mut builder = crate::pgn::GameBuilder::new(true);
    let mut found = Found::default();
    while let Some(read) = reader.read_game(&mut builder)? {
        found.games += 1;
        if read.refused {
            continue;
        }
        let Some(side) = side_of(&read.game, name) else {
            continue;
        };
        found.yours += 1;
        let game = &read.game;
        if game
            .mainline()
            .iter()
            .any(|&id| eval_of(game.node(id)).is_some())
        {
            found.evaluated += 1;
        }
        found.exercises.extend(find(game, side));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pgn: &str) -> Game {
        let mut games = crate::pgn::builder::read_games(pgn.as_bytes());
        assert_eq!(games.len(), 1);
        let g = games.remove(0);
        assert!(g.errors.is_empty(), "{:?}", g.errors);
        g.game
    }

    const ANNOTATED: &str = r#"[White "Me"]
[Black "Them"]
[Event "Club"]

1. e4 { [%eval 0.3] } 1... e5 { [%eval 0.3] } 2. Nf3 { [%eval 0.3] } 2... Nc6 { [%eval 0.3] }
3. Bc4 { [%eval 0.3] } 3... Nd4 { [%eval 0.9] } 4. Nxe5? { [%eval -1.5] }
( 4. Nxd4 { [%eval 0.9] } ) ( 4. c3 { [%eval 0.8] } ) 4... Qg5 { [%eval -1.4] }
5. Bxf7+?? { [%eval -5.0] } 5... Ke7 { [%eval -5.0] } 0-1
"#;

    #[test]
    fn my_mistakes_with_their_answers() {
        let g = game(ANNOTATED);
        assert_eq!(side_of(&g, "me"), Some(Color::White));
        assert_eq!(side_of(&g, "Them"), Some(Color::Black));
        assert_eq!(side_of(&g, "Nobody"), None);
        let found = find(&g, Color::White);
        // 4.Nxe5 (about 22 points) and 5.Bxf7+ (about 27 points more).
        assert_eq!(found.len(), 2, "{found:#?}");
        let first = &found[0];
        assert_eq!(first.played_san(), "Nxe5");
        assert_eq!(first.best_san().as_deref(), Some("Nxd4"));
        assert_eq!(first.answers.len(), 2);
        assert!(first.lost > 20.0, "{}", first.lost);
        assert_eq!(first.source, "Me – Them, Club, 4.Nxe5");
        assert_eq!(found[1].played_san(), "Bxf7+");
        assert!(found[1].answers.is_empty());
        // Black's moves lost nothing worth an exercise.
        assert!(find(&g, Color::Black).is_empty());
    }

    #[test]
    fn over_a_file_only_my_games_count() {
        let other = ANNOTATED.replace("\"Me\"", "\"Someone\"");
        let text = format!("{ANNOTATED}\n{other}\n");
        let found = in_games(text.as_bytes(), "Me").unwrap();
        assert_eq!((found.games, found.yours, found.evaluated), (2, 1, 1));
        assert_eq!(found.exercises.len(), 2);
    }

    #[test]
    fn no_evaluations_no_exercises() {
        let g = game("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
        assert!(find(&g, Color::Black).is_empty());
    }
}
