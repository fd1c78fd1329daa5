//! Lichess's win chances: an engine's score turned into the percentage of games
//! won from it (`50 + 50 · (2 / (1 + e^(−0.00368208 · cp)) − 1)`, centipawns
//! capped at ±1000, a mate counted as ±1000), the scale on which lichess
//! measures mistakes and the margin it accepts in "learn from your mistakes".
//! The formula is `engine::judge`'s; this reads `[%eval]` scores with it.

use chess::Color;

use crate::engine::judge::CP_CEILING;
use crate::game::annotation::Score;

/// How many win-percentage points a move must lose to be offered as an exercise.
pub const MISTAKE_DROP: f64 = 10.0;

/// Lichess's margin in "learn from your mistakes": an answer passes when it keeps
/// the position within 0.04 winning chances (on the −1…1 scale), that is 2
/// win-percentage points, of the position before the mistake.
pub const PASS_MARGIN: f64 = 2.0;

/// White's win chance in percent (0–100) for `score` (from White's side).
pub fn white_percent(score: Score) -> f64 {
    let cp = match score {
        Score::Pawns(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        Score::Mate(n) if n > 0 => CP_CEILING,
        // `#0` says nothing of who is mated: lichess counts it by its sign, 0.
        Score::Mate(0) => 0,
        Score::Mate(_) => -CP_CEILING,
    };
    // The formula itself is the engine's (lichess's rules live in `engine::judge`);
    // here it reads the annotations' scores.
    50.0 + 50.0 * crate::engine::judge::winning_chances(cp)
}

/// `side`'s win chance in percent for `score` (from White's side).
pub fn percent_for(score: Score, side: Color) -> f64 {
    match side {
        Color::White => white_percent(score),
        Color::Black => 100.0 - white_percent(score),
    }
}

/// The win-percentage points `side` lost going from `before` to `after` (negative
/// when it gained).
pub fn drop_for(before: Score, after: Score, side: Color) -> f64 {
    percent_for(before, side) - percent_for(after, side)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lichess_values() {
        // Values lichess's formula gives (lila's WinPercent.fromCentiPawns).
        assert!((white_percent(Score::Pawns(0)) - 50.0).abs() < 1e-9);
        assert!((white_percent(Score::Pawns(100)) - 59.1).abs() < 0.05);
        assert!((white_percent(Score::Pawns(-300)) - 24.89).abs() < 0.05);
        // Capped at ±1000, mates counted as the cap.
        assert_eq!(
            white_percent(Score::Pawns(5000)),
            white_percent(Score::Pawns(1000))
        );
        assert_eq!(
            white_percent(Score::Mate(3)),
            white_percent(Score::Pawns(1000))
        );
        assert_eq!(
            white_percent(Score::Mate(-2)),
            white_percent(Score::Pawns(-1000))
        );
    }

    #[test]
    fn drops_are_seen_from_the_mover() {
        // White goes from +1 to −1: about 18 points lost for White, gained for Black.
        let d = drop_for(Score::Pawns(100), Score::Pawns(-100), Color::White);
        assert!((d - 18.2).abs() < 0.1, "{d}");
        let d = drop_for(Score::Pawns(100), Score::Pawns(-100), Color::Black);
        assert!(d < -18.0, "{d}");
    }
}
