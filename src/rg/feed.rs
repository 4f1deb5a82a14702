//! How rg's stdout reaches its [`Sink`]: inline while the output is small,
//! then through a parser thread, so a large output is parsed while rg still
//! searches and the runner's loop counts bytes at the speed rg writes them.
//! Nothing here knows processes: the runner (`process`) pushes bytes and
//! says how the run ended.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::ending::Ending;
use crate::stop::{Budget, Halt};

/// stdout is parsed inline up to this many bytes, then on a parser thread.
const INLINE_BYTES: u64 = 256 * 1024;
/// Bytes of stdout handed to the parser thread at once.
const BATCH: usize = 64 * 1024;
/// Stack of the parser thread (serde's recursion is bounded by its depth limit).
const PARSER_STACK: usize = 512 * 1024;
/// How long a timed-out run's backlog may still be parsed: what arrived
/// before the deadline is shown (SPEC §4a), but the deadline has passed.
const BACKLOG_GRACE: Duration = Duration::from_millis(100);

/// Receives rg's stdout, in order, as it arrives, never past the byte cap.
pub trait Sink: Send {
    fn chunk(&mut self, bytes: &[u8]);
    /// Called once after the last chunk when stdout ended normally.
    fn finish(&mut self) {}
    /// After an overflow, the bytes the sink had not parsed yet, to be
    /// looked over cheaply (grep tells which files made the output large).
    fn skim(&mut self, _bytes: &[u8]) {}
    /// Called once after an overflow, when every byte was chunked or skimmed.
    fn overflowed(&mut self) {}
}

/// Keeps every byte rg prints (a listing: glob's paths, grep's files,
/// the index's `rg --files`), bounded by the runner's byte cap.
#[derive(Debug, Default)]
pub struct ListingSink {
    pub bytes: Vec<u8>,
}

impl Sink for ListingSink {
    fn chunk(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }
}

/// Where stdout goes, as the module's note says; short searches start no
/// thread at all.
///
/// On Linux the parser thread runs at the lowest priority: it uses cores rg
/// leaves idle and never slows rg down (parsing at full priority took a
/// core from rg's two and made an overflowing search 15% slower). Whatever
/// it has not parsed when rg exits is handed back and parsed here, at
/// normal priority, so a busy machine cannot starve the result.
pub(super) enum Feed<'s, 'scope, S: Sink> {
    Inline {
        sink: &'s mut S,
        /// Bytes parsed inline so far.
        fed: u64,
    },
    Threaded {
        batch: Vec<u8>,
        tx: mpsc::Sender<Vec<u8>>,
        parser: Parser<'scope, 's, S>,
    },
    /// Only while the sink moves to its thread.
    Moving,
}

/// What the parser thread returns: the sink, the queue, and the batch it
/// held when told to stop (the queue's remainder is parsed inline). `None`
/// only if the sink never reached the thread, and then the feed stayed
/// inline.
type Handback<'s, S> = (&'s mut S, mpsc::Receiver<Vec<u8>>, Option<Vec<u8>>);
/// The parser thread.
type Parser<'scope, 's, S> = thread::ScopedJoinHandle<'scope, Option<Handback<'s, S>>>;

impl<'s: 'scope, 'scope, S: Sink> Feed<'s, 'scope, S> {
    pub(super) fn new(sink: &'s mut S) -> Self {
        Self::Inline { sink, fed: 0 }
    }

    /// Hand `bytes` on, moving the sink to its thread once the output
    /// outgrows [`INLINE_BYTES`]; the thread is scoped to the run.
    pub(super) fn push(
        &mut self,
        bytes: &[u8],
        scope: &'scope thread::Scope<'scope, '_>,
        handback: &'scope AtomicBool,
    ) {
        match self {
            Self::Inline { sink, fed } => {
                sink.chunk(bytes);
                *fed += bytes.len() as u64;
                if *fed <= INLINE_BYTES {
                    return;
                }
            }
            Self::Threaded { batch, tx, .. } => {
                batch.extend_from_slice(bytes);
                if batch.len() >= BATCH {
                    let _ = tx.send(std::mem::replace(batch, Vec::with_capacity(BATCH)));
                }
                return;
            }
            Self::Moving => return,
        }
        if let Self::Inline { sink, .. } = std::mem::replace(self, Self::Moving) {
            *self = match spawn_parser(sink, scope, handback) {
                Ok((tx, parser)) => Self::Threaded {
                    batch: Vec::with_capacity(BATCH),
                    tx,
                    parser,
                },
                // No thread to be had: go on inline, and try again later.
                Err(sink) => Self::Inline { sink, fed: 0 },
            };
        }
    }

    /// End the feed of a run that ended as `ending` says. rg ended by
    /// itself: parse everything, then [`Sink::finish`]. The deadline
    /// passed: parse what arrived, a result that is incomplete (SPEC §4a);
    /// a record cut off by the kill stays unfinished. Over the byte cap:
    /// skim the rest, then [`Sink::overflowed`]. A signal or a
    /// cancellation: the result is not used; drop the backlog.
    ///
    /// The backlog is parsed a batch at a time within `budget` (a batch is
    /// one read or [`BATCH`] bytes, parsed in time linear in its bytes), so
    /// parsing what rg printed never outlasts the call: `Some` is the halt
    /// that stopped a run rg had ended by itself (its sink stays
    /// unfinished). A timed-out run's backlog gets [`BACKLOG_GRACE`]; an
    /// overflowed one's skim stops at the deadline.
    pub(super) fn finish(
        self,
        ending: Ending,
        handback: &AtomicBool,
        budget: Budget<'_>,
    ) -> Option<Halt> {
        let grace = Instant::now() + BACKLOG_GRACE;
        let sink = match self {
            Self::Inline { sink, .. } => sink,
            Self::Threaded { batch, tx, parser } => {
                let _ = tx.send(batch);
                handback.store(true, Ordering::SeqCst);
                // An empty batch wakes a parser that waits for work.
                let _ = tx.send(Vec::new());
                drop(tx);
                let (sink, rx, held) = match parser.join() {
                    Ok(Some(handed)) => handed,
                    Ok(None) => return None,
                    Err(panic) => std::panic::resume_unwind(panic),
                };
                let backlog = held.into_iter().chain(rx.try_iter());
                if let Some(halt) = drain(sink, backlog, ending, budget, grace) {
                    return Some(halt);
                }
                sink
            }
            Self::Moving => return None,
        };
        match ending {
            Ending::Exited(_) => sink.finish(),
            Ending::Overflow => sink.overflowed(),
            Ending::Halted(_) => {}
        }
        None
    }
}

/// Hand the parser thread's `backlog` to `sink` as `ending` says, a batch
/// at a time, looking at the clock before each: the backlog of a run rg
/// ended by itself stops at `budget`'s halt (returned), a timed-out run's
/// at `grace`, an overflowed run's skim at the deadline.
fn drain<S: Sink>(
    sink: &mut S,
    backlog: impl Iterator<Item = Vec<u8>>,
    ending: Ending,
    budget: Budget<'_>,
    grace: Instant,
) -> Option<Halt> {
    for batch in backlog {
        match ending {
            Ending::Exited(_) => {
                if let Err(halt) = budget.check() {
                    return Some(halt);
                }
                sink.chunk(&batch);
            }
            Ending::Halted(Halt::TimedOut) if Instant::now() < grace => sink.chunk(&batch),
            Ending::Overflow if budget.check().is_ok() => sink.skim(&batch),
            Ending::Halted(_) | Ending::Overflow => break,
        }
    }
    None
}

/// Start the parser thread and move `sink` to it; the sink comes back if
/// the thread cannot be started. The thread parses batches until
/// `handback` is set (or the queue closes), then returns the sink.
fn spawn_parser<'s: 'scope, 'scope, S: Sink>(
    sink: &'s mut S,
    scope: &'scope thread::Scope<'scope, '_>,
    handback: &'scope AtomicBool,
) -> Result<(mpsc::Sender<Vec<u8>>, Parser<'scope, 's, S>), &'s mut S> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let (sink_tx, sink_rx) = mpsc::channel::<&'s mut S>();
    // The sink's loops look at the call's cancellation (`stop::unwanted`).
    let call = crate::stop::this_call();
    let parser = thread::Builder::new()
        .stack_size(PARSER_STACK)
        .spawn_scoped(scope, move || {
            crate::stop::adopt(call);
            lower_priority();
            let sink = sink_rx.recv().ok()?;
            loop {
                let Ok(batch) = rx.recv() else {
                    return Some((sink, rx, None));
                };
                if handback.load(Ordering::SeqCst) {
                    return Some((sink, rx, Some(batch)));
                }
                sink.chunk(&batch);
            }
        });
    let Ok(parser) = parser else { return Err(sink) };
    match sink_tx.send(sink) {
        Ok(()) => Ok((tx, parser)),
        Err(mpsc::SendError(sink)) => Err(sink),
    }
}

/// Linux: the calling thread (on Linux `setpriority(PRIO_PROCESS, 0)`
/// names the thread, not the process) yields to every normal thread.
#[cfg(target_os = "linux")]
fn lower_priority() {
    let _ = rustix::process::setpriority_process(None, 19);
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(test)]
#[path = "../../tests/unit/rg/feed.rs"]
mod tests;
