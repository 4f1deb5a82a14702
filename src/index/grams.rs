//! The trigram index itself: for each trigram, the files holding it
//! (their numbers, ascending, as gaps in LEB128 bytes), built one file at
//! a time and then frozen into one buffer; and a [`Query`] answered as a
//! set of file numbers.

use std::collections::HashMap;

#[cfg(test)]
use super::query::gram;
use super::query::{Gram, Query, fold};

/// Trigram values are 24 bits.
const GRAMS: usize = 1 << 24;

/// The postings while files are added, in file-number order.
#[derive(Default)]
pub struct Builder {
    lists: HashMap<Gram, Open>,
    files: u32,
    /// One bit per trigram: seen in the file being added.
    seen: Vec<u64>,
    /// The trigrams of the file being added, to clear `seen` after it.
    this_file: Vec<Gram>,
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
            let open = self.lists.entry(g).or_default();
            push_gap(&mut open.bytes, id + 1 - open.next);
            open.next = id + 1;
        }
        id
    }

    /// Add a file whose content is not known: it holds no trigram here,
    /// and the caller keeps it a candidate.
    pub fn skip(&mut self) -> u32 {
        self.files += 1;
        self.files - 1
    }

    pub fn freeze(self) -> Postings {
        let mut keys: Vec<Gram> = self.lists.keys().copied().collect();
        keys.sort_unstable();
        let mut offsets = Vec::with_capacity(keys.len() + 1);
        let total = self.lists.values().map(|o| o.bytes.len()).sum();
        let mut bytes = Vec::with_capacity(total);
        let mut lists = self.lists;
        for g in &keys {
            offsets.push(bytes.len());
            if let Some(open) = lists.remove(g) {
                bytes.extend_from_slice(&open.bytes);
            }
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

/// Write `gap` (at least 1) as LEB128.
fn push_gap(out: &mut Vec<u8>, mut gap: u32) {
    while gap >= 0x80 {
        out.push((gap as u8) | 0x80);
        gap >>= 7;
    }
    out.push(gap as u8);
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
    use crate::index::query::{Pattern, plan};

    #[test]
    fn a_query_finds_the_files_holding_its_trigrams() {
        let mut b = Builder::default();
        let files: [&[u8]; 4] = [b"fn main() {}", b"let needle = 1;", b"NEEDLE\0x", b""];
        for f in files {
            b.add(f);
        }
        b.skip();
        let p = b.freeze();
        let q = |text| {
            plan(Pattern {
                text,
                ignore_case: false,
                literal: false,
                multiline: false,
            })
            .unwrap_or(Query::All)
        };
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
