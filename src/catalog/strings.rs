//! Interned strings: a file of a million games names a few hundred thousand players, events
//! and sites, so each distinct value is kept once, with its folded form (accents and case
//! gone) beside it for matching, and rows hold 32-bit ids.
//!
//! Interning is shared among threads in two steps: each indexing thread gives the strings
//! of its chunk of the file ids of the chunk ([`Local`]: hashed and deduplicated on every
//! core), then the loader's thread gives each chunk string its id in the whole file, in the
//! order the rows first use them ([`Interner::intern_local`]: one lookup per distinct
//! string of a chunk, with the hash already made, instead of hashing every name of every
//! game on one thread; folded there, once per distinct string of the file). It sends each batch's new strings ([`Strings`], a piece of the table) with
//! the rows; the catalog appends them to its own [`Strings`], so ids agree on both sides
//! without sharing a map between threads.

use std::fmt;
use std::hash::BuildHasher;
use std::sync::LazyLock;

use hashbrown::{DefaultHashBuilder, HashTable};

use super::id_table::IdTable;

/// A table of distinct strings by id, each with its folded form. Id 0 is the unknown value
/// (a missing tag, empty or `?`).
#[derive(Debug, Clone, Default)]
pub struct Strings {
    text: String,
    /// End of each string in `text`, by id (id 0's included). 32 bits: an [`Interner`]
    /// gives no more than 4 GiB of text.
    ends: Vec<u32>,
    /// Every folded string, one after the other: a filter searches them all at once.
    folded: String,
    folded_ends: Vec<u32>,
    /// The letters and digits each folded string has (see [`letters`]), by id: a word
    /// with more letters missing from a string than it may have typos cannot match it.
    letters: Vec<u32>,
}

impl Strings {
    /// A table holding only the unknown value (id 0).
    pub(crate) fn new() -> Self {
        let mut table = Strings::default();
        table.push("", "");
        table
    }

    /// An empty table (not even id 0) with room for `strings` strings of `bytes` bytes.
    fn with_room(strings: usize, bytes: usize) -> Self {
        Strings {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(strings),
            folded: String::with_capacity(bytes),
            folded_ends: Vec::with_capacity(strings),
            letters: Vec::with_capacity(strings),
        }
    }

    fn push(&mut self, text: &str, folded: &str) {
        self.text.push_str(text);
        self.ends.push(self.text.len() as u32);
        self.folded.push_str(folded);
        self.folded_ends.push(self.folded.len() as u32);
        self.letters.push(letters(folded.as_bytes()));
    }

    /// [`Strings::push`] for ASCII `text`, folded here (in lower case) without a copy of
    /// its own.
    fn push_ascii(&mut self, text: &str) {
        debug_assert!(text.is_ascii());
        self.text.push_str(text);
        self.ends.push(self.text.len() as u32);
        let start = self.folded.len();
        self.folded.push_str(text);
        let folded = &mut self.folded[start..];
        folded.make_ascii_lowercase();
        self.letters.push(letters(folded.as_bytes()));
        self.folded_ends.push(self.folded.len() as u32);
    }

    /// Adds `text` and gives its id (0, the unknown value, for an empty text or `?`),
    /// for a row changed after the loader is done: the loader's ids are not looked up,
    /// so a text it had gets a second id, which reads, sorts and filters the same.
    pub(crate) fn add(&mut self, text: &str) -> u32 {
        if text.is_empty() || text == "?" {
            return 0;
        }
        self.push(text, &fold(text));
        (self.len() - 1) as u32
    }

    /// Number of strings, id 0 included.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the table is empty (never, once made with `new`).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The string `id` as written (empty for an unknown id).
    pub fn get(&self, id: u32) -> &str {
        slice(&self.text, &self.ends, id)
    }

    /// The string `id` folded: without accents, in lower case (see [`fold`]).
    pub fn folded(&self, id: u32) -> &str {
        slice(&self.folded, &self.folded_ends, id)
    }

    /// All the folded strings, one after the other.
    pub(crate) fn folded_text(&self) -> &str {
        &self.folded
    }

    /// Where each folded string ends in [`Strings::folded_text`], by id.
    pub(crate) fn folded_ends(&self) -> &[u32] {
        &self.folded_ends
    }

    /// The letters of folded string `id` (see [`letters`]).
    pub(crate) fn letters(&self, id: u32) -> u32 {
        self.letters.get(id as usize).copied().unwrap_or(0)
    }

    /// Appends the strings of `more` (a piece made by an [`Interner`] for this table).
    pub(crate) fn append(&mut self, more: Strings) {
        let (base, folded_base) = (self.text.len() as u32, self.folded.len() as u32);
        self.text.push_str(&more.text);
        self.folded.push_str(&more.folded);
        self.ends.extend(more.ends.iter().map(|e| e + base));
        self.folded_ends
            .extend(more.folded_ends.iter().map(|e| e + folded_base));
        self.letters.extend_from_slice(&more.letters);
    }

    /// Gives back the room kept for more strings (once every string is in).
    pub(crate) fn shrink(&mut self) {
        self.text.shrink_to_fit();
        self.folded.shrink_to_fit();
        self.ends.shrink_to_fit();
        self.folded_ends.shrink_to_fit();
        self.letters.shrink_to_fit();
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.text.capacity()
            + self.folded.capacity()
            + (self.ends.capacity() + self.folded_ends.capacity() + self.letters.capacity()) * 4
    }
}

fn slice<'a>(text: &'a str, ends: &[u32], id: u32) -> &'a str {
    let id = id as usize;
    let Some(&end) = ends.get(id) else {
        return "";
    };
    let start = if id == 0 { 0 } else { ends[id - 1] };
    text.get(start as usize..end as usize).unwrap_or_default()
}

/// The letters (`a`–`z`, a bit each) and digits (in six groups of bits) of folded text,
/// as a set.
pub(crate) fn letters(folded: &[u8]) -> u32 {
    folded
        .iter()
        .fold(0, |set, &b| set | LETTER_BITS[usize::from(b)])
}

/// The bit of each byte in [`letters`]'s set (0 for what is neither letter nor digit): a
/// lookup per byte, as every string of a large file goes through it.
const LETTER_BITS: [u32; 256] = {
    let mut bits = [0; 256];
    let mut b = 0;
    while b < 256 {
        bits[b] = match b as u8 {
            c @ b'a'..=b'z' => 1 << (c - b'a'),
            c @ b'0'..=b'9' => 1 << (26 + (c - b'0') % 6),
            _ => 0,
        };
        b += 1;
    }
    bits
};

/// How many lookups ahead [`Interner::intern_all`] fetches the table's slots: enough
/// for their trips to memory to overlap, few enough that they are still in the cache
/// when their turn comes.
const AHEAD: usize = 8;

/// Text an [`Interner`] gives a table at most (so that 32-bit offsets reach it); a string
/// past it reads as unknown.
const MAX_TEXT: usize = u32::MAX as usize / 2;

/// `text` without accents and in lower case, as names are matched: `Ljubojević` →
/// `ljubojevic`, `Müller` → `muller`; other scripts are transliterated to ASCII
/// (`Карлсен` → `karlsen`) by the `deunicode` crate.
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        let mut folded = deunicode::deunicode(text);
        folded.make_ascii_lowercase();
        folded
    }
}

/// The hasher of every table of strings: a hash made on one thread finds the string in a
/// table of another.
static HASHER: LazyLock<DefaultHashBuilder> = LazyLock::new(DefaultHashBuilder::default);

fn hash_of(text: &str) -> u64 {
    HASHER.hash_one(text)
}

/// The distinct strings of one kind in a chunk of the file, on the indexing thread's side:
/// ids from 1 (0 is the unknown value), each string with its hash, ready for
/// [`Interner::intern_local`]. (Not folded here: most are already in the file's table by
/// the time the chunk comes, and folding is done once, for those that are not.)
#[derive(Default)]
pub(crate) struct Local {
    ids: HashTable<u32>,
    text: String,
    /// End of each string in `text`, by id (id 0's included).
    ends: Vec<u32>,
    hashes: Vec<u64>,
    /// The id [`Local::intern`] gave last (0: none yet).
    last: u32,
}

impl fmt::Debug for Local {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Local")
            .field("strings", &self.len())
            .finish()
    }
}

impl Local {
    /// A table with room for `strings` strings of `bytes` bytes in all.
    pub(crate) fn with_room(strings: usize, bytes: usize) -> Self {
        let mut ends = Vec::with_capacity(strings + 1);
        ends.push(0);
        let mut hashes = Vec::with_capacity(strings + 1);
        hashes.push(0);
        Local {
            ids: HashTable::with_capacity(strings),
            text: String::with_capacity(bytes),
            ends,
            hashes,
            last: 0,
        }
    }

    /// Empties the table, keeping its memory (for the next chunk).
    pub(crate) fn clear(&mut self) {
        self.ids.clear();
        self.text.clear();
        self.ends.truncate(1);
        self.hashes.truncate(1);
        self.last = 0;
    }

    /// String `id` (empty for 0).
    fn get(&self, id: u32) -> &str {
        slice(&self.text, &self.ends, id)
    }

    /// The chunk id of `text`: 0 for an unknown value (empty or `?`).
    #[inline]
    pub(crate) fn intern(&mut self, text: &str) -> u32 {
        if text.is_empty() || text == "?" {
            return 0;
        }
        // Games come in runs of one event and one site: the last string, compared
        // without hashing, is most often the one.
        if self.last != 0 && self.get(self.last) == text {
            return self.last;
        }
        let hash = hash_of(text);
        let (all, ends) = (&self.text, &self.ends);
        if let Some(&id) = self.ids.find(hash, |&id| slice(all, ends, id) == text) {
            self.last = id;
            return id;
        }
        let id = self.ends.len() as u32;
        self.last = id;
        self.text.push_str(text);
        self.ends.push(self.text.len() as u32);
        self.hashes.push(hash);
        let hashes = &self.hashes;
        self.ids.insert_unique(hash, id, |&id| hashes[id as usize]);
        id
    }

    /// Strings held, id 0 included.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Bytes of text held (to keep a chunk's tables small).
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }
}

/// Gives each distinct string an id, on the loader's side; the strings new since the last
/// [`Interner::take`] go to the catalog with the batch.
///
/// Memory: the strings are kept one after the other in one text, and the hash table holds
/// only their ids and half their hashes (a `HashMap<Box<str>, u32>` cost an allocation and
/// a 24-byte entry per string: some 60 bytes for a name of 12, which for the two million
/// distinct names of a large database was more than the catalog's own tables).
///
/// Time: the table is as large as the file has distinct names, far larger than the
/// processor's caches, so a lookup costs the memory reads it makes. The half hash beside
/// each id settles most lookups of a new string (most of them are new) without reading its
/// text, and lets the table grow without reading any string or hash elsewhere. A chunk's
/// strings are looked up together ([`Interner::intern_all`]), the table's slots of the
/// next few fetched while one is looked up (see [`IdTable`]): with one lookup after the
/// other, each waited for its own trip to memory.
pub(crate) struct Interner {
    /// Ids by the high half of their hash.
    ids: IdTable,
    /// Every string interned, one after the other; `ends[id - 1]` is where string `id`
    /// ends.
    text: String,
    ends: Vec<u32>,
    next: u32,
    fresh: Strings,
    /// Bytes of text and folded text given so far (see [`MAX_TEXT`]).
    given: usize,
}

impl fmt::Debug for Interner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Interner")
            .field("next", &self.next)
            .finish()
    }
}

impl Interner {
    pub(crate) fn new() -> Self {
        Interner {
            ids: IdTable::new(),
            text: String::new(),
            ends: Vec::new(),
            next: 1,
            fresh: Strings::default(),
            given: 0,
        }
    }

    /// String `id` (from 1) as interned.
    fn text_of<'a>(text: &'a str, ends: &[u32], id: u32) -> &'a str {
        let k = id as usize - 1;
        let start = if k == 0 { 0 } else { ends[k - 1] as usize };
        &text[start..ends[k] as usize]
    }

    /// The id of `text`: 0 for an unknown value (empty or `?`), else a new id the first
    /// time `text` comes.
    #[cfg(test)]
    pub(crate) fn intern(&mut self, text: &str) -> u32 {
        if text.is_empty() || text == "?" {
            return 0;
        }
        self.intern_hashed(text, hash_of(text))
    }

    /// The id of string `id` of a chunk's `local` table (0 for 0).
    #[inline]
    pub(crate) fn intern_local(&mut self, local: &Local, id: u32) -> u32 {
        if id == 0 {
            return 0;
        }
        let text = local.get(id);
        let hash = local.hashes[id as usize];
        self.intern_hashed(text, hash)
    }

    /// The ids of every string of a chunk's `local` table into `ids` (by chunk id; 0 for
    /// 0), in id order: as [`Interner::intern_local`] for each, the table's slots of the
    /// lookups a few places ahead fetched meanwhile.
    pub(crate) fn intern_all(&mut self, local: &Local, ids: &mut [u32]) {
        let tag = |id: usize| (local.hashes[id] >> 32) as u32;
        let n = local.len().min(ids.len());
        for (id, slot) in ids.iter_mut().enumerate().take(n).skip(1) {
            if id + AHEAD < n {
                self.ids.prefetch(tag(id + AHEAD));
            }
            *slot = self.intern_hashed(local.get(id as u32), local.hashes[id]);
        }
    }

    fn intern_hashed(&mut self, text: &str, hash: u64) -> u32 {
        let tag = (hash >> 32) as u32;
        let (all, ends) = (&self.text, &self.ends);
        let vacant = match self
            .ids
            .find(tag, |id| Self::text_of(all, ends, id) == text)
        {
            Ok(id) => return id,
            Err(vacant) => vacant,
        };
        // Names are nearly all ASCII: folded as they are copied.
        let folded = (!text.is_ascii()).then(|| fold(text));
        self.given += text.len() + folded.as_ref().map_or(text.len(), String::len);
        if self.given > MAX_TEXT {
            return 0;
        }
        let id = self.next;
        self.next += 1;
        self.text.push_str(text);
        self.ends.push(self.text.len() as u32);
        self.ids.insert(vacant, tag, id);
        match folded {
            None => self.fresh.push_ascii(text),
            Some(folded) => self.fresh.push(text, &folded),
        }
        id
    }

    /// The strings interned since the last call, in id order.
    pub(crate) fn take(&mut self) -> Strings {
        // The next piece gets room for as many as this one (pieces are alike in size),
        // instead of growing from nothing.
        let room = Strings::with_room(self.fresh.len(), self.fresh.text.len());
        std::mem::replace(&mut self.fresh, room)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_drops_accents_and_case() {
        assert_eq!(fold("Ljubojević, Ljubomir"), "ljubojevic, ljubomir");
        assert_eq!(fold("Müller"), "muller");
        assert_eq!(fold("CARLSEN"), "carlsen");
        assert_eq!(fold("Карлсен"), "karlsen");
    }

    #[test]
    fn a_chunk_gives_each_string_one_id() {
        let mut local = Local::with_room(4, 64);
        let a = local.intern("Wijk aan Zee");
        assert_eq!(local.intern("Wijk aan Zee"), a);
        let b = local.intern("Linares");
        assert_eq!(local.intern("Wijk aan Zee"), a);
        assert_eq!(local.intern("Linares"), b);
        assert_eq!(local.intern("?"), 0);
        assert_eq!(local.intern("Linares"), b);
        assert_eq!(local.intern("Linare"), 3);
        assert_eq!((a, b, local.len()), (1, 2, 4));
        assert_eq!(local.get(b), "Linares");
    }

    /// A chunk's strings asked for together get the ids they get one at a time, with the
    /// file's table growing meanwhile and strings of earlier chunks coming again.
    #[test]
    fn a_whole_chunk_gets_the_ids_of_one_lookup_at_a_time() {
        let (mut together, mut one_by_one) = (Interner::new(), Interner::new());
        let mut table = Strings::new();
        for chunk in 0..6 {
            let mut local = Local::with_room(16, 256);
            for k in 0..3000 {
                // Half of each chunk's names were in the chunk before.
                local.intern(&format!("Player {}", (chunk * 1500 + k) % 7919));
            }
            let mut ids = vec![u32::MAX; local.len()];
            together.intern_all(&local, &mut ids);
            let expected: Vec<u32> = (0..local.len() as u32)
                .map(|id| one_by_one.intern_local(&local, id))
                .collect();
            assert_eq!(ids[1..], expected[1..], "chunk {chunk}");
            table.append(together.take());
            for (id, &file_id) in ids.iter().enumerate().skip(1) {
                assert_eq!(table.get(file_id), local.get(id as u32));
            }
        }
        assert_eq!(table.len(), 7920);
    }

    #[test]
    fn ids_agree_across_the_pieces_sent() {
        let mut interner = Interner::new();
        let mut table = Strings::new();
        assert_eq!(interner.intern("?"), 0);
        assert_eq!(interner.intern(""), 0);
        let a = interner.intern("Carlsen, Magnus");
        let b = interner.intern("Anand, Viswanathan");
        assert_eq!(interner.intern("Carlsen, Magnus"), a);
        table.append(interner.take());
        let c = interner.intern("Ljubojević");
        table.append(interner.take());
        assert_eq!(table.len(), 4);
        assert_eq!(table.get(a), "Carlsen, Magnus");
        assert_eq!(table.get(b), "Anand, Viswanathan");
        assert_eq!(table.get(c), "Ljubojević");
        assert_eq!(table.folded(c), "ljubojevic");
        assert_eq!(table.get(0), "");
        assert_eq!(table.get(99), "");
    }
}
