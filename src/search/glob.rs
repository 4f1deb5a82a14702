//! glob's pipeline, request to result: the walk root, the `rg --files`
//! run, how it ended, the COMPLETE listing ordered by `--glob-sort` and
//! then capped (SPEC §2, §4), the case probe of an empty result (SPEC
//! §4a), and the page of a timeout.

use std::fs;
use std::path::Path;

use super::classify::{Evidence, classify};
use super::listing;
use super::page::Paging;
use super::paths::Workdir;
use super::probes;
use super::report::{Coverage, Hint, Items, PathList, Report};
use super::run::{self, SearchFailure, Searched};
use crate::error::{SearchError, TimeoutPage};
use crate::request::{Context, GlobRequest};
use crate::rg::command::{self, Probe};
use crate::rg::process::Finished;
use crate::rg::{Ending, ListingSink};
use crate::settings::{GlobSort, Settings};
use crate::stop::{Budget, Halt};
use crate::tool::Tool;

/// Run the glob `r` within `budget`.
pub(super) fn search(r: &GlobRequest, settings: &Settings, budget: Budget<'_>) -> Searched {
    // A pattern that starts with literal directories is walked from there:
    // the same listing, a fraction of the walk (its probe too).
    let root = r
        .path
        .clone()
        .or_else(|| walk_root(&r.pattern, &settings.workdir));
    let line = command::glob_line(run::rg_for_line(settings), r, root.as_deref());
    let mut sink = ListingSink::default();
    let cap = settings.limits.raw_output_max_bytes.get();
    let run = run::execute(Tool::Glob, &line, settings, budget, &mut sink, cap);
    Searched::judged(line.as_run(), run, |finished| {
        result(r, root.as_deref(), settings, budget, finished, sink)
    })
}

/// The result of a glob whose rg's output `play` hands to the sink: the
/// judgement of a real run, with no rg (`search::replay`, the fuzz
/// targets'). No walk root: the listing is what rg printed for the whole
/// workdir.
#[cfg(feature = "fuzzing")]
pub(super) fn replay(
    r: &GlobRequest,
    settings: &Settings,
    budget: Budget<'_>,
    play: impl FnOnce(&mut dyn crate::rg::Sink) -> Finished,
) -> Result<Report, SearchFailure> {
    let mut sink = ListingSink::default();
    let finished = play(&mut sink);
    result(r, r.path.as_deref(), settings, budget, &finished, sink)
}

/// What the run says: the ordered listing, or why there is none.
fn result(
    r: &GlobRequest,
    root: Option<&str>,
    settings: &Settings,
    budget: Budget<'_>,
    finished: &Finished,
    sink: ListingSink,
) -> Result<Report, SearchFailure> {
    let workdir = Workdir::new(&settings.workdir);
    let listed = listing::lists_a_path(&sink.bytes, &workdir);
    let timed_out = |listing: Option<Vec<u8>>| {
        // What it found, in path order (no time is left to stat).
        let partial = listing
            .and_then(|l| {
                listing::ordered_paths(l, &workdir, GlobSort::Path, run::grace(budget)).ok()
            })
            .filter(|paths| paths.len() > 0)
            .map(|paths| Box::new(report(r, settings, paths, Coverage::Complete, Vec::new())));
        let page = match (&partial, settings.glob_sort) {
            (None, _) => TimeoutPage::Nothing,
            (Some(_), GlobSort::Path) => TimeoutPage::Ordered,
            (Some(_), GlobSort::Newest | GlobSort::Oldest) => TimeoutPage::InPathOrder,
        };
        let error = SearchError::halted(Tool::Glob, Halt::TimedOut, settings.timeout_ms, page);
        SearchFailure {
            error: error.into(),
            partial,
        }
    };
    let halted =
        |halt| SearchError::halted(Tool::Glob, halt, settings.timeout_ms, TimeoutPage::Nothing);
    let exit = match finished.ending {
        Ending::Overflow => return Err(run::overflow(Tool::Glob, settings, Vec::new()).into()),
        Ending::Halted(Halt::TimedOut) => {
            // The last path may be cut off where rg was killed.
            let listing = listed.then(|| {
                let mut listing = sink.bytes;
                listing.truncate(listing::whole_paths(&listing).len());
                listing
            });
            return Err(timed_out(listing));
        }
        Ending::Halted(halt) => return Err(halted(halt).into()),
        Ending::Exited(exit) => exit,
    };
    let evidence = Evidence {
        has_results: listed,
        ..Evidence::default()
    };
    let coverage = classify(Tool::Glob, settings, exit, finished, evidence)?;
    // Ordering stats every path: only for a result that stands.
    let paths = match listing::ordered_paths(sink.bytes, &workdir, settings.glob_sort, budget) {
        Ok(paths) => paths,
        Err((Halt::TimedOut, listing)) => return Err(timed_out(Some(listing))),
        Err((halt, _)) => return Err(halted(halt).into()),
    };
    // An empty search ignoring case already is the case probe; one
    // following links, the link probe.
    let hints = if paths.len() == 0 {
        let rg = run::rg_for_line(settings);
        let lines = [
            (!r.ignore_case).then(|| (Probe::Case, command::glob_case_line(rg, r, root))),
            (!r.follow && probes::LINK_PROBE)
                .then(|| (Probe::Links, command::glob_links_line(rg, r, root))),
        ];
        let lines: Vec<_> = lines.into_iter().flatten().collect();
        probes::probe(&lines, settings, &workdir, finished.elapsed, budget)
    } else {
        Vec::new()
    };
    Ok(report(r, settings, paths, coverage, hints))
}

/// The report of glob's ordered `paths`, capped by `--glob-max-results`.
fn report(
    r: &GlobRequest,
    settings: &Settings,
    paths: PathList,
    coverage: Coverage,
    hints: Vec<Hint>,
) -> Report {
    let paging = Paging {
        cap: settings.limits.glob_max_results.get(),
        page: r.page,
        context: Context::default(),
    };
    Report::new(
        Tool::Glob,
        Items::Glob(paths),
        paging,
        coverage,
        Vec::new(),
        hints,
    )
}

/// The directory a glob with no PATH can be walked from instead of the
/// whole workdir: the literal leading components of `pattern` (`src/lib`
/// for `src/lib/**/*.rs`), when they name real directories.
///
/// rg matches a glob against the path relative to its working directory
/// and prints paths the same way whether it starts at `.` or at `src/lib`,
/// so the listing is byte-identical (tests pin this). It is not used when
/// any component is a symlink (rg follows a symlink given as a path but
/// not one met during the walk), is `.`/`..`, names a drive (Windows), or
/// when the directory does not exist (rg would then fail where the whole
/// walk finds nothing), or exists only in another case (see
/// [`named_exactly`]).
pub fn walk_root(pattern: &str, workdir: &Path) -> Option<String> {
    let literal_end = pattern
        .find(['*', '?', '[', '{', '\\'])
        .unwrap_or(pattern.len());
    let prefix = &pattern[..pattern[..literal_end].rfind('/')?];
    if prefix.is_empty() || prefix.starts_with('/') {
        return None;
    }
    let mut dir = workdir.to_path_buf();
    for component in prefix.split('/') {
        if matches!(component, "" | "." | "..") || (cfg!(windows) && component.contains(':')) {
            return None;
        }
        dir.push(component);
        match fs::symlink_metadata(&dir) {
            Ok(meta) if meta.file_type().is_dir() && named_exactly(&dir, component) => {}
            _ => return None,
        }
    }
    Some(prefix.to_owned())
}

/// Whether the directory `dir`, just found by its last component `name`,
/// is named exactly that on disk. On a case-insensitive filesystem
/// (Windows; macOS by default) `SRC` finds `src`, and rg walked from `SRC`
/// prints `SRC/…`, paths the whole walk never shows (it prints `src/…`,
/// which the case-sensitive glob does not match). Cheap where it can be:
/// when the name in another case is not there, the filesystem told apart
/// the cases already; only when it is there are the entries listed.
fn named_exactly(dir: &Path, name: &str) -> bool {
    let swapped: String = name
        .chars()
        .flat_map(|c| {
            let lower: Vec<char> = c.to_lowercase().collect();
            if lower == [c] {
                c.to_uppercase().collect()
            } else {
                lower
            }
        })
        .collect();
    if swapped == name || fs::symlink_metadata(dir.with_file_name(&swapped)).is_err() {
        return true;
    }
    dir.parent()
        .and_then(|parent| fs::read_dir(parent).ok())
        .is_some_and(|mut entries| entries.any(|e| e.is_ok_and(|e| e.file_name() == name)))
}

#[cfg(test)]
#[path = "../../tests/unit/search/glob.rs"]
mod tests;
