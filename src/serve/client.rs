//! The caller's side: ask the tree's server a grep, and fall back to the
//! scan whatever the server does. A server missing, dead, of another
//! user or build, slow to plan, killed mid-call or answering garbage costs
//! a call at most the part of its time the server was given, and the call
//! then scans with the rest ([`ask`]); `--explain` says why
//! (`index: scanned (server: …)`).

use std::fs::File;
use std::io;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::place::{self, ServerFiles};
use super::wire::{self, Answer, Ask, Front, GrepCall, Identity, Reply, Status};
use crate::arguments::Arguments;
use crate::index::Why;
use crate::request::Request;
use crate::settings::{IndexMode, Settings};
use crate::stop::Budget;

/// The longest a server may take to say whether its index answers (it
/// waits up to 250 ms for changes to be taken in, and lists a filtered
/// call's files with rg).
const PLAN_WAIT: Duration = Duration::from_secs(2);
/// How long writing the ask may take.
const WRITE_LIMIT: Duration = Duration::from_secs(1);

/// Why a call was not answered by a server: why, for `--explain`, and
/// whether there was no server at all (the caller may start one).
#[derive(Debug)]
pub struct Unanswered {
    pub why: Why,
    pub absent: bool,
}

impl Unanswered {
    fn new(why: impl Into<String>) -> Self {
        Self {
            why: Why::Server(why.into()),
            absent: false,
        }
    }

    fn absent(why: impl Into<String>) -> Self {
        Self {
            why: Why::Server(why.into()),
            absent: true,
        }
    }
}

/// Ask the tree's server the grep in `args` for `front`, giving it half of
/// what is left of `budget`; `Err` when the call must scan, and why.
pub fn ask(
    args: &Arguments,
    settings: &Settings,
    front: Front,
    budget: Budget<'_>,
) -> Result<Answer, Unanswered> {
    let Ok(Request::Grep(request)) = &args.request else {
        return Err(Unanswered::new("not a grep"));
    };
    let place = ServerFiles::of(&settings.workdir).map_err(Unanswered::new)?;
    let mut stream = connect(&place.socket)?;
    let half = budget.remaining() / 2;
    let call = GrepCall {
        identity: Identity::here(settings.rg.path()),
        settings: settings.clone(),
        request: request.clone(),
        ignored: args.ignored.clone(),
        front,
        budget_ms: u64::try_from(half.as_millis()).unwrap_or(u64::MAX).max(1),
    };
    let lost = |e: io::Error| Unanswered::new(format!("the connection failed ({e})"));
    stream
        .set_write_timeout(Some(WRITE_LIMIT))
        .and_then(|()| wire::send(&mut stream, &Ask::Grep(Box::new(call))))
        .map_err(lost)?;
    match read(&mut stream, PLAN_WAIT.min(half))? {
        Reply::Planned => {}
        Reply::Scan(why) => return Err(Unanswered::new(why)),
        Reply::Refused(why) => return Err(Unanswered::new(format!("refused: {why}"))),
        _ => return Err(Unanswered::new("it answered out of turn")),
    }
    // The server stops at its budget and answers within its watchdog's
    // grace; past that, it is stuck.
    let wait = (half + Duration::from_millis(1200)).min(budget.remaining());
    match read(&mut stream, wait)? {
        Reply::Answer(answer) if (answer.result.is_some()) == (front == Front::Mcp) => Ok(answer),
        Reply::Scan(why) => Err(Unanswered::new(why)),
        _ => Err(Unanswered::new("it answered out of turn")),
    }
}

/// Connect to the socket at `path`, never waiting: a server with no room
/// for another connection is busy.
fn connect(path: &Path) -> Result<UnixStream, Unanswered> {
    use rustix::io::Errno;
    use rustix::net::{AddressFamily, SocketAddrUnix, SocketType};
    // Flags set after the fact: macOS has no SOCK_CLOEXEC or SOCK_NONBLOCK.
    // A child started between the two calls (the CLI starts none while it
    // asks) would inherit the socket and nothing worse.
    let socket = rustix::net::socket(AddressFamily::UNIX, SocketType::STREAM, None)
        .and_then(|socket| {
            rustix::io::fcntl_setfd(&socket, rustix::io::FdFlags::CLOEXEC)?;
            rustix::io::ioctl_fionbio(&socket, true)?;
            Ok(socket)
        })
        .map_err(|e| Unanswered::new(format!("no socket ({e})")))?;
    let address = SocketAddrUnix::new(path)
        .map_err(|e| Unanswered::new(format!("cannot name {} ({e})", path.display())))?;
    match rustix::net::connect(&socket, &address) {
        Ok(()) => {}
        Err(Errno::NOENT) => return Err(Unanswered::absent("no server for this tree")),
        Err(Errno::CONNREFUSED) => {
            return Err(Unanswered::absent(
                "no server for this tree (a stale socket)",
            ));
        }
        Err(Errno::AGAIN) => return Err(Unanswered::new("busy")),
        Err(e) => return Err(Unanswered::new(format!("cannot connect ({e})"))),
    }
    let stream = UnixStream::from(socket);
    // The directory is private, and the server must be this user's too.
    if place::peer_uid(&stream).ok() != Some(place::uid()) {
        return Err(Unanswered::new("it belongs to another user"));
    }
    stream
        .set_nonblocking(false)
        .map_err(|e| Unanswered::new(format!("cannot connect ({e})")))?;
    Ok(stream)
}

/// The next reply, within `wait`.
fn read(stream: &mut UnixStream, wait: Duration) -> Result<Reply, Unanswered> {
    let wait = wait.max(Duration::from_millis(1));
    stream
        .set_read_timeout(Some(wait))
        .map_err(|e| Unanswered::new(format!("the connection failed ({e})")))?;
    wire::receive(stream).map_err(|e| match e.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => {
            Unanswered::new(format!("no answer within {} ms", wait.as_millis()))
        }
        io::ErrorKind::UnexpectedEof => Unanswered::new("the connection was lost"),
        io::ErrorKind::InvalidData => Unanswered::new("it answered garbage"),
        _ => Unanswered::new(format!("the connection failed ({e})")),
    })
}

/// Start the server of `settings.workdir`, detached: its own process
/// group (no terminal's signal reaches it), nothing of the caller's stdio,
/// what it says in the tree's log file. The index it builds reads at the
/// lowest priority; the calls it answers do not wait behind that.
pub fn start(settings: &Settings) -> io::Result<Child> {
    // Elsewhere a server's index cannot answer (§11): none is started.
    if !cfg!(target_os = "linux") {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "the index answers on Linux only",
        ));
    }
    let place = ServerFiles::of(&settings.workdir).map_err(io::Error::other)?;
    let rg = settings
        .rg
        .path()
        .ok_or_else(|| io::Error::other("no rg"))?;
    let log = {
        use std::os::unix::fs::OpenOptionsExt;
        File::options()
            .create(true)
            .truncate(true)
            .write(true)
            .mode(0o600)
            .open(&place.log)?
    };
    Command::new(std::env::current_exe()?)
        .arg("--cwd")
        .arg(&settings.workdir)
        .arg("--rg")
        .arg(rg)
        .arg("serve")
        .env("DSH_SEARCH_INDEX", "auto")
        .current_dir(&place.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .process_group(0)
        .spawn()
}

/// Start the tree's server unless one answers, and wait up to `wait` for
/// its index to answer (the tests' and the benchmark's seam); the child
/// started, to be reaped by its starter.
pub fn ensure(settings: &Settings, wait: Option<Duration>) -> Option<Child> {
    if settings.index == IndexMode::Off {
        return None;
    }
    let place = ServerFiles::of(&settings.workdir).ok()?;
    let child = match status(&place.socket) {
        Ok(_) => None,
        Err(_) => start(settings).ok(),
    };
    if let Some(wait) = wait {
        let until = Instant::now() + wait;
        while Instant::now() < until {
            // Ready, or never to be (its build failed).
            if status(&place.socket).is_ok_and(|s| s.ready || s.unavailable.is_some()) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    child
}

/// The state of the server listening at `socket`.
pub fn status(socket: &Path) -> io::Result<Status> {
    let mut stream = connect(socket).map_err(|u| io::Error::other(u.why.to_string()))?;
    stream.set_write_timeout(Some(WRITE_LIMIT))?;
    wire::send(&mut stream, &Ask::Status)?;
    stream.set_read_timeout(Some(PLAN_WAIT))?;
    match wire::receive(&mut stream)? {
        Reply::Status(status) => Ok(*status),
        _ => Err(io::Error::other("it answered out of turn")),
    }
}

/// Every socket in the user's private directory, each with its server's
/// state.
pub fn statuses() -> Result<Vec<(PathBuf, io::Result<Status>)>, String> {
    let mut sockets = Vec::new();
    for dir in [
        place::private_dir()?,
        std::env::temp_dir().join(format!("dsh-search-{}", place::uid())),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "sock") {
                sockets.push(path);
            }
        }
    }
    sockets.sort();
    Ok(sockets
        .into_iter()
        .map(|path| {
            let status = status(&path);
            (path, status)
        })
        .collect())
}
