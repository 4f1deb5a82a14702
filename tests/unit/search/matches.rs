//! Unit tests of `src/search/matches.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;
use std::path::Path;

#[cfg(unix)]
fn record(path: &str, n: u64, text: &str) -> String {
    format!(
        r#"{{"type":"match","data":{{"path":{{"text":"{path}"}},"lines":{{"text":"{text}\n"}},"line_number":{n},"submatches":[{{"start":0,"end":1}}]}}}}"#
    )
}

fn sink(w: &Workdir) -> MatchSink<'_> {
    MatchSink::new(w, 100, Want::default(), Some(record_bound(100)))
}

// Unix only: Unix absolute paths (paths.rs tests the Windows forms).
#[cfg(unix)]
#[test]
fn groups_orders_and_survives_any_chunking() {
    let w = Workdir::new(Path::new("/nonexistent"));
    let stream = [
        record("b.rs", 9, "x9"),
        record("b.rs", 2, "x2"),
        String::new(),
        r#"{"type":"begin","data":{"path":{"text":"a.rs"}}}"#.to_owned(),
        record("/nonexistent/a.rs", 1, "x1"),
        record("b.rs", 5, "x5"),
    ]
    .join("\n");
    for size in [1, 7, 64, stream.len()] {
        let mut sink = sink(&w);
        for chunk in stream.as_bytes().chunks(size) {
            sink.chunk(chunk);
        }
        sink.finish();
        assert_eq!(sink.error(), None);
        let files = sink.into_matched().files;
        let got: Vec<(String, Vec<u64>)> = files
            .iter()
            .map(|f| (f.path.clone(), f.lines.iter().map(|m| m.number).collect()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("a.rs".to_owned(), vec![1]),
                ("b.rs".to_owned(), vec![2, 5, 9])
            ],
            "chunk size {size}"
        );
    }
}

/// A piece of what a hostile or broken rg may print: the parts of
/// its records, numbers at their limits, brackets, quotes, escapes,
/// newlines, any byte.
fn token() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let text = |s: &str| Just(s.as_bytes().to_vec());
    let number = prop_oneof![
        Just(0u64),
        Just(1),
        Just(3),
        Just(u64::MAX - 1),
        Just(u64::MAX),
        any::<u64>(),
    ]
    .prop_map(|n| n.to_string().into_bytes());
    prop_oneof![
        text(r#"{"type":"match","data":{"#),
        text(r#"{"type":"context","data":{"#),
        text(r#"{"type":"end","data":{"#),
        text(r#""path":{"text":"a\u00e9\n"},"#),
        text(r#""path":{"bytes":"YS//"},"#),
        text(r#""lines":{"text":"x😀y\nz\n"},"#),
        text(r#""lines":{"bytes":"/w=="},"#),
        text(r#""line_number":"#),
        text(r#""absolute_offset":"#),
        text(r#""submatches":[{"match":{"text":"x"},"start":"#),
        text(r#","end":"#),
        text(r#""binary_offset":"#),
        text(r#""stats":{"matched_lines":"#),
        number,
        text("}"),
        text("]"),
        text("["),
        text(","),
        text("\""),
        text("\\"),
        text("\n"),
        text("null"),
        any::<u8>().prop_map(|b| vec![b]),
    ]
}

proptest::proptest! {
    /// Whatever rg prints, however it is cut into reads, with or
    /// without an overflow part-way: the sink neither panics nor
    /// overflows, in any mode, with records held whole or read as
    /// they stream (a bound this small sends most to `rg::giant`).
    #[test]
    fn no_output_makes_the_sink_panic(
        tokens in proptest::collection::vec(token(), 0..80),
        chunk in 1usize..64,
        cap in 0usize..8,
        bound in 8usize..160,
        modes in 0u8..8,
        overflow_at in proptest::option::of(0usize..2000),
    ) {
        let w = Workdir::new(Path::new("/nonexistent"));
        let want = Want {
            all_submatches: modes & 1 != 0,
            counts: modes & 2 != 0,
            context: modes & 4 != 0,
        };
        let mut sink = MatchSink::new(&w, cap, want, Some(bound));
        let bytes = tokens.concat();
        let (parsed, skimmed) = bytes.split_at(overflow_at.unwrap_or(bytes.len()).min(bytes.len()));
        for piece in parsed.chunks(chunk) {
            sink.chunk(piece);
        }
        if overflow_at.is_some() {
            for piece in skimmed.chunks(chunk) {
                sink.skim(piece);
            }
            sink.overflowed();
            let _ = sink.heavy();
        } else {
            sink.finish();
        }
        let _ = sink.error();
        let _ = sink.has_matches();
        let _ = sink.into_matched();
    }
}

#[test]
fn first_malformed_record_is_named() {
    let w = Workdir::new(Path::new("/"));
    let mut sink = sink(&w);
    sink.chunk(b"\n{\"type\":\"begin\"}\n{oops\nmore junk\n");
    sink.finish();
    assert!(
        sink.error()
            .unwrap()
            .starts_with("record 2: not a JSON record")
    );
}

#[test]
fn a_multiline_match_is_each_of_its_lines() {
    let w = Workdir::new(Path::new("/"));
    let want = Want {
        all_submatches: true,
        ..Want::default()
    };
    let mut sink = MatchSink::new(&w, 100, want, None);
    sink.chunk(br#"{"type":"match","data":{"path":{"text":"m"},"lines":{"text":"a1\na2\na3\n"},"line_number":4,"submatches":[{"start":1,"end":7}]}}"#);
    sink.chunk(b"\n");
    sink.chunk(br#"{"type":"match","data":{"path":{"text":"m"},"lines":{"text":"a3\n"},"line_number":6,"submatches":[{"start":0,"end":1}]}}"#);
    sink.finish();
    let files = sink.into_matched().files;
    let lines: Vec<(u64, bool, &str)> = files[0]
        .lines
        .iter()
        .map(|l| (l.number, l.matched, l.preview.as_str()))
        .collect();
    assert_eq!(lines, [(4, true, "a1"), (5, true, "a2"), (6, true, "a3")]);
}

#[test]
fn a_giant_record_is_read_as_it_streams() {
    let dir = tempfile::tempdir().unwrap();
    let line = format!("{}needle{}", "x".repeat(3_000_000), "y".repeat(500));
    std::fs::write(dir.path().join("min.js"), format!("{line}\n")).unwrap();
    let w = Workdir::new(dir.path());
    let json = format!(
        r#"{{"type":"match","data":{{"path":{{"text":"min.js"}},"lines":{{"text":"{line}\n"}},"line_number":1,"absolute_offset":0,"submatches":[{{"match":{{"text":"needle"}},"start":3000000,"end":3000006}}]}}}}"#
    );
    let mut sink = MatchSink::new(&w, 20, Want::default(), Some(record_bound(20)));
    for chunk in json.as_bytes().chunks(65_536) {
        sink.chunk(chunk);
    }
    sink.chunk(b"\n");
    assert!(sink.pending.capacity() < 2 * record_bound(20));
    sink.finish();
    assert_eq!(sink.error(), None);
    let files = sink.into_matched().files;
    assert_eq!(
        files[0].lines[0].preview,
        "…xxxxxxxneedleyyyyyyy (line truncated)"
    );
    // The file changed since: the match alone.
    std::fs::write(dir.path().join("min.js"), "short\n").unwrap();
    let mut sink = MatchSink::new(&w, 20, Want::default(), Some(record_bound(20)));
    sink.chunk(json.as_bytes());
    sink.chunk(b"\n");
    sink.finish();
    assert_eq!(
        sink.into_matched().files[0].lines[0].preview,
        "…needle (line truncated)"
    );
}
