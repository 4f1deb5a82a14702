//! Where the rest of a capped result is (SPEC §4a): up to three places,
//! directories or (for grep) files, that hold most of the results the page
//! left out, largest first, each named as narrowly as it can be without
//! losing much of what it holds.
//!
//! The places start as what lies directly in the workdir. Then, while one
//! of the places shown can be replaced by its parts and the places shown
//! lose at most a tenth of what it held, it is (so a directory that holds
//! one thing is always named by that thing): `src/ 3,200` becomes `src/gen/ 3,100` when only
//! 100 are elsewhere in `src/`, `packages/ 3,700` becomes `packages/a/
//! 3,000, packages/b/ 700`, but `tests/ 6` stays whole rather than become
//! `tests/t1.rs 2, tests/t2.rs 2`. An agent can pass any place as `path`.

use std::borrow::Cow;
use std::collections::HashMap;

/// Places named.
pub const PLACES: usize = 3;
/// A place is replaced by its parts only if the places shown lose at most
/// 1/`LOSS` of its count.
const LOSS: usize = 10;

/// What a count is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaf {
    /// One file (grep): the place is the file.
    File,
    /// The files directly in a directory (glob): the place is the directory.
    FilesIn,
}

/// The places of `leaves` (displayed paths, each once: a file for
/// [`Leaf::File`], a directory, `""` for the workdir, for
/// [`Leaf::FilesIn`]), as display names (directories end in `/`, the
/// workdir is `./`) with counts, largest first, ties in path order.
///
/// No tree is built: a place's parts are counted, when a split is
/// considered, by one pass over the leaves it holds. A split is considered
/// for the places shown only, a few times in all, so a remainder of
/// 200,000 paths in 20,000 directories costs a few passes over 20,000
/// leaves and almost no memory.
pub fn largest<'a>(
    leaves: impl IntoIterator<Item = (&'a str, usize)>,
    leaf: Leaf,
) -> Vec<(String, usize)> {
    let leaves: Vec<(&str, usize)> = leaves.into_iter().filter(|&(_, n)| n > 0).collect();
    let total = leaves.iter().map(|&(_, n)| n).sum();
    let root = Place {
        path: "",
        kind: PlaceKind::Dir,
        count: total,
    };
    let mut places = parts(&leaves, leaf, &root);
    // A place with one part is named by it (the split loses nothing).
    // Every part of a directory is strictly deeper than it (a longer
    // prefix of a leaf, see `child_of`), so a directory once split never
    // comes back, and the splits are at most the distinct directories on
    // the way to the leaves: fewer than the leaves' bytes.
    let most_splits: usize = leaves.iter().map(|&(p, _)| p.len() + 1).sum();
    for _ in 0..most_splits {
        // Given up on (see `watchdog`): nobody will read these places.
        if crate::stop::unwanted() {
            break;
        }
        let shown = top(&places);
        let held: usize = shown.iter().map(|p| p.count).sum();
        let split = shown.iter().find_map(|place| {
            if place.kind != PlaceKind::Dir {
                return None;
            }
            let parts = parts(&leaves, leaf, place);
            let rest = places.iter().filter(|p| *p != place).cloned();
            let trial = top(&rest.chain(parts.iter().cloned()).collect::<Vec<_>>());
            let lost = held.saturating_sub(trial.iter().map(|p| p.count).sum());
            (lost * LOSS <= place.count).then(|| (place.clone(), parts))
        });
        let Some((place, parts)) = split else { break };
        places.retain(|p| *p != place);
        places.extend(parts);
    }
    top(&places)
        .into_iter()
        .map(|p| (p.name(), p.count))
        .collect()
}

/// What a place is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum PlaceKind {
    /// A directory: what lies anywhere in it.
    Dir,
    /// A file (grep).
    File,
    /// The files directly in a directory (glob), named as the directory.
    Own,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Place<'a> {
    /// A file's path, or a directory's without its `/` (`""` the
    /// workdir, `/` the top of absolute paths): a slice of a leaf.
    path: &'a str,
    kind: PlaceKind,
    count: usize,
}

impl Place<'_> {
    /// The name shown: directories end in `/`, the workdir is `./`.
    fn name(&self) -> String {
        match self.spelling() {
            (path, true) => format!("{path}/"),
            (path, false) => path.to_owned(),
        }
    }

    /// The bytes of [`Place::name`], without making the string.
    fn name_bytes(&self) -> impl Iterator<Item = u8> + '_ {
        let (path, slash) = self.spelling();
        path.bytes().chain(slash.then_some(b'/'))
    }

    /// The name as a path and whether a `/` follows it.
    fn spelling(&self) -> (&str, bool) {
        match (self.kind, self.path) {
            (PlaceKind::File, path) => (path, false),
            (_, "") => ("./", false),
            (_, "/") => ("/", false),
            (_, path) => (path, true),
        }
    }
}

/// The places of `paths` by the directories they are in. One count per
/// directory, on the raw bytes (a string is made per directory, not per
/// path); runs of paths in one directory (rg lists a directory's entries
/// together) are counted without a lookup.
pub fn directories<'p>(paths: impl Iterator<Item = &'p [u8]>) -> Vec<(String, usize)> {
    let mut dirs: HashMap<&[u8], usize> = HashMap::new();
    let mut run: Option<(&[u8], usize)> = None;
    for path in paths {
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
    largest(named.iter().map(|(d, n)| (d.as_ref(), *n)), Leaf::FilesIn)
}

/// The first [`PLACES`] of `places`, largest first, ties by name.
fn top<'p, 'a>(places: &'p [Place<'a>]) -> Vec<Place<'a>> {
    let before = |a: &Place<'_>, b: &Place<'_>| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.name_bytes().cmp(b.name_bytes()))
            .is_lt()
    };
    let mut top: Vec<&'p Place<'a>> = Vec::with_capacity(PLACES + 1);
    for place in places {
        let at = top
            .iter()
            .position(|t| before(place, t))
            .unwrap_or(top.len());
        if at < PLACES {
            top.insert(at, place);
            top.truncate(PLACES);
        }
    }
    top.into_iter().cloned().collect()
}

/// The parts of directory `place`: the directories, files and own files
/// directly in it, with what each holds.
fn parts<'a>(leaves: &[(&'a str, usize)], leaf: Leaf, place: &Place<'a>) -> Vec<Place<'a>> {
    let mut counts: HashMap<(&'a str, PlaceKind), usize> = HashMap::new();
    for &(path, count) in leaves {
        let dir = match leaf {
            Leaf::File => parent_of(path),
            Leaf::FilesIn => path,
        };
        if !holds(place.path, dir) {
            continue;
        }
        let part = match child_of(place.path, dir) {
            Some(child) => (child, PlaceKind::Dir),
            None => match leaf {
                Leaf::File => (path, PlaceKind::File),
                Leaf::FilesIn => (path, PlaceKind::Own),
            },
        };
        *counts.entry(part).or_default() += count;
    }
    counts
        .into_iter()
        .map(|((path, kind), count)| Place { path, kind, count })
        .collect()
}

/// Whether directory `dir` is `path` or holds it.
fn holds(dir: &str, path: &str) -> bool {
    match dir {
        "" => true,
        "/" => path.starts_with('/'),
        _ => path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
    }
}

/// The directory directly in `dir` on the way to `path` (which `dir`
/// holds): a prefix of `path` strictly longer than `dir` that ends where a
/// component does, or `None` when `path` is `dir` itself (perhaps spelled
/// with more slashes). Empty components (`//`, `a//b`, a trailing `/`)
/// are skipped, so a part is always deeper than its place: `child_of("/",
/// "//home/x")` is `//home`, never `/` again.
fn child_of<'a>(dir: &str, path: &'a str) -> Option<&'a str> {
    if dir.is_empty() && path.starts_with('/') {
        return Some(&path[..1]);
    }
    let mut from = match dir {
        "" | "/" => dir.len(),
        _ => dir.len() + 1,
    };
    let bytes = path.as_bytes();
    while bytes.get(from) == Some(&b'/') {
        from += 1;
    }
    if from >= path.len() {
        return None;
    }
    let end = path[from..].find('/').map_or(path.len(), |i| from + i);
    Some(&path[..end])
}

/// The directory `path` is in: `""` for the workdir, `/` for the top of
/// an absolute path.
pub(super) fn parent_of(path: &str) -> &str {
    // A prefix that ends before a '/' is on a character boundary.
    &path[..parent_bytes(path.as_bytes()).len()]
}

/// `parent_of` on raw bytes (glob's listing). The slashes before the last
/// component all go (`a//x` is in `a`, `//x` in `/`).
pub(super) fn parent_bytes(path: &[u8]) -> &[u8] {
    let Some(last) = memchr::memrchr(b'/', path) else {
        return &path[..0];
    };
    match path[..last].iter().rposition(|&b| b != b'/') {
        Some(i) => &path[..=i],
        // Only slashes before the name: the top of an absolute path, or
        // a path that is just `/`.
        None if path.len() > 1 => &path[..1],
        None => &path[..0],
    }
}

#[cfg(test)]
#[path = "../../tests/unit/search/places.rs"]
mod tests;
