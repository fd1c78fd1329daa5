//! Opening names: the ECO code and name of the deepest named position a line
//! reaches. Positions are compared, not move orders, so transpositions are
//! found. The table (lichess' CC0 chess-openings set, in `assets/eco/`) is
//! built once, on first use.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
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

/// The named positions, and what a position needs to still lead to one.
struct Book {
    /// The named positions by their hash.
    openings: HashMap<u64, Opening, BuildHasherDefault<Zobrist>>,
    /// For each set of pawns still on their starting squares ([`home_pawns`]): the fewest
    /// men (pieces and pawns) of a named position whose home pawns are all among them
    /// ([`NONE`] when there is none). A pawn that has left its square never comes back
    /// and men are never added, so a position with fewer men than that, or with
    /// [`NONE`], leads to no named position: the walk stops there instead of hashing the
    /// rest of the game.
    fewest_men: Vec<u8>,
}

/// No named position is reachable.
const NONE: u8 = u8::MAX;

/// The board's own Zobrist hash is already uniformly spread: used as it is, it spares
/// the default hasher's work at every move of every game `convert --eco` reads.
#[derive(Default)]
struct Zobrist(u64);

impl Hasher for Zobrist {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed here; this covers any other use.
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl Book {
    /// True when no position after `pos` on its line can be named.
    fn out_of_book(&self, pos: &Position) -> bool {
        let men = pos.board().combined().popcnt();
        let fewest = self.fewest_men[home_pawns(pos)];
        fewest == NONE || men < u32::from(fewest)
    }
}

static OPENINGS: LazyLock<Book> = LazyLock::new(build);

/// The pawns of a position still on their starting squares: White's second rank in the
/// low 8 bits, Black's seventh rank in the high 8.
fn home_pawns(pos: &Position) -> usize {
    let board = pos.board();
    let pawns = *board.pieces(chess::Piece::Pawn);
    let white = (pawns & *board.color_combined(chess::Color::White)).0;
    let black = (pawns & *board.color_combined(chess::Color::Black)).0;
    ((white >> 8) & 0xff | ((black >> 48) & 0xff) << 8) as usize
}

fn build() -> Book {
    let mut table = HashMap::default();
    let mut fewest_men = vec![NONE; 1 << 16];
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
                let (set, men) = (home_pawns(&pos), pos.board().combined().popcnt() as u8);
                fewest_men[set] = fewest_men[set].min(men);
            }
        }
    }
    // A set of home pawns can reach the named positions of each of its subsets: spread
    // each count to every superset, one pawn at a time.
    for bit in 0..16 {
        for set in 0..fewest_men.len() {
            if set & (1 << bit) != 0 {
                fewest_men[set] = fewest_men[set].min(fewest_men[set ^ (1 << bit)]);
            }
        }
    }
    Book {
        openings: table,
        fewest_men,
    }
}

/// Builds the table now (it is otherwise built on first use).
pub fn preload() {
    LazyLock::force(&OPENINGS);
}

/// The named opening of a position, if it has a name.
pub fn of_position(pos: &Position) -> Option<&'static Opening> {
    OPENINGS.openings.get(&pos.repetition_key())
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
        if OPENINGS.out_of_book(&pos) {
            break;
        }
        if let Some(opening) = of_position(&pos) {
            found = Some(opening);
        }
    }
    found
}

/// How [`fill_tags`] treats tags a game already has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// Fill only the tags the game lacks.
    Missing,
    /// Replace the game's `ECO` and `Opening` with the ones found.
    Overwrite,
}

/// What [`fill_tags`] did to a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Filled {
    /// The `ECO` tag was set.
    pub eco: bool,
    /// The `Opening` tag was set.
    pub opening: bool,
}

/// Sets the game's `ECO` and `Opening` tags from the deepest named position of its
/// main line (see [`of_line`]; the name is the table's whole name, `Ruy Lopez: Berlin
/// Defense`, as lichess writes its `Opening` tag; `Variation` and `SubVariation` tags
/// are left as they are). With [`Fill::Missing`] a tag the game has is kept, and a
/// missing `Opening` is filled beside an existing `ECO` only when that `ECO` is the one
/// found, so that the two tags never name different openings. A game with no named
/// position (one from a set-up position, or one that leaves the book at once) is left
/// as it is.
pub fn fill_tags(game: &mut Game, fill: Fill) -> Filled {
    let end = game.mainline().last().copied().unwrap_or(NodeId::ROOT);
    let Some(found) = of_line(game, end) else {
        return Filled::default();
    };
    // `?` is PGN's "unknown": as good as missing.
    let known = |name: &str| {
        game.tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?")
            .map(str::to_owned)
    };
    let (eco, opening) = (known("ECO"), known("Opening"));
    let overwrite = fill == Fill::Overwrite;
    let set_eco = overwrite || eco.is_none();
    let set_opening =
        overwrite || opening.is_none() && eco.as_deref().is_none_or(|e| e == found.eco);
    let mut filled = Filled::default();
    if set_eco {
        filled.eco = game.tag("ECO") != Some(found.eco);
        game.set_tag("ECO", found.eco);
    }
    if set_opening {
        filled.opening = game.tag("Opening") != Some(found.name);
        game.set_tag("Opening", found.name);
    }
    filled
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

    fn tagged(tags: &[(&str, &str)], moves: &str) -> Game {
        let mut game = transcribe(moves, Position::start(), Lang::english(), false).game;
        for (name, value) in tags {
            game.set_tag(name, value);
        }
        game
    }

    const BERLIN: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O";

    #[test]
    fn missing_tags_are_filled() {
        let mut game = tagged(&[], BERLIN);
        let filled = fill_tags(&mut game, Fill::Missing);
        assert_eq!(
            filled,
            Filled {
                eco: true,
                opening: true
            }
        );
        assert_eq!(game.tag("ECO"), Some("C65"));
        assert_eq!(game.tag("Opening"), Some("Ruy Lopez: Berlin Defense"));
        // `?`, PGN's unknown, counts as missing.
        let mut game = tagged(&[("ECO", "?"), ("Opening", "?")], BERLIN);
        fill_tags(&mut game, Fill::Missing);
        assert_eq!(game.tag("ECO"), Some("C65"));
        assert_eq!(game.tag("Opening"), Some("Ruy Lopez: Berlin Defense"));
    }

    #[test]
    fn existing_tags_are_kept_unless_overwriting() {
        let mine = [("ECO", "C60"), ("Opening", "Spanish")];
        let mut game = tagged(&mine, BERLIN);
        assert_eq!(fill_tags(&mut game, Fill::Missing), Filled::default());
        assert_eq!(game.tag("ECO"), Some("C60"));
        assert_eq!(game.tag("Opening"), Some("Spanish"));
        let mut game = tagged(&mine, BERLIN);
        assert_eq!(
            fill_tags(&mut game, Fill::Overwrite),
            Filled {
                eco: true,
                opening: true
            }
        );
        assert_eq!(game.tag("ECO"), Some("C65"));
        assert_eq!(game.tag("Opening"), Some("Ruy Lopez: Berlin Defense"));
    }

    #[test]
    fn a_name_is_added_beside_an_eco_only_when_they_agree() {
        let mut game = tagged(&[("ECO", "C65")], BERLIN);
        assert_eq!(
            fill_tags(&mut game, Fill::Missing),
            Filled {
                eco: false,
                opening: true
            }
        );
        assert_eq!(game.tag("Opening"), Some("Ruy Lopez: Berlin Defense"));
        // The file says C60: our name for C65 beside it would contradict it.
        let mut game = tagged(&[("ECO", "C60")], BERLIN);
        assert_eq!(fill_tags(&mut game, Fill::Missing), Filled::default());
        assert_eq!(game.tag("Opening"), None);
    }

    #[test]
    fn a_game_without_a_named_position_is_left_alone() {
        let start = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let mut game = transcribe("1. e4 Kd7", start, Lang::english(), false).game;
        let before = game.clone();
        assert_eq!(fill_tags(&mut game, Fill::Overwrite), Filled::default());
        assert_eq!(game, before);
    }

    /// [`of_line`] without stopping where the pawns rule out every named position.
    fn of_line_whole(game: &Game, id: NodeId) -> Option<&'static Opening> {
        let mut pos = game.start;
        let mut found = None;
        for step in game.path_to(id) {
            pos = pos.apply(game.node(step).mv)?;
            found = of_position(&pos).or(found);
        }
        found
    }

    #[test]
    fn stopping_where_no_named_position_is_left_changes_no_answer() {
        LazyLock::force(&OPENINGS);
        // No named position has moved all sixteen pawns; the start reaches them all.
        assert_eq!(OPENINGS.fewest_men[0], NONE);
        assert!(!OPENINGS.out_of_book(&Position::start()));
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/quirks");
        let (mut games, mut named, mut stopped) = (0, 0, 0);
        for entry in std::fs::read_dir(&dir).expect("tests/data/quirks") {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("pgn") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            for g in crate::pgn::read_games(&bytes) {
                let game = &g.game;
                if game.has_setup() {
                    continue;
                }
                let Some(&end) = game.mainline().last() else {
                    continue;
                };
                games += 1;
                let found = of_line(game, end);
                assert_eq!(found, of_line_whole(game, end), "{}", path.display());
                named += usize::from(found.is_some());
                stopped += usize::from(OPENINGS.out_of_book(&game.position_at(end)));
            }
        }
        // The data exercises both ways out of the walk.
        assert!(
            games > 100 && named > 100 && stopped > 50,
            "{games} {named} {stopped}"
        );
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
        assert!(
            OPENINGS.openings.len() > 3000,
            "{}",
            OPENINGS.openings.len()
        );
    }
}
