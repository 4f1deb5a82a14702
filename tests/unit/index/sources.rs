//! Unit tests of `src/index/sources.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn a_change_above_the_workdir_is_seen() {
    let t = tempfile::tempdir().unwrap();
    let work = t.path().join("a/work");
    std::fs::create_dir_all(work.join("sub/.git/info")).unwrap();
    let repos = [b"sub".to_vec()];
    let before = Sources::read(&work, repos.iter());
    assert!(!before.changed());
    std::fs::write(t.path().join("a/.gitignore"), "x\n").unwrap();
    assert!(before.changed());
    let before = Sources::read(&work, repos.iter());
    std::fs::create_dir(t.path().join(".git")).unwrap();
    assert!(before.changed());
    let before = Sources::read(&work, repos.iter());
    std::fs::write(work.join("sub/.git/info/exclude"), "y\n").unwrap();
    assert!(before.changed());
    let before = Sources::read(&work, repos.iter());
    std::fs::create_dir(t.path().join(".git/info")).unwrap();
    std::fs::write(t.path().join(".git/info/exclude"), "z\n").unwrap();
    assert!(before.changed());
}
