//! Unit tests of `src/rg/json.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

fn decode(line: &[u8]) -> Result<Option<Record<'_>>, String> {
    super::decode(line, Want::default())
}

fn matched(line: &[u8]) -> LinesRecord<'_> {
    match decode(line) {
        Ok(Some(Record::Match(m))) => m,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_match_path_is_read_from_the_opening_bytes() {
    let cut = br#"{"type":"match","data":{"path":{"text":"dist/a \"b\".js"},"lines":{"text":"xxxx"#;
    assert_eq!(match_path(cut), Some(b"dist/a \"b\".js".to_vec()));
    let bytes = br#"{"type":"match","data":{"path":{"bytes":"YS//LnR4dA=="},"lin"#;
    assert_eq!(match_path(bytes), Some(b"a/\xff.txt".to_vec()));
    let backslash = br#"{"type":"match","data":{"path":{"text":"a\\"},"#;
    assert_eq!(match_path(backslash), Some(b"a\\".to_vec()));
    assert_eq!(
        match_path(br#"{"type":"match","data":{"path":{"text":"unterminated"#),
        None
    );
    assert_eq!(match_path(br#"{"type":"end","data":{}}"#), None);
}

#[test]
fn binary_files_are_named_by_their_end_record() {
    let binary = br#"{"type":"end","data":{"path":{"text":"app.log"},"binary_offset":13,"stats":{"matches":1}}}"#;
    assert_eq!(
        decode(binary),
        Ok(Some(Record::Binary {
            path: Cow::Borrowed(&b"app.log"[..])
        }))
    );
    let text =
        br#"{"type":"end","data":{"path":{"text":"a.txt"},"binary_offset":null,"stats":{}}}"#;
    assert_eq!(decode(text), Ok(None));
    // Fields in another order take the general path.
    let reordered = br#"{"data":{"binary_offset":0,"path":{"bytes":"/w=="}},"type":"end"}"#;
    assert_eq!(
        decode(reordered),
        Ok(Some(Record::Binary {
            path: Cow::Owned(vec![0xff])
        }))
    );
}

#[test]
fn text_match() {
    let line = br#"{"type":"match","data":{"path":{"text":"src/a.rs"},"lines":{"text":"fn main() {}\n"},"line_number":3,"absolute_offset":0,"submatches":[{"match":{"text":"main"},"start":3,"end":7}]}}"#;
    let m = matched(line);
    assert_eq!(&*m.path, b"src/a.rs");
    assert_eq!(&*m.lines, b"fn main() {}\n");
    assert_eq!(m.line_number, 3);
    assert_eq!(m.first_match, Some((3, 7)));
}

#[test]
fn bytes_forms_and_escapes() {
    // "caf\xe9 x\n" and a path holding \xff.
    let line = br#"{"type":"match","data":{"path":{"bytes":"YS//LnR4dA=="},"lines":{"bytes":"Y2Fm6SB4Cg=="},"line_number":1,"submatches":[]}}"#;
    let m = matched(line);
    assert_eq!(&*m.path, b"a/\xff.txt");
    assert_eq!(&*m.lines, b"caf\xe9 x\n");
    assert_eq!(m.first_match, None);
    let escaped = br#"{"type":"match","data":{"path":{"text":"a\"b"},"lines":{"text":"\u00e9\t\n"},"line_number":2,"submatches":[{"start":0,"end":2}]}}"#;
    let m = matched(escaped);
    assert_eq!(&*m.path, b"a\"b");
    assert_eq!(&*m.lines, "é\t\n".as_bytes());
}

#[test]
fn other_records_are_skipped() {
    for line in [
        &br#"{"type":"begin","data":{"path":{"text":"a"}}}"#[..],
        br#"{"type":"summary","data":{"elapsed_total":{}}}"#,
        br#"{"type":"future_kind","data":[1,2,3]}"#,
    ] {
        assert_eq!(decode(line), Ok(None));
    }
}

#[test]
fn context_records_and_every_submatch() {
    let context = br#"{"type":"context","data":{"path":{"text":"a"},"lines":{"text":"ctx\n"},"line_number":4,"absolute_offset":9,"submatches":[]}}"#;
    assert_eq!(decode(context), Ok(None), "skipped unless asked for");
    let with_context = Want {
        context: true,
        ..Want::default()
    };
    let Ok(Some(Record::Context(c))) = super::decode(context, with_context) else {
        panic!("a context record")
    };
    assert_eq!(
        (&*c.lines, c.line_number, c.first_match),
        (&b"ctx\n"[..], 4, None)
    );
    let multi = br#"{"type":"match","data":{"path":{"text":"m"},"lines":{"text":"a1\na2\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"a"},"start":0,"end":1},{"match":{"text":"a"},"start":3,"end":4}]}}"#;
    let all = Want {
        all_submatches: true,
        ..Want::default()
    };
    let Ok(Some(Record::Match(m))) = super::decode(multi, all) else {
        panic!("a match record")
    };
    assert_eq!(
        (m.first_match, m.more_matches),
        (Some((0, 1)), vec![(3, 4)])
    );
    assert_eq!(matched(multi).more_matches, Vec::<(usize, usize)>::new());
    assert_eq!(
        super::decode(br#"{"type":"context"}"#, with_context).unwrap_err(),
        "a context record has no data"
    );
}

#[test]
fn counts_come_from_end_records() {
    let counts = Want {
        counts: true,
        ..Want::default()
    };
    let end = br#"{"type":"end","data":{"path":{"text":"a"},"binary_offset":null,"stats":{"matched_lines":3,"matches":1}}}"#;
    assert_eq!(
        super::decode(end, counts),
        Ok(Some(Record::Count {
            path: Cow::Borrowed(&b"a"[..]),
            matched_lines: 3
        }))
    );
    let line = br#"{"type":"match","data":{"path":{"text":"a"},"lines":{"text":"x\n"},"line_number":1,"submatches":[]}}"#;
    assert_eq!(super::decode(line, counts), Ok(None));
}

#[test]
fn malformed_records_say_what_is_wrong() {
    let cases: [(&[u8], &str); 9] = [
        (b"not json", "not a JSON record"),
        (br#"["match",{"path":{"text":"a"},"lines":{"text":"x"},"line_number":1}]"#, "expected a JSON object"),
        (br#"{"type":"match","data":["a"]}"#, "data is not an object"),
        (br#"{"data":{}}"#, "not a JSON record"),
        (br#"{"type":"match"}"#, "has no data"),
        (br#"{"type":"match","data":{"lines":{"text":"x"},"line_number":1}}"#, "has no path"),
        (br#"{"type":"match","data":{"path":{"text":"a"},"line_number":1}}"#, "has no lines"),
        (br#"{"type":"match","data":{"path":{"text":"a"},"lines":{"text":"x"}}}"#, "no line_number"),
        (br#"{"type":"match","data":{"path":{"text":"a"},"lines":{"bytes":"!!"},"line_number":1}}"#, "not base64"),
    ];
    for (line, want) in cases {
        let err = decode(line).unwrap_err();
        assert!(err.contains(want), "{err:?} should mention {want:?}");
    }
}
