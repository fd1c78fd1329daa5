//! Any bytes as PGN, every door that finds games: the slice and streaming readers, the
//! index, the chunked parallel reader (over a reader and over the indexer, at chunk sizes
//! from one byte up), `check --jobs` on a file and on a stream, and the game list's
//! catalog agree on the games' boundaries and count (see `tests/invariants`).
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    invariants::readers_agree(data);
    invariants::chunks_agree(data);
});
