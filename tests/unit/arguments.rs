//! Unit tests of `src/arguments.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn unknown_fields_are_ignored_and_named() {
    let args = parse(
        Tool::Glob,
        r#"{"wait_for_previous":true,"pattern":"*","include":"x"}"#,
    );
    assert_eq!(
        args.request,
        parse(Tool::Glob, r#"{"pattern":"*"}"#).request
    );
    let unknown = ["wait_for_previous", "include"].map(|n| Ignored::Unknown(n.into()));
    assert_eq!(args.ignored, unknown);
    let bad = parse(Tool::Grep, r#"{"pattern":7,"extra":1}"#);
    assert_eq!(bad.request.unwrap_err().field, "pattern");
    assert_eq!(bad.ignored, [Ignored::Unknown("extra".into())]);
}

/// The grep request `text` gives, which must be one.
fn grep_request(text: &str) -> crate::request::GrepRequest {
    match parse(Tool::Grep, text).request {
        Ok(Request::Grep(r)) => r,
        other => panic!("{text}: not a grep request: {other:?}"),
    }
}

#[test]
fn typed_arguments_and_moot_context() {
    let r = grep_request(
        r#"{"pattern":"x","output":"files","context":2,"after":1,"ignore_case":true,"literal":false,"type":"rust","offset":3,"limit":null}"#,
    );
    assert_eq!(r.output, crate::request::Output::Files);
    assert!(r.ignore_case && !r.literal && !r.multiline);
    assert_eq!(r.file_type.as_deref(), Some("rust"));
    assert_eq!((r.page.offset, r.page.limit), (3, None));
    assert_eq!(r.context, crate::request::Context::default());
    let args = parse(Tool::Grep, r#"{"pattern":"x","output":"count","before":1}"#);
    assert_eq!(
        args.ignored,
        [Ignored::Moot {
            name: "before".to_owned(),
            why: "output \"count\" shows no lines".to_owned()
        }]
    );
    let r = grep_request(r#"{"pattern":"x","context":2,"after":0}"#);
    assert_eq!(
        r.context,
        crate::request::Context {
            before: 2,
            after: 0,
            function: false,
        }
    );
    // Each with a grep pattern, so only the field named is wrong.
    let cases = [
        (r#""context":101"#, "context", "from 0 to 100"),
        (r#""before":-1"#, "before", "a whole number"),
        (r#""after":1.5"#, "after", "a whole number"),
        (r#""limit":0"#, "limit", "at least 1"),
        (r#""output":"lines""#, "output", "content, files, count"),
        (r#""ignore_case":"yes""#, "ignore_case", "true or false"),
        (r#""type":" ""#, "type", "blank"),
        (r#""offset":"3""#, "offset", "a whole number"),
    ];
    for (wrong, field, message) in cases {
        let text = format!(r#"{{"pattern":"x",{wrong}}}"#);
        let e = parse(Tool::Grep, &text).request.unwrap_err();
        assert_eq!(e.field, field, "{text}");
        assert!(e.message.contains(message), "{text}: {}", e.message);
    }
}

#[test]
fn arguments_nested_past_the_limit_are_an_argument_error() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    for text in [deep(100_000), format!(r#"{{"pattern":{}}}"#, deep(100_000))] {
        let e = parse(Tool::Glob, &text).request.unwrap_err();
        assert_eq!(e.field, "arguments");
        assert!(
            e.message
                .starts_with("glob arguments nest deeper than 127 levels"),
            "{}",
            e.message
        );
    }
}

#[test]
fn arguments_name_the_field() {
    let ok = parse(
        Tool::Grep,
        r#"{"pattern":"x","path":null,"include":"*.rs"}"#,
    );
    let same = parse(Tool::Grep, r#"{"pattern":"x","include":"*.rs"}"#);
    assert_eq!(ok.request, same.request);
    assert!(ok.request.is_ok());
    let cases = [
        (
            Tool::Grep,
            r#"{"pattern":1}"#,
            "pattern",
            "must be a string, not a number",
        ),
        (
            Tool::Grep,
            r#"{"path":"a"}"#,
            "pattern",
            "needs a `pattern`",
        ),
        (Tool::Glob, r#"["*"]"#, "arguments", "must be a JSON object"),
        (Tool::Glob, "{", "arguments", "not valid JSON"),
        (Tool::Glob, r#"{"pattern":"a\u0000b"}"#, "pattern", "NUL"),
        (
            Tool::Grep,
            r#"{"pattern":"x","include":"*.ts,*.js"}"#,
            "include",
            "brace alternation",
        ),
    ];
    for (tool, text, field, message) in cases {
        let e = parse(tool, text).request.unwrap_err();
        assert_eq!(e.field, field, "{text}");
        assert!(e.message.contains(message), "{text}: {}", e.message);
    }
}
