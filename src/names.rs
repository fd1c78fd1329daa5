//! Players' names as files write them: `Carlsen, Magnus` is also written `Carlsen,M`,
//! `Carlsen, M.`, `Carlsen,Magnus` or `Magnus Carlsen`. A player drilling "my games"
//! ([`same_player`]) or filtering the game list by a full name ([`Parts::given_starts`])
//! expects all of them to count, and `Carlsen,H` (another Carlsen) not to.

use crate::catalog::strings::fold;

/// A name split into its surname and given names (or their initials), each folded (no
/// accents, lower case).
#[derive(Debug, PartialEq, Eq)]
pub struct Parts {
    /// The surname, its words joined by a space (`vachier-lagrave`).
    pub surname: String,
    /// The given names or their initials, in order (`m`, `hi`, `magnus`).
    pub given: Vec<String>,
}

impl Parts {
    /// Whether a given name of this name is written as a start of `word` (an initial or
    /// a shortening of it: `m` and `mag` of `magnus`), shorter than `word`: the word
    /// names it, though it is not part of the name as written.
    pub fn given_starts(&self, word: &str) -> bool {
        self.given
            .iter()
            .any(|g| !g.is_empty() && g.len() < word.len() && word.starts_with(g.as_str()))
    }

    /// The words of the surname (`vachier`, `lagrave`).
    pub fn surname_words(&self) -> impl Iterator<Item = &str> {
        self.surname
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
    }
}

/// Splits `name`: `Surname, Given Names` when it has a comma (the PGN standard's form);
/// otherwise `Given Names Surname`, except that a last word of one letter is an initial
/// (`Carlsen M`). A name of one word is a surname (a club nickname, an online handle).
pub fn parts(name: &str) -> Option<Parts> {
    let words = |text: &str| -> Vec<String> {
        fold(text)
            .split(|c: char| c.is_whitespace() || c == '.')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (surname, given) = match name.split_once(',') {
        Some((surname, given)) => (words(surname), initials_apart(given, words)),
        None => {
            let mut all = words(name);
            let initial_last = all.len() > 1 && all.last().is_some_and(|w| w.len() == 1);
            if initial_last {
                let given = all.split_off(all.len() - 1);
                (all, given)
            } else {
                let surname = all.split_off(all.len().saturating_sub(1));
                (surname, all)
            }
        }
    };
    (!surname.is_empty()).then(|| Parts {
        surname: surname.join(" "),
        given,
    })
}

/// The words of given names `text`, a word of two or three capitals written together
/// taken as that many initials (`RJ` is `R. J.`: `FISCHER,RJ`).
fn initials_apart(text: &str, words: impl Fn(&str) -> Vec<String>) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == '.')
        .flat_map(|w| {
            if (2..=3).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_uppercase()) {
                w.chars()
                    .map(|c| c.to_ascii_lowercase().to_string())
                    .collect()
            } else {
                words(w)
            }
        })
        .collect()
}

/// True when `written` (a White or Black tag) names the player `yours` names: the same
/// surname, ignoring case and accents, and given names that agree as far as both go, an
/// initial or a shortening agreeing with the whole name (`M` and `Hi` with `Magnus` and
/// `Hikaru`). A name given without given names matches every player of that surname.
pub fn same_player(written: &str, yours: &str) -> bool {
    let (Some(written), Some(yours)) = (parts(written), parts(yours)) else {
        return false;
    };
    written.surname == yours.surname
        && written
            .given
            .iter()
            .zip(&yours.given)
            .all(|(a, b)| a.starts_with(b.as_str()) || b.starts_with(a.as_str()))
}

#[cfg(test)]
mod tests {
    use super::same_player;

    #[test]
    fn the_ways_one_player_is_written_all_match() {
        for written in [
            "Carlsen, Magnus",
            "Carlsen,Magnus",
            "Carlsen,M",
            "Carlsen, M.",
            "carlsen, magnus",
            "Magnus Carlsen",
            "Carlsen M",
            "Carlsen",
        ] {
            assert!(same_player(written, "Carlsen, Magnus"), "{written}");
            assert!(same_player("Carlsen, Magnus", written), "{written}");
        }
        assert!(same_player("Nakamura,Hi", "Nakamura, Hikaru"));
        assert!(same_player("Ljubojević, Ljubomir", "Ljubojevic,L"));
        assert!(same_player("german11", "German11"));
        // Initials written together in capitals.
        assert!(same_player("FISCHER,RJ", "Fischer, Robert James"));
        assert!(same_player("Fischer, Robert James", "FISCHER,RJ"));
        assert!(!same_player("FISCHER,RK", "Fischer, Robert James"));
    }

    #[test]
    fn other_players_do_not() {
        // Magnus's father, and a player whose name holds "Carlsen".
        assert!(!same_player("Carlsen,H", "Carlsen, Magnus"));
        assert!(!same_player("Carlsen, Henrik", "Carlsen,M"));
        assert!(!same_player("Carlsenberg, Magnus", "Carlsen, Magnus"));
        assert!(!same_player("Magnus, Carlsen", "Carlsen, Magnus"));
        assert!(!same_player("", "Carlsen"));
        assert!(!same_player("?", "Carlsen"));
        assert!(!same_player("german1", "german11"));
    }
}
