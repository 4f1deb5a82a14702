//! Messages an agent or a person can act on: each names what is wrong and
//! what to do, byte for byte.

#[cfg(unix)]
use std::ffi::OsStr;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;

use crate::harness::{TestDir, assert_out};
#[cfg(unix)]
use crate::harness::{assert_exit, stdout_json};

const HELP: &str = "\n\nFor more information, try '--help'.\n";

#[test]
fn a_zero_or_non_number_cap_says_what_a_number_must_be() {
    let t = TestDir::new();
    assert_out(
        &t.run(&["--timeout-ms", "0", "grep", "x"]),
        2,
        &format!("Error: invalid value '0' for '--timeout-ms <N>': must be at least 1{HELP}"),
    );
    assert_out(
        &t.run(&["grep", "x", "--grep-max-matches=ten"]),
        2,
        &format!(
            "Error: invalid value 'ten' for '--grep-max-matches <N>': must be a whole number of at least 1{HELP}"
        ),
    );
    let out = t
        .cmd()
        .env("DSH_SEARCH_RAW_OUTPUT_MAX_BYTES", "0")
        .args(["glob", "*"])
        .output()
        .unwrap();
    assert_out(
        &out,
        2,
        &format!(
            "Error: invalid value '0' for '--raw-output-max-bytes <N>': must be at least 1{HELP}"
        ),
    );
}

// Unix only: Windows arguments are UTF-16, never invalid UTF-8.
#[cfg(unix)]
#[test]
fn invalid_utf8_names_the_argument() {
    let t = TestDir::new();
    let bad = OsStr::from_bytes(b"a\xffb");
    for (args, name) in [
        (vec![OsStr::new("grep"), bad], "<PATTERN>"),
        (vec![OsStr::new("glob"), OsStr::new("*"), bad], "[PATH]"),
        (
            vec![
                OsStr::new("grep"),
                OsStr::new("x"),
                OsStr::new("--include"),
                bad,
            ],
            "--include <GLOB>",
        ),
        (
            vec![OsStr::new("--rg"), bad, OsStr::new("grep"), OsStr::new("x")],
            "--rg <PATH>",
        ),
    ] {
        let out = t.cmd().args(&args).output().unwrap();
        assert_out(
            &out,
            2,
            &format!(
                "Error: {name} is not valid UTF-8 (it reads \"a\u{fffd}b\"); dsh-search passes every value to rg as text\n"
            ),
        );
    }
}

#[test]
fn call_without_arguments_says_so() {
    let t = TestDir::new();
    let want = "Error: grep got no arguments: pass a JSON object such as {\"pattern\": \"...\"}, on the command line or on stdin\n";
    assert_out(
        &t.cmd()
            .args(["call", "grep"])
            .write_stdin("")
            .output()
            .unwrap(),
        2,
        want,
    );
    assert_out(
        &t.cmd()
            .args(["call", "grep", "-"])
            .write_stdin("  \n")
            .output()
            .unwrap(),
        2,
        want,
    );
    assert_out(&t.run(&["call", "grep", ""]), 2, want);
}

#[test]
fn a_lone_surrogate_in_call_json_is_named() {
    let t = TestDir::new();
    assert_out(
        &t.run(&["call", "grep", r#"{"pattern":"\ud800"}"#]),
        2,
        "Error: grep arguments are not valid JSON: a string holds a \\u escape that is no character (a lone UTF-16 surrogate such as \\ud800, or fewer than 4 hex digits); write the character itself, or a full surrogate pair (unexpected end of hex escape at line 1 column 19)\n",
    );
}

// Unix only: symlinks need a privilege on Windows.
#[cfg(unix)]
#[test]
fn a_dangling_symlink_spill_dir_is_named() {
    let t = TestDir::new();
    t.write("a.txt", "x\nx\n");
    let link = t.path().join("spill");
    std::os::unix::fs::symlink("/nonexistent/cache", &link).unwrap();
    let out = t
        .cmd()
        .args([
            "--format",
            "json",
            "--spill-dir",
            link.to_str().unwrap(),
            "--grep-max-matches",
            "1",
            "grep",
            "x",
        ])
        .output()
        .unwrap();
    assert_eq!(
        stdout_json(&out)["spill_error"],
        format!(
            "cannot create the spill directory {0}: {0} is a symlink to /nonexistent/cache, which does not exist",
            link.display()
        ),
        "{out:?}"
    );
    assert_exit(&out, 0);
}

#[test]
fn one_file_that_fills_the_output_is_named() {
    let t = TestDir::new();
    // One minified line of 2 MB with 200,000 matches: its record alone is
    // far over the cap.
    t.write("dist/bundle.min.js", "var the=1;".repeat(200_000) + "\n");
    assert_out(
        &t.run(&["--raw-output-max-bytes", "1000000", "grep", "the"]),
        5,
        "Error: grep output is over the 1000000-byte cap on raw ripgrep output, 100% of it from dist/bundle.min.js; narrow pattern, path, or include (leave that file out), or raise --raw-output-max-bytes.\n",
    );
}

// Unix only: Windows refuses a file name holding ESC or a newline.
#[cfg(unix)]
#[test]
fn a_file_that_fills_the_output_is_named_escaped() {
    // The same, in a file whose name holds ESC and a newline: the name is
    // one line in the message, and drives no terminal.
    let t = TestDir::new();
    t.write(
        "red\x1b[31m\nbundle.min.js",
        "var the=1;".repeat(200_000) + "\n",
    );
    assert_out(
        &t.run(&["--raw-output-max-bytes", "1000000", "grep", "the"]),
        5,
        "Error: grep output is over the 1000000-byte cap on raw ripgrep output, 100% of it from red\\x1b[31m\\nbundle.min.js; narrow pattern, path, or include (leave that file out), or raise --raw-output-max-bytes.\n",
    );
}

/// The unprivileged user a test runs as when it runs as root (`nobody` on
/// Linux and the BSDs; no entry in the user database is needed to switch
/// to it).
#[cfg(unix)]
pub const NOBODY: u32 = 65534;

/// Run `args` in `t` as [`NOBODY`] (the test runs as root).
#[cfg(unix)]
fn as_nobody(t: &TestDir, args: &[&str]) -> crate::harness::Ran {
    t.cmd_as(NOBODY, NOBODY)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run dsh-search {args:?} as uid {NOBODY}: {e}"))
}

/// Real rg, a directory it cannot read named `bad<ESC>[31m<newline>dir`
/// beside a match: a partial search whose note shows rg's message escaped
/// (one line, no colour) and counts the directory once, though rg's
/// message for it takes two lines.
// Unix only: POSIX permissions and a switch of user.
#[cfg(unix)]
#[test]
fn an_unreadable_directory_with_control_characters_is_escaped_and_counted_once() {
    use std::os::unix::fs::PermissionsExt;
    let t = TestDir::new();
    std::fs::set_permissions(t.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    t.write("a.txt", "needle\n");
    let bad = t.mkdir("bad\x1b[31m\ndir");
    t.write("bad\x1b[31m\ndir/b.txt", "needle\n");
    std::fs::set_permissions(&bad, std::fs::Permissions::from_mode(0o000)).unwrap();
    let root = crate::harness::is_root();
    // As root, the search runs as an unprivileged user, with a copy of rg
    // that user may run (the real one may sit in root's home).
    let bin = tempfile::tempdir().unwrap();
    let rg = if root {
        std::fs::set_permissions(bin.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let copy = bin.path().join("rg");
        std::fs::copy(crate::harness::real_rg_path(), &copy).unwrap();
        copy.to_string_lossy().into_owned()
    } else {
        crate::harness::real_rg_path()
    };
    let args = ["--rg", rg.as_str(), "grep", "needle"];
    let out = if root {
        as_nobody(&t, &args)
    } else {
        t.run(&args)
    };
    std::fs::set_permissions(&bad, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_out(
        &out,
        0,
        "Found 1 match\n\na.txt\nLine 1: needle\n\n(1 path could not be searched; first error: rg: ./bad\\x1b[31m\\ndir: Permission denied (os error 13))\n",
    );
}

// Unix only: POSIX permissions and a switch of user.
#[cfg(unix)]
#[test]
fn a_workdir_that_cannot_be_entered_is_named() {
    let t = TestDir::new();
    // Everything on the way is open to others, the workdir to no one.
    std::fs::set_permissions(
        t.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let locked = t.mkdir("locked");
    std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
    // The check comes before rg runs; this one only has to be executable.
    let rg = t.fake_rg("rg", "exit 99");
    let args = [
        "--rg",
        rg.to_str().unwrap(),
        "--cwd",
        locked.to_str().unwrap(),
        "grep",
        "x",
    ];
    let out = if crate::harness::is_root() {
        // Permissions do not stop root: ask as an unprivileged user.
        as_nobody(&t, &args)
    } else {
        t.run(&args)
    };
    std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    assert_out(
        &out,
        4,
        &format!(
            "Error: grep cannot run: the workdir {} cannot be entered and read (Permission denied (os error 13)). Pass an existing directory with --cwd or DSH_SEARCH_CWD.\n",
            locked.display()
        ),
    );
}
