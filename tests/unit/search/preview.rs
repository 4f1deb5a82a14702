//! Unit tests of `src/search/preview.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

fn p(line: &str, m: Option<(usize, usize)>, cap: usize) -> (String, bool) {
    let r = preview(line.as_bytes(), m, cap);
    (r.text, r.truncated)
}

#[test]
fn terminators() {
    assert_eq!(p("abc\n", None, 10), ("abc".into(), false));
    assert_eq!(p("abc\r\n", None, 10), ("abc".into(), false));
    assert_eq!(p("abc", None, 10), ("abc".into(), false));
    assert_eq!(p("abc\r\r\n", None, 10), ("abc\r".into(), false));
}

#[test]
fn cut_at_cap_on_char_boundary() {
    assert_eq!(p("abcdef\n", Some((0, 1)), 6), ("abcdef".into(), false));
    assert_eq!(
        p("abcdefg\n", Some((0, 1)), 6),
        ("abcdef (line truncated)".into(), true)
    );
    // 'é' is two bytes at offsets 5..7; a cap of 6 falls inside it.
    assert_eq!(
        p("abcdeéz", Some((0, 1)), 6),
        ("abcde (line truncated)".into(), true)
    );
}

#[test]
fn window_when_match_ends_past_cap() {
    let line = format!("{}NEEDLE{}", "a".repeat(50), "b".repeat(50));
    let (text, truncated) = p(&line, Some((50, 56)), 20);
    assert!(truncated);
    assert_eq!(
        text,
        format!("…{}NEEDLE{} (line truncated)", "a".repeat(7), "b".repeat(7))
    );
    // A match at the very end: the window ends at the line's end.
    let line = format!("{}END", "x".repeat(40));
    assert_eq!(
        p(&line, Some((40, 43)), 10).0,
        "…xxxxxxxEND (line truncated)"
    );
    // A match longer than the cap: its start, cut at the cap.
    let line = format!("{}{}", "x".repeat(30), "M".repeat(30));
    assert_eq!(p(&line, Some((30, 60)), 5).0, "…MMMMM (line truncated)");
    // A match ending exactly at the cap uses the plain cut.
    assert_eq!(p("abcdefghij", Some((3, 5)), 5).0, "abcde (line truncated)");
}

#[test]
fn window_keeps_char_boundaries() {
    let line = format!("{}é{}NEEDLE", "é".repeat(10), "x");
    let start = line.find("NEEDLE").unwrap();
    let (text, _) = p(&line, Some((start, start + 6)), 9);
    assert!(!text.contains('\u{FFFD}'), "{text}");
    assert!(text.contains("NEEDLE"));
}

#[test]
fn invalid_utf8_is_lossy_not_dropped() {
    let r = preview(b"caf\xe9 latte\n", Some((0, 3)), 100);
    assert_eq!(r.text, "caf\u{FFFD} latte");
    assert!(!r.truncated);
}

#[test]
fn a_match_that_starts_inside_a_character() {
    // `(?-u:\x9f)` matches the second byte of 😀 (F0 9F 98 80): the
    // window is widened to the whole character, which a cap of 1
    // cannot hold, so it shows none of it rather than half.
    let line = "ab😀cd".as_bytes();
    assert_eq!(preview(line, Some((3, 4)), 1).text, "… (line truncated)");
    assert_eq!(preview(line, Some((3, 4)), 4).text, "…😀 (line truncated)");
    assert_eq!(preview(line, Some((3, 4)), 5).text, "…😀c (line truncated)");
    // A cap that holds the whole character: the plain cut shows it.
    assert_eq!(preview(line, Some((3, 4)), 6).text, "ab😀 (line truncated)");
    // Ends before its start, or starts past the region: an empty
    // match where it starts, and no panic.
    assert_eq!(preview(line, Some((7, 2)), 1).text, "…d (line truncated)");
    assert_eq!(window_preview(line, 9, 3, 2).text, "…cd (line truncated)");
}

/// One piece of a test line: ASCII, a 2-, 3- or 4-byte character, or
/// a byte that is no character (a stray continuation byte, a lead
/// byte without its continuation, 0xFF).
fn piece() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    prop_oneof![
        (b'a'..=b'z').prop_map(|b| vec![b]),
        Just("é".as_bytes().to_vec()),
        Just("中".as_bytes().to_vec()),
        Just("😀".as_bytes().to_vec()),
        (0x80u8..=0xFF).prop_map(|b| vec![b]),
        Just(b"\n".to_vec()),
    ]
}

proptest::proptest! {
    /// Whatever the line, the match offsets rg reports (inside a
    /// character, past the end, reversed) and the cap: no panic, a
    /// preview of the marks around at most `cap` bytes of the line
    /// (each shown character stands for at least one byte), on
    /// character boundaries, and the match inside the window whenever
    /// it fits.
    #[test]
    fn any_line_and_match_give_a_bounded_preview(
        pieces in proptest::collection::vec(piece(), 0..40),
        cap in 0usize..48,
        a in 0usize..200,
        b in 0usize..200,
        giant in proptest::bool::ANY,
    ) {
        let line = pieces.concat();
        let r = if giant {
            window_preview(&line, a, b, cap)
        } else {
            preview(&line, Some((a, b)), cap)
        };
        let body = r.text.strip_suffix(TRUNCATED_MARK).unwrap_or(&r.text);
        let body = body.strip_prefix(WINDOW_MARK).unwrap_or(body);
        proptest::prop_assert!(body.chars().count() <= cap);
        if let Ok(text) = std::str::from_utf8(&line) {
            proptest::prop_assert!(body.len() <= cap);
            proptest::prop_assert!(text.contains(body));
        }
        let (start, end) = (a.min(line.len()), b.clamp(a.min(line.len()), line.len()));
        let (from, to) = window(&line, start, end, cap);
        proptest::prop_assert!(from <= to && to <= line.len());
        proptest::prop_assert!(to - from <= cap);
        let (s, e) = (floor_boundary(&line, start), ceil_boundary(&line, end));
        if e - s <= cap {
            proptest::prop_assert!(from <= s && e <= to, "{from}..{to} holds {s}..{e}");
        } else {
            proptest::prop_assert_eq!(from, s);
        }
    }
}

proptest::proptest! {
    /// A cut never splits a character and never shows more than `cap`
    /// bytes of the line; a window always shows the whole match when the
    /// match fits in the cap.
    #[test]
    fn cut_is_bounded_and_valid(s in "\\PC{0,60}", cap in 1usize..40, a in 0usize..200, b in 0usize..200) {
        proptest::prop_assume!(!s.contains(char::REPLACEMENT_CHARACTER));
        let bytes = s.as_bytes();
        let (start, end) = (a.min(b).min(bytes.len()), a.max(b).min(bytes.len()));
        let start = floor_boundary(bytes, start);
        let end = ceil_boundary(bytes, end);
        let r = preview(bytes, Some((start, end)), cap);
        let body = r.text.strip_suffix(TRUNCATED_MARK).unwrap_or(&r.text);
        let body = body.strip_prefix(WINDOW_MARK).unwrap_or(body);
        proptest::prop_assert!(!body.contains(char::REPLACEMENT_CHARACTER));
        proptest::prop_assert!(body.len() <= cap);
        proptest::prop_assert!(s.contains(body));
        proptest::prop_assert_eq!(r.truncated, bytes.len() > cap);
        if r.truncated && end > cap && end - start <= cap {
            proptest::prop_assert!(body.contains(&s[start..end]));
        }
    }
}
