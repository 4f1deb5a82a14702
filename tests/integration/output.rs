//! Writes that fail (SPEC §6 "Output"): stderr that cannot be written never
//! panics and never changes stdout or the exit code; stdout that cannot be
//! written is exit 4 with a message on stderr, unless the reader just went
//! away (EPIPE), which ends the call quietly.

use std::fs::File;
use std::io::Read;
use std::process::Stdio;

use crate::harness::{TestDir, describe_command, transcript};
use crate::mcp::{Era, Server};

fn tree() -> TestDir {
    let t = TestDir::new();
    t.write("a.txt", "needle\n");
    t
}

/// `/dev/full`: every write fails with ENOSPC. Linux and FreeBSD have
/// it; the tests that need it are ignored elsewhere.
fn full() -> File {
    File::options()
        .write(true)
        .open("/dev/full")
        .unwrap_or_else(|e| panic!("cannot open /dev/full: {e}"))
}

#[cfg(unix)]
const FULL: &str = "dsh-search: cannot write to stdout: No space left on device (os error 28)\n";

// Unix only: /dev/full.
#[cfg(unix)]
#[test]
#[cfg_attr(
    not(any(target_os = "linux", target_os = "freebsd")),
    ignore = "needs /dev/full (Linux and FreeBSD have it)"
)]
fn a_full_stdout_is_exit_4_with_a_message() {
    let t = tree();
    for args in [
        &["grep", "needle"][..],
        &["--format", "json", "grep", "needle"],
        &["--explain", "glob", "*"],
        &["grep", "zzz"],
        &["grep", "a("],
        &["schema"],
        &["--help"],
        &["--timeout-ms", "0", "grep", "x"],
    ] {
        let mut cmd = t.cmd_std();
        cmd.args(args).stdout(full());
        let out = cmd.output().unwrap();
        let what = || transcript(&describe_command(&cmd), &out);
        assert_eq!(out.status.code(), Some(4), "{}", what());
        assert!(
            String::from_utf8_lossy(&out.stderr).ends_with(FULL),
            "{}",
            what()
        );
    }
}

#[test]
#[cfg_attr(
    not(any(target_os = "linux", target_os = "freebsd")),
    ignore = "needs /dev/full (Linux and FreeBSD have it)"
)]
fn a_full_stderr_changes_nothing() {
    let t = tree();
    for format in ["text", "json"] {
        let plain = t.run(&["--format", format, "grep", "needle"]);
        let mut cmd = t.cmd_std();
        cmd.args(["--explain", "--format", format, "grep", "needle"])
            .stderr(full());
        let out = cmd.output().unwrap();
        assert_eq!(
            (out.status.code(), &out.stdout),
            (Some(0), &plain.stdout),
            "{}",
            transcript(&describe_command(&cmd), &out)
        );
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_call_quietly() {
    // A page far larger than a pipe holds, and a reader that closes at once.
    let t = TestDir::new();
    for i in 0..300 {
        t.write(
            &format!("f{i:03}.txt"),
            format!("needle {}\n", "x".repeat(1900)),
        );
    }
    let mut cmd = t.cmd_std();
    cmd.args(["--grep-max-matches", "300", "grep", "needle"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        (status.code(), stderr.as_str()),
        (Some(0), ""),
        "{}, its stdout closed at once",
        describe_command(&cmd)
    );
}

#[test]
#[cfg_attr(
    not(any(target_os = "linux", target_os = "freebsd")),
    ignore = "needs /dev/full (Linux and FreeBSD have it)"
)]
fn mcp_with_a_full_stderr_serves_on() {
    let t = tree();
    let mut cmd = t.cmd_std();
    cmd.args(["--explain", "mcp"]);
    let mut s = Server::spawn_with_stderr(cmd, full());
    for id in 2..5 {
        let reply = s.tool(
            Era::Legacy,
            id,
            "grep",
            serde_json::json!({"pattern": "needle"}),
        );
        assert_eq!(reply["result"]["isError"], false, "{}: {reply}", s.what);
    }
    let (status, _) = s.finish();
    assert_eq!(status.code(), Some(0), "{} at EOF", s.what);
}

// Unix only: /dev/full.
#[cfg(unix)]
#[test]
#[cfg_attr(
    not(any(target_os = "linux", target_os = "freebsd")),
    ignore = "needs /dev/full (Linux and FreeBSD have it)"
)]
fn mcp_with_a_full_stdout_exits_4() {
    let t = tree();
    let mut cmd = t.cmd_std();
    cmd.arg("mcp")
        .stdin(Stdio::piped())
        .stdout(full())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(
        &mut stdin,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
    )
    .unwrap();
    // stdin stays open: the failed write alone must end the server.
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        (out.status.code(), stderr.as_ref()),
        (
            Some(4),
            "dsh-search mcp: cannot write to stdout: No space left on device (os error 28)\n"
        ),
        "{}, sent a ping",
        describe_command(&cmd)
    );
}
