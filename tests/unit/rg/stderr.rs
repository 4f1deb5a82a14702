//! Unit tests of `src/rg/stderr.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

#[test]
fn stderr_keeps_head_and_tail_and_counts_messages() {
    let mut s = Stderr::default();
    s.push(b"rg: a: Permission denied\n\n");
    for _ in 0..2000 {
        s.push(b"rg: b: Permission denied\n");
    }
    s.push(b"rg: last line without newline");
    s.close();
    assert_eq!(s.messages, 2002);
    assert_eq!(s.first_line(), "rg: a: Permission denied");
    let excerpt = s.excerpt();
    assert!(excerpt.contains("bytes of stderr omitted"));
    assert!(excerpt.ends_with("rg: last line without newline"));
    assert!(excerpt.len() < STDERR_HEAD + STDERR_TAIL + 100);
}

#[test]
fn a_message_that_continues_on_the_next_line_counts_once() {
    // rg 14: a path holding a newline, then a path holding ESC, then
    // rg's own two-line message, fed a byte at a time.
    let text = b"rg: ./bad\ndir: Permission denied (os error 13)\nrg: ./\x1b[31mred: Permission denied (os error 13)\n\nrg: No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.\n";
    let mut s = Stderr::default();
    for b in text {
        s.push(&[*b]);
    }
    s.close();
    assert_eq!(s.messages, 3);
    assert_eq!(
        s.first_message(),
        "rg: ./bad\ndir: Permission denied (os error 13)"
    );
    assert_eq!(s.first_line(), "rg: ./bad");
    // rg 13 has no prefix: every non-blank line is a message.
    let mut old = Stderr::default();
    old.push(
        b"./a: Permission denied (os error 13)\nb\n./c: No such file or directory (os error 2)",
    );
    old.close();
    assert_eq!(old.messages, 3);
    assert_eq!(old.first_message(), "./a: Permission denied (os error 13)");
    assert_eq!(Stderr::default().first_message(), "");
}
