//! SIGINT, SIGTERM and SIGHUP: noted, not acted on here.
//!
//! The handlers only record which signal came; the runner polls
//! [`pending`] while rg runs, kills rg's process group and reports the
//! interruption, so the process ends through `main` with `SEARCH_ABORTED`
//! (SPEC §6) instead of leaving rg behind.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

static PENDING: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// Install the handlers once. Failing to install is not fatal: the process
/// keeps the default action (die), which still kills nothing of ours but
/// loses the typed error; say so on stderr and go on.
pub fn install() {
    let flag = PENDING.get_or_init(|| Arc::new(AtomicUsize::new(0)));
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        #[allow(clippy::cast_sign_loss)] // signal numbers are small and positive
        if let Err(e) = signal_hook::flag::register_usize(signal, Arc::clone(flag), signal as usize)
        {
            eprintln!("dsh-search: cannot handle signal {signal}: {e}");
        }
    }
}

/// The first interrupting signal received, if any.
pub fn pending() -> Option<i32> {
    let value = PENDING.get()?.load(Ordering::SeqCst);
    if value == 0 {
        None
    } else {
        i32::try_from(value).ok()
    }
}

/// The conventional name of an interrupting signal.
pub fn name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}
