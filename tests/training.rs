//! Training in the real binary: a guess-the-move game to its score, a drill of your
//! mistakes started by `scoresheet train FILE` that records the answer in the deck,
//! and `scoresheet train` listing what is due (and refusing a damaged deck without
//! touching it).

mod data_dirs;
mod pty;

use pty::{keys, Term};
use scoresheet::study::train::deck::Deck;

const ALT_R: &str = "\x1br";

#[test]
fn a_guess_the_move_game_to_its_score() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.pgn");
    std::fs::write(
        &game,
        "[White \"Me\"]\n[Black \"Them\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n",
    )
    .unwrap();
    let before = std::fs::read(&game).unwrap();
    // No engine: the judgement is the game's and its annotations' alone, wherever the
    // test runs (tests/training_engine.rs has the engine).
    std::fs::write(
        dir.path().join("config.toml"),
        "[engine]\npath = \"no-such-engine\"\n",
    )
    .unwrap();
    let mut term = Term::spawn(dir.path(), &["game.pgn"], 100, 30);
    term.wait_for("Them");
    term.line(":train guess white", "guess the move as White");
    // The training panel takes the tags' place.
    term.wait_for("Guess the move: White");
    term.line("e2e4", "✓ e4: the game's move");
    term.line("Nc3", "✗ Nc3 is not the game's move");
    term.send(ALT_R);
    term.wait_for("the game's move: Nf3");
    // The last move, guessed in figurine notation: the game ends with the score.
    // (The whole line is waited for: a frame may be read half drawn.)
    term.line(
        "♗b5",
        "end of the game: 2 of 3 (66%): 2 the game's move, 0 as good, 1 wrong",
    );
    // The game is back, whole; nothing was saved or left unsaved: one Ctrl-C quits.
    term.wait_for("White  Me");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen(), "the terminal was not restored");
    assert_eq!(std::fs::read(&game).unwrap(), before);
    assert!(pty::unsaved(dir.path()).is_empty());
}

#[test]
fn train_file_drills_my_mistakes_and_records_the_miss() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        "[training]\nname = \"Me\"\n\n[engine]\npath = \"no-such-engine\"\n",
    )
    .unwrap();
    std::fs::copy(
        data_dirs::fixture("training_mine.pgn"),
        dir.path().join("mine.pgn"),
    )
    .unwrap();
    let mut term = Term::spawn(dir.path(), &["train", "mine.pgn"], 100, 30);
    term.wait_for("exercise 1 of 1: White to play");
    let screen = term.wait_for("Mistake 1 of 1 (new)");
    // The moves panel shows the game up to the exercise's position.
    assert!(!screen.contains("no moves yet"), "{screen}");
    assert!(screen.contains("Bc4") && screen.contains("Nd4"), "{screen}");
    // The game's own move again: a miss.
    term.line("Nxe5", "is the move played in the game");
    term.line("Nxd4", "✓ Nxd4: the best move known");
    term.send(ALT_R);
    term.wait_for("drill done: 0 found, 1 missed of 1");
    term.send(keys::CTRL_C);
    assert_eq!(term.wait_exit(), 0);
    assert!(!term.on_alternate_screen());

    let deck = Deck::load(&dir.path().join("data/training/deck.json")).expect("the deck reads");
    assert_eq!(deck.entries.len(), 1);
    let entry = &deck.entries[0];
    assert_eq!(entry.exercise.played_san(), "Nxe5");
    assert_eq!(entry.card.reps, 1);
    // A miss comes back the next day.
    let now = chrono::Utc::now();
    assert!(entry.card.due > now && entry.card.due < now + chrono::Duration::days(2));

    let out = pty::batch(dir.path()).arg("train").assert().success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("of 1 in the deck"), "{stderr}");
}

/// A first run, with no deck yet: it says how the deck fills.
#[test]
fn train_without_a_deck_says_how_to_fill_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = pty::batch(dir.path()).arg("train").assert().success();
    assert!(out.get_output().stdout.is_empty());
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("0 exercises due today, of 0 in the deck"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`scoresheet train FILE` (or F7 on a file's games) finds your mistakes"),
        "{stderr}"
    );
    assert!(stderr.contains("[training] name"), "{stderr}");
}

#[test]
fn train_lists_what_is_due_and_reports_a_damaged_deck() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data/training/deck.json");
    let games = scoresheet::pgn::read_games(
        &std::fs::read(data_dirs::fixture("training_mine.pgn")).unwrap(),
    );
    let found = scoresheet::study::train::mistakes::find(&games[0].game, chess::Color::White);
    assert_eq!(found.len(), 2);
    let mut deck = Deck::default();
    let long_ago = chrono::Utc::now() - chrono::Duration::days(30);
    // Missed a month ago: due. Found just now: not due for days.
    deck.review(&found[0], false, long_ago);
    deck.review(&found[1], true, chrono::Utc::now());
    deck.save(&path).unwrap();
    let out = pty::batch(dir.path()).arg("train").assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.contains("Me – Them, Club 2026.11.01, 4.Nxe5\tWhite to play\t"),
        "{stdout}"
    );
    assert!(stdout.contains(&found[0].fen), "{stdout}");
    assert!(
        stderr.contains("1 exercise due today, of 2 in the deck"),
        "{stderr}"
    );

    std::fs::write(&path, "{\"version\": 1, \"entries\": [\n  oops ]}\n").unwrap();
    let out = pty::batch(dir.path()).arg("train").assert().code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("cannot be read at line 2, column"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{\"version\": 1, \"entries\": [\n  oops ]}\n"
    );
}
