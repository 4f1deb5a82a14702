//! The files one call searches, as rg names them, and the plan over them.
//!
//! A call with no path and no filter searches the tree's files, which the
//! index knows. A call with a path, type, include or exclude asks rg
//! itself (`rg --files` with the call's own filters) for its files, kept
//! while the tree keeps its shape. Either way each file is looked up in
//! the tree: its reading, if it still holds one, says whether it can hold
//! a match; a file the index has no reading of is a candidate.

use std::collections::HashSet;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;
use std::time::{Duration, Instant};

use super::files::Content;
use super::names::{self, Name, parent};
use super::query::Query;
use super::tree::Walked;
use super::{Plan, Why};
use crate::request::GrepRequest;
use crate::rg::command::{self, CommandLine};
use crate::rg::process::{self, Spec};
use crate::rg::{Ending, ListingSink, RgExit};
use crate::settings::Settings;
use crate::stop::{Budget, Stop};

/// How long the first build's `rg --files` may take.
const CHECK_LIMIT: Duration = Duration::from_secs(60);

/// The filters that choose a call's files.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Key {
    path: Option<String>,
    file_type: Option<String>,
    include: Option<String>,
    exclude: Option<String>,
}

impl Key {
    pub fn of(r: &GrepRequest) -> Self {
        Self {
            path: r.path.clone(),
            file_type: r.file_type.clone(),
            include: r.include.clone(),
            exclude: r.exclude.clone(),
        }
    }

    /// No path and no filter: the tree's own files.
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Whether a listing may be kept until the tree's shape changes:
    /// when every directory it searched is watched (the path is a
    /// directory the tree walks, or a file in one).
    pub fn cacheable(&self, workdir: &Path, is_dir: impl Fn(&[u8]) -> bool) -> bool {
        match &self.path {
            None => true,
            Some(path) => names::relative(path.as_bytes(), workdir)
                .is_some_and(|rel| is_dir(&rel) || is_dir(parent(&rel))),
        }
    }
}

/// The plan for `query` over `files`, each a name as rg gives it with the
/// reading it holds (`None`: not a file the tree knows, or one holding no
/// reading): a file is a candidate unless its reading says it cannot
/// hold a match.
pub fn candidates<'a>(
    content: &Content,
    query: &Query,
    files: impl Iterator<Item = (&'a [u8], Option<u32>)>,
    empty: &Path,
) -> Plan {
    let holds = content.postings.answer(query);
    let mut paths = Vec::new();
    let (mut total, mut dirty) = (0, 0);
    for (name, id) in files {
        total += 1;
        if content.candidate(id, holds.as_ref()) {
            dirty += usize::from(content.stale(id));
            paths.push(OsString::from_vec(name.to_vec()));
        }
    }
    if total == 0 {
        return Plan::Scan(Why::NoFiles);
    }
    if paths.len() * 2 > total {
        return Plan::Scan(Why::TooMany(paths.len() * 100 / total));
    }
    Plan::Paths {
        paths,
        files: total,
        dirty,
        empty: empty.to_path_buf(),
        server: None,
    }
}

/// The files the grep `r` searches, listed by rg with its filters.
pub fn list_for(
    r: &GrepRequest,
    settings: &Settings,
    budget: Budget<'_>,
) -> Result<Vec<Name>, Why> {
    let rg = settings.rg.path().ok_or(Why::NotReady)?;
    let line = command::grep_files_line(rg, r);
    let cap = settings.limits.raw_output_max_bytes.get();
    list(&line, &settings.workdir, budget, cap, false).map_err(Why::Listing)
}

/// The walk must list exactly the files `rg --files` lists. rg runs as
/// every search's rg does (its own process group, killed with the
/// server), for [`CHECK_LIMIT`] at most; where the walk met a directory it
/// could not read, rg's complaint about it is expected.
pub fn check(walked: &Walked, rg: Option<&str>, workdir: &Path, stop: &Stop) -> Result<(), String> {
    let rg = rg.ok_or("no rg to check the walk against")?;
    let budget = Budget {
        deadline: Instant::now() + CHECK_LIMIT,
        stop,
    };
    let line = command::files_line(rg);
    let names = list(&line, workdir, budget, u64::MAX, !walked.errors.is_empty())?;
    let listed: HashSet<Name> = names.into_iter().collect();
    let walked_set: HashSet<&Name> = walked.files.iter().map(|f| &f.name).collect();
    if listed.len() != walked.files.len() || listed.iter().any(|n| !walked_set.contains(n)) {
        return Err(format!(
            "the walk found {} files and rg --files {}",
            walked.files.len(),
            listed.len()
        ));
    }
    Ok(())
}

/// The files `line` (an `rg --files --null`) lists, run as every rg is
/// (`process::run`); `Err` unless rg listed cleanly (an error message, a
/// limit, a signal), or only with errors when `errors_expected`.
fn list(
    line: &CommandLine,
    workdir: &Path,
    budget: Budget<'_>,
    cap: u64,
    errors_expected: bool,
) -> Result<Vec<Name>, String> {
    let spec = Spec {
        line,
        workdir,
        budget,
        stdout_cap: cap,
    };
    let mut sink = ListingSink::default();
    let finished =
        process::run(&spec, &mut sink).map_err(|e| format!("cannot run rg --files ({e})"))?;
    match finished.ending {
        Ending::Exited(RgExit::Status(0 | 1)) if finished.stderr.messages == 0 => {}
        Ending::Exited(RgExit::Status(2)) if errors_expected => {}
        Ending::Exited(_) => return Err("rg --files reported errors".to_owned()),
        Ending::Overflow => return Err("too many files".to_owned()),
        Ending::Halted(_) => return Err("stopped".to_owned()),
    }
    Ok(sink
        .bytes
        .split(|&b| b == 0)
        .filter(|n| !n.is_empty())
        .map(<[u8]>::to_vec)
        .collect())
}
