//! Unit tests of `src/locate.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

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
    fn resolve(&self, given: &str, exe: Option<&Path>) -> (Result<PathBuf, RgMissing>, RgSource) {
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
