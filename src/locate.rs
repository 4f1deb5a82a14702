//! Where the ripgrep executable is found (SPEC §2, §10): `--rg` /
//! `DSH_SEARCH_RG` as given, else the `rg` beside dsh-search's own
//! executable, else PATH. Looked up once, in the caller's context, never
//! in the workdir; `settings` keeps the answer ([`Rg`]) for every call.
//! Windows' half is `locate/windows.rs`.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

#[cfg(windows)]
mod windows;

/// The ripgrep executable (SPEC §2): resolved once, in the CALLER's
/// context, before anything runs in the workdir, so a `./rg` planted in
/// the searched tree is never what runs. The `sh -c` string carries the
/// absolute path.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rg {
    /// As given: `--rg`, `DSH_SEARCH_RG`, or `rg`.
    pub given: String,
    /// The absolute path to run, or why there is none.
    pub resolved: Result<PathBuf, RgMissing>,
    /// Where it was looked for and, when found, where it came from.
    pub source: RgSource,
}

/// The name that means "ripgrep, wherever this install keeps it": the
/// default of `--rg` / `DSH_SEARCH_RG`.
pub const DEFAULT_RG: &str = "rg";

/// How the rg to run was found (`--explain` says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RgSource {
    /// A value with a `/`, from `--rg` or `DSH_SEARCH_RG`: that file.
    Given,
    /// The default `rg`, found in dsh-search's own directory: the install
    /// brought it (the Python wheel depends on the `ripgrep` wheel, which puts
    /// `rg` in the same `bin/`; the release archives ship it beside).
    BesideExe,
    /// A bare name looked up on PATH (for the default `rg`: nothing was
    /// beside dsh-search).
    Path,
}

/// Why the given rg cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// The default name `rg` (also when given as `--rg rg`) is first
    /// looked for beside `exe`, dsh-search's own executable with symlinks
    /// resolved (pipx links `~/.local/bin/dsh-search` into its venv's
    /// `bin/`, where the `ripgrep` wheel put `rg`): see [`beside_exe`].
    /// Any other value, or no `rg` there, goes the PATH way above.
    ///
    /// Windows has its own rules: see `locate/windows.rs` (SPEC §10).
    pub fn resolve(
        given: &str,
        cwd: Option<&Path>,
        path_var: Option<&OsStr>,
        exe: Option<&Path>,
    ) -> Self {
        #[cfg(windows)]
        let (resolved, source) = windows::resolve(given, cwd, path_var, exe);
        #[cfg(unix)]
        let (resolved, source) = if given.contains('/') {
            let path = joined(cwd, given);
            let resolved = match executable(&path) {
                Executable::Yes => Ok(path),
                Executable::No => Err(RgMissing::NotExecutable(path)),
                Executable::Missing => Err(RgMissing::NoSuchFile(path)),
            };
            (resolved, RgSource::Given)
        } else if let Some(beside) = exe.filter(|_| given == DEFAULT_RG).and_then(beside_exe) {
            (Ok(beside), RgSource::BesideExe)
        } else {
            (on_path(given, path_var), RgSource::Path)
        };
        let resolved = resolved.and_then(|path| match path.to_str() {
            Some(_) => Ok(path),
            None => Err(RgMissing::NotUtf8(path)),
        });
        Self {
            given: given.to_owned(),
            resolved,
            source,
        }
    }

    /// The resolved path as text (for `sh -c`), if there is one.
    pub fn path(&self) -> Option<&str> {
        self.resolved.as_ref().ok().and_then(|p| p.to_str())
    }
}

/// The `rg` in the directory of `exe` (dsh-search's own executable), if
/// that is an executable regular file with a UTF-8 path. `exe` is resolved
/// through symlinks first, so a link on PATH to an install's binary finds
/// the install's `rg`, not one beside the link. This is the install's own
/// directory, never the workdir: nothing here depends on where the search
/// runs. Anything unreadable (no `exe`, a deleted binary, a directory
/// named `rg`) is simply no candidate: PATH is searched next.
#[cfg(unix)]
fn beside_exe(exe: &Path) -> Option<PathBuf> {
    let exe = std::fs::canonicalize(exe).ok()?;
    let candidate = exe.parent()?.join(DEFAULT_RG);
    (matches!(executable(&candidate), Executable::Yes) && candidate.to_str().is_some())
        .then_some(candidate)
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
        let candidate = joined(Some(&dir), name);
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

/// `name` in `dir` (with no `dir`, `name` as it is), without `.` components
/// (`/safe/./rg` is `/safe/rg`); `..` stays, as it may cross a symlink.
fn joined(dir: Option<&Path>, name: &str) -> PathBuf {
    let path = dir.map_or_else(|| PathBuf::from(name), |dir| dir.join(name));
    path.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

#[cfg(test)]
#[cfg(unix)]
#[path = "../tests/unit/locate.rs"]
mod tests;
