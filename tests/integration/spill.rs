//! The spill store (SPEC §5) through the binary: what a capped search saves,
//! under which name, with which modes, and how every way of failing to save
//! still leaves the inline page, the "could not be saved" footer and the
//! exit code untouched.

use std::fmt::Write as _;
use std::fs;
#[cfg(unix)]
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tempfile::TempDir;
use wait_timeout::ChildExt;

#[cfg(unix)]
use crate::harness::spill_file;
use crate::harness::{
    self, Ran, T0, TEST_TIMEOUT, TestDir, assert_exit, assert_out, real_rg, stdout, stdout_json,
};

const DEFAULT_HINT: &str = "Use read with offset/limit, or grep this path to search within it.";
const CUSTOM_HINT: &str = "Page it with sed -n.";

/// A capped glob over [`glob_tree`]: 2 of its 5 paths inline.
const GLOB_ARGS: [&str; 4] = ["--glob-max-results", "2", "glob", "*"];
/// The files of [`glob_tree`], oldest first: two with a control character
/// in their names (Windows cannot hold one: a space there).
#[cfg(unix)]
const GLOB_FILES: [&str; 5] = ["a.txt", "b\nname.txt", "c.txt", "d\tfile.txt", "src/e.rs"];
#[cfg(windows)]
const GLOB_FILES: [&str; 5] = ["a.txt", "b name.txt", "c.txt", "d file.txt", "src/e.rs"];
/// How text output shows the odd names of [`GLOB_FILES`].
#[cfg(unix)]
const B_SHOWN: &str = "b\\nname.txt";
#[cfg(unix)]
const D_SHOWN: &str = "d\\tfile.txt";
#[cfg(windows)]
const B_SHOWN: &str = "b name.txt";
#[cfg(windows)]
const D_SHOWN: &str = "d file.txt";
/// The complete glob result, newest first, escaped as text output escapes
/// it. No trailing newline: that is what the binary saves.
#[cfg(unix)]
const GLOB_ALL: &str = "src/e.rs\nd\\tfile.txt\nc.txt\nb\\nname.txt\na.txt";
#[cfg(windows)]
const GLOB_ALL: &str = "src/e.rs\nd file.txt\nc.txt\nb name.txt\na.txt";
/// The inline page: the first paths, and where the rest are (SPEC §4a).
#[cfg(unix)]
const GLOB_PAGE: &str = "src/e.rs\nd\\tfile.txt\n\n(The other 3 paths: ./ 3)";
#[cfg(windows)]
const GLOB_PAGE: &str = "src/e.rs\nd file.txt\n\n(The other 3 paths: ./ 3)";
const GLOB_UNSAVED: &str = "(Showing 2 of 5 paths. The complete result could not be saved; narrow pattern or path to see more.)";

/// A capped grep over [`grep_tree`]: 2 of its 6 matches inline, the cap
/// falling inside the first file's group, previews cut at 20 bytes.
const GREP_ARGS: [&str; 6] = [
    "--grep-max-matches",
    "2",
    "--grep-max-line-bytes",
    "20",
    "grep",
    "needle",
];
/// The name in [`grep_tree`] with a tab (a space on Windows).
#[cfg(unix)]
const GREP_ODD: &str = "d\tx.rs";
#[cfg(windows)]
const GREP_ODD: &str = "d x.rs";
#[cfg(unix)]
const GREP_ALL: &str = "Found 6 matches\n\n\
    a.rs\n\
    Line 1: needle xxxxxxxxxxxxx (line truncated)\n\
    Line 3: needle two\n\
    Line 4: needle three\n\n\
    b.rs\n\
    Line 1: needle\n\n\
    c.rs\n\
    Line 1: zz needle yyyyyyyyyy (line truncated)\n\n\
    d\\tx.rs\n\
    Line 1: needle";
#[cfg(windows)]
const GREP_ALL: &str = "Found 6 matches\n\n\
    a.rs\n\
    Line 1: needle xxxxxxxxxxxxx (line truncated)\n\
    Line 3: needle two\n\
    Line 4: needle three\n\n\
    b.rs\n\
    Line 1: needle\n\n\
    c.rs\n\
    Line 1: zz needle yyyyyyyyyy (line truncated)\n\n\
    d x.rs\n\
    Line 1: needle";
const GREP_PAGE: &str = "Found 2 of 6 matches\n\n\
    a.rs\n\
    Line 1: needle xxxxxxxxxxxxx (line truncated)\n\
    Line 3: needle two\n\n\
    (The other 4 matches: a.rs 1, b.rs 1, c.rs 1)";
const GREP_UNSAVED: &str =
    "(The complete result could not be saved; narrow pattern, path, or include to see more.)";

/// Five files with distinct mtimes, two of them with control characters in
/// their names (escaped in text output and in the spill alike).
fn glob_tree() -> TestDir {
    let t = TestDir::new();
    for (i, rel) in (1..).zip(GLOB_FILES) {
        t.write(rel, "x\n");
        t.mtime(rel, T0 + 10 * i);
    }
    t
}

/// Four files, six matched lines, two of them longer than 20 bytes, one
/// name with a tab.
fn grep_tree() -> TestDir {
    let t = TestDir::new();
    t.write(
        "a.rs",
        format!("needle {}\nno\nneedle two\nneedle three\n", "x".repeat(40)),
    );
    t.write("b.rs", "needle\n");
    t.write("c.rs", format!("zz needle {}\n", "y".repeat(40)));
    t.write(GREP_ODD, "needle\n");
    t
}

/// A spill directory (not yet created) inside a tempdir of its own, away
/// from the searched tree.
struct SpillDir {
    root: TempDir,
    dir: PathBuf,
}

impl SpillDir {
    fn new() -> Self {
        Self::at("spill")
    }

    /// `rel` under a fresh tempdir; parents are not created.
    fn at(rel: &str) -> Self {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join(rel);
        Self { root, dir }
    }

    fn arg(&self) -> &str {
        self.dir.to_str().unwrap()
    }

    /// The absolute locator of `name` in this dir (which must exist).
    fn locator(&self, name: &str) -> String {
        let dir = harness::canonical(&self.dir);
        assert!(dir.is_absolute(), "{}", dir.display());
        dir.join(name).to_str().unwrap().to_owned()
    }

    /// File names in the dir, sorted.
    fn names(&self) -> Vec<String> {
        names(&self.dir)
    }
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `<12 hex of SHA-256 of content>-<tool>-results.txt`, computed here.
fn spill_name(tool: &str, content: &str) -> String {
    format!("{}-{tool}-results.txt", content_hash(content))
}

/// The first 12 hex digits of the SHA-256 of `content`.
pub fn content_hash(content: &str) -> String {
    let digest = Sha256::digest(content.as_bytes());
    digest[..6].iter().fold(String::new(), |mut hex, b| {
        write!(hex, "{b:02x}").unwrap();
        hex
    })
}

/// The first 12 hex digits `sha256sum` (coreutils) prints for `file`: a check of the
/// name that does not share the binary's SHA-256 code.
#[cfg(unix)]
fn sha256sum_prefix(file: &str) -> String {
    let out = std::process::Command::new("sha256sum")
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "sha256sum {file} failed");
    String::from_utf8(out.stdout).unwrap()[..12].to_owned()
}

fn glob_saved(locator: &str, hint: &str) -> String {
    format!(
        "{GLOB_PAGE}\n\n(Showing 2 of 5 paths. Full sorted result stored at: {locator}. {hint})\n"
    )
}

fn grep_saved(locator: &str, hint: &str) -> String {
    format!("{GREP_PAGE}\n\n(Full grep result stored at: {locator}. {hint})\n")
}

/// `args` with `--spill-dir DIR` in front.
fn with_spill<'a>(dir: &'a str, args: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["--spill-dir", dir];
    all.extend_from_slice(args);
    all
}

/// No half-written temp file was left behind.
#[track_caller]
fn assert_no_temp_files(dir: &Path) {
    let temps: Vec<String> = names(dir)
        .into_iter()
        .filter(|n| {
            n.starts_with(".dsh-search-")
                || Path::new(n)
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("tmp"))
        })
        .collect();
    assert!(
        temps.is_empty(),
        "temp files left in {}: {temps:?}",
        dir.display()
    );
}

#[test]
fn capped_glob_saves_the_complete_sorted_list() {
    let t = glob_tree();
    let spill = SpillDir::new();
    let out = t.run(&with_spill(spill.arg(), &GLOB_ARGS));
    let name = spill_name("glob", GLOB_ALL);
    assert!(
        name.ends_with("-glob-results.txt") && name.len() == 12 + 17,
        "{name}"
    );
    let locator = spill.locator(&name);
    assert_out(&out, 0, &glob_saved(&locator, DEFAULT_HINT));
    assert_eq!(
        fs::read_to_string(&locator).unwrap(),
        GLOB_ALL,
        "{}",
        out.describe()
    );
    #[cfg(unix)]
    assert_eq!(sha256sum_prefix(&locator), name[..12], "{}", out.describe());
    assert_eq!(spill.names(), [name], "{}", out.describe());
}

#[test]
fn relative_spill_dir_gives_an_absolute_locator() {
    let t = glob_tree();
    let spill = SpillDir::new();
    // The spill dir relative to the process cwd (the searched tree).
    let up = spill.root.path().file_name().unwrap().to_str().unwrap();
    let relative = format!("../{up}/spill");
    assert_eq!(
        t.path().parent().unwrap(),
        spill.root.path().parent().unwrap(),
        "both tempdirs share a parent"
    );
    let out = t.run(&with_spill(&relative, &GLOB_ARGS));
    let locator = spill.locator(&spill_name("glob", GLOB_ALL));
    assert!(
        Path::new(&locator).is_absolute() && !locator.contains(".."),
        "{locator}"
    );
    assert_out(&out, 0, &glob_saved(&locator, DEFAULT_HINT));
    assert_eq!(
        fs::read_to_string(&locator).unwrap(),
        GLOB_ALL,
        "{}",
        out.describe()
    );
}

#[test]
fn capped_glob_spill_follows_the_glob_sort() {
    let t = glob_tree();
    let spill = SpillDir::new();
    let mut args = vec!["--glob-sort", "path"];
    args.extend_from_slice(&GLOB_ARGS);
    let out = t.run(&with_spill(spill.arg(), &args));
    let all = format!("a.txt\n{B_SHOWN}\nc.txt\n{D_SHOWN}\nsrc/e.rs");
    let locator = spill.locator(&spill_name("glob", &all));
    assert_out(
        &out,
        0,
        &format!(
            "a.txt\n{B_SHOWN}\n\n(The other 3 paths: ./ 2, src/ 1)\n\n(Showing 2 of 5 paths. Full sorted result stored at: {locator}. {DEFAULT_HINT})\n"
        ),
    );
    assert_eq!(
        fs::read_to_string(&locator).unwrap(),
        all,
        "{}",
        out.describe()
    );
}

#[test]
fn capped_grep_saves_every_group_with_the_same_previews() {
    let t = grep_tree();
    let spill = SpillDir::new();
    let out = t.run(&with_spill(spill.arg(), &GREP_ARGS));
    let name = spill_name("grep", GREP_ALL);
    assert!(
        name.ends_with("-grep-results.txt") && name.len() == 12 + 17,
        "{name}"
    );
    let locator = spill.locator(&name);
    assert_out(&out, 0, &grep_saved(&locator, DEFAULT_HINT));
    assert_eq!(
        fs::read_to_string(&locator).unwrap(),
        GREP_ALL,
        "{}",
        out.describe()
    );
    #[cfg(unix)]
    assert_eq!(sha256sum_prefix(&locator), name[..12], "{}", out.describe());
    assert_eq!(spill.names(), [name], "{}", out.describe());
}

#[test]
fn spill_dir_and_hint_from_the_environment() {
    let spill = SpillDir::new();
    let g = glob_tree();
    let out = g
        .cmd()
        .env("DSH_SEARCH_SPILL_DIR", spill.arg())
        .env("DSH_SEARCH_SPILL_HINT", CUSTOM_HINT)
        .args(GLOB_ARGS)
        .output()
        .unwrap();
    let glob_locator = spill.locator(&spill_name("glob", GLOB_ALL));
    assert_out(&out, 0, &glob_saved(&glob_locator, CUSTOM_HINT));

    let r = grep_tree();
    let out = r
        .cmd()
        .env("DSH_SEARCH_SPILL_DIR", spill.arg())
        .env("DSH_SEARCH_SPILL_HINT", CUSTOM_HINT)
        .args(GREP_ARGS)
        .output()
        .unwrap();
    let grep_locator = spill.locator(&spill_name("grep", GREP_ALL));
    assert_out(&out, 0, &grep_saved(&grep_locator, CUSTOM_HINT));

    let mut both = vec![spill_name("glob", GLOB_ALL), spill_name("grep", GREP_ALL)];
    both.sort();
    let what = "the glob and the grep above";
    assert_eq!(spill.names(), both, "{what}");
    assert_eq!(
        fs::read_to_string(&glob_locator).unwrap(),
        GLOB_ALL,
        "{what}"
    );
    assert_eq!(
        fs::read_to_string(&grep_locator).unwrap(),
        GREP_ALL,
        "{what}"
    );
}

#[test]
fn custom_hint_flag_in_both_footers() {
    let spill = SpillDir::new();
    let g = glob_tree();
    let mut args = with_spill(spill.arg(), &["--spill-hint", CUSTOM_HINT]);
    args.extend_from_slice(&GLOB_ARGS);
    let locator = {
        let out = g.run(&args);
        let locator = spill.locator(&spill_name("glob", GLOB_ALL));
        assert_out(&out, 0, &glob_saved(&locator, CUSTOM_HINT));
        locator
    };
    // The hint is not part of the content: the same file is named.
    assert_out(
        &g.run(&with_spill(spill.arg(), &GLOB_ARGS)),
        0,
        &glob_saved(&locator, DEFAULT_HINT),
    );

    let r = grep_tree();
    let mut args = with_spill(spill.arg(), &GREP_ARGS);
    args.extend_from_slice(&["--spill-hint", CUSTOM_HINT]);
    let out = r.run(&args);
    let locator = spill.locator(&spill_name("grep", GREP_ALL));
    assert_out(&out, 0, &grep_saved(&locator, CUSTOM_HINT));
}

#[test]
fn flags_win_over_spill_environment() {
    let flag_dir = SpillDir::new();
    let env_dir = SpillDir::new();
    let t = glob_tree();
    let out = t
        .cmd()
        .env("DSH_SEARCH_SPILL_DIR", env_dir.arg())
        .env("DSH_SEARCH_SPILL_HINT", "From the environment.")
        .args(["--spill-dir", flag_dir.arg(), "--spill-hint", CUSTOM_HINT])
        .args(GLOB_ARGS)
        .output()
        .unwrap();
    let locator = flag_dir.locator(&spill_name("glob", GLOB_ALL));
    assert_out(&out, 0, &glob_saved(&locator, CUSTOM_HINT));
    assert!(!env_dir.dir.exists(), "{}", out.describe());
}

#[test]
fn same_call_twice_reuses_the_file() {
    let spill = SpillDir::new();
    for (t, args, tool, content) in [
        (glob_tree(), &GLOB_ARGS[..], "glob", GLOB_ALL),
        (grep_tree(), &GREP_ARGS[..], "grep", GREP_ALL),
    ] {
        let args = with_spill(spill.arg(), args);
        let first = t.run(&args);
        assert_exit(&first, 0);
        let locator = spill.locator(&spill_name(tool, content));
        let before = fs::symlink_metadata(&locator).unwrap();
        let second = t.run(&args);
        assert_out(&second, 0, &stdout(&first));
        assert!(stdout(&second).contains(&locator), "{second:?}");
        let after = fs::symlink_metadata(&locator).unwrap();
        assert_eq!(
            (file_id(&after), after.len()),
            (file_id(&before), before.len()),
            "the existing file is reused, not rewritten"
        );
        assert_eq!(
            fs::read_to_string(&locator).unwrap(),
            content,
            "{}",
            second.describe()
        );
    }
    assert_eq!(spill.names().len(), 2, "{:?}", spill.names());
}

#[test]
fn uncapped_result_creates_neither_file_nor_dir() {
    let spill = SpillDir::new();
    let g = glob_tree();
    let out = g.run(&with_spill(
        spill.arg(),
        &["--glob-max-results", "5", "glob", "*.txt"],
    ));
    assert_out(&out, 0, &format!("{D_SHOWN}\nc.txt\n{B_SHOWN}\na.txt\n"));
    let out = g.run(&with_spill(spill.arg(), &["glob", "*.none"]));
    assert_out(&out, 1, "No files found\n");

    let r = grep_tree();
    let out = r.run(&with_spill(
        spill.arg(),
        &["--grep-max-matches", "6", "grep", "needle", "b.rs"],
    ));
    assert_out(&out, 0, "Found 1 match\n\nb.rs\nLine 1: needle\n");
    let out = r.run(&with_spill(spill.arg(), &["grep", "absent"]));
    assert_out(&out, 1, "No matches found\n");

    assert!(!spill.dir.exists(), "no spill dir without a capped result");
}

// Unix only: POSIX modes (Windows keeps the inherited ACL).
#[cfg(unix)]
#[test]
fn created_dirs_are_0700_and_the_file_0600() {
    let spill = SpillDir::at("a/b/c");
    let t = glob_tree();
    let out = t.run(&with_spill(spill.arg(), &GLOB_ARGS));
    let name = spill_name("glob", GLOB_ALL);
    let locator = spill.locator(&name);
    assert_out(&out, 0, &glob_saved(&locator, DEFAULT_HINT));
    for rel in ["a", "a/b", "a/b/c"] {
        let meta = fs::symlink_metadata(spill.root.path().join(rel)).unwrap();
        assert!(meta.is_dir(), "{}", out.describe());
        assert_eq!(meta.permissions().mode() & 0o777, 0o700, "mode of {rel}");
    }
    let meta = fs::symlink_metadata(&locator).unwrap();
    assert!(meta.file_type().is_file(), "{}", out.describe());
    assert_eq!(
        meta.permissions().mode() & 0o777,
        0o600,
        "{}",
        out.describe()
    );
    assert_eq!(spill.names(), [name], "{}", out.describe());
}

// Unix only: symlinks need a privilege on Windows (tests/integration/windows.rs plants one where it can).
#[cfg(unix)]
#[test]
fn symlink_at_the_final_name_is_never_followed() {
    let t = glob_tree();
    // Learn the final name from a run into another dir.
    let scout = SpillDir::new();
    let scouting = t.run(&with_spill(scout.arg(), &GLOB_ARGS));
    let name = &spill_file(&scout.dir, &scouting)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(
        *name,
        spill_name("glob", GLOB_ALL),
        "{}",
        scouting.describe()
    );

    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim.txt");
    fs::write(&victim, "victim bytes\n").unwrap();
    let spill = SpillDir::new();
    fs::create_dir(&spill.dir).unwrap();
    symlink(&victim, spill.dir.join(name)).unwrap();

    let out = t.run(&with_spill(spill.arg(), &GLOB_ARGS));
    assert_out(&out, 0, &format!("{GLOB_PAGE}\n\n{GLOB_UNSAVED}\n"));
    assert_eq!(
        fs::read(&victim).unwrap(),
        b"victim bytes\n",
        "{}",
        out.describe()
    );
    assert_eq!(names(outside.path()), ["victim.txt"], "{}", out.describe());
    assert_eq!(spill.names(), [name.as_str()], "only the symlink remains");
    assert_eq!(
        fs::read_link(spill.dir.join(name)).unwrap(),
        victim,
        "{}",
        out.describe()
    );
}

// Unix only: symlinks need a privilege on Windows (tests/integration/windows.rs plants one where it can).
#[cfg(unix)]
#[test]
fn dangling_symlink_at_the_final_name_creates_nothing() {
    let t = grep_tree();
    let name = spill_name("grep", GREP_ALL);
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("not-yet");
    let spill = SpillDir::new();
    fs::create_dir(&spill.dir).unwrap();
    symlink(&target, spill.dir.join(&name)).unwrap();

    let out = t.run(&with_spill(spill.arg(), &GREP_ARGS));
    assert_out(&out, 0, &format!("{GREP_PAGE}\n\n{GREP_UNSAVED}\n"));
    assert!(!target.exists(), "nothing written through the symlink");
    assert!(names(outside.path()).is_empty(), "{}", out.describe());
    assert_eq!(spill.names(), [name], "{}", out.describe());
}

#[test]
fn final_name_taken_by_other_content_is_left_alone() {
    let t = glob_tree();
    let name = spill_name("glob", GLOB_ALL);

    // A regular file with different bytes: not our file.
    let spill = SpillDir::new();
    fs::create_dir(&spill.dir).unwrap();
    fs::write(spill.dir.join(&name), "someone else's\n").unwrap();
    let out = t.run(&with_spill(spill.arg(), &GLOB_ARGS));
    assert_out(&out, 0, &format!("{GLOB_PAGE}\n\n{GLOB_UNSAVED}\n"));
    assert_eq!(
        fs::read(spill.dir.join(&name)).unwrap(),
        b"someone else's\n",
        "{}",
        out.describe()
    );
    assert_eq!(spill.names(), [name.as_str()], "{}", out.describe());

    // A directory.
    let spill = SpillDir::new();
    fs::create_dir_all(spill.dir.join(&name)).unwrap();
    let out = t.run(&with_spill(spill.arg(), &GLOB_ARGS));
    assert_out(&out, 0, &format!("{GLOB_PAGE}\n\n{GLOB_UNSAVED}\n"));
    assert!(
        names(&spill.dir.join(&name)).is_empty(),
        "{}",
        out.describe()
    );
    assert_eq!(spill.names(), [name], "{}", out.describe());
}

#[test]
fn regular_file_as_spill_dir_keeps_the_inline_page() {
    let holder = tempfile::tempdir().unwrap();
    let file = holder.path().join("not-a-dir");
    fs::write(&file, "keep me\n").unwrap();
    let file_arg = file.to_str().unwrap();

    let out = glob_tree().run(&with_spill(file_arg, &GLOB_ARGS));
    assert_out(&out, 0, &format!("{GLOB_PAGE}\n\n{GLOB_UNSAVED}\n"));
    let out = grep_tree().run(&with_spill(file_arg, &GREP_ARGS));
    assert_out(&out, 0, &format!("{GREP_PAGE}\n\n{GREP_UNSAVED}\n"));

    assert_eq!(fs::read(&file).unwrap(), b"keep me\n", "{}", out.describe());
    assert_eq!(names(holder.path()), ["not-a-dir"], "no temp files");

    // A dir below a regular file cannot be created either.
    let below = file.join("spill");
    let out = glob_tree().run(&with_spill(below.to_str().unwrap(), &GLOB_ARGS));
    assert_out(&out, 0, &format!("{GLOB_PAGE}\n\n{GLOB_UNSAVED}\n"));
    assert_eq!(fs::read(&file).unwrap(), b"keep me\n", "{}", out.describe());
}

// Unix only: POSIX modes and /proc.
#[cfg(unix)]
#[test]
fn unwritable_spill_dir_keeps_the_inline_page() {
    let g = glob_tree();
    let r = grep_tree();
    if harness::is_root() {
        // Permissions do not stop root: use places no one can write in.
        // /proc/self/dsh-spill cannot be created; /proc/self exists but
        // takes no new files.
        for dir in ["/proc/self/dsh-spill", "/proc/self"] {
            let out = g.run(&with_spill(dir, &GLOB_ARGS));
            assert_out(&out, 0, &format!("{GLOB_PAGE}\n\n{GLOB_UNSAVED}\n"));
            let out = r.run(&with_spill(dir, &GREP_ARGS));
            assert_out(&out, 0, &format!("{GREP_PAGE}\n\n{GREP_UNSAVED}\n"));
        }
        assert!(
            !Path::new("/proc/self/dsh-spill").exists(),
            "a run with --spill-dir /proc/self/dsh-spill made it"
        );
    } else {
        let spill = SpillDir::new();
        fs::create_dir(&spill.dir).unwrap();
        fs::set_permissions(&spill.dir, fs::Permissions::from_mode(0o500)).unwrap();
        let glob_out = g.run(&with_spill(spill.arg(), &GLOB_ARGS));
        let grep_out = r.run(&with_spill(spill.arg(), &GREP_ARGS));
        // A nested dir under it cannot be created.
        let nested = spill.dir.join("x/y");
        let nested_out = g.run(&with_spill(nested.to_str().unwrap(), &GLOB_ARGS));
        fs::set_permissions(&spill.dir, fs::Permissions::from_mode(0o700)).unwrap();
        assert_out(&glob_out, 0, &format!("{GLOB_PAGE}\n\n{GLOB_UNSAVED}\n"));
        assert_out(&grep_out, 0, &format!("{GREP_PAGE}\n\n{GREP_UNSAVED}\n"));
        assert_out(&nested_out, 0, &format!("{GLOB_PAGE}\n\n{GLOB_UNSAVED}\n"));
        assert!(spill.names().is_empty(), "{:?}", spill.names());
    }
}

/// The binary as a plain `std::process::Command` (for spawning several at
/// once), with the same clean environment as the harness gives.
fn spawn_search(t: &TestDir, home: &Path, args: &[&str]) -> Child {
    let mut cmd = std::process::Command::new(crate::harness::binary());
    cmd.current_dir(t.path());
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("DSH_SEARCH_") {
            cmd.env_remove(&key);
        }
    }
    cmd.env_remove("RIPGREP_CONFIG_PATH")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("DSH_SEARCH_RG", real_rg())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    cmd.spawn().unwrap()
}

#[test]
fn concurrent_saves_agree_on_one_file() {
    // A few hundred paths make the saved file big enough for the writers
    // to overlap.
    let t = TestDir::new();
    let mut all: Vec<String> = (0..300).map(|i| format!("dir/file-{i:04}.txt")).collect();
    for rel in &all {
        t.write(rel, "x\n");
    }
    all.sort();
    let content = all.join("\n");
    let home = tempfile::tempdir().unwrap();
    let spill = SpillDir::new();
    let args = with_spill(
        spill.arg(),
        &[
            "--glob-sort",
            "path",
            "--glob-max-results",
            "2",
            "glob",
            "*.txt",
        ],
    );

    let children: Vec<Child> = (0..8)
        .map(|_| spawn_search(&t, home.path(), &args))
        .collect();
    let mut outputs = Vec::new();
    let mut children = children.into_iter();
    while let Some(mut child) = children.next() {
        let Some(status) = child.wait_timeout(TEST_TIMEOUT).unwrap() else {
            let _ = child.kill();
            for mut rest in children {
                let _ = rest.kill();
                let _ = rest.wait();
            }
            let _ = child.wait();
            panic!("a concurrent dsh-search did not finish within {TEST_TIMEOUT:?}");
        };
        let mut out = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
        outputs.push((status.code(), out));
    }

    let name = spill_name("glob", &content);
    let locator = spill.locator(&name);
    let expected = format!(
        "{}\n{}\n\n(The other 298 paths: dir/ 298)\n\n(Showing 2 of 300 paths. Full sorted result stored at: {locator}. {DEFAULT_HINT})\n",
        all[0], all[1]
    );
    for (code, out) in &outputs {
        assert_eq!(
            (*code, out.as_str()),
            (Some(0), expected.as_str()),
            "a concurrent run of {args:?}"
        );
    }
    let what = format!("8 concurrent runs of {args:?}");
    assert_eq!(outputs.len(), 8, "{what}");
    assert_eq!(spill.names(), [name], "{what}");
    assert_eq!(fs::read_to_string(&locator).unwrap(), content, "{what}");
    assert_no_temp_files(&spill.dir);
}

// Unix only: symlinks need a privilege on Windows (tests/integration/windows.rs plants one where it can).
#[cfg(unix)]
#[test]
fn no_temp_files_after_failed_saves() {
    // Every failure above that leaves a directory to look in, once more in
    // one place: a symlink, a foreign file and a directory at the name.
    let t = glob_tree();
    let name = spill_name("glob", GLOB_ALL);
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim");
    fs::write(&victim, "v").unwrap();
    let plant: [&dyn Fn(&Path); 3] = [
        &|at| symlink(&victim, at).unwrap(),
        &|at| fs::write(at, "other").unwrap(),
        &|at| fs::create_dir(at).unwrap(),
    ];
    for plant in plant {
        let spill = SpillDir::new();
        fs::create_dir(&spill.dir).unwrap();
        plant(&spill.dir.join(&name));
        for _ in 0..2 {
            let out = t.run(&with_spill(spill.arg(), &GLOB_ARGS));
            assert_out(&out, 0, &format!("{GLOB_PAGE}\n\n{GLOB_UNSAVED}\n"));
        }
        assert_no_temp_files(&spill.dir);
        assert_eq!(spill.names(), [name.as_str()], "two runs of {GLOB_ARGS:?}");
    }
    assert_eq!(fs::read(&victim).unwrap(), b"v", "runs of {GLOB_ARGS:?}");
}

/// What tells one file from its rewrite: its inode on Unix; on Windows its
/// modification time (NTFS keeps 100 ns).
#[cfg(unix)]
fn file_id(meta: &fs::Metadata) -> u64 {
    meta.ino()
}

#[cfg(windows)]
fn file_id(meta: &fs::Metadata) -> Option<std::time::SystemTime> {
    meta.modified().ok()
}

/// stdout parsed as the one JSON object it must be, of a run that exited 0.
#[track_caller]
fn json_of(out: &Ran) -> Value {
    assert_exit(out, 0);
    let raw = stdout(out);
    assert!(
        raw.ends_with('\n') && raw.matches('\n').count() == 1,
        "not one line: {out:?}"
    );
    stdout_json(out)
}

#[test]
fn json_capped_run_carries_the_spill() {
    let spill = SpillDir::new();
    for (t, args, tool, content, inline) in [
        (glob_tree(), &GLOB_ARGS[..], "glob", GLOB_ALL, GLOB_PAGE),
        (grep_tree(), &GREP_ARGS[..], "grep", GREP_ALL, GREP_PAGE),
    ] {
        let mut all = with_spill(
            spill.arg(),
            &["--format", "json", "--spill-hint", CUSTOM_HINT],
        );
        all.extend_from_slice(args);
        let out = t.run(&all);
        let v = json_of(&out);
        let locator = spill.locator(&spill_name(tool, content));
        assert_eq!(
            v["spill"],
            json!({"locator": locator, "retrieval_hint": CUSTOM_HINT}),
            "{out:?}"
        );
        assert_eq!(v["spill_error"], Value::Null, "{out:?}");
        assert_eq!(v["warnings"], json!([]), "{out:?}");
        assert_eq!(v["truncated"], json!(true), "{out:?}");
        let footer = if tool == "glob" {
            format!(
                "(Showing 2 of 5 paths. Full sorted result stored at: {locator}. {CUSTOM_HINT})"
            )
        } else {
            format!("(Full grep result stored at: {locator}. {CUSTOM_HINT})")
        };
        assert_eq!(v["text"], json!(format!("{inline}\n\n{footer}")), "{out:?}");
        assert_eq!(
            fs::read_to_string(&locator).unwrap(),
            content,
            "{}",
            out.describe()
        );
    }
}

#[test]
fn json_capped_run_without_a_saved_spill_says_why() {
    const NO_DIR: &str = "no spill directory is configured (--spill-dir or DSH_SEARCH_SPILL_DIR)";
    for (t, args, inline, footer) in [
        (glob_tree(), &GLOB_ARGS[..], GLOB_PAGE, GLOB_UNSAVED),
        (grep_tree(), &GREP_ARGS[..], GREP_PAGE, GREP_UNSAVED),
    ] {
        let mut all = vec!["--format", "json"];
        all.extend_from_slice(args);
        let out = t.run(&all);
        let v = json_of(&out);
        assert_eq!(v["spill"], Value::Null, "{out:?}");
        assert_eq!(v["spill_error"], json!(NO_DIR), "{out:?}");
        assert_eq!(
            v["warnings"],
            json!([format!("the complete result could not be saved: {NO_DIR}")]),
            "{out:?}"
        );
        assert_eq!(v["text"], json!(format!("{inline}\n\n{footer}")), "{out:?}");

        // A spill dir that cannot be made: the reason names it.
        let holder = tempfile::tempdir().unwrap();
        let file = holder.path().join("file");
        fs::write(&file, "").unwrap();
        let mut all = with_spill(file.to_str().unwrap(), &["--format", "json"]);
        all.extend_from_slice(args);
        let out = t.run(&all);
        let v = json_of(&out);
        assert_eq!(v["spill"], Value::Null, "{out:?}");
        let reason = v["spill_error"]
            .as_str()
            .unwrap_or_else(|| panic!("no spill_error: {out:?}"));
        assert!(reason.contains(file.to_str().unwrap()), "{out:?}");
        assert_eq!(
            v["warnings"],
            json!([format!("the complete result could not be saved: {reason}")]),
            "{out:?}"
        );
        assert_eq!(v["text"], json!(format!("{inline}\n\n{footer}")), "{out:?}");
        assert_eq!(names(holder.path()), ["file"], "{}", out.describe());
    }
}
