//! Function context (SPEC §3a, §4 "The optional outputs"): each matched
//! line shown inside the smallest named definition that holds it, its
//! lines as context lines. A definition over [`LONG`] lines shows its
//! lines from its signature on when they are fewer (its doc comment
//! left out, but for [`AROUND`] lines either side of a match in it);
//! else its signature line and [`AROUND`] lines either side of each
//! match in it. A match outside any definition, or in a file or a
//! definition that cannot be parsed (cleanly) (no parser for its
//! language, too big, too slow, a syntax error), gets the context asked
//! for; such matches are marked for the closing line.
//!
//! Only files with matched lines are read and parsed, each once, and not
//! past the call's deadline, nor once the call is given up on. The lines
//! shown are read from the file: the matched lines stay rg's (its marks,
//! its windows), the context lines are previewed as rg's context lines
//! are.

use std::path::Path;

use super::preview;
use super::report::{FileLines, ShownLine};
use crate::outline::{self, Holder};
use crate::request::Context;
use crate::stop::Budget;

/// A definition longer than this many lines is cut around its matches.
pub const LONG: u64 = 50;
/// Lines shown either side of a match in a long definition.
pub const AROUND: u64 = 3;

/// Lines previewed between two looks at the budget.
const LINES_PER_LOOK: usize = 1024;

/// Give the files of `files` whose matched lines fall in `entries` (the
/// page's, or all of them for a spill) their definitions and windows,
/// reading them from `workdir`; `context` is for the matches that have
/// no definition. Within `budget`: a file not parsed by its deadline is
/// unparsed. A page holds at most as many matched lines as entries, so
/// the files of the entries from its offset on are all it can show.
pub fn apply(
    files: &mut [FileLines],
    entries: std::ops::Range<usize>,
    workdir: &Path,
    context: Context,
    line_cap: usize,
    budget: Budget<'_>,
) {
    let mut first = 0;
    for file in files.iter_mut() {
        let matches = file.matches();
        let these = first..first + matches;
        first += matches;
        if matches == 0 || these.end <= entries.start || these.start >= entries.end {
            continue;
        }
        // The last of the file's matched lines the page can show.
        let last = entries.end.min(these.end) - these.start - 1;
        if budget.check().is_err()
            || outline_file(file, last, workdir, context, line_cap, budget).is_none()
        {
            for line in file.lines.iter_mut().filter(|l| l.matched) {
                line.unparsed = true;
            }
        }
    }
}

/// The file's definitions and windows, exact for its matched lines up to
/// the `last` (0-based, among them) and for the windows of those; `None`
/// when it cannot be parsed (or the budget ran out), the file as it was.
fn outline_file(
    file: &mut FileLines,
    last: usize,
    workdir: &Path,
    context: Context,
    line_cap: usize,
    budget: Budget<'_>,
) -> Option<()> {
    let language = outline::language_of(&file.path)?;
    let path = workdir.join(&file.path);
    if std::fs::metadata(&path).ok()?.len() > outline::MAX_PARSE_BYTES as u64 {
        return None;
    }
    let source = std::fs::read(&path).ok()?;
    let matched: Vec<u64> = file
        .lines
        .iter()
        .filter(|l| l.matched)
        .map(|l| l.number)
        .collect();
    // The page's windows reach no further than the matches after them
    // reach back: past `last`, a match without a definition reaches back
    // `before` lines (`outline::Needed`).
    let needed = matched.get(last).map(|&last| outline::Needed {
        last,
        reach: context.before as u64,
    });
    let holders = outline::definitions_for(&source, language, &matched, needed, budget).ok()?;
    let lines = line_starts(&source);
    let last = lines.len() as u64;
    // Each match's lines, and the context lines they show.
    let wanted: Vec<Wanted> = matched
        .iter()
        .zip(&holders)
        .map(|(&m, h)| wanted(m, h, context, last))
        .collect();
    let mut numbers: Vec<u64> = Vec::new();
    for w in &wanted {
        numbers.extend(w.lines.0..=w.lines.1);
        numbers.extend(w.also.into_iter().flat_map(|(from, to)| from..=to));
    }
    numbers.sort_unstable();
    numbers.dedup();
    let mut context_lines = Vec::new();
    let mut matched_at = matched.iter().peekable();
    for (k, &n) in numbers.iter().enumerate() {
        if k % LINES_PER_LOOK == 0 && budget.check().is_err() {
            return None;
        }
        while matched_at.next_if(|&&m| m < n).is_some() {}
        if matched_at.peek() == Some(&&n) {
            continue;
        }
        if let Some(text) = line_text(&source, &lines, n) {
            let preview = preview::preview(text, None, line_cap);
            context_lines.push(ShownLine::new(n, false, preview));
        }
    }
    // rg's matched lines, with what holds each, among the context lines.
    let mut rg_lines: Vec<ShownLine> = std::mem::take(&mut file.lines)
        .into_iter()
        .filter(|l| l.matched)
        .collect();
    for (line, holder) in rg_lines.iter_mut().zip(holders) {
        match holder {
            Holder::Definition(d) => line.definition = Some(Box::new(d)),
            Holder::Unclean => line.unparsed = true,
            Holder::Outside => {}
        }
    }
    // Two runs, each in order and no number in both: the stable sort finds
    // the runs and merges them, in linear time.
    rg_lines.append(&mut context_lines);
    rg_lines.sort_by_key(|l| l.number);
    file.lines = rg_lines;
    file.windows = windows(&file.lines, &wanted);
    Some(())
}

/// The lines a match wants shown (1-based, inclusive): a range, and
/// another one it comes with (a long definition's signature line, or the
/// lines from it on).
#[derive(Debug, Clone, Copy)]
struct Wanted {
    lines: (u64, u64),
    also: Option<(u64, u64)>,
}

/// The lines a match on line `m` wants: its definition's whole when it
/// has at most [`LONG`] lines; else its lines from the signature on when
/// they are so few (a long doc comment above is left out, but for
/// [`AROUND`] lines either side of a match in it); else its signature
/// line and [`AROUND`] lines either side of the match. Without a
/// definition (or without one parsed cleanly), the context asked for.
/// Within `last`, the file's last line.
fn wanted(m: u64, holder: &Holder, context: Context, last: u64) -> Wanted {
    let end = |n: u64| n.min(last.max(m));
    let around = |from: u64, to: u64| {
        (
            m.saturating_sub(AROUND).max(from),
            end((m + AROUND).min(to)),
        )
    };
    let d = match holder {
        Holder::Definition(d) => d,
        Holder::Outside | Holder::Unclean => {
            let from = m.saturating_sub(context.before as u64).max(1);
            let lines = (from, end(m + context.after as u64));
            return Wanted { lines, also: None };
        }
    };
    let code = (d.signature_line, end(d.end_line));
    let (lines, also) = if d.end_line - d.start_line < LONG {
        ((d.start_line, end(d.end_line)), None)
    } else if d.end_line - d.signature_line >= LONG {
        let signature = (d.signature_line, d.signature_line);
        (around(d.start_line, d.end_line), Some(signature))
    } else if m >= d.signature_line {
        (code, None)
    } else {
        // A match in the doc comment: the lines around it, and the code.
        (around(d.start_line, d.end_line), Some(code))
    };
    Wanted { lines, also }
}

/// Each matched line's window in `lines`. Lines are printed in order, so
/// a line a match wants that lies before an earlier match (its
/// definition's start, around a nested one) is shown with the first match
/// after it, and one past a later match (an outer definition's tail) with
/// the match before it: a window runs from the first line any match from
/// it on wants, to the last any match up to it wants, and never past the
/// matched lines on either side (each shows its own).
fn windows(lines: &[ShownLine], wanted: &[Wanted]) -> Vec<(usize, std::ops::Range<usize>)> {
    let matched: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].matched).collect();
    let index = |n: u64| lines.partition_point(|l| l.number < n);
    let own: Vec<(usize, usize)> = wanted
        .iter()
        .map(|w| {
            let (from, to) = w.lines;
            let (also_from, also_to) = w.also.unwrap_or(w.lines);
            (index(from.min(also_from)), index(to.max(also_to) + 1))
        })
        .collect();
    let mut starts: Vec<usize> = own.iter().map(|w| w.0).collect();
    for k in (0..starts.len().saturating_sub(1)).rev() {
        starts[k] = starts[k].min(starts[k + 1]);
    }
    let mut end = 0;
    matched
        .iter()
        .enumerate()
        .map(|(k, &at)| {
            end = end.max(own[k].1);
            let floor = if k > 0 { matched[k - 1] + 1 } else { 0 };
            let ceiling = matched.get(k + 1).copied().unwrap_or(lines.len());
            (
                at,
                starts[k].max(floor).min(at)..end.min(ceiling).max(at + 1),
            )
        })
        .collect()
}

/// Where each line of `source` starts.
fn line_starts(source: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(
        memchr::memchr_iter(b'\n', source)
            .map(|i| i + 1)
            .filter(|&i| i < source.len()),
    );
    starts
}

/// Line `n` (1-based) of `source`, with its line end.
fn line_text<'s>(source: &'s [u8], starts: &[usize], n: u64) -> Option<&'s [u8]> {
    let i = usize::try_from(n).ok()?.checked_sub(1)?;
    let start = *starts.get(i)?;
    let end = starts.get(i + 1).copied().unwrap_or(source.len());
    Some(&source[start..end])
}
