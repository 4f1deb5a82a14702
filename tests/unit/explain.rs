//! Unit tests of `src/explain.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;
use crate::index::Why;

#[test]
fn the_index_line_groups_thousands() {
    let answered = Account::Answered {
        candidates: 12,
        files: 198_138,
        dirty: 3,
        server: None,
    };
    assert_eq!(
        index(&answered),
        "answered, 12 of 198,138 files are candidates (3 dirty)"
    );
    let served = Account::Answered {
        candidates: 12,
        files: 198_138,
        dirty: 3,
        server: Some(4321),
    };
    assert_eq!(
        index(&served),
        "answered by server pid 4321, 12 of 198,138 files are candidates (3 dirty)"
    );
    assert_eq!(
        index(&Account::Scanned(Why::TooMany(61))),
        "scanned (61% of files are candidates)"
    );
}
