//! `dsh-search mcp` driven over real pipes, one request line at a time,
//! every reply asserted whole, in both protocol eras: legacy (`initialize`)
//! and 2026-07-28 (per-request `_meta`). A reader thread turns the server's
//! stdout into a channel read with a bounded timeout, so a missing reply
//! fails the test instead of hanging it. The tools' results must be the
//! CLI's: the same text, the same definitions as `schema`.

mod bounds;
mod eras;
mod structured;
mod tools;

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};
use tempfile::TempDir;
use wait_timeout::ChildExt;

use crate::harness::{self, TestDir, assert_exit, stdout, stdout_json};

/// The longest any reply, exit or poll may take before the test fails.
pub const BOUND: Duration = Duration::from_secs(20);
/// A cancelled search must free the server far sooner than the 30 s
/// default search timeout would.
pub const CANCEL_BOUND: Duration = Duration::from_secs(10);

pub const MODERN: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// `both_eras!(name)` after `fn name(era: Era)`: one test per era, so a
/// failure in one era does not hide the other (`name::legacy`,
/// `name::modern`).
macro_rules! both_eras {
    ($($name:ident),+ $(,)?) => {
        $(
            mod $name {
                #[test]
                fn legacy() {
                    super::$name($crate::mcp::Era::Legacy);
                }
                #[test]
                fn modern() {
                    super::$name($crate::mcp::Era::Modern);
                }
            }
        )+
    };
}
pub(crate) use both_eras;

/// Which protocol era a test speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// `initialize` at the start, then plain requests.
    Legacy,
    /// No handshake; every request carries the 2026-07-28 `_meta`.
    Modern,
}

impl Era {
    /// `params` as this era sends them.
    pub fn params(self, mut params: Value) -> Value {
        if self == Era::Modern {
            params["_meta"] = json!({
                META_VERSION: MODERN,
                META_CAPABILITIES: {},
                "io.modelcontextprotocol/clientInfo": {"name": "dsh-search-tests", "version": "0"}
            });
        }
        params
    }

    /// A result as this era's server sends it: 2026-07-28 adds
    /// `resultType` and the server's identity in `_meta`.
    pub fn result(self, mut result: Value) -> Value {
        if self == Era::Modern {
            result["resultType"] = json!("complete");
            if result.get("_meta").is_none() {
                result["_meta"] = json!({});
            }
            result["_meta"]["io.modelcontextprotocol/serverInfo"] = server_info();
        }
        result
    }
}

pub fn server_info() -> Value {
    json!({"name": "dsh-search", "version": env!("CARGO_PKG_VERSION")})
}

/// One `dsh-search mcp` process and its pipes. Dropping it kills the
/// process if it is still running.
pub struct Server {
    pub child: Child,
    stdin: Option<ChildStdin>,
    /// One item per line the server wrote to stdout; disconnected at EOF.
    lines: Receiver<String>,
    stderr: Option<JoinHandle<String>>,
    /// stderr, when the test holds it unread.
    _held: Option<std::process::ChildStderr>,
    /// What runs (see [`harness::describe_command`]), for failure
    /// messages.
    pub what: String,
    /// The last line sent, for failure messages.
    last: String,
}

impl Server {
    /// Start `dsh-search ARGS` (ARGS include `mcp`) in `t`'s directory with
    /// the harness's clean environment.
    pub fn start(t: &TestDir, args: &[&str]) -> Self {
        let mut cmd = t.cmd_std();
        cmd.args(args);
        Self::spawn(cmd)
    }

    /// Start `cmd` (a `dsh-search … mcp` command line) with piped stdio.
    pub fn spawn(cmd: std::process::Command) -> Self {
        Self::spawn_with_stderr(cmd, Stdio::piped())
    }

    /// The same, with stderr a pipe nobody reads: once it is full, every
    /// write to it blocks (its `finish` gives an empty stderr).
    #[cfg(unix)]
    pub fn spawn_with_stderr_unread(cmd: std::process::Command) -> Self {
        Self::spawn_reading(cmd, Stdio::piped(), false)
    }

    /// The same, with stderr going to `stderr` (a pipe the test reads, or
    /// anything else, such as `/dev/full`).
    pub fn spawn_with_stderr(cmd: std::process::Command, stderr: impl Into<Stdio>) -> Self {
        Self::spawn_reading(cmd, stderr, true)
    }

    fn spawn_reading(mut cmd: std::process::Command, stderr: impl Into<Stdio>, read: bool) -> Self {
        let what = harness::describe_command(&cmd);
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut err = child.stderr.take();
        // Unread: held open until the server is dropped.
        let held = if read { None } else { err.take() };
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut err) = err {
                let _ = err.read_to_string(&mut text);
            }
            text
        });
        Self {
            child,
            stdin,
            lines,
            stderr: Some(stderr),
            _held: held,
            what,
            last: String::new(),
        }
    }

    /// Start the server and open a session in `era`: legacy runs the
    /// `initialize` handshake, 2026-07-28 asks `server/discover`; both
    /// replies are asserted whole.
    pub fn open(t: &TestDir, args: &[&str], era: Era) -> Self {
        let mut s = Self::start(t, args);
        match era {
            Era::Legacy => initialize(&mut s, LEGACY),
            Era::Modern => {
                let reply = s.call(era, &json!("discover"), "server/discover", json!({}));
                assert_eq!(
                    reply,
                    result(
                        &json!("discover"),
                        &era.result(json!({
                            "supportedVersions": [MODERN],
                            "capabilities": {"tools": {}},
                            "instructions": instructions(),
                            "ttlMs": 3_600_000,
                            "cacheScope": "public",
                        }))
                    ),
                    "{}",
                    s.describe()
                );
            }
        }
        s
    }

    /// What runs and the last line it was sent, for a failure message
    /// (the reply is the assertion's own).
    pub fn describe(&self) -> String {
        let last: String = self.last.chars().take(300).collect();
        let cut = if last.len() < self.last.len() {
            "…"
        } else {
            ""
        };
        format!("{}, sent {last}{cut}", self.what)
    }

    /// Write one line (a message, or deliberately not one) to the server.
    pub fn send_line(&mut self, line: &str) {
        line.clone_into(&mut self.last);
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Write raw bytes, no newline added.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.last = String::from_utf8_lossy(bytes).into_owned();
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    /// The server's stdin, for a writer thread; `None` afterwards.
    pub fn take_stdin(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin is open")
    }

    /// The next line the server writes, as it wrote it, within `bound`.
    #[track_caller]
    pub fn line_within(&self, bound: Duration) -> String {
        match self.lines.recv_timeout(bound) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                panic!("no reply within {bound:?} from {}", self.what)
            }
            Err(RecvTimeoutError::Disconnected) => panic!("{} closed stdout", self.what),
        }
    }

    #[track_caller]
    pub fn reply_within(&self, bound: Duration) -> Value {
        let line = self.line_within(bound);
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("the server wrote a line that is not JSON ({e}): {line}"))
    }

    #[track_caller]
    pub fn reply(&self) -> Value {
        self.reply_within(BOUND)
    }

    /// Send a request in `era` and return the next reply.
    #[track_caller]
    pub fn call(&mut self, era: Era, id: &Value, method: &str, params: Value) -> Value {
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": era.params(params)}),
        );
        self.reply()
    }

    /// `tools/call` of `tool` with `arguments` in `era`; the reply.
    #[track_caller]
    #[allow(clippy::needless_pass_by_value)] // call sites build `arguments` inline
    pub fn tool(&mut self, era: Era, id: u64, tool: &str, arguments: Value) -> Value {
        self.call(
            era,
            &json!(id),
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        )
    }

    /// Close stdin and wait (bounded) for the server to exit; assert it
    /// wrote nothing more to stdout. Returns its exit status and stderr.
    #[track_caller]
    pub fn finish(&mut self) -> (ExitStatus, String) {
        drop(self.stdin.take());
        let status = self
            .child
            .wait_timeout(BOUND)
            .unwrap()
            .unwrap_or_else(|| panic!("{} did not exit within {BOUND:?} of EOF", self.what));
        match self.lines.recv_timeout(BOUND) {
            Err(RecvTimeoutError::Disconnected) => {}
            Ok(line) => panic!("the server wrote more than was asked for: {line}"),
            Err(RecvTimeoutError::Timeout) => panic!("stdout still open after the server exited"),
        }
        let stderr = self.stderr.take().unwrap().join().unwrap();
        (status, stderr)
    }

    /// `finish`, asserting exit 0 and an empty stderr.
    #[track_caller]
    pub fn finish_clean(&mut self) {
        let (status, stderr) = self.finish();
        assert_eq!(
            (status.code(), stderr.as_str()),
            (Some(0), ""),
            "{} at EOF",
            self.what
        );
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Only matters when a test failed midway; a reaped child is left alone.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The guidance texts of SPEC §8, word for word, joined as the server's instructions.
pub fn instructions() -> String {
    "Use the glob tool — not shell find or ls — to discover files by path pattern. Results are sorted by modification time and include hidden and ignored files.\n\nUse the grep tool — not shell grep or rg — to search file contents. Use read on a matched file when you need surrounding context.".to_owned()
}

pub fn result(id: &Value, result: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

pub fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Run the legacy `initialize` handshake at `version` and assert its reply.
pub fn initialize(s: &mut Server, version: &str) {
    let id = json!(1);
    let reply = s.call(
        Era::Legacy,
        &id,
        "initialize",
        json!({
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "dsh-search-tests", "version": "0"}
        }),
    );
    assert_eq!(
        reply,
        result(
            &id,
            &json!({
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": server_info(),
                "instructions": instructions(),
            })
        ),
        "{}",
        s.describe()
    );
    // A notification: never answered, so the next reply belongs to the
    // next request.
    s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
}

/// What `tools/list` must hold: `schema`'s tools (with the same global
/// options), `input_schema` spelled `inputSchema`, guidance left to the
/// server's instructions.
pub fn tools_from_schema(t: &TestDir, options: &[&str]) -> Vec<Value> {
    let out = t.cmd().args(options).arg("schema").output().unwrap();
    assert_exit(&out, 0);
    let document = stdout_json(&out);
    document["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            json!({
                "name": tool["name"],
                "title": tool["title"],
                "description": tool["description"],
                "inputSchema": tool["input_schema"],
                "annotations": tool["annotations"],
            })
        })
        .collect()
}

/// The CLI's text output for `args`, without its final newline, and its
/// `--format json` envelope.
pub fn cli(t: &TestDir, args: &[&str]) -> (String, Value) {
    let out = t.cmd().args(args).output().unwrap();
    let text = stdout(&out)
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("no final newline: {out:?}"))
        .to_owned();
    let json_out = t
        .cmd()
        .args(["--format", "json"])
        .args(args)
        .output()
        .unwrap();
    (text, stdout_json(&json_out))
}

/// A successful `tools/call` result: the text, and nothing else.
pub fn tool_result(era: Era, text: &str) -> Value {
    era.result(json!({"content": [{"type": "text", "text": text}], "isError": false}))
}

/// A failed `tools/call` result: the `Error: …` text, `{name, code}` in `_meta`.
pub fn tool_error(era: Era, text: &str, name: &str, code: &str) -> Value {
    era.result(json!({
        "content": [{"type": "text", "text": text}],
        "isError": true,
        "_meta": {"dsh-search/error": {"name": name, "code": code}},
    }))
}

/// Whether process `pid` is gone (see [`harness::running`]).
pub fn gone(pid: &str) -> bool {
    pid.parse().map_or(true, |pid| !harness::running(pid))
}

fn read_pid(path: &Path) -> String {
    fs::read_to_string(path).unwrap().trim().to_owned()
}

/// The fake rg and its grandchild. Should the test fail before the server
/// killed them, they are killed here rather than left to sleep on.
pub struct Survivors(Vec<u32>);

impl Drop for Survivors {
    fn drop(&mut self) {
        for &pid in &self.0 {
            // Nothing to do when the server already killed it, as it should have.
            harness::kill_process(pid);
        }
    }
}

/// A fake rg that never finishes on its own: it starts a grandchild,
/// records both pids, marks that it started, and sleeps.
pub struct SlowRg {
    state: TempDir,
}

impl SlowRg {
    pub fn new() -> Self {
        Self {
            state: tempfile::tempdir().unwrap(),
        }
    }

    /// A server in `t` that searches with this fake rg, its session open.
    pub fn server(&self, t: &TestDir, era: Era) -> Server {
        let dir = self.state.path().to_str().unwrap();
        // The pid files are written before the marker, so they are complete
        // once the marker exists.
        let slow = t.fake_rg_plan(
            "slow-rg",
            &format!(
                "child {dir}/grandchild.pid\npid {dir}/rg.pid\ntouch {dir}/started\nsleep 300000"
            ),
        );
        // No index: its check of the walk would run this rg first, and
        // the pid files would name that run instead of the search's.
        Server::open(
            t,
            &["--rg", slow.to_str().unwrap(), "--index", "off", "mcp"],
            era,
        )
    }

    /// Wait (bounded) until the fake rg runs; its pid, its grandchild's,
    /// and a guard that kills its process group should the test fail.
    pub fn started(&self) -> (String, String, Survivors) {
        let marker = self.state.path().join("started");
        harness::wait_for("the fake rg starts", || marker.exists());
        let rg = read_pid(&self.state.path().join("rg.pid"));
        let grandchild = read_pid(&self.state.path().join("grandchild.pid"));
        let survivors = Survivors(
            [&rg, &grandchild]
                .iter()
                .filter_map(|pid| pid.parse().ok())
                .collect(),
        );
        assert!(!gone(&rg) && !gone(&grandchild), "the search is running");
        (rg, grandchild, survivors)
    }
}

/// A `notifications/cancelled` for `id` (the same in both eras).
pub fn cancel(id: &Value) -> Value {
    json!({
        "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "test"}
    })
}

/// A request both eras answer at once with a fixed result: legacy `ping`,
/// and in 2026-07-28 (which has no ping) `tools/list`'s first tool name.
#[track_caller]
pub fn assert_alive(s: &mut Server, era: Era, id: u64, bound: Duration) {
    let id = json!(id);
    match era {
        Era::Legacy => {
            s.send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
            assert_eq!(
                s.reply_within(bound),
                result(&id, &json!({})),
                "{}",
                s.describe()
            );
        }
        Era::Modern => {
            s.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": era.params(json!({}))}));
            let reply = s.reply_within(bound);
            assert_eq!(
                (&reply["id"], &reply["result"]["tools"][0]["name"]),
                (&id, &json!("glob")),
                "{}: {reply}",
                s.describe()
            );
        }
    }
}
