//! `call TOOL ARGS`: the JSON front-end is the argv front-end in another
//! form. The same call gives the same stdout bytes and exit code whether its
//! arguments came from argv, from the JSON argument, or from stdin (`-` or
//! no ARGS), in text and JSON output; model mistakes in the JSON are
//! argument errors that name the field (SPEC §1, §3, §8).

use serde_json::json;

use crate::harness::{
    Ran, T0, TestDir, assert_exit, assert_json, assert_out, assert_same_output, spill_file, stdout,
    stdout_json,
};

/// The tree every test here searches: two Rust files under `src`, one under
/// `tests`, a Markdown file the `*.rs` include leaves out. mtimes are set so
/// that the glob order (newest first) does not depend on creation speed.
fn tree() -> TestDir {
    let t = TestDir::new();
    t.write("src/main.rs", "fn main() {}\nfn helper() {}\n");
    t.write("src/lib.rs", "pub fn lib() {}\n");
    t.write("tests/it.rs", "fn it() {}\n");
    t.write("README.md", "fn in markdown\n");
    t.mtime("src/main.rs", T0 + 3);
    t.mtime("src/lib.rs", T0 + 2);
    t.mtime("tests/it.rs", T0 + 1);
    t.mtime("README.md", T0);
    t
}

/// Run `tool` four ways, all with the global options `opts`: from argv
/// (`tool argv...`), and through `call` with `json` as the argument, on
/// stdin after `-`, and on stdin with no ARGS. Assert the four give the
/// same exit code and byte-identical stdout, and return the argv run.
#[track_caller]
fn same_as_argv(t: &TestDir, opts: &[&str], tool: &str, argv: &[&str], json: &str) -> Ran {
    let direct = t.cmd().args(opts).arg(tool).args(argv).output().unwrap();
    let runs = [
        // call TOOL ARGS
        t.cmd()
            .args(opts)
            .args(["call", tool, json])
            .output()
            .unwrap(),
        // call TOOL - (stdin)
        t.cmd()
            .args(opts)
            .args(["call", tool, "-"])
            .write_stdin(format!("{json}\n"))
            .output()
            .unwrap(),
        // call TOOL (stdin, no ARGS)
        t.cmd()
            .args(opts)
            .args(["call", tool])
            .write_stdin(json)
            .output()
            .unwrap(),
    ];
    for out in &runs {
        assert_same_output(out, &direct);
    }
    direct
}

/// [`same_as_argv`] in text and in `--format json`: the text run prints
/// exactly `text` and exits `code`; the JSON run exits `code` too, and its
/// one object carries that text (without its final newline) and `ok`.
#[track_caller]
fn same_in_both_formats(
    t: &TestDir,
    opts: &[&str],
    tool: &str,
    argv: &[&str],
    json: &str,
    code: i32,
    text: &str,
) {
    assert_out(&same_as_argv(t, opts, tool, argv, json), code, text);
    let json_opts: Vec<&str> = ["--format", "json"].iter().chain(opts).copied().collect();
    let out = same_as_argv(t, &json_opts, tool, argv, json);
    assert_exit(&out, code);
    let envelope = stdout_json(&out);
    assert_eq!(envelope["tool"], json!(tool), "{out:?}");
    assert_eq!(envelope["ok"], json!(code <= 1), "{out:?}");
    assert_eq!(
        envelope["text"],
        json!(text.strip_suffix('\n').unwrap()),
        "the JSON `text` is the text output: {out:?}"
    );
}

const GLOB_ARGS: &str = r#"{"pattern":"**/*.rs"}"#;
const GREP_ARGS: &str = r#"{"pattern":"fn","path":"src","include":"*.rs"}"#;
const GREP_ARGV: [&str; 4] = ["fn", "src", "--include", "*.rs"];

#[test]
fn call_results_equal_argv_results() {
    let t = tree();
    same_in_both_formats(
        &t,
        &[],
        "glob",
        &["**/*.rs"],
        GLOB_ARGS,
        0,
        "src/main.rs\nsrc/lib.rs\ntests/it.rs\n",
    );
    same_in_both_formats(
        &t,
        &[],
        "grep",
        &GREP_ARGV,
        GREP_ARGS,
        0,
        "Found 3 matches\n\nsrc/lib.rs\nLine 1: pub fn lib() {}\n\nsrc/main.rs\nLine 1: fn main() {}\nLine 2: fn helper() {}\n",
    );
}

#[test]
fn call_empty_results_equal_argv_empty_results() {
    let t = tree();
    same_in_both_formats(
        &t,
        &[],
        "glob",
        &["**/*.py"],
        r#"{"pattern":"**/*.py"}"#,
        1,
        "No files found\n",
    );
    same_in_both_formats(
        &t,
        &[],
        "grep",
        &["zzz_absent", "src", "--include", "*.rs"],
        r#"{"pattern":"zzz_absent","path":"src","include":"*.rs"}"#,
        1,
        "No matches found\n",
    );
}

#[test]
fn call_capped_results_equal_argv_capped_results() {
    let t = tree();
    same_in_both_formats(
        &t,
        &["--glob-max-results", "2"],
        "glob",
        &["**/*.rs"],
        GLOB_ARGS,
        0,
        "src/main.rs\nsrc/lib.rs\n\n(The other 1 path: tests/ 1)\n\n(Showing 2 of 3 paths. The complete result could not be saved; narrow pattern or path to see more.)\n",
    );
    same_in_both_formats(
        &t,
        &["--grep-max-matches", "1"],
        "grep",
        &GREP_ARGV,
        GREP_ARGS,
        0,
        "Found 1 of 3 matches\n\nsrc/lib.rs\nLine 1: pub fn lib() {}\n\n(The other 2 matches: src/main.rs 2)\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)\n",
    );

    // With a spill dir every run names the same content-addressed file.
    let spill = tempfile::tempdir().unwrap();
    let spill_dir = spill.path().to_str().unwrap();
    let opts = ["--grep-max-matches", "1", "--spill-dir", spill_dir];
    let out = same_as_argv(&t, &opts, "grep", &GREP_ARGV, GREP_ARGS);
    let file = spill_file(spill.path(), &out);
    let locator = file.to_str().unwrap();
    assert_out(
        &out,
        0,
        &format!(
            "Found 1 of 3 matches\n\nsrc/lib.rs\nLine 1: pub fn lib() {{}}\n\n(The other 2 matches: src/main.rs 2)\n\n(Full grep result stored at: {locator}. Use read with offset/limit, or grep this path to search within it.)\n"
        ),
    );
    same_in_both_formats(&t, &opts, "grep", &GREP_ARGV, GREP_ARGS, 0, &stdout(&out));
}

#[test]
fn call_pattern_errors_equal_argv_pattern_errors() {
    let t = tree();
    // The message quotes rg's stderr, which is rg's to word; the framing is ours.
    let glob = same_as_argv(&t, &[], "glob", &["{a"], r#"{"pattern":"{a"}"#);
    let text = stdout(&glob);
    assert_exit(&glob, 3);
    assert!(
        text.starts_with("Error: glob pattern rejected by ripgrep (exit 2): ")
            && text.ends_with(
                "\nFix the glob (balance its [ ] and { } or escape them as [[] and [{]) and retry.\n"
            ),
        "{glob:?}"
    );
    same_in_both_formats(&t, &[], "glob", &["{a"], r#"{"pattern":"{a"}"#, 3, &text);

    let grep_json = r#"{"pattern":"a(","path":"src","include":"*.rs"}"#;
    let grep_argv = ["a(", "src", "--include", "*.rs"];
    let grep = same_as_argv(&t, &[], "grep", &grep_argv, grep_json);
    let text = stdout(&grep);
    assert_exit(&grep, 3);
    assert!(
        text.starts_with("Error: grep pattern rejected by ripgrep (exit 2): ")
            && text.contains("regex parse error:")
            && text.contains("unclosed group")
            && text.ends_with(
                "\nFix the pattern (a ripgrep regex: escape ( ) [ ] { } . * + ? | \\ with a backslash to match them literally) and retry, or pass literal: true to search for the text as written.\n"
            ),
        "{grep:?}"
    );
    same_in_both_formats(&t, &[], "grep", &grep_argv, grep_json, 3, &text);
}

#[test]
fn null_for_an_optional_argument_is_the_argument_left_out() {
    let t = tree();
    assert_out(
        &same_as_argv(
            &t,
            &[],
            "grep",
            &["fn"],
            r#"{"pattern":"fn","path":null,"include":null}"#,
        ),
        0,
        "Found 5 matches\n\nREADME.md\nLine 1: fn in markdown\n\nsrc/lib.rs\nLine 1: pub fn lib() {}\n\nsrc/main.rs\nLine 1: fn main() {}\nLine 2: fn helper() {}\n\ntests/it.rs\nLine 1: fn it() {}\n",
    );
    assert_out(
        &same_as_argv(
            &t,
            &[],
            "glob",
            &["**/*.rs"],
            r#"{"pattern":"**/*.rs","path":null}"#,
        ),
        0,
        "src/main.rs\nsrc/lib.rs\ntests/it.rs\n",
    );
}

/// Argument errors: (tool, arguments, the field named, the exact message).
const ARGUMENT_ERRORS: &[(&str, &str, &str, &str)] = &[
    (
        "grep",
        r#"{"pattern":1}"#,
        "pattern",
        "grep argument `pattern` must be a string, not a number",
    ),
    (
        "glob",
        r#"{"pattern":"*","path":["src"]}"#,
        "path",
        "glob argument `path` must be a string, not an array",
    ),
    (
        "grep",
        r#"{"pattern":"x","include":{"glob":"*.rs"}}"#,
        "include",
        "grep argument `include` must be a string, not an object",
    ),
    (
        "grep",
        r#"{"pattern":true}"#,
        "pattern",
        "grep argument `pattern` must be a string, not a boolean",
    ),
    (
        "grep",
        r#"{"path":"src"}"#,
        "pattern",
        "grep needs a `pattern` string argument",
    ),
    (
        "glob",
        "{}",
        "pattern",
        "glob needs a `pattern` string argument",
    ),
    (
        "glob",
        r#"["**/*.rs"]"#,
        "arguments",
        r#"glob arguments must be a JSON object such as {"pattern": "..."}"#,
    ),
    (
        "grep",
        r#"{"pattern":"x""#,
        "arguments",
        r#"grep arguments are not valid JSON (EOF while parsing an object at line 1 column 14); pass an object such as {"pattern": "..."}"#,
    ),
    (
        "glob",
        "",
        "arguments",
        r#"glob got no arguments: pass a JSON object such as {"pattern": "..."}, on the command line or on stdin"#,
    ),
    (
        "grep",
        r#"{"pattern":"a\u0000b"}"#,
        "pattern",
        "pattern must not contain a NUL byte",
    ),
    (
        "glob",
        r#"{"pattern":"*","path":"src\u0000"}"#,
        "path",
        "path must not contain a NUL byte",
    ),
    (
        "grep",
        r#"{"pattern":"x","include":"*.rs\u0000"}"#,
        "include",
        "include must not contain a NUL byte",
    ),
    (
        "grep",
        r#"{"pattern":"x","include":"*.ts,*.js"}"#,
        "include",
        "include must be ONE glob, not a comma-separated list; use brace alternation such as *.{ts,tsx}",
    ),
    (
        "grep",
        r#"{"pattern":""}"#,
        "pattern",
        "grep pattern must not be empty; pass a ripgrep regex such as fn main",
    ),
    (
        "glob",
        r#"{"pattern":" \t "}"#,
        "pattern",
        "glob pattern must not be blank; pass a glob such as **/*.rs",
    ),
];

#[test]
fn argument_errors_name_the_field() {
    let t = tree();
    for &(tool, args, field, message) in ARGUMENT_ERRORS {
        let text = format!("Error: {message}\n");
        let from_argv = t.cmd().args(["call", tool, args]).output().unwrap();
        assert_out(&from_argv, 2, &text);
        let from_stdin = t
            .cmd()
            .args(["call", tool, "-"])
            .write_stdin(args)
            .output()
            .unwrap();
        assert_out(&from_stdin, 2, &text);

        let json_out = t
            .cmd()
            .args(["--format", "json", "call", tool, args])
            .output()
            .unwrap();
        assert_json(
            &json_out,
            2,
            &json!({
                "version": 1,
                "tool": tool,
                "ok": false,
                "error": {
                    "name": "ArgumentError",
                    "code": "INVALID_ARGUMENT",
                    "message": message,
                    "field": field,
                },
                "text": format!("Error: {message}"),
            }),
        );
    }
}

#[test]
fn an_unknown_tool_is_a_usage_error() {
    let t = tree();
    // Like every failure, a usage error is reported on stdout.
    let out = t.run(&["call", "find", "{}"]);
    assert_out(
        &out,
        2,
        "Error: invalid value 'find' for '<TOOL>'\n  [possible values: glob, grep]\n\nFor more information, try '--help'.\n",
    );
    assert!(out.stderr.is_empty(), "{out:?}");

    let out = t.run(&["--format", "json", "call", "find", "{}"]);
    let message = "invalid value 'find' for '<TOOL>'\n  [possible values: glob, grep]\n\nFor more information, try '--help'.";
    assert_json(
        &out,
        2,
        &json!({
            "version": 1,
            "tool": null,
            "ok": false,
            "error": {"name": "ArgumentError", "code": "INVALID_ARGUMENT", "message": message},
            "text": format!("Error: {message}"),
        }),
    );
}

/// SPEC §2: rg's stdin is /dev/null, also when dsh-search's own stdin
/// carried the arguments. A fake rg that finds anything to read on stdin
/// exits 3, which dsh-search would report as a failed search (exit 4).
#[test]
fn rg_stdin_is_dev_null_when_stdin_carried_the_arguments() {
    let t = tree();
    let reads_stdin = t.fake_rg_plan("fake/rg", "stdin 3\nexit 1");
    let rg = reads_stdin.to_str().unwrap();
    let out = t
        .cmd()
        .args(["--rg", rg, "call", "grep", "-"])
        .write_stdin(r#"{"pattern":"x"}"#)
        .output()
        .unwrap();
    assert_out(&out, 1, "No matches found\n");

    // dsh-search reads its stdin to the end before rg starts, so the test
    // above would pass with an inherited stdin too. When the arguments come
    // from argv, stdin is left unread: an inherited stdin would give rg a line.
    let out = t
        .cmd()
        .args(["--rg", rg, "call", "grep", r#"{"pattern":"x"}"#])
        .write_stdin("a line rg must not see\n")
        .output()
        .unwrap();
    assert_out(&out, 1, "No matches found\n");
}

/// The `-` case of the test above, decisively: rg's fd 0 is /dev/null itself.
// Unix only: /proc names the file behind a descriptor.
#[cfg(unix)]
#[test]
fn rg_stdin_is_dev_null_itself() {
    let t = tree();
    let checks_fd0 = t.fake_rg(
        "rg-fd0.sh",
        r#"if [ "$(readlink /proc/$$/fd/0)" = /dev/null ]; then exit 1; fi; exit 3"#,
    );
    let out = t
        .cmd()
        .args(["--rg", checks_fd0.to_str().unwrap(), "call", "grep", "-"])
        .write_stdin(r#"{"pattern":"x"}"#)
        .output()
        .unwrap();
    assert_out(&out, 1, "No matches found\n");
}

/// SPEC §8: unknown fields are ignored, named in one closing text line and
/// in JSON `warnings`; the rest of the call is unchanged.
#[test]
fn unknown_fields_are_ignored_and_named() {
    let t = tree();
    let out = t
        .cmd()
        .args([
            "call",
            "grep",
            r#"{"pattern":"helper","paths":"src","wait_for_previous":true}"#,
        ])
        .output()
        .unwrap();
    assert_out(
        &out,
        0,
        "Found 1 match\n\nsrc/main.rs\nLine 2: fn helper() {}\n\n(ignored unknown arguments: paths, wait_for_previous)\n",
    );
    let out = t
        .cmd()
        .args([
            "--format",
            "json",
            "call",
            "glob",
            r#"{"pattern":"*.md","include":"*.rs"}"#,
        ])
        .output()
        .unwrap();
    assert_json(
        &out,
        0,
        &json!({
            "version": 1, "tool": "glob", "ok": true, "status": "results",
            "paths": ["README.md"], "total": 1, "shown": 1, "truncated": false,
            "spill": null, "spill_error": null,
            "warnings": ["ignored unknown argument: include"],
            "hints": [],
            "text": "README.md\n\n(ignored unknown argument: include)"
        }),
    );
    // A failed call names them too; a wrong type is still an error.
    let out = t
        .cmd()
        .args(["--format", "json", "call", "grep", r#"{"pattern":2,"x":1}"#])
        .output()
        .unwrap();
    assert_json(
        &out,
        2,
        &json!({
            "version": 1, "tool": "grep", "ok": false,
            "error": {"name": "ArgumentError", "code": "INVALID_ARGUMENT",
                      "message": "grep argument `pattern` must be a string, not a number", "field": "pattern"},
            "text": "Error: grep argument `pattern` must be a string, not a number\n\n(ignored unknown argument: x)",
            "warnings": ["ignored unknown argument: x"]
        }),
    );
}

/// Arguments nested 60,000 (argv) or 100,000 (stdin) levels deep are an
/// argument error, not a stack overflow: `serde_json` stops at 127 levels.
#[test]
fn deeply_nested_arguments_are_an_argument_error() {
    let t = tree();
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let text = "Error: glob arguments nest deeper than 127 levels of arrays and objects (recursion limit exceeded at line 1 column 128); pass an object such as {\"pattern\": \"...\"}\n";
    assert_out(&t.run(&["call", "glob", &deep(60_000)]), 2, text);
    let from_stdin = t
        .cmd()
        .args(["call", "glob", "-"])
        .write_stdin(deep(100_000))
        .output()
        .unwrap();
    assert_out(&from_stdin, 2, text);
}
