//! What rg is given: the argv of SPEC §2, /dev/null on stdin, no
//! configuration, and /bin/sh rather than an sh planted on PATH.

use std::fs;
#[cfg(unix)]
use std::path::PathBuf;

use super::*;
use crate::harness::{assert_exit, assert_out};

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
