//! How rg's exit status stands (SPEC §6): exit 2 with results is a partial
//! search, without them exit 4 (the target unreadable, or an error); any
//! other status, and rg killed by a signal, is exit 4 naming it.

use super::*;
#[cfg(unix)]
use crate::harness::{assert_exit, stdout};
use crate::harness::{assert_out, stdout_json};

/// rg's message when a permission error hides a path (Windows words it
/// in the user's language; its number is the same everywhere).
#[cfg(unix)]
const DENIED: &str = "rg: ./secret: Permission denied (os error 13)";
#[cfg(windows)]
const DENIED: &str = "rg: ./secret: Access is denied. (os error 5)";

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
