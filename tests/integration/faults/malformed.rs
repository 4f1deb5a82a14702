//! Output that cannot be parsed (exit 4, saying what was read), numbers at
//! their limits, and what is not malformed (blank lines, unknown records,
//! bytes that are not UTF-8).

use super::*;
use crate::harness::{assert_exit, assert_out, stdout, stdout_json};

/// The end of every malformed-output message: it says what was read, and
/// guesses no cause (an rg too old was only ever a guess).
const MALFORMED_TAIL: &str = "\").\n";

/// Run grep against a fake rg printing `out` and exiting 0.
fn grep_output(out: &str) -> Ran {
    let t = TestDir::new();
    let rg = scripted(&t, out.as_bytes(), b"", 0);
    run_with(&t, &rg, &["grep", "x"])
}

#[track_caller]
fn assert_malformed_exact(out: &str, detail: &str) {
    assert_out(
        &grep_output(out),
        4,
        &format!("Error: grep failed: ripgrep's output could not be parsed ({detail}).\n"),
    );
}

/// The detail quotes a parser's message (`serde_json`, `base64`): prefix only.
#[track_caller]
fn assert_malformed_prefix(out: &str, detail_prefix: &str) {
    let got = grep_output(out);
    let text = stdout(&got);
    assert_exit(&got, 4);
    assert!(
        text.starts_with(&format!(
            "Error: grep failed: ripgrep's output could not be parsed ({detail_prefix}"
        )) && text.ends_with(MALFORMED_TAIL),
        "{got:?}"
    );
}

const BEGIN: &str = r#"{"type":"begin","data":{"path":{"text":"a.rs"}}}"#;

/// How a malformed message quotes the record it could not read (ASCII
/// here): its first 80 bytes, `…` when cut.
fn read(record: &str) -> String {
    if record.len() > 80 {
        format!(r#"read "{}…""#, &record[..80])
    } else {
        format!(r#"read "{record}""#)
    }
}

#[test]
fn malformed_not_json() {
    assert_malformed_prefix("this is not json\n", "record 1: not a JSON record: ");
}

#[test]
fn malformed_record_number_counts_non_blank_lines() {
    let out = format!("\n{BEGIN}\n\n{}\n{{oops\n", match_record("a.rs", 1, "x"));
    assert_malformed_prefix(&out, "record 3: not a JSON record: ");
}

#[test]
fn malformed_truncated_last_record() {
    let whole = match_record("a.rs", 1, "x");
    let out = format!("{BEGIN}\n{}", &whole[..whole.len() / 2]);
    assert_malformed_prefix(&out, "record 2: not a JSON record: ");
}

#[test]
fn malformed_match_without_lines() {
    let rec = r#"{"type":"match","data":{"path":{"text":"a.rs"},"line_number":1,"submatches":[]}}"#;
    assert_malformed_exact(
        &format!("{BEGIN}\n{rec}\n"),
        &format!("record 2: a match record has no lines, {}", read(rec)),
    );
}

#[test]
fn malformed_match_without_path() {
    let rec = r#"{"type":"match","data":{"lines":{"text":"x\n"},"line_number":1,"submatches":[]}}"#;
    assert_malformed_exact(
        &format!("{rec}\n"),
        &format!("record 1: a match record has no path, {}", read(rec)),
    );
}

#[test]
fn malformed_match_without_line_number() {
    let rec = r#"{"type":"match","data":{"path":{"text":"a.rs"},"lines":{"text":"x\n"},"submatches":[]}}"#;
    assert_malformed_exact(
        &format!("{rec}\n"),
        &format!("record 1: a match record has no line_number, {}", read(rec)),
    );
}

#[test]
fn malformed_match_without_data() {
    assert_malformed_exact(
        "{\"type\":\"match\"}\n",
        r#"record 1: a match record has no data, read "{"type":"match"}""#,
    );
}

#[test]
fn malformed_bad_base64() {
    let rec = r#"{"type":"match","data":{"path":{"text":"a.rs"},"lines":{"bytes":"!!not base64!!"},"line_number":1,"submatches":[]}}"#;
    assert_malformed_prefix(
        &format!("{rec}\n"),
        "record 1: a match record's lines.bytes is not base64: ",
    );
}

#[test]
fn malformed_json_array_instead_of_object() {
    let out = format!("[{}]\n", match_record("a.rs", 1, "x"));
    assert_malformed_prefix(&out, "record 1: not a JSON record: ");
    assert_malformed_prefix("[]\n", "record 1: not a JSON record: ");
}

#[test]
fn malformed_json_array_shaped_like_a_record() {
    let out = r#"["match",{"path":{"text":"a.rs"},"lines":{"text":"x\n"},"line_number":1,"submatches":[]}]"#;
    assert_malformed_prefix(&format!("{out}\n"), "record 1: ");
}

#[test]
fn malformed_says_what_it_read_escaped() {
    // The record as read, escaped (ESC would colour the terminal), and no
    // guess at a cause.
    assert_malformed_exact(
        "\x1b[31mnot json\n",
        r#"record 1: not a JSON record: expected a JSON object, read "\x1b[31mnot json""#,
    );
    // A count of the wrong form (`--count` prints `PATH NUL COUNT`).
    let t = TestDir::new();
    let rg = scripted(&t, b"12\n", b"", 0);
    assert_out(
        &run_with(&t, &rg, &["grep", "x", "--output", "count"]),
        4,
        "Error: grep failed: ripgrep's output could not be parsed (record 1: expected a count of rg's form (a path, NUL, a number), read \"12\").\n",
    );
}

#[test]
fn a_record_nested_millions_deep_is_a_parse_failure() {
    // 8 MB of `[` in one record: read as it streams (it is over the 1 MiB
    // held whole), it fails at rg's depth instead of keeping a level (and
    // copying them all for each value) for every `[`.
    let mut out = br#"{"type":"match","data":{"x":"#.to_vec();
    out.extend_from_slice(&vec![b'['; 8_000_000]);
    out.extend_from_slice(b"1\n");
    let t = TestDir::new();
    let rg = scripted(&t, &out, b"", 0);
    assert_out(
        &run_with(&t, &rg, &["grep", "x"]),
        4,
        &format!(
            "Error: grep failed: ripgrep's output could not be parsed (record 1: a record that is too large to hold nests deeper than rg's records do, read \"{{\"type\":\"match\",\"data\":{{\"x\":{}…\").\n",
            "[".repeat(52)
        ),
    );
    // Over the raw-output cap it is an overflow, as any output is.
    assert_out(
        &run_with(&t, &rg, &["--raw-output-max-bytes", "5000000", "grep", "x"]),
        5,
        "Error: grep output is over the 5000000-byte cap on raw ripgrep output; narrow pattern, path, or include, or raise --raw-output-max-bytes.\n",
    );
}

// ----------------------------------------------- numbers at their limits

#[test]
fn counts_and_line_numbers_at_u64_max_are_shown_true() {
    // rg's numbers as large as they come: shown as they are, in text and
    // JSON, never wrapped (a sum past u64::MAX once wrapped in release and
    // panicked in debug).
    let max = u64::MAX;
    let t = TestDir::new();
    let counts = format!("a\0{max}\nb\0{}\n", 0);
    let rg = scripted(&t, counts.as_bytes(), b"", 0);
    assert_out(
        &run_with(&t, &rg, &["grep", "x", "--output", "count"]),
        0,
        &format!("Found {max} matches in 2 files\n\na: {max}\nb: 0\n"),
    );
    let json = run_with(
        &t,
        &rg,
        &["--format", "json", "grep", "x", "--output", "count"],
    );
    assert_eq!(
        stdout_json(&json)["total_matches"],
        serde_json::json!(max),
        "{json:?}"
    );
    // Matched lines and context lines numbered up to u64::MAX, with context.
    let context = |n: u64| {
        serde_json::json!({"type": "context", "data": {
            "path": {"text": "a.rs"}, "lines": {"text": "ctx\n"},
            "line_number": n, "absolute_offset": 0, "submatches": []
        }})
        .to_string()
    };
    let out = format!(
        "{}\n{}\n{}\n",
        context(max - 2),
        match_record("a.rs", max - 1, "x"),
        match_record("a.rs", max, "x")
    );
    let rg = scripted(&t, out.as_bytes(), b"", 0);
    assert_out(
        &run_with(
            &t,
            &rg,
            &["--grep-max-matches", "1", "grep", "x", "--context", "1"],
        ),
        0,
        &format!(
            "Found 1 of 2 matches\n\na.rs\nLine {}- ctx\nLine {}: x\n\n(The other 1 match: a.rs 1)\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)\n",
            max - 2,
            max - 1
        ),
    );
}

#[test]
fn counts_that_add_up_past_u64_max_are_a_parse_failure() {
    let max = u64::MAX;
    let t = TestDir::new();
    let counts = format!("a\0{max}\nb\0{max}\n");
    let rg = scripted(&t, counts.as_bytes(), b"", 0);
    assert_out(
        &run_with(&t, &rg, &["grep", "x", "--output", "count"]),
        4,
        &format!(
            "Error: grep failed: ripgrep's output could not be parsed (record 2: the counts add up past {max} matched lines, more than any search finds, read \"b\\x00{max}\").\n"
        ),
    );
    // The same from --json's end records (a multiline count).
    let end = |path: &str| {
        serde_json::json!({"type": "end", "data": {
            "path": {"text": path}, "binary_offset": null,
            "stats": {"matched_lines": max}
        }})
        .to_string()
    };
    let out = format!("{}\n{}\n", end("a"), end("b"));
    let rg = scripted(&t, out.as_bytes(), b"", 0);
    let ran = run_with(&t, &rg, &["grep", "x", "-U", "--output", "count"]);
    let text = stdout(&ran);
    assert_exit(&ran, 4);
    assert!(
        text.starts_with(&format!(
            "Error: grep failed: ripgrep's output could not be parsed (record 2: the counts add up past {max} matched lines"
        )),
        "{ran:?}"
    );
}

#[test]
fn a_multiline_match_numbered_past_u64_max_is_a_parse_failure() {
    let max = u64::MAX;
    let rec = serde_json::json!({"type": "match", "data": {
        "path": {"text": "a.rs"}, "lines": {"text": "x\ny\n"},
        "line_number": max, "absolute_offset": 0,
        "submatches": [{"match": {"text": "x\ny"}, "start": 0, "end": 3}]
    }})
    .to_string();
    let t = TestDir::new();
    let rg = scripted(&t, format!("{rec}\n").as_bytes(), b"", 0);
    assert_out(
        &run_with(&t, &rg, &["grep", "x", "-U"]),
        4,
        &format!(
            "Error: grep failed: ripgrep's output could not be parsed (record 1: a match record's lines run past line {max}, {}).\n",
            read(&rec)
        ),
    );
}

#[test]
fn a_giant_record_with_offsets_at_their_limits_is_previewed() {
    // A record too large to hold (3 MB: past the 1 MiB held whole however
    // the reads fall), whose offsets no file has:
    // a match at usize::MAX, an absolute offset at u64::MAX, and a match
    // that ends before it starts. No arithmetic overflows: the match
    // alone, or the line's head.
    let max = u64::MAX;
    let line = "y".repeat(3_000_000);
    let giant = |start: u64, end: u64| {
        serde_json::json!({"type": "match", "data": {
            "path": {"text": "min.js"}, "lines": {"text": format!("{line}\n")},
            "line_number": 1, "absolute_offset": max,
            "submatches": [{"match": {"text": "yy"}, "start": start, "end": end}]
        }})
        .to_string()
    };
    let t = TestDir::new();
    let out = format!("{}\n", giant(max, max));
    let rg = scripted(&t, out.as_bytes(), b"", 0);
    assert_out(
        &run_with(&t, &rg, &["--grep-max-line-bytes", "4", "grep", "y"]),
        0,
        "Found 1 match\n\nmin.js\nLine 1: …yy (line truncated)\n",
    );
    let out = format!("{}\n", giant(max, 5));
    let rg = scripted(&t, out.as_bytes(), b"", 0);
    assert_out(
        &run_with(&t, &rg, &["--grep-max-line-bytes", "4", "grep", "y"]),
        0,
        "Found 1 match\n\nmin.js\nLine 1: yyyy (line truncated)\n",
    );
}

#[test]
fn malformed_output_after_rg_exit_1_is_still_exit_4() {
    let t = TestDir::new();
    let rg = scripted(&t, b"garbage\n", b"", 1);
    let out = run_with(&t, &rg, &["grep", "x"]);
    assert_exit(&out, 4);
    assert!(
        stdout(&out).contains("(record 1: not a JSON record: "),
        "{out:?}"
    );
}

#[test]
fn blank_lines_and_unknown_records_are_skipped() {
    let out = format!(
        "\n\n{BEGIN}\n   \n{{\"type\":\"future_kind\",\"data\":[1,2,3]}}\n{}\n\r\n{{\"type\":\"context\",\"data\":{{}}}}\n{}\n{{\"type\":\"summary\",\"data\":{{}}}}\n\n",
        match_record("a.rs", 7, "x seven"),
        match_record("a.rs", 2, "x two"),
    );
    assert_out(
        &grep_output(&out),
        0,
        "Found 2 matches\n\na.rs\nLine 2: x two\nLine 7: x seven\n",
    );
}

#[test]
fn base64_line_and_path_are_decoded_lossily() {
    // path b"a/\xff.txt", line b"caf\xe9 x\n".
    let rec = r#"{"type":"match","data":{"path":{"bytes":"YS//LnR4dA=="},"lines":{"bytes":"Y2Fm6SB4Cg=="},"line_number":4,"submatches":[{"match":{"text":"x"},"start":5,"end":6}]}}"#;
    assert_out(
        &grep_output(&format!("{rec}\n")),
        0,
        "Found 1 match\n\na/\u{fffd}.txt\nLine 4: caf\u{fffd} x\n",
    );
}
