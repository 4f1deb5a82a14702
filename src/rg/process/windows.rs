//! The Windows half of the runner (SPEC §10): rg started directly, with
//! the [`CommandLine`](crate::rg::command::CommandLine)'s arguments (no shell, nothing quoted), in a Job Object
//! that kills it when the job is killed or closed.
//!
//! **Started directly.** `std::process::Command` with the resolved,
//! absolute rg (see `locate/windows.rs`: never a name Windows would look
//! up in the workdir first), each argument one word of the line. Flags:
//! `CREATE_NO_WINDOW` (rg gets no console, so no console event reaches it:
//! Ctrl-C is dsh-search's to handle, see `signals/windows.rs`) and
//! `CREATE_NEW_PROCESS_GROUP` (should Windows ignore the first, Ctrl-C is
//! still off for rg).
//!
//! **The group is a Job Object** with `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`.
//! rg is assigned to it right after `spawn`; a limit, a stop or the end
//! of the run kills the whole job at once (`TerminateJobObject`), and
//! whenever dsh-search ends, however it ends (a `TerminateProcess`, a
//! crash), Windows closes its handle to the job and so kills rg and
//! anything rg started. The handle is not inheritable, so rg cannot hold
//! its own job open. Between `spawn` and the assignment there is a window
//! of a few microseconds in which rg runs outside the job: a process rg
//! started in it would escape, but rg starts none unless asked to (`--pre`,
//! `--search-zip`), which these command lines never do; and should
//! dsh-search die in that window, rg runs unwatched until it next writes
//! to its closed stdout. Where a job cannot be made or joined (Windows
//! before 8 inside another job), the run goes on and rg is killed by its
//! own handle (`TerminateProcess`), which suffices for an rg with no
//! children.
//!
//! **No poll.** Windows cannot wait on anonymous pipes with a timeout, so
//! each pipe has a reader thread that blocks in `read` and hands what it
//! read to this thread through one small bounded queue (a full queue
//! blocks the reader, and so rg, as a full pipe would: memory stays
//! bounded). The shared watch loop (`process.rs`) waits on the queue
//! through `read`, as on Unix it waits in `poll`; stdout is counted with
//! the shared meter and feeds the sink exactly as on Unix. When rg has
//! exited but a pipe is still open, the job is killed (taking whatever
//! still held the pipe) and the pipes are drained as on Unix. The
//! readers own their pipes and are never joined: once the run is over they
//! end at their next read or send.

use std::io::{self, Read};
use std::os::windows::io::{AsHandle, AsRawHandle, FromRawHandle, OwnedHandle};
use std::os::windows::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::thread;
use std::time::Duration;

use windows_sys::Win32::Foundation::{ERROR_FILENAME_EXCED_RANGE, FALSE};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject,
};
use windows_sys::Win32::System::Threading::{CREATE_NEW_PROCESS_GROUP, CREATE_NO_WINDOW};

use super::{Meter, READ_CHUNK, Spec, UNKNOWN_STATUS};
use crate::rg::ending::RgExit;
use crate::rg::stderr::Stderr;
use crate::stop::Kill;

/// Chunks the readers may have waiting: enough to keep rg writing while
/// this thread feeds the sink, few enough to bound memory (4 × 256 KiB).
const QUEUE: usize = 4;
/// The longest command line `CreateProcessW` takes, in UTF-16 units,
/// with its terminating NUL.
const MAX_COMMAND_LINE: usize = 32_767;
/// `ERROR_FILENAME_EXCED_RANGE`, as `io::Error` holds an OS error code:
/// what `CreateProcessW` says of a command line over its limit.
const TOO_LONG: i32 = 206;
const _: () = assert!(ERROR_FILENAME_EXCED_RANGE == 206);
/// The exit status a killed job's processes get (never read: a killed
/// run's ending is the cut that killed it).
const KILLED: u32 = 1;

/// What a reader hands over.
enum PipeEvent {
    Stdout(Vec<u8>),
    Stderr(Vec<u8>),
    /// That pipe is at end of file (or failed).
    Closed,
}

/// rg, started, with its job and its readers' queue.
pub(super) struct Child {
    rg: std::process::Child,
    /// Shared with the kill the watchdog may use (`kill_from_anywhere`).
    job: Option<Arc<Job>>,
    events: Receiver<PipeEvent>,
    /// Pipes not yet at end of file.
    open: u8,
    stderr: Stderr,
}

impl Child {
    pub(super) fn start(spec: &Spec<'_>) -> io::Result<Self> {
        let line = spec.line;
        // Checked here, so the error is the same whatever Windows says.
        if line.windows_command_line().encode_utf16().count() >= MAX_COMMAND_LINE {
            return Err(io::Error::from_raw_os_error(TOO_LONG));
        }
        let mut command = Command::new(line.program());
        command
            .args(line.args().map(|arg| arg.into_owned()))
            .current_dir(spec.workdir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("RIPGREP_CONFIG_PATH")
            .creation_flags(CREATE_NO_WINDOW | CREATE_NEW_PROCESS_GROUP);
        let job = Job::new().ok();
        let mut rg = command.spawn()?;
        let job = job.filter(|job| job.assign(&rg).is_ok()).map(Arc::new);
        let (tx, events) = mpsc::sync_channel(QUEUE);
        let readers = match (rg.stdout.take(), rg.stderr.take()) {
            (Some(out), Some(err)) => {
                read_on_thread("rg stdout", out, tx.clone(), PipeEvent::Stdout)
                    .and_then(|()| read_on_thread("rg stderr", err, tx, PipeEvent::Stderr))
            }
            _ => Err(io::Error::other("the child's pipes were not created")),
        };
        let child = Self {
            rg,
            job,
            events,
            open: 2,
            stderr: Stderr::default(),
        };
        match readers {
            Ok(()) => Ok(child),
            Err(e) => {
                child.kill();
                let mut rg = child.rg;
                let _ = rg.wait();
                Err(e)
            }
        }
    }

    pub(super) fn pipes_done(&self) -> bool {
        self.open == 0
    }

    /// Wait up to `wait` for what a reader hands over, and take it;
    /// `false` when nothing came (output, or a pipe reaching its end) in
    /// that time.
    pub(super) fn read(
        &mut self,
        wait: Duration,
        meter: &mut Meter,
        feed: &mut impl FnMut(&[u8]),
    ) -> bool {
        match self.events.recv_timeout(wait) {
            Ok(PipeEvent::Stdout(bytes)) => meter.pass(&bytes, feed),
            Ok(PipeEvent::Stderr(bytes)) => self.stderr.push(&bytes),
            Ok(PipeEvent::Closed) => self.open = self.open.saturating_sub(1),
            Err(RecvTimeoutError::Timeout) => return false,
            Err(RecvTimeoutError::Disconnected) => self.open = 0,
        }
        true
    }

    /// Whether rg has exited (its handle stays open, so nothing is reused).
    pub(super) fn exited(&mut self) -> bool {
        !matches!(self.rg.try_wait(), Ok(None))
    }

    /// Kill the job: rg and anything it started.
    pub(super) fn kill(&self) {
        match &self.job {
            Some(job) => job.kill(),
            None => terminate(&self.rg),
        }
    }

    /// The kill, for another thread: the job (shared), or, without one, a
    /// handle of rg's own (a handle keeps the process object, so it never
    /// names another process).
    pub(super) fn kill_from_anywhere(&self) -> Kill {
        if let Some(job) = &self.job {
            let job = Arc::clone(job);
            return Box::new(move || job.kill());
        }
        match self.rg.as_handle().try_clone_to_owned() {
            Ok(rg) => Box::new(move || terminate(&rg)),
            // No handle to be had: the runner's own kill is all there is.
            Err(_) => Box::new(|| {}),
        }
    }

    pub(super) fn reap(mut self) -> (RgExit, Stderr) {
        let code = self.rg.wait().ok().and_then(|status| status.code());
        // What the readers still queue is left to them: the run is over.
        self.stderr.close();
        (RgExit::Status(code.unwrap_or(UNKNOWN_STATUS)), self.stderr)
    }
}

/// Whether `e`, from [`run`](super::run), says the command line is too
/// long for the OS: over `CreateProcessW`'s limit.
pub fn too_long(e: &io::Error) -> bool {
    e.raw_os_error() == Some(TOO_LONG)
}

/// `TerminateProcess` by a handle of rg's (std's `kill` needs `&mut`).
/// Its failure is ignored: that is how it meets an rg that has exited.
fn terminate(rg: &impl AsRawHandle) {
    use windows_sys::Win32::System::Threading::TerminateProcess;
    // SAFETY: the handle is open for as long as `rg` lives.
    #[allow(unsafe_code)]
    let _ = unsafe { TerminateProcess(rg.as_raw_handle(), KILLED) };
}

/// Start a thread that reads `pipe` to its end, handing each chunk to
/// `tx` as `wrap(chunk)`, then [`PipeEvent::Closed`]. It ends early once
/// nobody receives.
fn read_on_thread(
    name: &str,
    mut pipe: impl Read + Send + 'static,
    tx: SyncSender<PipeEvent>,
    wrap: fn(Vec<u8>) -> PipeEvent,
) -> io::Result<()> {
    thread::Builder::new()
        .name(name.to_owned())
        .stack_size(64 * 1024)
        .spawn(move || {
            let mut buf = vec![0u8; READ_CHUNK];
            loop {
                match pipe.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        if tx.send(wrap(buf[..n].to_vec())).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    // A broken pipe is how Windows says the writer is gone.
                    Err(_) => break,
                }
            }
            let _ = tx.send(PipeEvent::Closed);
        })
        .map(drop)
}

/// A Job Object that kills its processes when it is closed.
struct Job(OwnedHandle);

impl Job {
    fn new() -> io::Result<Self> {
        // SAFETY: no security attributes (so the handle is not inheritable)
        // and no name; the result is checked before use.
        #[allow(unsafe_code)]
        let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        if raw.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `raw` is a new handle that nothing else owns.
        #[allow(unsafe_code)]
        let job = Self(unsafe { OwnedHandle::from_raw_handle(raw) });
        let mut limits = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        let size = u32::try_from(std::mem::size_of_val(&limits)).unwrap_or(u32::MAX);
        // SAFETY: the pointer and size describe `limits`, which outlives
        // the call; the class matches the structure.
        #[allow(unsafe_code)]
        let set = unsafe {
            SetInformationJobObject(
                job.0.as_raw_handle(),
                JobObjectExtendedLimitInformation,
                std::ptr::from_ref(&limits).cast(),
                size,
            )
        };
        if set == FALSE {
            return Err(io::Error::last_os_error());
        }
        Ok(job)
    }

    fn assign(&self, rg: &std::process::Child) -> io::Result<()> {
        // SAFETY: both handles are open for the duration of the call.
        #[allow(unsafe_code)]
        let assigned =
            unsafe { AssignProcessToJobObject(self.0.as_raw_handle(), rg.as_raw_handle()) };
        if assigned == FALSE {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    fn kill(&self) {
        // SAFETY: the job handle is open for as long as `self` lives. A
        // job whose processes have all exited is killed without error.
        #[allow(unsafe_code)]
        let _ = unsafe { TerminateJobObject(self.0.as_raw_handle(), KILLED) };
    }
}
