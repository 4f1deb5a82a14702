//! What stops rg from starting: a command line too long for the OS, a
//! workdir that is missing or not a directory (exit 4).

use super::*;
use crate::harness::assert_out;
#[cfg(unix)]
use crate::harness::{assert_exit, stdout};

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
