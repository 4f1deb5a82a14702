//! `--format json` (SPEC §7): exactly one JSON object and a newline on
//! stdout for every outcome, the exit codes of text mode, the envelope's
//! keys in SPEC §7's order, and a `text` field that is the text-mode
//! stdout of the same call without its final newline.

use std::fs;

use serde_json::{Value, json};

use crate::harness::{
    INSTALL_WAYS, Ran, T0, TestDir, assert_exit, assert_json, assert_out, canonical, spill_file,
    stdout, stdout_json,
};

const DEFAULT_HINT: &str = "Use read with offset/limit, or grep this path to search within it.";

/// Key order of the envelopes, SPEC §7.
const GLOB_KEYS: [&str; 13] = [
    "version",
    "tool",
    "ok",
    "status",
    "paths",
    "total",
    "shown",
    "truncated",
    "spill",
    "spill_error",
    "warnings",
    "hints",
    "text",
];
const GREP_KEYS: [&str; 15] = [
    "version",
    "tool",
    "ok",
    "status",
    "files",
    "total",
    "shown",
    "truncated",
    "total_files",
    "binary_files",
    "spill",
    "spill_error",
    "warnings",
    "hints",
    "text",
];
const ERROR_KEYS: [&str; 5] = ["version", "tool", "ok", "error", "text"];

/// The keys of the outermost object of `raw`, in the order they appear.
fn top_level_keys(raw: &str) -> Vec<String> {
    let bytes = raw.as_bytes();
    let mut keys = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth -= 1,
            b'"' => {
                let start = i + 1;
                i += 1;
                while bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let rest = raw[i + 1..].trim_start();
                if depth == 1 && rest.starts_with(':') {
                    let key: String = serde_json::from_str(&raw[start - 1..=i]).unwrap();
                    keys.push(key);
                }
            }
            _ => {}
        }
        i += 1;
    }
    keys
}

/// stdout of a JSON-mode run: one line, one object. Returns it parsed.
#[track_caller]
fn one_object(out: &Ran) -> Value {
    let raw = stdout(out);
    assert!(
        raw.ends_with('\n') && raw.matches('\n').count() == 1,
        "not one line: {out:?}"
    );
    let mut values = serde_json::Deserializer::from_str(&raw).into_iter::<Value>();
    let value = values
        .next()
        .and_then(Result::ok)
        .unwrap_or_else(|| panic!("not JSON: {out:?}"));
    assert!(values.next().is_none(), "more than one value: {out:?}");
    assert!(value.is_object(), "{out:?}");
    let expected: &[&str] = match (&value["ok"], &value["tool"]) {
        (Value::Bool(false), _) => &ERROR_KEYS,
        (_, Value::String(t)) if t == "glob" => &GLOB_KEYS,
        _ => &GREP_KEYS,
    };
    assert_eq!(top_level_keys(&raw), expected, "key order: {out:?}");
    value
}

/// Run `args` with `--format json`, with `DSH_SEARCH_FORMAT=json`, and in
/// text mode: one JSON object either way, the same bytes, the same exit
/// code as text mode, and `text` equal to the text stdout minus its final
/// newline. Returns the `--format json` run.
#[track_caller]
fn run(t: &TestDir, args: &[&str]) -> Ran {
    let by_flag = t
        .cmd()
        .args(["--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let by_env = t
        .cmd()
        .env("DSH_SEARCH_FORMAT", "json")
        .args(args)
        .output()
        .unwrap();
    let text = t.run(args);
    let json = one_object(&by_flag);
    assert_eq!(
        stdout(&by_env),
        stdout(&by_flag),
        "env and flag differ: {by_env:?}\n=== flag\n{by_flag:?}"
    );
    assert_eq!(
        (by_flag.status.code(), by_env.status.code()),
        (text.status.code(), text.status.code()),
        "exit codes of json vs text mode: {} and {} vs {}",
        by_flag.describe(),
        by_env.describe(),
        text.describe()
    );
    let text_out = stdout(&text);
    let text_out = text_out
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("text stdout without final newline: {text:?}"));
    assert_eq!(
        json["text"],
        json!(text_out),
        "text field of {} vs text mode {}",
        by_flag.describe(),
        text.describe()
    );
    by_flag
}

/// A successful glob envelope.
fn glob_envelope(paths: &[&str], total: usize, text: &str) -> Value {
    json!({
        "version": 1, "tool": "glob", "ok": true,
        "status": if total == 0 { "empty" } else { "results" },
        "paths": paths, "total": total, "shown": paths.len(),
        "truncated": paths.len() < total,
        "spill": null, "spill_error": null, "warnings": [], "hints": [], "text": text,
    })
}

/// A failure envelope.
fn error_envelope(tool: &str, name: &str, code: &str, message: &str) -> Value {
    json!({
        "version": 1, "tool": tool, "ok": false,
        "error": {"name": name, "code": code, "message": message},
        "text": format!("Error: {message}"),
    })
}

/// The name in [`glob_tree`] with a tab (a space on Windows, which cannot
/// hold one), and how text output shows it.
#[cfg(unix)]
const ODD: (&str, &str) = ("b\tc.rs", "b\\tc.rs");
#[cfg(windows)]
const ODD: (&str, &str) = ("b c.rs", "b c.rs");

/// Three files with distinct mtimes, one with a tab in its name.
fn glob_tree() -> TestDir {
    let t = TestDir::new();
    for (i, rel) in (1..).zip(["a.rs", ODD.0, "src/d.rs"]) {
        t.write(rel, "x\n");
        t.mtime(rel, T0 + i);
    }
    t
}

#[test]
fn glob_results() {
    let t = glob_tree();
    let r = run(&t, &["glob", "*.rs"]);
    // JSON carries the path as is; text escapes the tab.
    assert_json(
        &r,
        0,
        &glob_envelope(
            &["src/d.rs", ODD.0, "a.rs"],
            3,
            &format!("src/d.rs\n{}\na.rs", ODD.1),
        ),
    );
    // The format option after the subcommand works the same.
    let after = t.run(&["glob", "*.rs", "--format", "json"]);
    assert_eq!(stdout(&after), stdout(&r), "{after:?}");
}

#[test]
fn glob_results_byte_for_byte() {
    let t = glob_tree();
    let r = run(&t, &["glob", "src/**"]);
    assert_eq!(
        stdout(&r),
        "{\"version\":1,\"tool\":\"glob\",\"ok\":true,\"status\":\"results\",\
         \"paths\":[\"src/d.rs\"],\"total\":1,\"shown\":1,\"truncated\":false,\
         \"spill\":null,\"spill_error\":null,\"warnings\":[],\"hints\":[],\"text\":\"src/d.rs\"}\n",
        "{r:?}"
    );
}

#[test]
fn grep_results() {
    let t = TestDir::new();
    t.write(
        "src/lib.rs",
        format!("fn alpha() {{}}\n// {}\nfn beta() {{}}\n", "x".repeat(30)),
    );
    t.write("README.md", format!("fn {}\n", "y".repeat(40)));
    t.write("notes.txt", "nothing here\n");
    let r = run(&t, &["--grep-max-line-bytes", "13", "grep", "fn "]);
    let text = "Found 3 matches\n\n\
                README.md\n\
                Line 1: fn yyyyyyyyyy (line truncated)\n\n\
                src/lib.rs\n\
                Line 1: fn alpha() {}\n\
                Line 3: fn beta() {}";
    assert_json(
        &r,
        0,
        &json!({
            "version": 1, "tool": "grep", "ok": true, "status": "results",
            "files": [
                {"path": "README.md", "matches": [
                    {"line_number": 1, "preview": "fn yyyyyyyyyy (line truncated)", "line_truncated": true},
                ]},
                {"path": "src/lib.rs", "matches": [
                    {"line_number": 1, "preview": "fn alpha() {}", "line_truncated": false},
                    {"line_number": 3, "preview": "fn beta() {}", "line_truncated": false},
                ]},
            ],
            "total": 3, "shown": 3, "truncated": false, "total_files": 2, "binary_files": [],
            "spill": null, "spill_error": null, "warnings": [], "hints": [], "text": text,
        }),
    );
    // Match keys in SPEC §7's order too.
    let raw = stdout(&r);
    assert!(
        raw.contains("{\"line_number\":1,\"preview\":\"fn alpha() {}\",\"line_truncated\":false}"),
        "{r:?}"
    );
    assert!(
        raw.contains("{\"path\":\"README.md\",\"matches\":["),
        "{r:?}"
    );
}

#[test]
fn glob_empty() {
    let t = glob_tree();
    let r = run(&t, &["glob", "*.none"]);
    assert_json(&r, 1, &glob_envelope(&[], 0, "No files found"));
}

fn grep_empty_envelope(warnings: &[&str], text: &str) -> Value {
    json!({
        "version": 1, "tool": "grep", "ok": true, "status": "empty",
        "files": [], "total": 0, "shown": 0, "truncated": false, "total_files": 0, "binary_files": [],
        "spill": null, "spill_error": null, "warnings": warnings, "hints": [], "text": text,
    })
}

#[test]
fn grep_empty() {
    let t = glob_tree();
    let r = run(&t, &["grep", "absent"]);
    assert_json(&r, 1, &grep_empty_envelope(&[], "No matches found"));
}

#[test]
fn grep_nothing_searched() {
    let t = glob_tree();
    let r = run(&t, &["grep", "x", "--include", "*.none"]);
    let why = "no file was searched: the include filter or ignore rules excluded every file";
    assert_json(
        &r,
        1,
        &grep_empty_envelope(&[why], &format!("No matches found ({why})")),
    );
}

/// Four files, newest first a..d by name reversed.
fn capped_tree() -> TestDir {
    let t = TestDir::new();
    for (i, rel) in (1..).zip(["a.txt", "b.txt", "c.txt", "d.txt"]) {
        t.write(rel, "hit\n");
        t.mtime(rel, T0 + i);
    }
    t
}

#[test]
fn capped_with_spill() {
    let t = capped_tree();
    let spill_root = tempfile::tempdir().unwrap();
    let spill = spill_root.path().join("spill");
    let args = [
        "--spill-dir",
        spill.to_str().unwrap(),
        "--glob-max-results",
        "2",
        "glob",
        "*.txt",
    ];
    let r = run(&t, &args);
    let locator = canonical(&spill_file(&spill, &r));
    let locator = locator.to_str().unwrap();
    assert!(locator.ends_with("-glob-results.txt"), "{r:?}");
    assert_eq!(
        fs::read_to_string(locator).unwrap(),
        "d.txt\nc.txt\nb.txt\na.txt",
        "{}",
        r.describe()
    );
    assert_json(
        &r,
        0,
        &json!({
            "version": 1, "tool": "glob", "ok": true, "status": "results",
            "paths": ["d.txt", "c.txt"], "total": 4, "shown": 2, "truncated": true,
            "spill": {"locator": locator, "retrieval_hint": DEFAULT_HINT},
            "spill_error": null, "warnings": [],
            "hints": [{"kind": "remainder", "count": 2, "places": [{"path": "./", "count": 2}]}],
            "text": format!("d.txt\nc.txt\n\n(The other 2 paths: ./ 2)\n\n(Showing 2 of 4 paths. Full sorted result stored at: {locator}. {DEFAULT_HINT})"),
        }),
    );
}

#[test]
fn capped_grep_with_spill() {
    let t = capped_tree();
    let spill_root = tempfile::tempdir().unwrap();
    let spill = spill_root.path().join("spill");
    let hint = "Page it with sed -n.";
    let args = [
        "--spill-dir",
        spill.to_str().unwrap(),
        "--spill-hint",
        hint,
        "--grep-max-matches",
        "3",
        "grep",
        "hit",
    ];
    let r = run(&t, &args);
    let locator = canonical(&spill_file(&spill, &r));
    let locator = locator.to_str().unwrap();
    assert!(locator.ends_with("-grep-results.txt"), "{r:?}");
    let m = |p: &str| json!({"path": p, "matches": [{"line_number": 1, "preview": "hit", "line_truncated": false}]});
    assert_json(
        &r,
        0,
        &json!({
            "version": 1, "tool": "grep", "ok": true, "status": "results",
            "files": [m("a.txt"), m("b.txt"), m("c.txt")],
            "total": 4, "shown": 3, "truncated": true, "total_files": 4, "binary_files": [],
            "spill": {"locator": locator, "retrieval_hint": hint},
            "spill_error": null, "warnings": [],
            "hints": [{"kind": "remainder", "count": 1, "places": [{"path": "d.txt", "count": 1}]}],
            "text": format!(
                "Found 3 of 4 matches\n\na.txt\nLine 1: hit\n\nb.txt\nLine 1: hit\n\nc.txt\nLine 1: hit\n\n\
                 (The other 1 match: d.txt 1)\n\n(Full grep result stored at: {locator}. {hint})"
            ),
        }),
    );
}

#[test]
fn capped_without_spill() {
    let t = capped_tree();
    let r = run(&t, &["--glob-max-results", "2", "glob", "*.txt"]);
    let reason = "no spill directory is configured (--spill-dir or DSH_SEARCH_SPILL_DIR)";
    assert_json(
        &r,
        0,
        &json!({
            "version": 1, "tool": "glob", "ok": true, "status": "results",
            "paths": ["d.txt", "c.txt"], "total": 4, "shown": 2, "truncated": true,
            "spill": null, "spill_error": reason,
            "warnings": [format!("the complete result could not be saved: {reason}")],
            "hints": [{"kind": "remainder", "count": 2, "places": [{"path": "./", "count": 2}]}],
            "text": "d.txt\nc.txt\n\n(The other 2 paths: ./ 2)\n\n(Showing 2 of 4 paths. The complete result could not be saved; narrow pattern or path to see more.)",
        }),
    );

    let r = run(&t, &["--grep-max-matches", "1", "grep", "hit"]);
    assert_json(
        &r,
        0,
        &json!({
            "version": 1, "tool": "grep", "ok": true, "status": "results",
            "files": [{"path": "a.txt", "matches": [{"line_number": 1, "preview": "hit", "line_truncated": false}]}],
            "total": 4, "shown": 1, "truncated": true, "total_files": 4, "binary_files": [],
            "spill": null, "spill_error": reason,
            "warnings": [format!("the complete result could not be saved: {reason}")],
            "hints": [{"kind": "remainder", "count": 3, "places": [
                {"path": "b.txt", "count": 1}, {"path": "c.txt", "count": 1}, {"path": "d.txt", "count": 1}]}],
            "text": "Found 1 of 4 matches\n\na.txt\nLine 1: hit\n\n(The other 3 matches: b.txt 1, c.txt 1, d.txt 1)\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)",
        }),
    );
}

#[test]
fn invalid_argument() {
    let t = glob_tree();
    let r = run(&t, &["grep", ""]);
    let mut expected = error_envelope(
        "grep",
        "ArgumentError",
        "INVALID_ARGUMENT",
        "grep pattern must not be empty; pass a ripgrep regex such as fn main",
    );
    expected["error"]["field"] = json!("pattern");
    assert_json(&r, 2, &expected);

    let r = run(&t, &["glob", "  "]);
    let mut expected = error_envelope(
        "glob",
        "ArgumentError",
        "INVALID_ARGUMENT",
        "glob pattern must not be blank; pass a glob such as **/*.rs",
    );
    expected["error"]["field"] = json!("pattern");
    assert_json(&r, 2, &expected);
    // `field` comes after the message.
    let raw = stdout(&r);
    assert!(
        raw.contains(
            "\"error\":{\"name\":\"ArgumentError\",\"code\":\"INVALID_ARGUMENT\",\"message\":"
        ),
        "{r:?}"
    );
    assert!(raw.contains(",\"field\":\"pattern\"},\"text\":"), "{r:?}");
}

#[test]
fn search_invalid_pattern() {
    let t = glob_tree();
    let r = run(&t, &["grep", "a("]);
    let json = stdout_json(&r);
    let message = json["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no message: {r:?}"));
    assert!(
        // rg 14 prefixes its messages with "rg: ", rg 13 does not.
        message.starts_with("grep pattern rejected by ripgrep (exit 2): ")
            && message.contains("regex parse error:"),
        "{r:?}"
    );
    assert!(message.contains("unclosed group"), "{r:?}");
    assert!(
        message.ends_with("with a backslash to match them literally) and retry, or pass literal: true to search for the text as written."),
        "{r:?}"
    );
    assert_json(
        &r,
        3,
        &error_envelope("grep", "SearchError", "SEARCH_INVALID_PATTERN", message),
    );
}

#[test]
fn search_failed() {
    let t = glob_tree();
    let r = run(&t, &["--rg", "/nonexistent/rg", "grep", "x"]);
    let message = format!(
        "grep requires ripgrep (rg), but {} does not exist. Install ripgrep ({INSTALL_WAYS}) or point --rg / DSH_SEARCH_RG at the rg executable.",
        t.absolute("/nonexistent/rg")
    );
    assert_json(
        &r,
        4,
        &error_envelope("grep", "SearchError", "SEARCH_FAILED", &message),
    );
}

#[test]
fn search_raw_output_overflow() {
    let t = glob_tree();
    let r = run(&t, &["--raw-output-max-bytes", "10", "grep", "x"]);
    assert_json(
        &r,
        5,
        &error_envelope(
            "grep",
            "SearchError",
            "SEARCH_RAW_OUTPUT_OVERFLOW",
            "grep output is over the 10-byte cap on raw ripgrep output; narrow pattern, path, or include, or raise --raw-output-max-bytes.",
        ),
    );
}

#[test]
fn search_aborted() {
    let t = TestDir::new();
    let rg = t.fake_rg_plan("bin/rg", "sleep 5000");
    let r = run(
        &t,
        &[
            "--rg",
            rg.to_str().unwrap(),
            "--timeout-ms",
            "200",
            "grep",
            "x",
        ],
    );
    assert_json(
        &r,
        6,
        &error_envelope(
            "grep",
            "SearchError",
            "SEARCH_ABORTED",
            "grep timed out after 200ms; narrow pattern, path, or include and retry, or raise --timeout-ms.",
        ),
    );
}

/// A command line clap rejects: exit 2 and one JSON object, however JSON
/// was asked for.
#[track_caller]
fn usage_error(t: &TestDir, args: &[&str], tool: &str, mentions: &str) {
    let forms = [
        t.cmd()
            .args(["--format", "json"])
            .args(args)
            .output()
            .unwrap(),
        t.cmd().arg("--format=json").args(args).output().unwrap(),
        t.cmd()
            .env("DSH_SEARCH_FORMAT", "json")
            .args(args)
            .output()
            .unwrap(),
    ];
    for out in &forms {
        assert_exit(out, 2);
        let v = one_object(out);
        let message = v["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("no message: {out:?}"));
        assert!(message.contains(mentions), "{out:?}");
        assert!(!message.starts_with("error:"), "{out:?}");
        assert_json(
            out,
            2,
            &error_envelope(tool, "ArgumentError", "INVALID_ARGUMENT", message),
        );
    }
    // Text mode exits the same way.
    assert_exit(&t.run(args), 2);
}

#[test]
fn usage_errors_are_json_too() {
    let t = glob_tree();
    usage_error(&t, &["grep", "--bogus"], "grep", "'--bogus'");
    usage_error(
        &t,
        &["--timeout-ms", "0", "glob", "x"],
        "glob",
        "--timeout-ms",
    );
    usage_error(
        &t,
        &["glob", "x", "--glob-max-results", "0"],
        "glob",
        "--glob-max-results",
    );
}

/// SPEC §4: text output is stdout, and an error is `Error: <message>`;
/// SPEC §7: JSON `text` is that text output. A clap usage error is no
/// exception (SPEC §1): text mode prints `Error: <clap's message>` on
/// stdout too, so its stdout is the JSON `text` and a newline.
#[test]
fn usage_error_text_matches_text_mode() {
    let t = glob_tree();
    for args in [
        &["grep", "--bogus"][..],
        &["--timeout-ms", "0", "glob", "x"],
    ] {
        let json = t
            .cmd()
            .args(["--format", "json"])
            .args(args)
            .output()
            .unwrap();
        let v = one_object(&json);
        let text = t.run(args);
        assert_exit(&text, 2);
        assert_eq!(
            stdout(&text),
            format!("{}\n", v["text"].as_str().unwrap()),
            "text-mode stdout: {text:?}"
        );
    }
}

#[test]
fn help_and_version_are_not_json() {
    let t = glob_tree();
    let plain = t.run(&["--help"]);
    assert_exit(&plain, 0);
    assert!(
        stdout(&plain).starts_with(
            "Bounded, deterministic file discovery for AI agents, backed by ripgrep.\n"
        ),
        "{plain:?}"
    );
    assert!(stdout(&plain).contains("Usage: dsh-search"), "{plain:?}");
    let flag = t.run(&["--format", "json", "--help"]);
    let env = t
        .cmd()
        .env("DSH_SEARCH_FORMAT", "json")
        .arg("--help")
        .output()
        .unwrap();
    assert_out(&flag, 0, &stdout(&plain));
    // The env form differs only where clap shows the variable's value.
    assert_out(
        &env,
        0,
        &stdout(&plain).replace("[env: DSH_SEARCH_FORMAT=]", "[env: DSH_SEARCH_FORMAT=json]"),
    );

    let version = format!("dsh-search {}\n", env!("CARGO_PKG_VERSION"));
    assert_out(&t.run(&["--format", "json", "--version"]), 0, &version);
}

#[test]
fn key_scanner_reads_only_the_outer_object() {
    assert_eq!(
        top_level_keys(r#"{"a":{"b":1,"c":[{"d":"\"e\":"}]},"f\"g":"h:","i":[]}"#),
        ["a", "f\"g", "i"]
    );
}
