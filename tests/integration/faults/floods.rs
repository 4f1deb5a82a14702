//! Floods: rg's stdout over the raw-output cap (exit 5) and a flood of its
//! stderr, bounded and marked.

use super::*;
use crate::harness::{assert_out, stdout};
#[cfg(unix)]
use crate::procs::Sleepers;

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
