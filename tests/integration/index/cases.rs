//! Each way the index was once found to answer differently from the scan,
//! as a fixed sequence: the change, then the call that must see it. Every
//! reply is compared with a scanning server's ([`Pair::grep`]), and the
//! answer is also checked to hold what was written, so that a case never
//! passes by both servers missing it.

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::time::{Duration, Instant};

use serde_json::json;

use super::{Pair, session, text_of};
use crate::harness::{TestDir, cargo_binary};
use crate::mcp::{Era, LEGACY, Server};

/// A tree under `t/repo` with a few files in each of `dirs`.
fn tree(t: &TestDir, dirs: &[&str]) {
    for dir in dirs {
        for i in 0..3 {
            t.write(
                &format!("repo/{dir}/f{i}.txt"),
                format!("{dir} file {i} plain text\n"),
            );
        }
    }
}

#[track_caller]
fn finds(pair: &mut Pair, pattern: &str, want: &[&str]) {
    let text = pair.grep(&json!({"pattern": pattern, "output": "files"}));
    for name in want {
        assert!(
            text.lines().any(|l| l == *name),
            "grep {pattern} should list {name}:\n{text}"
        );
    }
}

#[test]
fn a_write_through_a_hard_link_is_seen_under_both_names() {
    let t = TestDir::new();
    tree(&t, &["a", "b"]);
    t.write("repo/a/one.txt", "one\n");
    fs::hard_link(
        t.path().join("repo/a/one.txt"),
        t.path().join("repo/b/early.txt"),
    )
    .unwrap();
    let mut pair = Pair::start(&t, "repo");
    finds(&mut pair, "plain", &["a/f0.txt"]);
    // A link made after the index read the file.
    fs::hard_link(
        t.path().join("repo/a/one.txt"),
        t.path().join("repo/b/two.txt"),
    )
    .unwrap();
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(t.path().join("repo/a/one.txt"))
        .unwrap();
    std::io::Write::write_all(&mut f, b"linkword\n").unwrap();
    drop(f);
    finds(
        &mut pair,
        "linkword",
        &["a/one.txt", "b/early.txt", "b/two.txt"],
    );
    // Through the other name, which is then removed at once.
    fs::hard_link(
        t.path().join("repo/a/f1.txt"),
        t.path().join("repo/b/brief.txt"),
    )
    .unwrap();
    fs::write(t.path().join("repo/b/brief.txt"), "brieflink\n").unwrap();
    fs::remove_file(t.path().join("repo/b/brief.txt")).unwrap();
    finds(&mut pair, "brieflink", &["a/f1.txt"]);
    // A name outside the tree, there before the index read the file.
    t.write("repo/a/out.txt", "out\n");
    fs::hard_link(
        t.path().join("repo/a/out.txt"),
        t.path().join("outside.txt"),
    )
    .unwrap();
    pair.finish();
    let mut pair = Pair::start(&t, "repo");
    finds(&mut pair, "plain", &["a/f0.txt"]);
    fs::write(t.path().join("outside.txt"), "outsideword\n").unwrap();
    finds(&mut pair, "outsideword", &["a/out.txt"]);
    pair.finish();
}

#[test]
fn a_directory_replaced_swapped_or_moved_back_is_read_anew() {
    let t = TestDir::new();
    tree(&t, &["d", "e", "g", "h"]);
    fs::create_dir(t.path().join("away")).unwrap();
    let mut pair = Pair::start(&t, "repo");
    finds(&mut pair, "plain", &["d/f0.txt"]);
    let repo = t.path().join("repo");
    // Replaced under its name.
    fs::rename(repo.join("d"), repo.join("d.old")).unwrap();
    fs::create_dir(repo.join("d")).unwrap();
    fs::write(repo.join("d/x.txt"), "W\n").unwrap();
    finds(&mut pair, "^W$", &["d/x.txt"]);
    // Two directories swapped, with a file changed in one of them.
    fs::write(repo.join("e/f0.txt"), "swapword\n").unwrap();
    fs::rename(repo.join("e"), repo.join("tmp")).unwrap();
    fs::rename(repo.join("g"), repo.join("e")).unwrap();
    fs::rename(repo.join("tmp"), repo.join("g")).unwrap();
    finds(&mut pair, "swapword", &["g/f0.txt"]);
    finds(&mut pair, "g file", &["e/f0.txt"]);
    // Moved out, a call, changed out there, moved back.
    fs::rename(repo.join("h"), t.path().join("away/h")).unwrap();
    finds(&mut pair, "plain", &["d.old/f0.txt"]);
    fs::write(t.path().join("away/h/f1.txt"), "backword\n").unwrap();
    fs::rename(t.path().join("away/h"), repo.join("h")).unwrap();
    finds(&mut pair, "backword", &["h/f1.txt"]);
    // Moved in from outside under a name the tree had.
    fs::create_dir(t.path().join("away/d")).unwrap();
    fs::write(t.path().join("away/d/f0.txt"), "inword\n").unwrap();
    fs::remove_dir_all(repo.join("d")).unwrap();
    fs::rename(t.path().join("away/d"), repo.join("d")).unwrap();
    finds(&mut pair, "inword", &["d/f0.txt"]);
    // A directory, then a link, then a directory again.
    fs::remove_dir_all(repo.join("g")).unwrap();
    std::os::unix::fs::symlink("e", repo.join("g")).unwrap();
    finds(&mut pair, "plain", &["e/f0.txt"]);
    fs::remove_file(repo.join("g")).unwrap();
    fs::create_dir(repo.join("g")).unwrap();
    fs::write(repo.join("g/f0.txt"), "relinkword\n").unwrap();
    finds(&mut pair, "relinkword", &["g/f0.txt"]);
    pair.finish();
}

#[test]
fn a_directory_ignored_then_not_is_read_anew() {
    let t = TestDir::new();
    tree(&t, &["src", "gen"]);
    let mut pair = Pair::start(&t, "repo");
    finds(&mut pair, "gen file", &["gen/f0.txt"]);
    t.write("repo/.ignore", "gen/\n");
    pair.grep(&json!({"pattern": "gen file"}));
    fs::write(t.path().join("repo/gen/f0.txt"), "unignoredword\n").unwrap();
    t.write("repo/.ignore", "");
    finds(&mut pair, "unignoredword", &["gen/f0.txt"]);
    pair.finish();
}

#[test]
fn rules_outside_the_tree_are_read_at_each_call() {
    let t = TestDir::new();
    tree(&t, &["src", "docs"]);
    t.write("repo/.gitignore", "docs/\n");
    // No repository yet: .gitignore does not apply.
    fs::remove_dir(t.path().join(".git")).unwrap();
    let mut pair = Pair::start(&t, "repo");
    finds(&mut pair, "docs file", &["docs/f0.txt"]);
    // git init above the workdir: now it does.
    fs::create_dir(t.path().join(".git")).unwrap();
    let text = pair.grep(&json!({"pattern": "docs file"}));
    assert!(text.starts_with("No matches"), "{text}");
    // The repository's info/exclude.
    fs::create_dir_all(t.path().join(".git/info")).unwrap();
    fs::write(t.path().join(".git/info/exclude"), "f1.txt\n").unwrap();
    let text = pair.grep(&json!({"pattern": "src file", "output": "files"}));
    assert!(!text.contains("f1.txt"), "{text}");
    // An ignore file above the workdir, and the global excludes.
    t.write(".ignore", "f2.txt\n");
    let text = pair.grep(&json!({"pattern": "src file", "output": "files"}));
    assert!(!text.contains("f2.txt"), "{text}");
    fs::create_dir_all(t.home().join("git")).unwrap();
    fs::write(t.home().join("git/ignore"), "f0.txt\n").unwrap();
    let text = pair.grep(&json!({"pattern": "src file", "output": "files"}));
    assert!(text.starts_with("No matches"), "{text}");
    fs::write(t.home().join("git/ignore"), "").unwrap();
    finds(&mut pair, "src file", &["src/f0.txt"]);
    pair.finish();
}

#[test]
fn a_name_that_is_not_utf8_costs_nothing_and_is_found() {
    let t = TestDir::new();
    tree(&t, &["src"]);
    fs::write(
        t.path()
            .join("repo/src")
            .join(std::ffi::OsStr::from_bytes(b"caf\xe9.txt")),
        "latinword\n",
    )
    .unwrap();
    let mut pair = Pair::start(&t, "repo");
    pair.grep(&json!({"pattern": "latinword"}));
    pair.grep(&json!({"pattern": "src file 1"}));
    fs::write(
        t.path()
            .join("repo/src")
            .join(std::ffi::OsStr::from_bytes(b"caf\xe9.txt")),
        "latinword again\n",
    )
    .unwrap();
    pair.grep(&json!({"pattern": "latinword again"}));
    let why = pair.finish();
    assert_eq!(why.get("answered"), Some(&3), "{why:#?}");
}

/// Events lost while a build runs: the build read a file, the file then
/// changed while the kernel's queue overflowed, and the build is still
/// installed. The index must not serve what it read. The build waits
/// (a test seam in debug builds) until the test has changed the tree.
#[test]
fn events_lost_during_a_build_are_not_served_stale() {
    let t = TestDir::new();
    tree(&t, &["src", "flood"]);
    // Once events are lost, only a file's `lstat` vouches for what was
    // read, and not for a file changed less than 2 s before it was read
    // (its times may not tell a change in the same tick): the tree must
    // be older than that for the index to answer at all.
    std::thread::sleep(Duration::from_millis(2100));
    let marker = t.path().join("pause");
    let mut cmd = t.cmd_std_of(cargo_binary());
    cmd.env("DSH_SEARCH_TEST_INDEX_PAUSE", &marker)
        .env(crate::harness::INDEX_WAIT.0, "60000");
    cmd.args(["--cwd", "repo", "--explain", "mcp"]);
    let mut indexed = Server::spawn(cmd);
    let paused = marker.with_extension("paused");
    let until = Instant::now() + Duration::from_secs(60);
    while !paused.exists() {
        assert!(Instant::now() < until, "the build never paused");
        std::thread::sleep(Duration::from_millis(20));
    }
    // More events than the kernel queues, then the change that is lost.
    let queue: usize = fs::read_to_string("/proc/sys/fs/inotify/max_queued_events")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(16384);
    for i in 0..queue / 2 + 10 {
        fs::write(t.path().join(format!("repo/flood/n{i}")), "").unwrap();
    }
    fs::remove_dir_all(t.path().join("repo/flood")).unwrap();
    fs::write(t.path().join("repo/src/f0.txt"), "lostword\n").unwrap();
    fs::write(marker.with_extension("resume"), "").unwrap();
    indexed.send(&json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": LEGACY, "capabilities": {},
                   "clientInfo": {"name": "dsh-search-tests", "version": "0"}}
    }));
    indexed.reply_within(Duration::from_secs(90));
    let got = text_of(&indexed.tool(Era::Legacy, 1, "grep", json!({"pattern": "lostword"})));
    let mut scanning = session(
        t.cmd_std_of(cargo_binary()),
        &["--cwd", "repo", "--index", "off", "mcp"],
    );
    let want = text_of(&scanning.tool(Era::Legacy, 1, "grep", json!({"pattern": "lostword"})));
    assert_eq!(got, want);
    assert_eq!(want, "Found 1 match\n\nsrc/f0.txt\nLine 1: lostword");
    let (_, stderr) = indexed.finish();
    scanning.finish();
    assert!(
        stderr
            .lines()
            .any(|l| l.trim_start().starts_with("index:") && l.contains("answered")),
        "the index did not answer: {stderr}"
    );
}

/// The index's own rg (its check of the walk against `rg --files`) goes
/// with the index server (`dsh-search serve`) on SIGINT, SIGTERM and
/// SIGHUP, whatever it started.
#[test]
fn the_indexs_rg_goes_with_the_server_on_a_signal() {
    use crate::procs::{Sleepers, poll};
    for (n, signal) in [(311, "INT"), (312, "TERM"), (313, "HUP")] {
        let t = TestDir::new();
        t.write("src/a.txt", "needle\n");
        let marker = t.path().join("started");
        let sleepers = Sleepers::new(&t, &[n]);
        let rg = t.fake_rg(
            "fake/rg",
            &format!("{}: > '{}'\nwait", sleepers.script(""), marker.display()),
        );
        let mut cmd = t.cmd_std();
        cmd.args(["--rg", rg.to_str().unwrap(), "serve"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let what = crate::harness::describe_command(&cmd);
        let mut server = cmd.spawn().unwrap();
        assert!(
            poll(Duration::from_secs(20), || marker.exists()),
            "{what}: the index never ran its rg",
        );
        let tracked = sleepers.track();
        let sent = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &server.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let exited = poll(Duration::from_secs(20), || {
            server.try_wait().is_ok_and(|s| s.is_some())
        });
        if !exited {
            let _ = server.kill();
            let _ = server.wait();
        }
        assert!(exited, "{what} did not exit on SIG{signal}");
        tracked.assert_gone();
    }
}

/// Unmounts its directory when dropped (a failed test leaves no mount).
struct Unmount(std::path::PathBuf);

impl Drop for Unmount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

/// A file system mounted on a directory of the tree hides what the index
/// read there (and sends its watch nothing): the index must see the
/// mount. Root only (mount(8)); skipped, saying so, otherwise.
#[test]
fn a_file_system_mounted_in_the_tree_is_seen() {
    let t = TestDir::new();
    tree(&t, &["src", "mnt"]);
    let mut pair = Pair::start(&t, "repo");
    finds(&mut pair, "mnt file", &["mnt/f0.txt"]);
    let mnt = t.path().join("repo/mnt");
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "tmpfs"])
        .arg(&mnt)
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: cannot mount a tmpfs here (not root?)");
        return;
    }
    let unmount = Unmount(mnt.clone());
    fs::write(mnt.join("inside.txt"), "mountedword\n").unwrap();
    pair.grep(&json!({"pattern": "mnt file"}));
    finds(&mut pair, "mountedword", &["mnt/inside.txt"]);
    drop(unmount);
    finds(&mut pair, "mnt file", &["mnt/f0.txt"]);
    pair.finish();
}
