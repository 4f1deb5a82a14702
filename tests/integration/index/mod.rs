//! The index (SPEC §11): a server that answers grep from its index gives
//! the bytes of one that scans, call after call, while the tree changes
//! between calls. Two servers run on one tree, `--index auto` and
//! `--index off`, and every reply must be equal ([`Pair`]).
//!
//! - here, the generated test: calls (patterns cut from the tree's own
//!   text, every argument) and changes (every kind a user can make: files
//!   written, moved, linked; directories swapped, replaced, moved out and
//!   back, turned into links; ignore files anywhere rg reads them, a
//!   repository made or unmade above the workdir, the global excludes;
//!   names that are not UTF-8) at random. `DSH_SEARCH_INDEX_DIFF_CALLS`
//!   and `..._SEED` set its length and seed (`scripts/index-diff` runs
//!   thousands);
//! - `cases`: each way the index was once found to answer differently,
//!   as a fixed sequence, and the bounds of its memory and time.

mod cases;
mod generate;
mod serve;

use std::collections::BTreeMap;
use std::fs;
use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::{INDEX_WAIT, TestDir};
use crate::mcp::{Era, LEGACY, Server};
use generate::{Rng, Tree};

/// The number in the variable `name`, or `default`.
fn number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// An MCP session with `dsh-search ARGS` (ARGS end in `mcp`) from `cmd`,
/// whose index is ready before it serves: the server waits for it up to a
/// minute, not the harness's few seconds, so that what these tests
/// require of the index does not depend on how busy the machine is (its
/// build runs at the lowest priority).
fn session(mut cmd: std::process::Command, args: &[&str]) -> Server {
    cmd.args(args).env(INDEX_WAIT.0, "60000");
    let mut s = Server::spawn(cmd);
    s.send(&json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": LEGACY,
            "capabilities": {},
            "clientInfo": {"name": "dsh-search-tests", "version": "0"}
        }
    }));
    let reply = s.reply_within(Duration::from_secs(90));
    assert_eq!(
        reply["result"]["protocolVersion"],
        json!(LEGACY),
        "{}",
        s.describe()
    );
    s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    s
}

fn text_of(reply: &Value) -> String {
    reply["result"]["content"][0]["text"]
        .as_str()
        .map_or_else(|| reply.to_string(), str::to_owned)
}

/// Two servers on one workdir: one answering from its index, one scanning.
pub struct Pair {
    /// Where the index server of the tree writes what it says.
    logs: std::path::PathBuf,
    indexed: Server,
    scanning: Server,
    id: u64,
    /// What was done to the tree, for a failure's message.
    pub history: Vec<String>,
}

impl Pair {
    /// Servers in `t` with `--cwd cwd` (`.` for `t` itself); `cmd` makes
    /// each one's command (the harness's clean environment).
    pub fn start(t: &TestDir, cwd: &str) -> Self {
        // The index server's trace (a debug build's), when asked for.
        let trace = std::env::var_os("DSH_SEARCH_TEST_INDEX_TRACE");
        let cmd = || {
            let mut cmd = t.cmd_std();
            if let Some(trace) = &trace {
                cmd.env("DSH_SEARCH_TEST_INDEX_TRACE", trace);
            }
            cmd
        };
        Self::start_with(cmd, cwd, t.home().join("run/dsh-search"))
    }

    pub fn start_with(
        cmd: impl Fn() -> std::process::Command,
        cwd: &str,
        logs: std::path::PathBuf,
    ) -> Self {
        Self {
            logs,
            indexed: session(cmd(), &["--cwd", cwd, "--explain", "mcp"]),
            scanning: session(cmd(), &["--cwd", cwd, "--index", "off", "mcp"]),
            id: 0,
            history: Vec::new(),
        }
    }

    /// Note a change made to the tree.
    pub fn did(&mut self, what: impl Into<String>) {
        self.history.push(what.into());
    }

    /// grep `args` through both; their texts must be equal. The text.
    #[track_caller]
    pub fn grep(&mut self, args: &Value) -> String {
        self.id += 1;
        let id = self.id;
        let got = text_of(&self.indexed.tool(Era::Legacy, id, "grep", args.clone()));
        let want = text_of(&self.scanning.tool(Era::Legacy, id, "grep", args.clone()));
        if got != want {
            // What the index did for this call: the last account.
            let (_, stderr) = self.indexed.finish();
            let account = stderr
                .rsplit("dsh-search --explain:")
                .next()
                .unwrap_or_default()
                .to_owned();
            let mut server = String::new();
            for entry in fs::read_dir(&self.logs).into_iter().flatten().flatten() {
                if entry.path().extension().is_some_and(|e| e == "log") {
                    server.push_str(&fs::read_to_string(entry.path()).unwrap_or_default());
                }
            }
            panic!(
                "call {id}: grep {args} differs:\n--- indexed ---\n{got}\n--- scanned ---\n{want}\n--- the index's account ---\n{account}\n--- changes so far ---\n{}\n--- the index server's log ---\n{server}",
                self.history.join("\n")
            );
        }
        got
    }

    /// End both; how often the index answered, by its `--explain` account.
    pub fn finish(mut self) -> BTreeMap<String, usize> {
        let (_, stderr) = self.indexed.finish();
        if let Ok(path) = std::env::var("DSH_SEARCH_INDEX_DIFF_LOG") {
            let _ = std::fs::write(
                path,
                format!("{}\n=====\n{stderr}", self.history.join("\n")),
            );
        }
        self.scanning.finish();
        let mut why: BTreeMap<String, usize> = BTreeMap::new();
        for line in stderr
            .lines()
            .filter_map(|l| l.trim().strip_prefix("index:"))
        {
            // The index server answers, or says why the call scans.
            let line = line.trim().replace("(server: ", "(");
            let line = match line.strip_prefix("answered by server pid ") {
                Some(rest) => format!("answered{}", rest.trim_start_matches(char::is_numeric)),
                None => line,
            };
            let line = line.as_str();
            let kind = line.split(',').next().unwrap_or(line);
            *why.entry(kind.split(':').next().unwrap_or(kind).to_owned())
                .or_default() += 1;
        }
        why
    }
}

#[test]
fn the_index_answers_with_the_scans_bytes_while_the_tree_changes() {
    let calls = number("DSH_SEARCH_INDEX_DIFF_CALLS", 400) as usize;
    let seed = number("DSH_SEARCH_INDEX_DIFF_SEED", 32);
    let t = TestDir::new();
    let mut rng = Rng(seed);
    let mut tree = Tree::new(&t);
    tree.populate(&mut rng);
    let mut pair = Pair::start(&t, "repo");
    let mut changes = 0;
    for _ in 0..calls {
        while rng.chance(30) {
            let what = tree.change(&mut rng);
            pair.did(what);
            changes += 1;
        }
        let args = tree.call(&mut rng);
        pair.grep(&args);
    }
    let why = pair.finish();
    // What `scripts/index-diff` reports (shown with --nocapture).
    println!("index-diff: seed {seed}: {calls} calls, {changes} changes, 0 differences; {why:?}");
    assert!(changes * 5 > calls, "too few changes: {changes}");
    // Not vacuous: the index answered a good share of the calls, whatever
    // the machine's speed (calls scan while a rebuild runs).
    let answered = why.get("answered").copied().unwrap_or(0);
    assert!(
        answered * 10 >= calls,
        "the index answered only {answered} of {calls} calls: {why:#?}"
    );
}

/// SPEC §11: a change made before a call starts is seen by that call. A
/// write (to a file the index has read, or a new one), then at once a
/// grep for what was written, round after round; the index answers them
/// (the write makes its file a candidate) and never misses one.
/// `DSH_SEARCH_INDEX_FRESH_ROUNDS` sets how many (`scripts/index-diff`
/// runs 1,000).
#[test]
fn a_write_is_seen_by_the_next_call() {
    let rounds = number("DSH_SEARCH_INDEX_FRESH_ROUNDS", 200) as usize;
    let t = TestDir::new();
    for i in 0..50 {
        t.write(&format!("src/m{i}.rs"), format!("fn item_{i}() {{}}\n"));
    }
    let mut s = session(t.cmd_std(), &["--explain", "mcp"]);
    for round in 0..rounds {
        let token = format!("fresh_{round}_token");
        let name = match round % 3 {
            0 => format!("src/m{}.rs", round % 50),
            1 => format!("src/new{round}.rs"),
            _ => format!("src/deep{round}/n.rs"),
        };
        t.write(&name, format!("let x = {token};\n"));
        let reply = s.tool(
            Era::Legacy,
            round as u64 + 1,
            "grep",
            json!({"pattern": token}),
        );
        let want = format!("Found 1 match\n\n{name}\nLine 1: let x = {token};");
        assert_eq!(
            text_of(&reply),
            want,
            "round {round}: wrote {name}, then grep {token}"
        );
    }
    let (_, stderr) = s.finish();
    // Not vacuous: the first rounds are answered by the index, whatever
    // the machine's speed (later ones may scan while the new files wait
    // for a rebuild, or outnumber the rest).
    let accounts: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.trim().strip_prefix("index:"))
        .map(str::trim)
        .collect();
    let first = rounds.min(30);
    assert!(
        accounts.len() >= first && accounts[..first].iter().all(|a| a.starts_with("answered")),
        "the first {first} rounds were not all answered by the index: {:?}",
        &accounts[..accounts.len().min(first)]
    );
}

/// An empty tree: nothing to index, and every call says what the scan
/// says, in each output mode.
#[test]
fn an_empty_tree_answers_as_the_scan() {
    let t = TestDir::new();
    let mut pair = Pair::start(&t, ".");
    for output in ["content", "files", "count"] {
        pair.grep(&json!({"pattern": "needle", "output": output}));
    }
    pair.finish();
}
