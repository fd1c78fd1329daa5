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

    /// Its games' facts added up (to merge trees over several files).
    pub fn tally(&self) -> Tally {
        Tally {
            games: self.games,
            white_wins: self.white_wins,
            draws: self.draws,
            black_wins: self.black_wins,
            elo_sum: self.elo_sum,
            elo_count: self.elo_count,
            last_year: self.last_year,
        }
    }

    fn add(&mut self, t: &Tally) {
        self.games += t.games;
        self.white_wins += t.white_wins;
        self.draws += t.draws;
        self.black_wins += t.black_wins;
        self.elo_sum += t.elo_sum;
        self.elo_count += t.elo_count;
        self.last_year = self.last_year.max(t.last_year);
    }
}

/// The facts of some games added up: what a branch of the tree shows (an index keeps
/// them ready for the positions many games reach).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Won by White.
    pub white_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// Sum of the ratings known (both players of each game).
    pub elo_sum: u64,
    /// How many ratings are known.
    pub elo_count: u64,
    /// The latest year among the games with a dated Date tag (0 when none is).
    pub last_year: u16,
}

impl Tally {
    /// One game's facts.
    pub fn of(info: &GameInfo) -> Tally {
        let mut t = Tally {
            games: 1,
            last_year: info.year,
            ..Tally::default()
        };
        match info.result {
            GameResult::WhiteWins => t.white_wins = 1,
            GameResult::Draw => t.draws = 1,
            GameResult::BlackWins => t.black_wins = 1,
            GameResult::Unknown => {}
        }
        for elo in [info.white_elo, info.black_elo] {
            if elo > 0 {
                t.elo_sum += u64::from(elo);
                t.elo_count += 1;
            }
        }
        t
    }

    /// Adds `other`'s games to these.
    pub fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.white_wins += other.white_wins;
        self.draws += other.draws;
        self.black_wins += other.black_wins;
        self.elo_sum += other.elo_sum;
        self.elo_count += other.elo_count;
        self.last_year = self.last_year.max(other.last_year);
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
        Tree::from_tallies(
            pos,
            games
                .into_iter()
                .map(|(next, info)| (next, Tally::of(&info))),
        )
    }

    /// The tree from games reaching `pos` given in groups: what each group played at its
    /// first visit to the position, and the group's facts added up (a move may come in
    /// several groups).
    pub fn from_tallies(pos: &Position, groups: impl IntoIterator<Item = (Next, Tally)>) -> Tree {
        let mut by_move: HashMap<Next, Branch> = HashMap::new();
        let mut tree = Tree::default();
        for (next, tally) in groups {
            tree.games += tally.games;
            if next == Next::End {
                tree.ended += tally.games;
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
                .add(&tally);
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
