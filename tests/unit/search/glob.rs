//! Unit tests of `src/search/glob.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn walk_root_is_the_literal_directory_prefix() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("src/lib")).unwrap();
    fs::write(dir.path().join("src/file"), "").unwrap();
    // Windows: no link (that needs a privilege); `link/**` then names nothing.
    #[cfg(unix)]
    std::os::unix::fs::symlink("src", dir.path().join("link")).unwrap();
    let root = |p: &str| walk_root(p, dir.path());
    assert_eq!(root("src/lib/**/*.rs").as_deref(), Some("src/lib"));
    assert_eq!(root("src/**").as_deref(), Some("src"));
    assert_eq!(root("src/lib/x.rs").as_deref(), Some("src/lib"));
    assert_eq!(root("src/li*/x.rs").as_deref(), Some("src"));
    assert_eq!(root("src/{lib,bin}/*.rs").as_deref(), Some("src"));
    // Another case names no walk root, even where the filesystem
    // ignores case (the walk would print `SRC/…`).
    assert_eq!(root("SRC/**"), None);
    assert_eq!(root("src/LIB/*.rs"), None);
    for none in [
        "**/*.rs",
        "*.rs",
        "src",
        "src/file/*",
        "link/**",
        "missing/**",
        "./src/**",
        "src/../src/**",
        "/abs/**",
        "src//lib/*",
        r"s\rc/*",
    ] {
        assert_eq!(root(none), None, "{none}");
    }
}
