//! The JSON envelope of SPEC §7: one object per call, success or failure,
//! made from the same [`Response`] as the text, whose output is its `text`
//! field. Every envelope is a typed struct (the output schema in `schema`
//! is tested against them); fields may be added over time, never renamed
//! (`version` stays 1 until then).

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use super::text;
use crate::error::Error;
use crate::response::{Body, Response};
use crate::search::report::{Hint, Items, LineMatch, Report, Spill};
use crate::tool::Tool;

const VERSION: u32 = 1;

/// One call's envelope.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Envelope<'a> {
    Results(Results<'a>),
    Failure(Failure<'a>),
}

/// The envelope of a search that stands (results or empty).
#[derive(Debug, Serialize)]
pub struct Results<'a> {
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
    hints: Vec<HintJson<'a>>,
    text: Cow<'a, str>,
}

#[derive(Debug, Serialize)]
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

#[derive(Debug, Serialize)]
struct SpillJson<'a> {
    locator: Cow<'a, str>,
    retrieval_hint: &'a str,
}

/// A hint, `kind` first.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum HintJson<'a> {
    Ignored {
        count: usize,
        complete: bool,
        examples: &'a [String],
        path: &'a str,
    },
    Case {
        count: usize,
        complete: bool,
        examples: &'a [String],
    },
    Remainder {
        count: usize,
        places: Vec<PlaceJson<'a>>,
    },
}

#[derive(Debug, Serialize)]
struct PlaceJson<'a> {
    path: &'a str,
    count: usize,
}

/// The envelope of a failed call.
#[derive(Debug, Serialize)]
pub struct Failure<'a> {
    version: u32,
    tool: Option<&'static str>,
    ok: bool,
    error: ErrorJson,
    text: Cow<'a, str>,
    /// A timed-out search's page of what it found.
    #[serde(skip_serializing_if = "Option::is_none")]
    partial: Option<Results<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

#[derive(Debug, Serialize)]
struct ErrorJson {
    name: &'static str,
    code: &'static str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'static str>,
}

/// The envelope of `response`, whose text form is `text` (as
/// `text::response` made it).
pub fn envelope<'a>(response: &'a Response, text: &'a str) -> Envelope<'a> {
    let ignored = response
        .ignored
        .iter()
        .map(|name| text::ignored_warning(name));
    match &response.body {
        Body::Results(report) => {
            let mut results = results(report, Cow::Borrowed(text));
            results.warnings.extend(ignored);
            Envelope::Results(results)
        }
        Body::Failed { error, partial } => Envelope::Failure(failure(
            response.tool,
            error,
            Cow::Borrowed(text),
            partial.as_deref(),
            ignored.collect(),
        )),
    }
}

/// The envelope as one line of JSON (no newline).
pub fn to_line(envelope: &Envelope<'_>) -> String {
    serde_json::to_string(envelope).unwrap_or_else(|e| unserializable(&e).to_string())
}

/// The envelope as a JSON value (MCP's `structuredContent`).
pub fn to_value(envelope: &Envelope<'_>) -> Value {
    serde_json::to_value(envelope).unwrap_or_else(|e| unserializable(&e))
}

/// What is printed if an envelope cannot be serialized. Every field is a
/// string, number, bool or list of them, so `serde_json` cannot fail; were
/// it to, the caller still gets one JSON object that says so.
fn unserializable(e: &serde_json::Error) -> Value {
    let message = format!("the JSON envelope could not be written: {e}");
    serde_json::json!({
        "version": VERSION,
        "ok": false,
        "error": {"name": "SearchError", "code": "SEARCH_FAILED", "message": message},
        "text": text::error_message(&message),
    })
}

fn results<'a>(r: &'a Report, text: Cow<'a, str>) -> Results<'a> {
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
                locator: locator.to_string_lossy(),
                retrieval_hint: hint,
            }),
            None,
        ),
        Spill::NotSaved { reason } => (None, Some(reason.as_str())),
    };
    Results {
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
        text,
    }
}

fn hint(h: &Hint) -> HintJson<'_> {
    match h {
        Hint::Ignored {
            count,
            complete,
            examples,
            path,
        } => HintJson::Ignored {
            count: *count,
            complete: *complete,
            examples,
            path,
        },
        Hint::Case {
            count,
            complete,
            examples,
        } => HintJson::Case {
            count: *count,
            complete: *complete,
            examples,
        },
        Hint::Remainder { count, places } => HintJson::Remainder {
            count: *count,
            places: places
                .iter()
                .map(|(path, count)| PlaceJson {
                    path,
                    count: *count,
                })
                .collect(),
        },
    }
}

fn failure<'a>(
    tool: Option<Tool>,
    error: &Error,
    text: Cow<'a, str>,
    partial: Option<&'a Report>,
    warnings: Vec<String>,
) -> Failure<'a> {
    let code = error.code();
    Failure {
        version: VERSION,
        tool: tool.map(Tool::as_str),
        ok: false,
        error: ErrorJson {
            name: code.name(),
            code: code.as_str(),
            message: error.to_string(),
            field: error.field(),
        },
        text,
        partial: partial.map(|p| results(p, Cow::Owned(text::report(p)))),
        warnings,
    }
}
