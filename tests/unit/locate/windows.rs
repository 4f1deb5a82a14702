//! Unit tests of `src/locate/windows.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn rg_is_found_beside_then_on_path_never_in_the_cwd() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for sub in ["cwd", "install", "path1", "path2", "batch"] {
        std::fs::create_dir(root.join(sub)).unwrap();
    }
    std::fs::write(root.join("cwd/rg.exe"), "planted").unwrap();
    std::fs::write(root.join("install/rg.exe"), "").unwrap();
    std::fs::write(root.join("path2/rg.exe"), "").unwrap();
    std::fs::create_dir(root.join("path1/rg")).unwrap();
    std::fs::write(root.join("batch/rg.cmd"), "").unwrap();
    let cwd = root.join("cwd");
    let exe = root.join("install/dsh-search.exe");
    let path = std::env::join_paths([
        PathBuf::new(),
        PathBuf::from("."),
        root.join("batch"),
        root.join("path1"),
        root.join("path2"),
    ])
    .unwrap();
    let pathext = OsStr::new(".COM;.EXE;.BAT;.CMD");
    let resolve = |given: &str, exe: Option<&Path>| {
        resolve_with(given, Some(&cwd), Some(&path), Some(pathext), exe).0
    };
    assert_eq!(resolve("rg", Some(&exe)), Ok(root.join("install/rg.exe")));
    assert_eq!(
        resolve("rg", None),
        Ok(root.join("path2/rg.exe")),
        "skips empty and relative entries, a batch file and a directory"
    );
    assert_eq!(resolve("rg.exe", Some(&exe)), Ok(root.join("path2/rg.exe")));
    assert_eq!(
        resolve(r".\rg", None),
        Ok(root.join("cwd/rg.exe")),
        "asked for by path"
    );
    assert_eq!(resolve("missing", None), Err(RgMissing::NotOnPath));
    assert_eq!(
        resolve(r"..\path1\rg", None),
        Err(RgMissing::NotExecutable(root.join(r"cwd\..\path1\rg")))
    );
}
