//! `check` throughput: lexing plus validating every move of the real games in
//! `../shared/data/games` (about 25 MB), single thread, reported in bytes per second;
//! and the reader alone (slice and stream, movetext skipped) and the index beside it.
//! Run: `cargo bench --bench check`. `SCORESHEET_GAMES` names another PGN file.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use scoresheet::pgn::{index, index_read, GameBuilder, Pos, Reader, Skip, SliceReader, Visitor};

/// Counts the moves the reader reports, and nothing else: the reader's own speed.
struct CountMoves(u64);

impl Visitor for CountMoves {
    type Output = ();
    fn san(&mut self, _: &[u8], _: Pos) {
        self.0 += 1;
    }
    fn end_game(&mut self) {}
}

/// Reads the tags and skips every movetext.
struct TagsOnly;

impl Visitor for TagsOnly {
    type Output = ();
    fn begin_movetext(&mut self) -> Skip {
        Skip(true)
    }
    fn end_game(&mut self) {}
}

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
    group.bench_function("index (stream)", |b| {
        b.iter(|| index_read(&data[..]).expect("memory").len())
    });
    group.bench_function("reader alone (slice)", |b| {
        b.iter(|| {
            let mut count = CountMoves(0);
            let mut reader = SliceReader::new(&data);
            while reader.read_game(&mut count).is_some() {}
            count.0
        })
    });
    group.bench_function("reader alone (stream)", |b| {
        b.iter(|| {
            let mut count = CountMoves(0);
            let mut reader = Reader::new(&data[..]);
            while reader.read_game(&mut count).expect("memory").is_some() {}
            count.0
        })
    });
    group.bench_function("reader, movetext skipped", |b| {
        b.iter(|| {
            let mut reader = SliceReader::new(&data);
            while reader.read_game(&mut TagsOnly).is_some() {}
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
