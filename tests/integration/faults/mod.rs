//! Fault injection: the binary pointed at fake rgs (and, where real rg can
//! show the fault, at real rg) that misbehave one way each: the fake-rg
//! program with a plan on every OS, shell scripts where only a shell shows
//! the fault (Unix). Every test asserts the exit code of SPEC §6 and stdout
//! exactly, except where the message quotes stderr that is not ours.
//!
//! Tests that start background processes check afterwards that those are
//! gone (absent, or a zombie awaiting reaping by PID 1): the runner must kill
//! rg's whole process group. Every wait is a bounded poll, never a guess.

use crate::harness::{Ran, TestDir};

mod exits;
mod floods;
mod given;
// Unix only: shell sleepers and signals (Windows: tests/integration/windows.rs).
#[cfg(unix)]
mod halts;
mod malformed;
mod patterns;
mod rg_missing;
mod start;

/// Write a fake rg script at `fake/rg` with `body` and return its absolute path.
#[cfg(unix)]
fn fake(t: &TestDir, body: &str) -> String {
    t.fake_rg("fake/rg", body).to_string_lossy().into_owned()
}

/// A fake rg at `fake/rg` that follows `plan`, and its absolute path.
fn planned(t: &TestDir, plan: &str) -> String {
    t.fake_rg_plan("fake/rg", plan)
        .to_string_lossy()
        .into_owned()
}

/// A fake rg that prints `out` on stdout and `err` on stderr (both from
/// files, so any bytes pass unquoted) and exits with `code`.
fn scripted(t: &TestDir, out: &[u8], err: &[u8], code: i32) -> String {
    let out_file = t.write("fake/stdout.bin", out);
    let err_file = t.write("fake/stderr.bin", err);
    planned(
        t,
        &format!(
            "stdout {}\nstderr {}\nexit {code}",
            out_file.display(),
            err_file.display()
        ),
    )
}

/// Run the binary with `--rg <rg>` followed by `args`.
fn run_with(t: &TestDir, rg: &str, args: &[&str]) -> Ran {
    t.cmd()
        .arg("--rg")
        .arg(rg)
        .args(args)
        .output()
        .expect("dsh-search runs")
}

/// One `rg --json` match record with text path and line.
fn match_record(path: &str, line_number: u64, line: &str) -> String {
    serde_json::json!({
        "type": "match",
        "data": {
            "path": {"text": path},
            "lines": {"text": format!("{line}\n")},
            "line_number": line_number,
            "absolute_offset": 0,
            "submatches": [{"match": {"text": "x"}, "start": 0, "end": 1}],
        }
    })
    .to_string()
}
