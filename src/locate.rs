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
        let on_path = |name: &str, dirs: &OsStr| Rg::resolve(name, None, Some(dirs), None).resolved;
        let from_root = |given: &str| Rg::resolve(given, Some(root), None, None).resolved;
        assert_eq!(
            Rg::resolve("rg", Some(root), Some(&path), None).resolved,
            Ok(root.join("b/rg")),
            "skips empty, relative and non-executable entries"
        );
        assert_eq!(
            on_path("rg", root.join("a").as_os_str()),
            Err(RgMissing::NotExecutable(root.join("a/rg")))
        );
        let no_rg = root.join("c");
        assert_eq!(on_path("rg", no_rg.as_os_str()), Err(RgMissing::NotOnPath));
        assert_eq!(
            Rg::resolve("rg", None, None, None),
            Rg::resolve("rg", None, Some(OsStr::new(DEFAULT_PATH)), None),
            "no PATH at all is sh's default PATH"
        );
        assert_eq!(on_path("", &path), Err(RgMissing::NotOnPath));
        assert_eq!(
            from_root("./c/tool"),
            Ok(root.join("c/tool")),
            "relative to the caller's directory, `.` removed"
        );
        assert_eq!(
            from_root("c/missing"),
            Err(RgMissing::NoSuchFile(root.join("c/missing")))
        );
        assert_eq!(
            from_root("./c"),
            Err(RgMissing::NotExecutable(root.join("c")))
        );
    }

    /// An install's layout: `bin/dsh-search` and `bin/rg` (what the wheel
    /// and the release archives give), a PATH directory with another rg,
    /// all under one canonical temp root.
    struct Install {
        _dir: tempfile::TempDir,
        root: PathBuf,
        exe: PathBuf,
        path_var: std::ffi::OsString,
    }

    impl Install {
        /// What `given` resolves to on the install's PATH, run as `exe`.
        fn resolve(
            &self,
            given: &str,
            exe: Option<&Path>,
        ) -> (Result<PathBuf, RgMissing>, RgSource) {
            let rg = Rg::resolve(given, None, Some(&self.path_var), exe);
            (rg.resolved, rg.source)
        }
    }

    fn install() -> Install {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        for sub in ["venv/bin", "path", "links"] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        let exe = root.join("venv/bin/dsh-search");
        write(&exe, 0o755);
        write(&root.join("venv/bin/rg"), 0o755);
        write(&root.join("path/rg"), 0o755);
        let path_var = root.join("path").into_os_string();
        Install {
            _dir: dir,
            root,
            exe,
            path_var,
        }
    }

    /// A link to dsh-search (pipx's ~/.local/bin/dsh-search), relative or
    /// not, finds the rg beside its target, not the one beside the link.
    #[test]
    fn the_default_rg_beside_dsh_search_or_its_link_target_comes_before_path() {
        let i = install();
        let link = i.root.join("links/dsh-search");
        std::os::unix::fs::symlink(&i.exe, &link).unwrap();
        write(&i.root.join("links/rg"), 0o755);
        let relative = i.root.join("links/relative");
        std::os::unix::fs::symlink("../venv/bin/dsh-search", &relative).unwrap();
        let beside = (Ok(i.root.join("venv/bin/rg")), RgSource::BesideExe);
        for exe in [&i.exe, &link, &relative] {
            assert_eq!(i.resolve("rg", Some(exe)), beside, "{}", exe.display());
        }
        assert_eq!(Rg::resolve("rg", None, None, Some(&i.exe)).given, "rg");
    }

    #[test]
    fn no_usable_rg_beside_dsh_search_falls_back_to_path() {
        let i = install();
        let beside = i.root.join("venv/bin/rg");
        let from_path = (Ok(i.root.join("path/rg")), RgSource::Path);
        std::fs::set_permissions(&beside, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(i.resolve("rg", Some(&i.exe)), from_path, "not executable");
        std::fs::remove_file(&beside).unwrap();
        std::fs::create_dir(&beside).unwrap();
        assert_eq!(i.resolve("rg", Some(&i.exe)), from_path, "a directory");
        std::fs::remove_dir(&beside).unwrap();
        assert_eq!(i.resolve("rg", Some(&i.exe)), from_path, "nothing there");
        let gone = i.root.join("venv/bin/deleted");
        assert_eq!(i.resolve("rg", Some(&gone)), from_path, "a deleted binary");
        assert_eq!(i.resolve("rg", None), from_path, "no executable known");
        // Nowhere at all: the PATH error, as before.
        let empty = i.root.join("links").into_os_string();
        let rg = Rg::resolve("rg", None, Some(&empty), Some(&i.exe));
        assert_eq!(
            (rg.resolved, rg.source),
            (Err(RgMissing::NotOnPath), RgSource::Path)
        );
    }

    #[test]
    fn a_given_rg_is_never_replaced_by_the_one_beside() {
        let i = install();
        // A path: that file, whatever is beside dsh-search.
        let given = i.root.join("path/rg");
        let given = given.to_str().unwrap();
        let want = (Ok(PathBuf::from(given)), RgSource::Given);
        assert_eq!(i.resolve(given, Some(&i.exe)), want);
        let rg = Rg::resolve("./path/rg", Some(&i.root), None, Some(&i.exe));
        assert_eq!(
            (rg.resolved, rg.source),
            (Ok(i.root.join("path/rg")), RgSource::Given)
        );
        // Another bare name: PATH only, even when the install has one.
        write(&i.root.join("venv/bin/rg15"), 0o755);
        write(&i.root.join("path/rg15"), 0o755);
        let want = (Ok(i.root.join("path/rg15")), RgSource::Path);
        assert_eq!(i.resolve("rg15", Some(&i.exe)), want);
    }
}
