//! The options of SPEC §1, resolved once into the configuration every other
//! module sees. Nothing here knows clap: `cli` hands over the [`Options`]
//! as given, [`Settings::resolve`] looks up what they name (the workdir and
//! spill directory made absolute, rg found on PATH), and every front-end
//! (`call`, `mcp`) reuses the one value.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

#[cfg(windows)]
mod windows;

/// Order of glob results (SPEC §2); ties are always broken by path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GlobSort {
    /// Modification time, newest first.
    #[default]
    Newest,
    /// Modification time, oldest first (the seed's `--sort=modified`).
    Oldest,
    /// Path, byte order.
    Path,
}

/// The caps of SPEC §1. All are at least 1 (the CLI's types enforce it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Paths one glob keeps inline.
    pub glob_max_results: usize,
    /// Matched lines one grep keeps inline.
    pub grep_max_matches: usize,
    /// Bytes of one line preview (of the original line, before decoding).
    pub grep_max_line_bytes: usize,
    /// Raw rg stdout bytes one search may parse.
    pub raw_output_max_bytes: u64,
}

/// The shipped caps (SPEC §1): the command line's defaults.
pub const DEFAULT_LIMITS: Limits = Limits {
    glob_max_results: 100,
    grep_max_matches: 250,
    grep_max_line_bytes: 2000,
    raw_output_max_bytes: 20_000_000,
};

/// The shipped budget for one search, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// How a call's result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// The model-facing text of SPEC §4.
    #[default]
    Text,
    /// One JSON object (SPEC §7).
    Json,
}

/// The options as a front-end took them, before anything is looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// `-C`: the workdir as given (relative to the current directory).
    pub cwd: Option<PathBuf>,
    pub limits: Limits,
    pub timeout_ms: u64,
    /// `--rg` as given: a name to look up on PATH, or a path.
    pub rg: String,
    pub glob_sort: GlobSort,
    pub format: Format,
    pub spill_dir: Option<PathBuf>,
    pub spill_hint: String,
    pub explain: bool,
    pub mcp_structured: bool,
}

/// Everything one call needs besides its request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Absolute workdir rg runs in; output paths are shown relative to it.
    pub workdir: PathBuf,
    /// The ripgrep executable, resolved in the caller's context.
    pub rg: Rg,
    pub limits: Limits,
    /// Budget for one search, in milliseconds (at least 1).
    pub timeout_ms: u64,
    pub glob_sort: GlobSort,
    pub format: Format,
    /// Absolute directory for complete results of capped searches.
    pub spill_dir: Option<PathBuf>,
    /// Printed after a spill locator.
    pub spill_hint: String,
    /// Write an account of each run to stderr.
    pub explain: bool,
    /// MCP: also send each result as `structuredContent`, with an
    /// `outputSchema` on each tool (SPEC §9).
    pub mcp_structured: bool,
}

impl Settings {
    /// Resolve `options` in this process's context: its current directory
    /// and its `PATH` (SPEC §1, §2).
    pub fn resolve(options: Options) -> Self {
        let current = std::env::current_dir().ok();
        let absolute = |dir: Option<&Path>| match (dir, &current) {
            (Some(dir), Some(current)) => current.join(dir),
            (Some(dir), None) => dir.to_path_buf(),
            (None, Some(current)) => current.clone(),
            (None, None) => PathBuf::from("."),
        };
        // A missing directory is not an error here: the search reports it,
        // naming the tool.
        let workdir = absolute(options.cwd.as_deref());
        let spill_dir = options.spill_dir.as_deref().map(|d| absolute(Some(d)));
        let rg = Rg::resolve(
            &options.rg,
            current.as_deref(),
            std::env::var_os("PATH").as_deref(),
        );
        Self {
            workdir,
            rg,
            limits: options.limits,
            timeout_ms: options.timeout_ms,
            glob_sort: options.glob_sort,
            format: options.format,
            spill_dir,
            spill_hint: options.spill_hint,
            explain: options.explain,
            mcp_structured: options.mcp_structured,
        }
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }
}

/// The ripgrep executable (SPEC §2): resolved once, in the CALLER's
/// context, before anything runs in the workdir, so a `./rg` planted in
/// the searched tree is never what runs. The `sh -c` string carries the
/// absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rg {
    /// As given: `--rg`, `DSH_SEARCH_RG`, or `rg`.
    pub given: String,
    /// The absolute path to run, or why there is none.
    pub resolved: Result<PathBuf, RgMissing>,
}

/// Why the given rg cannot be run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RgMissing {
    /// A bare name that no absolute PATH directory holds.
    NotOnPath,
    /// A path (absolute here) with nothing there.
    NoSuchFile(PathBuf),
    /// There, but not an executable file (permissions, or a directory).
    NotExecutable(PathBuf),
    /// The path is not valid UTF-8, so it cannot be quoted into `sh -c`.
    NotUtf8(PathBuf),
}

impl Rg {
    /// Resolve `given` as a shell would, but in the caller's context: a
    /// value with a `/` is a path, relative to `cwd` (the caller's current
    /// directory); a bare name is looked up in `path_var`, skipping empty
    /// and relative entries (which would name the workdir once sh runs
    /// there). The first executable file wins.
    ///
    /// Windows has its own rules: see `settings/windows.rs` (SPEC §10).
    pub fn resolve(given: &str, cwd: Option<&Path>, path_var: Option<&OsStr>) -> Self {
        #[cfg(windows)]
        let resolved = windows::resolve(given, cwd, path_var);
        #[cfg(unix)]
        let resolved = if given.contains('/') {
            let path = clean(&match cwd {
                Some(cwd) => cwd.join(given),
                None => PathBuf::from(given),
            });
            match executable(&path) {
                Executable::Yes => Ok(path),
                Executable::No => Err(RgMissing::NotExecutable(path)),
                Executable::Missing => Err(RgMissing::NoSuchFile(path)),
            }
        } else {
            on_path(given, path_var)
        };
        let resolved = resolved.and_then(|path| match path.to_str() {
            Some(_) => Ok(path),
            None => Err(RgMissing::NotUtf8(path)),
        });
        Self {
            given: given.to_owned(),
            resolved,
        }
    }

    /// The resolved path as text (for `sh -c`), if there is one.
    pub fn path(&self) -> Option<&str> {
        self.resolved.as_ref().ok().and_then(|p| p.to_str())
    }
}

/// The search path when `PATH` is not set at all (some agent clients start
/// MCP servers with an emptied environment): the one `sh` itself uses.
#[cfg(unix)]
const DEFAULT_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

#[cfg(unix)]
fn on_path(name: &str, path_var: Option<&OsStr>) -> Result<PathBuf, RgMissing> {
    if name.is_empty() {
        return Err(RgMissing::NotOnPath);
    }
    let mut not_executable = None;
    let path_var = path_var.unwrap_or(OsStr::new(DEFAULT_PATH));
    for dir in std::env::split_paths(path_var) {
        if !dir.is_absolute() {
            continue;
        }
        let candidate = clean(&dir.join(name));
        match executable(&candidate) {
            Executable::Yes => return Ok(candidate),
            Executable::No => {
                not_executable.get_or_insert(candidate);
            }
            Executable::Missing => {}
        }
    }
    Err(not_executable.map_or(RgMissing::NotOnPath, RgMissing::NotExecutable))
}

/// Whether a path names something this process may execute.
#[cfg(unix)]
enum Executable {
    Yes,
    /// There, but not an executable file (or not reachable).
    No,
    Missing,
}

/// Whether `path` is a file this process may execute (following symlinks).
#[cfg(unix)]
fn executable(path: &Path) -> Executable {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            let mode = rustix::fs::Access::EXEC_OK;
            match rustix::fs::accessat(rustix::fs::CWD, path, mode, rustix::fs::AtFlags::empty()) {
                Ok(()) => Executable::Yes,
                Err(_) => Executable::No,
            }
        }
        Ok(_) => Executable::No,
        // There, perhaps, but a directory on the way may not be entered.
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => Executable::No,
        Err(_) => Executable::Missing,
    }
}

/// `path` without `.` components (`/safe/./rg` is `/safe/rg`); `..` stays,
/// as it may cross a symlink.
fn clean(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn write(path: &Path, mode: u32) {
        std::fs::write(path, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn rg_is_resolved_in_the_callers_context() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for sub in ["a", "b", "c"] {
            std::fs::create_dir(root.join(sub)).unwrap();
        }
        write(&root.join("a/rg"), 0o644);
        write(&root.join("b/rg"), 0o755);
        write(&root.join("c/tool"), 0o755);
        let path = std::env::join_paths([
            "",
            "rel",
            &root.join("a").to_string_lossy(),
            &root.join("b").to_string_lossy(),
        ])
        .unwrap();
        let rg = Rg::resolve("rg", Some(root), Some(&path));
        assert_eq!(
            rg.resolved,
            Ok(root.join("b/rg")),
            "skips empty, relative and non-executable entries"
        );
        let only_a = root.join("a");
        assert_eq!(
            Rg::resolve("rg", None, Some(only_a.as_os_str())).resolved,
            Err(RgMissing::NotExecutable(root.join("a/rg")))
        );
        assert_eq!(
            Rg::resolve("rg", None, None).resolved,
            Err(RgMissing::NotOnPath)
        );
        assert_eq!(
            Rg::resolve("", None, Some(&path)).resolved,
            Err(RgMissing::NotOnPath)
        );
        assert_eq!(
            Rg::resolve("./c/tool", Some(root), None).resolved,
            Ok(root.join("c/tool")),
            "relative to the caller's directory, `.` removed"
        );
        assert_eq!(
            Rg::resolve("c/missing", Some(root), None).resolved,
            Err(RgMissing::NoSuchFile(root.join("c/missing")))
        );
        assert_eq!(
            Rg::resolve("./c", Some(root), None).resolved,
            Err(RgMissing::NotExecutable(root.join("c")))
        );
    }
}
