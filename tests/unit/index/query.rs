//! Unit tests of `src/index/query.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

fn q(text: &str) -> Query {
    plain(text)
}

fn grams(s: &str) -> Vec<Gram> {
    s.as_bytes()
        .windows(3)
        .map(|w| gram(fold(w[0]), fold(w[1]), fold(w[2])))
        .collect()
}

fn and_of(s: &str) -> Query {
    let mut g = grams(s);
    g.sort_unstable();
    g.dedup();
    Query::and(g.into_iter().map(Query::Gram).collect())
}

#[test]
fn a_literal_requires_each_of_its_trigrams() {
    assert_eq!(q("needle"), and_of("needle"));
    assert_eq!(q("Needle"), and_of("needle"), "folded to lower case");
}

#[test]
fn short_or_open_patterns_require_nothing() {
    for text in ["ab", r"\w+", "a.*b", "(foo)?", "x*", "[a-z]{3}"] {
        assert_eq!(q(text), Query::All, "{text}");
    }
    assert_eq!(q("(unclosed"), Query::All);
}

#[test]
fn regexes_keep_their_literals() {
    assert_eq!(q(r"fn\s+\w+_handler\("), and_of("_handler("));
    assert_eq!(
        q("foo|barn"),
        Query::Or(vec![and_of("barn"), and_of("foo")])
    );
    assert_eq!(q("ab[cd]"), Query::Or(vec![and_of("abc"), and_of("abd")]));
    assert_eq!(q("(?i)error"), and_of("error"));
    let ci = plan(Pattern {
        ignore_case: true,
        ..Pattern::regex("ERROR")
    });
    assert_eq!(ci, Some(and_of("error")));
    let fixed = plan(Pattern {
        literal: true,
        ..Pattern::regex("a.b(c")
    });
    assert_eq!(fixed, Some(and_of("a.b(c")));
}

#[test]
fn hostile_patterns_are_cheap() {
    // Deeper than the parser's nest limit: it refuses, the call scans.
    assert_eq!(plan(Pattern::regex(&"(".repeat(100_000))), None);
    let deep = format!("{}a{}", "(".repeat(200), ")".repeat(200));
    assert_eq!(q(&deep), Query::All);
    // 16 MiB of literal: a bounded query.
    let long: String = (0..16 << 20)
        .map(|i: u32| char::from(b'a' + (i % 26) as u8))
        .collect();
    match q(&long) {
        Query::And(parts) => assert!(parts.len() <= MAX_GRAMS, "{}", parts.len()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_nul_is_asked_for_as_a_line_feed() {
    assert_eq!(q(r"a\x00b"), Query::Gram(gram(b'a', b'\n', b'b')));
}

mod sound {
    use super::super::*;
    use proptest::prelude::*;

    /// Pieces of patterns: literals, classes, repetitions, groups,
    /// alternations, anchors, escapes.
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-cA-C_]{1,4}",
            Just("[ab]".to_owned()),
            Just("[^a]".to_owned()),
            Just(r"\w+".to_owned()),
            Just(r"\s*".to_owned()),
            Just(".".to_owned()),
            Just("b?".to_owned()),
            Just("(ab|ca)".to_owned()),
            Just("c{2,3}".to_owned()),
            Just("^".to_owned()),
            Just(r"\b".to_owned()),
            Just(r"\x00".to_owned()),
            Just("(?i)bc".to_owned()),
            Just("é".to_owned()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// A file holding a match is always a candidate.
        #[test]
        fn a_file_with_a_match_is_a_candidate(
            parts in proptest::collection::vec(piece(), 1..6),
            alt in proptest::option::of(piece()),
            hay in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(b'c'), Just(b'A'), Just(b'C'), Just(b'_'), Just(b' '), Just(b'\n'), Just(0u8), Just(0xC3), Just(0xA9)], 0..40),
            ignore_case: bool,
            literal: bool,
            multiline: bool,
        ) {
            let mut text = parts.concat();
            if let Some(alt) = alt {
                text = format!("{text}|{alt}");
            }
            let Some(query) = plan(Pattern { text: &text, ignore_case, literal, multiline }) else {
                return Ok(());
            };
            let source = if literal { regex_syntax::escape(&text) } else { text.clone() };
            let Ok(re) = regex::bytes::RegexBuilder::new(&source)
                .unicode(true)
                .case_insensitive(ignore_case)
                .multi_line(true)
                .dot_matches_new_line(multiline)
                .build() else {
                return Ok(());
            };
            // rg's --binary reads a NUL as a line end.
            let read: Vec<u8> = hay.iter().map(|&b| if b == 0 { b'\n' } else { b }).collect();
            if re.is_match(&read) {
                let grams = crate::index::grams::grams_of(&hay);
                prop_assert!(query.accepts(&|g| grams.contains(&g)), "{text:?} matches {hay:?} but {query:?} refuses it");
            }
        }
    }
}
