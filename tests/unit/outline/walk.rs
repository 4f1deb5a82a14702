//! Unit tests of `src/outline/walk.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

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
