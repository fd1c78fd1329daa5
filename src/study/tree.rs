//! The opening tree: what was played from one position over a set of games, one branch per
//! move, with the games' results, their average rating and the last year played.

use std::collections::HashMap;

use chess::ChessMove;

use super::follow::{GameInfo, GameResult};
use crate::position::{Move, Position};

/// What a game did after reaching the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Next {
    /// The game ended there.
    End,
    /// A null move (`--`).
    Null,
    /// This move.
    Move(ChessMove),
}

/// One move played from the position, with the games that played it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The move.
    pub next: Next,
    /// The move in SAN (`--` for a null move).
    pub san: String,
    /// Games that played it.
    pub games: u64,
    /// Of those, won by White.
    pub white_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// Sum and count of the ratings known (both players of each game).
    elo_sum: u64,
    elo_count: u64,
    /// The latest year among the games with a dated Date tag (0 when none is).
    pub last_year: u16,
}

impl Branch {
    /// The average rating of the players of these games (those with a rating), rounded.
    pub fn average_elo(&self) -> Option<u64> {
        (self.elo_count > 0).then(|| (self.elo_sum + self.elo_count / 2) / self.elo_count)
    }

    fn add(&mut self, info: &GameInfo) {
        self.games += 1;
        match info.result {
            GameResult::WhiteWins => self.white_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWins => self.black_wins += 1,
            GameResult::Unknown => {}
        }
        for elo in [info.white_elo, info.black_elo] {
            if elo > 0 {
                self.elo_sum += u64::from(elo);
                self.elo_count += 1;
            }
        }
        self.last_year = self.last_year.max(info.year);
    }
}

/// The tree at one position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    /// The moves played, most played first (then by SAN).
    pub branches: Vec<Branch>,
    /// Games that reach the position.
    pub games: u64,
    /// Of those, games that end there.
    pub ended: u64,
}

impl Tree {
    /// The tree from the games reaching `pos`: for each, what it played at its first
    /// visit to the position, and its facts.
    pub fn build(pos: &Position, games: impl IntoIterator<Item = (Next, GameInfo)>) -> Tree {
        let mut by_move: HashMap<Next, Branch> = HashMap::new();
        let mut tree = Tree::default();
        for (next, info) in games {
            tree.games += 1;
            if next == Next::End {
                tree.ended += 1;
                continue;
            }
            by_move
                .entry(next)
                .or_insert_with(|| Branch {
                    next,
                    san: match next {
                        Next::Move(mv) => crate::notation::san(pos, Move::Normal(mv)),
                        _ => "--".to_string(),
                    },
                    games: 0,
                    white_wins: 0,
                    draws: 0,
                    black_wins: 0,
                    elo_sum: 0,
                    elo_count: 0,
                    last_year: 0,
                })
                .add(&info);
        }
        tree.branches = by_move.into_values().collect();
        tree.branches
            .sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.san.cmp(&b.san)));
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(result: GameResult, elo: u16, year: u16) -> GameInfo {
        GameInfo {
            result,
            white_elo: elo,
            black_elo: 0,
            year,
        }
    }

    #[test]
    fn counts_each_move_with_results_ratings_and_years_most_played_first() {
        let pos = Position::start();
        let e4 = Next::Move("e2e4".parse().expect("uci"));
        let d4 = Next::Move("d2d4".parse().expect("uci"));
        let tree = Tree::build(
            &pos,
            [
                (d4, info(GameResult::Draw, 2000, 1990)),
                (e4, info(GameResult::WhiteWins, 1500, 2001)),
                (e4, info(GameResult::BlackWins, 2001, 1999)),
                (e4, info(GameResult::Unknown, 0, 0)),
                (Next::End, info(GameResult::Unknown, 0, 0)),
            ],
        );
        assert_eq!((tree.games, tree.ended), (5, 1));
        let sans: Vec<&str> = tree.branches.iter().map(|b| b.san.as_str()).collect();
        assert_eq!(sans, ["e4", "d4"]);
        let e4 = &tree.branches[0];
        assert_eq!(
            (
                e4.games,
                e4.white_wins,
                e4.draws,
                e4.black_wins,
                e4.last_year
            ),
            (3, 1, 0, 1, 2001)
        );
        assert_eq!(e4.average_elo(), Some(1751));
        assert_eq!(tree.branches[1].average_elo(), Some(2000));
    }
}
