//! Any bytes as PGN: the slice reader, the streaming reader, the index and the readers
//! started at a game start (what the parallel commands stand on) agree on the games
//! (see `tests/invariants`).
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    invariants::readers_agree(data);
});
