//! Unit tests of `src/search/listing.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;
use std::path::Path;

#[test]
fn counts_survive_any_chunking_and_newlines_in_paths() {
    let w = Workdir::new(Path::new("/w"));
    let listing = b"b\x001\na\nb\x0012\n/w/c\x003\n";
    for size in [1, 2, 5, listing.len()] {
        let mut sink = CountSink::default();
        for chunk in listing.chunks(size) {
            sink.chunk(chunk);
        }
        sink.finish();
        assert_eq!(sink.error(), None);
        let counts: Vec<(String, u64)> = sink
            .into_counts(&w)
            .into_iter()
            .map(|f| (f.path, f.count))
            .collect();
        assert_eq!(
            counts,
            [
                ("a\nb".to_owned(), 12),
                ("b".to_owned(), 1),
                ("c".to_owned(), 3)
            ],
            "chunk size {size}"
        );
    }
    let mut bad = CountSink::default();
    bad.chunk(b"a\x00x\n");
    assert!(bad.error().unwrap().starts_with("record 1"));
}

proptest::proptest! {
    /// Any bytes as `--count --null` output, cut anywhere: counts or
    /// the first record that is not one, never a panic or a wrapped
    /// sum.
    #[test]
    fn no_count_output_makes_the_sink_panic(
        pieces in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just(b"a\n".to_vec()),
                proptest::strategy::Just(b"\0".to_vec()),
                proptest::strategy::Just(b"\n".to_vec()),
                proptest::strategy::Just(u64::MAX.to_string().into_bytes()),
                proptest::strategy::Just(b"12".to_vec()),
                proptest::collection::vec(proptest::num::u8::ANY, 0..4),
            ],
            0..40,
        ),
        chunk in 1usize..16,
    ) {
        let bytes = pieces.concat();
        let mut sink = CountSink::default();
        for piece in bytes.chunks(chunk) {
            sink.chunk(piece);
        }
        sink.finish();
        let _ = sink.error();
        let w = Workdir::new(Path::new("/w"));
        let counts = sink.into_counts(&w);
        let sum = counts.iter().try_fold(0u64, |sum, c| sum.checked_add(c.count));
        proptest::prop_assert!(sum.is_some());
    }
}

#[test]
fn path_order_and_vcs_filter() {
    let w = Workdir::new(Path::new("/nonexistent"));
    let listing = b"b\0a/.git/HEAD\0a\0\0/nonexistent/c\0".to_vec();
    let stop = crate::stop::Stop::new();
    let budget = Budget {
        deadline: std::time::Instant::now() + std::time::Duration::from_secs(60),
        stop: &stop,
    };
    let list = ordered_paths(listing, &w, GlobSort::Path, budget).unwrap();
    assert_eq!(list.all().collect::<Vec<_>>(), ["a", "b", "c"]);
}
