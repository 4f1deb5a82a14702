//! Unit tests of `src/request.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

fn glob(pattern: &str, path: Option<&str>) -> Result<GlobRequest, ArgumentError> {
    GlobRequest::new(GlobArgs {
        pattern: pattern.into(),
        path: path.map(Into::into),
        ..GlobArgs::default()
    })
}

fn grep(pattern: &str, include: Option<&str>) -> Result<GrepRequest, ArgumentError> {
    let args = GrepArgs {
        pattern: pattern.into(),
        include: include.map(Into::into),
        ..GrepArgs::default()
    };
    GrepRequest::new(args).map(|(request, _)| request)
}

#[test]
fn glob_rules() {
    assert!(glob("**/*.rs", None).is_ok());
    assert!(glob("-dash*", Some("-dir")).is_ok());
    assert_eq!(glob("  ", None).unwrap_err().field, "pattern");
    assert_eq!(glob("", None).unwrap_err().field, "pattern");
    assert_eq!(glob("!*.rs", None).unwrap_err().field, "pattern");
    assert_eq!(glob("a\0b", None).unwrap_err().field, "pattern");
    assert_eq!(glob("*", Some(" ")).unwrap_err().field, "path");
    assert_eq!(glob("*", Some("a\0")).unwrap_err().field, "path");
}

#[test]
fn grep_rules() {
    assert!(grep(" ", None).is_ok(), "a space is a valid regex");
    assert_eq!(grep("", None).unwrap_err().field, "pattern");
    assert!(grep("x", Some("*.{ts,tsx}")).is_ok());
    // An escaped comma (Unix: on Windows a glob's `\` is a separator).
    #[cfg(unix)]
    assert!(grep("x", Some(r"a\,b")).is_ok());
    assert_eq!(grep("x", Some("*.ts,*.js")).unwrap_err().field, "include");
    assert_eq!(grep("x", Some("{a,b},c")).unwrap_err().field, "include");
    assert_eq!(grep("x", Some("!*.ts")).unwrap_err().field, "include");
    assert_eq!(grep("x", Some(" ")).unwrap_err().field, "include");
    assert_eq!(grep("x", Some("a\0")).unwrap_err().field, "include");
}

/// A glob built from parts whose answer is known by construction: the
/// model the comma rule is tested against.
#[derive(Debug, Clone)]
enum GlobPart {
    /// A character with no meaning to the rule.
    Plain(char),
    /// `\` and the character it escapes (any, `,{}\` included).
    Escaped(char),
    Comma,
    /// `{…}` around parts.
    Group(Vec<GlobPart>),
}

fn render(parts: &[GlobPart], out: &mut String) {
    for part in parts {
        match part {
            GlobPart::Plain(c) => out.push(*c),
            GlobPart::Escaped(c) => {
                out.push('\\');
                out.push(*c);
            }
            GlobPart::Comma => out.push(','),
            GlobPart::Group(inner) => {
                out.push('{');
                render(inner, out);
                out.push('}');
            }
        }
    }
}

fn part() -> impl proptest::strategy::Strategy<Value = GlobPart> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        proptest::char::ranges(vec!['a'..='c', '*'..='*', '.'..='.'].into())
            .prop_map(GlobPart::Plain),
        proptest::char::ranges(
            vec![','..=',', '{'..='{', '}'..='}', '\\'..='\\', 'x'..='x'].into()
        )
        .prop_map(GlobPart::Escaped),
        Just(GlobPart::Comma),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        proptest::collection::vec(inner, 0..4).prop_map(GlobPart::Group)
    })
}

proptest::proptest! {
    /// The comma rule agrees with the structure a glob was built from:
    /// a comma is top-level when it is a part of its own, outside every
    /// group; a stray `}` at the top changes nothing; after an
    /// unclosed `{` no comma is top-level.
    #[test]
    fn comma_rule_matches_the_structure(
        parts in proptest::collection::vec(part(), 0..6),
        stray_close in proptest::bool::ANY,
        unclosed in proptest::option::of(proptest::collection::vec(part(), 0..4)),
    ) {
        let mut glob = String::new();
        if stray_close {
            glob.push('}');
        }
        render(&parts, &mut glob);
        let top_level = parts.iter().any(|p| matches!(p, GlobPart::Comma));
        if let Some(tail) = &unclosed {
            glob.push('{');
            render(tail, &mut glob);
        }
        proptest::prop_assert_eq!(has_top_level_comma(&glob), top_level, "{:?}", glob);
    }
}
