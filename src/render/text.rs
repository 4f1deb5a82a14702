//! The model-facing text of SPEC §4, without the final newline (the
//! front-end prints that). The spill content is built here too, so the
//! saved result and the inline page can never format a match differently.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::response::{Body, Response};
use crate::search::report::{
    Coverage, FileMatches, Hint, Items, LineMatch, Report, Spill, Unsearched,
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
    if !r.ignored.is_empty() {
        let noun = if r.ignored.len() == 1 {
            "argument"
        } else {
            "arguments"
        };
        let _ = write!(
            out,
            "\n\n(ignored unknown {noun}: {})",
            r.ignored.join(", ")
        );
    }
    out
}

/// The text of a successful search.
pub fn report(r: &Report) -> String {
    let mut out = match &r.items {
        Items::Glob(_) if r.is_empty() => "No files found".to_owned(),
        Items::Grep(_) if r.is_empty() && r.coverage == Coverage::NothingSearched => {
            format!("No matches found ({NOTHING_SEARCHED})")
        }
        Items::Grep(_) if r.is_empty() => "No matches found".to_owned(),
        Items::Glob(_) => paths(r.glob_page()),
        Items::Grep(_) if r.total == 0 => format!(
            "No matches found in text files\n\n{}",
            binary_note(&r.binary_files, BINARY_NAMES, false)
        ),
        Items::Grep(_) => {
            let header = if r.truncated() {
                format!("Found {} of {} matches", r.shown, r.total)
            } else {
                found(r.total)
            };
            let mut page = format!("{header}\n\n{}", groups(&r.grep_page()));
            if !r.binary_files.is_empty() {
                page.push_str("\n\n");
                page.push_str(&binary_note(&r.binary_files, BINARY_NAMES, true));
            }
            page
        }
    };
    // Where to look next (SPEC §4a): after an empty result, the probes'
    // lines; before a capped page's footer, where the rest is.
    for h in &r.hints {
        if !matches!(h, Hint::Remainder { .. }) {
            let _ = write!(out, "\n\n{}", hint(h, r.tool));
        }
    }
    if r.truncated() {
        for h in &r.hints {
            if matches!(h, Hint::Remainder { .. }) {
                let _ = write!(out, "\n\n{}", hint(h, r.tool));
            }
        }
        out.push_str("\n\n");
        out.push_str(&cap_footer(r));
    }
    if let Coverage::Unsearched(u) = &r.coverage {
        let _ = write!(out, "\n\n({})", unsearched(u));
    }
    out
}

/// The text of a failure whose message is already a string.
pub fn error_message(message: &str) -> String {
    format!("Error: {message}")
}

/// What a caller should know besides the result: each non-clean part of a
/// successful search, as one sentence (the JSON `warnings`).
pub fn warnings(r: &Report) -> Vec<String> {
    let mut out = Vec::new();
    if r.coverage == Coverage::NothingSearched {
        out.push(NOTHING_SEARCHED.to_owned());
    }
    if let Spill::NotSaved { reason } = &r.spill {
        out.push(format!("the complete result could not be saved: {reason}"));
    }
    if let Coverage::Unsearched(u) = &r.coverage {
        out.push(unsearched(u));
    }
    out
}

/// The JSON `warnings` entry for an ignored argument.
pub fn ignored_warning(name: &str) -> String {
    format!("ignored unknown argument: {name}")
}

/// One hint's line (SPEC §4a).
fn hint(h: &Hint, tool: Tool) -> String {
    let count = |n: usize, complete: bool, one: &str, many: &str| {
        let noun = if n == 1 { one } else { many };
        let at_least = if complete { "" } else { "at least " };
        format!("{at_least}{} {noun}", thousands(n))
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
            let (verb, lead) = if *n == 1 && *complete {
                ("matches", ":")
            } else {
                ("match", ", e.g.")
            };
            // A file is searched as itself; a directory, what lies there.
            let there = if list.contains(path) { "it" } else { "there" };
            format!(
                "(Not searched: {} that ignore or hidden-file rules skip {verb}{lead} {}; pass path \"{}\" to search {there})",
                count(*n, *complete, "file", "files"),
                examples(list),
                escape_path(path)
            )
        }
        Hint::Case {
            count: n,
            complete,
            examples: list,
        } => {
            let (verb, lead) = if *n == 1 && *complete {
                ("matches", ":")
            } else {
                ("match", ", e.g.")
            };
            let (what, advice) = match tool {
                Tool::Grep => (
                    count(*n, *complete, "file", "files"),
                    "the pattern is case-sensitive: start it with (?i) to ignore case",
                ),
                Tool::Glob => (
                    count(*n, *complete, "path", "paths"),
                    "globs are case-sensitive: write the case these have",
                ),
            };
            format!(
                "(Ignoring case, {what} {verb}{lead} {}; {advice})",
                examples(list)
            )
        }
        Hint::Remainder { count: n, places } => {
            let noun = match (tool, *n == 1) {
                (Tool::Grep, true) => "match",
                (Tool::Grep, false) => "matches",
                (Tool::Glob, true) => "path",
                (Tool::Glob, false) => "paths",
            };
            let listed: Vec<String> = places
                .iter()
                .map(|(p, c)| format!("{} {}", escape_path(p), thousands(*c)))
                .collect();
            format!(
                "(The other {} {noun}: {})",
                thousands(*n),
                listed.join(", ")
            )
        }
    }
}

/// `3750` as `3,750`.
fn thousands(n: usize) -> String {
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

/// The line naming the binary files that matched, at most `names` of them.
fn binary_note(paths: &[String], names: usize, also: bool) -> String {
    let count = paths.len();
    let noun = if count == 1 { "file" } else { "files" };
    let mut listed: Vec<Cow<'_, str>> = paths.iter().take(names).map(|p| escape_path(p)).collect();
    if count > names {
        listed.push(Cow::Owned(format!("and {} more", count - names)));
    }
    let lead = if also { "Also matched" } else { "Matched" };
    format!(
        "({lead} in {count} binary {noun}, lines not shown: {})",
        listed.join(", ")
    )
}

const NOTHING_SEARCHED: &str =
    "no file was searched: the include filter or ignore rules excluded every file";

fn unsearched(u: &Unsearched) -> String {
    let noun = if u.paths == 1 { "path" } else { "paths" };
    format!(
        "{} {noun} could not be searched; first error: {}",
        u.paths, u.first_error
    )
}

/// The complete result a capped search saves (SPEC §5): every path, or the
/// full `Found M matches` listing with the same previews as inline. For
/// what a timed-out search found, `incomplete` says what cut it short, and
/// grep's header says so: `Found M matches (incomplete: grep timed out
/// after 300ms)`. A glob spill stays paths only; its file name carries it.
pub fn complete(r: &Report, incomplete: Option<&str>) -> String {
    match &r.items {
        Items::Glob(all) => paths(all.take(all.len())),
        Items::Grep(files) => {
            let all: Vec<(&str, &[LineMatch])> = files
                .iter()
                .map(|f: &FileMatches| (f.path.as_str(), f.matches.as_slice()))
                .collect();
            let mut out = if r.total == 0 {
                "No matches found in text files".to_owned()
            } else {
                let note = incomplete.map_or(String::new(), |why| format!(" (incomplete: {why})"));
                format!("{}{note}\n\n{}", found(r.total), groups(&all))
            };
            if !r.binary_files.is_empty() {
                out.push_str("\n\n");
                out.push_str(&binary_note(&r.binary_files, usize::MAX, r.total > 0));
            }
            out
        }
    }
}

fn found(n: usize) -> String {
    if n == 1 {
        "Found 1 match".to_owned()
    } else {
        format!("Found {n} matches")
    }
}

fn paths<S: AsRef<str>>(list: impl IntoIterator<Item = S>) -> String {
    let mut out = String::new();
    for (i, p) in list.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&escape_path(p.as_ref()));
    }
    out
}

fn groups(page: &[(&str, &[LineMatch])]) -> String {
    let mut out = String::new();
    for (i, (path, matches)) in page.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        out.push_str(&escape_path(path));
        for m in *matches {
            let _ = write!(out, "\nLine {}: {}", m.line_number, m.preview);
        }
    }
    out
}

fn cap_footer(r: &Report) -> String {
    let showing = match r.items {
        Items::Glob(_) => format!("Showing {} of {} paths. ", r.shown, r.total),
        Items::Grep(_) => String::new(),
    };
    match (&r.spill, &r.items) {
        (Spill::Saved { locator, hint, .. }, Items::Glob(_)) => format!(
            "({showing}Full sorted result stored at: {}. {hint})",
            escape_path(&locator.to_string_lossy())
        ),
        (Spill::Saved { locator, hint, .. }, Items::Grep(_)) => format!(
            "(Full grep result stored at: {}. {hint})",
            escape_path(&locator.to_string_lossy())
        ),
        (_, _) => format!(
            "({showing}The complete result could not be saved; {} to see more.)",
            r.tool.narrow_advice()
        ),
    }
}

/// A path as one safe line: control characters (newline, tab, ESC, C1, …)
/// shown escaped, so a hostile name can neither split a result nor drive a
/// terminal (SPEC §4). JSON carries paths unescaped.
pub fn escape_path(path: &str) -> Cow<'_, str> {
    if !path.chars().any(char::is_control) {
        return Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len() + 8);
    for c in path.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() && (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::report::PathList;
    use crate::tool::Tool;

    fn m(n: u64, p: &str) -> LineMatch {
        LineMatch {
            line_number: n,
            preview: p.into(),
            line_truncated: false,
        }
    }

    fn grep_report(shown: usize) -> Report {
        let files = vec![
            FileMatches {
                path: "a.rs".into(),
                matches: vec![m(1, "x"), m(4, "y")],
            },
            FileMatches {
                path: "b.rs".into(),
                matches: vec![m(2, "z")],
            },
        ];
        Report {
            tool: Tool::Grep,
            items: Items::Grep(files),
            total: 3,
            shown,
            binary_files: Vec::new(),
            coverage: Coverage::Complete,
            spill: Spill::NotNeeded,
            hints: Vec::new(),
        }
    }

    #[test]
    fn grep_forms() {
        assert_eq!(
            report(&grep_report(3)),
            "Found 3 matches\n\na.rs\nLine 1: x\nLine 4: y\n\nb.rs\nLine 2: z"
        );
        let mut capped = grep_report(1);
        capped.spill = Spill::NotSaved {
            reason: "none".into(),
        };
        assert_eq!(
            report(&capped),
            "Found 1 of 3 matches\n\na.rs\nLine 1: x\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)"
        );
        capped.spill = Spill::Saved {
            locator: "/s/abc-grep-results.txt".into(),
            hint: "Hint.".into(),
            reused: false,
        };
        capped.coverage = Coverage::Unsearched(Unsearched {
            paths: 1,
            first_error: "rg: x: denied".into(),
        });
        assert_eq!(
            report(&capped),
            "Found 1 of 3 matches\n\na.rs\nLine 1: x\n\n(Full grep result stored at: /s/abc-grep-results.txt. Hint.)\n\n(1 path could not be searched; first error: rg: x: denied)"
        );
        assert_eq!(
            complete(&capped, None),
            "Found 3 matches\n\na.rs\nLine 1: x\nLine 4: y\n\nb.rs\nLine 2: z"
        );
    }

    #[test]
    fn glob_forms() {
        let mut r = Report {
            tool: Tool::Glob,
            items: Items::Glob(["a", "b\nc", "d"].into_iter().collect()),
            total: 3,
            shown: 2,
            binary_files: Vec::new(),
            coverage: Coverage::Complete,
            spill: Spill::NotSaved {
                reason: "none".into(),
            },
            hints: Vec::new(),
        };
        assert_eq!(
            report(&r),
            "a\nb\\nc\n\n(Showing 2 of 3 paths. The complete result could not be saved; narrow pattern or path to see more.)"
        );
        r.spill = Spill::Saved {
            locator: "/s/x-glob-results.txt".into(),
            hint: "H.".into(),
            reused: true,
        };
        assert_eq!(
            report(&r),
            "a\nb\\nc\n\n(Showing 2 of 3 paths. Full sorted result stored at: /s/x-glob-results.txt. H.)"
        );
        assert_eq!(complete(&r, None), "a\nb\\nc\nd");
        r.items = Items::Glob(PathList::default());
        r.total = 0;
        r.shown = 0;
        assert_eq!(report(&r), "No files found");
    }

    #[test]
    fn escapes_control_characters() {
        assert_eq!(
            escape_path("a\tb\x1b[31m\u{9b}\u{7f}"),
            "a\\tb\\x1b[31m\\u{9b}\\x7f"
        );
        assert!(matches!(escape_path("plain é"), Cow::Borrowed(_)));
    }
}
