//! The tool definitions: names, descriptions (stating the active caps),
//! argument JSON Schemas and the prompt guidance. The one source for
//! `dsh-search schema` and the MCP server's `tools/list` and
//! `instructions`, so the two can never disagree.

use serde_json::{Map, Value, json};

use crate::error::ErrorCode;
use crate::settings::{GlobSort, Settings};
use crate::tool::{Tool, VCS_DIRS};

/// The seed's "Glob guidance", verbatim.
pub const GLOB_GUIDANCE: &str = "Use the glob tool — not shell find or ls — to discover files by path pattern. Results are sorted by modification time and include hidden and ignored files.";
/// The seed's "Grep guidance", verbatim.
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

/// The JSON Schema of the envelope `--format json` prints (SPEC §7), as a
/// tool's `outputSchema`: one object for success and failure alike. Fields
/// may be added later, so other properties are allowed.
pub fn output_schema(tool: Tool) -> Value {
    let tool_name = tool.as_str();
    let preview = json!({
        "type": "object",
        "required": ["line_number", "preview", "line_truncated"],
        "properties": {
            "line_number": {"type": "integer", "minimum": 1},
            "preview": {"type": "string"},
            "line_truncated": {"type": "boolean"}
        }
    });
    let count = json!({"type": "integer", "minimum": 0});
    let strings = json!({"type": "array", "items": {"type": "string"}});
    // Where to look next (SPEC §4a); which fields a hint has depends on its kind.
    let hint = json!({
        "type": "object",
        "required": ["kind", "count"],
        "properties": {
            "kind": {"enum": ["ignored", "case", "remainder"]},
            "count": count,
            "complete": {"type": "boolean"},
            "examples": strings,
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
            "paths": strings,
            "files": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["path", "matches"],
                    "properties": {
                        "path": {"type": "string"},
                        "matches": {"type": "array", "items": preview}
                    }
                }
            },
            "total": count,
            "shown": count,
            "truncated": {"type": "boolean"},
            "total_files": count,
            "binary_files": strings,
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
                    "name": {"enum": ["ArgumentError", "SearchError"]},
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
            "Search file contents with a ripgrep regex. path is an optional file or directory; include is ONE \
             glob filter on file names (such as *.rs or *.{{ts,tsx}}; no comma lists, no ! negation). \
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
        properties.insert(
            argument.name.to_owned(),
            json!({"type": "string", "description": argument.description}),
        );
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

/// `dsh-search schema`: both tools, in the shape documented in the README.
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
