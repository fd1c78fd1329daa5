//! Finds your mistakes in a game: the moves of the main line where the side you
//! played lost at least [`MISTAKE_DROP`] win-percentage points, by the `[%eval]`
//! annotations after the moves (what `scoresheet annotate`, lichess and most
//! engines' exports write; [`find`]), or by an engine's analysis of a game that has
//! none ([`from_evals`]). The variations that branch at a mistake (an annotator's or
//! an engine's better line), or the engine's best move, give the answers. Which of
//! a file's games are yours, newest first: [`your_games`].

use chess::Color;

use super::exercise::{Answer, Exercise};
use super::name::same_player;
use super::win::{self, MISTAKE_DROP};
use crate::engine::judge::CP_CEILING;
use crate::game::annotation::{Annotation, Score};
use crate::game::{Game, Node, NodeId};
use crate::position::Move;
use crate::study::annotate::PositionEval;

/// The `[%eval]` written after a move, if any.
pub fn eval_of(node: &Node) -> Option<Score> {
    node.annotations().into_iter().find_map(|a| match a {
        Annotation::Eval(e) => Some(e.score),
        _ => None,
    })
}

/// The `[%eval]` written after move `id` of `game`, a `#0` (a mate on the board, which
/// does not say who is mated) read by whose move it is, as python-chess reads it: the
/// side to move is mated, so a mating move is a win, never a mistake.
pub fn eval_at(game: &Game, id: NodeId) -> Option<Score> {
    match eval_of(game.node(id))? {
        Score::Mate(0) => Some(Score::Pawns(match game.position_at(id).side_to_move() {
            Color::White => -CP_CEILING,
            Color::Black => CP_CEILING,
        })),
        score => Some(score),
    }
}

/// The side `name` played in `game`, if either: by its White and Black tags, as
/// [`same_player`] matches names (`Carlsen, Magnus` is also `Carlsen,M` and `Magnus
/// Carlsen`; `Smith` is every Smith).
pub fn side_of(game: &Game, name: &str) -> Option<Color> {
    let is = |tag: &str| game.tag(tag).is_some_and(|v| same_player(v, name));
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

/// The game's start as FEN, when it is not the usual position.
fn start_fen(game: &Game) -> Option<String> {
    let fen = game.start.fen();
    (fen != crate::position::Position::start().fen()).then_some(fen)
}

/// The exercises of `game` for `side`: each main-line move of that side that lost at
/// least [`MISTAKE_DROP`] points, judged by the evaluations written before and after it.
pub fn find(game: &Game, side: Color) -> Vec<Exercise> {
    let line = game.mainline();
    let moves: Vec<String> = line
        .iter()
        .map(|&id| super::uci(game.node(id).mv))
        .collect();
    let mut out = Vec::new();
    let mut before_id = NodeId::ROOT;
    for (k, &id) in line.iter().enumerate() {
        let parent = before_id;
        before_id = id;
        let pos = game.position_at(parent);
        if pos.side_to_move() != side {
            continue;
        }
        let (Some(before), Some(after)) = (eval_at(game, parent), eval_at(game, id)) else {
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
                white_percent: eval_at(game, c).map(win::white_percent),
            })
            .collect();
        out.push(Exercise {
            fen: pos.fen(),
            played: super::uci(game.node(id).mv),
            answers,
            before: Some(win::white_percent(before)),
            lost,
            source: format!("{}, {}", describe(game), numbered(game, id)),
            line: moves[..k].to_vec(),
            start: start_fen(game),
            recency: None,
        });
    }
    out
}

/// The exercises of `game` for `side` by an engine's analysis of its main line
/// (`evals[0]` the start's, `evals[i]` the one after the i-th move, as
/// [`crate::study::annotate::analyse`] gives them): each move of that side that lost at
/// least [`MISTAKE_DROP`] points and was not the engine's best, with the engine's
/// best move as the answer.
pub fn from_evals(game: &Game, side: Color, evals: &[PositionEval]) -> Vec<Exercise> {
    let line = game.mainline();
    let moves = crate::study::annotate::main_moves(game);
    let played: Vec<String> = moves.iter().map(|&m| super::uci(Move::Normal(m))).collect();
    let mut out = Vec::new();
    let mut pos = game.start;
    for (i, &mv) in moves.iter().enumerate() {
        let before_pos = pos;
        pos = pos.play(mv);
        let (Some(before), Some(after)) = (evals.get(i), evals.get(i + 1)) else {
            break;
        };
        if before_pos.side_to_move() != side || before.pv.first() == Some(&mv) {
            continue;
        }
        let percent = |s: crate::engine::Score| {
            let white = crate::engine::judge::win_percent(s);
            match side {
                Color::White => white,
                Color::Black => 100.0 - white,
            }
        };
        let lost = percent(before.score) - percent(after.score);
        if lost < MISTAKE_DROP {
            continue;
        }
        let before_percent = crate::engine::judge::win_percent(before.score);
        out.push(Exercise {
            fen: before_pos.fen(),
            played: super::uci(Move::Normal(mv)),
            answers: before
                .pv
                .first()
                .map(|&best| Answer {
                    uci: super::uci(Move::Normal(best)),
                    white_percent: Some(before_percent),
                })
                .into_iter()
                .collect(),
            before: Some(before_percent),
            lost,
            source: format!("{}, {}", describe(game), numbered(game, line[i])),
            line: played[..i].to_vec(),
            start: start_fen(game),
            recency: None,
        });
    }
    out
}

/// The number of your games a drill looks through when none is given: "where did I
/// go wrong in my last fifty games".
pub const DEFAULT_LAST: usize = 50;

/// One of your games.
#[derive(Debug)]
pub struct Yours {
    /// The game.
    pub game: Game,
    /// The side you played.
    pub side: Color,
    /// Its number in its file (from 1).
    pub number: u64,
}

impl Yours {
    /// True when its main line carries `[%eval]` annotations.
    pub fn evaluated(&self) -> bool {
        self.game
            .mainline()
            .iter()
            .any(|&id| eval_of(self.game.node(id)).is_some())
    }
}

/// Your games of a file, newest first.
#[derive(Debug, Default)]
pub struct Selection {
    /// The newest `last` of your games (all, when no count was given), newest first.
    pub games: Vec<Yours>,
    /// Games read.
    pub read: u64,
    /// Games of yours in all.
    pub yours: u64,
}

/// A date tag as a key that sorts by time: the unknown parts (`??`) count as the
/// earliest.
fn date_key(game: &Game) -> String {
    game.tag("Date")
        .unwrap_or("")
        .chars()
        .map(|c| if c.is_ascii_digit() { c } else { '0' })
        .collect()
}

/// The games of `src` (PGN) that `name` played ([`side_of`]), newest first by their
/// Date tag (of two on the same date, the later in the file first: files grow at the
/// end), at most `last` of them when given. A game that cannot be read is skipped.
pub fn your_games(
    src: impl std::io::Read,
    name: &str,
    last: Option<usize>,
) -> std::io::Result<Selection> {
    let mut reader = crate::pgn::reader::Reader::new(src);
    let mut builder = crate::pgn::GameBuilder::new(true);
    let mut selection = Selection::default();
    let mut games = Vec::new();
    let keep = last.unwrap_or(usize::MAX);
    // Newest first by date, then by place in the file.
    let newest_first =
        |(a, x): &(String, Yours), (b, y): &(String, Yours)| b.cmp(a).then(y.number.cmp(&x.number));
    while let Some(read) = reader.read_game(&mut builder)? {
        selection.read += 1;
        if read.refused {
            continue;
        }
        let Some(side) = side_of(&read.game, name) else {
            continue;
        };
        selection.yours += 1;
        games.push((
            date_key(&read.game),
            Yours {
                game: read.game,
                side,
                number: read.number,
            },
        ));
        // Only the newest `last` are kept: a file of thousands of your games is
        // not held whole.
        if games.len() >= keep.saturating_mul(2).max(64) {
            games.sort_by(newest_first);
            games.truncate(keep);
        }
    }
    games.sort_by(newest_first);
    games.truncate(keep);
    selection.games = games.into_iter().map(|(_, g)| g).collect();
    Ok(selection)
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

    /// A mate on the board is written `#0`, which does not say who is mated: the side
    /// to move is, so the mating move is a win for its side, never a mistake, and the
    /// move that allowed it is one for the other side.
    #[test]
    fn a_mating_move_is_no_mistake() {
        let g = game(
            "[White \"Them\"]\n[Black \"Me\"]\n\n1. f3 {[%eval -0.50]} e5 {[%eval -0.60]} \
             2. g4 {[%eval -9.00]} Qh4# {[%eval #0]} 0-1\n",
        );
        assert!(
            find(&g, Color::Black).is_empty(),
            "{:#?}",
            find(&g, Color::Black)
        );
        let theirs = find(&g, Color::White);
        assert_eq!(theirs.len(), 1, "{theirs:#?}");
        assert_eq!(theirs[0].played_san(), "g4");
        // Read by whose move it is: Black mated after a White mate.
        let white_mates = game("1. e4 g5 2. d4 f6 3. Qh5# {[%eval #0]} 1-0\n");
        let last = *white_mates.mainline().last().unwrap();
        assert_eq!(eval_at(&white_mates, last), Some(Score::Pawns(CP_CEILING)));
    }

    #[test]
    fn my_mistakes_with_their_answers() {
        let g = game(ANNOTATED);
        assert_eq!(side_of(&g, "me"), Some(Color::White));
        assert_eq!(side_of(&g, "Them"), Some(Color::Black));
        assert_eq!(side_of(&g, "Nobody"), None);
        // Your name as you gave it, the tags as a file writes them.
        let two = game("[White \"Carlsen,H\"]\n[Black \"Carlsen,M\"]\n\n1. e4 e5 *\n");
        assert_eq!(side_of(&two, "Carlsen, Magnus"), Some(Color::Black));
        assert_eq!(side_of(&two, "Magnus Carlsen"), Some(Color::Black));
        assert_eq!(side_of(&two, "Carlsen, Henrik"), Some(Color::White));
        let found = find(&g, Color::White);
        // 4.Nxe5 (about 22 points) and 5.Bxf7+ (about 27 points more).
        assert_eq!(found.len(), 2, "{found:#?}");
        let first = &found[0];
        assert_eq!(first.played_san(), "Nxe5");
        assert_eq!(first.best_san().as_deref(), Some("Nxd4"));
        assert_eq!(first.answers.len(), 2);
        assert!(first.lost > 20.0, "{}", first.lost);
        assert_eq!(first.source, "Me – Them, Club, 4.Nxe5");
        // The way there: the game's moves up to the position, not the mistake.
        assert_eq!(first.line, ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "c6d4"]);
        assert_eq!(first.start, None);
        let (start, moves) = first.way_there().expect("the moves lead to the position");
        assert_eq!(start, crate::position::Position::start());
        assert_eq!(moves.len(), 6);
        assert_eq!(found[1].line.len(), 8, "up to 5.Bxf7+");
        assert_eq!(found[1].played_san(), "Bxf7+");
        assert!(found[1].answers.is_empty());
        // Black's moves lost nothing worth an exercise.
        assert!(find(&g, Color::Black).is_empty());
    }

    #[test]
    fn my_games_newest_first_and_counted() {
        let other = ANNOTATED.replace("\"Me\"", "\"Someone\"");
        let dated = |date: &str, event: &str| {
            ANNOTATED.replace(
                "[Event \"Club\"]",
                &format!("[Event \"{event}\"]\n[Date \"{date}\"]"),
            )
        };
        let text = [
            dated("2024.05.01", "May"),
            other,
            dated("2025.01.??", "January"),
            dated("????.??.??", "Undated"),
            dated("2024.05.01", "May, later in the file"),
            dated("2024.12.31", "December"),
        ]
        .join("\n");
        let events = |s: &Selection| -> Vec<String> {
            s.games
                .iter()
                .map(|g| g.game.tag("Event").unwrap_or("").to_string())
                .collect()
        };
        let all = your_games(text.as_bytes(), "me", None).unwrap();
        assert_eq!((all.read, all.yours), (6, 5));
        assert_eq!(
            events(&all),
            [
                "January",
                "December",
                "May, later in the file",
                "May",
                "Undated"
            ]
        );
        assert!(all
            .games
            .iter()
            .all(|g| g.side == Color::White && g.evaluated()));
        let last = your_games(text.as_bytes(), "me", Some(2)).unwrap();
        assert_eq!((last.read, last.yours), (6, 5));
        assert_eq!(events(&last), ["January", "December"]);
        // Many games, out of order: the newest still come first, however many were
        // read before them.
        let many: Vec<String> = (0..200)
            .map(|i| {
                let year = 1900 + (i * 37) % 200;
                format!("[White \"Me\"]\n[Date \"{year}.01.01\"]\n[Event \"{year}\"]\n\n1. e4 *\n")
            })
            .collect();
        let newest = your_games(many.join("\n").as_bytes(), "Me", Some(3)).unwrap();
        assert_eq!((newest.read, newest.yours), (200, 200));
        assert_eq!(events(&newest), ["2099", "2098", "2097"]);
    }

    /// An engine's analysis of `game`: `(score from White's side, best line)` per
    /// position, the start first.
    fn analysis(game: &Game, table: &[(crate::engine::Score, &str)]) -> Vec<PositionEval> {
        let moves = crate::study::annotate::main_moves(game);
        let mut pos = game.start;
        table
            .iter()
            .enumerate()
            .map(|(i, (score, line))| {
                let mut pv = Vec::new();
                let mut p = pos;
                for t in line.split_whitespace() {
                    let m = crate::engine::parse_uci_move(&p, t).expect("legal");
                    pv.push(m);
                    p = p.play(m);
                }
                if let Some(m) = moves.get(i) {
                    pos = pos.play(*m);
                }
                PositionEval { score: *score, pv }
            })
            .collect()
    }

    #[test]
    fn mistakes_by_the_engine_in_a_game_without_evaluations() {
        use crate::engine::Score::{Cp, Mate, MateGiven};
        let g = game(
            "[White \"Them\"]\n[Black \"Me\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
        );
        let evals = analysis(
            &g,
            &[
                (Cp(30), "e2e4"),
                (Cp(30), "e7e5"),
                (Cp(30), "f1c4"),
                // 2...Nc6 is not the engine's best, but loses nothing worth an exercise.
                (Cp(30), "g8f6"),
                (Cp(40), "d1h5"),
                // 3...Nf6?? walks into mate; 3...g6 holds.
                (Cp(40), "g7g6 h5f3"),
                (Mate(1), "h5f7"),
                (MateGiven, ""),
            ],
        );
        assert!(find(&g, Color::Black).is_empty(), "no [%eval] to read");
        let found = from_evals(&g, Color::Black, &evals);
        assert_eq!(found.len(), 1, "{found:#?}");
        let e = &found[0];
        assert_eq!(e.played_san(), "Nf6");
        assert_eq!(e.best_san().as_deref(), Some("g6"));
        assert_eq!(e.source, "Them – Me, 3...Nf6");
        assert_eq!(e.line, ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5"]);
        assert!(e.way_there().is_some());
        assert!(e.lost > 40.0, "{}", e.lost);
        // The engine's best move passes as such; the move played is refused.
        let pos = e.position().unwrap();
        let g6 = crate::study::train::from_uci("g7g6", &pos).unwrap();
        assert_eq!(e.judge(g6, None), crate::study::train::Verdict::Best);
        let nf6 = crate::study::train::from_uci("g8f6", &pos).unwrap();
        assert_eq!(e.judge(nf6, None), crate::study::train::Verdict::Played);
        // White's mate was the engine's best: no exercise, whatever the scores say.
        assert!(from_evals(&g, Color::White, &evals).is_empty());
        // A move that loses as much but was the engine's own best is not a mistake.
        let mut same = evals.clone();
        same[5].pv = vec![crate::engine::parse_uci_move(&pos, "g8f6").unwrap()];
        assert!(from_evals(&g, Color::Black, &same).is_empty());
    }

    /// A game from a set-up position keeps its start; moves that do not lead to the
    /// exercise's position (a damaged deck) give the position alone.
    #[test]
    fn the_way_there_from_a_set_up_position_and_when_it_does_not_lead_there() {
        let g = game(
            "[White \"Me\"]\n[Black \"Them\"]\n[SetUp \"1\"]\n\
             [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 40\"]\n\n\
             40. e4 { [%eval 0.3] } 40... Kd7 { [%eval 0.3] } 41. Kf2 { [%eval -9.0] } *\n",
        );
        let found = find(&g, Color::White);
        let e = found.last().expect("41.Kf2 lost");
        assert_eq!(e.start.as_deref(), Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"));
        let (start, moves) = e.way_there().expect("from the set-up position");
        assert_eq!(start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40");
        assert_eq!(moves.len(), 2);
        let mut wrong = e.clone();
        wrong.line.pop();
        assert_eq!(wrong.way_there(), None);
        wrong.line.push("a2a4".into());
        assert_eq!(wrong.way_there(), None, "not a legal move there");
    }

    #[test]
    fn no_evaluations_no_exercises() {
        let g = game("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
        assert!(find(&g, Color::Black).is_empty());
    }
}
