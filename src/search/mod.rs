//! One search, start to finish: build the rg command line, run it, classify
//! how rg ended (SPEC §6, with the partial-search rule of §4), and turn its
//! output into a [`Report`]. Knows nothing of text or JSON layout.

mod classify;
pub mod glob;
pub mod grep;
mod hints;
pub mod paths;
mod places;
pub mod preview;
pub mod report;
mod sort;

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::time::{Duration, Instant};

use crate::error::{Found, Kind, SearchError};
use crate::request::Request;
use crate::rg::command;
use crate::rg::run::{self, End, RawRun, Sink, Spec};
use crate::settings::{GlobSort, Settings};
use crate::stop::{self, Budget, Halt, Stop};
use crate::tool::Tool;
use classify::{Verdict, classify};
use glob::GlobSink;
use grep::GrepSink;
use paths::Workdir;
use report::{Items, Report, Spill};

/// What one search did: its result, and the facts `--explain` reports.
#[derive(Debug)]
pub struct Outcome {
    pub result: Result<Report, SearchError>,
    /// The exact `sh -c` string (empty if it could not be built).
    pub script: String,
    /// How rg ran, when it was started.
    pub run: Option<Run>,
    /// The first line of `rg --version`, asked only for `--explain`.
    pub rg_version: Option<String>,
    /// A search that timed out after rg printed results: what it found.
    pub partial: Option<Report>,
}

/// Run `request` under `settings`, within `--timeout-ms` from now; `stop`
/// (a signal, a cancellation) ends it early.
pub fn run(request: &Request, settings: &Settings, stop: &Stop) -> Outcome {
    let budget = Budget {
        deadline: Instant::now() + settings.timeout(),
        stop,
    };
    let mut outcome = search(request, settings, budget);
    if settings.explain {
        if let Some(rg) = settings.rg.path() {
            outcome.rg_version = run::version(rg, &settings.workdir, budget);
        }
    }
    outcome
}

fn search(request: &Request, settings: &Settings, budget: Budget<'_>) -> Outcome {
    let tool = request.tool();
    // The script names the resolved rg; the given name stands in when
    // there is none (it is shown by --explain, never run).
    let rg = settings.rg.path().unwrap_or(&settings.rg.given);
    // A glob pattern that starts with literal directories is walked from
    // there: same listing, a fraction of the walk (its probe too).
    let glob_root = match request {
        Request::Glob(r) => match &r.path {
            Some(path) => Some(path.clone()),
            None => glob::walk_root(&r.pattern, &settings.workdir),
        },
        Request::Grep(_) => None,
    };
    let script = match request {
        Request::Glob(r) => command::glob_script(rg, &r.pattern, glob_root.as_deref()),
        Request::Grep(r) => {
            command::grep_script(rg, &r.pattern, r.include.as_deref(), r.path.as_deref())
        }
    };
    // Requests reject NUL already; the rg path comes from the operator.
    let Ok(script) = script else {
        return Outcome {
            result: Err(SearchError::new(
                tool,
                Kind::SpawnFailed {
                    workdir: settings.workdir.clone(),
                    reason: "the rg path holds a NUL byte".to_owned(),
                },
            )),
            script: String::new(),
            run: None,
            rg_version: None,
            partial: None,
        };
    };
    let ready = match &settings.rg.resolved {
        Err(problem) => Err(SearchError::new(
            tool,
            Kind::RgMissing {
                given: settings.rg.given.clone(),
                problem: problem.clone(),
            },
        )),
        Ok(_) => check_workdir(tool, settings),
    };
    if let Err(e) = ready {
        return Outcome {
            result: Err(e),
            script,
            run: None,
            rg_version: None,
            partial: None,
        };
    }
    let workdir = Workdir::new(&settings.workdir);
    let spec = Spec {
        script: &script,
        workdir: &settings.workdir,
        budget,
        stdout_cap: settings.limits.raw_output_max_bytes,
    };
    let ran = match request {
        Request::Glob(_) => run_glob(request, settings, &spec, &workdir),
        Request::Grep(_) => run_grep(request, settings, &spec, &workdir),
    };
    let mut outcome = Outcome {
        result: ran.result,
        script,
        run: ran.raw.as_ref().map(Run::of),
        rg_version: None,
        partial: ran.partial,
    };
    if let Err(e) = &mut outcome.result {
        if let (Kind::TimedOut { found, .. }, Some(_)) = (&mut e.kind, &outcome.partial) {
            // A timed-out glob's page is in path order (`partial_glob`).
            let sorted_by_path = tool == Tool::Grep || settings.glob_sort == GlobSort::Path;
            *found = if sorted_by_path {
                Found::Results
            } else {
                Found::ResultsInPathOrder
            };
        }
    }
    // Where to look next (SPEC §4a): the probes only for an empty result.
    let search_took = ran.raw.as_ref().map_or(Duration::ZERO, |raw| raw.elapsed);
    if let Ok(report) = &mut outcome.result {
        if report.is_empty() {
            report.hints = hints::probe(
                request,
                settings,
                &workdir,
                glob_root.as_deref(),
                search_took,
                budget,
            );
        }
    }
    for report in outcome.result.iter_mut().chain(outcome.partial.as_mut()) {
        report.hints.extend(hints::remainder(report));
    }
    outcome
}

/// How rg ran, in search's own terms: the facts `--explain` reports.
#[derive(Debug, Clone)]
pub struct Run {
    pub ended: Ended,
    /// stdout bytes received.
    pub stdout_bytes: u64,
    /// rg's stderr, trimmed and bounded.
    pub stderr: String,
    pub elapsed: Duration,
}

/// How the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// rg exited with this status.
    Status(i32),
    /// rg was killed by this signal.
    Signal(i32),
    /// stdout went over the cap; the group was killed.
    Overflow,
    /// A deadline, signal or cancellation stopped it; the group was killed.
    Halted(Halt),
}

impl Run {
    fn of(raw: &RawRun) -> Self {
        let ended = match raw.end {
            End::Exited(status) => match (status.code(), status.signal()) {
                (Some(code), _) => Ended::Status(code),
                (None, Some(signal)) => Ended::Signal(signal),
                (None, None) => Ended::Status(-1),
            },
            End::Overflow => Ended::Overflow,
            End::Halted(halt) => Ended::Halted(halt),
        };
        Self {
            ended,
            stdout_bytes: raw.stdout_bytes,
            stderr: raw.stderr.excerpt(),
            elapsed: raw.elapsed,
        }
    }
}

/// How long a timed-out glob may take to put what rg listed in path order
/// (SPEC §4a: the page of what was found; the deadline has passed, so this
/// grace is all it gets).
const PARTIAL_GRACE: Duration = Duration::from_millis(100);

fn run_glob(request: &Request, settings: &Settings, spec: &Spec<'_>, workdir: &Workdir) -> Ran {
    let tool = request.tool();
    let mut sink = GlobSink::default();
    let raw = match execute(tool, spec, &mut sink) {
        Err(e) => return Ran::failed(e),
        Ok(raw) => raw,
    };
    let listed = glob::lists_a_path(&sink.bytes, workdir);
    let mut partial = None;
    // Ordering stats every path: only for a result that stands.
    let result = match classify(request, settings, &raw, listed, None) {
        Ok(v) => match glob::ordered_paths(sink.bytes, workdir, settings.glob_sort, spec.budget) {
            Ok(items) => Ok(report(tool, Items::Glob(items), v, settings)),
            Err((halt, listing)) => {
                if halt == Halt::TimedOut {
                    partial = partial_glob(listing, workdir, spec, settings);
                }
                Err(halted(tool, halt, settings))
            }
        },
        Err(e) => {
            if is_timeout(&e) && listed {
                // The last path may be cut off where rg was killed.
                let mut listing = sink.bytes;
                listing.truncate(glob::whole_paths(&listing).len());
                partial = partial_glob(listing, workdir, spec, settings);
            }
            Err(e)
        }
    };
    Ran::new(raw, result, partial)
}

/// What a timed-out glob found, in path order (no time is left to stat).
fn partial_glob(
    listing: Vec<u8>,
    workdir: &Workdir,
    spec: &Spec<'_>,
    settings: &Settings,
) -> Option<Report> {
    let grace = Budget {
        deadline: Instant::now() + PARTIAL_GRACE,
        stop: spec.budget.stop,
    };
    let items = glob::ordered_paths(listing, workdir, GlobSort::Path, grace).ok()?;
    (items.len() > 0).then(|| report(Tool::Glob, Items::Glob(items), Verdict::Complete, settings))
}

fn is_timeout(e: &SearchError) -> bool {
    matches!(e.kind, Kind::TimedOut { .. })
}

fn run_grep(request: &Request, settings: &Settings, spec: &Spec<'_>, workdir: &Workdir) -> Ran {
    let tool = request.tool();
    let mut sink = GrepSink::new(workdir, settings.limits.grep_max_line_bytes);
    let raw = match execute(tool, spec, &mut sink) {
        Err(e) => return Ran::failed(e),
        Ok(raw) => raw,
    };
    let malformed = sink.error().map(str::to_owned);
    let verdict = match classify(
        request,
        settings,
        &raw,
        sink.has_matches(),
        malformed.as_deref(),
    ) {
        // Say which files made the output too large (SPEC §6).
        Err(mut e) => {
            if let Kind::RawOutputOverflow { heavy, .. } = &mut e.kind {
                *heavy = sink.heavy();
            }
            Err(e)
        }
        verdict => verdict,
    };
    // A timeout after rg printed matches keeps them (SPEC §4a).
    let timed_out_with_matches = matches!(&verdict, Err(e) if is_timeout(e)) && sink.has_matches();
    let report_of = |sink: GrepSink<'_>, v| {
        let found = sink.into_found();
        let mut report = report(tool, Items::Grep(found.files), v, settings);
        report.binary_files = found.binary_files;
        report
    };
    match verdict {
        Ok(v) => Ran::new(raw, Ok(report_of(sink, v)), None),
        Err(e) if timed_out_with_matches => {
            Ran::new(raw, Err(e), Some(report_of(sink, Verdict::Complete)))
        }
        Err(e) => Ran::new(raw, Err(e), None),
    }
}

/// What one run of rg gave: its facts (when it started), the result, and
/// for a timeout what was found before it.
struct Ran {
    raw: Option<RawRun>,
    result: Result<Report, SearchError>,
    partial: Option<Report>,
}

impl Ran {
    fn new(raw: RawRun, result: Result<Report, SearchError>, partial: Option<Report>) -> Self {
        Self {
            raw: Some(raw),
            result,
            partial,
        }
    }

    fn failed(e: SearchError) -> Self {
        Self {
            raw: None,
            result: Err(e),
            partial: None,
        }
    }
}

fn check_workdir(tool: Tool, settings: &Settings) -> Result<(), SearchError> {
    let problem = match std::fs::metadata(&settings.workdir) {
        // sh must be able to enter it (search permission on the directory).
        Ok(meta) if meta.is_dir() => match rustix::fs::access(
            &settings.workdir,
            rustix::fs::Access::EXEC_OK | rustix::fs::Access::READ_OK,
        ) {
            Ok(()) => return Ok(()),
            Err(e) => format!("cannot be entered and read ({})", io::Error::from(e)),
        },
        Ok(_) => "is not a directory".to_owned(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => "does not exist".to_owned(),
        Err(e) => format!("cannot be read ({e})"),
    };
    Err(SearchError::new(
        tool,
        Kind::Workdir {
            workdir: settings.workdir.clone(),
            problem,
        },
    ))
}

fn execute<S: Sink>(tool: Tool, spec: &Spec<'_>, sink: &mut S) -> Result<RawRun, SearchError> {
    let workdir = spec.workdir.to_path_buf();
    run::run(spec, sink).map_err(|e| {
        // E2BIG: the argument list is too long for `execve`.
        if rustix::io::Errno::from_io_error(&e) == Some(rustix::io::Errno::TOOBIG) {
            SearchError::new(
                tool,
                Kind::CommandTooLong {
                    bytes: spec.script.len(),
                },
            )
        } else {
            SearchError::new(
                tool,
                Kind::SpawnFailed {
                    workdir,
                    reason: e.to_string(),
                },
            )
        }
    })
}

/// The error of a search that `halt` stopped.
pub(super) fn halted(tool: Tool, halt: Halt, settings: &Settings) -> SearchError {
    match halt {
        Halt::TimedOut => SearchError::new(
            tool,
            Kind::TimedOut {
                ms: settings.timeout_ms,
                narrow: tool.narrow_advice(),
                found: Found::Nothing,
            },
        ),
        Halt::Signal(signal) => SearchError::new(
            tool,
            Kind::Interrupted {
                signal: stop::signal_name(signal),
            },
        ),
        Halt::Cancelled => SearchError::new(tool, Kind::Cancelled),
    }
}

fn report(tool: Tool, items: Items, verdict: Verdict, settings: &Settings) -> Report {
    let (total, cap) = match &items {
        Items::Glob(paths) => (paths.len(), settings.limits.glob_max_results),
        Items::Grep(files) => (
            files.iter().map(|f| f.matches.len()).sum(),
            settings.limits.grep_max_matches,
        ),
    };
    Report {
        tool,
        items,
        total,
        shown: total.min(cap),
        binary_files: Vec::new(),
        nothing_searched: verdict == Verdict::NothingSearched,
        partial: match verdict {
            Verdict::Partial(p) => Some(p),
            _ => None,
        },
        // Saving is the caller's step: see `call::run`.
        spill: Spill::NotNeeded,
        hints: Vec::new(),
    }
}
