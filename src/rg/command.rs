//! The exact rg command lines of SPEC §2, assembled into the one `sh -c`
//! string. Pure: builds text from a request, runs nothing.
//!
//! The string starts with `exec`, so sh becomes rg instead of forking it
//! (dash, for one, forks even a lone command): one process less per call,
//! rg leads its own process group, its exit status and any signal that
//! killed it come back unchanged, and the parent-death signal the runner
//! sets lands on rg itself.

use super::quote::quote;
use crate::request::{GlobRequest, GrepRequest, Output};
use crate::tool::VCS_DIRS;

/// `rg --files --null --glob=<pattern> --no-ignore --hidden` + VCS
/// excludes [`-- <root>`]: `root` is the request's path, or the directory
/// the walk starts from (`search::glob::walk_root`). `ignore_case` makes
/// the pattern an `--iglob`.
pub fn glob_script(rg: &str, r: &GlobRequest, root: Option<&str>) -> String {
    let flag = if r.ignore_case { "--iglob" } else { "--glob" };
    let mut words = glob_words(rg, flag, &r.pattern);
    push_path(&mut words, root);
    words.join(" ")
}

fn glob_words(rg: &str, flag: &str, pattern: &str) -> Vec<String> {
    let mut words = vec![
        "exec".to_owned(),
        quote(rg),
        "--no-config".to_owned(),
        "--files".to_owned(),
        "--null".to_owned(),
        format!("{flag}={}", quote(pattern)),
        "--no-ignore".to_owned(),
        "--hidden".to_owned(),
    ];
    push_vcs_excludes(&mut words);
    words
}

fn push_vcs_excludes(words: &mut Vec<String>) {
    for dir in VCS_DIRS {
        words.push(format!("--glob={}", quote(&format!("!**/{dir}"))));
        words.push(format!("--glob={}", quote(&format!("!**/{dir}/**"))));
    }
}

/// One rule an empty search's probe relaxes (SPEC §4a).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// grep: search what ignore files and hidden-file rules skip (the VCS
    /// directories still excluded).
    Ignored,
    /// Match regardless of case (`--ignore-case`; glob: `--iglob`).
    Case,
}

/// A probe of an empty grep: the same search (pattern, include, path and
/// the flags asked for) with one rule relaxed, files only, NUL-separated
/// and in path order (so whatever the probe's byte cap cuts off, what it
/// shows is the same every run).
pub fn grep_probe_script(rg: &str, probe: Probe, r: &GrepRequest) -> String {
    // A probe lists files: the request's own output mode and context do
    // not apply.
    let files = GrepRequest {
        output: Output::Files,
        ..r.clone()
    };
    let mut words = grep_words(
        rg,
        &["--files-with-matches", "--null", "--sort=path", "--binary"],
        &files,
    );
    match probe {
        Probe::Ignored => {
            words.extend(["--no-ignore".to_owned(), "--hidden".to_owned()]);
            push_vcs_excludes(&mut words);
        }
        Probe::Case if !r.ignore_case => words.push("--ignore-case".to_owned()),
        Probe::Case => {}
    }
    push_path(&mut words, r.path.as_deref());
    words.join(" ")
}

/// `rg --type-list`: the file types this rg knows, one per line.
pub fn type_list_script(rg: &str) -> String {
    format!("exec {} --no-config --type-list", quote(rg))
}

/// The case probe of an empty glob: the pattern as `--iglob`, in path
/// order, walked from `root` as the search was.
pub fn glob_case_script(rg: &str, r: &GlobRequest, root: Option<&str>) -> String {
    let mut words = glob_words(rg, "--iglob", &r.pattern);
    words.push("--sort=path".to_owned());
    push_path(&mut words, root);
    words.join(" ")
}

/// `rg --json --binary --regexp=<pattern>` [`--glob=<include>`] [`-- <path>`],
/// with the flags of the arguments asked for (SPEC §3a).
///
/// `--binary` makes rg search binary files during a walk too (it skips them
/// silently otherwise, so a log with one stray NUL reads as "no match");
/// their `end` records then carry a `binary_offset`, and grep lists them
/// without their lines (SPEC §2). `output` files and count print rg's own
/// `--files-with-matches` and `--count` listings, NUL after each path; a
/// count of a multiline search reads `--json`'s per-file `matched_lines`,
/// since rg's `--count` counts a match that spans lines once.
pub fn grep_script(rg: &str, r: &GrepRequest) -> String {
    let output: &[&str] = match r.output {
        Output::Content => &["--json", "--binary"],
        Output::Files => &["--files-with-matches", "--null", "--binary"],
        Output::Count if r.multiline => &["--json", "--binary"],
        Output::Count => &["--count", "--null", "--binary"],
    };
    let mut words = grep_words(rg, output, r);
    push_path(&mut words, r.path.as_deref());
    words.join(" ")
}

/// `rg --no-config <output flags> <search flags> --regexp=<pattern>`
/// [`--glob=<include>`]: what grep and its probes share.
fn grep_words(rg: &str, output: &[&str], r: &GrepRequest) -> Vec<String> {
    let mut words = vec!["exec".to_owned(), quote(rg), "--no-config".to_owned()];
    words.extend(output.iter().map(|flag| (*flag).to_owned()));
    if r.ignore_case {
        words.push("--ignore-case".to_owned());
    }
    if r.literal {
        words.push("--fixed-strings".to_owned());
    }
    if r.multiline {
        words.extend(["--multiline".to_owned(), "--multiline-dotall".to_owned()]);
    }
    if r.output == Output::Content {
        let c = r.context;
        if c.before > 0 && c.before == c.after {
            words.push(format!("--context={}", c.before));
        } else {
            if c.before > 0 {
                words.push(format!("--before-context={}", c.before));
            }
            if c.after > 0 {
                words.push(format!("--after-context={}", c.after));
            }
        }
    }
    if let Some(file_type) = &r.file_type {
        words.push(format!("--type={}", quote(file_type)));
    }
    words.push(format!("--regexp={}", quote(&r.pattern)));
    if let Some(include) = &r.include {
        words.push(format!("--glob={}", quote(include)));
    }
    words
}

fn push_path(words: &mut Vec<String>, path: Option<&str>) {
    if let Some(path) = path {
        words.push("--".to_owned());
        words.push(quote(path));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(pattern: &str, path: Option<&str>) -> GlobRequest {
        GlobRequest::new(pattern.into(), path.map(Into::into)).unwrap()
    }

    fn grep(pattern: &str, include: Option<&str>, path: Option<&str>) -> GrepRequest {
        GrepRequest::new(
            pattern.into(),
            path.map(Into::into),
            include.map(Into::into),
        )
        .unwrap()
    }

    #[test]
    fn glob_line() {
        assert_eq!(
            glob_script("rg", &glob("**/*.rs", None), Some("-src")),
            "exec 'rg' --no-config --files --null --glob='**/*.rs' --no-ignore --hidden \
             --glob='!**/.git' --glob='!**/.git/**' --glob='!**/.svn' --glob='!**/.svn/**' \
             --glob='!**/.hg' --glob='!**/.hg/**' --glob='!**/.bzr' --glob='!**/.bzr/**' \
             --glob='!**/.jj' --glob='!**/.jj/**' --glob='!**/.sl' --glob='!**/.sl/**' -- '-src'"
        );
    }

    #[test]
    fn grep_line() {
        assert_eq!(
            grep_script("/opt/rg", &grep("-e it's", Some("*.{ts,tsx}"), None)),
            r"exec '/opt/rg' --no-config --json --binary --regexp='-e it'\''s' --glob='*.{ts,tsx}'"
        );
        assert_eq!(
            grep_script("rg", &grep("x", None, Some("a b"))),
            "exec 'rg' --no-config --json --binary --regexp='x' -- 'a b'"
        );
    }

    #[test]
    fn probe_lines() {
        assert_eq!(
            grep_probe_script("rg", Probe::Ignored, &grep("x", Some("*.rs"), Some("p"))),
            "exec 'rg' --no-config --files-with-matches --null --sort=path --binary \
             --regexp='x' --glob='*.rs' --no-ignore --hidden \
             --glob='!**/.git' --glob='!**/.git/**' --glob='!**/.svn' --glob='!**/.svn/**' \
             --glob='!**/.hg' --glob='!**/.hg/**' --glob='!**/.bzr' --glob='!**/.bzr/**' \
             --glob='!**/.jj' --glob='!**/.jj/**' --glob='!**/.sl' --glob='!**/.sl/**' -- 'p'"
        );
        assert_eq!(
            grep_probe_script("rg", Probe::Case, &grep("x", None, None)),
            "exec 'rg' --no-config --files-with-matches --null --sort=path --binary \
             --regexp='x' --ignore-case"
        );
        assert_eq!(
            glob_case_script("rg", &glob("A*", None), None),
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
        };
        assert_eq!(
            grep_script("rg", &r),
            "exec 'rg' --no-config --json --binary --ignore-case --fixed-strings --context=2 \
             --type='rust' --regexp='x' --glob='*.rs'"
        );
        r.output = Output::Files;
        assert_eq!(
            grep_script("rg", &r),
            "exec 'rg' --no-config --files-with-matches --null --binary --ignore-case \
             --fixed-strings --type='rust' --regexp='x' --glob='*.rs'",
            "context is content's only"
        );
        r.output = Output::Count;
        r.multiline = true;
        assert_eq!(
            grep_script("rg", &r),
            "exec 'rg' --no-config --json --binary --ignore-case --fixed-strings --multiline \
             --multiline-dotall --type='rust' --regexp='x' --glob='*.rs'",
            "a multiline count reads --json"
        );
        // Probes search the same way, files only; ignoring case already,
        // the case probe adds nothing.
        assert_eq!(
            grep_probe_script("rg", Probe::Case, &r),
            "exec 'rg' --no-config --files-with-matches --null --sort=path --binary --ignore-case \
             --fixed-strings --multiline --multiline-dotall --type='rust' --regexp='x' --glob='*.rs'"
        );
        let mut g = glob("*.MD", None);
        g.ignore_case = true;
        assert!(glob_script("rg", &g, None).contains("--iglob='*.MD'"));
    }
}
