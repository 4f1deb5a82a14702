//! Function context (`grep -W`, `--function-context`, the JSON argument
//! `function_context`; SPEC §3a, §4) against real rg, byte for byte: each
//! matched line shown with the lines of the smallest named definition that
//! holds it, as context lines, merged and separated (`--`) as context
//! blocks are. A definition's lines start at the comments and attributes
//! right above it (no blank line between), so a match in a doc comment
//! shows the definition it documents; a definition over 50 lines is cut
//! to its signature line (the `fn`, `def`, `class` line) and 3 lines
//! either side of each match; a match outside any definition, or in a
//! file without a parser, gets the context asked for, and the closing
//! line counts such files.
//!
//! Each language has a checked-in fixture (`fixtures/function_context/`)
//! with the same cases, each marked by a token of its own (`needle_method`,
//! `needle_nested`, …): a method, a nested function, a closure, a doc
//! comment, a signature line, a comment between two definitions, a
//! definition over 50 lines, and a syntax error before a well-formed
//! function. A language without one of them says so in its fixture. The
//! expected lines quote the fixture, and [`Fixture::shows`] checks that
//! they do before it runs anything, so a test that misquotes its fixture
//! fails as such, not as a bug of dsh-search.

use serde_json::{Value, json};

use crate::harness::{Ran, TestDir, argv_and_call, assert_out, stdout_json};
use crate::mcp::{Era, Server, cli, result, tool_result};

/// A checked-in fixture: the file name it is written under in a test's
/// tree (its extension picks the parser) and its text.
struct Fixture {
    name: &'static str,
    text: &'static str,
}

/// The fixture `fixtures/function_context/NAME`, written as `NAME`.
macro_rules! fixture {
    ($name:literal) => {
        Fixture {
            name: $name,
            text: include_str!(concat!("fixtures/function_context/", $name)),
        }
    };
}

/// The fixtures, one per language with a parser.
const RUST: Fixture = fixture!("sample.rs");
const PYTHON: Fixture = fixture!("sample.py");
const JAVASCRIPT: Fixture = fixture!("sample.js");
const TYPESCRIPT: Fixture = fixture!("sample.ts");
const TSX: Fixture = fixture!("sample.tsx");
const GO: Fixture = fixture!("sample.go");
const JAVA: Fixture = fixture!("Sample.java");
const C: Fixture = fixture!("sample.c");
const CPP: Fixture = fixture!("sample.cpp");

/// A definition as JSON shows it: name, kind, first and last line.
type Def = (&'static str, &'static str, u64, u64);

impl Fixture {
    /// A tree holding this fixture alone.
    fn tree(&self) -> TestDir {
        let t = TestDir::new();
        t.write(self.name, self.text);
        t
    }

    /// `grep PATTERN -W EXTRA…` in a tree of this fixture alone.
    fn grep(&self, pattern: &str, extra: &[&str]) -> Ran {
        let mut args = vec!["grep", pattern, "-W"];
        args.extend_from_slice(extra);
        self.tree().run(&args)
    }

    /// This fixture with a blank line added after line `n`: the lines
    /// after it move down one.
    fn with_blank_line_after(&self, n: usize) -> Fixture {
        let mut lines: Vec<&str> = self.text.split_inclusive('\n').collect();
        assert!(n <= lines.len(), "{} has no line {n}", self.name);
        lines.insert(n, "\n");
        Fixture {
            name: self.name,
            text: Box::leak(lines.concat().into_boxed_str()),
        }
    }

    /// This fixture with line `n` (1-based) replaced by `text`.
    fn with_line(&self, n: usize, text: &str) -> Fixture {
        let mut lines: Vec<String> = self.text.split_inclusive('\n').map(str::to_owned).collect();
        let line = lines
            .get_mut(n - 1)
            .unwrap_or_else(|| panic!("{} has no line {n}", self.name));
        let end = if line.ends_with('\n') { "\n" } else { "" };
        *line = format!("{text}{end}");
        Fixture {
            name: self.name,
            text: Box::leak(lines.concat().into_boxed_str()),
        }
    }

    /// Line `n` (1-based) of the fixture.
    fn line(&self, n: usize) -> &'static str {
        self.text
            .lines()
            .nth(n - 1)
            .unwrap_or_else(|| panic!("{} has no line {n}", self.name))
    }

    /// Assert that each `Line N: TEXT` and `Line N- TEXT` of `lines`
    /// quotes line N of the fixture: the test's own check of itself.
    #[track_caller]
    fn assert_quotes(&self, lines: &[&str]) {
        for shown in lines.iter().filter(|l| **l != "--") {
            let (n, _, text) =
                parse_line(shown).unwrap_or_else(|| panic!("not a shown line: {shown:?}"));
            assert_eq!(
                text,
                self.line(n),
                "the expectation {shown:?} misquotes line {n} of {}",
                self.name
            );
        }
    }

    /// Assert that `grep PATTERN -W EXTRA…` exits 0 and prints exactly
    /// this fixture's `lines` (`Line N: ` a match, `Line N- ` a context
    /// line, `--` between blocks) under its header and the file's name.
    #[track_caller]
    fn shows(&self, pattern: &str, extra: &[&str], lines: &[&str]) {
        self.assert_quotes(lines);
        assert_out(&self.grep(pattern, extra), 0, &found(self.name, lines));
    }

    /// Assert the `definition` of each match of `grep PATTERN -W` in
    /// `--format json`, in order: its line number and its definition
    /// (`None`: `null`, outside any). No file is unparsed.
    #[track_caller]
    fn defines(&self, pattern: &str, want: &[(u64, Option<Def>)]) {
        self.defines_with_unparsed(pattern, want, 0);
    }

    /// As [`Fixture::defines`], the file counted `unparsed` (0 or 1) in
    /// JSON's `unparsed_files`: a match in a definition not parsed
    /// cleanly has none.
    #[track_caller]
    fn defines_with_unparsed(&self, pattern: &str, want: &[(u64, Option<Def>)], unparsed: u64) {
        let ran = self
            .tree()
            .cmd()
            .args(["--format", "json", "grep", pattern, "-W"])
            .output()
            .unwrap();
        let value = stdout_json(&ran);
        let got: Vec<Value> = value["files"][0]["matches"]
            .as_array()
            .unwrap_or_else(|| panic!("no matches: {ran:?}"))
            .iter()
            .map(|m| json!([m["line_number"], m["definition"]]))
            .collect();
        let want: Vec<Value> = want
            .iter()
            .map(|&(n, d)| {
                let d = d.map_or(Value::Null, |(name, kind, start, end)| {
                    json!({"name": name, "kind": kind, "start_line": start, "end_line": end})
                });
                json!([n, d])
            })
            .collect();
        assert_eq!(got, want, "{ran:?}");
        assert_eq!(value["unparsed_files"], json!(unparsed), "{ran:?}");
        assert_eq!(value["files"].as_array().map(Vec::len), Some(1), "{ran:?}");
    }
}

/// `Line N: TEXT` (a match) or `Line N- TEXT` (a context line) as
/// `(N, matched, TEXT)`.
fn parse_line(shown: &str) -> Option<(usize, bool, &str)> {
    let rest = shown.strip_prefix("Line ")?;
    let (digits, rest) = rest.split_at(rest.find(|c: char| !c.is_ascii_digit())?);
    let n = digits.parse().ok()?;
    match (rest.strip_prefix(": "), rest.strip_prefix("- ")) {
        (Some(text), _) => Some((n, true, text)),
        (None, Some(text)) => Some((n, false, text)),
        (None, None) => None,
    }
}

/// The text of a search that shows `lines` of the one file `path`: its
/// matched lines are the matches it found.
fn found(path: &str, lines: &[&str]) -> String {
    let matches = lines
        .iter()
        .filter(|l| parse_line(l).is_some_and(|(_, matched, _)| matched))
        .count();
    let noun = if matches == 1 { "match" } else { "matches" };
    format!("Found {matches} {noun}\n\n{path}\n{}\n", lines.join("\n"))
}

/// A Ruby file: rg has a type for it, dsh-search no parser.
const RUBY: &str = "# rg knows Ruby; dsh-search has no parser for it.\ndef greet(name)\n  message = \"hello\"\n  puts \"needle_ruby #{name}\"\n  message\nend\n";

#[test]
fn files_without_a_parser_get_the_context_asked_for_and_are_counted() {
    let t = TestDir::new();
    t.write("notes.txt", "alpha\nneedle_plain here\nomega\n");
    t.write("script.rb", RUBY);
    t.write(RUST.name, RUST.text);
    let pattern = "needle_(plain|ruby|method)";
    // The Ruby match gets lines 3-5 (-C 1), not its `def` (2-6); the Rust
    // match its method, not -C 1.
    assert_out(
        &t.run(&["grep", pattern, "-W", "-C", "1"]),
        0,
        "Found 3 matches\n\n\
         notes.txt\n\
         Line 1- alpha\n\
         Line 2: needle_plain here\n\
         Line 3- omega\n\n\
         sample.rs\n\
         Line 22-     pub fn bump(&mut self) {\n\
         Line 23:         self.count += 1; // needle_method\n\
         Line 24-     }\n\n\
         script.rb\n\
         Line 3-   message = \"hello\"\n\
         Line 4:   puts \"needle_ruby #{name}\"\n\
         Line 5-   message\n\n\
         (No function context for 2 matches in 2 files of those shown: no parser for the language, too big or slow to parse, or not parsed cleanly; they show the context asked for)\n",
    );
    let ran = t
        .cmd()
        .args(["--format", "json", "grep", pattern, "-W"])
        .output()
        .unwrap();
    let value = stdout_json(&ran);
    assert_eq!(value["unparsed_files"], json!(2), "{ran:?}");
    let definitions: Vec<&Value> = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| &f["matches"][0]["definition"])
        .collect();
    assert_eq!(
        definitions,
        [
            &Value::Null,
            &json!({"name": "bump", "kind": "method", "start_line": 22, "end_line": 24}),
            &Value::Null,
        ],
        "{ran:?}"
    );
}

#[test]
fn one_file_without_a_parser_is_counted_in_the_singular() {
    let t = TestDir::new();
    t.write("notes.txt", "alpha\nneedle_plain here\nomega\n");
    // No context asked: the line alone.
    assert_out(
        &t.run(&["grep", "needle_plain", "-W"]),
        0,
        "Found 1 match\n\nnotes.txt\nLine 2: needle_plain here\n\n\
         (No function context for 1 match in 1 file of those shown: no parser for the language, too big or slow to parse, or not parsed cleanly; it shows the context asked for)\n",
    );
}

#[test]
fn a_header_is_read_as_cpp() {
    // `.h` is both rg's `c` and `cpp`: read as C++, whose grammar reads C
    // too, so a class in a header is found.
    let t = TestDir::new();
    t.write(
        "widget.h",
        "#pragma once\n\nclass Widget {\n  public:\n    int size() const {\n        return 1;  // needle_header\n    }\n};\n",
    );
    assert_out(
        &t.run(&["grep", "needle_header", "-W"]),
        0,
        "Found 1 match\n\nwidget.h\n\
         Line 5-     int size() const {\n\
         Line 6:         return 1;  // needle_header\n\
         Line 7-     }\n",
    );
}

#[test]
fn with_files_or_count_it_is_ignored_and_named() {
    let t = RUST.tree();
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["needle_method", "-W", "--output", "files"],
            &json!({"pattern": "needle_method", "function_context": true, "output": "files"}),
        ),
        0,
        "Found 1 file\n\nsample.rs\n\n(ignored function_context: output \"files\" shows no lines)\n",
    );
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &[
                "needle_method",
                "--function-context",
                "-C",
                "2",
                "--output",
                "count",
            ],
            &json!({"pattern": "needle_method", "function_context": true, "context": 2, "output": "count"}),
        ),
        0,
        "Found 1 match in 1 file\n\nsample.rs: 1\n\n(ignored context, function_context: output \"count\" shows no lines)\n",
    );
    let ran = t
        .cmd()
        .args([
            "--format",
            "json",
            "grep",
            "needle_method",
            "-W",
            "--output",
            "count",
        ])
        .output()
        .unwrap();
    let value = stdout_json(&ran);
    assert_eq!(
        value["warnings"],
        json!(["ignored argument: function_context (output \"count\" shows no lines)"]),
        "{ran:?}"
    );
    assert_eq!(
        value["files"],
        json!([{"path": "sample.rs", "count": 1}]),
        "{ran:?}"
    );
}

/// What `needle_doc|needle_method` with function context shows of the
/// Rust fixture: the doc comment with the function it documents, the
/// method.
const DOC_AND_METHOD: &str = "Found 2 matches\n\nsample.rs\n\
     Line 6: /// Adds one; needle_doc sits in this doc comment, outside the function.\n\
     Line 7- pub fn add_one(n: u32) -> u32 {\n\
     Line 8-     n + 1\n\
     Line 9- }\n\
     --\n\
     Line 22-     pub fn bump(&mut self) {\n\
     Line 23:         self.count += 1; // needle_method\n\
     Line 24-     }\n";

#[test]
fn call_gives_the_cli_text_and_json() {
    let t = RUST.tree();
    let words = ["needle_doc|needle_method", "-W"];
    let fields = json!({"pattern": "needle_doc|needle_method", "function_context": true});
    assert_out(
        &argv_and_call(&t, &[], "grep", &words, &fields),
        0,
        DOC_AND_METHOD,
    );
    let ran = argv_and_call(&t, &["--format", "json"], "grep", &words, &fields);
    let value = stdout_json(&ran);
    assert_eq!(
        value["text"],
        json!(DOC_AND_METHOD.strip_suffix('\n')),
        "{ran:?}"
    );
    // `false` is the default: the matched lines alone.
    assert_out(
        &t.cmd()
            .args(["call", "grep"])
            .arg(
                json!({"pattern": "needle_doc|needle_method", "function_context": false})
                    .to_string(),
            )
            .output()
            .unwrap(),
        0,
        "Found 2 matches\n\nsample.rs\n\
         Line 6: /// Adds one; needle_doc sits in this doc comment, outside the function.\n\
         Line 23:         self.count += 1; // needle_method\n",
    );
}

#[test]
fn mcp_gives_the_cli_text() {
    let t = RUST.tree();
    let (text, _) = cli(&t, &["grep", "needle_doc|needle_method", "-W"]);
    assert_eq!(text, DOC_AND_METHOD.strip_suffix('\n').unwrap());
    for era in [Era::Legacy, Era::Modern] {
        let mut s = Server::open(&t, &["mcp"], era);
        let reply = s.tool(
            era,
            3,
            "grep",
            json!({"pattern": "needle_doc|needle_method", "function_context": true}),
        );
        assert_eq!(
            reply,
            result(&json!(3), &tool_result(era, &text)),
            "{}",
            s.describe()
        );
        s.finish_clean();
    }
}

mod rust {
    use std::fmt::Write as _;

    use super::{Fixture, found};
    use crate::harness::{TestDir, assert_out};

    const F: Fixture = super::RUST;

    #[test]
    fn a_method_shows_the_method_and_no_more_with_context_asked() {
        let method = [
            "Line 22-     pub fn bump(&mut self) {",
            "Line 23:         self.count += 1; // needle_method",
            "Line 24-     }",
        ];
        F.shows("needle_method", &[], &method);
        // -C is for matches outside any definition: not lines 21 and 25.
        F.shows("needle_method", &["-C", "1"], &method);
    }

    #[test]
    fn a_nested_function_shows_the_inner_function() {
        F.shows(
            "needle_nested",
            &[],
            &[
                "Line 40-     fn inner() -> u32 {",
                "Line 41:         7 // needle_nested",
                "Line 42-     }",
            ],
        );
    }

    #[test]
    fn matches_in_a_nested_function_and_after_it_show_the_outer_function() {
        F.shows(
            "needle_nested|needle_outer",
            &[],
            &[
                "Line 39- pub fn outer() -> u32 {",
                "Line 40-     fn inner() -> u32 {",
                "Line 41:         7 // needle_nested",
                "Line 42-     }",
                "Line 43:     inner() + 1 // needle_outer",
                "Line 44- }",
            ],
        );
    }

    #[test]
    fn matches_on_a_signature_and_in_a_nested_function_show_the_outer_function() {
        F.shows(
            "fn outer|needle_nested",
            &[],
            &[
                "Line 39: pub fn outer() -> u32 {",
                "Line 40-     fn inner() -> u32 {",
                "Line 41:         7 // needle_nested",
                "Line 42-     }",
                "Line 43-     inner() + 1 // needle_outer",
                "Line 44- }",
            ],
        );
    }

    #[test]
    fn a_closure_shows_the_enclosing_function() {
        F.shows(
            "needle_closure",
            &[],
            &[
                "Line 46- pub fn with_closure(items: &[u32]) -> Vec<u32> {",
                "Line 47-     items",
                "Line 48-         .iter()",
                "Line 49:         .map(|x| x + 1) // needle_closure",
                "Line 50-         .collect()",
                "Line 51- }",
            ],
        );
    }

    #[test]
    fn a_doc_comment_shows_the_function_it_documents() {
        // The doc comment right above `add_one` is part of it.
        F.shows(
            "needle_doc",
            &[],
            &[
                "Line 6: /// Adds one; needle_doc sits in this doc comment, outside the function.",
                "Line 7- pub fn add_one(n: u32) -> u32 {",
                "Line 8-     n + 1",
                "Line 9- }",
            ],
        );
    }

    #[test]
    fn a_signature_line_shows_the_whole_function() {
        F.shows(
            "needle_signature",
            &[],
            &[
                "Line 11: pub fn needle_signature(n: u32) -> u32 {",
                "Line 12-     n * 2",
                "Line 13- }",
            ],
        );
    }

    #[test]
    fn between_definitions_gets_the_context_asked_for() {
        let between = "Line 15: // needle_between: a comment between two definitions.";
        F.shows("needle_between", &[], &[between]);
        F.shows(
            "needle_between",
            &["-C", "1"],
            &["Line 14- ", between, "Line 16- "],
        );
    }

    #[test]
    fn a_long_function_shows_its_signature_and_three_lines_around_each_match() {
        let first = [
            "Line 97-     total += 27;",
            "Line 98-     total += 28;",
            "Line 99-     total += 29;",
            "Line 100:     total += 30; // needle_long",
            "Line 101-     total += 31;",
            "Line 102-     total += 32;",
            "Line 103-     total += 33;",
        ];
        let second = [
            "Line 117-     total += 47;",
            "Line 118-     total += 48;",
            "Line 119-     total += 49;",
            "Line 120:     total += 50; // needle_later",
            "Line 121-     total += 51;",
            "Line 122-     total += 52;",
            "Line 123-     total += 53;",
        ];
        let signature = "Line 69- pub fn long_function() -> u32 {";
        F.shows(
            "needle_long",
            &[],
            &[&[signature, "--"], &first[..]].concat(),
        );
        F.shows(
            "needle_long|needle_later",
            &[],
            &[&[signature, "--"], &first[..], &["--"], &second[..]].concat(),
        );
    }

    #[test]
    fn after_a_syntax_error_a_function_is_whole() {
        F.shows(
            "needle_intact",
            &[],
            &[
                "Line 140- pub fn intact() -> u32 {",
                "Line 141:     2 // needle_intact",
                "Line 142- }",
            ],
        );
    }

    #[test]
    fn a_signature_line_after_a_doc_comment_shows_the_whole_function() {
        F.shows(
            "fn add_one",
            &[],
            &[
                "Line 6- /// Adds one; needle_doc sits in this doc comment, outside the function.",
                "Line 7: pub fn add_one(n: u32) -> u32 {",
                "Line 8-     n + 1",
                "Line 9- }",
            ],
        );
    }

    #[test]
    fn crlf_line_ends_show_the_same_lines() {
        let t = TestDir::new();
        t.write(F.name, F.text.replace('\n', "\r\n"));
        assert_out(
            &t.run(&["grep", "needle_method", "-W"]),
            0,
            &found(
                F.name,
                &[
                    "Line 22-     pub fn bump(&mut self) {",
                    "Line 23:         self.count += 1; // needle_method",
                    "Line 24-     }",
                ],
            ),
        );
    }

    /// A function `name` of `lines` lines, signature and closing brace
    /// included, with each `(line, token)` of `marks` on its line.
    fn function_of(name: &str, lines: usize, marks: &[(usize, &str)]) -> String {
        let mut text = format!("fn {name}() {{\n");
        for i in 2..lines {
            let mark = marks
                .iter()
                .find(|(at, _)| *at == i)
                .map_or(String::new(), |(_, token)| format!(" // {token}"));
            let _ = writeln!(text, "    let x{i} = {i};{mark}");
        }
        text.push_str("}\n");
        text
    }

    /// Lines `from..=to` of `text` as shown, those in `matched` as matches.
    fn shown(text: &str, from: usize, to: usize, matched: &[usize]) -> Vec<String> {
        (from..=to)
            .map(|n| {
                let sep = if matched.contains(&n) { ':' } else { '-' };
                format!("Line {n}{sep} {}", text.lines().nth(n - 1).unwrap())
            })
            .collect()
    }

    #[test]
    fn fifty_lines_are_shown_whole_and_fifty_one_are_cut() {
        // Lines 1-50: `fifty`; 51 blank; 52-102: `fifty_one`.
        let text = format!(
            "{}\n{}",
            function_of("fifty", 50, &[(25, "needle_fifty")]),
            function_of(
                "fifty_one",
                51,
                &[(5, "needle_near"), (25, "needle_mid"), (49, "needle_end")]
            ),
        );
        let t = TestDir::new();
        t.write("long.rs", &text);
        let check = |pattern: &str, want: Vec<String>| {
            let want: Vec<&str> = want.iter().map(String::as_str).collect();
            assert_out(
                &t.run(&["grep", pattern, "-W"]),
                0,
                &found("long.rs", &want),
            );
        };
        check("needle_fifty", shown(&text, 1, 50, &[25]));
        // The signature, `--`, 3 lines either side.
        let mut mid = shown(&text, 52, 52, &[]);
        mid.push("--".to_owned());
        mid.extend(shown(&text, 73, 79, &[76]));
        check("needle_mid", mid);
        // 3 lines before the match reach the signature's next line: one block.
        check("needle_near", shown(&text, 52, 59, &[56]));
        // A match on the signature: it and the 3 lines after it.
        check("fn fifty_one", shown(&text, 52, 55, &[52]));
        // Near the end: cut at the closing brace.
        let mut end = shown(&text, 52, 52, &[]);
        end.push("--".to_owned());
        end.extend(shown(&text, 97, 102, &[100]));
        check("needle_end", end);
    }

    #[test]
    fn json_names_each_definition() {
        F.defines(
            "needle_",
            &[
                (6, Some(("add_one", "function", 6, 9))),
                (11, Some(("needle_signature", "function", 11, 13))),
                (15, None),
                (18, Some(("Counter", "struct", 17, 19))),
                (23, Some(("bump", "method", 22, 24))),
                // `// needle_impl` ends the `impl` line, after code: not a
                // comment above `fn fmt`, so the line is the impl's alone.
                (27, Some(("fmt::Display for Counter", "impl", 27, 31))),
                (35, Some(("greet", "method", 34, 36))),
                (41, Some(("inner", "function", 40, 42))),
                (43, Some(("outer", "function", 39, 44))),
                (49, Some(("with_closure", "function", 46, 51))),
                (54, Some(("shapes", "module", 53, 55))),
                (58, Some(("Colour", "enum", 57, 60))),
                (64, Some(("twice", "macro", 62, 66))),
                // From the comment right above it.
                (100, Some(("long_function", "function", 68, 132))),
                (120, Some(("long_function", "function", 68, 132))),
                (141, Some(("intact", "function", 140, 142))),
            ],
        );
    }
}

mod python {
    use super::Fixture;

    const F: Fixture = super::PYTHON;

    #[test]
    fn a_method_shows_the_method_and_no_more_with_context_asked() {
        let method = [
            "Line 22-     def bump(self):",
            "Line 23:         self.count += 1  # needle_method",
        ];
        F.shows("needle_method", &[], &method);
        F.shows("needle_method", &["-C", "1"], &method);
    }

    #[test]
    fn a_decorated_method_starts_at_its_decorator() {
        F.shows(
            "needle_staticmethod",
            &[],
            &[
                "Line 25-     @staticmethod",
                "Line 26:     def make():  # needle_staticmethod",
                "Line 27-         return Counter()",
            ],
        );
    }

    #[test]
    fn a_decorator_line_shows_the_decorated_function() {
        F.shows(
            "functools.cache",
            &[],
            &[
                "Line 41: @functools.cache",
                "Line 42- def cached(n):",
                "Line 43-     return n  # needle_decorated_function",
            ],
        );
    }

    #[test]
    fn a_nested_function_shows_the_inner_function() {
        F.shows(
            "needle_nested",
            &[],
            &[
                "Line 31-     def inner():",
                "Line 32:         return 7  # needle_nested",
            ],
        );
    }

    #[test]
    fn a_lambda_shows_the_enclosing_function() {
        F.shows(
            "needle_closure",
            &[],
            &[
                "Line 37- def with_lambda(items):",
                "Line 38:     return sorted(items, key=lambda x: -x)  # needle_closure",
            ],
        );
    }

    #[test]
    fn a_docstring_is_inside_the_function() {
        F.shows(
            "needle_doc",
            &[],
            &[
                "Line 7- def add_one(n):",
                r#"Line 8:     """Adds one; needle_doc sits in this docstring, inside the function.""""#,
                "Line 9-     return n + 1",
            ],
        );
    }

    #[test]
    fn a_signature_line_shows_the_whole_function() {
        F.shows(
            "needle_signature",
            &[],
            &[
                "Line 12: def needle_signature(n):",
                "Line 13-     return n * 2",
            ],
        );
    }

    #[test]
    fn between_definitions_gets_the_context_asked_for() {
        let between = "Line 16: # needle_between: a comment between two definitions.";
        F.shows("needle_between", &[], &[between]);
        F.shows(
            "needle_between",
            &["-C", "1"],
            &["Line 15- ", between, "Line 17- "],
        );
    }

    #[test]
    fn a_long_function_shows_its_signature_and_three_lines_around_each_match() {
        F.shows(
            "needle_long|needle_later",
            &[],
            &[
                "Line 47- def long_function():",
                "--",
                "Line 75-     total += 27",
                "Line 76-     total += 28",
                "Line 77-     total += 29",
                "Line 78:     total += 30  # needle_long",
                "Line 79-     total += 31",
                "Line 80-     total += 32",
                "Line 81-     total += 33",
                "--",
                "Line 95-     total += 47",
                "Line 96-     total += 48",
                "Line 97-     total += 49",
                "Line 98:     total += 50  # needle_later",
                "Line 99-     total += 51",
                "Line 100-     total += 52",
                "Line 101-     total += 53",
            ],
        );
    }

    #[test]
    fn after_a_syntax_error_a_function_is_whole() {
        F.shows(
            "needle_intact",
            &[],
            &[
                "Line 117- def intact():",
                "Line 118:     return 2  # needle_intact",
            ],
        );
    }

    #[test]
    fn json_names_each_definition() {
        F.defines(
            "needle_",
            &[
                (8, Some(("add_one", "function", 7, 9))),
                (12, Some(("needle_signature", "function", 12, 13))),
                (16, None),
                (20, Some(("Counter", "class", 19, 27))),
                (23, Some(("bump", "method", 22, 23))),
                (26, Some(("make", "method", 25, 27))),
                (32, Some(("inner", "function", 31, 32))),
                (34, Some(("outer", "function", 30, 34))),
                (38, Some(("with_lambda", "function", 37, 38))),
                (43, Some(("cached", "function", 41, 43))),
                // From the comment right above it.
                (78, Some(("long_function", "function", 46, 109))),
                (98, Some(("long_function", "function", 46, 109))),
                (118, Some(("intact", "function", 117, 118))),
            ],
        );
    }
}

mod javascript {
    use super::Fixture;

    const F: Fixture = super::JAVASCRIPT;

    #[test]
    fn a_method_shows_the_method_and_no_more_with_context_asked() {
        let method = [
            "Line 20-   bump() {",
            "Line 21:     this.count += 1; // needle_method",
            "Line 22-   }",
        ];
        F.shows("needle_method", &[], &method);
        F.shows("needle_method", &["-C", "1"], &method);
    }

    #[test]
    fn a_nested_function_shows_the_inner_function() {
        F.shows(
            "needle_nested",
            &[],
            &[
                "Line 26-   function inner() {",
                "Line 27:     return 7; // needle_nested",
                "Line 28-   }",
            ],
        );
    }

    #[test]
    fn a_callback_arrow_shows_the_enclosing_function() {
        F.shows(
            "needle_closure",
            &[],
            &[
                "Line 32- function withClosure(items) {",
                "Line 33-   return items.map((x) => {",
                "Line 34:     return x + 1; // needle_closure",
                "Line 35-   });",
                "Line 36- }",
            ],
        );
    }

    #[test]
    fn an_arrow_in_a_const_is_the_whole_statement() {
        F.shows(
            "needle_arrow",
            &[],
            &[
                "Line 38- const arrow = (n) => {",
                "Line 39:   return n - 1; // needle_arrow",
                "Line 40- };",
            ],
        );
    }

    #[test]
    fn the_first_line_of_an_arrow_in_a_const_shows_the_whole_statement() {
        F.shows(
            "const arrow",
            &[],
            &[
                "Line 38: const arrow = (n) => {",
                "Line 39-   return n - 1; // needle_arrow",
                "Line 40- };",
            ],
        );
    }

    #[test]
    fn a_doc_comment_shows_the_function_it_documents() {
        F.shows(
            "needle_doc",
            &[],
            &[
                "Line 6: /** Adds one; needle_doc sits in this doc comment, outside the function. */",
                "Line 7- function addOne(n) {",
                "Line 8-   return n + 1;",
                "Line 9- }",
            ],
        );
    }

    #[test]
    fn a_signature_line_shows_the_whole_function() {
        F.shows(
            "needle_signature",
            &[],
            &[
                "Line 11: function needle_signature(n) {",
                "Line 12-   return n * 2;",
                "Line 13- }",
            ],
        );
    }

    #[test]
    fn between_definitions_gets_the_context_asked_for() {
        let between = "Line 15: // needle_between: a comment between two definitions.";
        F.shows("needle_between", &[], &[between]);
        F.shows(
            "needle_between",
            &["-C", "1"],
            &["Line 14- ", between, "Line 16- "],
        );
    }

    #[test]
    fn a_long_function_shows_its_signature_and_three_lines_around_each_match() {
        F.shows(
            "needle_long|needle_later",
            &[],
            &[
                "Line 43- function longFunction() {",
                "--",
                "Line 71-   total += 27;",
                "Line 72-   total += 28;",
                "Line 73-   total += 29;",
                "Line 74:   total += 30; // needle_long",
                "Line 75-   total += 31;",
                "Line 76-   total += 32;",
                "Line 77-   total += 33;",
                "--",
                "Line 91-   total += 47;",
                "Line 92-   total += 48;",
                "Line 93-   total += 49;",
                "Line 94:   total += 50; // needle_later",
                "Line 95-   total += 51;",
                "Line 96-   total += 52;",
                "Line 97-   total += 53;",
            ],
        );
    }

    #[test]
    fn after_a_syntax_error_a_function_is_whole() {
        F.shows(
            "needle_intact",
            &[],
            &[
                "Line 114- function intact() {",
                "Line 115:   return 2; // needle_intact",
                "Line 116- }",
            ],
        );
    }

    #[test]
    fn json_names_each_definition() {
        F.defines(
            "needle_",
            &[
                (6, Some(("addOne", "function", 6, 9))),
                (11, Some(("needle_signature", "function", 11, 13))),
                (15, None),
                (18, Some(("Counter", "class", 17, 23))),
                (21, Some(("bump", "method", 20, 22))),
                (27, Some(("inner", "function", 26, 28))),
                (29, Some(("outer", "function", 25, 30))),
                (34, Some(("withClosure", "function", 32, 36))),
                (39, Some(("arrow", "function", 38, 40))),
                // From the comment right above it.
                (74, Some(("longFunction", "function", 42, 106))),
                (94, Some(("longFunction", "function", 42, 106))),
                (115, Some(("intact", "function", 114, 116))),
            ],
        );
    }
}

mod typescript {
    use super::Fixture;

    const F: Fixture = super::TYPESCRIPT;

    #[test]
    fn a_method_shows_the_method_and_no_more_with_context_asked() {
        let method = [
            "Line 18-   bump(): void {",
            "Line 19:     this.count += 1; // needle_method",
            "Line 20-   }",
        ];
        F.shows("needle_method", &[], &method);
        F.shows("needle_method", &["-C", "1"], &method);
    }

    #[test]
    fn a_nested_function_shows_the_inner_function() {
        F.shows(
            "needle_nested",
            &[],
            &[
                "Line 24-   function inner(): number {",
                "Line 25:     return 7; // needle_nested",
                "Line 26-   }",
            ],
        );
    }

    #[test]
    fn a_callback_arrow_shows_the_enclosing_function() {
        F.shows(
            "needle_closure",
            &[],
            &[
                "Line 30- function withClosure(items: number[]): number[] {",
                "Line 31-   return items.map((x) => {",
                "Line 32:     return x + 1; // needle_closure",
                "Line 33-   });",
                "Line 34- }",
            ],
        );
    }

    #[test]
    fn an_arrow_in_a_const_is_the_whole_statement() {
        F.shows(
            "needle_arrow",
            &[],
            &[
                "Line 36- const arrow = (n: number): number => {",
                "Line 37:   return n - 1; // needle_arrow",
                "Line 38- };",
            ],
        );
    }

    #[test]
    fn the_first_line_of_an_arrow_in_a_const_shows_the_whole_statement() {
        F.shows(
            "const arrow",
            &[],
            &[
                "Line 36: const arrow = (n: number): number => {",
                "Line 37-   return n - 1; // needle_arrow",
                "Line 38- };",
            ],
        );
    }

    #[test]
    fn an_exported_definitions_first_line_shows_the_whole_definition() {
        F.shows(
            "export function addOne",
            &[],
            &[
                "Line 4- /** Adds one; needle_doc sits in this doc comment, outside the function. */",
                "Line 5: export function addOne(n: number): number {",
                "Line 6-   return n + 1;",
                "Line 7- }",
            ],
        );
        F.shows(
            "export class",
            &[],
            &[
                "Line 15: export class Counter {",
                "Line 16-   private count = 0; // needle_field",
                "Line 17- ",
                "Line 18-   bump(): void {",
                "Line 19-     this.count += 1; // needle_method",
                "Line 20-   }",
                "Line 21- }",
            ],
        );
    }

    #[test]
    fn a_doc_comment_shows_the_function_it_documents() {
        // Above an `export`: part of the exported function.
        F.shows(
            "needle_doc",
            &[],
            &[
                "Line 4: /** Adds one; needle_doc sits in this doc comment, outside the function. */",
                "Line 5- export function addOne(n: number): number {",
                "Line 6-   return n + 1;",
                "Line 7- }",
            ],
        );
    }

    #[test]
    fn a_signature_line_shows_the_whole_function() {
        F.shows(
            "needle_signature",
            &[],
            &[
                "Line 9: function needle_signature(n: number): number {",
                "Line 10-   return n * 2;",
                "Line 11- }",
            ],
        );
    }

    #[test]
    fn between_definitions_gets_the_context_asked_for() {
        let between = "Line 13: // needle_between: a comment between two definitions.";
        F.shows("needle_between", &[], &[between]);
        F.shows(
            "needle_between",
            &["-C", "1"],
            &["Line 12- ", between, "Line 14- "],
        );
    }

    #[test]
    fn a_long_function_shows_its_signature_and_three_lines_around_each_match() {
        F.shows(
            "needle_long|needle_later",
            &[],
            &[
                "Line 58- function longFunction(): number {",
                "--",
                "Line 86-   total += 27;",
                "Line 87-   total += 28;",
                "Line 88-   total += 29;",
                "Line 89:   total += 30; // needle_long",
                "Line 90-   total += 31;",
                "Line 91-   total += 32;",
                "Line 92-   total += 33;",
                "--",
                "Line 106-   total += 47;",
                "Line 107-   total += 48;",
                "Line 108-   total += 49;",
                "Line 109:   total += 50; // needle_later",
                "Line 110-   total += 51;",
                "Line 111-   total += 52;",
                "Line 112-   total += 53;",
            ],
        );
    }

    #[test]
    fn after_a_syntax_error_a_function_is_whole() {
        F.shows(
            "needle_intact",
            &[],
            &[
                "Line 129- function intact(): number {",
                "Line 130:   return 2; // needle_intact",
                "Line 131- }",
            ],
        );
    }

    #[test]
    fn json_names_each_definition() {
        F.defines(
            "needle_",
            &[
                (4, Some(("addOne", "function", 4, 7))),
                (9, Some(("needle_signature", "function", 9, 11))),
                (13, None),
                (16, Some(("Counter", "class", 15, 21))),
                (19, Some(("bump", "method", 18, 20))),
                (25, Some(("inner", "function", 24, 26))),
                (27, Some(("outer", "function", 23, 28))),
                (32, Some(("withClosure", "function", 30, 34))),
                (37, Some(("arrow", "function", 36, 38))),
                (41, Some(("Shape", "interface", 40, 42))),
                (45, Some(("Pair", "type", 44, 46))),
                (49, Some(("Colour", "enum", 48, 51))),
                (54, Some(("Geometry", "namespace", 53, 55))),
                // From the comment right above it.
                (89, Some(("longFunction", "function", 57, 121))),
                (109, Some(("longFunction", "function", 57, 121))),
                (130, Some(("intact", "function", 129, 131))),
            ],
        );
    }
}

mod tsx {
    use super::Fixture;

    const F: Fixture = super::TSX;

    #[test]
    fn a_method_shows_the_method_and_no_more_with_context_asked() {
        let method = [
            "Line 20-   render() {",
            "Line 21:     return <p>{this.state.count}</p>; // needle_method",
            "Line 22-   }",
        ];
        F.shows("needle_method", &[], &method);
        F.shows("needle_method", &["-C", "1"], &method);
    }

    #[test]
    fn a_nested_function_shows_the_inner_function() {
        F.shows(
            "needle_nested",
            &[],
            &[
                "Line 26-   function Inner() {",
                "Line 27:     return <i>needle_nested</i>;",
                "Line 28-   }",
            ],
        );
    }

    #[test]
    fn an_arrow_in_jsx_shows_the_enclosing_function() {
        F.shows(
            "needle_closure",
            &[],
            &[
                "Line 32- export function Clicker() {",
                "Line 33-   return (",
                r#"Line 34:     <button onClick={() => alert("needle_closure")}>click</button>"#,
                "Line 35-   );",
                "Line 36- }",
            ],
        );
    }

    #[test]
    fn an_arrow_in_a_const_is_the_whole_statement() {
        F.shows(
            "needle_arrow",
            &[],
            &[
                "Line 38- export const Arrow = ({ n }: { n: number }) => {",
                "Line 39:   return <em>{n}</em>; // needle_arrow",
                "Line 40- };",
            ],
        );
    }

    #[test]
    fn a_doc_comment_shows_the_function_it_documents() {
        // Above an `export`: part of the exported function.
        F.shows(
            "needle_doc",
            &[],
            &[
                "Line 6: /** A label; needle_doc sits in this doc comment, outside the function. */",
                "Line 7- export function Label({ text }: { text: string }) {",
                "Line 8-   return <span>{text}</span>;",
                "Line 9- }",
            ],
        );
    }

    #[test]
    fn a_signature_line_shows_the_whole_function() {
        F.shows(
            "needle_signature",
            &[],
            &[
                "Line 11: export function needle_signature({ n }: { n: number }) {",
                "Line 12-   return <b>{n * 2}</b>;",
                "Line 13- }",
            ],
        );
    }

    #[test]
    fn between_definitions_gets_the_context_asked_for() {
        let between = "Line 15: // needle_between: a comment between two definitions.";
        F.shows("needle_between", &[], &[between]);
        F.shows(
            "needle_between",
            &["-C", "1"],
            &["Line 14- ", between, "Line 16- "],
        );
    }

    #[test]
    fn a_long_function_shows_its_signature_and_three_lines_around_each_match() {
        F.shows(
            "needle_long|needle_later",
            &[],
            &[
                "Line 47- export function LongList() {",
                "--",
                "Line 75-   total += 27;",
                "Line 76-   total += 28;",
                "Line 77-   total += 29;",
                "Line 78:   total += 30; // needle_long",
                "Line 79-   total += 31;",
                "Line 80-   total += 32;",
                "Line 81-   total += 33;",
                "--",
                "Line 95-   total += 47;",
                "Line 96-   total += 48;",
                "Line 97-   total += 49;",
                "Line 98:   total += 50; // needle_later",
                "Line 99-   total += 51;",
                "Line 100-   total += 52;",
                "Line 101-   total += 53;",
            ],
        );
    }

    #[test]
    fn after_a_syntax_error_a_function_is_whole() {
        F.shows(
            "needle_intact",
            &[],
            &[
                "Line 118- export function Intact() {",
                "Line 119:   return <div>needle_intact</div>;",
                "Line 120- }",
            ],
        );
    }

    #[test]
    fn json_names_each_definition() {
        // needle_signature is on a line that starts with `export`: see
        // a_signature_line_shows_the_whole_function.
        F.defines(
            "needle_(doc|between|field|method|nested|outer|closure|arrow|interface|long|later|intact)",
            &[
                (6, Some(("Label", "function", 6, 9))),
                (15, None),
                (18, Some(("Counter", "class", 17, 23))),
                (21, Some(("render", "method", 20, 22))),
                (27, Some(("Inner", "function", 26, 28))),
                (29, Some(("Outer", "function", 25, 30))),
                (34, Some(("Clicker", "function", 32, 36))),
                (39, Some(("Arrow", "function", 38, 40))),
                (43, Some(("Props", "interface", 42, 44))),
                // From the comment right above it.
                (78, Some(("LongList", "function", 46, 110))),
                (98, Some(("LongList", "function", 46, 110))),
                (119, Some(("Intact", "function", 118, 120))),
            ],
        );
    }
}

mod go {
    use super::Fixture;

    const F: Fixture = super::GO;

    #[test]
    fn a_method_shows_the_method_and_no_more_with_context_asked() {
        let method = [
            "Line 23- func (c *Counter) Bump() {",
            "Line 24: \tc.count++ // needle_method",
            "Line 25- }",
        ];
        F.shows("needle_method", &[], &method);
        F.shows("needle_method", &["-C", "1"], &method);
    }

    #[test]
    fn a_function_literal_in_a_variable_shows_the_enclosing_function() {
        // Go has no nested named functions (the fixture says so, in the
        // comment right above `Outer`, which is part of it).
        F.shows(
            "needle_nested",
            &[],
            &[
                "Line 27- // Go has no nested named functions: a function literal is a closure, even",
                "Line 28- // when a variable holds it.",
                "Line 29- func Outer() int {",
                "Line 30- \tinner := func() int {",
                "Line 31: \t\treturn 7 // needle_nested",
                "Line 32- \t}",
                "Line 33- \treturn inner() + 1",
                "Line 34- }",
            ],
        );
    }

    #[test]
    fn a_function_literal_shows_the_enclosing_function() {
        F.shows(
            "needle_closure",
            &[],
            &[
                "Line 36- func WithClosure(items []int) {",
                "Line 37- \tsort.Slice(items, func(i, j int) bool {",
                "Line 38: \t\treturn items[i] < items[j] // needle_closure",
                "Line 39- \t})",
                "Line 40- }",
            ],
        );
    }

    #[test]
    fn a_doc_comment_shows_the_function_it_documents() {
        F.shows(
            "needle_doc",
            &[],
            &[
                "Line 8: // AddOne adds one; needle_doc sits in this doc comment, outside the function.",
                "Line 9- func AddOne(n int) int {",
                "Line 10- \treturn n + 1",
                "Line 11- }",
            ],
        );
    }

    #[test]
    fn a_signature_line_shows_the_whole_function() {
        F.shows(
            "needle_signature",
            &[],
            &[
                "Line 13: func needle_signature(n int) int {",
                "Line 14- \treturn n * 2",
                "Line 15- }",
            ],
        );
    }

    #[test]
    fn between_definitions_gets_the_context_asked_for() {
        let between = "Line 17: // needle_between: a comment between two definitions.";
        F.shows("needle_between", &[], &[between]);
        F.shows(
            "needle_between",
            &["-C", "1"],
            &["Line 16- ", between, "Line 18- "],
        );
    }

    #[test]
    fn a_long_function_shows_its_signature_and_three_lines_around_each_match() {
        F.shows(
            "needle_long|needle_later",
            &[],
            &[
                "Line 47- func LongFunction() int {",
                "--",
                "Line 75- \ttotal += 27",
                "Line 76- \ttotal += 28",
                "Line 77- \ttotal += 29",
                "Line 78: \ttotal += 30 // needle_long",
                "Line 79- \ttotal += 31",
                "Line 80- \ttotal += 32",
                "Line 81- \ttotal += 33",
                "--",
                "Line 95- \ttotal += 47",
                "Line 96- \ttotal += 48",
                "Line 97- \ttotal += 49",
                "Line 98: \ttotal += 50 // needle_later",
                "Line 99- \ttotal += 51",
                "Line 100- \ttotal += 52",
                "Line 101- \ttotal += 53",
            ],
        );
    }

    #[test]
    fn after_a_syntax_error_a_function_is_whole() {
        F.shows(
            "needle_intact",
            &[],
            &[
                "Line 118- func Intact() int {",
                "Line 119: \treturn 2 // needle_intact",
                "Line 120- }",
            ],
        );
    }

    #[test]
    fn json_names_each_definition() {
        F.defines(
            "needle_",
            &[
                (8, Some(("AddOne", "function", 8, 11))),
                (13, Some(("needle_signature", "function", 13, 15))),
                (17, None),
                (20, Some(("Counter", "type", 19, 21))),
                (24, Some(("Bump", "method", 23, 25))),
                (31, Some(("Outer", "function", 27, 34))),
                (38, Some(("WithClosure", "function", 36, 40))),
                (43, Some(("Shape", "type", 42, 44))),
                // From the comment right above it.
                (78, Some(("LongFunction", "function", 46, 110))),
                (98, Some(("LongFunction", "function", 46, 110))),
                (119, Some(("Intact", "function", 118, 120))),
            ],
        );
    }
}

mod java {
    use super::Fixture;
    use crate::harness::assert_out;

    const F: Fixture = super::JAVA;

    #[test]
    fn a_method_shows_the_method_and_no_more_with_context_asked() {
        let method = [
            "Line 20-     void bump() {",
            "Line 21:         count += 1; // needle_method",
            "Line 22-     }",
        ];
        F.shows("needle_method", &[], &method);
        F.shows("needle_method", &["-C", "1"], &method);
    }

    #[test]
    fn a_method_of_a_class_in_a_method_shows_that_method() {
        // Java has no nested functions (the fixture says so): a class
        // declared in a method is the nearest thing.
        F.shows(
            "needle_nested",
            &[],
            &[
                "Line 32-             public void run() {",
                r#"Line 33:                 System.out.println("needle_nested");"#,
                "Line 34-             }",
            ],
        );
    }

    #[test]
    fn a_lambda_shows_the_enclosing_method() {
        F.shows(
            "needle_closure",
            &[],
            &[
                "Line 24-     List<Integer> withLambda(List<Integer> items) {",
                "Line 25:         items.forEach(x -> System.out.println(x)); // needle_closure",
                "Line 26-         return items;",
                "Line 27-     }",
            ],
        );
    }

    #[test]
    fn a_doc_comment_shows_the_class_it_documents() {
        // The class with its doc comment is 31 lines: whole.
        F.shows(
            "needle_doc",
            &[],
            &[
                "Line 8: /** A counter; needle_doc sits in this doc comment, outside the class. */",
                "Line 9- class Counter {",
                "Line 10-     private int count; // needle_field",
                "Line 11- ",
                "Line 12-     Counter(int start) {",
                "Line 13-         count = start; // needle_constructor",
                "Line 14-     }",
                "Line 15- ",
                "Line 16-     int needle_signature(int n) {",
                "Line 17-         return n * 2;",
                "Line 18-     }",
                "Line 19- ",
                "Line 20-     void bump() {",
                "Line 21-         count += 1; // needle_method",
                "Line 22-     }",
                "Line 23- ",
                "Line 24-     List<Integer> withLambda(List<Integer> items) {",
                "Line 25-         items.forEach(x -> System.out.println(x)); // needle_closure",
                "Line 26-         return items;",
                "Line 27-     }",
                "Line 28- ",
                "Line 29-     // Java has no nested functions; a class declared in a method has methods.",
                "Line 30-     Runnable local() {",
                "Line 31-         class Local implements Runnable {",
                "Line 32-             public void run() {",
                r#"Line 33-                 System.out.println("needle_nested");"#,
                "Line 34-             }",
                "Line 35-         }",
                "Line 36-         return new Local();",
                "Line 37-     }",
                "Line 38- }",
            ],
        );
    }

    #[test]
    fn a_signature_line_shows_the_whole_method() {
        F.shows(
            "needle_signature",
            &[],
            &[
                "Line 16:     int needle_signature(int n) {",
                "Line 17-         return n * 2;",
                "Line 18-     }",
            ],
        );
    }

    #[test]
    fn between_definitions_gets_the_context_asked_for() {
        let between = "Line 40: // needle_between: a comment between two definitions.";
        F.shows("needle_between", &[], &[between]);
        F.shows(
            "needle_between",
            &["-C", "1"],
            &["Line 39- ", between, "Line 41- "],
        );
    }

    #[test]
    fn a_long_method_shows_its_signature_and_three_lines_around_each_match() {
        F.shows(
            "needle_long|needle_later",
            &[],
            &[
                "Line 60-     int longMethod() {",
                "--",
                "Line 88-         total += 27;",
                "Line 89-         total += 28;",
                "Line 90-         total += 29;",
                "Line 91:         total += 30; // needle_long",
                "Line 92-         total += 31;",
                "Line 93-         total += 32;",
                "Line 94-         total += 33;",
                "--",
                "Line 108-         total += 47;",
                "Line 109-         total += 48;",
                "Line 110-         total += 49;",
                "Line 111:         total += 50; // needle_later",
                "Line 112-         total += 51;",
                "Line 113-         total += 52;",
                "Line 114-         total += 53;",
            ],
        );
    }

    /// The fixture with the syntax error of `broken` (line 127) mended,
    /// so that `Long`, which holds it, is parsed cleanly.
    fn mended() -> Fixture {
        F.with_line(127, "        int x = (1 + 1);")
    }

    /// The mended fixture with a blank line added after line 125, so that
    /// its comment (`needle_in_long_class`) is no longer right above
    /// `broken` but between two methods of `Long`, in `Long` alone.
    fn with_the_comment_apart() -> Fixture {
        mended().with_blank_line_after(125)
    }

    /// The comment of line 125 with the mended `broken`, which it is
    /// right above.
    const COMMENT_AND_BROKEN: [&str; 5] = [
        "Line 125:     // A syntax error (needle_in_long_class): tree-sitter parses on, the next method is whole.",
        "Line 126-     int broken() {",
        "Line 127-         int x = (1 + 1);",
        "Line 128-         return x;",
        "Line 129-     }",
    ];

    /// The comment of line 125 between two methods of `Long` (see
    /// [`with_the_comment_apart`]): 3 lines either side.
    const AROUND_THE_COMMENT_APART: [&str; 7] = [
        "Line 122-         return total;",
        "Line 123-     }",
        "Line 124- ",
        "Line 125:     // A syntax error (needle_in_long_class): tree-sitter parses on, the next method is whole.",
        "Line 126- ",
        "Line 127-     int broken() {",
        "Line 128-         int x = (1 + 1);",
    ];

    #[test]
    fn a_long_class_shows_its_first_line_and_three_lines_around_a_match_between_methods() {
        // As mended, the comment is right above `broken`: part of it,
        // which is whole.
        mended().shows("needle_in_long_class", &[], &COMMENT_AND_BROKEN);
        // A blank line after it: in `Long` alone (77 lines), which is cut.
        with_the_comment_apart().shows(
            "needle_in_long_class",
            &[],
            &[
                &["Line 58- class Long {", "--"],
                &AROUND_THE_COMMENT_APART[..],
            ]
            .concat(),
        );
    }

    /// What `needle_long` shows: `longMethod`'s signature, and 3 lines
    /// either side of the match.
    const IN_LONG_METHOD: [&str; 9] = [
        "Line 60-     int longMethod() {",
        "--",
        "Line 88-         total += 27;",
        "Line 89-         total += 28;",
        "Line 90-         total += 29;",
        "Line 91:         total += 30; // needle_long",
        "Line 92-         total += 31;",
        "Line 93-         total += 32;",
        "Line 94-         total += 33;",
    ];

    #[test]
    fn matches_in_a_long_method_and_in_its_long_class_show_both_first_lines() {
        // As mended, the second match is in `broken`: no line of `Long`
        // but its methods'.
        mended().shows(
            "needle_long|needle_in_long_class",
            &[],
            &[&IN_LONG_METHOD[..], &["--"], &COMMENT_AND_BROKEN[..]].concat(),
        );
        // A blank line after the comment: it is in `Long` alone.
        with_the_comment_apart().shows(
            "needle_long|needle_in_long_class",
            &[],
            &[
                &["Line 58- class Long {", "--"],
                &IN_LONG_METHOD[..],
                &["--"],
                &AROUND_THE_COMMENT_APART[..],
            ]
            .concat(),
        );
    }

    #[test]
    fn a_method_with_a_syntax_error_is_never_shown_whole() {
        // The comment right above `broken` is part of it, so a match there
        // gets the context asked for, and the closing line says so; a blank
        // line after the comment puts it in `Long`, which holds the error
        // too: the same.
        let note = "(No function context for 1 match in 1 file of those shown: no parser for the language, too big or slow to parse, or not parsed cleanly; it shows the context asked for)";
        for fixture in [F, F.with_blank_line_after(125)] {
            let lines = [
                format!("Line 124- {}", fixture.line(124)),
                format!("Line 125: {}", fixture.line(125)),
                format!("Line 126- {}", fixture.line(126)),
            ];
            let ran = fixture
                .tree()
                .run(&["grep", "needle_in_long_class", "-W", "-C", "1"]);
            assert_out(
                &ran,
                0,
                &format!(
                    "Found 1 match\n\nSample.java\n{}\n\n{note}\n",
                    lines.join("\n")
                ),
            );
        }
        // The long method before it and the method after it are as ever.
        F.shows(
            "needle_long|needle_intact",
            &[],
            &[
                &IN_LONG_METHOD[..],
                &[
                    "--",
                    "Line 131-     int intact() {",
                    "Line 132:         return 2; // needle_intact",
                    "Line 133-     }",
                ],
            ]
            .concat(),
        );
    }

    #[test]
    fn after_a_syntax_error_a_method_is_whole() {
        F.shows(
            "needle_intact",
            &[],
            &[
                "Line 131-     int intact() {",
                "Line 132:         return 2; // needle_intact",
                "Line 133-     }",
            ],
        );
    }

    #[test]
    fn json_names_each_definition() {
        // `broken`'s syntax error: no definition for the match in it.
        F.defines_with_unparsed(
            "needle_",
            &[
                (8, Some(("Counter", "class", 8, 38))),
                (10, Some(("Counter", "class", 8, 38))),
                (13, Some(("Counter", "constructor", 12, 14))),
                (16, Some(("needle_signature", "method", 16, 18))),
                (21, Some(("bump", "method", 20, 22))),
                (25, Some(("withLambda", "method", 24, 27))),
                (33, Some(("run", "method", 32, 34))),
                (40, None),
                (43, Some(("sides", "method", 43, 43))),
                (46, Some(("Colour", "enum", 46, 49))),
                (51, Some(("Point", "record", 51, 52))),
                (54, Some(("Marker", "annotation", 54, 56))),
                // From the comment right above each.
                (91, Some(("longMethod", "method", 59, 123))),
                (111, Some(("longMethod", "method", 59, 123))),
                (125, None),
                (132, Some(("intact", "method", 131, 133))),
            ],
            1,
        );
        mended().defines(
            "needle_in_long_class",
            &[(125, Some(("broken", "method", 125, 129)))],
        );
    }
}

mod c {
    use super::Fixture;
    use crate::harness::{TestDir, assert_out};

    const F: Fixture = super::C;

    #[test]
    fn a_struct_member_shows_the_struct() {
        // C has no methods (the fixture says so): a function pointer in a
        // struct is the nearest thing. The comment right above the struct
        // is part of it.
        F.shows(
            "needle_field",
            &[],
            &[
                "Line 18- /* The nearest thing to a method: a function pointer in a struct. */",
                "Line 19- struct counter {",
                "Line 20:     int count; /* needle_field */",
                "Line 21-     void (*bump)(struct counter *self);",
                "Line 22- };",
            ],
        );
    }

    #[test]
    fn a_function_shows_the_function_and_no_more_with_context_asked() {
        let function = [
            "Line 24- static void counter_bump(struct counter *self) {",
            "Line 25:     self->count += 1; /* needle_method */",
            "Line 26- }",
        ];
        F.shows("needle_method", &[], &function);
        F.shows("needle_method", &["-C", "1"], &function);
    }

    #[test]
    fn a_doc_comment_shows_the_function_it_documents() {
        F.shows(
            "needle_doc",
            &[],
            &[
                "Line 7: /** Adds one; needle_doc sits in this doc comment, outside the function. */",
                "Line 8- int add_one(int n) {",
                "Line 9-     return n + 1;",
                "Line 10- }",
            ],
        );
    }

    #[test]
    fn a_signature_line_shows_the_whole_function() {
        F.shows(
            "needle_signature",
            &[],
            &[
                "Line 12: int needle_signature(int n) {",
                "Line 13-     return n * 2;",
                "Line 14- }",
            ],
        );
    }

    #[test]
    fn a_signature_line_right_after_an_include_shows_the_whole_function() {
        let t = TestDir::new();
        t.write(
            "main.c",
            "#include <stdio.h>\nint main(void) {\n    return 0;\n}\n",
        );
        assert_out(
            &t.run(&["grep", "int main", "-W"]),
            0,
            "Found 1 match\n\nmain.c\nLine 2: int main(void) {\nLine 3-     return 0;\nLine 4- }\n",
        );
    }

    #[test]
    fn between_definitions_gets_the_context_asked_for() {
        let between = "Line 16: /* needle_between: a comment between two definitions. */";
        F.shows("needle_between", &[], &[between]);
        F.shows(
            "needle_between",
            &["-C", "1"],
            &["Line 15- ", between, "Line 17- "],
        );
    }

    #[test]
    fn a_long_function_shows_its_signature_and_three_lines_around_each_match() {
        F.shows(
            "needle_long|needle_later",
            &[],
            &[
                "Line 43- int long_function(void) {",
                "--",
                "Line 71-     total += 27;",
                "Line 72-     total += 28;",
                "Line 73-     total += 29;",
                "Line 74:     total += 30; /* needle_long */",
                "Line 75-     total += 31;",
                "Line 76-     total += 32;",
                "Line 77-     total += 33;",
                "--",
                "Line 91-     total += 47;",
                "Line 92-     total += 48;",
                "Line 93-     total += 49;",
                "Line 94:     total += 50; /* needle_later */",
                "Line 95-     total += 51;",
                "Line 96-     total += 52;",
                "Line 97-     total += 53;",
            ],
        );
    }

    #[test]
    fn after_a_syntax_error_a_function_is_whole() {
        F.shows(
            "needle_intact",
            &[],
            &[
                "Line 114- int intact(void) {",
                "Line 115:     return 2; /* needle_intact */",
                "Line 116- }",
            ],
        );
    }

    #[test]
    fn json_names_each_definition() {
        F.defines(
            "needle_",
            &[
                (7, Some(("add_one", "function", 7, 10))),
                (12, Some(("needle_signature", "function", 12, 14))),
                (16, None),
                (20, Some(("counter", "struct", 18, 22))),
                (25, Some(("counter_bump", "function", 24, 26))),
                (29, Some(("colour_name", "function", 28, 30))),
                (33, Some(("number", "union", 32, 35))),
                (38, Some(("colour", "enum", 37, 40))),
                // From the comment right above it.
                (74, Some(("long_function", "function", 42, 106))),
                (94, Some(("long_function", "function", 42, 106))),
                (115, Some(("intact", "function", 114, 116))),
            ],
        );
    }
}

mod cpp {
    use super::Fixture;

    const F: Fixture = super::CPP;

    #[test]
    fn a_method_shows_the_method_and_no_more_with_context_asked() {
        let method = [
            "Line 21-     void bump() {",
            "Line 22:         count += 1;  // needle_method",
            "Line 23-     }",
        ];
        F.shows("needle_method", &[], &method);
        F.shows("needle_method", &["-C", "1"], &method);
    }

    #[test]
    fn a_method_defined_outside_its_class_shows_that_definition() {
        F.shows(
            "needle_out_of_line",
            &[],
            &[
                "Line 30- int Counter::get() const {",
                "Line 31:     return count;  // needle_out_of_line",
                "Line 32- }",
            ],
        );
    }

    #[test]
    fn a_template_function_starts_at_its_template_line() {
        F.shows(
            "needle_template",
            &[],
            &[
                "Line 36- template <typename T>",
                "Line 37- T twice(T x) {",
                "Line 38:     return x + x;  // needle_template",
                "Line 39- }",
            ],
        );
    }

    #[test]
    fn a_template_line_shows_the_template_function() {
        F.shows(
            "template <typename",
            &[],
            &[
                "Line 36: template <typename T>",
                "Line 37- T twice(T x) {",
                "Line 38-     return x + x;  // needle_template",
                "Line 39- }",
            ],
        );
    }

    #[test]
    fn a_lambda_shows_the_enclosing_function() {
        // C++ has no nested functions (the fixture says so, in the
        // comment right above `with_lambda`, which is part of it).
        F.shows(
            "needle_closure",
            &[],
            &[
                "Line 47- // C++ has no nested functions: a lambda is a closure.",
                "Line 48- int with_lambda(std::vector<int> items) {",
                "Line 49-     auto square = [](int x) {",
                "Line 50:         return x * x;  // needle_closure",
                "Line 51-     };",
                "Line 52-     return square(items[0]);",
                "Line 53- }",
            ],
        );
    }

    #[test]
    fn a_doc_comment_shows_the_function_it_documents() {
        F.shows(
            "needle_doc",
            &[],
            &[
                "Line 6: /// Adds one; needle_doc sits in this doc comment, outside the function.",
                "Line 7- int add_one(int n) {",
                "Line 8-     return n + 1;",
                "Line 9- }",
            ],
        );
    }

    #[test]
    fn a_signature_line_shows_the_whole_function() {
        F.shows(
            "needle_signature",
            &[],
            &[
                "Line 11: int needle_signature(int n) {",
                "Line 12-     return n * 2;",
                "Line 13- }",
            ],
        );
    }

    #[test]
    fn between_definitions_gets_the_context_asked_for() {
        let between = "Line 15: // needle_between: a comment between two definitions.";
        F.shows("needle_between", &[], &[between]);
        F.shows(
            "needle_between",
            &["-C", "1"],
            &["Line 14- ", between, "Line 16- "],
        );
    }

    #[test]
    fn a_long_function_shows_its_signature_and_three_lines_around_each_match() {
        F.shows(
            "needle_long|needle_later",
            &[],
            &[
                "Line 56- int long_function() {",
                "--",
                "Line 84-     total += 27;",
                "Line 85-     total += 28;",
                "Line 86-     total += 29;",
                "Line 87:     total += 30;  // needle_long",
                "Line 88-     total += 31;",
                "Line 89-     total += 32;",
                "Line 90-     total += 33;",
                "--",
                "Line 104-     total += 47;",
                "Line 105-     total += 48;",
                "Line 106-     total += 49;",
                "Line 107:     total += 50;  // needle_later",
                "Line 108-     total += 51;",
                "Line 109-     total += 52;",
                "Line 110-     total += 53;",
            ],
        );
    }

    #[test]
    fn after_a_syntax_error_a_function_is_whole() {
        F.shows(
            "needle_intact",
            &[],
            &[
                "Line 127- int intact() {",
                "Line 128:     return 2;  // needle_intact",
                "Line 129- }",
            ],
        );
    }

    #[test]
    fn json_names_each_definition() {
        F.defines(
            "needle_",
            &[
                (6, Some(("add_one", "function", 6, 9))),
                (11, Some(("needle_signature", "function", 11, 13))),
                (15, None),
                // needle_namespace: the comment right above `Counter`, so
                // part of it, not a line of the namespace alone.
                (18, Some(("Counter", "class", 18, 28))),
                (22, Some(("bump", "method", 21, 23))),
                (27, Some(("Counter", "class", 18, 28))),
                (31, Some(("Counter::get", "function", 30, 32))),
                (38, Some(("twice", "function", 36, 39))),
                (44, Some(("sum", "method", 44, 44))),
                // From the comment right above each.
                (50, Some(("with_lambda", "function", 47, 53))),
                (87, Some(("long_function", "function", 55, 119))),
                (107, Some(("long_function", "function", 55, 119))),
                (128, Some(("intact", "function", 127, 129))),
            ],
        );
        // With a blank line after it, that comment is the namespace's alone.
        F.with_blank_line_after(18).defines(
            "needle_namespace",
            &[(18, Some(("shapes", "namespace", 17, 35)))],
        );
    }
}
