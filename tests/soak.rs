//! A crash soak of the real binary in a pseudo-terminal: record, and end the recorder at a
//! moment chosen at random — right after an Enter, in the middle of typing a move, during
//! `:w` — with SIGKILL, SIGTERM or SIGHUP, or by closing its terminal, round after round;
//! then check that every move the screen had confirmed comes back (from the journal, or
//! from the file when it was saved), and that the file, when there is one, is whole PGN.
//! Also two recorders on one journal directory at once.
//!
//! The rounds follow a fixed seed (another one with `SCORESHEET_SOAK_SEED=N`), so a failure
//! names the seed and round that reproduce it.

mod pty;

use std::time::Duration;

use pty::{keys, main_lines, unsaved as recovered, Term};
use scoresheet::pgn::builder::read_games;

/// A Ruy Lopez, long enough that a round stops somewhere inside it.
const MOVES: &[&str] = &[
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
];

/// A small deterministic generator (xorshift), so that rounds can be replayed.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % sides
    }
}

/// What the screen shows once ply `ply` (0-based) is played: the prompt for the next.
fn prompt_after(ply: usize) -> String {
    if ply.is_multiple_of(2) {
        format!("{}... ▏", ply / 2 + 1)
    } else {
        format!("{}. ▏", ply / 2 + 2)
    }
}

/// How a round ends.
#[derive(Debug, Clone, Copy)]
enum End {
    /// Right after an Enter, before the screen answers.
    AfterEnter,
    /// With half a move on the entry line.
    WhileTyping,
    /// Just after `:w` was typed.
    DuringSave,
}

#[test]
fn killed_at_random_moments_the_recorder_gives_back_every_confirmed_move() {
    // Another seed (`SCORESHEET_SOAK_SEED=N`) plays other rounds: for longer soaks.
    let seed = std::env::var("SCORESHEET_SOAK_SEED")
        .ok()
        .map(|s| s.parse::<u64>().expect("SCORESHEET_SOAK_SEED is a number"))
        .unwrap_or(0x5eed_cafe_f00d_1234);
    // A zero state would roll zeros for ever.
    let mut dice = Dice(seed.max(1));
    for round in 0..40 {
        let dir = tempfile::tempdir().expect("tempdir");
        let end = match dice.roll(3) {
            0 => End::AfterEnter,
            1 => End::WhileTyping,
            _ => End::DuringSave,
        };
        // CLOSE closes the terminal itself (every descriptor of its side).
        let signal = ["KILL", "KILL", "TERM", "HUP", "CLOSE"][dice.roll(5) as usize];
        let plies = 1 + dice.roll(MOVES.len() as u64 - 2) as usize;
        let what =
            format!("seed {seed}, round {round}: {plies} plies, then {end:?} with SIG{signal}");

        let mut term = Term::spawn(dir.path(), &["new", "--out", "game.pgn"], 100, 30);
        term.wait_for("White to move");
        let mut confirmed = 0;
        // Half the rounds save part-way, so that the file and the journal both count.
        let save_at = (dice.roll(2) == 0).then(|| dice.roll(plies as u64) as usize);
        for (ply, mv) in MOVES[..plies].iter().enumerate() {
            term.line(mv, &prompt_after(ply));
            confirmed = ply + 1;
            if save_at == Some(ply) {
                term.line(":w", "saved to");
            }
        }
        match end {
            End::AfterEnter => {
                term.send(MOVES[plies]);
                term.send(keys::ENTER);
            }
            End::WhileTyping => term.send(&MOVES[plies][..1]),
            End::DuringSave => term.send(":w\r"),
        }
        // A moment for the keys to arrive, from nothing to a few milliseconds.
        std::thread::sleep(Duration::from_micros(dice.roll(4000)));
        if signal == "CLOSE" {
            term.close_terminal();
        } else {
            term.signal(signal);
        }
        let status = term.wait_exit_status();
        // Only SIGKILL may end it from outside: the others are caught, and it leaves on
        // its own (no abort from writing to a terminal that is gone).
        assert!(
            signal == "KILL" || status.signal().is_none(),
            "{what}: ended by {status:?}"
        );

        let want = &MOVES[..confirmed];
        let mut found = recovered(dir.path());
        let file = dir.path().join("game.pgn");
        if file.exists() {
            let bytes = std::fs::read(&file).expect("the file reads");
            let games = read_games(&bytes);
            assert!(
                games.iter().all(|g| g.errors.is_empty() && g.complete),
                "{what}: the file is not whole PGN:\n{}",
                String::from_utf8_lossy(&bytes)
            );
            assert_eq!(games.len(), 1, "{what}: one game in the file");
            found.extend(main_lines(&bytes));
        }
        assert!(
            found
                .iter()
                .any(|line| line.len() >= want.len() && line[..want.len()] == *want),
            "{what}: the {} confirmed moves {want:?} are not in what came back: {found:?}",
            want.len()
        );
        // Nothing is left behind beside the file: no temporary file of a save.
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .expect("the directory reads")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect();
        if !leftovers.is_empty() && signal == "KILL" {
            // A SIGKILL during a save can leave one: the next start removes it.
            let mut term = Term::spawn(dir.path(), &["new", "--out", "game.pgn"], 100, 30);
            term.wait_for("White to move");
            term.signal("KILL");
            term.wait_exit();
        }
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .expect("the directory reads")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{what}: left behind {leftovers:?}");
    }
}

#[test]
fn two_recorders_on_one_journal_directory_keep_both_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut white = Term::spawn(dir.path(), &["new", "--white", "Ann"], 100, 30);
    let mut black = Term::spawn(dir.path(), &["new", "--white", "Bob"], 100, 30);
    white.wait_for("White to move");
    black.wait_for("White to move");
    // Each may see the other's journal as an unsaved game of a running recorder: it is
    // left alone, and neither box is open.
    for (ply, (a, b)) in ["e4", "e5", "Nf3"]
        .iter()
        .zip(["d4", "d5", "c4"].iter())
        .enumerate()
    {
        white.line(a, &prompt_after(ply));
        black.line(b, &prompt_after(ply));
    }
    white.signal("KILL");
    black.signal("KILL");
    white.wait_exit();
    black.wait_exit();
    let mut found = recovered(dir.path());
    found.sort();
    assert_eq!(
        found,
        [vec!["d4", "d5", "c4"], vec!["e4", "e5", "Nf3"]],
        "both games come back"
    );
}
