//! One walk of a parsed file for function context (SPEC §4): the named
//! definitions that hold a matched line, each with its lines (from the
//! comments and wrapper above it to its end), its signature line and
//! whether its parse can be trusted, and the places where the parse
//! failed; then every matched line's holder, from them, in one sweep over
//! the lines in order. A file where every line matches costs one walk and
//! one sweep, not a walk per line.
//!
//! The walk looks only into the nodes that hold a matched line or hold a
//! syntax error (tree-sitter marks the ancestors of one), and stops when
//! the call's budget is spent (its deadline, a signal, a cancellation) or
//! its result is no longer wanted ([`crate::stop::unwanted`]): no time is
//! spent past the reply.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

use tree_sitter::Node;

use super::languages::{self, Language};
use super::{Definition, Holder, Unparsed, last_row};
use crate::stop::Budget;

/// Nodes looked at, or lines answered, between two looks at the clock.
const STEPS_PER_LOOK: usize = 1024;

/// The deepest indentation read of a node's first child (see
/// [`line_indent`]).
const FIRST_INDENT: usize = 256;

/// A definition the walk found (rows 0-based).
struct FoundDefinition {
    /// Its first row (its comments, attributes and wrapper included) and
    /// its last (the lines its parse left outside it included, when cut).
    start: usize,
    end: usize,
    signature: usize,
    name: String,
    kind: &'static str,
    /// Its own bytes, to find the syntax errors in it.
    bytes: Range<usize>,
    has_error: bool,
    /// Lines right after it are indented as its body, but the parse left
    /// them outside it: its end is not known.
    cut: bool,
}

/// The walk's state: what it found, and what it has spent.
struct Walk<'a> {
    language: Language,
    source: &'a [u8],
    /// The matched rows, sorted, each once.
    rows: &'a [usize],
    budget: Budget<'a>,
    steps: usize,
    found: Vec<FoundDefinition>,
    /// The rows of the places the parse failed: an ERROR node, a node
    /// missing a token but `;` (a missing `;` ends no definition, and C's
    /// statement macros, `list_for_each(…) {`, read as a call without
    /// one), a Rust macro's body (token trees, where the grammar sees no
    /// definition).
    broken: Vec<(usize, usize)>,
    /// The bytes of the ERROR nodes and missing tokens among them: a
    /// definition that holds one is not parsed cleanly.
    errors: Vec<Range<usize>>,
}

/// Each matched row's holder, in the order of `rows` (0-based, any
/// order); `Err` when stopped.
pub fn holders(
    root: Node<'_>,
    language: Language,
    source: &[u8],
    rows: &[usize],
    budget: Budget<'_>,
) -> Result<Vec<Holder>, Unparsed> {
    let mut sorted = rows.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut walk = Walk {
        language,
        source,
        rows: &sorted,
        budget,
        steps: 0,
        found: Vec::new(),
        broken: Vec::new(),
        errors: Vec::new(),
    };
    walk.walk(root)?;
    walk.errors.sort_unstable_by_key(|r| (r.start, r.end));
    walk.answer(rows)
}

impl Walk<'_> {
    /// Count a step; `Err` once the work should stop (looked at every
    /// [`STEPS_PER_LOOK`] steps).
    fn step(&mut self) -> Result<(), Unparsed> {
        self.steps += 1;
        if self.steps % STEPS_PER_LOOK == 0 && super::stopped(self.budget) {
            return Err(Unparsed::TooSlow);
        }
        Ok(())
    }

    /// Whether a matched row lies in `start..=end`.
    fn holds(&self, start: usize, end: usize) -> bool {
        let i = self.rows.partition_point(|&r| r < start);
        self.rows.get(i).is_some_and(|&r| r <= end)
    }

    /// Note a syntax error, if `node` is one, that fails the parse of its
    /// lines, or, for a missing token, of `parent`'s.
    fn note_error(&mut self, node: Node<'_>, parent: Node<'_>) {
        if node.is_error() {
            self.broken
                .push((node.start_position().row, last_row(node)));
            self.errors.push(node.byte_range());
        } else if node.is_missing() && node.kind() != ";" {
            self.broken
                .push((parent.start_position().row, last_row(parent)));
            self.errors.push(node.byte_range());
        }
    }

    /// The walk: iterative, and each node's siblings and wrapper are
    /// known from the walk itself (tree-sitter finds a node's parent from
    /// the root), so a deep tree costs neither stack nor time. A node's
    /// lines start at its comments above (a doc comment above an `export`
    /// belongs to the function inside it), or where its wrapper's do;
    /// every node on a matched row is looked into, not only the first (an
    /// `export` or a decorator shares its line with the definition).
    fn walk(&mut self, root: Node<'_>) -> Result<(), Unparsed> {
        if root.is_error() {
            self.broken.push((0, last_row(root)));
            self.errors.push(root.byte_range());
        }
        // Nodes to look into: each with the definition it lies in, and
        // the row its wrapper's lines start on when it is a wrapper's
        // content.
        let mut stack: Vec<(Node<'_>, Option<Node<'_>>, Option<usize>)> = vec![(root, None, None)];
        let mut children = Vec::new();
        while let Some((node, outer, wrap)) = stack.pop() {
            let mut cursor = node.walk();
            children.clear();
            children.extend(node.children(&mut cursor));
            let mut indents = Indents::default();
            // The first row of the previous child, with its comments.
            let mut attached = 0;
            for (i, &child) in children.iter().enumerate() {
                self.step()?;
                self.note_error(child, node);
                let row = child.start_position().row;
                let prev = i.checked_sub(1).map(|p| children[p]);
                let before_prev = i.checked_sub(2).map(|q| children[q]);
                let own = match prev {
                    Some(p) if languages::attaches(p, before_prev, row) => attached,
                    _ => row,
                };
                attached = own;
                let start = wrap.map_or(own, |w| w.min(own));
                let end = last_row(child);
                if let Some(tail) = indents.next(i, child, prev, self.source) {
                    self.cut(children[tail.anchor], tail, outer);
                }
                let holds = self.holds(start, end);
                // A token has nothing to look into.
                if (!holds && !child.has_error()) || child.child_count() == 0 {
                    continue;
                }
                let inner_wrap = self.language.wraps(child).then_some(start);
                let defined = if holds {
                    self.language.definition(child, self.source)
                } else {
                    None
                };
                if let Some((name, kind)) = defined {
                    indents.found(i, self.found.len());
                    self.found.push(FoundDefinition {
                        start,
                        end,
                        signature: row,
                        name,
                        kind: languages::method_if_in_type(kind, outer),
                        bytes: child.byte_range(),
                        has_error: child.has_error(),
                        cut: false,
                    });
                    stack.push((child, Some(child), inner_wrap));
                } else {
                    if holds && self.language.token_trees(child) && row < end {
                        self.broken.push((row, end));
                    }
                    stack.push((child, outer, inner_wrap));
                }
            }
            if let Some(tail) = indents.finish() {
                self.cut(children[tail.anchor], tail, outer);
            }
        }
        Ok(())
    }

    /// `node` is followed by lines indented deeper than it (`tail`) that
    /// its parse left outside it: if it is a definition, it is cut, and
    /// its lines are taken to run to the tail's end, so that a match there
    /// is known to lie in it.
    fn cut(&mut self, node: Node<'_>, tail: Tail, outer: Option<Node<'_>>) {
        if let Some(found) = tail.found.and_then(|k| self.found.get_mut(k)) {
            found.end = found.end.max(tail.end);
            found.cut = true;
            return;
        }
        let row = node.start_position().row;
        if !self.holds(row, tail.end) {
            return;
        }
        if let Some((name, kind)) = self.language.definition(node, self.source) {
            self.found.push(FoundDefinition {
                start: row,
                end: tail.end,
                signature: row,
                name,
                kind: languages::method_if_in_type(kind, outer),
                bytes: node.byte_range(),
                has_error: node.has_error(),
                cut: true,
            });
        }
    }

    /// Whether the parse of a definition can be trusted: no syntax error
    /// that can move its end lies in it, and it is not cut.
    fn clean(&self, found: &FoundDefinition) -> bool {
        if found.cut {
            return false;
        }
        if !found.has_error {
            return true;
        }
        let Range { start, end } = found.bytes;
        // Sorted by (start, end): the errors that start where it starts
        // (the shortest first; an ERROR node wrapping it starts there too),
        // then those that start inside it.
        let from = self.errors.partition_point(|e| e.start < start);
        let at_start = self
            .errors
            .get(from)
            .is_some_and(|e| e.start == start && e.end < end);
        let after = self.errors.partition_point(|e| e.start <= start);
        !(at_start || self.errors.get(after).is_some_and(|e| e.start <= end))
    }

    /// Each of `rows`' holder: the smallest definition holding it (of two
    /// as small, the one found later: the inner one), as found when its
    /// parse is clean; else, when a failed parse holds it, `Unclean`.
    fn answer(&mut self, rows: &[usize]) -> Result<Vec<Holder>, Unparsed> {
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_unstable_by_key(|&i| rows[i]);
        let mut found: Vec<usize> = (0..self.found.len()).collect();
        found.sort_unstable_by_key(|&k| self.found[k].start);
        self.broken.sort_unstable();
        let mut holders = vec![Holder::Outside; rows.len()];
        // Definitions begun, smallest on top (ties: found later); failed
        // places begun, the one ending first on top.
        let mut open: BinaryHeap<Reverse<(usize, Reverse<usize>)>> = BinaryHeap::new();
        let mut failed: BinaryHeap<Reverse<usize>> = BinaryHeap::new();
        let (mut next, mut next_broken) = (0, 0);
        for i in order {
            self.step()?;
            let row = rows[i];
            while let Some(&k) = found.get(next).filter(|&&k| self.found[k].start <= row) {
                let f = &self.found[k];
                open.push(Reverse((f.end - f.start, Reverse(k))));
                next += 1;
            }
            while open
                .peek()
                .is_some_and(|&Reverse((_, Reverse(k)))| self.found[k].end < row)
            {
                open.pop();
            }
            while let Some(&(_, end)) = self.broken.get(next_broken).filter(|b| b.0 <= row) {
                failed.push(Reverse(end));
                next_broken += 1;
            }
            while failed.peek().is_some_and(|&Reverse(end)| end < row) {
                failed.pop();
            }
            holders[i] = match open.peek() {
                Some(&Reverse((_, Reverse(k)))) if self.clean(&self.found[k]) => {
                    let f = &self.found[k];
                    Holder::Definition(Definition {
                        name: f.name.clone(),
                        kind: f.kind,
                        start_line: f.start as u64 + 1,
                        end_line: f.end as u64 + 1,
                        signature_line: f.signature as u64 + 1,
                    })
                }
                None if failed.is_empty() => Holder::Outside,
                Some(_) | None => Holder::Unclean,
            };
        }
        Ok(holders)
    }
}

/// The indentation of one node's children, as the walk meets them: a
/// child that starts a line indented deeper than the child before it that
/// did (its anchor) continues the anchor's lines. In a parse that holds,
/// the lines after a definition are never indented as its body: when they
/// are, the parse ended it early (Python's dedent by two spaces, a stray
/// `}` in Rust).
#[derive(Default)]
struct Indents {
    /// The anchor's index, its indentation, its definition found (if it
    /// was), and the last row of the deeper lines after it.
    anchor: Option<(usize, usize, Option<usize>, Option<usize>)>,
}

/// An anchor followed by deeper lines.
#[derive(Debug, Clone, Copy)]
struct Tail {
    /// Its index among the children.
    anchor: usize,
    /// Its definition, if the walk found it.
    found: Option<usize>,
    /// The last row of the deeper lines.
    end: usize,
}

impl Indents {
    /// Meet child `i`, `prev` the child before it; the anchor before it
    /// and its deeper lines, when this child ends them.
    fn next(
        &mut self,
        i: usize,
        child: Node<'_>,
        prev: Option<Node<'_>>,
        source: &[u8],
    ) -> Option<Tail> {
        if child.kind().contains("comment") {
            return None;
        }
        let indent = line_indent(child, prev, source)?;
        if let Some((_, deeper, _, tail)) = &mut self.anchor {
            if indent > *deeper {
                *tail = Some(last_row(child));
                return None;
            }
        }
        let ended = self.finish();
        self.anchor = Some((i, indent, None, None));
        ended
    }

    /// Child `i` is the definition found `k`th.
    fn found(&mut self, i: usize, k: usize) {
        if let Some((anchor, _, found, _)) = &mut self.anchor {
            if *anchor == i {
                *found = Some(k);
            }
        }
    }

    /// The anchor and its deeper lines, if it has any.
    fn finish(&mut self) -> Option<Tail> {
        match self.anchor.take() {
            Some((anchor, _, found, Some(end))) => Some(Tail { anchor, found, end }),
            _ => None,
        }
    }
}

/// The indentation of the line `node` starts, when it is the first thing
/// on it (its column: bytes of blanks before it). Every byte of a node
/// belongs to one of its children, so a child starts its line when the
/// child before it, `prev`, ends on an earlier one; the first child's line
/// is read, up to [`FIRST_INDENT`] bytes of it, so that a long line costs
/// no time per child.
fn line_indent(node: Node<'_>, prev: Option<Node<'_>>, source: &[u8]) -> Option<usize> {
    let start = node.start_position();
    if let Some(prev) = prev {
        return (prev.end_position().row < start.row).then_some(start.column);
    }
    if start.column > FIRST_INDENT {
        return None;
    }
    let at = node.start_byte();
    let before = source.get(at.checked_sub(start.column)?..at)?;
    before
        .iter()
        .all(|&b| b == b' ' || b == b'\t')
        .then_some(start.column)
}

#[cfg(test)]
#[path = "../../tests/unit/outline/walk.rs"]
mod tests;
