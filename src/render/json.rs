//! The JSON envelope of SPEC §7: one object per call, success or failure.
//! Its `text` field is the text renderer's output, never a second format.
//! Fields may be added over time, never renamed (`version` stays 1 until then).

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Value, json};

use super::text;
use crate::error::{ArgumentError, Error, ErrorCode};
use crate::search::report::{Hint, Items, LineMatch, Report, Spill};
use crate::tool::Tool;

const VERSION: u32 = 1;

#[derive(Serialize)]
struct Success<'a> {
    version: u32,
    tool: &'static str,
    ok: bool,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<Vec<Cow<'a, str>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    files: Option<Vec<FileJson<'a>>>,
    total: usize,
    shown: usize,
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    total_files: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    binary_files: Option<&'a [String]>,
    spill: Option<SpillJson<'a>>,
    spill_error: Option<&'a str>,
    warnings: Vec<String>,
    /// Where to look next (SPEC §4a).
    hints: Vec<Value>,
    text: String,
}

#[derive(Serialize)]
struct FileJson<'a> {
    path: &'a str,
    matches: &'a [LineMatch],
}

impl Serialize for LineMatch {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct M<'a> {
            line_number: u64,
            preview: &'a str,
            line_truncated: bool,
        }
        M {
            line_number: self.line_number,
            preview: &self.preview,
            line_truncated: self.line_truncated,
        }
        .serialize(s)
    }
}

#[derive(Serialize)]
struct SpillJson<'a> {
    locator: String,
    retrieval_hint: &'a str,
}

#[derive(Serialize)]
struct Failure<'a> {
    version: u32,
    tool: Option<&'static str>,
    ok: bool,
    error: ErrorJson<'a>,
    text: String,
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    name: &'static str,
    code: &'static str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'static str>,
}

/// The envelope of a successful search.
pub fn report(r: &Report) -> Value {
    let (paths, files, total_files, binary_files) = match &r.items {
        Items::Glob(_) => (Some(r.glob_page()), None, None, None),
        Items::Grep(_) => {
            let page = r
                .grep_page()
                .into_iter()
                .map(|(path, matches)| FileJson { path, matches })
                .collect();
            (
                None,
                Some(page),
                Some(r.total_files()),
                Some(r.binary_files.as_slice()),
            )
        }
    };
    let (spill, spill_error) = match &r.spill {
        Spill::NotNeeded => (None, None),
        Spill::Saved { locator, hint, .. } => (
            Some(SpillJson {
                locator: locator.to_string_lossy().into_owned(),
                retrieval_hint: hint,
            }),
            None,
        ),
        Spill::NotSaved { reason } => (None, Some(reason.as_str())),
    };
    let envelope = Success {
        version: VERSION,
        tool: r.tool.as_str(),
        ok: true,
        status: if r.is_empty() { "empty" } else { "results" },
        paths,
        files,
        total: r.total,
        shown: r.shown,
        truncated: r.truncated(),
        total_files,
        binary_files,
        spill,
        spill_error,
        warnings: text::warnings(r),
        hints: r.hints.iter().map(hint).collect(),
        text: text::report(r),
    };
    serde_json::to_value(envelope).unwrap_or(Value::Null)
}

fn hint(h: &Hint) -> Value {
    match h {
        Hint::Ignored {
            count,
            complete,
            examples,
            path,
        } => {
            json!({"kind": "ignored", "count": count, "complete": complete, "examples": examples, "path": path})
        }
        Hint::Case {
            count,
            complete,
            examples,
        } => json!({"kind": "case", "count": count, "complete": complete, "examples": examples}),
        Hint::Remainder { count, places } => json!({
            "kind": "remainder",
            "count": count,
            "places": places.iter().map(|(path, n)| json!({"path": path, "count": n})).collect::<Vec<_>>(),
        }),
    }
}

/// The envelope of a failed call. `tool` is `None` when the command line
/// was too broken to tell which tool was meant.
pub fn error(tool: Option<Tool>, e: &Error) -> Value {
    let message = e.to_string();
    let field = match e {
        Error::Argument(ArgumentError { field, .. }) => Some(*field),
        Error::Search(_) => None,
    };
    failure(tool, e.code(), &message, field)
}

/// The envelope of a usage error reported by the argument parser.
pub fn usage_error(tool: Option<Tool>, message: &str) -> Value {
    failure(tool, ErrorCode::InvalidArgument, message, None)
}

fn failure(
    tool: Option<Tool>,
    code: ErrorCode,
    message: &str,
    field: Option<&'static str>,
) -> Value {
    let envelope = Failure {
        version: VERSION,
        tool: tool.map(Tool::as_str),
        ok: false,
        error: ErrorJson {
            name: code.name(),
            code: code.as_str(),
            message,
            field,
        },
        text: text::error_message(message),
    };
    serde_json::to_value(envelope).unwrap_or(Value::Null)
}
