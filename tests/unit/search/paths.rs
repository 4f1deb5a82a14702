//! Unit tests of `src/search/paths.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

// Unix only: Unix absolute paths (the next tests the Windows forms).
#[cfg(unix)]
#[test]
fn display_rules() {
    let w = Workdir::new(Path::new("/nonexistent/work"));
    assert_eq!(&*w.display(b"src/a.rs"), b"src/a.rs");
    assert_eq!(&*w.display(b"./src/a.rs"), b"./src/a.rs");
    assert_eq!(&*w.display(b"/nonexistent/work/src/a.rs"), b"src/a.rs");
    assert_eq!(&*w.display(b"/nonexistent/work"), b".");
    assert_eq!(
        &*w.display(b"/nonexistent/workshop/a"),
        b"/nonexistent/workshop/a"
    );
    assert_eq!(&*w.display(b"/etc/hosts"), b"/etc/hosts");
}

#[test]
fn vcs_dirs_anywhere_in_the_path() {
    let w = Workdir::new(Path::new("/r/.git/objects"));
    assert!(w.in_vcs_dir(b"ab/cd"));
    let w = Workdir::new(Path::new("/r"));
    assert!(w.in_vcs_dir(b"sub/.hg/store"));
    assert!(w.in_vcs_dir(b".git"));
    assert!(!w.in_vcs_dir(b"src/.github/x"));
    assert!(!w.in_vcs_dir(b"/elsewhere/a.git/x"));
}

/// SPEC §10: rg's `\` is shown as `/`, and a path inside the workdir
/// is shown relative to it whichever separator rg used.
#[cfg(windows)]
#[test]
fn windows_separators_are_shown_as_slashes() {
    let w = Workdir::new(Path::new(r"C:\work"));
    assert_eq!(&*w.display(br"src\a.rs"), b"src/a.rs");
    assert_eq!(&*w.display(br"C:\work\src\a.rs"), b"src/a.rs");
    assert_eq!(&*w.display(b"C:/work/src/a.rs"), b"src/a.rs");
    assert_eq!(&*w.display(br"C:\work"), b".");
    assert_eq!(&*w.display(br"D:\other\a.rs"), b"D:/other/a.rs");
    assert_eq!(&*w.display(br"\\server\share\a.rs"), b"//server/share/a.rs");
    assert!(w.in_vcs_dir(br"sub\.git\HEAD"));
    assert!(!w.in_vcs_dir(br"src\.github\x"));
    let mut listing = b"a\\b\0c\\d".to_vec();
    use_slashes(&mut listing);
    assert_eq!(listing, b"a/b\0c/d");
}
