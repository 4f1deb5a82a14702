//! The result of one successful search, independent of how it is shown.
//!
//! A report holds the COMPLETE ordered result (the spill needs it) and
//! which of its entries the inline page shows (SPEC §3b): an entry is a
//! path (glob), a matched line (grep content), or a file (grep files and
//! count). Renderers decide nothing but layout; what a page of lines with
//! context holds is decided here, once, for the search that sizes the page
//! and the renderers that print it.

use std::borrow::Cow;
use std::path::PathBuf;

use crate::request::Context;
use crate::tool::Tool;

/// One line of a file that grep shows: a matched line, or a context line
/// around one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub number: u64,
    /// A matched line (`Line N:`); else a context line (`Line N-`).
    pub matched: bool,
    /// The preview text, marks included (see `search::preview`).
    pub preview: String,
    pub truncated: bool,
}

/// The lines grep shows of one file, ordered by number, each once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileLines {
    /// The displayed path (lossily decoded; control characters unescaped).
    pub path: String,
    pub lines: Vec<Line>,
}

impl FileLines {
    fn matched(&self) -> impl Iterator<Item = usize> + '_ {
        self.lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.matched)
            .map(|(i, _)| i)
    }

    pub fn matches(&self) -> usize {
        self.lines.iter().filter(|l| l.matched).count()
    }

    /// The lines shown with the matched line at `at`: it, and the context
    /// lines rg printed within `context` of it, stopping at the matched
    /// lines on either side (each is an entry of its own, shown with its
    /// own page). Indices into `lines`, as a range.
    pub fn window(&self, at: usize, context: Context) -> std::ops::Range<usize> {
        let number = self.lines[at].number;
        let mut from = at;
        while from > 0 {
            let line = &self.lines[from - 1];
            if line.matched || number.saturating_sub(line.number) > context.before as u64 {
                break;
            }
            from -= 1;
        }
        let mut to = at + 1;
        while let Some(line) = self.lines.get(to) {
            if line.matched || line.number.saturating_sub(number) > context.after as u64 {
                break;
            }
            to += 1;
        }
        from..to
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

    /// The paths outside `from..from + n` (those a page there leaves
    /// out), undecoded, in the order they lie in memory (rg's order): a scan
    /// that reads the buffer front to back.
    pub fn raw_outside_in_memory_order(
        &self,
        from: usize,
        n: usize,
    ) -> impl Iterator<Item = &[u8]> {
        let end = from.saturating_add(n);
        let mut ranges: Vec<(usize, usize)> = self
            .ranges
            .iter()
            .enumerate()
            .filter(|&(i, _)| i < from || i >= end)
            .map(|(_, r)| *r)
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
    /// rg's error messages on stderr (a message continued on the next
    /// line, a path with a newline, counts once: see `rg::Stderr`).
    pub paths: u64,
    /// The first message, as rg wrote it (escaped when shown).
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

/// Everything a renderer needs.
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
pub type PageFile<'a> = (&'a str, Vec<(bool, &'a Line)>);

impl Report {
    /// The page leaves entries out (before it, after it, or both).
    pub fn truncated(&self) -> bool {
        self.shown < self.total
    }

    /// Nothing matched at all: no path, no line, no binary file.
    pub fn is_empty(&self) -> bool {
        self.total == 0 && self.binary_files.is_empty()
    }

    /// The offset of the next page, when entries follow this one.
    pub fn next_offset(&self) -> Option<usize> {
        let end = self.offset.checked_add(self.shown)?;
        (end < self.total).then_some(end)
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

    /// The page of paths (glob, grep files).
    pub fn path_page(&self) -> Vec<Cow<'_, str>> {
        match &self.items {
            Items::Glob(paths) | Items::Files(paths) => {
                paths.range(self.offset, self.shown).collect()
            }
            Items::Lines(_) | Items::Counts(_) => Vec::new(),
        }
    }

    /// The page of counts (grep count).
    pub fn count_page(&self) -> &[FileCount] {
        match &self.items {
            Items::Counts(files) => {
                let from = self.offset.min(files.len());
                &files[from..from.saturating_add(self.shown).min(files.len())]
            }
            _ => &[],
        }
    }

    /// The page of grep content: per file, the lines the page's matched
    /// lines show (see [`FileLines::window`]).
    pub fn line_page(&self) -> Vec<PageFile<'_>> {
        match &self.items {
            Items::Lines(files) => lines_of(files, self.offset, self.shown, self.context),
            _ => Vec::new(),
        }
    }

    /// Every line of grep content, as a page of the whole result.
    pub fn all_lines(&self) -> Vec<PageFile<'_>> {
        match &self.items {
            Items::Lines(files) => lines_of(files, 0, self.total, self.context),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
impl Report {
    /// A report of `items` whose page shows the first `shown` entries, for
    /// renderer tests: nothing else set.
    pub fn of(tool: Tool, items: Items, shown: usize) -> Self {
        let total = match &items {
            Items::Glob(paths) | Items::Files(paths) => paths.len(),
            Items::Lines(files) => files.iter().map(FileLines::matches).sum(),
            Items::Counts(files) => files.len(),
        };
        Self {
            tool,
            items,
            total,
            offset: 0,
            shown,
            context: Context::default(),
            paged: false,
            limit_over_cap: None,
            binary_files: Vec::new(),
            coverage: Coverage::Complete,
            spill: Spill::NotNeeded,
            hints: Vec::new(),
        }
    }
}

/// The matched lines of `files` in order: (file, index in its lines).
fn matched_lines(files: &[FileLines]) -> impl Iterator<Item = (usize, usize)> + '_ {
    files
        .iter()
        .enumerate()
        .flat_map(|(f, file)| file.matched().map(move |i| (f, i)))
}

/// The lines the matched lines `offset..offset + shown` show.
fn lines_of(
    files: &[FileLines],
    offset: usize,
    shown: usize,
    context: Context,
) -> Vec<PageFile<'_>> {
    let mut page: Vec<PageFile<'_>> = Vec::new();
    // The file being filled, and the last of its lines on the page.
    let mut current: Option<(usize, usize)> = None;
    for (f, at) in matched_lines(files).skip(offset).take(shown) {
        // Given up on (see `watchdog`): nobody will read this page.
        if crate::stop::unwanted() {
            break;
        }
        let file = &files[f];
        let window = file.window(at, context);
        let from = match current {
            Some((cf, last)) if cf == f => window.start.max(last + 1),
            _ => {
                page.push((file.path.as_str(), Vec::new()));
                window.start
            }
        };
        let Some((_, lines)) = page.last_mut() else {
            continue;
        };
        for i in from..window.end {
            // rg's `--` between blocks of context that do not touch.
            let gap = match lines.last() {
                Some((_, previous)) => {
                    context.any() && previous.number.checked_add(1) != Some(file.lines[i].number)
                }
                None => false,
            };
            lines.push((gap, &file.lines[i]));
        }
        current = Some((f, window.end - 1));
    }
    page
}

/// How many matched lines, from `offset` on, a page of at most `budget`
/// printed lines holds: each matched line with its whole context, at least
/// one (SPEC §4 "The optional outputs": with context the cap counts
/// printed lines, matched and context alike).
pub fn lines_that_fit(
    files: &[FileLines],
    offset: usize,
    budget: usize,
    context: Context,
) -> usize {
    let mut shown = 0;
    let mut printed: usize = 0;
    let mut current: Option<(usize, usize)> = None;
    for (f, at) in matched_lines(files).skip(offset) {
        if crate::stop::unwanted() {
            break;
        }
        let window = files[f].window(at, context);
        let from = match current {
            Some((cf, last)) if cf == f => window.start.max(last + 1),
            _ => window.start,
        };
        let cost = window.end.saturating_sub(from);
        if shown > 0 && printed.saturating_add(cost) > budget {
            break;
        }
        printed += cost;
        shown += 1;
        current = Some((f, window.end - 1));
    }
    shown
}
