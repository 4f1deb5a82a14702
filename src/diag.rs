//! Diagnostics on stderr that can never break or stop a call.
//!
//! stderr is for people (`--explain`, the MCP server's notes). When it is
//! closed, full (`2>/dev/full`) or a pipe nobody reads, writing to it must
//! not panic, must not change stdout or the exit code (SPEC §6 "Output"),
//! and must not wait: a client that never reads the server's stderr fills
//! the pipe, and a write to a full pipe blocks for as long as nobody reads
//! it, holding std's stderr lock, so that every later write (the
//! watchdog's own note among them) would block behind it.
//!
//! So nothing here writes on the caller's thread. [`write()`] puts the text
//! on a bounded queue ([`QUEUE_BYTES`]) that one writer thread empties
//! into stderr; a text that does not fit is dropped and counted, and the
//! writer says how many were dropped once stderr takes text again. Order
//! is kept. [`flush`] waits, for a bounded time, until what was queued is
//! written: the CLI's last act, so that `--explain` is not lost when the
//! process exits. `eprint!` would panic on a write error and write on the
//! caller's thread, so nothing in dsh-search uses it.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crate::error::{Exit, Fault};

/// Bytes of text that may wait for stderr; beyond, texts are dropped.
pub const QUEUE_BYTES: usize = 1024 * 1024;

/// The queue between every writer of diagnostics and the one thread that
/// writes them.
struct Queue {
    state: Mutex<Backlog>,
    /// Signalled when a text is queued.
    queued: Condvar,
    /// Signalled when the writer has written all it took.
    written: Condvar,
}

#[derive(Default)]
struct Backlog {
    texts: VecDeque<String>,
    bytes: usize,
    /// Texts dropped since the writer last said so.
    dropped: usize,
    /// The writer holds texts it has not finished writing.
    writing: bool,
    /// The writer thread could not be started: write nothing.
    mute: bool,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, Backlog> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The queue, its writer started on first use.
fn queue() -> &'static Queue {
    static QUEUE: OnceLock<Queue> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let started = std::thread::Builder::new()
            .name("dsh-search stderr".into())
            .spawn(|| writer(queue()));
        Queue {
            state: Mutex::new(Backlog {
                mute: started.is_err(),
                ..Backlog::default()
            }),
            queued: Condvar::new(),
            written: Condvar::new(),
        }
    })
}

/// The writer: takes what is queued and writes it, for as long as the
/// process lives (blocked, if it must be, on a pipe nobody reads, which
/// stops nothing else).
fn writer(queue: &'static Queue) {
    loop {
        let (texts, dropped) = {
            let mut state = queue.lock();
            while state.texts.is_empty() {
                state = queue
                    .queued
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            state.writing = true;
            state.bytes = 0;
            (
                std::mem::take(&mut state.texts),
                std::mem::take(&mut state.dropped),
            )
        };
        let mut err = io::stderr().lock();
        for text in &texts {
            let _ = err.write_all(text.as_bytes());
        }
        if dropped > 0 {
            let _ = writeln!(
                err,
                "dsh-search: {dropped} note(s) for stderr dropped: stderr was not being read"
            );
        }
        let _ = err.flush();
        drop(err);
        queue.lock().writing = false;
        queue.written.notify_all();
    }
}

/// Start the writer now rather than at the first note (a server keeps
/// the same threads from its start).
pub fn start() {
    let _ = queue();
}

/// Write `text` to stderr as is, soon; dropped (and counted) when over
/// [`QUEUE_BYTES`] wait already. Never waits for stderr.
pub fn write(text: &str) {
    let queue = queue();
    let mut state = queue.lock();
    if state.mute {
        return;
    }
    if state.bytes + text.len() > QUEUE_BYTES {
        state.dropped += 1;
        return;
    }
    state.bytes += text.len();
    state.texts.push_back(text.to_owned());
    drop(state);
    queue.queued.notify_one();
}

/// Write `line` and a newline to stderr, as [`write()`] does.
pub fn note(line: &str) {
    write(&format!("{line}\n"));
}

/// Wait until everything queued is written, at most `limit` (stderr may be
/// a pipe nobody reads).
pub fn flush(limit: Duration) {
    let queue = queue();
    let until = Instant::now() + limit;
    let mut state = queue.lock();
    while !state.mute && (!state.texts.is_empty() || state.writing) {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        state = match queue.written.wait_timeout(state, left) {
            Ok((state, _)) => state,
            Err(poisoned) => poisoned.into_inner().0,
        };
    }
}

/// How a call that meant to end with `exit` ends after writing its result
/// to stdout failed with `error`, if it did (SPEC §6 "Output"): a reader
/// that went away (EPIPE, `| head`) ends it quietly with `exit`; any other
/// failure (`>/dev/full`, EIO) is exit 4 with a note from `who` on
/// stderr, never a success with the result lost.
pub fn after_stdout(who: &str, error: Option<&io::Error>, exit: Exit) -> Exit {
    match error {
        None => exit,
        Some(e) if e.kind() == io::ErrorKind::BrokenPipe => exit,
        Some(e) => {
            note(&format!("{who}: cannot write to stdout: {e}"));
            Exit::Fault(Fault::WriteOutput)
        }
    }
}
