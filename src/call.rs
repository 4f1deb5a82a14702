//! Tool arguments as the JSON object a model produced (`call` and MCP's
//! `tools/call`). Strict: unknown fields, wrong types and a missing
//! `pattern` are argument errors that name the field. The rules of SPEC §3
//! are then applied by `request`, exactly as for argv.

use serde_json::{Map, Value};

use crate::error::ArgumentError;
use crate::request::{GlobRequest, GrepRequest, Request, Tool};

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

/// Parse `text` as the arguments of `tool`.
pub fn parse(tool: Tool, text: &str) -> Result<Request, ArgumentError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        ArgumentError::new(
            "arguments",
            format!("{tool} arguments are not valid JSON ({e}); pass an object such as {{\"pattern\": \"...\"}}"),
        )
    })?;
    request(tool, &value)
}

/// Build the request of `tool` from a JSON value.
pub fn request(tool: Tool, value: &Value) -> Result<Request, ArgumentError> {
    let Value::Object(map) = value else {
        return Err(ArgumentError::new(
            "arguments",
            format!("{tool} arguments must be a JSON object such as {{\"pattern\": \"...\"}}"),
        ));
    };
    let allowed: &[&'static str] = match tool {
        Tool::Glob => &["pattern", "path"],
        Tool::Grep => &["pattern", "path", "include"],
    };
    if let Some(unknown) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(ArgumentError::new(
            "arguments",
            format!(
                "{tool} has no argument `{unknown}`; it takes {}",
                allowed.join(", ")
            ),
        ));
    }
    let pattern = string(tool, map, "pattern")?.ok_or_else(|| {
        ArgumentError::new(
            "pattern",
            format!("{tool} needs a `pattern` string argument"),
        )
    })?;
    let path = string(tool, map, "path")?;
    Ok(match tool {
        Tool::Glob => Request::Glob(GlobRequest::new(pattern, path)?),
        Tool::Grep => {
            let include = string(tool, map, "include")?;
            Request::Grep(GrepRequest::new(pattern, path, include)?)
        }
    })
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

    #[test]
    fn strict_arguments_name_the_field() {
        let ok = parse(
            Tool::Grep,
            r#"{"pattern":"x","path":null,"include":"*.rs"}"#,
        )
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
                Tool::Glob,
                r#"{"pattern":"*","include":"x"}"#,
                "arguments",
                "no argument `include`",
            ),
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
            let e = parse(tool, text).unwrap_err();
            assert_eq!(e.field, field, "{text}");
            assert!(e.message.contains(message), "{text}: {}", e.message);
        }
    }
}
