//! Unit tests of `src/index/files.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;
use crate::index::grams::Builder;

fn stat(ino: u64, ctime: i64) -> Stat {
    Stat {
        ino,
        size: 1,
        mtime: 0,
        ctime,
        links: 1,
    }
}

fn found(name: &str, stat: Stat) -> FoundFile {
    FoundFile {
        name: name.as_bytes().to_vec(),
        stat,
    }
}

fn content(read: Vec<Stat>) -> Content {
    let mut b = Builder::default();
    for _ in &read {
        b.begin();
        b.finish();
    }
    let postings = b.freeze();
    Content::new(Built {
        always: Bits::none(postings.files()),
        racy: Bits::none(postings.files()),
        postings,
        read,
        covered: 0,
    })
}

#[test]
fn a_reading_follows_its_inode_and_nothing_else() {
    let mut c = content(vec![stat(10, 1), stat(11, 1)]);
    let walked = Walked {
        files: vec![found("d/a", stat(10, 1)), found("d/b", stat(11, 1))],
        dirs: vec![Vec::new(), b"d".to_vec()],
        ..Walked::default()
    };
    let mut files = Files::built(walked);
    // d moved to e; d/b replaced by a new file under the old name.
    let walked = Walked {
        files: vec![found("e/a", stat(10, 1)), found("e/b", stat(12, 5))],
        dirs: vec![b"e".to_vec()],
        ..Walked::default()
    };
    let mut gone = Vec::new();
    files.apply(
        b"e",
        Depth::Whole,
        walked,
        &mut c,
        &BTreeSet::new(),
        false,
        &mut gone,
    );
    assert_eq!(files.reading(b"e/a"), Some(0));
    assert!(files.contains(b"e/b"));
    assert_eq!(files.reading(b"e/b"), None);
    assert_eq!(files.unread(), 1);
    // A second name for reading 0: it is stale wherever it is named.
    let mut linked = stat(10, 1);
    linked.links = 2;
    let walked = Walked {
        files: vec![found("f/x", linked)],
        dirs: vec![b"f".to_vec()],
        ..Walked::default()
    };
    files.apply(
        b"f",
        Depth::Whole,
        walked,
        &mut c,
        &BTreeSet::new(),
        false,
        &mut gone,
    );
    assert!(c.candidate(files.reading(b"e/a"), Some(&Bits::none(2))));
    assert!(files.contains(b"f/x"));
    assert_eq!(files.reading(b"f/x"), None);
}

#[test]
fn listing_entries_again_forgets_directories_gone() {
    let mut c = content(vec![stat(1, 1), stat(2, 1)]);
    let walked = Walked {
        files: vec![found("top", stat(1, 1)), found("d/x", stat(2, 1))],
        dirs: vec![Vec::new(), b"d".to_vec(), b"d/s".to_vec()],
        ..Walked::default()
    };
    let mut files = Files::built(walked);
    let walked = Walked {
        files: vec![found("top", stat(1, 1))],
        dirs: vec![Vec::new(), b"n".to_vec()],
        ..Walked::default()
    };
    let mut gone = Vec::new();
    let next = files.apply(
        b"",
        Depth::Entries,
        walked,
        &mut c,
        &BTreeSet::new(),
        false,
        &mut gone,
    );
    assert_eq!(next, vec![b"n".to_vec()]);
    assert_eq!(gone, vec![b"d".to_vec()]);
    assert!(!files.contains(b"d/x"));
    assert!(!files.is_dir(b"d/s"));
    assert!(files.contains(b"top"));
}
