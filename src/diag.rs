//! Diagnostics on stderr that can never break a call.
//!
//! stderr is for people (`--explain`, the MCP server's notes). When it is
//! closed, full (`2>/dev/full`) or a pipe nobody reads, a write error must
//! not panic, and must not change stdout or the exit code (SPEC §6
//! "Output"): `eprint!` would panic, so nothing in dsh-search uses it.

use std::io::{self, Write};

use crate::error::{ErrorCode, Exit};

/// Write `text` to stderr as is; any error is dropped.
pub fn write(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// Write `line` and a newline to stderr; any error is dropped.
pub fn note(line: &str) {
    write(&format!("{line}\n"));
}

/// How a call that meant to end with `exit` ends after writing its result
/// to stdout failed with `error`, if it did (SPEC §6 "Output"): a reader
/// that went away (EPIPE, `| head`) ends it quietly with `exit`; any other
/// failure (`>/dev/full`, EIO) is exit 4 with a note from `who` on
/// stderr, never a success with the result lost.
pub fn after_stdout(who: &str, error: Option<&io::Error>, exit: Exit) -> Exit {
    match error {
        None => exit,
        Some(e) if e.kind() == io::ErrorKind::BrokenPipe => exit,
        Some(e) => {
            note(&format!("{who}: cannot write to stdout: {e}"));
            Exit::Failed(ErrorCode::SearchFailed)
        }
    }
}
