//! The server: its socket, its lock, its calls (see `serve`).

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::place::{self, ServerFiles};
use super::wire::{self, Answer, Ask, Front, Identity, Reply, Status};
use crate::arguments::Arguments;
use crate::call;
use crate::diag;
use crate::error::{ErrorCode, Exit, Fault};
use crate::index::Index;
use crate::render;
use crate::request::Request;
use crate::settings::Settings;
use crate::signals;
use crate::stop::{self, Stop};
use crate::watchdog;

/// How often the server looks at its signals, its idleness, its tree and
/// its socket.
const TICK: Duration = Duration::from_millis(200);
/// The most calls served at once; beyond, a caller is told to scan.
const CALLS_AT_ONCE: usize = 64;
/// How long a connection may take to say what it asks.
const READ_LIMIT: Duration = Duration::from_secs(5);

/// `dsh-search serve`: serve the index of `settings.workdir` until idle
/// for `idle`, or gone.
pub fn serve(settings: &Settings, idle: Duration, stop: &Arc<Stop>) -> Exit {
    if !cfg!(target_os = "linux") {
        return super::no_index_here();
    }
    match Server::open(settings, stop) {
        Ok(Some(server)) => server.run(idle, stop),
        // Another server has the tree: it serves.
        Ok(None) => Exit::Success,
        Err(e) => {
            diag::note(&format!("dsh-search serve: {e}"));
            Exit::Fault(Fault::Serve)
        }
    }
}

/// A server, listening.
struct Server {
    place: ServerFiles,
    listener: UnixListener,
    /// The socket file as bound: another file there is not ours.
    socket_ino: u64,
    /// The tree as the server started on it.
    tree_id: (u64, u64),
    /// Held open for the server's life: the tree's lock.
    _lock: File,
    shared: Arc<ServerState>,
}

/// What the listener and the connections' threads share.
struct ServerState {
    index: Index,
    identity: Identity,
    tree: String,
    started: Instant,
    calls: AtomicU64,
    /// Milliseconds from `started` to the last call's end.
    last: AtomicU64,
    active: AtomicUsize,
    stop: Arc<Stop>,
}

impl Server {
    /// Take the tree's lock, and listen. `None` when another server holds
    /// the lock.
    fn open(settings: &Settings, stop: &Arc<Stop>) -> Result<Option<Self>, String> {
        let place = ServerFiles::of(&settings.workdir)?;
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&place.lock)
            .map_err(|e| format!("cannot open {} ({e})", place.lock.display()))?;
        match rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => {}
            Err(rustix::io::Errno::WOULDBLOCK) => return Ok(None),
            Err(e) => return Err(format!("cannot lock {} ({e})", place.lock.display())),
        }
        // The lock is ours: a socket file there is a dead server's.
        let _ = fs::remove_file(&place.socket);
        let bound = place
            .socket
            .with_extension(format!("sock.{}", std::process::id()));
        let _ = fs::remove_file(&bound);
        let listener = UnixListener::bind(&bound)
            .map_err(|e| format!("cannot listen on {} ({e})", bound.display()))?;
        // Only then under its name, already private: no client ever meets
        // a socket others may reach.
        fs::set_permissions(&bound, fs::Permissions::from_mode(0o600))
            .and_then(|()| fs::rename(&bound, &place.socket))
            .map_err(|e| format!("cannot place {} ({e})", place.socket.display()))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("cannot listen ({e})"))?;
        let socket_ino = fs::symlink_metadata(&place.socket)
            .map(|m| m.ino())
            .map_err(|e| format!("cannot read {} ({e})", place.socket.display()))?;
        let tree_id = identity_of(&place.tree).ok_or("the workdir is gone")?;
        // The index walks from `./`, as rg does (`index::tree::walk`).
        std::env::set_current_dir(&settings.workdir)
            .map_err(|e| format!("cannot enter {} ({e})", settings.workdir.display()))?;
        let index = Index::start(settings, stop, &place.dir.join("empty"));
        let shared = Arc::new(ServerState {
            index,
            identity: Identity::here(settings.rg.path()),
            tree: place.tree.to_string_lossy().into_owned(),
            started: Instant::now(),
            calls: AtomicU64::new(0),
            last: AtomicU64::new(0),
            active: AtomicUsize::new(0),
            stop: Arc::clone(stop),
        });
        diag::note(&format!(
            "dsh-search serve: pid {} serves {} on {}",
            std::process::id(),
            shared.tree,
            place.socket.display()
        ));
        Ok(Some(Self {
            place,
            listener,
            socket_ino,
            tree_id,
            _lock: lock,
            shared,
        }))
    }

    fn run(self, idle: Duration, stop: &Arc<Stop>) -> Exit {
        let why = loop {
            if let Some(signal) = stop.signal() {
                break format!("stopped by {}", stop::signal_name(signal));
            }
            self.accept();
            let shared = &self.shared;
            let since = Duration::from_millis(shared.last.load(Ordering::SeqCst));
            if shared.active.load(Ordering::SeqCst) == 0
                && shared.started.elapsed().saturating_sub(since) >= idle
            {
                break format!("idle for {} ms", idle.as_millis());
            }
            if identity_of(&self.place.tree) != Some(self.tree_id) {
                break "the workdir is gone".to_owned();
            }
            let socket = fs::symlink_metadata(&self.place.socket).map(|m| m.ino());
            if socket.ok() != Some(self.socket_ino) {
                break "its socket was removed".to_owned();
            }
            wait_readable(&self.listener, TICK);
        };
        self.shared.index.shutdown();
        // Only our own socket: another server may have bound that name.
        let socket = fs::symlink_metadata(&self.place.socket).map(|m| m.ino());
        if socket.ok() == Some(self.socket_ino) {
            let _ = fs::remove_file(&self.place.socket);
        }
        diag::note(&format!(
            "dsh-search serve: pid {} ends: {why}",
            std::process::id()
        ));
        if stop.signal().is_some() {
            signals::die_if_fatal(stop);
            return Exit::Failed(ErrorCode::SearchAborted);
        }
        Exit::Success
    }

    /// Take every connection waiting, each on a thread of its own.
    fn accept(&self) {
        loop {
            let mut stream = match self.listener.accept() {
                Ok((stream, _)) => stream,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return,
            };
            // Only this user's callers: another user's is closed unread.
            if place::peer_uid(&stream).ok() != Some(place::uid()) {
                continue;
            }
            let shared = Arc::clone(&self.shared);
            if shared.active.fetch_add(1, Ordering::SeqCst) >= CALLS_AT_ONCE {
                let _ = wire::send(&mut stream, &Reply::Refused("busy".to_owned()));
                shared.active.fetch_sub(1, Ordering::SeqCst);
                continue;
            }
            let started = std::thread::Builder::new()
                .name("serve-call".into())
                .spawn(move || {
                    ServerState::handle(&shared, stream);
                    let at = shared.started.elapsed().as_millis();
                    shared
                        .last
                        .store(u64::try_from(at).unwrap_or(u64::MAX), Ordering::SeqCst);
                    shared.active.fetch_sub(1, Ordering::SeqCst);
                });
            if started.is_err() {
                self.shared.active.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }
}

impl ServerState {
    /// Serve one connection: one ask.
    fn handle(this: &Arc<Self>, mut stream: UnixStream) {
        if stream.set_nonblocking(false).is_err()
            || stream.set_read_timeout(Some(READ_LIMIT)).is_err()
        {
            return;
        }
        let reply = match wire::receive::<Ask>(&mut stream) {
            Ok(Ask::Status) => Reply::Status(Box::new(this.status())),
            Ok(Ask::Grep(call)) => {
                this.calls.fetch_add(1, Ordering::SeqCst);
                Self::grep(this, *call, &stream)
            }
            Err(_) => return,
        };
        let _ = wire::send(&mut stream, &reply);
    }

    fn status(&self) -> Status {
        let (ready, files) = self.index.state();
        Status {
            pid: std::process::id(),
            tree: self.tree.clone(),
            ready,
            files,
            unavailable: self.index.unavailable(),
            memory: resident(),
            age_ms: u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
            calls: self.calls.load(Ordering::SeqCst),
            identity: self.identity.clone(),
        }
    }

    /// The answer to one grep: `Planned` first (on `stream`) once the
    /// index answers, then the answer; or why the caller must scan.
    fn grep(this: &Arc<Self>, call: wire::GrepCall, stream: &UnixStream) -> Reply {
        if let Some(why) = this.identity.differs(&call.identity) {
            return Reply::Refused(format!("it runs {why}"));
        }
        let same_tree = call
            .settings
            .workdir
            .canonicalize()
            .is_ok_and(|tree| tree.to_string_lossy() == this.tree);
        if !same_tree {
            return Reply::Refused("it serves another tree".to_owned());
        }
        let mut settings = call.settings;
        settings.timeout_ms =
            std::num::NonZeroU64::new(call.budget_ms).unwrap_or(settings.timeout_ms);
        let front = call.front;
        let args = Arguments {
            request: Ok(Request::Grep(call.request)),
            ignored: call.ignored,
        };
        let Ok(mut ack) = stream.try_clone() else {
            return Reply::Refused("cannot answer".to_owned());
        };
        let stop = Arc::new(this.stop.for_call());
        let worker_stop = Arc::clone(&stop);
        let shared = Arc::clone(this);
        let timeout = settings.timeout();
        let answered = watchdog::run(&stop, timeout, move || {
            let planned = || {
                let _ = wire::send(&mut ack, &Reply::Planned);
            };
            match call::respond_from_index(args, &settings, &worker_stop, &shared.index, planned) {
                Err(why) => Reply::Scan(why.to_string()),
                Ok(response) if response.exit() == Exit::Failed(ErrorCode::SearchAborted) => {
                    Reply::Scan("its time ran out".to_owned())
                }
                Ok(response) => Reply::Answer(Answer {
                    stdout: match front {
                        Front::Cli => render::stdout(&response, settings.format),
                        Front::Mcp => String::new(),
                    },
                    exit: response.exit(),
                    result: (front == Front::Mcp)
                        .then(|| crate::render::ToolResult::of(&response, settings.mcp_structured)),
                    explain: response.explain,
                }),
            }
        });
        answered.unwrap_or_else(|_| Reply::Scan("its call did not end in time".to_owned()))
    }
}

/// The inode and device of `path`, which a replaced or removed workdir
/// changes.
fn identity_of(path: &Path) -> Option<(u64, u64)> {
    fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// This process's resident memory, in bytes (Linux).
fn resident() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Wait up to `wait` for a connection.
fn wait_readable(listener: &UnixListener, wait: Duration) {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(listener, PollFlags::IN)];
    let timeout = Timespec::try_from(wait).ok();
    let _ = poll(&mut fds, timeout.as_ref());
}
