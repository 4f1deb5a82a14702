//! Typed errors and the one exit-code table (SPEC §6).
//!
//! Only this file knows exit numbers and the JSON `error.code` strings; every
//! other module produces a variant and asks it for its [`ErrorCode`].

use std::fmt::{self, Write as _};
use std::num::NonZeroU64;
use std::path::PathBuf;

use crate::escape::{escape_lines, escape_path};
use crate::locate::RgMissing;
use crate::stop::{self, Halt};
use crate::tool::Tool;

/// How the process ends (SPEC §6). The numbers live here and nowhere else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Exit {
    /// Results, or a command that did what it was asked (exit 0).
    Success,
    /// A search that ran cleanly and found nothing (exit 1).
    Empty,
    /// A failure of this class (exit 2–6).
    Failed(ErrorCode),
    /// A command that is not a search could not do its work (exit 4).
    Fault(Fault),
}

/// A failure that is no tool call's: nothing was asked of rg, or what it
/// found could not be delivered. Each case is named here, and none has a
/// JSON `error.code`: nothing reaches stdout, a note on stderr says what
/// failed. The exit is 4, the status of a search that could not run (SPEC
/// §6): a caller that reads only the status sees the command fail without
/// a result, as it would there, and 2 (the caller's mistake) or 6 (a time
/// or a signal) would say something false.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Fault {
    /// stdout could not be written (not a reader gone: SPEC §6 "Output";
    /// the MCP server's, §9).
    WriteOutput,
    /// A server could not start serving: `serve` (no watcher here, or
    /// its tree's lock, socket or workdir, §11), or `mcp` (its reader
    /// thread).
    Serve,
    /// `generate` could not write the man pages and completions.
    Generate,
}

impl Exit {
    pub fn code(self) -> u8 {
        match self {
            Self::Success => 0,
            Self::Empty => 1,
            Self::Failed(code) => code.exit_code(),
            Self::Fault(Fault::WriteOutput | Fault::Serve | Fault::Generate) => 4,
        }
    }

    /// What the status means, for `--help`, which lists a search's
    /// statuses (a fault shares 4 with a search that failed).
    fn meaning(self) -> &'static str {
        match self {
            Self::Success => "results",
            Self::Empty => "nothing found",
            Self::Failed(ErrorCode::InvalidArgument) => "usage or argument error",
            Self::Failed(ErrorCode::SearchInvalidPattern) => "pattern rejected by ripgrep",
            Self::Failed(ErrorCode::SearchFailed) => "search failed",
            Self::Failed(ErrorCode::SearchRawOutputOverflow) => "raw output over the cap",
            Self::Failed(ErrorCode::SearchAborted) => "timed out or interrupted",
            Self::Fault(Fault::WriteOutput | Fault::Serve | Fault::Generate) => "failed",
        }
    }
}

/// `--help`'s exit status paragraph, from the table above, wrapped at 78
/// columns.
pub fn exit_status_help() -> String {
    let items = [Exit::Success, Exit::Empty]
        .into_iter()
        .chain(ErrorCode::ALL.map(Exit::Failed))
        .map(|exit| format!("{} {}", exit.code(), exit.meaning()));
    let mut lines = vec!["Exit status:".to_owned()];
    let count = 2 + ErrorCode::ALL.len();
    for (i, item) in items.enumerate() {
        let item = if i + 1 == count {
            format!("{item}.")
        } else {
            format!("{item},")
        };
        let last = lines.last_mut().map_or(0, |l| l.len());
        if last + 1 + item.len() > 78 {
            lines.push(item);
        } else if let Some(line) = lines.last_mut() {
            line.push(' ');
            line.push_str(&item);
        }
    }
    lines.join("\n")
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        Self::from(exit.code())
    }
}

/// The failure classes of SPEC §6, one per exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ErrorCode {
    InvalidArgument,
    SearchInvalidPattern,
    SearchFailed,
    SearchRawOutputOverflow,
    SearchAborted,
}

impl ErrorCode {
    pub const ALL: [Self; 5] = [
        Self::InvalidArgument,
        Self::SearchInvalidPattern,
        Self::SearchFailed,
        Self::SearchRawOutputOverflow,
        Self::SearchAborted,
    ];

    /// The JSON `error.code` string.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidArgument => "INVALID_ARGUMENT",
            Self::SearchInvalidPattern => "SEARCH_INVALID_PATTERN",
            Self::SearchFailed => "SEARCH_FAILED",
            Self::SearchRawOutputOverflow => "SEARCH_RAW_OUTPUT_OVERFLOW",
            Self::SearchAborted => "SEARCH_ABORTED",
        }
    }

    /// The process exit status.
    pub fn exit_code(self) -> u8 {
        match self {
            Self::InvalidArgument => 2,
            Self::SearchInvalidPattern => 3,
            Self::SearchFailed => 4,
            Self::SearchRawOutputOverflow => 5,
            Self::SearchAborted => 6,
        }
    }

    /// The JSON `error.name`: argument mistakes and search failures are
    /// different kinds of error for a caller.
    pub fn name(self) -> &'static str {
        match self {
            Self::InvalidArgument => "ArgumentError",
            Self::SearchInvalidPattern
            | Self::SearchFailed
            | Self::SearchRawOutputOverflow
            | Self::SearchAborted => "SearchError",
        }
    }
}

/// Every way one tool call can fail.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line itself was rejected (clap's words).
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Argument(#[from] ArgumentError),
    #[error(transparent)]
    Search(#[from] SearchError),
}

impl Error {
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::Usage(_) | Self::Argument(_) => ErrorCode::InvalidArgument,
            Self::Search(e) => e.reason.code(),
        }
    }

    /// The argument at fault, when one is.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::Argument(e) => Some(e.field),
            Self::Usage(_) | Self::Search(_) => None,
        }
    }
}

/// A model mistake in the arguments of a call (SPEC §3). `field` names the
/// argument so a front-end can point at it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ArgumentError {
    pub field: &'static str,
    pub message: String,
}

impl ArgumentError {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        Self {
            field,
            message: message.into(),
        }
    }
}

/// A search that could not produce a trustworthy result: which tool, and
/// why. Complete when made: nothing fills in a field later. Every message
/// starts with the tool's name and says what to do.
#[derive(Debug)]
pub struct SearchError {
    tool: Tool,
    reason: Reason,
}

impl SearchError {
    pub fn new(tool: Tool, reason: Reason) -> Self {
        Self { tool, reason }
    }

    /// The error of a search that `halt` stopped; a timed-out one says
    /// what its page shows (SPEC §4a).
    pub fn halted(tool: Tool, halt: Halt, timeout_ms: NonZeroU64, page: TimeoutPage) -> Self {
        let reason = match halt {
            Halt::TimedOut => Reason::TimedOut {
                ms: timeout_ms,
                page,
            },
            Halt::Signal(signal) => Reason::Interrupted {
                signal: stop::signal_name(signal),
            },
            Halt::Cancelled => Reason::Cancelled,
        };
        Self { tool, reason }
    }

    pub fn reason(&self) -> &Reason {
        &self.reason
    }
}

impl std::error::Error for SearchError {}

/// Why a search failed. `stderr` fields hold rg's standard error already
/// trimmed and bounded by the runner, so messages stay a few KiB at most.
#[derive(Debug)]
pub enum Reason {
    PatternRejected {
        rejection: Rejection,
        status: i32,
        stderr: String,
    },
    RgNotFound {
        rg: String,
        stderr: String,
    },
    RgMissing {
        given: String,
        problem: RgMissing,
    },
    RgNotExecutable {
        rg: String,
        stderr: String,
    },
    Workdir {
        workdir: PathBuf,
        problem: String,
    },
    CommandTooLong {
        bytes: usize,
    },
    Target {
        status: i32,
        stderr: String,
    },
    SpawnFailed {
        workdir: PathBuf,
        reason: String,
    },
    RgKilled {
        signal: i32,
        stderr: String,
    },
    RgFailed {
        status: i32,
        stderr: String,
    },
    MalformedOutput {
        detail: String,
    },
    RawOutputOverflow {
        cap: u64,
        /// The files that produced most of the output, with their share in
        /// percent, largest first (grep; empty when no file stands out).
        heavy: Vec<(String, u8)>,
    },
    TimedOut {
        ms: NonZeroU64,
        page: TimeoutPage,
    },
    Interrupted {
        signal: &'static str,
    },
    Cancelled,
}

/// What a timed-out search shows after its error line (SPEC §4a).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutPage {
    /// rg had printed nothing usable.
    Nothing,
    /// The results follow, ordered as usual and marked incomplete.
    Ordered,
    /// A glob's paths follow in path order, marked incomplete: the deadline
    /// left no time to stat them for `--glob-sort newest|oldest`.
    InPathOrder,
}

impl Reason {
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::PatternRejected { .. } => ErrorCode::SearchInvalidPattern,
            Self::RgNotFound { .. }
            | Self::RgMissing { .. }
            | Self::RgNotExecutable { .. }
            | Self::Workdir { .. }
            | Self::Target { .. }
            | Self::CommandTooLong { .. }
            | Self::SpawnFailed { .. }
            | Self::RgKilled { .. }
            | Self::RgFailed { .. }
            | Self::MalformedOutput { .. } => ErrorCode::SearchFailed,
            Self::RawOutputOverflow { .. } => ErrorCode::SearchRawOutputOverflow,
            Self::TimedOut { .. } | Self::Interrupted { .. } | Self::Cancelled => {
                ErrorCode::SearchAborted
            }
        }
    }
}

/// Every search failure's message, in one place: `<tool> <what happened>.
/// <what to do>`. What came from outside (a path, a file name, rg's
/// stderr, a record rg printed) is escaped here, so the message is safe in
/// text and JSON alike: one-line pieces by `escape_path`, rg's stderr
/// (several lines by nature) by `escape_lines`.
impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tool = self.tool;
        write!(f, "{tool} ")?;
        match &self.reason {
            Reason::PatternRejected {
                rejection,
                status,
                stderr,
            } => write!(
                f,
                "{} rejected by ripgrep (exit {status}): {}\n{}",
                rejection.what(),
                escape_lines(stderr),
                rejection.advice()
            ),
            Reason::RgNotFound { rg, stderr } => write!(
                f,
                "could not run ripgrep `{}` (exit 127: {}). {}",
                escape_path(rg),
                escape_lines(stderr),
                not_run_advice(stderr)
            ),
            Reason::RgMissing { given, problem } => f.write_str(&rg_missing(given, problem)),
            Reason::RgNotExecutable { rg, stderr } => write!(
                f,
                "could not execute ripgrep `{}` (exit 126: {}). {}",
                escape_path(rg),
                escape_lines(stderr),
                not_run_advice(stderr)
            ),
            Reason::Workdir { workdir, problem } => write!(
                f,
                "cannot run: the workdir {} {problem}. Pass an existing directory with --cwd or DSH_SEARCH_CWD.",
                escape_path(&workdir.display().to_string())
            ),
            Reason::CommandTooLong { bytes } => write!(
                f,
                "cannot run: its command line ({bytes} bytes) is too long for the operating system. Use a shorter pattern, path, or include."
            ),
            Reason::Target { status, stderr } => write!(
                f,
                "could not search the given path (ripgrep exit {status}: {}). Check that the path exists relative to the workdir, or omit it to search the whole workdir.",
                escape_lines(stderr)
            ),
            Reason::SpawnFailed { workdir, reason } => write!(
                f,
                "could not start {STARTED} in the workdir {}: {reason}",
                escape_path(&workdir.display().to_string())
            ),
            Reason::RgKilled { signal, stderr } => write!(
                f,
                "failed: ripgrep was killed by signal {signal}{}",
                stderr_suffix(stderr)
            ),
            Reason::RgFailed { status, stderr } => write!(
                f,
                "failed: ripgrep exited with status {status}{}",
                stderr_suffix(stderr)
            ),
            Reason::MalformedOutput { detail } => write!(
                f,
                "failed: ripgrep's output could not be parsed ({}).",
                escape_path(detail)
            ),
            Reason::RawOutputOverflow { cap, heavy } => write!(
                f,
                "output is over the {cap}-byte cap on raw ripgrep output{}; {}{}, or raise --raw-output-max-bytes.",
                heavy_share(heavy),
                tool.narrow_advice(),
                match heavy.len() {
                    0 => "",
                    1 => " (leave that file out)",
                    _ => " (leave those files out)",
                }
            ),
            Reason::TimedOut { ms, page } => write!(
                f,
                "timed out after {ms}ms; {}{} and retry, or raise --timeout-ms.",
                match page {
                    TimeoutPage::Nothing => "",
                    TimeoutPage::Ordered => "showing what was found in that time (incomplete); ",
                    TimeoutPage::InPathOrder => {
                        "showing what was found in that time (incomplete, in path order); "
                    }
                },
                tool.narrow_advice()
            ),
            Reason::Interrupted { signal } => {
                write!(f, "was interrupted by {signal}; the search was stopped.")
            }
            Reason::Cancelled => {
                f.write_str("was cancelled by the client; the search was stopped.")
            }
        }
    }
}

/// The ways to install ripgrep, in the platform's own package managers'
/// words: on Windows, winget's and scoop's (apt-get and brew are no
/// advice there).
#[cfg(not(windows))]
macro_rules! install_ways {
    () => {
        "apt-get install ripgrep, brew install ripgrep, or cargo install ripgrep"
    };
}
#[cfg(windows)]
macro_rules! install_ways {
    () => {
        "winget install BurntSushi.ripgrep.MSVC, scoop install ripgrep, or cargo install ripgrep"
    };
}

/// What a search starts: `/bin/sh`, which `exec`s rg (Unix); rg itself
/// (Windows, SPEC §10).
const STARTED: &str = if cfg!(windows) { "ripgrep" } else { "/bin/sh" };

/// rg was resolved to a file that looked executable, but the shell could
/// not run it (exit 126 or 127): say why it may be, not "install ripgrep".
fn not_run_advice(stderr: &str) -> &'static str {
    if stderr.contains("Permission denied") {
        "That is a permission problem on that path (its mode, a directory on the way, or a noexec mount), not a missing ripgrep: fix the permission or point --rg / DSH_SEARCH_RG at an rg you may run."
    } else {
        concat!(
            "The file is there, so something it needs may be missing (its interpreter, a shared library): point --rg / DSH_SEARCH_RG at a working rg, or install ripgrep (",
            install_ways!(),
            ")."
        )
    }
}

const INSTALL_ADVICE: &str = concat!(
    "Install ripgrep (",
    install_ways!(),
    ") or point --rg / DSH_SEARCH_RG at the rg executable."
);

/// Why the given rg cannot be run, and what to do about it.
fn rg_missing(given: &str, problem: &RgMissing) -> String {
    let given = escape_path(given);
    let shown = |path: &std::path::Path| escape_path(&path.display().to_string()).into_owned();
    match problem {
        RgMissing::NotOnPath => format!(
            "requires ripgrep (rg) on PATH, but no absolute directory on PATH holds an executable `{given}`. {INSTALL_ADVICE}"
        ),
        RgMissing::NoSuchFile(path) => format!(
            "requires ripgrep (rg), but {} does not exist. {INSTALL_ADVICE}",
            shown(path)
        ),
        #[cfg(unix)]
        RgMissing::NotExecutable(path) => format!(
            "cannot run ripgrep: {} is not an executable file (a permission problem, or a directory). Make it executable (chmod +x) or point --rg / DSH_SEARCH_RG at an executable rg.",
            shown(path)
        ),
        // Windows: what is there is a directory, or a batch file, which is
        // never run (locate/windows.rs).
        #[cfg(windows)]
        RgMissing::NotExecutable(path) => format!(
            "cannot run ripgrep: {} is not a program dsh-search runs (a directory, or a .bat/.cmd file). Point --rg / DSH_SEARCH_RG at rg.exe.",
            shown(path)
        ),
        RgMissing::NotUtf8(path) => format!(
            "cannot run ripgrep: its path {} is not valid UTF-8. Point --rg / DSH_SEARCH_RG at an rg whose path is.",
            shown(path)
        ),
    }
}

/// What rg rejected, read from its message (SPEC §6); each kind has its
/// own advice, and only a regex syntax error gets the escaping advice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    /// `regex parse error:`
    RegexSyntax,
    /// The regex compiles to more than rg's size limit.
    RegexTooBig,
    /// A literal newline: rg matches one line at a time.
    LineBreak,
    /// glob's pattern is not a valid glob.
    Glob,
    /// grep's include is not a valid glob (the pattern itself is fine).
    Include,
}

impl Rejection {
    fn what(self) -> &'static str {
        match self {
            Self::RegexSyntax | Self::RegexTooBig | Self::LineBreak | Self::Glob => "pattern",
            Self::Include => "include",
        }
    }

    fn advice(self) -> &'static str {
        match self {
            Self::RegexSyntax => {
                "Fix the pattern (a ripgrep regex: escape ( ) [ ] { } . * + ? | \\ with a backslash to match them literally) and retry, or pass literal: true to search for the text as written."
            }
            Self::RegexTooBig => {
                "The pattern is valid but compiles to a regex over ripgrep's size limit: use a shorter or simpler one (smaller repetition counts such as {1000}, fewer alternatives) and retry."
            }
            Self::LineBreak => {
                "grep matches one line at a time, so a pattern cannot contain a line break (a newline or \\n): search for one line of the text instead, or pass multiline: true to match across lines."
            }
            Self::Glob => {
                "Fix the glob (balance its [ ] and { } or escape them as [[] and [{]) and retry."
            }
            Self::Include => {
                "The pattern is fine; fix the include (ONE glob such as *.rs or *.{ts,tsx}: balance its [ ] and { } or escape them as [[] and [{]) and retry."
            }
        }
    }
}

/// `, 98% of it from a.js` / `, 60% of it from a.js and 30% from b.js`.
fn heavy_share(heavy: &[(String, u8)]) -> String {
    let mut out = String::new();
    for (i, (path, share)) in heavy.iter().enumerate() {
        let joint = match i {
            0 => ", ",
            _ if i + 1 == heavy.len() => " and ",
            _ => ", ",
        };
        let of_it = if i == 0 { " of it" } else { "" };
        let _ = write!(out, "{joint}{share}%{of_it} from {}", escape_path(path));
    }
    out
}

fn stderr_suffix(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!(": {}", escape_lines(stderr))
    }
}

#[cfg(test)]
#[path = "../tests/unit/error.rs"]
mod tests;
