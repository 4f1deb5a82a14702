//! grep against real rg: counting, grouping and ordering, caps, previews,
//! what is searched, how paths are shown, and what the environment may and
//! may not change (SPEC §2, §4).

#[cfg(unix)]
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::fs;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;

use crate::harness::{T0, TestDir, assert_exit, assert_out, spill_file, stdout};

const CAPPED: &str =
    "(The complete result could not be saved; narrow pattern, path, or include to see more.)";

#[test]
fn one_match_is_singular() {
    let t = TestDir::new();
    t.write("a.txt", "alpha\nneedle here\nomega\n");
    assert_out(
        &t.run(&["grep", "needle"]),
        0,
        "Found 1 match\n\na.txt\nLine 2: needle here\n",
    );
}

#[test]
fn several_matches_are_plural_and_grouped_by_file() {
    let t = TestDir::new();
    t.write("a.txt", "needle 1\nhay\nneedle 3\n");
    t.write("b/c.txt", "hay\nhay\nhay\nneedle 4\n");
    assert_out(
        &t.run(&["grep", "needle"]),
        0,
        "Found 3 matches\n\na.txt\nLine 1: needle 1\nLine 3: needle 3\n\nb/c.txt\nLine 4: needle 4\n",
    );
}

#[test]
fn several_hits_on_one_line_count_once() {
    let t = TestDir::new();
    t.write("a.txt", "x x x x\nno\nx\n");
    assert_out(
        &t.run(&["grep", "x"]),
        0,
        "Found 2 matches\n\na.txt\nLine 1: x x x x\nLine 3: x\n",
    );
    assert_out(
        &t.run(&["grep", "x x"]),
        0,
        "Found 1 match\n\na.txt\nLine 1: x x x x\n",
    );
}

#[test]
fn nothing_matching_is_no_matches_found() {
    let t = TestDir::new();
    t.write("a.txt", "alpha\n");
    assert_out(&t.run(&["grep", "needle"]), 1, "No matches found\n");
}

#[test]
fn an_empty_tree_is_an_empty_search_with_nothing_searched() {
    // rg says "No files were searched" for a tree with no files at all, too.
    let t = TestDir::new();
    assert_out(
        &t.run(&["grep", "needle"]),
        1,
        "No matches found (no file was searched: the include filter or ignore rules excluded every file)\n",
    );
}

#[test]
fn files_go_by_path_byte_order() {
    let t = TestDir::new();
    // Component order would put a.txt and a/x.txt first; byte order puts
    // `-` (0x2d) < `.` (0x2e) < `/` (0x2f), and capitals before lowercase.
    for rel in [
        "é.txt", "a/x.txt", "a.txt", "a-b.txt", "_u.txt", "Z/y.txt", "B.txt",
    ] {
        t.write(rel, "hit\n");
    }
    let want = "Found 7 matches\n\n\
                B.txt\nLine 1: hit\n\n\
                Z/y.txt\nLine 1: hit\n\n\
                _u.txt\nLine 1: hit\n\n\
                a-b.txt\nLine 1: hit\n\n\
                a.txt\nLine 1: hit\n\n\
                a/x.txt\nLine 1: hit\n\n\
                é.txt\nLine 1: hit\n";
    assert_out(&t.run(&["grep", "hit"]), 0, want);
}

#[test]
fn many_files_come_out_in_the_same_order_whatever_rg_threads_did() {
    let t = TestDir::new();
    let mut names = Vec::new();
    for k in 0..80 {
        // Creation order differs from path order.
        let rel = format!("d{}/n{:02}.txt", (k * 7) % 8, (k * 13) % 80);
        let body: String = (1..=12)
            .map(|n| {
                if n % 4 == k % 4 {
                    format!("hit {k} {n}\n")
                } else {
                    format!("hay {n}\n")
                }
            })
            .collect();
        t.write(&rel, body);
        names.push((rel, k));
    }
    names.sort();
    let mut want = String::new();
    let mut total = 0;
    for (rel, k) in &names {
        write!(want, "\n\n{rel}").unwrap();
        for n in 1..=12 {
            if n % 4 == k % 4 {
                write!(want, "\nLine {n}: hit {k} {n}").unwrap();
                total += 1;
            }
        }
    }
    let want = format!("Found {total} matches{want}\n");
    for _ in 0..3 {
        assert_out(&t.run(&["grep", "hit"]), 0, &want);
    }
}

#[test]
fn gitignored_and_hidden_files_are_not_searched() {
    let t = TestDir::new();
    t.write(".gitignore", "build/\n*.log\n");
    t.write("build/out.txt", "needle\n");
    t.write("app.log", "needle\n");
    t.write(".hidden.txt", "needle\n");
    t.write(".config/app.toml", "needle\n");
    t.write(".git/config", "needle\n");
    t.write("src/main.rs", "needle\n");
    assert_out(
        &t.run(&["grep", "needle"]),
        0,
        "Found 1 match\n\nsrc/main.rs\nLine 1: needle\n",
    );
}

#[test]
fn hidden_files_named_as_path_are_searched_and_binary_files_are_listed() {
    let t = TestDir::new();
    t.write(".hidden.txt", "hit hidden\n");
    t.write("bin.dat", b"hit one\n\0bin\nhit two\n");
    t.write("a.txt", "hit a\n");
    // A file with a NUL byte is binary: listed, in a walk and when named,
    // its lines never shown (SPEC §2).
    assert_out(
        &t.run(&["grep", "hit"]),
        0,
        "Found 1 match\n\na.txt\nLine 1: hit a\n\n(Also matched in 1 binary file, lines not shown: bin.dat)\n",
    );
    assert_out(
        &t.run(&["grep", "hit", ".hidden.txt"]),
        0,
        "Found 1 match\n\n.hidden.txt\nLine 1: hit hidden\n",
    );
    assert_out(
        &t.run(&["grep", "hit", "bin.dat"]),
        0,
        "No matches found in text files\n\n(Matched in 1 binary file, lines not shown: bin.dat)\n",
    );
}

#[test]
fn ignore_rules_that_leave_nothing_are_an_empty_search() {
    let t = TestDir::new();
    t.write(".gitignore", "*\n");
    t.write("a.txt", "needle\n");
    assert_out(
        &t.run(&["grep", "needle"]),
        1,
        "No matches found (no file was searched: the include filter or ignore rules excluded every file)\n\n(Not searched: 1 file that ignore or hidden-file rules skip matches: a.txt; pass path \"a.txt\" to search it)\n",
    );
}

fn ts_tree() -> TestDir {
    let t = TestDir::new();
    t.write("src/a.ts", "export const x = 1;\n");
    t.write("src/b.tsx", "export const y = 2;\n");
    t.write("src/c.js", "export const z = 3;\n");
    t.write("README.md", "export docs\n");
    t
}

#[test]
fn include_keeps_only_matching_files() {
    let t = ts_tree();
    assert_out(
        &t.run(&["grep", "export", "--include", "*.ts"]),
        0,
        "Found 1 match\n\nsrc/a.ts\nLine 1: export const x = 1;\n",
    );
    assert_out(
        &t.run(&["grep", "export", "--include", "src/*.js"]),
        0,
        "Found 1 match\n\nsrc/c.js\nLine 1: export const z = 3;\n",
    );
}

#[test]
fn include_takes_brace_alternation() {
    let t = ts_tree();
    assert_out(
        &t.run(&["grep", "export", "--include", "*.{ts,tsx}"]),
        0,
        "Found 2 matches\n\nsrc/a.ts\nLine 1: export const x = 1;\n\nsrc/b.tsx\nLine 1: export const y = 2;\n",
    );
}

#[test]
fn an_include_that_leaves_nothing_is_an_empty_search() {
    let t = ts_tree();
    assert_out(
        &t.run(&["grep", "export", "--include", "*.py"]),
        1,
        "No matches found (no file was searched: the include filter or ignore rules excluded every file)\n",
    );
}

#[test]
fn an_include_that_searched_files_but_found_nothing_is_plain_no_matches() {
    let t = ts_tree();
    assert_out(
        &t.run(&["grep", "nothing here", "--include", "*.ts"]),
        1,
        "No matches found\n",
    );
}

/// a.txt: lines 1, 3; b.txt: lines 2, 4, 5; c.txt: line 1. Six matches.
fn six_matches() -> TestDir {
    let t = TestDir::new();
    t.write("a.txt", "hit a1\nhay\nhit a3\n");
    t.write("b.txt", "hay\nhit b2\nhay\nhit b4\nhit b5\n");
    t.write("c.txt", "hit c1\n");
    t
}

#[test]
fn exactly_at_the_match_cap_has_no_footer() {
    let t = six_matches();
    assert_out(
        &t.run(&["--grep-max-matches", "6", "grep", "hit"]),
        0,
        "Found 6 matches\n\na.txt\nLine 1: hit a1\nLine 3: hit a3\n\nb.txt\nLine 2: hit b2\nLine 4: hit b4\nLine 5: hit b5\n\nc.txt\nLine 1: hit c1\n",
    );
}

#[test]
fn over_the_match_cap_the_cut_falls_inside_a_group() {
    let t = six_matches();
    assert_out(
        &t.run(&["--grep-max-matches", "3", "grep", "hit"]),
        0,
        &format!(
            "Found 3 of 6 matches\n\na.txt\nLine 1: hit a1\nLine 3: hit a3\n\nb.txt\nLine 2: hit b2\n\n(The other 3 matches: b.txt 2, c.txt 1)\n\n{CAPPED}\n"
        ),
    );
    assert_out(
        &t.run(&["grep", "hit", "--grep-max-matches", "5"]),
        0,
        &format!(
            "Found 5 of 6 matches\n\na.txt\nLine 1: hit a1\nLine 3: hit a3\n\nb.txt\nLine 2: hit b2\nLine 4: hit b4\nLine 5: hit b5\n\n(The other 1 match: c.txt 1)\n\n{CAPPED}\n"
        ),
    );
    assert_out(
        &t.run(&["grep", "hit", "--grep-max-matches", "1"]),
        0,
        &format!(
            "Found 1 of 6 matches\n\na.txt\nLine 1: hit a1\n\n(The other 5 matches: b.txt 3, a.txt 1, c.txt 1)\n\n{CAPPED}\n"
        ),
    );
}

#[test]
fn the_match_cap_is_taken_over_the_sorted_result() {
    // Many files: the first two matches by path order, not rg's order.
    let t = TestDir::new();
    for k in (0..40).rev() {
        t.write(&format!("f{k:02}.txt"), "hit\nhit\n");
    }
    assert_out(
        &t.run(&["--grep-max-matches", "3", "grep", "hit"]),
        0,
        &format!(
            "Found 3 of 80 matches\n\nf00.txt\nLine 1: hit\nLine 2: hit\n\nf01.txt\nLine 1: hit\n\n(The other 77 matches: f02.txt 2, f03.txt 2, f04.txt 2)\n\n{CAPPED}\n"
        ),
    );
}

#[test]
fn a_crlf_line_ending_is_dropped() {
    let t = TestDir::new();
    t.write("dos.txt", "first hit\r\nsecond hit\r\nlast hit");
    assert_out(
        &t.run(&["grep", "hit"]),
        0,
        "Found 3 matches\n\ndos.txt\nLine 1: first hit\nLine 2: second hit\nLine 3: last hit\n",
    );
}

#[test]
fn a_long_line_is_cut_at_the_byte_cap() {
    let t = TestDir::new();
    t.write("a.txt", "hit 0123456789abcdef\nhit 012345\nhit 0123456\n");
    // Cap 10: "hit 012345" is exactly 10 bytes and stays whole.
    assert_out(
        &t.run(&["--grep-max-line-bytes", "10", "grep", "hit"]),
        0,
        "Found 3 matches\n\na.txt\nLine 1: hit 012345 (line truncated)\nLine 2: hit 012345\nLine 3: hit 012345 (line truncated)\n",
    );
}

#[test]
fn the_default_line_cap_is_2000_bytes() {
    let t = TestDir::new();
    let long = format!("hit{}", "x".repeat(2100));
    let fits = format!("hit{}", "y".repeat(1997));
    t.write("a.txt", format!("{long}\n{fits}\n"));
    assert_out(
        &t.run(&["grep", "hit"]),
        0,
        &format!(
            "Found 2 matches\n\na.txt\nLine 1: {} (line truncated)\nLine 2: {fits}\n",
            &long[..2000]
        ),
    );
}

#[test]
fn a_cut_never_splits_a_multibyte_character() {
    let t = TestDir::new();
    // A cap of 6 falls inside é (5..7), € (4..7) and 😀 (3..7).
    t.write("a.txt", "hitxyéz\nhitx€yz\nhit😀z\n");
    assert_out(
        &t.run(&["--grep-max-line-bytes", "6", "grep", "hit"]),
        0,
        "Found 3 matches\n\na.txt\nLine 1: hitxy (line truncated)\nLine 2: hitx (line truncated)\nLine 3: hit (line truncated)\n",
    );
}

#[test]
fn a_match_past_the_cap_is_shown_in_a_window() {
    let t = TestDir::new();
    let centred = format!("{}NEEDLE{}", "a".repeat(100), "b".repeat(100));
    let at_end = format!("{}NEEDLE", "c".repeat(100));
    let long_match = format!("{}NEEDLE{}", "d".repeat(30), "e".repeat(30));
    t.write("min.js", format!("{centred}\n{at_end}\n{long_match}\n"));
    // Cap 20, match of 6 bytes: 14 bytes of slack, 7 either side.
    assert_out(
        &t.run(&["--grep-max-line-bytes", "20", "grep", "NEEDLE"]),
        0,
        "Found 3 matches\n\nmin.js\n\
         Line 1: …aaaaaaaNEEDLEbbbbbbb (line truncated)\n\
         Line 2: …ccccccccccccccNEEDLE (line truncated)\n\
         Line 3: …dddddddNEEDLEeeeeeee (line truncated)\n",
    );
    // A match longer than the cap: its start, cut at the cap.
    assert_out(
        &t.run(&["--grep-max-line-bytes", "4", "grep", "NEEDLE"]),
        0,
        "Found 3 matches\n\nmin.js\n\
         Line 1: …NEED (line truncated)\n\
         Line 2: …NEED (line truncated)\n\
         Line 3: …NEED (line truncated)\n",
    );
}

#[test]
fn a_match_ending_within_the_cap_uses_the_plain_cut() {
    let t = TestDir::new();
    t.write("a.txt", "abcNEEDLEdefghijkl\n");
    // The match ends at byte 9 <= cap 9.
    assert_out(
        &t.run(&["--grep-max-line-bytes", "9", "grep", "NEEDLE"]),
        0,
        "Found 1 match\n\na.txt\nLine 1: abcNEEDLE (line truncated)\n",
    );
    // One byte short of it: a window.
    assert_out(
        &t.run(&["--grep-max-line-bytes", "8", "grep", "NEEDLE"]),
        0,
        "Found 1 match\n\na.txt\nLine 1: …cNEEDLEd (line truncated)\n",
    );
}

#[test]
fn a_window_keeps_character_boundaries() {
    let t = TestDir::new();
    // é (2 bytes) at even offsets; NEEDLE at 120..126. Cap 21: slack 15,
    // window [113, 134) -> start moved up to 114, end 134 is a boundary.
    t.write(
        "a.txt",
        format!("{}NEEDLE{}\n", "é".repeat(60), "é".repeat(60)),
    );
    assert_out(
        &t.run(&["--grep-max-line-bytes", "21", "grep", "NEEDLE"]),
        0,
        "Found 1 match\n\na.txt\nLine 1: …éééNEEDLEéééé (line truncated)\n",
    );
}

#[test]
fn a_match_inside_a_character_gets_a_window_of_whole_characters() {
    let t = TestDir::new();
    // `(?-u:\x9f)` matches byte 3, the second of 😀 (bytes 2..6). The
    // window widens the match to the whole character: a cap of 1 cannot
    // hold it (an empty window, not a panic), a cap of 4 holds just it,
    // where the plain cut ("ab") would have shown no part of the match.
    t.write(
        "e.txt",
        "ab😀cd
plain
",
    );
    assert_out(
        &t.run(&["--grep-max-line-bytes", "1", "grep", r"(?-u:\x9f)"]),
        0,
        "Found 1 match\n\ne.txt\nLine 1: … (line truncated)\n",
    );
    assert_out(
        &t.run(&["--grep-max-line-bytes", "4", "grep", r"(?-u:\x9f)"]),
        0,
        "Found 1 match\n\ne.txt\nLine 1: …😀 (line truncated)\n",
    );
}

#[test]
fn only_the_first_match_on_a_line_picks_the_window() {
    let t = TestDir::new();
    // Hits at 30..33 and 60..63; cap 11: slack 8, window [26, 37).
    let line = format!(
        "{}HIT{}HIT{}",
        "x".repeat(30),
        "y".repeat(27),
        "z".repeat(20)
    );
    t.write("a.txt", format!("{line}\n"));
    assert_out(
        &t.run(&["--grep-max-line-bytes", "11", "grep", "HIT"]),
        0,
        "Found 1 match\n\na.txt\nLine 1: …xxxxHITyyyy (line truncated)\n",
    );
}

#[test]
fn a_non_utf8_line_is_decoded_lossily_not_dropped() {
    let t = TestDir::new();
    t.write("latin1.txt", b"caf\xe9 latte\nplain latte\n");
    assert_out(
        &t.run(&["grep", "latte"]),
        0,
        "Found 2 matches\n\nlatin1.txt\nLine 1: caf\u{FFFD} latte\nLine 2: plain latte\n",
    );
}

#[test]
fn a_long_non_utf8_line_is_cut_and_windowed_on_bytes() {
    let t = TestDir::new();
    // Not \xff\xfe: that is a UTF-16 byte-order mark, which rg transcodes.
    let mut line = b"\xe9\xffHIT".to_vec();
    line.extend_from_slice(&[b'x'; 40]);
    line.extend_from_slice(b"\xe9NEEDLE\xe9");
    line.extend_from_slice(&[b'y'; 40]);
    line.push(b'\n');
    t.write("bin.txt", &line);
    // HIT ends at 5 <= 6: plain cut of 6 bytes, each stray byte its own char.
    assert_out(
        &t.run(&["--grep-max-line-bytes", "6", "grep", "HIT"]),
        0,
        "Found 1 match\n\nbin.txt\nLine 1: \u{FFFD}\u{FFFD}HITx (line truncated)\n",
    );
    // NEEDLE at 46..52; cap 8: slack 2, window [45, 53).
    assert_out(
        &t.run(&["--grep-max-line-bytes", "8", "grep", "NEEDLE"]),
        0,
        "Found 1 match\n\nbin.txt\nLine 1: …\u{FFFD}NEEDLE\u{FFFD} (line truncated)\n",
    );
}

// Unix only: Windows file names are Unicode, never invalid UTF-8.
#[cfg(unix)]
#[test]
fn a_non_utf8_file_name_is_decoded_lossily() {
    let t = TestDir::new();
    fs::write(t.path().join(OsStr::from_bytes(b"caf\xe9.txt")), "hit\n").unwrap();
    t.write("b.txt", "hit\n");
    assert_out(
        &t.run(&["grep", "hit"]),
        0,
        "Found 2 matches\n\nb.txt\nLine 1: hit\n\ncaf\u{FFFD}.txt\nLine 1: hit\n",
    );
}

// Unix only: names Windows cannot hold (control characters).
#[cfg(unix)]
#[test]
fn control_characters_in_a_file_name_are_escaped() {
    let t = TestDir::new();
    t.write("new\nline.txt", "hit\n");
    t.write("tab\tesc\x1b[2J.txt", "hit\n");
    assert_out(
        &t.run(&["grep", "hit"]),
        0,
        "Found 2 matches\n\nnew\\nline.txt\nLine 1: hit\n\ntab\\tesc\\x1b[2J.txt\nLine 1: hit\n",
    );
}

#[test]
fn a_path_naming_one_file_searches_only_it() {
    let t = TestDir::new();
    t.write("src/a.rs", "hit a\n");
    t.write("src/b.rs", "hit b\n");
    assert_out(
        &t.run(&["grep", "hit", "src/b.rs"]),
        0,
        "Found 1 match\n\nsrc/b.rs\nLine 1: hit b\n",
    );
    assert_out(
        &t.run(&["grep", "hit", "./src/b.rs"]),
        0,
        "Found 1 match\n\n./src/b.rs\nLine 1: hit b\n",
    );
}

#[test]
fn a_relative_path_names_a_directory_to_search() {
    let t = TestDir::new();
    t.write("src/a.rs", "hit a\n");
    t.write("other/b.rs", "hit b\n");
    assert_out(
        &t.run(&["grep", "hit", "src"]),
        0,
        "Found 1 match\n\nsrc/a.rs\nLine 1: hit a\n",
    );
}

#[test]
fn an_absolute_path_inside_the_workdir_is_shown_relative() {
    let t = TestDir::new();
    t.write("src/a.rs", "hit a\n");
    t.write("top.rs", "hit top\n");
    let out = t
        .cmd()
        .args(["grep", "hit"])
        .arg(t.path().join("src"))
        .output()
        .unwrap();
    assert_out(&out, 0, "Found 1 match\n\nsrc/a.rs\nLine 1: hit a\n");
    let out = t
        .cmd()
        .args(["grep", "hit"])
        .arg(t.path().join("top.rs"))
        .output()
        .unwrap();
    assert_out(&out, 0, "Found 1 match\n\ntop.rs\nLine 1: hit top\n");
    let out = t
        .cmd()
        .args(["grep", "hit"])
        .arg(t.path())
        .output()
        .unwrap();
    assert_out(
        &out,
        0,
        "Found 2 matches\n\nsrc/a.rs\nLine 1: hit a\n\ntop.rs\nLine 1: hit top\n",
    );
}

#[test]
fn an_absolute_path_outside_the_workdir_is_shown_as_is() {
    let t = TestDir::new();
    t.write("inside.txt", "hit inside\n");
    let outside = tempfile::tempdir().unwrap();
    fs::create_dir(outside.path().join("lib")).unwrap();
    fs::write(outside.path().join("lib/out.txt"), "hit outside\n").unwrap();
    let root = crate::harness::shown(&outside.path().to_string_lossy());
    let out = t
        .cmd()
        .args(["grep", "hit"])
        .arg(outside.path())
        .output()
        .unwrap();
    assert_out(
        &out,
        0,
        &format!("Found 1 match\n\n{root}/lib/out.txt\nLine 1: hit outside\n"),
    );
    let out = t
        .cmd()
        .args(["grep", "hit"])
        .arg(outside.path().join("lib/out.txt"))
        .output()
        .unwrap();
    assert_out(
        &out,
        0,
        &format!("Found 1 match\n\n{root}/lib/out.txt\nLine 1: hit outside\n"),
    );
}

#[test]
fn the_cwd_option_sets_the_workdir_relative_or_absolute() {
    let t = TestDir::new();
    t.write("proj/src/a.rs", "hit a\n");
    t.write("proj/b.rs", "hit b\n");
    t.write("elsewhere.rs", "hit elsewhere\n");
    let want = "Found 2 matches\n\nb.rs\nLine 1: hit b\n\nsrc/a.rs\nLine 1: hit a\n";
    assert_out(&t.run(&["--cwd", "proj", "grep", "hit"]), 0, want);
    assert_out(&t.run(&["grep", "hit", "--cwd", "proj"]), 0, want);
    assert_out(&t.run(&["--cwd=proj", "grep", "hit"]), 0, want);
    let abs = t.path().join("proj");
    let out = t
        .cmd()
        .arg("--cwd")
        .arg(&abs)
        .args(["grep", "hit"])
        .output()
        .unwrap();
    assert_out(&out, 0, want);
    // An absolute path inside that workdir is shown relative to it.
    let out = t
        .cmd()
        .arg("--cwd")
        .arg(&abs)
        .args(["grep", "hit"])
        .arg(abs.join("src"))
        .output()
        .unwrap();
    assert_out(&out, 0, "Found 1 match\n\nsrc/a.rs\nLine 1: hit a\n");
    // The process cwd plays no part once --cwd is given.
    let out = t
        .cmd()
        .current_dir(abs.join("src"))
        .arg("--cwd")
        .arg(&abs)
        .args(["grep", "hit"])
        .output()
        .unwrap();
    assert_out(&out, 0, want);
    // And from the environment; the flag wins over it.
    let out = t
        .cmd()
        .env("DSH_SEARCH_CWD", "proj")
        .args(["grep", "hit"])
        .output()
        .unwrap();
    assert_out(&out, 0, want);
    let out = t
        .cmd()
        .env("DSH_SEARCH_CWD", "proj/src")
        .args(["grep", "hit", "--cwd", "proj"])
        .output()
        .unwrap();
    assert_out(&out, 0, want);
}

#[test]
fn a_piped_stdin_is_not_searched_the_workdir_is() {
    let t = TestDir::new();
    t.write("src/main.rs", "fn main() {}\n");
    let out = t
        .cmd()
        .args(["grep", "fn main"])
        .write_stdin("fn main\n")
        .output()
        .unwrap();
    assert_out(
        &out,
        0,
        "Found 1 match\n\nsrc/main.rs\nLine 1: fn main() {}\n",
    );
    let out = t
        .cmd()
        .args(["grep", "only in stdin"])
        .write_stdin("only in stdin\n")
        .output()
        .unwrap();
    assert_out(&out, 1, "No matches found\n");
}

#[test]
fn a_hostile_ripgrep_config_changes_nothing() {
    let t = TestDir::new();
    let files = [
        (".gitignore", "ignored.txt\n", 1),
        ("ignored.txt", "hit ignored\n", 2),
        (".hidden.txt", "hit hidden\n", 3),
        ("a.txt", "hit a1\nHIT upper\nhit a3\n", 4),
        ("b.rs", "hit b\n", 5),
    ];
    for (rel, body, secs) in files {
        t.write(rel, body);
        t.mtime(rel, T0 + secs);
    }
    let config = tempfile::tempdir().unwrap();
    let rc = config.path().join("ripgreprc");
    fs::write(
        &rc,
        "--max-count=0\n--vimgrep\n--files\n--count\n--ignore-case\n--hidden\n--no-ignore\n\
         --glob=!*.rs\n--max-columns=3\n--null-data\n--only-matching\n--sort=path\n--type=js\n\
         --regexp=hay\n--invert-match\n--max-depth=0\n",
    )
    .unwrap();
    let grep_want =
        "Found 3 matches\n\na.txt\nLine 1: hit a1\nLine 3: hit a3\n\nb.rs\nLine 1: hit b\n";
    let glob_want = "b.rs\na.txt\n.hidden.txt\nignored.txt\n.gitignore\n";
    assert_out(&t.run(&["grep", "hit"]), 0, grep_want);
    assert_out(&t.run(&["glob", "*"]), 0, glob_want);
    let out = t
        .cmd()
        .env("RIPGREP_CONFIG_PATH", &rc)
        .args(["grep", "hit"])
        .output()
        .unwrap();
    assert_out(&out, 0, grep_want);
    let out = t
        .cmd()
        .env("RIPGREP_CONFIG_PATH", &rc)
        .args(["glob", "*"])
        .output()
        .unwrap();
    assert_out(&out, 0, glob_want);
}

#[test]
fn limits_come_from_the_environment_and_flags_win() {
    let t = six_matches();
    let three = format!(
        "Found 3 of 6 matches\n\na.txt\nLine 1: hit a1\nLine 3: hit a3\n\nb.txt\nLine 2: hit b2\n\n(The other 3 matches: b.txt 2, c.txt 1)\n\n{CAPPED}\n"
    );
    let out = t
        .cmd()
        .env("DSH_SEARCH_GREP_MAX_MATCHES", "3")
        .args(["grep", "hit"])
        .output()
        .unwrap();
    assert_out(&out, 0, &three);
    let out = t
        .cmd()
        .env("DSH_SEARCH_GREP_MAX_MATCHES", "1")
        .args(["grep", "hit", "--grep-max-matches", "3"])
        .output()
        .unwrap();
    assert_out(&out, 0, &three);

    let out = t
        .cmd()
        .env("DSH_SEARCH_GREP_MAX_LINE_BYTES", "4")
        .args(["grep", "b4"])
        .output()
        .unwrap();
    assert_out(
        &out,
        0,
        "Found 1 match\n\nb.txt\nLine 4: …t b4 (line truncated)\n",
    );
    let out = t
        .cmd()
        .env("DSH_SEARCH_GREP_MAX_LINE_BYTES", "4")
        .args(["--grep-max-line-bytes", "100", "grep", "b4"])
        .output()
        .unwrap();
    assert_out(&out, 0, "Found 1 match\n\nb.txt\nLine 4: hit b4\n");

    let out = t
        .cmd()
        .env("DSH_SEARCH_GLOB_MAX_RESULTS", "1")
        .args(["--glob-sort", "path", "glob", "*.txt"])
        .output()
        .unwrap();
    assert_out(
        &out,
        0,
        "a.txt\n\n(The other 2 paths: ./ 2)\n\n(Showing 1 of 3 paths. The complete result could not be saved; narrow pattern or path to see more.)\n",
    );
    let out = t
        .cmd()
        .env("DSH_SEARCH_GLOB_MAX_RESULTS", "1")
        .args([
            "--glob-sort",
            "path",
            "--glob-max-results",
            "3",
            "glob",
            "*.txt",
        ])
        .output()
        .unwrap();
    assert_out(&out, 0, "a.txt\nb.txt\nc.txt\n");
}

#[test]
fn a_large_output_is_parsed_whole_and_in_order() {
    // About 10 MB of `--json`: parsed inline at first, then on the parser
    // thread, and what that thread has not reached when rg exits is handed
    // back; the complete result (the spill file) must hold every match.
    let t = TestDir::new();
    let mut complete = String::from("Found 60000 matches");
    for f in 0..40 {
        let name = format!("f{f:02}.txt");
        let mut body = String::new();
        let _ = write!(complete, "\n\n{name}");
        for n in 1..=1500 {
            let _ = writeln!(body, "needle {f} {n} {}", "x".repeat(40));
            let _ = write!(complete, "\nLine {n}: needle {f} {n} {}", "x".repeat(40));
        }
        t.write(&name, body);
    }
    let spill = t.path().join("spill");
    let spill_arg = spill.to_string_lossy().into_owned();
    let out = t.run(&[
        "--spill-dir",
        &spill_arg,
        "--grep-max-matches",
        "1",
        "grep",
        "needle",
    ]);
    assert_exit(&out, 0);
    assert!(
        stdout(&out).starts_with("Found 1 of 60000 matches\n\nf00.txt\nLine 1: needle 0 1 "),
        "{out:?}"
    );
    let saved = spill_file(&spill, &out);
    assert!(
        fs::read_to_string(&saved).unwrap() == complete,
        "the spill file differs from the complete result: {}",
        out.describe()
    );
}
