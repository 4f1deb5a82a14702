//! Where to look next (SPEC §4a): every dead end names a next step. Here,
//! the hints made of what an empty search's probes found, with no I/O (the
//! probes run in `probes`); the remainder of a capped page is `page`'s.

use super::places::parent_of;
use super::report::{Hint, Linked};

/// Examples a hint names.
const EXAMPLES: usize = 3;

impl Hint {
    /// The hint of the ignore probe, which listed `paths` (`complete`: all
    /// it found): how many, the first few, and the path to pass to search
    /// them.
    pub fn ignored(paths: &[String], complete: bool) -> Self {
        Self::Ignored {
            count: paths.len(),
            complete,
            examples: examples(paths),
            path: path_to_search(paths),
        }
    }

    /// The hint of the case probe, which listed `paths`.
    pub fn case(paths: &[String], complete: bool) -> Self {
        Self::Case {
            count: paths.len(),
            complete,
            examples: examples(paths),
        }
    }

    /// The hint of the link probe: the paths it listed that were reached
    /// through a link; none is no hint.
    pub fn links(linked: Vec<Linked>, complete: bool) -> Option<Self> {
        if linked.is_empty() {
            return None;
        }
        Some(Self::Links {
            count: linked.len(),
            complete,
            examples: linked.into_iter().take(EXAMPLES).collect(),
        })
    }
}

fn examples(paths: &[String]) -> Vec<String> {
    paths.iter().take(EXAMPLES).cloned().collect()
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

#[cfg(test)]
#[path = "../../tests/unit/search/hints.rs"]
mod tests;
