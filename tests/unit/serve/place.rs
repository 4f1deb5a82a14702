//! Unit tests of `src/serve/place.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn a_directory_others_may_enter_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("run");
    assert!(private(&dir).is_ok());
    assert_eq!(
        fs::metadata(&dir).unwrap().permissions().mode() & 0o777,
        0o700
    );
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    assert!(private(&dir).unwrap_err().contains("other users"));
    let link = t.path().join("link");
    std::os::unix::fs::symlink(&dir, &link).unwrap();
    assert!(private(&link).unwrap_err().contains("not a directory"));
}

#[test]
fn a_tree_has_one_name() {
    assert_eq!(key(Path::new("/a/b")), key(Path::new("/a/b")));
    assert_ne!(key(Path::new("/a/b")), key(Path::new("/a/c")));
    assert_eq!(key(Path::new("/a/b")).len(), 32);
}
