//! Reads PGN files and prints, per file, the games and problems found.
use scoresheet::pgn::{read_games, write_game_to_string};

fn main() {
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).expect("read");
        let games = read_games(&data);
        let bad: Vec<_> = games.iter().filter(|g| !g.errors.is_empty()).collect();
        println!("{path}: {} games, {} with errors", games.len(), bad.len());
        for g in bad.iter().take(3) {
            for e in &g.errors {
                println!(
                    "  game {} {}:{} {:?}: {}",
                    g.number, e.pos.line, e.pos.column, e.token, e.reason
                );
            }
        }
        if std::env::var("SHOW").is_ok() {
            for g in &games {
                print!("{}", write_game_to_string(&g.game));
            }
        }
    }
}
