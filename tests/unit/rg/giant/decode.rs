//! Unit tests of `src/rg/giant/decode.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn an_escape_cut_by_the_bound_is_left_out() {
    assert_eq!(decode_text(br"ab\u00", true), b"ab");
    assert_eq!(decode_text(br#"ab\""#, true), b"ab\"");
    assert_eq!(decode_text(br"ab\\\\", true), b"ab\\\\");
    assert_eq!(decode_text(br"ab\ud83d\ude00c", true), "ab😀c".as_bytes());
    assert_eq!(decode_text(br"ab\ud83d\ude0", true), b"ab");
    assert_eq!(decode_text(br"ab\ud83d", true), b"ab");
    assert_eq!(decode_base64(b"YWJj"), b"abc");
    assert_eq!(decode_base64(b"YWJjZA"), b"abc");
}
