//! The result of one successful search, independent of how it is shown.
//!
//! A report holds the COMPLETE ordered result (the spill needs it) and how
//! much of it the inline page shows; renderers decide nothing but layout.

use std::borrow::Cow;
use std::path::PathBuf;

use crate::tool::Tool;

/// One matched line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineMatch {
    pub line_number: u64,
    /// The preview text, marks included (see `search::preview`).
    pub preview: String,
    pub line_truncated: bool,
}

/// The matched lines of one file, ordered by line number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileMatches {
    /// The displayed path (lossily decoded; control characters unescaped).
    pub path: String,
    pub matches: Vec<LineMatch>,
}

/// Displayed paths in order, kept as one buffer and a range per path: a
/// listing of hundreds of thousands of paths costs two allocations, not one
/// per path. Paths are decoded (lossily) only when shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathList {
    bytes: Vec<u8>,
    ranges: Vec<(usize, usize)>,
}

impl PathList {
    /// `ranges` index into `bytes`, in display order.
    pub fn new(bytes: Vec<u8>, ranges: Vec<(usize, usize)>) -> Self {
        Self { bytes, ranges }
    }

    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// The paths from the `from`th on, undecoded, in the order they lie
    /// in memory (rg's order): a scan that reads the buffer front to back.
    pub fn raw_from_in_memory_order(&self, from: usize) -> impl Iterator<Item = &[u8]> {
        let mut ranges: Vec<(usize, usize)> = self.ranges.iter().skip(from).copied().collect();
        ranges.sort_unstable();
        ranges
            .into_iter()
            .map(|(start, end)| &self.bytes[start..end])
    }

    /// The first `n` paths (all when `n` is larger).
    pub fn take(&self, n: usize) -> impl Iterator<Item = Cow<'_, str>> {
        self.ranges
            .iter()
            .take(n)
            .map(|&(start, end)| String::from_utf8_lossy(&self.bytes[start..end]))
    }
}

impl<S: AsRef<str>> FromIterator<S> for PathList {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        let mut list = Self::default();
        for path in iter {
            let start = list.bytes.len();
            list.bytes.extend_from_slice(path.as_ref().as_bytes());
            list.ranges.push((start, list.bytes.len()));
        }
        list
    }
}

/// The complete, ordered result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Items {
    /// Displayed paths in `--glob-sort` order.
    Glob(PathList),
    /// Files by path (byte order), lines by number.
    Grep(Vec<FileMatches>),
}

/// How much of what was asked for rg searched, when the result stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Coverage {
    /// Everything: rg exited 0 or 1.
    Complete,
    /// Nothing: the include or ignore rules excluded every file (rg exit 2
    /// with "No files were searched"): an empty result (SPEC §4).
    NothingSearched,
    /// rg exited 2 after printing results: some paths could not be read.
    Unsearched(Unsearched),
}

/// The paths rg could not search in a search that still found results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsearched {
    /// rg's error lines on stderr.
    pub paths: u64,
    pub first_error: String,
}

/// A note that points the agent somewhere after a dead end (SPEC §4a).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// An empty grep, and files the ignore or hidden-file rules skipped
    /// match: how many (`complete` false: at least that many), the first
    /// few in path order, and the path to pass to search them.
    Ignored {
        count: usize,
        complete: bool,
        examples: Vec<String>,
        path: String,
    },
    /// An empty search, and the same search ignoring case finds these.
    Case {
        count: usize,
        complete: bool,
        examples: Vec<String>,
    },
    /// A capped result: how many results the page left out, and the
    /// places (directories for glob, files for grep) most of them are in.
    Remainder {
        count: usize,
        places: Vec<(String, usize)>,
    },
}

/// What became of the complete result of a capped search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spill {
    /// The result fit inline: nothing to save.
    NotNeeded,
    /// Saved; `locator` is absolute.
    Saved {
        locator: PathBuf,
        hint: String,
        reused: bool,
    },
    /// Capped but not saved; `reason` says why (no spill dir, an I/O error).
    NotSaved { reason: String },
}

/// Everything a renderer needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub tool: Tool,
    pub items: Items,
    /// Paths (glob) or matched lines (grep) in the complete result.
    pub total: usize,
    /// How many of them the inline page shows.
    pub shown: usize,
    /// grep: files rg found binary that matched, by displayed path in byte
    /// order; their lines are not shown (SPEC §2).
    pub binary_files: Vec<String>,
    pub coverage: Coverage,
    pub spill: Spill,
    /// Where to look next, when the result is empty or capped.
    pub hints: Vec<Hint>,
}

impl Report {
    pub fn truncated(&self) -> bool {
        self.shown < self.total
    }

    /// Nothing matched at all: no path, no line, no binary file.
    pub fn is_empty(&self) -> bool {
        self.total == 0 && self.binary_files.is_empty()
    }

    /// Files in the complete grep result (0 for glob).
    pub fn total_files(&self) -> usize {
        match &self.items {
            Items::Glob(_) => 0,
            Items::Grep(files) => files.len(),
        }
    }

    /// The inline page of a grep result: the groups of the first `shown`
    /// matches, the last group cut where the cap falls.
    pub fn grep_page(&self) -> Vec<(&str, &[LineMatch])> {
        let Items::Grep(files) = &self.items else {
            return Vec::new();
        };
        page_of(files, self.shown)
    }

    /// The inline page of a glob result.
    pub fn glob_page(&self) -> Vec<Cow<'_, str>> {
        match &self.items {
            Items::Glob(paths) => paths.take(self.shown).collect(),
            Items::Grep(_) => Vec::new(),
        }
    }
}

/// The groups holding the first `limit` matches of `files`.
pub fn page_of(files: &[FileMatches], limit: usize) -> Vec<(&str, &[LineMatch])> {
    let mut left = limit;
    let mut page = Vec::new();
    for file in files {
        if left == 0 {
            break;
        }
        let take = file.matches.len().min(left);
        page.push((file.path.as_str(), &file.matches[..take]));
        left -= take;
    }
    page
}
