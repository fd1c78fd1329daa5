//! An engine's judgement of answers: the score after each candidate move, from
//! White's side, on the scale the annotations use, so that a guess or an
//! exercise is judged by an engine exactly as by `[%eval]`.

use std::path::Path;

use crate::engine::{Engine, EngineConfig, Limit, Score as EngineScore};
use crate::game::annotation::Score;
use crate::position::{Position, Status};

/// How deep the engine looks at each position: lichess takes an evaluation as
/// ready from depth 18 in its own "learn from your mistakes"; 16 answers within a
/// second on a laptop with little lost.
pub const DEPTH: u32 = 16;

/// An engine's score (White's side) as an annotation's: mates given count as the
/// biggest win.
pub fn from_engine(white: EngineScore) -> Score {
    match white {
        EngineScore::Cp(cp) => Score::Pawns(cp),
        EngineScore::Mate(0) => Score::Pawns(-100_000),
        EngineScore::Mate(n) => Score::Mate(n),
        EngineScore::MateGiven => Score::Pawns(100_000),
    }
}

/// The score (White's side) after each of `moves` (UCI) from `fen`, by the engine
/// at `program`, searched to `limit`; with `with_best`, first the score of `fen`
/// itself (the engine's best play there).
pub fn scores(
    program: &Path,
    fen: &str,
    moves: &[String],
    with_best: bool,
    limit: Limit,
) -> Result<Vec<Score>, String> {
    let pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
    let config = EngineConfig {
        path: program.to_path_buf(),
        ..EngineConfig::default()
    };
    let mut engine = Engine::start(&config).map_err(|e| e.to_string())?;
    let mut scores = Vec::new();
    if with_best {
        let result = engine.search(&pos, &[], limit).map_err(|e| e.to_string())?;
        let line = result
            .lines
            .first()
            .ok_or_else(|| format!("{} gave no score for {fen}", engine.name()))?;
        scores.push(from_engine(line.white_score(&pos)));
    }
    for text in moves {
        let Some(crate::position::Move::Normal(mv)) = super::from_uci(text, &pos) else {
            return Err(format!("{text} is not a legal move in {fen}"));
        };
        let after = pos.play(mv);
        // A position with no move left is scored by the rules, not the engine.
        let score = match after.status() {
            Status::Checkmate => match after.side_to_move() {
                chess::Color::White => Score::Pawns(-100_000),
                chess::Color::Black => Score::Pawns(100_000),
            },
            Status::Stalemate => Score::Pawns(0),
            _ => {
                let result = engine
                    .search(&pos, &[mv], limit)
                    .map_err(|e| e.to_string())?;
                let line = result.lines.first().ok_or_else(|| {
                    format!("{} gave no score for {}", engine.name(), after.fen())
                })?;
                from_engine(line.white_score(&after))
            }
        };
        scores.push(score);
    }
    engine.quit();
    Ok(scores)
}

/// The engine's best move (UCI) in `fen`, searched to `limit`.
pub fn best_move(program: &Path, fen: &str, limit: Limit) -> Result<String, String> {
    let pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
    let config = EngineConfig {
        path: program.to_path_buf(),
        ..EngineConfig::default()
    };
    let mut engine = Engine::start(&config).map_err(|e| e.to_string())?;
    let result = engine.search(&pos, &[], limit).map_err(|e| e.to_string())?;
    let name = engine.name().to_string();
    engine.quit();
    result
        .best
        .map(|m| super::uci(crate::position::Move::Normal(m)))
        .ok_or_else(|| format!("{name} has no move in {fen}"))
}

/// [`scores`] after each of `moves` alone.
pub fn scores_after(
    program: &Path,
    fen: &str,
    moves: &[String],
    limit: Limit,
) -> Result<Vec<Score>, String> {
    scores(program, fen, moves, false, limit)
}
