//! The steps both tools share to run rg: the checks before it starts, the
//! runner's error mapping and the errors of a run cut short. How a run rg
//! ended by itself stands is `classify`'s to judge.

use std::io;
use std::time::{Duration, Instant};

use super::report::Report;
use crate::error::{Error, Reason, SearchError};
use crate::rg::Sink;
use crate::rg::command::CommandLine;
use crate::rg::process::{self, Finished, Spec};
use crate::settings::Settings;
use crate::stop::Budget;
use crate::tool::Tool;

/// A search that failed, and what a timed-out one found before it stopped
/// (SPEC §4a: its page is shown after the error). The error is a search
/// error, or an argument that only rg could judge (an unknown `type`).
#[derive(Debug)]
pub struct SearchFailure {
    pub error: Error,
    pub partial: Option<Box<Report>>,
}

impl From<SearchError> for SearchFailure {
    fn from(error: SearchError) -> Self {
        Self {
            error: Error::Search(error),
            partial: None,
        }
    }
}

/// What a tool's pipeline hands back.
#[derive(Debug)]
pub struct Searched {
    /// The command as shown (`--explain`).
    pub script: String,
    /// How rg ran, if it was started.
    pub finished: Option<Finished>,
    pub result: Result<Report, SearchFailure>,
}

impl Searched {
    /// The search of `script` whose rg came to `run`, its result `judged`
    /// from how rg ran.
    pub fn judged(
        script: String,
        run: Result<Finished, SearchError>,
        judged: impl FnOnce(&Finished) -> Result<Report, SearchFailure>,
    ) -> Self {
        match run {
            Ok(finished) => Self {
                script,
                result: judged(&finished),
                finished: Some(finished),
            },
            Err(e) => Self {
                script,
                finished: None,
                result: Err(e.into()),
            },
        }
    }
}

/// How long a timed-out search may take to order what rg printed (SPEC
/// §4a: the page of what was found; the deadline has passed, so this grace
/// is all it gets).
const PARTIAL_GRACE: Duration = Duration::from_millis(100);

/// The budget for ordering a timed-out search's page.
pub fn grace(budget: Budget<'_>) -> Budget<'_> {
    Budget {
        deadline: Instant::now() + PARTIAL_GRACE,
        stop: budget.stop,
    }
}

/// The rg to name in a command line: the resolved one, or the given name
/// when there is none (the line is then shown by `--explain`, never run).
pub fn rg_for_line(settings: &Settings) -> &str {
    settings.rg.path().unwrap_or(&settings.rg.given)
}

/// Everything that must hold before rg starts: an rg to run and a workdir
/// sh can enter.
fn check_ready(tool: Tool, settings: &Settings) -> Result<(), SearchError> {
    if let Err(problem) = &settings.rg.resolved {
        return Err(SearchError::new(
            tool,
            Reason::RgMissing {
                given: settings.rg.given.clone(),
                problem: problem.clone(),
            },
        ));
    }
    let problem = match std::fs::metadata(&settings.workdir) {
        // sh must be able to enter it (search permission on the directory).
        Ok(meta) if meta.is_dir() => match enterable(&settings.workdir) {
            Ok(()) => return Ok(()),
            Err(e) => format!("cannot be entered and read ({e})"),
        },
        Ok(_) => "is not a directory".to_owned(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => "does not exist".to_owned(),
        Err(e) => format!("cannot be read ({e})"),
    };
    Err(SearchError::new(
        tool,
        Reason::Workdir {
            workdir: settings.workdir.clone(),
            problem,
        },
    ))
}

/// Unix: whether this process may enter and read `dir` (search and read
/// permission), as rg must.
#[cfg(unix)]
fn enterable(dir: &std::path::Path) -> io::Result<()> {
    let mode = rustix::fs::Access::EXEC_OK | rustix::fs::Access::READ_OK;
    rustix::fs::access(dir, mode).map_err(io::Error::from)
}

/// Windows: whether `dir` can be listed (the ACL allows it).
#[cfg(windows)]
fn enterable(dir: &std::path::Path) -> io::Result<()> {
    std::fs::read_dir(dir).map(drop)
}

/// Run a tool's `line` into `sink` once [`check_ready`] holds, with
/// `stdout_cap` bytes of rg's stdout left (the raw-output cap; a run over
/// one chunk of the index's candidates shares the call's); `Err` when rg
/// could not be started.
pub fn execute<S: Sink>(
    tool: Tool,
    line: &CommandLine,
    settings: &Settings,
    budget: Budget<'_>,
    sink: &mut S,
    stdout_cap: u64,
) -> Result<Finished, SearchError> {
    check_ready(tool, settings)?;
    let spec = Spec {
        line,
        workdir: &settings.workdir,
        budget,
        stdout_cap,
    };
    process::run(&spec, sink).map_err(|e| {
        let reason = if process::too_long(&e) {
            Reason::CommandTooLong {
                bytes: line.as_run().len(),
            }
        } else {
            Reason::SpawnFailed {
                workdir: settings.workdir.clone(),
                reason: e.to_string(),
            }
        };
        SearchError::new(tool, reason)
    })
}

/// The error of output over the raw cap; `heavy` names the files that made
/// most of it (grep).
pub fn overflow(tool: Tool, settings: &Settings, heavy: Vec<(String, u8)>) -> SearchError {
    SearchError::new(
        tool,
        Reason::RawOutputOverflow {
            cap: settings.limits.raw_output_max_bytes.get(),
            heavy,
        },
    )
}
