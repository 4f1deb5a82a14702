//! Function context (SPEC §3a, §4 "The optional outputs"): each matched
//! line shown inside the smallest named definition that holds it, its
//! lines as context lines. A definition over [`LONG`] lines shows its
//! first line (the signature) and [`AROUND`] lines either side of each
//! match in it. A match outside any definition, or in a file that cannot
//! be parsed (no parser for its language, too big, too slow), gets the
//! context asked for; such files are marked for the closing line.
//!
//! Only files with matched lines are read and parsed, each once, and not
//! past the call's deadline. The lines shown are read from the file: the
//! matched lines stay rg's (its marks, its windows), the context lines are
//! previewed as rg's context lines are.

use std::collections::BTreeSet;
use std::path::Path;

use super::preview;
use super::report::{FileLines, ShownLine};
use crate::outline::{self, Definition};
use crate::request::Context;
use crate::stop::Budget;

/// A definition longer than this many lines is cut around its matches.
pub const LONG: u64 = 50;
/// Lines shown either side of a match in a long definition.
pub const AROUND: u64 = 3;

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
        if budget.check().is_err()
            || outline_file(file, workdir, context, line_cap, budget).is_none()
        {
            file.unparsed = true;
        }
    }
}

/// The file's definitions and windows; `None` when it cannot be parsed.
fn outline_file(
    file: &mut FileLines,
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
    let definitions = outline::definitions(&source, language, &matched, budget.deadline).ok()?;
    let lines = line_starts(&source);
    let last = lines.len() as u64;
    // Each match's lines, as a range of numbers and the signature line of
    // a long definition.
    let wanted: Vec<(u64, u64, Option<u64>)> = matched
        .iter()
        .zip(&definitions)
        .map(|(&m, d)| wanted(m, d.as_ref(), context, last))
        .collect();
    let mut numbers: BTreeSet<u64> = matched.iter().copied().collect();
    for &(from, to, head) in &wanted {
        numbers.extend(from..=to);
        numbers.extend(head);
    }
    let mut rg_lines = std::mem::take(&mut file.lines)
        .into_iter()
        .filter(|l| l.matched)
        .peekable();
    let mut definitions = definitions.into_iter();
    let mut shown = Vec::with_capacity(numbers.len());
    for n in numbers {
        if rg_lines.peek().is_some_and(|l| l.number == n) {
            let mut line = rg_lines.next()?;
            line.definition = definitions.next().flatten().map(Box::new);
            shown.push(line);
        } else if let Some(text) = line_text(&source, &lines, n) {
            let p = preview::preview(text, None, line_cap);
            shown.push(ShownLine {
                number: n,
                matched: false,
                preview: p.text,
                truncated: p.truncated,
                definition: None,
            });
        }
    }
    file.lines = shown;
    file.windows = windows(&file.lines, &wanted);
    Some(())
}

/// The lines a match on line `m` wants: its definition's, cut when long;
/// else the context asked for. Line numbers, 1-based, within `last`.
fn wanted(m: u64, d: Option<&Definition>, context: Context, last: u64) -> (u64, u64, Option<u64>) {
    match d {
        Some(d) if d.end_line - d.start_line < LONG => {
            (d.start_line, d.end_line.min(last.max(m)), None)
        }
        Some(d) => (
            m.saturating_sub(AROUND).max(d.start_line),
            (m + AROUND).min(d.end_line),
            Some(d.signature_line),
        ),
        None => (
            m.saturating_sub(context.before as u64).max(1),
            (m + context.after as u64).min(last.max(m)),
            None,
        ),
    }
}

/// Each matched line's window in `lines`. Lines are printed in order, so
/// a line a match wants that lies before an earlier match (its
/// definition's start, around a nested one) is shown with the first match
/// after it, and one past a later match (an outer definition's tail) with
/// the match before it: a window runs from the first line any match from
/// it on wants, to the last any match up to it wants, and never past the
/// matched lines on either side (each shows its own).
fn windows(
    lines: &[ShownLine],
    wanted: &[(u64, u64, Option<u64>)],
) -> Vec<(usize, std::ops::Range<usize>)> {
    let matched: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].matched).collect();
    let index = |n: u64| lines.partition_point(|l| l.number < n);
    let own: Vec<(usize, usize)> = wanted
        .iter()
        .map(|&(from, to, head)| {
            let head = head.unwrap_or(from);
            (index(head.min(from)), index(head.max(to) + 1))
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
