//! Unit tests of `src/rg/mod.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn an_excerpt_is_bounded_on_a_character_boundary() {
    assert_eq!(read_excerpt(b"12"), "read \"12\"");
    assert_eq!(read_excerpt(b""), "read \"\"");
    let long = format!("{}é", "x".repeat(EXCERPT - 1));
    assert_eq!(
        read_excerpt(long.as_bytes()),
        format!("read \"{}…\"", "x".repeat(EXCERPT - 1))
    );
    assert_eq!(read_excerpt(b"a\x00\xff"), "read \"a\u{0}\u{fffd}\"");
}
