//! The exact rg command lines of SPEC §2: built once as an argument list
//! ([`CommandLine`], in `line`), then shown and run in the form each OS
//! needs. Pure: builds values from a request, runs nothing.
//!
//! - Unix: [`CommandLine::script`] joins the words into the one `sh -c` string,
//!   every model value through the one quoting function. The string starts
//!   with `exec`, so sh becomes rg instead of forking it (dash, for one,
//!   forks even a lone command): one process less per call, rg leads its
//!   own process group, its exit status and any signal that killed it come
//!   back unchanged, and the parent-death signal the runner sets lands on
//!   rg itself.
//! - Windows (SPEC §10): rg is started directly with `CommandLine::args`, each
//!   model value one argument, so nothing is quoted and nothing can be
//!   injected; `CommandLine::windows_command_line` is the command line that
//!   carries them, as `CreateProcessW` receives it. (Each form is built
//!   where it runs, and for the tests and the fuzz targets, which check
//!   both.)
//!
//! Either way the words are the same: the argument list is built here
//! once, and only its rendering differs.

mod line;

use std::ffi::OsString;
use std::path::Path;

use crate::request::{GlobRequest, GrepRequest, Output};
use crate::tool::VCS_DIRS;
pub use line::{CommandLine, SHOWN_AS};

/// `rg --files --null --glob=<pattern> --no-ignore --hidden` + VCS
/// excludes [`-- <root>`]: `root` is the request's path, or the directory
/// the walk starts from (`search::glob::walk_root`). `ignore_case` makes
/// the pattern an `--iglob`.
pub fn glob_line(rg: &str, r: &GlobRequest, root: Option<&str>) -> CommandLine {
    let flag = if r.ignore_case { "--iglob=" } else { "--glob=" };
    let mut line = glob_words(rg, flag, r, r.follow);
    push_path(&mut line, root);
    line
}

/// `--files` with the pattern as `flag`, then the exclude after every
/// other glob (SPEC §3a), and `--follow` when `follow`.
fn glob_words(rg: &str, flag: &'static str, r: &GlobRequest, follow: bool) -> CommandLine {
    let mut line = files_line(rg);
    if follow {
        line.flag("--follow");
    }
    line.valued(flag, &r.pattern);
    line.flags(&["--no-ignore", "--hidden"]);
    push_vcs_excludes(&mut line);
    push_exclude(&mut line, r.exclude.as_deref());
    line
}

/// `--glob=!<exclude>`: last, so it wins over every glob before it.
fn push_exclude(line: &mut CommandLine, exclude: Option<&str>) {
    if let Some(exclude) = exclude {
        line.valued("--glob=", &format!("!{exclude}"));
    }
}

fn push_vcs_excludes(line: &mut CommandLine) {
    for dir in VCS_DIRS {
        line.valued("--glob=", &format!("!**/{dir}"));
        line.valued("--glob=", &format!("!**/{dir}/**"));
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
    /// Follow symbolic links (`--follow`), for a search without `follow`.
    Links,
}

/// A probe of an empty grep: the same search (pattern, include, path and
/// the flags asked for) with one rule relaxed, files only, NUL-separated
/// and in path order (so whatever the probe's byte cap cuts off, what it
/// shows is the same every run).
pub fn grep_probe_line(rg: &str, probe: Probe, r: &GrepRequest) -> CommandLine {
    // A probe lists files: the request's own output mode and context do
    // not apply.
    let files = GrepRequest {
        output: Output::Files,
        ..r.clone()
    };
    let mut line = grep_words(
        rg,
        &["--files-with-matches", "--null", "--sort=path"],
        &files,
    );
    match probe {
        Probe::Ignored => {
            line.flags(&["--no-ignore", "--hidden"]);
            push_vcs_excludes(&mut line);
        }
        Probe::Case if !r.ignore_case => line.flag("--ignore-case"),
        Probe::Links if !r.follow => line.flag("--follow"),
        // Already in the search's own flags.
        Probe::Case | Probe::Links => {}
    }
    push_path(&mut line, r.path.as_deref());
    line
}

/// `rg --type-list`: the file types this rg knows, one per line.
pub fn type_list_line(rg: &str) -> CommandLine {
    let mut line = CommandLine::new(rg);
    line.flags(&["--no-config", "--type-list"]);
    line
}

/// `rg --version`, for `--explain`.
pub fn version_line(rg: &str) -> CommandLine {
    let mut line = CommandLine::new(rg);
    line.flag("--version");
    line
}

/// The case probe of an empty glob: the pattern as `--iglob`, in path
/// order, walked from `root` as the search was.
pub fn glob_case_line(rg: &str, r: &GlobRequest, root: Option<&str>) -> CommandLine {
    let mut line = glob_words(rg, "--iglob=", r, r.follow);
    line.flag("--sort=path");
    push_path(&mut line, root);
    line
}

/// The link probe of an empty glob: the same search following symbolic
/// links, in path order, walked from `root` as the search was.
pub fn glob_links_line(rg: &str, r: &GlobRequest, root: Option<&str>) -> CommandLine {
    let flag = if r.ignore_case { "--iglob=" } else { "--glob=" };
    let mut line = glob_words(rg, flag, r, true);
    line.flag("--sort=path");
    push_path(&mut line, root);
    line
}

/// `rg --json --binary --no-mmap --regexp=<pattern>` \[`--glob=<include>`\]
/// \[`-- <path>`\], with the flags of the arguments asked for (SPEC §3a).
///
/// `--binary` makes rg search binary files during a walk too (it skips them
/// silently otherwise, so a log with one stray NUL reads as "no match");
/// their `end` records then carry a `binary_offset`, and grep lists them
/// without their lines (SPEC §2). `--no-mmap`: rg memory-maps a few files
/// named as paths, and searching a map it cannot turn a binary file's NUL
/// bytes into line ends as it does reading, so `^x` after a NUL would match
/// in a walk and not in the file named alone (one file is a tree of one
/// file, SPEC §3a). `output` files and count print rg's own
/// `--files-with-matches` and `--count` listings, NUL after each path
/// (`--with-filename`: rg prints a bare number for a search of one file,
/// and one file is a tree of one file, SPEC §3a); a count of a multiline search reads `--json`'s per-file `matched_lines`,
/// since rg's `--count` counts a match that spans lines once.
pub fn grep_line(rg: &str, r: &GrepRequest) -> CommandLine {
    let mut line = grep_words(rg, output_flags(r), r);
    push_path(&mut line, r.path.as_deref());
    line
}

/// The flags that pick what rg prints for the output mode of `r`.
fn output_flags(r: &GrepRequest) -> &'static [&'static str] {
    match r.output {
        Output::Content => &["--json"],
        Output::Files => &["--files-with-matches", "--null"],
        Output::Count if r.multiline => &["--json"],
        Output::Count => &["--count", "--with-filename", "--null"],
    }
}

/// The grep `r` over the files `paths` instead of its walk (the index's
/// candidates, doc/SPEC.md §11): [`grep_line`]'s words, then `--` and as
/// many paths as fit in `line::LINE_MAX`, in as many lines as that takes (at
/// least one, with `empty` as its only path when `paths` is empty: a
/// directory that holds nothing, so rg still judges the pattern and the
/// type as the scan's rg does). rg searches a path it is given whatever
/// its ignore rules, globs and type say: the caller gives only the files
/// the walk would search.
pub fn grep_over_lines(
    rg: &str,
    r: &GrepRequest,
    paths: &[OsString],
    empty: &Path,
) -> Vec<CommandLine> {
    let mut head = grep_words(rg, output_flags(r), r);
    head.flag("--");
    line::over_paths(head, paths, empty)
}

/// `rg --no-config --files --null`: the files a search with no path and
/// no filter searches (the index's walk is checked against it).
pub fn files_line(rg: &str) -> CommandLine {
    let mut line = CommandLine::new(rg);
    line.flags(&["--no-config", "--files", "--null"]);
    line
}

/// `rg --no-config --files --null`, with the type and globs of the grep
/// `r` and its path: the files its walk searches, as rg names them.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub fn grep_files_line(rg: &str, r: &GrepRequest) -> CommandLine {
    let mut line = files_line(rg);
    if r.follow {
        line.flag("--follow");
    }
    if let Some(file_type) = &r.file_type {
        line.valued("--type=", file_type);
    }
    if let Some(include) = &r.include {
        line.valued("--glob=", include);
    }
    push_exclude(&mut line, r.exclude.as_deref());
    push_path(&mut line, r.path.as_deref());
    line
}

/// `rg --no-config <output flags> --binary --no-mmap <search flags>
/// --regexp=<pattern>` \[`--glob=<include>`\] \[`--glob=!<exclude>`\]:
/// what grep and its probes share.
fn grep_words(rg: &str, output: &[&'static str], r: &GrepRequest) -> CommandLine {
    let mut line = CommandLine::new(rg);
    line.flag("--no-config");
    line.flags(output);
    line.flags(&["--binary", "--no-mmap"]);
    if r.ignore_case {
        line.flag("--ignore-case");
    }
    if r.literal {
        line.flag("--fixed-strings");
    }
    if r.multiline {
        line.flags(&["--multiline", "--multiline-dotall"]);
    }
    if r.follow {
        line.flag("--follow");
    }
    if r.output == Output::Content {
        let c = r.context;
        if c.before > 0 && c.before == c.after {
            line.counted("--context", c.before);
        } else {
            if c.before > 0 {
                line.counted("--before-context", c.before);
            }
            if c.after > 0 {
                line.counted("--after-context", c.after);
            }
        }
    }
    if let Some(file_type) = &r.file_type {
        line.valued("--type=", file_type);
    }
    line.valued("--regexp=", &r.pattern);
    if let Some(include) = &r.include {
        line.valued("--glob=", include);
    }
    push_exclude(&mut line, r.exclude.as_deref());
    line
}

fn push_path(line: &mut CommandLine, path: Option<&str>) {
    if let Some(path) = path {
        line.flag("--");
        line.value(path);
    }
}

#[cfg(test)]
#[path = "../../tests/unit/rg/command.rs"]
mod tests;
