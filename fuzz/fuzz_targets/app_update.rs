//! Any sequence of keys through the recorder's `update`: no panic, the cursor stays in
//! the game, and the journal gives the game back (see `tests/invariants`).
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|keys: &[u8]| {
    invariants::app_survives(keys);
});
