//! The result of one successful search, independent of how it is shown.
//!
//! A report holds the COMPLETE ordered result (the spill needs it) and
//! which of its entries the inline page shows (SPEC §3b; see `page`): an
//! entry is a path (glob), a matched line (grep content), or a file (grep
//! files and count). Renderers decide nothing but layout.

use std::borrow::Cow;
use std::path::PathBuf;

use super::preview::Preview;
use crate::outline::Definition;
use crate::request::Context;
use crate::tool::Tool;

/// One line of a file that grep shows: a matched line, or a context line
/// around one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownLine {
    pub number: u64,
    /// A matched line (`Line N:`); else a context line (`Line N-`).
    pub matched: bool,
    /// The preview text, marks included (see `search::preview`).
    pub preview: String,
    pub truncated: bool,
    /// With function context, a matched line's definition (SPEC §3a).
    pub definition: Option<Box<Definition>>,
    /// With function context, a matched line that has none because its
    /// file, or what holds it, could not be parsed (cleanly): it shows the
    /// context asked for (SPEC §4).
    pub unparsed: bool,
}

impl ShownLine {
    /// The line numbered `number` as shown: its preview.
    pub fn new(number: u64, matched: bool, preview: Preview) -> Self {
        Self {
            number,
            matched,
            preview: preview.text,
            truncated: preview.truncated,
            definition: None,
            unparsed: false,
        }
    }
}

/// The lines grep shows of one file, ordered by number, each once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileLines {
    /// The displayed path (lossily decoded; control characters unescaped).
    pub path: String,
    pub lines: Vec<ShownLine>,
    /// With function context, each matched line's window (its index in
    /// `lines`, and the lines it shows), in order; empty otherwise, when
    /// the context asked for gives the window.
    pub windows: Vec<(usize, std::ops::Range<usize>)>,
}

impl FileLines {
    /// The indices of the matched lines.
    pub fn matched(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.lines.len()).filter(|&i| self.lines[i].matched)
    }

    pub fn matches(&self) -> usize {
        self.lines.iter().filter(|l| l.matched).count()
    }

    /// The lines shown with the matched line at `at`: it, and the context
    /// lines rg printed within `context` of it, stopping at the matched
    /// lines on either side (each is an entry of its own, shown with its
    /// own page). Indices into `lines`, as a range.
    pub fn window(&self, at: usize, context: Context) -> std::ops::Range<usize> {
        if let Ok(i) = self.windows.binary_search_by_key(&at, |(a, _)| *a) {
            return self.windows[i].1.clone();
        }
        let number = self.lines[at].number;
        let before = self.lines[..at]
            .iter()
            .rev()
            .take_while(|l| !l.matched && number.saturating_sub(l.number) <= context.before as u64)
            .count();
        let after = self.lines[at + 1..]
            .iter()
            .take_while(|l| !l.matched && l.number.saturating_sub(number) <= context.after as u64)
            .count();
        at - before..at + 1 + after
    }
}

/// A file and a number (grep count: its matched lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileCount {
    pub path: String,
    pub count: u64,
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

    /// The paths whose index `keep` passes, undecoded, in the order they
    /// lie in memory (rg's order): a scan that reads the buffer front to
    /// back.
    pub fn raw_in_memory_order(&self, keep: impl Fn(usize) -> bool) -> impl Iterator<Item = &[u8]> {
        let mut ranges: Vec<(usize, usize)> = (0..self.len())
            .filter(|&i| keep(i))
            .map(|i| self.ranges[i])
            .collect();
        ranges.sort_unstable();
        ranges
            .into_iter()
            .map(|(start, end)| &self.bytes[start..end])
    }

    /// The `n` paths from the `from`th on (fewer at the end).
    pub fn range(&self, from: usize, n: usize) -> impl Iterator<Item = Cow<'_, str>> {
        self.ranges
            .iter()
            .skip(from)
            .take(n)
            .map(|&(start, end)| String::from_utf8_lossy(&self.bytes[start..end]))
    }

    /// Every path, in order.
    pub fn all(&self) -> impl Iterator<Item = Cow<'_, str>> {
        self.range(0, self.len())
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
    /// grep content: files by path (byte order), lines by number.
    Lines(Vec<FileLines>),
    /// grep files: the files that matched, by path.
    Files(PathList),
    /// grep count: matched lines per file, by path.
    Counts(Vec<FileCount>),
}

/// How much of what was asked for rg searched, when the result stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Coverage {
    /// Everything: rg exited 0 or 1.
    Complete,
    /// Nothing: the include, type or ignore rules excluded every file (rg
    /// exit 2 with "No files were searched"): an empty result (SPEC §4).
    /// `typed`: a `type` was asked for.
    NothingSearched { typed: bool },
    /// rg exited 2 after printing results: some paths could not be read.
    Unsearched(Unsearched),
}

/// The paths rg could not search in a search that still found results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsearched {
    /// How many error messages rg wrote on stderr (a message continued on
    /// the next line, a path with a newline, counts once: see
    /// `rg::Stderr`); the text counts each as a path rg could not search.
    pub errors: u64,
    /// The first message, as rg wrote it (escaped when shown).
    pub first_error: String,
}

/// A note that points the agent somewhere after a dead end (SPEC §4a),
/// made in `hints` (a probe's) or `page` (the remainder).
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
    /// An empty search without `follow`, and the same search following
    /// symbolic links finds these: how many, and the first few in path
    /// order, each with the link it was reached through.
    Links {
        count: usize,
        complete: bool,
        examples: Vec<Linked>,
    },
    /// A capped result: how many results the page left out, and the
    /// places (directories for glob, files for grep) most of them are in.
    Remainder {
        count: usize,
        places: Vec<(String, usize)>,
    },
}

/// A path reached through a symbolic link (SPEC §4a).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Linked {
    /// The path, displayed as the search displays paths.
    pub path: String,
    /// The link on the way to it: the path's first component that is a
    /// link, spelled as the path spells it.
    pub link: String,
    /// What the link points to, as it was written.
    pub target: String,
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

/// Everything a renderer needs; made, and read page by page, in `page`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub tool: Tool,
    pub items: Items,
    /// Entries in the complete result: paths (glob), matched lines (grep
    /// content) or files (grep files and count).
    pub total: usize,
    /// Entries skipped before the page (SPEC §3b `offset`).
    pub offset: usize,
    /// Entries the page shows, from `offset` on.
    pub shown: usize,
    /// Context lines around each matched line (grep content).
    pub context: Context,
    /// The caller asked for a page (`offset` or `limit`): the page says
    /// where it starts and where the next one does.
    pub paged: bool,
    /// A `limit` over the cap, and the cap it became.
    pub limit_over_cap: Option<(usize, usize)>,
    /// grep: files rg found binary that matched, by displayed path in byte
    /// order; their lines are not shown (SPEC §2).
    pub binary_files: Vec<String>,
    pub coverage: Coverage,
    pub spill: Spill,
    /// Where to look next, when the result is empty or capped.
    pub hints: Vec<Hint>,
}

/// The lines of one file on a page of grep content, and whether a gap in
/// line numbers comes before each (a `--` is printed there).
pub type PageFile<'a> = (&'a str, Vec<(bool, &'a ShownLine)>);

impl Report {
    /// Nothing matched at all: no path, no line, no binary file.
    pub fn is_empty(&self) -> bool {
        self.total == 0 && self.binary_files.is_empty()
    }

    /// Files in the complete grep result (0 for glob).
    pub fn total_files(&self) -> usize {
        match &self.items {
            Items::Glob(_) => 0,
            Items::Lines(files) => files.len(),
            Items::Files(paths) => paths.len(),
            Items::Counts(files) => files.len(),
        }
    }
}
