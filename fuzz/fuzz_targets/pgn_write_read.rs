//! Any bytes as PGN: every game read without error is written, read again and written
//! again to the same game and the same text (see `tests/invariants`).
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    invariants::write_read_identity(data);
});
