//! The optional arguments of SPEC §3a against real rg, byte for byte:
//! grep's output modes (content, files, count), context, `ignore_case`,
//! literal, multiline and type, glob's `ignore_case`, each alone and in the
//! combinations a model uses, through argv, `call` and JSON; the giant
//! line that is a match, not an overflow.

use serde_json::{Value, json};

use crate::harness::{
    Ran, T0, TestDir, argv_and_call, assert_exit, assert_out, stdout, stdout_json,
};

const UNSAVED: &str =
    "(The complete result could not be saved; narrow pattern, path, or include to see more.)";

/// A small Rust project: `load_config` defined, called and tested, and a
/// guide that names it in capitals.
fn tree() -> TestDir {
    let t = TestDir::new();
    t.write(
        "src/app.rs",
        "use std::io;\n\nfn load_config() -> Config {\n    let path = config_path();\n    read(path)\n}\n\nfn main() {\n    let c = load_config();\n    run(c);\n}\n",
    );
    t.write("src/lib.rs", "pub mod app;\n// load_config is in app\n");
    t.write(
        "tests/it.rs",
        "#[test]\nfn loads() {\n    assert!(load_config().ok());\n}\n",
    );
    t.write("docs/Guide.md", "Call LOAD_CONFIG once.\n");
    for (i, path) in ["src/app.rs", "src/lib.rs", "tests/it.rs", "docs/Guide.md"]
        .iter()
        .enumerate()
    {
        t.mtime(path, T0 + i64::try_from(i).unwrap());
    }
    t
}

/// `argv` run with `--format json`, and its envelope.
fn envelope(t: &TestDir, argv: &[&str]) -> (Ran, Value) {
    let ran = t
        .cmd()
        .args(["--format", "json"])
        .args(argv)
        .output()
        .unwrap();
    let value = stdout_json(&ran);
    (ran, value)
}

#[test]
fn files_lists_each_matching_file_once_in_path_order() {
    let t = tree();
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["load_config", "--output", "files"],
            &json!({"pattern": "load_config", "output": "files"}),
        ),
        0,
        "Found 3 files\n\nsrc/app.rs\nsrc/lib.rs\ntests/it.rs\n",
    );
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["fn main", "--output", "files"],
            &json!({"pattern": "fn main", "output": "files"}),
        ),
        0,
        "Found 1 file\n\nsrc/app.rs\n",
    );
}

#[test]
fn count_gives_matched_lines_per_file() {
    let t = tree();
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["load_config", "--output", "count"],
            &json!({"pattern": "load_config", "output": "count"}),
        ),
        0,
        "Found 4 matches in 3 files\n\nsrc/app.rs: 2\nsrc/lib.rs: 1\ntests/it.rs: 1\n",
    );
}

#[test]
fn count_with_ignore_case_finds_the_capitals_too() {
    let t = tree();
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["load_config", "--output", "count", "-i"],
            &json!({"pattern": "load_config", "output": "count", "ignore_case": true}),
        ),
        0,
        "Found 5 matches in 4 files\n\ndocs/Guide.md: 1\nsrc/app.rs: 2\nsrc/lib.rs: 1\ntests/it.rs: 1\n",
    );
}

#[test]
fn files_with_type_searches_only_that_type() {
    let t = tree();
    t.write("notes.txt", "load_config everywhere\n");
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["load_config", "--output", "files", "--type", "rust"],
            &json!({"pattern": "load_config", "output": "files", "type": "rust"}),
        ),
        0,
        "Found 3 files\n\nsrc/app.rs\nsrc/lib.rs\ntests/it.rs\n",
    );
    assert_out(
        &t.run(&["grep", "load_config", "-t", "txt"]),
        0,
        "Found 1 match\n\nnotes.txt\nLine 1: load_config everywhere\n",
    );
}

#[test]
fn context_shows_the_lines_around_each_match() {
    let t = tree();
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["load_config", "--context", "1", "src"],
            &json!({"pattern": "load_config", "context": 1, "path": "src"}),
        ),
        0,
        "Found 3 matches\n\n\
         src/app.rs\n\
         Line 2- \n\
         Line 3: fn load_config() -> Config {\n\
         Line 4-     let path = config_path();\n\
         --\n\
         Line 8- fn main() {\n\
         Line 9:     let c = load_config();\n\
         Line 10-     run(c);\n\
         \n\
         src/lib.rs\n\
         Line 1- pub mod app;\n\
         Line 2: // load_config is in app\n",
    );
}

#[test]
fn before_and_after_win_on_their_side() {
    let t = tree();
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["fn main", "--context", "2", "-A", "0"],
            &json!({"pattern": "fn main", "context": 2, "after": 0}),
        ),
        0,
        "Found 1 match\n\nsrc/app.rs\nLine 6- }\nLine 7- \nLine 8: fn main() {\n",
    );
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["fn main", "-B", "0", "-A", "1"],
            &json!({"pattern": "fn main", "before": 0, "after": 1}),
        ),
        0,
        "Found 1 match\n\nsrc/app.rs\nLine 8: fn main() {\nLine 9-     let c = load_config();\n",
    );
}

#[test]
fn context_with_files_or_count_is_ignored_and_named() {
    let t = tree();
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["fn main", "--output", "files", "--context", "3", "-A", "1"],
            &json!({"pattern": "fn main", "output": "files", "context": 3, "after": 1}),
        ),
        0,
        "Found 1 file\n\nsrc/app.rs\n\n(ignored context, after: output \"files\" shows no lines)\n",
    );
    let (ran, value) = envelope(&t, &["grep", "fn main", "--output", "count", "-B", "2"]);
    assert_eq!(
        value["warnings"],
        json!(["ignored argument: before (output \"count\" shows no lines)"]),
        "{ran:?}"
    );
    assert_eq!(value["output"], json!("count"), "{ran:?}");
    assert_eq!(
        value["files"],
        json!([{"path": "src/app.rs", "count": 1}]),
        "{ran:?}"
    );
    assert_eq!(value["total_matches"], json!(1), "{ran:?}");
}

#[test]
fn literal_searches_the_pattern_as_written() {
    let t = tree();
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["load_config()", "-F"],
            &json!({"pattern": "load_config()", "literal": true}),
        ),
        0,
        "Found 3 matches\n\nsrc/app.rs\nLine 3: fn load_config() -> Config {\nLine 9:     let c = load_config();\n\ntests/it.rs\nLine 3:     assert!(load_config().ok());\n",
    );
    let out = t.run(&["grep", "a(", "--literal"]);
    assert_out(&out, 1, "No matches found\n");
}

#[test]
fn a_regex_error_says_literal_searches_it_as_written() {
    let t = tree();
    let out = t.run(&["grep", "config("]);
    assert_exit(&out, 3);
    assert!(
        stdout(&out)
            .ends_with("and retry, or pass literal: true to search for the text as written.\n"),
        "{out:?}"
    );
}

#[test]
fn multiline_shows_each_line_of_a_match() {
    let t = tree();
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &[r"load_config\(\) -> Config \{\n\s+let", "-U"],
            &json!({"pattern": r"load_config\(\) -> Config \{\n\s+let", "multiline": true}),
        ),
        0,
        "Found 2 matches\n\nsrc/app.rs\nLine 3: fn load_config() -> Config {\nLine 4:     let path = config_path();\n",
    );
    // Counted the same way: two matched lines.
    assert_out(
        &t.run(&[
            "grep",
            r"load_config\(\) -> Config \{\n\s+let",
            "-U",
            "--output",
            "count",
        ]),
        0,
        "Found 2 matches in 1 file\n\nsrc/app.rs: 2\n",
    );
}

#[test]
fn multiline_with_context() {
    let t = tree();
    assert_out(
        &t.run(&["grep", r"fn main\(\) \{\n.*let", "-U", "--context", "1"]),
        0,
        "Found 2 matches\n\nsrc/app.rs\nLine 7- \nLine 8: fn main() {\nLine 9:     let c = load_config();\nLine 10-     run(c);\n",
    );
}

#[test]
fn a_line_break_error_says_multiline_matches_across_lines() {
    let t = tree();
    let out = t.run(&["grep", r"main\n"]);
    assert_exit(&out, 3);
    assert!(
        stdout(&out).ends_with("or pass multiline: true to match across lines.\n"),
        "{out:?}"
    );
}

#[test]
fn an_unknown_type_names_close_ones() {
    let t = tree();
    let out = argv_and_call(
        &t,
        &[],
        "grep",
        &["load_config", "--type", "rsut"],
        &json!({"pattern": "load_config", "type": "rsut"}),
    );
    assert_out(
        &out,
        2,
        "Error: type \"rsut\" is not a file type ripgrep knows; close names: rust, rst. Pass one of the names `rg --type-list` prints, or an include glob such as *.ts\n",
    );
    let (ran, value) = envelope(&t, &["grep", "load_config", "--type", "nosuchthing"]);
    assert_eq!(value["error"]["code"], json!("INVALID_ARGUMENT"), "{ran:?}");
    assert_eq!(value["error"]["field"], json!("type"), "{ran:?}");
}

#[test]
fn a_type_that_leaves_nothing_to_search_says_so() {
    let t = tree();
    assert_out(
        &t.run(&["grep", "load_config", "--type", "go"]),
        1,
        "No matches found (no file was searched: the type, the include filter or ignore rules excluded every file)\n",
    );
}

#[test]
fn ignore_case_skips_the_case_probe() {
    let t = tree();
    // Without it the case probe finds the guide; with it there is nothing
    // case could add.
    assert_out(
        &t.run(&["grep", "Load_Config"]),
        1,
        "No matches found\n\n(Ignoring case, 4 files match, e.g. docs/Guide.md, src/app.rs, src/lib.rs; the pattern is case-sensitive: start it with (?i) to ignore case)\n",
    );
    assert_out(
        &t.run(&["grep", "nowhere_at_all", "-i"]),
        1,
        "No matches found\n",
    );
}

#[test]
fn glob_ignore_case_matches_any_case() {
    let t = tree();
    let glob = |args: &[&str], value: Value| argv_and_call(&t, &[], "glob", args, &value);
    assert_out(
        &glob(
            &["**/guide.md", "-i"],
            json!({"pattern": "**/guide.md", "ignore_case": true}),
        ),
        0,
        "docs/Guide.md\n",
    );
    assert_out(
        &glob(&["**/guide.md"], json!({"pattern": "**/guide.md"})),
        1,
        "No files found\n\n(Ignoring case, 1 path matches: docs/Guide.md; globs are case-sensitive: write the case these have)\n",
    );
}

#[test]
fn the_json_envelope_tells_context_lines_from_matched_ones() {
    let t = tree();
    let (ran, value) = envelope(&t, &["grep", "pub mod", "-A", "1"]);
    assert_eq!(
        value["files"],
        json!([{
            "path": "src/lib.rs",
            "matches": [{"line_number": 1, "preview": "pub mod app;", "line_truncated": false}],
            "context": [{"line_number": 2, "preview": "// load_config is in app", "line_truncated": false}]
        }]),
        "{ran:?}"
    );
    assert_eq!(value["total"], json!(1), "{ran:?}");
    // Without context there is no context key: the default is unchanged.
    let (ran, plain) = envelope(&t, &["grep", "pub mod"]);
    assert!(plain["files"][0].get("context").is_none(), "{ran:?}");
    assert!(
        plain.get("output").is_none() && plain.get("offset").is_none(),
        "{ran:?}"
    );
}

#[test]
fn explain_shows_the_flags() {
    let t = tree();
    let out = t.run(&[
        "--explain",
        "grep",
        "x",
        "-i",
        "-F",
        "-U",
        "-B",
        "2",
        "-A",
        "3",
        "-t",
        "rust",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Unix quotes the values for sh; Windows passes them as they are.
    let quoted = |value: &str| {
        if cfg!(windows) {
            value.to_owned()
        } else {
            format!("'{value}'")
        }
    };
    assert!(
        stderr.contains(&format!(
            "--json --binary --no-mmap --ignore-case --fixed-strings --multiline --multiline-dotall --before-context=2 --after-context=3 --type={} --regexp={}",
            quoted("rust"),
            quoted("x")
        )),
        "{out:?}"
    );
    let out = t.run(&[
        "--explain",
        "grep",
        "x",
        "--output",
        "count",
        "--context",
        "4",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "--count --with-filename --null --binary --no-mmap --regexp={}",
            quoted("x")
        )),
        "{out:?}"
    );
}

#[test]
fn spill_holds_the_complete_result_of_the_mode() {
    let t = tree();
    let spill = t.path().join("spill");
    let spill_arg = spill.to_str().unwrap();
    let saved = |args: &[&str]| -> String {
        let mut argv = vec!["--spill-dir", spill_arg, "--grep-max-matches", "1", "grep"];
        argv.extend_from_slice(args);
        let out = t.run(&argv);
        let text = stdout(&out);
        let locator = text
            .split("stored at: ")
            .nth(1)
            .and_then(|rest| rest.split(". Use read").next())
            .unwrap_or_else(|| panic!("no locator in {out:?}"));
        std::fs::read_to_string(locator).unwrap()
    };
    assert_eq!(
        saved(&["load_config", "--output", "files"]),
        "Found 3 files\n\nsrc/app.rs\nsrc/lib.rs\ntests/it.rs"
    );
    assert_eq!(
        saved(&["load_config", "--output", "count"]),
        "Found 4 matches in 3 files\n\nsrc/app.rs: 2\nsrc/lib.rs: 1\ntests/it.rs: 1"
    );
    assert_eq!(
        saved(&["load_config", "-A", "1", "src"]),
        "Found 3 matches\n\nsrc/app.rs\nLine 3: fn load_config() -> Config {\nLine 4-     let path = config_path();\n--\nLine 9:     let c = load_config();\nLine 10-     run(c);\n\nsrc/lib.rs\nLine 2: // load_config is in app"
    );
}

#[test]
fn capped_files_and_counts_name_where_the_rest_is() {
    let t = tree();
    assert_out(
        &t.run(&[
            "--grep-max-matches",
            "2",
            "grep",
            "load_config",
            "--output",
            "files",
        ]),
        0,
        &format!(
            "Found 2 of 3 files\n\nsrc/app.rs\nsrc/lib.rs\n\n(The other 1 file: tests/ 1)\n\n{UNSAVED}\n"
        ),
    );
    assert_out(
        &t.run(&[
            "--grep-max-matches",
            "1",
            "grep",
            "load_config",
            "--output",
            "count",
        ]),
        0,
        &format!(
            "Found 4 matches in 3 files (showing 1)\n\nsrc/app.rs: 2\n\n(The other 2 files: src/ 1, tests/ 1)\n\n{UNSAVED}\n"
        ),
    );
}

#[test]
fn with_context_the_cap_counts_printed_lines() {
    let t = tree();
    // Each match with one line either side is three lines; a cap of 5
    // holds one whole (the second would need three more).
    assert_out(
        &t.run(&[
            "--grep-max-matches",
            "5",
            "grep",
            "load_config",
            "--context",
            "1",
            "src",
        ]),
        0,
        &format!(
            "Found 1 of 3 matches\n\nsrc/app.rs\nLine 2- \nLine 3: fn load_config() -> Config {{\nLine 4-     let path = config_path();\n\n(The other 2 matches: src/app.rs 1, src/lib.rs 1)\n\n{UNSAVED}\n"
        ),
    );
    // A cap smaller than one match's lines still shows that match whole.
    assert_out(
        &t.run(&[
            "--grep-max-matches",
            "1",
            "grep",
            "fn main",
            "--context",
            "2",
        ]),
        0,
        "Found 1 match\n\nsrc/app.rs\nLine 6- }\nLine 7- \nLine 8: fn main() {\nLine 9-     let c = load_config();\nLine 10-     run(c);\n",
    );
}

#[test]
fn a_giant_matching_line_is_a_match_not_an_overflow() {
    let t = TestDir::new();
    // 3 MB of minified code with the match near its end: one record far
    // over what is held whole (1 MiB), read as it streams, under a raw
    // cap of 4 MB.
    let line = format!(
        "{}var needle=1;{}",
        "a;".repeat(1_500_000),
        "b;".repeat(300)
    );
    t.write("dist/app.min.js", format!("{line}\nnext needle line\n"));
    let out = t.run(&[
        "--raw-output-max-bytes",
        "4000000",
        "--grep-max-line-bytes",
        "40",
        "grep",
        "needle",
    ]);
    assert_out(
        &out,
        0,
        "Found 2 matches\n\ndist/app.min.js\nLine 1: …;a;a;a;a;a;a;var needle=1;b;b;b;b;b;b;b; (line truncated)\nLine 2: next needle line\n",
    );
    // Its context is read the same way: the line before a match.
    let out = t.run(&[
        "--raw-output-max-bytes",
        "4000000",
        "--grep-max-line-bytes",
        "10",
        "grep",
        "next",
        "-B",
        "1",
    ]);
    assert_out(
        &out,
        0,
        "Found 1 match\n\ndist/app.min.js\nLine 1- a;a;a;a;a; (line truncated)\nLine 2: next needl (line truncated)\n",
    );
    // Under a cap of 2 MB the same record is an overflow: every byte rg
    // prints counts, those of a record read as it streams too (only its
    // first MiB once did).
    let out = t.run(&[
        "--raw-output-max-bytes",
        "2000000",
        "--grep-max-line-bytes",
        "40",
        "grep",
        "needle",
    ]);
    assert_out(
        &out,
        5,
        "Error: grep output is over the 2000000-byte cap on raw ripgrep output, 100% of it from dist/app.min.js; narrow pattern, path, or include (leave that file out), or raise --raw-output-max-bytes.\n",
    );
}

#[test]
fn a_timeout_keeps_the_files_found_so_far() {
    let t = TestDir::new();
    let rg = t.fake_rg_plan("fake/rg", "print b.txt\\0a.txt\\0c/d\nsleep 5000");
    let out = t.run(&[
        "--rg",
        rg.to_str().unwrap(),
        "--timeout-ms",
        "300",
        "grep",
        "x",
        "--output",
        "files",
    ]);
    assert_out(
        &out,
        6,
        "Error: grep timed out after 300ms; showing what was found in that time (incomplete); narrow pattern, path, or include and retry, or raise --timeout-ms.\n\nFound 2 files\n\na.txt\nb.txt\n",
    );
}

#[test]
fn one_file_is_a_tree_of_one_file_in_every_mode() {
    // rg prints a bare number when it counts in one file; the file is
    // named all the same (SPEC §3a), given relative, as `./`, absolute, or
    // binary.
    let t = tree();
    t.write("data.bin", b"load_config\0\nload_config\n");
    let absolute = format!("{}/src/app.rs", t.path().display());
    let cases: [(&str, &str); 4] = [
        ("src/app.rs", "src/app.rs"),
        ("./src/app.rs", "./src/app.rs"),
        (&absolute, "src/app.rs"),
        ("data.bin", "data.bin"),
    ];
    for (path, shown) in cases {
        let wants = [
            (
                "count",
                format!("Found 2 matches in 1 file\n\n{shown}: 2\n"),
            ),
            ("files", format!("Found 1 file\n\n{shown}\n")),
        ];
        for (mode, want) in wants {
            let json = json!({"pattern": "load_config", "path": path, "output": mode});
            let argv = ["load_config", path, "--output", mode];
            let ran = argv_and_call(&t, &[], "grep", &argv, &json);
            assert_out(&ran, 0, &want);
        }
    }
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["no_such_name", "src/app.rs", "--output", "count"],
            &json!({"pattern": "no_such_name", "path": "src/app.rs", "output": "count"}),
        ),
        1,
        "No matches found\n",
    );
}
