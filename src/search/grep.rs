//! grep's pipeline, request to result: the rg run for the output mode
//! asked (SPEC §3a: matched lines from `--json`, the files from
//! `--files-with-matches`, the counts from `--count`) into its sink, how it
//! ended, the result ordered and cut into a page (SPEC §2, §3b, §4), the
//! probes of an empty result (SPEC §4a), the page of a timeout, and the
//! close names of a file type rg does not know.

use super::classify::{self, Evidence, classify};
use super::functions;
use super::listing::{self, CountSink};
use super::matches::{self, MatchSink};
use super::page::Paging;
use super::paths::Workdir;
use super::probes;
use super::report::{Coverage, FileLines, Hint, Items, Report};
use super::run::{self, SearchFailure, Searched};
use super::types;
use crate::error::{ArgumentError, Reason, SearchError, TimeoutPage};
use crate::index::Plan;
use crate::request::{GrepRequest, Output};
use crate::rg::command::{self, CommandLine, Probe};
use crate::rg::json::Want;
use crate::rg::process::Finished;
use crate::rg::{Ending, ListingSink, RgExit, Sink};
use crate::settings::Settings;
use crate::stop::{Budget, Halt};
use crate::tool::Tool;

/// Run the grep `r` within `budget`: over its walk, or over the files the
/// index's `plan` names (doc/SPEC.md §11).
pub(super) fn search(
    r: &GrepRequest,
    settings: &Settings,
    budget: Budget<'_>,
    plan: Option<Plan>,
) -> Searched {
    let rg = run::rg_for_line(settings);
    let workdir = Workdir::new(&settings.workdir);
    let line_cap = settings.limits.grep_max_line_bytes.get();
    let mut sink = collect(r, &workdir, line_cap, matches::record_bound(line_cap));
    let lines = match plan {
        Some(Plan::Paths { paths, empty, .. }) => command::grep_over_lines(rg, r, &paths, &empty),
        Some(Plan::Scan(_)) | None => vec![command::grep_line(rg, r)],
    };
    let script = match lines.len() {
        1 => lines[0].as_run(),
        n => format!("{} (the first of {n} command lines)", lines[0].as_run()),
    };
    let run = over(&lines, settings, budget, &mut sink);
    Searched::judged(script, run, |finished| {
        result(r, settings, budget, finished, sink)
    })
}

/// Run `lines` one after the other into `sink`, as if one rg had run:
/// their stdout one stream under the one cap, the sink told of its end
/// once, after the last; the exit of a run that failed (2) over one that
/// matched (0) over one that did not (1); their stderr in order. A run
/// cut short (a limit, a signal) ends the whole.
fn over(
    lines: &[CommandLine],
    settings: &Settings,
    budget: Budget<'_>,
    sink: &mut Collect<'_>,
) -> Result<Finished, SearchError> {
    let cap = settings.limits.raw_output_max_bytes.get();
    let mut merged: Option<Finished> = None;
    for (i, line) in lines.iter().enumerate() {
        let used = merged.as_ref().map_or(0, |m| m.stdout_bytes);
        let mut chained = Chained {
            sink: &mut *sink,
            last: i + 1 == lines.len(),
        };
        let left = cap.saturating_sub(used);
        let finished = run::execute(Tool::Grep, line, settings, budget, &mut chained, left)?;
        let whole = match merged.take() {
            None => finished,
            Some(mut m) => {
                m.stdout_bytes += finished.stdout_bytes;
                m.elapsed += finished.elapsed;
                m.stderr.append(&finished.stderr);
                m.ending = match (m.ending, finished.ending) {
                    (Ending::Exited(RgExit::Status(a)), Ending::Exited(RgExit::Status(b))) => {
                        Ending::Exited(RgExit::Status(merge_status(a, b)))
                    }
                    (_, later) => later,
                };
                m
            }
        };
        let went_on = matches!(whole.ending, Ending::Exited(RgExit::Status(0..=2)));
        let exited = matches!(whole.ending, Ending::Exited(_));
        merged = Some(whole);
        if !went_on {
            if exited && i + 1 < lines.len() {
                // rg ended by itself: the sink hears of it, as after a scan.
                sink.finish();
            }
            break;
        }
    }
    // `grep_over_lines` gives at least one line.
    merged.ok_or_else(|| SearchError::new(Tool::Grep, Reason::CommandTooLong { bytes: 0 }))
}

/// rg's exit over two parts of one search: an error (2) wins, then a
/// match (0), then no match (1); any other status is kept as it is.
fn merge_status(a: i32, b: i32) -> i32 {
    match (a, b) {
        (0..=2, 0..=2) if a == 2 || b == 2 => 2,
        (0..=2, 0..=2) if a == 0 || b == 0 => 0,
        (0..=2, 0..=2) => 1,
        // The other status is not one of rg's three: keep it.
        (0..=2, other) | (other, _) => other,
    }
}

/// One run's view of the call's sink: the sink hears of the stream's end
/// only after the last run.
struct Chained<'s, 'w> {
    sink: &'s mut Collect<'w>,
    last: bool,
}

impl Sink for Chained<'_, '_> {
    fn chunk(&mut self, bytes: &[u8]) {
        self.sink.chunk(bytes);
    }

    fn finish(&mut self) {
        if self.last {
            self.sink.finish();
        }
    }

    fn skim(&mut self, bytes: &[u8]) {
        self.sink.skim(bytes);
    }

    fn overflowed(&mut self) {
        self.sink.overflowed();
    }
}

/// The sink for the output mode of `r`; `record_bound` is the longest
/// one-line record it holds whole (see `matches`).
fn collect<'w>(
    r: &GrepRequest,
    workdir: &'w Workdir,
    line_cap: usize,
    record_bound: usize,
) -> Collect<'w> {
    match r.output {
        Output::Files => Collect::Files(ListingSink::default(), workdir),
        // rg's `--count` counts a match that spans lines once: a multiline
        // count reads `--json`'s per-file counts instead.
        Output::Count if !r.multiline => Collect::Counts(CountSink::default(), workdir),
        Output::Content | Output::Count => {
            let want = Want {
                all_submatches: r.multiline,
                counts: r.output == Output::Count,
                context: r.context.any(),
            };
            // A multiline record may hold countless lines, each shown:
            // only one-line records are read as they stream. Either way
            // every byte counts against the raw-output cap.
            let bound = (!r.multiline && r.output == Output::Content).then_some(record_bound);
            let sink = MatchSink::new(workdir, line_cap, want, bound);
            Collect::Lines(Box::new(sink))
        }
    }
}

/// The result of a grep whose rg's output `play` hands to the sink: the
/// judgement of a real run, with no rg (`search::replay`, the fuzz
/// targets'). `record_bound` replaces the real one.
#[cfg(feature = "fuzzing")]
pub(super) fn replay(
    r: &GrepRequest,
    settings: &Settings,
    budget: Budget<'_>,
    record_bound: usize,
    play: impl FnOnce(&mut dyn Sink) -> Finished,
) -> Result<Report, SearchFailure> {
    let workdir = Workdir::new(&settings.workdir);
    let line_cap = settings.limits.grep_max_line_bytes.get();
    let mut sink = collect(r, &workdir, line_cap, record_bound);
    let finished = play(&mut sink);
    result(r, settings, budget, &finished, sink)
}

/// The sink of the output mode asked.
enum Collect<'w> {
    Lines(Box<MatchSink<'w>>),
    Files(ListingSink, &'w Workdir),
    Counts(CountSink, &'w Workdir),
}

impl Sink for Collect<'_> {
    fn chunk(&mut self, bytes: &[u8]) {
        self.sink().chunk(bytes);
    }

    fn finish(&mut self) {
        self.sink().finish();
    }

    fn skim(&mut self, bytes: &[u8]) {
        self.sink().skim(bytes);
    }

    fn overflowed(&mut self) {
        self.sink().overflowed();
    }
}

impl Collect<'_> {
    /// The mode's own sink, which each call of the runner goes to.
    fn sink(&mut self) -> &mut dyn Sink {
        match self {
            Self::Lines(sink) => sink.as_mut(),
            Self::Files(sink, _) => sink,
            Self::Counts(sink, _) => sink,
        }
    }

    fn has_results(&self) -> bool {
        match self {
            Self::Lines(sink) => sink.has_matches(),
            Self::Files(sink, _) => !listing::whole_paths(&sink.bytes).is_empty(),
            Self::Counts(sink, _) => sink.has_counts(),
        }
    }

    fn malformed(&self) -> Option<&str> {
        match self {
            Self::Lines(sink) => sink.error(),
            Self::Files(..) => None,
            Self::Counts(sink, _) => sink.error(),
        }
    }

    /// The files that made most of an overflowing output (matched lines
    /// only: the other listings hold one short line a file).
    fn heavy(&mut self) -> Vec<(String, u8)> {
        match self {
            Self::Lines(sink) => sink.heavy(),
            Self::Files(..) | Self::Counts(..) => Vec::new(),
        }
    }

    /// What the sink kept, ordered (within `budget`), and the binary files
    /// that matched.
    fn into_items(self, budget: Budget<'_>) -> Result<(Items, Vec<String>), Halt> {
        Ok(match self {
            // A multiline count is a count even when nothing matched: the
            // same envelope as any other count (SPEC §3a).
            Self::Lines(sink) if sink.counting() => {
                (Items::Counts((*sink).into_matched().counts), Vec::new())
            }
            Self::Lines(sink) => {
                let matched = (*sink).into_matched();
                (Items::Lines(matched.files), matched.binary_files)
            }
            Self::Files(sink, workdir) => {
                // A listing cut short (a timeout) may end in half a path.
                let mut listing = sink.bytes;
                listing.truncate(listing::whole_paths(&listing).len());
                let paths = listing::matched_files(listing, workdir, budget).map_err(|(h, _)| h)?;
                (Items::Files(paths), Vec::new())
            }
            Self::Counts(sink, workdir) => (Items::Counts(sink.into_counts(workdir)), Vec::new()),
        })
    }

    /// The report of what the sink kept (binary files' lines never shown,
    /// SPEC §2); `Err` when ordering a listing was stopped.
    fn into_report(
        self,
        r: &GrepRequest,
        settings: &Settings,
        budget: Budget<'_>,
        coverage: Coverage,
        hints: Vec<Hint>,
    ) -> Result<Report, SearchFailure> {
        let (mut items, binary_files) = self.into_items(budget).map_err(|halt| {
            SearchError::halted(Tool::Grep, halt, settings.timeout_ms, TimeoutPage::Nothing)
        })?;
        if let (Items::Lines(files), true) = (&mut items, r.context.function) {
            // Only the files the page can show are parsed, unless a capped
            // result is to be saved whole (SPEC §5: the same shape).
            let total: usize = files.iter().map(FileLines::matches).sum();
            let cap = settings.limits.grep_max_matches.get();
            let size = r.page.limit.map_or(cap, |limit| limit.min(cap));
            let from = r.page.offset;
            let capped = from > 0 || total > from.saturating_add(size);
            let entries = if capped && settings.spill_dir.is_some() {
                0..total
            } else {
                from..from.saturating_add(size)
            };
            let line_cap = settings.limits.grep_max_line_bytes.get();
            functions::apply(
                files,
                entries,
                &settings.workdir,
                r.context,
                line_cap,
                budget,
            );
        }
        let paging = Paging {
            cap: settings.limits.grep_max_matches.get(),
            page: r.page,
            context: r.context,
        };
        Ok(Report::new(
            Tool::Grep,
            items,
            paging,
            coverage,
            binary_files,
            hints,
        ))
    }
}

/// What the run says: the result, or why there is none to trust.
fn result(
    r: &GrepRequest,
    settings: &Settings,
    budget: Budget<'_>,
    finished: &Finished,
    mut sink: Collect<'_>,
) -> Result<Report, SearchFailure> {
    let exit = match finished.ending {
        // Say which files made the output too large (SPEC §6).
        Ending::Overflow => return Err(run::overflow(Tool::Grep, settings, sink.heavy()).into()),
        Ending::Halted(halt) => {
            // A timeout after rg printed results keeps them (SPEC §4a).
            let grace = run::grace(budget);
            let partial = (halt == Halt::TimedOut && sink.has_results())
                .then(|| sink.into_report(r, settings, grace, Coverage::Complete, Vec::new()))
                .and_then(Result::ok)
                .map(Box::new);
            let page = match partial {
                Some(_) => TimeoutPage::Ordered,
                None => TimeoutPage::Nothing,
            };
            let error = SearchError::halted(Tool::Grep, halt, settings.timeout_ms, page);
            return Err(SearchFailure {
                error: error.into(),
                partial,
            });
        }
        Ending::Exited(exit) => exit,
    };
    if let Some(given) = classify::unknown_type(exit, finished) {
        let known = types::list(settings, budget);
        return Err(SearchFailure {
            error: unknown_type(&given, &known).into(),
            partial: None,
        });
    }
    let has_results = sink.has_results();
    let evidence = Evidence {
        has_results,
        malformed: sink.malformed(),
        typed: r.file_type.is_some(),
    };
    let coverage = classify(Tool::Grep, settings, exit, finished, evidence)?;
    let hints = if has_results {
        Vec::new()
    } else {
        let rg = run::rg_for_line(settings);
        let workdir = Workdir::new(&settings.workdir);
        // An empty search ignoring case already is the case probe; one
        // following links, the link probe.
        let lines: Vec<(Probe, CommandLine)> = [
            Some(Probe::Ignored),
            (!r.ignore_case).then_some(Probe::Case),
            (!r.follow && probes::LINK_PROBE).then_some(Probe::Links),
        ]
        .into_iter()
        .flatten()
        .map(|probe| (probe, command::grep_probe_line(rg, probe, r)))
        .collect();
        probes::probe(&lines, settings, &workdir, finished.elapsed, budget)
    };
    sink.into_report(r, settings, budget, coverage, hints)
}

/// The argument error for a `type` rg does not know, with the close names
/// among those it does (SPEC §3a).
fn unknown_type(given: &str, known: &[types::FileType]) -> ArgumentError {
    let close = types::close(given, known);
    let names = if close.is_empty() {
        String::new()
    } else {
        format!("; close names: {}", close.join(", "))
    };
    ArgumentError::new(
        "type",
        format!(
            "type {given:?} is not a file type ripgrep knows{names}. Pass one of the names `rg --type-list` prints, or an include glob such as *.ts"
        ),
    )
}
