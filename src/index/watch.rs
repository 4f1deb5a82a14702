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
//!
//! A watch follows its directory's inode, not its name: a directory moved
//! or replaced keeps reporting under the name it was watched by until it
//! is walked again. So every event that moves, removes or makes a
//! directory asks for its parent to be listed again and the directory to
//! be walked again whole ([`Event::Entries`]), and a watch whose name the
//! index no longer walks is removed ([`Watcher::unwatch_under`]).

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::mem::MaybeUninit;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::fd::OwnedFd;
use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
use rustix::io::Errno;

use super::names::{Name, join, under};

/// The names in a directory whose change changes the rules rg walks it by:
/// its ignore files, and `.git` (whether `.gitignore` applies at all).
pub const RULE_FILES: [&str; 4] = [".gitignore", ".ignore", ".rgignore", ".git"];

/// One inotify instance and the directory each of its watches names.
pub struct Watcher {
    fd: OwnedFd,
    dirs: Mutex<Dirs>,
    /// The mount table, which says when a file system is mounted or
    /// unmounted (inotify does not: a file system mounted on a watched
    /// directory hides it from its watch).
    mounts: Mutex<Option<File>>,
}

/// The watches, both ways.
#[derive(Default)]
struct Dirs {
    /// Watch descriptor → directory, relative to the workdir (empty for
    /// the workdir itself).
    names: HashMap<i32, Name>,
    wds: HashMap<Name, i32>,
}

impl Dirs {
    fn remove(&mut self, wd: i32) {
        if let Some(name) = self.names.remove(&wd) {
            if self.wds.get(&name) == Some(&wd) {
                self.wds.remove(&name);
            }
        }
    }
}

/// What one event asks of the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A file was written (or closed after being opened to write, or
    /// changed in mode): this name, relative to the workdir. `changed`
    /// unless it was only closed (no write, no mode change).
    Written { name: Name, changed: bool },
    /// A file left this name for good: removed, or moved out of the
    /// watched tree.
    Removed(Name),
    /// A file moved from one name to another, both in the watched tree.
    Moved { from: Name, to: Name },
    /// The entries of the directory `dir` changed: list it again; `child`,
    /// when a directory in it was made, removed, moved or changed in mode,
    /// is walked again whole if it is still there.
    Entries { dir: Name, child: Option<Name> },
    /// The rules of the directory `dir` changed (an ignore file, `.git`):
    /// walk it again whole.
    Rules(Name),
    /// The workdir itself was moved, removed or changed in mode, or a
    /// file system was mounted or unmounted: walk everything again.
    Root,
    /// Events were lost (the kernel's queue overflowed), or could not be
    /// read: nothing the index knows can be trusted.
    Lost,
}

impl Watcher {
    pub fn new() -> io::Result<Self> {
        let fd = inotify::init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK)?;
        Ok(Self {
            fd,
            dirs: Mutex::new(Dirs::default()),
            mounts: Mutex::new(File::open("/proc/self/mountinfo").ok()),
        })
    }

    /// Whether a file system was mounted or unmounted since the last look
    /// (the mount table polls as a priority event until it is read again;
    /// without one to read, every look says so).
    fn mounts_changed(&self) -> bool {
        let mut mounts = self.mounts.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(file) = mounts.as_mut() else {
            return true;
        };
        let mut fds = [PollFd::new(&*file, PollFlags::PRI)];
        let now = Timespec::default();
        let changed = poll(&mut fds, Some(&now)).is_ok_and(|n| n > 0)
            && fds[0].revents().intersects(PollFlags::PRI | PollFlags::ERR);
        if changed {
            let mut table = Vec::new();
            let read = file
                .seek(SeekFrom::Start(0))
                .and_then(|_| file.read_to_end(&mut table));
            if read.is_err() {
                *mounts = None;
            }
        }
        changed
    }

    fn dirs(&self) -> MutexGuard<'_, Dirs> {
        self.dirs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Watch the directory `rel` of `workdir`, before it is read, so that
    /// nothing that changes after the read goes unseen. A directory
    /// watched already (its inode) keeps its watch, named `rel` from now.
    pub fn watch(&self, workdir: &Path, rel: &[u8]) -> io::Result<()> {
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
        let wd = inotify::add_watch(&self.fd, join(workdir, rel), flags)?;
        let mut dirs = self.dirs();
        // Another watch named `rel` is a directory moved away or replaced:
        // only the one just made is that name now.
        if let Some(&other) = dirs.wds.get(rel) {
            if other != wd {
                let _ = inotify::remove_watch(&self.fd, other);
                dirs.remove(other);
            }
        }
        dirs.remove(wd);
        dirs.names.insert(wd, rel.to_vec());
        dirs.wds.insert(rel.to_vec(), wd);
        Ok(())
    }

    /// Stop watching `dir` (unless `keep_dir`) and every directory under it
    /// not in `keep`: they are no longer walked under those names.
    pub fn unwatch_under(&self, dir: &[u8], keep_dir: bool, keep: impl Fn(&[u8]) -> bool) {
        let mut dirs = self.dirs();
        let gone: Vec<i32> = dirs
            .names
            .iter()
            .filter(|(_, name)| {
                if name.as_slice() == dir {
                    !keep_dir
                } else {
                    under(name, dir) && !keep(name)
                }
            })
            .map(|(&wd, _)| wd)
            .collect();
        for wd in gone {
            let _ = inotify::remove_watch(&self.fd, wd);
            dirs.remove(wd);
        }
    }

    /// Directories watched.
    #[cfg(test)]
    pub fn watched(&self) -> usize {
        self.dirs().names.len()
    }

    /// Wait up to `timeout` for an event to be queued.
    pub fn wait(&self, timeout: Duration) {
        let mut fds = [PollFd::new(&self.fd, PollFlags::IN)];
        let timeout = Timespec::try_from(timeout).ok();
        let _ = poll(&mut fds, timeout.as_ref());
    }

    /// Read every event queued now, handing each to `out`.
    pub fn drain(&self, out: &mut impl FnMut(Event)) {
        if self.mounts_changed() {
            out(Event::Root);
        }
        let mut buf = [MaybeUninit::<u8>::uninit(); 16 * 1024];
        let mut reader = inotify::Reader::new(&self.fd, &mut buf);
        let mut dirs = self.dirs();
        // A move's two halves share a cookie; a half left alone at the
        // end left (or came from outside) the watched tree.
        let mut moved_from: Vec<(u32, Name)> = Vec::new();
        loop {
            let event = match reader.next() {
                Ok(event) => event,
                Err(Errno::WOULDBLOCK | Errno::INTR) => break,
                Err(_) => {
                    out(Event::Lost);
                    break;
                }
            };
            let flags = event.events();
            if flags.contains(ReadFlags::QUEUE_OVERFLOW) {
                out(Event::Lost);
                continue;
            }
            if flags.contains(ReadFlags::IGNORED) {
                // The watch is gone (its directory removed, or unwatched
                // here): what removed it has an event of its own.
                dirs.remove(event.wd());
                continue;
            }
            // A watch removed here a moment ago: its directory is gone
            // from the walk or walked again under its new name.
            let Some(dir) = dirs.names.get(&event.wd()) else {
                continue;
            };
            let Some(name) = event.file_name() else {
                // The directory itself: moved, removed or changed in mode.
                // Its parent's watch reports the same change by name; the
                // workdir has no parent in the walk.
                if dir.is_empty() {
                    out(Event::Root);
                }
                continue;
            };
            let rel = child(dir, name.to_bytes());
            if RULE_FILES.map(str::as_bytes).contains(&name.to_bytes()) {
                out(Event::Rules(dir.clone()));
                continue;
            }
            let entry =
                ReadFlags::CREATE | ReadFlags::DELETE | ReadFlags::MOVED_FROM | ReadFlags::MOVED_TO;
            if flags.contains(ReadFlags::ISDIR) {
                // A directory made, removed, moved or changed in mode (it
                // may have become readable, or not).
                out(Event::Entries {
                    dir: dir.clone(),
                    child: Some(rel),
                });
                continue;
            }
            if flags.intersects(entry) {
                out(Event::Entries {
                    dir: dir.clone(),
                    child: None,
                });
            }
            if flags.contains(ReadFlags::DELETE) {
                out(Event::Removed(rel));
            } else if flags.contains(ReadFlags::MOVED_FROM) {
                moved_from.push((event.cookie(), rel));
            } else if flags.contains(ReadFlags::MOVED_TO) {
                if let Some(at) = moved_from.iter().position(|(c, _)| *c == event.cookie()) {
                    let (_, from) = moved_from.swap_remove(at);
                    out(Event::Moved { from, to: rel });
                }
            } else if !flags.contains(ReadFlags::CREATE) {
                out(Event::Written {
                    name: rel,
                    changed: flags.intersects(ReadFlags::MODIFY | ReadFlags::ATTRIB),
                });
            }
        }
        for (_, from) in moved_from {
            out(Event::Removed(from));
        }
    }
}

/// The name of `name` in the directory `dir` (both relative to the workdir).
fn child(dir: &[u8], name: &[u8]) -> Name {
    if dir.is_empty() {
        name.to_vec()
    } else {
        [dir, b"/", name].concat()
    }
}

#[cfg(test)]
#[path = "../../tests/unit/index/watch.rs"]
mod tests;
