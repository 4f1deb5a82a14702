//! The model-facing text of SPEC §4, without the final newline (the
//! front-end prints that). The spill content is built here too, so the
//! saved result and the inline page can never format a match differently.

use std::borrow::Cow;
use std::fmt::{Display, Write as _};

use crate::escape::{escape_lines, escape_path};
use crate::request::Ignored;
use crate::response::{Body, Response};
use crate::search::report::{
    Coverage, FileCount, Hint, Items, PageFile, Report, Spill, Unsearched,
};
use crate::tool::Tool;

/// The text of a call's answer, without the final newline: the report, or
/// `Error: …` and (after a timeout) the page of what was found; then the
/// note naming ignored arguments (SPEC §8).
pub fn response(r: &Response) -> String {
    let mut out = match &r.body {
        Body::Results(report) => self::report(report),
        Body::Failed { error, partial } => {
            let mut out = error_message(&error.to_string());
            if let Some(partial) = partial {
                let _ = write!(out, "\n\n{}", self::report(partial));
            }
            out
        }
    };
    let mut unknown = Vec::new();
    let mut moot = Vec::new();
    let mut why = None;
    for ignored in &r.ignored {
        match ignored {
            Ignored::Unknown(name) => unknown.push(escape_path(name)),
            Ignored::Moot { name, why: reason } => {
                moot.push(name.as_str());
                why.get_or_insert(reason.as_str());
            }
        }
    }
    if !unknown.is_empty() {
        let noun = plural(unknown.len(), "argument", "arguments");
        let _ = write!(out, "\n\n(ignored unknown {noun}: {})", unknown.join(", "));
    }
    if let Some(why) = why {
        let _ = write!(out, "\n\n(ignored {}: {why})", moot.join(", "));
    }
    out
}

/// The text of a successful search.
pub fn report(r: &Report) -> String {
    let mut out = if r.is_empty() {
        match (&r.items, &r.coverage) {
            (Items::Glob(_), _) => "No files found".to_owned(),
            (_, Coverage::NothingSearched { typed }) => {
                format!("No matches found ({})", nothing_searched(*typed))
            }
            _ => "No matches found".to_owned(),
        }
    } else if r.past_the_end() {
        let (_, entries) = entry_nouns(&r.items);
        let mut past = format!(
            "No {entries} at offset {}; the search found {}",
            r.offset, r.total
        );
        push_binary_note(&mut past, r, BINARY_NAMES);
        past
    } else {
        page(r)
    };
    // Where to look next (SPEC §4a): after an empty result, the probes'
    // lines; before a capped page's footer, where the rest is (the one
    // hint of a capped page, see `page`).
    for h in &r.hints {
        let _ = write!(out, "\n\n{}", hint(h, r));
    }
    if r.truncated() {
        if let (true, Some(next)) = (r.paged, r.next_offset()) {
            let _ = write!(out, "\n\n(Next page: offset {next}.)");
        }
        out.push_str("\n\n");
        out.push_str(&cap_footer(r));
    }
    if let Coverage::Unsearched(u) = &r.coverage {
        let _ = write!(out, "\n\n({})", unsearched(u));
    }
    if let Some((limit, cap)) = r.limit_over_cap {
        let _ = write!(
            out,
            "\n\n(limit {limit} is over the page cap of {cap}; the page holds at most {cap})"
        );
    }
    out
}

/// The page of a result that has entries there: its header and body.
fn page(r: &Report) -> String {
    match &r.items {
        Items::Glob(_) => paths(r.path_page()),
        Items::Lines(_) => {
            let mut page = if r.total == 0 {
                "No matches found in text files".to_owned()
            } else {
                format!("{}\n\n{}", page_header(r), groups(&r.line_page()))
            };
            push_binary_note(&mut page, r, BINARY_NAMES);
            push_unparsed_note(&mut page, r.unparsed(false));
            page
        }
        Items::Files(_) => format!("{}\n\n{}", page_header(r), paths(r.path_page())),
        Items::Counts(files) => {
            let mut header = counts_found(total_count(files), r.total);
            if r.truncated() {
                let _ = write!(header, " (showing {}{})", r.shown, from(r));
            }
            format!("{header}\n\n{}", counts(r.count_page()))
        }
    }
}

/// The header of a page of matched lines or files: `Found N matches`, or
/// for a page that leaves some out `Found S of N matches, from match F`.
fn page_header(r: &Report) -> String {
    let (_, many) = entry_nouns(&r.items);
    if r.truncated() {
        format!("Found {} of {} {many}{}", r.shown, r.total, from(r))
    } else {
        found(r)
    }
}

/// `, from match 3`, when the page starts past the first entry.
fn from(r: &Report) -> String {
    if r.offset > 0 {
        let (one, _) = entry_nouns(&r.items);
        format!(", from {one} {}", r.first_number())
    } else {
        String::new()
    }
}

/// What one entry of `items` is called, and several.
pub fn entry_nouns(items: &Items) -> (&'static str, &'static str) {
    match items {
        Items::Glob(_) => ("path", "paths"),
        Items::Lines(_) => ("match", "matches"),
        Items::Files(_) | Items::Counts(_) => ("file", "files"),
    }
}

/// `one` when `n` is 1, else `many`.
fn plural<'a, N: Copy + PartialEq + From<u8>>(n: N, one: &'a str, many: &'a str) -> &'a str {
    if n == N::from(1) { one } else { many }
}

/// `n` and what it counts: `1 file`, `2 files`.
pub fn count<N: Copy + Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    format!("{n} {}", plural(n, one, many))
}

/// The text of a failure whose message is already a string (control
/// characters a value brought into it escaped; its line breaks stay).
pub fn error_message(message: &str) -> String {
    format!("Error: {}", escape_lines(message))
}

/// What a caller should know besides the result: each non-clean part of a
/// successful search, as one sentence (the JSON `warnings`).
pub fn warnings(r: &Report) -> Vec<String> {
    let mut out = Vec::new();
    if let Coverage::NothingSearched { typed } = r.coverage {
        out.push(nothing_searched(typed).to_owned());
    }
    if let Spill::NotSaved { reason } = &r.spill {
        out.push(format!("the complete result could not be saved: {reason}"));
    }
    if let Coverage::Unsearched(u) = &r.coverage {
        out.push(unsearched(u));
    }
    if let Some((limit, cap)) = r.limit_over_cap {
        out.push(format!("limit {limit} is over the page cap of {cap}"));
    }
    out
}

/// The JSON `warnings` entry for an ignored argument.
pub fn ignored_warning(ignored: &Ignored) -> String {
    match ignored {
        Ignored::Unknown(name) => format!("ignored unknown argument: {name}"),
        Ignored::Moot { name, why } => format!("ignored argument: {name} ({why})"),
    }
}

/// One hint's line (SPEC §4a).
fn hint(h: &Hint, r: &Report) -> String {
    // What the probes find: files grep would search, paths glob would list.
    let (one, many, act) = match r.tool {
        Tool::Grep => ("file", "files", "search"),
        Tool::Glob => ("path", "paths", "list"),
    };
    let examples = |list: &[String]| {
        list.iter()
            .map(|p| escape_path(p).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match h {
        Hint::Ignored {
            count: n,
            complete,
            examples: list,
            path,
        } => {
            let (verb, lead) = verb_and_lead(*n, *complete);
            // A file is searched as itself; a directory, what lies there.
            let there = if list.contains(path) { "it" } else { "there" };
            format!(
                "(Not searched: {} that ignore or hidden-file rules skip {verb}{lead} {}; pass path \"{}\" to search {there})",
                at_least(*n, *complete, "file", "files"),
                examples(list),
                escape_path(path)
            )
        }
        Hint::Case {
            count: n,
            complete,
            examples: list,
        } => {
            let (verb, lead) = verb_and_lead(*n, *complete);
            let advice = match r.tool {
                Tool::Grep => "the pattern is case-sensitive: start it with (?i) to ignore case",
                Tool::Glob => "globs are case-sensitive: write the case these have",
            };
            format!(
                "(Ignoring case, {} {verb}{lead} {}; {advice})",
                at_least(*n, *complete, one, many),
                examples(list)
            )
        }
        Hint::Links {
            count: n,
            complete,
            examples: list,
        } => {
            let (verb, lead) = verb_and_lead(*n, *complete);
            let (them, reached) = if *n == 1 && *complete {
                ("it", "reached through a symbolic link")
            } else {
                ("them", "reached through symbolic links")
            };
            let shown: Vec<String> = list
                .iter()
                .map(|linked| {
                    let (path, link) = (escape_path(&linked.path), escape_path(&linked.link));
                    let target = escape_path(&linked.target);
                    // The path is the link itself (a linked file), or lies
                    // in a linked directory.
                    if linked.link == linked.path {
                        format!("{path} (a link to {target})")
                    } else {
                        format!("{path} (via link {link} -> {target})")
                    }
                })
                .collect();
            format!(
                "(Not searched: {} {reached} {verb}{lead} {}; pass follow: true to {act} {them})",
                at_least(*n, *complete, one, many),
                shown.join(", ")
            )
        }
        Hint::Remainder { count: n, places } => {
            let (one, many) = entry_nouns(&r.items);
            let listed: Vec<String> = places
                .iter()
                .map(|(p, c)| format!("{} {}", escape_path(p), thousands(*c)))
                .collect();
            format!(
                "(The other {} {}: {})",
                thousands(*n),
                plural(*n, one, many),
                listed.join(", ")
            )
        }
    }
}

/// A probe's count: `3 files`, or `at least 3 files` when it stopped before
/// it found them all.
fn at_least(n: usize, complete: bool, one: &str, many: &str) -> String {
    let at_least = if complete { "" } else { "at least " };
    format!("{at_least}{} {}", thousands(n), plural(n, one, many))
}

/// The verb for a probe's `n` paths and what leads its examples: one path
/// `matches:`, several (or some) `match, e.g.`.
fn verb_and_lead(n: usize, complete: bool) -> (&'static str, &'static str) {
    if n == 1 && complete {
        ("matches", ":")
    } else {
        ("match", ", e.g.")
    }
}

/// `3750` as `3,750`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Binary files named inline; the rest are counted (JSON and the spill
/// file name them all).
const BINARY_NAMES: usize = 20;

/// After `out`, function context's closing line: how many of the
/// matches shown, in how many files, have none because their file, or
/// what holds them, could not be parsed (cleanly) (SPEC §4), if any.
fn push_unparsed_note(out: &mut String, (matches, files): (usize, usize)) {
    if matches > 0 {
        let _ = write!(
            out,
            "\n\n(No function context for {} in {} of those shown: no parser for the language, too big or slow to parse, or not parsed cleanly; {} the context asked for)",
            count(matches, "match", "matches"),
            count(files, "file", "files"),
            plural(matches, "it shows", "they show"),
        );
    }
}

/// After `out`, the line naming the binary files that matched, if any, at
/// most `names` of them (`Also matched` after matched lines of text files).
fn push_binary_note(out: &mut String, r: &Report, names: usize) {
    let paths = &r.binary_files;
    if paths.is_empty() {
        return;
    }
    let mut listed: Vec<Cow<'_, str>> = paths.iter().take(names).map(|p| escape_path(p)).collect();
    if paths.len() > names {
        listed.push(Cow::Owned(format!("and {} more", paths.len() - names)));
    }
    let lead = if r.total > 0 {
        "Also matched"
    } else {
        "Matched"
    };
    let _ = write!(
        out,
        "\n\n({lead} in {}, lines not shown: {})",
        count(paths.len(), "binary file", "binary files"),
        listed.join(", ")
    );
}

/// Why an empty search searched nothing (rg exit 2, "No files were
/// searched"); `typed`: a `type` was asked for, which filters files too.
fn nothing_searched(typed: bool) -> &'static str {
    if typed {
        "no file was searched: the type, the include filter or ignore rules excluded every file"
    } else {
        "no file was searched: the include filter or ignore rules excluded every file"
    }
}

fn unsearched(u: &Unsearched) -> String {
    format!(
        "{} could not be searched; first error: {}",
        count(u.errors, "path", "paths"),
        escape_path(&u.first_error)
    )
}

/// The complete result a capped search saves (SPEC §5): every path, or the
/// full `Found M matches` listing with the same previews (and context) as
/// inline, every file, every count. For what a timed-out search found,
/// `incomplete` says what cut it short, and grep's header says so: `Found
/// M matches (incomplete: grep timed out after 300ms)`. A glob spill stays
/// paths only; its file name carries it.
pub fn complete(r: &Report, incomplete: Option<&str>) -> String {
    let note = incomplete.map_or(String::new(), |why| format!(" (incomplete: {why})"));
    match &r.items {
        Items::Glob(all) => paths(all.all()),
        Items::Lines(_) => {
            let mut out = if r.total == 0 {
                "No matches found in text files".to_owned()
            } else {
                format!("{}{note}\n\n{}", found(r), groups(&r.all_lines()))
            };
            push_binary_note(&mut out, r, usize::MAX);
            push_unparsed_note(&mut out, r.unparsed(true));
            out
        }
        Items::Files(all) => format!("{}{note}\n\n{}", found(r), paths(all.all())),
        Items::Counts(all) => format!(
            "{}{note}\n\n{}",
            counts_found(total_count(all), r.total),
            counts(all)
        ),
    }
}

/// `Found N matches` (grep content) or `Found N files` (grep files).
fn found(r: &Report) -> String {
    let (one, many) = entry_nouns(&r.items);
    format!("Found {}", count(r.total, one, many))
}

/// The matched lines of all `files`. The sinks refuse counts whose sum
/// is past `u64::MAX` (no search finds that many: rg's output is
/// malformed), so the sum is true; it saturates rather than wrap should
/// one ever come through.
pub fn total_count(files: &[FileCount]) -> u64 {
    files.iter().fold(0, |sum, f| sum.saturating_add(f.count))
}

fn counts_found(matches: u64, files: usize) -> String {
    format!(
        "Found {} in {}",
        count(matches, "match", "matches"),
        count(files, "file", "files")
    )
}

fn counts(list: &[FileCount]) -> String {
    joined(list, "\n", |out, f| {
        let _ = write!(out, "{}: {}", escape_path(&f.path), f.count);
    })
}

fn paths<S: AsRef<str>>(list: impl IntoIterator<Item = S>) -> String {
    joined(list, "\n", |out, p| out.push_str(&escape_path(p.as_ref())))
}

fn groups(page: &[PageFile<'_>]) -> String {
    joined(page, "\n\n", |out, (path, lines)| {
        out.push_str(&escape_path(path));
        for (gap, line) in lines {
            if *gap {
                out.push_str("\n--");
            }
            let mark = if line.matched { ':' } else { '-' };
            let _ = write!(out, "\nLine {}{mark} {}", line.number, line.preview);
        }
    })
}

/// Each of `list` written by `write`, `separator` between them.
fn joined<T>(
    list: impl IntoIterator<Item = T>,
    separator: &str,
    mut write: impl FnMut(&mut String, T),
) -> String {
    let mut out = String::new();
    for (i, item) in list.into_iter().enumerate() {
        // Given up on (see `watchdog`): nobody will read this text.
        if crate::stop::unwanted() {
            break;
        }
        if i > 0 {
            out.push_str(separator);
        }
        write(&mut out, item);
    }
    out
}

fn cap_footer(r: &Report) -> String {
    let showing = match r.items {
        Items::Glob(_) => format!("Showing {} of {} paths{}. ", r.shown, r.total, from(r)),
        _ => String::new(),
    };
    match (&r.spill, &r.items) {
        (Spill::Saved { locator, hint, .. }, Items::Glob(_)) => format!(
            "({showing}Full sorted result stored at: {}. {hint})",
            escape_path(&locator.to_string_lossy())
        ),
        (Spill::Saved { locator, hint, .. }, _) => format!(
            "(Full grep result stored at: {}. {hint})",
            escape_path(&locator.to_string_lossy())
        ),
        (_, _) => format!(
            "({showing}The complete result could not be saved; {} to see more.)",
            r.tool.narrow_advice()
        ),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/render/text.rs"]
mod tests;
