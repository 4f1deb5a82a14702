//! One search, start to finish. [`search`] dispatches once on the kind of
//! request; `glob` and `grep` each carry their tool's request to its
//! [`Outcome`]: build the rg command line, run it, judge how rg ended
//! (`classify`), order and cap what it printed, and point somewhere when
//! the result is a dead end (`hints`). What both tools share lives here:
//! the checks before rg starts, the runner's error mapping, the report
//! constructor and the account `--explain` prints. Knows nothing of text
//! or JSON layout.

mod classify;
mod glob;
mod grep;
mod hints;
mod listing;
mod matches;
mod paths;
mod places;
mod preview;
pub mod report;
mod sort;
mod types;

use std::io;
use std::time::{Duration, Instant};

use crate::error::{Error, Reason, SearchError};
use crate::request::{Context, Page, Request};
use crate::rg::Sink;
use crate::rg::command::Line;
use crate::rg::process::{self, Finished, Spec};
use crate::settings::Settings;
use crate::stop::{Budget, Stop};
use crate::tool::Tool;
use report::{Coverage, FileLines, Hint, Items, Report, Spill};

pub use crate::rg::command::SHOWN_AS;
pub use crate::rg::process::{Ending, Exited};
pub use matches::record_bound;
pub use preview::{TRUNCATED_MARK, WINDOW_MARK};

/// What one search did: its result, and the facts `--explain` reports.
#[derive(Debug)]
pub struct Outcome {
    pub result: Result<Report, Failure>,
    /// The exact command that ran, as this OS ran it: the `sh -c` string
    /// on Unix, the command line on Windows (labelled [`SHOWN_AS`]).
    pub script: String,
    /// How rg ran, when it was started.
    pub rg_run: Option<RgRun>,
    /// The first line of `rg --version`, asked only for `--explain`.
    pub rg_version: Option<String>,
}

/// A search that failed, and what a timed-out one found before it stopped
/// (SPEC §4a: its page is shown after the error). The error is a search
/// error, or an argument that only rg could judge (an unknown `type`).
#[derive(Debug)]
pub struct Failure {
    pub error: Error,
    pub partial: Option<Box<Report>>,
}

impl From<SearchError> for Failure {
    fn from(error: SearchError) -> Self {
        Self {
            error: Error::Search(error),
            partial: None,
        }
    }
}

/// Run `request` under `settings`, within `--timeout-ms` from now; `stop`
/// (a signal, a cancellation) ends it early.
pub fn search(request: &Request, settings: &Settings, stop: &Stop) -> Outcome {
    let budget = Budget {
        deadline: Instant::now() + settings.timeout(),
        stop,
    };
    let (script, rg_run, result) = match request {
        Request::Glob(r) => glob::search(r, settings, budget),
        Request::Grep(r) => grep::search(r, settings, budget),
    };
    // Tests only: a defect in our own work after rg ended, on purpose.
    #[cfg(debug_assertions)]
    crate::watchdog::test_stall(match request {
        Request::Glob(r) => &r.pattern,
        Request::Grep(r) => &r.pattern,
    });
    let rg_version = match (settings.explain, settings.rg.path()) {
        (true, Some(rg)) => process::version(rg, &settings.workdir, budget),
        _ => None,
    };
    Outcome {
        result,
        script,
        rg_run: rg_run.as_ref().map(RgRun::of),
        rg_version,
    }
}

/// How a replayed rg run ends (see [`replay`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// rg exited with this status after printing all of it.
    Exited(i32),
    /// The deadline passed after rg printed all of it.
    TimedOut,
    /// rg's output passed the byte cap after this many bytes: the sink
    /// parsed those and skims the rest, as the runner's feed does when its
    /// parser thread is behind.
    Overflow(usize),
}

/// A run of rg, played back: what it printed on stdout, handed to the sink
/// `chunk` bytes at a time, and how it ended.
#[derive(Debug, Clone, Copy)]
pub struct Replay<'a> {
    pub stdout: &'a [u8],
    pub chunk: usize,
    pub cut: Cut,
    /// The longest record grep's content sink holds whole (the real bound
    /// is at least 1 MiB; a smaller one reaches the streaming reader with
    /// small inputs).
    pub record_bound: usize,
}

/// The result `request` would have under `settings` had rg printed and
/// ended as `replay` says: rg's stdout through the tool's sink, then the
/// same judgement, ordering and paging as after a real run. Nothing is
/// started: `settings` must name an rg that does not resolve, so the
/// probes of an empty result (which would run rg) add nothing. The fuzz
/// targets' way in (`crate::fuzzing`).
pub fn replay(
    request: &Request,
    settings: &Settings,
    stop: &Stop,
    replay: Replay<'_>,
) -> Result<Report, Failure> {
    let budget = Budget {
        deadline: Instant::now() + settings.timeout(),
        stop,
    };
    let play = |sink: &mut dyn Sink| play(sink, replay);
    match request {
        Request::Glob(r) => glob::replay(r, settings, budget, play),
        Request::Grep(r) => grep::replay(r, settings, budget, replay.record_bound, play),
    }
}

/// Hand `replay`'s stdout to `sink` in the order the runner's feed does,
/// and say how the run finished.
fn play(sink: &mut dyn Sink, replay: Replay<'_>) -> Finished {
    let Replay {
        stdout, chunk, cut, ..
    } = replay;
    let (parsed, skimmed) = match cut {
        Cut::Overflow(at) => stdout.split_at(at.min(stdout.len())),
        Cut::Exited(_) | Cut::TimedOut => (stdout, &[][..]),
    };
    for piece in parsed.chunks(chunk.max(1)) {
        sink.chunk(piece);
    }
    for piece in skimmed.chunks(chunk.max(1)) {
        sink.skim(piece);
    }
    let ending = match cut {
        Cut::Exited(status) => {
            sink.finish();
            Ending::Exited(Exited::Status(status))
        }
        Cut::TimedOut => Ending::Halted(crate::stop::Halt::TimedOut),
        Cut::Overflow(_) => {
            sink.overflowed();
            Ending::Overflow
        }
    };
    Finished {
        ending,
        stdout_bytes: stdout.len() as u64,
        stderr: crate::rg::Stderr::default(),
        elapsed: Duration::ZERO,
    }
}

/// What a tool's pipeline hands back: its command as shown, how rg ran (if
/// it was started), and the result.
type Searched = (String, Option<Finished>, Result<Report, Failure>);

/// How rg ran, in search's own terms: the facts `--explain` reports.
#[derive(Debug, Clone)]
pub struct RgRun {
    pub ending: Ending,
    /// stdout bytes received.
    pub stdout_bytes: u64,
    /// rg's stderr, trimmed and bounded.
    pub stderr: String,
    pub elapsed: Duration,
}

impl RgRun {
    fn of(finished: &Finished) -> Self {
        Self {
            ending: finished.ending,
            stdout_bytes: finished.stdout_bytes,
            stderr: finished.stderr.excerpt(),
            elapsed: finished.elapsed,
        }
    }
}

/// How long a timed-out search may take to order what rg printed (SPEC
/// §4a: the page of what was found; the deadline has passed, so this grace
/// is all it gets).
const PARTIAL_GRACE: Duration = Duration::from_millis(100);

/// The budget for ordering a timed-out search's page.
fn grace(budget: Budget<'_>) -> Budget<'_> {
    Budget {
        deadline: Instant::now() + PARTIAL_GRACE,
        stop: budget.stop,
    }
}

/// The rg to name in a command line: the resolved one, or the given name
/// when there is none (the line is then shown by `--explain`, never run).
fn rg_for_line(settings: &Settings) -> &str {
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

/// A tool's run: `line` into `sink` once [`check_ready`] holds, then
/// `judge` makes the result of how rg ended and what the sink kept.
fn run_and_judge<S: Sink>(
    tool: Tool,
    line: &Line,
    settings: &Settings,
    budget: Budget<'_>,
    mut sink: S,
    judge: impl FnOnce(&Finished, S) -> Result<Report, Failure>,
) -> Searched {
    let shown = line.shown();
    match execute(tool, line, settings, budget, &mut sink) {
        Ok(finished) => {
            let result = judge(&finished, sink);
            (shown, Some(finished), result)
        }
        Err(e) => (shown, None, Err(e.into())),
    }
}

fn execute<S: Sink>(
    tool: Tool,
    line: &Line,
    settings: &Settings,
    budget: Budget<'_>,
    sink: &mut S,
) -> Result<Finished, SearchError> {
    check_ready(tool, settings)?;
    let spec = Spec {
        line,
        workdir: &settings.workdir,
        budget,
        stdout_cap: settings.limits.raw_output_max_bytes.get(),
    };
    process::run(&spec, sink).map_err(|e| {
        let reason = if process::too_long(&e) {
            Reason::CommandTooLong {
                bytes: line.shown().len(),
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
fn overflow(tool: Tool, settings: &Settings, heavy: Vec<(String, u8)>) -> SearchError {
    SearchError::new(
        tool,
        Reason::RawOutputOverflow {
            cap: settings.limits.raw_output_max_bytes.get(),
            heavy,
        },
    )
}

/// How a result is cut into a page: the cap, what the caller asked for,
/// and (grep content) the context around each matched line.
#[derive(Debug, Clone, Copy)]
struct Paging {
    cap: usize,
    page: Page,
    context: Context,
}

/// The report of the complete `items`, with the page `paging` gives
/// (SPEC §3b). After `hints` (an empty result's probes) comes the
/// remainder line of a page that leaves entries out (SPEC §4a).
fn report(
    tool: Tool,
    items: Items,
    paging: Paging,
    coverage: Coverage,
    binary_files: Vec<String>,
    mut hints: Vec<Hint>,
) -> Report {
    let total = match &items {
        Items::Glob(paths) | Items::Files(paths) => paths.len(),
        Items::Lines(files) => files.iter().map(FileLines::matches).sum(),
        Items::Counts(files) => files.len(),
    };
    let Paging { cap, page, context } = paging;
    let size = page.limit.map_or(cap, |limit| limit.min(cap));
    let left = total.saturating_sub(page.offset);
    let shown = match &items {
        // With context the cap counts printed lines (SPEC §4).
        Items::Lines(files) if context.any() && left > 0 => {
            report::lines_that_fit(files, page.offset, size, context)
        }
        _ => size.min(left),
    };
    hints.extend(hints::remainder(&items, page.offset, shown, total));
    Report {
        tool,
        items,
        total,
        offset: page.offset,
        shown,
        context,
        paged: page.asked(),
        limit_over_cap: page
            .limit
            .filter(|&limit| limit > cap)
            .map(|limit| (limit, cap)),
        binary_files,
        coverage,
        // Saving is the caller's step: see `call`.
        spill: Spill::NotNeeded,
        hints,
    }
}
