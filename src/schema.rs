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
#[path = "../tests/unit/schema.rs"]
mod tests;
