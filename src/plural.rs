//! Counts in messages, worded once: "1 game", "2 games", and a game's length
//! in moves (a move is White's and Black's, as on a scoresheet), never plies.

/// `n` with the noun in the right number: `count(1, "game", "games")` is "1 game".
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `n` with thousands separated by commas.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` grouped by thousands, with the noun in the right number: "37,086 games".
pub fn count_grouped(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n), if n == 1 { one } else { many })
}

/// A game's length from its half-moves, in moves: 9 half-moves is "5 moves"
/// (White's fifth is played), 1 is "1 move", 0 is "0 moves".
pub fn moves_of(plies: usize) -> String {
    count(plies.div_ceil(2), "move", "moves")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(count(1, "game", "games"), "1 game");
        assert_eq!(count(0, "game", "games"), "0 games");
        assert_eq!(count(2, "ply", "plies"), "2 plies");
        assert_eq!(moves_of(0), "0 moves");
        assert_eq!(moves_of(1), "1 move");
        assert_eq!(moves_of(2), "1 move");
        assert_eq!(moves_of(9), "5 moves");
        assert_eq!(count_grouped(37086, "game", "games"), "37,086 games");
        assert_eq!(count_grouped(1, "game", "games"), "1 game");
        assert_eq!(grouped(1_741_720), "1,741,720");
        assert_eq!(grouped(999), "999");
    }
}
