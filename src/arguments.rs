//! Tool arguments as the JSON object a model produced (`call` and MCP's
//! `tools/call`). Wrong types and a missing `pattern` are argument errors
//! that name the field. Unknown fields are ignored and reported (SPEC §8):
//! agent clients add their own (Gemini CLI adds `wait_for_previous` to every
//! MCP tool), as the seed's harness allows. The rules of SPEC §3 are then
//! applied by `request`, exactly as for argv.

use serde_json::{Map, Value};

use crate::error::ArgumentError;
use crate::request::Request;
use crate::tool::{Tool, Values};

/// The arguments text: `given`, or all of stdin when `None`.
pub fn read(given: Option<String>) -> Result<String, ArgumentError> {
    match given {
        Some(text) => Ok(text),
        None => std::io::read_to_string(std::io::stdin()).map_err(|e| {
            ArgumentError::new(
                "arguments",
                format!("cannot read the arguments from stdin: {e}"),
            )
        }),
    }
}

/// A call's arguments: the request (or what is wrong with them), and the
/// fields that were ignored because the tool has no such argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arguments {
    pub request: Result<Request, ArgumentError>,
    /// Unknown field names, in the order given.
    pub ignored: Vec<String>,
}

impl Arguments {
    /// Arguments with nothing ignored (argv, or JSON that is no object).
    pub fn from(request: Result<Request, ArgumentError>) -> Self {
        Self {
            request,
            ignored: Vec::new(),
        }
    }
}

/// Parse `text` as the arguments of `tool`.
pub fn parse(tool: Tool, text: &str) -> Arguments {
    if text.trim().is_empty() {
        return Arguments::from(Err(ArgumentError::new(
            "arguments",
            format!(
                "{tool} got no arguments: pass a JSON object such as {{\"pattern\": \"...\"}}, on the command line or on stdin"
            ),
        )));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value) => arguments(tool, &value),
        Err(e) => Arguments::from(Err(ArgumentError::new("arguments", not_json(tool, &e)))),
    }
}

/// Why the arguments are not JSON, in words that say what to change.
fn not_json(tool: Tool, e: &serde_json::Error) -> String {
    let detail = e.to_string();
    if detail.contains("hex escape") {
        // serde_json's words for a `\u` escape that is no character: a lone
        // UTF-16 surrogate such as `\ud800`, or a cut-off escape.
        return format!(
            "{tool} arguments are not valid JSON: a string holds a \\u escape that is no character (a lone UTF-16 surrogate such as \\ud800, or fewer than 4 hex digits); write the character itself, or a full surrogate pair ({detail})"
        );
    }
    format!(
        "{tool} arguments are not valid JSON ({detail}); pass an object such as {{\"pattern\": \"...\"}}"
    )
}

/// The arguments of `tool` from a JSON value.
pub fn arguments(tool: Tool, value: &Value) -> Arguments {
    let Value::Object(map) = value else {
        return Arguments::from(Err(ArgumentError::new(
            "arguments",
            format!("{tool} arguments must be a JSON object such as {{\"pattern\": \"...\"}}"),
        )));
    };
    let known = |name: &str| tool.arguments().iter().any(|a| a.name == name);
    Arguments {
        request: request(tool, map),
        ignored: map.keys().filter(|k| !known(k)).cloned().collect(),
    }
}

/// The request of `tool` from its arguments object: each argument of the
/// table in `tool`, type-checked in order, then the rules of SPEC §3.
fn request(tool: Tool, map: &Map<String, Value>) -> Result<Request, ArgumentError> {
    let mut values = Values::default();
    for argument in tool.arguments() {
        match string(tool, map, argument.name)? {
            Some(value) => values.set(argument.name, value),
            None if argument.required => {
                return Err(ArgumentError::new(
                    argument.name,
                    format!("{tool} needs a `{}` string argument", argument.name),
                ));
            }
            None => {}
        }
    }
    Request::new(tool, values)
}

/// A string field; absent or `null` is `None` (models often send `null`
/// for an optional argument they do not use).
fn string(
    tool: Tool,
    map: &Map<String, Value>,
    field: &'static str,
) -> Result<Option<String>, ArgumentError> {
    match map.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(ArgumentError::new(
            field,
            format!(
                "{tool} argument `{field}` must be a string, not {}",
                kind(other)
            ),
        )),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{GlobRequest, GrepRequest};

    #[test]
    fn unknown_fields_are_ignored_and_named() {
        let args = parse(
            Tool::Glob,
            r#"{"wait_for_previous":true,"pattern":"*","include":"x"}"#,
        );
        assert_eq!(
            args.request,
            Ok(Request::Glob(GlobRequest {
                pattern: "*".into(),
                path: None
            }))
        );
        assert_eq!(args.ignored, ["wait_for_previous", "include"]);
        let bad = parse(Tool::Grep, r#"{"pattern":7,"extra":1}"#);
        assert_eq!(bad.request.unwrap_err().field, "pattern");
        assert_eq!(bad.ignored, ["extra"]);
    }

    #[test]
    fn arguments_name_the_field() {
        let ok = parse(
            Tool::Grep,
            r#"{"pattern":"x","path":null,"include":"*.rs"}"#,
        )
        .request
        .unwrap();
        assert_eq!(
            ok,
            Request::Grep(GrepRequest {
                pattern: "x".into(),
                path: None,
                include: Some("*.rs".into())
            })
        );
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
}
