//! Helpers for tests that watch processes: bounded polls, background
//! sleepers a fake rg starts (found again by pid file and command line),
//! and a bounded wait for dsh-search itself. Every wait is a bounded poll,
//! never a guess; every process a test starts is killed on drop if the
//! test fails before dsh-search killed it.

use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command as StdCommand, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::harness::{TestDir, WAIT_LIMIT, describe_command};

/// How long a grandchild may take to disappear after dsh-search exits.
pub const GONE_WITHIN: Duration = Duration::from_secs(2);

/// Poll `done` every 10 ms until it holds or `limit` passes.
pub fn poll(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if done() {
            return true;
        }
        if start.elapsed() >= limit {
            return false;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// Background `sleep N` processes a fake rg starts, each writing its pid to
/// a file. Every long-lived process a fake rg starts is one of these, so a
/// failed test can clean up after itself: see [`Tracked`].
pub struct Sleepers {
    list: Vec<(PathBuf, u32)>,
}

impl Sleepers {
    /// One sleeper per entry of `seconds` (distinct numbers make each
    /// process recognisable by its command line).
    pub fn new(t: &TestDir, seconds: &[u32]) -> Self {
        Self {
            list: seconds
                .iter()
                .map(|&n| (t.path().join(format!("sleep-{n}.pid")), n))
                .collect(),
        }
    }

    /// Shell lines that start the sleepers in the background.
    pub fn script(&self, redirect: &str) -> String {
        let mut script = String::new();
        for (file, n) in &self.list {
            let _ = writeln!(
                script,
                "sleep {n}{redirect} & echo $! > '{}'",
                file.display()
            );
        }
        script
    }

    /// Look the sleepers up by their pid files. Call it right after the run,
    /// before any assertion, so a failed assertion still cleans up.
    pub fn track(&self) -> Tracked {
        let mut tracked = Tracked {
            found: Vec::new(),
            missing: Vec::new(),
        };
        for (file, n) in &self.list {
            let pid = fs::read_to_string(file)
                .ok()
                .and_then(|text| text.trim().parse().ok());
            match pid {
                Some(pid) => tracked.found.push(Grandchild {
                    pid,
                    cmdline: format!("sleep\0{n}\0").into_bytes(),
                }),
                None => tracked.missing.push(file.clone()),
            }
        }
        tracked
    }
}

/// The sleepers found after a run.
pub struct Tracked {
    found: Vec<Grandchild>,
    /// Pid files that were never written (complete once written: the fake rg
    /// writes each before it can be killed).
    missing: Vec<PathBuf>,
}

impl Tracked {
    /// Every sleeper was started, and each is gone within [`GONE_WITHIN`].
    #[track_caller]
    pub fn assert_gone(&self) {
        assert!(
            self.missing.is_empty(),
            "the fake rg wrote no pid to {:?}",
            self.missing
        );
        for g in &self.found {
            assert!(
                poll(GONE_WITHIN, || !g.alive()),
                "`sleep` (pid {}) started by the fake rg outlived dsh-search; /proc/{0}/stat: {}",
                g.pid,
                fs::read_to_string(format!("/proc/{}/stat", g.pid)).unwrap_or_default()
            );
        }
    }
}

/// One sleeper. On drop it is killed, by its pid, if it is still that sleep,
/// so a failed test leaves nothing behind.
pub struct Grandchild {
    pid: i32,
    cmdline: Vec<u8>,
}

impl Grandchild {
    /// Alive and still our sleep: not gone, not a zombie (one awaiting
    /// reaping by PID 1 counts as gone), not a reused pid.
    pub fn alive(&self) -> bool {
        let proc_dir = PathBuf::from(format!("/proc/{}", self.pid));
        let Ok(stat) = fs::read_to_string(proc_dir.join("stat")) else {
            return false;
        };
        // The state follows the parenthesised command name.
        let state = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .unwrap_or("");
        if state == "Z" || state == "X" {
            return false;
        }
        fs::read(proc_dir.join("cmdline")).is_ok_and(|c| c == self.cmdline)
    }
}

impl Drop for Grandchild {
    fn drop(&mut self) {
        if self.alive() {
            let _ = StdCommand::new("kill")
                .args(["-KILL", &self.pid.to_string()])
                .status();
        }
    }
}

/// Wait for `child` at most `limit`; kill it (by its own pid) and panic if it
/// is still running then. Returns its exit code and stdout.
pub fn wait_bounded(mut child: Child, limit: Duration) -> (ExitStatus, String) {
    let mut status = None;
    poll(limit, || {
        status = child.try_wait().expect("try_wait");
        status.is_some()
    });
    let Some(status) = status else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("dsh-search did not exit within {limit:?}");
    };
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout is piped")
        .read_to_string(&mut out)
        .expect("stdout is UTF-8");
    (status, out)
}

/// Start dsh-search (clean environment, as in the harness) on a fake rg that
/// starts a background sleep and a foreground one (`wait`), writes a
/// "started" marker, and waits; send `signal` once the marker exists; return
/// exit status and stdout once every sleeper is checked gone, and what ran
/// (for a failure message).
pub fn interrupt(
    signal: &str,
    fake_body_prefix: &str,
    seconds: u32,
) -> (ExitStatus, String, String) {
    let t = TestDir::new();
    let marker = t.path().join("started");
    let sleepers = Sleepers::new(&t, &[seconds, 300]);
    let rg = t.fake_rg(
        "fake/rg",
        &format!(
            "{fake_body_prefix}{}: > '{}'\nwait",
            sleepers.script(""),
            marker.display()
        ),
    );
    let path = std::env::var("PATH").unwrap_or_default();
    let mut cmd = StdCommand::new(crate::harness::binary());
    cmd.env_clear()
        .env("PATH", path)
        .env("HOME", t.path())
        .current_dir(t.path())
        .arg("--rg")
        .arg(&rg)
        .args(["grep", "x"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let what = describe_command(&cmd);
    let mut child = cmd.spawn().expect("dsh-search starts");
    let pid = child.id().to_string();
    if !poll(WAIT_LIMIT, || marker.exists()) {
        let _ = child.kill();
        let _ = child.wait();
        drop(sleepers.track());
        panic!("{what}: the fake rg never wrote its marker within {WAIT_LIMIT:?}");
    }
    let tracked = sleepers.track();
    let sent = StdCommand::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "{what}: kill -{signal} {pid} failed");
    let (status, out) = wait_bounded(child, WAIT_LIMIT);
    tracked.assert_gone();
    (status, out, what)
}
