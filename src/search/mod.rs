//! One search, start to finish: build the rg command line, run it, classify
//! how rg ended (SPEC §6, with the partial-search rule of §4), and turn its
//! output into a [`Report`]. Knows nothing of text or JSON layout.

pub mod glob;
pub mod grep;
pub mod paths;
pub mod preview;
pub mod report;
mod sort;

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::time::Instant;

use crate::error::SearchError;
use crate::request::{Request, Tool};
use crate::rg::command;
use crate::rg::run::{self, End, RawRun, Sink, Spec};
use crate::settings::Settings;
use crate::stop::{self, Budget, Halt, Stop};
use glob::GlobSink;
use grep::GrepSink;
use paths::Workdir;
use report::{Items, Partial, Report, Spill};

/// E2BIG: the argument list is too long for `execve`.
const E2BIG: i32 = 7;

/// What one search did: its result, and the facts `--explain` reports.
#[derive(Debug)]
pub struct Outcome {
    pub result: Result<Report, SearchError>,
    /// The exact `sh -c` string (empty if it could not be built).
    pub script: String,
    /// How rg ran, when it was started.
    pub raw: Option<RawRun>,
    /// The first line of `rg --version`, asked only for `--explain`.
    pub rg_version: Option<String>,
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
    let script = match request {
        Request::Glob(r) => {
            // A pattern that starts with literal directories is walked from
            // there: same listing, a fraction of the walk.
            let root = match &r.path {
                Some(path) => Some(path.clone()),
                None => glob::walk_root(&r.pattern, &settings.workdir),
            };
            command::glob_script(rg, &r.pattern, root.as_deref())
        }
        Request::Grep(r) => {
            command::grep_script(rg, &r.pattern, r.include.as_deref(), r.path.as_deref())
        }
    };
    // Requests reject NUL already; the rg path comes from the operator.
    let Ok(script) = script else {
        return Outcome {
            result: Err(SearchError::SpawnFailed {
                tool,
                reason: "the rg path holds a NUL byte".to_owned(),
            }),
            script: String::new(),
            raw: None,
            rg_version: None,
        };
    };
    let ready = match &settings.rg.resolved {
        Err(problem) => Err(SearchError::RgMissing {
            tool,
            given: settings.rg.given.clone(),
            problem: problem.clone(),
        }),
        Ok(_) => check_workdir(tool, settings),
    };
    if let Err(e) = ready {
        return Outcome {
            result: Err(e),
            script,
            raw: None,
            rg_version: None,
        };
    }
    let workdir = Workdir::new(&settings.workdir);
    let spec = Spec {
        script: &script,
        workdir: &settings.workdir,
        budget,
        stdout_cap: settings.limits.raw_output_max_bytes,
    };
    let (raw, result) = match request {
        Request::Glob(_) => {
            let mut sink = GlobSink::default();
            match execute(tool, &spec, &mut sink) {
                Err(e) => (None, Err(e)),
                Ok(raw) => {
                    let listed = glob::lists_a_path(&sink.bytes, &workdir);
                    // Ordering stats every path: only for a result that stands.
                    let result = classify(tool, settings, &raw, listed, None).and_then(|v| {
                        let items =
                            glob::ordered_paths(sink.bytes, &workdir, settings.glob_sort, budget)
                                .map_err(|halt| halted(tool, halt, settings))?;
                        Ok(report(tool, Items::Glob(items), v, settings))
                    });
                    (Some(raw), result)
                }
            }
        }
        Request::Grep(_) => {
            let mut sink = GrepSink::new(&workdir, settings.limits.grep_max_line_bytes);
            match execute(tool, &spec, &mut sink) {
                Err(e) => (None, Err(e)),
                Ok(raw) => {
                    let malformed = sink.error().map(str::to_owned);
                    let verdict = classify(
                        tool,
                        settings,
                        &raw,
                        sink.has_matches(),
                        malformed.as_deref(),
                    );
                    let result =
                        verdict.map(|v| report(tool, Items::Grep(sink.into_files()), v, settings));
                    (Some(raw), result)
                }
            }
        }
    };
    Outcome {
        result,
        script,
        raw,
        rg_version: None,
    }
}

fn check_workdir(tool: Tool, settings: &Settings) -> Result<(), SearchError> {
    let problem = match std::fs::metadata(&settings.workdir) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => "is not a directory".to_owned(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => "does not exist".to_owned(),
        Err(e) => format!("cannot be read ({e})"),
    };
    Err(SearchError::Workdir {
        tool,
        workdir: settings.workdir.clone(),
        problem,
    })
}

fn execute<S: Sink>(tool: Tool, spec: &Spec<'_>, sink: &mut S) -> Result<RawRun, SearchError> {
    run::run(spec, sink).map_err(|e| {
        if e.raw_os_error() == Some(E2BIG) {
            SearchError::CommandTooLong {
                tool,
                bytes: spec.script.len(),
            }
        } else {
            SearchError::SpawnFailed {
                tool,
                reason: e.to_string(),
            }
        }
    })
}

/// How a run that produced output should be reported.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Complete,
    NothingSearched,
    Partial(Partial),
}

/// rg's stderr when a pattern (regex, glob, include) was rejected.
const PATTERN_ERRORS: [&str; 5] = [
    "regex parse error",
    "error parsing glob",
    "is not allowed in a regex",
    "exceeds size limit",
    "regex could not be compiled",
];
const NOTHING_SEARCHED: &str = "No files were searched";
/// rg's stderr when the given path cannot be searched at all.
const TARGET_ERRORS: [&str; 3] = [
    "No such file or directory",
    "Permission denied",
    "Not a directory",
];

/// SPEC §6: rg exit 0 → results, 1 → empty, anything else an error, except
/// exit 2 after results (partial) or with nothing searched (empty).
fn classify(
    tool: Tool,
    settings: &Settings,
    raw: &RawRun,
    has_results: bool,
    malformed: Option<&str>,
) -> Result<Verdict, SearchError> {
    let status = match raw.end {
        End::Halted(halt) => return Err(halted(tool, halt, settings)),
        End::Overflow => {
            return Err(SearchError::RawOutputOverflow {
                tool,
                cap: settings.limits.raw_output_max_bytes,
            });
        }
        End::Exited(status) => status,
    };
    let stderr = || raw.stderr.excerpt();
    if let Some(signal) = status.signal() {
        return Err(SearchError::RgKilled {
            tool,
            signal,
            stderr: stderr(),
        });
    }
    let code = status.code().unwrap_or(-1);
    let pattern_error = || PATTERN_ERRORS.iter().any(|p| raw.stderr.contains(p));
    if code == 2 && pattern_error() {
        return Err(SearchError::PatternRejected {
            tool,
            status: code,
            stderr: stderr(),
        });
    }
    if let Some(detail) = malformed {
        if matches!(code, 0..=2) {
            return Err(SearchError::MalformedOutput {
                tool,
                detail: detail.to_owned(),
            });
        }
    }
    match code {
        0 | 1 => Ok(Verdict::Complete),
        2 if has_results => Ok(Verdict::Partial(Partial {
            paths: raw.stderr.lines.max(1),
            first_error: raw.stderr.first_line(),
        })),
        2 if raw.stderr.contains(NOTHING_SEARCHED) => Ok(Verdict::NothingSearched),
        2 if TARGET_ERRORS.iter().any(|e| raw.stderr.contains(e)) => Err(SearchError::Target {
            tool,
            status: code,
            stderr: stderr(),
        }),
        127 => Err(SearchError::RgNotFound {
            tool,
            rg: settings.rg.given.clone(),
            stderr: stderr(),
        }),
        126 => Err(SearchError::RgNotExecutable {
            tool,
            rg: settings.rg.given.clone(),
            stderr: stderr(),
        }),
        // A shell that did not `exec` rg reports its death as 128 + signal.
        129..=192 => Err(SearchError::RgKilled {
            tool,
            signal: code - 128,
            stderr: stderr(),
        }),
        _ => Err(SearchError::RgFailed {
            tool,
            status: code,
            stderr: stderr(),
        }),
    }
}

/// The error of a search that `halt` stopped.
fn halted(tool: Tool, halt: Halt, settings: &Settings) -> SearchError {
    match halt {
        Halt::TimedOut => SearchError::TimedOut {
            tool,
            ms: settings.timeout_ms,
        },
        Halt::Signal(signal) => SearchError::Interrupted {
            tool,
            signal: stop::signal_name(signal),
        },
        Halt::Cancelled => SearchError::Cancelled { tool },
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
        nothing_searched: verdict == Verdict::NothingSearched,
        partial: match verdict {
            Verdict::Partial(p) => Some(p),
            _ => None,
        },
        // Saving is the caller's step: see `tool::call`.
        spill: Spill::NotNeeded,
    }
}
