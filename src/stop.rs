//! The one stop channel: why a search should end before rg does.
//!
//! Two things stop a search early: a signal to dsh-search (the handlers in
//! `signals` write its number here) and a front-end's cancellation (an MCP
//! client's `notifications/cancelled`). Both land in one [`Stop`], which the
//! runner and glob's stat-and-sort phase read through a [`Budget`], together
//! with the call's deadline. Nothing here is global: `main` makes the value
//! and hands it down, so a test or a second server can have its own.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    cancelled: AtomicBool,
}

impl Stop {
    pub fn new() -> Self {
        Self::default()
    }

    /// A stop channel for one call of a server: the same signals as this
    /// one and a cancellation of its own, so that cancelling one call
    /// touches no other (`mcp`).
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
    /// rg at its next look.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
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
mod tests {
    use super::*;

    #[test]
    fn signal_outranks_cancel_and_deadline() {
        let stop = Stop::new();
        let later = Budget {
            deadline: Instant::now() + Duration::from_secs(60),
            stop: &stop,
        };
        assert_eq!(later.check(), Ok(()));
        stop.cancel();
        assert_eq!(later.check(), Err(Halt::Cancelled));
        stop.signal_slot().store(15, Ordering::SeqCst);
        assert_eq!(later.check(), Err(Halt::Signal(15)));
        let past = Budget {
            deadline: Instant::now(),
            stop: &Stop::new(),
        };
        assert_eq!(past.check(), Err(Halt::TimedOut));
    }

    /// A server's call has the server's signals, but a cancellation of
    /// its own.
    #[test]
    fn a_call_shares_signals_not_cancellation() {
        let server = Stop::new();
        let call = server.for_call();
        call.cancel();
        assert_eq!(call.halt(), Some(Halt::Cancelled));
        assert_eq!(server.halt(), None);
        server.signal_slot().store(2, Ordering::SeqCst);
        assert_eq!(call.halt(), Some(Halt::Signal(2)));
        assert_eq!(server.for_call().halt(), Some(Halt::Signal(2)));
    }
}
