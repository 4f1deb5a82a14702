//! `--explain` tells on stderr how a run went and never changes stdout.

use std::fmt::Write as _;

use crate::harness::{KILLED, Ran, T0, TestDir, assert_same_output, canonical, spill_file};

/// Run `args` with and without `--explain`; stdout and exit code must be
/// identical. Returns the run with `--explain`: its stderr is the account
/// (see [`account`]).
#[track_caller]
fn explained(t: &TestDir, args: &[&str]) -> Ran {
    let plain = t.run(args);
    let out = t.cmd().arg("--explain").args(args).output().unwrap();
    assert_same_output(&out, &plain);
    assert!(
        plain.stderr.is_empty(),
        "stderr without --explain: {plain:?}"
    );
    out
}

/// The account `--explain` gave on stderr.
fn account(ran: &Ran) -> String {
    String::from_utf8_lossy(&ran.stderr).into_owned()
}

/// The first line of the account: the command as this OS runs it, for the
/// pinned rg (resolved to its absolute path before anything runs in the
/// workdir) and `words`, each a flag and, when not empty, its value. Unix:
/// the `sh -c` string, values quoted; Windows: the command line, values as
/// they are (none here needs quotes there).
fn command_line(words: &[(&str, &str)]) -> String {
    let rg = crate::harness::real_rg_path();
    let mut line = if cfg!(windows) {
        format!("  command:  \"{rg}\"")
    } else {
        format!("  sh -c:    exec '{rg}'")
    };
    for (flag, value) in words {
        line.push(' ');
        line.push_str(flag);
        if !value.is_empty() {
            assert!(!value.contains([' ', '"', '\'']), "{value}");
            if cfg!(windows) {
                line.push_str(value);
            } else {
                let _ = write!(line, "'{value}'");
            }
        }
    }
    line
}

/// The first line of the pinned rg's `--version`.
fn rg_version() -> String {
    let out = std::process::Command::new(crate::harness::real_rg_path())
        .arg("--version")
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap()
        .to_owned()
}

/// The account with what changes from run to run masked: the elapsed
/// time, and stdout's byte count (rg's JSON summary carries timings).
fn masked(explain: &str) -> String {
    explain
        .lines()
        .map(|line| {
            if line.starts_with("  elapsed:") {
                "  elapsed:  <ms>".to_owned()
            } else if let Some(rest) = line.strip_prefix("  stdout:   ") {
                let (_, tail) = rest.split_once(' ').unwrap_or(("", rest));
                format!("  stdout:   <n> {tail}")
            } else {
                line.to_owned()
            }
        })
        .map(|l| l + "\n")
        .collect()
}

/// The `rg:` line dsh-search prints for the pinned rg.
fn rg_line() -> String {
    let given = crate::harness::real_rg();
    let path = crate::harness::real_rg_path();
    // The binary under test has no rg beside it (the harness checks), so
    // a bare name comes from PATH; a path (with `\` too on Windows) is
    // the one given.
    let how = if given.contains('/') || (cfg!(windows) && given.contains('\\')) {
        "from --rg/DSH_SEARCH_RG"
    } else {
        "from PATH"
    };
    let named = if given == path {
        path
    } else {
        format!("{given} → {path}")
    };
    format!("  rg:       {named} ({}), {how}", rg_version())
}

/// What a one-shot grep's `index:` line says with no index server for
/// its tree (SPEC §11): on Windows none can run.
const NO_SERVER: &str = if cfg!(unix) {
    "scanned (server: no server for this tree)"
} else {
    "scanned (unavailable: no watcher here promises that a change is seen before the next call)"
};

#[test]
fn a_successful_grep() {
    let t = TestDir::new();
    t.write("a.rs", "fn main() {}\nfn other() {}\n");
    let ran = explained(&t, &["grep", "fn"]);
    assert_eq!(
        masked(&account(&ran)),
        format!(
            "dsh-search --explain: grep\n{}\n  workdir:  {}\n{}\n  index:    {}\n  ended:    rg exited with status 0\n  stdout:   <n> bytes raw (cap 20000000)\n  stderr:   (empty)\n  elapsed:  <ms>\n  results:  2 matches in 1 file seen, 2 shown (--grep-max-matches 250); 0 shown previews cut at 2000 bytes\n  spill:    not needed (the result fit inline)\n  limit:    none\n  exit:     0\n",
            command_line(&[
                ("--no-config", ""),
                ("--json", ""),
                ("--binary", ""),
                ("--no-mmap", ""),
                ("--regexp=", "fn")
            ]),
            t.root(),
            rg_line(),
            NO_SERVER
        ),
        "{}",
        ran.describe()
    );
}

#[test]
fn an_empty_glob() {
    let t = TestDir::new();
    let ran = explained(&t, &["glob", "*.nothing"]);
    let vcs: Vec<String> = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"]
        .iter()
        .flat_map(|d| [format!("!**/{d}"), format!("!**/{d}/**")])
        .collect();
    let mut words = vec![
        ("--no-config", ""),
        ("--files", ""),
        ("--null", ""),
        ("--glob=", "*.nothing"),
        ("--no-ignore", ""),
        ("--hidden", ""),
    ];
    words.extend(vcs.iter().map(|v| ("--glob=", v.as_str())));
    assert_eq!(
        masked(&account(&ran)),
        format!(
            "dsh-search --explain: glob\n{}\n  workdir:  {}\n{}\n  ended:    rg exited with status 1\n  stdout:   <n> bytes raw (cap 20000000)\n  stderr:   (empty)\n  elapsed:  <ms>\n  results:  0 paths seen, 0 shown (--glob-max-results 100)\n  spill:    not needed (the result fit inline)\n  limit:    none\n  exit:     1\n",
            command_line(&words),
            t.root(),
            rg_line()
        ),
        "{}",
        ran.describe()
    );
}

/// Whether every one of `needles` is a whole line of the account (the
/// lines that quote rg or hold temp paths are checked this way).
#[track_caller]
fn assert_lines(ran: &Ran, needles: &[&str]) {
    let explain = account(ran);
    for needle in needles {
        assert!(
            explain.lines().any(|l| l == *needle),
            "--explain lacks the line {needle:?}: {ran:?}"
        );
    }
}

#[test]
fn an_error() {
    let t = TestDir::new();
    t.write("a.rs", "x\n");
    let ran = explained(&t, &["grep", "a("]);
    assert_lines(
        &ran,
        &[
            "  ended:    rg exited with status 2",
            "  stderr:   rg: regex parse error:",
            "  limit:    none",
            "  error:    SEARCH_INVALID_PATTERN",
            "  exit:     3",
        ],
    );
    let ran = explained(&t, &["--cwd", "/nonexistent/dsh", "glob", "*"]);
    assert_lines(
        &ran,
        &[
            "  run:      rg was not started",
            "  limit:    none",
            "  error:    SEARCH_FAILED",
            "  exit:     4",
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
    let ran = explained(&t, &args);
    // The plain run inside `explained` saved the file; the explained run reuses it.
    assert_lines(
        &ran,
        &[
            "  results:  3 paths seen, 2 shown (--glob-max-results 2)",
            &format!(
                "  spill:    reused the identical {}",
                saved(spill.path(), &ran)
            ),
            "  limit:    --glob-max-results (2) capped the page",
        ],
    );
    let ran = explained(&t, &["--glob-max-results", "2", "glob", "*"]);
    assert_lines(
        &ran,
        &[
            "  spill:    not saved: no spill directory is configured (--spill-dir or DSH_SEARCH_SPILL_DIR)",
        ],
    );
}

#[test]
fn a_run_stopped_by_a_limit() {
    let t = TestDir::new();
    t.write("a.txt", "word\n".repeat(100));
    let ran = explained(&t, &["--raw-output-max-bytes", "100", "grep", "word"]);
    assert_lines(
        &ran,
        &[
            &format!("  ended:    stopped: raw output passed 100 bytes; {KILLED}"),
            "  limit:    --raw-output-max-bytes (100) stopped the run",
            "  error:    SEARCH_RAW_OUTPUT_OVERFLOW",
            "  exit:     5",
        ],
    );
}

/// The one file `ran` saved in `dir`, as its locator names it.
fn saved(dir: &std::path::Path, ran: &Ran) -> String {
    canonical(&spill_file(dir, ran)).display().to_string()
}
