//! The hash table of the file-wide [`Interner`](super::strings::Interner): string ids by
//! hash, in open addressing with linear probing, each slot one `u64` holding the id and
//! the high half of the string's hash (its tag).
//!
//! Why not hashbrown's `HashTable`, as the chunks' tables use: this table is as large as
//! the file has distinct names (megabytes, past the processor's caches), so a lookup costs
//! its trips to memory, and most of a chunk's strings are new to it. The loader knows all
//! of a chunk's strings, with their hashes, at once; with the slot of a lookup known from
//! its hash ([`IdTable::prefetch`]), the lookups a few places ahead are fetched while one
//! is made, and their trips to memory overlap instead of following each other.
//! hashbrown does not say where a hash's bucket is. With linear probing a lookup, and the
//! insertion of a new string, reads one cache line nearly always.

/// Ids (from 1) by the high half of their string's hash.
pub(super) struct IdTable {
    /// `id << 32 | tag` per slot, 0 when empty (no id is 0); a power of two long.
    slots: Vec<u64>,
    len: usize,
}

/// Slots in a new table.
const FIRST_SLOTS: usize = 1 << 10;

impl IdTable {
    pub(super) fn new() -> Self {
        IdTable {
            slots: vec![0; FIRST_SLOTS],
            len: 0,
        }
    }

    /// Where the probe for `tag` starts: its low bits (the hash's bits are all alike, and
    /// with the low ones, doubling the table moves each slot's entries to two places only,
    /// so growing writes the new table nearly in order).
    #[inline]
    fn home(&self, tag: u32) -> usize {
        tag as usize & (self.capacity() - 1)
    }

    /// Slots in the table.
    #[inline]
    fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Asks the processor to fetch the slots a lookup of `tag` starts with, without
    /// waiting for them (a hint: nothing is read, whatever the table becomes meanwhile).
    #[inline]
    pub(super) fn prefetch(&self, tag: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot = self.slots.as_ptr().wrapping_add(self.home(tag));
            // SAFETY: a prefetch reads nothing and faults on no address; `slot` is in the
            // table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = tag;
    }

    /// The first id with tag `tag` that `is` accepts (it compares the strings), else the
    /// empty slot where [`IdTable::insert`] puts a new one.
    #[inline]
    pub(super) fn find(&self, tag: u32, mut is: impl FnMut(u32) -> bool) -> Result<u32, Vacant> {
        let mask = self.capacity() - 1;
        let mut at = self.home(tag);
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return Err(Vacant(at));
            }
            let id = (slot >> 32) as u32;
            if slot as u32 == tag && is(id) {
                return Ok(id);
            }
            at = (at + 1) & mask;
        }
    }

    /// Puts `id` (not 0) in the slot [`IdTable::find`] gave for `tag`, with nothing
    /// inserted since.
    pub(super) fn insert(&mut self, Vacant(at): Vacant, tag: u32, id: u32) {
        debug_assert!(id != 0 && self.slots[at] == 0);
        self.slots[at] = u64::from(id) << 32 | u64::from(tag);
        self.len += 1;
        // At most half full: a lookup then reads two or three slots on average, in one
        // cache line nearly always.
        if self.len * 2 > self.capacity() {
            self.grow();
        }
    }

    #[expect(
        clippy::slow_vector_initialization,
        reason = "writing the zeros is the point: see below"
    )]
    fn grow(&mut self) {
        // Written through before use, not `vec![0; n]`: that asks the system for zeroed
        // pages, which map one shared zero page on the first read (growing reads each slot
        // before writing it) and are copied on the first write, each copy stopping the
        // other threads' processors to forget the old mapping. Writing first costs one
        // fault a page.
        let mut twice = Vec::with_capacity(self.capacity() * 2);
        twice.resize(self.capacity() * 2, 0);
        let old = std::mem::replace(&mut self.slots, twice);
        let mask = self.capacity() - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let mut at = self.home(slot as u32);
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }

    /// Ids held.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.len
    }
}

/// An empty slot, found by [`IdTable::find`].
pub(super) struct Vacant(usize);

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    /// Interns `keys` (each a tag and a string number) in a table, against a `HashMap`
    /// doing the same: the same ids, each key found again, every key distinct.
    fn check(keys: &[(u32, u16)]) {
        let mut table = IdTable::new();
        // What each id stands for, as the interner's text would tell.
        let mut strings: Vec<(u32, u16)> = vec![(0, 0)];
        let mut model: HashMap<(u32, u16), u32> = HashMap::new();
        for &(tag, key) in keys {
            table.prefetch(tag);
            let found = table.find(tag, |id| strings[id as usize] == (tag, key));
            let id = match found {
                Ok(id) => id,
                Err(vacant) => {
                    let id = strings.len() as u32;
                    strings.push((tag, key));
                    table.insert(vacant, tag, id);
                    id
                }
            };
            let next = model.len() as u32 + 1;
            assert_eq!(id, *model.entry((tag, key)).or_insert(next));
        }
        assert_eq!(table.len(), model.len());
        for (&(tag, key), &id) in &model {
            let found = table.find(tag, |id| strings[id as usize] == (tag, key));
            assert_eq!(found.ok(), Some(id));
        }
    }

    proptest! {
        /// Tags from a small range collide often (same tag, different strings; runs of
        /// neighbouring homes); the table grows several times over 3,000 keys.
        #[test]
        fn ids_agree_with_a_map(keys in prop::collection::vec((0u32..64, 0u16..8), 0..3000)) {
            check(&keys);
        }

        #[test]
        fn ids_agree_with_a_map_for_any_tag(keys in prop::collection::vec((any::<u32>(), 0u16..2), 0..3000)) {
            check(&keys);
        }
    }

    /// Tags whose homes are the last slots wrap to the first ones.
    #[test]
    fn probes_wrap_around_the_end() {
        let last = FIRST_SLOTS as u32 - 1;
        let keys: Vec<(u32, u16)> = (0..20).map(|k| (last, k)).chain([(0, 0), (1, 0)]).collect();
        check(&keys);
    }
}
