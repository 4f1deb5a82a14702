//! Linux: the watcher that keeps the index fresh (doc/SPEC.md §11), inotify
//! on every directory the scan walks.
//!
//! inotify queues an event inside the system call that made the change,
//! before that call returns. So once a call has read the queue to its end
//! ([`Watcher::drain`]), every change made before the call started is in
//! hand: the freshness the index promises. This is why the index reads
//! inotify itself rather than through the `notify` crate, whose events
//! reach a channel from a thread of its own, with no way to know that a
//! change already made has arrived. On every other OS no watcher gives
//! that order, and the index is not used (`Index::start`).

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io;
use std::mem::MaybeUninit;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::fd::OwnedFd;
use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
use rustix::io::Errno;

/// The ignore files rg reads in a directory: a change to one re-derives
/// the file set.
pub const IGNORE_FILES: [&str; 3] = [".gitignore", ".ignore", ".rgignore"];

/// One inotify instance and the directory each of its watches names.
pub struct Watcher {
    fd: OwnedFd,
    /// Watch descriptor → directory, relative to the workdir (`""` for it).
    dirs: Mutex<HashMap<i32, String>>,
}

/// What the events drained so far say.
#[derive(Debug, Default)]
pub struct Changes {
    /// Files written, created, removed or changed in mode, by the name rg
    /// prints for them (relative to the workdir).
    pub dirty: Vec<String>,
    /// The file set may have changed: an entry created, removed or
    /// renamed, an ignore file changed, a directory changed in mode.
    pub structural: bool,
    /// Events were lost (the kernel's queue overflowed) or cannot be
    /// placed: nothing the index knows can be trusted.
    pub lost: bool,
}

impl Watcher {
    pub fn new() -> io::Result<Self> {
        let fd = inotify::init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK)?;
        Ok(Self {
            fd,
            dirs: Mutex::new(HashMap::new()),
        })
    }

    /// Watch the directory `rel` of `workdir` (before reading it, so that
    /// nothing created after the read goes unseen).
    pub fn watch(&self, workdir: &Path, rel: &str) -> io::Result<()> {
        let flags = WatchFlags::MODIFY
            | WatchFlags::ATTRIB
            | WatchFlags::CLOSE_WRITE
            | WatchFlags::CREATE
            | WatchFlags::DELETE
            | WatchFlags::DELETE_SELF
            | WatchFlags::MOVE_SELF
            | WatchFlags::MOVED_FROM
            | WatchFlags::MOVED_TO
            | WatchFlags::ONLYDIR
            | WatchFlags::DONT_FOLLOW
            | WatchFlags::EXCL_UNLINK;
        let wd = inotify::add_watch(&self.fd, workdir.join(rel), flags)?;
        if let Ok(mut dirs) = self.dirs.lock() {
            dirs.insert(wd, rel.to_owned());
        }
        Ok(())
    }

    /// Stop watching every directory not in `keep`.
    pub fn keep_only(&self, keep: &std::collections::HashSet<String>) {
        if let Ok(mut dirs) = self.dirs.lock() {
            dirs.retain(|&wd, rel| {
                let kept = keep.contains(rel.as_str());
                if !kept {
                    let _ = inotify::remove_watch(&self.fd, wd);
                }
                kept
            });
        }
    }

    /// Wait up to `timeout` for an event to be queued.
    pub fn wait(&self, timeout: Duration) {
        let mut fds = [PollFd::new(&self.fd, PollFlags::IN)];
        let timeout = Timespec::try_from(timeout).ok();
        let _ = poll(&mut fds, timeout.as_ref());
    }

    /// Read every event queued now into `changes`.
    pub fn drain(&self, changes: &mut Changes) {
        let mut buf = [MaybeUninit::<u8>::uninit(); 16 * 1024];
        let mut reader = inotify::Reader::new(&self.fd, &mut buf);
        let Ok(mut dirs) = self.dirs.lock() else {
            changes.lost = true;
            return;
        };
        loop {
            let event = match reader.next() {
                Ok(event) => event,
                Err(Errno::WOULDBLOCK | Errno::INTR) => return,
                Err(_) => {
                    changes.lost = true;
                    return;
                }
            };
            let flags = event.events();
            if flags.contains(ReadFlags::QUEUE_OVERFLOW) {
                changes.lost = true;
                continue;
            }
            let Some(dir) = dirs.get(&event.wd()).cloned() else {
                // A watch removed a moment ago, or not yet named.
                changes.structural = true;
                continue;
            };
            if flags.contains(ReadFlags::IGNORED) {
                dirs.remove(&event.wd());
                changes.structural = true;
                continue;
            }
            let Some(name) = event.file_name() else {
                // The directory itself: removed, moved or changed in mode.
                changes.structural = true;
                continue;
            };
            let name = OsStr::from_bytes(name.to_bytes());
            let structural = ReadFlags::CREATE
                | ReadFlags::DELETE
                | ReadFlags::MOVED_FROM
                | ReadFlags::MOVED_TO
                | ReadFlags::DELETE_SELF
                | ReadFlags::MOVE_SELF;
            if flags.intersects(structural)
                || flags.contains(ReadFlags::ISDIR)
                || IGNORE_FILES.iter().any(|f| OsStr::new(f) == name)
            {
                changes.structural = true;
            }
            let name = name.to_string_lossy();
            changes.dirty.push(if dir.is_empty() {
                name.into_owned()
            } else {
                format!("{dir}/{name}")
            });
        }
    }
}
