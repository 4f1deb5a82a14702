//! The tool definitions: names, descriptions (stating the active caps),
//! argument JSON Schemas and the prompt guidance. The one source for
//! `dsh-search schema` and the MCP server's `tools/list` and
//! `instructions`, so the two can never disagree.

use serde_json::{Map, Value, json};

use crate::error::ErrorCode;
use crate::settings::{GlobSort, Settings};
use crate::tool::{ArgKind, Tool, VCS_DIRS};

/// glob's prompt guidance (SPEC §8), word for word: every agent's system prompt holds it.
pub const GLOB_GUIDANCE: &str = "Use the glob tool — not shell find or ls — to discover files by path pattern. Results are sorted by modification time and include hidden and ignored files.";
/// grep's prompt guidance (SPEC §8), word for word: every agent's system prompt holds it.
pub const GREP_GUIDANCE: &str = "Use the grep tool — not shell grep or rg — to search file contents. Use read on a matched file when you need surrounding context.";

/// Both guidance texts, as one system-prompt section.
pub fn instructions() -> String {
    format!("{GLOB_GUIDANCE}\n\n{GREP_GUIDANCE}")
}

pub fn guidance(tool: Tool) -> &'static str {
    match tool {
        Tool::Glob => GLOB_GUIDANCE,
        Tool::Grep => GREP_GUIDANCE,
    }
}

/// A short human-readable name, for clients that show one.
pub fn title(tool: Tool) -> &'static str {
    match tool {
        Tool::Glob => "Find files by glob",
        Tool::Grep => "Search file contents",
    }
}

/// What both tools are, for clients that decide on approval by it: they
/// only read the workdir, change nothing, give the same answer for the same
/// tree, and reach nothing outside it. (Codex runs read-only tools without
/// asking; without this, `codex exec` refuses every call.)
pub fn annotations() -> Value {
    json!({
        "readOnlyHint": true,
        "destructiveHint": false,
        "idempotentHint": true,
        "openWorldHint": false
    })
}

/// A file of a grep page: its matched lines (and context lines, when
/// asked) for content, the path alone for files, its count of matched
/// lines for count.
fn file_item() -> Value {
    let preview = json!({
        "type": "object",
        "required": ["line_number", "preview", "line_truncated"],
        "properties": {
            "line_number": {"type": "integer", "minimum": 1},
            "preview": {"type": "string"},
            "line_truncated": {"type": "boolean"},
            // With function_context: a match's enclosing definition, or null.
            "definition": {"anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["name", "kind", "start_line", "end_line"],
                    "properties": {
                        "name": {"type": "string"},
                        "kind": {"type": "string"},
                        "start_line": {"type": "integer", "minimum": 1},
                        "end_line": {"type": "integer", "minimum": 1}
                    }
                }
            ]}
        }
    });
    json!({
        "type": "object",
        "required": ["path"],
        "properties": {
            "path": {"type": "string"},
            "matches": {"type": "array", "items": preview},
            "context": {"type": "array", "items": preview},
            "count": {"type": "integer", "minimum": 0}
        }
    })
}

/// The JSON Schema of the envelope `--format json` prints (SPEC §7), as a
/// tool's `outputSchema`: one object for success and failure alike. Fields
/// may be added later, so other properties are allowed.
pub fn output_schema(tool: Tool) -> Value {
    let tool_name = tool.as_str();
    let count = json!({"type": "integer", "minimum": 0});
    let strings = json!({"type": "array", "items": {"type": "string"}});
    // Where to look next (SPEC §4a); which fields a hint has depends on its kind.
    let hint = json!({
        "type": "object",
        "required": ["kind", "count"],
        "properties": {
            "kind": {"enum": ["ignored", "case", "links", "remainder"]},
            "count": count,
            "complete": {"type": "boolean"},
            // Paths; for `links`, each path with the link it was reached
            // through and the link's target.
            "examples": {"type": "array", "items": {"anyOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "required": ["path", "link", "target"],
                    "properties": {
                        "path": {"type": "string"},
                        "link": {"type": "string"},
                        "target": {"type": "string"}
                    }
                }
            ]}},
            "path": {"type": "string"},
            "places": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["path", "count"],
                    "properties": {"path": {"type": "string"}, "count": count}
                }
            }
        }
    });
    let success = json!({
        "type": "object",
        "required": ["version", "tool", "ok", "status", "total", "shown", "truncated", "spill", "spill_error", "warnings", "hints", "text"],
        "properties": {
            "version": {"const": 1},
            "tool": {"const": tool_name},
            "ok": {"const": true},
            "status": {"enum": ["results", "empty"]},
            // grep's output mode, when not content (SPEC §3a).
            "output": {"enum": ["files", "count"]},
            "paths": strings,
            "files": {"type": "array", "items": file_item()},
            "total": count,
            "shown": count,
            "truncated": {"type": "boolean"},
            // Where a page asked for starts, and the next one (SPEC §3b).
            "offset": count,
            "next_offset": {"type": ["integer", "null"], "minimum": 0},
            "total_files": count,
            "total_matches": count,
            "binary_files": strings,
            // With function_context: shown files with matches it could not parse (cleanly).
            "unparsed_files": count,
            "spill": {
                "anyOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "required": ["locator", "retrieval_hint"],
                        "properties": {
                            "locator": {"type": "string"},
                            "retrieval_hint": {"type": "string"}
                        }
                    }
                ]
            },
            "spill_error": {"type": ["string", "null"]},
            "warnings": strings,
            "hints": {"type": "array", "items": hint},
            "text": {"type": "string"}
        }
    });
    let mut names = ErrorCode::ALL.map(ErrorCode::name).to_vec();
    names.dedup();
    let failure = json!({
        "type": "object",
        "required": ["version", "tool", "ok", "error", "text"],
        "properties": {
            "version": {"const": 1},
            "tool": {"const": tool_name},
            "ok": {"const": false},
            "error": {
                "type": "object",
                "required": ["name", "code", "message"],
                "properties": {
                    "name": {"enum": names},
                    "code": {"enum": ErrorCode::ALL.map(ErrorCode::as_str)},
                    "message": {"type": "string"},
                    "field": {"type": "string"}
                }
            },
            "warnings": strings,
            // A timeout that found something: the result envelope of that.
            "partial": success,
            "text": {"type": "string"}
        }
    });
    json!({"type": "object", "anyOf": [success, failure]})
}

/// The model-facing description, with the caps in force.
pub fn description(tool: Tool, settings: &Settings) -> String {
    let l = &settings.limits;
    match tool {
        Tool::Glob => {
            let order = match settings.glob_sort {
                GlobSort::Newest => "newest first by modification time",
                GlobSort::Oldest => "oldest first by modification time",
                GlobSort::Path => "in path order",
            };
            format!(
                "Find files whose paths match a glob pattern (ripgrep glob syntax, such as **/*.rs or src/**/*.ts). \
                 Searches the workdir, or the directory given as path. Hidden and ignored files are included; \
                 VCS directories ({}) are skipped. Returns one path per line, {order}, \
                 at most {} paths; a longer result ends with a note that says where the complete list is stored.",
                VCS_DIRS.join(", "),
                l.glob_max_results
            )
        }
        Tool::Grep => format!(
            "Search file contents with a ripgrep regex. path is an optional file or directory; include and \
             exclude are each one glob (several in braces; no comma lists, no ! negation). \
             .gitignore rules apply and hidden files are skipped. Returns matching lines grouped by file as \
             \"Line N: text\", files in path order, at most {} matching lines, each cut at {} bytes; a longer \
             result ends with a note that says where the complete result is stored.",
            l.grep_max_matches, l.grep_max_line_bytes
        ),
    }
}

/// The JSON Schema of a tool's arguments, from its table (`tool`).
pub fn input_schema(tool: Tool) -> Value {
    let mut properties = Map::new();
    for argument in tool.arguments() {
        let mut property = match argument.kind {
            ArgKind::Text { .. } => json!({"type": "string"}),
            ArgKind::Switch => json!({"type": "boolean"}),
            ArgKind::Number { min, max, .. } => match max {
                Some(max) => json!({"type": "integer", "minimum": min, "maximum": max}),
                None => json!({"type": "integer", "minimum": min}),
            },
            ArgKind::Choice { values, .. } => json!({"type": "string", "enum": values}),
        };
        // Last, after what the kind says (the object keeps its order).
        property["description"] = json!(argument.description);
        properties.insert(argument.name.to_owned(), property);
    }
    let required: Vec<&str> = tool
        .arguments()
        .iter()
        .filter(|a| a.required)
        .map(|a| a.name)
        .collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false
    })
}

/// `dsh-search schema`: both tools, in the shape SPEC §8 gives (doc/AGENTS.md
/// shows it).
pub fn document(settings: &Settings) -> Value {
    let tools: Vec<Value> = Tool::ALL
        .iter()
        .map(|&tool| {
            json!({
                "name": tool.as_str(),
                "title": title(tool),
                "description": description(tool, settings),
                "input_schema": input_schema(tool),
                "annotations": annotations(),
                "guidance": guidance(tool),
            })
        })
        .collect();
    json!({
        "version": 1,
        "tools": tools,
        "instructions": instructions(),
    })
}

#[cfg(test)]
mod tests {
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
}
