//! Stable pages (SPEC §3b): the same call with the next offset continues
//! exactly where a page stopped, so the pages of a result together are the
//! complete result, each entry once, in order; headers, footers, the
//! next-page line, an offset past the end and a limit over the cap, byte
//! for byte, in text and JSON, through argv, `call` and MCP.

use std::fmt::Write as _;

use serde_json::json;

use crate::harness::{T0, TestDir, assert_exit, assert_out, stdout, stdout_json};
use crate::mcp::{Era, Server};

const UNSAVED: &str =
    "(The complete result could not be saved; narrow pattern, path, or include to see more.)";

/// 12 files in three directories, `hit` on a few lines of each, mtimes
/// apart (so glob's newest-first order is fixed).
fn tree() -> TestDir {
    let t = TestDir::new();
    let mut age = 0;
    for dir in ["a", "b", "c"] {
        for n in 0..4 {
            let path = format!("{dir}/f{n}.txt");
            let mut text = String::new();
            for line in 1..=8 {
                if (line + n) % 3 == 0 {
                    let _ = writeln!(text, "hit {dir}{n} line {line}");
                } else {
                    let _ = writeln!(text, "plain {line}");
                }
            }
            t.write(&path, text);
            t.mtime(&path, T0 - age);
            age += 1;
        }
    }
    t
}

/// The next offset a page names, if any.
fn next_offset(text: &str) -> Option<usize> {
    let rest = text.split("(Next page: offset ").nth(1)?;
    rest.split('.').next()?.parse().ok()
}

/// The entries of a page: the lines between its header and the first
/// closing line (those start with `(`), headers and separators left out.
fn entries(text: &str, skip_header: bool) -> Vec<String> {
    let body = if skip_header {
        text.split_once("\n\n").map_or("", |(_, body)| body)
    } else {
        text
    };
    body.split("\n\n(")
        .next()
        .unwrap_or("")
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Page through `args` (a tool call, `--limit` and `--offset` added) and
/// return the pages' text.
fn pages(t: &TestDir, call: &[&str], limit: usize) -> Vec<String> {
    let mut texts = Vec::new();
    let mut offset = 0;
    loop {
        let (limit, from) = (limit.to_string(), offset.to_string());
        let mut words = call.to_vec();
        words.extend(["--limit", &limit, "--offset", &from]);
        let out = t.run(&words);
        assert_exit(&out, 0);
        let text = stdout(&out);
        let next = next_offset(&text);
        texts.push(text);
        match next {
            Some(next) => {
                assert!(next > offset, "a page does not move on: {out:?}");
                offset = next;
            }
            None => return texts,
        }
        assert!(texts.len() < 100, "paging does not end: {out:?}");
    }
}

/// A grep page's matched lines (`Line N:`), each under its file.
fn matched(text: &str) -> Vec<String> {
    let mut file = String::new();
    let mut out = Vec::new();
    for line in entries(text, true) {
        if line.starts_with("Line ") {
            if line.contains(':') && line.split(':').next().is_some_and(|l| !l.contains('-')) {
                out.push(format!("{file} {line}"));
            }
        } else if line != "--" {
            file = line;
        }
    }
    out
}

#[test]
fn glob_pages_together_are_the_whole_listing_in_order() {
    let t = tree();
    let all = t.run(&["glob", "**/*.txt"]);
    let whole = entries(&stdout(&all), false);
    assert_eq!(whole.len(), 12, "{all:?}");
    let texts = pages(&t, &["glob", "**/*.txt"], 5);
    assert_eq!(texts.len(), 3, "pages of 5: {texts:#?}");
    let paged: Vec<String> = texts.iter().flat_map(|p| entries(p, false)).collect();
    assert_eq!(paged, whole, "pages of 5 vs {}", all.describe());
    assert_out(
        &t.run(&["glob", "**/*.txt", "--limit", "5", "--offset", "5"]),
        0,
        "b/f1.txt\nb/f2.txt\nb/f3.txt\nc/f0.txt\nc/f1.txt\n\n\
         (The other 7 paths: a/ 4, c/ 2, b/ 1)\n\n\
         (Next page: offset 10.)\n\n\
         (Showing 5 of 12 paths, from path 6. The complete result could not be saved; narrow pattern or path to see more.)\n",
    );
}

#[test]
fn grep_pages_together_are_the_whole_result_in_order() {
    let t = tree();
    let all = t.run(&["grep", "hit"]);
    let whole = matched(&stdout(&all));
    assert_eq!(whole.len(), 30, "{all:?}");
    for limit in [1, 7, 30, 40] {
        let texts = pages(&t, &["grep", "hit"], limit);
        assert_eq!(
            texts.len(),
            30_usize.div_ceil(limit.min(30)),
            "pages of {limit}: {texts:#?}"
        );
        let paged: Vec<String> = texts.iter().flat_map(|p| matched(p)).collect();
        assert_eq!(paged, whole, "pages of {limit} vs {}", all.describe());
    }
    assert_out(
        &t.run(&["grep", "hit", "--limit", "3", "--offset", "9"]),
        0,
        &format!(
            "Found 3 of 30 matches, from match 10\n\n\
             a/f3.txt\nLine 6: hit a3 line 6\n\n\
             b/f0.txt\nLine 3: hit b0 line 3\nLine 6: hit b0 line 6\n\n\
             (The other 27 matches: c/ 10, a/ 9, b/ 8)\n\n\
             (Next page: offset 12.)\n\n{UNSAVED}\n"
        ),
    );
}

#[test]
fn pages_with_context_show_each_match_with_its_context_once() {
    let t = tree();
    let all = t.run(&["grep", "hit", "--context", "1"]);
    let whole = matched(&stdout(&all));
    assert_eq!(whole.len(), 30, "{all:?}");
    for limit in [3, 10] {
        let texts = pages(&t, &["grep", "hit", "--context", "1"], limit);
        let paged: Vec<String> = texts.iter().flat_map(|p| matched(p)).collect();
        assert_eq!(paged, whole, "pages of {limit} vs {}", all.describe());
        for text in &texts {
            // No page prints more lines than the limit, unless it holds a
            // single match (which always comes with its whole context).
            let lines = entries(text, true)
                .iter()
                .filter(|l| l.starts_with("Line "))
                .count();
            assert!(
                lines <= limit || matched(text).len() == 1,
                "a page of {limit} of {}: {text}",
                all.describe()
            );
        }
    }
    assert_out(
        &t.run(&[
            "grep",
            "hit",
            "--context",
            "1",
            "--limit",
            "6",
            "--offset",
            "1",
        ]),
        0,
        &format!(
            "Found 2 of 30 matches, from match 2\n\n\
             a/f0.txt\nLine 5- plain 5\nLine 6: hit a0 line 6\nLine 7- plain 7\n\n\
             a/f1.txt\nLine 1- plain 1\nLine 2: hit a1 line 2\nLine 3- plain 3\n\n\
             (The other 28 matches: b/ 10, c/ 10, a/ 8)\n\n\
             (Next page: offset 3.)\n\n{UNSAVED}\n"
        ),
    );
}

#[test]
fn files_and_count_pages_are_whole_too() {
    let t = tree();
    for mode in ["files", "count"] {
        let all = t.run(&["grep", "hit", "--output", mode]);
        let whole = entries(&stdout(&all), true);
        assert_eq!(whole.len(), 12, "{all:?}");
        let texts = pages(&t, &["grep", "hit", "--output", mode], 5);
        let paged: Vec<String> = texts.iter().flat_map(|p| entries(p, true)).collect();
        assert_eq!(paged, whole, "pages of 5 vs {}", all.describe());
    }
    assert_out(
        &t.run(&[
            "grep", "hit", "--output", "count", "--limit", "2", "--offset", "10",
        ]),
        0,
        &format!(
            "Found 30 matches in 12 files (showing 2, from file 11)\n\nc/f2.txt: 3\nc/f3.txt: 2\n\n(The other 10 files: a/ 4, b/ 4, c/ 2)\n\n{UNSAVED}\n"
        ),
    );
}

#[test]
fn an_offset_past_the_end_says_what_the_search_found() {
    let t = tree();
    assert_out(
        &t.run(&["grep", "hit", "--offset", "30"]),
        0,
        &format!(
            "No matches at offset 30; the search found 30\n\n(The other 30 matches: a/ 10, b/ 10, c/ 10)\n\n{UNSAVED}\n"
        ),
    );
    let out = t.run(&["glob", "**/*.txt", "--offset", "500"]);
    assert_exit(&out, 0);
    assert!(
        stdout(&out).starts_with("No paths at offset 500; the search found 12\n"),
        "{out:?}"
    );
    let out = t.run(&[
        "--format", "json", "grep", "hit", "--output", "files", "--offset", "99",
    ]);
    let value = stdout_json(&out);
    assert_eq!(
        (
            &value["status"],
            &value["shown"],
            &value["offset"],
            &value["next_offset"]
        ),
        (&json!("results"), &json!(0), &json!(99), &json!(null)),
        "{out:?}"
    );
}

/// The largest offset JSON can carry to `call`: `offset + 1` once wrapped
/// to 0 (release) or panicked (debug). The page says where it would start
/// (one past `u64::MAX` is still a number), and JSON carries the offset as
/// given; with `--explain` too.
#[test]
fn the_largest_offset_is_shown_true() {
    let t = tree();
    let max = u64::MAX;
    let glob = format!(r#"{{"pattern": "**/*.txt", "offset": {max}}}"#);
    assert_out(
        &t.run(&["--explain", "call", "glob", &glob]),
        0,
        &format!(
            "No paths at offset {max}; the search found 12\n\n\
             (The other 12 paths: a/ 4, b/ 4, c/ 4)\n\n\
             (Showing 0 of 12 paths, from path 18446744073709551616. The complete result could not be saved; narrow pattern or path to see more.)\n"
        ),
    );
    let grep = format!(r#"{{"pattern": "hit", "offset": {max}, "limit": {max}}}"#);
    let out = t
        .cmd()
        .args(["--format", "json", "--explain", "call", "grep", &grep])
        .output()
        .unwrap();
    let value = stdout_json(&out);
    assert_eq!(
        (
            &value["offset"],
            &value["next_offset"],
            &value["shown"],
            &value["total"]
        ),
        (&json!(max), &json!(null), &json!(0), &json!(30)),
        "{out:?}"
    );
    assert_exit(&out, 0);
}

#[test]
fn a_limit_over_the_cap_is_the_cap_and_says_so() {
    let t = tree();
    let out = t.run(&[
        "--glob-max-results",
        "4",
        "glob",
        "**/*.txt",
        "--limit",
        "50",
    ]);
    let text = stdout(&out);
    assert_eq!(entries(&text, false).len(), 4, "{out:?}");
    assert!(
        text.ends_with("\n\n(limit 50 is over the page cap of 4; the page holds at most 4)\n"),
        "{out:?}"
    );
    assert!(text.contains("(Next page: offset 4.)"), "{out:?}");
    let out = t.run(&[
        "--format",
        "json",
        "--grep-max-matches",
        "4",
        "grep",
        "hit",
        "--limit",
        "50",
    ]);
    let value = stdout_json(&out);
    assert_eq!(
        (&value["shown"], &value["next_offset"]),
        (&json!(4), &json!(4)),
        "{out:?}"
    );
    assert_eq!(
        value["warnings"][1],
        json!("limit 50 is over the page cap of 4"),
        "{out:?}"
    );
}

#[test]
fn every_page_of_one_result_names_the_same_spill_file() {
    let t = tree();
    // Outside the searched tree: a spill file holds `hit` lines too.
    let dir = tempfile::tempdir().unwrap();
    let spill = dir.path().join("spill");
    let spill = spill.to_str().unwrap();
    let locator = |offset: &str| {
        let out = t.run(&[
            "--spill-dir",
            spill,
            "grep",
            "hit",
            "--limit",
            "10",
            "--offset",
            offset,
        ]);
        let locator = stdout(&out)
            .split("stored at: ")
            .nth(1)
            .unwrap_or_else(|| panic!("no locator: {out:?}"))
            .to_owned();
        (locator, out)
    };
    let ((first, first_out), (third, third_out)) = (locator("0"), locator("20"));
    assert_eq!(
        first,
        third,
        "{}\nvs {}",
        first_out.describe(),
        third_out.describe()
    );
    let names: Vec<_> = std::fs::read_dir(spill).unwrap().collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn call_and_json_carry_the_page() {
    let t = tree();
    let out = t
        .cmd()
        .args(["--format", "json", "call", "glob"])
        .arg(r#"{"pattern": "**/*.txt", "limit": 5, "offset": 10}"#)
        .output()
        .unwrap();
    let value = stdout_json(&out);
    assert_eq!(value["paths"], json!(["c/f2.txt", "c/f3.txt"]), "{out:?}");
    assert_eq!(
        (
            &value["offset"],
            &value["next_offset"],
            &value["shown"],
            &value["total"]
        ),
        (&json!(10), &json!(null), &json!(2), &json!(12)),
        "{out:?}"
    );
    // Without offset or limit, no page fields: the envelope of a plain search (SPEC §7).
    let out = t.run(&["--format", "json", "glob", "**/*.txt"]);
    let plain = stdout_json(&out);
    assert!(
        plain.get("offset").is_none() && plain.get("next_offset").is_none(),
        "{out:?}"
    );
}

#[test]
fn mcp_takes_typed_arguments() {
    let t = tree();
    for era in [Era::Legacy, Era::Modern] {
        let mut server = Server::open(&t, &["mcp"], era);
        let reply = server.tool(
            era,
            1,
            "grep",
            json!({"pattern": "hit", "output": "count", "path": "a", "limit": 2, "ignore_case": true}),
        );
        assert_eq!(
            reply["result"]["content"][0]["text"],
            json!(format!(
                "Found 10 matches in 4 files (showing 2)\n\na/f0.txt: 2\na/f1.txt: 3\n\n(The other 2 files: a/ 2)\n\n(Next page: offset 2.)\n\n{UNSAVED}"
            )),
            "{}: {reply}",
            server.describe()
        );
        let reply = server.tool(era, 2, "grep", json!({"pattern": "hit", "context": 101}));
        assert_eq!(
            reply["result"]["isError"],
            json!(true),
            "{}: {reply}",
            server.describe()
        );
        assert_eq!(
            reply["result"]["content"][0]["text"],
            json!("Error: context must be a whole number from 0 to 100, not 101"),
            "{}: {reply}",
            server.describe()
        );
        server.finish_clean();
    }
}

/// Rust files whose functions hold `hit` lines: short functions, one over
/// 50 lines with hits far apart, and hits outside any function.
fn function_tree() -> TestDir {
    let t = TestDir::new();
    for n in 0..3 {
        let mut text = format!("// hit outside {n}\n");
        for f in 0..3 {
            let _ = writeln!(
                text,
                "fn short_{n}_{f}() {{\n    let a = 1; // hit {n}{f} a\n    let b = 2;\n    let c = 3; // hit {n}{f} c\n}}\n"
            );
        }
        let _ = writeln!(text, "fn long_{n}() {{");
        for line in 0..60 {
            if line % 20 == 5 {
                let _ = writeln!(text, "    step({line}); // hit {n} long {line}");
            } else {
                let _ = writeln!(text, "    step({line});");
            }
        }
        text.push_str("}\n");
        t.write(&format!("src/m{n}.rs"), text);
    }
    t
}

#[test]
fn pages_with_function_context_show_each_match_with_its_definition_once() {
    let t = function_tree();
    let call = ["grep", "hit", "--function-context"];
    let all = t.run(&call);
    let whole = matched(&stdout(&all));
    assert_eq!(whole.len(), 30, "{all:?}");
    // The whole result shows each line once, in order, per file.
    let shown = entries(&stdout(&all), true);
    for limit in [1, 4, 9, 25] {
        let texts = pages(&t, &call, limit);
        let paged: Vec<String> = texts.iter().flat_map(|p| matched(p)).collect();
        assert_eq!(paged, whole, "pages of {limit} vs {}", all.describe());
        let mut lines_seen = Vec::new();
        for text in &texts {
            let lines = entries(text, true);
            let printed = lines.iter().filter(|l| l.starts_with("Line ")).count();
            assert!(
                printed <= limit || matched(text).len() == 1,
                "a page of {limit} of {}: {text}",
                all.describe()
            );
            lines_seen.extend(lines.into_iter().filter(|l| l.starts_with("Line ")));
        }
        // Every line of the whole result is on some page (a definition cut
        // between pages shows its lines around each match on that page).
        for line in shown.iter().filter(|l| l.starts_with("Line ")) {
            assert!(lines_seen.contains(line), "{line} is on no page of {limit}");
        }
    }
}

#[test]
fn a_spilled_function_context_result_holds_every_definition() {
    let t = function_tree();
    let spill = tempfile::tempdir().unwrap();
    let dir = spill.path().to_str().unwrap();
    let all = t.run(&["grep", "hit", "--function-context"]);
    let capped = t.run(&[
        "--spill-dir",
        dir,
        "--grep-max-matches",
        "5",
        "grep",
        "hit",
        "--function-context",
    ]);
    let saved = std::fs::read_to_string(crate::harness::spill_file(spill.path(), &capped)).unwrap();
    // The spill file is the whole result, in the same shape as the
    // uncapped text.
    let body = |text: &str| {
        text.split_once("\n\n")
            .map(|(_, b)| b.to_owned())
            .unwrap_or_default()
    };
    assert_eq!(
        body(&saved).trim_end(),
        body(&stdout(&all)).trim_end(),
        "{}",
        capped.describe()
    );
}
