//! Time from starting `scoresheet` in a pseudo-terminal to its first frame on
//! the screen (the target: ≤ 50 ms). Prints the minimum, median and maximum of
//! 30 starts. The whole process is timed: start-up, configuration, the journal
//! directory scan, raw mode, and the first draw.

#[path = "../tests/pty/mod.rs"]
mod pty;

use std::time::{Duration, Instant};

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs it once, quickly.
    let quick = !std::env::args().any(|a| a == "--bench");
    let runs = if quick { 1 } else { 30 };
    let dir = tempfile::tempdir().unwrap();
    let mut times: Vec<Duration> = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let mut term = pty::Term::spawn(dir.path(), &[], 80, 24);
        term.wait_for("White to move");
        times.push(started.elapsed());
        term.send(":q\r");
        term.wait_exit();
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "first frame: min {:.1} ms, median {:.1} ms, max {:.1} ms ({runs} starts)",
        ms(times[0]),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1])
    );
}
