//! Resolve throughput: every move of the real games in `../shared/data/games`
//! read from its SAN text and played, single core. Compared with the `chess`
//! crate's own SAN reader (which generates every legal move and compares). Two of
//! ours: the general `read_move`, and `export_san`, the one-step path the PGN reader
//! takes for SAN as export format writes it.
//!
//! Run: `cargo bench --bench resolve`. Set `SCORESHEET_GAMES` to a PGN file to use
//! other games.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use scoresheet::notation::{export_san, read_move, Lang};
use scoresheet::pgn::{Pos, Skip, SliceReader, Visitor};
use scoresheet::position::{Move, Position};

/// The SAN tokens of many games, stored contiguously as a PGN reader would hand
/// them over (slices of one buffer), so the measurement is not about allocation.
struct Games {
    text: String,
    /// Per game, the byte ranges of its moves in `text`.
    games: Vec<Vec<(u32, u32)>>,
}

impl Games {
    fn iter(&self) -> impl Iterator<Item = impl Iterator<Item = &str>> {
        self.games
            .iter()
            .map(|g| g.iter().map(|(a, b)| &self.text[*a as usize..*b as usize]))
    }
    fn moves(&self) -> usize {
        self.games.iter().map(Vec::len).sum()
    }
}

fn pack(list: Vec<Vec<String>>) -> Games {
    let mut text = String::new();
    let games = list
        .into_iter()
        .map(|g| {
            g.into_iter()
                .map(|san| {
                    let a = text.len() as u32;
                    text.push_str(&san);
                    (a, text.len() as u32)
                })
                .collect()
        })
        .collect();
    Games { text, games }
}

/// Collects each game's main-line moves as written, with the project's own reader.
struct MainLine {
    depth: usize,
    moves: Vec<String>,
}

impl Visitor for MainLine {
    type Output = Vec<String>;
    fn begin_game(&mut self, _: Pos) {
        self.depth = 0;
        self.moves.clear();
    }
    fn san(&mut self, san: &[u8], _: Pos) {
        if self.depth == 0 {
            self.moves.push(String::from_utf8_lossy(san).into_owned());
        }
    }
    fn begin_variation(&mut self, _: Pos) -> Skip {
        self.depth += 1;
        Skip(false)
    }
    fn end_variation(&mut self, _: Pos) {
        self.depth -= 1;
    }
    fn end_game(&mut self) -> Vec<String> {
        std::mem::take(&mut self.moves)
    }
}

/// The games' main-line SAN tokens.
fn load_games() -> Games {
    let data = common::corpus();
    let mut reader = SliceReader::new(&data);
    let mut visitor = MainLine {
        depth: 0,
        moves: Vec::new(),
    };
    let mut games = Vec::new();
    while let Some(moves) = reader.read_game(&mut visitor) {
        games.push(moves);
    }
    pack(games)
}

fn replay_ours(games: &Games) -> usize {
    let lang = Lang::english();
    let mut n = 0;
    for game in games.iter() {
        let mut pos = Position::start();
        for san in game {
            match read_move(san, &pos, lang) {
                Ok((Move::Normal(mv), _)) => pos = pos.play(mv),
                _ => break,
            }
            n += 1;
        }
    }
    n
}

fn replay_export_san(games: &Games) -> usize {
    let mut n = 0;
    for game in games.iter() {
        let mut pos = Position::start();
        for san in game {
            match export_san(san.as_bytes(), &pos) {
                Some(mv) => pos = pos.play(mv),
                None => break,
            }
            n += 1;
        }
    }
    n
}

fn replay_crate(games: &Games) -> usize {
    let mut n = 0;
    for game in games.iter() {
        let mut board = chess::Board::default();
        for san in game {
            match chess::ChessMove::from_san(&board, san) {
                Ok(mv) => board = board.make_move_new(mv),
                Err(_) => break,
            }
            n += 1;
        }
    }
    n
}

/// Prints the first moves that do not resolve, so a bad scan or a real bug shows.
fn report_failures(games: &Games) {
    let mut shown = 0;
    for (g, game) in games.iter().enumerate() {
        let mut pos = Position::start();
        for san in game {
            match read_move(san, &pos, Lang::english()) {
                Ok((Move::Normal(mv), _)) => pos = pos.play(mv),
                Ok(_) => break,
                Err(e) => {
                    if shown < 5 {
                        eprintln!("game {}: {san}: {e} ({})", g + 1, pos.fen());
                    }
                    shown += 1;
                    break;
                }
            }
        }
    }
    eprintln!("{shown} games stop at a move that does not resolve");
}

fn bench(c: &mut Criterion) {
    let games = load_games();
    report_failures(&games);
    let total = replay_ours(&games);
    let all = games.moves();
    eprintln!(
        "{} games, {total} of {all} moves resolved",
        games.games.len()
    );
    let mut group = c.benchmark_group("resolve");
    group.sample_size(10);
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("scoresheet read_move + play", |b| {
        b.iter(|| replay_ours(&games))
    });
    let fast_total = replay_export_san(&games);
    eprintln!("{fast_total} of {all} moves resolved by export_san");
    group.throughput(Throughput::Elements(fast_total as u64));
    group.bench_function("scoresheet export_san + play", |b| {
        b.iter(|| replay_export_san(&games))
    });
    let crate_total = replay_crate(&games);
    group.throughput(Throughput::Elements(crate_total as u64));
    group.bench_function("chess crate from_san + play", |b| {
        b.iter(|| replay_crate(&games))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
