//! `tools/list` and `tools/call` in both eras: the model sees exactly the
//! text the CLI prints; failures carry `{name, code}` in `_meta`.

use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use super::{
    Era, Server, both_eras, cli, error, result, tool_error, tool_result, tools_from_schema,
};
use crate::harness::{INSTALL_WAYS, TestDir};

both_eras!(
    tools_are_listed_with_title_and_annotations,
    results_and_empty_are_the_cli_text,
    a_capped_call_is_saved_and_names_the_file,
    an_argument_error_is_a_tool_error,
    an_unknown_argument_is_ignored_and_named,
    a_search_failure_is_a_tool_error,
    an_unknown_tool_is_a_protocol_error,
    an_unknown_method_is_not_found,
);

fn tree() -> TestDir {
    let t = TestDir::new();
    t.write("src/main.rs", "fn main() {}\nfn helper() {}\n");
    t.write("src/lib.rs", "pub fn lib() {}\n");
    t.write("README.md", "fn in markdown\n");
    t.mtime("src/main.rs", crate::harness::T0 + 2);
    t.mtime("src/lib.rs", crate::harness::T0 + 1);
    t.mtime("README.md", crate::harness::T0);
    t
}

/// The `tools/list` result in `era` for the tools `schema` defines under
/// `options`.
fn tools_list(t: &TestDir, era: Era, options: &[&str]) -> Value {
    let mut list = json!({ "tools": tools_from_schema(t, options) });
    if era == Era::Modern {
        list["ttlMs"] = json!(3_600_000);
        list["cacheScope"] = json!("public");
    }
    era.result(list)
}

/// Both tools, with title and annotations (Codex runs a read-only tool
/// without an approval prompt), exactly as `schema` defines them.
fn tools_are_listed_with_title_and_annotations(era: Era) {
    let t = tree();
    let mut s = Server::open(&t, &["mcp"], era);
    let reply = s.call(era, &json!(2), "tools/list", json!({}));
    assert_eq!(
        reply,
        result(&json!(2), &tools_list(&t, era, &[])),
        "{}",
        s.describe()
    );
    assert_eq!(
        reply["result"]["tools"][1]["annotations"],
        json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}),
        "{}",
        s.describe()
    );
    // Every request a client makes carries this list: the whole reply,
    // every argument of both tools included, stays within 4 KiB.
    let bytes = reply.to_string().len();
    assert!(
        bytes <= 4_096,
        "the tools/list reply ({era:?}) is {bytes} bytes: {reply}"
    );
    s.finish_clean();
}

/// A `tools/call` of `tool` with `arguments` carries the CLI's text for `argv`.
#[track_caller]
fn assert_same_as_cli(s: &mut Server, t: &TestDir, era: Era, call: (&str, Value), argv: &[&str]) {
    let (text, _) = cli(t, argv);
    let reply = s.tool(era, 3, call.0, call.1);
    assert_eq!(
        reply,
        result(&json!(3), &tool_result(era, &text)),
        "{}",
        s.describe()
    );
}

/// Results, and an empty search: the text, nothing else.
fn results_and_empty_are_the_cli_text(era: Era) {
    let t = tree();
    let mut s = Server::open(&t, &["mcp"], era);
    assert_same_as_cli(
        &mut s,
        &t,
        era,
        ("grep", json!({"pattern": "fn"})),
        &["grep", "fn"],
    );
    assert_same_as_cli(
        &mut s,
        &t,
        era,
        ("glob", json!({"pattern": "**/*.rs"})),
        &["glob", "**/*.rs"],
    );
    let reply = s.tool(era, 4, "grep", json!({"pattern": "zzz_nothing"}));
    assert_eq!(
        reply,
        result(&json!(4), &tool_result(era, "No matches found")),
        "{}",
        s.describe()
    );
    s.finish_clean();
}

/// A capped grep saves its complete result; the page names the file.
/// Global options before and after `mcp` apply to every call.
fn a_capped_call_is_saved_and_names_the_file(era: Era) {
    let t = tree();
    let spill = tempfile::tempdir().unwrap();
    let spill_dir = spill.path().to_str().unwrap();
    let mut s = Server::open(
        &t,
        &["--grep-max-matches", "1", "mcp", "--spill-dir", spill_dir],
        era,
    );
    let options = ["--grep-max-matches", "1", "--spill-dir", spill_dir];
    let listed = s.call(era, &json!(2), "tools/list", json!({}));
    assert_eq!(
        listed,
        result(&json!(2), &tools_list(&t, era, &options)),
        "{}",
        s.describe()
    );
    let argv: Vec<&str> = options.iter().copied().chain(["grep", "fn"]).collect();
    let (text, envelope) = cli(&t, &argv);
    let locator = envelope["spill"]["locator"].as_str().unwrap().to_owned();
    assert_eq!(
        text,
        format!(
            "Found 1 of 4 matches\n\nREADME.md\nLine 1: fn in markdown\n\n(The other 3 matches: src/main.rs 2, src/lib.rs 1)\n\n(Full grep result stored at: {locator}. Use read with offset/limit, or grep this path to search within it.)"
        ),
        "the CLI's text for {argv:?}"
    );
    let reply = s.tool(era, 3, "grep", json!({"pattern": "fn"}));
    assert_eq!(
        reply,
        result(&json!(3), &tool_result(era, &text)),
        "{}",
        s.describe()
    );
    assert_eq!(
        Path::new(&locator).parent(),
        Some(spill.path()),
        "{}",
        s.describe()
    );
    assert_eq!(
        fs::read_to_string(&locator).unwrap(),
        "Found 4 matches\n\nREADME.md\nLine 1: fn in markdown\n\nsrc/lib.rs\nLine 1: pub fn lib() {}\n\nsrc/main.rs\nLine 1: fn main() {}\nLine 2: fn helper() {}",
        "{}",
        s.describe()
    );
    s.finish_clean();
}

/// A model mistake is a tool error the model sees and can fix.
fn an_argument_error_is_a_tool_error(era: Era) {
    let t = tree();
    let mut s = Server::open(&t, &["mcp"], era);
    let reply = s.tool(era, 3, "glob", json!({"pattern": "!*.rs"}));
    let want = tool_error(
        era,
        "Error: glob pattern must not start with '!': negated globs are not supported; pass the files you want, such as **/*.rs",
        "ArgumentError",
        "INVALID_ARGUMENT",
    );
    assert_eq!(reply, result(&json!(3), &want), "{}", s.describe());
    let reply = s.tool(era, 4, "grep", json!({"pattern": 7}));
    let want = tool_error(
        era,
        "Error: grep argument `pattern` must be a string, not a number",
        "ArgumentError",
        "INVALID_ARGUMENT",
    );
    assert_eq!(reply, result(&json!(4), &want), "{}", s.describe());
    s.finish_clean();
}

/// Gemini CLI adds `wait_for_previous` to every MCP tool call: the call
/// runs, and says what it ignored.
fn an_unknown_argument_is_ignored_and_named(era: Era) {
    let t = tree();
    let mut s = Server::open(&t, &["mcp"], era);
    let (text, _) = cli(&t, &["grep", "helper"]);
    let reply = s.tool(
        era,
        3,
        "grep",
        json!({"pattern": "helper", "wait_for_previous": true}),
    );
    let want = format!("{text}\n\n(ignored unknown argument: wait_for_previous)");
    assert_eq!(
        reply,
        result(&json!(3), &tool_result(era, &want)),
        "{}",
        s.describe()
    );
    let reply = s.tool(
        era,
        4,
        "glob",
        json!({"pattern": "*.nothing", "a": 1, "b": null}),
    );
    let want = "No files found\n\n(ignored unknown arguments: a, b)";
    assert_eq!(
        reply,
        result(&json!(4), &tool_result(era, want)),
        "{}",
        s.describe()
    );
    s.finish_clean();
}

/// A search that cannot run is a tool error with the search's code.
fn a_search_failure_is_a_tool_error(era: Era) {
    let t = tree();
    let mut s = Server::open(&t, &["--rg", "/nonexistent/rg", "mcp"], era);
    let reply = s.tool(era, 3, "grep", json!({"pattern": "x"}));
    let want = tool_error(
        era,
        &format!(
            "Error: grep requires ripgrep (rg), but {} does not exist. Install ripgrep ({INSTALL_WAYS}) or point --rg / DSH_SEARCH_RG at the rg executable.",
            t.absolute("/nonexistent/rg")
        ),
        "SearchError",
        "SEARCH_FAILED",
    );
    assert_eq!(reply, result(&json!(3), &want), "{}", s.describe());
    s.finish_clean();
}

/// Every revision makes an unknown tool, or a call without a name, a
/// JSON-RPC error (-32602), not a tool result.
fn an_unknown_tool_is_a_protocol_error(era: Era) {
    let t = tree();
    let mut s = Server::open(&t, &["mcp"], era);
    let reply = s.tool(era, 3, "find", json!({"pattern": "x"}));
    assert_eq!(
        reply,
        error(
            &json!(3),
            -32602,
            "Unknown tool: find; this server offers glob and grep"
        ),
        "{}",
        s.describe()
    );
    let reply = s.call(era, &json!(4), "tools/call", json!({"arguments": {}}));
    assert_eq!(
        reply,
        error(&json!(4), -32602, "tools/call needs a `name` string"),
        "{}",
        s.describe()
    );
    s.finish_clean();
}

/// Methods the server does not have: -32601, naming the method.
fn an_unknown_method_is_not_found(era: Era) {
    let t = tree();
    let mut s = Server::open(&t, &["mcp"], era);
    let reply = s.call(era, &json!(3), "resources/list", json!({}));
    assert_eq!(
        reply,
        error(
            &json!(3),
            -32601,
            "method `resources/list` is not supported"
        ),
        "{}",
        s.describe()
    );
    s.finish_clean();
}
