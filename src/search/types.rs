//! ripgrep's file types, for the message of a `type` it does not know
//! (SPEC §3a): the list `rg --type-list` prints, and the few names in it
//! closest to what was asked.

use std::time::Duration;

use crate::rg::ListingSink;
use crate::rg::command;
use crate::rg::process::{self, Spec};
use crate::rg::{Ending, RgExit};
use crate::settings::Settings;
use crate::stop::Budget;

/// Close names a message offers.
const CLOSE: usize = 5;
/// How long the list may take (rg prints it at once).
const LIST_TIME: Duration = Duration::from_secs(1);

/// One file type: its name and its globs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileType {
    pub name: String,
    pub globs: Vec<String>,
}

/// The types the rg in `settings` knows; none when it cannot say in time.
pub fn list(settings: &Settings, budget: Budget<'_>) -> Vec<FileType> {
    let Some(rg) = settings.rg.path() else {
        return Vec::new();
    };
    let line = command::type_list_line(rg);
    let mut sink = ListingSink::default();
    let spec = Spec {
        line: &line,
        workdir: &settings.workdir,
        budget: budget.within(LIST_TIME),
        stdout_cap: 1 << 20,
    };
    match process::run(&spec, &mut sink) {
        Ok(finished) if finished.ending == Ending::Exited(RgExit::Status(0)) => {
            parse(&String::from_utf8_lossy(&sink.bytes))
        }
        _ => Vec::new(),
    }
}

/// `rg --type-list`'s lines: `name: glob, glob`.
fn parse(text: &str) -> Vec<FileType> {
    text.lines()
        .filter_map(|line| {
            let (name, globs) = line.split_once(':')?;
            Some(FileType {
                name: name.trim().to_owned(),
                globs: globs.split(',').map(|g| g.trim().to_owned()).collect(),
            })
        })
        .collect()
}

/// Up to [`CLOSE`] names of `known` nearest to `given`: first a type whose
/// glob is `*.<given>` (an extension passed as a type), then names that
/// start with it, that it starts with, or a few edits away (fewest edits
/// first), then abbreviations (the same first letter, one name spelled
/// within the other: `ts` in `typescript`). Ties in name order.
pub fn close(given: &str, known: &[FileType]) -> Vec<String> {
    let given = given.trim().to_lowercase();
    if given.is_empty() {
        return Vec::new();
    }
    let extension = format!("*.{given}");
    let mut ranked: Vec<(u8, usize, usize, &str)> = known
        .iter()
        .filter_map(|t| {
            let name = t.name.to_lowercase();
            let distance = edits(&given, &name);
            let rank = if name == given {
                0
            } else if t.globs.iter().any(|g| g.eq_ignore_ascii_case(&extension)) {
                1
            } else if (given.len() >= 2
                && name.len() >= 2
                && (name.starts_with(&given) || given.starts_with(&name)))
                || distance <= given.chars().count() / 3
            {
                // Nearer ones first: the distance decides among these.
                2
            } else if name.len() >= 2
                && name.chars().next() == given.chars().next()
                && (within(&name, &given) || within(&given, &name))
            {
                4
            } else {
                return None;
            };
            // Among equals, a name as long as the one asked (a swap)
            // before one a letter shorter or longer.
            let lengths = name.chars().count().abs_diff(given.chars().count());
            Some((rank, distance, lengths, t.name.as_str()))
        })
        .collect();
    ranked.sort_unstable();
    ranked.dedup_by_key(|r| r.3);
    ranked
        .into_iter()
        .take(CLOSE)
        .map(|(.., name)| name.to_owned())
        .collect()
}

/// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`.
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // `d[i][j]`: edits from `a[..i]` to `b[..j]`; `d[i][0]` is `i`, `d[0][j]`
    // is `j`, and the rest of each row is filled in below.
    let mut d: Vec<Vec<usize>> = (0..=a.len()).map(|i| vec![i; b.len() + 1]).collect();
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// Whether `short`'s letters appear in `long` in order.
fn within(short: &str, long: &str) -> bool {
    let mut rest = long.chars();
    short.chars().all(|c| rest.any(|l| l == c))
}

#[cfg(test)]
#[path = "../../tests/unit/search/types.rs"]
mod tests;
