//! One walk of a parsed file for function context (SPEC §4): the named
//! definitions that hold a matched line, each with its lines (from the
//! comments and wrapper above it to its end) and its signature line; then
//! every matched line's holder, from them, in one sweep over the lines in
//! order. A file where every line matches costs one walk and one sweep,
//! not a walk per line.
//!
//! The walk looks only into the nodes that hold a matched line, and stops
//! when the call's budget is spent (its deadline, a signal, a
//! cancellation) or its result is no longer wanted
//! ([`crate::stop::unwanted`]): no time is spent past the reply.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use tree_sitter::Node;

use super::languages::{self, Language};
use super::{Definition, Holder, Unparsed, last_row};
use crate::stop::Budget;

/// Nodes looked at, or lines answered, between two looks at the clock.
const STEPS_PER_LOOK: usize = 1024;

/// A definition the walk found (rows 0-based).
struct Found {
    /// Its first row (its comments, attributes and wrapper included) and
    /// its last.
    start: usize,
    end: usize,
    signature: usize,
    name: String,
    kind: &'static str,
}

/// The walk's state: what it found, and what it has spent.
struct Walk<'a> {
    language: Language,
    source: &'a [u8],
    /// The matched rows, sorted, each once.
    rows: &'a [usize],
    budget: Budget<'a>,
    steps: usize,
    found: Vec<Found>,
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
    };
    walk.walk(root)?;
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

    /// The walk: iterative, and each node's siblings and wrapper are
    /// known from the walk itself (tree-sitter finds a node's parent from
    /// the root), so a deep tree costs neither stack nor time. A node's
    /// lines start at its comments above (a doc comment above an `export`
    /// belongs to the function inside it), or where its wrapper's do;
    /// every node on a matched row is looked into, not only the first (an
    /// `export` or a decorator shares its line with the definition).
    fn walk(&mut self, root: Node<'_>) -> Result<(), Unparsed> {
        // Nodes to look into: each with the definition it lies in, and
        // the row its wrapper's lines start on when it is a wrapper's
        // content.
        let mut stack: Vec<(Node<'_>, Option<Node<'_>>, Option<usize>)> = vec![(root, None, None)];
        let mut children = Vec::new();
        while let Some((node, outer, wrap)) = stack.pop() {
            let mut cursor = node.walk();
            children.clear();
            children.extend(node.children(&mut cursor));
            // The first row of the previous child, with its comments.
            let mut attached = 0;
            for (i, &child) in children.iter().enumerate() {
                self.step()?;
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
                // A token has nothing to look into.
                if !self.holds(start, end) || child.child_count() == 0 {
                    continue;
                }
                let inner_wrap = self.language.wraps(child).then_some(start);
                if let Some((name, kind)) = self.language.definition(child, self.source) {
                    self.found.push(Found {
                        start,
                        end,
                        signature: row,
                        name,
                        kind: languages::method_if_in_type(kind, outer),
                    });
                    stack.push((child, Some(child), inner_wrap));
                } else {
                    stack.push((child, outer, inner_wrap));
                }
            }
        }
        Ok(())
    }

    /// Each of `rows`' holder: the smallest definition holding it (of two
    /// as small, the one found later: the inner one).
    fn answer(&mut self, rows: &[usize]) -> Result<Vec<Holder>, Unparsed> {
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_unstable_by_key(|&i| rows[i]);
        let mut found: Vec<usize> = (0..self.found.len()).collect();
        found.sort_unstable_by_key(|&k| self.found[k].start);
        let mut holders = vec![Holder::Outside; rows.len()];
        // Definitions begun, smallest on top (ties: found later).
        let mut open: BinaryHeap<Reverse<(usize, Reverse<usize>)>> = BinaryHeap::new();
        let mut next = 0;
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
            if let Some(&Reverse((_, Reverse(k)))) = open.peek() {
                let f = &self.found[k];
                holders[i] = Holder::Definition(Definition {
                    name: f.name.clone(),
                    kind: f.kind,
                    start_line: f.start as u64 + 1,
                    end_line: f.end as u64 + 1,
                    signature_line: f.signature as u64 + 1,
                });
            }
        }
        Ok(holders)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::stop::{self, Stop};

    /// A file of 5,000 functions, parsed, and every line of it.
    fn parsed() -> (tree_sitter::Tree, Vec<u8>, Vec<usize>) {
        let source: Vec<u8> = "fn f() {\n    1\n}\n".repeat(5_000).into_bytes();
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&Language::Rust.grammar())
            .expect("the Rust grammar loads");
        let tree = parser.parse(&source, None).expect("a parse without limits");
        (tree, source, (0..15_000).collect())
    }

    /// The walk of [`parsed`] within a budget of `stop` until `deadline`.
    fn walk(stop: &Stop, deadline: Instant) -> Result<Vec<Holder>, Unparsed> {
        let (tree, source, rows) = parsed();
        let budget = Budget { deadline, stop };
        holders(tree.root_node(), Language::Rust, &source, &rows, budget)
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    #[test]
    fn the_walk_stops_at_the_deadline_and_at_a_signal() {
        assert!(matches!(walk(&Stop::new(), soon()), Ok(ref h) if h.len() == 15_000));
        assert_eq!(walk(&Stop::new(), Instant::now()), Err(Unparsed::TooSlow));
        let signalled = Stop::new();
        signalled.signal_slot().store(15, Ordering::SeqCst);
        assert_eq!(walk(&signalled, soon()), Err(Unparsed::TooSlow));
    }

    /// The watchdog gave up on the call this thread works for (see
    /// `stop::unwanted`): the walk stops, its budget still good.
    #[test]
    fn the_walk_stops_when_the_call_is_given_up_on() {
        let call = Arc::new(Stop::new());
        let worker = {
            let call = Arc::clone(&call);
            std::thread::spawn(move || {
                stop::work_for(&call);
                call.cancel();
                walk(&Stop::new(), soon()).err()
            })
        };
        assert_eq!(worker.join().ok().flatten(), Some(Unparsed::TooSlow));
    }
}
