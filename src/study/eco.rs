//! Opening names: the ECO code and name of the deepest named position a line
//! reaches. Positions are compared, not move orders, so transpositions are
//! found. The table (lichess' CC0 chess-openings set, in `assets/eco/`) is
//! built once, on first use.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::game::{Game, NodeId};
use crate::notation::{read_move, Lang};
use crate::position::Position;

const TABLES: [&str; 5] = [
    include_str!("../../assets/eco/a.tsv"),
    include_str!("../../assets/eco/b.tsv"),
    include_str!("../../assets/eco/c.tsv"),
    include_str!("../../assets/eco/d.tsv"),
    include_str!("../../assets/eco/e.tsv"),
];

/// A named opening position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// Its ECO code (`C65`).
    pub eco: &'static str,
    /// Its name (`Ruy Lopez: Berlin Defense`).
    pub name: &'static str,
}

impl std::fmt::Display for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.eco, self.name)
    }
}

static OPENINGS: LazyLock<HashMap<u64, Opening>> = LazyLock::new(build);

fn build() -> HashMap<u64, Opening> {
    let mut table = HashMap::new();
    for text in TABLES {
        for line in text.lines().skip(1) {
            let mut fields = line.split('\t');
            let (Some(eco), Some(name), Some(moves)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let mut pos = Position::start();
            let mut ok = true;
            for word in moves.split_whitespace().filter(|w| !w.ends_with('.')) {
                match read_move(word, &pos, Lang::english()) {
                    Ok((mv, _)) => pos = pos.apply(mv).unwrap_or(pos),
                    Err(_) => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                // The first entry for a position is its main name; later lines
                // reaching it are transpositions.
                table
                    .entry(pos.repetition_key())
                    .or_insert(Opening { eco, name });
            }
        }
    }
    table
}

/// Builds the table now (it is otherwise built on first use).
pub fn preload() {
    LazyLock::force(&OPENINGS);
}

/// The named opening of a position, if it has a name.
pub fn of_position(pos: &Position) -> Option<&'static Opening> {
    OPENINGS.get(&pos.repetition_key())
}

/// The deepest named position on the way to `id` (games from a set-up position
/// have none).
pub fn of_line(game: &Game, id: NodeId) -> Option<&'static Opening> {
    if game.has_setup() {
        return None;
    }
    let mut pos = game.start;
    let mut found = None;
    for step in game.path_to(id) {
        pos = pos.apply(game.node(step).mv)?;
        if let Some(opening) = of_position(&pos) {
            found = Some(opening);
        }
    }
    found
}

/// The name of an ECO code (`"B90"` → `Sicilian Defense: Najdorf Variation`): the name
/// of the code's shortest line in the table (the first of those, on a tie), which names
/// what the code's games have in common. `None` for a code the table does not have.
/// Cheap: the table is read once, without playing moves.
pub fn name_of_code(code: &str) -> Option<&'static str> {
    static NAMES: LazyLock<HashMap<&'static str, (usize, &'static str)>> = LazyLock::new(|| {
        let mut names: HashMap<&str, (usize, &str)> = HashMap::new();
        for line in TABLES.iter().flat_map(|t| t.lines().skip(1)) {
            let mut fields = line.split('\t');
            if let (Some(eco), Some(name), Some(moves)) =
                (fields.next(), fields.next(), fields.next())
            {
                let length = moves.len();
                let entry = names.entry(eco).or_insert((length, name));
                if length < entry.0 {
                    *entry = (length, name);
                }
            }
        }
        names
    });
    NAMES.get(code).map(|&(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::transcribe::transcribe;

    fn line(moves: &str) -> Option<String> {
        let t = transcribe(moves, Position::start(), Lang::english(), false);
        let game = t.game;
        let end = *game.mainline().last()?;
        of_line(&game, end).map(ToString::to_string)
    }

    #[test]
    fn names_the_deepest_named_position() {
        assert_eq!(
            line("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6").as_deref(),
            Some("C65 Ruy Lopez: Berlin Defense")
        );
        // Past the book, the last name stays.
        assert_eq!(
            line("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. h4 h5").as_deref(),
            Some("C65 Ruy Lopez: Berlin Defense")
        );
    }

    #[test]
    fn transpositions_are_found() {
        // 1.Nf3 d5 2.d4 reaches the position of 1.d4 d5 2.Nf3.
        let direct = of_position(&{
            let t = transcribe("1. d4 d5 2. Nf3", Position::start(), Lang::english(), false);
            t.game.position_at(*t.game.mainline().last().unwrap())
        });
        let transposed = line("1. Nf3 d5 2. d4");
        assert_eq!(transposed, direct.map(ToString::to_string));
        assert!(transposed.is_some());
    }

    #[test]
    fn codes_have_their_main_name() {
        assert_eq!(
            name_of_code("B90"),
            Some("Sicilian Defense: Najdorf Variation")
        );
        assert_eq!(name_of_code("C65"), Some("Ruy Lopez: Berlin Defense"));
        assert_eq!(name_of_code("F00"), None);
    }

    #[test]
    fn every_line_of_the_data_is_read() {
        let lines: usize = TABLES.iter().map(|t| t.lines().count() - 1).sum();
        assert_eq!(lines, 3807);
        // Several lines name the same position; none is dropped for being unreadable.
        assert!(OPENINGS.len() > 3000, "{}", OPENINGS.len());
    }
}
