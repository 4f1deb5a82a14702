//! Unit tests of `src/serve/wire.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn frames_round_trip_and_garbage_is_an_error() {
    let mut buf = Vec::new();
    send(&mut buf, &Reply::Scan("why".into())).unwrap();
    send(&mut buf, &Reply::Planned).unwrap();
    let mut input = &buf[..];
    assert!(matches!(receive(&mut input).unwrap(), Reply::Scan(w) if w == "why"));
    assert!(matches!(receive(&mut input).unwrap(), Reply::Planned));
    let mut garbage = &b"\x00\x00\x00\x03abc"[..];
    assert!(receive::<Reply>(&mut garbage).is_err());
    let mut huge = &b"\xff\xff\xff\xff"[..];
    assert!(receive::<Reply>(&mut huge).is_err());
}
