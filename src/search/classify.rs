//! How a run that rg ended by itself stands, read by rg's own message
//! forms (SPEC §6). A run cut short (over the byte cap, past the deadline,
//! stopped by a signal) is its tool's to report: only the tool knows what
//! it had found by then.
//!
//! rg exits 0 with results, 1 with none, 2 on any error. Exit 2 means a
//! rejected pattern only when rg searched nothing at all (a pattern is
//! checked before the first file is opened, so rg printed nothing on
//! stdout, not even `--json`'s closing summary) AND its first message has
//! one of rg's pattern-error forms: `regex parse error:`, `error parsing
//! glob '<a glob we passed>'`, `the literal … is not allowed in a regex`,
//! a size limit. Per-path errors are `rg: <path>: <error>` lines that come
//! while rg searches; text inside a path (an unreadable file called
//! `regex parse error.txt`, a `.ignore` holding `a[`) never decides.

use super::report::{Coverage, Unsearched};
use crate::error::{Reason, Rejection, SearchError};
use crate::rg::process::Finished;
use crate::rg::{RgExit, Stderr};
use crate::settings::Settings;
use crate::tool::Tool;

/// rg's message when its filters left nothing to search.
const NOTHING_SEARCHED: &str = "No files were searched";
/// rg's errors when the given path cannot be searched at all.
#[cfg(unix)]
const TARGET_ERRORS: [&str; 3] = [
    "No such file or directory",
    "Permission denied",
    "Not a directory",
];
/// Windows words its errors in the user's language; their numbers are
/// the same everywhere: file not found, path not found, access denied,
/// not a directory (`ERROR_DIRECTORY`).
#[cfg(windows)]
const TARGET_ERRORS: [&str; 4] = [
    "(os error 2)",
    "(os error 3)",
    "(os error 5)",
    "(os error 267)",
];

/// What the search knows besides how rg ended.
#[derive(Debug, Clone, Copy, Default)]
pub struct Evidence<'a> {
    /// The sink kept something.
    pub has_results: bool,
    /// The first record the sink could not read.
    pub malformed: Option<&'a str>,
    /// A `type` filtered the files (grep).
    pub typed: bool,
}

/// SPEC §6: how a run of `tool` that rg ended by itself (`exit`) stands.
/// Exit 0 → results, 1 → empty, anything else an error, except exit 2
/// after results (some paths unsearched) or with nothing searched (empty).
pub fn classify(
    tool: Tool,
    settings: &Settings,
    exit: RgExit,
    run: &Finished,
    evidence: Evidence<'_>,
) -> Result<Coverage, SearchError> {
    let stderr = || run.stderr.excerpt();
    let fail = |reason| Err(SearchError::new(tool, reason));
    let code = match exit {
        RgExit::Signal(signal) => {
            return fail(Reason::RgKilled {
                signal,
                stderr: stderr(),
            });
        }
        RgExit::Status(code) => code,
    };
    if code == 2 && run.stdout_bytes == 0 {
        if let Some(rejection) = rejection(tool, &run.stderr) {
            let quoted = match rejection {
                // rg's own advice names its command-line flag (-U); the
                // advice names the argument (multiline): only rg's first
                // line is quoted.
                Rejection::LineBreak => run.stderr.first_line(),
                _ => stderr(),
            };
            return fail(Reason::PatternRejected {
                rejection,
                status: code,
                stderr: quoted,
            });
        }
    }
    if let (Some(detail), 0..=2) = (evidence.malformed, code) {
        return fail(Reason::MalformedOutput {
            detail: detail.to_owned(),
        });
    }
    match code {
        0 | 1 => Ok(Coverage::Complete),
        2 if evidence.has_results => Ok(Coverage::Unsearched(Unsearched {
            errors: run.stderr.messages.max(1),
            first_error: run.stderr.first_message(),
        })),
        2 if any_message_starts(&run.stderr, NOTHING_SEARCHED) => Ok(Coverage::NothingSearched {
            typed: evidence.typed,
        }),
        2 if TARGET_ERRORS.iter().any(|e| run.stderr.contains(e)) => fail(Reason::Target {
            status: code,
            stderr: stderr(),
        }),
        127 => fail(Reason::RgNotFound {
            rg: settings.rg.given.clone(),
            stderr: stderr(),
        }),
        126 => fail(Reason::RgNotExecutable {
            rg: settings.rg.given.clone(),
            stderr: stderr(),
        }),
        // A shell that did not `exec` rg reports its death as 128 + signal.
        129..=192 => fail(Reason::RgKilled {
            signal: code - 128,
            stderr: stderr(),
        }),
        _ => fail(Reason::RgFailed {
            status: code,
            stderr: stderr(),
        }),
    }
}

/// The file type rg did not know, when that is why it stopped: exit 2,
/// nothing printed, and `unrecognized file type: NAME` first (rg checks
/// its arguments before it searches).
pub fn unknown_type(exit: RgExit, run: &Finished) -> Option<String> {
    if exit != RgExit::Status(2) || run.stdout_bytes != 0 {
        return None;
    }
    let first = run.stderr.first_line();
    message(&first)
        .strip_prefix("unrecognized file type:")
        .map(|name| name.trim().to_owned())
}

/// A line of rg's stderr without rg 14's `rg: ` prefix (rg 13 has none).
fn message(line: &str) -> &str {
    let line = line.trim();
    line.strip_prefix("rg: ").unwrap_or(line)
}

/// Whether one of rg's messages as kept, its prefix removed, starts with `what`.
fn any_message_starts(stderr: &Stderr, what: &str) -> bool {
    stderr
        .excerpt()
        .lines()
        .any(|l| message(l).starts_with(what))
}

/// Which pattern rg rejected, if its first message says one was.
fn rejection(tool: Tool, stderr: &Stderr) -> Option<Rejection> {
    let first = stderr.first_line();
    let first = message(&first);
    if first == "regex parse error:" || first.starts_with("regex could not be compiled") {
        return Some(Rejection::RegexSyntax);
    }
    if first.starts_with("the literal ") && first.contains("is not allowed in a regex") {
        return Some(Rejection::LineBreak);
    }
    if first.contains("regex") && first.contains("size limit") {
        return Some(Rejection::RegexTooBig);
    }
    first.strip_prefix("error parsing glob '")?;
    // glob passes rg its pattern (and fixed excludes that always parse);
    // grep's only glob is the include.
    Some(match tool {
        Tool::Glob => Rejection::Glob,
        Tool::Grep => Rejection::Include,
    })
}
