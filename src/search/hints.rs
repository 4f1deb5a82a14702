//! Where to look next (SPEC §4a): every dead end names a next step.
//!
//! - An empty search runs bounded probes, each the same search with one
//!   rule relaxed: grep once more through what ignore files and hidden-file
//!   rules skipped (the VCS directories still excluded), and grep or glob
//!   ignoring case. They run side by side, list files only, in path order
//!   (so the few shown are the same every run whatever the byte cap cuts
//!   off), and share the call's remaining budget: three quarters of the
//!   time the search took (with a floor, below). A probe that fails, finds
//!   nothing or runs out of time adds nothing.
//! - A capped result names the places most of the results left off the
//!   page are in, from the complete result already in memory.

use std::borrow::Cow;
use std::collections::HashMap;
use std::thread;
use std::time::Duration;

use super::listing::{self, ListingSink};
use super::paths::Workdir;
use super::places::{self, Leaf, parent_bytes, parent_of};
use super::report::{Hint, Items, Linked};
use crate::rg::command::{Line, Probe};
use crate::rg::process::{self, Ending, Exited, Spec};
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
/// Examples a hint names.
const EXAMPLES: usize = 3;
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
    lines: &[(Probe, Line)],
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
    let listed: Vec<(Probe, Option<Listed>)> = thread::scope(|scope| {
        let runs: Vec<_> = lines
            .iter()
            .map(|(probe, line)| {
                let spec = Spec {
                    line,
                    workdir: &settings.workdir,
                    budget,
                    stdout_cap: PROBE_CAP,
                };
                (*probe, scope.spawn(move || paths(&spec, workdir)))
            })
            .collect();
        runs.into_iter()
            .map(|(probe, run)| (probe, run.join().unwrap_or(None)))
            .collect()
    });
    listed
        .into_iter()
        .filter_map(|(probe, listed)| {
            let Listed { paths, complete } = listed?;
            if probe == Probe::Links {
                return links(&settings.workdir, paths, complete);
            }
            let count = paths.len();
            let examples: Vec<String> = paths.iter().take(EXAMPLES).cloned().collect();
            Some(match probe {
                Probe::Ignored => Hint::Ignored {
                    count,
                    complete,
                    path: path_to_search(&paths),
                    examples,
                },
                _ => Hint::Case {
                    count,
                    complete,
                    examples,
                },
            })
        })
        .collect()
}

/// The hint of the link probe: of the paths it listed, those reached
/// through a symbolic link (each is, unless the tree changed between the
/// search and the probe: a path with no link on the way is not named, and
/// none is no hint).
fn links(workdir: &std::path::Path, paths: Vec<String>, complete: bool) -> Option<Hint> {
    let linked: Vec<Linked> = paths
        .into_iter()
        .filter_map(|path| {
            let (link, target) = link_on_the_way(workdir, &path)?;
            Some(Linked { path, link, target })
        })
        .collect();
    if linked.is_empty() {
        return None;
    }
    Some(Hint::Links {
        count: linked.len(),
        complete,
        examples: linked.into_iter().take(EXAMPLES).collect(),
    })
}

/// The paths a probe listed (displayed), and whether that is all of them.
struct Listed {
    paths: Vec<String>,
    complete: bool,
}

/// What a probe found; `None` when it found nothing, failed, or ran out of
/// time.
fn paths(spec: &Spec<'_>, workdir: &Workdir) -> Option<Listed> {
    let mut sink = ListingSink::default();
    let finished = process::run(spec, &mut sink).ok()?;
    let complete = match finished.ending {
        Ending::Exited(Exited::Status(0)) => true,
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

/// The first component of `path` (displayed: relative to `workdir`, or
/// absolute) that is a symbolic link, spelled as `path` spells it, and
/// what it points to. Windows: rg prints `\`, the display `/`; either
/// separates here.
fn link_on_the_way(workdir: &std::path::Path, path: &str) -> Option<(String, String)> {
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
            return Some((prefix.to_owned(), target));
        }
    }
    None
}

/// What to pass as `path` to search `paths` (rg searches a path given
/// explicitly even where ignore rules would skip it): the one file; or the
/// deepest directory that holds them all; or else the directory that holds
/// the most of them (the first such in path order), or the first file when
/// no directory holds two.
fn path_to_search(paths: &[String]) -> String {
    let [first, rest @ ..] = paths else {
        return ".".to_owned();
    };
    if rest.is_empty() {
        return first.clone();
    }
    let mut common = components(first);
    for path in rest {
        let components = components(path);
        let shared = common
            .iter()
            .zip(&components)
            .take_while(|(a, b)| a == b)
            .count();
        common.truncate(shared);
    }
    // Only `/` in common is no common directory worth naming.
    if common.iter().any(|c| !c.is_empty()) {
        return common.join("/");
    }
    let mut dirs: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for path in paths {
        *dirs.entry(parent_of(path)).or_default() += 1;
    }
    // The largest group; on a tie the first in path order (max_by_key
    // keeps the last of equals, so the order is reversed).
    match dirs.iter().rev().max_by_key(|&(_, &n)| n) {
        Some((dir, &n)) if n > 1 && !matches!(*dir, "" | "/") => (*dir).to_owned(),
        _ => first.clone(),
    }
}

/// The components of the directory `path` is in. An absolute path's start
/// with "" (so they join back to `/…`); a workdir file's parent has none.
fn components(path: &str) -> Vec<&str> {
    match parent_of(path) {
        "" => Vec::new(),
        dir => dir.split('/').collect(),
    }
}

/// The remainder of a page that shows `shown` of the `total` entries in
/// `items` from `offset` on: how many it leaves out (before it and after
/// it) and the places most of them are in (see `places`). `None` when the
/// page shows them all.
pub fn remainder(items: &Items, offset: usize, shown: usize, total: usize) -> Option<Hint> {
    if shown >= total {
        return None;
    }
    let places = match items {
        Items::Glob(paths) | Items::Files(paths) => {
            directories(paths.raw_outside_in_memory_order(offset, shown))
        }
        Items::Counts(files) => directories(
            files
                .iter()
                .enumerate()
                .filter(|&(i, _)| i < offset || i >= offset + shown)
                .map(|(_, f)| f.path.as_bytes()),
        ),
        Items::Lines(files) => {
            // Matched lines before the page, on it, after it: a file's
            // count is what of it lies outside.
            let mut before = offset;
            let mut on_page = shown;
            let rest = files.iter().map(|f| {
                let matches = f.matches();
                let skipped = matches.min(before);
                before -= skipped;
                let here = (matches - skipped).min(on_page);
                on_page -= here;
                (f.path.as_str(), matches - here)
            });
            places::largest(rest, Leaf::File)
        }
    };
    Some(Hint::Remainder {
        count: total - shown,
        places,
    })
}

/// The places of `paths` by the directories they are in. One count per
/// directory, on the raw bytes (a string is made per directory, not per
/// path); runs of paths in one directory (rg lists a directory's entries
/// together) are counted without a lookup.
fn directories<'p>(paths: impl Iterator<Item = &'p [u8]>) -> Vec<(String, usize)> {
    let mut dirs: HashMap<&[u8], usize> = HashMap::new();
    let mut run: Option<(&[u8], usize)> = None;
    for path in paths {
        // Given up on (see `watchdog`): nobody will read these places.
        if crate::stop::unwanted() {
            break;
        }
        let dir = parent_bytes(path);
        match &mut run {
            Some((last, n)) if *last == dir => *n += 1,
            _ => {
                if let Some((last, n)) = run.replace((dir, 1)) {
                    *dirs.entry(last).or_default() += n;
                }
            }
        }
    }
    if let Some((last, n)) = run {
        *dirs.entry(last).or_default() += n;
    }
    let named: Vec<(Cow<'_, str>, usize)> = dirs
        .into_iter()
        .map(|(dir, n)| (String::from_utf8_lossy(dir), n))
        .collect();
    places::largest(named.iter().map(|(d, n)| (d.as_ref(), *n)), Leaf::FilesIn)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_path_to_search_is_the_file_or_the_common_directory() {
        assert_eq!(
            path_to_search(&strings(&["node_modules/lib/x.js"])),
            "node_modules/lib/x.js"
        );
        assert_eq!(
            path_to_search(&strings(&[
                "node_modules/lib/x.js",
                "node_modules/lib/y.js"
            ])),
            "node_modules/lib"
        );
        assert_eq!(
            path_to_search(&strings(&["node_modules/a/x.js", "node_modules/b/y.js"])),
            "node_modules"
        );
        assert_eq!(
            path_to_search(&strings(&["target/x", "vendor/y"])),
            "target/x"
        );
        assert_eq!(path_to_search(&strings(&[".env", "target/x"])), ".env");
        assert_eq!(
            path_to_search(&strings(&[
                ".config/a",
                "node_modules/lib/x.js",
                "node_modules/lib/y.js"
            ])),
            "node_modules/lib"
        );
    }

    #[test]
    fn an_absolute_path_to_search_keeps_its_root() {
        assert_eq!(
            path_to_search(&strings(&["/opt/ext/lib/x.js", "/opt/ext/lib/y.js"])),
            "/opt/ext/lib"
        );
        assert_eq!(
            path_to_search(&strings(&["/opt/a/x", "/srv/b/y", "/srv/b/z"])),
            "/srv/b"
        );
        // Only `/` in common, and no directory holds two: the first file.
        assert_eq!(path_to_search(&strings(&["/x", "/y"])), "/x");
        assert_eq!(parent_bytes(b"/x"), b"/");
        assert_eq!(parent_bytes(b"x"), b"");
        assert_eq!(parent_of("/opt/é/x"), "/opt/é");
    }
}
