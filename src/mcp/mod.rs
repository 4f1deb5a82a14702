//! `dsh-search mcp`: the two tools as a Model Context Protocol server on
//! stdio: newline-delimited JSON-RPC 2.0, one request served at a time.
//!
//! - A reader thread keeps reading stdin while a search runs, so a
//!   `notifications/cancelled` for the request in flight stops it at once
//!   (its rg process group is killed) and no reply is sent for it, as the
//!   protocol asks. A request cancelled while it waits gets no reply either.
//! - Each request has a stop channel of its own (the server's signals, its
//!   own cancellation), and each tool call runs under the watchdog
//!   (`watchdog.rs`): one that overruns its deadline is answered as timed
//!   out, and the server serves the next request while the call's worker is
//!   told to stop (see `protocol`).
//! - Memory stays bounded however hard a client floods the server: a line
//!   is at most [`wire::MAX_LINE`], and at most [`QUEUE_BYTES`] of requests
//!   (and [`QUEUE_LEN`] of them) wait while one is served. A request beyond
//!   that is answered at once with an error saying the server is busy; a
//!   notification beyond it is dropped. Cancellations are never queued.
//! - stdout carries protocol messages only, one per line, written whole by
//!   whichever thread has one; diagnostics go to stderr through `diag`'s
//!   bounded queue, never waited for (a client that never reads stderr
//!   loses notes, counted, not calls). The server exits 0 at end of input or when the client stops
//!   reading (EPIPE), 4 when stdout fails otherwise, 6 on SIGINT, SIGTERM
//!   or SIGHUP, and by the signal itself for the fatal ones.
//!
//! `protocol` holds the methods and the two eras; `wire` the JSON-RPC layer.

mod protocol;
mod wire;

use std::collections::{HashSet, VecDeque};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, mpsc};
use std::time::Duration;

use serde_json::value::RawValue;

use crate::diag;
use crate::error::{ErrorCode, Exit, Fault};
use crate::settings::Settings;
use crate::signals;
use crate::stop::{self, Stop};
use protocol::Session;
use wire::{Id, Incoming, Received, RpcError};

/// Bytes of requests that may wait while one is served.
pub const QUEUE_BYTES: usize = 32 * 1024 * 1024;
/// Requests that may wait while one is served.
pub const QUEUE_LEN: usize = 1024;
/// How often the idle server looks for a signal.
const SIGNAL_POLL: Duration = Duration::from_millis(50);
/// Cancellations of requests not (yet) seen that are remembered; beyond,
/// the oldest are forgotten.
const MAX_CANCELLED: usize = 1024;

/// Serve until stdin ends.
pub fn serve(settings: &Settings, stop: &Arc<Stop>) -> Exit {
    diag::start();
    let shared = Arc::new(Connection::new(stop));
    let (tx, rx) = mpsc::channel();
    let reader = Arc::clone(&shared);
    let started = std::thread::Builder::new()
        .name("mcp-reader".to_owned())
        .spawn(move || read_loop(&tx, &reader));
    if let Err(e) = started {
        diag::note(&format!(
            "dsh-search mcp: cannot start the reader thread: {e}"
        ));
        return Exit::Fault(Fault::Serve);
    }
    start_index_server(settings);
    let mut server = Session::new(settings);
    serve_loop(&mut server, &shared, &rx, stop)
}

/// Serve requests from `rx` until the input ends, stdout fails or a
/// signal comes.
fn serve_loop(
    server: &mut Session,
    shared: &Arc<Connection>,
    rx: &mpsc::Receiver<Option<Queued>>,
    stop: &Arc<Stop>,
) -> Exit {
    loop {
        if let Some(signal) = stop.signal() {
            signals::die_if_fatal(stop);
            diag::note(&format!(
                "dsh-search mcp: stopped by {}",
                stop::signal_name(signal)
            ));
            return Exit::Failed(ErrorCode::SearchAborted);
        }
        if let Some(exit) = shared.output_failure() {
            return exit;
        }
        let queued = match rx.recv_timeout(SIGNAL_POLL) {
            Ok(Some(queued)) => queued,
            Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                return shared.output_failure().unwrap_or(Exit::Success);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
        };
        let reply = handle_incoming(queued.incoming, server, shared);
        shared.queued.fetch_sub(queued.bytes, Ordering::SeqCst);
        shared.queued_len.fetch_sub(1, Ordering::SeqCst);
        if let Some(reply) = reply {
            shared.write(&reply);
        }
    }
}

/// Start the tree's index server unless one runs (doc/SPEC.md §11): the
/// session's greps ask it, and scan until it answers. A test seam,
/// honoured by every build (the suite also runs the release binaries):
/// with `DSH_SEARCH_TEST_INDEX_WAIT_MS` set, the session waits that long
/// at most for the server's index before it serves, so that the tests and
/// the benchmark know which calls the index answers.
fn start_index_server(settings: &Settings) {
    #[cfg(unix)]
    {
        let wait = std::env::var("DSH_SEARCH_TEST_INDEX_WAIT_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map(Duration::from_millis);
        if let Some(mut child) = crate::serve::client::ensure(settings, wait) {
            // Reaped when it ends, so no zombie waits for the session's end.
            let _ = std::thread::Builder::new()
                .name("index-server-reaper".to_owned())
                .spawn(move || {
                    let _ = child.wait();
                });
        }
    }
    #[cfg(not(unix))]
    let _ = settings;
}

/// What the reader thread and the serving thread share.
struct Connection {
    /// The first write error on stdout; after it nothing more is written.
    failed: Mutex<Option<io::Error>>,
    ids: Mutex<Ids>,
    /// The server's: the signals every request's own stop shares.
    stop: Arc<Stop>,
    /// Bytes and count of the lines waiting in the queue.
    queued: AtomicUsize,
    queued_len: AtomicUsize,
}

#[derive(Default)]
struct Ids {
    /// The request being served with its stop channel, and whether the
    /// client cancelled it.
    current: Option<(Id, Arc<Stop>)>,
    current_cancelled: bool,
    /// Requests cancelled before they were served, oldest first.
    cancelled: VecDeque<Id>,
    cancelled_set: HashSet<Id>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Connection {
    fn new(stop: &Arc<Stop>) -> Self {
        Self {
            failed: Mutex::new(None),
            ids: Mutex::default(),
            stop: Arc::clone(stop),
            queued: AtomicUsize::new(0),
            queued_len: AtomicUsize::new(0),
        }
    }

    /// Write one message line (and its `\n`) whole.
    fn write(&self, line: &str) {
        let mut failed = lock(&self.failed);
        if failed.is_some() {
            return;
        }
        let mut stdout = io::stdout().lock();
        let written = stdout
            .write_all(line.as_bytes())
            .and_then(|()| stdout.write_all(b"\n"))
            .and_then(|()| stdout.flush());
        if let Err(e) = written {
            *failed = Some(e);
        }
    }

    /// How the server ends if stdout has failed: quietly when the client
    /// stopped reading, exit 4 with a message otherwise (SPEC §6).
    fn output_failure(&self) -> Option<Exit> {
        let failed = lock(&self.failed);
        let e = failed.as_ref()?;
        Some(diag::after_stdout("dsh-search mcp", Some(e), Exit::Success))
    }

    fn cancel(&self, id: Id) {
        let ids = &mut *lock(&self.ids);
        if let Some((_, call)) = ids.current.as_ref().filter(|(current, _)| *current == id) {
            ids.current_cancelled = true;
            call.cancel();
        } else if ids.cancelled_set.insert(id.clone()) {
            ids.cancelled.push_back(id);
            if ids.cancelled.len() > MAX_CANCELLED {
                if let Some(old) = ids.cancelled.pop_front() {
                    ids.cancelled_set.remove(&old);
                }
            }
        }
    }

    /// Start serving `id`: its stop channel, or `None` if it was
    /// cancelled while it waited.
    fn start(&self, id: &Id) -> Option<Arc<Stop>> {
        let mut ids = lock(&self.ids);
        if ids.cancelled_set.remove(id) {
            ids.cancelled.retain(|c| c != id);
            return None;
        }
        let call = Arc::new(self.stop.for_call());
        ids.current = Some((id.clone(), Arc::clone(&call)));
        ids.current_cancelled = false;
        Some(call)
    }

    /// The request is done; `true` if the client cancelled it while it ran.
    fn finish(&self) -> bool {
        let mut ids = lock(&self.ids);
        ids.current = None;
        std::mem::take(&mut ids.current_cancelled)
    }
}

/// A parsed line waiting to be served, and the bytes it came as (what the
/// queue's bound counts).
struct Queued {
    incoming: Incoming,
    bytes: usize,
}

/// Read stdin until it ends, parsing each line once: answer what needs no
/// server state (lines that are not JSON, a flood beyond the queue), apply
/// cancellations at once, queue the rest. `None` on the channel is the end
/// of input.
fn read_loop(tx: &mpsc::Sender<Option<Queued>>, shared: &Connection) {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    while let Some(look) = next_look(&mut input, shared) {
        let queued = match look {
            Look::Skip => continue,
            Look::Reply(reply) => {
                shared.write(&reply);
                continue;
            }
            Look::Serve(queued) => queued,
        };
        let id = match &queued.incoming {
            Incoming::Message(m) => m.id.clone(),
            _ => None,
        };
        let waiting = shared.queued.load(Ordering::SeqCst);
        if waiting + queued.bytes > QUEUE_BYTES
            || shared.queued_len.load(Ordering::SeqCst) >= QUEUE_LEN
        {
            if let Some(id) = id {
                let e = RpcError::new(
                    wire::INTERNAL_ERROR,
                    format!(
                        "server busy: {} requests ({waiting} bytes) are already waiting; send this one again once earlier replies have arrived",
                        shared.queued_len.load(Ordering::SeqCst)
                    ),
                );
                shared.write(&wire::error_line(Some(&id), &e));
            }
            continue;
        }
        shared.queued.fetch_add(queued.bytes, Ordering::SeqCst);
        shared.queued_len.fetch_add(1, Ordering::SeqCst);
        if tx.send(Some(queued)).is_err() {
            return;
        }
    }
    // End of input, or stdin failed: nothing more will arrive.
    let _ = tx.send(None);
}

/// What the reader does with a line as soon as it is read.
enum Look {
    /// Nothing: a blank line, or a cancellation (applied at once).
    Skip,
    /// Answer it at once: the line is too long, or not JSON.
    Reply(String),
    /// Queue it for the serving thread.
    Serve(Queued),
}

/// Read the next line of `input`, parse it once and say what becomes of
/// it (see [`Look`]); `None` at the end of input, or once reading it
/// failed.
fn next_look(input: &mut impl BufRead, shared: &Connection) -> Option<Look> {
    let line = match wire::read_line(input) {
        Ok(Received::Text(line)) => line,
        Ok(Received::TooLong) => {
            let e = RpcError::new(
                wire::PARSE_ERROR,
                format!("a message longer than {} bytes was skipped", wire::MAX_LINE),
            );
            return Some(Look::Reply(wire::error_line(None, &e)));
        }
        Ok(Received::Eof) | Err(_) => return None,
    };
    if line.iter().all(u8::is_ascii_whitespace) {
        return Some(Look::Skip);
    }
    Some(match wire::parse(&line) {
        Err(e) => Look::Reply(wire::error_line(None, &e)),
        Ok(Incoming::Message(m)) if m.id.is_none() && m.method == "notifications/cancelled" => {
            if let Some(id) = cancelled_id(m.params.as_deref()) {
                shared.cancel(id);
            }
            Look::Skip
        }
        Ok(incoming) => Look::Serve(Queued {
            incoming,
            bytes: line.len(),
        }),
    })
}

/// The replies `serve` would write for the lines of `input`, in order,
/// with `settings`: each line read, looked at and served as `serve` does,
/// with no queue (so never a busy reply) and nothing written to stdout.
/// The fuzz target's way in (`crate::fuzzing`). The lines are served on a
/// thread started as the reader thread is, so a line is parsed on the
/// stack it gets in `serve` (2 MiB by default, a quarter of a main
/// thread's); the one thread serves every call, since starting one per
/// call would cost more than the serving. A panic there is this
/// function's.
#[cfg(feature = "fuzzing")]
pub(crate) fn replies(input: &[u8], settings: &Settings) -> Vec<String> {
    type Replied = std::thread::Result<Vec<String>>;
    type LinesJob = (Vec<u8>, Settings, mpsc::Sender<Replied>);
    static WORKER: Mutex<Option<mpsc::Sender<LinesJob>>> = Mutex::new(None);
    let (done, answer) = mpsc::channel();
    let job = (input.to_vec(), settings.clone(), done);
    let mut worker = lock(&WORKER);
    if worker.is_none() {
        let (jobs, queue) = mpsc::channel::<LinesJob>();
        let started = std::thread::Builder::new()
            .name("mcp-reader".to_owned())
            .spawn(move || {
                for (input, settings, done) in queue {
                    let served = std::panic::catch_unwind(|| serve_lines(&input, &settings));
                    let _ = done.send(served);
                }
            });
        if started.is_ok() {
            *worker = Some(jobs);
        }
    }
    let sent = worker.as_ref().is_some_and(|jobs| jobs.send(job).is_ok());
    drop(worker);
    match answer.recv() {
        Ok(Ok(replies)) if sent => replies,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        // No thread to be had: serve them here.
        _ => serve_lines(input, settings),
    }
}

#[cfg(feature = "fuzzing")]
fn serve_lines(input: &[u8], settings: &Settings) -> Vec<String> {
    let stop = Arc::new(Stop::new());
    let shared = Connection::new(&stop);
    // The fuzz target's server keeps no index: no thread, no watcher.
    let mut server = Session::new(settings);
    let mut input = io::Cursor::new(input);
    let mut replies = Vec::new();
    while let Some(look) = next_look(&mut input, &shared) {
        match look {
            Look::Skip => {}
            Look::Reply(reply) => replies.push(reply),
            Look::Serve(queued) => {
                replies.extend(handle_incoming(queued.incoming, &mut server, &shared));
            }
        }
    }
    replies
}

/// The request id a `notifications/cancelled` names.
fn cancelled_id(params: Option<&RawValue>) -> Option<Id> {
    #[derive(serde::Deserialize)]
    struct Cancelled<'a> {
        #[serde(borrow, rename = "requestId")]
        request_id: &'a RawValue,
    }
    let params: Cancelled<'_> = serde_json::from_str(params?.get()).ok()?;
    Id::from_raw(params.request_id)
}

/// The reply line to one queued line, if it gets one.
fn handle_incoming(
    incoming: Incoming,
    server: &mut Session,
    shared: &Connection,
) -> Option<String> {
    match incoming {
        Incoming::Batch(items) if server.batches() && !items.is_empty() => {
            let replies: Vec<String> = items
                .into_iter()
                .filter_map(|item| handle(item, server, shared))
                .collect();
            (!replies.is_empty()).then(|| format!("[{}]", replies.join(",")))
        }
        Incoming::Batch(_) => Some(wire::error_line(
            None,
            &RpcError::new(
                wire::INVALID_REQUEST,
                format!(
                    "a message must be one JSON-RPC object (batches only under protocol {})",
                    protocol::BATCH_REVISION
                ),
            ),
        )),
        incoming => handle(incoming, server, shared),
    }
}

/// The reply to one message: `None` for notifications, responses and
/// cancelled requests.
fn handle(incoming: Incoming, server: &mut Session, shared: &Connection) -> Option<String> {
    let message = match incoming {
        Incoming::Message(message) => message,
        Incoming::Response | Incoming::Batch(_) => return None,
        Incoming::Invalid(id, e) => return Some(wire::error_line(id.as_ref(), &e)),
    };
    // Notifications (initialized, and any other) get no reply.
    let id = message.id?;
    let stop = shared.start(&id)?;
    let result = server.request(&message.method, message.params.as_deref(), &stop);
    if shared.finish() {
        // Cancelled while it ran (its rg group is dead): no response.
        return None;
    }
    Some(match result {
        Ok(result) => wire::result_line(&id, &result),
        Err(e) => wire::error_line(Some(&id), &e),
    })
}
