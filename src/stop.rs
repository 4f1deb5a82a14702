//! The one stop channel: why a search should end before rg does.
//!
//! Two things stop a search early: a signal to dsh-search (the handlers in
//! `signals` write its number here) and a front-end's cancellation (an MCP
//! client's `notifications/cancelled`). Both land in one [`Stop`], which the
//! runner and glob's stat-and-sort phase read through a [`Budget`], together
//! with the call's deadline. Nothing here is global: `main` makes the value
//! and hands it down, so a test or a second server can have its own.
//!
//! For the watchdog (`watchdog.rs`), the backstop behind the deadline and
//! the signals when dsh-search's own code does not end, a [`Stop`] also
//! knows the rg process groups running for its call, so they can be killed
//! from another thread, and tells the loops of the call's own work that
//! its result is no longer wanted ([`unwanted`]).

use std::cell::OnceCell;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Why a search stopped before it was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// The call's deadline (`--timeout-ms`) passed.
    TimedOut,
    /// dsh-search received this signal.
    Signal(i32),
    /// The front-end's caller cancelled the call.
    Cancelled,
}

/// Signals and cancellation, as the runner sees them.
#[derive(Debug, Default)]
pub struct Stop {
    /// The last signal received (0: none). Written by signal handlers,
    /// which may only store into an atomic.
    signal: Arc<AtomicUsize>,
    /// Shared with the threads working for the call (see [`unwanted`]).
    cancelled: Arc<AtomicBool>,
    running: Mutex<Running>,
}

/// How to kill one running process group, from any thread.
pub type Kill = Box<dyn Fn() + Send + Sync>;

/// The process groups running for a call, each with its kill.
#[derive(Default)]
struct Running {
    next: u64,
    groups: Vec<(u64, Kill)>,
}

impl fmt::Debug for Running {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} running", self.groups.len())
    }
}

impl Stop {
    pub fn new() -> Self {
        Self::default()
    }

    /// A stop channel for one call of a server: the same signals as this
    /// one, its own cancellation and its own process groups, so the
    /// server can give up on this call alone (`mcp`).
    pub fn for_call(&self) -> Self {
        Self {
            signal: Arc::clone(&self.signal),
            ..Self::default()
        }
    }

    /// The slot signal handlers store the signal number in.
    pub fn signal_slot(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.signal)
    }

    /// The signal received, if any (it stays set: a signalled process is
    /// on its way out).
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            n => i32::try_from(n).ok(),
        }
    }

    /// Cancel the call: its result will not be used. The runner kills
    /// rg at its next look, and [`unwanted`] turns true for the threads
    /// working for the call.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }

    /// Note a process group started for the call, with how to kill it,
    /// until the returned guard is dropped (the tests'; the runner asks
    /// [`Stop::starting`] first). The runner drops it before it
    /// reaps the group's leader (on Unix the kill names the group by the
    /// leader's pid, which must not be reused meanwhile): a kill by
    /// [`Stop::kill_running`] and the drop take the same lock, so no kill
    /// comes after the drop.
    #[cfg(test)]
    pub fn enroll(&self, kill: Kill) -> Enrolled<'_> {
        Starting {
            stop: self,
            running: self.running(),
        }
        .enroll(kill)
    }

    /// Leave to start a process group for the call, and enroll it: from
    /// the start to the enrollment no [`Stop::kill_running`] can come
    /// between (it waits on the same lock), so nothing started outlives a
    /// kill, even one from a server going away the instant after. `Err`
    /// once the call is cancelled or signalled (a kill follows, or has
    /// come): start nothing.
    pub fn starting(&self) -> Result<Starting<'_>, Halt> {
        let running = self.running();
        match self.halt() {
            Some(halt) => Err(halt),
            None => Ok(Starting {
                stop: self,
                running,
            }),
        }
    }

    /// Kill every process group running for the call now. For the
    /// watchdog, from its own thread, while the call's thread may be stuck.
    pub fn kill_running(&self) {
        for (_, kill) in &self.running().groups {
            kill();
        }
    }

    fn running(&self) -> MutexGuard<'_, Running> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Why to stop now, if at all. A signal outranks a cancellation.
    pub fn halt(&self) -> Option<Halt> {
        if let Some(signal) = self.signal() {
            return Some(Halt::Signal(signal));
        }
        self.cancelled
            .load(Ordering::SeqCst)
            .then_some(Halt::Cancelled)
    }
}

/// The leave to start one process group: its enrollment, once started.
pub struct Starting<'a> {
    stop: &'a Stop,
    running: MutexGuard<'a, Running>,
}

impl<'a> Starting<'a> {
    /// Note the group started, with how to kill it, until the returned
    /// guard is dropped.
    pub fn enroll(mut self, kill: Kill) -> Enrolled<'a> {
        let id = self.running.next;
        self.running.next += 1;
        self.running.groups.push((id, kill));
        Enrolled {
            stop: self.stop,
            id,
        }
    }
}

/// A process group noted by [`Starting::enroll`]; dropping it forgets it.
#[must_use = "the group is forgotten when this is dropped"]
pub struct Enrolled<'a> {
    stop: &'a Stop,
    id: u64,
}

impl Drop for Enrolled<'_> {
    fn drop(&mut self) {
        self.stop.running().groups.retain(|(id, _)| *id != self.id);
    }
}

thread_local! {
    /// The cancellation flag of the call this thread works for, once it
    /// works for one (see [`work_for`]).
    static CALL: OnceCell<Arc<AtomicBool>> = const { OnceCell::new() };
}

/// The call a thread works for, as handed to a helper thread it starts.
#[derive(Debug, Clone, Default)]
pub struct Call(Option<Arc<AtomicBool>>);

/// Make this thread one that works for `stop`'s call (a thread works for
/// one call at most: a later call is ignored).
pub fn work_for(stop: &Stop) {
    adopt(Call(Some(Arc::clone(&stop.cancelled))));
}

/// The call this thread works for, for a helper thread to [`adopt`].
pub fn this_call() -> Call {
    Call(CALL.with(|call| call.get().cloned()))
}

/// Make this (helper) thread work for `call` too.
pub fn adopt(call: Call) {
    if let Call(Some(flag)) = call {
        CALL.with(|slot| {
            let _ = slot.set(flag);
        });
    }
}

/// Whether the result of the call this thread works for is no longer
/// wanted: it was cancelled (a client's cancellation, or the watchdog gave
/// up on it and answered without it). For loops of dsh-search's own work
/// that hold no [`Budget`]: they may stop at once and return anything,
/// since nobody will see it. Never true on a thread that works for no call
/// (unit tests, the CLI's main thread). One thread-local read and an
/// atomic load: cheap enough for every entry of a loop.
pub fn unwanted() -> bool {
    CALL.with(|call| call.get().is_some_and(|flag| flag.load(Ordering::Relaxed)))
}

/// What one call may still spend: its deadline, and the stop channel.
#[derive(Debug, Clone, Copy)]
pub struct Budget<'a> {
    pub deadline: Instant,
    pub stop: &'a Stop,
}

impl Budget<'_> {
    /// This budget, spending at most `limit` more from now.
    pub fn within(self, limit: Duration) -> Self {
        Budget {
            deadline: self.deadline.min(Instant::now() + limit),
            ..self
        }
    }

    /// What is left before the deadline (zero once it has passed).
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// `Err` once the call should stop: a signal or a cancellation first,
    /// then the deadline.
    pub fn check(&self) -> Result<(), Halt> {
        if let Some(halt) = self.stop.halt() {
            return Err(halt);
        }
        if Instant::now() >= self.deadline {
            return Err(Halt::TimedOut);
        }
        Ok(())
    }
}

/// The conventional name of a signal (`SIGINT`), from signal-hook's table;
/// on Windows, of the console event it stands for (`Ctrl-C`).
pub fn signal_name(signal: i32) -> &'static str {
    #[cfg(unix)]
    return signal_hook::low_level::signal_name(signal).unwrap_or("a signal");
    #[cfg(windows)]
    return match usize::try_from(signal) {
        Ok(console::CTRL_C) => "Ctrl-C",
        Ok(console::CTRL_BREAK) => "Ctrl-Break",
        Ok(console::CLOSED) => "the console closing",
        Ok(console::SESSION_ENDING) => "the session ending",
        _ => "a console event",
    };
}

/// The numbers Windows console events are noted as in the signal slot
/// (those of the Unix signals they stand for, so `Halt::Signal` means the
/// same everywhere; 21 is the C runtime's SIGBREAK): `signals/windows.rs`
/// writes them.
#[cfg(windows)]
pub mod console {
    pub const CTRL_C: usize = 2;
    pub const CTRL_BREAK: usize = 21;
    pub const CLOSED: usize = 1;
    pub const SESSION_ENDING: usize = 15;
}

#[cfg(test)]
#[path = "../tests/unit/stop.rs"]
mod tests;
