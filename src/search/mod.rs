//! One search, start to finish. [`search`] dispatches once on the kind of
//! request; `glob` and `grep` each carry their tool's request to its
//! [`Outcome`]: build the rg command line, run it (`run`), judge how rg
//! ended (`classify`), order what it printed and cut it into a page
//! (`page`), and point somewhere when the result is a dead end (`probes`,
//! `hints`). Below the tools, nothing imports them or this module. Knows
//! nothing of text or JSON layout.

mod classify;
mod functions;
mod glob;
mod grep;
mod hints;
mod listing;
mod matches;
mod page;
mod paths;
mod places;
mod preview;
mod probes;
#[cfg(feature = "fuzzing")]
#[path = "../../fuzz/harness/replay.rs"]
pub mod replay;
pub mod report;
mod run;
mod sort;
mod types;

use std::time::{Duration, Instant};

use crate::index::{Account, Plan};
use crate::request::{GrepRequest, Request};
use crate::rg::process::{self, Finished};
use crate::settings::Settings;
use crate::stop::{Budget, Stop};
use report::Report;

pub use crate::rg::command::SHOWN_AS;
pub use crate::rg::{Ending, RgExit};
pub use run::SearchFailure;

/// What one search did: its result, and the facts `--explain` reports.
#[derive(Debug)]
pub struct Outcome {
    pub result: Result<Report, SearchFailure>,
    /// The exact command that ran, as this OS ran it: the `sh -c` string
    /// on Unix, the command line on Windows (labelled [`SHOWN_AS`]).
    pub script: String,
    /// How rg ran, when it was started.
    pub rg_run: Option<RgRun>,
    /// The first line of `rg --version`, asked only for `--explain`.
    pub rg_version: Option<String>,
    /// What the index did for this call (a server's grep), for
    /// `--explain`.
    pub index: Option<Account>,
}

/// Run `request` under `settings`, within `--timeout-ms` from now; `stop`
/// (a signal, a cancellation) ends it early. A grep searches the files
/// `plan` names for it (an index's, doc/SPEC.md §11; `None`: its walk).
pub fn search(
    request: &Request,
    settings: &Settings,
    stop: &Stop,
    plan: impl FnOnce(&GrepRequest, Budget<'_>) -> Option<Plan>,
) -> Outcome {
    let budget = Budget {
        deadline: Instant::now() + settings.timeout(),
        stop,
    };
    let mut described = None;
    let searched = match request {
        Request::Glob(r) => glob::search(r, settings, budget),
        Request::Grep(r) => {
            let plan = plan(r, budget);
            described = plan.as_ref().map(Plan::account);
            grep::search(r, settings, budget, plan)
        }
    };
    let rg_version = match (settings.explain, settings.rg.path()) {
        (true, Some(rg)) => process::version(rg, &settings.workdir, budget),
        _ => None,
    };
    Outcome {
        result: searched.result,
        script: searched.script,
        rg_run: searched.finished.as_ref().map(RgRun::of),
        rg_version,
        index: described,
    }
}

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
