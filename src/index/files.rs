//! The index's view of the tree: every file the scan searches, by name,
//! with the number of the index's reading of it while that reading is
//! still what the name holds ([`Files`]); the readings and what they were
//! taken from ([`Content`]); and what the watcher says must be walked
//! again ([`Work`]).
//!
//! A name holds the index's reading only while its file is the one read,
//! unchanged: the same inode, size, `mtime` and `ctime` as when it was
//! read (`tree::Stat`). A walk finds each file's `lstat` and looks its
//! inode up among the readings, so a directory moved within the tree keeps
//! its files' readings, and a directory replaced, swapped or moved back
//! after a change does not. A write the watcher reports marks the reading
//! changed for good (until the next build). A file with another name (a
//! hard link) is never vouched for: a write through the other name is
//! reported under that name only, or not at all when it lies outside the
//! tree.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;

use super::grams::{Bits, Postings};
use super::names::{Name, parent, under};
use super::tree::{Built, Depth, FoundFile, Stat, Walked};
use super::watch::Event;

/// The index's readings.
pub struct Content {
    pub postings: Postings,
    /// What each file was as it was read, by number.
    read: Vec<Stat>,
    /// The readings by inode.
    by_ino: Vec<(u64, u32)>,
    /// Readings never vouched for (`tree::Built::always`).
    always: Bits,
    /// Readings no `lstat` vouches for (`tree::Built::racy`).
    racy: Bits,
    /// Readings a change has made stale.
    changed: Bits,
    changed_count: usize,
}

impl Content {
    pub fn new(built: Built) -> Self {
        let mut by_ino: Vec<(u64, u32)> = built
            .read
            .iter()
            .enumerate()
            .map(|(id, stat)| (stat.ino, id as u32))
            .collect();
        by_ino.sort_unstable();
        Self {
            changed: Bits::none(built.postings.files()),
            postings: built.postings,
            read: built.read,
            by_ino,
            always: built.always,
            racy: built.racy,
            changed_count: 0,
        }
    }

    /// Files read.
    pub fn files(&self) -> usize {
        self.read.len()
    }

    /// Readings made stale since the build.
    pub fn changed(&self) -> usize {
        self.changed_count
    }

    fn mark_changed(&mut self, id: u32) {
        if !self.changed.contains(id) {
            self.changed.insert(id);
            self.changed_count += 1;
        }
    }

    /// The readings of inode `ino`, in order.
    fn of_inode(&self, ino: u64) -> impl Iterator<Item = u32> + '_ {
        let at = self.by_ino.partition_point(|&(i, _)| i < ino);
        self.by_ino[at..]
            .iter()
            .take_while(move |&&(i, _)| i == ino)
            .map(|&(_, id)| id)
    }

    /// The file of inode `ino` has another name now: its readings are
    /// stale.
    pub fn stale_inode(&mut self, ino: u64) {
        let ids: Vec<u32> = self.of_inode(ino).collect();
        for id in ids {
            self.mark_changed(id);
        }
    }

    /// The reading a file found as `found` still holds, if any: the
    /// reading of its inode, taken from it unchanged. A file that changed
    /// too soon before it was read is vouched for by its `lstat` only when
    /// its name held the reading already (`held`) and no event was lost:
    /// a change since then would have been reported. A file with another
    /// name makes every reading of its inode stale.
    fn resolve(&mut self, found: &FoundFile, held: Option<u32>, lost: bool) -> Option<u32> {
        if found.stat.links > 1 {
            self.stale_inode(found.stat.ino);
            return None;
        }
        self.of_inode(found.stat.ino)
            .filter(|&id| {
                !self.changed.contains(id)
                    && (!self.racy.contains(id) || (held == Some(id) && !lost))
                    && found.stat.same(&self.read[id as usize])
            })
            .last()
    }

    /// Whether the file holding reading `id` must be searched, for a
    /// query whose answer is `holds` (`None`: every file).
    pub fn candidate(&self, id: Option<u32>, holds: Option<&Bits>) -> bool {
        id.is_none_or(|id| {
            self.changed.contains(id)
                || self.always.contains(id)
                || holds.is_none_or(|b| b.contains(id))
        })
    }

    /// Whether reading `id` is one a change made stale, or one never
    /// vouched for (for `--explain`'s count of changed files).
    pub fn stale(&self, id: Option<u32>) -> bool {
        id.is_none_or(|id| self.changed.contains(id))
    }
}

/// The files the scan searches and the directories it walks.
#[derive(Default)]
pub struct Files {
    /// Each file, with the reading its name still holds.
    map: BTreeMap<Name, Option<u32>>,
    dirs: BTreeSet<Name>,
    /// Directories holding `.git`.
    repos: BTreeSet<Name>,
    /// What could not be read, by the directory it was met in.
    errors: BTreeMap<Name, String>,
    /// Files holding no reading.
    unread: usize,
}

/// The names strictly under `dir` in a map or set keyed by names.
fn range_under(dir: &[u8]) -> (Bound<Name>, Bound<Name>) {
    if dir.is_empty() {
        return (Bound::Excluded(Name::new()), Bound::Unbounded);
    }
    let mut from = dir.to_vec();
    from.push(b'/');
    let mut to = dir.to_vec();
    to.push(b'/' + 1);
    (Bound::Included(from), Bound::Excluded(to))
}

impl Files {
    /// The files and directories of a walk of the whole tree, each file
    /// holding the reading of the same number (a build reads a walk's
    /// files in its order).
    pub fn built(walked: Walked) -> Self {
        let mut files = Self::default();
        for (id, found) in walked.files.into_iter().enumerate() {
            // The build read this name, whatever it held by then: a change
            // since has an event of its own.
            files.map.insert(found.name, Some(id as u32));
        }
        files.dirs.extend(walked.dirs);
        files.repos.extend(walked.repos);
        files.errors.extend(walked.errors);
        files
    }

    pub fn unread(&self) -> usize {
        self.unread
    }

    pub fn repos(&self) -> impl Iterator<Item = &Name> {
        self.repos.iter()
    }

    pub fn is_dir(&self, name: &[u8]) -> bool {
        self.dirs.contains(name)
    }

    /// The first error met walking, if any remains.
    pub fn error(&self) -> Option<&str> {
        self.errors.values().next().map(String::as_str)
    }

    /// Each file and the reading it holds.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, Option<u32>)> {
        self.map.iter().map(|(name, &id)| (name, id))
    }

    /// Whether `name` is a file the scan searches (as far as the last
    /// walk knows).
    pub fn contains(&self, name: &[u8]) -> bool {
        self.map.contains_key(name)
    }

    /// The reading the file `name` still holds, if it is a file of the
    /// tree that holds one.
    pub fn reading(&self, name: &[u8]) -> Option<u32> {
        self.map.get(name).copied().flatten()
    }

    /// The file `name` was written (or changed in mode): its reading is
    /// stale. `false` when the tree holds no such file.
    pub fn written(&mut self, name: &[u8], content: &mut Content) -> bool {
        let Some(entry) = self.map.get_mut(name) else {
            return false;
        };
        if let Some(id) = entry.take() {
            content.mark_changed(id);
            self.unread += 1;
        }
        true
    }

    /// Cut everything strictly under `dir` out of the map, as a map.
    fn cut(&mut self, dir: &[u8]) -> BTreeMap<Name, Option<u32>> {
        let (from, to) = range_under(dir);
        let mut region = if let Bound::Included(from) = from {
            self.map.split_off(&from)
        } else {
            // Everything: the workdir's.
            std::mem::take(&mut self.map)
        };
        if let Bound::Excluded(to) = to {
            let mut after = region.split_off(&to);
            self.map.append(&mut after);
        }
        self.unread -= region.values().filter(|id| id.is_none()).count();
        region
    }

    /// Put `region`'s entries back.
    fn paste(&mut self, mut region: BTreeMap<Name, Option<u32>>) {
        self.unread += region.values().filter(|id| id.is_none()).count();
        self.map.append(&mut region);
    }

    /// Forget the directories (and repositories, and errors) strictly
    /// under `dir`, and `dir` itself when `itself`.
    fn forget_dirs(&mut self, dir: &[u8], itself: bool) {
        let (from, to) = range_under(dir);
        for set in [&mut self.dirs, &mut self.repos] {
            let gone: Vec<Name> = set.range((from.clone(), to.clone())).cloned().collect();
            for name in gone {
                set.remove(&name);
            }
            if itself {
                set.remove(dir);
            }
        }
        let gone: Vec<Name> = self
            .errors
            .range((from, to))
            .map(|(n, _)| n.clone())
            .collect();
        for name in gone {
            self.errors.remove(&name);
        }
        if itself {
            self.errors.remove(dir);
        }
    }

    /// Take in a walk of `root` (a directory the tree walks): its files
    /// and directories replace those the tree knew there (`lost`: events
    /// were lost, so what a name held before vouches for nothing). For a
    /// walk of [`Depth::Entries`], the directories in `root` that are new,
    /// or named in `replaced`, must be walked whole next (returned), and
    /// those gone are forgotten with everything under them (`gone`).
    #[allow(
        clippy::too_many_arguments,
        reason = "one walk's facts, taken in at once"
    )]
    pub fn apply(
        &mut self,
        root: &[u8],
        depth: Depth,
        walked: Walked,
        content: &mut Content,
        replaced: &BTreeSet<Name>,
        lost: bool,
        gone: &mut Vec<Name>,
    ) -> Vec<Name> {
        let mut to_walk = Vec::new();
        let mut region = self.cut(root);
        let mut kept = BTreeMap::new();
        match depth {
            Depth::Whole => self.forget_dirs(root, false),
            Depth::Entries => {
                let direct = |n: &Name| parent(n) == root;
                let old: Vec<Name> = self
                    .dirs
                    .range(range_under(root))
                    .filter(|n| direct(n))
                    .cloned()
                    .collect();
                let new: BTreeSet<&Name> = walked.dirs.iter().filter(|d| direct(d)).collect();
                for dir in &old {
                    if !new.contains(dir) {
                        self.forget_dirs(dir, true);
                        gone.push(dir.clone());
                    }
                }
                for dir in new {
                    if !self.dirs.contains(dir) || replaced.contains(dir) {
                        to_walk.push(dir.clone());
                    }
                }
                // What lies deeper stays, but under the directories gone.
                kept = std::mem::take(&mut region);
                region = take_direct(&mut kept, root);
                kept.retain(|name, _| !gone.iter().any(|g| under(name, g)));
            }
        }
        self.repos.remove(root);
        self.errors.remove(root);
        for found in &walked.files {
            let held = region.get(&found.name).copied().flatten();
            let id = content.resolve(found, held, lost);
            kept.insert(found.name.clone(), id);
        }
        self.paste(kept);
        self.dirs.extend(walked.dirs);
        self.repos.extend(walked.repos);
        for (at, error) in walked.errors {
            self.errors.entry(at).or_insert(error);
        }
        to_walk
    }
}

/// The entries directly in `dir`, taken out of `map`, the names under it.
fn take_direct(map: &mut BTreeMap<Name, Option<u32>>, dir: &[u8]) -> BTreeMap<Name, Option<u32>> {
    let direct: Vec<Name> = map.keys().filter(|n| parent(n) == dir).cloned().collect();
    direct
        .into_iter()
        .filter_map(|name| map.remove_entry(&name))
        .collect()
}

/// What the watcher says must be walked again before the index answers.
#[derive(Debug, Default)]
pub struct Work {
    /// Everything: rules outside the tree changed, or events were lost
    /// (`lost`: what a name held before vouches for nothing).
    pub whole: bool,
    pub lost: bool,
    /// Directories whose rules changed: walked again whole.
    pub rules: BTreeSet<Name>,
    /// Directories whose entries changed: listed again, with the
    /// directories in them to walk again whole if still there.
    pub entries: BTreeMap<Name, BTreeSet<Name>>,
    /// Files changed that the tree did not hold when the event came: a
    /// new file, a file the scan does not search, or a second name (a
    /// hard link) of one it does, looked at once the entries are known.
    pub unknown: BTreeSet<Name>,
    /// Such a file left its name before it could be looked at: whether
    /// it was a second name of a file read cannot be known but by
    /// walking everything again.
    pub vanished: bool,
}

impl Work {
    pub fn is_empty(&self) -> bool {
        !self.whole
            && !self.vanished
            && self.rules.is_empty()
            && self.entries.is_empty()
            && self.unknown.is_empty()
    }

    /// Add what `event` asks (a write is the caller's first: see
    /// [`Files::written`]; one the tree does not hold comes here).
    pub fn add(&mut self, event: &Event) {
        match event {
            Event::Written { name, changed } => {
                if *changed {
                    self.unknown.insert(name.clone());
                }
            }
            Event::Removed(name) => {
                if self.unknown.remove(name) {
                    self.vanished = true;
                }
            }
            Event::Moved { from, to } => {
                if self.unknown.remove(from) {
                    self.unknown.insert(to.clone());
                }
            }
            Event::Entries { dir, child } => {
                let children = self.entries.entry(dir.clone()).or_default();
                children.extend(child.iter().cloned());
            }
            // The workdir's own rules: everything, and the rules outside.
            Event::Rules(dir) if dir.is_empty() => self.whole = true,
            Event::Rules(dir) => {
                self.rules.insert(dir.clone());
            }
            Event::Root => self.whole = true,
            Event::Lost => {
                self.whole = true;
                self.lost = true;
            }
        }
    }

    /// Whether `dir` lies at or under one of `walked`.
    pub fn covered(walked: &[Name], dir: &[u8]) -> bool {
        walked.iter().any(|w| w.as_slice() == dir || under(dir, w))
    }
}

#[cfg(test)]
#[path = "../../tests/unit/index/files.rs"]
mod tests;
