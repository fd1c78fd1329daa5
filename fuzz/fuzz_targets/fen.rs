//! Any text through the FEN reader: no panic, and what it reads it writes back
//! so that it reads the same (see `tests/invariants`).
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    invariants::fen_round_trips(text);
});
