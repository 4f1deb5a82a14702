//! `--explain` tells on stderr how a run went and never changes stdout.

use crate::harness::{T0, TestDir};

/// Run `args` with and without `--explain`; stdout and exit code must be
/// identical. Returns the explain text.
fn explained(t: &TestDir, args: &[&str]) -> String {
    let plain = t.run(args);
    let mut with: Vec<&str> = vec!["--explain"];
    with.extend_from_slice(args);
    let out = t.run(&with);
    assert_eq!(
        out.stdout, plain.stdout,
        "stdout changed under --explain: {args:?}"
    );
    assert_eq!(out.status.code(), plain.status.code());
    assert!(
        plain.stderr.is_empty(),
        "stderr without --explain: {plain:?}"
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The pinned rg as the command line quotes it: resolved to its absolute
/// path before anything runs in the workdir.
fn quoted_rg() -> String {
    format!("'{}'", crate::harness::real_rg_path())
}

fn assert_has(explain: &str, needles: &[&str]) {
    for needle in needles {
        assert!(
            explain.contains(needle),
            "--explain lacks {needle:?}:\n{explain}"
        );
    }
}

#[test]
fn a_successful_grep() {
    let t = TestDir::new();
    t.write("a.rs", "fn main() {}\nfn other() {}\n");
    let e = explained(&t, &["grep", "fn"]);
    assert_has(
        &e,
        &[
            &format!(
                "sh -c:    exec {} --no-config --json --binary --regexp='fn'",
                quoted_rg()
            ),
            &format!("workdir:  {}", t.root()),
            "ripgrep ",
            "ended:    rg exited with status 0",
            "bytes raw (cap 20000000)",
            "stderr:   (empty)",
            "elapsed:",
            "results:  2 matches in 1 file seen, 2 shown (--grep-max-matches 250); 0 shown previews cut at 2000 bytes",
            "spill:    not needed",
            "limit:    none",
            "exit:     0",
        ],
    );
}

#[test]
fn an_empty_glob() {
    let t = TestDir::new();
    let e = explained(&t, &["glob", "*.nothing"]);
    assert_has(
        &e,
        &[
            &format!(
                "exec {} --no-config --files --null --glob='*.nothing' --no-ignore --hidden",
                quoted_rg()
            ),
            "ended:    rg exited with status 1",
            "results:  0 paths seen, 0 shown",
            "exit:     1",
        ],
    );
}

#[test]
fn an_error() {
    let t = TestDir::new();
    t.write("a.rs", "x\n");
    let e = explained(&t, &["grep", "a("]);
    assert_has(
        &e,
        &[
            "rg exited with status 2",
            "regex parse error",
            "error:    SEARCH_INVALID_PATTERN",
            "exit:     3",
        ],
    );
    let e = explained(&t, &["-C", "/nonexistent/dsh", "glob", "*"]);
    assert_has(
        &e,
        &[
            "rg was not started",
            "error:    SEARCH_FAILED",
            "exit:     4",
        ],
    );
}

#[test]
fn a_capped_spill() {
    let t = TestDir::new();
    for (name, age) in [("a", 0), ("b", 1), ("c", 2)] {
        t.write(name, "");
        t.mtime(name, T0 + age);
    }
    // Outside the workdir, or the second run would list the saved file.
    let spill = tempfile::tempdir().unwrap();
    let spill_arg = spill.path().to_string_lossy().into_owned();
    let args = [
        "--spill-dir",
        &spill_arg,
        "--glob-max-results",
        "2",
        "glob",
        "*",
    ];
    let e = explained(&t, &args);
    // The plain run inside `explained` saved the file; the explained run reuses it.
    assert_has(
        &e,
        &[
            "results:  3 paths seen, 2 shown (--glob-max-results 2)",
            "spill:    reused the identical ",
            "-glob-results.txt",
            "limit:    --glob-max-results (2) capped the page",
        ],
    );
    let e = explained(&t, &["--glob-max-results", "2", "glob", "*"]);
    assert_has(
        &e,
        &["spill:    not saved: no spill directory is configured"],
    );
}

#[test]
fn a_run_stopped_by_a_limit() {
    let t = TestDir::new();
    t.write("a.txt", "word\n".repeat(100));
    let e = explained(&t, &["--raw-output-max-bytes", "100", "grep", "word"]);
    assert_has(
        &e,
        &[
            "stopped: raw output passed 100 bytes; the process group was killed",
            "limit:    --raw-output-max-bytes (100) stopped the run",
            "exit:     5",
        ],
    );
}
