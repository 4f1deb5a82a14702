//! Diagnostics on stderr that can never break a call.
//!
//! stderr is for people (`--explain`, the MCP server's notes). When it is
//! closed, full (`2>/dev/full`) or a pipe nobody reads, a write error must
//! not panic, and must not change stdout or the exit code (SPEC §6
//! "Output"): `eprint!` would panic, so nothing in dsh-search uses it.

use std::io::Write;

/// Write `text` to stderr as is; any error is dropped.
pub fn write(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// Write `line` and a newline to stderr; any error is dropped.
pub fn note(line: &str) {
    write(&format!("{line}\n"));
}
