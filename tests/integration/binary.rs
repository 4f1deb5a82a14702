//! Matches in binary files are reported, not hidden (SPEC §2): rg skips a
//! file with a NUL byte without a word, so a log with one stray NUL would
//! read as "No matches found". grep lists such files and never prints
//! their lines.

use serde_json::json;

use crate::harness::{TestDir, assert_json, assert_out, stdout};

/// A text file, a text log with one stray NUL, a real binary that matches,
/// and a binary that does not.
fn tree() -> TestDir {
    let t = TestDir::new();
    t.write("notes.txt", "needle text\nmore needle\n");
    t.write("app.log", b"hello needle\n\0x\n");
    t.write("bin/tool", b"\x7fELF\0\0\x01needle\x02\x03\xff\xfe\n\0\0");
    t.write("bin/other", b"\x7fELF\0\0\x01nothing here\n");
    t
}

#[test]
fn binary_matches_in_a_walk_are_listed_beside_text_matches() {
    let t = tree();
    assert_out(
        &t.run(&["grep", "needle"]),
        0,
        "Found 2 matches\n\nnotes.txt\nLine 1: needle text\nLine 2: more needle\n\n(Also matched in 2 binary files, lines not shown: app.log, bin/tool)\n",
    );
}

#[test]
fn matches_only_in_binary_files_are_results_not_an_empty_search() {
    let t = tree();
    assert_out(
        &t.run(&["grep", "hello"]),
        0,
        "No matches found in text files\n\n(Matched in 1 binary file, lines not shown: app.log)\n",
    );
    // A binary file that does not match is not mentioned.
    assert_out(
        &t.run(&["grep", "nothing here"]),
        0,
        "No matches found in text files\n\n(Matched in 1 binary file, lines not shown: bin/other)\n",
    );
    assert_out(&t.run(&["grep", "zzz"]), 1, "No matches found\n");
}

#[test]
fn a_binary_file_named_as_path_is_listed_too() {
    let t = tree();
    assert_out(
        &t.run(&["grep", "needle", "app.log"]),
        0,
        "No matches found in text files\n\n(Matched in 1 binary file, lines not shown: app.log)\n",
    );
}

#[test]
fn the_json_names_every_binary_file() {
    let t = tree();
    let out = t.run(&["--format", "json", "grep", "needle"]);
    assert_json(
        &out,
        0,
        &json!({
            "version": 1, "tool": "grep", "ok": true, "status": "results",
            "files": [{"path": "notes.txt", "matches": [
                {"line_number": 1, "preview": "needle text", "line_truncated": false},
                {"line_number": 2, "preview": "more needle", "line_truncated": false}]}],
            "total": 2, "shown": 2, "truncated": false, "total_files": 1,
            "binary_files": ["app.log", "bin/tool"],
            "spill": null, "spill_error": null, "warnings": [], "hints": [],
            "text": "Found 2 matches\n\nnotes.txt\nLine 1: needle text\nLine 2: more needle\n\n(Also matched in 2 binary files, lines not shown: app.log, bin/tool)"
        }),
    );
}

#[test]
fn many_binary_files_are_counted_inline_and_saved_whole() {
    let t = TestDir::new();
    for i in 0..23 {
        t.write(&format!("b{i:02}.bin"), b"needle\0\n");
    }
    t.write("a.txt", "needle\nneedle\n");
    let names: Vec<String> = (0..20).map(|i| format!("b{i:02}.bin")).collect();
    let spill = t.path().join("spill");
    let spill = spill.to_string_lossy().into_owned();
    let out = t.run(&[
        "--spill-dir",
        &spill,
        "--grep-max-matches",
        "1",
        "grep",
        "needle",
    ]);
    let text = stdout(&out);
    let (page, footer) = text
        .rsplit_once("\n\n")
        .unwrap_or_else(|| panic!("no footer: {out:?}"));
    assert_eq!(
        page,
        format!(
            "Found 1 of 2 matches\n\na.txt\nLine 1: needle\n\n(Also matched in 23 binary files, lines not shown: {}, and 3 more)\n\n(The other 1 match: a.txt 1)",
            names.join(", ")
        ),
        "{out:?}"
    );
    let locator = footer
        .strip_prefix("(Full grep result stored at: ")
        .and_then(|f| f.split_once(". Use read"))
        .map_or_else(|| panic!("no locator: {out:?}"), |(l, _)| l.to_owned());
    let all: Vec<String> = (0..23).map(|i| format!("b{i:02}.bin")).collect();
    assert_eq!(
        std::fs::read_to_string(locator).unwrap(),
        format!(
            "Found 2 matches\n\na.txt\nLine 1: needle\nLine 2: needle\n\n(Also matched in 23 binary files, lines not shown: {})",
            all.join(", ")
        ),
        "the file saved by {}",
        out.describe()
    );
}
