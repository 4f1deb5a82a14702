//! Arguments: any string reaches rg verbatim and nothing in it runs (SPEC §1,
//! §2); model mistakes are argument errors with exit 2 (SPEC §3); bad numbers
//! are usage errors naming the option (SPEC §1).

use crate::harness::{Ran, TestDir, assert_exit, assert_out};

/// Assert that no shell ever ran the `touch pwned` payloads.
#[track_caller]
#[cfg(unix)]
fn assert_not_pwned(t: &TestDir) {
    assert!(
        !t.path().join("pwned").exists(),
        "a payload ran: {}/pwned exists",
        t.root()
    );
}

#[test]
fn a_leading_dash_pattern_and_path_pass_after_double_dash() {
    let t = TestDir::new();
    t.write("-dir/notes.md", "<!-- note -->\n--files here\n-e flag\n");
    t.write("-dash.txt", "");
    t.write("--files.txt", "");
    t.write("other.md", "<!-- other -->\n");
    assert_out(
        &t.run(&["grep", "--", "-->", "-dir"]),
        0,
        "Found 1 match\n\n-dir/notes.md\nLine 1: <!-- note -->\n",
    );
    assert_out(
        &t.run(&["grep", "--", "--files", "-dir"]),
        0,
        "Found 1 match\n\n-dir/notes.md\nLine 2: --files here\n",
    );
    assert_out(
        &t.run(&["grep", "--", "-e"]),
        0,
        "Found 1 match\n\n-dir/notes.md\nLine 3: -e flag\n",
    );
    assert_out(
        &t.run(&["--glob-sort", "path", "glob", "--", "-*"]),
        0,
        "--files.txt\n-dash.txt\n",
    );
    assert_out(
        &t.run(&["glob", "--", "*.md", "-dir"]),
        0,
        "-dir/notes.md\n",
    );
    assert_out(&t.run(&["glob", "--", "--files.txt"]), 0, "--files.txt\n");
}

// Unix only: names Windows cannot hold (quotes, | and >, a newline); faults/given.rs checks the arguments rg receives everywhere.
#[cfg(unix)]
#[test]
fn spaces_and_quotes_reach_rg_verbatim() {
    let t = TestDir::new();
    t.write(
        "my dir/it's \"q\".txt",
        "say \"hi\" it's  two  spaces\nsay hi\n",
    );
    t.write("plain.txt", "say hi\n");
    assert_out(
        &t.run(&["grep", "say \"hi\" it's  two", "my dir"]),
        0,
        "Found 1 match\n\nmy dir/it's \"q\".txt\nLine 1: say \"hi\" it's  two  spaces\n",
    );
    assert_out(
        &t.run(&["glob", "it's \"q\".txt", "my dir"]),
        0,
        "my dir/it's \"q\".txt\n",
    );
    assert_out(
        &t.run(&["grep", "hi", "--include", "it's \"q\"*"]),
        0,
        "Found 2 matches\n\nmy dir/it's \"q\".txt\nLine 1: say \"hi\" it's  two  spaces\nLine 2: say hi\n",
    );
    assert_out(
        &t.run(&["grep", "'"]),
        0,
        "Found 1 match\n\nmy dir/it's \"q\".txt\nLine 1: say \"hi\" it's  two  spaces\n",
    );
}

// Unix only: names Windows cannot hold (quotes, | and >, a newline); faults/given.rs checks the arguments rg receives everywhere.
#[cfg(unix)]
#[test]
fn shell_syntax_in_arguments_never_runs() {
    let t = TestDir::new();
    let name = "$(touch pwned) `touch pwned` ; touch pwned & | > x.txt";
    t.write(
        &format!("d $(touch pwned)/{name}"),
        "a $(touch pwned) b\nc `touch pwned` d\ne ; touch pwned f\n",
    );
    // Regexes escaped only where rg's syntax needs it; the shell sees them raw.
    assert_out(
        &t.run(&["grep", r"\$\(touch pwned\)", "d $(touch pwned)"]),
        0,
        &format!("Found 1 match\n\nd $(touch pwned)/{name}\nLine 1: a $(touch pwned) b\n"),
    );
    assert_out(
        &t.run(&["grep", "`touch pwned`"]),
        0,
        &format!("Found 1 match\n\nd $(touch pwned)/{name}\nLine 2: c `touch pwned` d\n"),
    );
    assert_out(
        &t.run(&["grep", "; touch pwned"]),
        0,
        &format!("Found 1 match\n\nd $(touch pwned)/{name}\nLine 3: e ; touch pwned f\n"),
    );
    // A bare `$(…)` is a valid regex that matches nothing on one line.
    assert_out(&t.run(&["grep", "$(touch pwned)"]), 1, "No matches found\n");
    assert_out(
        &t.run(&["grep", "b$", "--include", "$(touch pwned)*"]),
        0,
        &format!("Found 1 match\n\nd $(touch pwned)/{name}\nLine 1: a $(touch pwned) b\n"),
    );
    assert_out(
        &t.run(&["glob", name, "d $(touch pwned)"]),
        0,
        &format!("d $(touch pwned)/{name}\n"),
    );
    assert_out(
        &t.run(&["glob", "*`touch pwned`*; touch pwned*"]),
        0,
        &format!("d $(touch pwned)/{name}\n"),
    );
    assert_out(
        &t.run(&["glob", "'; touch pwned; '"]),
        1,
        "No files found\n",
    );
    // A missing path full of shell syntax: rg itself names it, verbatim.
    let path = "'$(touch pwned)'\"; touch pwned\"";
    let out = t.run(&["grep", "x", path]);
    assert_exit(&out, 4);
    let text = String::from_utf8_lossy(&out.stdout);
    // rg 14 prefixes its messages with "rg: ", rg 13 does not.
    assert!(
        text.starts_with("Error: grep could not search the given path (ripgrep exit 2: "),
        "{out:?}"
    );
    assert!(text.contains(&format!("{path}: ")), "{out:?}");
    assert_not_pwned(&t);
}

// Unix only: names Windows cannot hold (quotes, | and >, a newline); faults/given.rs checks the arguments rg receives everywhere.
#[cfg(unix)]
#[test]
fn a_newline_in_a_glob_path_reaches_rg() {
    let t = TestDir::new();
    t.write("two\nlines/a.txt", "hit\n");
    t.write("two/b.txt", "hit\n");
    assert_out(
        &t.run(&["glob", "*.txt", "two\nlines"]),
        0,
        "two\\nlines/a.txt\n",
    );
    assert_out(
        &t.run(&["grep", "hit", "two\nlines"]),
        0,
        "Found 1 match\n\ntwo\\nlines/a.txt\nLine 1: hit\n",
    );
}

#[test]
fn a_newline_in_a_grep_pattern_is_rejected_by_rg() {
    let t = TestDir::new();
    t.write("a.txt", "a\nb\n");
    let out = t.run(&["grep", "a\nb"]);
    assert_exit(&out, 3);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("Error: grep pattern rejected by ripgrep (exit 2): "),
        "{out:?}"
    );
    assert!(text.contains("literal"), "{out:?}");
}

#[test]
fn non_ascii_patterns_paths_and_includes_pass_verbatim() {
    let t = TestDir::new();
    t.write("dïr €/ünï.txt", "naïve café €5 日本語\n");
    t.write("dïr €/other.md", "naïve\n");
    assert_out(
        &t.run(&["grep", "café €5 日本", "dïr €", "--include", "ü*"]),
        0,
        "Found 1 match\n\ndïr €/ünï.txt\nLine 1: naïve café €5 日本語\n",
    );
    assert_out(&t.run(&["glob", "ünï.*", "dïr €"]), 0, "dïr €/ünï.txt\n");
}

#[test]
fn a_blank_grep_pattern_is_a_valid_regex() {
    let t = TestDir::new();
    t.write("a.txt", "no-spaces\nhas space\n");
    assert_out(
        &t.run(&["grep", " "]),
        0,
        "Found 1 match\n\na.txt\nLine 2: has space\n",
    );
}

#[test]
fn an_include_may_start_with_a_dash() {
    let t = TestDir::new();
    t.write("-x1.txt", "hit\n");
    t.write("x2.txt", "hit\n");
    let want = "Found 1 match\n\n-x1.txt\nLine 1: hit\n";
    assert_out(&t.run(&["grep", "hit", "--include", "-x*"]), 0, want);
    assert_out(&t.run(&["grep", "hit", "--include=-x*"]), 0, want);
    assert_out(&t.run(&["grep", "--include", "-x*", "hit"]), 0, want);
}

#[test]
fn global_options_go_before_or_after_the_subcommand() {
    let t = TestDir::new();
    t.write("a.txt", "hit\nhit\n");
    let want = "Found 1 of 2 matches\n\na.txt\nLine 1: hit\n\n(The other 1 match: a.txt 1)\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)\n";
    assert_out(&t.run(&["--grep-max-matches", "1", "grep", "hit"]), 0, want);
    assert_out(&t.run(&["grep", "--grep-max-matches", "1", "hit"]), 0, want);
    assert_out(&t.run(&["grep", "hit", "--grep-max-matches=1"]), 0, want);
}

// ---- argument errors: exit 2, `Error: <message>` on stdout ----

const BLANK_GLOB: &str = "Error: glob pattern must not be blank; pass a glob such as **/*.rs\n";
const NEGATED_GLOB: &str = "Error: glob pattern must not start with '!': negated globs are not supported; pass the files you want, such as **/*.rs\n";
const EMPTY_GREP: &str =
    "Error: grep pattern must not be empty; pass a ripgrep regex such as fn main\n";
const BLANK_PATH: &str = "Error: path must not be blank; omit it to search the workdir\n";
const BLANK_INCLUDE: &str = "Error: include must not be blank; omit it to search every file, or pass one glob such as *.rs\n";
const NEGATED_INCLUDE: &str = "Error: include must be one positive glob and must not start with '!'; to leave files out, pass exclude\n";
const COMMA_INCLUDE: &str = "Error: include must be ONE glob, not a comma-separated list; use brace alternation such as *.{ts,tsx}\n";

/// A tree in which every rejected call would have found something.
fn tree() -> TestDir {
    let t = TestDir::new();
    t.write("a.ts", "hit\n");
    t.write("b.js", "hit\n");
    t
}

#[test]
fn a_blank_glob_pattern_is_an_argument_error() {
    let t = tree();
    for pattern in ["", " ", "\t", "  \n "] {
        assert_out(&t.run(&["glob", pattern]), 2, BLANK_GLOB);
    }
}

#[test]
fn a_glob_pattern_starting_with_bang_is_an_argument_error() {
    let t = tree();
    assert_out(&t.run(&["glob", "!*.ts"]), 2, NEGATED_GLOB);
    assert_out(&t.run(&["glob", "!"]), 2, NEGATED_GLOB);
    assert_out(&t.run(&["glob", "--", "!**/x", "."]), 2, NEGATED_GLOB);
    // A `!` later in the pattern is an ordinary character class use.
    assert_out(&t.run(&["glob", "[!b]*"]), 0, "a.ts\n");
}

#[test]
fn an_empty_grep_pattern_is_an_argument_error() {
    let t = tree();
    assert_out(&t.run(&["grep", ""]), 2, EMPTY_GREP);
    assert_out(&t.run(&["grep", "", "--include", "*.ts"]), 2, EMPTY_GREP);
}

#[test]
fn a_blank_path_is_an_argument_error() {
    let t = tree();
    for path in ["", " ", "\t \n"] {
        assert_out(&t.run(&["glob", "*", path]), 2, BLANK_PATH);
        assert_out(&t.run(&["grep", "hit", path]), 2, BLANK_PATH);
    }
}

#[test]
fn a_blank_include_is_an_argument_error() {
    let t = tree();
    for include in ["", " ", "\t"] {
        assert_out(
            &t.run(&["grep", "hit", "--include", include]),
            2,
            BLANK_INCLUDE,
        );
    }
    assert_out(&t.run(&["grep", "hit", "--include="]), 2, BLANK_INCLUDE);
}

#[test]
fn an_include_starting_with_bang_is_an_argument_error() {
    let t = tree();
    assert_out(
        &t.run(&["grep", "hit", "--include", "!*.ts"]),
        2,
        NEGATED_INCLUDE,
    );
    assert_out(
        &t.run(&["grep", "hit", "--include=!*.js"]),
        2,
        NEGATED_INCLUDE,
    );
}

#[test]
fn an_include_with_a_top_level_comma_is_an_argument_error() {
    let t = tree();
    for include in ["*.ts,*.js", "*.ts, *.js", "{a,b},c", "a,{b,c}", ","] {
        assert_out(
            &t.run(&["grep", "hit", "--include", include]),
            2,
            COMMA_INCLUDE,
        );
    }
}

#[test]
fn an_include_with_commas_inside_braces_is_accepted() {
    let t = tree();
    assert_out(
        &t.run(&["grep", "hit", "--include", "*.{ts,js}"]),
        0,
        "Found 2 matches\n\na.ts\nLine 1: hit\n\nb.js\nLine 1: hit\n",
    );
    assert_out(
        &t.run(&["grep", "hit", "--include", "*.{ts,tsx}"]),
        0,
        "Found 1 match\n\na.ts\nLine 1: hit\n",
    );
    // An escaped comma is a literal character, not a list separator (Unix:
    // on Windows a glob's `\` is a separator, SPEC §10).
    #[cfg(unix)]
    assert_out(
        &t.run(&["grep", "hit", "--include", r"a\,b"]),
        1,
        "No matches found (no file was searched: the include filter or ignore rules excluded every file)\n",
    );
}

#[test]
fn argument_errors_come_before_any_search() {
    // The workdir does not exist, yet the argument error is what is reported.
    let t = tree();
    assert_out(
        &t.run(&["--cwd", "missing", "grep", "hit", "--include", "a,b"]),
        2,
        COMMA_INCLUDE,
    );
    assert_out(&t.run(&["--cwd", "missing", "glob", "!x"]), 2, NEGATED_GLOB);
}

// ---- numbers: at least 1, else a usage error naming the option ----

const NUMERIC: [(&str, &str); 5] = [
    ("--glob-max-results", "DSH_SEARCH_GLOB_MAX_RESULTS"),
    ("--grep-max-matches", "DSH_SEARCH_GREP_MAX_MATCHES"),
    ("--grep-max-line-bytes", "DSH_SEARCH_GREP_MAX_LINE_BYTES"),
    ("--raw-output-max-bytes", "DSH_SEARCH_RAW_OUTPUT_MAX_BYTES"),
    ("--timeout-ms", "DSH_SEARCH_TIMEOUT_MS"),
];

#[track_caller]
/// A usage error is reported on stdout, like every failure, naming the option.
fn assert_usage_error(out: &Ran, option: &str) {
    assert_exit(out, 2);
    assert!(out.stderr.is_empty(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("Error: ") && text.ends_with('\n'),
        "{out:?}"
    );
    assert!(
        text.contains(option),
        "stdout should name {option}: {out:?}"
    );
}

#[test]
fn a_zero_cap_is_a_usage_error_naming_the_option() {
    let t = tree();
    for (option, _) in NUMERIC {
        assert_usage_error(&t.run(&[option, "0", "grep", "hit"]), option);
        assert_usage_error(&t.run(&["glob", "*", &format!("{option}=0")]), option);
    }
}

#[test]
fn a_zero_cap_from_the_environment_is_a_usage_error_naming_the_option() {
    let t = tree();
    for (option, env) in NUMERIC {
        let out = t
            .cmd()
            .env(env, "0")
            .args(["grep", "hit"])
            .output()
            .unwrap();
        assert_usage_error(&out, option);
    }
}

#[test]
fn a_non_number_cap_is_a_usage_error_naming_the_option() {
    let t = tree();
    for (option, _) in NUMERIC {
        for bad in [
            "abc",
            "",
            "1.5",
            " 3",
            "1e3",
            "0x10",
            "-1",
            "99999999999999999999999",
        ] {
            assert_usage_error(&t.run(&["grep", "hit", &format!("{option}={bad}")]), option);
        }
    }
}

#[test]
fn a_negative_cap_as_a_separate_word_is_a_usage_error_naming_the_option() {
    // `--option=-1` is covered above and passes; only the two-word form fails.
    let t = tree();
    for (option, _) in NUMERIC {
        assert_usage_error(&t.run(&["grep", "hit", option, "-1"]), option);
        assert_usage_error(&t.run(&[option, "-1", "glob", "*"]), option);
    }
}

#[test]
fn an_unknown_glob_sort_is_a_usage_error_naming_the_option() {
    let t = tree();
    assert_usage_error(&t.run(&["--glob-sort", "size", "glob", "*"]), "--glob-sort");
    let out = t
        .cmd()
        .env("DSH_SEARCH_GLOB_SORT", "random")
        .args(["glob", "*"])
        .output()
        .unwrap();
    assert_usage_error(&out, "--glob-sort");
}
