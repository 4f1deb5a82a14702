//! Function context (SPEC §4) where the parse is the question: a cut
//! definition never looks whole. A match in a definition its parse cannot
//! be trusted in (a syntax error in it, a block left open) gets the
//! context asked for, and the closing line counts it, while the clean
//! definitions of the same file stay whole, in each of the nine
//! languages; a function long only with its doc comment shows its code
//! whole; a file where every function matches is parsed once, not once
//! per match.

use std::fmt::Write as _;

use serde_json::json;

use crate::harness::{TestDir, assert_out, stdout_json};

/// A file of three functions, `before`, `broken` and `after`, each with a
/// matched line (`needle_before`, …), and `broken` holding `(1 + 1)`.
struct Sample {
    name: &'static str,
    text: &'static str,
    /// Each function's first and last lines.
    before: (usize, usize),
    broken: (usize, usize),
    after: (usize, usize),
    /// Whether `after` is still whole when `broken` is left open (its
    /// last line gone): the parser may nest it in `broken`, cleanly, or
    /// not know where it is.
    after_survives_an_open_block: bool,
}

const RUST: &str = "fn before() -> u32 {\n    1 // needle_before\n}\n\nfn broken() -> u32 {\n    let x = (1 + 1);\n    x // needle_broken\n}\n\nfn after() -> u32 {\n    2 // needle_after\n}\n";
const PYTHON: &str = "def before():\n    return 1  # needle_before\n\n\ndef broken():\n    x = (1 + 1)\n    return x  # needle_broken\n\n\ndef after():\n    return 2  # needle_after\n";
const JS: &str = "function before() {\n  return 1; // needle_before\n}\n\nfunction broken() {\n  const x = (1 + 1);\n  return x; // needle_broken\n}\n\nfunction after() {\n  return 2; // needle_after\n}\n";
const GO: &str = "package main\n\nfunc before() int {\n\treturn 1 // needle_before\n}\n\nfunc broken() int {\n\tx := (1 + 1)\n\treturn x // needle_broken\n}\n\nfunc after() int {\n\treturn 2 // needle_after\n}\n";
const JAVA: &str = "class Broken {\n    int before() {\n        return 1; // needle_before\n    }\n\n    int broken() {\n        int x = (1 + 1);\n        return x; // needle_broken\n    }\n\n    int after() {\n        return 2; // needle_after\n    }\n}\n";
const C: &str = "int before(void) {\n    return 1; /* needle_before */\n}\n\nint broken(void) {\n    int x = (1 + 1);\n    return x; /* needle_broken */\n}\n\nint after(void) {\n    return 2; /* needle_after */\n}\n";

/// The samples, one per language with a parser.
fn samples() -> [Sample; 9] {
    let braces = |name, text| Sample {
        name,
        text,
        before: (1, 3),
        broken: (5, 8),
        after: (10, 12),
        after_survives_an_open_block: true,
    };
    [
        braces("broken.rs", RUST),
        Sample {
            before: (1, 2),
            broken: (5, 7),
            after: (10, 11),
            after_survives_an_open_block: false,
            ..braces("broken.py", PYTHON)
        },
        braces("broken.js", JS),
        braces("broken.ts", JS),
        braces("broken.tsx", JS),
        Sample {
            before: (3, 5),
            broken: (7, 10),
            after: (12, 14),
            after_survives_an_open_block: false,
            ..braces("broken.go", GO)
        },
        Sample {
            before: (2, 4),
            broken: (6, 9),
            after: (11, 13),
            after_survives_an_open_block: false,
            ..braces("Broken.java", JAVA)
        },
        braces("broken.c", C),
        braces("broken.cpp", C),
    ]
}

impl Sample {
    /// The line (1-based) holding `needle`.
    fn line_of(text: &str, needle: &str) -> usize {
        1 + text
            .lines()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no {needle} in {text:?}"))
    }

    /// `grep needle_ -W -C 1` in a tree of this file as `text`: exit 0 and
    /// `windows` of `text` (first line, last line), then `closing`.
    #[track_caller]
    fn shows(&self, text: &str, windows: &[(usize, usize)], closing: &str) {
        let t = TestDir::new();
        t.write(self.name, text);
        let lines: Vec<&str> = text.lines().collect();
        let mut shown: Vec<String> = Vec::new();
        let mut found = 0;
        for (k, &(from, to)) in windows.iter().enumerate() {
            if k > 0 && windows[k - 1].1 + 1 < from {
                shown.push("--".into());
            }
            for n in from..=to {
                let hit = lines[n - 1].contains("needle_");
                found += usize::from(hit);
                let mark = if hit { ':' } else { '-' };
                shown.push(format!("Line {n}{mark} {}", lines[n - 1]));
            }
        }
        let want = format!(
            "Found {found} matches\n\n{}\n{}\n{closing}",
            self.name,
            shown.join("\n")
        );
        assert_out(&t.run(&["grep", "needle_", "-W", "-C", "1"]), 0, &want);
    }

    /// The lines around line `m` of `text`, as `-C 1` asks.
    fn around(text: &str, m: usize) -> (usize, usize) {
        (m - 1, (m + 1).min(text.lines().count()))
    }
}

/// The closing line for `n` matches in one file.
fn closing(n: usize) -> String {
    let (matches, they) = if n == 1 {
        ("1 match".to_owned(), "it shows")
    } else {
        (format!("{n} matches"), "they show")
    };
    format!(
        "\n(No function context for {matches} in 1 file of those shown: no parser for the language, too big or slow to parse, or not parsed cleanly; {they} the context asked for)\n"
    )
}

#[test]
fn parsed_cleanly_each_function_is_whole() {
    for s in samples() {
        s.shows(s.text, &[s.before, s.broken, s.after], "");
    }
}

#[test]
fn a_syntax_error_in_one_function_leaves_the_others_whole() {
    for s in samples() {
        let text = s.text.replace("(1 + 1)", "(1 + )");
        let m = Sample::line_of(&text, "needle_broken");
        s.shows(
            &text,
            &[s.before, Sample::around(&text, m), s.after],
            &closing(1),
        );
    }
}

#[test]
fn a_function_left_open_is_never_whole() {
    for s in samples() {
        // Its last line (`}`) gone; in Python, a parenthesis left open.
        let mut lines: Vec<&str> = s.text.lines().collect();
        let m = Sample::line_of(s.text, "needle_broken");
        let (text, shift) = if s.name == "broken.py" {
            (s.text.replace("return x", "return (x"), 0)
        } else {
            lines.remove(s.broken.1 - 1);
            (lines.join("\n") + "\n", 1)
        };
        let after = (s.after.0 - shift, s.after.1 - shift);
        let a = Sample::line_of(&text, "needle_after");
        if s.after_survives_an_open_block {
            s.shows(
                &text,
                &[s.before, Sample::around(&text, m), after],
                &closing(1),
            );
        } else {
            let windows = [s.before, Sample::around(&text, m), Sample::around(&text, a)];
            s.shows(&text, &windows, &closing(2));
        }
    }
}

/// tokio's `tokio/src/task/yield_now.rs` in shape (`yield_now.rs` in the
/// fixtures: the function verbatim, the prose of its doc comment replaced):
/// a doc comment of 31 lines, an attribute, a function of 23 lines.
const YIELD_NOW: &str = include_str!("fixtures/function_context/yield_now.rs");

/// Lines `from..=to` of [`YIELD_NOW`], `Line N:` for those in `matched`.
fn yield_now_lines(from: usize, to: usize, matched: &[usize]) -> Vec<String> {
    let lines: Vec<&str> = YIELD_NOW.lines().collect();
    (from..=to)
        .map(|n| {
            let mark = if matched.contains(&n) { ':' } else { '-' };
            format!("Line {n}{mark} {}", lines[n - 1])
        })
        .collect()
}

#[test]
fn a_function_long_only_with_its_doc_comment_shows_its_code_whole() {
    // With its doc comment it runs over 55 lines (6-60), so it was cut
    // to 3 lines around the match (35-41); its code alone is 38-60.
    let t = TestDir::new();
    t.write("yield_now.rs", YIELD_NOW);
    let code = yield_now_lines(38, 60, &[38]);
    assert_out(
        &t.run(&["grep", "pub async fn yield_now", "-W"]),
        0,
        &format!("Found 1 match\n\nyield_now.rs\n{}\n", code.join("\n")),
    );
    // A match in the doc comment: 3 lines either side, then the code.
    let doc = yield_now_lines(13, 19, &[16]);
    let code = yield_now_lines(38, 60, &[]);
    assert_out(
        &t.run(&["grep", "needle_doc", "-W"]),
        0,
        &format!(
            "Found 1 match\n\nyield_now.rs\n{}\n--\n{}\n",
            doc.join("\n"),
            code.join("\n")
        ),
    );
    // JSON names the definition with its doc comment.
    let ran = t
        .cmd()
        .args(["--format", "json", "grep", "pub async fn yield_now", "-W"])
        .output()
        .unwrap();
    assert_eq!(
        stdout_json(&ran)["files"][0]["matches"][0]["definition"],
        json!({"name": "yield_now", "kind": "function", "start_line": 6, "end_line": 60}),
        "{ran:?}"
    );
}

#[test]
fn a_file_where_every_function_matches_is_parsed_once() {
    // 20,000 functions, each matched: a walk of the tree per match took
    // 83 s in a release build; the last page shows the last two whole.
    let t = TestDir::new();
    let mut text = String::new();
    for i in 0..20_000 {
        let _ = writeln!(text, "def f_{i}():\n    return {i}");
    }
    t.write("many.py", &text);
    assert_out(
        &t.run(&["grep", "def f_", "-W", "--offset", "19998"]),
        0,
        "Found 2 of 20000 matches, from match 19999\n\nmany.py\n\
         Line 39997: def f_19998():\n\
         Line 39998-     return 19998\n\
         Line 39999: def f_19999():\n\
         Line 40000-     return 19999\n\n\
         (The other 19,998 matches: many.py 19,998)\n\n\
         (The complete result could not be saved; narrow pattern, path, or include to see more.)\n",
    );
}

/// A long file of `language`: `count` blocks, each a definition (nested
/// in some), a doc comment or attribute above some, a line of code
/// between some, each block with lines holding `needle`.
fn long_source(language: &str, count: usize) -> String {
    let mut text = String::new();
    for i in 0..count {
        let _ = match (language, i % 4) {
            ("py", 0) => writeln!(
                text,
                "# The {i}th.\n@cached\ndef f_{i}(x):\n    return x  # needle\n"
            ),
            ("py", 1) => writeln!(
                text,
                "class C{i}:\n    \"\"\"needle doc\"\"\"\n    def m(self):\n        return {i}  # needle\n"
            ),
            ("py", 2) => writeln!(text, "X_{i} = {i}  # needle\n"),
            ("py", _) => writeln!(
                text,
                "def g_{i}():\n    def inner():\n        return 1  # needle\n    return inner\n\n"
            ),
            ("rs", 0) => writeln!(
                text,
                "/// The {i}th, a needle.\n#[inline]\nfn f_{i}() -> u32 {{\n    {i} // needle\n}}\n"
            ),
            ("rs", 1) => writeln!(
                text,
                "impl T{i} {{\n    fn m(&self) -> u32 {{\n        {i} // needle\n    }}\n}}\n"
            ),
            ("rs", 2) => writeln!(text, "const X_{i}: u32 = {i}; // needle\n"),
            ("rs", _) => writeln!(
                text,
                "mod m_{i} {{\n    pub fn g() {{\n        let _ = 1; // needle\n    }}\n}}\n"
            ),
            ("js", 0) => writeln!(
                text,
                "/** The {i}th. */\nfunction f_{i}(x) {{\n  return x; // needle\n}}\n"
            ),
            ("js", 1) => writeln!(
                text,
                "class C{i} {{\n  m() {{\n    return {i}; // needle\n  }}\n}}\n"
            ),
            ("js", 2) => writeln!(text, "const x_{i} = () => {i}; // needle\n"),
            (_, _) => writeln!(
                text,
                "export const g_{i} = function () {{\n  return 1; // needle\n}};\n"
            ),
        };
    }
    text
}

#[test]
fn a_page_of_a_long_file_shows_what_a_whole_parse_shows() {
    // A page needs the definitions of its own matches only, and only the
    // start of a long file is parsed for them (outline::Needed); the page
    // must be the one a parse of the whole gives, which a call whose
    // result is saved whole gets (SPEC §5: the whole result is parsed).
    let t = TestDir::new();
    let spill = t.mkdir("spill");
    let spill = spill.to_string_lossy();
    for language in ["py", "rs", "js"] {
        let name = format!("long.{language}");
        t.write(&name, long_source(language, 3000));
        for extra in [
            &[][..],
            &["-B", "2"],
            &["-A", "1", "-B", "4"],
            &["--offset", "40"],
            &["-B", "3", "--limit", "5", "--offset", "7"],
        ] {
            for format in ["text", "json"] {
                let mut args = vec!["--format", format, "grep", "needle", "-W", &name];
                args.extend_from_slice(extra);
                let page = t.run(&args);
                let mut saved = vec!["--spill-dir", &spill];
                saved.extend_from_slice(&args);
                let whole = t.run(&saved);
                let (page_out, whole_out) = (
                    String::from_utf8_lossy(&page.stdout).into_owned(),
                    String::from_utf8_lossy(&whole.stdout).into_owned(),
                );
                let shown = |out: &str| -> String {
                    if format == "json" {
                        let mut value: serde_json::Value =
                            serde_json::from_str(out).unwrap_or_default();
                        if let Some(object) = value.as_object_mut() {
                            object.retain(|key, _| key == "files" || key == "total_matches");
                        }
                        value.to_string()
                    } else {
                        out.lines()
                            .filter(|l| {
                                !l.starts_with("(The complete result")
                                    && !l.starts_with("(Full grep result")
                            })
                            .collect::<Vec<_>>()
                            .join("\n")
                    }
                };
                assert!(
                    page.status.code() == Some(0) && shown(&page_out).contains("needle"),
                    "{page:?}"
                );
                assert_eq!(
                    shown(&page_out),
                    shown(&whole_out),
                    "the page of {} differs from the page of {}:\n{}",
                    page.describe(),
                    whole.describe(),
                    crate::harness::line_diff(&shown(&whole_out), &shown(&page_out))
                );
            }
        }
    }
}
