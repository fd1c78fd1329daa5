//! Running a [`Query`] over the rows: each distinct string of a table is matched once per
//! query (a file of 1.5 million games has a few hundred thousand distinct names), then rows
//! are selected by id, which costs a few array reads per row.
//!
//! How a query word matches a text (both folded: no accents, lower case):
//! - it is part of the text starting at a word of it (`carl` finds `Carlsen, Magnus`;
//!   `mag` and `carlsen, mag` too; `anand` finds `Anand, Viswanathan` but not
//!   `Praggnanandhaa, R`, whose name only holds it); or
//! - it has 5 letters or more and is one typo away from a word of the text, or from the
//!   start of a longer word (two typos from 9 letters on): a letter missing, extra, wrong,
//!   or two letters swapped (`carlsn`, `carslen`, `karlsen`, `carlssen` find `Carlsen`).
//!   These are the thresholds search engines use for names (Meilisearch's defaults):
//!   short words must be exact, or every three-letter query would match half the list.
//!
//! A word starts where the text starts or after a character that is not a letter or a
//! digit (a space, a comma, a hyphen: `lagrave` finds `Vachier-Lagrave`). A query word
//! that itself starts with such a character (`, mag`) may start anywhere.
//!
//! Typing narrows: beside its matches, a word keeps its *candidates*, the strings it is a
//! few typos from a start of, however short (`carlos` is one typo from `carls`, a start of
//! `Carlsen`, so Carlsen is a candidate, not a match). Candidates only shrink as letters
//! are typed at the end of a word (matches may not: `carlss` and `carlssen` match Carlsen,
//! `carlsse` does not), as long as the typos allowed stay the same (they grow at 5 and 9
//! letters). So the next keystroke checks only the strings the one before had as
//! candidates ([`implies`]).

use memchr::memmem;

use super::query::{field, Query, Side, Term};
use super::row::{outcome_code, Row};
use super::strings::{letters, Strings};
use super::Tables;

/// A word of the query, ready to be matched many times.
#[derive(Debug)]
struct Word {
    finder: memmem::Finder<'static>,
    /// Its letters (see [`letters`]).
    letters: u32,
    /// Typos allowed (0 when the word is short or not all letters and digits).
    typos: usize,
}

/// How a word relates to a string: it matches it, or it is at least a candidate (see the
/// module documentation; a match is a candidate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Fit {
    matches: bool,
    candidate: bool,
}

impl Fit {
    const BOTH: Fit = Fit {
        matches: true,
        candidate: true,
    };

    fn or(self, other: Fit) -> Fit {
        Fit {
            matches: self.matches || other.matches,
            candidate: self.candidate || other.candidate,
        }
    }

    fn and(self, other: Fit) -> Fit {
        Fit {
            matches: self.matches && other.matches,
            candidate: self.candidate && other.candidate,
        }
    }
}

/// The longest word matched with typos (longer ones must be found as they are).
const MAX_TYPO_WORD: usize = 48;

impl Word {
    fn new(word: &str) -> Word {
        Word {
            finder: memmem::Finder::new(word.as_bytes()).into_owned(),
            letters: letters(word.as_bytes()),
            typos: typos_of(word),
        }
    }

    /// The word, folded.
    fn text(&self) -> &str {
        // Made from a `&str` in `Word::new`.
        std::str::from_utf8(self.finder.needle()).unwrap_or_default()
    }

    /// Whether the word is part of `text` starting at a word of it.
    fn found_at_word(&self, text: &[u8]) -> bool {
        let mut at = 0;
        while let Some(hit) = self.finder.find(&text[at..]) {
            let hit = at + hit;
            if self.starts_word(text, 0, hit) {
                return true;
            }
            at = hit + 1;
        }
        false
    }

    /// Whether the word found at `hit` of `text` (whose string starts at `start`)
    /// starts a word there.
    #[inline]
    fn starts_word(&self, text: &[u8], start: usize, hit: usize) -> bool {
        hit == start
            || !text[hit - 1].is_ascii_alphanumeric()
            || !self
                .finder
                .needle()
                .first()
                .is_some_and(u8::is_ascii_alphanumeric)
    }

    /// Whether the word matches `folded`, whose letters are `set` (as part of it
    /// starting at a word, or with typos), or is a candidate for it.
    fn fit(&self, folded: &str, set: u32) -> Fit {
        if self.found_at_word(folded.as_bytes()) {
            return Fit::BOTH;
        }
        if self.typos > 0 && (self.letters & !set).count_ones() as usize <= self.typos {
            self.near(folded)
        } else {
            Fit::default()
        }
    }

    /// Whether the word matches `folded`.
    #[cfg(test)]
    fn matches(&self, folded: &str, set: u32) -> bool {
        self.fit(folded, set).matches
    }

    /// How near the word is to a word of `folded` (which it is not part of at a word).
    fn near(&self, folded: &str) -> Fit {
        let mut fit = Fit::default();
        // Cut at bytes, not characters: folded text is ASCII, and a byte of any other
        // character would be a separator all the same (it is not a letter or digit).
        for w in folded
            .as_bytes()
            .split(|b| !b.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            fit = fit.or(near_start(self.finder.needle(), w, self.typos));
            if fit.matches {
                break;
            }
        }
        fit
    }
}

/// Typos allowed in a query word (0 when short or not all letters and digits).
fn typos_of(word: &str) -> usize {
    let alnum = word.bytes().all(|b| b.is_ascii_alphanumeric());
    match word.len() {
        _ if !alnum => 0,
        0..=4 => 0,
        5..=8 => 1,
        9..=MAX_TYPO_WORD => 2,
        _ => 0,
    }
}

/// Whether a query word being a candidate for a string implies that `old` was one (see
/// [`implies`]).
fn word_implies(old: &str, new: &str) -> bool {
    new.starts_with(old) && (typos_of(new) == typos_of(old) || typos_of(new) == 0)
}

/// Whether every string that is a candidate for a text term of `new` was one for the term
/// of `old` at the same place, and the other terms are the same, as when a letter or a
/// term was typed at the end of `old`: the next filter then only checks `old`'s
/// candidates.
pub(crate) fn implies(old: &Query, new: &Query) -> bool {
    new.terms.len() >= old.terms.len()
        && old.terms.iter().zip(&new.terms).all(|(o, n)| match (o, n) {
            (
                Term::Text {
                    fields: of,
                    words: ow,
                },
                Term::Text {
                    fields: nf,
                    words: nw,
                },
            ) => {
                of == nf
                    && nw.len() >= ow.len()
                    && ow.iter().zip(nw).all(|(o, n)| word_implies(o, n))
            }
            _ => o == n,
        })
}

/// Whether `query` is at most `k` edits (insertion, deletion, substitution, or swapping two
/// neighbours) away from `word`, or from a start of `word` at least as long as `query`
/// (optimal string alignment distance, computed row by row and abandoned as soon as every
/// cell of a row exceeds `k`).
#[cfg(test)]
fn near_prefix(query: &[u8], word: &[u8], k: usize) -> bool {
    near_start(query, word, k).matches
}

/// [`near_prefix`], and whether `query` is at most `k` edits from any start of `word`
/// (then `word` is a candidate: a start of `query` is as near, or nearer).
fn near_start(query: &[u8], word: &[u8], k: usize) -> Fit {
    const W: usize = MAX_TYPO_WORD + 3;
    let far = Fit::default();
    let m = query.len();
    if m > MAX_TYPO_WORD || m == 0 {
        return far;
    }
    // Only starts of `word` up to `m + k` letters can be close enough.
    let n = word.len().min(m + k);
    if n + k < m {
        return far;
    }
    // With one edit, the first two letters tell most words apart at once: unchanged, or
    // the first substituted, or one letter dropped, added or swapped at the start.
    if k == 1 && m >= 2 && n >= 2 {
        let (q0, q1, w0, w1) = (query[0], query[1], word[0], word[1]);
        if w0 != q0 && w0 != q1 && w1 != q0 && w1 != q1 {
            return far;
        }
    }
    let (mut before, mut prev, mut cur) = ([0usize; W], [0usize; W], [0usize; W]);
    for (j, cell) in prev.iter_mut().enumerate().take(n + 1) {
        *cell = j;
    }
    for i in 1..=m {
        cur[0] = i;
        let mut best = cur[0];
        for j in 1..=n {
            let cost = usize::from(query[i - 1] != word[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && query[i - 1] == word[j - 2] && query[i - 2] == word[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
            best = best.min(d);
        }
        if best > k {
            return far;
        }
        before = prev;
        prev = cur;
    }
    // The whole word, or a start of it at least as long as the query: with shorter starts,
    // `carlos` would find `Carlsen` (drop the `o`, and `carls` starts it).
    Fit {
        matches: prev[m.min(n)..=n].iter().any(|&d| d <= k),
        candidate: prev[..=n].iter().any(|&d| d <= k),
    }
}

/// Strings a thread checks at least when a table is matched on several.
const PER_THREAD: usize = 1 << 15;

/// Which strings of one table a text term matches: `hits[id]`, worked out for the ids the
/// table had when last refreshed.
#[derive(Debug, Default)]
struct Hits {
    hits: Vec<Fit>,
}

impl Hits {
    /// Matches the strings added to `table` since the last call. Each word is searched in
    /// all the new folded strings at once (one SIMD search over the text, not one per
    /// string); only the strings it is not part of, and that have enough of its letters,
    /// are tried with typos.
    fn refresh(&mut self, table: &Strings, words: &[Word]) {
        let from = self.hits.len();
        let to = table.len();
        if from >= to {
            return;
        }
        let text = table.folded_text().as_bytes();
        let ends = table.folded_ends();
        let start_of = |id: usize| if id == 0 { 0 } else { ends[id - 1] as usize };
        let mut all = vec![Fit::BOTH; to - from];
        let mut found = vec![false; to - from];
        for word in words {
            found.iter_mut().for_each(|f| *f = false);
            let needle = word.finder.needle().len();
            let mut at = start_of(from);
            let mut id = from;
            let end = ends[to - 1] as usize;
            while at < end {
                let Some(hit) = word.finder.find(&text[at..end]) else {
                    break;
                };
                let hit = at + hit;
                while (ends[id] as usize) <= hit {
                    id += 1;
                }
                if hit + needle <= ends[id] as usize && word.starts_word(text, start_of(id), hit) {
                    found[id - from] = true;
                    at = ends[id] as usize;
                } else {
                    at = hit + 1;
                }
            }
            if word.typos == 0 {
                for (all, found) in all.iter_mut().zip(&found) {
                    if !*found {
                        *all = Fit::default();
                    }
                }
                continue;
            }
            // Matching with typos is what costs: the strings are shared among the cores.
            let check = |first: u32, all: &mut [Fit], found: &[bool]| {
                for (id, (all, found)) in (first..).zip(all.iter_mut().zip(found)) {
                    if !all.candidate || *found {
                        continue;
                    }
                    let near =
                        (word.letters & !table.letters(id)).count_ones() as usize <= word.typos;
                    *all = if near {
                        all.and(word.near(table.folded(id)))
                    } else {
                        Fit::default()
                    };
                }
            };
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
            let all_len = all.len();
            let per = all_len.div_ceil(cores).max(PER_THREAD);
            let mut first = from as u32;
            let parts: Vec<_> = all
                .chunks_mut(per)
                .zip(found.chunks(per))
                .map(|(all, found)| {
                    let start = first;
                    first += all.len() as u32;
                    (start, all, found)
                })
                .collect();
            let parts = std::sync::Mutex::new(parts);
            // Each thread takes parts until none is left; this one too, so all are done
            // even when the system grants no thread.
            let work = || {
                while let Some((start, all, found)) = parts.lock().ok().and_then(|mut p| p.pop()) {
                    check(start, all, found);
                }
            };
            std::thread::scope(|scope| {
                for _ in 1..cores.min(all_len.div_ceil(per)) {
                    let _ = std::thread::Builder::new().spawn_scoped(scope, work);
                }
                work();
            });
        }
        if from == 0 {
            // Id 0 is the unknown value: it matches nothing.
            all[0] = Fit::default();
        }
        self.hits.extend_from_slice(&all);
    }

    /// The hits of `words` among the strings that were candidates for `old`'s words,
    /// which `words` imply (see [`implies`]): only those strings are checked.
    fn narrowed(old: &Hits, table: &Strings, words: &[Word]) -> Hits {
        // Checking strings one by one costs more than one search over them all (see
        // `refresh`) when most are left: then they are all matched again.
        // (Not in unit tests, whose small tables would then never be narrowed.)
        let most = old.hits.len() / 8;
        if !cfg!(test) && old.hits.iter().filter(|f| f.candidate).count() > most {
            let mut hits = Hits::default();
            hits.refresh(table, words);
            return hits;
        }
        let hits = (0u32..)
            .zip(&old.hits)
            .map(|(id, old)| {
                if !old.candidate {
                    return Fit::default();
                }
                let (folded, set) = (table.folded(id), table.letters(id));
                words
                    .iter()
                    .fold(Fit::BOTH, |fit, w| fit.and(w.fit(folded, set)))
            })
            .collect();
        Hits { hits }
    }

    #[inline]
    fn get(&self, id: u32) -> bool {
        self.hits.get(id as usize).is_some_and(|f| f.matches)
    }
}

/// A text term with its matches in each table it looks at.
#[derive(Debug)]
struct TextTerm {
    fields: u8,
    words: Vec<Word>,
    players: Hits,
    events: Hits,
    sites: Hits,
    rounds: Hits,
    openings: Hits,
    /// Players it matches by a given name's initial (see [`names`]).
    initials: names::Initials,
}

impl TextTerm {
    fn refresh(&mut self, tables: &Tables) {
        let f = self.fields;
        if f & (field::WHITE | field::BLACK) != 0 {
            self.players.refresh(&tables.players, &self.words);
        }
        if f & field::EVENT != 0 {
            self.events.refresh(&tables.events, &self.words);
        }
        if f & field::SITE != 0 {
            self.sites.refresh(&tables.sites, &self.words);
        }
        if f & field::ROUND != 0 {
            self.rounds.refresh(&tables.rounds, &self.words);
        }
        if f & field::OPENING != 0 {
            self.openings.refresh(&tables.openings, &self.words);
        }
    }

    #[inline]
    fn matches(&self, row: &Row) -> bool {
        let f = self.fields;
        let player = |id: u32| self.players.get(id) || self.initials.get(id);
        (f & field::WHITE != 0 && player(row.white))
            || (f & field::BLACK != 0 && player(row.black))
            || (f & field::EVENT != 0 && self.events.get(row.event))
            || (f & field::SITE != 0 && self.sites.get(row.site))
            || (f & field::OPENING != 0 && self.openings.get(row.opening))
            || (f & field::ROUND != 0 && self.rounds.get(row.round))
    }
}

/// The answer of the position search to a `pos:` term: the games reaching the position,
/// each with the ply it first does, sorted by game number. Shared: the catalog keeps the
/// answers it had, so that a term typed again is not searched again.
pub(crate) type Reached = std::sync::Arc<Vec<(u64, u32)>>;

/// A query ready to run: its terms, and what its text terms match in the tables.
#[derive(Debug)]
pub(crate) struct Filter {
    pub(crate) query: Query,
    texts: Vec<Option<TextTerm>>,
    /// For each `pos:` term, the search's answer once it came (`None` meanwhile: the
    /// term then lets every game through).
    reached: Vec<Option<Reached>>,
}

impl Filter {
    /// Prepares `query` and matches the strings of `tables`.
    pub(crate) fn new(query: Query, tables: &Tables) -> Filter {
        let mut filter = Filter::new_unmatched(query);
        filter.refresh(tables);
        filter
    }

    /// Prepares `query`, no string matched yet.
    fn new_unmatched(query: Query) -> Filter {
        let texts = query
            .terms
            .iter()
            .map(|t| match t {
                Term::Text { fields, words } => Some(TextTerm {
                    fields: *fields,
                    words: words.iter().map(|w| Word::new(w)).collect(),
                    players: Hits::default(),
                    events: Hits::default(),
                    sites: Hits::default(),
                    rounds: Hits::default(),
                    openings: Hits::default(),
                    initials: names::Initials::default(),
                }),
                _ => None,
            })
            .collect();
        let reached = vec![None; query.terms.len()];
        Filter {
            query,
            texts,
            reached,
        }
    }

    /// Takes in the search's answer for the position `key`; true when a term of this
    /// filter was waiting for it.
    pub(crate) fn answer(&mut self, key: &str, games: &Reached) -> bool {
        let mut used = false;
        for (term, reached) in self.query.terms.iter().zip(&mut self.reached) {
            if matches!(term, Term::Position(k) if k == key) && reached.is_none() {
                *reached = Some(std::sync::Arc::clone(games));
                used = true;
            }
        }
        used
    }

    /// The positions of the `pos:` terms still waiting for the search's answer.
    pub(crate) fn waiting(&self) -> impl Iterator<Item = &str> {
        self.query
            .terms
            .iter()
            .zip(&self.reached)
            .filter_map(|(term, reached)| match (term, reached) {
                (Term::Position(key), None) => Some(key.as_str()),
                _ => None,
            })
    }

    /// Forgets the search's answers (the file changed: they may be wrong now).
    pub(crate) fn forget_answers(&mut self) {
        self.reached.iter_mut().for_each(|r| *r = None);
    }

    /// The ply at which game `number` reaches the position of the first `pos:` term
    /// answered, if it does.
    pub(crate) fn ply_of(&self, number: u64) -> Option<u32> {
        self.reached.iter().flatten().next().and_then(|games| {
            let at = games.binary_search_by_key(&number, |g| g.0).ok()?;
            Some(games[at].1)
        })
    }

    /// The filter of `query`, which [`implies`] `old`'s query: its text terms check only
    /// the strings `old` matched.
    pub(crate) fn narrowed(old: &Filter, query: Query, tables: &Tables) -> Filter {
        let mut filter = Filter::new_unmatched(query);
        for (new, old) in filter.texts.iter_mut().zip(&old.texts) {
            if let (Some(new), Some(old)) = (new, old) {
                let w = &new.words;
                new.players = Hits::narrowed(&old.players, &tables.players, w);
                new.events = Hits::narrowed(&old.events, &tables.events, w);
                new.sites = Hits::narrowed(&old.sites, &tables.sites, w);
                new.rounds = Hits::narrowed(&old.rounds, &tables.rounds, w);
                new.openings = Hits::narrowed(&old.openings, &tables.openings, w);
            }
        }
        filter.refresh(tables);
        filter
    }

    /// Matches the strings the tables gained since the last call (rows arrived).
    pub(crate) fn refresh(&mut self, tables: &Tables) {
        for text in self.texts.iter_mut().flatten() {
            text.refresh(tables);
        }
        self.link_initials(&tables.players);
    }

    /// Whether `row` (row `index`, game `index + 1`) satisfies every term.
    #[inline]
    pub(crate) fn matches(&self, index: u32, row: &Row) -> bool {
        self.query
            .terms
            .iter()
            .zip(&self.texts)
            .zip(&self.reached)
            .all(|((term, text), reached)| match (term, text) {
                (_, Some(text)) => text.matches(row),
                (Term::Text { .. }, None) => true,
                (Term::Eco(r), _) => row.eco != 0 && r.contains(u32::from(row.eco)),
                (Term::Result(o), _) => row.result == outcome_code(*o),
                (Term::Year(r), _) => row.date.year().is_some_and(|y| r.contains(u32::from(y))),
                (Term::Elo(side, r), _) => {
                    let ok = |elo: u16| elo != 0 && r.contains(u32::from(elo));
                    match side {
                        Side::White => ok(row.white_elo),
                        Side::Black => ok(row.black_elo),
                        Side::Both => ok(row.white_elo) && ok(row.black_elo),
                    }
                }
                (Term::Plies(r), _) => row.state == 0 && r.contains(u32::from(row.plies)),
                (Term::Games(numbers), _) => numbers.binary_search(&(u64::from(index) + 1)).is_ok(),
                (Term::Position(_), _) => reached.as_ref().is_none_or(|games| {
                    let number = u64::from(index) + 1;
                    games.binary_search_by_key(&number, |g| g.0).is_ok()
                }),
            })
    }
}

#[path = "filter_names.rs"]
mod names;

#[cfg(test)]
#[path = "filter_tests.rs"]
mod tests;
