//! How rg ended, read by rg's own message forms (SPEC §6).
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

use std::os::unix::process::ExitStatusExt;

use super::report::Partial;
use crate::error::{Kind, Rejection, SearchError};
use crate::request::Request;
use crate::rg::run::{End, RawRun, Stderr};
use crate::settings::Settings;

/// How a run that produced output should be reported.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Complete,
    NothingSearched,
    Partial(Partial),
}

/// rg's message when its filters left nothing to search.
const NOTHING_SEARCHED: &str = "No files were searched";
/// rg's errors when the given path cannot be searched at all.
const TARGET_ERRORS: [&str; 3] = [
    "No such file or directory",
    "Permission denied",
    "Not a directory",
];

/// SPEC §6: rg exit 0 → results, 1 → empty, anything else an error, except
/// exit 2 after results (partial) or with nothing searched (empty).
pub fn classify(
    request: &Request,
    settings: &Settings,
    raw: &RawRun,
    has_results: bool,
    malformed: Option<&str>,
) -> Result<Verdict, SearchError> {
    let tool = request.tool();
    let status = match raw.end {
        End::Halted(halt) => return Err(super::halted(tool, halt, settings)),
        End::Overflow => {
            return Err(SearchError::new(
                tool,
                Kind::RawOutputOverflow {
                    cap: settings.limits.raw_output_max_bytes,
                    heavy: Vec::new(),
                    narrow: tool.narrow_advice(),
                },
            ));
        }
        End::Exited(status) => status,
    };
    let stderr = || raw.stderr.excerpt();
    if let Some(signal) = status.signal() {
        return Err(SearchError::new(
            tool,
            Kind::RgKilled {
                signal,
                stderr: stderr(),
            },
        ));
    }
    let code = status.code().unwrap_or(-1);
    if code == 2 && raw.stdout_bytes == 0 {
        if let Some(rejection) = rejection(request, &raw.stderr) {
            let quoted = match rejection {
                // rg's own advice (--multiline) names a flag dsh-search
                // does not have: only its first line is quoted.
                Rejection::LineBreak => raw.stderr.first_line(),
                _ => stderr(),
            };
            return Err(SearchError::new(
                tool,
                Kind::PatternRejected {
                    rejection,
                    status: code,
                    stderr: quoted,
                },
            ));
        }
    }
    if let Some(detail) = malformed {
        if matches!(code, 0..=2) {
            return Err(SearchError::new(
                tool,
                Kind::MalformedOutput {
                    detail: detail.to_owned(),
                },
            ));
        }
    }
    match code {
        0 | 1 => Ok(Verdict::Complete),
        2 if has_results => Ok(Verdict::Partial(Partial {
            paths: raw.stderr.lines.max(1),
            first_error: raw.stderr.first_line(),
        })),
        2 if any_message_starts(&raw.stderr, NOTHING_SEARCHED) => Ok(Verdict::NothingSearched),
        2 if TARGET_ERRORS.iter().any(|e| raw.stderr.contains(e)) => Err(SearchError::new(
            tool,
            Kind::Target {
                status: code,
                stderr: stderr(),
            },
        )),
        127 => Err(SearchError::new(
            tool,
            Kind::RgNotFound {
                rg: settings.rg.given.clone(),
                stderr: stderr(),
            },
        )),
        126 => Err(SearchError::new(
            tool,
            Kind::RgNotExecutable {
                rg: settings.rg.given.clone(),
                stderr: stderr(),
            },
        )),
        // A shell that did not `exec` rg reports its death as 128 + signal.
        129..=192 => Err(SearchError::new(
            tool,
            Kind::RgKilled {
                signal: code - 128,
                stderr: stderr(),
            },
        )),
        _ => Err(SearchError::new(
            tool,
            Kind::RgFailed {
                status: code,
                stderr: stderr(),
            },
        )),
    }
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
fn rejection(request: &Request, stderr: &Stderr) -> Option<Rejection> {
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
    Some(match request {
        Request::Glob(_) => Rejection::Glob,
        Request::Grep(_) => Rejection::Include,
    })
}
