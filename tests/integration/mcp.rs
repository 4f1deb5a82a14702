//! `dsh-search mcp` driven over real pipes, one request line at a time,
//! every reply asserted whole. A reader thread turns the server's stdout
//! into a channel read with a bounded timeout, so a missing reply fails the
//! test instead of hanging it. The tools' results must be the CLI's: the
//! same text, the same JSON envelope, the same definitions as `schema`.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tempfile::TempDir;
use wait_timeout::ChildExt;

use crate::harness::{TestDir, real_rg, stdout};

/// The longest any reply, exit or poll may take before the test fails.
const BOUND: Duration = Duration::from_secs(20);
/// A cancelled search must free the server far sooner than the 30 s
/// default search timeout would.
const CANCEL_BOUND: Duration = Duration::from_secs(10);

const PROTOCOL_VERSION: &str = "2025-06-18";

/// One `dsh-search mcp` process and its pipes. Dropping it kills the
/// process if it is still running.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    /// One item per line the server wrote to stdout; disconnected at EOF.
    lines: Receiver<String>,
    stderr: Option<JoinHandle<String>>,
    /// A HOME with nothing in it, as the harness gives every run.
    _home: TempDir,
}

impl Server {
    /// Start `dsh-search ARGS` (ARGS include `mcp`) in `t`'s directory with
    /// the harness's clean environment.
    fn start(t: &TestDir, args: &[&str]) -> Self {
        let home = tempfile::tempdir().unwrap();
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("dsh-search"));
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("DSH_SEARCH_") {
                cmd.env_remove(&key);
            }
        }
        cmd.env_remove("RIPGREP_CONFIG_PATH")
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path())
            .env("DSH_SEARCH_RG", real_rg())
            .current_dir(t.path())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
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
        let mut err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            text
        });
        Self {
            child,
            stdin,
            lines,
            stderr: Some(stderr),
            _home: home,
        }
    }

    /// Write one line (a message, or deliberately not one) to the server.
    fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    /// The next line the server writes, as JSON, within `bound`.
    #[track_caller]
    fn reply_within(&self, bound: Duration) -> Value {
        match self.lines.recv_timeout(bound) {
            Ok(line) => serde_json::from_str(&line).unwrap_or_else(|e| {
                panic!("the server wrote a line that is not JSON ({e}): {line}")
            }),
            Err(RecvTimeoutError::Timeout) => panic!("no reply within {bound:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed stdout"),
        }
    }

    #[track_caller]
    fn reply(&self) -> Value {
        self.reply_within(BOUND)
    }

    /// Send a request and return the next reply.
    #[track_caller]
    fn request(&mut self, id: &Value, method: &str, params: &Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.reply()
    }

    /// Close stdin and wait (bounded) for the server to exit; assert it
    /// wrote nothing more to stdout. Returns its exit status and stderr.
    #[track_caller]
    fn finish(&mut self) -> (ExitStatus, String) {
        drop(self.stdin.take());
        let status = self
            .child
            .wait_timeout(BOUND)
            .unwrap()
            .unwrap_or_else(|| panic!("the server did not exit within {BOUND:?} of EOF"));
        match self.lines.recv_timeout(BOUND) {
            Err(RecvTimeoutError::Disconnected) => {}
            Ok(line) => panic!("the server wrote more than was asked for: {line}"),
            Err(RecvTimeoutError::Timeout) => panic!("stdout still open after the server exited"),
        }
        let stderr = self.stderr.take().unwrap().join().unwrap();
        (status, stderr)
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

/// The seed's guidance texts, verbatim, joined as the server's instructions.
fn instructions() -> String {
    "Use the glob tool — not shell find or ls — to discover files by path pattern. Results are sorted by modification time and include hidden and ignored files.\n\nUse the grep tool — not shell grep or rg — to search file contents. Use read on a matched file when you need surrounding context.".to_owned()
}

fn result(id: &Value, result: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Run the `initialize` handshake and assert its reply whole.
fn initialize(s: &mut Server) {
    let id = json!(1);
    let reply = s.request(
        &id,
        "initialize",
        &json!({
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "dsh-search-tests", "version": "0"}
        }),
    );
    assert_eq!(
        reply,
        result(
            &id,
            &json!({
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": {"name": "dsh-search", "version": env!("CARGO_PKG_VERSION")},
                "instructions": instructions(),
            })
        )
    );
    // A notification: never answered, so the next reply belongs to the
    // next request.
    s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
}

/// What `tools/list` must say: `schema`'s tools (with the same global
/// options), `input_schema` spelled `inputSchema`, guidance left to the
/// server's instructions.
fn tools_from_schema(t: &TestDir, options: &[&str]) -> Value {
    let out = t.cmd().args(options).arg("schema").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let document: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tools: Vec<Value> = document["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            json!({
                "name": tool["name"],
                "description": tool["description"],
                "inputSchema": tool["input_schema"],
            })
        })
        .collect();
    json!({ "tools": tools })
}

/// The CLI's text output for `args`, without its final newline, and its
/// `--format json` envelope: what a `tools/call` must carry.
fn cli(t: &TestDir, args: &[&str]) -> (String, Value) {
    let text = stdout(&t.cmd().args(args).output().unwrap());
    let text = text.strip_suffix('\n').unwrap().to_owned();
    let json_out = t
        .cmd()
        .args(["--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let envelope = serde_json::from_slice(&json_out.stdout).unwrap();
    (text, envelope)
}

/// A `tools/call` result: the text as content, the envelope as structured
/// content; a failure also carries `{name, code}` at the top.
fn tool_result(text: &str, envelope: &Value, is_error: bool) -> Value {
    let mut structured = envelope.clone();
    if is_error {
        structured["name"] = envelope["error"]["name"].clone();
        structured["code"] = envelope["error"]["code"].clone();
    }
    json!({
        "content": [{"type": "text", "text": text}],
        "structuredContent": structured,
        "isError": is_error,
    })
}

fn call_params(name: &str, arguments: &Value) -> Value {
    json!({"name": name, "arguments": arguments})
}

#[test]
fn a_session_over_real_pipes() {
    let t = TestDir::new();
    t.write("src/main.rs", "fn main() {}\nfn helper() {}\n");
    t.write("src/lib.rs", "pub fn lib() {}\n");
    t.write("README.md", "fn in markdown\n");
    let mut s = Server::start(&t, &["mcp"]);

    initialize(&mut s);

    let id = json!(2);
    assert_eq!(
        s.request(&id, "tools/list", &json!({})),
        result(&id, &tools_from_schema(&t, &[]))
    );

    tool_calls(&t, &mut s);
    protocol_errors(&mut s);

    let (status, stderr) = s.finish();
    assert_eq!((status.code(), stderr.as_str()), (Some(0), ""));

    cancel_a_slow_search(&t);
}

/// `tools/call`s whose results and failures are the CLI's.
fn tool_calls(t: &TestDir, s: &mut Server) {
    // A grep with results: the CLI's text and envelope.
    let id = json!(3);
    let (text, envelope) = cli(t, &["grep", "fn", "src", "--include", "*.rs"]);
    assert_eq!(
        text,
        "Found 3 matches\n\nsrc/lib.rs\nLine 1: pub fn lib() {}\n\nsrc/main.rs\nLine 1: fn main() {}\nLine 2: fn helper() {}"
    );
    assert_eq!(
        s.request(
            &id,
            "tools/call",
            &call_params(
                "grep",
                &json!({"pattern": "fn", "path": "src", "include": "*.rs"})
            )
        ),
        result(&id, &tool_result(&text, &envelope, false))
    );

    // An empty result is not an error.
    let id = json!(4);
    let (text, envelope) = cli(t, &["grep", "zzz_absent"]);
    assert_eq!(text, "No matches found");
    assert_eq!(
        s.request(
            &id,
            "tools/call",
            &call_params("grep", &json!({"pattern": "zzz_absent"}))
        ),
        result(&id, &tool_result(&text, &envelope, false))
    );

    // A pattern rg rejects: a tool error carrying {name, code}.
    let id = json!(5);
    let (text, envelope) = cli(t, &["grep", "a("]);
    let reply = s.request(
        &id,
        "tools/call",
        &call_params("grep", &json!({"pattern": "a("})),
    );
    assert_eq!(reply, result(&id, &tool_result(&text, &envelope, true)));
    assert_eq!(reply["result"]["isError"], json!(true));
    assert_eq!(
        reply["result"]["structuredContent"]["code"],
        json!("SEARCH_INVALID_PATTERN")
    );
    assert_eq!(
        reply["result"]["structuredContent"]["name"],
        json!("SearchError")
    );

    // An argument error: the same envelope as `call`'s.
    let id = json!(6);
    let (text, envelope) = cli(t, &["call", "grep", r#"{"pattern":""}"#]);
    assert_eq!(
        text,
        "Error: grep pattern must not be empty; pass a ripgrep regex such as fn main"
    );
    let reply = s.request(
        &id,
        "tools/call",
        &call_params("grep", &json!({"pattern": ""})),
    );
    assert_eq!(reply, result(&id, &tool_result(&text, &envelope, true)));
    assert_eq!(
        reply["result"]["structuredContent"]["code"],
        json!("INVALID_ARGUMENT")
    );

    // An unknown tool: a tool error whose text names the tool.
    let id = json!(7);
    assert_eq!(
        s.request(
            &id,
            "tools/call",
            &call_params("find", &json!({"pattern": "*"}))
        ),
        result(
            &id,
            &json!({
                "content": [{"type": "text", "text": "Error: unknown tool `find`; this server offers glob and grep"}],
                "structuredContent": {
                    "name": "ArgumentError",
                    "code": "INVALID_ARGUMENT",
                    "message": "unknown tool `find`; this server offers glob and grep",
                },
                "isError": true,
            })
        )
    );
}

/// Pings, and requests the protocol itself rejects.
fn protocol_errors(s: &mut Server) {
    let id = json!(8);
    assert_eq!(s.request(&id, "ping", &json!({})), result(&id, &json!({})));

    let id = json!(9);
    assert_eq!(
        s.request(&id, "resources/list", &json!({})),
        error(&id, -32601, "method `resources/list` is not supported")
    );

    // Not JSON: a parse error with a null id.
    let malformed = r#"{"jsonrpc":"2.0","id":10,"method":"#;
    let detail = serde_json::from_str::<Value>(malformed).unwrap_err();
    s.send_line(malformed);
    assert_eq!(
        s.reply(),
        error(&Value::Null, -32700, &format!("not JSON: {detail}"))
    );

    // Not JSON-RPC 2.0: an invalid request, answered with its id.
    let invalid = "a request needs \"jsonrpc\": \"2.0\" and a string or number id";
    s.send(&json!({"id": 11, "method": "ping"}));
    assert_eq!(s.reply(), error(&json!(11), -32600, invalid));
    s.send(&json!({"jsonrpc": "1.0", "id": 12, "method": "ping"}));
    assert_eq!(s.reply(), error(&json!(12), -32600, invalid));

    // 2025-06-18 removed JSON-RPC batches: an array is not a message.
    s.send(&json!([{"jsonrpc": "2.0", "id": 14, "method": "ping"}]));
    assert_eq!(
        s.reply(),
        error(
            &Value::Null,
            -32600,
            "a message must be one JSON-RPC object (batches only under protocol 2025-03-26)"
        )
    );

    let id = json!(13);
    assert_eq!(
        s.request(&id, "tools/call", &json!({"arguments": {"pattern": "x"}})),
        error(&id, -32602, "tools/call needs a `name` string")
    );

    // A notification for a method the server does not know gets no reply:
    // the next reply is the ping's.
    s.send(&json!({"jsonrpc": "2.0", "method": "notifications/unknown_thing", "params": {}}));
    let id = json!("ping-after-notification");
    assert_eq!(s.request(&id, "ping", &json!({})), result(&id, &json!({})));
}

/// Whether process `pid` is gone: no `/proc/<pid>`, or a zombie nobody
/// has reaped yet (it runs nothing).
fn gone(pid: &str) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Poll (bounded) until `done` holds.
#[track_caller]
fn poll(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + BOUND;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {BOUND:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn read_pid(path: &Path) -> String {
    fs::read_to_string(path).unwrap().trim().to_owned()
}

/// The process group the fake rg runs in (dsh-search gives each search
/// its own). Should the test fail before the server killed it, the group is
/// killed here rather than left to sleep on.
struct Survivors(Option<rustix::process::Pid>);

impl Survivors {
    fn group_of(pid: &str) -> Self {
        let group = fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                let (_, rest) = stat.rsplit_once(')')?;
                // After the command name: state, ppid, pgrp.
                rest.split_whitespace().nth(2)?.parse().ok()
            })
            .and_then(rustix::process::Pid::from_raw)
            .filter(|&group| group != rustix::process::getpgrp());
        Self(group)
    }
}

impl Drop for Survivors {
    fn drop(&mut self) {
        if let Some(group) = self.0 {
            // ESRCH when the server already killed it, as it should have.
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
    }
}

/// A fake rg that never finishes on its own: it starts a grandchild,
/// records both pids, marks that it started, and sleeps.
struct SlowRg {
    state: TempDir,
}

impl SlowRg {
    fn new() -> Self {
        Self {
            state: tempfile::tempdir().unwrap(),
        }
    }

    /// A server in `t` that searches with this fake rg, initialized.
    fn server(&self, t: &TestDir) -> Server {
        let dir = self.state.path().to_str().unwrap();
        // The pid files are written before the marker, so they are complete
        // once the marker exists.
        let slow = t.fake_rg(
            "slow-rg.sh",
            &format!(
                "sleep 300 &\necho $! > '{dir}/grandchild.pid'\necho $$ > '{dir}/rg.pid'\n: > '{dir}/started'\nsleep 300"
            ),
        );
        let mut s = Server::start(t, &["--rg", slow.to_str().unwrap(), "mcp"]);
        initialize(&mut s);
        s
    }

    /// Wait (bounded) until the fake rg runs; its pid, its grandchild's,
    /// and a guard that kills its process group should the test fail.
    fn started(&self) -> (String, String, Survivors) {
        let marker = self.state.path().join("started");
        poll("the fake rg starts", || marker.exists());
        let rg = read_pid(&self.state.path().join("rg.pid"));
        let grandchild = read_pid(&self.state.path().join("grandchild.pid"));
        let survivors = Survivors::group_of(&rg);
        assert!(!gone(&rg) && !gone(&grandchild), "the search is running");
        (rg, grandchild, survivors)
    }
}

fn cancel(id: &Value) -> Value {
    json!({
        "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "test"}
    })
}

/// `notifications/cancelled` for the search in flight kills its process
/// group (a grandchild included), and the cancelled request gets no reply.
fn cancel_a_slow_search(t: &TestDir) {
    let slow = SlowRg::new();
    let mut s = slow.server(t);

    let call_id = json!(21);
    s.send(&json!({
        "jsonrpc": "2.0", "id": call_id, "method": "tools/call",
        "params": call_params("grep", &json!({"pattern": "x"}))
    }));
    let (rg, grandchild, _survivors) = slow.started();

    let cancelled_at = Instant::now();
    s.send(&cancel(&call_id));
    let id = json!(22);
    s.send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
    assert_eq!(
        s.reply_within(CANCEL_BOUND),
        result(&id, &json!({})),
        "the next reply is the ping's: the cancelled request is not answered"
    );
    assert!(cancelled_at.elapsed() < CANCEL_BOUND);
    poll("the fake rg is killed", || gone(&rg));
    poll("the fake rg's grandchild is killed", || gone(&grandchild));

    // EOF: exit 0, and no late reply to the cancelled request.
    let (status, stderr) = s.finish();
    assert_eq!((status.code(), stderr.as_str()), (Some(0), ""));
}

/// MCP cancellation: the receiver "SHOULD not send a response for the
/// cancelled request". A request still waiting behind a running search when
/// its cancellation arrives has not even started; it must not be answered
/// either.
#[test]
fn a_request_cancelled_while_queued_is_not_answered() {
    let t = TestDir::new();
    let slow = SlowRg::new();
    let mut s = slow.server(&t);

    let running = json!(31);
    s.send(&json!({
        "jsonrpc": "2.0", "id": running, "method": "tools/call",
        "params": call_params("grep", &json!({"pattern": "x"}))
    }));
    let (_rg, _grandchild, _survivors) = slow.started();
    // Queued behind the search; answered at once were it not cancelled
    // (an argument error needs no rg).
    let queued = json!(32);
    s.send(&json!({
        "jsonrpc": "2.0", "id": queued, "method": "tools/call",
        "params": call_params("grep", &json!({"pattern": ""}))
    }));
    s.send(&cancel(&queued));
    s.send(&cancel(&running));
    let id = json!(33);
    s.send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
    assert_eq!(
        s.reply_within(CANCEL_BOUND),
        result(&id, &json!({})),
        "neither cancelled request is answered"
    );
    let (status, stderr) = s.finish();
    assert_eq!((status.code(), stderr.as_str()), (Some(0), ""));
}

/// Protocol revision 2025-03-26 says implementations "MUST support
/// receiving JSON-RPC batches" (later revisions removed batching). A server
/// that agrees to 2025-03-26 must answer a batch with an array of replies;
/// one that does not serve batches must not agree to that revision.
#[test]
fn a_batch_is_served_when_2025_03_26_is_negotiated() {
    let t = TestDir::new();
    let mut s = Server::start(&t, &["mcp"]);
    let reply = s.request(
        &json!(1),
        "initialize",
        &json!({
            "protocolVersion": "2025-03-26",
            "capabilities": {},
            "clientInfo": {"name": "dsh-search-tests", "version": "0"}
        }),
    );
    if reply["result"]["protocolVersion"] == json!("2025-03-26") {
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s.send(&json!([
            {"jsonrpc": "2.0", "id": 2, "method": "ping"},
            {"jsonrpc": "2.0", "id": 3, "method": "ping"}
        ]));
        let batch = s.reply();
        let mut replies = batch
            .as_array()
            .unwrap_or_else(|| panic!("a batch is answered with an array: {batch}"))
            .clone();
        replies.sort_by_key(|r| r["id"].as_i64());
        assert_eq!(
            replies,
            [result(&json!(2), &json!({})), result(&json!(3), &json!({}))]
        );
    }
    let (status, stderr) = s.finish();
    assert_eq!((status.code(), stderr.as_str()), (Some(0), ""));
}

/// Global options given to `mcp` (before or after it) apply to its calls
/// and its tool descriptions.
#[test]
fn global_options_apply_to_mcp_calls() {
    let t = TestDir::new();
    t.write("src/main.rs", "fn main() {}\nfn helper() {}\n");
    t.write("src/lib.rs", "pub fn lib() {}\n");
    t.mtime("src/main.rs", crate::harness::T0 + 1);
    t.mtime("src/lib.rs", crate::harness::T0);
    let spill = tempfile::tempdir().unwrap();
    let spill_dir = spill.path().to_str().unwrap();
    let options = [
        "--grep-max-matches",
        "1",
        "--glob-max-results",
        "1",
        "--spill-dir",
        spill_dir,
    ];
    let mut s = Server::start(
        &t,
        &[
            "--grep-max-matches",
            "1",
            "mcp",
            "--glob-max-results",
            "1",
            "--spill-dir",
            spill_dir,
        ],
    );
    initialize(&mut s);

    let id = json!(2);
    assert_eq!(
        s.request(&id, "tools/list", &json!({})),
        result(&id, &tools_from_schema(&t, &options))
    );

    // Capped grep: the spill file is written by the server's own call.
    let id = json!(3);
    let reply = s.request(
        &id,
        "tools/call",
        &call_params("grep", &json!({"pattern": "fn"})),
    );
    let locator = reply["result"]["structuredContent"]["spill"]["locator"]
        .as_str()
        .unwrap_or_else(|| panic!("a spill locator: {reply}"))
        .to_owned();
    let spilled = Path::new(&locator);
    assert_eq!(spilled.parent(), Some(spill.path()), "{locator}");
    assert!(locator.ends_with("-grep-results.txt"), "{locator}");
    assert_eq!(
        fs::read_to_string(spilled).unwrap(),
        "Found 3 matches\n\nsrc/lib.rs\nLine 1: pub fn lib() {}\n\nsrc/main.rs\nLine 1: fn main() {}\nLine 2: fn helper() {}"
    );
    let argv: Vec<&str> = options.iter().copied().chain(["grep", "fn"]).collect();
    let (text, envelope) = cli(&t, &argv);
    assert_eq!(
        text,
        format!(
            "Found 1 of 3 matches\n\nsrc/lib.rs\nLine 1: pub fn lib() {{}}\n\n(Full grep result stored at: {locator}. Use read with offset/limit, or grep this path to search within it.)"
        )
    );
    assert_eq!(reply, result(&id, &tool_result(&text, &envelope, false)));
    assert_eq!(
        (
            &envelope["shown"],
            &envelope["total"],
            &envelope["truncated"]
        ),
        (&json!(1), &json!(3), &json!(true))
    );

    // Capped glob, newest first.
    let id = json!(4);
    let reply = s.request(
        &id,
        "tools/call",
        &call_params("glob", &json!({"pattern": "**/*.rs"})),
    );
    let argv: Vec<&str> = options.iter().copied().chain(["glob", "**/*.rs"]).collect();
    let (text, envelope) = cli(&t, &argv);
    let locator = envelope["spill"]["locator"].as_str().unwrap();
    assert_eq!(Path::new(locator).parent(), Some(spill.path()));
    assert_eq!(
        text,
        format!(
            "src/main.rs\n\n(Showing 1 of 2 paths. Full sorted result stored at: {locator}. Use read with offset/limit, or grep this path to search within it.)"
        )
    );
    assert_eq!(reply, result(&id, &tool_result(&text, &envelope, false)));

    let (status, stderr) = s.finish();
    assert_eq!((status.code(), stderr.as_str()), (Some(0), ""));
}

/// SIGTERM to an idle server ends it with `SEARCH_ABORTED`'s exit code,
/// with its stdin still open (it must not wait for EOF).
#[test]
fn sigterm_stops_an_idle_server() {
    let t = TestDir::new();
    let mut s = Server::start(&t, &["mcp"]);
    // A reply proves the server is up and its signal handlers are in place.
    assert_eq!(
        s.request(&json!(1), "ping", &json!({})),
        result(&json!(1), &json!({}))
    );
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &s.child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = s
        .child
        .wait_timeout(BOUND)
        .unwrap()
        .unwrap_or_else(|| panic!("the server did not stop within {BOUND:?} of SIGTERM"));
    assert_eq!(status.code(), Some(6));
}
