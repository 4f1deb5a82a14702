//! Function context (SPEC §3a, §4): the smallest named definition that
//! holds a line of a file (a function or method; else the type, impl,
//! class or module), found by parsing the file with tree-sitter, the
//! parser Zed, Aider's repo map and GitHub's code navigation use.
//!
//! The language is chosen as rg's `--type` chooses it: by rg's own type
//! globs (the `ignore` crate's defaults), in the order of [`LANGUAGES`]
//! (C++ before C, so a `.h` file, which both claim, is read as C++, whose
//! grammar reads C too). `languages` says, for each, which nodes are
//! definitions and where their names are; `walk` finds, in one walk of
//! the tree, what holds each matched line, and whether its parse can be
//! trusted: a cut definition must never look whole.

mod languages;
mod walk;

use std::ops::ControlFlow;
use std::sync::OnceLock;

use ignore::types::{Types, TypesBuilder};
use tree_sitter::{Node, ParseOptions, Parser, Tree};

use crate::stop::Budget;
use languages::LANGUAGES;
pub use languages::Language;

/// The largest file parsed; a bigger one gets plain context.
pub const MAX_PARSE_BYTES: usize = 4 * 1024 * 1024;

/// What holds a line of a file, as far as its parse tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// No definition holds it.
    Outside,
    /// The smallest named definition that holds it, parsed cleanly.
    Definition(Definition),
    /// The parse of what holds it cannot be trusted: a syntax error in
    /// the smallest definition holding it or, outside any, around it; a
    /// definition its parse ended early (the lines after it indented as
    /// its body); a Rust macro's body. Where it ends is not known.
    Unclean,
}

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
    let name = std::path::Path::new(path).file_name()?;
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
    /// The parse, or the walk after it, did not end by the deadline, or
    /// was stopped (a signal, a cancellation, the call given up on).
    TooSlow,
    /// The parser gave up.
    Failed,
}

/// The lines a call shows (function context's page): only their holders
/// must be exact, so the parse may stop short of the end of the file.
#[derive(Debug, Clone, Copy)]
pub struct Needed {
    /// The last line (1-based) whose holder is shown.
    pub last: u64,
    /// How many lines before itself a line past `last` shows when no
    /// definition holds it (the context asked for): it must not reach
    /// back to `last`.
    pub reach: u64,
}

/// How far past the last needed line a shortened parse reads.
const PREFIX_MARGIN: usize = 32 * 1024;

/// [`definitions_for`] with no `needed`: the whole of `source` parsed.
#[cfg(any(test, feature = "fuzzing"))]
pub fn definitions(
    source: &[u8],
    language: Language,
    lines: &[u64],
    budget: Budget<'_>,
) -> Result<Vec<Holder>, Unparsed> {
    definitions_for(source, language, lines, None, budget)
}

/// What holds each of `lines` (1-based, in any order) in `source`,
/// parsed as `language`, within `budget`. The parse, and the walk and
/// sweep after it (see `walk`), stop when the budget says so and when the
/// call's result is no longer wanted ([`crate::stop::unwanted`]).
///
/// With `needed`, only the source up to a margin past `needed.last` may
/// be parsed, when that gives what the whole parse gives (see
/// [`from_prefix`]); the lines past what it could vouch for are then
/// [`Holder::Outside`], never shown.
pub fn definitions_for(
    source: &[u8],
    language: Language,
    lines: &[u64],
    needed: Option<Needed>,
    budget: Budget<'_>,
) -> Result<Vec<Holder>, Unparsed> {
    if source.len() > MAX_PARSE_BYTES {
        return Err(Unparsed::TooBig);
    }
    let rows: Vec<usize> = lines
        .iter()
        .map(|&line| usize::try_from(line.saturating_sub(1)).unwrap_or(usize::MAX))
        .collect();
    if let Some(needed) = needed {
        let shorter = source.len() / 4 * 3;
        let prefix = from_prefix(
            source,
            language,
            &rows,
            needed,
            PREFIX_MARGIN,
            shorter,
            budget,
        )?;
        if let Some(holders) = prefix {
            return Ok(holders);
        }
    }
    let tree = parse(source, language, budget)?;
    walk::holders(tree.root_node(), language, source, &rows, budget)
}

/// `source` parsed as `language`, within `budget`.
fn parse(source: &[u8], language: Language, budget: Budget<'_>) -> Result<Tree, Unparsed> {
    let mut parser = Parser::new();
    parser
        .set_language(&language.grammar())
        .map_err(|_| Unparsed::Failed)?;
    let mut late = false;
    let mut progress = |_: &tree_sitter::ParseState| {
        if stopped(budget) {
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
    tree.ok_or(if late {
        Unparsed::TooSlow
    } else {
        Unparsed::Failed
    })
}

/// The holders of `rows` from a parse of the start of `source` only (to
/// the end of the line `margin` bytes past the last needed row's end,
/// if that is `shorter` than the whole), when it can vouch for every row
/// `needed` asks for; `None` when the whole must be parsed.
///
/// A parser reads left to right: the top-level nodes it has finished
/// before the last one of the prefix (and the comments and attributes
/// right above that one, which may belong to it) are the nodes a parse of
/// the whole file finishes there too. So the prefix vouches for the rows
/// above that last block of nodes, when none of the nodes above it holds
/// a syntax error and each needed row's definition ends above it. The
/// rows below are answered [`Holder::Outside`]: shown with the context
/// asked for, each reaches back `needed.reach` lines at most, which must
/// stay below the needed rows (a shown row's window spans no further
/// than the rows after it reach). `tests::a_prefix_parse_answers_as_the_whole`
/// checks this against whole parses of every fixture at every length.
fn from_prefix(
    source: &[u8],
    language: Language,
    rows: &[usize],
    needed: Needed,
    margin: usize,
    shorter: usize,
    budget: Budget<'_>,
) -> Result<Option<Vec<Holder>>, Unparsed> {
    let last = usize::try_from(needed.last.saturating_sub(1)).unwrap_or(usize::MAX);
    let reach = usize::try_from(needed.reach).unwrap_or(usize::MAX);
    let Some(after_last) = memchr::memchr_iter(b'\n', source).nth(last) else {
        return Ok(None);
    };
    let cut = after_last.saturating_add(margin);
    let Some(cut) = memchr::memchr(b'\n', source.get(cut..).unwrap_or_default())
        .map(|i| cut + i + 1)
        .filter(|&cut| cut < shorter)
    else {
        return Ok(None);
    };
    let prefix = &source[..cut];
    let tree = parse(prefix, language, budget)?;
    let root = tree.root_node();
    let Some(stable) = stable_rows(root) else {
        return Ok(None);
    };
    let past = |row: usize| row >= stable;
    if past(last)
        || rows
            .iter()
            .any(|&r| past(r) && r.saturating_sub(reach) <= last)
    {
        return Ok(None);
    }
    let inside: Vec<usize> = rows.iter().copied().filter(|&r| !past(r)).collect();
    let mut found = walk::holders(root, language, prefix, &inside, budget)?.into_iter();
    let mut holders = Vec::with_capacity(rows.len());
    for &row in rows {
        if past(row) {
            holders.push(Holder::Outside);
            continue;
        }
        match found.next() {
            Some(Holder::Definition(d))
                if usize::try_from(d.end_line).is_ok_and(|end| end <= stable) =>
            {
                holders.push(Holder::Definition(d));
            }
            Some(Holder::Outside) => holders.push(Holder::Outside),
            _ => return Ok(None),
        }
    }
    Ok(Some(holders))
}

/// The rows of a prefix's parse (`root`) that the rest of the file cannot
/// change: those above its last top-level node and the nodes right above
/// it with no blank line between (a comment or attribute of its); `None`
/// when there are none, or a node among them holds a syntax error.
fn stable_rows(root: Node<'_>) -> Option<usize> {
    let mut cursor = root.walk();
    let children: Vec<Node<'_>> = root.children(&mut cursor).collect();
    let mut first = children.len().checked_sub(1)?;
    while first > 0 && children[first].start_position().row <= last_row(children[first - 1]) + 1 {
        first -= 1;
    }
    if first == 0
        || children[..first]
            .iter()
            .any(|c| c.has_error() || c.is_missing())
    {
        return None;
    }
    Some(children[first].start_position().row)
}

/// Whether function context's work for a call should stop now: its
/// budget is spent (the deadline, a signal, a cancellation), or the call
/// was given up on.
fn stopped(budget: Budget<'_>) -> bool {
    budget.check().is_err() || crate::stop::unwanted()
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
#[path = "../../tests/unit/outline.rs"]
mod tests;
