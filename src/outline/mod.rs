//! Function context (SPEC §3a, §4): the smallest named definition that
//! holds a line of a file (a function or method; else the type, impl,
//! class or module), found by parsing the file with tree-sitter, the
//! parser Zed, Aider's repo map and GitHub's code navigation use.
//!
//! The language is chosen as rg's `--type` chooses it: by rg's own type
//! globs (the `ignore` crate's defaults), in the order of [`LANGUAGES`]
//! (C++ before C, so a `.h` file, which both claim, is read as C++, whose
//! grammar reads C too). `languages` says, for each, which nodes are
//! definitions and where their names are.

mod languages;

use std::ops::ControlFlow;
use std::sync::OnceLock;
use std::time::Instant;

use ignore::types::{Types, TypesBuilder};
use tree_sitter::{Node, ParseOptions, Parser};

use languages::LANGUAGES;
pub use languages::Language;

/// The largest file parsed; a bigger one gets plain context.
pub const MAX_PARSE_BYTES: usize = 4 * 1024 * 1024;

/// A definition that holds a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub name: String,
    /// `function`, `method`, `class`, `struct`, `impl`, …
    pub kind: &'static str,
    /// 1-based, inclusive: from its doc comment or attributes, if any.
    pub start_line: u64,
    pub end_line: u64,
    /// The line that starts the definition itself (`fn`, `def`, `class`):
    /// what a long definition shows above its matches.
    pub signature_line: u64,
}

/// The language rg's types give the file at `path`, if one has a parser.
pub fn language_of(path: &str) -> Option<Language> {
    static MATCHERS: OnceLock<Vec<(Language, Types)>> = OnceLock::new();
    let matchers = MATCHERS.get_or_init(|| {
        LANGUAGES
            .iter()
            .filter_map(|&(language, rg_type)| {
                let mut builder = TypesBuilder::new();
                builder.add_defaults();
                builder.select(rg_type);
                builder.build().ok().map(|types| (language, types))
            })
            .collect()
    });
    let file = std::path::Path::new(path);
    let name = file.file_name()?;
    matchers
        .iter()
        .find(|(_, types)| types.matched(name, false).is_whitelist())
        .map(|&(language, _)| language.refine(path))
}

/// Why a file's definitions are not known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unparsed {
    /// Over [`MAX_PARSE_BYTES`].
    TooBig,
    /// The parse did not end by the deadline.
    TooSlow,
    /// The parser gave up.
    Failed,
}

/// The definition holding each of `lines` (1-based) in `source`, parsed as
/// `language`, before `deadline`.
pub fn definitions(
    source: &[u8],
    language: Language,
    lines: &[u64],
    deadline: Instant,
) -> Result<Vec<Option<Definition>>, Unparsed> {
    if source.len() > MAX_PARSE_BYTES {
        return Err(Unparsed::TooBig);
    }
    let mut parser = Parser::new();
    parser
        .set_language(&language.grammar())
        .map_err(|_| Unparsed::Failed)?;
    let mut late = false;
    let mut progress = |_: &tree_sitter::ParseState| {
        if Instant::now() >= deadline {
            late = true;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let len = source.len();
    let tree = parser.parse_with_options(
        &mut |i, _| if i < len { &source[i..] } else { &[][..] },
        None,
        Some(ParseOptions::new().progress_callback(&mut progress)),
    );
    let Some(tree) = tree else {
        return Err(if late {
            Unparsed::TooSlow
        } else {
            Unparsed::Failed
        });
    };
    let root = tree.root_node();
    Ok(lines
        .iter()
        .map(|&line| innermost(root, line.saturating_sub(1) as usize, language, source))
        .collect())
}

/// The smallest named definition under `root` that holds `row`, its
/// lines counted from the comments and attributes right above it and from
/// what wraps it (a decorator, a `template` line, an `export`). Every node
/// on the row is looked into, not only the first (an `export` or a
/// decorator shares its line with the definition); a node that only ends
/// at the start of the row (a comment with its newline) does not hold it.
/// Iterative, and each node's siblings and wrapper are known from the
/// walk itself (tree-sitter finds a node's parent from the root): a deep
/// tree costs neither stack nor time.
fn innermost(root: Node<'_>, row: usize, language: Language, source: &[u8]) -> Option<Definition> {
    let mut best: Option<Definition> = None;
    // Nodes to look into: each with the definition it lies in, and the
    // row its wrapper's lines start on when it is a wrapper's content.
    let mut stack: Vec<(Node<'_>, Option<Node<'_>>, Option<usize>)> = vec![(root, None, None)];
    let mut children = Vec::new();
    while let Some((node, outer, wrap)) = stack.pop() {
        let mut cursor = node.walk();
        children.clear();
        children.extend(node.children(&mut cursor));
        for (i, &child) in children.iter().enumerate() {
            // A node's lines start at its comments above (a doc comment
            // above an `export` belongs to the function inside it), or
            // where its wrapper's do.
            let own = languages::attached_row(&children[..i], child.start_position().row);
            let start = wrap.map_or(own, |w| w.min(own));
            if start > row || last_row(child) < row {
                continue;
            }
            let inner_wrap = language.wraps(child).then_some(start);
            match language.definition(child, source) {
                Some((name, kind)) => {
                    let found = Definition {
                        name,
                        kind: languages::method_if_in_type(kind, outer),
                        start_line: start as u64 + 1,
                        end_line: last_row(child) as u64 + 1,
                        signature_line: child.start_position().row as u64 + 1,
                    };
                    let span = |d: &Definition| d.end_line - d.start_line;
                    if best.as_ref().is_none_or(|b| span(&found) <= span(b)) {
                        best = Some(found);
                    }
                    stack.push((child, Some(child), inner_wrap));
                }
                None => stack.push((child, outer, inner_wrap)),
            }
        }
    }
    best
}

/// The last row a node's text is on (a node that ends at the start of a
/// line, after its newline, ends on the line before).
fn last_row(node: Node<'_>) -> usize {
    let end = node.end_position();
    if end.column == 0 && end.row > node.start_position().row {
        end.row - 1
    } else {
        end.row
    }
}

/// The text of `node`, lossily.
fn text(node: Node<'_>, source: &[u8]) -> String {
    String::from_utf8_lossy(&source[node.byte_range()]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(60)
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
        assert_eq!(found, vec![None, Some(f.clone()), Some(f.clone()), Some(f)]);
    }

    #[test]
    fn a_javascript_function_assigned_is_named_by_its_target() {
        let source = b"inst.run = (p) => {\n  go(p);\n};\n";
        let found = definitions(source, Language::JavaScript, &[2], soon()).unwrap();
        let d = found[0].as_ref().unwrap();
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
        let late = definitions(many.as_bytes(), Language::Rust, &[1], Instant::now());
        assert_eq!(late, Err(Unparsed::TooSlow));
    }
}
