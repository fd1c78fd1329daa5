//! Lichess's rules for judging moves from engine scores: win chances from
//! centipawns, `?!` / `?` / `??` from the drop in win chances (and its special
//! rules for mates), and accuracy per move and per game.
//!
//! Sources (lichess-org, read 2026):
//! - win chances: scalachess `core/src/main/scala/eval.scala`, `WinPercent`
//!   (`winningChances`, multiplier −0.00368208 from lila PR #11148; centipawns
//!   ceiled to ±1000 for win percentages; a mate counts as the ceiling);
//! - judgements: lila `modules/tree/src/main/Advice.scala` (`CpAdvice`: drops of
//!   0.3 / 0.2 / 0.1 in winning chances on the −1…+1 scale; `MateAdvice`: a mate
//!   created or lost, judged by the centipawns on the other side: −999/−700 and
//!   +999/+700); advice is only asked for when the position before had a variation,
//!   which lila's `modules/fishnet/src/main/AnalysisBuilder.scala` (`makeInfos`) keeps
//!   only when its first move is not the move played;
//! - accuracy: lila `modules/analyse/src/main/AccuracyPercent.scala`
//!   (`fromWinPercents`, `gameAccuracy`: windows of N/10 moves clamped to 2…8,
//!   weights = the window's population standard deviation clamped to 0.5…12, the
//!   mean of the weighted mean and the harmonic mean) with scalalib's `Maths`
//!   (`harmonicMean` counts values below 1 as 1).
//!
//! Scores here are from White's point of view ([`Score::white`]).

use chess::Color;

use super::uci::Score;

/// Centipawns beyond which a score counts as won (lichess's `Cp.CEILING`).
pub const CP_CEILING: i32 = 1000;

/// The score lichess assumes for the standard starting position (`Cp.initial`).
pub const INITIAL_CP: i32 = 15;

/// Winning chances for White in −1…+1 from centipawns (not ceiled, as lichess's
/// move judgement uses them).
pub fn winning_chances(cp: i32) -> f64 {
    const MULTIPLIER: f64 = -0.00368208;
    (2.0 / (1.0 + (MULTIPLIER * f64::from(cp)).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// Centipawns as lichess counts a score for win percentages: ceiled to ±1000, a
/// mate as the ceiling on the winner's side.
pub fn ceiled_cp(white: Score) -> i32 {
    match white {
        Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        Score::Mate(n) if n > 0 => CP_CEILING,
        Score::Mate(_) => -CP_CEILING,
        Score::MateGiven => CP_CEILING,
    }
}

/// White's win percentage, 0…100.
pub fn win_percent(white: Score) -> f64 {
    50.0 + 50.0 * winning_chances(ceiled_cp(white))
}

/// A move's accuracy, 0…100, from the mover's win percentage before and after it.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    let raw = 103.1668100711649 * (-0.04354415386753951 * drop).exp() - 3.166924740191411;
    // lichess's "uncertainty bonus (due to imperfect analysis)".
    (raw + 1.0).clamp(0.0, 100.0)
}

/// How bad a move was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// `?!` (NAG 6).
    Inaccuracy,
    /// `?` (NAG 2).
    Mistake,
    /// `??` (NAG 4).
    Blunder,
}

impl Judgement {
    /// The NAG PGN writes for it.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// Its name (`Inaccuracy`, `Mistake`, `Blunder`).
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }

    /// The NAGs of all three, to tell a judgement already written from others.
    pub const NAGS: [u8; 3] = [6, 2, 4];
}

/// Judges a move by `mover` from the scores (White's view) before and after it,
/// by lichess's `Advice`: first by the drop in winning chances when both scores
/// are centipawns, otherwise by its rules for mates. The caller leaves out moves
/// that were the engine's best (lichess gives no advice on them).
pub fn judge(mover: Color, before: Score, after: Score) -> Option<Judgement> {
    let sign = if mover == Color::White { 1 } else { -1 };
    if let (Score::Cp(prev), Score::Cp(next)) = (before, after) {
        let drop = (winning_chances(prev) - winning_chances(next)) * f64::from(sign);
        return if drop >= 0.3 {
            Some(Judgement::Blunder)
        } else if drop >= 0.2 {
            Some(Judgement::Mistake)
        } else if drop >= 0.1 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        };
    }
    // From here on, from the mover's side.
    let mate = |s: Score| match s {
        Score::Mate(n) => Some(n * sign),
        // Checkmate given by White: a mate for White, "mated" for Black.
        Score::MateGiven => Some(sign),
        Score::Cp(_) => None,
    };
    let cp = |s: Score| match s {
        Score::Cp(c) => c * sign,
        _ => 0,
    };
    let (prev_mate, next_mate) = (mate(before), mate(after));
    let created = matches!((prev_mate, next_mate), (None, Some(n)) if n < 0);
    let lost = match (prev_mate, next_mate) {
        (Some(p), None) => p > 0,
        (Some(p), Some(n)) => p > 0 && n < 0,
        _ => false,
    };
    if created {
        let prev = cp(before);
        Some(if prev < -999 {
            Judgement::Inaccuracy
        } else if prev < -700 {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        })
    } else if lost {
        let next = cp(after);
        Some(if next > 999 {
            Judgement::Inaccuracy
        } else if next > 700 {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        })
    } else {
        None
    }
}

/// Each side's accuracy over a game, by lichess's `gameAccuracy`: `start` is the
/// score before the first move, `after` the score after each move, `first` the
/// side that moved first. `None` for a side with no move.
pub fn game_accuracy(first: Color, start: Score, after: &[Score]) -> [Option<f64>; 2] {
    let wins: Vec<f64> = std::iter::once(start)
        .chain(after.iter().copied())
        .map(win_percent)
        .collect();
    let window = (after.len() / 10).clamp(2, 8);
    let mut windows: Vec<&[f64]> = Vec::new();
    for _ in 0..window.min(wins.len()).saturating_sub(2) {
        windows.push(&wins[..window.min(wins.len())]);
    }
    if wins.len() >= window {
        windows.extend(wins.windows(window));
    } else {
        windows.push(&wins);
    }
    let weights = windows.iter().map(|w| std_dev(w).clamp(0.5, 12.0));
    // Per side: (accuracy, weight) of each move.
    let mut sides: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, weight)) in wins.windows(2).zip(weights).enumerate() {
        let white = (i % 2 == 0) == (first == Color::White);
        let (prev, next) = (pair[0], pair[1]);
        let accuracy = if white {
            move_accuracy(prev, next)
        } else {
            move_accuracy(next, prev)
        };
        sides[usize::from(!white)].push((accuracy, weight));
    }
    sides.map(|moves| {
        if moves.is_empty() {
            return None;
        }
        let (sum, weights) = moves
            .iter()
            .fold((0.0, 0.0), |(s, w), (a, wt)| (s + a * wt, w + wt));
        let weighted = (weights != 0.0).then(|| sum / weights)?;
        let harmonic =
            moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        Some((weighted + harmonic) / 2.0)
    })
}

/// Population standard deviation (scalalib's `Maths.standardDeviation`).
fn std_dev(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn win_chances_follow_the_published_curve() {
        // 2 / (1 + e^(-0.00368208 * 100)) - 1 = 0.18201… (computed by hand from the formula)
        assert!(close(winning_chances(100), 0.182_01, 1e-4));
        assert!(close(winning_chances(-100), -0.182_01, 1e-4));
        assert_eq!(winning_chances(0), 0.0);
        // Win percent ceils at ±1000 cp: 50 + 50 * 0.95… = 97.54…
        assert!(close(win_percent(Score::Cp(5000)), 97.54, 0.01));
        assert_eq!(win_percent(Score::Cp(5000)), win_percent(Score::Cp(1000)));
        assert_eq!(win_percent(Score::Mate(-2)), win_percent(Score::Cp(-1000)));
    }

    #[test]
    fn move_accuracy_follows_the_published_curve() {
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        assert_eq!(move_accuracy(40.0, 60.0), 100.0);
        // 103.1668 * e^(-0.0435442 * 10) - 3.1669 + 1 = 64.580 (computed from the formula)
        assert!(close(move_accuracy(60.0, 50.0), 64.580, 0.001));
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn drops_of_win_chances_give_the_three_judgements() {
        // From +1.00 (wc 0.1821): to 0.00 drops 0.182 → ?!; to -0.50 (wc -0.0918)
        // drops 0.274 → ?; to -1.00 drops 0.364 → ?? (computed from the formula).
        assert_eq!(
            judge(White, Score::Cp(100), Score::Cp(0)),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            judge(White, Score::Cp(100), Score::Cp(-50)),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            judge(White, Score::Cp(100), Score::Cp(-100)),
            Some(Judgement::Blunder)
        );
        // Each threshold from both sides, from +1.00 (drops computed from the formula):
        // to -0.64 drops 0.2993, to -0.65 0.3012; to -0.09 0.1986, to -0.10 0.2005; to
        // +0.45 0.0994, to +0.44 0.1012.
        let j = |cp| judge(White, Score::Cp(100), Score::Cp(cp));
        assert_eq!(j(-64), Some(Judgement::Mistake));
        assert_eq!(j(-65), Some(Judgement::Blunder));
        assert_eq!(j(-9), Some(Judgement::Inaccuracy));
        assert_eq!(j(-10), Some(Judgement::Mistake));
        assert_eq!(j(45), None);
        assert_eq!(j(44), Some(Judgement::Inaccuracy));
        // Just under a threshold: +0.50 to 0.00 drops 0.0918, nothing.
        assert_eq!(judge(White, Score::Cp(50), Score::Cp(0)), None);
        // The same drops for Black are gains: no judgement; mirrored they are.
        assert_eq!(judge(Black, Score::Cp(100), Score::Cp(-100)), None);
        assert_eq!(
            judge(Black, Score::Cp(-100), Score::Cp(100)),
            Some(Judgement::Blunder)
        );
        // A small drop is nothing; far ahead, a big cp drop is a small chance drop.
        assert_eq!(judge(White, Score::Cp(30), Score::Cp(10)), None);
        // (+15.00 to +11.00 drops 0.027.)
        assert_eq!(judge(White, Score::Cp(1500), Score::Cp(1100)), None);
    }

    #[test]
    fn mates_created_and_lost() {
        // Walking into a mate from an equal position: blunder.
        assert_eq!(
            judge(White, Score::Cp(0), Score::Mate(-3)),
            Some(Judgement::Blunder)
        );
        // …from a lost one (-8): mistake; from a hopeless one (-10.5): inaccuracy.
        assert_eq!(
            judge(White, Score::Cp(-800), Score::Mate(-3)),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            judge(White, Score::Cp(-1050), Score::Mate(-3)),
            Some(Judgement::Inaccuracy)
        );
        // Black letting a mate of his slip to +2.00 for Black (-200 White): blunder.
        assert_eq!(
            judge(Black, Score::Mate(-4), Score::Cp(-200)),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            judge(Black, Score::Mate(-4), Score::Cp(-800)),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            judge(Black, Score::Mate(-4), Score::Cp(-1200)),
            Some(Judgement::Inaccuracy)
        );
        // A slower mate, or mating: nothing.
        assert_eq!(judge(White, Score::Mate(2), Score::Mate(5)), None);
        assert_eq!(judge(White, Score::Mate(1), Score::MateGiven), None);
        // From mating to being mated: lost, and nothing to soften it.
        assert_eq!(
            judge(White, Score::Mate(2), Score::Mate(-1)),
            Some(Judgement::Blunder)
        );
    }

    fn both(first: Color, cps: &[i32]) -> [Option<f64>; 2] {
        let after: Vec<Score> = cps.iter().map(|c| Score::Cp(*c)).collect();
        game_accuracy(first, Score::Cp(INITIAL_CP), &after)
    }

    /// The cases of lila's `AccuracyPercentTest.scala`, with its tolerances.
    #[test]
    fn game_accuracy_matches_lichess_tests() {
        assert_eq!(both(White, &[]), [None, None]);
        assert!(both(White, &[15])[1].is_none());
        let check = |first, cps: Vec<i32>, white: f64, wt: f64, black: f64, bt: f64| {
            let [w, b] = both(first, &cps);
            let (w, b) = (w.unwrap(), b.unwrap());
            assert!(close(w, white, wt), "{cps:?}: white {w}");
            assert!(close(b, black, bt), "{cps:?}: black {b}");
        };
        check(White, vec![15, 15], 100.0, 1.0, 100.0, 1.0);
        check(White, vec![-900, -900], 10.0, 5.0, 100.0, 1.0);
        check(White, vec![15, 900], 100.0, 1.0, 10.0, 5.0);
        check(White, vec![-900, 0], 10.0, 5.0, 10.0, 5.0);
        check(White, vec![15; 20], 100.0, 1.0, 100.0, 1.0);
        let mut c = vec![15; 20];
        c.push(-900);
        check(White, c, 50.0, 5.0, 100.0, 1.0);
        let mut c = vec![15; 21];
        c.push(900);
        check(White, c, 100.0, 1.0, 50.0, 5.0);
        check(White, [-50, 15].repeat(5), 76.0, 8.0, 76.0, 8.0);
        check(White, [-50, 15].repeat(50), 76.0, 8.0, 76.0, 8.0);
        check(White, [-135, 15].repeat(50), 54.0, 8.0, 54.0, 8.0);
        check(White, [-435, 15].repeat(50), 20.0, 8.0, 20.0, 8.0);
        check(Black, vec![15, 15], 100.0, 1.0, 100.0, 1.0);
        check(Black, vec![900, 900], 100.0, 1.0, 10.0, 5.0);
        check(Black, vec![15, -900], 10.0, 5.0, 100.0, 1.0);
        check(Black, vec![900, 0], 10.0, 5.0, 10.0, 5.0);
    }

    /// A figure computed by hand from the formulas: two moves, White drops from
    /// 15 cp to -900 (win% 51.380 → 3.510), Black holds. White's accuracy is its
    /// only move's (both means of one value are that value):
    /// 103.1668 * e^(-0.0435442 * 47.871) - 3.1669 + 1 = 10.664.
    #[test]
    fn a_hand_computed_game() {
        let [w, b] = both(White, &[-900, -900]);
        assert!(close(w.unwrap(), 10.664, 0.001), "{w:?}");
        assert_eq!(b, Some(100.0));
    }
}
