//! `check` throughput: lexing plus validating every move of the real games in
//! `../shared/data/games` (about 25 MB), single thread, reported in bytes per second.
//! Run: `cargo bench --bench check`. `SCORESHEET_GAMES` names another PGN file.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use scoresheet::pgn::{index, GameBuilder, SliceReader};

fn validate(data: &[u8]) -> (u64, u64) {
    let mut reader = SliceReader::new(data);
    let mut builder = GameBuilder::new(false);
    let (mut games, mut bad) = (0, 0);
    while let Some(g) = reader.read_game(&mut builder) {
        games += 1;
        bad += u64::from(!g.errors.is_empty());
    }
    (games, bad)
}

fn bench(c: &mut Criterion) {
    let data = common::corpus();
    let (games, bad) = validate(&data);
    eprintln!("{} bytes, {games} games, {bad} with errors", data.len());
    let mut group = c.benchmark_group("pgn");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.bench_function("check (lex + validate every move)", |b| {
        b.iter(|| validate(&data))
    });
    group.bench_function("index (no moves)", |b| b.iter(|| index(&data).len()));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
