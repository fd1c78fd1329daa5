//! Annotating a game with an engine, the way lichess does: an `[%eval]` after every
//! move of the main line, `?!` / `?` / `??` by lichess's rules
//! ([`crate::engine::judge`]), the engine's best line as a variation after each
//! mistake and blunder, and each side's accuracy and counts in tags.
//!
//! Two steps, so the second can be tested without an engine: [`analyse`] asks the
//! engine about every position of the main line; [`apply`] writes what it found
//! into the game. What the game already holds is kept: comments (an `[%eval]` a
//! previous run wrote is replaced, not repeated), variations, and NAGs (a move that
//! already carries a move assessment, `!` to `?!`, keeps it rather than getting a
//! second one; it is still counted).
//!
//! One difference from lichess: lichess judges the first move against a fixed +0.15
//! for the starting position; here the engine's own score of the start position is
//! used, which also serves games that start from a FEN.

use chess::{ChessMove, Color};

use crate::engine::judge::{game_accuracy, judge, Judgement};
use crate::engine::{Engine, EngineError, Limit, Score};
use crate::game::annotation::{split_comment, write_comment, Annotation, Eval};
use crate::game::{Game, NodeId};
use crate::position::{Move, Position, Status};

/// Nodes searched for each position when no limit is given (`scoresheet annotate`,
/// `:annotate`): about a second a position on one core.
pub const DEFAULT_NODES: u64 = 300_000;

/// The longest best line added as a variation, in plies: enough to show the idea,
/// short enough to read.
pub const VARIATION_PLIES: usize = 10;

/// What the engine said about one position of the main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionEval {
    /// Its score from White's point of view.
    pub score: Score,
    /// The best line from it (empty when the game is over there).
    pub pv: Vec<ChessMove>,
}

/// Asks the engine about the start and the position after every main-line move.
/// Positions where the game is over (mate, stalemate) are scored without it.
pub fn analyse(
    game: &Game,
    engine: &mut Engine,
    limit: Limit,
) -> Result<Vec<PositionEval>, EngineError> {
    let all = analyse_with(game, engine, limit, &mut |_, _| true)?;
    Ok(all.unwrap_or_default())
}

/// [`analyse`] telling `progress` how many of the positions are done (and how many
/// there are) before each one; `progress` returning false stops it there, with
/// `Ok(None)`. A screen shows the progress and lets the user cancel.
pub fn analyse_with(
    game: &Game,
    engine: &mut Engine,
    limit: Limit,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Option<Vec<PositionEval>>, EngineError> {
    let moves = main_moves(game);
    engine.new_game()?;
    let mut out = Vec::with_capacity(moves.len() + 1);
    let mut pos = game.start;
    for i in 0..=moves.len() {
        if !progress(i, moves.len() + 1) {
            return Ok(None);
        }
        out.push(match pos.status() {
            Status::Checkmate => PositionEval {
                score: Score::Mate(0).white(pos.side_to_move()),
                pv: Vec::new(),
            },
            Status::Stalemate => PositionEval {
                score: Score::Cp(0),
                pv: Vec::new(),
            },
            _ => {
                let result = engine.search(&game.start, &moves[..i], limit)?;
                let Some(best) = result.lines.first() else {
                    return Err(EngineError::Protocol {
                        name: engine.name().to_string(),
                        what: format!("gave no score for {}", pos.fen()),
                    });
                };
                let mut pv = best.pv.clone();
                // The best move stands first even if the line said otherwise.
                if let Some(b) = result.best.filter(|b| pv.first() != Some(b)) {
                    pv = vec![b];
                }
                PositionEval {
                    score: best.white_score(&pos),
                    pv,
                }
            }
        });
        if let Some(m) = moves.get(i) {
            pos = pos.play(*m);
        }
    }
    Ok(Some(out))
}

/// The main line's moves, up to the first null move (an engine cannot be given one).
pub fn main_moves(game: &Game) -> Vec<ChessMove> {
    game.mainline()
        .into_iter()
        .map_while(|id| match game.node(id).mv {
            Move::Normal(m) => Some(m),
            Move::Null => None,
        })
        .collect()
}

/// One side's figures.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SideReport {
    /// Lichess's accuracy, 0–100; `None` when the side made no move.
    pub accuracy: Option<f64>,
    /// Inaccuracies (`?!`).
    pub inaccuracies: u32,
    /// Mistakes (`?`).
    pub mistakes: u32,
    /// Blunders (`??`).
    pub blunders: u32,
}

impl SideReport {
    fn count(&mut self, j: Judgement) {
        match j {
            Judgement::Inaccuracy => self.inaccuracies += 1,
            Judgement::Mistake => self.mistakes += 1,
            Judgement::Blunder => self.blunders += 1,
        }
    }
}

/// What annotating a game found, per side: `[white, black]`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Report {
    /// White's and Black's figures.
    pub sides: [SideReport; 2],
    /// How many moves were evaluated.
    pub moves: usize,
}

/// The tags [`apply`] writes, in order.
pub const TAGS: [&str; 8] = [
    "WhiteAccuracy",
    "BlackAccuracy",
    "WhiteInaccuracies",
    "WhiteMistakes",
    "WhiteBlunders",
    "BlackInaccuracies",
    "BlackMistakes",
    "BlackBlunders",
];

/// Writes the evaluations into the game (`evals[0]` is the start position's,
/// `evals[i]` the one after the i-th main-line move) and returns the figures.
pub fn apply(game: &mut Game, evals: &[PositionEval]) -> Report {
    let line: Vec<NodeId> = game.mainline();
    let moves = main_moves(game);
    let n = moves.len().min(evals.len().saturating_sub(1));
    let mut report = Report {
        moves: n,
        ..Report::default()
    };
    let mut pos = game.start;
    let first = pos.side_to_move();
    for i in 0..n {
        let (id, mv) = (line[i], moves[i]);
        let mover = pos.side_to_move();
        let (before, after) = (&evals[i], &evals[i + 1]);
        set_eval(game, id, after.score);
        // Lichess gives no advice on the engine's own best move.
        let best = before.pv.first().copied();
        if best != Some(mv) {
            if let Some(j) = judge(mover, before.score, after.score) {
                report.sides[usize::from(mover == Color::Black)].count(j);
                let node = game.node_mut(id);
                if !node.nags.iter().any(|n| (1..=6).contains(n)) {
                    node.nags.push(j.nag());
                }
                if j >= Judgement::Mistake {
                    let parent = game.node(id).parent.unwrap_or(NodeId::ROOT);
                    add_line(game, parent, &pos, &before.pv);
                }
            }
        }
        pos = pos.play(mv);
    }
    let after: Vec<Score> = evals[1..=n].iter().map(|e| e.score).collect();
    if let Some(start) = evals.first() {
        let [w, b] = game_accuracy(first, start.score, &after);
        report.sides[0].accuracy = w;
        report.sides[1].accuracy = b;
    }
    set_tags(game, &report);
    report
}

/// Puts `[%eval]` in the comment after a move: replacing one there, else beside
/// the other commands of the first comment (as lichess writes `[%eval] [%clk]`),
/// else in a comment of its own before the others.
fn set_eval(game: &mut Game, id: NodeId, score: Score) {
    let eval = Annotation::Eval(Eval {
        score: score.to_pgn(),
        depth: None,
    });
    let comments = &mut game.node_mut(id).comments_after;
    let holds_eval = |c: &str| {
        split_comment(c)
            .0
            .iter()
            .any(|a| matches!(a, Annotation::Eval(_)))
    };
    let at = comments
        .iter()
        .position(|c| holds_eval(c))
        .or_else(|| comments.first().filter(|c| c.contains("[%")).map(|_| 0));
    match at {
        Some(k) => {
            let (mut commands, text) = split_comment(&comments[k]);
            commands.retain(|a| !matches!(a, Annotation::Eval(_)));
            commands.insert(0, eval);
            comments[k] = write_comment(&commands, &text);
        }
        None => comments.insert(0, write_comment(&[eval], "")),
    }
}

/// Adds `pv` (legal from `pos`, the position at `parent`) as a variation, cut to
/// [`VARIATION_PLIES`]; an existing variation with the same moves is reused.
fn add_line(game: &mut Game, parent: NodeId, pos: &Position, pv: &[ChessMove]) {
    let mut at = parent;
    let mut p = *pos;
    for m in pv.iter().take(VARIATION_PLIES) {
        at = game.add_move(at, Move::Normal(*m), &p);
        p = p.play(*m);
    }
}

/// Writes the report's tags (replacing those of a previous run).
fn set_tags(game: &mut Game, report: &Report) {
    let [w, b] = report.sides;
    let accuracy = |a: Option<f64>| a.map(|a| format!("{a:.1}"));
    let values = [
        accuracy(w.accuracy),
        accuracy(b.accuracy),
        Some(w.inaccuracies.to_string()),
        Some(w.mistakes.to_string()),
        Some(w.blunders.to_string()),
        Some(b.inaccuracies.to_string()),
        Some(b.mistakes.to_string()),
        Some(b.blunders.to_string()),
    ];
    for (name, value) in TAGS.iter().zip(values) {
        match value {
            Some(v) => game.set_tag(name, &v),
            None => game.tags.retain(|(n, _)| n != name),
        }
    }
}

/// One side's figures as a phrase: `92.4% accuracy, 1 inaccuracy, 0 mistakes, 0 blunders`.
pub fn side_summary(side: &SideReport) -> String {
    let accuracy = side
        .accuracy
        .map_or("no moves".to_string(), |a| format!("{a:.1}% accuracy"));
    format!(
        "{accuracy}, {}, {}, {}",
        crate::plural::count(side.inaccuracies as usize, "inaccuracy", "inaccuracies"),
        crate::plural::count(side.mistakes as usize, "mistake", "mistakes"),
        crate::plural::count(side.blunders as usize, "blunder", "blunders"),
    )
}

/// Annotates a game: [`analyse`] then [`apply`].
pub fn annotate(game: &mut Game, engine: &mut Engine, limit: Limit) -> Result<Report, EngineError> {
    let evals = analyse(game, engine, limit)?;
    Ok(apply(game, &evals))
}

#[cfg(test)]
#[path = "annotate_tests.rs"]
mod tests;
