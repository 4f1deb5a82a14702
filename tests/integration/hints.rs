//! Where to look next (SPEC §4a), byte for byte in text and JSON: the
//! probes of an empty search (what ignore rules skipped, what differs only
//! in case), the probes' bounds (nothing found, failed, out of time, never
//! run after a result), the remainder line of a capped page, and the page
//! a timeout keeps.

use std::fs;
#[cfg(unix)]
use std::time::{Duration, Instant};

use crate::harness::{Ran, TestDir, assert_exit, assert_out, stdout};
#[cfg(unix)]
use crate::procs::Sleepers;
#[cfg(unix)]
use crate::spill::content_hash;

/// The unsaved footers (these tests give no spill dir).
const GREP_UNSAVED: &str =
    "(The complete result could not be saved; narrow pattern, path, or include to see more.)";

/// `args` with `--format json` in front.
fn json(t: &TestDir, args: &[&str]) -> Ran {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    t.run(&all)
}

/// A repo whose only `loadConfig` is in an ignored dependency, with a
/// near miss in case outside it.
/// The JSON line of an empty `tool` result with these `hints` (the JSON
/// of the array's items) and this `text`.
fn empty_json(tool: &str, hints: &str, text: &str) -> String {
    let items = match tool {
        "grep" => {
            r#""files":[],"total":0,"shown":0,"truncated":false,"total_files":0,"binary_files":[]"#
        }
        _ => r#""paths":[],"total":0,"shown":0,"truncated":false"#,
    };
    let text = serde_json::to_string(text).unwrap();
    format!(
        r#"{{"version":1,"tool":"{tool}","ok":true,"status":"empty",{items},"spill":null,"spill_error":null,"warnings":[],"hints":[{hints}],"text":{text}}}"#
    ) + "\n"
}

fn dependency_tree() -> TestDir {
    let t = TestDir::new();
    t.write(".gitignore", "node_modules/\n");
    t.write("node_modules/lib/x.js", "function loadConfig() {}\n");
    t.write("node_modules/lib/y.js", "loadConfig();\n");
    t.write("src/main.js", "const a = 1;\n");
    t
}

const IGNORED_LINE: &str = "(Not searched: 2 files that ignore or hidden-file rules skip match, e.g. node_modules/lib/x.js, node_modules/lib/y.js; pass path \"node_modules/lib\" to search there)";

// ------------------------------------------------------------ empty grep

#[test]
fn an_empty_grep_names_what_ignore_rules_skipped() {
    let t = dependency_tree();
    assert_out(
        &t.run(&["grep", "loadConfig"]),
        1,
        &format!("No matches found\n\n{IGNORED_LINE}\n"),
    );
    assert_out(
        &json(&t, &["grep", "loadConfig"]),
        1,
        &empty_json(
            "grep",
            r#"{"kind":"ignored","count":2,"complete":true,"examples":["node_modules/lib/x.js","node_modules/lib/y.js"],"path":"node_modules/lib"}"#,
            &format!("No matches found\n\n{IGNORED_LINE}"),
        ),
    );
}

#[test]
fn an_absolute_path_it_names_keeps_its_root() {
    // The search path is outside the workdir, so rg prints absolute paths:
    // the path to pass must be absolute too, and it must work.
    let t = dependency_tree();
    t.mkdir("w");
    let root = t.root();
    let workdir = format!("{root}/w");
    let out = t.run(&["--cwd", &workdir, "grep", "loadConfig", &root]);
    // Shown with `/` on every OS (SPEC §10); on Windows that is a path too.
    let root = crate::harness::shown(&root);
    assert_out(
        &out,
        1,
        &format!(
            "No matches found\n\n(Not searched: 2 files that ignore or hidden-file rules skip match, \
             e.g. {root}/node_modules/lib/x.js, {root}/node_modules/lib/y.js; \
             pass path \"{root}/node_modules/lib\" to search there)\n"
        ),
    );
    let named = format!("{root}/node_modules/lib");
    let out = t.run(&["--cwd", &workdir, "grep", "loadConfig", &named]);
    assert_exit(&out, 0);
}

#[test]
fn the_path_it_names_finds_the_matches() {
    // The advice works: rg searches a path given explicitly even where
    // ignore rules would skip it.
    let t = dependency_tree();
    assert_out(
        &t.run(&["grep", "loadConfig", "node_modules/lib"]),
        0,
        "Found 2 matches\n\n\
         node_modules/lib/x.js\nLine 1: function loadConfig() {}\n\n\
         node_modules/lib/y.js\nLine 1: loadConfig();\n",
    );
}

#[test]
fn one_hidden_file_is_named_as_the_path() {
    let t = TestDir::new();
    t.write(".env", "API_TOKEN=1\n");
    t.write("a.txt", "nothing\n");
    assert_out(
        &t.run(&["grep", "API_TOKEN"]),
        1,
        "No matches found\n\n(Not searched: 1 file that ignore or hidden-file rules skip matches: .env; pass path \".env\" to search it)\n",
    );
}

#[test]
fn many_ignored_files_name_three_in_path_order_and_the_fullest_dir() {
    let t = TestDir::new();
    t.write(".gitignore", "target/\nvendor/\n");
    for name in ["d", "c", "b", "a"] {
        t.write(&format!("vendor/{name}.rs"), "gen_marker\n");
    }
    t.write("target/out.rs", "gen_marker\n");
    t.write("src/lib.rs", "fn main() {}\n");
    assert_out(
        &t.run(&["grep", "gen_marker"]),
        1,
        "No matches found\n\n(Not searched: 5 files that ignore or hidden-file rules skip match, e.g. target/out.rs, vendor/a.rs, vendor/b.rs; pass path \"vendor\" to search there)\n",
    );
}

#[test]
fn the_ignored_probe_keeps_include_path_and_the_vcs_exclusions() {
    let t = dependency_tree();
    t.write("node_modules/lib/notes.txt", "loadConfig\n");
    // include: only the .txt is a match of the same search (and no file
    // the search may see is a .txt).
    assert_out(
        &t.run(&["grep", "loadConfig", "--include", "*.txt"]),
        1,
        "No matches found (no file was searched: the include filter or ignore rules excluded every file)\n\n(Not searched: 1 file that ignore or hidden-file rules skip matches: node_modules/lib/notes.txt; pass path \"node_modules/lib/notes.txt\" to search it)\n",
    );
    // path: the same search under src/ has nothing skipped to point at.
    assert_out(
        &t.run(&["grep", "loadConfig", "src"]),
        1,
        "No matches found\n",
    );
    // A match only inside .git is never offered.
    let t = TestDir::new();
    t.write(".git/config", "[core] secret_marker\n");
    t.write("a.txt", "x\n");
    assert_out(&t.run(&["grep", "secret_marker"]), 1, "No matches found\n");
}

#[test]
fn an_empty_grep_names_matches_that_differ_in_case() {
    let t = TestDir::new();
    t.write("src/config.js", "export function loadConfig() {}\n");
    t.write("src/main.js", "loadConfig();\n");
    t.write("README.md", "call LOADCONFIG first\n");
    let line = "(Ignoring case, 3 files match, e.g. README.md, src/config.js, src/main.js; the pattern is case-sensitive: start it with (?i) to ignore case)";
    assert_out(
        &t.run(&["grep", "loadconfig"]),
        1,
        &format!("No matches found\n\n{line}\n"),
    );
    assert_out(
        &json(&t, &["grep", "loadconfig"]),
        1,
        &empty_json(
            "grep",
            r#"{"kind":"case","count":3,"complete":true,"examples":["README.md","src/config.js","src/main.js"]}"#,
            &format!("No matches found\n\n{line}"),
        ),
    );
    // The advice works.
    assert_out(
        &t.run(&["grep", "(?i)loadconfig", "src/main.js"]),
        0,
        "Found 1 match\n\nsrc/main.js\nLine 1: loadConfig();\n",
    );
}

#[test]
fn both_probes_give_a_line_each_ignored_first() {
    let t = dependency_tree();
    t.write("src/legacy.js", "LoadConfig();\n");
    assert_out(
        &t.run(&["grep", "loadConfig"]),
        1,
        &format!(
            "No matches found\n\n{IGNORED_LINE}\n\n(Ignoring case, 1 file matches: src/legacy.js; the pattern is case-sensitive: start it with (?i) to ignore case)\n"
        ),
    );
}

// ------------------------------------------------------------ empty glob

#[test]
fn an_empty_glob_names_paths_that_differ_in_case() {
    let t = TestDir::new();
    t.write("README.md", "x\n");
    t.write("docs/Readme.md", "x\n");
    t.write("docs/other.md", "x\n");
    let line = "(Ignoring case, 2 paths match, e.g. README.md, docs/Readme.md; globs are case-sensitive: write the case these have)";
    assert_out(
        &t.run(&["glob", "**/readme.md"]),
        1,
        &format!("No files found\n\n{line}\n"),
    );
    assert_out(
        &json(&t, &["glob", "**/readme.md"]),
        1,
        &empty_json(
            "glob",
            r#"{"kind":"case","count":2,"complete":true,"examples":["README.md","docs/Readme.md"]}"#,
            &format!("No files found\n\n{line}"),
        ),
    );
}

#[test]
fn one_path_differing_in_case_is_named() {
    let t = TestDir::new();
    t.write("src/Main.rs", "x\n");
    assert_out(
        &t.run(&["glob", "src/main.rs"]),
        1,
        "No files found\n\n(Ignoring case, 1 path matches: src/Main.rs; globs are case-sensitive: write the case these have)\n",
    );
}

// ------------------------------------------------------------ probe bounds

#[test]
fn probes_that_find_nothing_add_nothing() {
    let t = dependency_tree();
    assert_out(
        &t.run(&["grep", "zzzNoSuchThingzzz"]),
        1,
        "No matches found\n",
    );
    assert_out(&t.run(&["glob", "**/*.zzz"]), 1, "No files found\n");
    assert_out(
        &json(&t, &["grep", "zzzNoSuchThingzzz"]),
        1,
        &empty_json("grep", "", "No matches found"),
    );
}

/// A fake rg: the search itself runs `search`, the case probe (grep's
/// `--ignore-case`, glob's `--iglob`) runs `case`, grep's ignored probe
/// (`--files-with-matches` without `--ignore-case`) runs `ignored`. Every
/// invocation appends its arguments to `calls.log`.
// Unix only: a shell script as rg (Windows: tests/integration/windows.rs).
#[cfg(unix)]
fn probing_rg(t: &TestDir, search: &str, case: &str, ignored: &str) -> String {
    let log = t.path().join("calls.log");
    t.fake_rg(
        "fake/rg",
        &format!(
            "echo \"$*\" >> '{}'\n\
             case \"$*\" in\n\
             *--ignore-case*|*--iglob*)\n{case}\n;;\n\
             *--files-with-matches*|*--follow*)\n{ignored}\n;;\n\
             *)\n{search}\n;;\n\
             esac",
            log.display()
        ),
    )
    .to_string_lossy()
    .into_owned()
}

// Unix only: a shell script as rg (Windows: tests/integration/windows.rs).
#[cfg(unix)]
fn calls(t: &TestDir) -> Vec<String> {
    fs::read_to_string(t.path().join("calls.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

// Unix only: a shell script as rg (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn a_probe_cut_by_the_time_budget_adds_nothing_and_stays_in_bound() {
    // The search is empty at once; each probe prints a path, then hangs.
    // The probes get as long again as the search, at least 250 ms, and are
    // killed then: no line, exit 1, nothing left running, and the call ends
    // long before the hang would (or the 60 s --timeout-ms would).
    for tool in ["grep", "glob"] {
        let t = TestDir::new();
        let case = Sleepers::new(&t, &[321]);
        let ignored = Sleepers::new(&t, &[322]);
        let hang = |s: &Sleepers| format!("printf 'a.txt\\0'\n{}wait", s.script(""));
        let rg = probing_rg(&t, "exit 1", &hang(&case), &hang(&ignored));
        let started = Instant::now();
        // The real floor, not the suite's raised one.
        let out = t
            .cmd()
            .env_remove("DSH_SEARCH_TEST_PROBE_FLOOR_MS")
            .args(["--rg", &rg, "--timeout-ms", "60000", tool, "x"])
            .output()
            .unwrap();
        let took = started.elapsed();
        let tracked = (case.track(), (tool == "grep").then(|| ignored.track()));
        let empty = if tool == "grep" {
            "No matches found\n"
        } else {
            "No files found\n"
        };
        assert_out(&out, 1, empty);
        // grep ran three probes, glob two; each one's sleeper is gone.
        let probes = calls(&t).len() - 1;
        assert_eq!(
            probes,
            if tool == "grep" { 3 } else { 2 },
            "{:?}: {out:?}",
            calls(&t)
        );
        tracked.0.assert_gone();
        if let Some(ignored) = &tracked.1 {
            ignored.assert_gone();
        }
        assert!(
            took < Duration::from_secs(20),
            "{} took {took:?}",
            out.describe()
        );
    }
}

// Unix only: a shell script as rg (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn probes_share_the_calls_timeout() {
    // The search takes most of --timeout-ms and is empty; the probes get
    // only what is left of it, and the call still ends as an empty result
    // (exit 1), never as a timeout.
    let t = TestDir::new();
    let case = Sleepers::new(&t, &[323]);
    let ignored = Sleepers::new(&t, &[324]);
    let hang = |s: &Sleepers| format!("printf 'a.txt\\0'\n{}wait", s.script(""));
    let rg = probing_rg(&t, "sleep 0.4\nexit 1", &hang(&case), &hang(&ignored));
    let out = t.run(&["--rg", &rg, "--timeout-ms", "1000", "grep", "x"]);
    let tracked = (case.track(), ignored.track());
    assert_out(&out, 1, "No matches found\n");
    tracked.0.assert_gone();
    tracked.1.assert_gone();
}

// Unix only: a shell script as rg (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn a_probe_that_fails_adds_nothing() {
    let t = TestDir::new();
    let fail = "printf 'a.txt\\0'\necho 'rg: boom' >&2\nexit 2";
    let rg = probing_rg(&t, "exit 1", fail, fail);
    assert_out(&t.run(&["--rg", &rg, "grep", "x"]), 1, "No matches found\n");
    assert_out(&t.run(&["--rg", &rg, "glob", "x"]), 1, "No files found\n");
}

// Unix only: a shell script as rg (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn a_probe_that_finds_more_than_it_may_print_says_at_least() {
    // 16 KiB of paths stop the probe; what it printed stands, counted as a
    // lower bound, and the cut-off last path is not one of them.
    let t = TestDir::new();
    let flood = "i=0; while :; do i=$((i+1)); printf 'node_modules/pkg/file%05d.js\\0' $i; done";
    let rg = probing_rg(&t, "exit 1", flood, flood);
    let out = t.run(&["--rg", &rg, "grep", "x"]);
    let text = stdout(&out);
    // 30 bytes a path: 546 whole paths in 16,384 bytes.
    assert_out(
        &out,
        1,
        &format!(
            "No matches found\n\n\
             (Not searched: at least 546 files that ignore or hidden-file rules skip match, e.g. node_modules/pkg/file00001.js, node_modules/pkg/file00002.js, node_modules/pkg/file00003.js; pass path \"node_modules/pkg\" to search there)\n\n\
             (Ignoring case, at least 546 files match, e.g. node_modules/pkg/file00001.js, node_modules/pkg/file00002.js, node_modules/pkg/file00003.js; the pattern is case-sensitive: start it with (?i) to ignore case)\n{}",
            ""
        ),
    );
    assert!(!text.contains("file00547"), "{out:?}");
}

// Unix only: a shell script as rg (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn a_search_that_found_something_runs_no_probe() {
    let t = TestDir::new();
    t.write("a.txt", "x\n");
    let record = r#"{"type":"match","data":{"path":{"text":"a.txt"},"lines":{"text":"x\n"},"line_number":1,"submatches":[{"match":{"text":"x"},"start":0,"end":1}]}}"#;
    let rg = probing_rg(&t, &format!("cat <<'R'\n{record}\nR"), "exit 0", "exit 0");
    let out = t.run(&["--rg", &rg, "grep", "x"]);
    assert_out(&out, 0, "Found 1 match\n\na.txt\nLine 1: x\n");
    assert_eq!(calls(&t).len(), 1, "{:?}: {out:?}", calls(&t));
}

// ------------------------------------------------------------ remainder

#[test]
fn a_capped_grep_names_the_files_the_rest_is_in() {
    let t = TestDir::new();
    t.write("a.rs", "needle\nneedle\n");
    t.write("b/c.rs", "needle\n".repeat(5));
    t.write("d.rs", "needle\n".repeat(3));
    t.write("e.rs", "needle\n");
    t.write("f.rs", "needle\n".repeat(3));
    let page = "Found 2 of 14 matches\n\n\
                a.rs\nLine 1: needle\nLine 2: needle\n\n\
                (The other 12 matches: b/c.rs 5, d.rs 3, f.rs 3)";
    assert_out(
        &t.run(&["--grep-max-matches", "2", "grep", "needle"]),
        0,
        &format!("{page}\n\n{GREP_UNSAVED}\n"),
    );
    let out = json(&t, &["--grep-max-matches", "2", "grep", "needle"]);
    assert!(
        stdout(&out).contains(r#""hints":[{"kind":"remainder","count":12,"places":[{"path":"b/c.rs","count":5},{"path":"d.rs","count":3},{"path":"f.rs","count":3}]}]"#),
        "{out:?}"
    );
    // The cap inside a group: that file's rest counts too.
    assert_out(
        &t.run(&["--grep-max-matches", "9", "grep", "needle"]),
        0,
        &format!(
            "Found 9 of 14 matches\n\n\
             a.rs\nLine 1: needle\nLine 2: needle\n\n\
             b/c.rs\n{}\n\n\
             d.rs\nLine 1: needle\nLine 2: needle\n\n\
             (The other 5 matches: f.rs 3, d.rs 1, e.rs 1)\n\n{GREP_UNSAVED}\n",
            (1..=5)
                .map(|n| format!("Line {n}: needle"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    );
}

#[test]
fn a_capped_grep_names_a_directory_of_many_small_files() {
    // 38 files of one match each under src/gen/: the place is the
    // directory, not three of its files; tests/ stays whole too. The slot
    // left over names the one match elsewhere in src/.
    let t = TestDir::new();
    t.write("README.md", "needle\n");
    t.write("src/lib.rs", "needle\n");
    for i in 0..38 {
        t.write(&format!("src/gen/m{i:02}.rs"), "needle\n");
    }
    for i in 1..=3 {
        t.write(&format!("tests/t{i}.rs"), "needle\nneedle\n");
    }
    assert_out(
        &t.run(&["--grep-max-matches", "1", "grep", "needle"]),
        0,
        &format!(
            "Found 1 of 46 matches\n\nREADME.md\nLine 1: needle\n\n\
             (The other 45 matches: src/gen/ 38, tests/ 6, src/lib.rs 1)\n\n{GREP_UNSAVED}\n"
        ),
    );
    // Without it, the same two places.
    fs::remove_file(t.path().join("src/lib.rs")).unwrap();
    assert_out(
        &t.run(&["--grep-max-matches", "1", "grep", "needle"]),
        0,
        &format!(
            "Found 1 of 45 matches\n\nREADME.md\nLine 1: needle\n\n\
             (The other 44 matches: src/gen/ 38, tests/ 6)\n\n{GREP_UNSAVED}\n"
        ),
    );
}

#[test]
fn a_capped_glob_names_the_directories_the_rest_is_in() {
    let t = TestDir::new();
    t.write("a.txt", "");
    for i in 0..1105 {
        t.write(&format!("gen/{i:04}.txt"), "");
    }
    t.write("src/x.txt", "");
    t.write("src/y.txt", "");
    t.write("z.txt", "");
    let args = [
        "--glob-sort",
        "path",
        "--glob-max-results",
        "2",
        "glob",
        "**/*.txt",
    ];
    assert_out(
        &t.run(&args),
        0,
        "a.txt\ngen/0000.txt\n\n\
         (The other 1,107 paths: gen/ 1,104, src/ 2, ./ 1)\n\n\
         (Showing 2 of 1109 paths. The complete result could not be saved; narrow pattern or path to see more.)\n",
    );
    let out = json(&t, &args);
    assert!(
        stdout(&out).contains(r#""hints":[{"kind":"remainder","count":1107,"places":[{"path":"gen/","count":1104},{"path":"src/","count":2},{"path":"./","count":1}]}]"#),
        "{out:?}"
    );
}

/// A capped page of paths written with empty components (`//tmp/…`,
/// `…//proj`), searched from another directory so they are shown as rg
/// printed them: the remainder line names their places. Splitting `/` of
/// `//tmp/…` gave `/` again, and the remainder looped for ever at 100% CPU.
// Unix only: on Windows a leading `//` is a UNC path.
#[cfg(unix)]
#[test]
fn a_path_with_empty_components_gets_a_remainder_line() {
    let t = TestDir::new();
    for file in ["proj/a.txt", "proj/sub/b.txt", "proj/sub/c.txt"] {
        t.write(file, "hit\n");
    }
    let elsewhere = t.mkdir("elsewhere");
    let root = t.root();
    let capped = |path: &str, args: &[&str]| {
        t.cmd()
            .current_dir(&elsewhere)
            .timeout(Duration::from_secs(10))
            .args(["--glob-sort", "path", "--glob-max-results", "1"])
            .args(["--grep-max-matches", "1"])
            .args(args)
            .arg(path)
            .output()
            .unwrap()
    };
    for path in [format!("/{root}/proj"), format!("{root}//proj")] {
        let glob = serde_json::json!({"pattern": "**", "path": path}).to_string();
        assert_out(
            &capped(&glob, &["call", "glob"]),
            0,
            &format!(
                "{path}/a.txt\n\n\
                 (The other 2 paths: {path}/sub/ 2)\n\n\
                 (Showing 1 of 3 paths. The complete result could not be saved; narrow pattern or path to see more.)\n"
            ),
        );
        assert_out(
            &capped(&path, &["grep", "hit"]),
            0,
            &format!(
                "Found 1 of 3 matches\n\n{path}/a.txt\nLine 1: hit\n\n\
                 (The other 2 matches: {path}/sub/b.txt 1, {path}/sub/c.txt 1)\n\n{GREP_UNSAVED}\n"
            ),
        );
    }
}

// ------------------------------------------------------------ timeouts

/// rg --json records for `x` at (path, line), in the order given.
#[cfg(unix)]
fn records(hits: &[(&str, u64)]) -> String {
    hits.iter()
        .map(|(path, n)| {
            format!(
                r#"{{"type":"match","data":{{"path":{{"text":"{path}"}},"lines":{{"text":"x {n}\n"}},"line_number":{n},"submatches":[{{"match":{{"text":"x"}},"start":0,"end":1}}]}}}}"#
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(unix)]
const GREP_PARTIAL: &str = "Error: grep timed out after 300ms; showing what was found in that time (incomplete); narrow pattern, path, or include and retry, or raise --timeout-ms.";

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn a_timeout_keeps_the_matches_found_ordered() {
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[328]);
    let rg = t
        .fake_rg(
            "fake/rg",
            &format!(
                "cat <<'R'\n{}\nR\n{}wait",
                records(&[("b.rs", 2), ("a.rs", 3), ("a.rs", 1)]),
                sleepers.script("")
            ),
        )
        .to_string_lossy()
        .into_owned();
    let page = "Found 3 matches\n\na.rs\nLine 1: x 1\nLine 3: x 3\n\nb.rs\nLine 2: x 2";
    let out = t.run(&["--rg", &rg, "--timeout-ms", "300", "grep", "x"]);
    sleepers.track().assert_gone();
    assert_out(&out, 6, &format!("{GREP_PARTIAL}\n\n{page}\n"));

    let out = json(&t, &["--rg", &rg, "--timeout-ms", "300", "grep", "x"]);
    sleepers.track().assert_gone();
    let message = GREP_PARTIAL.trim_start_matches("Error: ");
    let page_json = page.replace('\n', "\\n");
    assert_out(
        &out,
        6,
        &format!(
            concat!(
                r#"{{"version":1,"tool":"grep","ok":false,"error":{{"name":"SearchError","code":"SEARCH_ABORTED","message":"{message}"}},"#,
                r#""text":"{partial}\n\n{page}","#,
                r#""partial":{{"version":1,"tool":"grep","ok":true,"status":"results","files":["#,
                r#"{{"path":"a.rs","matches":[{{"line_number":1,"preview":"x 1","line_truncated":false}},{{"line_number":3,"preview":"x 3","line_truncated":false}}]}},"#,
                r#"{{"path":"b.rs","matches":[{{"line_number":2,"preview":"x 2","line_truncated":false}}]}}],"#,
                r#""total":3,"shown":3,"truncated":false,"total_files":2,"binary_files":[],"spill":null,"spill_error":null,"warnings":[],"hints":[],"#,
                r#""text":"{page}"}}}}"#,
                "\n"
            ),
            message = message,
            partial = GREP_PARTIAL,
            page = page_json,
        ),
    );
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn a_capped_timeout_page_is_capped_as_usual() {
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[325]);
    let rg = t
        .fake_rg(
            "fake/rg",
            &format!(
                "cat <<'R'\n{}\nR\n{}wait",
                records(&[("b.rs", 2), ("a.rs", 3), ("a.rs", 1)]),
                sleepers.script("")
            ),
        )
        .to_string_lossy()
        .into_owned();
    let out = t.run(&[
        "--rg",
        &rg,
        "--timeout-ms",
        "300",
        "--grep-max-matches",
        "2",
        "grep",
        "x",
    ]);
    sleepers.track().assert_gone();
    assert_out(
        &out,
        6,
        &format!(
            "{GREP_PARTIAL}\n\nFound 2 of 3 matches\n\na.rs\nLine 1: x 1\nLine 3: x 3\n\n\
             (The other 1 match: b.rs 1)\n\n{GREP_UNSAVED}\n"
        ),
    );
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn a_saved_timeout_page_is_saved_as_incomplete() {
    // The spill file of what a timed-out search found must not read as the
    // whole tree when it is opened later: its name says so, and grep's
    // header says what cut it short.
    let t = TestDir::new();
    let spill = t.path().join("spill");
    let sleepers = Sleepers::new(&t, &[329, 330]);
    let fake = |name: &str, output: &str| {
        t.fake_rg(name, &format!("{output}\n{}wait", sleepers.script("")))
            .to_string_lossy()
            .into_owned()
    };
    let grep_rg = fake(
        "fake/grep-rg",
        &format!(
            "cat <<'R'\n{}\nR",
            records(&[("b.rs", 2), ("a.rs", 3), ("a.rs", 1)])
        ),
    );
    let glob_rg = fake("fake/glob-rg", "printf 'c.rs\\0a.rs\\0b.rs\\0'");
    let hint = "Use read with offset/limit, or grep this path to search within it.";
    let args = |rg: &str, search: &[&str]| -> Vec<String> {
        let spill_dir = spill.to_string_lossy();
        let mut all = vec!["--rg", rg, "--timeout-ms", "300", "--spill-dir", &spill_dir];
        all.extend_from_slice(&["--grep-max-matches", "2", "--glob-max-results", "2"]);
        all.extend_from_slice(search);
        all.into_iter().map(str::to_owned).collect()
    };
    let run_args = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        t.run(&args)
    };

    let out = run_args(args(&grep_rg, &["grep", "x"]));
    sleepers.track().assert_gone();
    let content = "Found 3 matches (incomplete: grep timed out after 300ms)\n\n\
                   a.rs\nLine 1: x 1\nLine 3: x 3\n\nb.rs\nLine 2: x 2";
    let locator = spill.join(incomplete_name("grep", content));
    assert_eq!(
        fs::read_to_string(&locator).unwrap(),
        content,
        "{}",
        out.describe()
    );
    assert_out(
        &out,
        6,
        &format!(
            "{GREP_PARTIAL}\n\nFound 2 of 3 matches\n\na.rs\nLine 1: x 1\nLine 3: x 3\n\n\
             (The other 1 match: b.rs 1)\n\n(Full grep result stored at: {}. {hint})\n",
            locator.display()
        ),
    );

    // A glob spill is paths only: the name alone marks it.
    let out = run_args(args(&glob_rg, &["--glob-sort", "path", "glob", "*"]));
    sleepers.track().assert_gone();
    let content = "a.rs\nb.rs\nc.rs";
    let locator = spill.join(incomplete_name("glob", content));
    assert_eq!(
        fs::read_to_string(&locator).unwrap(),
        content,
        "{}",
        out.describe()
    );
    let error = "glob timed out after 300ms; showing what was found in that time (incomplete); narrow pattern or path and retry, or raise --timeout-ms.";
    assert_out(
        &out,
        6,
        &format!(
            "Error: {error}\n\na.rs\nb.rs\n\n(The other 1 path: ./ 1)\n\n\
             (Showing 2 of 3 paths. Full sorted result stored at: {}. {hint})\n",
            locator.display()
        ),
    );
}

/// `<12 hex of SHA-256 of content>-<tool>-results-incomplete.txt`.
#[cfg(unix)]
fn incomplete_name(tool: &str, content: &str) -> String {
    format!("{}-{tool}-results-incomplete.txt", content_hash(content))
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn a_glob_timeout_keeps_the_paths_found() {
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[326]);
    let rg = t
        .fake_rg(
            "fake/rg",
            &format!("printf 'b.rs\\0a.rs\\0'\n{}wait", sleepers.script("")),
        )
        .to_string_lossy()
        .into_owned();
    let error = "glob timed out after 300ms; showing what was found in that time (incomplete); narrow pattern or path and retry, or raise --timeout-ms.";
    let out = json(
        &t,
        &[
            "--rg",
            &rg,
            "--timeout-ms",
            "300",
            "--glob-sort",
            "path",
            "glob",
            "*",
        ],
    );
    sleepers.track().assert_gone();
    assert_out(
        &out,
        6,
        &format!(
            concat!(
                r#"{{"version":1,"tool":"glob","ok":false,"error":{{"name":"SearchError","code":"SEARCH_ABORTED","message":"{error}"}},"#,
                r#""text":"Error: {error}\n\na.rs\nb.rs","#,
                r#""partial":{{"version":1,"tool":"glob","ok":true,"status":"results","paths":["a.rs","b.rs"],"total":2,"shown":2,"truncated":false,"spill":null,"spill_error":null,"warnings":[],"hints":[],"text":"a.rs\nb.rs"}}}}"#,
                "\n"
            ),
            error = error
        ),
    );
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn a_glob_timeout_under_newest_says_its_page_is_in_path_order() {
    // No time is left to stat what rg listed, so the page of a timed-out
    // glob is in path order; under the default sort the message says so.
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[331]);
    let rg = t
        .fake_rg(
            "fake/rg",
            &format!("printf 'b.rs\\0a.rs\\0'\n{}wait", sleepers.script("")),
        )
        .to_string_lossy()
        .into_owned();
    let out = t.run(&["--rg", &rg, "--timeout-ms", "300", "glob", "*"]);
    sleepers.track().assert_gone();
    assert_out(
        &out,
        6,
        "Error: glob timed out after 300ms; showing what was found in that time (incomplete, in path order); \
         narrow pattern or path and retry, or raise --timeout-ms.\n\na.rs\nb.rs\n",
    );
}

// Unix only: shell sleepers watched through /proc (Windows: tests/integration/windows.rs).
#[cfg(unix)]
#[test]
fn a_timeout_with_nothing_found_stays_the_plain_error() {
    let t = TestDir::new();
    let sleepers = Sleepers::new(&t, &[327]);
    let rg = t
        .fake_rg("fake/rg", &format!("{}wait", sleepers.script("")))
        .to_string_lossy()
        .into_owned();
    let error = "grep timed out after 300ms; narrow pattern, path, or include and retry, or raise --timeout-ms.";
    let out = t.run(&["--rg", &rg, "--timeout-ms", "300", "grep", "x"]);
    sleepers.track().assert_gone();
    assert_out(&out, 6, &format!("Error: {error}\n"));
    let out = json(&t, &["--rg", &rg, "--timeout-ms", "300", "grep", "x"]);
    sleepers.track().assert_gone();
    assert_out(
        &out,
        6,
        &format!(
            concat!(
                r#"{{"version":1,"tool":"grep","ok":false,"error":{{"name":"SearchError","code":"SEARCH_ABORTED","message":"{error}"}},"text":"Error: {error}"}}"#,
                "\n"
            ),
            error = error
        ),
    );
}
