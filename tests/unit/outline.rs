//! Unit tests of `src/outline/mod.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use std::fmt::Write as _;

use super::*;
use crate::stop::Stop;
use std::time::{Duration, Instant};

/// A budget of a minute, of a stop channel of its own.
fn soon() -> Budget<'static> {
    static STOP: std::sync::OnceLock<Stop> = std::sync::OnceLock::new();
    Budget {
        deadline: Instant::now() + Duration::from_secs(60),
        stop: STOP.get_or_init(Stop::new),
    }
}

#[test]
fn a_prefix_parse_answers_as_the_whole() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "tests/integration/fixtures/function_context",
        "fuzz/corpus/outline",
    ] {
        if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
            files.extend(entries.flatten().map(|e| e.path()));
        }
    }
    files.sort();
    let mut shortened = 0;
    for path in files {
        let name = path.to_string_lossy().into_owned();
        let (Some(language), Ok(source)) = (language_of(&name), std::fs::read(&path)) else {
            continue;
        };
        let count = memchr::memchr_iter(b'\n', &source).count();
        let lines: Vec<u64> = (1..=count as u64).collect();
        let rows: Vec<usize> = (0..count).collect();
        let Ok(whole) = definitions(&source, language, &lines, soon()) else {
            continue;
        };
        for last in 1..=count as u64 {
            for (reach, margin) in [(0, 0), (2, 0), (0, 64)] {
                let needed = Needed { last, reach };
                let shorter = source.len();
                let Some(found) =
                    from_prefix(&source, language, &rows, needed, margin, shorter, soon()).unwrap()
                else {
                    continue;
                };
                shortened += 1;
                for (row, (got, want)) in found.iter().zip(&whole).enumerate() {
                    assert!(
                        got == want || (row as u64 >= last && *got == Holder::Outside),
                        "{name}: line {} parsed to {margin} bytes past line {last}: \
                         {got:?}, the whole parse {want:?}",
                        row + 1
                    );
                }
            }
        }
    }
    assert!(shortened > 100, "the prefix was used {shortened} times");
}

#[test]
fn the_language_is_rgs_choice() {
    assert_eq!(language_of("src/a.rs"), Some(Language::Rust));
    assert_eq!(language_of("a/b.h"), Some(Language::Cpp));
    assert_eq!(language_of("x.c"), Some(Language::C));
    assert_eq!(language_of("App.TSX"), None);
    assert_eq!(language_of("App.tsx"), Some(Language::Tsx));
    assert_eq!(language_of("notes.txt"), None);
}

#[test]
fn doc_comments_and_attributes_above_belong_to_the_definition() {
    let source = b"// loose\n\n/// Does f.\n#[inline]\nfn f() {\n    1;\n}\n";
    let found = definitions(source, Language::Rust, &[1, 3, 4, 6], soon()).unwrap();
    let f = Definition {
        name: "f".into(),
        kind: "function",
        start_line: 3,
        end_line: 7,
        signature_line: 5,
    };
    let f = Holder::Definition(f);
    assert_eq!(
        found,
        vec![Holder::Outside, f.clone(), f.clone(), f],
        "{source:?}"
    );
}

#[test]
fn a_javascript_function_assigned_is_named_by_its_target() {
    let source = b"inst.run = (p) => {\n  go(p);\n};\n";
    let found = definitions(source, Language::JavaScript, &[2], soon()).unwrap();
    let Holder::Definition(d) = &found[0] else {
        panic!("{found:?}");
    };
    assert_eq!(
        (d.name.as_str(), d.kind, d.start_line, d.end_line),
        ("inst.run", "function", 1, 3)
    );
}

#[test]
fn hostile_files_do_not_crash_it() {
    // Nested 100,000 deep: the walk is iterative.
    let deep = format!(
        "fn f() {{ let x = {}1{}; }}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let found = definitions(deep.as_bytes(), Language::Rust, &[1], soon());
    assert!(matches!(found, Ok(ref d) if d.len() == 1), "{found:?}");
    // One line over the parse limit: not parsed.
    let long = vec![b'x'; MAX_PARSE_BYTES + 1];
    assert_eq!(
        definitions(&long, Language::Rust, &[1], soon()),
        Err(Unparsed::TooBig)
    );
    // A deadline already past: the parse is stopped.
    let many = "fn f() {}\n".repeat(100_000);
    let past = Budget {
        deadline: Instant::now(),
        ..soon()
    };
    let late = definitions(many.as_bytes(), Language::Rust, &[1], past);
    assert_eq!(late, Err(Unparsed::TooSlow));
}

/// What holds each line of `source`, as `(line, what)`: the name of a
/// clean definition, `-` outside any, `?` not parsed cleanly.
fn held(source: &str, language: Language) -> Vec<(u64, String)> {
    let last = source.lines().count() as u64;
    let lines: Vec<u64> = (1..=last).collect();
    let found = definitions(source.as_bytes(), language, &lines, soon()).unwrap();
    lines
        .into_iter()
        .zip(found)
        .map(|(n, h)| match h {
            Holder::Definition(d) => (n, d.name),
            Holder::Outside => (n, "-".into()),
            Holder::Unclean => (n, "?".into()),
        })
        .collect()
}

/// `held`'s answer written as one string per line, for short tests.
fn marks(pairs: &[(u64, &str)]) -> Vec<(u64, String)> {
    pairs.iter().map(|&(n, w)| (n, w.to_owned())).collect()
}

#[test]
fn a_syntax_error_fails_the_definitions_that_hold_it_alone() {
    let source = "fn before() {\n    1\n}\n\nfn broken() {\n    let x = (1 + ;\n    x\n}\n\nfn after() {\n    2\n}\n";
    assert_eq!(
        held(source, Language::Rust),
        marks(&[
            (1, "before"),
            (2, "before"),
            (3, "before"),
            (4, "-"),
            (5, "?"),
            (6, "?"),
            (7, "?"),
            (8, "?"),
            (9, "-"),
            (10, "after"),
            (11, "after"),
            (12, "after"),
        ])
    );
    // A function the parser could not make one of (a block left open
    // too): its lines lie in an ERROR node, not outside any definition.
    let source = "fn broken() {\n    let x = (1 + ;\n    if x {\n        y();\n    z();\n}\n\nfn after() {\n    2\n}\n";
    assert_eq!(
        held(source, Language::Rust),
        marks(&[
            (1, "?"),
            (2, "?"),
            (3, "?"),
            (4, "?"),
            (5, "?"),
            (6, "?"),
            (7, "?"),
            (8, "after"),
            (9, "after"),
            (10, "after"),
        ])
    );
}

#[test]
fn lines_after_a_definition_indented_as_its_body_mean_it_was_cut() {
    // Python ends `broken` at the line dedented by two spaces, and
    // reads the rest as statements of the module: no syntax error.
    let source = "def broken():\n    x = 1\n  y = 2\n    return x\n\ndef after():\n    return 2\n";
    assert_eq!(
        held(source, Language::Python),
        marks(&[
            (1, "?"),
            (2, "?"),
            (3, "?"),
            (4, "?"),
            (5, "-"),
            (6, "after"),
            (7, "after"),
        ])
    );
    // A stray `}` in Rust ends `stray` early the same way.
    let source = "fn stray() {\n    let x = 1;\n}\n    y();\n}\n\nfn after() {}\n";
    let found = held(source, Language::Rust);
    assert_eq!(
        &found[..4],
        &marks(&[(1, "?"), (2, "?"), (3, "?"), (4, "?")])[..]
    );
    assert_eq!(found[6], (7, "after".to_owned()));
}

#[test]
fn a_missing_semicolon_cuts_nothing() {
    // C's statement macros read as a call without its `;`.
    let source = "void walk(struct list *head) {\n    list_for_each(pos, head) {\n        use(pos);\n    }\n}\n";
    assert_eq!(
        held(source, Language::C),
        marks(&[
            (1, "walk"),
            (2, "walk"),
            (3, "walk"),
            (4, "walk"),
            (5, "walk")
        ])
    );
}

#[test]
fn a_macros_body_outside_any_definition_is_not_parsed() {
    // The grammar reads a macro's body as tokens: the function in it
    // is not seen. Inside a function, the function holds it.
    let source = "cfg_if! {\n    fn hidden() {\n        1\n    }\n}\n\nfn seen() {\n    select! {\n        a => b,\n    }\n}\n";
    assert_eq!(
        held(source, Language::Rust),
        marks(&[
            (1, "?"),
            (2, "?"),
            (3, "?"),
            (4, "?"),
            (5, "?"),
            (6, "-"),
            (7, "seen"),
            (8, "seen"),
            (9, "seen"),
            (10, "seen"),
            (11, "seen"),
        ])
    );
}

#[test]
fn every_line_of_a_large_file_is_answered_in_any_order() {
    // 20,000 functions, every line asked, backwards and twice: one
    // walk and one sweep (a walk per line took minutes).
    let mut source = String::new();
    for i in 0..20_000 {
        let _ = writeln!(source, "def f_{i}():\n    return {i}");
    }
    let lines: Vec<u64> = (1..=40_000).rev().chain([1, 40_000]).collect();
    let found = definitions(source.as_bytes(), Language::Python, &lines, soon()).unwrap();
    for (&line, holder) in lines.iter().zip(&found) {
        let i = (line - 1) / 2;
        let want = Holder::Definition(Definition {
            name: format!("f_{i}"),
            kind: "function",
            start_line: 2 * i + 1,
            end_line: 2 * i + 2,
            signature_line: 2 * i + 1,
        });
        assert_eq!(holder, &want, "line {line}");
    }
}
