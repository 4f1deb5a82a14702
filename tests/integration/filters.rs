//! `exclude` and `follow` (SPEC §3a), the link probe of an empty search
//! (SPEC §4a), and rg's letters (`-C` context, `-L` follow), against real
//! rg, byte for byte, through argv, `call` and JSON.

use serde_json::json;

use crate::harness::{T0, TestDir, argv_and_call, assert_exit, assert_out};

/// A project with tests, a minified bundle and docs.
fn tree() -> TestDir {
    let t = TestDir::new();
    t.write("src/lib.rs", "fn parse_header() {}\n");
    t.write("src/tests/unit.rs", "parse_header();\n");
    t.write("tests/it.rs", "parse_header();\n");
    t.write("web/app.min.js", "parse_header()\n");
    t.write("web/app.js", "parse_header()\n");
    for (i, path) in [
        "src/lib.rs",
        "src/tests/unit.rs",
        "tests/it.rs",
        "web/app.min.js",
        "web/app.js",
    ]
    .iter()
    .enumerate()
    {
        t.mtime(path, T0 + i64::try_from(i).unwrap());
    }
    t
}

#[test]
fn exclude_leaves_one_glob_out_of_grep_and_glob() {
    let t = tree();
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &[
                "parse_header",
                "--output",
                "files",
                "--exclude",
                "**/tests/**",
            ],
            &json!({"pattern": "parse_header", "output": "files", "exclude": "**/tests/**"}),
        ),
        0,
        "Found 3 files\n\nsrc/lib.rs\nweb/app.js\nweb/app.min.js\n",
    );
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["parse_header", "--exclude", "*.min.js", "web"],
            &json!({"pattern": "parse_header", "exclude": "*.min.js", "path": "web"}),
        ),
        0,
        "Found 1 match\n\nweb/app.js\nLine 1: parse_header()\n",
    );
    // After include, so it wins over it.
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &[
                "parse_header",
                "--include",
                "*.rs",
                "--exclude",
                "tests",
                "--output",
                "count",
            ],
            &json!({"pattern": "parse_header", "include": "*.rs", "exclude": "tests", "output": "count"}),
        ),
        0,
        "Found 1 match in 1 file\n\nsrc/lib.rs: 1\n",
    );
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "glob",
            &["**/*.js", "--exclude", "*.min.js"],
            &json!({"pattern": "**/*.js", "exclude": "*.min.js"}),
        ),
        0,
        "web/app.js\n",
    );
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "glob",
            &["**/*.rs", "--exclude", "**/tests/**"],
            &json!({"pattern": "**/*.rs", "exclude": "**/tests/**"}),
        ),
        0,
        "src/lib.rs\n",
    );
    // Everything left out is an empty search, not an error.
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["parse_header", "--exclude", "*"],
            &json!({"pattern": "parse_header", "exclude": "*"}),
        ),
        1,
        "No matches found (no file was searched: the include filter or ignore rules excluded every file)\n",
    );
}

#[test]
fn exclude_comes_last_on_the_command_line() {
    let t = tree();
    let ran = t.run(&[
        "--explain",
        "grep",
        "x",
        "--include",
        "*.rs",
        "--exclude",
        "**/tests/**",
    ]);
    let stderr = String::from_utf8_lossy(&ran.stderr);
    #[cfg(unix)]
    let want = "--regexp='x' --glob='*.rs' --glob='!**/tests/**'\n";
    #[cfg(windows)]
    let want = "--regexp=x --glob=*.rs --glob=!**/tests/**\n";
    assert!(
        stderr.contains(want),
        "{} printed on stderr:\n{stderr}",
        ran.describe()
    );
}

#[test]
fn exclude_follows_includes_rules() {
    let t = tree();
    let cases = [
        (
            "!*.js",
            "Error: exclude must be one glob without '!': it already names what to leave out, such as **/tests/**\n",
        ),
        (
            " ",
            "Error: exclude must not be blank; omit it, or pass one glob of files to leave out such as **/tests/**\n",
        ),
        (
            "*.ts,*.js",
            "Error: exclude must be ONE glob, not a comma-separated list; use brace alternation such as *.{ts,tsx}\n",
        ),
    ];
    for (exclude, want) in cases {
        for tool in ["grep", "glob"] {
            assert_out(
                &argv_and_call(
                    &t,
                    &[],
                    tool,
                    &["x", "--exclude", exclude],
                    &json!({"pattern": "x", "exclude": exclude}),
                ),
                2,
                want,
            );
        }
    }
    assert_out(
        &t.run(&["grep", "parse_header", "--exclude", "*.{js,rs}"]),
        1,
        "No matches found (no file was searched: the include filter or ignore rules excluded every file)\n",
    );
}

/// ONE glob is not one path: brace alternation puts several globs in one
/// `exclude` or `include`, as `--help` and the schema say. The case that
/// made an agent give up: `tests/` and a macro file left out in one call.
#[test]
fn a_brace_glob_names_several_globs_in_one_exclude_or_include() {
    let t = tree();
    t.write("src/macros/cfg.rs", "macro_rules! parse_header {}\n");
    t.write("src/macros/log.rs", "parse_header!();\n");
    t.mtime("src/macros/cfg.rs", T0 + 10);
    t.mtime("src/macros/log.rs", T0 + 11);
    let both = "{**/tests/**,src/macros/cfg.rs}";
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &["parse_header", "--exclude", both],
            &json!({"pattern": "parse_header", "exclude": both}),
        ),
        0,
        "Found 4 matches\n\n\
         src/lib.rs\nLine 1: fn parse_header() {}\n\n\
         src/macros/log.rs\nLine 1: parse_header!();\n\n\
         web/app.js\nLine 1: parse_header()\n\n\
         web/app.min.js\nLine 1: parse_header()\n",
    );
    // Paths in the glob are from the workdir, whatever path is searched.
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &[
                "parse_header",
                "src",
                "--exclude",
                both,
                "--output",
                "count",
            ],
            &json!({"pattern": "parse_header", "path": "src", "exclude": both, "output": "count"}),
        ),
        0,
        "Found 2 matches in 2 files\n\nsrc/lib.rs: 1\nsrc/macros/log.rs: 1\n",
    );
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "glob",
            &["**/*.rs", "--exclude", both],
            &json!({"pattern": "**/*.rs", "exclude": both}),
        ),
        0,
        "src/macros/log.rs\nsrc/lib.rs\n",
    );
    // Include takes braces alike: only these places are searched.
    assert_out(
        &argv_and_call(
            &t,
            &[],
            "grep",
            &[
                "parse_header",
                "--include",
                "{src/macros/**,tests/**}",
                "--output",
                "files",
            ],
            &json!({"pattern": "parse_header", "include": "{src/macros/**,tests/**}", "output": "files"}),
        ),
        0,
        "Found 3 files\n\nsrc/macros/cfg.rs\nsrc/macros/log.rs\ntests/it.rs\n",
    );
    // With a `/` anywhere in it, every alternative is a path from the
    // workdir (rg's gitignore rule): a bare `*.min.js` beside a path then
    // names the top level only, and `**/*.min.js` names it anywhere.
    for (exclude, want) in [
        (
            "{**/tests/**,*.min.js}",
            "Found 2 files\n\nweb/app.js\nweb/app.min.js\n",
        ),
        ("{**/tests/**,**/*.min.js}", "Found 1 file\n\nweb/app.js\n"),
    ] {
        assert_out(
            &argv_and_call(
                &t,
                &[],
                "grep",
                &[
                    "parse_header",
                    "web",
                    "--exclude",
                    exclude,
                    "--output",
                    "files",
                ],
                &json!({"pattern": "parse_header", "path": "web", "exclude": exclude, "output": "files"}),
            ),
            0,
            want,
        );
    }
}

#[test]
fn rgs_letters_c_is_context_and_cwd_has_only_its_long_form() {
    let t = TestDir::new();
    t.write("a.txt", "1\n2\n3\nhit\n5\n6\n7\n");
    let want = "Found 1 match\n\na.txt\nLine 2- 2\nLine 3- 3\nLine 4: hit\nLine 5- 5\nLine 6- 6\n";
    assert_out(&t.run(&["grep", "hit", "-C", "2"]), 0, want);
    assert_out(&t.run(&["grep", "hit", "-C2"]), 0, want);
    assert_out(&t.run(&["grep", "hit", "--context", "2"]), 0, want);
    // Up to 100 lines on a side.
    assert_out(
        &t.run(&["grep", "hit", "-A", "14"]),
        0,
        "Found 1 match\n\na.txt\nLine 4: hit\nLine 5- 5\nLine 6- 6\nLine 7- 7\n",
    );
    assert_out(
        &t.run(&["grep", "hit", "-B", "101"]),
        2,
        "Error: before must be a whole number from 0 to 100, not 101\n",
    );
    // `-C DIR` is no longer the workdir: a directory name is no number.
    assert_exit(&t.run(&["-C", ".", "grep", "hit"]), 2);
    assert_out(
        &t.run(&["--cwd", ".", "grep", "hit", "-C", "0"]),
        0,
        "Found 1 match\n\na.txt\nLine 4: hit\n",
    );
}

// Symbolic links need no privilege on Unix (Windows: developer mode).
#[cfg(unix)]
mod links {
    use std::os::unix::fs::symlink;

    use serde_json::json;

    use crate::harness::{TestDir, argv_and_call, assert_out, stdout_json};

    /// A project whose docs are a link to a shared directory, with a
    /// linked file beside them: `docs -> ../shared/docs`.
    fn linked() -> (TestDir, String) {
        let t = TestDir::new();
        t.write("proj/src/main.rs", "fn main() {}\n");
        t.write("shared/docs/guide.md", "the retry_budget knob\n");
        t.write("shared/docs/faq.md", "what is retry_budget?\n");
        symlink("../shared/docs", t.path().join("proj/docs")).unwrap();
        symlink("../shared/docs/faq.md", t.path().join("proj/FAQ.md")).unwrap();
        let proj = t.path().join("proj").display().to_string();
        (t, proj)
    }

    #[test]
    fn an_empty_search_names_what_links_hide() {
        let (t, proj) = linked();
        let cwd = ["--cwd", proj.as_str()];
        let grep = [&cwd[..], &["grep", "retry_budget"]].concat();
        assert_out(
            &t.run(&grep),
            1,
            "No matches found\n\n(Not searched: 3 files reached through symbolic links match, e.g. FAQ.md (a link to ../shared/docs/faq.md), docs/faq.md (via link docs -> ../shared/docs), docs/guide.md (via link docs -> ../shared/docs); pass follow: true to search them)\n",
        );
        let glob = [&cwd[..], &["glob", "**/guide.md"]].concat();
        assert_out(
            &t.run(&glob),
            1,
            "No files found\n\n(Not searched: 1 path reached through a symbolic link matches: docs/guide.md (via link docs -> ../shared/docs); pass follow: true to list it)\n",
        );
        // The hint in JSON: each path, its link and the link's target.
        let json = [&["--format", "json"][..], &grep].concat();
        let ran = t.run(&json);
        assert_eq!(
            stdout_json(&ran)["hints"][0],
            json!({"kind": "links", "count": 3, "complete": true, "examples": [
                {"path": "FAQ.md", "link": "FAQ.md", "target": "../shared/docs/faq.md"},
                {"path": "docs/faq.md", "link": "docs", "target": "../shared/docs"},
                {"path": "docs/guide.md", "link": "docs", "target": "../shared/docs"},
            ]}),
            "{ran:?}"
        );
    }

    #[test]
    fn follow_searches_through_links() {
        let (t, proj) = linked();
        let at = ["--cwd", proj.as_str(), "--glob-sort", "path"];
        assert_out(
            &argv_and_call(
                &t,
                &at,
                "grep",
                &["retry_budget", "-L"],
                &json!({"pattern": "retry_budget", "follow": true}),
            ),
            0,
            "Found 3 matches\n\nFAQ.md\nLine 1: what is retry_budget?\n\ndocs/faq.md\nLine 1: what is retry_budget?\n\ndocs/guide.md\nLine 1: the retry_budget knob\n",
        );
        assert_out(
            &argv_and_call(
                &t,
                &at,
                "grep",
                &[
                    "retry_budget",
                    "--follow",
                    "--output",
                    "count",
                    "--exclude",
                    "faq.md",
                ],
                &json!({"pattern": "retry_budget", "follow": true, "output": "count", "exclude": "faq.md"}),
            ),
            0,
            "Found 2 matches in 2 files\n\nFAQ.md: 1\ndocs/guide.md: 1\n",
        );
        assert_out(
            &argv_and_call(
                &t,
                &at,
                "glob",
                &["**/*.md", "--follow"],
                &json!({"pattern": "**/*.md", "follow": true}),
            ),
            0,
            "FAQ.md\ndocs/faq.md\ndocs/guide.md\n",
        );
    }

    #[test]
    fn a_tree_without_links_gets_no_link_line() {
        let t = TestDir::new();
        t.write("a.txt", "nothing here\n");
        assert_out(&t.run(&["grep", "retry_budget"]), 1, "No matches found\n");
        assert_out(&t.run(&["glob", "*.md"]), 1, "No files found\n");
        // A search that already follows runs no link probe.
        assert_out(
            &t.run(&["grep", "retry_budget", "-L"]),
            1,
            "No matches found\n",
        );
    }
}
