//! The index (SPEC §11): a server that answers grep from its index gives
//! the bytes of one that scans, call after call, while the tree changes
//! between calls. Generated calls (patterns cut from the tree's own text,
//! every argument) go to two servers on one tree, `--index auto` and
//! `--index off`; their replies must be equal. `DSH_SEARCH_INDEX_DIFF_CALLS`
//! sets how many calls (`scripts/index-diff` runs thousands).

use std::collections::BTreeMap;
use std::fs;
use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::{INDEX_WAIT, TestDir};
use crate::mcp::{Era, LEGACY, Server};

/// A small, seeded generator: the same seed, the same calls.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "alpha",
    "Beta",
    "gamma_delta",
    "needle",
    "Needle",
    "NEEDLE",
    "fn",
    "handler",
    "parse_handler",
    "error",
    "Error",
    "warn",
    "struct",
    "impl",
    "value",
    "zeta9",
    "κόσμε",
    "naïve",
    "tab\there",
    "x",
    "yy",
    "q(1)",
    "a.b",
    "[z]",
    "end$",
    "^start",
    "hello world",
    "foo_bar_baz",
];

const DIRS: &[&str] = &[
    "",
    "src",
    "src/deep",
    "docs",
    "ignored",
    ".hidden",
    "vendor",
    "dir with space",
];
const EXTS: &[&str] = &["rs", "txt", "md", "py", "log"];

/// A line of the tree: mostly identifiers from a vocabulary of a few
/// hundred (so that a pattern cut from one file is rare in the others, as
/// in real code), some of the words above.
fn line(rng: &mut Rng) -> String {
    let n = 1 + rng.below(8);
    (0..n)
        .map(|_| {
            if rng.chance(30) {
                rng.pick(WORDS).to_owned()
            } else {
                format!(
                    "{}_{}",
                    rng.pick(&["get", "set", "Item", "run"]),
                    rng.below(300)
                )
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn content(rng: &mut Rng) -> String {
    let n = rng.below(12);
    (0..n).map(|_| line(rng) + "\n").collect()
}

fn file_name(rng: &mut Rng) -> String {
    let dir = rng.pick(DIRS);
    let name = format!("f{}.{}", rng.below(40), rng.pick(EXTS));
    if dir.is_empty() {
        name
    } else {
        format!("{dir}/{name}")
    }
}

/// The tree's text files (those the generator wrote), for patterns.
fn texts(t: &TestDir) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![t.path().to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with(".git") {
                stack.push(path);
            } else if let Ok(text) = fs::read_to_string(&path) {
                out.extend(text.lines().map(str::to_owned).filter(|l| !l.is_empty()));
            }
        }
    }
    out.sort();
    out
}

fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One generated grep call's arguments.
fn call(rng: &mut Rng, lines: &[String], root: &str) -> Value {
    let source = if lines.is_empty() {
        "needle".to_owned()
    } else {
        lines[rng.below(lines.len())].clone()
    };
    let chars: Vec<char> = source.chars().collect();
    let start = rng.below(chars.len().max(1));
    let len = 3 + rng.below(10);
    let cut: String = chars.iter().skip(start).take(len).collect();
    let cut = if cut.chars().count() < 3 {
        source.clone()
    } else {
        cut
    };
    let mut args = serde_json::Map::new();
    let pattern = match rng.below(10) {
        0 => {
            args.insert("literal".into(), json!(true));
            cut
        }
        1 => format!("{}\\s+\\w+", escape(rng.pick(WORDS))),
        2 => format!("{}|{}", escape(rng.pick(WORDS)), escape(rng.pick(WORDS))),
        3 => {
            args.insert("ignore_case".into(), json!(true));
            escape(&cut.to_uppercase())
        }
        4 => format!("\\w+{}", escape(&cut)),
        5 => "absent_word_nowhere".to_owned(),
        6 => {
            args.insert("multiline".into(), json!(true));
            format!("{}\\n", escape(rng.pick(WORDS)))
        }
        7 => "[a-z]+_".to_owned(),
        _ => escape(&cut),
    };
    args.insert("pattern".into(), json!(pattern));
    if rng.chance(30) {
        args.insert(
            "output".into(),
            json!(rng.pick(&["files", "count", "content"])),
        );
    }
    if rng.chance(20) {
        args.insert("context".into(), json!(rng.below(3)));
    }
    if rng.chance(15) {
        args.insert(
            "include".into(),
            json!(rng.pick(&["*.rs", "*.{txt,md}", "src/**"])),
        );
    }
    if rng.chance(10) {
        args.insert("exclude".into(), json!(rng.pick(&["*.md", "**/deep/**"])));
    }
    if rng.chance(10) {
        args.insert("type".into(), json!(rng.pick(&["rust", "py", "markdown"])));
    }
    if rng.chance(30) {
        let path = match rng.below(8) {
            7 => "src-link".to_owned(),
            0 => "src".to_owned(),
            1 => "./src".to_owned(),
            2 => ".".to_owned(),
            3 => format!("{root}/src"),
            4 => ".hidden".to_owned(),
            5 => "ignored".to_owned(),
            _ => file_name(rng),
        };
        args.insert("path".into(), json!(path));
    }
    if rng.chance(10) {
        args.insert("offset".into(), json!(rng.below(4)));
        args.insert("limit".into(), json!(1 + rng.below(3)));
    }
    if rng.chance(5) {
        args.insert("ignore_case".into(), json!(true));
    }
    Value::Object(args)
}

/// Change the tree as an agent or its editor would; say what was done.
fn change(rng: &mut Rng, t: &TestDir) -> String {
    let name = file_name(rng);
    let path = t.path().join(&name);
    match rng.below(9) {
        0 | 1 => {
            t.write(&name, content(rng));
            format!("wrote {name}")
        }
        2 => {
            let mut text = fs::read_to_string(&path).unwrap_or_default();
            text.push_str(&line(rng));
            text.push('\n');
            t.write(&name, text);
            format!("appended to {name}")
        }
        3 => {
            let to = file_name(rng);
            if path.is_file() && fs::create_dir_all(t.path().join(&to).parent().unwrap()).is_ok() {
                let _ = fs::rename(&path, t.path().join(&to));
            }
            format!("renamed {name} to {to}")
        }
        4 => {
            let _ = fs::remove_file(&path);
            format!("removed {name}")
        }
        5 => {
            let rule = rng.pick(&["*.log", "docs/", "f1*", "!vendor/", ""]);
            t.write(".ignore", format!("vendor/\n{rule}\n"));
            format!("ignored {rule}")
        }
        6 => {
            let mut bytes = fs::read(&path).unwrap_or_default();
            bytes.splice(0..0, b"bin\x00ary needle\n".iter().copied());
            t.write(&name, bytes);
            format!("made {name} binary")
        }
        7 => {
            let dir = format!("new{}", rng.below(5));
            t.write(&format!("{dir}/sub/n.rs"), content(rng));
            format!("created {dir}/sub/n.rs")
        }
        _ => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = if rng.chance(50) { 0o000 } else { 0o644 };
                let _ = fs::set_permissions(&path, fs::Permissions::from_mode(mode));
                format!("chmod {mode:o} {name}")
            }
            #[cfg(not(unix))]
            String::new()
        }
    }
}

/// The number in the variable `name`, or `default`.
fn number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// An MCP session with `dsh-search ARGS` (ARGS end in `mcp`) in `t`
/// whose index is ready before it serves: the server waits for it up to a
/// minute, not the harness's few seconds, so that what these tests
/// require of the index does not depend on how busy the machine is (its
/// build runs at the lowest priority).
fn session(t: &TestDir, args: &[&str]) -> Server {
    let mut cmd = t.cmd_std();
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

#[test]
fn the_index_answers_with_the_scans_bytes_while_the_tree_changes() {
    let calls = number("DSH_SEARCH_INDEX_DIFF_CALLS", 400) as usize;
    let seed = number("DSH_SEARCH_INDEX_DIFF_SEED", 26);
    let t = TestDir::new();
    let mut rng = Rng(seed);
    t.mkdir(".git");
    t.write(".gitignore", "ignored/\n*.tmp\n");
    t.write(".ignore", "vendor/\n");
    for _ in 0..60 {
        let name = file_name(&mut rng);
        let text = content(&mut rng);
        t.write(&name, text);
    }
    t.write("src/wide.txt", format!("{} needle\n", "w".repeat(5000)));
    t.write("bin.dat", b"head needle\x00\x01\x02 tail needle\n");
    t.write("utf16.txt", b"\xFF\xFEn\x00e\x00e\x00d\x00l\x00e\x00\n\x00");
    // Links: rg searches neither unless one is the path it is given.
    std::os::unix::fs::symlink("src", t.path().join("src-link")).unwrap();
    std::os::unix::fs::symlink("bin.dat", t.path().join("bin-link")).unwrap();
    let root = t.root();
    let mut indexed = session(&t, &["--explain", "mcp"]);
    let mut scanning = session(&t, &["--index", "off", "mcp"]);
    let mut history = Vec::new();
    for i in 0..calls {
        if rng.chance(25) {
            history.push(change(&mut rng, &t));
        }
        let lines = texts(&t);
        let args = call(&mut rng, &lines, &root);
        let id = i as u64 + 1;
        let got = text_of(&indexed.tool(Era::Legacy, id, "grep", args.clone()));
        let want = text_of(&scanning.tool(Era::Legacy, id, "grep", args.clone()));
        assert!(
            got == want,
            "call {id} (seed {seed}) grep {args} differs:\n--- indexed ---\n{got}\n--- scanned ---\n{want}\n--- changes so far ---\n{}",
            history.join("\n")
        );
    }
    let (_, stderr) = indexed.finish();
    scanning.finish();
    assert!(history.len() * 8 > calls, "too few changes: {history:?}");
    // Not vacuous: the index answered a good share of the calls.
    let mut why: BTreeMap<String, usize> = BTreeMap::new();
    for line in stderr
        .lines()
        .filter_map(|l| l.trim().strip_prefix("index:"))
    {
        let line = line.trim();
        let kind = line.split(',').next().unwrap_or(line);
        *why.entry(kind.split(':').next().unwrap_or(kind).to_owned())
            .or_default() += 1;
    }
    let answered = why.get("answered").copied().unwrap_or(0);
    // Not vacuous: a bound no machine's speed breaks (calls scan while a
    // rebuild runs; seeds at length answer about half).
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
    let mut s = session(&t, &["--explain", "mcp"]);
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
    let mut indexed = session(&t, &["mcp"]);
    let mut scanning = session(&t, &["--index", "off", "mcp"]);
    for (id, output) in [(1, "content"), (2, "files"), (3, "count")] {
        let args = json!({"pattern": "needle", "output": output});
        let got = text_of(&indexed.tool(Era::Legacy, id, "grep", args.clone()));
        let want = text_of(&scanning.tool(Era::Legacy, id, "grep", args.clone()));
        assert_eq!(got, want, "grep {args}");
    }
    indexed.finish_clean();
    scanning.finish_clean();
}
