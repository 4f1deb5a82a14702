//! The backstop behind the deadline and the signals (SPEC §6: `--timeout-ms`
//! bounds the whole call, and SIGINT/SIGTERM/SIGHUP are honoured in every
//! phase), for when dsh-search's own code is at fault.
//!
//! The runner, glob's stat-and-sort and the probes stop themselves at the
//! deadline or a signal. The rest of a call's work after rg ends (ordering,
//! paging, the remainder line's places, rendering, the spill) looks at
//! neither, so a defect there, such as an endless loop, would hold the
//! call for ever, deaf to `--timeout-ms` and to SIGTERM. So a call's work
//! runs on a worker thread ([`run`]) while the calling thread watches it.
//! The watch gives up on the call [`GRACE`] after its deadline, or
//! [`GRACE`] after a signal (or an MCP client's cancellation) that the
//! call has not answered by then. Giving up:
//!
//! 1. cancels the call's [`Stop`]: loops that hold a `Budget` stop at their
//!    next look, and loops that do not see [`stop::unwanted`] turn true;
//! 2. kills the rg process groups still running for the call
//!    ([`Stop::kill_running`]), whatever the worker is doing;
//! 3. hands the front-end the [`Halt`] to answer with, as an ordinary
//!    timeout or interrupt answers (the same bytes: see
//!    `Response::halted`). The CLI prints it and exits, which ends the
//!    worker with the process. The MCP server answers and serves the next
//!    call on a new worker.
//!
//! Only the calling thread writes the answer (the worker hands back what
//! to print and never writes stdout), so the two never interleave on
//! stdout, and an answer given up on is never printed.
//!
//! **Limits.** A thread cannot be killed. A worker stuck in a loop that
//! looks at neither its budget nor [`stop::unwanted`], or blocked in a
//! system call, runs on after the watch gave up: in the CLI only until the
//! process exits a moment later; in the MCP server until it ends by itself,
//! if ever, holding a core (a spinning loop) and whatever memory it holds.
//! It holds nothing the server needs (no lock the server takes; not
//! stdout; not stderr, whose writes go through `diag`'s queue and never
//! wait; no rg: those were killed), so the server goes on serving, and
//! says on stderr how
//! many such workers are left. Work the watch gave up on is lost, whatever
//! it had found: the answer is the plain error, as for a timeout that found
//! nothing. A spill being written when the CLI exits may leave its temp
//! file behind in the spill directory (it is never renamed into place, so
//! no reader sees half a result).

use std::panic;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::stop::{self, Halt, Stop};

/// How long past its deadline, or past a signal or cancellation, a call
/// may take before the watch gives up on it. A call that behaves needs far
/// less: the runner stops within a tick, a timed-out search gets 100 ms to
/// order its page, and saving a capped result takes milliseconds. Short
/// enough that a person's Ctrl-C or a client's deadline is still honoured.
pub const GRACE: Duration = Duration::from_secs(1);
/// How often the watch looks for a signal while the worker runs.
const TICK: Duration = Duration::from_millis(50);
/// The worker's stack: what the main thread has on Linux, so the work
/// needs no more than it did on the main thread.
const WORKER_STACK: usize = 8 * 1024 * 1024;

/// A call the watch gave up on.
#[derive(Debug)]
pub struct GaveUp {
    /// What to answer with: the signal, the cancellation, or the deadline.
    pub halt: Halt,
    /// The worker, still running (`None` once it is gone).
    pub worker: Option<JoinHandle<()>>,
}

/// Run `work`, one call's work for `stop`, on a worker thread, and return
/// what it returns; or give up on it ([`GaveUp`]) `GRACE` after `timeout`
/// from now, or `GRACE` after `stop` says stop. A panic in `work` goes on
/// here, as if it had run on this thread. Should no thread be had, `work`
/// runs here, unwatched.
pub fn run<T: Send + 'static>(
    stop: &Arc<Stop>,
    timeout: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, GaveUp> {
    let mut give_up_at = Instant::now()
        .checked_add(timeout)
        .and_then(|deadline| deadline.checked_add(GRACE));
    let (tx, rx) = mpsc::sync_channel(1);
    // Shared, so that `work` is still here should the thread not start.
    let work = Arc::new(Mutex::new(Some(work)));
    let worker = {
        let (stop, work) = (Arc::clone(stop), Arc::clone(&work));
        thread::Builder::new()
            .name("dsh-search call".to_owned())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                stop::work_for(&stop);
                let work = work.lock().unwrap_or_else(PoisonError::into_inner).take();
                if let Some(work) = work {
                    let _ = tx.send(work());
                }
            })
    };
    let Ok(worker) = worker else {
        let work = work.lock().unwrap_or_else(PoisonError::into_inner).take();
        return match work {
            Some(work) => Ok(work()),
            None => Err(GaveUp {
                halt: Halt::TimedOut,
                worker: None,
            }),
        };
    };
    let mut halted = false;
    loop {
        let wait = give_up_at.map_or(TICK, |at| {
            at.saturating_duration_since(Instant::now()).min(TICK)
        });
        match rx.recv_timeout(wait) {
            Ok(answer) => return Ok(answer),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                // Only a panic ends the worker without an answer.
                if let Err(panicked) = worker.join() {
                    panic::resume_unwind(panicked);
                }
                return Err(give_up(stop, None));
            }
        }
        let now = Instant::now();
        if !halted && stop.halt().is_some() {
            halted = true;
            let at = now + GRACE;
            give_up_at = Some(give_up_at.map_or(at, |deadline| deadline.min(at)));
        }
        if give_up_at.is_some_and(|at| now >= at) {
            return Err(give_up(stop, Some(worker)));
        }
    }
}

/// Give up on `stop`'s call: what to answer, once the call is cancelled
/// and its process groups are killed.
fn give_up(stop: &Stop, worker: Option<JoinHandle<()>>) -> GaveUp {
    let halt = stop.halt().unwrap_or(Halt::TimedOut);
    stop.cancel();
    stop.kill_running();
    GaveUp { halt, worker }
}

/// Test hook, in debug builds only (the tests' builds), called once per
/// tool call, after its search (`call.rs`): with `DSH_SEARCH_TEST_STALL`
/// set to `MODE` or `MODE:PATTERN`, the call (of a request whose pattern
/// is `PATTERN`, when one is named) stalls after rg has ended, as a defect
/// in dsh-search's own work would, so the tests can show that the watch
/// ends the call anyway. `spin` spins for ever and looks at nothing;
/// `checked` spins until [`stop::unwanted`] (a defect in a loop that
/// looks); `say` does not stall (a test tells a binary with the hook from
/// one without, such as a release build, by it). It says on stderr what it
/// does. Release builds have no such variable.
#[cfg(debug_assertions)]
pub fn test_stall(request: &crate::request::Request) {
    use crate::request::Request;
    let Ok(plan) = std::env::var("DSH_SEARCH_TEST_STALL") else {
        return;
    };
    let pattern = match request {
        Request::Glob(r) => &r.pattern,
        Request::Grep(r) => &r.pattern,
    };
    let (mode, only) = match plan.split_once(':') {
        Some((mode, only)) => (mode, Some(only)),
        None => (plan.as_str(), None),
    };
    if only.is_some_and(|only| only != pattern) {
        return;
    }
    match mode {
        "spin" => {
            crate::diag::note("dsh-search: test hook: stalling (spin)");
            loop {
                std::hint::spin_loop();
            }
        }
        "checked" => {
            crate::diag::note("dsh-search: test hook: stalling (checked)");
            while !stop::unwanted() {
                std::hint::spin_loop();
            }
        }
        "say" => crate::diag::note("dsh-search: test hook: here"),
        _ => {}
    }
}

#[cfg(test)]
#[path = "../tests/unit/watchdog.rs"]
mod tests;
