//! Any text through the notation door (read_move): no panic, and what it reads it writes back
//! so that it reads the same (see `tests/invariants`).
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    invariants::notation_reads_back(text);
});
