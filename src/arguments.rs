//! Tool arguments as the JSON object a model produced (`call` and MCP's
//! `tools/call`). Wrong types and a missing `pattern` are argument errors
//! that name the field. Unknown fields are ignored and reported (SPEC §8):
//! agent clients add their own (Gemini CLI adds `wait_for_previous` to every
//! MCP tool), and such a call must still run. The rules of SPEC §3 are then
//! applied by `request`, exactly as for argv.

use serde_json::{Map, Value};

use crate::error::ArgumentError;
use crate::request::{GlobRequest, GrepRequest, Ignored, Request};
use crate::tool::{ArgReader, Argument, Tool, ToolArgs};

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
    /// What was given and not used: unknown fields, in the order given,
    /// then arguments the others make moot.
    pub ignored: Vec<Ignored>,
}

impl Arguments {
    /// Arguments that broke a rule, with nothing ignored.
    pub fn rejected(e: ArgumentError) -> Self {
        Self {
            request: Err(e),
            ignored: Vec::new(),
        }
    }

    /// The arguments a front-end read (the command line, a JSON object),
    /// with SPEC §3's rules applied; `ignored` is what it did not read.
    pub fn new(args: ToolArgs, mut ignored: Vec<Ignored>) -> Self {
        let request = match args {
            ToolArgs::Glob(args) => GlobRequest::new(args).map(Request::Glob),
            ToolArgs::Grep(args) => GrepRequest::new(args).map(|(request, moot)| {
                ignored.extend(moot);
                Request::Grep(request)
            }),
        };
        Self { request, ignored }
    }
}

/// Parse `text` as the arguments of `tool`.
pub fn parse(tool: Tool, text: &str) -> Arguments {
    if text.trim().is_empty() {
        return Arguments::rejected(ArgumentError::new(
            "arguments",
            format!(
                "{tool} got no arguments: pass a JSON object such as {{\"pattern\": \"...\"}}, on the command line or on stdin"
            ),
        ));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value) => arguments(tool, &value),
        Err(e) => Arguments::rejected(ArgumentError::new("arguments", not_json(tool, &e))),
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
    if detail.starts_with("recursion limit exceeded") {
        // serde_json reads at most 127 levels of arrays and objects, so a
        // deeper value is refused before it can exhaust the stack.
        return format!(
            "{tool} arguments nest deeper than 127 levels of arrays and objects ({detail}); pass an object such as {{\"pattern\": \"...\"}}"
        );
    }
    format!(
        "{tool} arguments are not valid JSON ({detail}); pass an object such as {{\"pattern\": \"...\"}}"
    )
}

/// The arguments of `tool` from a JSON value.
pub fn arguments(tool: Tool, value: &Value) -> Arguments {
    let Value::Object(map) = value else {
        return Arguments::rejected(ArgumentError::new(
            "arguments",
            format!("{tool} arguments must be a JSON object such as {{\"pattern\": \"...\"}}"),
        ));
    };
    let unknown = map
        .keys()
        .filter(|k| !tool.arguments().iter().any(|a| a.name == *k))
        .map(|k| Ignored::Unknown(k.clone()))
        .collect();
    match ToolArgs::from_reader(tool, &mut Fields { tool, map }) {
        Ok(args) => Arguments::new(args, unknown),
        Err(e) => Arguments {
            request: Err(e),
            ignored: unknown,
        },
    }
}

/// The arguments object of a call of `tool`, read by the table (the rules
/// of SPEC §3 are then `request`'s, as for argv). An argument absent or
/// `null` is not given (models often send `null` for an optional argument
/// they do not use).
struct Fields<'a> {
    tool: Tool,
    map: &'a Map<String, Value>,
}

impl Fields<'_> {
    /// The value given for `row` as `typed` reads it; `want` says what
    /// it must be when `typed` cannot read it. A required one must be there.
    fn given<T>(
        &self,
        row: &Argument,
        want: impl Fn(&Value) -> &'static str,
        typed: impl Fn(&Value) -> Option<T>,
    ) -> Result<Option<T>, ArgumentError> {
        let (tool, name) = (self.tool, row.name);
        let given = match self.map.get(name) {
            None | Some(Value::Null) if row.required => {
                let message = format!("{tool} needs a `{name}` string argument");
                return Err(ArgumentError::new(name, message));
            }
            None | Some(Value::Null) => return Ok(None),
            Some(given) => given,
        };
        typed(given).map(Some).ok_or_else(|| {
            let (want, kind) = (want(given), kind(given));
            let message = format!("{tool} argument `{name}` must be {want}, not {kind}");
            ArgumentError::new(name, message)
        })
    }
}

impl ArgReader for Fields<'_> {
    type Error = ArgumentError;

    fn text(&mut self, row: &Argument) -> Result<Option<String>, ArgumentError> {
        self.given(row, |_| "a string", |v| v.as_str().map(str::to_owned))
    }

    fn switch(&mut self, row: &Argument) -> Result<bool, ArgumentError> {
        let on = self.given(row, |_| "true or false", Value::as_bool)?;
        Ok(on.unwrap_or(false))
    }

    fn number(&mut self, row: &Argument) -> Result<Option<u64>, ArgumentError> {
        let want = |given: &Value| match given {
            Value::Number(_) => "a whole number of at least 0",
            _ => "a whole number",
        };
        self.given(row, want, Value::as_u64)
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
#[path = "../tests/unit/arguments.rs"]
mod tests;
