//! The only code that starts a process: one rg [`CommandLine`] run to its end or
//! to the first limit it hits, its stdout counted against the byte cap and
//! handed to a [`Sink`], its stderr kept bounded.
//!
//! The run is the same on every OS; how a child is started, watched and
//! killed is not, and sits behind one small interface, [`os::Child`]
//! (`process/unix.rs`, `process/windows.rs`), which each OS module
//! implements with the same steps:
//!
//! - `start`: rg in the workdir, stdin empty (SPEC §2: with no path and a
//!   piped stdin rg would search stdin), stdout and stderr piped,
//!   `RIPGREP_CONFIG_PATH` removed, in a group of its own that can be
//!   killed at once: on Unix `/bin/sh -c SCRIPT` in a process group, on
//!   Windows rg itself in a Job Object (SPEC §10);
//! - `read`, `pipes_done`, `exited`: what the one [`watch`] loop here asks
//!   of the child while it reads both pipes until rg has exited and both
//!   are done, or until a limit cuts the run short: one byte over the cap
//!   (the [`Meter`]), the deadline, or the [`Budget`]'s stop channel (a
//!   signal, a cancellation);
//! - `kill`: the whole group, whatever ended the run, so nothing rg
//!   started outlives it; `kill_from_anywhere`, the same kill as a closure
//!   the call's [`Stop`](crate::stop::Stop) keeps while the group runs, for
//!   the watchdog;
//! - `reap`: rg's exit status and the stderr kept.
//!
//! Here, shared: the watch loop (when to look at rg's exit, how long to
//! drain a pipe a stray process holds), the byte meter, and the end of
//! every run: the group killed and reaped, then the feed (stdout to the
//! sink, parsed on a thread once it is large) told how the run ended, an
//! [`Ending`]. What the run *means* (exit 2 with results, a pattern error) is the
//! search layer's call: this module reports facts only.

use std::io;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::{Duration, Instant};

use super::command::{self, CommandLine};
use super::ending::{Ending, RgExit};
use super::feed::{Feed, ListingSink, Sink};
use super::stderr::Stderr;
use crate::stop::Budget;

#[cfg_attr(unix, path = "process/unix.rs")]
#[cfg_attr(windows, path = "process/windows.rs")]
mod os;

pub use os::too_long;

/// The longest the runner sleeps between looks at the stop channel, the
/// deadline and rg's exit. Output wakes it at once.
const TICK: Duration = Duration::from_millis(20);
/// After rg has exited with a pipe still open: how long to wait for more
/// bytes before deciding that only a stray process holds it.
const DRAIN_QUIET: Duration = Duration::from_millis(10);
/// ... and how long to drain at most (a stray writer could write forever).
const DRAIN_LIMIT: Duration = Duration::from_millis(100);
/// The first wait for rg's exit once both pipes are done, doubling to
/// [`TICK`]: rg closes its pipes a moment before it exits, so the first
/// looks come soon.
const FIRST_BACKOFF: Duration = Duration::from_micros(20);
const READ_CHUNK: usize = 256 * 1024;
/// Exit status reported if rg's status cannot be collected: an rg
/// failure, never mistaken for "rg not found" (127) or a result.
const UNKNOWN_STATUS: i32 = 255;

/// What to run.
#[derive(Debug, Clone, Copy)]
pub struct Spec<'a> {
    pub line: &'a CommandLine,
    pub workdir: &'a Path,
    /// The call's deadline and stop channel.
    pub budget: Budget<'a>,
    /// rg stdout bytes the sink may receive; one more byte is an overflow.
    /// Every byte counts, those of a record too large for the sink to hold
    /// included (it reads such a record as it streams): SPEC §6 bounds raw
    /// output, not what a sink chose to keep.
    pub stdout_cap: u64,
}

/// The facts of one run.
#[derive(Debug, Clone)]
pub struct Finished {
    pub ending: Ending,
    /// stdout bytes received (at most the cap + one read's worth).
    pub stdout_bytes: u64,
    pub stderr: Stderr,
    pub elapsed: Duration,
}

/// Run `spec.line` to completion or to the first limit it hits. `Err` only
/// when it could not be started.
pub fn run<S: Sink>(spec: &Spec<'_>, sink: &mut S) -> io::Result<Finished> {
    let started = Instant::now();
    // The watchdog may kill the group from its own thread while this one
    // is stuck (SPEC §6: the deadline bounds the whole call), and a server
    // going away kills what its index runs: enrolled as it starts.
    let starting = spec
        .budget
        .check()
        .and_then(|()| spec.budget.stop.starting());
    let starting = match starting {
        Ok(starting) => starting,
        Err(halt) => {
            return Ok(Finished {
                ending: Ending::Halted(halt),
                stdout_bytes: 0,
                stderr: Stderr::default(),
                elapsed: started.elapsed(),
            });
        }
    };
    let mut child = os::Child::start(spec)?;
    let enrolled = starting.enroll(child.kill_from_anywhere());
    let handback = AtomicBool::new(false);
    let mut meter = Meter::new(spec.stdout_cap);
    let (ending, stderr) = thread::scope(|scope| {
        let mut feed = Feed::new(sink);
        let cut = watch(&mut child, spec.budget, &mut meter, &mut |bytes| {
            feed.push(bytes, scope, &handback);
        });
        // Whatever ended the run, nothing of the group outlives it.
        child.kill();
        // Forgotten before the reap: a kill must never name a reaped group.
        drop(enrolled);
        let (exit, stderr) = child.reap();
        let ending = cut.unwrap_or(Ending::Exited(exit));
        // Parsing what is left stays within the budget too: a run rg
        // ended by itself is still cut short if that parse is not done
        // by the deadline.
        let late = feed.finish(ending, &handback, spec.budget);
        (late.map_or(ending, Ending::Halted), stderr)
    });
    Ok(Finished {
        ending,
        stdout_bytes: meter.counted,
        stderr,
        elapsed: started.elapsed(),
    })
}

/// The watch, the same on every OS: until rg has exited and both pipes are
/// done (`None`), or until a limit cuts the run short (`Some`: an
/// [`Ending::Overflow`] or an [`Ending::Halted`]). When rg has exited with
/// a pipe still open, what is left of the group is killed (a process that
/// escaped it and holds the pipe is only cut off), what is already in the
/// pipes is read, and the run ends once they are quiet, or after
/// [`DRAIN_LIMIT`] at most.
fn watch(
    child: &mut os::Child,
    budget: Budget<'_>,
    meter: &mut Meter,
    feed: &mut impl FnMut(&[u8]),
) -> Option<Ending> {
    let mut last_look = Instant::now();
    // Set once rg has exited with a pipe still open: drain until then.
    let mut drain_until: Option<Instant> = None;
    let mut backoff = FIRST_BACKOFF;
    loop {
        if let Err(halt) = budget.check() {
            return Some(Ending::Halted(halt));
        }
        if child.pipes_done() {
            // rg is exiting or has exited. Look soon, then less and less
            // often (one that closed its pipes but runs on still ends at
            // the deadline).
            if drain_until.is_some() || child.exited() {
                return None;
            }
            thread::sleep(backoff.min(budget.remaining()));
            backoff = (backoff * 2).min(TICK);
            continue;
        }
        let wait = if drain_until.is_some() {
            DRAIN_QUIET
        } else {
            TICK
        };
        let woke = child.read(wait.min(budget.remaining()), meter, feed);
        if meter.over() {
            return Some(Ending::Overflow);
        }
        if let Some(until) = drain_until {
            // Only strays hold the pipes now: stop when they are quiet.
            if !woke || Instant::now() >= until {
                return None;
            }
            continue;
        }
        if last_look.elapsed() >= TICK {
            last_look = Instant::now();
            if child.exited() {
                // Kill what rg left behind; what it wrote stays readable.
                child.kill();
                drain_until = Some(Instant::now() + DRAIN_LIMIT);
            }
        }
    }
}

/// Counts stdout against the cap (see [`Spec::stdout_cap`]).
#[derive(Debug)]
struct Meter {
    cap: u64,
    /// Every byte read, those past the cap included.
    counted: u64,
}

impl Meter {
    fn new(cap: u64) -> Self {
        Self { cap, counted: 0 }
    }

    /// Count `chunk`; `Err(n)` when the cap is passed, with `n` the bytes
    /// of `chunk` that fit under it.
    fn count(&mut self, chunk: &[u8]) -> Result<(), usize> {
        let room = self.cap.saturating_sub(self.counted);
        let len = chunk.len() as u64;
        self.counted = self.counted.saturating_add(len);
        if len > room {
            return Err(usize::try_from(room).unwrap_or(chunk.len()));
        }
        Ok(())
    }

    /// Count `chunk` and hand what fits under the cap to `feed` (the sink
    /// sees exactly what fits, however the reads fell, so a probe's count
    /// stays the same from run to run).
    fn pass(&mut self, chunk: &[u8], feed: &mut impl FnMut(&[u8])) {
        match self.count(chunk) {
            Ok(()) => feed(chunk),
            Err(within) => feed(&chunk[..within]),
        }
    }

    fn over(&self) -> bool {
        self.counted > self.cap
    }
}

/// The first line of `<rg> --version`, for `--explain`; `None` when rg
/// cannot say within a second.
pub fn version(rg: &str, workdir: &Path, budget: Budget<'_>) -> Option<String> {
    let line = command::version_line(rg);
    let mut out = ListingSink::default();
    let spec = Spec {
        line: &line,
        workdir,
        budget: budget.within(Duration::from_secs(1)),
        stdout_cap: 64 * 1024,
    };
    let finished = run(&spec, &mut out).ok()?;
    match finished.ending {
        Ending::Exited(RgExit::Status(0)) => String::from_utf8_lossy(&out.bytes)
            .lines()
            .next()
            .map(str::to_owned),
        _ => None,
    }
}

#[cfg(test)]
#[path = "../../tests/unit/rg/process.rs"]
mod tests;
