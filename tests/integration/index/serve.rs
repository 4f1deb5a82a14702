//! The tree's index server (`dsh-search serve`, SPEC §11) and its callers:
//! the CLI's bytes and exit codes through a server equal the scan's while
//! the tree changes; a server that is dead, stale, silent, of another
//! build or another user never costs a call its answer; one server per
//! tree, whoever starts it; its files private.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::generate::{Rng, Tree};
use super::number;
use crate::harness::{Ran, TestDir, is_root};

/// How long a server may take to build the index of a test's tree.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// A server the test started; killed (if still running) when dropped.
struct Served {
    child: Child,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The private directory of `t`'s servers.
fn run_dir(t: &TestDir) -> PathBuf {
    t.home().join("run/dsh-search")
}

/// `dsh-search --cwd CWD serve` in `t`, with `bin` (the binary under test
/// when `None`) and the variables `env`, its index ready.
fn serve(t: &TestDir, cwd: &str, bin: Option<&Path>, env: &[(&str, &str)]) -> Served {
    let mut cmd = match bin {
        Some(bin) => t.cmd_std_of(bin),
        None => t.cmd_std(),
    };
    cmd.args(["--cwd", cwd, "serve"])
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let served = Served {
        child: cmd.spawn().unwrap(),
    };
    wait_ready(t);
    served
}

/// Wait until `serve --status` says a server of `t` is ready.
fn wait_ready(t: &TestDir) {
    let until = Instant::now() + READY_WITHIN;
    loop {
        let status = status(t);
        if status.contains(" ready ") {
            return;
        }
        assert!(
            Instant::now() < until && !status.contains("index unavailable"),
            "no server became ready: {status}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What `serve --status` prints in `t`.
fn status(t: &TestDir) -> String {
    String::from_utf8_lossy(&t.run(&["serve", "--status"]).output.stdout).into_owned()
}

/// The sockets in `t`'s private directory.
fn sockets(t: &TestDir) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(run_dir(t))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "sock"))
        .collect();
    found.sort();
    found
}

/// grep `args` (a JSON object) through `call` in `cwd`, with the global
/// options `options`.
fn grep(t: &TestDir, cwd: &str, options: &[&str], args: &Value) -> Ran {
    t.cmd()
        .args(["--cwd", cwd])
        .args(options)
        .args(["call", "grep", &args.to_string()])
        .output()
        .unwrap()
}

/// The `index:` line of an `--explain` account.
fn account(ran: &Ran) -> String {
    String::from_utf8_lossy(&ran.output.stderr)
        .lines()
        .find_map(|l| l.trim().strip_prefix("index:"))
        .map(|l| l.trim().to_owned())
        .unwrap_or_default()
}

/// The same call with the index and without: equal stdout and exit.
#[track_caller]
fn same(t: &TestDir, cwd: &str, options: &[&str], args: &Value) -> Ran {
    let mut with = vec!["--explain"];
    with.extend_from_slice(options);
    let served = grep(t, cwd, &with, args);
    let mut off = vec!["--index", "off"];
    off.extend_from_slice(options);
    let scanned = grep(t, cwd, &off, args);
    assert!(
        served.output.stdout == scanned.output.stdout
            && served.output.status.code() == scanned.output.status.code(),
        "grep {args} {options:?} differs (index: {}):\n--- with the index ---\n{}\n--- scanned ---\n{}",
        account(&served),
        served.transcript(),
        scanned.transcript()
    );
    served
}

#[test]
fn cli_calls_through_the_server_give_the_scans_bytes_while_the_tree_changes() {
    let calls = number("DSH_SEARCH_INDEX_CLI_CALLS", 200) as usize;
    let seed = number("DSH_SEARCH_INDEX_DIFF_SEED", 33);
    let t = TestDir::new();
    let mut rng = Rng(seed);
    let mut tree = Tree::new(&t);
    tree.populate(&mut rng);
    let _server = serve(&t, "repo", None, &[]);
    let mut answered = 0;
    for _ in 0..calls {
        while rng.chance(25) {
            tree.change(&mut rng);
        }
        let args = tree.call(&mut rng);
        let options: &[&str] = match rng.below(4) {
            0 => &["--format", "json"],
            1 => &["--grep-max-matches", "3"],
            _ => &[],
        };
        let ran = same(&t, "repo", options, &args);
        answered += usize::from(account(&ran).starts_with("answered by server pid"));
    }
    assert!(
        answered * 10 >= calls,
        "the server answered only {answered} of {calls} calls"
    );
}

/// A fake rg that runs the real one, except in a process with
/// `SLOW_IN_SERVER` set (the server), where a search (`--json`) marks
/// `marker` and sleeps instead.
fn slow_in_server(t: &TestDir, marker: &Path) -> PathBuf {
    t.fake_rg(
        "fake/rg",
        &format!(
            "case \"$SLOW_IN_SERVER $*\" in\n  1*--json*) : > '{}'; exec sleep 30 ;;\nesac\nexec '{}' \"$@\"",
            marker.display(),
            crate::harness::real_rg_path()
        ),
    )
}

#[test]
fn a_server_killed_mid_call_costs_the_call_nothing() {
    let t = TestDir::new();
    t.write("src/a.txt", "needle one\n");
    t.write("src/b.txt", "other\n");
    let marker = t.path().join("searching");
    let rg = slow_in_server(&t, &marker);
    let rg = rg.to_str().unwrap();
    let mut server = serve(
        &t,
        ".",
        None,
        &[("SLOW_IN_SERVER", "1"), ("DSH_SEARCH_RG", rg)],
    );
    let mut cmd = t.cmd_std();
    cmd.args([
        "--rg",
        rg,
        "--explain",
        "--timeout-ms",
        "20000",
        "grep",
        "needle",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let started = Instant::now();
    let caller = cmd.spawn().unwrap();
    let until = Instant::now() + Duration::from_secs(20);
    while !marker.exists() {
        assert!(Instant::now() < until, "the server never searched");
        std::thread::sleep(Duration::from_millis(10));
    }
    server.child.kill().unwrap();
    let out = caller.wait_with_output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Found 1 match\n\nsrc/a.txt\nLine 1: needle one\n"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("index:    scanned (server: the connection was lost)"),
        "{stderr}"
    );
}

#[test]
fn a_stale_socket_or_a_silent_one_costs_the_call_nothing() {
    let t = TestDir::new();
    t.write("src/a.txt", "needle one\n");
    let mut server = serve(&t, ".", None, &[]);
    let socket = sockets(&t).pop().unwrap();
    server.child.kill().unwrap();
    let _ = server.child.wait();
    // The dead server's socket is still there: refused, so the caller scans.
    let args = json!({"pattern": "needle"});
    let ran = same(&t, ".", &[], &args);
    assert_eq!(
        account(&ran),
        "scanned (server: no server for this tree (a stale socket))"
    );
    // A socket that takes the call and never answers.
    fs::remove_file(&socket).unwrap();
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let held = std::thread::spawn(move || {
        let mut open = Vec::new();
        for stream in listener.incoming().take(2) {
            open.push(stream);
        }
        std::thread::sleep(Duration::from_secs(10));
    });
    let started = Instant::now();
    let ran = same(&t, ".", &["--timeout-ms", "8000"], &args);
    assert!(
        started.elapsed() < Duration::from_secs(16),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(account(&ran), "scanned (server: no answer within 2000 ms)");
    drop(held);
}

#[test]
fn a_server_of_another_build_is_not_used() {
    let t = TestDir::new();
    t.write("src/a.txt", "needle one\n");
    let copy = t.path().join("other-build/dsh-search");
    fs::create_dir_all(copy.parent().unwrap()).unwrap();
    fs::copy(crate::harness::binary(), &copy).unwrap();
    fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).unwrap();
    let _server = serve(&t, ".", Some(&copy), &[]);
    let ran = same(&t, ".", &[], &json!({"pattern": "needle"}));
    assert_eq!(
        account(&ran),
        "scanned (server: refused: it runs another build of dsh-search)"
    );
}

#[test]
fn dense_data_in_the_tree_is_left_to_rg() {
    // 4 MiB of noise (xorshift) with a word in its middle, and a small
    // image: the index reads neither whole, and answers all the same.
    let mut seed = 7u64;
    let mut blob: Vec<u8> = (0..4 << 20)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect();
    blob.splice(2 << 20..2 << 20, b"\nzebra_striped\n".iter().copied());
    let t = TestDir::new();
    t.write("src/a.rs", "fn zebra() {}\n");
    for i in 0..30 {
        t.write(&format!("src/m{i}.rs"), format!("fn item_{i}() {{}}\n"));
    }
    t.write("assets/weights.bin", &blob);
    t.write("assets/icon.png", &blob[..3000]);
    // A program: 48 kinds of byte, NUL among them (no letter), far under
    // a trigram a byte but past the floor.
    let mut program: Vec<u8> = blob.iter().map(|b| b % 48).collect();
    program.splice(1 << 20..1 << 20, b"zebra_compiled".iter().copied());
    t.write("bin/tool", &program);
    let _server = serve(&t, ".", None, &[]);
    for pattern in ["zebra_striped", "zebra", "zebra_compiled", "absent_word"] {
        let ran = same(&t, ".", &[], &json!({"pattern": pattern}));
        assert!(
            account(&ran).starts_with("answered by server pid"),
            "{pattern}: {}",
            account(&ran)
        );
    }
    // The three are candidates for every call, even one for a word none
    // of them holds.
    let ran = same(&t, ".", &[], &json!({"pattern": "absent_word"}));
    assert!(
        account(&ran).ends_with(", 3 of 34 files are candidates (0 dirty)"),
        "{}",
        account(&ran)
    );
    let ran = grep(&t, ".", &[], &json!({"pattern": "zebra_compiled"}));
    assert_eq!(
        String::from_utf8_lossy(&ran.output.stdout),
        "No matches found in text files\n\n(Matched in 1 binary file, lines not shown: bin/tool)\n"
    );
    let ran = grep(&t, ".", &[], &json!({"pattern": "zebra_striped"}));
    assert_eq!(
        String::from_utf8_lossy(&ran.output.stdout),
        "No matches found in text files\n\n(Matched in 1 binary file, lines not shown: assets/weights.bin)\n"
    );
}

#[test]
fn sixteen_calls_at_once_are_each_answered() {
    let t = TestDir::new();
    for i in 0..40 {
        t.write(&format!("src/m{i}.rs"), format!("fn item_{i}() {{}}\n"));
    }
    let _server = serve(&t, ".", None, &[]);
    let callers: Vec<_> = (0..16)
        .map(|i| {
            let mut cmd = t.cmd_std();
            cmd.args(["--explain", "grep", &format!("item_{i}\\b")])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            (i, cmd.spawn().unwrap())
        })
        .collect();
    for (i, caller) in callers {
        let out = caller.wait_with_output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("Found 1 match\n\nsrc/m{i}.rs\nLine 1: fn item_{i}() {{}}\n")
        );
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("answered by server pid"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A tree of `src/a.txt` (holding `needle one`) and files that do not
/// hold it, so that the index answers a grep for it.
fn small_tree(t: &TestDir) {
    t.write("src/a.txt", "needle one\n");
    for i in 0..8 {
        t.write(&format!("src/other{i}.txt"), format!("plain text {i}\n"));
    }
}

#[test]
fn two_first_calls_at_once_start_one_server() {
    let t = TestDir::new();
    small_tree(&t);
    let callers: Vec<_> = (0..2)
        .map(|_| {
            let mut cmd = t.cmd_std();
            cmd.args(["--serve-after-ms", "1", "grep", "needle"])
                .stdout(Stdio::null());
            cmd.spawn().unwrap()
        })
        .collect();
    for mut caller in callers {
        assert!(caller.wait().unwrap().success());
    }
    wait_ready(&t);
    // Both started one; the second found the tree's lock taken and left.
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(sockets(&t).len(), 1);
    let status = status(&t);
    assert_eq!(status.lines().count(), 1, "{status}");
    let ran = grep(&t, ".", &["--explain"], &json!({"pattern": "needle"}));
    assert!(
        account(&ran).starts_with("answered by server pid"),
        "{}",
        account(&ran)
    );
}

#[test]
fn the_server_is_private_to_its_user() {
    let t = TestDir::new();
    t.write("src/a.txt", "needle one\n");
    let _server = serve(&t, ".", None, &[]);
    let dir = run_dir(&t);
    let socket = sockets(&t).pop().unwrap();
    let mode = |p: &Path| fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&socket), 0o600);
    let fake = crate::harness::fake_rg_program();
    let connect = || {
        let mut cmd = Command::new(fake);
        cmd.env("FAKE_RG_PLAN_TEXT", format!("connect {}", socket.display()));
        let out = cmd.output().unwrap();
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    assert_eq!(connect(), "answered\n");
    if !is_root() {
        eprintln!("skipped: connecting as another user needs root");
        return;
    }
    // Opened to everyone, the server itself still refuses another user.
    let home = t.home();
    for open in [home.to_path_buf(), home.join("run"), dir.clone()] {
        fs::set_permissions(&open, fs::Permissions::from_mode(0o755)).unwrap();
    }
    fs::set_permissions(&socket, fs::Permissions::from_mode(0o777)).unwrap();
    let copy = tempfile::Builder::new()
        .prefix("dsh-fake")
        .tempdir()
        .unwrap();
    fs::set_permissions(copy.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let fake_copy = copy.path().join("fake-rg");
    fs::copy(fake, &fake_copy).unwrap();
    let nobody = {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new(&fake_copy);
        cmd.env("FAKE_RG_PLAN_TEXT", format!("connect {}", socket.display()));
        cmd.uid(crate::messages::NOBODY)
            .gid(crate::messages::NOBODY);
        let out = cmd.output().unwrap();
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    assert_eq!(nobody, "closed\n");
}

#[test]
fn a_server_goes_when_idle_or_when_its_tree_does() {
    let t = TestDir::new();
    t.write("work/a.txt", "needle\n");
    let mut server = serve(&t, "work", None, &[("DSH_SEARCH_SERVE_IDLE_MS", "300")]);
    let until = Instant::now() + Duration::from_secs(20);
    while server.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < until, "the idle server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(sockets(&t), Vec::<PathBuf>::new());
    let mut server = serve(&t, "work", None, &[]);
    fs::remove_dir_all(t.path().join("work")).unwrap();
    let until = Instant::now() + Duration::from_secs(20);
    while server.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < until, "the server outlived its tree");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(sockets(&t), Vec::<PathBuf>::new());
}

#[test]
fn two_mcp_sessions_share_one_server() {
    let t = TestDir::new();
    small_tree(&t);
    let mut first = super::session(t.cmd_std(), &["--explain", "mcp"]);
    let mut second = super::session(t.cmd_std(), &["--explain", "mcp"]);
    for s in [&mut first, &mut second] {
        let reply = s.tool(
            crate::mcp::Era::Legacy,
            1,
            "grep",
            json!({"pattern": "needle"}),
        );
        assert_eq!(
            super::text_of(&reply),
            "Found 1 match\n\nsrc/a.txt\nLine 1: needle one"
        );
    }
    assert_eq!(sockets(&t).len(), 1);
    for mut s in [first, second] {
        let (_, stderr) = s.finish();
        assert!(stderr.contains("answered by server pid"), "{stderr}");
    }
}
