//! Where rg is found on Windows (SPEC §10): beside dsh-search's own
//! executable first, then in the absolute directories of PATH, trying the
//! extensions of PATHEXT; never in the current directory.
//!
//! Windows' own search (`CreateProcessW`, `SearchPathW`, cmd.exe) looks in
//! the current directory first, and the searched tree is exactly what rg
//! runs in: a planted `rg.exe` there must never be what runs. So the rg is
//! resolved here, in the caller's context, to an absolute path, and the
//! runner starts that path and nothing else.
//!
//! Batch files (`.bat`, `.cmd`) are skipped even when PATHEXT names them:
//! Windows runs them through cmd.exe, which would read the model's values
//! with its own quoting rules; rg is started directly or not at all.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::{DEFAULT_RG, RgMissing, RgSource, joined};

/// PATHEXT when it is not set: what Windows itself uses.
const DEFAULT_PATHEXT: &str = ".COM;.EXE;.BAT;.CMD";

/// What resolving gave: the rg, or why there is none, and where it was
/// looked for.
type Resolved = (Result<PathBuf, RgMissing>, RgSource);

/// Resolve `given` for this process's PATHEXT; `exe` is its own
/// executable.
pub(super) fn resolve(
    given: &str,
    cwd: Option<&Path>,
    path_var: Option<&OsStr>,
    exe: Option<&Path>,
) -> Resolved {
    let pathext = std::env::var_os("PATHEXT");
    resolve_with(given, cwd, path_var, pathext.as_deref(), exe)
}

/// A value with a separator or a drive (`C:\tools\rg.exe`, `.\rg`,
/// `bin/rg`) is a path, relative to `cwd` (the caller's directory); a bare
/// name is looked for beside `exe` (only the default `rg`), then in each
/// absolute PATH directory. A name without an extension is tried with each
/// of PATHEXT's (so `rg` finds `rg.exe`).
fn resolve_with(
    given: &str,
    cwd: Option<&Path>,
    path_var: Option<&OsStr>,
    pathext: Option<&OsStr>,
    exe: Option<&Path>,
) -> Resolved {
    let extensions = extensions(pathext);
    if given.contains(['/', '\\', ':']) {
        let path = joined(cwd, given);
        let resolved = match find(&path, &extensions) {
            Found::Yes(found) => Ok(found),
            Found::NotExecutable(found) => Err(RgMissing::NotExecutable(found)),
            Found::No => Err(RgMissing::NoSuchFile(path)),
        };
        return (resolved, RgSource::Given);
    }
    if given.is_empty() {
        return (Err(RgMissing::NotOnPath), RgSource::Path);
    }
    let beside = exe.filter(|_| given == DEFAULT_RG).and_then(Path::parent);
    let beside = beside.map(|dir| (dir.to_path_buf(), RgSource::BesideExe));
    let on_path = path_var.into_iter().flat_map(std::env::split_paths);
    let dirs = beside
        .into_iter()
        .chain(on_path.map(|dir| (dir, RgSource::Path)));
    let mut not_executable = None;
    for (dir, source) in dirs {
        // An empty or relative entry would name the current directory.
        if !dir.is_absolute() {
            continue;
        }
        match find(&joined(Some(&dir), given), &extensions) {
            Found::Yes(found) => return (Ok(found), source),
            Found::NotExecutable(found) => {
                not_executable.get_or_insert(found);
            }
            Found::No => {}
        }
    }
    let missing = not_executable.map_or(RgMissing::NotOnPath, RgMissing::NotExecutable);
    (Err(missing), RgSource::Path)
}

/// What a candidate name turned out to be.
enum Found {
    Yes(PathBuf),
    /// Something is there, but not a program Windows starts directly (a
    /// directory, a batch file).
    NotExecutable(PathBuf),
    No,
}

/// `path` itself when it has an extension, else `path` with each of
/// `extensions` (Windows runs nothing without one from a search).
fn find(path: &Path, extensions: &[String]) -> Found {
    let mut candidates = Vec::new();
    if path.extension().is_none() {
        candidates.extend(extensions.iter().map(|ext| {
            let mut name = path.as_os_str().to_owned();
            name.push(ext);
            PathBuf::from(name)
        }));
    }
    // Last, the name as given: it may be a directory to report.
    candidates.push(path.to_path_buf());
    let mut seen = None;
    for candidate in candidates {
        match std::fs::metadata(&candidate) {
            Ok(meta) if meta.is_file() && !is_batch(&candidate) => return Found::Yes(candidate),
            Ok(_) => {
                seen.get_or_insert(candidate);
            }
            Err(_) => {}
        }
    }
    seen.map_or(Found::No, Found::NotExecutable)
}

/// PATHEXT's extensions, batch files left out (see the module's note).
fn extensions(pathext: Option<&OsStr>) -> Vec<String> {
    let pathext = pathext
        .and_then(OsStr::to_str)
        .filter(|p| !p.trim().is_empty())
        .unwrap_or(DEFAULT_PATHEXT);
    pathext
        .split(';')
        .map(str::trim)
        .filter(|ext| ext.starts_with('.') && ext.len() > 1)
        .filter(|ext| !ext.eq_ignore_ascii_case(".bat") && !ext.eq_ignore_ascii_case(".cmd"))
        // As files are usually named (`rg.exe`); Windows ignores the case.
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Whether Windows would run `path` through cmd.exe.
fn is_batch(path: &Path) -> bool {
    path.extension()
        .and_then(OsStr::to_str)
        .is_some_and(|ext| ext.eq_ignore_ascii_case("bat") || ext.eq_ignore_ascii_case("cmd"))
}

#[cfg(test)]
#[path = "../../tests/unit/locate/windows.rs"]
mod tests;
