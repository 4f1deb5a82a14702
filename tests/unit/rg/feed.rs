//! Unit tests of `src/rg/feed.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;
use crate::rg::ending::RgExit;
use crate::stop::Stop;

/// What a sink was handed.
#[derive(Default)]
struct Handed {
    chunked: Vec<u8>,
    skimmed: Vec<u8>,
}

impl Sink for Handed {
    fn chunk(&mut self, bytes: &[u8]) {
        self.chunked.extend_from_slice(bytes);
    }
    fn skim(&mut self, bytes: &[u8]) {
        self.skimmed.extend_from_slice(bytes);
    }
}

#[test]
fn the_backlog_is_parsed_within_the_budget() {
    let stop = Stop::new();
    let now = Instant::now();
    let live = Budget {
        deadline: now + Duration::from_secs(600),
        stop: &stop,
    };
    let spent = Budget {
        deadline: now,
        stop: &stop,
    };
    let later = now + Duration::from_secs(600);
    let backlog = || vec![b"ab".to_vec(), b"cd".to_vec()].into_iter();
    let exited = Ending::Exited(RgExit::Status(0));
    let timed_out = Ending::Halted(Halt::TimedOut);
    let run = |ending, budget, grace| {
        let mut seen = Handed::default();
        let halt = drain(&mut seen, backlog(), ending, budget, grace);
        (halt, seen.chunked, seen.skimmed)
    };
    assert_eq!(run(exited, live, now), (None, b"abcd".to_vec(), Vec::new()));
    // rg ended by itself, but the deadline passed before its output
    // was parsed: the run is cut short there.
    assert_eq!(
        run(exited, spent, later),
        (Some(Halt::TimedOut), Vec::new(), Vec::new())
    );
    assert_eq!(
        run(timed_out, spent, later),
        (None, b"abcd".to_vec(), Vec::new())
    );
    assert_eq!(run(timed_out, spent, now), (None, Vec::new(), Vec::new()));
    assert_eq!(
        run(Ending::Overflow, live, now),
        (None, Vec::new(), b"abcd".to_vec())
    );
    assert_eq!(
        run(Ending::Overflow, spent, later),
        (None, Vec::new(), Vec::new())
    );
    assert_eq!(
        run(Ending::Halted(Halt::Cancelled), live, later),
        (None, Vec::new(), Vec::new())
    );
}
