//! The Unix half of the runner: `/bin/sh -c SCRIPT` (the [`CommandLine`](crate::rg::command::CommandLine)'s
//! script, which `exec`s rg) in a process group of its own, both pipes
//! read by one `poll(2)` loop on the calling thread, the group killed with
//! `killpg`.
//!
//! The shared watch loop (`process.rs`) ends when sh has exited and both
//! pipes are at end of file, at a limit, or, when sh has exited but
//! something still holds a pipe open, within a few tens of milliseconds
//! after the rest of the group is killed: even if the holder escaped the
//! group (`setsid`) and lives on, its pipes are simply closed.
//!
//! **How sh's exit is learnt without racing pid reuse.** The group is killed
//! with `killpg(pgid)`, where the pgid is sh's pid. A pid (and so a group id)
//! cannot be reused while its process is unreaped, so the runner never reaps
//! sh before the last kill: it asks `waitid(P_PID, WEXITED | WNOHANG |
//! WNOWAIT)`, which reports an exit and leaves the zombie in place, each
//! time the loop wakes (at least every `TICK`), and reaps sh only after
//! killing the group (`reap`). `waitid` is POSIX and exists on Linux, macOS
//! and the BSDs this project supports (FreeBSD, NetBSD); rustix offers it
//! safely. The loop needs no extra thread and no signal handler for SIGCHLD.
//!
//! **Portability.** Everything above is POSIX (`poll`, `O_NONBLOCK`,
//! `waitid`, `killpg`). Two tunings are per OS and change no logic: on Linux
//! the stdout pipe is grown to 1 MiB (fewer wake-ups for large outputs), and
//! on Linux and FreeBSD sh gets a parent-death signal (SIGKILL), so even
//! `kill -9` of dsh-search takes rg with it. That needs one of the crate's
//! few `unsafe` blocks ([`arm_parent_death`]): std offers no safe way to run
//! code in the child before `exec`. Elsewhere (macOS), rg outlives a
//! `SIGKILL`ed dsh-search until its search ends or it next writes to the
//! closed pipe.

use std::io;
#[cfg(target_os = "linux")]
use std::os::fd::AsFd;
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use rustix::process::{Pid, Signal, WaitId, WaitIdOptions};

use super::{Meter, READ_CHUNK, Spec, UNKNOWN_STATUS};
use crate::rg::ending::RgExit;
use crate::rg::stderr::Stderr;
use crate::stop::Kill;

/// Reads of one pipe per wake, so a flood on one cannot starve the other.
const READS_PER_WAKE: usize = 16;

/// sh, started, with its group and its pipes.
pub(super) struct Child {
    sh: std::process::Child,
    group: Group,
    pipes: Pipes,
}

impl Child {
    /// Start `/bin/sh -c SCRIPT` in the workdir, in a process group of its own.
    pub(super) fn start(spec: &Spec<'_>) -> io::Result<Self> {
        let mut command = Command::new("/bin/sh");
        // POSIX puts sh at /bin/sh: no PATH search, and no `sh` planted on PATH.
        command
            .arg("-c")
            .arg(spec.line.script_os())
            .current_dir(spec.workdir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("RIPGREP_CONFIG_PATH")
            .process_group(0);
        arm_parent_death(&mut command);
        let mut child = command.spawn()?;
        let group = Group {
            pid: Pid::from_child(&child),
        };
        let pipes = match (child.stdout.take(), child.stderr.take()) {
            (Some(out), Some(err)) => Pipes::new(OwnedFd::from(out), OwnedFd::from(err)),
            _ => Err(io::Error::other("the child's pipes were not created")),
        };
        match pipes {
            Ok(pipes) => Ok(Self {
                sh: child,
                group,
                pipes,
            }),
            Err(e) => {
                group.kill();
                let _ = child.wait();
                Err(e)
            }
        }
    }

    pub(super) fn pipes_done(&self) -> bool {
        !self.pipes.open()
    }

    /// Wait up to `wait` for either pipe, and read what it has; `false`
    /// when nothing came (output, or a pipe reaching its end) in that time.
    pub(super) fn read(
        &mut self,
        wait: Duration,
        meter: &mut Meter,
        feed: &mut impl FnMut(&[u8]),
    ) -> bool {
        if !self.pipes.wait(wait) {
            return false;
        }
        self.pipes.read_stdout(meter, feed);
        // Past the cap the run ends at once.
        if !meter.over() {
            self.pipes.read_stderr();
        }
        true
    }

    /// Whether sh has exited (left unreaped, so its group id stays ours).
    pub(super) fn exited(&mut self) -> bool {
        self.group.exited()
    }

    /// Kill the group. sh has not been reaped yet, so its group id cannot
    /// name a stranger.
    pub(super) fn kill(&self) {
        self.group.kill();
    }

    /// The kill, for another thread: valid until `reap`, which the
    /// runner calls only after it dropped the closure's enrollment.
    pub(super) fn kill_from_anywhere(&self) -> Kill {
        let pid = self.group.pid;
        Box::new(move || Group { pid }.kill())
    }

    /// Reap sh (after the last kill) and hand back what the run left.
    pub(super) fn reap(mut self) -> (RgExit, Stderr) {
        let status = self.sh.wait();
        self.pipes.stderr.close();
        (exit_of(&status), self.pipes.stderr)
    }
}

/// Whether `e`, from [`run`](super::run), says the command line is too
/// long for the OS: `E2BIG` from `execve`.
pub fn too_long(e: &io::Error) -> bool {
    Errno::from_io_error(e) == Some(Errno::TOOBIG)
}

/// How sh ended by itself, read once from its wait status.
fn exit_of(status: &io::Result<ExitStatus>) -> RgExit {
    match status {
        Ok(status) => match (status.code(), status.signal()) {
            (Some(code), _) => RgExit::Status(code),
            (None, Some(signal)) => RgExit::Signal(signal),
            (None, None) => RgExit::Status(UNKNOWN_STATUS),
        },
        Err(_) => RgExit::Status(UNKNOWN_STATUS),
    }
}

/// sh's process group, named by sh's pid (sh is its leader).
struct Group {
    pid: Pid,
}

impl Group {
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
    stderr: Stderr,
    /// Linux: the stdout pipe was grown, so small reads may pause (see `read_stdout`).
    grown: bool,
    reads: u32,
    buf: Vec<u8>,
}

impl Pipes {
    fn new(stdout: OwnedFd, stderr: OwnedFd) -> io::Result<Self> {
        rustix::io::ioctl_fionbio(&stdout, true)?;
        rustix::io::ioctl_fionbio(&stderr, true)?;
        let grown = grow_pipe(&stdout);
        Ok(Self {
            stdout: Some(stdout),
            stderr_fd: Some(stderr),
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
        let mut fds: Vec<PollFd<'_>> = [&self.stdout, &self.stderr_fd]
            .into_iter()
            .flatten()
            .map(|fd| PollFd::new(fd, PollFlags::IN))
            .collect();
        let timeout = Timespec {
            tv_sec: timeout.as_secs().try_into().unwrap_or(i64::MAX),
            tv_nsec: i64::from(timeout.subsec_nanos()),
        };
        // EINTR is a wake-up like any other.
        matches!(poll(&mut fds, Some(&timeout)), Ok(n) if n > 0)
    }

    /// Read what stdout has, up to `READS_PER_WAKE` reads or until the cap
    /// is passed, passing it to `feed`.
    fn read_stdout(&mut self, meter: &mut Meter, feed: &mut impl FnMut(&[u8])) {
        for _ in 0..READS_PER_WAKE {
            let Some(n) = read_some(&mut self.stdout, &mut self.buf[..]) else {
                return;
            };
            self.reads += 1;
            meter.pass(&self.buf[..n], feed);
            if meter.over() {
                return;
            }
            // Linux tuning: once the output is large, let it pile up in the
            // grown pipe instead of waking for every write rg makes. rg
            // never blocks on a pipe with room left. Not done with a small
            // pipe, where rg would block instead.
            if self.grown && self.reads > 16 && n < READ_CHUNK / 4 {
                thread::sleep(Duration::from_micros(500));
            }
        }
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

#[cfg(test)]
#[path = "../../../tests/unit/rg/process/unix.rs"]
mod tests;
