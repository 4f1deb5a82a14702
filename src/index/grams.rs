//! The trigram index itself: for each trigram, the files holding it
//! (their numbers, ascending, as gaps in LEB128 bytes), built one file at
//! a time, its content fed in chunks, and then frozen into one buffer; and
//! a [`Query`] answered as a set of file numbers.

#![cfg_attr(not(target_os = "linux"), allow(dead_code))]

#[cfg(test)]
use super::query::gram;
use super::query::{Gram, Query, fold};

/// Trigram values are 24 bits.
const GRAMS: usize = 1 << 24;

/// The slots a builder's table starts with (16 KiB).
const FIRST_SLOTS: usize = 1 << 10;

/// Fibonacci hashing over 24 bits: `g * SPREAD`, modulo 2^24, is a
/// different number for every trigram `g` (`SPREAD` is odd), and its top
/// bits pick a slot; with one slot per trigram, each has its own.
const SPREAD: u32 = 0x9E_3779;

/// The bytes of a list its slot holds itself: in a big tree most
/// trigrams are in a file or two, and their lists fit.
const INLINE: usize = 7;

/// A slot's `len` when its list is in the builder's `lists`.
const SPILLED: u8 = u8::MAX;

/// The postings while files are added, in file-number order. Its memory
/// grows with the distinct trigrams seen: a tree of a few small files
/// costs a few KiB.
pub struct Builder {
    /// Trigram → its list: open addressing with linear probing over a
    /// power of two slots, at most 3/4 of them used until there is one
    /// slot per trigram (then every trigram has its own).
    table: Vec<Slot>,
    /// Slots used.
    used: usize,
    /// The lists too long for their slots.
    lists: Vec<Vec<u8>>,
    files: u32,
    /// The number of the file being fed, plus one (0: none).
    feeding: u32,
    /// The last bytes fed, folded: the trigram window, kept from one
    /// chunk to the next.
    window: u32,
    /// Bytes fed since the file began, up to 2 (a trigram needs 3).
    held: u8,
    /// The trigrams of the file being fed, each once, in the order met:
    /// they join their lists when it is finished, or never if it is
    /// abandoned.
    pending: Vec<Gram>,
    /// One bit per trigram, set for those in `pending` (made when a file
    /// is first fed: 2 MiB).
    seen: Vec<u64>,
}

/// One trigram's place in the table.
#[derive(Clone, Copy, Default)]
struct Slot {
    gram: Gram,
    /// The last file holding `gram`, plus one (0: the slot is empty). A
    /// file is added to the list the first time it meets `gram`, when
    /// `next` is not yet its own number.
    next: u32,
    /// The files holding `gram`, as gaps in LEB128 bytes: the first `len`
    /// bytes here while they fit; past that (`len` is [`SPILLED`]), the
    /// list's number in `lists`, in the first 4.
    bytes: [u8; INLINE],
    len: u8,
}

impl Slot {
    fn list<'a>(&'a self, lists: &'a [Vec<u8>]) -> &'a [u8] {
        match self.len {
            SPILLED => &lists[self.spilled()],
            len => &self.bytes[..usize::from(len)],
        }
    }

    fn spilled(&self) -> usize {
        let [a, b, c, d, ..] = self.bytes;
        u32::from_le_bytes([a, b, c, d]) as usize
    }

    /// Write `gap` (at least 1) as LEB128.
    fn push_gap(&mut self, lists: &mut Vec<Vec<u8>>, mut gap: u32) {
        let (mut leb, mut n) = ([0; 5], 0);
        while gap >= 0x80 {
            leb[n] = (gap as u8) | 0x80;
            gap >>= 7;
            n += 1;
        }
        leb[n] = gap as u8;
        self.extend(lists, &leb[..=n]);
    }

    /// Add `more` to the list, which moves to `lists` when it no longer
    /// fits here.
    fn extend(&mut self, lists: &mut Vec<Vec<u8>>, more: &[u8]) {
        let len = usize::from(self.len);
        if self.len == SPILLED {
            lists[self.spilled()].extend_from_slice(more);
        } else if len + more.len() <= INLINE {
            self.bytes[len..len + more.len()].copy_from_slice(more);
            self.len += more.len() as u8;
        } else {
            let mut list = Vec::with_capacity((len + more.len()).max(16));
            list.extend_from_slice(&self.bytes[..len]);
            list.extend_from_slice(more);
            self.bytes[..4].copy_from_slice(&(lists.len() as u32).to_le_bytes());
            self.len = SPILLED;
            lists.push(list);
        }
    }
}

impl Default for Builder {
    fn default() -> Self {
        Self {
            table: vec![Slot::default(); FIRST_SLOTS],
            used: 0,
            lists: Vec::new(),
            files: 0,
            feeding: 0,
            window: 0,
            held: 0,
            pending: Vec::new(),
            seen: Vec::new(),
        }
    }
}

impl Builder {
    /// Begin the next file, numbered in order from 0: its content is what
    /// [`feed`](Self::feed) is given until [`finish`](Self::finish) (or
    /// the next file).
    pub fn begin(&mut self) -> u32 {
        self.finish();
        let id = self.files;
        self.files += 1;
        self.feeding = self.files;
        self.window = 0;
        self.held = 0;
        id
    }

    /// The distinct trigrams of the bytes fed since [`begin`](Self::begin):
    /// the entries the file would cost the index.
    pub fn distinct(&self) -> usize {
        self.pending.len()
    }

    /// The next bytes of the file begun: its trigrams are those of all the
    /// bytes fed since [`begin`](Self::begin), as one, however they were
    /// cut. With no file begun, the bytes count for none.
    pub fn feed(&mut self, bytes: &[u8]) {
        debug_assert!(self.feeding != 0, "bytes fed with no file begun");
        if self.feeding == 0 {
            return;
        }
        let mut rest = bytes;
        while self.held < 2 {
            let Some((&b, tail)) = rest.split_first() else {
                return;
            };
            self.window = (self.window << 8) | u32::from(fold(b));
            self.held += 1;
            rest = tail;
        }
        if self.seen.is_empty() {
            self.seen = vec![0; GRAMS / 64];
        }
        let mut window = self.window;
        for &b in rest {
            window = ((window << 8) | u32::from(fold(b))) & 0x00FF_FFFF;
            let (word, bit) = ((window >> 6) as usize, 1u64 << (window & 63));
            if self.seen[word] & bit == 0 {
                self.seen[word] |= bit;
                self.pending.push(window);
            }
        }
        self.window = window;
    }

    /// The end of the file begun: its trigrams join the index, and what is
    /// fed next counts for no file.
    pub fn finish(&mut self) {
        if self.feeding != 0 {
            let pending = std::mem::take(&mut self.pending);
            for &g in &pending {
                self.note(g);
            }
            self.pending = pending;
        }
        self.abandon();
    }

    /// The end of the file begun, which holds no trigram in the index: the
    /// caller keeps it a candidate.
    pub fn abandon(&mut self) {
        for &g in &self.pending {
            self.seen[(g >> 6) as usize] &= !(1u64 << (g & 63));
        }
        self.pending.clear();
        self.feeding = 0;
    }

    /// Add the next file with its whole content.
    #[cfg(test)]
    pub fn add(&mut self, content: &[u8]) -> u32 {
        let id = self.begin();
        self.feed(content);
        self.finish();
        id
    }

    /// Files added so far.
    pub fn files(&self) -> u32 {
        self.files
    }

    /// Add a file whose content is not known: it holds no trigram here,
    /// and the caller keeps it a candidate (the build begins each file and
    /// marks one it could not read; the tests number files this way).
    #[cfg(test)]
    pub fn skip(&mut self) -> u32 {
        self.finish();
        self.files += 1;
        self.files - 1
    }

    /// The files of `later` after this builder's, numbered on from them.
    pub fn append(&mut self, later: Builder) {
        self.finish();
        if self.files == 0 {
            *self = later;
            self.finish();
            return;
        }
        // The table takes `later`'s trigrams in the order of their slots,
        // near one another: grown while they come, it would hold them in
        // a few long runs.
        self.reserve(later.used);
        let shift = self.files;
        let mut lists = later.lists;
        for theirs in later.table.iter().filter(|s| s.next != 0) {
            let taken;
            let bytes = match theirs.len {
                SPILLED => {
                    taken = std::mem::take(&mut lists[theirs.spilled()]);
                    &taken[..]
                }
                len => &theirs.bytes[..usize::from(len)],
            };
            let at = self.find(theirs.gram);
            let mine = &mut self.table[at];
            if mine.next == 0 {
                *mine = Slot {
                    gram: theirs.gram,
                    ..Slot::default()
                };
                self.used += 1;
            }
            // The first gap counts from file 0 in `later`: re-count it
            // from this builder's last file holding the trigram (none: 0).
            let (first, rest) = read_gap(bytes);
            mine.push_gap(&mut self.lists, first + shift - mine.next);
            mine.extend(&mut self.lists, rest);
            mine.next = theirs.next + shift;
        }
        self.files += later.files;
    }

    pub fn freeze(self) -> Postings {
        let Builder {
            mut table,
            lists,
            files,
            ..
        } = self;
        table.retain(|s| s.next != 0);
        table.shrink_to_fit();
        table.sort_unstable_by_key(|s| s.gram);
        let keys: Vec<Gram> = table.iter().map(|s| s.gram).collect();
        let mut offsets = Vec::with_capacity(keys.len() + 1);
        let total = table.iter().map(|s| s.list(&lists).len()).sum();
        let mut bytes = Vec::with_capacity(total);
        for slot in &table {
            offsets.push(bytes.len());
            bytes.extend_from_slice(slot.list(&lists));
        }
        offsets.push(bytes.len());
        Postings {
            keys,
            offsets,
            bytes,
            files,
        }
    }

    /// Add the file being fed to the list of `g`, once.
    #[inline]
    fn note(&mut self, g: Gram) {
        let at = self.find(g);
        let slot = &mut self.table[at];
        if slot.next == self.feeding {
            return;
        }
        let new = slot.next == 0;
        if new {
            *slot = Slot {
                gram: g,
                ..Slot::default()
            };
        }
        // A new list's first gap counts from 0.
        slot.push_gap(&mut self.lists, self.feeding - slot.next);
        slot.next = self.feeding;
        if new {
            self.used += 1;
            self.reserve(0);
        }
    }

    /// The slot of `g`, or the empty slot where it goes.
    #[inline]
    fn find(&self, g: Gram) -> usize {
        let mask = self.table.len() - 1;
        let mut at = home(g, self.table.len());
        loop {
            let slot = &self.table[at];
            if slot.gram == g || slot.next == 0 {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    /// Make the table hold `more` trigrams besides its own at most 3/4
    /// full (or give it one slot per trigram).
    fn reserve(&mut self, more: usize) {
        let mut slots = self.table.len();
        while (self.used + more) * 4 > slots * 3 && slots < GRAMS {
            slots *= 2;
        }
        if slots == self.table.len() {
            return;
        }
        let old = std::mem::replace(&mut self.table, vec![Slot::default(); slots]);
        for slot in old.into_iter().filter(|s| s.next != 0) {
            let at = self.find(slot.gram);
            self.table[at] = slot;
        }
    }
}

/// The first slot `g` tries in a table of `slots` (a power of two, at most
/// [`GRAMS`]).
#[inline]
fn home(g: Gram, slots: usize) -> usize {
    (g.wrapping_mul(SPREAD << 8) >> (32 - slots.trailing_zeros())) as usize
}

/// The first gap of `bytes` and what follows it.
fn read_gap(bytes: &[u8]) -> (u32, &[u8]) {
    let (mut gap, mut shift) = (0u32, 0);
    for (i, &b) in bytes.iter().enumerate() {
        gap |= u32::from(b & 0x7F) << shift;
        shift += 7;
        if b & 0x80 == 0 {
            return (gap, &bytes[i + 1..]);
        }
    }
    (gap, &[])
}

/// The frozen index.
pub struct Postings {
    keys: Vec<Gram>,
    offsets: Vec<usize>,
    bytes: Vec<u8>,
    files: u32,
}

/// A set of file numbers, one bit each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bits(Vec<u64>);

impl Bits {
    pub fn none(files: u32) -> Self {
        Self(vec![0; (files as usize).div_ceil(64)])
    }

    pub fn contains(&self, id: u32) -> bool {
        self.0
            .get((id / 64) as usize)
            .is_some_and(|w| w & (1 << (id % 64)) != 0)
    }

    pub fn insert(&mut self, id: u32) {
        if let Some(w) = self.0.get_mut((id / 64) as usize) {
            *w |= 1 << (id % 64);
        }
    }

    fn and(&mut self, other: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
    }

    fn or(&mut self, other: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
}

impl Postings {
    /// Bytes held.
    pub fn size(&self) -> usize {
        self.bytes.len() + self.keys.len() * 4 + self.offsets.len() * std::mem::size_of::<usize>()
    }

    pub fn files(&self) -> u32 {
        self.files
    }

    /// The files that may hold a match of `query`; `None`: every file.
    pub fn answer(&self, query: &Query) -> Option<Bits> {
        match query {
            Query::All => None,
            Query::Gram(g) => Some(self.list(*g)),
            Query::And(parts) => {
                let mut acc: Option<Bits> = None;
                for part in parts {
                    if let Some(bits) = self.answer(part) {
                        match &mut acc {
                            None => acc = Some(bits),
                            Some(acc) => acc.and(&bits),
                        }
                    }
                }
                acc
            }
            Query::Or(parts) => {
                let mut acc = Bits::none(self.files);
                for part in parts {
                    acc.or(&self.answer(part)?);
                }
                Some(acc)
            }
        }
    }

    /// The files holding `g`.
    fn list(&self, g: Gram) -> Bits {
        let mut bits = Bits::none(self.files);
        let Ok(at) = self.keys.binary_search(&g) else {
            return bits;
        };
        let bytes = &self.bytes[self.offsets[at]..self.offsets[at + 1]];
        let (mut next, mut gap, mut shift) = (0u32, 0u32, 0);
        for &b in bytes {
            gap |= u32::from(b & 0x7F) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                next += gap;
                bits.insert(next - 1);
                (gap, shift) = (0, 0);
            }
        }
        bits
    }
}

/// The trigrams of `content` as the index reads it, for tests.
#[cfg(test)]
pub fn grams_of(content: &[u8]) -> std::collections::HashSet<Gram> {
    content
        .windows(3)
        .map(|w| gram(fold(w[0]), fold(w[1]), fold(w[2])))
        .collect()
}

#[cfg(test)]
#[path = "../../tests/unit/index/grams.rs"]
mod tests;
