//! Unit tests of `src/index/grams.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

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
