//! Pattern errors (exit 3): rg's own rejections of a regex or a glob, and
//! what only looks like one (a partial search).

use super::*;
use crate::harness::{assert_exit, assert_out, stdout};

/// The advice after a pattern error (error.rs), per tool.
const GREP_ADVICE: &str = "Fix the pattern (a ripgrep regex: escape ( ) [ ] { } . * + ? | \\ with a backslash to match them literally) and retry, or pass literal: true to search for the text as written.";
/// The advice after a literal newline (rg's own, --multiline, is not ours).
const LINE_BREAK_ADVICE: &str = "grep matches one line at a time, so a pattern cannot contain a line break (a newline or \\n): search for one line of the text instead, or pass multiline: true to match across lines.";
const GLOB_ADVICE: &str =
    "Fix the glob (balance its [ ] and { } or escape them as [[] and [{]) and retry.";

#[test]
fn regex_parse_error_is_exit_3() {
    let t = TestDir::new();
    let err = "regex parse error:\n    (?:a()\n    ^\nerror: unclosed group\n";
    let rg = scripted(&t, b"", err.as_bytes(), 2);
    assert_out(
        &run_with(&t, &rg, &["grep", "a("]),
        3,
        &format!(
            "Error: grep pattern rejected by ripgrep (exit 2): regex parse error:\n    (?:a()\n    ^\nerror: unclosed group\n{GREP_ADVICE}\n"
        ),
    );
}

#[test]
fn glob_parse_error_is_exit_3() {
    let t = TestDir::new();
    let rg = scripted(
        &t,
        b"",
        b"error parsing glob 'a{': unclosed alternate group\n",
        2,
    );
    assert_out(
        &run_with(&t, &rg, &["glob", "a{"]),
        3,
        &format!(
            "Error: glob pattern rejected by ripgrep (exit 2): error parsing glob 'a{{': unclosed alternate group\n{GLOB_ADVICE}\n"
        ),
    );
}

#[test]
fn literal_newline_rejection_is_exit_3() {
    let t = TestDir::new();
    let rg = scripted(
        &t,
        b"",
        b"rg: the literal \"\\n\" is not allowed in a regex\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\nWhen multiline mode is enabled, new line characters can be matched.\n",
        2,
    );
    assert_out(
        &run_with(&t, &rg, &["grep", "a\nb"]),
        3,
        &format!(
            "Error: grep pattern rejected by ripgrep (exit 2): rg: the literal \"\\n\" is not allowed in a regex\n{LINE_BREAK_ADVICE}\n"
        ),
    );
}

/// Real rg's `--json` summary record (a search ran), for replays.
fn summary() -> String {
    r#"{"data":{"elapsed_total":{"human":"0.001s","nanos":1000000,"secs":0},"stats":{"bytes_printed":0,"bytes_searched":0,"elapsed":{"human":"0.000000s","nanos":0,"secs":0},"matched_lines":1,"matches":1,"searches":2,"searches_with_match":1}},"type":"summary"}"#.to_owned()
}

#[test]
fn a_file_named_like_a_pattern_error_is_a_partial_search() {
    // Real rg 14's stderr for an unreadable `regex parse error.txt` beside
    // a readable match, replayed (as root the file would be readable). rg
    // searched (its summary is there): exit 2 means some paths failed.
    let t = TestDir::new();
    let out = format!("{}\n{}\n", match_record("a.txt", 1, "needle"), summary());
    let rg = scripted(
        &t,
        out.as_bytes(),
        b"rg: ./regex parse error.txt: Permission denied (os error 13)\n",
        2,
    );
    assert_out(
        &run_with(&t, &rg, &["grep", "needle"]),
        0,
        "Found 1 match\n\na.txt\nLine 1: needle\n\n(1 path could not be searched; first error: rg: ./regex parse error.txt: Permission denied (os error 13))\n",
    );
}

#[test]
fn a_bad_glob_in_an_ignore_file_is_a_partial_search() {
    // A repo `.ignore` holding `a[`, and an unreadable file: rg warns about
    // the ignore file, searches anyway, and exits 2 for the unreadable one.
    let t = TestDir::new();
    let out = format!("{}\n{}\n", match_record("a.txt", 1, "needle"), summary());
    let rg = scripted(
        &t,
        out.as_bytes(),
        b"rg: ./.ignore: line 1: error parsing glob 'a[': unclosed character class; missing ']'\nrg: ./secret: Permission denied (os error 13)\n",
        2,
    );
    assert_out(
        &run_with(&t, &rg, &["grep", "needle"]),
        0,
        "Found 1 match\n\na.txt\nLine 1: needle\n\n(2 paths could not be searched; first error: rg: ./.ignore: line 1: error parsing glob 'a[': unclosed character class; missing ']')\n",
    );
}

#[test]
fn real_rg_with_a_bad_ignore_file_still_searches() {
    let t = TestDir::new();
    t.write(".ignore", "a[\n");
    t.write("a.txt", "needle\n");
    assert_out(
        &t.run(&["grep", "needle"]),
        0,
        "Found 1 match\n\na.txt\nLine 1: needle\n",
    );
}

#[test]
fn an_include_glob_error_is_not_a_pattern_error() {
    let t = TestDir::new();
    t.write("a.txt", "x\n");
    assert_out(
        &t.run(&["grep", "x", "--include", "*.{rs"]),
        3,
        "Error: grep include rejected by ripgrep (exit 2): rg: error parsing glob '*.{rs': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)\nThe pattern is fine; fix the include (ONE glob such as *.rs or *.{ts,tsx}: balance its [ ] and { } or escape them as [[] and [{]) and retry.\n",
    );
}

#[test]
fn a_regex_over_the_size_limit_gets_no_escaping_advice() {
    let t = TestDir::new();
    t.write("a.txt", "x\n");
    assert_out(
        &t.run(&["grep", r"\w{1000}{1000}"]),
        3,
        "Error: grep pattern rejected by ripgrep (exit 2): rg: compiled regex exceeds size limit of 104857600\nThe pattern is valid but compiles to a regex over ripgrep's size limit: use a shorter or simpler one (smaller repetition counts such as {1000}, fewer alternatives) and retry.\n",
    );
}

#[test]
fn a_literal_newline_gets_advice_that_works() {
    let t = TestDir::new();
    t.write("a.txt", "x\n");
    assert_out(
        &t.run(&["grep", "a\nb"]),
        3,
        &format!(
            "Error: grep pattern rejected by ripgrep (exit 2): rg: the literal \"\\n\" is not allowed in a regex\n{LINE_BREAK_ADVICE}\n"
        ),
    );
}

#[test]
fn real_rg_rejects_bad_regex_and_glob() {
    let t = TestDir::new();
    t.write("a.txt", "a(\n");
    let out = t.run(&["grep", "a("]);
    let text = stdout(&out);
    assert_exit(&out, 3);
    assert!(
        text.starts_with("Error: grep pattern rejected by ripgrep (exit 2): ")
            && text.contains("regex parse error")
            && text.ends_with(&format!("\n{GREP_ADVICE}\n")),
        "{out:?}"
    );

    let out = t.run(&["glob", "a{"]);
    let text = stdout(&out);
    assert_exit(&out, 3);
    assert!(
        text.starts_with("Error: glob pattern rejected by ripgrep (exit 2): ")
            && text.contains("error parsing glob")
            && text.ends_with(&format!("\n{GLOB_ADVICE}\n")),
        "{out:?}"
    );
}
