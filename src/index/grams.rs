//! The trigram index itself: for each trigram, the files holding it
//! (their numbers, ascending, as gaps in LEB128 bytes), built one file at
//! a time and then frozen into one buffer; and a [`Query`] answered as a
//! set of file numbers.

#![cfg_attr(not(target_os = "linux"), allow(dead_code))]

#[cfg(test)]
use super::query::gram;
use super::query::{Gram, Query, fold};

/// Trigram values are 24 bits.
const GRAMS: usize = 1 << 24;

/// The postings while files are added, in file-number order.
#[derive(Default)]
pub struct Builder {
    /// Trigram → its list in `opens` (`u32::MAX`: none yet); a table
    /// rather than a map, since every byte of every file looks one up.
    slots: Vec<u32>,
    opens: Vec<(Gram, Open)>,
    files: u32,
    /// One bit per trigram: seen in the file being added.
    seen: Vec<u64>,
    /// The trigrams of the file being added, to clear `seen` after it.
    this_file: Vec<Gram>,
    pending: Option<Vec<u8>>,
}

/// One trigram's postings while they grow.
#[derive(Default)]
struct Open {
    bytes: Vec<u8>,
    /// The last file number added, plus one (0: none yet).
    next: u32,
}

impl Builder {
    /// Add the next file, numbered in order from 0, with its content.
    pub fn add(&mut self, content: &[u8]) -> u32 {
        let id = self.files;
        self.files += 1;
        if self.seen.is_empty() {
            self.seen = vec![0; GRAMS / 64];
            self.slots = vec![u32::MAX; GRAMS];
        }
        let mut window = 0u32;
        for (i, &b) in content.iter().enumerate() {
            window = ((window << 8) | u32::from(fold(b))) & 0x00FF_FFFF;
            if i < 2 {
                continue;
            }
            let (word, bit) = ((window / 64) as usize, 1u64 << (window % 64));
            if self.seen[word] & bit == 0 {
                self.seen[word] |= bit;
                self.this_file.push(window);
            }
        }
        for g in self.this_file.drain(..) {
            self.seen[(g / 64) as usize] = 0;
            let open = open_list(&mut self.slots, &mut self.opens, g);
            push_gap(&mut open.bytes, id + 1 - open.next);
            open.next = id + 1;
        }
        id
    }

    /// Start the next file (numbered in order from 0); its bytes follow
    /// through [`Builder::feed`], and [`Builder::finish`] ends it.
    pub fn begin(&mut self) -> u32 {
        self.pending = Some(Vec::new());
        self.files
    }

    /// More bytes of the file begun.
    pub fn feed(&mut self, bytes: &[u8]) {
        if let Some(pending) = &mut self.pending {
            pending.extend_from_slice(bytes);
        }
    }

    /// End the file begun.
    pub fn finish(&mut self) {
        if let Some(pending) = self.pending.take() {
            self.add(&pending);
        }
    }

    /// Files added so far.
    pub fn files(&self) -> u32 {
        self.files
    }

    /// Add a file whose content is not known: it holds no trigram here,
    /// and the caller keeps it a candidate.
    #[cfg(test)]
    pub fn skip(&mut self) -> u32 {
        self.files += 1;
        self.files - 1
    }

    /// The files of `later` after this builder's, numbered on from them.
    pub fn append(&mut self, later: Builder) {
        let shift = self.files;
        if self.slots.is_empty() {
            self.slots = vec![u32::MAX; GRAMS];
        }
        for (g, open) in later.opens {
            // The first gap counts from file 0 in `later`: re-count it
            // from this builder's last file holding `g`.
            let (first, rest) = read_gap(&open.bytes);
            let mine = open_list(&mut self.slots, &mut self.opens, g);
            push_gap(&mut mine.bytes, first + shift - mine.next);
            mine.bytes.extend_from_slice(rest);
            mine.next = open.next + shift;
        }
        self.files += later.files;
    }

    pub fn freeze(self) -> Postings {
        let mut opens = self.opens;
        opens.sort_unstable_by_key(|(g, _)| *g);
        let keys: Vec<Gram> = opens.iter().map(|(g, _)| *g).collect();
        let mut offsets = Vec::with_capacity(keys.len() + 1);
        let total = opens.iter().map(|(_, o)| o.bytes.len()).sum();
        let mut bytes = Vec::with_capacity(total);
        for (_, open) in opens {
            offsets.push(bytes.len());
            bytes.extend_from_slice(&open.bytes);
        }
        offsets.push(bytes.len());
        Postings {
            keys,
            offsets,
            bytes,
            files: self.files,
        }
    }
}

/// The list of `g`, made empty the first time.
fn open_list<'a>(slots: &mut [u32], opens: &'a mut Vec<(Gram, Open)>, g: Gram) -> &'a mut Open {
    let slot = &mut slots[g as usize];
    if *slot == u32::MAX {
        *slot = opens.len() as u32;
        opens.push((g, Open::default()));
    }
    &mut opens[*slot as usize].1
}

/// Write `gap` (at least 1) as LEB128.
fn push_gap(out: &mut Vec<u8>, mut gap: u32) {
    while gap >= 0x80 {
        out.push((gap as u8) | 0x80);
        gap >>= 7;
    }
    out.push(gap as u8);
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
}
