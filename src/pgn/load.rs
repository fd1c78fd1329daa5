//! Reading whole games from a buffer in memory, trees built: every game of a buffer, or one
//! game of an indexed file, on demand.

use super::builder::{GameBuilder, ReadGame};
use crate::game::Game;
use crate::position::Move;

/// Reads every game of a whole buffer, building the trees.
pub fn read_games(data: &[u8]) -> Vec<ReadGame> {
    let mut reader = super::SliceReader::new(data);
    let mut builder = GameBuilder::new(true);
    let mut games = Vec::new();
    while let Some(g) = reader.read_game(&mut builder) {
        games.push(g);
    }
    games
}

/// The moves of a game's main line, for comparisons in tests and tools.
pub fn mainline_moves(game: &Game) -> Vec<Move> {
    game.mainline().iter().map(|id| game.node(*id).mv).collect()
}

/// Loads one game of an indexed file on demand: `data` is the whole file and
/// `entry` its index entry. Positions in errors are those of the whole file.
pub fn load_game(data: &[u8], entry: &super::GameEntry) -> Option<ReadGame> {
    let start = usize::try_from(entry.offset).ok()?;
    let end = start.checked_add(usize::try_from(entry.len).ok()?)?;
    let slice = data.get(start..end)?;
    let mut reader = super::SliceReader::new(slice);
    let mut game = reader.read_game(&mut GameBuilder::new(true))?;
    // The slice starts at a line start: shift lines and offsets, renumber.
    let lines_before = memchr::memchr_iter(b'\n', &data[..start]).count() as u64;
    game.number = entry.number;
    game.start.game = entry.number;
    game.start.offset += entry.offset;
    game.start.line += lines_before;
    for e in &mut game.errors {
        e.pos.game = entry.number;
        e.pos.offset += entry.offset;
        e.pos.line += lines_before;
    }
    Some(game)
}
