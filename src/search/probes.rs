//! The probes of an empty search (SPEC §4a), each the same search with one
//! rule relaxed: grep once more through what ignore files and hidden-file
//! rules skipped (the VCS directories still excluded), grep or glob
//! ignoring case, and following symbolic links. They run side by side,
//! list files only, in path order (so the few shown are the same every run
//! whatever the byte cap cuts off), and share the call's remaining budget:
//! three quarters of the time the search took (with a floor, below). A
//! probe that fails, finds nothing or runs out of time adds nothing. What
//! a probe found becomes its hint in `hints`.

use std::path::Path;
use std::thread;
use std::time::Duration;

use super::listing;
use super::paths::Workdir;
use super::report::{Hint, Linked};
use crate::rg::command::{CommandLine, Probe};
use crate::rg::process::{self, Spec};
use crate::rg::{Ending, ListingSink, RgExit};
use crate::settings::Settings;
use crate::stop::Budget;

/// Whether an empty search without `follow` runs the link probe. Not on
/// Windows (SPEC §10): a symbolic link there needs Developer Mode or an
/// administrator, so trees seldom hold one, and a process start costs far
/// more; a third probe beside the other two made them miss their share of
/// the budget, so the hints they give came and went between runs.
pub const LINK_PROBE: bool = cfg!(not(windows));
/// Paths one probe may print before it is stopped (it has found enough).
const PROBE_CAP: u64 = 16 * 1024;
/// The probes' share of the time the search took, as a fraction. SPEC §4a
/// allows as long again (1/1), but the probes' start and kill come on top,
/// and an empty search would cost just over 2× raw rg; at 3/4 it stays
/// under with room for noise. Little is lost: a probe walks in one thread,
/// in path order (for the determinism above), so on a tree big enough for
/// the search to take long it needs several times the search's time, or
/// stops early at [`PROBE_CAP`] having found plenty.
const PROBE_SHARE: (u32, u32) = (3, 4);
/// The least time the probes get. A share of the search's time alone
/// would give a 5 ms search 5 ms of probing, less than rg needs to start,
/// and a hint that comes and goes from run to run; with this floor the same
/// tree gives the same text.
const PROBE_FLOOR: Duration = Duration::from_millis(250);

/// [`PROBE_FLOOR`], or the milliseconds in `DSH_SEARCH_TEST_PROBE_FLOOR_MS`.
/// A test seam, honoured by every build because the suite also runs the
/// release binaries: the suite raises the floor so that a hint it expects
/// does not depend on how busy the machine is (under wine, or with the
/// tests running side by side, starting rg alone can take 250 ms). The
/// probes still share the call's timeout, so no value makes a call longer
/// than `--timeout-ms`.
fn probe_floor() -> Duration {
    std::env::var("DSH_SEARCH_TEST_PROBE_FLOOR_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(PROBE_FLOOR, Duration::from_millis)
}

/// The hints of an empty search that took `took`: each probe's `line`
/// (built by the tool, see `rg::command`) run side by side, within the
/// share of the budget above.
pub fn probe(
    lines: &[(Probe, CommandLine)],
    settings: &Settings,
    workdir: &Workdir,
    took: Duration,
    budget: Budget<'_>,
) -> Vec<Hint> {
    // No rg, no probe: the lines would name an rg that is not there (only
    // a replayed run, `search::replay`, gets here without one).
    if settings.rg.path().is_none() {
        return Vec::new();
    }
    let budget = budget.within((took * PROBE_SHARE.0 / PROBE_SHARE.1).max(probe_floor()));
    let found: Vec<(Probe, Option<Listed>)> = thread::scope(|scope| {
        let runs: Vec<_> = lines
            .iter()
            .map(|(probe, line)| {
                let spec = Spec {
                    line,
                    workdir: &settings.workdir,
                    budget,
                    stdout_cap: PROBE_CAP,
                };
                (*probe, scope.spawn(move || listed(&spec, workdir)))
            })
            .collect();
        runs.into_iter()
            .map(|(probe, run)| (probe, run.join().unwrap_or(None)))
            .collect()
    });
    found
        .into_iter()
        .filter_map(|(probe, found)| {
            let Listed { paths, complete } = found?;
            match probe {
                Probe::Ignored => Some(Hint::ignored(&paths, complete)),
                Probe::Case => Some(Hint::case(&paths, complete)),
                Probe::Links => {
                    let linked = paths
                        .into_iter()
                        .filter_map(|p| linked(&settings.workdir, p));
                    Hint::links(linked.collect(), complete)
                }
            }
        })
        .collect()
}

/// The paths a probe listed (displayed), and whether that is all of them.
struct Listed {
    paths: Vec<String>,
    complete: bool,
}

/// What a probe found; `None` when it found nothing, failed, or ran out of
/// time.
fn listed(spec: &Spec<'_>, workdir: &Workdir) -> Option<Listed> {
    let mut sink = ListingSink::default();
    let finished = process::run(spec, &mut sink).ok()?;
    let complete = match finished.ending {
        Ending::Exited(RgExit::Status(0)) => true,
        // It found more than it may print: what it printed stands.
        Ending::Overflow => false,
        _ => return None,
    };
    let paths: Vec<String> = listing::whole_paths(&sink.bytes)
        .split(|&b| b == 0)
        .filter(|p| listing::shows(p, workdir))
        .map(|p| String::from_utf8_lossy(&workdir.display(p)).into_owned())
        .collect();
    (!paths.is_empty()).then_some(Listed { paths, complete })
}

/// `path` (displayed: relative to `workdir`, or absolute) with its first
/// component that is a symbolic link, spelled as `path` spells it, and
/// what it points to. Windows: rg prints `\`, the display `/`; either
/// separates here. Every path the link probe lists has one, unless the
/// tree changed since the search: a path with none is not named.
fn linked(workdir: &Path, path: String) -> Option<Linked> {
    let bytes = path.as_bytes();
    let ends = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'/' && i > 0)
        .map(|(i, _)| i)
        .chain(std::iter::once(bytes.len()));
    for end in ends {
        // A prefix that ends before a '/' or at the end is on a character
        // boundary.
        let prefix = &path[..end];
        if prefix.ends_with('/') || prefix == "." || prefix == ".." {
            continue;
        }
        let full = workdir.join(prefix);
        let is_link = std::fs::symlink_metadata(&full).is_ok_and(|m| m.file_type().is_symlink());
        if is_link {
            let target = std::fs::read_link(&full).ok()?;
            let target = target.to_string_lossy();
            let target = if cfg!(windows) {
                target.replace('\\', "/")
            } else {
                target.into_owned()
            };
            let link = prefix.to_owned();
            return Some(Linked { path, link, target });
        }
    }
    None
}
