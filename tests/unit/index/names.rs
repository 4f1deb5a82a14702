//! Unit tests of `src/index/names.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn names() {
    assert!(under(b"a/b", b"a"));
    assert!(!under(b"ab", b"a"));
    assert!(!under(b"a", b"a"));
    assert!(under(b"a", b""));
    assert_eq!(parent(b"a/b/c"), b"a/b");
    assert_eq!(parent(b"c"), b"");
    let w = Path::new("/w");
    assert_eq!(relative(b"./src//x.rs", w), Some(b"src/x.rs".to_vec()));
    assert_eq!(relative(b"/w/src/x.rs", w), Some(b"src/x.rs".to_vec()));
    assert_eq!(relative(b"/v/x.rs", w), None);
    assert_eq!(relative(b"../x.rs", w), None);
    assert_eq!(relative(b"x\xff", w), Some(b"x\xff".to_vec()));
}
