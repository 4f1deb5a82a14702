//! Unit tests of `src/mcp/wire.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn lines_are_bounded_and_split() {
    let mut input = io::Cursor::new(b"a\nbc\n\nlast".to_vec());
    for want in [&b"a"[..], b"bc", b"", b"last"] {
        assert_eq!(
            read_line(&mut input).unwrap(),
            Received::Text(want.to_vec())
        );
    }
    assert_eq!(read_line(&mut input).unwrap(), Received::Eof);
    let mut long = vec![b'x'; MAX_LINE + 1];
    long.extend_from_slice(b"\nnext\n");
    long.extend(std::iter::repeat_n(b'y', MAX_LINE + 5));
    let mut input = io::BufReader::with_capacity(4096, io::Cursor::new(long));
    assert_eq!(read_line(&mut input).unwrap(), Received::TooLong);
    assert_eq!(
        read_line(&mut input).unwrap(),
        Received::Text(b"next".to_vec())
    );
    assert_eq!(
        read_line(&mut input).unwrap(),
        Received::TooLong,
        "without a final newline"
    );
    assert_eq!(read_line(&mut input).unwrap(), Received::Eof);
}

#[test]
fn ids_are_echoed_as_written() {
    let line = br#"{"jsonrpc":"2.0","id":1180591620717411303424,"method":"ping"}"#;
    let Ok(Incoming::Message(m)) = parse(line) else {
        panic!("a request")
    };
    let id = m.id.unwrap();
    assert_eq!(
        result_line(&id, &serde_json::json!({})),
        r#"{"jsonrpc":"2.0","id":1180591620717411303424,"result":{}}"#
    );
    let text = Id::Text("a\"b".into());
    assert_eq!(
        error_line(Some(&text), &RpcError::new(-1, "m")),
        r#"{"jsonrpc":"2.0","id":"a\"b","error":{"code":-1,"message":"m"}}"#
    );
}

#[test]
fn a_line_nested_too_deep_is_a_parse_error_whatever_its_size() {
    let deep = |n: usize, open: &str, close: &str| {
        let mut line = open.repeat(n);
        line.push_str(&close.repeat(n));
        line.into_bytes()
    };
    for line in [
        deep(100_000, "[", "]"),
        deep(MAX_DEPTH + 1, "[", "]"),
        deep(100_000, r#"{"a":"#, "}"),
        // Within a request: the depth of the whole line counts.
        [
            &br#"{"jsonrpc":"2.0","id":1,"method":"x","params":"#[..],
            &deep(MAX_DEPTH, "[", "]"),
            b"}",
        ]
        .concat(),
    ] {
        let e = parse(&line).unwrap_err();
        assert_eq!(e.code, PARSE_ERROR, "{}", e.message);
        assert!(
            e.message.contains("nested deeper than 127"),
            "{}",
            e.message
        );
    }
    // At the bound, and brackets inside strings, are fine.
    assert!(matches!(
        parse(&deep(MAX_DEPTH, "[", "]")),
        Ok(Incoming::Batch(_))
    ));
    let quoted = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"{}\"{}"}}"#,
        "[".repeat(500),
        "{".repeat(500)
    );
    let Ok(Incoming::Message(m)) = parse(quoted.as_bytes()) else {
        panic!("a request")
    };
    assert_eq!(m.method.len(), 1001);
    // A batch in a batch is refused without being taken apart.
    let Ok(Incoming::Batch(items)) = parse(&deep(MAX_DEPTH, "[", "]")) else {
        panic!("a batch")
    };
    assert!(matches!(items.as_slice(), [Incoming::Invalid(None, _)]));
}

proptest::proptest! {
    /// Any line, of JSON-RPC's pieces or any bytes, nested a little or
    /// very deep: parsed to a message or an error, never a panic.
    #[test]
    fn no_line_makes_the_parser_panic(
        pieces in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just(r#"{"jsonrpc":"2.0","#.to_owned()),
                proptest::strategy::Just(r#""id":"#.to_owned()),
                proptest::strategy::Just(r#""method":"tools/list","#.to_owned()),
                proptest::strategy::Just(r#""params":"#.to_owned()),
                proptest::strategy::Just("[".repeat(200)),
                proptest::strategy::Just("]".repeat(200)),
                proptest::strategy::Just("1180591620717411303424".to_owned()),
                "[\\[\\]{}\",:\\\\0-9a-z ]{0,8}",
            ],
            0..40,
        ),
        tail in proptest::collection::vec(proptest::num::u8::ANY, 0..8),
    ) {
        let mut line = pieces.concat().into_bytes();
        line.extend_from_slice(&tail);
        let _ = parse(&line);
    }
}

#[test]
fn what_is_not_a_request() {
    for line in [
        &br#"{"jsonrpc":"2.0","id":null,"method":"x"}"#[..],
        br#"{"jsonrpc":"2.0","id":{},"method":"x"}"#,
        br#"{"jsonrpc":"1.0","id":1,"method":"x"}"#,
        br#"{"jsonrpc":"2.0","id":1,"method":5}"#,
        br#"{"jsonrpc":"2.0","id":1}"#,
        b"42",
    ] {
        let got = parse(line);
        assert!(
            matches!(&got, Ok(Incoming::Invalid(_, e)) if e.code == INVALID_REQUEST),
            "{}: {got:?}",
            String::from_utf8_lossy(line)
        );
    }
    assert!(matches!(
        parse(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
        Ok(Incoming::Response)
    ));
    let Ok(Incoming::Batch(items)) = parse(br#"[1, [], {"jsonrpc":"2.0","method":"n"}]"#) else {
        panic!("a batch")
    };
    assert!(matches!(
        items.as_slice(),
        [
            Incoming::Invalid(None, _),
            Incoming::Invalid(None, _),
            Incoming::Message(_)
        ]
    ));
    assert_eq!(parse(b"{oops").unwrap_err().code, PARSE_ERROR);
    let Ok(Incoming::Message(m)) = parse(br#"{"jsonrpc":"2.0","method":"n","params":{"a":1}}"#)
    else {
        panic!("a notification")
    };
    assert_eq!((m.id, m.method.as_str()), (None, "n"));
    assert_eq!(m.params.as_deref().map(RawValue::get), Some(r#"{"a":1}"#));
}
