//! Pages (SPEC §3b): the one place where offset, limit and cap meet. A
//! report holds the COMPLETE ordered result; its page shows at most
//! `limit` entries, never more than the cap, from `offset` on, and with
//! context the cap counts printed lines (SPEC §4). What a page of lines
//! with context holds is decided here, once, for the search that sizes the
//! page and the renderers that print it; so is the remainder of a capped
//! page (SPEC §4a): how many entries it leaves out, and where they are.

use std::borrow::Cow;
use std::ops::Range;

use super::places::{self, Leaf};
use super::report::{Coverage, FileCount, FileLines, Hint, Items, PageFile, Report, Spill};
use crate::request::{Context, Page};
use crate::tool::Tool;

/// How a result is cut into a page: the cap, what the caller asked for,
/// and (grep content) the context around each matched line.
#[derive(Debug, Clone, Copy)]
pub struct Paging {
    pub cap: usize,
    pub page: Page,
    pub context: Context,
}

impl Report {
    /// The report of the complete `items`, with the page `paging` gives.
    /// After `hints` (an empty result's probes) comes the remainder of a
    /// page that leaves entries out.
    pub fn new(
        tool: Tool,
        items: Items,
        paging: Paging,
        coverage: Coverage,
        binary_files: Vec<String>,
        mut hints: Vec<Hint>,
    ) -> Self {
        let total = match &items {
            Items::Glob(paths) | Items::Files(paths) => paths.len(),
            Items::Lines(files) => files.iter().map(FileLines::matches).sum(),
            Items::Counts(files) => files.len(),
        };
        let Paging { cap, page, context } = paging;
        let size = page.limit.map_or(cap, |limit| limit.min(cap));
        let left = total.saturating_sub(page.offset);
        let shown = match &items {
            Items::Lines(files) if context.any() && left > 0 => {
                lines_that_fit(files, page.offset, size, context)
            }
            _ => size.min(left),
        };
        hints.extend(remainder(&items, page.offset, shown, total));
        Self {
            tool,
            items,
            total,
            offset: page.offset,
            shown,
            context,
            paged: page.asked(),
            limit_over_cap: page
                .limit
                .filter(|&limit| limit > cap)
                .map(|limit| (limit, cap)),
            binary_files,
            coverage,
            // Saving is the caller's step: see `call`.
            spill: Spill::NotNeeded,
            hints,
        }
    }

    /// The page leaves entries out (before it, after it, or both).
    pub fn truncated(&self) -> bool {
        self.shown < self.total
    }

    /// The offset lies past the last entry of a result that has some.
    pub fn past_the_end(&self) -> bool {
        self.offset >= self.total && self.total > 0
    }

    /// The offset of the next page, when entries follow this one.
    pub fn next_offset(&self) -> Option<usize> {
        let end = self.offset.checked_add(self.shown)?;
        (end < self.total).then_some(end)
    }

    /// The number of the page's first entry (`offset` 0 is entry 1), true
    /// for any offset a caller may give: one past the largest `usize` is a
    /// number too.
    pub fn first_number(&self) -> u128 {
        (self.offset as u128) + 1
    }

    /// The numbers of the first and last entries the page shows; an empty
    /// page runs from its end (at least 1) to its end.
    pub fn entry_numbers(&self) -> (u128, u128) {
        let last = (self.offset as u128) + (self.shown as u128);
        (self.first_number().min(last.max(1)), last)
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
            Items::Lines(files) => lines_on_page(files, self.offset, self.shown, self.context),
            _ => Vec::new(),
        }
    }

    /// The matched lines on the page (`whole`: in the whole result) that
    /// function context could not parse (cleanly), and the files they are
    /// in (SPEC §4: the closing line).
    pub fn unparsed(&self, whole: bool) -> (usize, usize) {
        let Items::Lines(files) = &self.items else {
            return (0, 0);
        };
        let (offset, shown) = if whole {
            (0, self.total)
        } else {
            (self.offset, self.shown)
        };
        let (mut matches, mut in_files, mut last) = (0, 0, None);
        for (f, block) in blocks(files, offset, self.context).take(shown) {
            if files[f].lines[block]
                .iter()
                .any(|l| l.matched && l.unparsed)
            {
                matches += 1;
                in_files += usize::from(last != Some(f));
                last = Some(f);
            }
        }
        (matches, in_files)
    }

    /// Every line of grep content, as a page of the whole result.
    pub fn all_lines(&self) -> Vec<PageFile<'_>> {
        match &self.items {
            Items::Lines(files) => lines_on_page(files, 0, self.total, self.context),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
impl Report {
    /// A report of `items` whose page shows the first `shown` entries, for
    /// renderer tests: nothing else set.
    pub fn of(tool: Tool, items: Items, shown: usize) -> Self {
        let paging = Paging {
            cap: usize::MAX,
            page: Page::default(),
            context: Context::default(),
        };
        let mut report = Self::new(tool, items, paging, Coverage::Complete, vec![], vec![]);
        report.shown = shown;
        report
    }
}

/// The matched lines of `files` from the `offset`th on, each as the lines
/// it adds to a page: its file, and its window (see
/// [`FileLines::window`]) less what the matched line before it in that
/// file already showed.
fn blocks(
    files: &[FileLines],
    offset: usize,
    context: Context,
) -> impl Iterator<Item = (usize, Range<usize>)> + '_ {
    // The last line shown so far, and its file.
    let mut last: Option<(usize, usize)> = None;
    let matched = files
        .iter()
        .enumerate()
        .flat_map(|(f, file)| file.matched().map(move |at| (f, at)));
    matched.skip(offset).map(move |(f, at)| {
        let window = files[f].window(at, context);
        let from = match last {
            Some((lf, line)) if lf == f => window.start.max(line + 1),
            _ => window.start,
        };
        last = Some((f, window.end - 1));
        (f, from..window.end)
    })
}

/// The lines the matched lines `offset..offset + shown` show.
fn lines_on_page(
    files: &[FileLines],
    offset: usize,
    shown: usize,
    context: Context,
) -> Vec<PageFile<'_>> {
    let mut page: Vec<PageFile<'_>> = Vec::new();
    let mut last_file = None;
    for (f, block) in blocks(files, offset, context).take(shown) {
        // Given up on (see `watchdog`): nobody will read this page.
        if crate::stop::unwanted() {
            break;
        }
        let file = &files[f];
        if last_file != Some(f) {
            last_file = Some(f);
            page.push((file.path.as_str(), Vec::new()));
        }
        let Some((_, lines)) = page.last_mut() else {
            continue;
        };
        for i in block {
            // rg's `--` between blocks of context that do not touch.
            let gap = lines.last().is_some_and(|(_, previous)| {
                context.any() && previous.number.checked_add(1) != Some(file.lines[i].number)
            });
            lines.push((gap, &file.lines[i]));
        }
    }
    page
}

/// How many matched lines, from `offset` on, a page of at most `budget`
/// printed lines holds: each matched line with its whole context, at least
/// one (SPEC §4 "The optional outputs": with context the cap counts
/// printed lines, matched and context alike).
fn lines_that_fit(files: &[FileLines], offset: usize, budget: usize, context: Context) -> usize {
    let mut shown = 0;
    let mut printed: usize = 0;
    for (_, block) in blocks(files, offset, context) {
        if crate::stop::unwanted() {
            break;
        }
        let cost = block.len();
        if shown > 0 && printed.saturating_add(cost) > budget {
            break;
        }
        printed += cost;
        shown += 1;
    }
    shown
}

/// The remainder of a page that shows `shown` of the `total` entries in
/// `items` from `offset` on: how many it leaves out (before it and after
/// it) and the places most of them are in (see `places`). `None` when the
/// page shows them all.
fn remainder(items: &Items, offset: usize, shown: usize, total: usize) -> Option<Hint> {
    if shown >= total {
        return None;
    }
    let outside = |i: usize| i < offset || i >= offset.saturating_add(shown);
    let places = match items {
        Items::Glob(paths) | Items::Files(paths) => {
            places::directories(paths.raw_in_memory_order(outside))
        }
        Items::Counts(files) => places::directories(
            files
                .iter()
                .enumerate()
                .filter(|&(i, _)| outside(i))
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
