//! Windows console events to dsh-search, noted in the [`Stop`] channel as
//! signals are on Unix (SPEC §10): the runner sees the note within a tick,
//! kills rg's Job Object and ends the call with exit 6.
//!
//! - Ctrl-C and Ctrl-Break interrupt, as SIGINT and SIGTERM do: the
//!   handler notes the event and tells Windows it was handled, so
//!   dsh-search lives on to kill the job and answer.
//! - Closing the console, logging off and shutting down end the process
//!   once the handler returns (Windows allows a few seconds): the handler
//!   notes the event, then waits a little, so the call can still end as
//!   SIGHUP ends it (the job killed, exit 6). Should Windows end the
//!   process first, the job's kill-on-close takes rg with it anyway.
//!
//! rg itself gets no console events: the runner starts it without a
//! console (`CREATE_NO_WINDOW`), so Ctrl-C cannot kill rg before
//! dsh-search has seen it, and the call never ends as a failed rg instead
//! of an interrupted one.
//!
//! The handler takes no argument, so the slot it writes is the one global
//! here, set once by [`install`].

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use windows_sys::Win32::Foundation::{FALSE, TRUE};
use windows_sys::Win32::System::Console::{
    CTRL_BREAK_EVENT, CTRL_C_EVENT, CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT,
    SetConsoleCtrlHandler,
};

use crate::stop::Stop;
use crate::stop::console::{CLOSED as CONSOLE_CLOSED, CTRL_BREAK, CTRL_C, SESSION_ENDING};

/// How long the handler of a closing console holds the process open for
/// the call to end (Windows' own limit is about five seconds).
const CLOSE_GRACE: Duration = Duration::from_secs(3);

/// Where the handler notes an event: the [`Stop`] of the first install.
static SLOT: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// Install the console handler, feeding `stop`. A failure is not fatal:
/// the events keep their default action (ending dsh-search, and with it
/// the job); say so on stderr and go on.
pub fn install(stop: &Stop) {
    if SLOT.set(stop.signal_slot()).is_err() {
        return;
    }
    // SAFETY: `on_event` has the signature `PHANDLER_ROUTINE` requires,
    // unwinds never (it cannot panic), and touches only an atomic and a
    // `OnceLock` that outlive every call.
    #[allow(unsafe_code)]
    let installed = unsafe { SetConsoleCtrlHandler(Some(on_event), TRUE) };
    if installed == FALSE {
        crate::diag::note(&format!(
            "dsh-search: cannot handle console events: {}",
            std::io::Error::last_os_error()
        ));
    }
}

/// Windows runs this on a thread of its own for each console event.
extern "system" fn on_event(event: u32) -> windows_sys::core::BOOL {
    let (noted, closing) = match event {
        CTRL_C_EVENT => (CTRL_C, false),
        CTRL_BREAK_EVENT => (CTRL_BREAK, false),
        CTRL_CLOSE_EVENT => (CONSOLE_CLOSED, true),
        CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT => (SESSION_ENDING, true),
        _ => return FALSE,
    };
    if let Some(slot) = SLOT.get() {
        slot.store(noted, Ordering::SeqCst);
    }
    if closing {
        // The process ends when this returns; `main` ending the call first
        // ends it with the call's own exit status.
        std::thread::sleep(CLOSE_GRACE);
    }
    TRUE
}

/// No console event is fatal by default the way SIGQUIT is on Unix: every
/// one ends the call through `main` (or ends the process as Windows does).
pub fn die_if_fatal(_stop: &Stop) {}
