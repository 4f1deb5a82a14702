//! Unit tests of `src/render/text.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;
use crate::search::report::{FileLines, PathList, ShownLine};
use crate::tool::Tool;

fn m(n: u64, p: &str) -> ShownLine {
    ShownLine {
        number: n,
        matched: true,
        preview: p.into(),
        truncated: false,
        definition: None,
        unparsed: false,
    }
}

fn c(n: u64, p: &str) -> ShownLine {
    ShownLine {
        matched: false,
        ..m(n, p)
    }
}

fn grep_report(shown: usize) -> Report {
    let files = vec![
        FileLines {
            path: "a.rs".into(),
            lines: vec![m(1, "x"), m(4, "y")],
            windows: Vec::new(),
        },
        FileLines {
            path: "b.rs".into(),
            lines: vec![m(2, "z")],
            windows: Vec::new(),
        },
    ];
    Report::of(Tool::Grep, Items::Lines(files), shown)
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
        errors: 1,
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
    let mut r = Report::of(
        Tool::Glob,
        Items::Glob(["a", "b\nc", "d"].into_iter().collect()),
        2,
    );
    r.spill = Spill::NotSaved {
        reason: "none".into(),
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
fn context_lines_blocks_and_pages() {
    let files = vec![FileLines {
        path: "a.rs".into(),
        lines: vec![
            c(1, "one"),
            m(2, "two"),
            c(3, "three"),
            c(7, "seven"),
            m(8, "eight"),
            m(9, "nine"),
            c(10, "ten"),
        ],
        windows: Vec::new(),
    }];
    let mut r = Report::of(Tool::Grep, Items::Lines(files), 3);
    r.context = crate::request::Context {
        before: 1,
        after: 1,
        function: false,
    };
    assert_eq!(
        report(&r),
        "Found 3 matches\n\na.rs\nLine 1- one\nLine 2: two\nLine 3- three\n--\nLine 7- seven\nLine 8: eight\nLine 9: nine\nLine 10- ten"
    );
    // A page of one match shows it with its context, and says where
    // the next page starts.
    r.shown = 1;
    r.offset = 1;
    r.paged = true;
    r.spill = Spill::NotSaved {
        reason: "none".into(),
    };
    assert_eq!(
        report(&r),
        "Found 1 of 3 matches, from match 2\n\na.rs\nLine 7- seven\nLine 8: eight\n\n(Next page: offset 2.)\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)"
    );
    r.offset = 5;
    r.shown = 0;
    assert_eq!(
        report(&r).lines().next(),
        Some("No matches at offset 5; the search found 3")
    );
}

#[test]
fn files_and_counts() {
    let r = Report::of(
        Tool::Grep,
        Items::Files(["a", "b"].into_iter().collect()),
        2,
    );
    assert_eq!(report(&r), "Found 2 files\n\na\nb");
    let counts = vec![
        FileCount {
            path: "a".into(),
            count: 1,
        },
        FileCount {
            path: "b".into(),
            count: 4,
        },
    ];
    let mut r = Report::of(Tool::Grep, Items::Counts(counts), 1);
    r.spill = Spill::NotSaved {
        reason: "none".into(),
    };
    assert_eq!(
        report(&r),
        "Found 5 matches in 2 files (showing 1)\n\na: 1\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)"
    );
    assert_eq!(
        complete(&r, None),
        "Found 5 matches in 2 files\n\na: 1\nb: 4"
    );
}

#[test]
fn escapes_control_characters() {
    assert_eq!(
        escape_path("a\tb\x1b[31m\u{9b}\u{7f}"),
        "a\\tb\\x1b[31m\\u{9b}\\x7f"
    );
    assert!(matches!(escape_path("plain é"), Cow::Borrowed(_)));
}
