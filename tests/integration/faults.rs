//! Fault injection: the binary pointed at fake rgs (and, where real rg can
//! show the fault, at real rg) that misbehave one way each: the fake-rg
//! program with a plan on every OS, shell scripts where only a shell shows
//! the fault (Unix). Every test asserts the exit code of SPEC §6 and stdout
//! exactly, except where the message quotes stderr that is not ours.
//!
//! Tests that start background processes check afterwards that those are
//! gone (absent, or a zombie awaiting reaping by PID 1): the runner must kill
//! rg's whole process group. Every wait is a bounded poll, never a guess.

use std::fs;
#[cfg(unix)]
use std::path::PathBuf;

use crate::harness::{INSTALL_WAYS, Ran, TestDir, assert_exit, assert_out, stdout, stdout_json};
#[cfg(unix)]
use crate::procs::{Sleepers, interrupt};

/// The advice after a pattern error (error.rs), per tool.
const GREP_ADVICE: &str = "Fix the pattern (a ripgrep regex: escape ( ) [ ] { } . * + ? | \\ with a backslash to match them literally) and retry, or pass literal: true to search for the text as written.";
/// The advice after a literal newline (rg's own, --multiline, is not ours).
const LINE_BREAK_ADVICE: &str = "grep matches one line at a time, so a pattern cannot contain a line break (a newline or \\n): search for one line of the text instead, or pass multiline: true to match across lines.";
const GLOB_ADVICE: &str =
    "Fix the glob (balance its [ ] and { } or escape them as [[] and [{]) and retry.";
/// The end of every malformed-output message: it says what was read, and
/// guesses no cause (an rg too old was only ever a guess).
const MALFORMED_TAIL: &str = "\").\n";
/// rg's message when a permission error hides a path (Windows words it
/// in the user's language; its number is the same everywhere).
#[cfg(unix)]
const DENIED: &str = "rg: ./secret: Permission denied (os error 13)";
#[cfg(windows)]
const DENIED: &str = "rg: ./secret: Access is denied. (os error 5)";

// ---------------------------------------------------------------- helpers

/// Write a fake rg script at `fake/rg` with `body` and return its absolute path.
#[cfg(unix)]
fn fake(t: &TestDir, body: &str) -> String {
    t.fake_rg("fake/rg", body).to_string_lossy().into_owned()
}

/// A fake rg at `fake/rg` that follows `plan`, and its absolute path.
fn planned(t: &TestDir, plan: &str) -> String {
    t.fake_rg_plan("fake/rg", plan)
        .to_string_lossy()
        .into_owned()
}

/// A fake rg that prints `out` on stdout and `err` on stderr (both from
/// files, so any bytes pass unquoted) and exits with `code`.
fn scripted(t: &TestDir, out: &[u8], err: &[u8], code: i32) -> String {
    let out_file = t.write("fake/stdout.bin", out);
    let err_file = t.write("fake/stderr.bin", err);
    planned(
        t,
        &format!(
            "stdout {}\nstderr {}\nexit {code}",
            out_file.display(),
            err_file.display()
        ),
    )
}

/// Run the binary with `--rg <rg>` followed by `args`.
fn run_with(t: &TestDir, rg: &str, args: &[&str]) -> Ran {
    t.cmd()
        .arg("--rg")
        .arg(rg)
        .args(args)
        .output()
        .expect("dsh-search runs")
}

/// One `rg --json` match record with text path and line.
fn match_record(path: &str, line_number: u64, line: &str) -> String {
    serde_json::json!({
        "type": "match",
        "data": {
            "path": {"text": path},
            "lines": {"text": format!("{line}\n")},
            "line_number": line_number,
            "absolute_offset": 0,
            "submatches": [{"match": {"text": "x"}, "start": 0, "end": 1}],
        }
    })
    .to_string()
}

/// A PATH whose first directory holds an `sh` that only leaves a marker:
/// dsh-search must run `/bin/sh`, never an `sh` found on PATH.
#[cfg(unix)]
fn path_with_planted_sh(t: &TestDir) -> (String, PathBuf) {
    let marker = t.path().join("planted-sh-ran");
    let shim = t.mkdir("shim");
    t.fake_rg("shim/sh", &format!(": > '{}'\nexit 99", marker.display()));
    let path = std::env::var("PATH").unwrap_or_default();
    (format!("{}:{path}", shim.display()), marker)
}

// --------------------------------------------------- pattern errors (exit 3)

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

// ------------------------------------------- rg missing or not executable

fn not_found_message(tool: &str, rg: &str, stderr: &str) -> String {
    format!(
        "Error: {tool} could not run ripgrep `{rg}` (exit 127: {stderr}). The file is there, so something it needs may be missing (its interpreter, a shared library): point --rg / DSH_SEARCH_RG at a working rg, or install ripgrep ({INSTALL_WAYS}).\n"
    )
}

#[test]
fn rg_exit_127_says_what_may_be_missing() {
    let t = TestDir::new();
    let rg = planned(&t, "eprint sh: 1: rg: not found\\n\nexit 127");
    assert_out(
        &run_with(&t, &rg, &["grep", "x"]),
        4,
        &not_found_message("grep", &rg, "sh: 1: rg: not found"),
    );
    assert_out(
        &run_with(&t, &rg, &["glob", "*"]),
        4,
        &not_found_message("glob", &rg, "sh: 1: rg: not found"),
    );
}

// Unix only: a Unix path.
#[cfg(unix)]
#[test]
fn nonexistent_rg_gives_install_advice() {
    let t = TestDir::new();
    let want = &format!(
        "Error: grep requires ripgrep (rg), but /nonexistent/rg does not exist. Install ripgrep ({INSTALL_WAYS}) or point --rg / DSH_SEARCH_RG at the rg executable.\n"
    );
    let by_flag = run_with(&t, "/nonexistent/rg", &["grep", "x"]);
    let by_env = t
        .cmd()
        .env("DSH_SEARCH_RG", "/nonexistent/rg")
        .args(["grep", "x"])
        .output()
        .unwrap();
    assert_out(&by_flag, 4, want);
    assert_out(&by_env, 4, want);
}

#[test]
fn rg_missing_from_path_gives_install_advice() {
    let t = TestDir::new();
    let empty = t.mkdir("empty-bin");
    let out = t
        .cmd()
        .env("PATH", &empty)
        .args(["--rg", "rg", "glob", "*"])
        .output()
        .unwrap();
    assert_out(
        &out,
        4,
        &format!(
            "Error: glob requires ripgrep (rg) on PATH, but no absolute directory on PATH holds an executable `rg`. Install ripgrep ({INSTALL_WAYS}) or point --rg / DSH_SEARCH_RG at the rg executable.\n"
        ),
    );
}

#[test]
fn rg_exit_126_is_exit_4() {
    let t = TestDir::new();
    let rg = planned(&t, "eprint sh: 1: rg: Permission denied\\n\nexit 126");
    assert_out(
        &run_with(&t, &rg, &["grep", "x"]),
        4,
        &format!(
            "Error: grep could not execute ripgrep `{rg}` (exit 126: sh: 1: rg: Permission denied). That is a permission problem on that path (its mode, a directory on the way, or a noexec mount), not a missing ripgrep: fix the permission or point --rg / DSH_SEARCH_RG at an rg you may run.\n"
        ),
    );
}

// Unix only: POSIX execute permission.
#[cfg(unix)]
#[test]
fn non_executable_rg_is_exit_4() {
    let t = TestDir::new();
    let rg = t.write("fake/rg", "#!/bin/sh\nexit 0\n");
    let rg = rg.to_string_lossy().into_owned();
    let want = |tool: &str, path: &str| {
        format!(
            "Error: {tool} cannot run ripgrep: {path} is not an executable file (a permission problem, or a directory). Make it executable (chmod +x) or point --rg / DSH_SEARCH_RG at an executable rg.\n"
        )
    };
    assert_out(&run_with(&t, &rg, &["glob", "*"]), 4, &want("glob", &rg));
    // Found on PATH but not executable: named, not "install ripgrep".
    let dir = t.path().join("fake");
    let out = t
        .cmd()
        .env("PATH", &dir)
        .args(["--rg", "rg", "grep", "x"])
        .output()
        .unwrap();
    assert_out(&out, 4, &want("grep", &rg));
    let a_dir = t.mkdir("fake/rg-dir");
    let a_dir = a_dir.to_string_lossy().into_owned();
    assert_out(
        &run_with(&t, &a_dir, &["grep", "x"]),
        4,
        &want("grep", &a_dir),
    );
}

// ------------------------------------------------------ exit 2 and friends

#[test]
fn grep_exit_2_with_results_is_a_partial_search() {
    let t = TestDir::new();
    let out = format!("{}\n", match_record("src/a.rs", 3, "fn main() {}"));
    let expected = |k: &str| {
        format!(
            "Found 1 match\n\nsrc/a.rs\nLine 3: fn main() {{}}\n\n({k} could not be searched; first error: {DENIED})\n"
        )
    };
    let two = scripted(
        &t,
        out.as_bytes(),
        format!("{DENIED}\n{DENIED}\n").as_bytes(),
        2,
    );
    assert_out(
        &run_with(&t, &two, &["grep", "main"]),
        0,
        &expected("2 paths"),
    );
    let one = scripted(&t, out.as_bytes(), format!("{DENIED}\n").as_bytes(), 2);
    assert_out(
        &run_with(&t, &one, &["grep", "main"]),
        0,
        &expected("1 path"),
    );
}

#[test]
fn glob_exit_2_with_results_is_a_partial_search() {
    let t = TestDir::new();
    let two = planned(
        &t,
        &format!("print a\\0b\\0\neprint {DENIED}\\n{DENIED}\\n\nexit 2"),
    );
    assert_out(
        &run_with(&t, &two, &["glob", "*"]),
        0,
        &format!("a\nb\n\n(2 paths could not be searched; first error: {DENIED})\n"),
    );
    let one = planned(&t, &format!("print a\\0b\\0\neprint {DENIED}\\n\nexit 2"));
    assert_out(
        &run_with(&t, &one, &["glob", "*"]),
        0,
        &format!("a\nb\n\n(1 path could not be searched; first error: {DENIED})\n"),
    );
}

#[test]
fn a_partial_search_counts_a_path_with_a_newline_once_and_escapes_it() {
    // rg 14's stderr for two unreadable directories, the first named
    // `bad<ESC>[31m<newline>dir`: its message runs over two lines. K is
    // rg's messages (2), not its lines (3), and the first is shown escaped,
    // in text and in JSON's warnings alike.
    let t = TestDir::new();
    let out = format!("{}\n", match_record("a.txt", 1, "needle"));
    let rg = scripted(
        &t,
        out.as_bytes(),
        b"rg: ./bad\x1b[31m\ndir: Permission denied (os error 13)\nrg: ./other: Permission denied (os error 13)\n",
        2,
    );
    let note = r"(2 paths could not be searched; first error: rg: ./bad\x1b[31m\ndir: Permission denied (os error 13))";
    assert_out(
        &run_with(&t, &rg, &["grep", "needle"]),
        0,
        &format!("Found 1 match\n\na.txt\nLine 1: needle\n\n{note}\n"),
    );
    let json = run_with(&t, &rg, &["--format", "json", "grep", "needle"]);
    assert_eq!(
        stdout_json(&json)["warnings"],
        serde_json::json!([&note[1..note.len() - 1]]),
        "{json:?}"
    );
}

#[test]
fn rg_stderr_in_an_error_is_escaped_but_keeps_its_lines() {
    // The given path holds ESC; rg quotes it. The message keeps rg's line
    // breaks (it is several lines by nature) and escapes the rest.
    let t = TestDir::new();
    let rg = scripted(
        &t,
        b"",
        b"rg: ./x\x1b]0;pwned\x07: No such file or directory (os error 2)\nrg: ./y\ty: No such file or directory (os error 2)\n",
        2,
    );
    assert_out(
        &run_with(&t, &rg, &["grep", "needle", "x"]),
        4,
        "Error: grep could not search the given path (ripgrep exit 2: rg: ./x\\x1b]0;pwned\\x07: No such file or directory (os error 2)\nrg: ./y\\ty: No such file or directory (os error 2)). Check that the path exists relative to the workdir, or omit it to search the whole workdir.\n",
    );
}

#[test]
fn exit_2_without_results_is_exit_4() {
    let t = TestDir::new();
    let rg = scripted(&t, b"", b"rg: something broke\n", 2);
    assert_out(
        &run_with(&t, &rg, &["grep", "x"]),
        4,
        "Error: grep failed: ripgrep exited with status 2: rg: something broke\n",
    );
    assert_out(
        &run_with(&t, &rg, &["glob", "*"]),
        4,
        "Error: glob failed: ripgrep exited with status 2: rg: something broke\n",
    );
}

#[test]
fn exit_2_without_results_on_an_unreadable_target_is_exit_4() {
    let t = TestDir::new();
    let rg = scripted(&t, b"", format!("{DENIED}\n").as_bytes(), 2);
    assert_out(
        &run_with(&t, &rg, &["grep", "x", "secret"]),
        4,
        &format!(
            "Error: grep could not search the given path (ripgrep exit 2: {DENIED}). Check that the path exists relative to the workdir, or omit it to search the whole workdir.\n"
        ),
    );
}

#[test]
fn exit_2_with_nothing_searched_is_empty() {
    let t = TestDir::new();
    let summary = r#"{"data":{"elapsed_total":{"human":"0.001s","nanos":1,"secs":0},"stats":{"searches":0}},"type":"summary"}"#;
    let rg = scripted(
        &t,
        format!("{summary}\n").as_bytes(),
        b"rg: No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.\n",
        2,
    );
    assert_out(
        &run_with(&t, &rg, &["grep", "x", "--include", "*.nomatch"]),
        1,
        "No matches found (no file was searched: the include filter or ignore rules excluded every file)\n",
    );
}

#[test]
fn real_rg_with_nothing_searched_is_empty() {
    let t = TestDir::new();
    t.write("a.txt", "hello\n");
    assert_out(
        &t.run(&["grep", "hello", "--include", "*.nomatch"]),
        1,
        "No matches found (no file was searched: the include filter or ignore rules excluded every file)\n",
    );
}

#[test]
fn exit_3_is_exit_4_naming_the_status() {
    let t = TestDir::new();
    let rg = scripted(&t, b"", b"rg: odd failure\n", 3);
    assert_out(
        &run_with(&t, &rg, &["grep", "x"]),
        4,
        "Error: grep failed: ripgrep exited with status 3: rg: odd failure\n",
    );
    let silent = scripted(&t, b"", b"", 3);
    assert_out(
        &run_with(&t, &silent, &["glob", "*"]),
        4,
        "Error: glob failed: ripgrep exited with status 3\n",
    );
}

// ----------------------------------------------------------- malformed JSON

/// Run grep against a fake rg printing `out` and exiting 0.
fn grep_output(out: &str) -> Ran {
    let t = TestDir::new();
    let rg = scripted(&t, out.as_bytes(), b"", 0);
    run_with(&t, &rg, &["grep", "x"])
}

#[track_caller]
fn assert_malformed_exact(out: &str, detail: &str) {
    assert_out(
        &grep_output(out),
        4,
        &format!("Error: grep failed: ripgrep's output could not be parsed ({detail}).\n"),
    );
}

/// The detail quotes a parser's message (`serde_json`, `base64`): prefix only.
#[track_caller]
fn assert_malformed_prefix(out: &str, detail_prefix: &str) {
    let got = grep_output(out);
    let text = stdout(&got);
    assert_exit(&got, 4);
    assert!(
        text.starts_with(&format!(
            "Error: grep failed: ripgrep's output could not be parsed ({detail_prefix}"
        )) && text.ends_with(MALFORMED_TAIL),
        "{got:?}"
    );
}

const BEGIN: &str = r#"{"type":"begin","data":{"path":{"text":"a.rs"}}}"#;

/// How a malformed message quotes the record it could not read (ASCII
/// here): its first 80 bytes, `…` when cut.
fn read(record: &str) -> String {
    if record.len() > 80 {
        format!(r#"read "{}…""#, &record[..80])
    } else {
        format!(r#"read "{record}""#)
    }
}

#[test]
fn malformed_not_json() {
    assert_malformed_prefix("this is not json\n", "record 1: not a JSON record: ");
}

#[test]
fn malformed_record_number_counts_non_blank_lines() {
    let out = format!("\n{BEGIN}\n\n{}\n{{oops\n", match_record("a.rs", 1, "x"));
    assert_malformed_prefix(&out, "record 3: not a JSON record: ");
}

#[test]
fn malformed_truncated_last_record() {
    let whole = match_record("a.rs", 1, "x");
    let out = format!("{BEGIN}\n{}", &whole[..whole.len() / 2]);
    assert_malformed_prefix(&out, "record 2: not a JSON record: ");
}

#[test]
fn malformed_match_without_lines() {
    let rec = r#"{"type":"match","data":{"path":{"text":"a.rs"},"line_number":1,"submatches":[]}}"#;
    assert_malformed_exact(
        &format!("{BEGIN}\n{rec}\n"),
        &format!("record 2: a match record has no lines, {}", read(rec)),
    );
}

#[test]
fn malformed_match_without_path() {
    let rec = r#"{"type":"match","data":{"lines":{"text":"x\n"},"line_number":1,"submatches":[]}}"#;
    assert_malformed_exact(
        &format!("{rec}\n"),
        &format!("record 1: a match record has no path, {}", read(rec)),
    );
}

#[test]
fn malformed_match_without_line_number() {
    let rec = r#"{"type":"match","data":{"path":{"text":"a.rs"},"lines":{"text":"x\n"},"submatches":[]}}"#;
    assert_malformed_exact(
        &format!("{rec}\n"),
        &format!("record 1: a match record has no line_number, {}", read(rec)),
    );
}

#[test]
fn malformed_match_without_data() {
    assert_malformed_exact(
        "{\"type\":\"match\"}\n",
        r#"record 1: a match record has no data, read "{"type":"match"}""#,
    );
}

#[test]
fn malformed_bad_base64() {
    let rec = r#"{"type":"match","data":{"path":{"text":"a.rs"},"lines":{"bytes":"!!not base64!!"},"line_number":1,"submatches":[]}}"#;
    assert_malformed_prefix(
        &format!("{rec}\n"),
        "record 1: a match record's lines.bytes is not base64: ",
    );
}

#[test]
fn malformed_json_array_instead_of_object() {
    let out = format!("[{}]\n", match_record("a.rs", 1, "x"));
    assert_malformed_prefix(&out, "record 1: not a JSON record: ");
    assert_malformed_prefix("[]\n", "record 1: not a JSON record: ");
}

#[test]
fn malformed_json_array_shaped_like_a_record() {
    let out = r#"["match",{"path":{"text":"a.rs"},"lines":{"text":"x\n"},"line_number":1,"submatches":[]}]"#;
    assert_malformed_prefix(&format!("{out}\n"), "record 1: ");
}

#[test]
fn malformed_says_what_it_read_escaped() {
    // The record as read, escaped (ESC would colour the terminal), and no
    // guess at a cause.
    assert_malformed_exact(
        "\x1b[31mnot json\n",
        r#"record 1: not a JSON record: expected a JSON object, read "\x1b[31mnot json""#,
    );
    // A count of the wrong form (`--count` prints `PATH NUL COUNT`).
    let t = TestDir::new();
    let rg = scripted(&t, b"12\n", b"", 0);
    assert_out(
        &run_with(&t, &rg, &["grep", "x", "--output", "count"]),
        4,
        "Error: grep failed: ripgrep's output could not be parsed (record 1: expected a count of rg's form (a path, NUL, a number), read \"12\").\n",
    );
}

#[test]
fn a_record_nested_millions_deep_is_a_parse_failure() {
    // 8 MB of `[` in one record: read as it streams (it is over the 1 MiB
    // held whole), it fails at rg's depth instead of keeping a level (and
    // copying them all for each value) for every `[`.
    let mut out = br#"{"type":"match","data":{"x":"#.to_vec();
    out.extend_from_slice(&vec![b'['; 8_000_000]);
    out.extend_from_slice(b"1\n");
    let t = TestDir::new();
    let rg = scripted(&t, &out, b"", 0);
    assert_out(
        &run_with(&t, &rg, &["grep", "x"]),
        4,
        &format!(
            "Error: grep failed: ripgrep's output could not be parsed (record 1: a record that is too large to hold nests deeper than rg's records do, read \"{{\"type\":\"match\",\"data\":{{\"x\":{}…\").\n",
            "[".repeat(52)
        ),
    );
    // Over the raw-output cap it is an overflow, as any output is.
    assert_out(
        &run_with(&t, &rg, &["--raw-output-max-bytes", "5000000", "grep", "x"]),
        5,
        "Error: grep output is over the 5000000-byte cap on raw ripgrep output; narrow pattern, path, or include, or raise --raw-output-max-bytes.\n",
    );
}

// ----------------------------------------------- numbers at their limits

#[test]
fn counts_and_line_numbers_at_u64_max_are_shown_true() {
    // rg's numbers as large as they come: shown as they are, in text and
    // JSON, never wrapped (a sum past u64::MAX once wrapped in release and
    // panicked in debug).
    let max = u64::MAX;
    let t = TestDir::new();
    let counts = format!("a\0{max}\nb\0{}\n", 0);
    let rg = scripted(&t, counts.as_bytes(), b"", 0);
    assert_out(
        &run_with(&t, &rg, &["grep", "x", "--output", "count"]),
        0,
        &format!("Found {max} matches in 2 files\n\na: {max}\nb: 0\n"),
    );
    let json = run_with(
        &t,
        &rg,
        &["--format", "json", "grep", "x", "--output", "count"],
    );
    assert_eq!(
        stdout_json(&json)["total_matches"],
        serde_json::json!(max),
        "{json:?}"
    );
    // Matched lines and context lines numbered up to u64::MAX, with context.
    let context = |n: u64| {
        serde_json::json!({"type": "context", "data": {
            "path": {"text": "a.rs"}, "lines": {"text": "ctx\n"},
            "line_number": n, "absolute_offset": 0, "submatches": []
        }})
        .to_string()
    };
    let out = format!(
        "{}\n{}\n{}\n",
        context(max - 2),
        match_record("a.rs", max - 1, "x"),
        match_record("a.rs", max, "x")
    );
    let rg = scripted(&t, out.as_bytes(), b"", 0);
    assert_out(
        &run_with(
            &t,
            &rg,
            &["--grep-max-matches", "1", "grep", "x", "--context", "1"],
        ),
        0,
        &format!(
            "Found 1 of 2 matches\n\na.rs\nLine {}- ctx\nLine {}: x\n\n(The other 1 match: a.rs 1)\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)\n",
            max - 2,
            max - 1
        ),
    );
}

#[test]
fn counts_that_add_up_past_u64_max_are_a_parse_failure() {
    let max = u64::MAX;
    let t = TestDir::new();
    let counts = format!("a\0{max}\nb\0{max}\n");
    let rg = scripted(&t, counts.as_bytes(), b"", 0);
    assert_out(
        &run_with(&t, &rg, &["grep", "x", "--output", "count"]),
        4,
        &format!(
            "Error: grep failed: ripgrep's output could not be parsed (record 2: the counts add up past {max} matched lines, more than any search finds, read \"b\\x00{max}\").\n"
        ),
    );
    // The same from --json's end records (a multiline count).
    let end = |path: &str| {
        serde_json::json!({"type": "end", "data": {
            "path": {"text": path}, "binary_offset": null,
            "stats": {"matched_lines": max}
        }})
        .to_string()
    };
    let out = format!("{}\n{}\n", end("a"), end("b"));
    let rg = scripted(&t, out.as_bytes(), b"", 0);
    let ran = run_with(&t, &rg, &["grep", "x", "-U", "--output", "count"]);
    let text = stdout(&ran);
    assert_exit(&ran, 4);
    assert!(
        text.starts_with(&format!(
            "Error: grep failed: ripgrep's output could not be parsed (record 2: the counts add up past {max} matched lines"
        )),
        "{ran:?}"
    );
}

#[test]
fn a_multiline_match_numbered_past_u64_max_is_a_parse_failure() {
    let max = u64::MAX;
    let rec = serde_json::json!({"type": "match", "data": {
        "path": {"text": "a.rs"}, "lines": {"text": "x\ny\n"},
        "line_number": max, "absolute_offset": 0,
        "submatches": [{"match": {"text": "x\ny"}, "start": 0, "end": 3}]
    }})
    .to_string();
    let t = TestDir::new();
    let rg = scripted(&t, format!("{rec}\n").as_bytes(), b"", 0);
    assert_out(
        &run_with(&t, &rg, &["grep", "x", "-U"]),
        4,
        &format!(
            "Error: grep failed: ripgrep's output could not be parsed (record 1: a match record's lines run past line {max}, {}).\n",
            read(&rec)
        ),
    );
}

#[test]
fn a_giant_record_with_offsets_at_their_limits_is_previewed() {
    // A record too large to hold (3 MB: past the 1 MiB held whole however
    // the reads fall), whose offsets no file has:
    // a match at usize::MAX, an absolute offset at u64::MAX, and a match
    // that ends before it starts. No arithmetic overflows: the match
    // alone, or the line's head.
    let max = u64::MAX;
    let line = "y".repeat(3_000_000);
    let giant = |start: u64, end: u64| {
        serde_json::json!({"type": "match", "data": {
            "path": {"text": "min.js"}, "lines": {"text": format!("{line}\n")},
            "line_number": 1, "absolute_offset": max,
            "submatches": [{"match": {"text": "yy"}, "start": start, "end": end}]
        }})
        .to_string()
    };
    let t = TestDir::new();
    let out = format!("{}\n", giant(max, max));
    let rg = scripted(&t, out.as_bytes(), b"", 0);
    assert_out(
        &run_with(&t, &rg, &["--grep-max-line-bytes", "4", "grep", "y"]),
        0,
        "Found 1 match\n\nmin.js\nLine 1: …yy (line truncated)\n",
    );
    let out = format!("{}\n", giant(max, 5));
    let rg = scripted(&t, out.as_bytes(), b"", 0);
    assert_out(
        &run_with(&t, &rg, &["--grep-max-line-bytes", "4", "grep", "y"]),
        0,
        "Found 1 match\n\nmin.js\nLine 1: yyyy (line truncated)\n",
    );
}

#[test]
fn malformed_output_after_rg_exit_1_is_still_exit_4() {
    let t = TestDir::new();
    let rg = scripted(&t, b"garbage\n", b"", 1);
    let out = run_with(&t, &rg, &["grep", "x"]);
    assert_exit(&out, 4);
    assert!(
        stdout(&out).contains("(record 1: not a JSON record: "),
        "{out:?}"
    );
}

#[test]
fn blank_lines_and_unknown_records_are_skipped() {
    let out = format!(
        "\n\n{BEGIN}\n   \n{{\"type\":\"future_kind\",\"data\":[1,2,3]}}\n{}\n\r\n{{\"type\":\"context\",\"data\":{{}}}}\n{}\n{{\"type\":\"summary\",\"data\":{{}}}}\n\n",
        match_record("a.rs", 7, "x seven"),
        match_record("a.rs", 2, "x two"),
    );
    assert_out(
        &grep_output(&out),
        0,
        "Found 2 matches\n\na.rs\nLine 2: x two\nLine 7: x seven\n",
    );
}

#[test]
fn base64_line_and_path_are_decoded_lossily() {
    // path b"a/\xff.txt", line b"caf\xe9 x\n".
    let rec = r#"{"type":"match","data":{"path":{"bytes":"YS//LnR4dA=="},"lines":{"bytes":"Y2Fm6SB4Cg=="},"line_number":4,"submatches":[{"match":{"text":"x"},"start":5,"end":6}]}}"#;
    assert_out(
        &grep_output(&format!("{rec}\n")),
        0,
        "Found 1 match\n\na/\u{fffd}.txt\nLine 4: caf\u{fffd} x\n",
    );
}

// ------------------------------------------------------------ raw overflow

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn endless_glob_output_overflows() {
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[304]);
    let rg = fake(&t, &format!("{}yes", sleepers.script("")));
    let out = run_with(&t, &rg, &["--raw-output-max-bytes", "100000", "glob", "*"]);
    let tracked = sleepers.track();
    assert_out(
        &out,
        5,
        "Error: glob output is over the 100000-byte cap on raw ripgrep output; narrow pattern or path, or raise --raw-output-max-bytes.\n",
    );
    tracked.assert_gone();
}

#[test]
fn endless_grep_output_overflows() {
    let t = TestDir::new();
    let rec = t.write("fake/record", match_record("a.rs", 1, "x") + "\n");
    let rg = planned(&t, &format!("repeat {}", rec.display()));
    // Every record is a.rs's, so the message names it.
    assert_out(
        &run_with(&t, &rg, &["--raw-output-max-bytes", "100000", "grep", "x"]),
        5,
        "Error: grep output is over the 100000-byte cap on raw ripgrep output, 100% of it from a.rs; narrow pattern, path, or include (leave that file out), or raise --raw-output-max-bytes.\n",
    );
}

#[test]
fn raw_output_cap_is_inclusive() {
    let t = TestDir::new();
    // Exactly 10 bytes of stdout.
    let rg = planned(&t, "print abcd\\0efgh\\0");
    assert_out(
        &run_with(&t, &rg, &["--raw-output-max-bytes", "10", "glob", "*"]),
        0,
        "abcd\nefgh\n",
    );
    assert_out(
        &run_with(&t, &rg, &["--raw-output-max-bytes", "9", "glob", "*"]),
        5,
        "Error: glob output is over the 9-byte cap on raw ripgrep output; narrow pattern or path, or raise --raw-output-max-bytes.\n",
    );
}

// ------------------------------------------------------------ stderr flood

#[test]
fn stderr_flood_is_bounded_and_marked() {
    let t = TestDir::new();
    let flood = t.write("fake/flood", "rg: flood\n");
    let rg = planned(&t, &format!("erepeat 50000000 {}\nexit 2", flood.display()));
    let out = run_with(&t, &rg, &["grep", "x"]);
    let text = stdout(&out);
    // What it printed, cut: unbounded, it would be 500 MB.
    let head = &text[..text.len().min(500)];
    assert_eq!(
        out.status.code(),
        Some(4),
        "{} printed {head}",
        out.describe()
    );
    assert!(
        text.len() < 20 * 1024,
        "{} printed {} bytes: {head}",
        out.describe(),
        text.len()
    );
    assert!(
        text.starts_with(
            "Error: grep failed: ripgrep exited with status 2: rg: flood\nrg: flood\n"
        ) && text.contains("bytes of stderr omitted")
            && text.ends_with("rg: flood\nrg: flood\n"),
        "{out:?}"
    );
}

// ------------------------------------------------- timeouts and orphans

#[cfg(unix)]
const GREP_TIMEOUT_300: &str = "Error: grep timed out after 300ms; narrow pattern, path, or include and retry, or raise --timeout-ms.\n";

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn hang_past_the_timeout_kills_the_group() {
    // A background grandchild and rg itself asleep in the foreground (`wait`).
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[301, 300]);
    let rg = fake(&t, &format!("{}wait", sleepers.script("")));
    let out = run_with(&t, &rg, &["--timeout-ms", "300", "grep", "x"]);
    let tracked = sleepers.track();
    assert_out(&out, 6, GREP_TIMEOUT_300);
    tracked.assert_gone();
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn glob_hang_past_the_timeout() {
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[307]);
    let rg = fake(&t, &format!("printf 'a\\0'\n{}wait", sleepers.script("")));
    let out = run_with(&t, &rg, &["--timeout-ms", "300", "glob", "*"]);
    let tracked = sleepers.track();
    assert_out(
        &out,
        6,
        "Error: glob timed out after 300ms; showing what was found in that time (incomplete, in path order); narrow pattern or path and retry, or raise --timeout-ms.\n\na\n",
    );
    tracked.assert_gone();
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn hang_with_closed_pipes_still_times_out() {
    // rg closes stdout and stderr but keeps running: no pipe event comes,
    // and the deadline still ends the run.
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[305]);
    let rg = fake(
        &t,
        &format!("exec >/dev/null 2>&1\n{}wait", sleepers.script("")),
    );
    let out = t
        .cmd()
        .args(["--rg", &rg, "--timeout-ms", "300", "grep", "x"])
        .output()
        .expect("dsh-search runs");
    let tracked = sleepers.track();
    assert_out(&out, 6, GREP_TIMEOUT_300);
    tracked.assert_gone();
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn grandchild_outliving_a_clean_exit_is_killed() {
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[302]);
    let rg = fake(
        &t,
        &format!("{}exit 1", sleepers.script(" >/dev/null 2>&1")),
    );
    let out = run_with(&t, &rg, &["grep", "x"]);
    let tracked = sleepers.track();
    assert_out(&out, 1, "No matches found\n");
    tracked.assert_gone();
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn grandchild_holding_stdout_open_does_not_hold_the_search() {
    // sh (and the fake rg) exit 0 at once, but the background sleep inherits
    // the stdout and stderr pipes, so no end-of-file comes by itself. The
    // runner learns of sh's exit, kills what is left of the group (the
    // sleep), drains the pipes and reports rg's own status, long before the
    // deadline.
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[303]);
    let rg = fake(&t, &format!("{}exit 0", sleepers.script("")));
    let out = run_with(&t, &rg, &["--timeout-ms", "25000", "grep", "x"]);
    let tracked = sleepers.track();
    assert_out(&out, 1, "No matches found\n");
    tracked.assert_gone();
}

// ------------------------------------------------- signals to dsh-search

// Unix only: signals (Windows: console events in tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn sigterm_sigint_sighup_stop_the_search() {
    for (signal, seconds) in [("TERM", 311), ("INT", 312), ("HUP", 313)] {
        let (status, out, what) = interrupt(signal, "", seconds);
        let code = status.code();
        assert_eq!(
            (code, out.as_str()),
            (
                Some(6),
                format!("Error: grep was interrupted by SIG{signal}; the search was stopped.\n")
                    .as_str()
            ),
            "{what}, sent SIG{signal}"
        );
    }
}

// Unix only: /bin/sh.
#[cfg(unix)]
#[test]
fn a_sh_planted_on_path_is_not_used() {
    let t = TestDir::new();
    t.write("a.txt", "x\n");
    let (path, marker) = path_with_planted_sh(&t);
    let out = t
        .cmd()
        .env("PATH", path)
        .args(["grep", "x", "a.txt"])
        .output()
        .expect("dsh-search runs");
    assert_out(&out, 0, "Found 1 match\n\na.txt\nLine 1: x\n");
    assert!(!marker.exists(), "an sh from PATH ran");
}

/// rg closed stdout and stderr but still runs: a signal still stops it.
// Unix only: signals (Windows: console events in tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn sigterm_after_rg_closed_its_pipes_stops_the_search() {
    let (status, out, what) = interrupt("TERM", "exec >/dev/null 2>&1\n", 314);
    let code = status.code();
    assert_eq!(
        (code, out.as_str()),
        (
            Some(6),
            "Error: grep was interrupted by SIGTERM; the search was stopped.\n"
        ),
        "{what}, sent SIGTERM"
    );
}

// ------------------------------------------------------ rg killed by a signal

// Unix only: signals (Windows: console events in tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn rg_killed_by_a_signal_is_exit_4() {
    let t = TestDir::new();
    for (how, number) in [("-9", 9), ("-SEGV", 11)] {
        let rg = fake(&t, &format!("kill {how} $$"));
        let out = run_with(&t, &rg, &["grep", "x"]);
        let text = stdout(&out);
        assert_exit(&out, 4);
        // The shell may add its own "Killed" text: quoted stderr, so prefix.
        let prefix = format!("Error: grep failed: ripgrep was killed by signal {number}");
        assert!(
            text == format!("{prefix}\n") || text.starts_with(&format!("{prefix}: ")),
            "{out:?}"
        );
    }
}

// -------------------------------------------------- the OS refuses to start

// Unix only: Unix argument limits (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn command_line_too_long_is_exit_4() {
    // One argument to dsh-search itself may not exceed the kernel's
    // per-string limit (128 KiB), so the 240 KB `sh -c` string is built from
    // a 120 KB pattern and a 120 KB path; the string alone is over the limit.
    let t = TestDir::new();
    let pattern = "a".repeat(120_000);
    let path = "b".repeat(120_000);
    let out = t.run(&["grep", &pattern, &path]);
    let text = stdout(&out);
    assert_exit(&out, 4);
    let bytes = text
        .strip_prefix("Error: grep cannot run: its command line (")
        .and_then(|rest| rest.strip_suffix(" bytes) is too long for the operating system. Use a shorter pattern, path, or include.\n"))
        .unwrap_or_else(|| panic!("{out:?}"));
    let bytes: usize = bytes.parse().unwrap();
    assert!(bytes > 240_000 && bytes < 240_000 + 200, "{out:?}");
}

// Unix only: a Unix path.
#[cfg(unix)]
#[test]
fn missing_workdir_is_exit_4() {
    let t = TestDir::new();
    let out = t.run(&["--cwd", "/nonexistent/dir", "grep", "x"]);
    assert_out(
        &out,
        4,
        "Error: grep cannot run: the workdir /nonexistent/dir does not exist. Pass an existing directory with --cwd or DSH_SEARCH_CWD.\n",
    );
}

#[test]
fn workdir_that_is_a_file_is_exit_4() {
    let t = TestDir::new();
    let file = t.write("plain.txt", "x\n");
    let file = file.to_string_lossy().into_owned();
    assert_out(
        &t.run(&["--cwd", &file, "glob", "*"]),
        4,
        &format!(
            "Error: glob cannot run: the workdir {file} is not a directory. Pass an existing directory with --cwd or DSH_SEARCH_CWD.\n"
        ),
    );
}

// -------------------------------------------------- what rg is given

#[test]
fn rg_stdin_is_dev_null() {
    let t = TestDir::new();
    // Exit 3 (an error) if anything can be read from stdin.
    let rg = planned(&t, "stdin 3\nexit 1");
    for (args, empty) in [
        (&["grep", "x"][..], "No matches found\n"),
        (&["glob", "*"][..], "No files found\n"),
    ] {
        let out = t
            .cmd()
            .arg("--rg")
            .arg(&rg)
            .args(args)
            .write_stdin("from stdin\n")
            .output()
            .unwrap();
        assert_out(&out, 1, empty);
    }
}

#[test]
fn ripgrep_config_path_is_removed_and_no_config_passed() {
    let t = TestDir::new();
    let config = t.write("rgconfig", "--max-count=0\n");
    let unset = planned(&t, "ifenv RIPGREP_CONFIG_PATH 3\nexit 1");
    let out = t
        .cmd()
        .env("RIPGREP_CONFIG_PATH", &config)
        .args(["--rg", &unset, "grep", "x"])
        .output()
        .unwrap();
    assert_out(&out, 1, "No matches found\n");

    let no_config = planned(&t, "ifarg --no-config 1\nexit 3");
    assert_out(
        &run_with(&t, &no_config, &["grep", "x"]),
        1,
        "No matches found\n",
    );
    assert_out(
        &run_with(&t, &no_config, &["glob", "*"]),
        1,
        "No files found\n",
    );
}

/// The argv the fake rg received: one JSON array a run, so any string is
/// exact; the first is the search's (an empty result runs probes, SPEC §4a).
/// On Windows this is what rg's own parsing of its command line gives:
/// each model value arrives as one argument, byte for byte (SPEC §10).
fn received_args(t: &TestDir, args: &[&str]) -> Vec<String> {
    let file = t.path().join("args.json");
    let _ = fs::remove_file(&file);
    let rg = planned(t, &format!("args {}\nexit 1", file.display()));
    let out = run_with(t, &rg, args);
    assert_exit(&out, 1);
    let text = fs::read_to_string(&file).expect("the fake rg wrote its arguments");
    let first = text.lines().next().expect("one run at least");
    serde_json::from_str(first).expect("a JSON array of strings")
}

/// SPEC §2 fixes the words and their order; `--no-config` must be there
/// once, as an option (before `--`), and its position is free.
#[track_caller]
fn assert_argv(got: &[String], spec: &[&str]) {
    let at = got.iter().position(|a| a == "--no-config");
    let end = got.iter().position(|a| a == "--").unwrap_or(got.len());
    assert!(
        at.is_some_and(|i| i < end) && got.iter().filter(|a| *a == "--no-config").count() == 1,
        "--no-config missing or misplaced: {got:?}"
    );
    let rest: Vec<&str> = got
        .iter()
        .filter(|a| *a != "--no-config")
        .map(String::as_str)
        .collect();
    assert_eq!(rest, spec);
}

fn glob_words(pattern: &str) -> Vec<String> {
    let mut words = vec![
        "--files".to_owned(),
        "--null".to_owned(),
        format!("--glob={pattern}"),
        "--no-ignore".to_owned(),
        "--hidden".to_owned(),
    ];
    for dir in [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"] {
        words.push(format!("--glob=!**/{dir}"));
        words.push(format!("--glob=!**/{dir}/**"));
    }
    words
}

#[test]
fn rg_receives_the_spec_argv_for_glob() {
    let t = TestDir::new();
    let mut with_path = glob_words("**/*.rs");
    with_path.extend(["--".to_owned(), "-dir".to_owned()]);
    let with_path: Vec<&str> = with_path.iter().map(String::as_str).collect();
    assert_argv(
        &received_args(&t, &["glob", "--", "**/*.rs", "-dir"]),
        &with_path,
    );

    let hostile = "it's $(id) `id` *.{a,b}";
    let without_path = glob_words(hostile);
    let without_path: Vec<&str> = without_path.iter().map(String::as_str).collect();
    assert_argv(&received_args(&t, &["glob", hostile]), &without_path);
}

#[test]
fn rg_receives_the_spec_argv_for_grep() {
    let t = TestDir::new();
    assert_argv(
        &received_args(
            &t,
            &["grep", "--include", "*.{ts,tsx}", "--", "-e x", "-dir"],
        ),
        &[
            "--json",
            "--binary",
            "--no-mmap",
            "--regexp=-e x",
            "--glob=*.{ts,tsx}",
            "--",
            "-dir",
        ],
    );
    assert_argv(
        &received_args(&t, &["grep", "x"]),
        &["--json", "--binary", "--no-mmap", "--regexp=x"],
    );
    let hostile = "a'b $(id) `id` \\ \"q\"\nline2 é";
    assert_argv(
        &received_args(&t, &["grep", hostile, "a b"]),
        &[
            "--json",
            "--binary",
            "--no-mmap",
            &format!("--regexp={hostile}"),
            "--",
            "a b",
        ],
    );
}
