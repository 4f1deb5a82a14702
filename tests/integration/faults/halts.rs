//! Timeouts and signals: the whole process group killed, no orphans, the
//! error of SPEC §6 (exit 6), whatever rg does with its pipes.

use super::*;
use crate::harness::assert_out;
use crate::procs::{Sleepers, interrupt};

#[cfg(unix)]
const GREP_TIMEOUT_300: &str = "Error: grep timed out after 300ms; narrow pattern, path, or include and retry, or raise --timeout-ms.\n";

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn hang_past_the_timeout_kills_the_group() {
    // A background grandchild and rg itself asleep in the foreground (`wait`).
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[301, 300]);
    let rg = fake(&t, &format!("{}wait", sleepers.script("")));
    let out = run_with(&t, &rg, &["--timeout-ms", "300", "grep", "x"]);
    let tracked = sleepers.track();
    assert_out(&out, 6, GREP_TIMEOUT_300);
    tracked.assert_gone();
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn glob_hang_past_the_timeout() {
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[307]);
    let rg = fake(&t, &format!("printf 'a\\0'\n{}wait", sleepers.script("")));
    let out = run_with(&t, &rg, &["--timeout-ms", "300", "glob", "*"]);
    let tracked = sleepers.track();
    assert_out(
        &out,
        6,
        "Error: glob timed out after 300ms; showing what was found in that time (incomplete, in path order); narrow pattern or path and retry, or raise --timeout-ms.\n\na\n",
    );
    tracked.assert_gone();
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn hang_with_closed_pipes_still_times_out() {
    // rg closes stdout and stderr but keeps running: no pipe event comes,
    // and the deadline still ends the run.
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[305]);
    let rg = fake(
        &t,
        &format!("exec >/dev/null 2>&1\n{}wait", sleepers.script("")),
    );
    let out = t
        .cmd()
        .args(["--rg", &rg, "--timeout-ms", "300", "grep", "x"])
        .output()
        .expect("dsh-search runs");
    let tracked = sleepers.track();
    assert_out(&out, 6, GREP_TIMEOUT_300);
    tracked.assert_gone();
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn grandchild_outliving_a_clean_exit_is_killed() {
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[302]);
    let rg = fake(
        &t,
        &format!("{}exit 1", sleepers.script(" >/dev/null 2>&1")),
    );
    let out = run_with(&t, &rg, &["grep", "x"]);
    let tracked = sleepers.track();
    assert_out(&out, 1, "No matches found\n");
    tracked.assert_gone();
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn grandchild_holding_stdout_open_does_not_hold_the_search() {
    // sh (and the fake rg) exit 0 at once, but the background sleep inherits
    // the stdout and stderr pipes, so no end-of-file comes by itself. The
    // runner learns of sh's exit, kills what is left of the group (the
    // sleep), drains the pipes and reports rg's own status, long before the
    // deadline.
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[303]);
    let rg = fake(&t, &format!("{}exit 0", sleepers.script("")));
    let out = run_with(&t, &rg, &["--timeout-ms", "25000", "grep", "x"]);
    let tracked = sleepers.track();
    assert_out(&out, 1, "No matches found\n");
    tracked.assert_gone();
}

// ------------------------------------------------- signals to dsh-search

// Unix only: signals (Windows: console events in tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn sigterm_sigint_sighup_stop_the_search() {
    for (signal, seconds) in [("TERM", 311), ("INT", 312), ("HUP", 313)] {
        let (status, out, what) = interrupt(signal, "", seconds);
        let code = status.code();
        assert_eq!(
            (code, out.as_str()),
            (
                Some(6),
                format!("Error: grep was interrupted by SIG{signal}; the search was stopped.\n")
                    .as_str()
            ),
            "{what}, sent SIG{signal}"
        );
    }
}

/// rg closed stdout and stderr but still runs: a signal still stops it.
// Unix only: signals (Windows: console events in tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn sigterm_after_rg_closed_its_pipes_stops_the_search() {
    let (status, out, what) = interrupt("TERM", "exec >/dev/null 2>&1\n", 314);
    let code = status.code();
    assert_eq!(
        (code, out.as_str()),
        (
            Some(6),
            "Error: grep was interrupted by SIGTERM; the search was stopped.\n"
        ),
        "{what}, sent SIGTERM"
    );
}
