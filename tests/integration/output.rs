//! Writes that fail (SPEC §6 "Output"): stderr that cannot be written never
//! panics and never changes stdout or the exit code; stdout that cannot be
//! written is exit 4 with a message on stderr, unless the reader just went
//! away (EPIPE), which ends the call quietly.

use std::fs::File;
use std::io::Read;
use std::process::Stdio;

use crate::harness::TestDir;
use crate::mcp::{Era, Server};

fn tree() -> TestDir {
    let t = TestDir::new();
    t.write("a.txt", "needle\n");
    t
}

/// `/dev/full`: every write fails with ENOSPC. (Linux and FreeBSD have it.)
fn full() -> Option<File> {
    File::options().write(true).open("/dev/full").ok()
}

#[cfg(unix)]
const FULL: &str = "dsh-search: cannot write to stdout: No space left on device (os error 28)\n";

// Unix only: /dev/full.
#[cfg(unix)]
#[test]
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
        let Some(dev_full) = full() else { return };
        let out = t.cmd_std().args(args).stdout(dev_full).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{args:?}: {stderr}");
        assert!(stderr.ends_with(FULL), "{args:?}: {stderr}");
    }
}

#[test]
fn a_full_stderr_changes_nothing() {
    let t = tree();
    for format in ["text", "json"] {
        let Some(dev_full) = full() else { return };
        let plain = t.run(&["--format", format, "grep", "needle"]);
        let out = t
            .cmd_std()
            .args(["--explain", "--format", format, "grep", "needle"])
            .stderr(dev_full)
            .output()
            .unwrap();
        assert_eq!(
            (out.status.code(), &out.stdout),
            (Some(0), &plain.stdout),
            "{format}"
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
    let mut child = t
        .cmd_std()
        .args(["--grep-max-matches", "300", "grep", "needle"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!((status.code(), stderr.as_str()), (Some(0), ""));
}

#[test]
fn mcp_with_a_full_stderr_serves_on() {
    let t = tree();
    let Some(dev_full) = full() else { return };
    let mut cmd = t.cmd_std();
    cmd.args(["--explain", "mcp"]);
    let mut s = Server::spawn_with_stderr(cmd, dev_full);
    for id in 2..5 {
        let reply = s.tool(
            Era::Legacy,
            id,
            "grep",
            serde_json::json!({"pattern": "needle"}),
        );
        assert_eq!(reply["result"]["isError"], false, "{reply}");
    }
    let (status, _) = s.finish();
    assert_eq!(status.code(), Some(0));
}

// Unix only: /dev/full.
#[cfg(unix)]
#[test]
fn mcp_with_a_full_stdout_exits_4() {
    let t = tree();
    let Some(dev_full) = full() else { return };
    let mut child = t
        .cmd_std()
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(dev_full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
        )
    );
}
