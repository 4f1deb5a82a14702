//! A run of rg played back from what an rg printed, with no rg: the fuzz
//! targets' way into the tools' sinks, judgement, ordering and paging
//! (`crate::fuzzing`). Built with the `fuzzing` feature only; no search
//! of the product comes here.

use std::time::{Duration, Instant};

use super::report::Report;
use super::{SearchFailure, glob, grep};
use crate::request::Request;
use crate::rg::process::Finished;
use crate::rg::{Ending, Sink, Stderr};
use crate::settings::Settings;
use crate::stop::{Budget, Stop};

pub use super::matches::record_bound;
pub use super::preview::{TRUNCATED_MARK, WINDOW_MARK};

/// A run of rg, played back: what its sink parsed and skimmed of its
/// stdout, handed over `chunk` bytes at a time, and how it ended.
#[derive(Debug, Clone, Copy)]
pub struct Replay<'a> {
    /// What the sink parses.
    pub stdout: &'a [u8],
    /// After an overflow, what the sink skims after `stdout`, as the
    /// runner's feed does when its parser thread is behind.
    pub skimmed: &'a [u8],
    pub chunk: usize,
    pub ending: Ending,
    /// The longest record grep's content sink holds whole (the real bound
    /// is at least 1 MiB; a smaller one reaches the streaming reader with
    /// small inputs).
    pub record_bound: usize,
}

/// The result `request` would have under `settings` had rg printed and
/// ended as `replay` says: rg's stdout through the tool's sink, then the
/// same judgement, ordering and paging as after a real run. Nothing is
/// started: `settings` must name an rg that does not resolve, so the
/// probes of an empty result (which would run rg) add nothing.
pub fn run(
    request: &Request,
    settings: &Settings,
    stop: &Stop,
    replay: Replay<'_>,
) -> Result<Report, SearchFailure> {
    let budget = Budget {
        deadline: Instant::now() + settings.timeout(),
        stop,
    };
    match request {
        Request::Glob(r) => glob::replay(r, settings, budget, |sink| play(sink, replay)),
        Request::Grep(r) => grep::replay(r, settings, budget, replay.record_bound, |sink| {
            play(sink, replay)
        }),
    }
}

/// Hand `replay`'s stdout to `sink` in the order the runner's feed does,
/// and say how the run finished.
fn play(sink: &mut dyn Sink, replay: Replay<'_>) -> Finished {
    let Replay {
        stdout,
        skimmed,
        chunk,
        ending,
        ..
    } = replay;
    for piece in stdout.chunks(chunk.max(1)) {
        sink.chunk(piece);
    }
    for piece in skimmed.chunks(chunk.max(1)) {
        sink.skim(piece);
    }
    match ending {
        Ending::Exited(_) => sink.finish(),
        Ending::Overflow => sink.overflowed(),
        Ending::Halted(_) => {}
    }
    Finished {
        ending,
        stdout_bytes: (stdout.len() + skimmed.len()) as u64,
        stderr: Stderr::default(),
        elapsed: Duration::ZERO,
    }
}
