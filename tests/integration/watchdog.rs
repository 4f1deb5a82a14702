//! The watchdog (SPEC §6: `--timeout-ms` bounds the whole call, and
//! SIGINT/SIGTERM/SIGHUP are honoured in every phase), when what holds the
//! call is dsh-search's own code.
//! The debug builds' test hook (`DSH_SEARCH_TEST_STALL`) makes the work
//! after rg ends spin, as a defect there would: `--timeout-ms` and SIGTERM
//! still end a CLI call, with the bytes an ordinary timeout or interrupt
//! prints, and the MCP server answers the stuck call as timed out and
//! serves the next one. The hook exists only in debug builds, so these
//! tests always run the debug binary cargo built for this test run, even
//! when the rest of the suite runs another (`DSH_SEARCH_TEST_BIN`, such as
//! the static release build CI tests); under `cargo test --release` they
//! are ignored.
//! Nothing here times the watchdog: each run is only bounded (the harness
//! kills a run after 30 s, and every wait is bounded), so a regression
//! fails instead of hanging.

use std::path::Path;
use std::sync::OnceLock;

use serde_json::json;

#[cfg(unix)]
use crate::harness::describe_command;
#[cfg(target_os = "linux")]
use crate::harness::wait_for;
use crate::harness::{TestDir, assert_out, cargo_binary, stdout};
use crate::mcp::{self, Era, Server};

/// The hook's variable: `MODE` or `MODE:PATTERN` (see `src/watchdog.rs`).
const STALL: &str = "DSH_SEARCH_TEST_STALL";

const GREP_TIMEOUT_500: &str = "Error: grep timed out after 500ms; narrow pattern, path, or include and retry, or raise --timeout-ms.";

/// The binary these tests run: the one cargo built for this (debug) test
/// run, once checked to have the test hook (`say` only says so).
fn hooked() -> &'static Path {
    static CHECKED: OnceLock<()> = OnceLock::new();
    let bin = cargo_binary();
    CHECKED.get_or_init(|| {
        let t = TestDir::new();
        t.write("a.txt", "needle\n");
        let ran = t
            .cmd_of(bin)
            .env(STALL, "say")
            .args(["grep", "needle"])
            .output()
            .unwrap();
        assert!(
            String::from_utf8_lossy(&ran.stderr).contains("test hook: here"),
            "the debug build has no test hook: {ran:?}"
        );
    });
    bin
}

/// A stall in dsh-search's own work past `--timeout-ms` prints exactly
/// what a hung rg's ordinary timeout prints (text, JSON, glob, and the
/// note of an ignored argument), exits 6, and says on stderr that the
/// watchdog ended it.
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the test hook exists only in debug builds"
)]
fn a_stall_in_our_own_work_times_out_as_a_hung_rg_does() {
    let bin = hooked();
    let t = TestDir::new();
    t.write("a.txt", "needle\n");
    let hung = t.fake_rg_plan("fake/rg", "sleep 300000");
    let cases: [&[&str]; 4] = [
        &["--timeout-ms", "500", "grep", "needle"],
        &["--timeout-ms", "500", "--format", "json", "grep", "needle"],
        &["--timeout-ms", "500", "glob", "*.txt"],
        &[
            "--timeout-ms",
            "500",
            "call",
            "grep",
            r#"{"pattern": "needle", "extra": 1}"#,
        ],
    ];
    for args in cases {
        let ordinary = t
            .cmd_of(bin)
            .arg("--rg")
            .arg(&hung)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            ordinary.status.code(),
            Some(6),
            "rg hangs, and this did not time out: {ordinary:?}"
        );
        let stalled = t
            .cmd_of(bin)
            .env(STALL, "spin")
            .args(args)
            .output()
            .unwrap();
        assert_out(&stalled, 6, &stdout(&ordinary));
        let stderr = String::from_utf8_lossy(&stalled.stderr);
        assert!(
            stderr.contains("test hook: stalling (spin)")
                && stderr.contains("of its deadline; ended by the watchdog"),
            "this did not stall and end by the watchdog: {stalled:?}"
        );
    }
}

/// SIGTERM to a call stalled in dsh-search's own work ends it, as SIGTERM
/// during rg's run does: exit 6 with the interrupted error. No deadline
/// comes into it (the default is 30 s).
// Unix only: signals (Windows has console events, which a test cannot
// send to one process alone).
#[cfg(unix)]
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the test hook exists only in debug builds"
)]
fn sigterm_ends_a_call_stalled_in_our_own_work() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;

    use crate::harness::WAIT_LIMIT;
    use crate::procs::{poll, wait_bounded};

    let t = TestDir::new();
    t.write("a.txt", "needle\n");
    let mut cmd = t.cmd_std_of(hooked());
    cmd.env(STALL, "spin")
        .args(["grep", "needle"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let what = format!("{}, sent SIGTERM once stalled", describe_command(&cmd));
    let mut child = cmd.spawn().unwrap();
    // The hook says on stderr when it starts: then rg is long gone and the
    // call is in dsh-search's own work.
    let stderr = child.stderr.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let first = lines.recv_timeout(WAIT_LIMIT);
    if first
        .as_deref()
        .map_or(true, |l| !l.contains("stalling (spin)"))
    {
        let _ = child.kill();
        let _ = child.wait();
        panic!("{what}: the hook did not say it stalls within {WAIT_LIMIT:?}: {first:?}");
    }
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -TERM {} failed", child.id());
    if !poll(WAIT_LIMIT, || !matches!(child.try_wait(), Ok(None))) {
        let _ = child.kill();
        let _ = child.wait();
        let rest: Vec<String> = lines.try_iter().collect();
        panic!(
            "{what}: did not exit within {WAIT_LIMIT:?} of SIGTERM; stderr after the hook's line: {rest:?}"
        );
    }
    let (status, out) = wait_bounded(child, WAIT_LIMIT);
    let rest: Vec<String> = lines.iter().collect();
    assert_eq!(
        (status.code(), out.as_str()),
        (
            Some(6),
            "Error: grep was interrupted by SIGTERM; the search was stopped.\n"
        ),
        "{what}: stderr after the hook's line: {rest:?}"
    );
}

/// A server whose tool calls stall as the hook's `plan` says, its
/// legacy session open, with a 500 ms deadline.
fn stalling_server(t: &TestDir, plan: &str) -> Server {
    let mut cmd = t.cmd_std_of(hooked());
    cmd.env(STALL, plan).args(["--timeout-ms", "500", "mcp"]);
    let mut s = Server::spawn(cmd);
    mcp::initialize(&mut s, mcp::LEGACY);
    s
}

/// The stuck call's answer is an ordinary timeout's (isError, the `Error:`
/// text, `SEARCH_ABORTED`), and the next call is answered as ever.
fn assert_stuck_then_served(s: &mut Server) {
    let era = Era::Legacy;
    let stuck = s.tool(era, 2, "grep", json!({"pattern": "needle"}));
    assert_eq!(
        stuck,
        mcp::result(
            &json!(2),
            &mcp::tool_error(era, GREP_TIMEOUT_500, "SearchError", "SEARCH_ABORTED")
        ),
        "{}",
        s.describe()
    );
    let next = s.tool(era, 3, "grep", json!({"pattern": "here"}));
    assert_eq!(
        next,
        mcp::result(
            &json!(3),
            &mcp::tool_result(era, "Found 1 match\n\na.txt\nLine 1: needle here")
        ),
        "{}, after the stuck call",
        s.describe()
    );
}

/// A call whose own work spins for ever, looking at nothing, is answered
/// as timed out; the server serves the next call, and exits 0 at EOF (the
/// spinning worker ends with the process), having said on stderr what
/// happened.
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the test hook exists only in debug builds"
)]
fn the_server_answers_a_stuck_call_and_serves_the_next() {
    let t = TestDir::new();
    t.write("a.txt", "needle here\n");
    let plan = "spin:needle";
    let mut s = stalling_server(&t, plan);
    assert_stuck_then_served(&mut s);
    let (status, stderr) = s.finish();
    assert_eq!(
        status.code(),
        Some(0),
        "{} at EOF; stderr: {stderr}",
        s.what
    );
    assert!(
        stderr.contains("a grep call did not end within 1000ms of its deadline"),
        "{}: stderr does not say the call was given up on: {stderr}",
        s.what
    );
}

/// The threads of process `pid` (Linux: `/proc/<pid>/task`).
#[cfg(target_os = "linux")]
fn threads(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task")).map_or(0, Iterator::count)
}

/// A stuck call in a loop that looks at its cancellation ends once the
/// server gives up on it: nothing it left behind keeps a core busy (the
/// server is back to its threads from before the call).
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the test hook exists only in debug builds"
)]
fn a_stuck_worker_that_looks_ends_once_given_up_on() {
    let t = TestDir::new();
    t.write("a.txt", "needle here\n");
    let plan = "checked:needle";
    let mut s = stalling_server(&t, plan);
    let pid = s.child.id();
    // The serving thread and the reader: no call has run yet.
    let before = threads(pid);
    assert_stuck_then_served(&mut s);
    wait_for(
        &format!(
            "{}: back to its {before} threads after the stuck call",
            s.what
        ),
        || threads(pid) == before,
    );
    let (status, stderr) = s.finish();
    assert_eq!(
        status.code(),
        Some(0),
        "{} at EOF; stderr: {stderr}",
        s.what
    );
}
