//! Signals to dsh-search: noted in the [`Stop`] channel, not acted on here.
//!
//! The handlers only store the signal's number; the runner (and glob's
//! stat-and-sort phase) see it within a few milliseconds, kill rg's process
//! group and end the search, so no signal that would end dsh-search leaves
//! rg or its children behind (SPEC §6).
//!
//! - SIGINT, SIGTERM, SIGHUP interrupt: the call ends through `main` with
//!   `SEARCH_ABORTED` (exit 6).
//! - SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU would kill dsh-search by
//!   default: once the group is dead, dsh-search dies by the same signal
//!   ([`die_if_fatal`]), as whoever sent it expects.
//! - SIGPIPE is ignored by the Rust runtime (a closed stdout shows up as
//!   EPIPE on write instead), so it never ends dsh-search.
//! - SIGKILL cannot be caught: the runner asks the OS for a parent-death
//!   signal where it has one (see `rg::process`).
//!
//! Windows has console events instead (`signals/windows.rs`): Ctrl-C,
//! Ctrl-Break and closing the console (or logging off, shutting down) end
//! the call as SIGINT, SIGTERM and SIGHUP do (SPEC §10), and the Job Object
//! takes rg with dsh-search however it ends.

#[cfg(unix)]
use signal_hook::consts::signal::{
    SIGALRM, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU,
};

#[cfg(unix)]
use crate::stop::Stop;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use windows::{die_if_fatal, install};

/// Signals that interrupt a call (exit 6).
#[cfg(unix)]
const INTERRUPTS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];
/// Signals whose default action ends the process: handled so the group dies
/// first, then re-raised.
#[cfg(unix)]
const FATAL: [i32; 5] = [SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU];

/// Install the handlers once, feeding `stop`. Failing to install one is not
/// fatal: that signal keeps its default action; say so on stderr and go on.
#[cfg(unix)]
pub fn install(stop: &Stop) {
    for signal in INTERRUPTS.into_iter().chain(FATAL) {
        #[allow(clippy::cast_sign_loss)] // signal numbers are small and positive
        if let Err(e) =
            signal_hook::flag::register_usize(signal, stop.signal_slot(), signal as usize)
        {
            crate::diag::note(&format!("dsh-search: cannot handle signal {signal}: {e}"));
        }
    }
}

/// If `stop` holds a signal whose default action is to end the process, end
/// it that way now (the caller has already stopped the search).
#[cfg(unix)]
pub fn die_if_fatal(stop: &Stop) {
    let Some(signal) = stop.signal() else { return };
    if !FATAL.contains(&signal) {
        return;
    }
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    // Not reached on any Unix; exit as a shell reports death by a signal.
    std::process::exit(128 + signal);
}
