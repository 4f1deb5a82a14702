//! Unit tests of `src/rg/process.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn every_byte_counts_against_the_cap() {
    // A record of any length counts whole, across chunks: a record
    // too large for a sink to hold is no exception.
    let mut meter = Meter::new(25);
    assert_eq!(meter.count(b"abc\n"), Ok(()));
    assert_eq!(meter.count(&[b'x'; 20]), Ok(()));
    assert_eq!(meter.counted, 24);
    // Over the cap: what fits is the first byte.
    assert_eq!(meter.count(b"ab\n"), Err(1));
    let mut plain = Meter::new(5);
    assert_eq!(plain.count(b"abc"), Ok(()));
    assert_eq!(plain.count(b"defg"), Err(2));
    let mut kept = Vec::new();
    let mut feed = |bytes: &[u8]| kept.extend_from_slice(bytes);
    let mut meter = Meter::new(5);
    meter.pass(b"abc", &mut feed);
    assert!(!meter.over());
    meter.pass(b"defg", &mut feed);
    assert!(meter.over());
    assert_eq!(kept, b"abcde");
}
