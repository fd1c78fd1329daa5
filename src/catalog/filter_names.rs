//! Names written with initials: `Carlsen,M` is Magnus Carlsen, so `magnus carlsen` (or
//! `carlsen magnus`, `white:"magnus carlsen"`) finds it, as the training finds a player's
//! games ([`crate::names`]). A query word names a given name written as its start
//! (an initial, `m`, or a shortening, `hi` of `hikaru`) when another word of the query is
//! a whole word of that same name's surname (`carlsen`, or with the typos a word may have:
//! `carlsn`). So `magnus` alone does not find every `X,M`, `magnus carlsen` does not find
//! `Carlsen,H`, and `magnus carl` not yet `Carlsen,M` (a start of the surname could be
//! anyone's: `m` is no surname of `Mamedov,C` for `carlsen m`).
//!
//! These matches are worked out after each term's own ([`super::Hits`]), from them and the
//! strings, never narrowed keystroke by keystroke: they depend on the other terms, which
//! typing changes.

use super::{Filter, Word};
use crate::catalog::query::field;
use crate::catalog::strings::Strings;
use crate::names;

/// The player strings a text term matches by an initial (see the module documentation),
/// one bit per string id.
#[derive(Debug, Default)]
pub(super) struct Initials {
    bits: Vec<u64>,
    /// Strings looked at so far (those the table had at the last refresh).
    seen: usize,
}

impl Initials {
    #[inline]
    pub(super) fn get(&self, id: u32) -> bool {
        let id = id as usize;
        self.bits
            .get(id / 64)
            .is_some_and(|word| word & (1 << (id % 64)) != 0)
    }

    fn set(&mut self, id: usize) {
        if self.bits.len() <= id / 64 {
            self.bits.resize(id / 64 + 1, 0);
        }
        self.bits[id / 64] |= 1 << (id % 64);
    }
}

/// Whether `word` may name a given name by a shorter start of it: letters only, and more
/// than one (an initial is as long as a word of one letter, which matches it as it is).
fn may_name(word: &Word) -> bool {
    let text = word.finder.needle();
    text.len() >= 2 && text.iter().all(u8::is_ascii_alphabetic)
}

/// Whether a word of `folded` is a start of one of `words`, shorter than it: the cheap
/// sign, before the name is split, that one of them may name a given name of it.
fn has_short_start(folded: &str, words: &[&Word]) -> bool {
    folded
        .as_bytes()
        .split(|b| !b.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .any(|part| {
            words.iter().any(|w| {
                let w = w.finder.needle();
                part.len() < w.len() && w.starts_with(part)
            })
        })
}

/// Whether `a` is at most `k` edits (insertion, deletion, substitution, two neighbours
/// swapped) from `b`, both whole.
fn within(a: &[u8], b: &[u8], k: usize) -> bool {
    if a.len().abs_diff(b.len()) > k {
        return false;
    }
    let n = b.len();
    let mut before = vec![0usize; n + 1];
    let mut prev: Vec<usize> = (0..=n).collect();
    let mut cur = vec![0usize; n + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=n {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[n] <= k
}

impl Word {
    /// Whether the word is the whole of `part` (a word of a surname), or is with the typos
    /// it may have: not a mere start of it (`carl` is not a surname).
    fn is_whole(&self, part: &str) -> bool {
        let needle = self.finder.needle();
        needle == part.as_bytes() || (self.typos > 0 && within(needle, part.as_bytes(), self.typos))
    }
}

impl Filter {
    /// Works out, for the player strings the tables gained since the last call, which the
    /// text terms match by an initial (see the module documentation).
    pub(super) fn link_initials(&mut self, players: &Strings) {
        // The text terms that look at players, and every word of them (a surname may be
        // given by a word of another term, or of the same one when quoted).
        let looking: Vec<usize> = (0..self.texts.len())
            .filter(|&i| {
                self.texts[i]
                    .as_ref()
                    .is_some_and(|t| t.fields & (field::WHITE | field::BLACK) != 0)
            })
            .collect();
        let words: Vec<(usize, usize)> = looking
            .iter()
            .flat_map(|&i| {
                let n = self.texts[i].as_ref().map_or(0, |t| t.words.len());
                (0..n).map(move |k| (i, k))
            })
            .collect();
        if words.len() < 2 {
            return;
        }
        let word = |(i, k): (usize, usize)| -> &Word {
            &self.texts[i].as_ref().expect("a text term").words[k]
        };
        // Whether each term needs every string looked at: the quick test (another term
        // matched the string) holds only when every other term is of one word.
        let any_several = looking
            .iter()
            .any(|&i| self.texts[i].as_ref().is_some_and(|t| t.words.len() > 1));
        let mut found: Vec<(usize, Vec<usize>)> = Vec::new();
        for &i in &looking {
            let term = self.texts[i].as_ref().expect("a text term");
            let naming: Vec<&Word> = term.words.iter().filter(|w| may_name(w)).collect();
            let from = term.initials.seen.max(1);
            if naming.is_empty() || from >= players.len() {
                continue;
            }
            let mut ids = Vec::new();
            for id in from..players.len() {
                let id32 = id as u32;
                if term.players.get(id32) {
                    continue;
                }
                let others_match = looking.iter().any(|&j| {
                    j != i && self.texts[j].as_ref().is_some_and(|t| t.players.get(id32))
                });
                if !any_several && !others_match {
                    continue;
                }
                let folded = players.folded(id32);
                if !has_short_start(folded, &naming) {
                    continue;
                }
                let Some(name) = names::parts(folded) else {
                    continue;
                };
                let set = players.letters(id32);
                let surname_given_by = |me: (usize, usize)| {
                    words.iter().any(|&other| {
                        other != me && name.surname_words().any(|part| word(other).is_whole(part))
                    })
                };
                let named = term.words.iter().enumerate().all(|(k, w)| {
                    w.fit(folded, set).matches
                        || (name.given_starts(w.text()) && surname_given_by((i, k)))
                });
                if named {
                    ids.push(id);
                }
            }
            found.push((i, ids));
        }
        let len = players.len();
        for &i in &looking {
            if let Some(term) = self.texts[i].as_mut() {
                term.initials.seen = len;
            }
        }
        for (i, ids) in found {
            if let Some(term) = self.texts[i].as_mut() {
                ids.into_iter().for_each(|id| term.initials.set(id));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::within;

    #[test]
    fn whole_words_within_typos() {
        assert!(within(b"carlsn", b"carlsen", 1));
        assert!(within(b"carslen", b"carlsen", 1));
        assert!(!within(b"carlsen", b"carlsenberg", 2));
        assert!(!within(b"carl", b"carlsen", 1));
        assert!(within(b"", b"", 0));
    }
}
