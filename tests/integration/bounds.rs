//! Bounds that hold whatever the children do (SPEC §6): a grandchild that
//! escapes the process group and holds a pipe, glob's stat-and-sort phase
//! under a deadline or a signal, signals dsh-search does not otherwise
//! handle, SIGKILL, and an rg planted in the searched tree.
//!
//! Wall-time assertions are generous bounds (a 30 s process against a
//! 10 s limit), never races: each would take the full sleep if the bound
//! did not hold.

use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::harness::{
    INSTALL_WAYS, Ran, TestDir, WAIT_LIMIT, assert_out, describe_command, real_rg_path,
};
use crate::procs::{GONE_WITHIN, Sleepers, interrupt, poll, wait_bounded};

/// What "returns promptly" means here: far below the 30 s the strays live.
const PROMPT: Duration = Duration::from_secs(10);

/// Shell lines that start `sleep SECONDS` in a new process group (perl's
/// setpgrp, as portable as perl), holding stdout and stderr, and record its
/// pid in `pid_file` (perl execs sleep, so the pid is the sleep's).
fn escaped_sleep(seconds: u32, pid_file: &Path) -> String {
    format!(
        "perl -e 'setpgrp(0, 0); exec @ARGV' sleep {seconds} &\necho $! > '{}'\n",
        pid_file.display()
    )
}

/// A stray that leaves the session (setsid) and writes to stderr every
/// 50 ms, so it dies of SIGPIPE once dsh-search has closed the pipe.
fn escaped_writer(marker: &str, pid_file: &Path) -> String {
    format!(
        "perl -MPOSIX -e 'POSIX::setsid(); open(F, \">{}\"); print F $$; close(F); $0 = \"{marker}\"; $| = 1; while (1) {{ print STDERR \"tick\\n\"; select(undef, undef, undef, 0.05) }}' &\n",
        pid_file.display()
    )
}

/// Whether a process with `pid` (from `pid_file`) still runs under a
/// command line that starts with `name`.
fn running(pid_file: &Path, name: &str) -> bool {
    let Some(pid) = fs::read_to_string(pid_file)
        .ok()
        .and_then(|p| p.trim().parse::<u32>().ok())
    else {
        return false;
    };
    let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let state = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let zombie = state
        .rsplit_once(')')
        .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
    !zombie && cmdline.starts_with(name.as_bytes())
}

/// Kill the process in `pid_file` (a stray a test started on purpose).
fn kill_stray(pid_file: &Path) {
    if let Ok(pid) = fs::read_to_string(pid_file) {
        let _ = StdCommand::new("kill").args(["-KILL", pid.trim()]).status();
    }
}

fn fake(t: &TestDir, body: &str) -> String {
    t.fake_rg("fake/rg", body).to_string_lossy().into_owned()
}

// ------------------------------------------- strays that escape the group

#[test]
fn a_stray_outside_the_group_does_not_hold_a_finished_search() {
    // rg exits at once; one stray left the group and sleeps on with the
    // pipes open, another left the session and writes to stderr. Neither
    // is in the group, so neither is killed: the run ends anyway.
    let t = TestDir::new();
    let silent = t.path().join("silent.pid");
    let writer = t.path().join("writer.pid");
    let marker = "dsh-test-escaped-writer";
    let rg = fake(
        &t,
        &format!(
            "{}{}sleep 0.2\nexit 1",
            escaped_sleep(341, &silent),
            escaped_writer(marker, &writer)
        ),
    );
    let started = Instant::now();
    let out = t.cmd().args(["--rg", &rg, "grep", "x"]).output().unwrap();
    let took = started.elapsed();
    let writer_gone = poll(GONE_WITHIN, || !running(&writer, marker));
    kill_stray(&silent);
    kill_stray(&writer);
    assert_out(&out, 1, "No matches found\n");
    assert!(took < PROMPT, "{} took {took:?}", out.describe());
    assert!(
        writer_gone,
        "{}: the writer should die of SIGPIPE once the pipe is closed",
        out.describe()
    );
}

#[test]
fn a_stray_outside_the_group_does_not_extend_the_timeout() {
    let t = TestDir::new();
    let silent = t.path().join("silent.pid");
    let sleepers = Sleepers::new(&t, &[342]);
    let rg = fake(
        &t,
        &format!("{}{}wait", escaped_sleep(343, &silent), sleepers.script("")),
    );
    let started = Instant::now();
    let out = t
        .cmd()
        .args(["--rg", &rg, "--timeout-ms", "1000", "grep", "x"])
        .output()
        .unwrap();
    let took = started.elapsed();
    let tracked = sleepers.track();
    kill_stray(&silent);
    assert_out(
        &out,
        6,
        "Error: grep timed out after 1000ms; narrow pattern, path, or include and retry, or raise --timeout-ms.\n",
    );
    assert!(took < PROMPT, "{} took {took:?}", out.describe());
    tracked.assert_gone();
}

// ------------------------------------- glob's stat and sort obey the budget

/// A fake rg listing 9.9 million tiny paths (19.8 MB, under the 20 MB cap),
/// after `delay` seconds, then exiting.
fn huge_listing(t: &TestDir, delay: &str, pid_file: &Path) -> String {
    let names: Vec<u8> = (b'a'..=b'z').flat_map(|c| [c, 0]).collect();
    let listing = names.repeat(9_900_000 / 26);
    let file = t.write("fake/listing.bin", &listing);
    fake(
        t,
        &format!(
            "echo $$ > '{}'\nsleep {delay}\ncat '{}'",
            pid_file.display(),
            file.display()
        ),
    )
}

#[test]
fn glob_stat_and_sort_stop_at_the_deadline() {
    // rg finishes just before the deadline; stat'ing and sorting 9.9 million
    // paths takes seconds, and must stop when the deadline passes.
    let t = TestDir::new();
    let rg = huge_listing(&t, "0.8", &t.path().join("rg.pid"));
    for order in ["newest", "path"] {
        let started = Instant::now();
        let out = t
            .cmd()
            .args([
                "--rg",
                &rg,
                "--timeout-ms",
                "1000",
                "--glob-sort",
                order,
                "glob",
                "*",
            ])
            .output()
            .unwrap();
        let took = started.elapsed();
        assert_out(
            &out,
            6,
            "Error: glob timed out after 1000ms; narrow pattern or path and retry, or raise --timeout-ms.\n",
        );
        assert!(
            took < Duration::from_secs(3),
            "{} took {took:?}",
            out.describe()
        );
    }
}

#[test]
fn sigint_during_glob_stat_phase_stops_it() {
    let t = TestDir::new();
    let pid_file = t.path().join("rg.pid");
    let rg = huge_listing(&t, "0", &pid_file);
    let mut cmd = t.cmd_std();
    cmd.args(["--rg", &rg, "glob", "*"]).stdout(Stdio::piped());
    let what = describe_command(&cmd);
    let child = cmd.spawn().unwrap();
    // Once rg has exited and been reaped, dsh-search is stat'ing.
    let rg_done = poll(WAIT_LIMIT, || {
        fs::read_to_string(&pid_file)
            .ok()
            .and_then(|p| p.trim().parse::<u32>().ok())
            .is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists())
    });
    let sent = StdCommand::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let started = Instant::now();
    let (status, out) = wait_bounded(child, WAIT_LIMIT);
    let took = started.elapsed();
    assert!(
        rg_done && sent.success(),
        "{what}: rg did not end ({rg_done}) or kill -INT failed ({sent})"
    );
    assert_eq!(
        (status.code(), out.as_str()),
        (
            Some(6),
            "Error: glob was interrupted by SIGINT; the search was stopped.\n"
        ),
        "{what}, sent SIGINT in its stat phase"
    );
    assert!(took < Duration::from_secs(2), "{what} took {took:?}");
}

// ------------------------------------------------ signals that would kill

#[test]
fn fatal_signals_kill_the_group_then_dsh_search() {
    for (signal, number, seconds) in [
        ("QUIT", libc_signal::QUIT, 351),
        ("USR1", libc_signal::USR1, 352),
        ("USR2", libc_signal::USR2, 353),
        ("ALRM", libc_signal::ALRM, 354),
        ("XCPU", libc_signal::XCPU, 355),
    ] {
        let (status, out, what) = interrupt(signal, "", seconds);
        assert_eq!(
            (status.signal(), out.as_str()),
            (Some(number), ""),
            "{what}, sent SIG{signal}: dsh-search dies by the signal, after its group"
        );
    }
}

/// Signal numbers, from the one crate the tests share with the binary.
mod libc_signal {
    use rustix::process::Signal;
    pub const QUIT: i32 = Signal::QUIT.as_raw();
    pub const USR1: i32 = Signal::USR1.as_raw();
    pub const USR2: i32 = Signal::USR2.as_raw();
    pub const ALRM: i32 = Signal::ALARM.as_raw();
    pub const XCPU: i32 = Signal::XCPU.as_raw();
}

#[test]
fn sigpipe_is_ignored_and_the_search_completes() {
    // The Rust runtime ignores SIGPIPE (a closed stdout is EPIPE on write):
    // `kill -PIPE` changes nothing, and the group still goes at the end.
    let t = TestDir::new();
    let marker = t.path().join("started");
    let sleepers = Sleepers::new(&t, &[356]);
    let rg = fake(
        &t,
        &format!(
            "{}: > '{}'\nsleep 1\nexit 1",
            sleepers.script(" >/dev/null 2>&1"),
            marker.display()
        ),
    );
    let mut cmd = t.cmd_std();
    cmd.args(["--rg", &rg, "grep", "x"]).stdout(Stdio::piped());
    let what = describe_command(&cmd);
    let child = cmd.spawn().unwrap();
    assert!(
        poll(WAIT_LIMIT, || marker.exists()),
        "{what}: the fake rg never started"
    );
    let tracked = sleepers.track();
    let sent = StdCommand::new("kill")
        .args(["-PIPE", &child.id().to_string()])
        .status()
        .unwrap();
    let (status, out) = wait_bounded(child, WAIT_LIMIT);
    assert!(sent.success(), "{what}: kill -PIPE failed: {sent}");
    assert_eq!(
        (status.code(), out.as_str()),
        (Some(1), "No matches found\n"),
        "{what}, sent SIGPIPE"
    );
    tracked.assert_gone();
}

/// `kill -9` leaves no handler to run: on Linux and FreeBSD the OS sends
/// rg SIGKILL itself (a parent-death signal). rg is sh's `exec`, as with
/// the real rg.
#[cfg(any(target_os = "linux", target_os = "freebsd"))]
fn sigkill_takes_rg_along(args: &[&str], stdin: &[u8]) {
    use std::io::Write as _;

    let t = TestDir::new();
    let marker = t.path().join("started");
    let pid_file = t.path().join("rg.pid");
    let rg = fake(
        &t,
        &format!(
            "echo $$ > '{}'\n: > '{}'\nexec sleep 357",
            pid_file.display(),
            marker.display()
        ),
    );
    let mut cmd = t.cmd_std();
    cmd.arg("--rg")
        .arg(&rg)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let what = describe_command(&cmd);
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    let started = poll(WAIT_LIMIT, || marker.exists());
    child.kill().unwrap();
    let _ = child.wait();
    let gone = poll(GONE_WITHIN, || !running(&pid_file, "sleep"));
    kill_stray(&pid_file);
    drop(input);
    assert!(started, "{what}: the fake rg never started");
    assert!(gone, "{what}: rg outlived dsh-search, SIGKILLed");
}

#[cfg(any(target_os = "linux", target_os = "freebsd"))]
#[test]
fn sigkill_of_a_grep_takes_rg_along() {
    sigkill_takes_rg_along(&["grep", "x"], b"");
}

#[cfg(any(target_os = "linux", target_os = "freebsd"))]
#[test]
fn sigkill_of_the_mcp_server_mid_call_takes_rg_along() {
    let session = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"grep","arguments":{"pattern":"x"}}}"#,
        "\n"
    );
    // No index server: its check of the walk would run this rg first.
    sigkill_takes_rg_along(&["--index", "off", "mcp"], session.as_bytes());
}

// ---------------------------------------------------- which rg is run

/// A workdir holding planted `rg` executables (at `./rg` and `bin/rg`) that
/// leave a marker if they are ever run.
fn planted_repo(t: &TestDir) -> (std::path::PathBuf, std::path::PathBuf) {
    let repo = t.mkdir("repo");
    let marker = t.path().join("planted-rg-ran");
    for at in ["repo/rg", "repo/bin/rg"] {
        t.fake_rg(at, &format!(": > '{}'\nexit 0", marker.display()));
    }
    t.write("repo/a.txt", "needle\n");
    (repo, marker)
}

#[test]
fn a_relative_rg_is_the_callers_not_the_workdirs() {
    let t = TestDir::new();
    let (repo, marker) = planted_repo(&t);
    let caller = t.mkdir("caller");
    let repo = repo.to_string_lossy().into_owned();
    // No rg beside the caller: an error naming the caller's path.
    let out = t
        .cmd()
        .current_dir(&caller)
        .args(["--cwd", &repo, "--rg", "./rg", "grep", "needle"])
        .output()
        .unwrap();
    assert_out(
        &out,
        4,
        &format!(
            "Error: grep requires ripgrep (rg), but {}/rg does not exist. Install ripgrep ({INSTALL_WAYS}) or point --rg / DSH_SEARCH_RG at the rg executable.\n",
            caller.display()
        ),
    );
    // An rg beside the caller (here a wrapper around the real one) runs.
    t.fake_rg("caller/rg", &format!("exec '{}' \"$@\"", real_rg_path()));
    let out = t
        .cmd()
        .current_dir(&caller)
        .args(["--cwd", &repo, "--rg", "./rg", "grep", "needle"])
        .output()
        .unwrap();
    assert_out(&out, 0, "Found 1 match\n\na.txt\nLine 1: needle\n");
    assert!(!marker.exists(), "the rg planted in the workdir ran");
}

#[test]
fn path_lookup_skips_empty_and_relative_entries() {
    let t = TestDir::new();
    let (repo, marker) = planted_repo(&t);
    let real_dir = Path::new(&real_rg_path()).parent().unwrap().to_owned();
    // Each of "", "." and "bin" would name the workdir once sh runs there.
    let path = format!(":.:bin:{}", real_dir.display());
    let out = t
        .cmd()
        .env("PATH", &path)
        .env_remove("DSH_SEARCH_RG")
        .args([
            "--cwd",
            &repo.to_string_lossy(),
            "--explain",
            "grep",
            "needle",
        ])
        .output()
        .unwrap();
    assert_out(&out, 0, "Found 1 match\n\na.txt\nLine 1: needle\n");
    assert!(
        !marker.exists(),
        "an rg planted in the workdir ran through PATH"
    );
    let explain = String::from_utf8_lossy(&out.stderr);
    let rg_line = format!("  rg:       rg → {}/rg (", real_dir.display());
    assert!(
        explain
            .lines()
            .any(|l| l.starts_with(&rg_line) && l.ends_with("), from PATH")),
        "{out:?}"
    );
    assert!(
        explain.contains(&format!(
            "  sh -c:    exec '{}/rg' --no-config",
            real_dir.display()
        )),
        "{out:?}"
    );
}

/// An install's layout (the wheel's venv `bin/`, a release archive):
/// a copy of the binary under test with an rg beside it that records each
/// run in `marker` and then runs the real rg.
fn install_with_rg(t: &TestDir, marker: &Path) -> std::path::PathBuf {
    let bin = t.mkdir("install/bin");
    let exe = bin.join("dsh-search");
    fs::copy(crate::harness::binary(), &exe).unwrap();
    t.fake_rg(
        "install/bin/rg",
        &format!(
            "echo ran >> '{}'\nexec '{}' \"$@\"",
            marker.display(),
            real_rg_path()
        ),
    );
    exe
}

/// `exe --explain grep needle` in `repo`, with only `path` as PATH and,
/// when given, `DSH_SEARCH_RG`; the environment is otherwise empty.
fn run_installed(exe: &Path, path: &str, rg: Option<&str>, repo: &str) -> Ran {
    let mut cmd = StdCommand::new(exe);
    cmd.env_clear().env("PATH", path).stdin(Stdio::null());
    if let Some(rg) = rg {
        cmd.env("DSH_SEARCH_RG", rg);
    }
    let output = cmd
        .args(["--cwd", repo, "--explain", "grep", "needle"])
        .output()
        .unwrap();
    Ran {
        output,
        command: format!("{} --cwd {repo} --explain grep needle", exe.display()),
        envs: format!("only PATH={path} DSH_SEARCH_RG={rg:?}"),
        cwd: std::env::current_dir().unwrap(),
        uid: None,
    }
}

#[test]
fn the_rg_beside_dsh_search_comes_before_path_and_after_rg_options() {
    let t = TestDir::new();
    let (repo, planted) = planted_repo(&t);
    let marker = t.path().join("beside-rg-ran");
    let exe = install_with_rg(&t, &marker);
    // PATH holds another rg, which must not run while one is beside.
    let other = t.path().join("other-rg-ran");
    t.fake_rg("path/rg", &format!(": > '{}'\nexit 2", other.display()));
    let path = t.path().join("path").to_string_lossy().into_owned();
    // pipx puts a symlink on PATH; the rg beside its target is the one.
    std::os::unix::fs::symlink(&exe, t.path().join("path/dsh-search")).unwrap();
    let repo = repo.to_string_lossy().into_owned();
    for exe in [exe.clone(), t.path().join("path/dsh-search")] {
        let out = run_installed(&exe, &path, None, &repo);
        assert_out(&out, 0, "Found 1 match\n\na.txt\nLine 1: needle\n");
        let explain = String::from_utf8_lossy(&out.stderr);
        let beside = t.path().join("install/bin/rg");
        let beside = fs::canonicalize(&beside).unwrap();
        assert!(
            explain.lines().any(|l| l
                .starts_with(&format!("  rg:       rg → {} (ripgrep ", beside.display()))
                && l.ends_with("), beside dsh-search")),
            "{out:?}"
        );
    }
    assert!(marker.exists(), "the rg beside dsh-search did not run");
    assert!(!other.exists(), "PATH's rg ran though one was beside");
    assert!(!planted.exists(), "the rg planted in the workdir ran");
    // --rg (or DSH_SEARCH_RG) with a path wins over the one beside.
    fs::remove_file(&marker).unwrap();
    let out = run_installed(&exe, &path, Some(&real_rg_path()), &repo);
    assert_out(&out, 0, "Found 1 match\n\na.txt\nLine 1: needle\n");
    let explain = String::from_utf8_lossy(&out.stderr);
    assert!(
        explain.lines().any(
            |l| l.starts_with(&format!("  rg:       {} (", real_rg_path()))
                && l.ends_with("), from --rg/DSH_SEARCH_RG")
        ),
        "{out:?}"
    );
    assert!(
        !marker.exists(),
        "the rg beside ran though --rg named another"
    );
}

#[test]
fn a_signal_while_call_waits_for_its_arguments_ends_it() {
    // stdin stays open and empty: `call` is still reading its arguments,
    // no search has started, and SIGTERM keeps its default action.
    let t = TestDir::new();
    let mut cmd = t.cmd_std();
    cmd.args(["call", "grep", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let what = describe_command(&cmd);
    let mut child = cmd.spawn().unwrap();
    // Whenever it lands (before main, or in the read), the default action
    // ends the process.
    let input = child.stdin.take();
    let sent = StdCommand::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let (status, out) = wait_bounded(child, WAIT_LIMIT);
    drop(input);
    assert!(sent.success(), "{what}: kill -TERM failed: {sent}");
    assert_eq!(
        (status.signal(), out.as_str()),
        (Some(15), ""),
        "{what}, sent SIGTERM"
    );
}
