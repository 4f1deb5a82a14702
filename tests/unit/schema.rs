//! Unit tests of `src/schema.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

//! The output schema is tested against the envelopes the renderer
//! makes: every shape of result and failure validates, and every field
//! an envelope carries is declared (the schema allows more, for fields
//! added later, so only this test catches one left undeclared).

use super::*;
use crate::error::{ArgumentError, Error, Reason, SearchError, TimeoutPage};
use crate::render::{json as render_json, text};
use crate::response::{Body, Response};
use crate::search::report::{
    Coverage, FileCount, FileLines, Hint, Items, Report, ShownLine, Spill, Unsearched,
};
use crate::stop::Halt;

/// `value` against `schema`, for the keywords the output schema uses;
/// the first problem, with where it is.
fn check(schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let fail = |what: &str| Err(format!("{at}: {what} (value {value})"));
    if let Some(options) = schema.get("anyOf").and_then(Value::as_array) {
        if !options.iter().any(|s| check(s, value, at).is_ok()) {
            let why: Vec<String> = options
                .iter()
                .filter_map(|s| check(s, value, at).err())
                .collect();
            return fail(&format!("matches no anyOf option: {why:?}"));
        }
    }
    if schema.get("const").is_some_and(|want| want != value) {
        return fail(&format!("is not {}", schema["const"]));
    }
    let options = schema.get("enum").and_then(Value::as_array);
    if options.is_some_and(|options| !options.contains(value)) {
        return fail("is none of the enum");
    }
    if let Some(types) = schema.get("type") {
        let types: Vec<&str> = match types {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => return fail("has a malformed type"),
        };
        let is = |t: &str| match t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            "integer" => value.is_u64() || value.is_i64(),
            _ => false,
        };
        if !types.into_iter().any(is) {
            return fail(&format!("is not of type {}", schema["type"]));
        }
    }
    let min = schema.get("minimum").and_then(Value::as_i64);
    if let (Some(min), Some(n)) = (min, value.as_i64()) {
        if n < min {
            return fail(&format!("is below {min}"));
        }
    }
    if let Some(object) = value.as_object() {
        for key in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !object.contains_key(key) {
                return fail(&format!("lacks required {key}"));
            }
        }
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            for (key, field) in object {
                let Some(declared) = properties.get(key) else {
                    return fail(&format!("has {key}, which the schema does not declare"));
                };
                check(declared, field, &format!("{at}.{key}"))?;
            }
        }
    }
    if let (Some(items), Some(list)) = (schema.get("items"), value.as_array()) {
        for (i, item) in list.iter().enumerate() {
            check(items, item, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

fn line(number: u64, matched: bool) -> ShownLine {
    ShownLine {
        number,
        matched,
        preview: "x".into(),
        truncated: number == 2,
        definition: None,
        unparsed: false,
    }
}

fn glob_report() -> Report {
    let paths = Items::Glob(["a", "b/c", "d"].into_iter().collect());
    let mut r = Report::of(Tool::Glob, paths, 2);
    r.spill = Spill::Saved {
        locator: "/s/x-glob-results.txt".into(),
        hint: "H.".into(),
        reused: false,
    };
    r.hints = vec![Hint::Remainder {
        count: 1,
        places: vec![("./".into(), 1)],
    }];
    r
}

fn grep_report() -> Report {
    let files = vec![FileLines {
        path: "a.rs".into(),
        lines: vec![line(1, true), line(2, true)],
        windows: Vec::new(),
    }];
    let mut r = Report::of(Tool::Grep, Items::Lines(files), 1);
    r.binary_files = vec!["app.log".into()];
    r.coverage = Coverage::Unsearched(Unsearched {
        errors: 1,
        first_error: "rg: x: denied".into(),
    });
    r.spill = Spill::NotSaved {
        reason: "none".into(),
    };
    r
}

fn context_page() -> Report {
    let files = vec![FileLines {
        path: "a.rs".into(),
        lines: vec![line(1, false), line(2, true), line(3, false), line(9, true)],
        windows: Vec::new(),
    }];
    let mut r = Report::of(Tool::Grep, Items::Lines(files), 1);
    r.context = crate::request::Context {
        before: 1,
        after: 1,
        function: false,
    };
    r.paged = true;
    r.limit_over_cap = Some((900, 250));
    r
}

fn files_page() -> Report {
    let files = Items::Files(["a", "b"].into_iter().collect());
    let mut r = Report::of(Tool::Grep, files, 1);
    r.offset = 1;
    r.paged = true;
    r
}

fn counts() -> Report {
    let counts = vec![FileCount {
        path: "a".into(),
        count: 3,
    }];
    Report::of(Tool::Grep, Items::Counts(counts), 1)
}

fn empty_grep() -> Report {
    let mut r = Report::of(Tool::Grep, Items::Lines(Vec::new()), 0);
    r.coverage = Coverage::NothingSearched { typed: true };
    r.hints = vec![
        Hint::Ignored {
            count: 2,
            complete: false,
            examples: vec!["vendor/a".into()],
            path: "vendor".into(),
        },
        Hint::Case {
            count: 1,
            complete: true,
            examples: vec!["A.rs".into()],
        },
        Hint::Links {
            count: 2,
            complete: true,
            examples: vec![
                crate::search::report::Linked {
                    path: "docs/a.md".into(),
                    link: "docs".into(),
                    target: "../shared/docs".into(),
                },
                crate::search::report::Linked {
                    path: "b.md".into(),
                    link: "b.md".into(),
                    target: "/elsewhere/b.md".into(),
                },
            ],
        },
    ];
    r
}

fn response(tool: Tool, body: Body, ignored: &[&str]) -> Response {
    Response {
        tool: Some(tool),
        body,
        ignored: ignored
            .iter()
            .map(|s| crate::request::Ignored::Unknown((*s).to_owned()))
            .collect(),
        explain: None,
    }
}

fn failed(error: Error, partial: Option<Report>) -> Body {
    Body::Failed {
        error,
        partial: partial.map(Box::new),
    }
}

#[test]
fn every_envelope_is_what_the_output_schema_declares() {
    let timed_out = |tool| {
        Error::Search(SearchError::halted(
            tool,
            Halt::TimedOut,
            std::num::NonZeroU64::new(300).unwrap(),
            TimeoutPage::Ordered,
        ))
    };
    let include = Error::Argument(ArgumentError::new("include", "one glob"));
    let overflow = Reason::RawOutputOverflow {
        cap: 10,
        heavy: Vec::new(),
    };
    let overflow = Error::Search(SearchError::new(Tool::Glob, overflow));
    let cases = [
        response(
            Tool::Glob,
            Body::Results(glob_report()),
            &["wait_for_previous"],
        ),
        response(Tool::Grep, Body::Results(grep_report()), &[]),
        response(Tool::Grep, Body::Results(context_page()), &[]),
        response(Tool::Grep, Body::Results(files_page()), &[]),
        response(Tool::Grep, Body::Results(counts()), &[]),
        response(Tool::Grep, Body::Results(empty_grep()), &[]),
        response(Tool::Grep, failed(include, None), &["extra"]),
        response(Tool::Glob, failed(overflow, None), &[]),
        response(
            Tool::Grep,
            failed(timed_out(Tool::Grep), Some(grep_report())),
            &[],
        ),
        response(
            Tool::Glob,
            failed(timed_out(Tool::Glob), Some(glob_report())),
            &["x"],
        ),
    ];
    for case in &cases {
        let tool = case.tool.unwrap();
        let text = text::response(case);
        let value = render_json::to_value(&render_json::envelope(case, &text));
        // The schema's two halves: a value must be one of them, and is
        // checked against that one (so an undeclared field is caught).
        let schema = output_schema(tool);
        let half = &schema["anyOf"][usize::from(value["ok"] == false)];
        if let Err(problem) = check(half, &value, "envelope") {
            panic!("{tool}: {problem}");
        }
        assert_eq!(value["text"], text.as_str());
    }
}

#[test]
fn the_checker_finds_what_is_wrong() {
    let schema = output_schema(Tool::Grep);
    let success = &schema["anyOf"][0];
    let r = response(Tool::Grep, Body::Results(grep_report()), &[]);
    let mut value = render_json::to_value(&render_json::envelope(&r, &text::response(&r)));
    assert_eq!(check(success, &value, "e"), Ok(()));
    value["undeclared"] = Value::Bool(true);
    assert!(
        check(success, &value, "e")
            .unwrap_err()
            .contains("does not declare")
    );
    value.as_object_mut().unwrap().remove("undeclared");
    value["files"][0]["matches"][0]["line_number"] = Value::from(0);
    assert!(check(success, &value, "e").unwrap_err().contains("below 1"));
    value["files"][0]["matches"][0]["line_number"] = Value::from(1);
    value["spill"] = Value::from(3);
    assert!(check(success, &value, "e").unwrap_err().contains("anyOf"));
}
