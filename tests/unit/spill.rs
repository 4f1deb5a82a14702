//! Unit tests of `src/spill.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn name_is_content_hash() {
    let name = file_name(Tool::Glob, Extent::Complete, "a\nb");
    assert_eq!(name.len(), 12 + "-glob-results.txt".len());
    assert!(name.ends_with("-glob-results.txt"));
    assert_eq!(name, file_name(Tool::Glob, Extent::Complete, "a\nb"));
    assert_ne!(name, file_name(Tool::Glob, Extent::Complete, "a\nc"));
    assert!(file_name(Tool::Grep, Extent::Complete, "").starts_with("e3b0c44298fc-grep"));
    assert_eq!(
        file_name(Tool::Grep, Extent::Incomplete, ""),
        "e3b0c44298fc-grep-results-incomplete.txt"
    );
}

#[test]
fn saves_then_reuses() {
    let dir = tempfile::tempdir().unwrap();
    let spill = dir.path().join("a/b");
    let first = save(&spill, Tool::Grep, Extent::Complete, "content").unwrap();
    assert!(!first.reused);
    assert_eq!(fs::read_to_string(&first.locator).unwrap(), "content");
    #[cfg(unix)]
    {
        let mode = fs::metadata(&first.locator).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let dir_mode = fs::metadata(&spill).unwrap().permissions().mode() & 0o777;
        assert_eq!(dir_mode, 0o700);
    }
    // Windows: the locator is the ordinary form of the path.
    assert!(!first.locator.to_string_lossy().starts_with(r"\\?\"));
    let second = save(&spill, Tool::Grep, Extent::Complete, "content").unwrap();
    assert_eq!(
        second,
        Saved {
            locator: first.locator,
            reused: true
        }
    );
    assert_eq!(
        fs::read_dir(&spill).unwrap().count(),
        1,
        "no temp files left"
    );
}
