//! An rg that is missing or cannot be executed: exit 4 with advice that
//! tells a missing rg from a permission problem or a missing library.

use super::*;
use crate::harness::{INSTALL_WAYS, assert_out};

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
