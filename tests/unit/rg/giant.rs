//! Unit tests of `src/rg/giant.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

fn read(record: &[u8], chunk: usize, head: usize) -> Result<Giant, String> {
    let mut reader = GiantReader::new(head);
    for piece in record.chunks(chunk) {
        reader.feed(piece);
    }
    reader.finish()
}

#[test]
fn keeps_what_a_preview_needs_whatever_the_chunks() {
    let line = format!("{}\\t\\u00e9{}", "a".repeat(5000), "b".repeat(100));
    let text = format!(
        r#"{{"type":"match","data":{{"path":{{"text":"dist/a \"b\".js"}},"lines":{{"text":"{line}"}},"line_number":7,"absolute_offset":120,"submatches":[{{"match":{{"text":"needle"}},"start":3000,"end":3006}},{{"match":{{"text":"x"}},"start":1,"end":2}}]}}}}"#
    );
    for chunk in [1, 3, 7, 100, text.len()] {
        let g = read(text.as_bytes(), chunk, 10).unwrap();
        assert_eq!(g.kind, "match");
        assert_eq!(g.path, b"dist/a \"b\".js");
        assert_eq!((g.line_number, g.absolute_offset), (Some(7), Some(120)));
        assert_eq!(g.first_match, Some((3000, 3006)), "chunk {chunk}");
        assert_eq!(g.match_head, b"needle");
        assert_eq!(g.head, "a".repeat(124).as_bytes(), "chunk {chunk}");
    }
}

#[test]
fn a_context_record_and_bytes() {
    let text = r#"{"type":"context","data":{"path":{"bytes":"YS//"},"lines":{"bytes":"YWJjZGVmZ2hp"},"line_number":2,"absolute_offset":0,"submatches":[]}}"#;
    let g = read(text.as_bytes(), 5, 1).unwrap();
    assert_eq!(g.kind, "context");
    assert_eq!(g.path, b"a/\xff");
    assert_eq!(g.head, b"abcdefghi");
    assert_eq!(g.first_match, None);
}

#[test]
fn nesting_past_rgs_records_fails_in_bounded_memory() {
    let mut reader = GiantReader::new(10);
    reader.feed(br#"{"type":"match","data":{"x":"#);
    let deep = vec![b'['; 1 << 20];
    for _ in 0..8 {
        reader.feed(&deep);
        assert!(reader.stack.len() <= MAX_DEPTH);
    }
    assert_eq!(reader.bytes(), 28 + 8 * (1 << 20));
    let e = reader.finish().unwrap_err();
    assert!(
        e.starts_with(
            r#"a record that is too large to hold nests deeper than rg's records do, read "{"type":"match","data":{"x":[[["#
        ),
        "{e}"
    );
}

#[test]
fn values_as_deep_as_the_bound_are_read() {
    // The record's object, data, and `arrays` arrays; a million values
    // at the deepest, each placed without copying the levels above.
    let record = |arrays: usize| {
        let mut text =
            br#"{"type":"match","data":{"path":{"text":"p"},"line_number":3,"x":"#.to_vec();
        text.extend_from_slice(&vec![b'['; arrays]);
        text.extend_from_slice(&b"1,".repeat(1_000_000));
        text.push(b'1');
        text.extend_from_slice(&vec![b']'; arrays]);
        text.extend_from_slice(b"}}");
        text
    };
    let g = read(&record(MAX_DEPTH - 2), 65_536, 10).unwrap();
    assert_eq!((g.path.as_slice(), g.line_number), (&b"p"[..], Some(3)));
    // One level more is refused.
    let e = read(&record(MAX_DEPTH - 1), 65_536, 10).unwrap_err();
    assert!(e.contains("nests deeper"), "{e}");
}

#[test]
fn what_is_not_a_record_says_so() {
    assert!(read(br#"{"type":"match","data":{"#, 4, 10).is_err());
    assert!(read(br#"{"type" "match"}"#, 4, 10).is_err());
    assert!(read(br#"{"a":1}{"b":2}"#, 4, 10).is_err());
    let long_path = format!(
        r#"{{"data":{{"path":{{"text":"{}"}}}}}}"#,
        "p".repeat(70_000)
    );
    assert!(
        read(long_path.as_bytes(), 999, 10)
            .unwrap_err()
            .contains("path")
    );
}
