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
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::index::query::plain;

    #[test]
    fn a_query_finds_the_files_holding_its_trigrams() {
        let mut b = Builder::default();
        let files: [&[u8]; 4] = [b"fn main() {}", b"let needle = 1;", b"NEEDLE\0x", b""];
        for f in files {
            b.add(f);
        }
        b.skip();
        let p = b.freeze();
        let q = plain;
        let ids = |bits: Option<Bits>| {
            bits.map(|b| {
                (0..p.files())
                    .filter(|&i| b.contains(i))
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(ids(p.answer(&q("needle"))), Some(vec![1, 2]));
        assert_eq!(ids(p.answer(&q("main|needle"))), Some(vec![0, 1, 2]));
        assert_eq!(ids(p.answer(&q(r"E\x00x"))), Some(vec![2]));
        assert_eq!(ids(p.answer(&q("absent"))), Some(vec![]));
        assert_eq!(p.answer(&q("a.")), None);
    }

    #[test]
    fn builders_appended_number_on() {
        let mut a = Builder::default();
        let mut b = Builder::default();
        for i in 0..300u32 {
            let builder = if i < 150 { &mut a } else { &mut b };
            builder.add(if i % 7 == 0 { b"xyz" } else { b"abc" });
        }
        a.append(b);
        let p = a.freeze();
        let bits = p.list(gram(b'x', b'y', b'z'));
        let ids: Vec<u32> = (0..300).filter(|&i| bits.contains(i)).collect();
        assert_eq!(ids, (0..300).filter(|i| i % 7 == 0).collect::<Vec<_>>());
    }

    #[test]
    fn gaps_round_trip_past_one_byte() {
        let mut b = Builder::default();
        for i in 0..1000u32 {
            b.add(if i % 300 == 0 { b"xyz" } else { b"" });
        }
        let p = b.freeze();
        let bits = p.list(gram(b'x', b'y', b'z'));
        let ids: Vec<u32> = (0..1000).filter(|&i| bits.contains(i)).collect();
        assert_eq!(ids, vec![0, 300, 600, 900]);
    }

    #[test]
    fn a_file_of_0_1_or_2_bytes_holds_no_trigram() {
        let files: [(Option<&[u8]>, Vec<usize>); 8] = [
            (Some(b""), vec![]),
            (Some(b"a"), vec![0, 1]),
            (Some(b"ab"), vec![1]),
            // Fed a byte at a time.
            (Some(b"abc"), vec![1, 2]),
            // No trigram across files: no "xyz".
            (Some(b"xy"), vec![]),
            (Some(b"z"), vec![]),
            // Folded: "a\nb".
            (Some(b"A\0B"), vec![1]),
            (Some(b"d"), vec![]),
        ];
        let whole: Vec<_> = files.iter().map(|(content, _)| *content).collect();
        let expected = BTreeMap::from([
            (gram(b'a', b'b', b'c'), vec![3]),
            (gram(b'a', b'\n', b'b'), vec![6]),
        ]);
        assert_eq!(reference(&whole), expected);
        assert_eq!(lists(&build(&files, &[])), expected);
        assert_eq!(lists(&build(&files, &[1, 3, 4, 5, 7])), expected);
    }

    #[test]
    fn an_abandoned_file_holds_no_trigram() {
        let mut b = Builder::default();
        b.add(b"abcd");
        b.begin();
        b.feed(b"abcxyz");
        assert_eq!(b.distinct(), 4);
        b.abandon();
        // What the next file holds is its own, seen afresh.
        let next = b.begin();
        b.feed(b"xyzxyz");
        assert_eq!(b.distinct(), 3);
        b.finish();
        let all = lists(&b.freeze());
        assert_eq!(all[&gram(b'a', b'b', b'c')], vec![0]);
        assert_eq!(all[&gram(b'x', b'y', b'z')], vec![next]);
        assert!(!all.contains_key(&gram(b'c', b'x', b'y')));
    }

    #[test]
    fn gaps_past_one_byte_across_builders() {
        let mut a = Builder::default();
        a.add(b"xyz");
        for _ in 0..199 {
            a.add(b"");
        }
        let mut b = Builder::default();
        for _ in 0..20_000 {
            b.skip();
        }
        b.add(b"xyzqqq");
        a.append(b);
        let all = lists(&a.freeze());
        assert_eq!(all[&gram(b'x', b'y', b'z')], vec![0, 20_200]);
        assert_eq!(all[&gram(b'q', b'q', b'q')], vec![20_200]);
    }

    #[test]
    fn lists_past_their_slots_bytes() {
        // Gaps of 1, 2 and 3 bytes: the list moves out of its slot at the
        // 6th file, in `a`, or when `b` is appended.
        let ids = [0, 1, 2, 130, 131, 20_000, 20_001, 20_002, 40_000];
        for split in [1, 4, 6, 8, 9, 20_001, 30_000] {
            let (mut a, mut b) = (Builder::default(), Builder::default());
            for id in 0..40_001 {
                let builder = if id < split { &mut a } else { &mut b };
                builder.add(if ids.contains(&id) { b"xyz" } else { b"" });
            }
            a.append(b);
            let all = lists(&a.freeze());
            assert_eq!(all[&gram(b'x', b'y', b'z')], ids, "split at {split}");
        }
    }

    #[test]
    fn a_few_small_files_take_a_small_table() {
        assert_eq!(Builder::default().table.len(), FIRST_SLOTS);
        let mut a = Builder::default();
        a.add(b"fn main() { println!(\"hello\"); }");
        let mut b = Builder::default();
        b.add(b"[package]\nname = \"hello\"\n");
        b.skip();
        a.append(b);
        assert_eq!(a.table.capacity(), FIRST_SLOTS);
        assert!(a.table.capacity() * size_of::<Slot>() <= 16 << 10);
        assert!(a.lists.is_empty());
        assert!(a.used < 64);
        let mut whole = Builder::default();
        whole.append(a);
        assert_eq!(whole.table.capacity(), FIRST_SLOTS);
    }

    #[test]
    fn the_table_grows_with_the_trigrams_seen() {
        // Every triple of 40 bytes that fold to themselves: 64,000
        // trigrams and more where triples meet.
        let content: Vec<u8> = (0..40 * 40 * 40u32)
            .flat_map(|i| [0x80 + i / 1600, 0x80 + i / 40 % 40, 0x80 + i % 40])
            .map(|b| b as u8)
            .collect();
        let files: Vec<(Option<&[u8]>, Vec<usize>)> = vec![
            (Some(&content[..90_000]), (0..90_000).step_by(7).collect()),
            (None, vec![]),
            (Some(&content[60_000..]), vec![1, 2, 50_000]),
            (Some(b"abc"), vec![]),
        ];
        let whole: Vec<_> = files.iter().map(|(content, _)| *content).collect();
        let expected = reference(&whole);
        assert!(expected.len() > 64_000);
        assert_eq!(lists(&build(&files, &[])), expected);
        assert_eq!(lists(&build(&files, &[2])), expected);
        assert_eq!(lists(&build(&files, &[1, 3])), expected);
        let mut b = Builder::default();
        b.add(&content);
        assert_eq!(b.used, expected.len() - 1);
        assert!(b.table.len() * 3 >= b.used * 4 && b.table.len() * 3 <= b.used * 8);
    }

    #[test]
    fn with_a_slot_per_trigram_each_has_its_own() {
        let mut taken = vec![false; GRAMS];
        for g in 0..GRAMS as Gram {
            let at = home(g, GRAMS);
            assert!(!taken[at], "{g:#x} shares its slot");
            taken[at] = true;
        }
    }

    mod random {
        use super::*;
        use proptest::prelude::*;

        /// Bytes that meet one another often, and any byte.
        fn byte() -> impl Strategy<Value = u8> {
            prop_oneof![
                Just(b'a'),
                Just(b'b'),
                Just(b'A'),
                Just(b'B'),
                Just(0),
                Just(b'\n'),
                any::<u8>(),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(500))]
            /// Files cut anywhere, skipped, shared among builders: the
            /// postings of every file read whole.
            #[test]
            fn postings_are_those_of_the_files_read_whole(
                files in proptest::collection::vec(
                    (
                        proptest::option::weighted(0.9, proptest::collection::vec(byte(), 0..60)),
                        proptest::collection::vec(0usize..60, 0..4),
                    ),
                    0..30,
                ),
                starts in proptest::collection::vec(0usize..30, 0..4),
            ) {
                let files: Vec<(Option<&[u8]>, Vec<usize>)> = files
                    .iter()
                    .map(|(content, cuts)| (content.as_deref(), cuts.clone()))
                    .collect();
                let whole: Vec<_> = files.iter().map(|(content, _)| *content).collect();
                prop_assert_eq!(lists(&build(&files, &starts)), reference(&whole));
            }
        }
    }

    /// Each trigram's files, from every file read whole: what the builder
    /// must give however the files come (`None`: skipped).
    fn reference(files: &[Option<&[u8]>]) -> BTreeMap<Gram, Vec<u32>> {
        let mut all: BTreeMap<Gram, Vec<u32>> = BTreeMap::new();
        for (id, content) in (0..).zip(files) {
            for g in content.map(grams_of).unwrap_or_default() {
                all.entry(g).or_default().push(id);
            }
        }
        all
    }

    /// Each trigram's files as `p` holds them, its gaps read back.
    fn lists(p: &Postings) -> BTreeMap<Gram, Vec<u32>> {
        assert!(p.keys.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(p.offsets.len(), p.keys.len() + 1);
        let mut all = BTreeMap::new();
        for (at, &g) in p.keys.iter().enumerate() {
            let mut bytes = &p.bytes[p.offsets[at]..p.offsets[at + 1]];
            let (mut ids, mut next) = (Vec::new(), 0);
            while !bytes.is_empty() {
                let (gap, rest) = read_gap(bytes);
                assert!(gap > 0);
                next += gap;
                ids.push(next - 1);
                bytes = rest;
            }
            assert!(ids.iter().all(|&id| id < p.files()));
            all.insert(g, ids);
        }
        all
    }

    /// `files` fed in the pieces their `cuts` make, a new builder started
    /// at each of `starts`, the builders appended in order.
    fn build(files: &[(Option<&[u8]>, Vec<usize>)], starts: &[usize]) -> Postings {
        let (mut builders, mut first) = (vec![Builder::default()], 0);
        for (id, (content, cuts)) in (0..).zip(files) {
            if starts.contains(&(id as usize)) {
                builders.push(Builder::default());
                first = id;
            }
            let b = builders.last_mut().unwrap();
            let Some(content) = content else {
                assert_eq!(b.skip(), id - first);
                continue;
            };
            assert_eq!(b.begin(), id - first);
            let mut cuts: Vec<usize> = cuts.iter().map(|&c| c.min(content.len())).collect();
            cuts.sort_unstable();
            let mut from = 0;
            for to in cuts.into_iter().chain([content.len()]) {
                b.feed(&content[from..to]);
                from = to;
            }
            b.finish();
        }
        let mut builders = builders.into_iter();
        let mut whole = builders.next().unwrap();
        for b in builders {
            whole.append(b);
        }
        assert_eq!(whole.files() as usize, files.len());
        whole.freeze()
    }
}
