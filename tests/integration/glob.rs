//! glob against real rg: ordering, capping, what is and is not listed, how
//! paths are shown (SPEC §2, §4).

#[cfg(unix)]
use std::ffi::OsStr;
use std::fs;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;

#[cfg(unix)]
use crate::harness::{Ran, stdout};
use crate::harness::{T0, TestDir, assert_out};

/// Paths, one a line, as glob prints them.
fn lines<S: AsRef<str>>(paths: impl IntoIterator<Item = S>) -> String {
    paths.into_iter().fold(String::new(), |mut out, p| {
        out.push_str(p.as_ref());
        out.push('\n');
        out
    })
}

/// A tree of empty `.txt` files, each with its own mtime (`T0 + secs`).
fn tree(files: &[(&str, i64)]) -> TestDir {
    let t = TestDir::new();
    for &(rel, secs) in files {
        t.write(rel, "");
        t.mtime(rel, T0 + secs);
    }
    t
}

/// Five files, two mtime ties: `B.txt`, `b.txt` and `d.txt` share the newest
/// time, so path byte order (`B` < `b` < `d`) decides among them.
#[cfg(unix)]
fn tied_tree() -> TestDir {
    tree(&[
        ("a.txt", 1),
        ("b.txt", 3),
        ("c.txt", 2),
        ("d.txt", 3),
        ("B.txt", 3),
    ])
}

#[test]
fn nothing_matching_is_no_files_found() {
    let t = TestDir::new();
    t.write("src/main.rs", "fn main() {}\n");
    assert_out(&t.run(&["glob", "**/*.py"]), 1, "No files found\n");
}

#[test]
fn empty_tree_is_no_files_found() {
    let t = TestDir::new();
    assert_out(&t.run(&["glob", "*"]), 1, "No files found\n");
}

// Unix only: names that differ only in case (B.txt, b.txt).
#[cfg(unix)]
#[test]
fn newest_first_is_the_default_and_ties_go_by_path() {
    let t = tied_tree();
    let want = "B.txt\nb.txt\nd.txt\nc.txt\na.txt\n";
    assert_out(&t.run(&["glob", "*.txt"]), 0, want);
    assert_out(&t.run(&["--glob-sort", "newest", "glob", "*.txt"]), 0, want);
}

// Unix only: names that differ only in case (B.txt, b.txt).
#[cfg(unix)]
#[test]
fn oldest_first_and_ties_go_by_path() {
    let t = tied_tree();
    assert_out(
        &t.run(&["--glob-sort", "oldest", "glob", "*.txt"]),
        0,
        "a.txt\nc.txt\nB.txt\nb.txt\nd.txt\n",
    );
}

#[test]
fn path_order_is_byte_order_whatever_the_mtimes() {
    // mtimes run against path order, so an mtime sort would reverse it.
    let t = tree(&[
        ("é.txt", 1),
        ("a/x.txt", 2),
        ("a.txt", 3),
        ("a-b.txt", 4),
        ("_u.txt", 5),
        ("Z/y.txt", 6),
        ("B.txt", 7),
    ]);
    assert_out(
        &t.run(&["--glob-sort", "path", "glob", "**/*.txt"]),
        0,
        "B.txt\nZ/y.txt\n_u.txt\na-b.txt\na.txt\na/x.txt\né.txt\n",
    );
}

// Unix only: names that differ only in case (B.txt, b.txt).
#[cfg(unix)]
#[test]
fn glob_sort_comes_from_the_environment_and_the_flag_wins() {
    let t = tied_tree();
    let oldest = "a.txt\nc.txt\nB.txt\nb.txt\nd.txt\n";
    let out = t
        .cmd()
        .env("DSH_SEARCH_GLOB_SORT", "oldest")
        .args(["glob", "*.txt"])
        .output()
        .unwrap();
    assert_out(&out, 0, oldest);
    let out = t
        .cmd()
        .env("DSH_SEARCH_GLOB_SORT", "oldest")
        .args(["glob", "*.txt", "--glob-sort", "path"])
        .output()
        .unwrap();
    assert_out(&out, 0, "B.txt\na.txt\nb.txt\nc.txt\nd.txt\n");
}

/// 60 files in 6 directories; file `k` (in creation order) gets mtime
/// `T0 + (k * 37) % 60`, a permutation, so no listing order rg's threads
/// produce can pass for the sorted one by luck.
fn many_files() -> (TestDir, Vec<(String, i64)>) {
    let t = TestDir::new();
    let mut files = Vec::new();
    for k in 0..60 {
        let rel = format!("d{}/f{:02}.txt", k % 6, k);
        let secs = (k * 37) % 60;
        t.write(&rel, "");
        t.mtime(&rel, T0 + secs);
        files.push((rel, secs));
    }
    (t, files)
}

#[test]
fn the_complete_list_is_sorted_before_it_is_capped() {
    let (t, mut files) = many_files();
    let footer = "\n(Showing 5 of 60 paths. The complete result could not be saved; narrow pattern or path to see more.)\n";

    files.sort_by_key(|f| std::cmp::Reverse(f.1));
    let newest = lines(files[..5].iter().map(|(p, _)| p));
    assert_out(
        &t.run(&["--glob-max-results", "5", "glob", "**/*.txt"]),
        0,
        &format!("{newest}{}{footer}", remainder(&files[5..])),
    );

    files.sort_by_key(|f| f.1);
    let oldest = lines(files[..5].iter().map(|(p, _)| p));
    assert_out(
        &t.run(&[
            "--glob-max-results",
            "5",
            "--glob-sort",
            "oldest",
            "glob",
            "**/*.txt",
        ]),
        0,
        &format!("{oldest}{}{footer}", remainder(&files[5..])),
    );

    assert_out(
        &t.run(&[
            "--glob-max-results",
            "5",
            "--glob-sort",
            "path",
            "glob",
            "**/*.txt",
        ]),
        0,
        &format!(
            "d0/f00.txt\nd0/f06.txt\nd0/f12.txt\nd0/f18.txt\nd0/f24.txt\n\n(The other 55 paths: d1/ 10, d2/ 10, d3/ 10)\n{footer}"
        ),
    );
}

/// The remainder line of SPEC §4a for the paths left off a page: their
/// directories by count, ties by name, the top 3.
fn remainder(rest: &[(String, i64)]) -> String {
    let mut dirs = std::collections::BTreeMap::<String, usize>::new();
    for (path, _) in rest {
        let dir = path.rsplit_once('/').map_or(".", |(d, _)| d);
        *dirs.entry(format!("{dir}/")).or_default() += 1;
    }
    let mut dirs: Vec<(String, usize)> = dirs.into_iter().collect();
    dirs.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let top: Vec<String> = dirs
        .iter()
        .take(3)
        .map(|(d, n)| format!("{d} {n}"))
        .collect();
    format!("\n(The other {} paths: {})\n", rest.len(), top.join(", "))
}

#[test]
fn exactly_at_the_cap_has_no_footer() {
    let t = tree(&[("a.txt", 3), ("b.txt", 2), ("c.txt", 1)]);
    assert_out(
        &t.run(&["--glob-max-results", "3", "glob", "*.txt"]),
        0,
        "a.txt\nb.txt\nc.txt\n",
    );
}

#[test]
fn one_over_the_cap_shows_the_first_n_and_a_footer() {
    // No spill directory exists yet, so the result cannot be saved.
    let t = tree(&[("a.txt", 4), ("b.txt", 3), ("c.txt", 2), ("d.txt", 1)]);
    assert_out(
        &t.run(&["--glob-max-results", "3", "glob", "*.txt"]),
        0,
        "a.txt\nb.txt\nc.txt\n\n(The other 1 path: ./ 1)\n\n(Showing 3 of 4 paths. The complete result could not be saved; narrow pattern or path to see more.)\n",
    );
}

#[test]
fn a_cap_of_one() {
    let t = tree(&[("a.txt", 1), ("b.txt", 2)]);
    assert_out(
        &t.run(&["glob", "*.txt", "--glob-max-results", "1"]),
        0,
        "b.txt\n\n(The other 1 path: ./ 1)\n\n(Showing 1 of 2 paths. The complete result could not be saved; narrow pattern or path to see more.)\n",
    );
}

#[test]
fn hidden_and_ignored_files_are_listed() {
    let t = TestDir::new();
    t.write(".gitignore", "target/\n*.log\nsecret.txt\n");
    t.write(".ignore", "notes.md\n");
    t.write(".rgignore", "todo.md\n");
    let files = [
        ".gitignore",
        ".ignore",
        ".rgignore",
        ".env",
        ".config/app.toml",
        ".github/workflows/ci.yml",
        "target/debug/out.bin",
        "app.log",
        "secret.txt",
        "notes.md",
        "todo.md",
        "src/main.rs",
    ];
    for rel in &files[3..] {
        t.write(rel, "");
    }
    let mut want: Vec<&str> = files.to_vec();
    want.sort_unstable();
    let want = lines(want);
    assert_out(&t.run(&["--glob-sort", "path", "glob", "**"]), 0, &want);
}

#[test]
fn vcs_directories_are_never_listed() {
    let t = TestDir::new();
    for dir in [".git", ".hg", ".svn", ".jj", ".sl", ".bzr"] {
        t.write(&format!("{dir}/config"), "");
        t.write(&format!("{dir}/objects/ab/cdef"), "");
        t.write(&format!("sub/{dir}/HEAD"), "");
    }
    // A worktree or submodule has a `.git` FILE; it is VCS metadata too.
    t.write("module/.git", "gitdir: ../.git/modules/module\n");
    // Names that merely look like VCS names are ordinary files.
    t.write(".gitignore", "");
    t.write(".gitattributes", "");
    t.write(".github/ci.yml", "");
    t.write("x.git/config", "");
    t.write("module/lib.rs", "");
    t.write("sub/.hgignore", "");
    t.write("sub/keep.txt", "");
    assert_out(
        &t.run(&["--glob-sort", "path", "glob", "**"]),
        0,
        ".gitattributes\n.github/ci.yml\n.gitignore\nmodule/lib.rs\nsub/.hgignore\nsub/keep.txt\nx.git/config\n",
    );
    // Even a pattern naming the directory finds nothing in it.
    assert_out(&t.run(&["glob", "**/.git/**"]), 1, "No files found\n");
    assert_out(&t.run(&["glob", "**/config"]), 0, "x.git/config\n");
    assert_out(&t.run(&["glob", ".jj/*"]), 1, "No files found\n");
}

#[test]
fn a_workdir_inside_a_vcs_directory_lists_nothing() {
    let t = TestDir::new();
    t.write(".git/HEAD", "ref: refs/heads/main\n");
    t.write(".git/objects/ab/cdef", "");
    t.write(".hg/store/data", "");
    t.write("a.txt", "");
    for dir in [".git", ".git/objects", ".git/objects/ab", ".hg/store"] {
        assert_out(&t.run(&["--cwd", dir, "glob", "**"]), 1, "No files found\n");
        assert_out(&t.run(&["--cwd", dir, "glob", "*"]), 1, "No files found\n");
    }
    let abs = t.path().join(".git");
    let out = t
        .cmd()
        .args(["glob", "**", "--cwd"])
        .arg(&abs)
        .output()
        .unwrap();
    assert_out(&out, 1, "No files found\n");
}

#[test]
fn a_vcs_directory_as_path_lists_nothing() {
    let t = TestDir::new();
    t.write(".git/HEAD", "ref: refs/heads/main\n");
    t.write(".git/objects/ab/cdef", "");
    t.write(".svn/entries", "");
    t.write("a.txt", "");
    for path in [".git", ".git/objects", "./.git", ".git/objects/ab", ".svn"] {
        assert_out(&t.run(&["glob", "**", path]), 1, "No files found\n");
        assert_out(&t.run(&["glob", "*", path]), 1, "No files found\n");
    }
    let abs = t.path().join(".git/objects");
    let out = t.cmd().args(["glob", "**"]).arg(&abs).output().unwrap();
    assert_out(&out, 1, "No files found\n");
}

#[test]
fn a_relative_path_argument_limits_the_search() {
    let t = tree(&[("src/a.rs", 2), ("src/deep/b.rs", 1), ("other/c.rs", 3)]);
    assert_out(
        &t.run(&["glob", "*.rs", "src"]),
        0,
        "src/a.rs\nsrc/deep/b.rs\n",
    );
    // Shown exactly as rg printed it.
    assert_out(
        &t.run(&["glob", "*.rs", "./src"]),
        0,
        "./src/a.rs\n./src/deep/b.rs\n",
    );
    assert_out(&t.run(&["glob", "*.rs", "src/deep"]), 0, "src/deep/b.rs\n");
    assert_out(&t.run(&["glob", "*.py", "src"]), 1, "No files found\n");
}

#[test]
fn a_path_argument_relative_to_the_cwd_option() {
    let t = tree(&[("src/a.rs", 2), ("src/deep/b.rs", 1), ("other/c.rs", 3)]);
    assert_out(
        &t.run(&["--cwd", "src", "glob", "*.rs", "deep"]),
        0,
        "deep/b.rs\n",
    );
    assert_out(
        &t.run(&["--cwd", "src", "glob", "*.rs"]),
        0,
        "a.rs\ndeep/b.rs\n",
    );
    assert_out(
        &t.run(&["--cwd", "src", "glob", "*.rs", "../other"]),
        0,
        "../other/c.rs\n",
    );
}

#[test]
fn an_absolute_path_inside_the_workdir_is_shown_relative() {
    let t = tree(&[("src/a.rs", 2), ("src/deep/b.rs", 1), ("top.rs", 3)]);
    let src = t.path().join("src");
    let out = t.cmd().args(["glob", "*.rs"]).arg(&src).output().unwrap();
    assert_out(&out, 0, "src/a.rs\nsrc/deep/b.rs\n");
    let out = t
        .cmd()
        .args(["glob", "*.rs"])
        .arg(t.path())
        .output()
        .unwrap();
    assert_out(&out, 0, "top.rs\nsrc/a.rs\nsrc/deep/b.rs\n");
    // With --cwd, relative to that workdir.
    let out = t
        .cmd()
        .args(["--cwd", "src", "glob", "*.rs"])
        .arg(&src)
        .output()
        .unwrap();
    assert_out(&out, 0, "a.rs\ndeep/b.rs\n");
}

#[test]
fn an_absolute_path_outside_the_workdir_is_shown_as_rg_printed_it() {
    let t = TestDir::new();
    t.write("inside.rs", "");
    let outside = tempfile::tempdir().unwrap();
    fs::create_dir(outside.path().join("lib")).unwrap();
    fs::write(outside.path().join("lib/out.rs"), "").unwrap();
    let out = t
        .cmd()
        .args(["glob", "*.rs"])
        .arg(outside.path())
        .output()
        .unwrap();
    let root = crate::harness::shown(&outside.path().to_string_lossy());
    assert_out(&out, 0, &format!("{root}/lib/out.rs\n"));
}

// Unix only: names Windows cannot hold (control characters, quotes).
#[cfg(unix)]
#[test]
fn a_newline_in_a_file_name_is_escaped_and_stays_one_path() {
    let t = tree(&[("new\nline.txt", 2), ("plain.txt", 1)]);
    assert_out(&t.run(&["glob", "*.txt"]), 0, "new\\nline.txt\nplain.txt\n");
    assert_out(&t.run(&["glob", "new*"]), 0, "new\\nline.txt\n");
}

// Unix only: names Windows cannot hold (control characters, quotes).
#[cfg(unix)]
#[test]
fn tab_escape_and_other_controls_in_a_file_name_are_escaped() {
    let t = tree(&[
        ("tab\there.txt", 3),
        ("esc\x1b[31mred.txt", 2),
        ("cr\rdel\x7f.txt", 1),
        ("c1 csi\u{9b}2J.txt", 0),
    ]);
    assert_out(
        &t.run(&["glob", "*.txt"]),
        0,
        "tab\\there.txt\nesc\\x1b[31mred.txt\ncr\\rdel\\x7f.txt\nc1 csi\\u{9b}2J.txt\n",
    );
}

// Unix only: Windows file names are Unicode, never invalid UTF-8.
#[cfg(unix)]
#[test]
fn a_non_utf8_file_name_is_shown_with_a_replacement_character() {
    let t = TestDir::new();
    fs::write(t.path().join(OsStr::from_bytes(b"caf\xe9.txt")), "").unwrap();
    fs::create_dir(t.path().join(OsStr::from_bytes(b"d\xff"))).unwrap();
    fs::write(t.path().join(OsStr::from_bytes(b"d\xff/x.txt")), "").unwrap();
    assert_out(
        &t.run(&["--glob-sort", "path", "glob", "**/*.txt"]),
        0,
        "caf\u{FFFD}.txt\nd\u{FFFD}/x.txt\n",
    );
}

// Unix only: names Windows cannot hold (control characters, quotes).
#[cfg(unix)]
#[test]
fn odd_names_are_listed_as_they_are() {
    let t = tree(&[
        (" leading space.txt", 1),
        ("trailing space .txt", 2),
        ("-dash.txt", 3),
        ("--files.txt", 4),
        ("ünï €.txt", 5),
        ("日本語/ファイル.txt", 6),
        ("quote's \"q\".txt", 7),
        ("$(x) `y` ;z.txt", 8),
    ]);
    assert_out(
        &t.run(&["glob", "**/*.txt"]),
        0,
        "$(x) `y` ;z.txt\nquote's \"q\".txt\n日本語/ファイル.txt\nünï €.txt\n--files.txt\n-dash.txt\ntrailing space .txt\n leading space.txt\n",
    );
}

// Unix only: symlinks need a privilege on Windows.
#[cfg(unix)]
#[test]
fn symlinks_are_not_followed() {
    // rg --files without --follow lists no symlink, to a file or to a dir.
    let t = tree(&[("real/a.txt", 1)]);
    std::os::unix::fs::symlink("real/a.txt", t.path().join("link.txt")).unwrap();
    std::os::unix::fs::symlink("real", t.path().join("linkdir")).unwrap();
    assert_out(
        &t.run(&["--glob-sort", "path", "glob", "**/*.txt"]),
        0,
        "real/a.txt\n",
    );
}

#[test]
fn a_piped_stdin_changes_nothing() {
    let t = tree(&[("a.txt", 1)]);
    let out = t
        .cmd()
        .args(["glob", "*"])
        .write_stdin("stdin.txt\n")
        .output()
        .unwrap();
    assert_out(&out, 0, "a.txt\n");
}

/// What rg itself lists for `pattern` from the workdir (no PATH), sorted by
/// bytes: the reference the walk-root shortcut must reproduce exactly.
#[cfg(unix)]
fn rg_listing(t: &TestDir, pattern: &str) -> String {
    let mut args = vec![
        "--no-config".to_owned(),
        "--files".to_owned(),
        format!("--glob={pattern}"),
        "--no-ignore".to_owned(),
        "--hidden".to_owned(),
    ];
    for dir in [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"] {
        args.push(format!("--glob=!**/{dir}"));
        args.push(format!("--glob=!**/{dir}/**"));
    }
    let out = std::process::Command::new(crate::harness::real_rg())
        .args(&args)
        .current_dir(t.path())
        .env_remove("RIPGREP_CONFIG_PATH")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let mut paths: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    paths.sort_unstable();
    lines(paths)
}

// Unix only: symlinks need a privilege on Windows.
#[cfg(unix)]
#[test]
fn a_literal_directory_prefix_is_walked_from_there_with_the_same_listing() {
    let t = TestDir::new();
    for rel in [
        "src/lib/a.rs",
        "src/lib/deep/b.rs",
        "src/lib/.hidden/c.rs",
        "src/lib/ignored/d.rs",
        "src/main.rs",
        "src/lib.rs",
        "other/src/lib/e.rs",
        "src/lib/.git/config.rs",
        "outside/f.rs",
    ] {
        t.write(rel, "");
    }
    t.write(".gitignore", "ignored/\n");
    std::os::unix::fs::symlink(t.path().join("outside"), t.path().join("src/lib/linked")).unwrap();
    std::os::unix::fs::symlink(t.path().join("src"), t.path().join("srclink")).unwrap();
    for pattern in [
        "src/lib/**/*.rs",
        "src/lib/*",
        "src/**",
        "src/*.rs",
        "src/{lib,main}*",
        "src/lib/deep/b.rs",
        "srclink/**",
        "missing/**",
        "src/lib.rs/*",
    ] {
        let out = t.run(&["--glob-sort", "path", "glob", pattern]);
        let want = rg_listing(&t, pattern);
        let want = if pattern == "srclink/**" {
            // Nothing without following links; the link probe says so.
            let src = t.path().join("src");
            let via = format!("(via link srclink -> {})", src.display());
            format!(
                "No files found\n\n(Not searched: 7 paths reached through symbolic links match, e.g. srclink/lib/.hidden/c.rs {via}, srclink/lib/a.rs {via}, srclink/lib/deep/b.rs {via}; pass follow: true to list them)\n"
            )
        } else if want.is_empty() {
            "No files found\n".to_owned()
        } else {
            want
        };
        assert_eq!(stdout(&out), want, "{out:?}");
    }
    // The walk really starts below the workdir, and only where it is safe.
    let explain = |pattern: &str| t.run(&["--explain", "glob", pattern]);
    let walks_below = |ran: &Ran| String::from_utf8_lossy(&ran.stderr).contains(" -- ");
    let ran = explain("src/lib/**/*.rs");
    assert!(
        String::from_utf8_lossy(&ran.stderr).contains(" -- 'src/lib'\n"),
        "{ran:?}"
    );
    let ran = explain("srclink/**");
    assert!(!walks_below(&ran), "{ran:?}");
    let ran = explain("missing/**");
    assert!(!walks_below(&ran), "{ran:?}");
}
