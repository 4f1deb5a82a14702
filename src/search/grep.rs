//! grep's pipeline, request to result: the `rg --json` run into the match
//! sink, how it ended, the grouped and ordered matches capped to a page
//! (SPEC §2, §4), the probes of an empty result (SPEC §4a), and the page
//! of a timeout.

use super::classify::classify;
use super::hints;
use super::matches::MatchSink;
use super::paths::Workdir;
use super::report::{Coverage, Hint, Items, Report};
use super::{Failure, Searched};
use crate::error::{SearchError, TimeoutPage};
use crate::request::GrepRequest;
use crate::rg::command::{self, Probe};
use crate::rg::process::Ending;
use crate::rg::process::Finished;
use crate::settings::Settings;
use crate::stop::{Budget, Halt};
use crate::tool::Tool;

/// Run the grep `r` within `budget`.
pub(super) fn search(r: &GrepRequest, settings: &Settings, budget: Budget<'_>) -> Searched {
    let script = command::grep_script(super::rg_for_script(settings), r);
    let workdir = Workdir::new(&settings.workdir);
    let sink = MatchSink::new(&workdir, settings.limits.grep_max_line_bytes);
    super::run_and_judge(
        Tool::Grep,
        script,
        settings,
        budget,
        sink,
        |finished, sink| result(r, settings, budget, finished, sink),
    )
}

/// What the run says: the matches, or why there are none to trust.
fn result(
    r: &GrepRequest,
    settings: &Settings,
    budget: Budget<'_>,
    finished: &Finished,
    mut sink: MatchSink<'_>,
) -> Result<Report, Failure> {
    let exited = match finished.ending {
        // Say which files made the output too large (SPEC §6).
        Ending::Overflow => return Err(super::overflow(Tool::Grep, settings, sink.heavy()).into()),
        Ending::Halted(halt) => {
            // A timeout after rg printed matches keeps them (SPEC §4a).
            let partial = (halt == Halt::TimedOut && sink.has_matches())
                .then(|| Box::new(report(sink, Coverage::Complete, settings, Vec::new())));
            let page = match partial {
                Some(_) => TimeoutPage::Ordered,
                None => TimeoutPage::Nothing,
            };
            let error = SearchError::halted(Tool::Grep, halt, settings.timeout_ms, page);
            return Err(Failure { error, partial });
        }
        Ending::Exited(exited) => exited,
    };
    let has_matches = sink.has_matches();
    let coverage = classify(
        Tool::Grep,
        settings,
        exited,
        finished,
        has_matches,
        sink.error(),
    )?;
    let hints = if has_matches {
        Vec::new()
    } else {
        let rg = super::rg_for_script(settings);
        let workdir = Workdir::new(&settings.workdir);
        let scripts = [Probe::Ignored, Probe::Case]
            .map(|probe| (probe, command::grep_probe_script(rg, probe, r)));
        hints::probe(&scripts, settings, &workdir, finished.elapsed, budget)
    };
    Ok(report(sink, coverage, settings, hints))
}

/// The report of what `sink` kept: text files with their lines, and the
/// binary files that matched (their lines never shown, SPEC §2).
fn report(
    sink: MatchSink<'_>,
    coverage: Coverage,
    settings: &Settings,
    hints: Vec<Hint>,
) -> Report {
    let matched = sink.into_matched();
    super::report(
        Tool::Grep,
        Items::Grep(matched.files),
        settings.limits.grep_max_matches,
        coverage,
        matched.binary_files,
        hints,
    )
}
