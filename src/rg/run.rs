//! The only code that starts a process.
//!
//! `sh -c SCRIPT` runs in the workdir, in a process group of its own, with
//! stdin from /dev/null and `RIPGREP_CONFIG_PATH` removed. stdout and stderr
//! are drained on their own threads while the main thread waits, so a chatty
//! rg can never block on a full pipe. stdout is counted as it arrives and
//! handed to a [`Sink`] (so parsing overlaps rg's search); at the byte cap,
//! at the deadline, or when dsh-search is signalled, the whole group (sh, rg
//! and anything they started) is killed at once, then reaped.
//!
//! What the run *means* (exit 2 with results, a pattern error) is the search
//! layer's call: this module reports facts only.

use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, fcntl};
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, waitid};
use nix::unistd::Pid;

use crate::signals;

/// How often the waiting thread looks for a pending signal or cancellation.
/// Pipe events wake it at once; this only bounds how long a Ctrl-C or a
/// cancellation waits to be noticed.
const SIGNAL_POLL: Duration = Duration::from_millis(20);
/// Bytes of rg's stderr kept from its start (where rg puts pattern errors).
const STDERR_HEAD: usize = 6 * 1024;
/// Bytes of rg's stderr kept from its end.
const STDERR_TAIL: usize = 2 * 1024;
const READ_CHUNK: usize = 256 * 1024;
/// Reads served at once before small reads start to pause.
const EAGER_READS: u32 = 16;
/// The pause after a small read of a large output.
const READ_PAUSE: Duration = Duration::from_micros(500);
/// Wait status reported if sh's status cannot be collected: exit 255, an
/// rg failure, never mistaken for "rg not found" (127) or a result.
const UNKNOWN_STATUS: i32 = 0xff00;
/// Stack of the reader and watcher threads.
const SMALL_STACK: usize = 64 * 1024;
/// Stack of the parser thread (serde's recursion is bounded by its depth limit).
const PARSER_STACK: usize = 512 * 1024;
/// Bytes of stdout handed to the parser at once (the last batch may be smaller).
const BATCH: usize = 64 * 1024;
/// Requested size of the stdout pipe (Linux caps it at /proc/sys/fs/pipe-max-size).
const PIPE_SIZE: i32 = 1024 * 1024;

/// Receives rg's stdout, in order, as it arrives, never past the byte cap.
pub trait Sink: Send {
    fn chunk(&mut self, bytes: &[u8]);
    /// Called once after the last chunk when stdout ended normally.
    fn finish(&mut self) {}
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Spec<'a> {
    pub script: &'a str,
    pub workdir: &'a Path,
    pub timeout: Duration,
    /// rg stdout bytes the sink may receive; one more byte is an overflow.
    pub stdout_cap: u64,
    /// Set by another thread to stop the run (an MCP client's cancellation).
    pub cancel: Option<&'a AtomicBool>,
}

/// How the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// `sh` exited by itself (the status may carry a signal).
    Exited(ExitStatus),
    /// stdout went over the cap; the group was killed.
    Overflow,
    /// The deadline passed; the group was killed.
    TimedOut,
    /// dsh-search got this signal; the group was killed.
    Interrupted(i32),
    /// The caller cancelled the run; the group was killed.
    Cancelled,
}

/// The facts of one run.
#[derive(Debug, Clone)]
pub struct RawRun {
    pub end: End,
    /// stdout bytes received (at most the cap + one read's worth).
    pub stdout_bytes: u64,
    pub stderr: Stderr,
    pub elapsed: Duration,
}

/// rg's stderr, bounded: its first and last few KiB and how much lay between.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stderr {
    head: Vec<u8>,
    tail: Vec<u8>,
    /// Bytes dropped between `head` and `tail`.
    omitted: u64,
    /// Non-blank lines seen in the whole stream.
    pub lines: u64,
    line_has_text: bool,
}

impl Stderr {
    fn push(&mut self, mut bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                if self.line_has_text {
                    self.lines += 1;
                }
                self.line_has_text = false;
            } else if !b.is_ascii_whitespace() {
                self.line_has_text = true;
            }
        }
        let room = STDERR_HEAD.saturating_sub(self.head.len());
        let (to_head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(to_head);
        bytes = rest;
        self.tail.extend_from_slice(bytes);
        if self.tail.len() > STDERR_TAIL {
            let drop = self.tail.len() - STDERR_TAIL;
            self.tail.drain(..drop);
            self.omitted += drop as u64;
        }
    }

    fn close(&mut self) {
        if self.line_has_text {
            self.lines += 1;
            self.line_has_text = false;
        }
    }

    /// The kept text, trimmed, lossily decoded, with the cut marked.
    pub fn excerpt(&self) -> String {
        let head = String::from_utf8_lossy(&self.head);
        if self.omitted == 0 {
            let tail = String::from_utf8_lossy(&self.tail);
            return format!("{head}{tail}").trim().to_owned();
        }
        let tail = String::from_utf8_lossy(&self.tail);
        format!(
            "{} […{} bytes of stderr omitted…] {}",
            head.trim_end(),
            self.omitted,
            tail.trim_start()
        )
        .trim()
        .to_owned()
    }

    /// The first non-blank line, trimmed.
    pub fn first_line(&self) -> String {
        String::from_utf8_lossy(&self.head)
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or_default()
            .to_owned()
    }

    /// Whether the kept text contains `needle` (rg's messages are ASCII).
    pub fn contains(&self, needle: &str) -> bool {
        let n = needle.as_bytes();
        [&self.head, &self.tail]
            .iter()
            .any(|part| part.windows(n.len()).any(|w| w == n))
    }
}

enum Event {
    StdoutEof,
    StderrEof,
    Overflow,
    /// `sh` has exited (not yet reaped: its pid still holds the group id).
    Exited,
}

/// Run `spec.script` to completion or to the first limit it hits. `Err` only
/// when `sh` itself could not be started.
pub fn run<S: Sink>(spec: &Spec<'_>, sink: &mut S) -> io::Result<RawRun> {
    let started = Instant::now();
    if let Some(signal) = signals::pending() {
        return Ok(RawRun {
            end: End::Interrupted(signal),
            stdout_bytes: 0,
            stderr: Stderr::default(),
            elapsed: started.elapsed(),
        });
    }
    // POSIX puts sh at /bin/sh; no PATH search, and no `sh` planted on PATH.
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(spec.script)
        .current_dir(spec.workdir)
        // SPEC §2: with no path and a piped stdin rg would search stdin.
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RIPGREP_CONFIG_PATH")
        .process_group(0)
        .spawn()?;
    let (Some(mut stdout), Some(mut stderr_pipe), Ok(pid)) = (
        child.stdout.take(),
        child.stderr.take(),
        i32::try_from(child.id()),
    ) else {
        kill_group(&child);
        let _ = child.wait();
        return Err(io::Error::other("the child's pipes were not created"));
    };
    // A larger pipe means fewer wake-ups of rg and of the reader (Linux
    // defaults to 64 KiB); failing to grow it costs only speed.
    let _ = fcntl(stdout.as_raw_fd(), FcntlArg::F_SETPIPE_SZ(PIPE_SIZE));
    let deadline = started + spec.timeout;
    let cap = spec.stdout_cap;

    let (tx, rx) = mpsc::channel::<Event>();
    let stop_parsing = AtomicBool::new(false);
    let ran = std::thread::scope(|scope| {
        // stdout is counted by one thread and parsed by another, so the
        // byte cap is enforced at the speed rg writes, not the speed the
        // sink parses: an overflowing search stops as soon as rg passes
        // the cap. The queue between them is bounded by the cap itself.
        let (chunk_tx, chunk_rx) = mpsc::channel::<Vec<u8>>();
        let stop_flag = &stop_parsing;
        let threads = (|| -> io::Result<_> {
            let out_tx = tx.clone();
            let out = spawn(scope, SMALL_STACK, move || {
                read_stdout(&mut stdout, cap, &chunk_tx, &out_tx)
            })?;
            let parse_tx = tx.clone();
            let parser = spawn(scope, PARSER_STACK, move || {
                parse_stdout(&chunk_rx, sink, stop_flag, &parse_tx);
            })?;
            let err_tx = tx.clone();
            let err = spawn(scope, SMALL_STACK, move || {
                read_stderr(&mut stderr_pipe, &err_tx)
            })?;
            spawn(scope, SMALL_STACK, move || watch_exit(pid, &tx))?;
            Ok((out, parser, err))
        })();
        let (out, parser, err) = match threads {
            Ok(threads) => threads,
            Err(e) => {
                // The threads already started end once the group is gone.
                kill_group(&child);
                let _ = child.wait();
                return Err(e);
            }
        };

        let stop = wait(&rx, deadline, spec.cancel, || kill_group(&child));
        if stop.is_some() {
            // The result will not be used: the parser may drop its backlog.
            stop_parsing.store(true, Ordering::SeqCst);
        }
        // Whatever ended the run, nothing of the group outlives it: sh has
        // not been reaped yet, so its group id cannot name a stranger.
        kill_group(&child);
        let status = child.wait();
        // Readers finish once every writer in the group is gone.
        let stdout_bytes = out.join().unwrap_or(0);
        let _ = parser.join();
        let stderr = err.join().unwrap_or_default();
        let end = stop.unwrap_or_else(|| {
            End::Exited(status.unwrap_or_else(|_| ExitStatus::from_raw(UNKNOWN_STATUS)))
        });
        Ok((end, stdout_bytes, stderr))
    });
    let (end, stdout_bytes, stderr) = ran?;
    Ok(RawRun {
        end,
        stdout_bytes,
        stderr,
        elapsed: started.elapsed(),
    })
}

/// Start a scoped thread with a stack of `stack` bytes (the default 2 MiB
/// is far more than these loops need, and costs time to map per search).
fn spawn<'scope, 'env, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    stack: usize,
    f: impl FnOnce() -> T + Send + 'scope,
) -> io::Result<std::thread::ScopedJoinHandle<'scope, T>> {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn_scoped(scope, f)
}

/// Read stdout and pass it on in chunks until EOF or one byte past `cap`
/// (then `Event::Overflow`); returns the bytes read. Dropping `chunks` at
/// the end tells the parser that stdout is done.
fn read_stdout(
    stdout: &mut impl Read,
    cap: u64,
    chunks: &mpsc::Sender<Vec<u8>>,
    tx: &mpsc::Sender<Event>,
) -> u64 {
    let mut total = 0u64;
    let mut buf = vec![0u8; READ_CHUNK];
    // rg writes a file's records at once, often a few hundred bytes; waking
    // the parser for each would cost more than parsing them. Batches go out
    // at BATCH bytes and at the end.
    let mut batch = Vec::with_capacity(BATCH);
    let mut reads = 0u32;
    loop {
        match stdout.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                reads += 1;
                // Past the first few reads the output is large: let it pile
                // up in the (enlarged) pipe instead of waking for every
                // write rg makes. rg never blocks on a pipe with room left,
                // and the cap is still checked before anything is parsed.
                if reads > EAGER_READS && n < READ_CHUNK / 4 {
                    std::thread::sleep(READ_PAUSE);
                }
                total += n as u64;
                if total > cap {
                    let _ = tx.send(Event::Overflow);
                    return total;
                }
                batch.extend_from_slice(&buf[..n]);
                if batch.len() >= BATCH
                    && chunks
                        .send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))
                        .is_err()
                {
                    return total;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if !batch.is_empty() {
        let _ = chunks.send(batch);
    }
    total
}

/// Hand the chunks to `sink` in order; at the end of stdout, finish the sink
/// and report `Event::StdoutEof`. Stops early when `stop` is set.
fn parse_stdout<S: Sink>(
    chunks: &mpsc::Receiver<Vec<u8>>,
    sink: &mut S,
    stop: &AtomicBool,
    tx: &mpsc::Sender<Event>,
) {
    for chunk in chunks {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        sink.chunk(&chunk);
    }
    sink.finish();
    let _ = tx.send(Event::StdoutEof);
}

/// Keep a bounded copy of stderr until EOF.
fn read_stderr(pipe: &mut impl Read, tx: &mpsc::Sender<Event>) -> Stderr {
    let mut kept = Stderr::default();
    let mut buf = vec![0u8; 8 * 1024];
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => kept.push(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    kept.close();
    let _ = tx.send(Event::StderrEof);
    kept
}

/// Learn of sh's exit without reaping it (`WNOWAIT`), so the group id stays
/// reserved until what is left of the group has been killed.
fn watch_exit(pid: i32, tx: &mpsc::Sender<Event>) {
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT;
    while let Err(Errno::EINTR) = waitid(Id::Pid(Pid::from_raw(pid)), flags) {}
    let _ = tx.send(Event::Exited);
}

/// Wait until sh has exited and both pipes are drained (`None`), or until
/// a limit stops the run (`Some`). `on_exit` runs once, when sh exits: it
/// kills what sh left behind, so a background process holding a pipe open
/// cannot keep the search waiting (data already in the pipes stays readable).
fn wait(
    rx: &mpsc::Receiver<Event>,
    deadline: Instant,
    cancel: Option<&AtomicBool>,
    on_exit: impl Fn(),
) -> Option<End> {
    let mut open_pipes = 2;
    let mut exited = false;
    loop {
        if let Some(signal) = signals::pending() {
            return Some(End::Interrupted(signal));
        }
        if cancel.is_some_and(|c| c.load(Ordering::SeqCst)) {
            return Some(End::Cancelled);
        }
        let now = Instant::now();
        if now >= deadline {
            return Some(End::TimedOut);
        }
        match rx.recv_timeout((deadline - now).min(SIGNAL_POLL)) {
            Ok(Event::StdoutEof | Event::StderrEof) => open_pipes -= 1,
            Ok(Event::Exited) => {
                exited = true;
                on_exit();
            }
            Ok(Event::Overflow) => return Some(End::Overflow),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
        }
        if exited && open_pipes == 0 {
            return None;
        }
    }
}

fn kill_group(child: &Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // ESRCH (group already gone) is the normal case after a clean exit.
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

/// The first line of `<rg> --version`, for `--explain`; `None` when rg
/// cannot say within a second.
pub fn version(rg: &str, workdir: &Path) -> Option<String> {
    struct Collect(Vec<u8>);
    impl Sink for Collect {
        fn chunk(&mut self, bytes: &[u8]) {
            self.0.extend_from_slice(bytes);
        }
    }
    let script = format!("{} --version", super::quote::quote(rg).ok()?);
    let mut out = Collect(Vec::new());
    let spec = Spec {
        script: &script,
        workdir,
        timeout: Duration::from_secs(1),
        stdout_cap: 64 * 1024,
        cancel: None,
    };
    let raw = run(&spec, &mut out).ok()?;
    match raw.end {
        End::Exited(status) if status.success() => String::from_utf8_lossy(&out.0)
            .lines()
            .next()
            .map(str::to_owned),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_keeps_head_and_tail_and_counts_lines() {
        let mut s = Stderr::default();
        s.push(b"rg: a: Permission denied\n\n");
        for _ in 0..2000 {
            s.push(b"rg: b: Permission denied\n");
        }
        s.push(b"last line without newline");
        s.close();
        assert_eq!(s.lines, 2002);
        assert_eq!(s.first_line(), "rg: a: Permission denied");
        let excerpt = s.excerpt();
        assert!(excerpt.contains("bytes of stderr omitted"));
        assert!(excerpt.ends_with("last line without newline"));
        assert!(excerpt.len() < STDERR_HEAD + STDERR_TAIL + 100);
    }
}
