//! Unit tests of `src/rg/command.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use std::borrow::Cow;

use super::*;
use crate::tool::{GlobArgs, GrepArgs};

fn glob(pattern: &str, path: Option<&str>) -> GlobRequest {
    let path = path.map(Into::into);
    GlobRequest::new(GlobArgs {
        pattern: pattern.into(),
        path,
        ..GlobArgs::default()
    })
    .unwrap()
}

fn grep(pattern: &str, include: Option<&str>, path: Option<&str>) -> GrepRequest {
    let (path, include) = (path.map(Into::into), include.map(Into::into));
    let args = GrepArgs {
        pattern: pattern.into(),
        path,
        include,
        ..GrepArgs::default()
    };
    GrepRequest::new(args).unwrap().0
}

#[test]
fn the_glob_script() {
    assert_eq!(
        glob_line("rg", &glob("**/*.rs", None), Some("-src")).script(),
        "exec 'rg' --no-config --files --null --glob='**/*.rs' --no-ignore --hidden \
         --glob='!**/.git' --glob='!**/.git/**' --glob='!**/.svn' --glob='!**/.svn/**' \
         --glob='!**/.hg' --glob='!**/.hg/**' --glob='!**/.bzr' --glob='!**/.bzr/**' \
         --glob='!**/.jj' --glob='!**/.jj/**' --glob='!**/.sl' --glob='!**/.sl/**' -- '-src'"
    );
}

#[test]
fn the_grep_script() {
    assert_eq!(
        grep_line("/opt/rg", &grep("-e it's", Some("*.{ts,tsx}"), None)).script(),
        r"exec '/opt/rg' --no-config --json --binary --no-mmap --regexp='-e it'\''s' --glob='*.{ts,tsx}'"
    );
    assert_eq!(
        grep_line("rg", &grep("x", None, Some("a b"))).script(),
        "exec 'rg' --no-config --json --binary --no-mmap --regexp='x' -- 'a b'"
    );
}

#[test]
fn probe_lines() {
    assert_eq!(
        grep_probe_line("rg", Probe::Ignored, &grep("x", Some("*.rs"), Some("p"))).script(),
        "exec 'rg' --no-config --files-with-matches --null --sort=path --binary --no-mmap \
         --regexp='x' --glob='*.rs' --no-ignore --hidden \
         --glob='!**/.git' --glob='!**/.git/**' --glob='!**/.svn' --glob='!**/.svn/**' \
         --glob='!**/.hg' --glob='!**/.hg/**' --glob='!**/.bzr' --glob='!**/.bzr/**' \
         --glob='!**/.jj' --glob='!**/.jj/**' --glob='!**/.sl' --glob='!**/.sl/**' -- 'p'"
    );
    assert_eq!(
        grep_probe_line("rg", Probe::Case, &grep("x", None, None)).script(),
        "exec 'rg' --no-config --files-with-matches --null --sort=path --binary --no-mmap \
         --regexp='x' --ignore-case"
    );
    assert_eq!(
        glob_case_line("rg", &glob("A*", None), None).script(),
        "exec 'rg' --no-config --files --null --iglob='A*' --no-ignore --hidden \
         --glob='!**/.git' --glob='!**/.git/**' --glob='!**/.svn' --glob='!**/.svn/**' \
         --glob='!**/.hg' --glob='!**/.hg/**' --glob='!**/.bzr' --glob='!**/.bzr/**' \
         --glob='!**/.jj' --glob='!**/.jj/**' --glob='!**/.sl' --glob='!**/.sl/**' --sort=path"
    );
}

#[test]
fn optional_arguments_add_their_flags() {
    let mut r = grep("x", Some("*.rs"), None);
    r.ignore_case = true;
    r.literal = true;
    r.file_type = Some("rust".into());
    r.context = crate::request::Context {
        before: 2,
        after: 2,
        function: false,
    };
    assert_eq!(
        grep_line("rg", &r).script(),
        "exec 'rg' --no-config --json --binary --no-mmap --ignore-case --fixed-strings --context=2 \
         --type='rust' --regexp='x' --glob='*.rs'"
    );
    r.output = Output::Files;
    assert_eq!(
        grep_line("rg", &r).script(),
        "exec 'rg' --no-config --files-with-matches --null --binary --no-mmap --ignore-case \
         --fixed-strings --type='rust' --regexp='x' --glob='*.rs'",
        "context is content's only"
    );
    r.output = Output::Count;
    r.multiline = true;
    assert_eq!(
        grep_line("rg", &r).script(),
        "exec 'rg' --no-config --json --binary --no-mmap --ignore-case --fixed-strings --multiline \
         --multiline-dotall --type='rust' --regexp='x' --glob='*.rs'",
        "a multiline count reads --json"
    );
    // Probes search the same way, files only; ignoring case already,
    // the case probe adds nothing.
    assert_eq!(
        grep_probe_line("rg", Probe::Case, &r).script(),
        "exec 'rg' --no-config --files-with-matches --null --sort=path --binary --no-mmap --ignore-case \
         --fixed-strings --multiline --multiline-dotall --type='rust' --regexp='x' --glob='*.rs'"
    );
    let mut g = glob("*.MD", None);
    g.ignore_case = true;
    let script = glob_line("rg", &g, None).script();
    assert!(script.contains("--iglob='*.MD'"), "{script}");
}

/// The words the script quotes are the arguments rg receives, whole.
#[test]
fn the_arguments_are_the_scripts_words_unquoted() {
    let line = grep_line(
        "C:\\tools\\rg.exe",
        &grep("-e it's", Some("*.{ts,tsx}"), Some("a b")),
    );
    assert_eq!(line.program(), "C:\\tools\\rg.exe");
    let args: Vec<Cow<'_, str>> = line.args().collect();
    assert_eq!(
        args,
        [
            "--no-config",
            "--json",
            "--binary",
            "--no-mmap",
            "--regexp=-e it's",
            "--glob=*.{ts,tsx}",
            "--",
            "a b"
        ]
    );
    // Each word of the script is one argument (shlex as the oracle).
    let words = shlex::split(&line.script()).unwrap();
    assert_eq!(words[0], "exec");
    assert_eq!(words[1], line.program());
    assert_eq!(words[2..], args);
}
