//! What no client may do to the server: hold it with a slow search it
//! cancelled, send a line too long to keep, outgrow its memory by flooding
//! it, or lose a request id to floating point. And SIGTERM when idle.

use std::io::Write;
use std::time::Instant;

use serde_json::json;
#[cfg(unix)]
use wait_timeout::ChildExt;

use super::{BOUND, CANCEL_BOUND, Era, Server, SlowRg, assert_alive, both_eras, cancel, gone};
use crate::harness::{TestDir, wait_for};

both_eras!(
    cancelling_a_slow_search_kills_it_and_gets_no_reply,
    a_request_cancelled_while_queued_is_not_answered,
    an_oversized_line_is_a_parse_error,
    a_deeply_nested_line_is_a_parse_error,
    request_ids_come_back_as_sent,
    a_flood_during_a_search_stays_within_bounds,
);

/// `notifications/cancelled` for the search in flight kills its process
/// group (a grandchild included), and the cancelled request gets no reply.
fn cancelling_a_slow_search_kills_it_and_gets_no_reply(era: Era) {
    let t = TestDir::new();
    let slow = SlowRg::new();
    let mut s = slow.server(&t, era);
    let call_id = json!(21);
    s.send(&json!({
        "jsonrpc": "2.0", "id": call_id, "method": "tools/call",
        "params": era.params(json!({"name": "grep", "arguments": {"pattern": "x"}}))
    }));
    let (rg, grandchild, _survivors) = slow.started();
    let cancelled_at = Instant::now();
    s.send(&cancel(&call_id));
    // The next reply is this request's: the cancelled one is not answered.
    assert_alive(&mut s, era, 22, CANCEL_BOUND);
    assert!(
        cancelled_at.elapsed() < CANCEL_BOUND,
        "{}: answered {:?} after the cancellation",
        s.describe(),
        cancelled_at.elapsed()
    );
    wait_for("the fake rg is killed", || gone(&rg));
    wait_for("the fake rg's grandchild is killed", || gone(&grandchild));
    // EOF: exit 0, and no late reply to the cancelled request.
    s.finish_clean();
}

/// A request still waiting behind a running search when its cancellation
/// arrives has not even started; it is not answered either.
fn a_request_cancelled_while_queued_is_not_answered(era: Era) {
    let t = TestDir::new();
    let slow = SlowRg::new();
    let mut s = slow.server(&t, era);
    let running = json!("running");
    s.send(&json!({
        "jsonrpc": "2.0", "id": running, "method": "tools/call",
        "params": era.params(json!({"name": "grep", "arguments": {"pattern": "x"}}))
    }));
    let (_rg, _grandchild, _survivors) = slow.started();
    // Answered at once were it not cancelled (an argument error needs no rg).
    let queued = json!(32);
    s.send(&json!({
        "jsonrpc": "2.0", "id": queued, "method": "tools/call",
        "params": era.params(json!({"name": "grep", "arguments": {"pattern": ""}}))
    }));
    s.send(&cancel(&queued));
    s.send(&cancel(&running));
    assert_alive(&mut s, era, 33, CANCEL_BOUND);
    s.finish_clean();
}

const TOO_LONG: &str = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"a message longer than 16777216 bytes was skipped"}}"#;

/// A line over the 16 MiB cap gets -32700 (no id: none could be read),
/// with or without a final newline, and the server goes on.
fn an_oversized_line_is_a_parse_error(era: Era) {
    let t = TestDir::new();
    let mut s = Server::open(&t, &["mcp"], era);
    let mut big = br#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"pad":""#.to_vec();
    big.resize(16 * 1024 * 1024 + 10, b'x');
    s.send_bytes(&big);
    s.send_line(r#""}}"#);
    assert_eq!(s.line_within(BOUND), TOO_LONG, "{}", s.describe());
    assert_alive(&mut s, era, 6, BOUND);
    // The last line, with no newline before EOF.
    s.send_bytes(&big);
    let mut stdin = s.take_stdin();
    stdin.flush().unwrap();
    drop(stdin);
    assert_eq!(s.line_within(BOUND), TOO_LONG, "{}", s.describe());
    s.finish_clean();
}

const TOO_DEEP: &str = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"a message nested deeper than 127 levels of arrays and objects was skipped"}}"#;

/// A line of `[` nested 100,000 deep (it once overflowed the reader
/// thread's stack and aborted the server), or a request whose params nest
/// that deep, gets -32700 (no id: none is read from such a line); the
/// server goes on and answers the next request.
fn a_deeply_nested_line_is_a_parse_error(era: Era) {
    let t = TestDir::new();
    let mut s = Server::open(&t, &["mcp"], era);
    let n = 100_000;
    s.send_line(&format!("{}{}", "[".repeat(n), "]".repeat(n)));
    assert_eq!(s.line_within(BOUND), TOO_DEEP, "{}", s.describe());
    s.send_line(&format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{{"a":{}{}}}}}"#,
        "{\"b\":".repeat(n),
        "}".repeat(n)
    ));
    assert_eq!(s.line_within(BOUND), TOO_DEEP, "{}", s.describe());
    let reply = s.call(era, &json!(8), "tools/list", json!({}));
    assert_eq!(
        (&reply["id"], &reply["result"]["tools"][0]["name"]),
        (&json!(8), &json!("glob")),
        "{}: {reply}",
        s.describe()
    );
    s.finish_clean();
}

/// Ids are echoed exactly as written: a 22-digit number stays that number,
/// a string stays that string.
fn request_ids_come_back_as_sent(era: Era) {
    let t = TestDir::new();
    let mut s = Server::open(&t, &["mcp"], era);
    let params = era.params(json!({}));
    for id in ["1180591620717411303424", "-0", "1e3", r#""x\"y""#, r#""""#] {
        s.send_line(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{params}}}"#
        ));
        let line = s.line_within(BOUND);
        assert!(
            line.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"#)),
            "{id}: {}",
            &line[..line.len().min(80)]
        );
    }
    s.finish_clean();
}

/// The high-water mark of `pid`'s memory, in KiB (`VmHWM`).
#[cfg(unix)]
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// The most the server may hold while flooded: its own few MiB, one line
/// being read (16 MiB at most), the queue (32 MiB of lines), and the
/// request being parsed. Without a bound it grows with the flood (the
/// 200 MiB sent here).
#[cfg(unix)]
const FLOOD_PEAK_KIB: u64 = 128 * 1024;

/// 200 MiB of requests (1 MiB each) sent while a search runs: the server
/// keeps reading (the cancellation behind the flood still works), answers
/// what does not fit in its queue as busy at once, serves the rest in
/// order, and its memory stays under [`FLOOD_PEAK_KIB`].
fn a_flood_during_a_search_stays_within_bounds(era: Era) {
    let t = TestDir::new();
    let slow = SlowRg::new();
    let mut s = slow.server(&t, era);
    s.send(&json!({
        "jsonrpc": "2.0", "id": "search", "method": "tools/call",
        "params": era.params(json!({"name": "grep", "arguments": {"pattern": "x"}}))
    }));
    let (rg, _grandchild, _survivors) = slow.started();
    let pad = "p".repeat(1024 * 1024);
    let lines = 200;
    let mut stdin = s.take_stdin();
    let params = era.params(json!({"pad": pad}));
    let writer = std::thread::spawn(move || {
        for id in 0..lines {
            let line =
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params});
            if writeln!(stdin, "{line}").is_err() {
                return None;
            }
        }
        writeln!(stdin, "{}", cancel(&json!("search"))).ok()?;
        Some(stdin)
    });
    let mut busy = 0;
    let mut served = Vec::new();
    while busy + served.len() < lines {
        let reply = s.reply_within(CANCEL_BOUND);
        if reply["error"]["code"] == json!(-32603) {
            assert!(
                reply["error"]["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("server busy: "),
                "{reply}"
            );
            busy += 1;
        } else {
            assert!(
                reply["result"]["tools"].is_array(),
                "{}",
                &reply.to_string()[..200]
            );
            served.push(reply["id"].as_u64().unwrap());
        }
    }
    #[cfg(unix)]
    let peak = peak_kib(s.child.id());
    let stdin = writer.join().unwrap().expect("the server kept reading");
    wait_for("the cancelled search is killed", || gone(&rg));
    drop(stdin);
    assert!(
        busy > 0 && !served.is_empty(),
        "busy {busy}, served {}",
        served.len()
    );
    assert!(served.windows(2).all(|w| w[0] < w[1]), "served in order");
    // Windows: no /proc to read the peak from; the bound is the same code's.
    #[cfg(unix)]
    assert!(peak < FLOOD_PEAK_KIB, "peak {peak} KiB");
    s.finish_clean();
}

/// A client that never reads the server's stderr: once the pipe is full
/// every write to it would block. `--explain` writes an account of each
/// call there, and the watchdog a note when it gives up on a call; every
/// call must still be answered, the one given up on included.
#[cfg(unix)]
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "the test hook exists only in debug builds"
)]
fn a_client_that_never_reads_stderr_gets_every_reply() {
    let t = TestDir::new();
    for i in 0..20 {
        t.write(&format!("src/f{i}.txt"), format!("needle {i}\n"));
    }
    // The debug build (its stall hook) and a short deadline.
    let mut cmd = t.cmd_std_of(crate::harness::cargo_binary());
    cmd.env("DSH_SEARCH_TEST_STALL", "checked:stallme").args([
        "--explain",
        "--timeout-ms",
        "2000",
        "mcp",
    ]);
    let mut s = Server::spawn_with_stderr_unread(cmd);
    super::initialize(&mut s, super::LEGACY);
    // Far more accounts than a pipe holds (64 KiB on Linux).
    for id in 1..=300 {
        let reply = s.tool(Era::Legacy, id, "grep", json!({"pattern": "needle"}));
        assert_eq!(
            reply["result"]["content"][0]["text"]
                .as_str()
                .map(|t| t.lines().next()),
            Some(Some("Found 20 matches")),
            "call {id}: {reply}"
        );
    }
    let reply = s.tool(Era::Legacy, 301, "grep", json!({"pattern": "stallme"}));
    assert!(reply.to_string().contains("timed out"), "{reply}");
    let reply = s.tool(Era::Legacy, 302, "grep", json!({"pattern": "needle 1$"}));
    assert!(reply.to_string().contains("Found 1 match"), "{reply}");
}

/// SIGTERM to an idle server ends it with `SEARCH_ABORTED`'s exit code,
/// with its stdin still open (it must not wait for EOF).
// Unix only: SIGTERM (Windows: Ctrl-Break in tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn sigterm_stops_an_idle_server() {
    let t = TestDir::new();
    let mut s = Server::open(&t, &["mcp"], Era::Legacy);
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &s.child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -TERM {}: {sent}", s.child.id());
    let status = s
        .child
        .wait_timeout(BOUND)
        .unwrap()
        .unwrap_or_else(|| panic!("{} did not stop within {BOUND:?} of SIGTERM", s.what));
    assert_eq!(status.code(), Some(6), "{}, sent SIGTERM", s.what);
}
