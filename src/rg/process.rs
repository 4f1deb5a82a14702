//! The only code that starts a process.
//!
//! `/bin/sh -c SCRIPT` runs in the workdir, in a process group of its own,
//! with stdin from /dev/null and `RIPGREP_CONFIG_PATH` removed. One loop
//! (this thread) waits on both pipes with `poll(2)`, reads them without
//! blocking, counts stdout against the byte cap and keeps a bounded copy of
//! stderr (`stderr`); stdout goes to a [`Sink`] through the `feed`, which
//! moves parsing to its own thread once the output is large. The run ends:
//!
//! - when sh has exited and both pipes are at end of file;
//! - at one byte over the cap, at the deadline, or when the [`Budget`]'s
//!   stop channel says so (a signal, a cancellation): the whole group (sh,
//!   rg and anything they started) is killed at once;
//! - when sh has exited but something still holds a pipe open: what is
//!   left of the group is killed, what is already in the pipes is read, and
//!   the run ends within a few tens of milliseconds, even if the holder
//!   escaped the group (`setsid`) and lives on. Its pipes are simply closed.
//!
//! **How sh's exit is learnt without racing pid reuse.** The group is killed
//! with `killpg(pgid)`, where the pgid is sh's pid. A pid (and so a group id)
//! cannot be reused while its process is unreaped, so the runner never reaps
//! sh before the last kill: it asks `waitid(P_PID, WEXITED | WNOHANG |
//! WNOWAIT)`, which reports an exit and leaves the zombie in place, each
//! time the loop wakes (at least every [`TICK`]), and reaps sh only after
//! killing the group. `waitid` is POSIX and exists on Linux, macOS and the
//! BSDs this project supports (FreeBSD, NetBSD); rustix offers it safely.
//! The loop needs no extra thread and no signal handler for SIGCHLD.
//!
//! **Portability.** Everything above is POSIX (`poll`, `O_NONBLOCK`,
//! `waitid`, `killpg`). Two tunings are per OS and change no logic: on Linux
//! the stdout pipe is grown to 1 MiB (fewer wake-ups for large outputs), and
//! on Linux and FreeBSD sh gets a parent-death signal (SIGKILL), so even
//! `kill -9` of dsh-search takes rg with it. That needs the crate's one
//! `unsafe` block ([`arm_parent_death`]): std offers no safe way to run code
//! in the child before `exec`. Elsewhere (macOS), rg outlives a `SIGKILL`ed
//! dsh-search until its search ends or it next writes to the closed pipe.
//!
//! What the run *means* (exit 2 with results, a pattern error) is the search
//! layer's call: this module reports facts only.

use std::io;
#[cfg(target_os = "linux")]
use std::os::fd::AsFd;
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use rustix::process::{Pid, Signal, WaitId, WaitIdOptions};

use super::feed::{Feed, Finish, Sink};
use super::stderr::Stderr;
use crate::stop::{Budget, Halt};

/// The longest the loop sleeps between looks at the stop channel, the
/// deadline and sh's exit. Pipe events wake it at once.
const TICK: Duration = Duration::from_millis(20);
/// After sh has exited with a pipe still open: how long to wait for more
/// bytes before deciding that only a stray process holds it.
const DRAIN_QUIET: Duration = Duration::from_millis(10);
/// ... and how long to drain at most (a stray writer could write forever).
const DRAIN_LIMIT: Duration = Duration::from_millis(100);
/// First wait for sh's exit once both pipes are closed (doubling to TICK).
const FIRST_BACKOFF: Duration = Duration::from_micros(20);
const READ_CHUNK: usize = 256 * 1024;
/// Reads of one pipe per wake, so a flood on one cannot starve the other.
const READS_PER_WAKE: usize = 16;
/// Exit status reported if sh's status cannot be collected: an rg
/// failure, never mistaken for "rg not found" (127) or a result.
const UNKNOWN_STATUS: i32 = 255;

/// What to run.
#[derive(Debug, Clone, Copy)]
pub struct Spec<'a> {
    pub script: &'a str,
    pub workdir: &'a Path,
    /// The call's deadline and stop channel.
    pub budget: Budget<'a>,
    /// rg stdout bytes the sink may receive; one more byte is an overflow.
    pub stdout_cap: u64,
    /// When set, each `\n`-ended record counts at most this many bytes
    /// against the cap: the sink reads a longer one as it streams and keeps
    /// only a bounded part of it (grep's `--json`: one giant line is a
    /// match, not an overflow), so memory stays bounded by the cap.
    pub record_bound: Option<u64>,
}

/// How the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// sh (so rg, which the script `exec`s) ended by itself.
    Exited(Exited),
    /// stdout went over the cap; the group was killed.
    Overflow,
    /// The deadline passed, or the stop channel said stop; the group was killed.
    Halted(Halt),
}

/// How sh ended by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exited {
    /// With this exit status.
    Status(i32),
    /// Killed by this signal.
    Signal(i32),
}

/// The facts of one run.
#[derive(Debug, Clone)]
pub struct Finished {
    pub ending: Ending,
    /// stdout bytes received (at most the cap + one read's worth).
    pub stdout_bytes: u64,
    pub stderr: Stderr,
    pub elapsed: Duration,
}

/// What cut a run short, as the loop saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    Overflow,
    Halted(Halt),
}

impl Cut {
    /// What the feed does with its backlog after this cut.
    fn finish(cut: Option<Self>) -> Finish {
        match cut {
            None => Finish::Complete,
            Some(Self::Overflow) => Finish::Overflow,
            Some(Self::Halted(Halt::TimedOut)) => Finish::TimedOut,
            Some(Self::Halted(_)) => Finish::Abandon,
        }
    }
}

/// Run `spec.script` to completion or to the first limit it hits. `Err` only
/// when `sh` itself could not be started.
pub fn run<S: Sink>(spec: &Spec<'_>, sink: &mut S) -> io::Result<Finished> {
    let started = Instant::now();
    if let Err(halt) = spec.budget.check() {
        return Ok(Finished {
            ending: Ending::Halted(halt),
            stdout_bytes: 0,
            stderr: Stderr::default(),
            elapsed: started.elapsed(),
        });
    }
    let mut command = Command::new("/bin/sh");
    // POSIX puts sh at /bin/sh: no PATH search, and no `sh` planted on PATH.
    command
        .arg("-c")
        .arg(spec.script)
        .current_dir(spec.workdir)
        // SPEC §2: with no path and a piped stdin rg would search stdin.
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RIPGREP_CONFIG_PATH")
        .process_group(0);
    arm_parent_death(&mut command);
    let mut child = command.spawn()?;
    let group = Group::of(&child);
    let pipes = match (child.stdout.take(), child.stderr.take()) {
        (Some(out), Some(err)) => Pipes::new(OwnedFd::from(out), OwnedFd::from(err)),
        _ => Err(io::Error::other("the child's pipes were not created")),
    };
    let mut pipes = match pipes {
        Ok(pipes) => pipes,
        Err(e) => {
            group.kill();
            let _ = child.wait();
            return Err(e);
        }
    };
    let handback = AtomicBool::new(false);
    let (cut, stdout_bytes) = thread::scope(|scope| {
        let mut feed = Feed::new(sink);
        let cut = watch(spec, &group, &mut pipes, &mut |bytes| {
            feed.push(bytes, scope, &handback);
        });
        // Whatever ended the run, nothing of the group outlives it: sh has
        // not been reaped yet, so its group id cannot name a stranger.
        group.kill();
        feed.finish(Cut::finish(cut), &handback);
        (cut, pipes.stdout_bytes)
    });
    let status = child.wait();
    pipes.stderr.close();
    let ending = match cut {
        Some(Cut::Overflow) => Ending::Overflow,
        Some(Cut::Halted(halt)) => Ending::Halted(halt),
        None => exited(&status),
    };
    Ok(Finished {
        ending,
        stdout_bytes,
        stderr: pipes.stderr,
        elapsed: started.elapsed(),
    })
}

/// How sh ended by itself, read once from its wait status.
fn exited(status: &io::Result<ExitStatus>) -> Ending {
    Ending::Exited(match status {
        Ok(status) => match (status.code(), status.signal()) {
            (Some(code), _) => Exited::Status(code),
            (None, Some(signal)) => Exited::Signal(signal),
            (None, None) => Exited::Status(UNKNOWN_STATUS),
        },
        Err(_) => Exited::Status(UNKNOWN_STATUS),
    })
}

/// sh's process group, named by sh's pid (sh is its leader).
struct Group {
    pid: Pid,
}

impl Group {
    fn of(child: &Child) -> Self {
        Self {
            pid: Pid::from_child(child),
        }
    }

    /// Whether sh has exited, leaving it unreaped (`WNOWAIT`).
    fn exited(&self) -> bool {
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        match rustix::process::waitid(WaitId::Pid(self.pid), options) {
            Ok(status) => status.is_some(),
            Err(Errno::INTR) => false,
            // Not our child any more: there is nothing left to wait for.
            Err(_) => true,
        }
    }

    /// SIGKILL the group, and sh by its pid in case it left the group. ESRCH
    /// (nothing left) is the normal case after a clean exit.
    fn kill(&self) {
        let _ = rustix::process::kill_process_group(self.pid, Signal::KILL);
        let _ = rustix::process::kill_process(self.pid, Signal::KILL);
    }
}

/// The read ends of sh's stdout and stderr, non-blocking.
struct Pipes {
    stdout: Option<OwnedFd>,
    stderr_fd: Option<OwnedFd>,
    stdout_bytes: u64,
    stderr: Stderr,
    /// Linux: the stdout pipe was grown, so small reads may pause (see `read_stdout`).
    grown: bool,
    reads: u32,
    buf: Vec<u8>,
}

/// What one look at stdout found.
enum Read {
    /// Nothing more for now (or end of file).
    Idle,
    /// One byte past the cap.
    Overflow,
}

impl Pipes {
    fn new(stdout: OwnedFd, stderr: OwnedFd) -> io::Result<Self> {
        rustix::io::ioctl_fionbio(&stdout, true)?;
        rustix::io::ioctl_fionbio(&stderr, true)?;
        let grown = grow_pipe(&stdout);
        Ok(Self {
            stdout: Some(stdout),
            stderr_fd: Some(stderr),
            stdout_bytes: 0,
            stderr: Stderr::default(),
            grown,
            reads: 0,
            buf: vec![0; READ_CHUNK],
        })
    }

    fn open(&self) -> bool {
        self.stdout.is_some() || self.stderr_fd.is_some()
    }

    /// Wait up to `timeout` for either pipe; `true` if one is ready.
    fn wait(&self, timeout: Duration) -> bool {
        let flags = PollFlags::IN;
        let mut fds: Vec<PollFd<'_>> = [&self.stdout, &self.stderr_fd]
            .into_iter()
            .flatten()
            .map(|fd| PollFd::new(fd, flags))
            .collect();
        let timeout = Timespec {
            tv_sec: timeout.as_secs().try_into().unwrap_or(i64::MAX),
            tv_nsec: i64::from(timeout.subsec_nanos()),
        };
        // EINTR is a wake-up like any other.
        matches!(poll(&mut fds, Some(&timeout)), Ok(n) if n > 0)
    }

    /// Read what stdout has, up to `READS_PER_WAKE` reads, passing it to `feed`.
    fn read_stdout(&mut self, meter: &mut Meter, feed: &mut impl FnMut(&[u8])) -> Read {
        for _ in 0..READS_PER_WAKE {
            let Some(n) = read_some(&mut self.stdout, &mut self.buf[..]) else {
                return Read::Idle;
            };
            self.reads += 1;
            self.stdout_bytes += n as u64;
            if let Err(within) = meter.count(&self.buf[..n]) {
                // The sink sees exactly what fits under the cap, however
                // the reads fell (a probe's count stays the same from run
                // to run).
                feed(&self.buf[..within]);
                return Read::Overflow;
            }
            feed(&self.buf[..n]);
            // Linux tuning: once the output is large, let it pile up in the
            // grown pipe instead of waking for every write rg makes. rg
            // never blocks on a pipe with room left. Not done with a small
            // pipe, where rg would block instead.
            if self.grown && self.reads > 16 && n < READ_CHUNK / 4 {
                thread::sleep(Duration::from_micros(500));
            }
        }
        Read::Idle
    }

    fn read_stderr(&mut self) {
        let mut buf = [0u8; 8 * 1024];
        for _ in 0..READS_PER_WAKE {
            let Some(n) = read_some(&mut self.stderr_fd, &mut buf) else {
                return;
            };
            self.stderr.push(&buf[..n]);
        }
    }
}

/// Counts stdout against the cap (see [`Spec::record_bound`]).
#[derive(Debug)]
struct Meter {
    cap: u64,
    bound: Option<u64>,
    counted: u64,
    /// Bytes of the record not yet ended by `\n`.
    record: u64,
}

impl Meter {
    fn new(spec: &Spec<'_>) -> Self {
        Self {
            cap: spec.stdout_cap,
            bound: spec.record_bound,
            counted: 0,
            record: 0,
        }
    }

    /// Count `chunk`; `Err(n)` when the cap is passed, with `n` the bytes
    /// of `chunk` that fit under it.
    fn count(&mut self, chunk: &[u8]) -> Result<(), usize> {
        let Some(bound) = self.bound else {
            self.counted += chunk.len() as u64;
            if self.counted > self.cap {
                let over = usize::try_from(self.counted - self.cap).unwrap_or(chunk.len());
                return Err(chunk.len().saturating_sub(over));
            }
            return Ok(());
        };
        let mut from = 0;
        while from < chunk.len() {
            let end = memchr::memchr(b'\n', &chunk[from..]).map_or(chunk.len(), |i| from + i + 1);
            let len = (end - from) as u64;
            // Of this piece, the bytes still under the record's bound count.
            let counts = bound.saturating_sub(self.record).min(len);
            if self.counted + counts > self.cap {
                let fits = usize::try_from(self.cap - self.counted).unwrap_or(0);
                return Err(from + fits);
            }
            self.counted += counts;
            self.record = if chunk[end - 1] == b'\n' {
                0
            } else {
                self.record + len
            };
            from = end;
        }
        Ok(())
    }
}

/// One read from the pipe in `slot`: `Some(n)` bytes, or `None` when it has
/// nothing now (EAGAIN) or is done (end of file, or an error: the slot is
/// emptied, and the pipe closed).
fn read_some(slot: &mut Option<OwnedFd>, buf: &mut [u8]) -> Option<usize> {
    let fd = slot.as_ref()?;
    loop {
        match rustix::io::read(fd, &mut *buf) {
            Ok(n) if n > 0 => return Some(n),
            Err(Errno::INTR) => {}
            Err(Errno::AGAIN) => return None,
            Ok(_) | Err(_) => {
                *slot = None;
                return None;
            }
        }
    }
}

/// The loop: until sh has exited and the pipes are done (`None`), or until a
/// limit cuts the run short (`Some`).
fn watch(
    spec: &Spec<'_>,
    group: &Group,
    pipes: &mut Pipes,
    feed: &mut impl FnMut(&[u8]),
) -> Option<Cut> {
    let budget = spec.budget;
    let mut meter = Meter::new(spec);
    let mut last_look = Instant::now();
    // Set once sh has exited with a pipe still open: drain until then.
    let mut drain_until: Option<Instant> = None;
    let mut backoff = FIRST_BACKOFF;
    loop {
        if let Err(halt) = budget.check() {
            return Some(Cut::Halted(halt));
        }
        if !pipes.open() {
            // Both pipes are done; sh is exiting or has exited. Look soon,
            // then less and less often (a process that closed its pipes
            // but keeps running still ends at the deadline).
            if drain_until.is_some() || group.exited() {
                return None;
            }
            thread::sleep(backoff.min(budget.remaining()));
            backoff = (backoff * 2).min(TICK);
            continue;
        }
        let wait = if drain_until.is_some() {
            DRAIN_QUIET
        } else {
            TICK
        };
        let ready = pipes.wait(wait.min(budget.remaining()));
        if ready {
            if let Read::Overflow = pipes.read_stdout(&mut meter, feed) {
                return Some(Cut::Overflow);
            }
            pipes.read_stderr();
        }
        if let Some(until) = drain_until {
            // Only strays hold the pipes now: stop when they are quiet.
            if !ready || Instant::now() >= until {
                return None;
            }
            continue;
        }
        if last_look.elapsed() >= TICK {
            last_look = Instant::now();
            if group.exited() {
                // Kill what sh left behind; what it wrote stays readable.
                group.kill();
                drain_until = Some(Instant::now() + DRAIN_LIMIT);
            }
        }
    }
}

/// Linux: grow the stdout pipe (default 64 KiB) so a large output wakes the
/// reader less often; `true` if it worked. Other systems keep their pipes.
#[cfg(target_os = "linux")]
fn grow_pipe(fd: &OwnedFd) -> bool {
    rustix::pipe::fcntl_setpipe_size(fd.as_fd(), 1024 * 1024).is_ok()
}

#[cfg(not(target_os = "linux"))]
fn grow_pipe(_fd: &OwnedFd) -> bool {
    false
}

/// Linux and FreeBSD: sh (and so rg, which the script `exec`s) gets SIGKILL when the
/// thread that started it dies, so not even `kill -9` of dsh-search leaves
/// rg running. `run` waits for sh before it returns, so that thread always
/// outlives sh.
#[cfg(any(target_os = "linux", target_os = "freebsd"))]
#[allow(unsafe_code)]
fn arm_parent_death(command: &mut Command) {
    let parent = rustix::process::getpid();
    // SAFETY: `pre_exec` runs the closure in the child between fork and
    // exec, where only async-signal-safe work is allowed. The closure makes
    // two system calls (prctl or procctl, then getppid), allocates nothing
    // and touches no lock. If dsh-search died before the signal was set,
    // getppid no longer names it, and the child gives up instead of running
    // unwatched.
    unsafe {
        command.pre_exec(move || {
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            if rustix::process::getppid() == Some(parent) {
                Ok(())
            } else {
                Err(io::Error::from(io::ErrorKind::Interrupted))
            }
        });
    }
}

#[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
fn arm_parent_death(_command: &mut Command) {}

/// The first line of `<rg> --version`, for `--explain`; `None` when rg
/// cannot say within a second.
pub fn version(rg: &str, workdir: &Path, budget: Budget<'_>) -> Option<String> {
    struct Collect(Vec<u8>);
    impl Sink for Collect {
        fn chunk(&mut self, bytes: &[u8]) {
            self.0.extend_from_slice(bytes);
        }
    }
    let script = format!("exec {} --version", super::quote::quote(rg));
    let mut out = Collect(Vec::new());
    let spec = Spec {
        script: &script,
        workdir,
        budget: budget.within(Duration::from_secs(1)),
        stdout_cap: 64 * 1024,
        record_bound: None,
    };
    let finished = run(&spec, &mut out).ok()?;
    match finished.ending {
        Ending::Exited(Exited::Status(0)) => String::from_utf8_lossy(&out.0)
            .lines()
            .next()
            .map(str::to_owned),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stop::Stop;

    /// Keeps every byte it is given, and whether it was finished.
    #[derive(Default)]
    struct Keep {
        bytes: Vec<u8>,
        finished: bool,
    }

    impl Sink for Keep {
        fn chunk(&mut self, bytes: &[u8]) {
            assert!(!self.finished);
            self.bytes.extend_from_slice(bytes);
        }
        fn finish(&mut self) {
            self.finished = true;
        }
    }

    fn spec<'a>(script: &'a str, dir: &'a Path, stop: &'a Stop, cap: u64) -> Spec<'a> {
        Spec {
            script,
            workdir: dir,
            budget: Budget {
                deadline: Instant::now() + Duration::from_secs(20),
                stop,
            },
            stdout_cap: cap,
            record_bound: None,
        }
    }

    #[test]
    fn every_byte_arrives_in_order_inline_or_threaded() {
        let dir = tempfile::tempdir().unwrap();
        // 6 MB: past the inline limit, so most of it goes through the thread.
        let data: Vec<u8> = (0..6_000_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(dir.path().join("data"), &data).unwrap();
        let stop = Stop::new();
        for (script, want) in [("exec cat data", &data[..]), ("printf abc", b"abc")] {
            let mut keep = Keep::default();
            let raw = run(&spec(script, dir.path(), &stop, 1 << 30), &mut keep).unwrap();
            assert!(
                raw.ending == Ending::Exited(Exited::Status(0)),
                "{:?}",
                raw.ending
            );
            assert_eq!(raw.stdout_bytes, want.len() as u64);
            assert!(keep.bytes == want, "{script}: bytes differ");
            assert!(keep.finished);
        }
    }

    #[test]
    fn overflow_and_halts_leave_the_sink_unfinished() {
        let dir = tempfile::tempdir().unwrap();
        let stop = Stop::new();
        let mut keep = Keep::default();
        let raw = run(&spec("exec yes", dir.path(), &stop, 1 << 20), &mut keep).unwrap();
        assert_eq!(raw.ending, Ending::Overflow);
        assert!(!keep.finished && keep.bytes.len() <= 1 << 20);
        stop.cancel();
        let mut keep = Keep::default();
        let raw = run(&spec("exec sleep 5", dir.path(), &stop, 10), &mut keep).unwrap();
        assert_eq!(raw.ending, Ending::Halted(Halt::Cancelled));
        assert!(!keep.finished);
    }

    /// The backstop behind the request rules (see `quote`): a script that
    /// holds a NUL is refused before any process starts.
    #[test]
    fn a_nul_byte_never_reaches_a_shell() {
        let dir = tempfile::tempdir().unwrap();
        let stop = Stop::new();
        let mut keep = Keep::default();
        let started = run(
            &spec("exec touch made\0 here", dir.path(), &stop, 10),
            &mut keep,
        );
        assert!(started.is_err(), "{started:?}");
        assert!(!dir.path().join("made").exists());
    }

    #[test]
    fn a_record_bound_counts_a_long_record_in_part() {
        let mut meter = Meter {
            cap: 25,
            bound: Some(10),
            counted: 0,
            record: 0,
        };
        // A 4-byte record, then one of 40 bytes split across chunks: it
        // counts 10; a short record after it counts whole.
        assert_eq!(meter.count(b"abc\n"), Ok(()));
        assert_eq!(meter.count(&[b'x'; 30]), Ok(()));
        assert_eq!(meter.count(b"yyyyyyyyy\nzz"), Ok(()));
        assert_eq!(meter.counted, 4 + 10 + 2);
        // The rest of that record counts 8 (10 less the 2 already seen).
        assert_eq!(meter.count(b"0123456789\n"), Ok(()));
        assert_eq!(meter.counted, 24);
        // Over the cap: what fits is the first byte.
        assert_eq!(meter.count(b"ab\n"), Err(1));
        let mut plain = Meter {
            cap: 5,
            bound: None,
            counted: 0,
            record: 0,
        };
        assert_eq!(plain.count(b"abc"), Ok(()));
        assert_eq!(plain.count(b"defg"), Err(2));
    }
}
