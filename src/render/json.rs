//! The JSON envelope of SPEC §7: one object per call, success or failure,
//! made from the same [`Response`] as the text, whose output is its `text`
//! field. Every envelope is a typed struct (the output schema in `schema`
//! is tested against them); fields may be added over time, never renamed
//! (`version` stays 1 until then).

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use super::text;
use crate::error::ErrorCode;
use crate::response::{Body, Response};
use crate::search::report::{Hint, Items, Report, ShownLine, Spill};
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
    /// grep's output mode, when not `content`.
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<Vec<Cow<'a, str>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    files: Option<Vec<FileJson<'a>>>,
    /// Entries: paths, matched lines (content) or files (files, count).
    total: usize,
    shown: usize,
    truncated: bool,
    /// Where the page starts and the next one does, when a page was
    /// asked for (SPEC §3b).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    page: Option<PageJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total_files: Option<usize>,
    /// grep count: matched lines in all files.
    #[serde(skip_serializing_if = "Option::is_none")]
    total_matches: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    binary_files: Option<&'a [String]>,
    /// With function context: the files shown with matches it could not
    /// parse (cleanly).
    #[serde(skip_serializing_if = "Option::is_none")]
    unparsed_files: Option<usize>,
    spill: Option<SpillJson<'a>>,
    spill_error: Option<&'a str>,
    warnings: Vec<String>,
    /// Where to look next (SPEC §4a).
    hints: Vec<HintJson<'a>>,
    text: Cow<'a, str>,
}

/// One file of a grep page, as its mode shows it.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum FileJson<'a> {
    /// content: its matched lines, and (when asked) the context lines apart.
    Lines {
        path: &'a str,
        matches: Vec<LineJson<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        context: Option<Vec<LineJson<'a>>>,
    },
    /// files.
    Path { path: Cow<'a, str> },
    /// count.
    Count { path: &'a str, count: u64 },
}

#[derive(Debug, Serialize)]
struct LineJson<'a> {
    line_number: u64,
    preview: &'a str,
    line_truncated: bool,
    /// With function context, a matched line's definition (`null`: none).
    #[serde(skip_serializing_if = "Enclosing::not_asked")]
    definition: Enclosing<'a>,
}

/// A line's `definition`: left out unless function context was asked
/// for and the line matched; then the definition, or `null`.
#[derive(Debug)]
enum Enclosing<'a> {
    NotAsked,
    None,
    Found(DefinitionJson<'a>),
}

impl Enclosing<'_> {
    fn not_asked(&self) -> bool {
        matches!(self, Enclosing::NotAsked)
    }
}

impl Serialize for Enclosing<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Enclosing::Found(d) => d.serialize(s),
            Enclosing::NotAsked | Enclosing::None => s.serialize_none(),
        }
    }
}

#[derive(Debug, Serialize)]
struct DefinitionJson<'a> {
    name: &'a str,
    kind: &'a str,
    start_line: u64,
    end_line: u64,
}

impl<'a> LineJson<'a> {
    /// `line` as JSON; with `function` (function context asked), a
    /// matched line carries its definition.
    fn new(line: &'a ShownLine, function: bool) -> Self {
        Self {
            line_number: line.number,
            preview: &line.preview,
            line_truncated: line.truncated,
            definition: match (function && line.matched, line.definition.as_deref()) {
                (false, _) => Enclosing::NotAsked,
                (true, None) => Enclosing::None,
                (true, Some(d)) => Enclosing::Found(DefinitionJson {
                    name: &d.name,
                    kind: d.kind,
                    start_line: d.start_line,
                    end_line: d.end_line,
                }),
            },
        }
    }
}

#[derive(Debug, Serialize)]
struct PageJson {
    offset: usize,
    /// `null` when no entry follows the page.
    next_offset: Option<usize>,
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
    Links {
        count: usize,
        complete: bool,
        examples: Vec<LinkedJson<'a>>,
    },
    Remainder {
        count: usize,
        places: Vec<PlaceJson<'a>>,
    },
}

/// A path reached through a link, the link, and what it points to.
#[derive(Debug, Serialize)]
struct LinkedJson<'a> {
    path: &'a str,
    link: &'a str,
    target: &'a str,
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
    let ignored = response.ignored.iter().map(text::ignored_warning);
    match &response.body {
        Body::Results(report) => {
            let mut results = results(report, Cow::Borrowed(text));
            results.warnings.extend(ignored);
            Envelope::Results(results)
        }
        Body::Failed { error, partial } => {
            let code = error.code();
            Envelope::Failure(Failure {
                version: VERSION,
                tool: response.tool.map(Tool::as_str),
                ok: false,
                error: ErrorJson {
                    name: code.name(),
                    code: code.as_str(),
                    message: error.to_string(),
                    field: error.field(),
                },
                text: Cow::Borrowed(text),
                partial: partial
                    .as_deref()
                    .map(|p| results(p, Cow::Owned(text::report(p)))),
                warnings: ignored.collect(),
            })
        }
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
/// it to, the caller still gets one JSON object that says so. Its code is
/// `SEARCH_FAILED`: the call's result is lost as when rg's output cannot
/// be parsed, and the output schema's `error.code` holds only SPEC §6's
/// codes.
fn unserializable(e: &serde_json::Error) -> Value {
    let message = format!("the JSON envelope could not be written: {e}");
    let code = ErrorCode::SearchFailed;
    serde_json::json!({
        "version": VERSION,
        "ok": false,
        "error": {"name": code.name(), "code": code.as_str(), "message": message},
        "text": text::error_message(&message),
    })
}

fn results<'a>(r: &'a Report, text: Cow<'a, str>) -> Results<'a> {
    let (output, paths, files, binary_files) = match &r.items {
        Items::Glob(_) => (None, Some(r.path_page()), None, None),
        Items::Lines(_) => {
            let page = r
                .line_page()
                .into_iter()
                .map(|(path, lines)| {
                    let (matched, context): (Vec<_>, Vec<_>) =
                        lines.iter().map(|(_, l)| *l).partition(|l| l.matched);
                    let function = r.context.function;
                    FileJson::Lines {
                        path,
                        matches: matched
                            .into_iter()
                            .map(|l| LineJson::new(l, function))
                            .collect(),
                        context: r.context.any().then(|| {
                            context
                                .into_iter()
                                .map(|l| LineJson::new(l, function))
                                .collect()
                        }),
                    }
                })
                .collect();
            (None, None, Some(page), Some(r.binary_files.as_slice()))
        }
        Items::Files(_) => {
            let page = r
                .path_page()
                .into_iter()
                .map(|path| FileJson::Path { path })
                .collect();
            (Some("files"), None, Some(page), None)
        }
        Items::Counts(_) => {
            let page = r
                .count_page()
                .iter()
                .map(|f| FileJson::Count {
                    path: &f.path,
                    count: f.count,
                })
                .collect();
            (Some("count"), None, Some(page), None)
        }
    };
    let total_files = (r.tool == Tool::Grep).then(|| r.total_files());
    let total_matches = match &r.items {
        Items::Counts(files) => Some(text::total_count(files)),
        _ => None,
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
        output,
        paths,
        files,
        total: r.total,
        shown: r.shown,
        truncated: r.truncated(),
        page: r.paged.then(|| PageJson {
            offset: r.offset,
            next_offset: r.next_offset(),
        }),
        total_files,
        total_matches,
        binary_files,
        unparsed_files: r.context.function.then(|| r.unparsed(false).1),
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
        Hint::Links {
            count,
            complete,
            examples,
        } => HintJson::Links {
            count: *count,
            complete: *complete,
            examples: examples
                .iter()
                .map(|linked| LinkedJson {
                    path: &linked.path,
                    link: &linked.link,
                    target: &linked.target,
                })
                .collect(),
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
