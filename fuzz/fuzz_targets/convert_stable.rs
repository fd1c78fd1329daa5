//! Any bytes through `scoresheet convert`: no game lost, and converting the output again
//! gives the same text (see `tests/invariants`).
#![no_main]

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    invariants::convert_stable(data);
});
